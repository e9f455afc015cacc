/* simcoll calibrate: a platform fitted to point-to-point measurements, and
 * the residuals of a platform against them.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "calibrate.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "calibrate_input.h"
#include "calibrate_report.h"
#include "common/sc_units.h"
#include "models/calibrate.h"
#include "models/params.h"
#include "sim/simgrid/engine.h"
#include "sim/engine/generate.h"
#include "sim/io/files.h"
#include "sim/io/measurements.h"
#include "sim/io/probe_cluster.h"

/* The measurement options, each getopt_long's entry of its own. */
static const sc_cal_source_t sources[] = {
    {"--osu-latency", SC_MEASURE_FORMAT_OSU, SC_MEASURE_LATENCY},
    {"--osu-bw", SC_MEASURE_FORMAT_OSU, SC_MEASURE_BANDWIDTH},
    {"--osu-bibw", SC_MEASURE_FORMAT_OSU, SC_MEASURE_BIBANDWIDTH},
    {"--osu-mbw-mr", SC_MEASURE_FORMAT_OSU, SC_MEASURE_MESSAGE_RATE},
    {"--imb", SC_MEASURE_FORMAT_IMB, -1},
    {"--netpipe", SC_MEASURE_FORMAT_NETPIPE, SC_MEASURE_LATENCY},
    {"--smpi-csv", SC_MEASURE_FORMAT_SMPI, -1},
    {"--probe", SC_MEASURE_FORMAT_PROBE, -1},
    {"--measurements", SC_MEASURE_FORMAT_AUTO, -1},
};
enum { NSOURCES = sizeof sources / sizeof sources[0] };

static const char usage[] =
    "usage: simcoll calibrate MEASUREMENTS --like FILE [-o OUT] [--level LEVEL]\n"
    "                         [--breakpoints S,S,...] [--eager-limit S] [--latency-factor]\n"
    "                         [--domains N] [--sender-share S] [--report] [--strict]\n"
    "       simcoll calibrate --report --platform FILE MEASUREMENTS [--level LEVEL]\n"
    "       (either form) [--processes LO-HI]\n"
    "MEASUREMENTS (each may be given several times):\n"
    "  --osu-latency F  --osu-bw F  --osu-bibw F  --osu-mbw-mr F   OSU micro-benchmarks\n"
    "  --imb F          Intel MPI Benchmarks (PingPong, PingPing, Uniband, Biband)\n"
    "  --netpipe F      NetPIPE np.out\n"
    "  --smpi-csv F     SimGrid platform-calibration CSV (Isend, Recv, PingPong)\n"
    "  --probe F        simcoll-probe's file (the series of --level's placement; the\n"
    "                   protocol switches it found: the default --eager-limit and\n"
    "                   --breakpoints; its hosts: the platform's nodes, cores, name)\n"
    "  --measurements F any of these, recognized from its content\n"
    "Fits one level (default inter: between nodes) of the template's platform to the\n"
    "measurements, prints every fitted value, how it was obtained and the residuals,\n"
    "and writes the platform to OUT. With --report and --platform, only the residuals\n"
    "of that platform, point by point.\n"
    "LEVEL is inter (the network), intra (shared memory: the smallest domain of a\n"
    "node, where the pair measured is), or socket, numa or ccx: the ping-pong between\n"
    "two cores of different sockets (NUMA domains, CCXs) of a node, fitted as shared\n"
    "memory; the template's shared memory then gives the rest (fit intra first), and\n"
    "OUT has --domains N such domains in each node (in each socket, NUMA domain), with\n"
    "their link (the latency the fit adds to the template's, the fit's bandwidth) and\n"
    "their own flow factor (the fit's slopes).\n"
    "--processes keeps only the series run on LO to HI processes, where the file says\n"
    "(IMB prints each section's count; others are kept): IMB's Uniband and Biband on a\n"
    "job of N ranks a node run their sections of at most N processes inside one node,\n"
    "what --level intra fits (without a ping-pong: to the streams alone).\n"
    "--latency-factor also fits a latency factor per segment (SMPI's lat-factor): each\n"
    "segment's ping-pong intercept over the first's, so that every segment's intercept\n"
    "comes back; without it, the first segment's intercept alone gives the latency.\n"
    "--sender-share S (shared memory, 0 to 1, default 0.5): without send-overhead\n"
    "samples (SMPI's Isend, simcoll-probe's send-overhead) or a one-pair stream, the\n"
    "sender's o_s is S of the ping-pong's one-way time below the eager limit (it\n"
    "copies the message in; simcoll-probe measured 0.47 to 0.55 with Open MPI and\n"
    "MPICH, experiments/small-messages) and S of the smallest message's past it; the\n"
    "platform marks it assumed. 0 keeps the template's o_s.\n"
    "A fit that misses a series by more than 10% at the median is warned of on\n"
    "stderr; --strict refuses it instead (exit 2, no file written).\n";

