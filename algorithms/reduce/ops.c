/* Reduction operations and element types, as in MPI.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "ops.h"

#include <stdint.h>
#include <string.h>

static const char *const op_names[SC_NOPS] = {"sum",  "prod", "max",  "min",  "land",
                                              "lor",  "lxor", "band", "bor",  "bxor"};
static const char *const type_names[SC_NTYPES] = {"int", "double"};

const char *sc_op_name(sc_op_t op)
{
    return op < SC_NOPS ? op_names[op] : "?";
}

const char *sc_type_name(sc_type_t type)
{
    return type < SC_NTYPES ? type_names[type] : "?";
}

size_t sc_type_size(sc_type_t type)
{
    return type == SC_TYPE_DOUBLE ? sizeof(double) : sizeof(int);
}

sc_err_t sc_op_parse(const char *text, const char *what, sc_op_t *op)
{
    for (int i = 0; i < SC_NOPS; i++)
        if (strcmp(text, op_names[i]) == 0) {
            *op = (sc_op_t)i;
            return SC_OK;
        }
    return sc_error(SC_ERR_INPUT,
                    "%s: unknown operation '%s'; use one of sum, prod, max, min, land, lor, "
                    "lxor, band, bor, bxor",
                    what, text);
}

sc_err_t sc_type_parse(const char *text, const char *what, sc_type_t *type)
{
    for (int i = 0; i < SC_NTYPES; i++)
        if (strcmp(text, type_names[i]) == 0) {
            *type = (sc_type_t)i;
            return SC_OK;
        }
    return sc_error(SC_ERR_INPUT, "%s: unknown type '%s'; use int or double", what, text);
}

sc_err_t sc_op_check(sc_op_t op, sc_type_t type)
{
    if (type == SC_TYPE_DOUBLE && op >= SC_OP_LAND)
        return sc_error(SC_ERR_INPUT,
                        "the operation %s is defined on int only, as in MPI: did you mean the "
                        "type int (--type int; type=int in a program)? On double use sum, prod, "
                        "max or min",
                        sc_op_name(op));
    return SC_OK;
}

#define APPLY(T, EXPR)                                                                             \
    do {                                                                                           \
        T *a = inout;                                                                              \
        const T *b = in;                                                                           \
        for (size_t i = 0; i < count; i++)                                                         \
            a[i] = (EXPR);                                                                         \
    } while (0)

void sc_op_apply(sc_op_t op, sc_type_t type, void *inout, const void *in, size_t count)
{
    if (type == SC_TYPE_DOUBLE) {
        switch (op) {
        case SC_OP_SUM: APPLY(double, a[i] + b[i]); break;
        case SC_OP_PROD: APPLY(double, a[i] * b[i]); break;
        case SC_OP_MAX: APPLY(double, a[i] > b[i] ? a[i] : b[i]); break;
        case SC_OP_MIN: APPLY(double, a[i] < b[i] ? a[i] : b[i]); break;
        default: break; /* refused by sc_op_check */
        }
        return;
    }
    /* Sums and products wrap around in unsigned arithmetic, as two's
     * complement hardware does, rather than overflow a signed int. */
    switch (op) {
    case SC_OP_SUM: APPLY(int, (int)((unsigned)a[i] + (unsigned)b[i])); break;
    case SC_OP_PROD: APPLY(int, (int)((unsigned)a[i] * (unsigned)b[i])); break;
    case SC_OP_MAX: APPLY(int, a[i] > b[i] ? a[i] : b[i]); break;
    case SC_OP_MIN: APPLY(int, a[i] < b[i] ? a[i] : b[i]); break;
    case SC_OP_LAND: APPLY(int, a[i] && b[i]); break;
    case SC_OP_LOR: APPLY(int, a[i] || b[i]); break;
    case SC_OP_LXOR: APPLY(int, !a[i] != !b[i]); break;
    case SC_OP_BAND: APPLY(int, a[i] & b[i]); break;
    case SC_OP_BOR: APPLY(int, a[i] | b[i]); break;
    case SC_OP_BXOR: APPLY(int, a[i] ^ b[i]); break;
    case SC_NOPS: break;
    }
}

/* 32 well-mixed bits of (rank, k): golden-ratio multiples added, then a
 * multiply-xorshift finalizer (as in MurmurHash3), so that no bit of one
 * rank's values is a fixed function of another's. */
static uint32_t mix(int rank, size_t k)
{
    uint32_t h = (uint32_t)(rank + 1) * 0x9e3779b1u + (uint32_t)(k + 1) * 0x85ebca77u;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    return h ^ (h >> 16);
}

/* One loop per operation, with k % (p + 1) == rank (the element this rank
 * decides) counted along: verified runs sample every rank's vector twice
 * (its input and the reference), p times n elements. */
