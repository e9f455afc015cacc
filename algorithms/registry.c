/* The table of every collective algorithm simcoll can run.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "registry.h"

#include <stdlib.h>
#include <string.h>

#include "../models/collectives.h"
#include "../models/mpich.h"
#include "../models/mvapich2.h"
#include "../models/openmpi.h"
#include "collectives.h"
#include "openmpi/openmpi.h"

const sc_algo_t sc_algos[] = {
    /* name       collective    run                         model                                 needs          doc */
    {"ring",      SC_ALLGATHER, sc_allgather_ring,          sc_model_allgather_ring,              0,             "ring; p-1 steps of one block, any p"},
    {"rd",        SC_ALLGATHER, sc_allgather_rd,            sc_model_allgather_rd,                SC_NEEDS_POW2, "recursive doubling; log2 p steps, blocks double each step"},
    {"bruck",     SC_ALLGATHER, sc_allgather_bruck,         sc_model_allgather_bruck,             0,             "Bruck et al. 1997; ceil(log2 p) steps, any p, final rotation"},
    {"rd-exch",   SC_ALLGATHER, sc_allgather_rd_exch,       sc_model_allgather_rd_exch,           SC_NEEDS_POW2 | SC_USES_MAPPING, "rd on a rank mapping pi; one extra exchange first, output in rank order"},
    {"rd-reorder", SC_ALLGATHER, sc_allgather_rd_reorder,   sc_model_allgather_rd,                SC_NEEDS_POW2 | SC_USES_MAPPING, "rd on a rank mapping pi; local permutations only"},
    {"bruck-exch", SC_ALLGATHER, sc_allgather_bruck_exch,   sc_model_allgather_bruck_exch,        SC_USES_MAPPING, "Bruck on a rank mapping pi; one extra exchange first"},
    {"bruck-reorder", SC_ALLGATHER, sc_allgather_bruck_reorder, sc_model_allgather_bruck,         SC_USES_MAPPING, "Bruck on a rank mapping pi; local permutations only"},
    {"ring-reorder", SC_ALLGATHER, sc_allgather_ring_reorder, sc_model_allgather_ring,            SC_USES_MAPPING, "ring on a rank mapping pi; blocks stored in rank order as they arrive"},
    {"allgather-ompi-neighbor", SC_ALLGATHER, sc_allgather_ompi_neighbor, sc_model_allgather_ompi_neighbor, 0, "Open MPI's neighbor exchange: p/2 steps, two blocks a step (ring for odd p)"},
    {"bcast-binomial", SC_BCAST, sc_bcast_binomial,         sc_model_bcast_binomial,              0,             "binomial tree from the root; ceil(log2 p) levels, for short messages"},
    {"bcast-scatter-allgather", SC_BCAST, sc_bcast_scatter_allgather, sc_model_bcast_scatter_allgather, 0,  "binomial scatter of p chunks, then ring allgather (van de Geijn), for long messages"},
    {"bcast-scatter-rd", SC_BCAST, sc_bcast_scatter_rd, sc_model_bcast_scatter_rd, SC_NEEDS_POW2, "binomial scatter of p chunks, then recursive-doubling allgather (MPICH, medium messages)"},
    {"barrier",   SC_BARRIER,   sc_barrier_dissemination,   sc_model_barrier_dissemination,       0,             "dissemination barrier; ceil(log2 p) rounds of empty messages"},
    {"barrier-mpich-smp", SC_BARRIER, sc_barrier_mpich_smp, sc_model_barrier_mpich_smp,           0,             "MPICH's SMP barrier: dissemination in each node, among node leaders, 1-byte node broadcast"},
    {"barrier-ompi-rd", SC_BARRIER, sc_barrier_ompi_rd,     sc_model_barrier_ompi_rd,             0,             "Open MPI's recursive doubling barrier; ranks beyond 2^k check in before and out after"},
    {"barrier-ompi-linear", SC_BARRIER, sc_barrier_ompi_linear, sc_model_barrier_ompi_linear,     0,             "Open MPI's linear barrier: all to rank 0, then rank 0 to all"},
    {"barrier-ompi-tree", SC_BARRIER, sc_barrier_ompi_tree, sc_model_barrier_ompi_tree,           0,             "Open MPI's tree barrier: binomial gather to rank 0, binomial broadcast back"},
    {"bcast-mpich-smp", SC_BCAST, sc_bcast_mpich_smp,       sc_model_bcast_mpich_smp,             0,             "MPICH's SMP broadcast: node leaders, then nodes (binomial; scatter-allgather for medium)"},
    {"bcast-ompi-linear", SC_BCAST, sc_bcast_ompi_linear,   sc_model_bcast_ompi_linear,           0,             "Open MPI's basic linear: the root isends to every rank, then waits"},
    {"bcast-ompi-chain", SC_BCAST, sc_bcast_ompi_chain,     sc_model_bcast_ompi_chain,            0,             "Open MPI's chain/pipeline, unsegmented: root -> root+1 -> ... -> root+p-1"},
    {"bcast-ompi-bintree", SC_BCAST, sc_bcast_ompi_bintree, sc_model_bcast_ompi_bintree,          0,             "Open MPI's binary tree (build_tree, fanout 2), unsegmented"},
    {"bcast-ompi-binomial", SC_BCAST, sc_bcast_ompi_binomial, sc_model_bcast_ompi_binomial,       0,             "Open MPI's binomial tree (build_bmtree): children above the highest bit, nearest first, isends"},
    {"bcast-ompi-knomial", SC_BCAST, sc_bcast_ompi_knomial, sc_model_bcast_ompi_knomial,          0,             "Open MPI's k-nomial tree, radix 4, farthest subtree first"},
    {"bcast-ompi-split-bintree", SC_BCAST, sc_bcast_ompi_split_bintree, sc_model_bcast_ompi_split_bintree, 0, "Open MPI's split binary tree: a half down each subtree, then pairs swap halves"},
    {"bcast-ompi-han", SC_BCAST, sc_bcast_ompi_han,         sc_model_bcast_ompi_han,              0,             "Open MPI 5's coll/han: 64 KiB segments among the root's local rank of each node, then each node by tuned's rules"},
    {"bcast-ompi-han-linear", SC_BCAST, sc_bcast_ompi_han_linear, sc_model_bcast_ompi_han_linear, 0,             "coll/han with tuned's basic linear forced inside the nodes"},
    {"bcast-ompi-han-chain", SC_BCAST, sc_bcast_ompi_han_chain, sc_model_bcast_ompi_han_chain,   0,             "coll/han with tuned's chain/pipeline (unsegmented) forced inside the nodes"},
    {"bcast-ompi-han-bintree", SC_BCAST, sc_bcast_ompi_han_bintree, sc_model_bcast_ompi_han_bintree, 0,             "coll/han with tuned's binary tree (unsegmented) forced inside the nodes"},
    {"bcast-ompi-scatter-allgather", SC_BCAST, sc_bcast_ompi_scatter_allgather, sc_model_bcast_ompi_scatter_allgather, 0, "Open MPI's binomial scatter + recursive doubling with the non-power-of-two fix-up"},
    {"reduce-mst", SC_REDUCE,   sc_reduce_mst,              sc_model_reduce_mst,                  0,             "binomial tree (MST) to the root; ceil(log2 p) whole-vector steps, for short vectors"},
    {"reduce-rhrd", SC_REDUCE,  sc_reduce_rhrd,             sc_model_reduce_rhrd,                 SC_NEEDS_POW2, "Rabenseifner: recursive halving reduce-scatter, binomial gather to the root"},
    {"reduce-mpich", SC_REDUCE, sc_reduce_mpich,            sc_model_reduce_mpich,                0,             "prior art for any p: 2r ranks fold into r, then RHRD (IBM patent, background)"},
    {"reduce-rabenseifner", SC_REDUCE, sc_reduce_rabenseifner, sc_model_reduce_rabenseifner,    0,             "MPICH's Rabenseifner: odd ranks of the first 2r fold their vector into even ones, halving, gather"},
    {"reduce-mpich-smp", SC_REDUCE, sc_reduce_mpich_smp,    sc_model_reduce_mpich_smp,            0,             "MPICH's SMP reduce: other nodes to their leaders, leaders to the root's node, then the root"},
    {"reduce-nonpow2", SC_REDUCE, sc_reduce_nonpow2,        sc_model_reduce_nonpow2,              0,             "IBM patent (Bin Jia): half vectors merged into N ranks, RHRD on halves; RHRD for p = 2^k"},
    {"reduce-ompi-linear", SC_REDUCE, sc_reduce_ompi_linear, sc_model_reduce_ompi_linear,         0,             "Open MPI's basic linear: the root receives from p-1, then p-2 .. 0, combining each"},
    {"reduce-ompi-chain", SC_REDUCE, sc_reduce_ompi_chain,  sc_model_reduce_ompi_chain,           0,             "Open MPI's chain/pipeline, unsegmented: root+p-1 -> ... -> root+1 -> root"},
    {"reduce-ompi-binary", SC_REDUCE, sc_reduce_ompi_binary, sc_model_reduce_ompi_binary,         0,             "Open MPI's binary tree (build_tree, fanout 2), unsegmented"},
    {"reduce-ompi-binomial", SC_REDUCE, sc_reduce_ompi_binomial, sc_model_reduce_ompi_binomial,   0,             "Open MPI's binomial tree (reduce-mst's), next receive posted while waiting"},
    {"reduce-ompi-in-order-binary", SC_REDUCE, sc_reduce_ompi_in_order_binary, sc_model_reduce_ompi_in_order_binary, 0, "Open MPI's in-order binary tree to rank p-1, which hands the result to the root"},
    {"reduce-ompi-redscat-gather", SC_REDUCE, sc_reduce_ompi_redscat_gather, sc_model_reduce_ompi_redscat_gather, 0, "Open MPI's Rabenseifner: half-vector folding from rank 0, halving, gather to the root"},
    {"allreduce-mst", SC_ALLREDUCE, sc_allreduce_mst,       sc_model_allreduce_mst,               0,             "binomial reduce to rank 0, then binomial broadcast"},
    {"allreduce-rhrd", SC_ALLREDUCE, sc_allreduce_rhrd,     sc_model_allreduce_rhrd,              SC_NEEDS_POW2, "Rabenseifner: recursive halving reduce-scatter, recursive doubling allgather"},
    {"allreduce-mpich", SC_ALLREDUCE, sc_allreduce_mpich,   sc_model_allreduce_mpich,             0,             "prior art for any p: 2r ranks fold into r, RHRD, dropped ranks get the result"},
    {"allreduce-rd", SC_ALLREDUCE, sc_allreduce_rd,         sc_model_allreduce_rd,                0,             "MPICH, short vectors: even ranks of the first 2r fold into odd ones, recursive doubling"},
    {"allreduce-rabenseifner", SC_ALLREDUCE, sc_allreduce_rabenseifner, sc_model_allreduce_rabenseifner, 0, "MPICH's Rabenseifner: even ranks of the first 2r fold into odd ones, RHRD, results back"},
    {"allreduce-mpich-smp", SC_ALLREDUCE, sc_allreduce_mpich_smp, sc_model_allreduce_mpich_smp, 0,           "MPICH's SMP allreduce: reduce in each node, allreduce among leaders, node broadcast"},
    {"barrier-mv2-shmem", SC_BARRIER, sc_barrier_mv2_shmem, sc_model_barrier_mv2_shmem,           0,             "MVAPICH2 1.4's shared-memory barrier: node check-in to its leader, dissemination among leaders, release"},
    {"bcast-mv2-knomial", SC_BCAST, sc_bcast_mv2_knomial, sc_model_bcast_mv2_knomial,             0,             "MVAPICH2 1.4's two-level k-nomial broadcast (radix 4): among node leaders, then in each node"},
    {"bcast-mv2-shmem", SC_BCAST, sc_bcast_mv2_shmem,       sc_model_bcast_mv2_shmem,             0,             "MVAPICH2 1.4's shared-memory broadcast: leaders scatter + ring allgather, nodes copy it out, node barriers"},
    {"allreduce-mv2-shmem", SC_ALLREDUCE, sc_allreduce_mv2_shmem, sc_model_allreduce_mv2_shmem, 0,           "MVAPICH2 1.4's shared-memory allreduce: node vectors to the leader, allreduce among leaders, node broadcast"},
    {"reduce-mv2-shmem", SC_REDUCE, sc_reduce_mv2_shmem,    sc_model_reduce_mv2_shmem,            0,             "MVAPICH2 1.4's shared-memory reduce: node vectors to the leader, reduce among leaders, result to the root"},
    {"allreduce-nonpow2", SC_ALLREDUCE, sc_allreduce_nonpow2, sc_model_allreduce_nonpow2,         0,             "IBM patent (Bin Jia): half vectors merged into N ranks, RHRD on halves; RHRD for p = 2^k"},
    {"allreduce-ring", SC_ALLREDUCE, sc_allreduce_ring,     sc_model_allreduce_ring,              0,             "ring reduce-scatter + ring allgather; bandwidth-optimal, 2(p-1) steps"},
    {"reduce-early", SC_REDUCE, sc_reduce_early,           NULL,                                 SC_EARLY_EXIT, "early exit for land, lor, band, bor (reference 003): allreduce-early, the root's copy the result"},
    {"allreduce-early", SC_ALLREDUCE, sc_allreduce_early,   NULL,                                 SC_EARLY_EXIT, "early exit for land, lor, band, bor (reference 003): recursive doubling cut short by a deciding rank"},
    {"allreduce-if", SC_ALLREDUCE, sc_allreduce_if,         NULL,                                 SC_UNTIL, "a solver's exit test (reference 003): sum of errors, cut short by a rank whose error alone passes the threshold"},
    {"allreduce-spec", SC_ALLREDUCE, sc_allreduce_spec,     NULL,                                 SC_SPECULATIVE, "max, min (reference 003): bet on the rank that held the extreme lately, broadcast, verify, else allreduce-rd"},
    {"allreduce-ompi-linear", SC_ALLREDUCE, sc_allreduce_ompi_linear, sc_model_allreduce_ompi_linear, 0,     "Open MPI's basic linear: linear reduce to rank 0, linear broadcast"},
    {"allreduce-ompi-nonoverlapping", SC_ALLREDUCE, sc_allreduce_ompi_nonoverlapping, sc_model_allreduce_ompi_nonoverlapping, 0, "Open MPI's reduce to rank 0 then broadcast, each as coll/tuned 4.1 picks it"},
    {"allreduce-ompi-ring", SC_ALLREDUCE, sc_allreduce_ompi_ring, sc_model_allreduce_ompi_ring,   0,             "Open MPI's ring: uneven blocks first, receives posted a step ahead"},
    {"allreduce-ompi-ring-segmented", SC_ALLREDUCE, sc_allreduce_ompi_ring_segmented, sc_model_allreduce_ompi_ring_segmented, 0, "Open MPI 3.1/4.0's segmented ring: the ring's reduce-scatter in phases of 1 MiB pieces per block"},
    {"scatter-ompi-linear", SC_SCATTER, sc_scatter_ompi_linear, sc_model_scatter_ompi_linear,    0,             "Open MPI's basic linear: the root sends each rank its block in rank order, blocking sends"},
    {"scatter-ompi-linear-nb", SC_SCATTER, sc_scatter_ompi_linear_nb, sc_model_scatter_ompi_linear_nb, 0,     "Open MPI's linear_nb: the root isends every block in rank order, then waits for all"},
    {"scatter-ompi-binomial", SC_SCATTER, sc_scatter_ompi_binomial, sc_model_scatter_ompi_binomial, 0,       "Open MPI's (and MPICH's) binomial: each rank forwards its subtree's blocks, largest subtree first"},
    {"scatter-ompi-han", SC_SCATTER, sc_scatter_ompi_han,   sc_model_scatter_ompi_han,            0,             "Open MPI 5's coll/han: each node's blocks to the root's local rank there, then each node by tuned's rules"},
    {"scatter-ompi-han-linear", SC_SCATTER, sc_scatter_ompi_han_linear, sc_model_scatter_ompi_han_linear, 0, "coll/han with tuned's basic linear scatter forced inside the nodes"},
    {"scatter-ompi-han-linear-nb", SC_SCATTER, sc_scatter_ompi_han_linear_nb, sc_model_scatter_ompi_han_linear_nb, 0, "coll/han with tuned's linear_nb scatter forced inside the nodes"},
    {"scatter-ompi-han-binomial", SC_SCATTER, sc_scatter_ompi_han_binomial, sc_model_scatter_ompi_han_binomial, 0, "coll/han with tuned's binomial scatter forced inside the nodes"},
    {NULL, 0, NULL, NULL, 0, NULL},
};