enum {
    OPT_LIKE = 300,
    OPT_LEVEL,
    OPT_BREAKPOINTS,
    OPT_EAGER,
    OPT_REPORT,
    OPT_PLATFORM,
    OPT_PROCESSES,
    OPT_LATENCY_FACTOR,
    OPT_STRICT,
    OPT_DOMAINS,
    OPT_SENDER_SHARE,
    OPT_HELP
};

/* --processes LO-HI: two whole numbers, 1 <= LO <= HI. */
static sc_err_t parse_processes(const char *text, int *lo, int *hi)
{
    char *end;
    long a = strtol(text, &end, 10), b = -1;
    if (end != text && *end == '-') {
        const char *second = end + 1;
        b = strtol(second, &end, 10);
        if (end == second)
            b = -1;
    }
    if (*end || a < 1 || b < a || b > 1000000000)
        return sc_error(SC_ERR_INPUT,
                        "--processes '%s': expected LO-HI, two process counts "
                        "with 1 <= LO <= HI, e.g. 2-32",
                        text);
    *lo = (int)a;
    *hi = (int)b;
    return SC_OK;
}

/* --sender-share: a fraction in [0, 1]. */
static sc_err_t parse_share(const char *text, double *share)
{
    char *end;
    *share = strtod(text, &end);
    if (end == text || *end || !(*share >= 0 && *share <= 1))
        return sc_error(SC_ERR_INPUT,
                        "--sender-share: '%s' is not a share between 0 and 1 (0.5: the sender "
                        "is busy for half of a message's one-way time; 0: the template's o_s)",
                        text);
    return SC_OK;
}

/* --level's choices: the two levels of sc_level_id_t, then the domains
 * inside nodes, largest first. */
static const char *const levels[] = {"intra", "inter", "socket", "numa", "ccx", NULL};

/* The kind of domain --level `level` fits, or -1 (intra, inter). */
static int level_domain(int level)
{
    static const int kinds[] = {-1, -1, SC_DOMAIN_SOCKET, SC_DOMAIN_NUMA, SC_DOMAIN_CCX};
    return kinds[level];
}

/* Every level but the network's is shared memory, fitted as such. */
static int shared_memory(int level)
{
    return level != SC_LEVEL_INTER;
}

/* The options of `simcoll calibrate`, and the measurements they name. */
typedef struct {
    const char *like, *platform, *out, *breakpoints_text, *eager_text;
    int level, report, np_lo, np_hi, latency_factor, strict;
    int domains; /* --domains: how many of --level's domains in the next larger; 0: not given */
    double sender_share; /* --sender-share */
    sc_cal_series_t all;
    /* every file named, for sc_files_distinct: at most one per argument
     * and -o */
    sc_file_role_t *files;
    int nfiles;
} calibrate_opts_t;

/* getopt_long's table: one option per measurement format, then the rest. */
static void calibrate_longopts(struct option longopts[NSOURCES + 14])
{
    for (int i = 0; i < NSOURCES; i++)
        longopts[i] = (struct option){sources[i].option + 2, required_argument, NULL, i};
    longopts[NSOURCES + 0] = (struct option){"like", required_argument, NULL, OPT_LIKE};
    longopts[NSOURCES + 1] = (struct option){"level", required_argument, NULL, OPT_LEVEL};
    longopts[NSOURCES + 2] =
        (struct option){"breakpoints", required_argument, NULL, OPT_BREAKPOINTS};
    longopts[NSOURCES + 3] = (struct option){"eager-limit", required_argument, NULL, OPT_EAGER};
    longopts[NSOURCES + 4] = (struct option){"report", no_argument, NULL, OPT_REPORT};
    longopts[NSOURCES + 5] = (struct option){"platform", required_argument, NULL, OPT_PLATFORM};
    longopts[NSOURCES + 6] = (struct option){"output", required_argument, NULL, 'o'};
    longopts[NSOURCES + 7] = (struct option){"help", no_argument, NULL, OPT_HELP};
    longopts[NSOURCES + 8] = (struct option){"processes", required_argument, NULL, OPT_PROCESSES};
    longopts[NSOURCES + 9] =
        (struct option){"latency-factor", no_argument, NULL, OPT_LATENCY_FACTOR};
    longopts[NSOURCES + 10] = (struct option){"strict", no_argument, NULL, OPT_STRICT};
    longopts[NSOURCES + 11] = (struct option){"domains", required_argument, NULL, OPT_DOMAINS};
    longopts[NSOURCES + 12] =
        (struct option){"sender-share", required_argument, NULL, OPT_SENDER_SHARE};
    longopts[NSOURCES + 13] = (struct option){NULL, 0, NULL, 0};
}

