/* Benchmarks as programs (bench.h): each benchmark's loop written as a
 * program and parsed, the statements it times named.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/kinds.h"
#include "algorithms/reduce/ops.h"

/* OSU's warm-up and timed iterations, simulated: see bench.h. */
#define OSU_SKIP 2
#define OSU_ITERATIONS 3
/* IMB's calls back to back: enough for the root to go round small
 * communicators and for the pipeline of calls to set in. */
#define IMB_CALLS 6

static const char *const names[] = {"call", "osu", "imb", "mpiperf", NULL};

const char *sc_bench_name(sc_bench_t bench)
{
    return names[bench];
}

sc_err_t sc_bench_parse(const char *text, const char *option, sc_bench_t *out)
{
    for (int i = 0; names[i]; i++)
        if (!strcmp(text, names[i])) {
            *out = (sc_bench_t)i;
            return SC_OK;
        }
    return sc_error(SC_ERR_INPUT,
                    "%s: '%s' is not a benchmark simcoll runs: call, osu, imb or "
                    "mpiperf",
                    option, text);
}

/* The call as a program's line: "bcast 2048 root=3 algo=NAME". */
static void call_line(FILE *f, const sc_algo_t *algo, size_t bytes, int root, sc_op_t op,
                      sc_type_t type)
{
    sc_collective_t c = algo->collective;
    const sc_kind_t *kind = sc_kind(c);
    fputs(kind->name, f);
    if (kind->has_data)
        fprintf(f, " %zu", bytes);
    if (kind->has_root)
        fprintf(f, " root=%d", root);
    if (kind->is_reduction)
        fprintf(f, " op=%s type=%s", sc_op_name(op), sc_type_name(type));
    fprintf(f, " algo=%s\n", algo->name);
}

/* The benchmark's own barrier, as the library chooses it. */
static void barrier_line(FILE *f, const sc_profile_t *profile)
{
    if (profile)
        fprintf(f, "barrier mpi=%s\n", profile->name);
    else
        fputs("barrier algo=barrier\n", f);
}

sc_err_t sc_bench_program(sc_bench_t bench, const sc_algo_t *algo, size_t bytes, int root,
                          sc_op_t op, sc_type_t type, int np, const sc_profile_t *profile,
                          sc_program_t *prog, sc_measure_t *measure, sc_bench_figure_t *figure)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return sc_error(SC_ERR_RUN, "out of memory");
    *figure = bench == SC_BENCH_MPIPERF ? SC_BENCH_MAX : SC_BENCH_MEAN;
    int barrier = !sc_kind(algo->collective)->has_data;
    switch (bench) {
    case SC_BENCH_OSU: /* statement 1 is the call; osu_barrier has no second barrier */
        fprintf(f, "loop %d\n", OSU_SKIP + OSU_ITERATIONS);
        call_line(f, algo, bytes, root, op, type);
        if (!barrier)
            barrier_line(f, profile);
        fputs("end\n", f);
        *measure = (sc_measure_t){.on = 1, .first = 1, .last = 1, .skip = OSU_SKIP};
        break;
    case SC_BENCH_IMB: /* a barrier, then the calls: statements 1 .. */
        barrier_line(f, profile);
        if (sc_kind(algo->collective)->has_root) {
            for (int i = 0; i < IMB_CALLS; i++)
                call_line(f, algo, bytes, (root + i) % np, op, type);
            *measure = (sc_measure_t){.on = 1, .first = 1, .last = IMB_CALLS, .span = 1};
        } else {
            fprintf(f, "loop %d\n", IMB_CALLS);
            call_line(f, algo, bytes, root, op, type);
            fputs("end\n", f);
            *measure = (sc_measure_t){.on = 1, .first = 2, .last = 2, .span = 1};
        }
        break;
    case SC_BENCH_MPIPERF:
    case SC_BENCH_CALL:
        call_line(f, algo, bytes, root, op, type);
        *measure = (sc_measure_t){.on = 1, .first = 0, .last = 0};
        break;
    }
    if (fclose(f) != 0 || !text) {
        free(text);
        return sc_error(SC_ERR_RUN, "out of memory");
    }
    char path[64];
    snprintf(path, sizeof path, "(%s's benchmark)", sc_bench_name(bench));
    sc_err_t err = sc_program_parse(path, text, len, prog);
    free(text);
    return err;
}