/* Algorithms registered at run time (plug-ins), after the built-in ones. */
static const sc_algo_t *added[SC_MAX_ADDED_ALGOS];
static int nadded;

const sc_algo_t *sc_algo_find(const char *name)
{
    for (const sc_algo_t *a = sc_algos; a->name; a++)
        if (strcmp(a->name, name) == 0)
            return a;
    for (int i = 0; i < nadded; i++)
        if (strcmp(added[i]->name, name) == 0)
            return added[i];
    return NULL;
}

const sc_algo_t *sc_algo_added(int i)
{
    return i >= 0 && i < nadded ? added[i] : NULL;
}

int sc_algo_is_builtin(const sc_algo_t *algo)
{
    for (const sc_algo_t *a = sc_algos; a->name; a++)
        if (a == algo)
            return 1;
    return 0;
}

int sc_algo_is_added(const sc_algo_t *algo)
{
    for (int i = 0; i < nadded; i++)
        if (added[i] == algo)
            return 1;
    return 0;
}

sc_err_t sc_algo_add(const sc_algo_t *algo)
{
    if (sc_algo_find(algo->name))
        return sc_error(SC_ERR_INPUT, "an algorithm named '%s' exists already; give yours "
                                      "another name",
                        algo->name);
    if (nadded == SC_MAX_ADDED_ALGOS)
        return sc_error(SC_ERR_INPUT, "more than %d algorithms of your own at once",
                        SC_MAX_ADDED_ALGOS);
    added[nadded++] = algo;
    return SC_OK;
}