/* Reads argv into *o (o->files allocated by the caller), reading each
 * measurement file as it comes; sets *done after --help. */
static sc_err_t parse_calibrate_opts(int argc, char **argv, calibrate_opts_t *o, int *done)
{
    struct option longopts[NSOURCES + 14];
    calibrate_longopts(longopts);
    char **args = argv + 1;
    int c;
    sc_err_t err = SC_OK;
    *done = 0;
    opterr = 0;
    optind = 0;
    for (int before = 1; !err && (c = getopt_long(argc - 1, args, ":o:", longopts, NULL)) != -1;
         before = optind) {
        if (c >= 0 && c < NSOURCES) {
            o->files[o->nfiles++] = (sc_file_role_t){sources[c].option, optarg, 0};
            err = sc_cal_add_file(&o->all, &sources[c], optarg);
            continue;
        }
        switch (c) {
        case OPT_LIKE:
            o->like = optarg;
            o->files[o->nfiles++] = (sc_file_role_t){"--like", optarg, 0};
            break;
        case OPT_PLATFORM: o->platform = optarg; break;
        case 'o': o->out = optarg; break;
        case OPT_BREAKPOINTS: o->breakpoints_text = optarg; break;
        case OPT_EAGER: o->eager_text = optarg; break;
        case OPT_REPORT: o->report = 1; break;
        case OPT_LATENCY_FACTOR: o->latency_factor = 1; break;
        case OPT_STRICT: o->strict = 1; break;
        case OPT_LEVEL: err = sc_cli_choice(optarg, "--level", levels, &o->level); break;
        case OPT_PROCESSES: err = parse_processes(optarg, &o->np_lo, &o->np_hi); break;
        case OPT_DOMAINS:
            err = sc_parse_int(optarg, "--domains", 2, SC_MAX_SOCKETS, &o->domains);
            break;
        case OPT_SENDER_SHARE: err = parse_share(optarg, &o->sender_share); break;
        case OPT_HELP:
            fputs(usage, stdout);
            *done = 1;
            return SC_OK;
        case ':':
            err = sc_error(SC_ERR_INPUT, "'%s needs a value (simcoll calibrate --help)",
                           sc_cli_refused_option(args, before, longopts));
            break;
        default:
            err = sc_error(SC_ERR_INPUT, "calibrate: unknown option '%s (simcoll calibrate --help)",
                           sc_cli_refused_option(args, before, longopts));
            break;
        }
    }
    if (!err && optind < argc - 1)
        err = sc_error(SC_ERR_INPUT, "calibrate: unexpected argument '%s'", args[optind]);
    return err;
}

/* The checks across options: fit (--like) or report (--platform). */
static sc_err_t check_calibrate_opts(calibrate_opts_t *o)
{
    sc_err_t err;
    if (o->all.n == 0)
        return sc_error(SC_ERR_INPUT, "calibrate needs measurements, e.g. --osu-latency lat.txt "
                                      "(simcoll calibrate --help lists the formats)");
    if (o->np_lo > 0 && (err = sc_cal_keep_processes(&o->all, o->np_lo, o->np_hi)))
        return err;
    if ((err = sc_cal_keep_placement(&o->all, levels[o->level])))
        return err;
    if (o->report && !o->like && !o->platform)
        return sc_error(SC_ERR_INPUT, "calibrate --report needs --platform FILE (the platform "
                                      "to report on)");
    if (!o->report && !o->like)
        return sc_error(SC_ERR_INPUT, "calibrate needs --like FILE: the platform whose nodes, "
                                      "links and other level the fit starts from");
    if (o->like && o->platform)
        return sc_error(SC_ERR_INPUT, "calibrate: give --like FILE to fit, or --report "
                                      "--platform FILE to report on a platform, not both");
    if (o->platform && o->out)
        return sc_error(SC_ERR_INPUT, "calibrate: -o writes a fitted platform; with --platform "
                                      "nothing is fitted");
    if (o->platform && o->strict)
        return sc_error(SC_ERR_INPUT, "calibrate: --strict refuses a bad fit; with --platform "
                                      "nothing is fitted");
    if (o->platform && o->latency_factor)
        return sc_error(SC_ERR_INPUT, "calibrate: --latency-factor is part of a fit; with "
                                      "--platform nothing is fitted (the platform's own factor "
                                      "is what the residuals use)");
    int domain = level_domain(o->level);
    for (int p = 0; domain == SC_DOMAIN_SOCKET && o->like && !o->domains && p < o->all.nprobes; p++)
        for (int h = 0; h < o->all.probes[p].nhosts && !o->domains; h++)
            if (o->all.probes[p].hosts[h].sockets > 1) {
                o->domains = o->all.probes[p].hosts[h].sockets;
                fprintf(stderr,
                        "simcoll: note: --probe '%s': --domains %d, the sockets of host "
                        "%s (its '# host' lines)\n",
                        o->all.probe_paths[p], o->domains, o->all.probes[p].hosts[h].name);
            }
    if (domain >= 0 && o->like && !o->domains)
        return sc_error(SC_ERR_INPUT,
                        "calibrate --level %s needs --domains N: how many %s each %s holds (2 "
                        "to %d)",
                        levels[o->level], sc_domain_plural((sc_domain_kind_t)domain),
                        domain == SC_DOMAIN_SOCKET ? "node" : "socket (or node)", SC_MAX_SOCKETS);
    if (o->domains && (domain < 0 || o->platform))
        return sc_error(SC_ERR_INPUT, "calibrate: --domains goes with a fit of --level socket, "
                                      "numa or ccx");
    o->files[o->nfiles++] = (sc_file_role_t){"-o", o->out, 1};
    return sc_files_distinct(o->files, o->nfiles);
}

