/* Programs: the parser on good and bad files, resolution against a process
 * count, and reference 002's splitting and packing rules.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/program/pack.h"
#include "sim/program/program.h"
#include "suites.h"

static sc_err_t parse(const char *text, sc_program_t *prog)
{
    return sc_program_parse("t.prog", text, strlen(text), prog);
}

static const char *good =
    "# a step of a stencil code\n"
    "loop 10\n"
    "  halo 4K dims=2 buf=u   # two faces per dimension\n"
    "  halo 4K dims=2 buf=v\n"
    "  compute 50us\n"
    "  loop 2\n"
    "    allreduce 8 op=max buf=res\n"
    "  end\n"
    "end\n"
    "\n"
    "bcast 1M root=3 buf=final algo=bcast-binomial\n"
    "barrier mpi=mpich-3.2\n"
    "send 64K from=0 to=5\n"
    "allgather 2K in=mine out=all algo=bruck\n"
    "reduce 400 root=1 op=bxor type=int\n"
    "compute 2Gf\n";

static void test_parse_good(void)
{
    sc_program_t prog;
    CU_ASSERT_EQUAL_FATAL(parse(good, &prog), SC_OK);
    CU_ASSERT_EQUAL(prog.nstmts, 14);
    const sc_stmt_t *loop = &prog.stmts[0];
    CU_ASSERT_EQUAL(loop->kind, SC_STMT_LOOP);
    CU_ASSERT_EQUAL(loop->count, 10);
    CU_ASSERT_EQUAL(loop->end, 7);
    CU_ASSERT_EQUAL(prog.stmts[7].end, 0);
    CU_ASSERT_EQUAL(prog.stmts[4].end, 6);
    const sc_stmt_t *halo = &prog.stmts[1];
    CU_ASSERT_EQUAL(halo->kind, SC_STMT_HALO);
    CU_ASSERT_EQUAL(halo->bytes, 4096);
    CU_ASSERT_EQUAL(halo->grid.ndims, 2);
    CU_ASSERT_EQUAL(halo->line, 3);
    CU_ASSERT_DOUBLE_EQUAL(prog.stmts[3].seconds, 50e-6, 1e-18);
    const sc_stmt_t *ar = &prog.stmts[5];
    CU_ASSERT_EQUAL(ar->collective, SC_ALLREDUCE);
    CU_ASSERT_EQUAL(ar->op, SC_OP_MAX);
    CU_ASSERT_EQUAL(ar->type, SC_TYPE_DOUBLE);
    CU_ASSERT_PTR_NULL(ar->choice.algo);
    const sc_stmt_t *bc = &prog.stmts[8];
    CU_ASSERT_EQUAL(bc->root, 3);
    CU_ASSERT_STRING_EQUAL(bc->choice.algo->name, "bcast-binomial");
    CU_ASSERT_STRING_EQUAL(prog.stmts[9].choice.profile->name, "mpich-3.2");
    CU_ASSERT_EQUAL(prog.stmts[9].npieces, 0);
    CU_ASSERT_EQUAL(prog.stmts[10].from, 0);
    CU_ASSERT_EQUAL(prog.stmts[10].to, 5);
    const sc_stmt_t *ag = &prog.stmts[11];
    CU_ASSERT_STRING_EQUAL(prog.buffers[ag->pieces[0].in].name, "mine");
    CU_ASSERT_STRING_EQUAL(prog.buffers[ag->pieces[0].out].name, "all");
    CU_ASSERT_EQUAL(prog.stmts[12].type, SC_TYPE_INT);
    CU_ASSERT_DOUBLE_EQUAL(prog.stmts[13].flops, 2e9, 1e-3);
    long all, comms;
    sc_program_count(&prog, &all, &comms);
    CU_ASSERT_EQUAL(all, 10 * (2 + 1 + 2) + 6);
    CU_ASSERT_EQUAL(comms, 10 * (2 + 2) + 5);
    sc_program_destroy(&prog);
}

/* Buffers: named ones are shared, a statement that names none has its
 * own; sizes follow the largest use at the process count. */
