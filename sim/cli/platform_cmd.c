/* simcoll platform: a cluster written from the nodes of another.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "platform_cmd.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "common/sc_units.h"
#include "models/platform.h"
#include "sim/engine/generate.h"
#include "sim/io/files.h"

static const char platform_usage[] =
    "usage: simcoll platform --like FILE|--net NET [--nodes N] [--cores C|LIST]\n"
    "                        [--topology racks:N,R|TOPO] [--sockets S] [--numa M]\n"
    "                        [--ccx X]\n"
    "                        [--set LEVEL.PARAM=VALUE]... [--smpi-config] [-o OUT]\n"
    "       simcoll platform --like FILE|--net NET\n"
    "                        --levels [core:C,][ccx:X,][numa:M,][socket:S,]node:N\n"
    "                                 [,rack:R]\n"
    "                        [--set LEVEL.PARAM=VALUE]... [--smpi-config] [-o OUT]\n"
    "Writes a cluster of N nodes of C cores (default: FILE's nodes and cores)\n"
    "with the links and protocol properties of the nodes of FILE, to OUT or\n"
    "stdout.\n"
    "--net puts an interconnect preset's network level in their place (the\n"
    "preset's own platform when there is no --like); simcoll list --net\n"
    "shows the presets.\n"
    "Uneven nodes: --cores 4x16,2x8 is 4 nodes of 16 cores then 2 of 8\n"
    "(items C or KxC, separated by ',' or '+').\n"
    "--topology puts the nodes in one of SimGrid's topologies, every link\n"
    "of it a NIC link of FILE's: torus:X,Y,..., fat-tree:LEVELS;DOWN,...;\n"
    "UP,...;LINKS,... or dragonfly:G,g;C,c;R,r;N (quote the ';'); or in\n"
    "racks:N,R, R racks of N nodes on NIC links of FILE's, each rack's\n"
    "switch joined to a core switch by one uplink (rack.* below).\n"
    "--sockets S splits each node's cores among S sockets, joined by a\n"
    "link of the node (socket.* below; not with SimGrid's topologies);\n"
    "--numa M each socket's (or node's) among M NUMA domains, joined by a\n"
    "link of the socket (numa.*); --ccx X each NUMA domain's (or socket's\n"
    "or node's) among X CCXs, cores sharing a cache (ccx.*). A message\n"
    "between two of a node's domains crosses its memory bus and the link of\n"
    "the level where they part.\n"
    "--levels gives the cluster by levels, smallest first, each LEVEL:N\n"
    "the number of LEVELs in one of the next (the last: in the cluster):\n"
    "core:8,socket:2,node:8,rack:4 is --cores 16 --sockets 2 --topology\n"
    "racks:8,4 (it takes the place of --nodes, --cores, --sockets, --numa,\n"
    "--ccx and --topology); core:4,ccx:2,numa:4,socket:2,node:2 is two\n"
    "nodes of two sockets of four NUMA domains of two CCXs of 4 cores.\n"
    "--smpi-config writes the network's overheads, bandwidth and latency\n"
    "factors and eager limit as SMPI's settings (smpi/os, smpi/or,\n"
    "smpi/bw-factor, smpi/lat-factor and the two thresholds) in a <config>,\n"
    "in place of their simcoll/inter/... properties, so that SMPI reading the\n"
    "file charges the same (see platforms/README.md).\n"
    "--set changes one parameter, absolutely (with SimGrid's units) or by a\n"
    "factor of FILE's value (2x, 0.5x); LEVEL intra is the shared memory,\n"
    "inter the network; it takes\n";

/* After the parameters --set takes, which models/params.c lists. */
static const char platform_usage_end[] =
    "A rack's uplink is by default as fast as its nodes' links together,\n"
    "with one NIC link's latency; the link between a node's sockets, which a\n"
    "message between them takes after the memory bus, by default adds\n"
    "nothing, as for sockets on one front-side bus. For example\n"
    "  --set inter.bandwidth=2x --set inter.latency=1.5us --set node.speed=10Gf\n"
    "  --levels node:16,rack:8 --set rack.bandwidth=0.25x  (4:1 oversubscribed)\n";

/* Prints `text` in lines of at most `width` columns, indented by two. */
static void print_wrapped(const char *text, int width)
{
    int column = 0;
    while (*text) {
        int word = (int)strcspn(text, " ");
        if (column > 0 && column + 1 + word > width) {
            putchar('\n');
            column = 0;
        }
        column += printf(column ? " %.*s" : "  %.*s", word, text);
        text += word;
        text += strspn(text, " ");
    }
    putchar('\n');
}

static void print_usage(void)
{
    char sets[512];
    sc_generate_set_usage(sets, sizeof sets);
    fputs(platform_usage, stdout);
    print_wrapped(sets, 72);
    fputs(platform_usage_end, stdout);
}