/* --breakpoints S,S,...: increasing sizes, into *breakpoints (the caller
 * frees it). */
static sc_err_t parse_breakpoints(const char *text, size_t **breakpoints, int *nbp)
{
    char *copy = strdup(text), **items = NULL;
    sc_err_t err = copy ? sc_cli_split_list(copy, "--breakpoints", &items, nbp)
                        : sc_error(SC_ERR_RUN, "out of memory");
    if (!err && !(*breakpoints = malloc((size_t)*nbp * sizeof **breakpoints)))
        err = sc_error(SC_ERR_RUN, "out of memory");
    for (int i = 0; i < *nbp && !err; i++) {
        err = sc_parse_size(items[i], "--breakpoints", &(*breakpoints)[i]);
        if (!err && i > 0 && (*breakpoints)[i] <= (*breakpoints)[i - 1])
            err = sc_error(SC_ERR_INPUT,
                           "--breakpoints: '%s' is not above '%s'; give them "
                           "in increasing order",
                           items[i], items[i - 1]);
    }
    if (!err && *nbp > SC_MAX_SEGMENTS - 2)
        err = sc_error(SC_ERR_INPUT, "--breakpoints: at most %d", SC_MAX_SEGMENTS - 2);
    free(items);
    free(copy);
    return err;
}

/* Where simcoll-probe found the library switching protocol between ranks
 * of placement `level` (its '# switch' lines): the eager limit into
 * *eager if `want_eager`, the other switches into *breakpoints if
 * `want_breakpoints` (the caller frees it), each said on stderr. A fit
 * between the switches follows each protocol; the template's eager limit
 * and no breakpoints, the default otherwise, missed the probe's own
 * series by hundreds of percent. */
static sc_err_t probe_switches(const sc_cal_series_t *all, const char *level, int want_eager,
                               int want_breakpoints, size_t *eager, size_t **breakpoints, int *nbp)
{
    for (int p = 0; p < all->nprobes; p++) {
        const sc_probe_cluster_t *c = &all->probes[p];
        int n = 0, found_eager = 0;
        size_t *points = malloc(((size_t)c->nswitches + 1) * sizeof *points);
        if (!points)
            return sc_error(SC_ERR_RUN, "out of memory");
        char taken[256] = "";
        size_t len = 0;
        for (int i = 0; i < c->nswitches; i++) {
            const sc_probe_switch_t *w = &c->switches[i];
            if (strcmp(w->placement, level))
                continue;
            if (w->eager && !found_eager) {
                found_eager = 1;
                if (want_eager) {
                    *eager = w->bytes;
                    len += (size_t)snprintf(taken + len, sizeof taken - len, "--eager-limit %zu",
                                            w->bytes);
                }
            } else if (n < SC_MAX_SEGMENTS - 2 && (n == 0 || w->bytes > points[n - 1])) {
                points[n++] = w->bytes;
            }
        }
        if (!found_eager && n == 0) {
            free(points);
            continue;
        }
        if (want_breakpoints && n > 0) {
            *breakpoints = points;
            *nbp = n;
            for (int i = 0; i < n && len < sizeof taken; i++)
                len += (size_t)snprintf(taken + len, sizeof taken - len, "%s%zu",
                                        i     ? ","
                                        : len ? " --breakpoints "
                                              : "--breakpoints ",
                                        points[i]);
        } else {
            free(points);
        }
        if (*taken)
            fprintf(stderr,
                    "simcoll: note: --probe '%s': %s, where simcoll-probe found the library "
                    "switching protocol between ranks of placement %s (its '# switch %s' lines; "
                    "give --eager-limit or --breakpoints to choose others)\n",
                    all->probe_paths[p], taken, level, level);
        return SC_OK;
    }
    return SC_OK;
}

