/* The mapping objectives beyond the cut: bottleneck, and time, which
 * simulates.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "map_search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "algorithms/mapping/search.h"
#include "common/sc_units.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* What judges a layout by time: the run, and the budget spent. */
typedef struct {
    sc_run_spec_t run;
    const sc_map_budget_t *budget;
    long simulations;
    double started;
} judge_t;

static int budget_left(const judge_t *j)
{
    if (j->budget->simulations && j->simulations >= j->budget->simulations)
        return 0;
    return !(j->budget->seconds > 0 && now() - j->started >= j->budget->seconds);
}

static sc_err_t simulate(judge_t *j, const int *pi, double *seconds)
{
    sc_run_spec_t spec = j->run;
    spec.pi = pi;
    sc_run_result_t res;
    sc_err_t err = sc_run(&spec, &res);
    j->simulations++;
    if (!err) {
        *seconds = res.sim_time_s;
        sc_run_result_destroy(&res);
    }
    return err;
}

enum { NSTARTS = 4 };
static const char *const start_names[NSTARTS] = {"cut", "bottleneck", "block", "cyclic"};

/* The starts of the search into start[k] (np each); *nstarts of them
 * (cyclic only where it fills the nodes as block does). */
static sc_err_t make_starts(const sc_platform_t *plat, const sc_graph_t *graph,
                            const int *slot_node, const int *cut_pi, int *start, int *nstarts)
{
    int np = graph->size;
    int *cyclic_node = malloc((size_t)np * sizeof *cyclic_node);
    if (!cyclic_node)
        return sc_error(SC_ERR_RUN, "out of memory");
    memcpy(start, cut_pi, (size_t)np * sizeof *start);
    memcpy(start + np, cut_pi, (size_t)np * sizeof *start);
    sc_err_t err = sc_mapping_bottleneck(plat, graph, start + np);
    for (int i = 0; i < np; i++)
        start[2 * np + i] = i;
    *nstarts = 3;
    if (!err && !(err = sc_place(plat, np, SC_PLACE_CYCLIC, cyclic_node)) &&
        sc_mapping_from_nodes(np, cyclic_node, slot_node, plat->nnodes, start + 3 * np))
        *nstarts = 4;
    free(cyclic_node);
    return err;
}

/* The untried swap that loads the links least, or slot_a -1. */
static sc_err_t next_swap(const sc_platform_t *plat, const sc_graph_t *graph,
                          const int *slot_node, const int *pi, const sc_swap_t *tried,
                          long ntried, sc_swap_t *next)
{
    sc_swap_t *list;
    long n;
    sc_err_t err = sc_mapping_swaps(graph, plat->nnodes, slot_node, pi, &list, &n);
    next->slot_a = -1;
    for (long k = 0; !err && k < n && next->slot_a < 0; k++) {
        long t = 0;
        while (t < ntried &&
               (tried[t].slot_a != list[k].slot_a || tried[t].slot_b != list[k].slot_b))
            t++;
        if (t == ntried)
            *next = list[k];
    }
    free(list);
    return err;
}

static sc_err_t by_time(const sc_platform_t *plat, const sc_graph_t *graph,
                        const sc_run_spec_t *run, const sc_map_budget_t *budget, int *pi,
                        char *chosen, size_t size)
{
    int np = graph->size, nstarts = 0;
    int *slot_node = malloc((size_t)np * sizeof *slot_node);
    int *start = malloc(NSTARTS * (size_t)np * sizeof *start);
    sc_swap_t *tried = NULL;
    long ntried = 0;
    judge_t j = {*run, budget, 0, now()};
    sc_err_t err = slot_node && start ? sc_place(plat, np, SC_PLACE_BLOCK, slot_node)
                                      : sc_error(SC_ERR_RUN, "out of memory");
    if (!err)
        err = make_starts(plat, graph, slot_node, pi, start, &nstarts);
    double times[NSTARTS] = {0}, best = 0;
    int from = 0;
    char line[512] = "", t[32];
    for (int k = 0; k < nstarts && !err; k++) {
        if ((err = simulate(&j, start + (size_t)k * np, &times[k])))
            break;
        if (times[k] < times[from])
            from = k;
        sc_format_duration(times[k], t, sizeof t);
        snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s %s", k ? ", " : "",
                 start_names[k], t);
    }
    if (err)
        goto cleanup;
    best = times[from];
    memcpy(pi, start + (size_t)from * np, (size_t)np * sizeof *pi);
    fprintf(stderr, "simcoll: --objective time: %s; from %s\n", line, start_names[from]);
    int steps = 0;
    const char *why = "the budget is spent";
    tried = malloc(sizeof *tried);
    if (!tried)
        err = sc_error(SC_ERR_RUN, "out of memory");
    while (!err && budget_left(&j)) {
        sc_swap_t s;
        if ((err = next_swap(plat, graph, slot_node, pi, tried, ntried, &s)))
            break;
        if (s.slot_a < 0) {
            why = "no swap is left to try";
            break;
        }
        int a = s.slot_a, c = s.slot_b, keep = pi[a];
        double time;
        pi[a] = pi[c];
        pi[c] = keep;
        if ((err = simulate(&j, pi, &time)))
            break;
        if (time < best) {
            char before[32], after[32];
            sc_format_duration(best, before, sizeof before);
            sc_format_duration(time, after, sizeof after);
            fprintf(stderr,
                    "simcoll: --objective time: step %d: ranks %d and %d (nodes %d and %d) "
                    "swap positions: %s -> %s (%.2f%% faster)\n",
                    ++steps, a, c, slot_node[a], slot_node[c], before, after,
                    100 * (best - time) / best);
            best = time;
            ntried = 0;
            continue;
        }
        pi[c] = pi[a];
        pi[a] = keep;
        sc_swap_t *more = realloc(tried, (size_t)(ntried + 1) * sizeof *more);
        if (!more) {
            err = sc_error(SC_ERR_RUN, "out of memory");
            break;
        }
        tried = more;
        tried[ntried++] = s;
    }
    if (!err) {
        char first[32], last[32];
        sc_format_duration(times[from], first, sizeof first);
        sc_format_duration(best, last, sizeof last);
        fprintf(stderr,
                "simcoll: --objective time: %ld simulations took %.3g s, %d step%s: %s (%s) -> "
                "%s (%.2f%% faster); stopped: %s\n",
                j.simulations, now() - j.started, steps, steps == 1 ? "" : "s", first,
                start_names[from], last, 100 * (times[from] - best) / times[from], why);
        if (chosen && steps)
            snprintf(chosen, size, "time: %s + %d swap%s", start_names[from], steps,
                     steps == 1 ? "" : "s");
        else if (chosen)
            snprintf(chosen, size, "time: %s", start_names[from]);
    }
cleanup:
    free(tried);
    free(slot_node);
    free(start);
    return err;
}

sc_err_t sc_map_objective(const sc_platform_t *plat, const sc_graph_t *graph,
                              const sc_run_spec_t *run, sc_objective_t objective,
                              const sc_map_budget_t *budget, int *pi, char *chosen, size_t size)
{
    switch (objective) {
    case SC_OBJECTIVE_CUT: return SC_OK;
    case SC_OBJECTIVE_BOTTLENECK: return sc_mapping_bottleneck(plat, graph, pi);
    case SC_OBJECTIVE_TIME:
        if (!run)
            return sc_error(SC_ERR_INPUT, "--objective time simulates the run, and a traffic "
                                          "matrix has none; use cut or bottleneck");
        return by_time(plat, graph, run, budget, pi, chosen, size);
    }
    return SC_OK;
}