static void test_buffers(void)
{
    sc_program_t prog;
    CU_ASSERT_EQUAL_FATAL(parse("allgather 2K in=a out=b\n"
                                "allreduce 64K buf=b\n"
                                "halo 1K dims=3 buf=c\n"
                                "bcast 8\n"
                                "bcast 8\n",
                                &prog),
                          SC_OK);
    CU_ASSERT_EQUAL_FATAL(prog.nbuffers, 5);
    CU_ASSERT_EQUAL(sc_program_buffer_bytes(&prog, 0, 16), 2048);
    CU_ASSERT_EQUAL(sc_program_buffer_bytes(&prog, 1, 16), 65536); /* 16 x 2K < 64K */
    CU_ASSERT_EQUAL(sc_program_buffer_bytes(&prog, 1, 64), 131072);
    CU_ASSERT_EQUAL(sc_program_buffer_bytes(&prog, 2, 64), 12 * 1024);
    CU_ASSERT(sc_stmt_depends(&prog.stmts[0], &prog.stmts[1]));
    CU_ASSERT(!sc_stmt_depends(&prog.stmts[3], &prog.stmts[4]));
    CU_ASSERT(!sc_stmt_depends(&prog.stmts[1], &prog.stmts[2]));
    sc_program_destroy(&prog);
}

/* prog, printed, parses back to a program that prints the same. */
static void check_round_trip(const sc_program_t *prog)
{
    sc_program_t again;
    char *first = NULL, *second = NULL;
    size_t len1, len2;
    FILE *f = open_memstream(&first, &len1);
    sc_program_print(prog, f);
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(sc_program_parse("printed", first, len1, &again), SC_OK);
    f = open_memstream(&second, &len2);
    sc_program_print(&again, f);
    fclose(f);
    CU_ASSERT_STRING_EQUAL(first, second);
    CU_ASSERT_EQUAL(again.nstmts, prog->nstmts);
    free(first);
    free(second);
    sc_program_destroy(&again);
}

/* What the program prints parses back to the same program. */
static void test_print_round_trip(void)
{
    sc_program_t prog;
    CU_ASSERT_EQUAL_FATAL(parse(good, &prog), SC_OK);
    check_round_trip(&prog);
    sc_program_destroy(&prog);
}

/* A solver's loop: its settings, its iterations, and its printed form
 * parses back to the same. */