/* A level of domains inside nodes, from its placement's ping-pong fitted as
 * shared memory (`fit`) and the template's shared memory (`bus`, the
 * smallest domain's): the link of the level adds the fit's latency less
 * the bus's, its bandwidth is the fit's (the route takes the slower of it
 * and the bus's), and the fit's flow factors, against that route, are the
 * level's own, and so are its overheads where they differ from the bus's
 * (fitted to this placement's samples or its ping-pong). */
typedef struct {
    double latency_s, bandwidth_Bps;
    sc_level_t props; /* flow factor, o_s and o_r: no segments, the bus's */
} domain_link_t;

static int same_piecewise(const sc_piecewise_t *a, const sc_piecewise_t *b)
{
    if (a->n != b->n)
        return 0;
    for (int k = 0; k < a->n; k++)
        if (memcmp(&a->seg[k], &b->seg[k], sizeof a->seg[k]))
            return 0;
    return 1;
}

static sc_err_t domain_link(const char *level, const sc_level_t *fit, const sc_level_t *bus,
                            domain_link_t *link)
{
    if (fit->latency_s < bus->latency_s) {
        char fitted[48], template[48];
        sc_format_quantity(fit->latency_s, SC_QTY_TIME, fitted, sizeof fitted);
        sc_format_quantity(bus->latency_s, SC_QTY_TIME, template, sizeof template);
        return sc_error(SC_ERR_INPUT,
                        "calibrate --level %s: the fitted latency, %s, is below the "
                        "template's shared memory's, %s, which a message between two "
                        "domains also crosses; fit --level intra on the closest pair of cores "
                        "first and give that platform as --like",
                        level, fitted, template);
    }
    link->latency_s = fit->latency_s - bus->latency_s;
    link->bandwidth_Bps = fit->bandwidth_Bps;
    sc_piecewise_t *flow = &link->props.flow_factor;
    *flow = fit->flow_factor;
    double route = fmin(fit->bandwidth_Bps, bus->bandwidth_Bps);
    for (int k = 0; k < flow->n; k++)
        flow->seg[k].start = fmin(1, flow->seg[k].start * fit->bandwidth_Bps / route);
    if (!same_piecewise(&fit->send_overhead, &bus->send_overhead))
        link->props.send_overhead = fit->send_overhead;
    if (!same_piecewise(&fit->recv_overhead, &bus->recv_overhead))
        link->props.recv_overhead = fit->recv_overhead;
    return SC_OK;
}

static void print_domain_link(const char *level, const domain_link_t *link)
{
    char lat[48], bw[48];
    sc_format_quantity(link->latency_s, SC_QTY_TIME, lat, sizeof lat);
    sc_format_quantity(link->bandwidth_Bps, SC_QTY_BANDWIDTH, bw, sizeof bw);
    printf("# %s link: latency %s (the fit's less the template's shared memory's), "
           "bandwidth %s (the fit's)",
           level, lat, bw);
    const sc_piecewise_t *flow = &link->props.flow_factor;
    if (flow->n > 0) {
        printf("; simcoll/%s/flow-factor ", level);
        for (int k = 0; k < flow->n; k++)
            printf("%s%.0f:%.4g", k ? ";" : "", flow->seg[k].min_bytes, flow->seg[k].start);
    }
    if (link->props.send_overhead.n > 0)
        printf("; its own o_s (above)");
    if (link->props.recv_overhead.n > 0)
        printf("; its own o_r (above)");
    printf("\n");
}

/* The cluster simcoll-probe saw, from the first probe file that names its
 * hosts' cores ('# host' lines): a calibrated platform is that cluster,
 * named after it (so that its runs and validation plots say which), not
 * the template's nodes and name. At least two nodes: a platform of one
 * cannot be the template of the next level's fit. Sets gen's nodes, cores
 * (or *node_cores, allocated, when hosts differ) and name (in `name`);
 * says so on stderr. Nothing without such a file. */
