/* simcoll list: the algorithms, the MPI profiles or the network presets.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "list_cmd.h"

#include <stdio.h>
#include <string.h>

#include "algorithms/kinds.h"
#include "algorithms/profiles/profiles.h"
#include "algorithms/registry.h"
#include "args.h"
#include "sim/engine/generate.h"

static void list_algo(const sc_algo_t *a, int width)
{
    printf("%-*s  %-10s %-6s %s\n", width, a->name, sc_collective_name(a->collective),
           a->needs & SC_NEEDS_POW2 ? "pow2" : a->needs & SC_USES_MAPPING ? "pi" : "-", a->doc);
}

/* Each profile: what it is, where its rules come from, the rules. */
static void list_profiles(void)
{
    for (const sc_profile_t *p = sc_profiles; p->name; p++) {
        printf("%s%s: %s\n  source: %s\n", p == sc_profiles ? "" : "\n", p->name, p->library,
               p->source);
        for (int c = 0; c < SC_NCOLLECTIVES; c++)
            printf("  %-9s %s\n", sc_collective_name((sc_collective_t)c), p->rules[c]);
    }
}

/* simcoll's algorithms, then those --load added, in columns as wide as
 * the longest name; only those of `coll` unless it is NULL (grep would
 * also find the broadcasts whose description says "ring allgather"). */
static void list_algos(const sc_kind_t *coll)
{
    int width = 4;
    for (const sc_algo_t *a = sc_algos; a->name; a++)
        if ((!coll || a->collective == coll->collective) && (int)strlen(a->name) > width)
            width = (int)strlen(a->name);
    for (int i = 0; sc_algo_added(i); i++)
        if ((!coll || sc_algo_added(i)->collective == coll->collective) &&
            (int)strlen(sc_algo_added(i)->name) > width)
            width = (int)strlen(sc_algo_added(i)->name);
    printf("%-*s  %-10s %-6s %s\n", width, "name", "collective", "needs", "description");
    for (const sc_algo_t *a = sc_algos; a->name; a++)
        if (!coll || a->collective == coll->collective)
            list_algo(a, width);
    for (int i = 0; sc_algo_added(i); i++)
        if (!coll || sc_algo_added(i)->collective == coll->collective)
            list_algo(sc_algo_added(i), width);
}

int sc_cli_list(int argc, char **argv)
{
    int profiles = argc == 3 && !strcmp(argv[2], "--mpi");
    if (argc == 3 && !strcmp(argv[2], "--help")) {
        fputs("usage: simcoll list [--mpi | --net | [--coll NAME] [--load FILE.c|FILE.so ...]]\n"
              "Prints every algorithm (name, collective, what it needs of the process\n"
              "count, description), with those of the files --load adds after simcoll's\n"
              "own, or with --coll only those of one collective (allgather, bcast,\n"
              "barrier, reduce, allreduce, scatter); with --mpi every MPI library profile\n"
              "and the rules by which it chooses an algorithm; with --net the\n"
              "interconnect presets of simcoll platform --net.\n",
              stdout);
        return 0;
    }
    if (argc == 3 && !strcmp(argv[2], "--net")) {
        printf("%-10s %-14s %s\n", "net", "platform", "interconnect");
        for (const sc_network_preset_t *n = sc_network_presets; n->name; n++)
            printf("%-10s %-14s %s\n", n->name, n->platform, n->what);
        return 0;
    }
    const char *loads[SC_CLI_MAX_LOADS] = {0};
    const sc_kind_t *coll = NULL;
    int nloads = 0;
    sc_err_t err = SC_OK;
    for (int i = 2; !profiles && !err && i < argc; i += 2) {
        int is_coll = !strcmp(argv[i], "--coll");
        if ((!is_coll && strcmp(argv[i], "--load") != 0) || i + 1 == argc)
            return sc_cli_fail(sc_error(SC_ERR_INPUT,
                                        "list takes --mpi, --net, or --coll NAME and --load "
                                        "FILE (any number), not '%s'",
                                        argv[i]));
        if (is_coll && !(coll = sc_kind_find(argv[i + 1])))
            err = sc_cli_coll("--coll", argv[i + 1]);
        else if (!is_coll)
            err = sc_cli_add_load(loads, &nloads, argv[i + 1]);
    }
    if (err || (err = sc_cli_load_all(loads, nloads)))
        return sc_cli_fail(err);
    if (profiles)
        list_profiles();
    else
        list_algos(coll);
    return 0;
}
