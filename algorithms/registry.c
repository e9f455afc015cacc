/* The table of every collective algorithm simcoll can run.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "registry.h"

#include <stdlib.h>
#include <string.h>

#include "collectives.h"
#include "openmpi/openmpi.h"

const sc_algo_t sc_algos[] = {
    {.name = "ring", .collective = SC_ALLGATHER, .run = sc_allgather_ring,
     .doc = "ring; p-1 steps of one block, any p"},
    {.name = "rd", .collective = SC_ALLGATHER, .run = sc_allgather_rd, .needs = SC_NEEDS_POW2,
     .doc = "recursive doubling; log2 p steps, blocks double each step"},
    {.name = "bruck", .collective = SC_ALLGATHER, .run = sc_allgather_bruck,
     .doc = "Bruck et al. 1997; ceil(log2 p) steps, any p, final rotation"},
    {.name = "rd-exch", .collective = SC_ALLGATHER, .run = sc_allgather_rd_exch,
     .needs = SC_NEEDS_POW2 | SC_USES_MAPPING,
     .doc = "rd on a rank mapping pi; one extra exchange first, output in rank order"},
    {.name = "rd-reorder", .collective = SC_ALLGATHER, .run = sc_allgather_rd_reorder,
     .needs = SC_NEEDS_POW2 | SC_USES_MAPPING,
     .doc = "rd on a rank mapping pi; local permutations only"},
    {.name = "bruck-exch", .collective = SC_ALLGATHER, .run = sc_allgather_bruck_exch,
     .needs = SC_USES_MAPPING,
     .doc = "Bruck on a rank mapping pi; one extra exchange first"},
    {.name = "bruck-reorder", .collective = SC_ALLGATHER, .run = sc_allgather_bruck_reorder,
     .needs = SC_USES_MAPPING,
     .doc = "Bruck on a rank mapping pi; local permutations only"},
    {.name = "ring-reorder", .collective = SC_ALLGATHER, .run = sc_allgather_ring_reorder,
     .needs = SC_USES_MAPPING,
     .doc = "ring on a rank mapping pi; blocks stored in rank order as they arrive"},
    {.name = "allgather-ompi-neighbor", .collective = SC_ALLGATHER,
     .run = sc_allgather_ompi_neighbor,
     .doc = "Open MPI's neighbor exchange: p/2 steps, two blocks a step (ring for odd p)"},
    {.name = "bcast-binomial", .collective = SC_BCAST, .run = sc_bcast_binomial,
     .doc = "binomial tree from the root; ceil(log2 p) levels, for short messages"},
    {.name = "bcast-scatter-allgather", .collective = SC_BCAST, .run = sc_bcast_scatter_allgather,
     .doc = "binomial scatter of p chunks, then ring allgather (van de Geijn), for long messages"},
    {.name = "bcast-scatter-rd", .collective = SC_BCAST, .run = sc_bcast_scatter_rd,
     .needs = SC_NEEDS_POW2,
     .doc = "binomial scatter of p chunks, then recursive-doubling allgather (MPICH, medium "
            "messages)"},
    {.name = "barrier", .collective = SC_BARRIER, .run = sc_barrier_dissemination,
     .doc = "dissemination barrier; ceil(log2 p) rounds of empty messages"},
    {.name = "barrier-mpich-smp", .collective = SC_BARRIER, .run = sc_barrier_mpich_smp,
     .doc = "MPICH's SMP barrier: dissemination in each node, among node leaders, 1-byte node "
            "broadcast"},
    {.name = "barrier-ompi-rd", .collective = SC_BARRIER, .run = sc_barrier_ompi_rd,
     .doc = "Open MPI's recursive doubling barrier; ranks beyond 2^k check in before and out "
            "after"},
    {.name = "barrier-ompi-linear", .collective = SC_BARRIER, .run = sc_barrier_ompi_linear,
     .doc = "Open MPI's linear barrier: all to rank 0, then rank 0 to all"},
    {.name = "barrier-ompi-tree", .collective = SC_BARRIER, .run = sc_barrier_ompi_tree,
     .doc = "Open MPI's tree barrier: binomial gather to rank 0, binomial broadcast back"},
    {.name = "bcast-mpich-smp", .collective = SC_BCAST, .run = sc_bcast_mpich_smp,
     .doc = "MPICH's SMP broadcast: node leaders, then nodes (binomial; scatter-allgather for "
            "medium)"},
    {.name = "bcast-ompi-linear", .collective = SC_BCAST, .run = sc_bcast_ompi_linear,
     .doc = "Open MPI's basic linear: the root isends to every rank, then waits"},
    {.name = "bcast-ompi-chain", .collective = SC_BCAST, .run = sc_bcast_ompi_chain,
     .doc = "Open MPI's chain/pipeline, unsegmented: root -> root+1 -> ... -> root+p-1"},
    {.name = "bcast-ompi-bintree", .collective = SC_BCAST, .run = sc_bcast_ompi_bintree,
     .doc = "Open MPI's binary tree (build_tree, fanout 2), unsegmented"},
    {.name = "bcast-ompi-binomial", .collective = SC_BCAST, .run = sc_bcast_ompi_binomial,
     .doc = "Open MPI's binomial tree (build_bmtree): children above the highest bit, nearest "
            "first, isends"},
    {.name = "bcast-ompi-knomial", .collective = SC_BCAST, .run = sc_bcast_ompi_knomial,
     .doc = "Open MPI's k-nomial tree, radix 4, farthest subtree first"},
    {.name = "bcast-ompi-split-bintree", .collective = SC_BCAST, .run = sc_bcast_ompi_split_bintree,
     .doc = "Open MPI's split binary tree: a half down each subtree, then pairs swap halves"},
    {.name = "bcast-ompi-han", .collective = SC_BCAST, .run = sc_bcast_ompi_han,
     .doc = "Open MPI 5's coll/han: 64 KiB segments among the root's local rank of each node, "
            "then each node by tuned's rules"},
    {.name = "bcast-ompi-han-linear", .collective = SC_BCAST, .run = sc_bcast_ompi_han_linear,
     .doc = "coll/han with tuned's basic linear forced inside the nodes"},
    {.name = "bcast-ompi-han-chain", .collective = SC_BCAST, .run = sc_bcast_ompi_han_chain,
     .doc = "coll/han with tuned's chain/pipeline (unsegmented) forced inside the nodes"},
    {.name = "bcast-ompi-han-bintree", .collective = SC_BCAST, .run = sc_bcast_ompi_han_bintree,
     .doc = "coll/han with tuned's binary tree (unsegmented) forced inside the nodes"},
    {.name = "bcast-ompi-scatter-allgather", .collective = SC_BCAST,
     .run = sc_bcast_ompi_scatter_allgather,
     .doc = "Open MPI's binomial scatter + recursive doubling with the non-power-of-two fix-up"},
    {.name = "reduce-mst", .collective = SC_REDUCE, .run = sc_reduce_mst,
     .doc = "binomial tree (MST) to the root; ceil(log2 p) whole-vector steps, for short vectors"},
    {.name = "reduce-rhrd", .collective = SC_REDUCE, .run = sc_reduce_rhrd, .needs = SC_NEEDS_POW2,
     .doc = "Rabenseifner: recursive halving reduce-scatter, binomial gather to the root"},
    {.name = "reduce-mpich", .collective = SC_REDUCE, .run = sc_reduce_mpich,
     .doc = "prior art for any p: 2r ranks fold into r, then RHRD (IBM patent, background)"},
    {.name = "reduce-rabenseifner", .collective = SC_REDUCE, .run = sc_reduce_rabenseifner,
     .doc = "MPICH's Rabenseifner: odd ranks of the first 2r fold their vector into even ones, "
            "halving, gather"},
    {.name = "reduce-mpich-smp", .collective = SC_REDUCE, .run = sc_reduce_mpich_smp,
     .doc = "MPICH's SMP reduce: other nodes to their leaders, leaders to the root's node, then "
            "the root"},
    {.name = "reduce-nonpow2", .collective = SC_REDUCE, .run = sc_reduce_nonpow2,
     .doc = "IBM patent (Bin Jia): half vectors merged into N ranks, RHRD on halves; RHRD for p = "
            "2^k"},
    {.name = "reduce-ompi-linear", .collective = SC_REDUCE, .run = sc_reduce_ompi_linear,
     .doc = "Open MPI's basic linear: the root receives from p-1, then p-2 .. 0, combining each"},
    {.name = "reduce-ompi-chain", .collective = SC_REDUCE, .run = sc_reduce_ompi_chain,
     .doc = "Open MPI's chain/pipeline, unsegmented: root+p-1 -> ... -> root+1 -> root"},
    {.name = "reduce-ompi-binary", .collective = SC_REDUCE, .run = sc_reduce_ompi_binary,
     .doc = "Open MPI's binary tree (build_tree, fanout 2), unsegmented"},
    {.name = "reduce-ompi-binomial", .collective = SC_REDUCE, .run = sc_reduce_ompi_binomial,
     .doc = "Open MPI's binomial tree (reduce-mst's), next receive posted while waiting"},
    {.name = "reduce-ompi-in-order-binary", .collective = SC_REDUCE,
     .run = sc_reduce_ompi_in_order_binary,
     .doc = "Open MPI's in-order binary tree to rank p-1, which hands the result to the root"},
    {.name = "reduce-ompi-redscat-gather", .collective = SC_REDUCE,
     .run = sc_reduce_ompi_redscat_gather,
     .doc = "Open MPI's Rabenseifner: half-vector folding from rank 0, halving, gather to the "
            "root"},
    {.name = "allreduce-mst", .collective = SC_ALLREDUCE, .run = sc_allreduce_mst,
     .doc = "binomial reduce to rank 0, then binomial broadcast"},
    {.name = "allreduce-rhrd", .collective = SC_ALLREDUCE, .run = sc_allreduce_rhrd,
     .needs = SC_NEEDS_POW2,
     .doc = "Rabenseifner: recursive halving reduce-scatter, recursive doubling allgather"},
    {.name = "allreduce-mpich", .collective = SC_ALLREDUCE, .run = sc_allreduce_mpich,
     .doc = "prior art for any p: 2r ranks fold into r, RHRD, dropped ranks get the result"},
    {.name = "allreduce-rd", .collective = SC_ALLREDUCE, .run = sc_allreduce_rd,
     .doc = "MPICH, short vectors: even ranks of the first 2r fold into odd ones, recursive "
            "doubling"},
    {.name = "allreduce-rabenseifner", .collective = SC_ALLREDUCE, .run = sc_allreduce_rabenseifner,
     .doc = "MPICH's Rabenseifner: even ranks of the first 2r fold into odd ones, RHRD, results "
            "back"},
    {.name = "allreduce-mpich-smp", .collective = SC_ALLREDUCE, .run = sc_allreduce_mpich_smp,
     .doc = "MPICH's SMP allreduce: reduce in each node, allreduce among leaders, node broadcast"},
    {.name = "barrier-mv2-shmem", .collective = SC_BARRIER, .run = sc_barrier_mv2_shmem,
     .doc = "MVAPICH2 1.4's shared-memory barrier: node check-in to its leader, dissemination "
            "among leaders, release"},
    {.name = "bcast-mv2-knomial", .collective = SC_BCAST, .run = sc_bcast_mv2_knomial,
     .doc = "MVAPICH2 1.4's two-level k-nomial broadcast (radix 4): among node leaders, then in "
            "each node"},
    {.name = "bcast-mv2-shmem", .collective = SC_BCAST, .run = sc_bcast_mv2_shmem,
     .doc = "MVAPICH2 1.4's shared-memory broadcast: leaders scatter + ring allgather, nodes copy "
            "it out, node barriers"},
    {.name = "allreduce-mv2-shmem", .collective = SC_ALLREDUCE, .run = sc_allreduce_mv2_shmem,
     .doc = "MVAPICH2 1.4's shared-memory allreduce: node vectors to the leader, allreduce among "
            "leaders, node broadcast"},
    {.name = "reduce-mv2-shmem", .collective = SC_REDUCE, .run = sc_reduce_mv2_shmem,
     .doc = "MVAPICH2 1.4's shared-memory reduce: node vectors to the leader, reduce among "
            "leaders, result to the root"},
    {.name = "allreduce-nonpow2", .collective = SC_ALLREDUCE, .run = sc_allreduce_nonpow2,
     .doc = "IBM patent (Bin Jia): half vectors merged into N ranks, RHRD on halves; RHRD for p = "
            "2^k"},
    {.name = "allreduce-ring", .collective = SC_ALLREDUCE, .run = sc_allreduce_ring,
     .doc = "ring reduce-scatter + ring allgather; bandwidth-optimal, 2(p-1) steps"},
    {.name = "reduce-early", .collective = SC_REDUCE, .run = sc_reduce_early,
     .needs = SC_EARLY_EXIT,
     .doc = "early exit for land, lor, band, bor (reference 003): allreduce-early, the root's "
            "copy the result"},
    {.name = "allreduce-early", .collective = SC_ALLREDUCE, .run = sc_allreduce_early,
     .needs = SC_EARLY_EXIT,
     .doc = "early exit for land, lor, band, bor (reference 003): recursive doubling cut short by "
            "a deciding rank"},
    {.name = "allreduce-if", .collective = SC_ALLREDUCE, .run = sc_allreduce_if, .needs = SC_UNTIL,
     .doc = "a solver's exit test (reference 003): sum of errors, cut short by a rank whose error "
            "alone passes the threshold"},
    {.name = "allreduce-spec", .collective = SC_ALLREDUCE, .run = sc_allreduce_spec,
     .needs = SC_SPECULATIVE,
     .doc = "max, min (reference 003): bet on the rank that held the extreme lately, broadcast, "
            "verify, else allreduce-rd"},
    {.name = "allreduce-ompi-linear", .collective = SC_ALLREDUCE, .run = sc_allreduce_ompi_linear,
     .doc = "Open MPI's basic linear: linear reduce to rank 0, linear broadcast"},
    {.name = "allreduce-ompi-nonoverlapping", .collective = SC_ALLREDUCE,
     .run = sc_allreduce_ompi_nonoverlapping,
     .doc = "Open MPI's reduce to rank 0 then broadcast, each as coll/tuned 4.1 picks it"},
    {.name = "allreduce-ompi-ring", .collective = SC_ALLREDUCE, .run = sc_allreduce_ompi_ring,
     .doc = "Open MPI's ring: uneven blocks first, receives posted a step ahead"},
    {.name = "allreduce-ompi-ring-segmented", .collective = SC_ALLREDUCE,
     .run = sc_allreduce_ompi_ring_segmented,
     .doc = "Open MPI 3.1/4.0's segmented ring: the ring's reduce-scatter in phases of 1 MiB "
            "pieces per block"},
    {.name = "scatter-ompi-linear", .collective = SC_SCATTER, .run = sc_scatter_ompi_linear,
     .doc = "Open MPI's basic linear: the root sends each rank its block in rank order, blocking "
            "sends"},
    {.name = "scatter-ompi-linear-nb", .collective = SC_SCATTER, .run = sc_scatter_ompi_linear_nb,
     .doc = "Open MPI's linear_nb: the root isends every block in rank order, then waits for all"},
    {.name = "scatter-ompi-binomial", .collective = SC_SCATTER, .run = sc_scatter_ompi_binomial,
     .doc = "Open MPI's (and MPICH's) binomial: each rank forwards its subtree's blocks, largest "
            "subtree first"},
    {.name = "scatter-ompi-han", .collective = SC_SCATTER, .run = sc_scatter_ompi_han,
     .doc = "Open MPI 5's coll/han: each node's blocks to the root's local rank there, then each "
            "node by tuned's rules"},
    {.name = "scatter-ompi-han-linear", .collective = SC_SCATTER, .run = sc_scatter_ompi_han_linear,
     .doc = "coll/han with tuned's basic linear scatter forced inside the nodes"},
    {.name = "scatter-ompi-han-linear-nb", .collective = SC_SCATTER,
     .run = sc_scatter_ompi_han_linear_nb,
     .doc = "coll/han with tuned's linear_nb scatter forced inside the nodes"},
    {.name = "scatter-ompi-han-binomial", .collective = SC_SCATTER,
     .run = sc_scatter_ompi_han_binomial,
     .doc = "coll/han with tuned's binomial scatter forced inside the nodes"},
    {.name = NULL},
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

sc_err_t sc_algo_call(const sc_algo_t *algo, sc_comm_t *comm, const sc_coll_args_t *args)
{
    sc_err_t err = sc_enter_call(comm);
    return err ? err : algo->run(comm, args);
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