static sc_err_t probed_shape(const sc_cal_series_t *all, const char *out, sc_generate_spec_t *gen,
                             char *name, size_t size, int **node_cores)
{
    for (int p = 0; p < all->nprobes; p++) {
        const sc_probe_cluster_t *c = &all->probes[p];
        if (c->nhosts == 0)
            continue;
        int nodes = c->nhosts < 2 ? 2 : c->nhosts, even = 1, sockets = 1;
        for (int h = 0; h < c->nhosts; h++) {
            even &= c->hosts[h].cores == c->hosts[0].cores;
            sockets = c->hosts[h].sockets > sockets ? c->hosts[h].sockets : sockets;
        }
        if (!even) {
            if (!(*node_cores = malloc((size_t)nodes * sizeof **node_cores)))
                return sc_error(SC_ERR_RUN, "out of memory");
            for (int h = 0; h < nodes; h++)
                (*node_cores)[h] = c->hosts[h < c->nhosts ? h : 0].cores;
        }
        gen->nodes = nodes;
        gen->cores = c->hosts[0].cores;
        gen->node_cores = *node_cores;
        sc_probe_cluster_name(c, name, size);
        gen->name = name;
        fprintf(stderr,
                "simcoll: note: --probe '%s': the platform is the probed cluster, %s: %d nodes "
                "of %d%s cores (its '# host' lines%s)%s; simcoll platform --like %s --nodes N "
                "makes a larger one\n",
                all->probe_paths[p], name, nodes, c->hosts[0].cores, even ? "" : " and more",
                c->nhosts < 2 ? "; one host, made two: a platform needs two nodes to be the "
                                "template of a fit"
                              : "",
                sockets > 1 ? "; for its sockets, fit --level socket on the probe's socket pair"
                            : "",
                out ? out : "OUT");
        return SC_OK;
    }
    return SC_OK;
}

/* The index of the fit's note of parameter p if the fit kept the
 * template's value (no measurement gave it), else -1. */
static int kept_note(const sc_fit_t *fit, const sc_param_t *p)
{
    for (int k = 0; p->fit_name && k < fit->nnotes; k++)
        if (!strcmp(fit->notes[k].what, p->fit_name) && fit->notes[k].origin == SC_FIT_KEPT)
            return k;
    return -1;
}

/* -o: the platform of --like with the fitted level and the ranges it keeps,
 * naming the command and the files it was fitted to; a level of domains
 * as `link` gives it. */
static sc_err_t write_fitted(const calibrate_opts_t *o, const sc_fit_t *fit,
                             const domain_link_t *link, const sc_cal_ranges_t *kept, int argc,
                             char **argv)
{
    char name[SC_PROBE_NAME_MAX];
    int *node_cores = NULL;
    char *made_by = NULL, *comment = NULL, *measured = NULL;
    size_t len1 = 0, len2 = 0, len3 = 0;
    sc_err_t err;
    FILE *mb = open_memstream(&made_by, &len1), *cm = open_memstream(&comment, &len2),
         *ms = open_memstream(&measured, &len3);
    if (mb && cm && ms) {
        for (int i = 0; i < o->all.n; i++) {
            int seen = 0; /* a file of several series, named once */
            for (int k = 0; k < i && !seen; k++)
                seen = !strcmp(o->all.series[k].path, o->all.series[i].path);
            if (!seen)
                fprintf(ms, "%s%s", i ? ", " : "", o->all.series[i].path);
        }
        fputs(", fitted by simcoll calibrate", ms);
        fputs("simcoll", mb);
        for (int i = 1; i < argc; i++)
            fprintf(mb, " %s", argv[i]);
        fprintf(cm, "  The %s level was fitted by simcoll calibrate to:", levels[o->level]);
        for (int i = 0; i < o->all.n; i++)
            fprintf(cm, "\n    %s (%s, %d points)", o->all.series[i].path,
                    o->all.series[i].source ? o->all.series[i].source : "",
                    o->all.series[i].npoints);
    }
    int bad = !mb || !cm || !ms;
    bad |= mb && fclose(mb) != 0;
    bad |= cm && fclose(cm) != 0;
    bad |= ms && fclose(ms) != 0;
    if (bad) {
        err = sc_error(SC_ERR_RUN, "out of memory");
    } else {
        sc_generate_spec_t gen = {.made_by = made_by, .comment = comment, .measured = measured};
        char assumed[1400];
        if (fit->sender_share > 0) {
            snprintf(assumed, sizeof assumed,
                     "%.3g of the ping-pong's one-way time is the sender's (calibrate "
                     "--sender-share), as simcoll-probe measured it with Open MPI 4.1.4 and "
                     "MPICH 4.0.2 on another machine (experiments/small-messages); the "
                     "ping-pong: %s",
                     fit->sender_share, measured);
            gen.assumed_send_overhead = assumed;
        }
        err = probed_shape(&o->all, o->out, &gen, name, sizeof name, &node_cores);
        int domain = level_domain(o->level);
        char set_latency[96], set_bandwidth[96];
        char *sets[] = {set_latency, set_bandwidth};
        for (const sc_param_t *p = sc_params; p->name; p++)
            if (kept_note(fit, p) >= 0)
                gen.kept_params |= 1ULL << (p - sc_params); /* fewer than 64 rows */
        if (domain < 0) {
            gen.level = &fit->level;
            gen.level_id = (sc_level_id_t)o->level;
            gen.kept_ranges = kept->range;
            gen.nkept_ranges = kept->n;
        } else {
            gen.domains[domain] = o->domains;
            gen.domain_props[domain] = &link->props;
            snprintf(set_latency, sizeof set_latency, "%s.latency=%.10gs", levels[o->level],
                     link->latency_s);
            snprintf(set_bandwidth, sizeof set_bandwidth, "%s.bandwidth=%.10gBps", levels[o->level],
                     link->bandwidth_Bps);
            gen.sets = sets;
            gen.nsets = 2;
        }
        if (!err)
            err = sc_generate("--like", o->like, &gen, o->out);
    }
    free(node_cores);
    free(made_by);
    free(comment);
    free(measured);
    return err;
}

