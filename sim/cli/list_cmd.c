/* simcoll list: the algorithms, the MPI profiles, the network presets or the
 * platform parameters, as text or as the Markdown tables of docs/.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "list_cmd.h"

#include <stdio.h>
#include <string.h>

#include "algorithms/kinds.h"
#include "algorithms/profiles/profiles.h"
#include "algorithms/registry.h"
#include "args.h"
#include "common/sc_units.h"
#include "models/params.h"
#include "sim/engine/generate.h"

/* A Markdown table's cell: text with its '|' escaped, which would end the
 * cell (descriptions hold none today; one added later must not break the
 * table of docs/algorithms.md). */
static void md_cell(const char *text)
{
    for (const char *c = text; *c; c++) {
        if (*c == '|')
            putchar('\\');
        putchar(*c);
    }
}

static const char *algo_needs(const sc_algo_t *a)
{
    return a->needs & SC_NEEDS_POW2 ? "pow2" : a->needs & SC_USES_MAPPING ? "pi" : "-";
}

static void list_algo(const sc_algo_t *a, int width, int md)
{
    if (!md) {
        printf("%-*s  %-10s %-6s %s\n", width, a->name, sc_collective_name(a->collective),
               algo_needs(a), a->doc);
        return;
    }
    printf("| `%s` | %s | %s | ", a->name, sc_collective_name(a->collective), algo_needs(a));
    md_cell(a->doc);
    puts(" |");
}

/* Each profile: what it is, where its rules come from, the rules. */
static void list_profiles(int md)
{
    for (const sc_profile_t *p = sc_profiles; p->name; p++) {
        if (!md) {
            printf("%s%s: %s\n  source: %s\n", p == sc_profiles ? "" : "\n", p->name, p->library,
                   p->source);
            for (int c = 0; c < SC_NCOLLECTIVES; c++)
                printf("  %-9s %s\n", sc_collective_name((sc_collective_t)c), p->rules[c]);
            continue;
        }
        printf("%s## `%s`\n\n%s. Source: %s.\n\n| collective | rules |\n|---|---|\n",
               p == sc_profiles ? "" : "\n", p->name, p->library, p->source);
        for (int c = 0; c < SC_NCOLLECTIVES; c++) {
            printf("| %s | ", sc_collective_name((sc_collective_t)c));
            md_cell(p->rules[c]);
            puts(" |");
        }
    }
}

static void list_net(int md)
{
    if (md)
        puts("| net | platform | interconnect |\n|---|---|---|");
    else
        printf("%-10s %-14s %s\n", "net", "platform", "interconnect");
    for (const sc_network_preset_t *n = sc_network_presets; n->name; n++)
        if (md)
            printf("| `%s` | `%s` | %s |\n", n->name, n->platform, n->what);
        else
            printf("%-10s %-14s %s\n", n->name, n->platform, n->what);
}

/* simcoll's algorithms, then those --load added, in columns as wide as
 * the longest name; only those of `coll` unless it is NULL (grep would
 * also find the broadcasts whose description says "ring allgather"). */
static void list_algos(const sc_kind_t *coll, int md)
{
    int width = 4;
    for (const sc_algo_t *a = sc_algos; a->name; a++)
        if ((!coll || a->collective == coll->collective) && (int)strlen(a->name) > width)
            width = (int)strlen(a->name);
    for (int i = 0; sc_algo_added(i); i++)
        if ((!coll || sc_algo_added(i)->collective == coll->collective) &&
            (int)strlen(sc_algo_added(i)->name) > width)
            width = (int)strlen(sc_algo_added(i)->name);
    if (md)
        puts("| name | collective | needs | description |\n|---|---|---|---|");
    else
        printf("%-*s  %-10s %-6s %s\n", width, "name", "collective", "needs", "description");
    for (const sc_algo_t *a = sc_algos; a->name; a++)
        if (!coll || a->collective == coll->collective)
            list_algo(a, width, md);
    for (int i = 0; sc_algo_added(i); i++)
        if (!coll || sc_algo_added(i)->collective == coll->collective)
            list_algo(sc_algo_added(i), width, md);
}

/* A parameter's unit, as the table states it. */
static const char *param_unit(const sc_param_t *p)
{
    switch (p->kind) {
    case SC_PARAM_DURATION: return "s";
    case SC_PARAM_BANDWIDTH: return "B/s";
    case SC_PARAM_SPEED: return "flop/s";
    case SC_PARAM_SIZE: return "B";
    case SC_PARAM_PIECEWISE_TIME: return "s, by size";
    case SC_PARAM_PIECEWISE_FACTOR: return "factor, by size";
    }
    return "";
}

/* Its range: "[0, 10]", "(0, 2]" when the least value is excluded; sizes
 * in binary units. */
static void param_range(const sc_param_t *p, char *out, size_t len)
{
    char lo[24], hi[24];
    if (p->kind == SC_PARAM_SIZE) {
        sc_format_bytes(p->min, lo, sizeof lo);
        sc_format_bytes(p->max, hi, sizeof hi);
    } else {
        snprintf(lo, sizeof lo, "%g", p->min);
        snprintf(hi, sizeof hi, "%g", p->max);
    }
    snprintf(out, len, "%s%s, %s]", p->above_min ? "(" : "[", lo, hi);
}

/* What carries parameter p of level `level` (NULL: the zone's) in a
 * platform file, in Markdown. */