static const struct option longopts[] = {
    /* name       argument           flag  getopt returns */
    {"like", required_argument, NULL, 'l'},
    {"nodes", required_argument, NULL, 'n'},
    {"cores", required_argument, NULL, 'c'},
    {"net", required_argument, NULL, 'N'},
    {"topology", required_argument, NULL, 't'},
    {"levels", required_argument, NULL, 'L'},
    {"sockets", required_argument, NULL, 'S'},
    {"numa", required_argument, NULL, 'U'},
    {"ccx", required_argument, NULL, 'X'},
    {"output", required_argument, NULL, 'o'}, /* and -o */
    {"set", required_argument, NULL, 's'},
    {"smpi-config", no_argument, NULL, 'M'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};

/* The options of `simcoll platform`. */
typedef struct {
    const char *like, *out, *cores, *net, *topology, *levels;
    char **sets; /* --set, repeatable; room for one per argument (NULL: out of memory) */
    int nodes, nsets, smpi_config;
    int domains[SC_NDOMAIN_KINDS]; /* --ccx, --numa, --sockets; 0: not given */
} platform_opts_t;

/* Reads argv into *o (o->sets allocated by the caller); sets *done after
 * --help. */
static sc_err_t parse_platform_opts(int argc, char **argv, platform_opts_t *o, int *done)
{
    int c;
    sc_err_t err = SC_OK;
    *done = 0;
    opterr = 0;
    optind = 0;
    for (int before = 1;
         !err && (c = getopt_long(argc - 1, argv + 1, ":o:", longopts, NULL)) != -1;
         before = optind) {
        switch (c) {
        case 'l': o->like = optarg; break;
        case 'n': err = sc_parse_int(optarg, "--nodes", 1, 1 << 20, &o->nodes); break;
        case 'S':
            err =
                sc_parse_int(optarg, "--sockets", 1, SC_MAX_SOCKETS, &o->domains[SC_DOMAIN_SOCKET]);
            break;
        case 'U':
            err = sc_parse_int(optarg, "--numa", 1, SC_MAX_SOCKETS, &o->domains[SC_DOMAIN_NUMA]);
            break;
        case 'X':
            err = sc_parse_int(optarg, "--ccx", 1, SC_MAX_SOCKETS, &o->domains[SC_DOMAIN_CCX]);
            break;
        case 'c': o->cores = optarg; break;
        case 'N': o->net = optarg; break;
        case 't': o->topology = optarg; break;
        case 'L': o->levels = optarg; break;
        case 'o': o->out = optarg; break;
        case 'M': o->smpi_config = 1; break;
        case 's':
            if (o->sets)
                o->sets[o->nsets++] = optarg;
            break;
        case 'h':
            print_usage();
            *done = 1;
            return SC_OK;
        case ':':
            err = sc_error(SC_ERR_INPUT, "'%s needs a value",
                           sc_cli_refused_option(argv + 1, before, longopts));
            break;
        default:
            err = sc_error(SC_ERR_INPUT,
                           "platform: unknown option '%s; use --like, --net, --nodes, --cores, "
                           "--topology, --sockets, --numa, --ccx, --levels, --set, "
                           "--smpi-config, -o",
                           sc_cli_refused_option(argv + 1, before, longopts));
            break;
        }
    }
    if (!err && optind + 1 < argc)
        err = sc_error(SC_ERR_INPUT, "platform: unexpected argument '%s'", argv[optind + 1]);
    return err;
}

/* --levels stands for --nodes, --cores, --sockets, --numa, --ccx and
 * --topology, and cannot go with them; o's strings then point into
 * *by_levels. */
static sc_err_t apply_levels(platform_opts_t *o, sc_levels_t *by_levels)
{
    if (o->nodes || o->cores || o->topology || o->domains[SC_DOMAIN_SOCKET] ||
        o->domains[SC_DOMAIN_NUMA] || o->domains[SC_DOMAIN_CCX])
        return sc_error(SC_ERR_INPUT, "platform: --levels gives the nodes, cores, sockets and "
                                      "racks; leave out --nodes, --cores, --sockets, --numa, "
                                      "--ccx and --topology");
    sc_err_t err = sc_levels_parse(o->levels, by_levels);
    if (err)
        return err;
    o->nodes = by_levels->nodes;
    memcpy(o->domains, by_levels->domains, sizeof o->domains);
    o->topology = by_levels->topology[0] ? by_levels->topology : NULL;
    o->cores = by_levels->cores[0] ? by_levels->cores : NULL;
    return SC_OK;
}

int sc_cli_platform(int argc, char **argv)
{
    platform_opts_t o = {.sets = calloc((size_t)argc, sizeof *o.sets)};
    sc_levels_t by_levels;
    int done;
    sc_err_t err = parse_platform_opts(argc, argv, &o, &done);
    if (!err && !done && o.levels)
        err = apply_levels(&o, &by_levels);
    if (!err && !done && !o.like && !o.net)
        err = sc_error(SC_ERR_INPUT, "platform needs --like FILE or --net NET (the cluster to "
                                     "start from), e.g. simcoll platform --like ib4x.xml "
                                     "--nodes 128");
    if (!err && !done && !o.sets)
        err = sc_error(SC_ERR_RUN, "out of memory");
    const sc_file_role_t files[] = {{"--like", o.like, 0}, {"-o", o.out, 1}};
    if (!err && !done)
        err = sc_files_distinct(files, 2);
    if (!err && !done)
        err = sc_generate_platform_smpi(o.like, o.net, o.topology, o.nodes, o.cores, o.domains,
                                        o.sets, o.nsets, o.smpi_config, o.out);
    free(o.sets);
    return err ? sc_cli_fail(err) : 0;
}