static void test_until(void)
{
    sc_program_t prog;
    const char *text = "until 1e-6 max=50 error=2 rate=0.8 algo=allreduce-if predict save=1us "
                       "rollback=20us\n"
                       "  compute 10us spread=0.25\n"
                       "  halo 8K dims=2\n"
                       "end\n";
    CU_ASSERT_EQUAL_FATAL(parse(text, &prog), SC_OK);
    const sc_stmt_t *st = &prog.stmts[0];
    CU_ASSERT_EQUAL(st->kind, SC_STMT_LOOP);
    CU_ASSERT(st->until.on && st->until.predict);
    CU_ASSERT_EQUAL(st->count, 50);
    CU_ASSERT_EQUAL(st->end, 3);
    CU_ASSERT_DOUBLE_EQUAL(st->until.rollback_s, 20e-6, 1e-18);
    CU_ASSERT_DOUBLE_EQUAL(sc_compute_factor(&prog.stmts[1], 4, 5), 1.25, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(sc_compute_factor(&prog.stmts[1], 0, 5), 1, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(sc_compute_factor(&prog.stmts[1], 0, 1), 1, 1e-15);
    /* 2 * 0.8^k >= 1e-6 up to k = 65: the loop stops at max=50. */
    CU_ASSERT_EQUAL(sc_until_iterations(st), 50);
    long all, comms;
    sc_program_count(&prog, &all, &comms);
    CU_ASSERT_EQUAL(all, 50 * 3);
    CU_ASSERT_EQUAL(comms, 50 * 2);
    /* The last rank holds 2/(p+1) of the error, the first 2/(p(p+1)). */
    CU_ASSERT_DOUBLE_EQUAL(sc_until_local_error(st, 0, 4, 5), 2 * 2.0 / 6, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(sc_until_local_error(st, 1, 0, 5), 1.6 * 2.0 / 30, 1e-15);
    check_round_trip(&prog);
    sc_program_destroy(&prog);
    /* Converging before max=: 0.5^k < 0.01 first at k = 7. */
    CU_ASSERT_EQUAL_FATAL(parse("until 0.01 max=100\n compute 1us\nend\n", &prog), SC_OK);
    CU_ASSERT_EQUAL(sc_until_iterations(&prog.stmts[0]), 8);
    sc_program_destroy(&prog);
}

/* Every bad program is refused with its line and the reason. */
static void test_parse_bad(void)
{
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"", "t.prog:1: the program has no statement"},
        {"# only a comment\n", "t.prog:1: the program has no statement"},
        {"frob 1\n", "t.prog:1: unknown statement 'frob'"},
        {"bcast 8\nloop 0\nend\n", "t.prog:2: loop: '0' is not an integer in 1..1000000000"},
        {"loop 5\nbcast 8\n", "t.prog:1: this loop has no 'end'"},
        {"bcast 8\nend\n", "t.prog:2: end without a loop"},
        {"loop 3\nend\n", "t.prog:2: the loop of line 1 is empty"},
        {"loop 3 4\n", "t.prog:1: loop takes one count"},
        {"allreduce 7\n", "t.prog:1: allreduce of 7 bytes: a vector of double is a multiple of 8 "
                          "bytes (use 0 or 8)"},
        {"allreduce 8 op=band\n", "t.prog:1: the operation band is defined on int only"},
        {"allreduce 8 op=avg\n", "t.prog:1: op: unknown operation 'avg'"},
        {"allreduce 8 type=float\n", "t.prog:1: type: unknown type 'float'"},
        {"allreduce 8 root=1\n", "t.prog:1: allreduce does not take root=; it takes algo="},
        {"allreduce\n", "t.prog:1: allreduce needs a size in bytes"},
        {"allreduce 1Q\n", "t.prog:1: allreduce size: '1Q' is not a size"},
        {"allreduce -8\n", "t.prog:1: allreduce size: '-8' is negative"},
        {"allreduce 2T\n", "t.prog:1: allreduce size: '2T' is not a size"},
        {"allreduce 8 buf=a in=b\n", "t.prog:1: buf= is in= and out= at once"},
        {"allreduce 8 in=a in=b\n", "t.prog:1: in= given twice"},
        {"allreduce 8 buf=a/b\n", "t.prog:1: buf=a/b: a buffer name is"},
        {"allreduce 8 sum\n", "t.prog:1: 'sum': options are KEY=VALUE"},
        {"allreduce 8 algo=allreduce-rd mpi=mpich-3.2\n",
         "t.prog:1: give one algo= or one mpi= per call"},
        {"bcast 8 in=x\n", "t.prog:1: bcast does not take in="},
        {"scatter 8 op=max\n",
         "t.prog:1: scatter does not take op=; it takes algo=, mpi=, root=, in="},
        {"scatter 8 algo=ring\n", "t.prog:1: algo=ring is for allgather, not scatter"},
        {"barrier 5\n", "t.prog:1: barrier takes no size, only algo= or mpi=; got '5'"},
        {"allgather 8 algo=allreduce-rd\n",
         "t.prog:1: algo=allreduce-rd is for allreduce, not allgather"},
        {"allgather 8 algo=brck\n",
         "t.prog:1: algo=brck: unknown algorithm; did you mean 'bruck'?"},
        {"allgather 8 mpi=openmp\n",
         "t.prog:1: mpi=openmp: unknown profile; use one of mpich2-1.2.1"},
        {"halo 8 dims=3x\n", "t.prog:1: dims=3x: use 1, 2 or 3"},
        {"halo 8 dims=4\n", "t.prog:1: dims=4: use 1, 2 or 3"},
        {"halo 8 dims=2x2x2x2\n", "t.prog:1: dims=2x2x2x2: use 1, 2 or 3"},
        {"halo 8 wrap\n", "t.prog:1: halo does not take 'wrap'"},
        {"halo 8 dims=4x4x\n", "t.prog:1: dims=4x4x: use 1, 2 or 3"},
        {"halo 8 dims=2 dims=4x4\n", "t.prog:1: halo: dims= is given twice"},
        {"halo 8 periodic periodic\n", "t.prog:1: halo: periodic is given twice"},
        {"reduce 8 root=1 root=2\n", "t.prog:1: root= given twice"},
        {"send 8 from=1\n", "t.prog:1: send needs from=RANK and to=RANK"},
        {"send 8 from=1 to=1\n", "t.prog:1: send from=1 to=1: a rank does not send to itself"},
        {"send 8 from=-1 to=1\n", "t.prog:1: from: '-1' is not an integer"},
        {"compute 5x\n", "t.prog:1: compute 5x: give a duration"},
        {"compute -5us\n", "t.prog:1: compute: '-5us' is not a duration"},
        {"compute 2e9\n", "t.prog:1: compute 2e9: give a duration"},
        {"compute\n", "t.prog:1: compute takes one duration"},
        {"compute 5us skew=1\n", "t.prog:1: compute takes one duration (e.g. compute 20us) or flop "
                                 "count (e.g. compute 2Gf), and may take spread=F"},
        {"compute 5us spread=1 x\n", "t.prog:1: compute takes one duration"},
        {"compute 5us spread=-1\n", "t.prog:1: compute spread=-1: give a number from 0 to 1000"},
        {"compute 5us spread=\n", "t.prog:1: compute spread=: give a number from 0 to 1000"},
        {"bcast 8\n\nbcast 8 root=\n", "t.prog:3: 'root': options are KEY=VALUE"},
        {"loop 100000\nloop 100000\nbcast 8\nend\nend\n",
         "t.prog:1: the program runs 10000000000 statements"},
        {"bcast 8 a b c d e f g h i j k l m n o p\n", "t.prog:1: more than 16 words on a line"},
        {"until max=5\ncompute 1us\nend\n", "t.prog:1: until takes a tolerance first"},
        {"until\n", "t.prog:1: until takes a tolerance first"},
        {"until 0 max=5\n", "t.prog:1: until 0: give a number above 0"},
        {"until 1e-320 max=5\n", "t.prog:1: until 1e-320: beyond what a double holds"},
        {"until 1e-6\ncompute 1us\nend\n", "t.prog:1: until needs max=COUNT"},
        {"until 1e-6 max=0\n", "t.prog:1: until max: '0' is not an integer in 1..1000000000"},
        {"until 1e-6 max=5 rate=1\n", "t.prog:1: until rate=1: give a number between 0 and 1"},
        {"until 1e-6 max=5 error=-2\n", "t.prog:1: until error=-2: give a number above 0"},
        {"until 1e-6 max=5 rate=0.5 rate=0.6\n", "t.prog:1: until: rate given twice"},
        {"until 1e-6 max=5 rollback=1ms\n",
         "t.prog:1: until: save= and rollback= are the costs of predict"},
        {"until 1e-6 max=5 predict save=fast\n", "t.prog:1: until save: 'fast' is not a duration"},
        {"until 1e-6 max=5 predict save=1e300s\n",
         "t.prog:1: until save: '1e300s' is more than 1e+09 s"},
        {"compute 2e9s\n", "t.prog:1: compute: '2e9s' is more than 1e+09 s"},
        {"compute 1e9xs\n", "t.prog:1: compute: '1e9xs' is not a duration"},
        {"until 1e-6 max=5 op=max\n", "t.prog:1: until does not take op="},
        {"until 1e-6 max=5 algo=bruck\n", "t.prog:1: algo=bruck is for allgather, not allreduce"},
        {"until 1e-6 max=5 fast\n", "t.prog:1: until: 'fast': options are KEY=VALUE"},
        {"until 1e-6 max=5\ncompute 1us\n", "t.prog:1: this loop has no 'end'"},
        {"until 1e-6 max=5\nend\n", "t.prog:2: the loop of line 1 is empty"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sc_program_t prog;
        sc_err_t err = parse(cases[i].text, &prog);
        CU_ASSERT_EQUAL(err, SC_ERR_INPUT);
        if (err != SC_ERR_INPUT || !strstr(sc_error_message(), cases[i].message)) {
            fprintf(stderr, "\ncase %zu: got %d '%s'\n  wanted '%s'\n", i, err,
                    sc_error_message(), cases[i].message);
            CU_FAIL("wrong error");
        }
        if (!err)
            sc_program_destroy(&prog);
    }
    /* A NUL byte, and the deepest nesting. */
    sc_program_t prog;
    CU_ASSERT_EQUAL(sc_program_parse("t.prog", "bcast 8\n\0bcast 8\n", 17, &prog), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "t.prog:2: a NUL byte"));
    char deep[1024] = "";
    for (int k = 0; k < SC_PROGRAM_MAX_DEPTH + 1; k++)
        strcat(deep, "loop 2\n");
    CU_ASSERT_EQUAL(parse(deep, &prog), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "t.prog:17: loops nest at most 16 deep"));
}