static void param_carrier(const sc_param_t *p, const char *level, char *out, size_t len)
{
    switch (p->carrier) {
    case SC_CARRIER_PROP:
        snprintf(out, len, "`<prop id=\"simcoll/%s%s%s\">`", level ? level : "", level ? "/" : "",
                 p->name);
        break;
    case SC_CARRIER_LINK: snprintf(out, len, "`%s` of the level's `<link>`s", p->name); break;
    case SC_CARRIER_HOST: snprintf(out, len, "`%s` of each `<host>`", p->name); break;
    }
}

/* One row a parameter and level it exists on, in the order of the table
 * (models/params.c), as users name it: LEVEL.NAME (--set, and
 * simcoll/LEVEL/NAME in a file), the zone's by its name alone. In
 * Markdown, a second table then says what simcoll calibrate fits, one row a
 * parameter. */
static void list_params(int md)
{
    if (md)
        puts("| parameter | unit | range | in a platform file | `--set` | description |\n"
             "|---|---|---|---|---|---|");
    else
        printf("%-30s %-15s %-18s %-3s %-3s %s\n", "parameter", "unit", "range", "req", "set",
               "description");
    for (const sc_param_t *p = sc_params; p->name; p++)
        for (int at = 0; at < SC_NAT; at++) {
            if (!(p->at & SC_AT(at)))
                continue;
            const char *level = sc_param_at_name((sc_param_at_t)at);
            char name[64], range[64], carrier[128], doc[256];
            snprintf(name, sizeof name, "%s%s%s", level ? level : "", level ? "." : "", p->name);
            param_range(p, range, sizeof range);
            param_carrier(p, level, carrier, sizeof carrier);
            sc_param_describe(p, (sc_param_at_t)at, doc, sizeof doc);
            if (p->constant_of) {
                size_t n = strlen(doc);
                snprintf(doc + n, sizeof doc - n,
                         "; %s as one constant: a file gives one of the two", p->constant_of);
            }
            if (!md) {
                printf("%-30s %-15s %-18s %-3s %-3s %s\n", name, param_unit(p), range,
                       p->required ? "yes" : "-", p->settable ? "yes" : "-", doc);
                continue;
            }
            printf("| `%s` | %s | %s | %s%s | %s | ", name, param_unit(p), range, carrier,
                   p->required ? ", required" : "", p->settable ? "yes" : "-");
            md_cell(doc);
            puts(" |");
        }
    if (!md)
        return;
    puts("\n| parameter | `calibrate` reports it as | and fits it from |\n|---|---|---|");
    for (const sc_param_t *p = sc_params; p->name; p++)
        if (p->fit_name) {
            printf("| `%s` | %s | ", p->name, p->fit_name);
            md_cell(p->fit);
            puts(" |");
        }
}

static const char usage[] =
    "usage: simcoll list [--mpi | --net | --params | [--coll NAME] [--load FILE.c|FILE.so ...]]\n"
    "                    [--format text|md]\n"
    "Prints every algorithm (name, collective, what it needs of the process\n"
    "count, description), with those of the files --load adds after simcoll's\n"
    "own, or with --coll only those of one collective (allgather, bcast,\n"
    "barrier, reduce, allreduce, scatter); with --mpi every MPI library profile\n"
    "and the rules by which it chooses an algorithm; with --net the\n"
    "interconnect presets of simcoll platform --net; with --params every\n"
    "parameter of a platform (LEVEL.NAME as --set and simcoll/LEVEL/NAME name\n"
    "it: unit, range, whether a file must give it, whether --set changes it).\n"
    "--format md prints Markdown tables (docs/algorithms.md, docs/parameters.md\n"
    "are made so: docs/generate.sh). Descriptions cite their sources; 'reference\n"
    "000' to '004' and 'lecture 13' are the documents of docs/references.md.\n";

int sc_cli_list(int argc, char **argv)
{
    enum { ALGOS, MPI, NET, PARAMS } what = ALGOS;
    static const char *const formats[] = {"text", "md", NULL};
    int format = 0, tables = 0, algo_options = 0;
    const char *loads[SC_CLI_MAX_LOADS] = {0};
    const sc_kind_t *coll = NULL;
    int nloads = 0;
    sc_err_t err = SC_OK;
    for (int i = 2; !err && i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help")) {
            fputs(usage, stdout);
            return 0;
        }
        if (!strcmp(a, "--mpi") || !strcmp(a, "--net") || !strcmp(a, "--params")) {
            what = a[2] == 'm' ? MPI : a[2] == 'n' ? NET : PARAMS;
            tables++;
            continue;
        }
        int is_coll = !strcmp(a, "--coll"), is_format = !strcmp(a, "--format");
        if ((!is_coll && !is_format && strcmp(a, "--load") != 0) || i + 1 == argc)
            return sc_cli_fail(sc_error(SC_ERR_INPUT,
                                        "list takes --mpi, --net, --params, or --coll NAME and "
                                        "--load FILE (any number), and --format text|md, not '%s'",
                                        a));
        const char *value = argv[++i];
        if (is_format)
            err = sc_cli_choice(value, "--format", formats, &format);
        else if (is_coll && !(coll = sc_kind_find(value)))
            err = sc_cli_coll("--coll", value);
        else if (!is_coll)
            err = sc_cli_add_load(loads, &nloads, value);
        algo_options |= !is_format;
    }
    if (!err && (tables > 1 || (tables && algo_options)))
        err = sc_error(SC_ERR_INPUT, "list prints one table: give one of --mpi, --net, --params, "
                                     "or --coll and --load");
    if (err || (err = sc_cli_load_all(loads, nloads)))
        return sc_cli_fail(err);
    switch (what) {
    case MPI: list_profiles(format); break;
    case NET: list_net(format); break;
    case PARAMS: list_params(format); break;
    case ALGOS: list_algos(coll, format); break;
    }
    return 0;
}