/* The ranges of plat on the fitted level `id` that the fit keeps: those of
 * parameters it kept from the template (no measurement gave them), and
 * of the eager limit, which no fit gives, unless --eager-limit does. Their
 * notes show them as ranges. */
static void keep_ranges(const calibrate_opts_t *o, const sc_platform_t *plat, int id, sc_fit_t *fit,
                        sc_cal_ranges_t *kept)
{
    kept->n = 0;
    for (int i = 0; i < plat->nranges; i++) {
        const sc_range_t *r = &plat->ranges[i];
        const sc_param_t *p = &sc_params[r->param];
        if (r->at != id)
            continue;
        int k = kept_note(fit, p);
        sc_fit_note_t *note = k >= 0 ? &fit->notes[k] : NULL;
        if (p->fit_name ? !note : o->eager_text != NULL)
            continue;
        kept->range[kept->n++] = *r;
        if (note)
            sc_generate_range_text(r, note->value, sizeof note->value);
    }
}

/* Fits the level of --like to the measurements, writes it with -o, and
 * prints the fit and its residuals. */
static sc_err_t fit_level(const calibrate_opts_t *o, int argc, char **argv)
{
    sc_platform_t plat = {0};
    size_t *breakpoints = NULL;
    int nbp = 0;
    sc_err_t err = sc_platform_load("--like", o->like, &plat);
    int domain = level_domain(o->level), shared = shared_memory(o->level);
    /* a level of domains starts from shared memory's */
    int id = domain >= 0 ? SC_LEVEL_INTRA : o->level;
    size_t eager = err ? 0 : plat.level[id].eager_limit;
    if (!err && o->eager_text)
        err = sc_parse_size(o->eager_text, "--eager-limit", &eager);
    if (!err && o->breakpoints_text)
        err = parse_breakpoints(o->breakpoints_text, &breakpoints, &nbp);
    if (!err && (!o->eager_text || !o->breakpoints_text))
        err = probe_switches(&o->all, levels[o->level], !o->eager_text, !o->breakpoints_text,
                             &eager, &breakpoints, &nbp);
    sc_fit_spec_t spec = {.breakpoints = breakpoints,
                          .nbreakpoints = nbp,
                          .eager_limit = eager,
                          .header_bytes = plat.header_bytes,
                          .fallback = &plat.level[id],
                          .shared_memory = shared,
                          .latency_factor = o->latency_factor,
                          .sender_share = o->sender_share};
    sc_fit_t fit;
    domain_link_t link = {0};
    if (!err)
        err = sc_calibrate_fit(&spec, o->all.series, o->all.n, &fit);
    if (!err && domain >= 0)
        err = domain_link(levels[o->level], &fit.level, &plat.level[SC_LEVEL_INTRA], &link);
    /* A level of domains leaves the template's levels, ranges and all, as
     * they are. */
    sc_cal_ranges_t kept = {.n = 0};
    if (!err && domain < 0)
        keep_ranges(o, &plat, id, &fit, &kept);
    double worst = 0;
    int bad =
        err ? -1 : sc_cal_worst_series(&fit.level, plat.header_bytes, shared, &o->all, &worst);
    if (worst <= SC_CAL_BAD_FIT)
        bad = -1;
    /* With -o the fit is printed once its platform has loaded and been
     * written: a fit that makes no platform prints nothing but the error.
     * --strict writes and prints no bad fit: refused input leaves stdout
     * empty. */
    int refused = o->strict && bad >= 0;
    if (!err && o->out && !refused)
        err = write_fitted(o, &fit, &link, &kept, argc, argv);
    char unfitted[1400] = "";
    if (!err)
        sc_cal_not_fitted(&fit, &kept, unfitted, sizeof unfitted);
    if (!err && !refused) {
        sc_cal_print_fit(&fit, levels[o->level]);
        if (domain >= 0)
            print_domain_link(levels[o->level], &link);
        sc_cal_print_residuals(&fit.level, plat.header_bytes, shared, &o->all, o->report);
        if (*unfitted)
            fprintf(stderr, "simcoll: calibrate: %s\n", unfitted);
        char faster[512];
        sc_cal_above_one(&fit, faster, sizeof faster);
        if (*faster)
            fprintf(stderr,
                    "simcoll: note: calibrate: %s: above 1, these messages moved data faster "
                    "than the bandwidth (the largest stream measured), which a link cannot; "
                    "a stream that did not fill the link (too few pairs, too small messages, a "
                    "loaded machine) makes the bandwidth too low: check it against the link's "
                    "rated speed (kept as fitted: SMPI's bw-factor allows up to 2)\n",
                    faster);
    }
    if (!err && bad >= 0) {
        const sc_series_t *s = &o->all.series[bad];
        char what[2600];
        snprintf(what, sizeof what,
                 "the fit misses %s (%s) by %.1f%% at the median, above %.0f%%: the model does "
                 "not follow these measurements (residuals above); check the template's level "
                 "(--level), the breakpoints and the eager limit%s%s%s",
                 s->path, sc_cal_kind_name(s->kind), 100 * worst, 100 * SC_CAL_BAD_FIT,
                 !*unfitted ? ""
                 : refused  ? ", and what was not fitted ("
                            : ", and what was not fitted (above)",
                 refused ? unfitted : "", refused && *unfitted ? ")" : "");
        if (refused)
            err = sc_error(SC_ERR_INPUT,
                           "calibrate --strict: %s; nothing written (without --strict, the "
                           "fit and its residuals are printed)",
                           what);
        else
            fprintf(stderr, "simcoll: warning: %s\n", what);
    }
    free(breakpoints);
    sc_platform_destroy(&plat);
    return err;
}