/* What depends on the process count is checked at resolution. */
static void test_resolve(void)
{
    static const struct {
        const char *text;
        int p;
        const char *message; /* NULL: resolves */
    } cases[] = {
        {"bcast 8 root=3\n", 4, NULL},
        {"bcast 8 root=4\n", 4, "t.prog:1: root 4 is out of range: ranks are 0..3"},
        {"reduce 8 root=9\n", 4, "t.prog:1: root 9 is out of range"},
        {"scatter 8 root=4\n", 4, "t.prog:1: root 4 is out of range: ranks are 0..3"},
        {"scatter 8 root=3\n", 4, NULL}, /* mpich-3.2: its binomial scatter */
        {"scatter 8 mpi=mvapich2-1.4\n", 4, "t.prog:1: profile mvapich2-1.4 has no scatter rule"},
        {"send 8 from=0 to=4\n", 4, "t.prog:1: send from 0 to 4: ranks are 0..3"},
        {"halo 8 dims=3x3\n", 24,
         "t.prog:1: halo dims=3x3 is a grid of 9 ranks, but the run has 24"},
        {"halo 8 dims=4x6\n", 24, NULL},
        {"allgather 8 algo=rd\n", 24, "t.prog:1: rd needs a power-of-two process count, got 24"},
        {"allgather 8 algo=rd\n", 16, NULL},
        {"until 1 max=2 algo=allreduce-if\n compute 1us\nend\n", 5, NULL},
        {"until 1 max=2\n compute 1us\nend\n", 5, NULL},
        {"until 1 max=2 algo=allreduce-early\n compute 1us\nend\n", 5,
         "t.prog:1: until: allreduce-early does not sum errors; use allreduce-if"},
        {"until 1 max=2 algo=allreduce-rhrd\n compute 1us\nend\n", 5,
         "t.prog:1: allreduce-rhrd needs a power-of-two process count, got 5"},
        {"allreduce 8 algo=allreduce-if\n", 5,
         "t.prog:1: allreduce-if ends the iterations of a solver: use it in an until loop"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sc_program_t prog;
        CU_ASSERT_EQUAL_FATAL(parse(cases[i].text, &prog), SC_OK);
        int node_of[64] = {0};
        sc_err_t err = sc_program_resolve(&prog, cases[i].p, node_of, sc_profile_find("mpich-3.2"));
        if (cases[i].message ? err != SC_ERR_INPUT || !strstr(sc_error_message(), cases[i].message)
                             : err != SC_OK) {
            fprintf(stderr, "\nresolve case %zu: got %d '%s'\n", i, err, sc_error_message());
            CU_FAIL("wrong resolution");
        }
        sc_program_destroy(&prog);
    }
    /* Without a profile a call must name its algorithm. */
    sc_program_t prog;
    int node_of[8] = {0};
    CU_ASSERT_EQUAL_FATAL(parse("bcast 8\n", &prog), SC_OK);
    CU_ASSERT_EQUAL(sc_program_resolve(&prog, 8, node_of, NULL), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "bcast names no algorithm"));
    CU_ASSERT_EQUAL(sc_program_resolve(&prog, 8, node_of, sc_profile_find("mpich-3.2")), SC_OK);
    CU_ASSERT_STRING_EQUAL(prog.stmts[0].algo->name, "bcast-mpich-smp");
    sc_program_destroy(&prog);
    /* Grids as balanced as MPI_Dims_create makes them. */
    static const struct {
        int p, ndims, dims[3];
    } grids[] = {{64, 2, {8, 8}}, {24, 2, {6, 4}}, {24, 3, {4, 3, 2}}, {7, 2, {7, 1}},
                 {64, 3, {4, 4, 4}}, {1, 3, {1, 1, 1}}, {12, 1, {12}}};
    for (size_t i = 0; i < sizeof grids / sizeof grids[0]; i++) {
        char text[64];
        snprintf(text, sizeof text, "halo 8 dims=%d\n", grids[i].ndims);
        int nodes[64] = {0};
        CU_ASSERT_EQUAL_FATAL(parse(text, &prog), SC_OK);
        CU_ASSERT_EQUAL_FATAL(sc_program_resolve(&prog, grids[i].p, nodes, NULL), SC_OK);
        CU_ASSERT_EQUAL(memcmp(prog.stmts[0].grid.dims, grids[i].dims,
                               (size_t)grids[i].ndims * sizeof(int)), 0);
        sc_program_destroy(&prog);
    }
}