/* Levenshtein distance, two rows. Names are short. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t *prev = malloc((lb + 1) * sizeof *prev);
    size_t *cur = malloc((lb + 1) * sizeof *cur);
    if (!prev || !cur) {
        free(prev);
        free(cur);
        return (size_t)-1;
    }
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        size_t *tmp = prev;
        prev = cur;
        cur = tmp;
    }
    size_t d = prev[lb];
    free(prev);
    free(cur);
    return d;
}

const char *sc_name_nearest(const char *name, const char *const *names)
{
    const char *best = names[0];
    size_t best_d = best ? edit_distance(name, best) : 0;
    for (int i = 1; best && names[i]; i++) {
        size_t d = edit_distance(name, names[i]);
        if (d < best_d) {
            best = names[i];
            best_d = d;
        }
    }
    return best;
}

const char *sc_name_close(const char *name, const char *const *names)
{
    const char *best = sc_name_nearest(name, names);
    size_t most = strlen(name) / 3 > 2 ? strlen(name) / 3 : 2;
    return best && edit_distance(name, best) <= most ? best : NULL;
}

const sc_algo_t *sc_algo_nearest(const char *name)
{
    const sc_algo_t *best = &sc_algos[0];
    size_t best_d = edit_distance(name, best->name);
    for (const sc_algo_t *a = sc_algos + 1; a->name; a++) {
        size_t d = edit_distance(name, a->name);
        if (d < best_d) {
            best = a;
            best_d = d;
        }
    }
    /* A loaded algorithm misspelt is the likelier one to be meant. */
    for (int i = 0; i < nadded; i++) {
        size_t d = edit_distance(name, added[i]->name);
        if (d <= best_d) {
            best = added[i];
            best_d = d;
        }
    }
    return best;
}

const char *sc_collective_name(sc_collective_t collective)
{
    return sc_kind(collective)->name;
}

sc_err_t sc_algo_check(const sc_algo_t *algo, int p)
{
    if ((algo->needs & SC_NEEDS_POW2) && (p & (p - 1)) != 0) {
        int below = 1;
        while (below * 2 < p)
            below *= 2;
        const char *any_p = algo->collective == SC_REDUCE      ? "reduce-nonpow2"
                            : algo->collective == SC_ALLREDUCE ? "allreduce-nonpow2"
                                                               : "bruck";
        return sc_error(SC_ERR_INPUT,
                        "%s needs a power-of-two process count, got %d (use %d or %d "
                        "processes, or an algorithm for any count such as %s)",
                        algo->name, p, below, below * 2, any_p);
    }
    return SC_OK;
}
