/* Programs: what every rank runs in one simulation, a sequence of
 * collective calls, point-to-point exchanges, compute phases and loops.
 * Plain C, no SimGrid: the parser, the checks and the packing transform.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_PROGRAM_H
#define SC_PROGRAM_H

#include <stddef.h>
#include <stdio.h>

#include "algorithms/profiles/profiles.h"
#include "algorithms/registry.h"
#include "models/p2p.h"

typedef enum {
    SC_STMT_CALL,    /* a collective call */
    SC_STMT_HALO,    /* every rank exchanges with its grid neighbours */
    SC_STMT_SEND,    /* one message from one rank to another */
    SC_STMT_COMPUTE, /* every rank computes for a while */
    SC_STMT_LOOP,    /* the statements up to the matching END, `count` times,
                        or, with `until`, until a global error is small */
    SC_STMT_END,
} sc_stmt_kind_t;

/* One piece of the data of a communication statement: `bytes` bytes at
 * `offset` of buffer `in` (what the rank contributes) and of buffer `out`
 * (where the result goes). A statement as written has one piece covering
 * all of its data; packing concatenates the pieces of several statements
 * into one message, splitting cuts one statement into several of a piece
 * each. For allgather, piece data sits at offset + j * stride in `out` for
 * the block of rank j, stride being the block of the call as written. */
typedef struct {
    int in, out;        /* buffer indices */
    size_t offset, bytes, stride;
    int origin;         /* index of the statement as written: pieces of one
                           origin are verified together when its last
                           piece is done */
    int line;           /* that statement's line, 0 if built */
} sc_piece_t;

/* How a call names its algorithm: by name, by MPI profile, or neither
 * (the profile of the run, see sc_program_resolve). */
typedef struct {
    const sc_algo_t *algo;          /* algo=NAME */
    const sc_profile_t *profile;    /* mpi=PROFILE */
} sc_choice_t;

/* A solver's loop (reference 003's allreduce-if): after each iteration k
 * (from 0) every rank r has a local error, its share of the global error
 * error0 * rate^k (rank r holds 2(r+1)/(p(p+1)) of it: the last rank the
 * most, twice the mean), and an allreduce SUM of one double tells whether
 * the global error is below tol: then the loop ends, else it goes on, at
 * most `count` iterations. With `predict`, ranks bet on "go on": they start
 * the next iteration's computing (the body's compute statements before its
 * first communication) while the allreduce runs, paying `save` seconds per
 * bet to keep the state, and `rollback` seconds to restore it when the
 * loop ends (the bet lost). */
typedef struct {
    int on;              /* 0: a counted loop */
    double tol, error0, rate;
    int predict;
    double save_s, rollback_s;
} sc_until_t;

typedef struct {
    sc_stmt_kind_t kind;
    int line;                /* in the program file; 0 for built programs */
    /* Communication statements (CALL, HALO, SEND). */
    sc_collective_t collective;  /* CALL */
    sc_choice_t choice;          /* CALL, LOOP with until (its allreduce) */
    const sc_algo_t *algo;       /* CALL, LOOP with until, after
                                    sc_program_resolve */
    size_t bytes;                /* the data of the statement: the sum of
                                    its pieces (allgather: the block;
                                    halo: one face; send: the message) */
    int root;                    /* bcast, reduce */
    sc_op_t op;                  /* reduce, allreduce */
    sc_type_t type;
    sc_grid_t grid;              /* HALO: dims[0] = 0 while dims=1|2|3
                                    waits for the process count */
    int from, to;                /* SEND */
    sc_piece_t *pieces;
    int npieces;
    /* COMPUTE: seconds of wall-clock time, or flops on the rank's core,
     * on rank 0; rank r computes 1 + spread * r / (p - 1) times that (see
     * sc_compute_factor), an imbalance growing to the last rank. */
    double seconds, flops, spread;
    /* LOOP: repetitions (with until: the most) and the index of the
     * matching END. */
    long count;
    int end;
    sc_until_t until;
} sc_stmt_t;

