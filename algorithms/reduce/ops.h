/* Reduction operations and element types, as in MPI.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_OPS_H
#define SC_OPS_H

#include <stddef.h>

#include "../../common/sc_error.h"

/* public: in simcoll.h, the plug-ins' API (algorithms/plugin/) */
typedef enum {
    SC_OP_SUM,
    SC_OP_PROD,
    SC_OP_MAX,
    SC_OP_MIN,
    SC_OP_LAND,
    SC_OP_LOR,
    SC_OP_LXOR,
    SC_OP_BAND,
    SC_OP_BOR,
    SC_OP_BXOR,
    SC_NOPS
} sc_op_t;

typedef enum { SC_TYPE_INT, SC_TYPE_DOUBLE, SC_NTYPES } sc_type_t;
/* end public */

/* "sum", "prod", ... and "int", "double", as the command line spells them. */
const char *sc_op_name(sc_op_t op);
const char *sc_type_name(sc_type_t type);

/* Bytes of one element. */
size_t sc_type_size(sc_type_t type);

/* SC_ERR_INPUT naming the value and the choices when text is not an op or
 * type; `what` is the option ("--op"). */
sc_err_t sc_op_parse(const char *text, const char *what, sc_op_t *op);
sc_err_t sc_type_parse(const char *text, const char *what, sc_type_t *type);

/* MPI defines the logical and bitwise operations on integers only:
 * SC_ERR_INPUT for "band on double" and the like. */
sc_err_t sc_op_check(sc_op_t op, sc_type_t type);

/* inout[i] = inout[i] op in[i] for `count` elements. All the operations
 * are commutative and associative. */
void sc_op_apply(sc_op_t op, sc_type_t type, void *inout, const void *in, size_t count);

/* The element k that rank `rank` of p contributes in verified runs, stored
 * at `out` (one element of `type`). The values make every order of
 * combining give the same exact result, so results compare bit for bit
 * with a sequential reduction: integers wrap around (sums, products,
 * bitwise operations are exact in any order), double sums stay small
 * integers, double products are +-2^j. They also make each rank count: a
 * lost or doubled contribution changes sums, products and xors; for
 * max, min, land, lor, rank k mod (p+1) decides element k (no rank when
 * that is p); for band, bor, rank r owns bit (r + k) mod 32. */
void sc_op_sample(sc_op_t op, sc_type_t type, int rank, int p, size_t k, void *out);

/* sc_op_sample of elements first .. first + n - 1, stored from `out`. */
void sc_op_sample_n(sc_op_t op, sc_type_t type, int rank, int p, size_t first, size_t n,
                    void *out);

/* Early exit (reference 003): land, lor, band and bor have an element that
 * alone decides the result (false, true, all bits 0, all bits 1). */
int sc_op_can_decide(sc_op_t op);

/* Whether element x decides op's result (op one that can decide, x an int). */
int sc_op_decides(sc_op_t op, const void *x);

/* The deciding element of op (an int): false is 0, true 1. */
void sc_op_deciding(sc_op_t op, void *out);

/* Element k of rank `rank` under `--data decider=...`: the deciding one if
 * the rank decides, else one that decides nothing, as sc_op_sample's. */
void sc_op_sample_decider(sc_op_t op, int rank, int decides, size_t k, void *out);

/* Element k of rank `rank` of a MAX or MIN under `--data extreme=...`: the
 * extreme (the type's largest or smallest sample) if the rank holds it,
 * else sc_op_sample's value of a rank that decides nothing. */
void sc_op_sample_extreme(sc_op_t op, sc_type_t type, int rank, int holds, size_t k, void *out);

/* Whether element a is strictly better than b for MAX (larger) or MIN
 * (smaller). */
int sc_op_better(sc_op_t op, sc_type_t type, const void *a, const void *b);

#endif