/* Steps 4.7 to 4.9 on the patent's three cases, and where its narrowing
 * would not end. */
static void test_split_sizes(void)
{
    const size_t K = 1024, M = 1024 * 1024;
    sc_interval_t iv = {512 * K, M};
    size_t chunks[64];
    int n;
    /* Divisible: w = S / max chunks of max. */
    CU_ASSERT_EQUAL(sc_split_sizes(4 * M, iv, 1, chunks, 64, &n), SC_OK);
    CU_ASSERT_EQUAL(n, 4);
    CU_ASSERT_EQUAL(chunks[0], M);
    CU_ASSERT_EQUAL(chunks[3], M);
    /* Remainder >= min: chunks of max and the remainder. */
    CU_ASSERT_EQUAL(sc_split_sizes(2 * M + 600 * K, iv, 1, chunks, 64, &n), SC_OK);
    CU_ASSERT_EQUAL(n, 3);
    CU_ASSERT_EQUAL(chunks[1], M);
    CU_ASSERT_EQUAL(chunks[2], 600 * K);
    /* Remainder < min: max becomes (max + min) / 2 = 768 KiB, whose
     * remainder 2 M + 200000 - 2 x 768 K = 724288 is >= min. */
    CU_ASSERT_EQUAL(sc_split_sizes(2 * M + 200000, iv, 1, chunks, 64, &n), SC_OK);
    CU_ASSERT_EQUAL(n, 3);
    CU_ASSERT_EQUAL(chunks[0], 768 * K);
    CU_ASSERT_EQUAL(chunks[1], 768 * K);
    CU_ASSERT_EQUAL(chunks[2], 724288);
    /* [4, 8]: 8 leaves 1, 6 leaves 3, 5 leaves 1, and 4 cannot shrink: 5s
     * and the remainder as it is. (The patent would narrow forever.) */
    CU_ASSERT_EQUAL(sc_split_sizes(21, (sc_interval_t){4, 8}, 1, chunks, 64, &n), SC_OK);
    size_t sum = 0;
    for (int k = 0; k < n; k++)
        sum += chunks[k];
    CU_ASSERT_EQUAL(sum, 21);
    CU_ASSERT(chunks[0] >= 4 && chunks[0] <= 8);
    /* Reductions are cut between elements. */
    CU_ASSERT_EQUAL(sc_split_sizes(1000, (sc_interval_t){300, 333}, 8, chunks, 64, &n), SC_OK);
    for (int k = 0; k + 1 < n; k++)
        CU_ASSERT_EQUAL(chunks[k] % 8, 0);
    CU_ASSERT_EQUAL(sc_split_sizes(M, (sc_interval_t){1, 2}, 1, chunks, 64, &n), SC_ERR_INPUT);
}