typedef struct {
    char *name;   /* as written, or "(line N)" for a statement's own */
} sc_buffer_t;

typedef struct {
    char *path;          /* for messages: "halo.prog" or "--algo bruck" */
    sc_stmt_t *stmts;
    int nstmts;
    sc_buffer_t *buffers;
    int nbuffers;
} sc_program_t;

/* Most loop nesting and most statements (compute included) one run
 * executes, loop counts multiplied out: beyond them a program is refused. */
#define SC_PROGRAM_MAX_DEPTH 16
#define SC_PROGRAM_MAX_CALLS 10000000L

/* Parses the text of a program file (grammar at the top of parse.c).
 * SC_ERR_INPUT with "PATH:LINE: what was wrong, what was expected" on any
 * error; *prog is then empty. Free with sc_program_destroy. */
sc_err_t sc_program_parse(const char *path, const char *text, size_t len,
                          sc_program_t *prog);

/* A program of one collective call, what `simcoll --algo` runs. */
sc_err_t sc_program_one_call(const sc_algo_t *algo, size_t bytes, int root, sc_op_t op,
                             sc_type_t type, sc_program_t *prog);

/* What every statement must satisfy whatever the process count: an
 * operation its type has, a vector of whole elements. The parser checks
 * this; call it on programs built otherwise. */
sc_err_t sc_program_check(const sc_program_t *prog);

void sc_program_destroy(sc_program_t *prog);

/* Deep copy, for transforms. */
sc_err_t sc_program_copy(const sc_program_t *from, sc_program_t *to);

/* Fixes what depends on the process count and the placement (so resolve
 * a copy of the program for each process count): every call's
 * algorithm (its own, its profile's choice or `fallback`'s), the grids of
 * halo statements; and checks the rest against p: roots and ranks in
 * range, grids that fit, algorithms' preconditions. node_of gives the node
 * of every rank, for profiles. SC_ERR_INPUT "PATH:LINE: ..." otherwise. */
sc_err_t sc_program_resolve(sc_program_t *prog, int p, const int *node_of,
                            const sc_profile_t *fallback);

/* Statements one run executes, loops multiplied out: all of them and the
 * communication ones. */
void sc_program_count(const sc_program_t *prog, long *statements, long *communications);

/* Bytes buffer b needs on one rank at p ranks (the largest use). */
size_t sc_program_buffer_bytes(const sc_program_t *prog, int b, int p);

/* 1 if the two statements touch a common buffer and one of them writes
 * it: then neither may move past the other. */
int sc_stmt_depends(const sc_stmt_t *a, const sc_stmt_t *b);

/* How much more than rank 0 `rank` of p computes in a compute statement:
 * 1 + spread * rank / (p - 1). */
double sc_compute_factor(const sc_stmt_t *compute, int rank, int p);

/* An until loop (see sc_until_t): the global error after iteration k;
 * rank r's share of it at p ranks; 1 if the loop goes on after iteration
 * k (the global error is at least tol and k + 1 < count); the iterations
 * it runs. Every rank and the parent decide from these, never from the
 * reduced sum's rounding, so that all agree. */
double sc_until_error(const sc_stmt_t *loop, long k);
double sc_until_local_error(const sc_stmt_t *loop, long k, int rank, int p);
int sc_until_goes_on(const sc_stmt_t *loop, long k);
long sc_until_iterations(const sc_stmt_t *loop);

/* Writes the program in its own syntax (packed and split statements as
 * comments with their pieces), for --pack show. */
void sc_program_print(const sc_program_t *prog, FILE *out);

/* Writes a communication statement (call, halo, send) as a program line
 * says it, without buffers: its name, its size if with_size, then what
 * makes its type of communication (the algorithm or profile chosen, root,
 * operation and type; the grid; the ranks), e.g. "allreduce 16
 * mpi=mpich-3.2 op=sum type=double", "halo dims=8x8 periodic". Cut to
 * len - 1 characters. */
void sc_stmt_format(const sc_stmt_t *st, int with_size, char *out, size_t len);

#endif