/* --report --platform: the residuals of the platform's level of --level. */
static sc_err_t report_level(const sc_platform_t *plat, const calibrate_opts_t *o)
{
    int domain = level_domain(o->level);
    const sc_level_t *lv = &plat->level[domain >= 0 ? SC_LEVEL_INTRA : o->level];
    if (domain >= 0) {
        if (plat->domain_count[domain] <= 1)
            return sc_error(SC_ERR_INPUT,
                            "calibrate --report --level %s: platform '%s' has no "
                            "%s",
                            levels[o->level], o->platform,
                            sc_domain_plural((sc_domain_kind_t)domain));
        lv = &plat->between_domains[domain];
    }
    sc_cal_print_residuals(lv, plat->header_bytes, shared_memory(o->level), &o->all, 1);
    return SC_OK;
}

int sc_cli_calibrate(int argc, char **argv)
{
    calibrate_opts_t o = {.level = SC_LEVEL_INTER,
                          .sender_share = SC_DEFAULT_SENDER_SHARE,
                          .files = calloc((size_t)argc + 1, sizeof *o.files)};
    sc_platform_t plat = {0};
    int done = 0;
    sc_err_t err = o.files ? parse_calibrate_opts(argc, argv, &o, &done)
                           : sc_error(SC_ERR_RUN, "out of memory");
    if (!err && !done && !(err = check_calibrate_opts(&o))) {
        if (!o.platform)
            err = fit_level(&o, argc, argv);
        else if (!(err = sc_platform_load("--platform", o.platform, &plat))) /* report only */
            err = report_level(&plat, &o);
    }
    free(o.files);
    sc_platform_destroy(&plat);
    sc_series_destroy(o.all.series, o.all.n);
    for (int i = 0; i < o.all.nprobes; i++)
        sc_probe_cluster_destroy(&o.all.probes[i]);
    return err ? sc_cli_fail(err) : 0;
}