static void test_interval_find(void)
{
    /* Bandwidth rises, falls by half after 64 KiB (a protocol switch),
     * then climbs again: max = 64 KiB. */
    double bytes[] = {1024, 4096, 16384, 65536, 131072, 262144, 1048576};
    double bw[] = {10e6, 30e6, 60e6, 90e6, 45e6, 60e6, 80e6};
    double seconds[7];
    for (int i = 0; i < 7; i++)
        seconds[i] = bytes[i] / bw[i];
    sc_interval_t iv;
    int found;
    CU_ASSERT_EQUAL(sc_interval_find(bytes, seconds, 7, 0, &iv, &found), SC_OK);
    CU_ASSERT(found);
    CU_ASSERT_EQUAL(iv.max, 65536);
    CU_ASSERT_EQUAL(iv.min, 32768);
    /* The patent looks above 1 MiB only: no turning point there. */
    CU_ASSERT_EQUAL(sc_interval_find(bytes, seconds, 7, SC_TURNING_FROM_PATENT, &iv, &found),
                    SC_OK);
    CU_ASSERT(!found);
    CU_ASSERT_EQUAL(iv.max, 1048576);
    /* A fall that never recovers is not a turning point, nor is a dip of
     * less than 1%. */
    double flat[] = {10e6, 30e6, 60e6, 90e6, 89.5e6, 85e6, 84e6};
    for (int i = 0; i < 7; i++)
        seconds[i] = bytes[i] / flat[i];
    CU_ASSERT_EQUAL(sc_interval_find(bytes, seconds, 7, 0, &iv, &found), SC_OK);
    CU_ASSERT(!found);
    CU_ASSERT_EQUAL(iv.max, 1048576);
    seconds[2] = 0;
    CU_ASSERT_EQUAL(sc_interval_find(bytes, seconds, 7, 0, &iv, &found), SC_ERR_INPUT);
    CU_ASSERT_EQUAL(sc_interval_find(bytes, seconds, 2, 0, &iv, &found), SC_ERR_INPUT);
}