#define SAMPLE(T, value)                                                           \
    do {                                                                           \
        T *o = out;                                                                \
        for (size_t i = 0; i < n; i++) {                                           \
            uint32_t h = mix(rank, first + i);                                     \
            int decides = turn == (size_t)rank;                                    \
            (void)h, (void)decides; /* not every operation's value uses both */    \
            T x = (value);                                                         \
            memcpy(o + i, &x, sizeof x);                                           \
            if (++turn == period)                                                  \
                turn = 0;                                                          \
        }                                                                          \
    } while (0)

void sc_op_sample_n(sc_op_t op, sc_type_t type, int rank, int p, size_t first, size_t n,
                    void *out)
{
    size_t period = (size_t)p + 1, turn = first % period;
    if (type == SC_TYPE_DOUBLE) {
        static const double factors[] = {1, -1, 2, -2, 0.5, -0.5};
        switch (op) {
        case SC_OP_SUM: SAMPLE(double, (double)(int)(h % 2001) - 1000); break;
        case SC_OP_PROD: SAMPLE(double, factors[h % 6]); break;
        case SC_OP_MAX: SAMPLE(double, decides ? 1e6 : (double)(int)(h % 2001) - 1000); break;
        case SC_OP_MIN: SAMPLE(double, decides ? -1e6 : (double)(int)(h % 2001) - 1000); break;
        default: SAMPLE(double, 0); break; /* refused by sc_op_check */
        }
        return;
    }
    switch (op) {
    case SC_OP_SUM:
    case SC_OP_BXOR: SAMPLE(int, (int)h); break;
    case SC_OP_PROD: SAMPLE(int, (int)(h | 1)); break; /* odd: never collapses to 0 */
    case SC_OP_MAX: SAMPLE(int, decides ? INT32_MAX : (int)(h % 1000000)); break;
    case SC_OP_MIN: SAMPLE(int, decides ? INT32_MIN : (int)(h % 1000000)); break;
    case SC_OP_LAND: SAMPLE(int, decides ? 0 : (int)(h | 1)); break;
    case SC_OP_LOR: SAMPLE(int, decides ? (int)(h | 1) : 0); break;
    case SC_OP_LXOR: SAMPLE(int, h & 1 ? (int)(h | 2) : 0); break;
    case SC_OP_BAND: SAMPLE(int, (int)~(1u << ((unsigned)rank + first + i) % 32)); break;
    case SC_OP_BOR: SAMPLE(int, (int)(1u << ((unsigned)rank + first + i) % 32)); break;
    default: SAMPLE(int, 0); break;
    }
}
#undef SAMPLE

void sc_op_sample(sc_op_t op, sc_type_t type, int rank, int p, size_t k, void *out)
{
    sc_op_sample_n(op, type, rank, p, k, 1, out);
}

int sc_op_can_decide(sc_op_t op)
{
    return op == SC_OP_LAND || op == SC_OP_LOR || op == SC_OP_BAND || op == SC_OP_BOR;
}

int sc_op_decides(sc_op_t op, const void *x)
{
    int v;
    memcpy(&v, x, sizeof v);
    switch (op) {
    case SC_OP_LAND:
    case SC_OP_BAND: return v == 0;
    case SC_OP_LOR: return v != 0;
    case SC_OP_BOR: return v == -1;
    default: return 0;
    }
}

void sc_op_deciding(sc_op_t op, void *out)
{
    int v = op == SC_OP_LOR ? 1 : op == SC_OP_BOR ? -1 : 0;
    memcpy(out, &v, sizeof v);
}

void sc_op_sample_decider(sc_op_t op, int rank, int decides, size_t k, void *out)
{
    if (decides) {
        sc_op_deciding(op, out);
        return;
    }
    uint32_t h = mix(rank, k);
    int x;
    switch (op) {
    case SC_OP_LAND: x = (int)(h | 1); break;
    case SC_OP_LOR: x = 0; break;
    case SC_OP_BAND: x = (int)~(1u << ((unsigned)rank + k) % 32); break;
    case SC_OP_BOR: x = (int)(1u << ((unsigned)rank + k) % 32); break;
    default: x = 0; break;
    }
    memcpy(out, &x, sizeof x);
}

void sc_op_sample_extreme(sc_op_t op, sc_type_t type, int rank, int holds, size_t k, void *out)
{
    /* The values of sc_op_sample, where only the holder decides. */
    uint32_t h = mix(rank, k);
    int max = op == SC_OP_MAX;
    if (type == SC_TYPE_DOUBLE) {
        double x = holds ? (max ? 1e6 : -1e6) : (double)(int)(h % 2001) - 1000;
        memcpy(out, &x, sizeof x);
    } else {
        int x = holds ? (max ? INT32_MAX : INT32_MIN) : (int)(h % 1000000);
        memcpy(out, &x, sizeof x);
    }
}

int sc_op_better(sc_op_t op, sc_type_t type, const void *a, const void *b)
{
    int max = op == SC_OP_MAX;
    if (type == SC_TYPE_DOUBLE) {
        double x, y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        return max ? x > y : x < y;
    }
    int x, y;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    return max ? x > y : x < y;
}