static sc_err_t fixed_interval(void *ctx, const sc_stmt_t *st, sc_interval_t *iv)
{
    (void)st;
    *iv = *(const sc_interval_t *)ctx;
    return SC_OK;
}

static char *printed(const sc_program_t *prog)
{
    char *text = NULL;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    sc_program_print(prog, f);
    fclose(f);
    return text;
}

/* Steps 4.4 to 4.6 and 4.10 to 4.13 on a program. */
/* `text` packed with every statement's interval `iv` prints as `want`;
 * the packed program in *packed. */
static void check_packed(const char *text, sc_interval_t iv, const char *want,
                         sc_program_t *packed)
{
    sc_program_t prog;
    CU_ASSERT_EQUAL_FATAL(parse(text, &prog), SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_program_pack(&prog, fixed_interval, &iv, packed), SC_OK);
    char *got = printed(packed);
    CU_ASSERT_STRING_EQUAL(got, want);
    if (strcmp(got, want))
        fprintf(stderr, "\n%s", got);
    free(got);
    sc_program_destroy(&prog);
}

static void test_pack(void)
{
    sc_program_t packed;
    /* 10 K: 4 K leaves 2 K < min, (4 K + 3 K) / 2 = 3.5 K leaves 3 K. */
    check_packed("loop 4\n"
                 "  allreduce 1K buf=a\n"  /* packs with b and c: 3 K = min */
                 "  allreduce 1K buf=b\n"
                 "  allreduce 1K buf=c\n"
                 "  allreduce 1K buf=d\n"  /* alone: e depends on it */
                 "  allreduce 1K in=d out=e\n"
                 "  allreduce 1K buf=f op=max\n" /* another type */
                 "  compute 1us\n"
                 "  allreduce 3K buf=g\n"  /* in the interval */
                 "  allreduce 10K buf=h\n" /* split, see below */
                 "end\n"
                 "halo 512 dims=2 buf=u\n"
                 "halo 512 dims=2 buf=v\n",
                 (sc_interval_t){3072, 4096},
                 "loop 4\n"
                 "  allreduce 3072 op=sum type=double   # a (line 2), b (line 3), c (line 4)\n"
                 "  allreduce 1024 op=sum type=double buf=d\n"
                 "  allreduce 1024 op=sum type=double in=d out=e\n"
                 "  allreduce 1024 op=max type=double buf=f\n"
                 "  compute 1e-06s\n"
                 "  allreduce 3072 op=sum type=double buf=g\n"
                 "  allreduce 3584 op=sum type=double   # h[0+3584] (line 10)\n"
                 "  allreduce 3584 op=sum type=double   # h[3584+3584] (line 10)\n"
                 "  allreduce 3072 op=sum type=double   # h[7168+3072] (line 10)\n"
                 "end\n"
                 "halo 1024 dims=2   # u (line 12), v (line 13)\n",
                 &packed);
    CU_ASSERT_EQUAL(packed.stmts[0].end, 10);
    CU_ASSERT_EQUAL(packed.stmts[10].end, 0);
    sc_program_destroy(&packed);
}

/* An empty message carries no data and depends on nothing: a run packs
 * around it, and it follows the packed statement. A barrier still ends a
 * run, and empty messages after the last statement packed stay where
 * they are. */
static void test_pack_empty(void)
{
    sc_program_t packed;
    check_packed("allreduce 8 buf=a\n"
                 "allreduce 0 buf=z\n"
                 "allreduce 8 buf=b\n"
                 "bcast 0 buf=y\n"
                 "barrier\n"
                 "allreduce 8 buf=c\n"
                 "allreduce 0 buf=x\n",
                 (sc_interval_t){64, 128},
                 "allreduce 16 op=sum type=double   # a (line 1), b (line 3)\n"
                 "allreduce 0 op=sum type=double buf=z\n"
                 "bcast 0 root=0 buf=y\n"
                 "barrier\n"
                 "allreduce 8 op=sum type=double buf=c\n"
                 "allreduce 0 op=sum type=double buf=x\n",
                 &packed);
    sc_program_destroy(&packed);
}

void sc_suite_program(void)
{
    CU_pSuite s = CU_add_suite("program", NULL, NULL);
    CU_add_test(s, "a good program", test_parse_good);
    CU_add_test(s, "buffers and dependences", test_buffers);
    CU_add_test(s, "printed programs parse back", test_print_round_trip);
    CU_add_test(s, "until loops: settings, iterations, printed", test_until);
    CU_add_test(s, "bad programs", test_parse_bad);
    CU_add_test(s, "resolution against p", test_resolve);
    CU_add_test(s, "splitting (patent 4.7-4.9)", test_split_sizes);
    CU_add_test(s, "the turning point (patent 3.2)", test_interval_find);
    CU_add_test(s, "packing and splitting a program", test_pack);
    CU_add_test(s, "packing around empty messages", test_pack_empty);
}
