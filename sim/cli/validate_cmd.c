/* simcoll validate: every collective timing of benchmark files predicted
 * on a platform, and the errors.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "validate_cmd.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "args.h"
#include "cli.h"
#include "gnuplot.h"
#include "report.h"
#include "run_setup.h"
#include "common/sc_units.h"
#include "sim/simgrid/engine.h"
#include "sim/engine/run.h"
#include "sim/io/measurements.h"

static const char usage[] =
    "usage: simcoll validate --platform FILE (--mpi PROFILE | --algo NAME) [--np N]\n"
    "                        [--mapping block|cyclic] [--measure call|auto|osu|imb|mpiperf]\n"
    "                        [--format table|csv|json] [--plot OUT.png] FILE[@ALGO]...\n"
    "Predicts every collective timing of the files (OSU's osu_bcast, osu_allreduce, ...;\n"
    "IMB's Bcast, Allreduce, ...; simcoll-probe --collectives) on the platform and\n"
    "prints, point by point, the measured time, the simulated one and the relative\n"
    "error. Simulated by default as one call, all ranks starting at once, the mean of\n"
    "the ranks' times; --measure osu runs OSU's loop of a call and a barrier, imb IMB's\n"
    "calls back to back, mpiperf one call timed to its slowest rank, auto each file's\n"
    "own benchmark (IMB's for IMB files, else OSU's), each giving what it prints. Then\n"
    "per operation the\n"
    "median and largest error, and where one operation, process count and size were\n"
    "measured with several algorithms (FILE@ALGO: that file's runs forced ALGO, as\n"
    "coll_tuned_*_algorithm or MPIR_CVAR_*_ALGORITHM do), whether simcoll ranks them\n"
    "as the machine did (the fastest, and Kendall's tau-b). Files without @ALGO run as\n"
    "--mpi's library chooses, or --algo. --np gives the process count of files that do\n"
    "not print it (OSU); ranks fill a node's cores first (--mapping block) or go round\n"
    "the nodes (cyclic). Sizes only: no data is moved or checked. --plot draws the\n"
    "simulated against the measured time, every point (log-log; .png or .svg).\n";

/* One point: what was measured and what simcoll predicts. */
typedef struct {
    const char *file; /* as given, without @ALGO */
    const char *op, *algo;
    int np;
    size_t bytes;
    double measured, simulated, error;
} point_t;

typedef struct {
    const char *platform, *algo, *plot;
    const sc_profile_t *mpi;
    int np;
    sc_placement_t placement;
    sc_format_t format;
    int measure_auto;   /* by the file's benchmark */
    sc_bench_t measure; /* else this one (call by default) */
} validate_opts_t;

static sc_err_t parse(int argc, char **argv, validate_opts_t *o, int *first_file, int *done)
{
    enum { OPT_PLATFORM = 256, OPT_MPI, OPT_ALGO, OPT_NP, OPT_MAPPING, OPT_FORMAT, OPT_PLOT,
           OPT_MEASURE, OPT_HELP };
    static const struct option longopts[] = {
        {"platform", required_argument, NULL, OPT_PLATFORM},
        {"mpi", required_argument, NULL, OPT_MPI},
        {"algo", required_argument, NULL, OPT_ALGO},
        {"np", required_argument, NULL, OPT_NP},
        {"mapping", required_argument, NULL, OPT_MAPPING},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"plot", required_argument, NULL, OPT_PLOT},
        {"measure", required_argument, NULL, OPT_MEASURE},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0}};
    static const char *const mappings[] = {"block", "cyclic", NULL};
    static const char *const formats[] = {"table", "csv", "json", NULL};
    *o = (validate_opts_t){.placement = SC_PLACE_BLOCK, .format = SC_FORMAT_TABLE,
                           .measure = SC_BENCH_CALL};
    *done = 0;
    opterr = 0;
    optind = 2;
    sc_cli_accept_mpirun_np(argc, argv);
    sc_err_t err = SC_OK;
    int c, index;
    for (int before = optind; !err && (c = getopt_long(argc, argv, "", longopts, NULL)) != -1;
         before = optind) {
        switch (c) {
        case OPT_PLATFORM: o->platform = optarg; break;
        case OPT_MPI: err = sc_cli_profile(optarg, &o->mpi); break;
        case OPT_ALGO: o->algo = optarg; break;
        case OPT_NP: err = sc_parse_int(optarg, "--np", 1, 1 << 24, &o->np); break;
        case OPT_MAPPING:
            if (!(err = sc_cli_choice(optarg, "--mapping", mappings, &index)))
                o->placement = index ? SC_PLACE_CYCLIC : SC_PLACE_BLOCK;
            break;
        case OPT_FORMAT:
            if (!(err = sc_cli_choice(optarg, "--format", formats, &index)))
                o->format = (sc_format_t)index;
            break;
        case OPT_MEASURE:
            o->measure_auto = !strcmp(optarg, "auto");
            if (!o->measure_auto && (err = sc_bench_parse(optarg, "--measure", &o->measure))) {
                char why[512];
                snprintf(why, sizeof why, "%s", sc_error_message());
                err = sc_error(err, "%s, or auto (each file's own)", why);
            }
            break;
        case OPT_PLOT: {
            const char *terminal; /* checked before any simulation */
            if (!(err = sc_gnuplot_terminal("--plot", optarg, &terminal)))
                o->plot = optarg;
            break;
        }
        case OPT_HELP:
            fputs(usage, stdout);
            *done = 1;
            return SC_OK;
        default:
            err = sc_error(SC_ERR_INPUT, "validate: unknown option '%s (validate --help)",
                           sc_cli_refused_option(argv, before, longopts));
        }
    }
    if (err)
        return err;
    *first_file = optind;
    if (!o->platform)
        return sc_error(SC_ERR_INPUT, "validate needs --platform FILE: the platform to predict on");
    if (!o->mpi == !o->algo)
        return sc_error(SC_ERR_INPUT,
                        "validate needs --mpi PROFILE (the library's choices) or --algo NAME "
                        "(one algorithm), one of the two, for files without @ALGO");
    if (optind >= argc)
        return sc_error(SC_ERR_INPUT, "validate needs measurement files (OSU or IMB output "
                                      "of collectives), e.g. osu_bcast.txt");
    return SC_OK;
}

/* The algorithm `name` (a file's @ALGO or --algo), which must run `op`. */
static sc_err_t algo_of(const char *name, const char *what, const sc_kind_t *kind,
                        const sc_algo_t **out)
{
    *out = sc_algo_find(name);
    if (!*out)
        return sc_error(SC_ERR_INPUT, "%s: unknown algorithm '%s' (simcoll list names them)",
                        what, name);
    if ((*out)->collective != kind->collective)
        return sc_error(SC_ERR_INPUT, "%s: %s is an algorithm of %s, and the file times %s",
                        what, name, sc_kind((*out)->collective)->name, kind->name);
    return SC_OK;
}

/* The benchmark that measured the series: IMB's, or OSU's (which
 * simcoll-probe follows). */
static sc_bench_t benchmark_of(const sc_series_t *s)
{
    const char *src = s->source ? s->source : "";
    return strstr(src, "IMB") || strstr(src, "Intel") ? SC_BENCH_IMB : SC_BENCH_OSU;
}

/* What `bench` prints for one call of algo: the simulated time *t. */
static sc_err_t simulate(const validate_opts_t *o, const sc_platform_t *plat, sc_bench_t bench,
                         const sc_algo_t *algo, size_t bytes, int np, double *t)
{
    sc_run_result_t res;
    /* int: 4-byte elements, as the benchmarks' MPI_FLOAT. */
    sc_run_spec_t spec = {.plat = plat, .algo = algo, .bytes = bytes, .op = SC_OP_SUM,
                          .type = SC_TYPE_INT, .np = np, .placement = o->placement};
    if (bench == SC_BENCH_CALL) {
        sc_err_t err = sc_run_check(&spec);
        if (!err && !(err = sc_run(&spec, &res))) {
            *t = res.mean_rank_time_s;
            sc_run_result_destroy(&res);
        }
        return err;
    }
    sc_program_t prog;
    sc_bench_figure_t figure;
    sc_err_t err = sc_bench_program(bench, algo, bytes, 0, SC_OP_SUM, SC_TYPE_INT, np, o->mpi,
                                    &prog, &spec.measure, &figure);
    if (err)
        return err;
    spec.program = &prog;
    spec.algo = NULL;
    if (!(err = sc_run_check(&spec)) && !(err = sc_run(&spec, &res))) {
        *t = figure == SC_BENCH_MAX ? res.measured_max_s : res.measured_mean_s;
        sc_run_result_destroy(&res);
    }
    sc_program_destroy(&prog);
    return err;
}

/* Predicts the points of one collective series into pts[*n...]. */
static sc_err_t predict_series(const validate_opts_t *o, const sc_platform_t *plat,
                               const char *file, const char *forced, const sc_series_t *s,
                               point_t *pts, int *n)
{
    const sc_kind_t *kind = sc_kind_find(s->collective);
    if (!kind) {
        fprintf(stderr, "simcoll: note: '%s': %s is not a collective simcoll simulates (%s): "
                        "its %d points left out\n",
                file, s->collective, sc_kind_names(), s->npoints);
        return SC_OK;
    }
    int np = s->np ? s->np : o->np;
    if (!np)
        return sc_error(SC_ERR_INPUT, "'%s' does not say how many processes ran its %s: give "
                                      "--np N",
                        file, kind->name);
    if (np > plat->total_cores)
        return sc_error(SC_ERR_INPUT, "'%s': %d processes ran its %s, more than the %d cores of "
                                      "the platform",
                        file, np, kind->name, plat->total_cores);
    int *node_of = malloc((size_t)np * sizeof *node_of);
    if (!node_of)
        return sc_error(SC_ERR_RUN, "out of memory");
    sc_bench_t bench = o->measure_auto ? benchmark_of(s) : o->measure;
    sc_err_t err = sc_place(plat, np, o->placement, node_of);
    const sc_algo_t *fixed = NULL;
    if (!err && (forced || o->algo))
        err = algo_of(forced ? forced : o->algo, forced ? file : "--algo", kind, &fixed);
    int empty = 0;
    for (int i = 0; i < s->npoints && !err; i++) {
        size_t bytes = kind->has_data ? s->points[i].bytes : 0;
        /* IMB's 0-byte calls move nothing in simcoll: no time to compare. */
        if (kind->has_data && bytes == 0) {
            empty++;
            continue;
        }
        if (kind->is_reduction && bytes % 4) {
            fprintf(stderr, "simcoll: note: '%s' line %d: %zu bytes is no whole number of "
                            "4-byte elements: left out\n",
                    file, s->points[i].line, bytes);
            continue;
        }
        double m = s->points[i].value;
        if (!(m > 0)) {
            /* The error is relative to it. */
            err = sc_error(SC_ERR_INPUT,
                           "validate '%s' line %d: %s of %zu byte%s measured in %g s, which no "
                           "prediction can be compared with; a time must be above 0 (remove "
                           "the row, or measure again)",
                           file, s->points[i].line, kind->name, bytes, bytes == 1 ? "" : "s", m);
            break;
        }
        sc_call_t call = {kind->collective, bytes, np, node_of, SC_TYPE_INT};
        const sc_algo_t *algo = fixed ? fixed : sc_profile_choose(o->mpi, &call);
        if (!algo) {
            err = sc_profile_no_rule(o->mpi, kind->collective);
            break;
        }
        double t;
        if ((err = simulate(o, plat, bench, algo, bytes, np, &t)))
            break;
        pts[(*n)++] = (point_t){file, kind->name, algo->name, np, bytes, m, t, (t - m) / m};
    }
    if (empty)
        fprintf(stderr, "simcoll: note: '%s': %d %s call%s of 0 bytes left out (simcoll moves "
                        "nothing for them)\n",
                file, empty, kind->name, empty > 1 ? "s" : "");
    free(node_of);
    return err;
}

static int by_abs(const void *a, const void *b)
{
    double x = fabs(*(const double *)a), y = fabs(*(const double *)b);
    return x < y ? -1 : x > y;
}

/* Median and largest |error| of the points of `op` (NULL: all). */
static int summarize(const point_t *pts, int n, const char *op, double *med, double *worst)
{
    double *e = malloc((size_t)(n ? n : 1) * sizeof *e);
    int k = 0;
    for (int i = 0; e && i < n; i++)
        if (!op || !strcmp(pts[i].op, op))
            e[k++] = pts[i].error;
    if (k) {
        qsort(e, (size_t)k, sizeof *e, by_abs);
        *med = k % 2 ? fabs(e[k / 2]) : (fabs(e[k / 2 - 1]) + fabs(e[k / 2])) / 2;
        *worst = e[k - 1];
    }
    free(e);
    return k;
}

/* Over every (op, np, bytes) measured with two or more algorithms (files
 * of one algorithm run again rank nothing: simcoll gives each the same
 * time): how many, at how many simcoll's fastest is the measured fastest,
 * and the mean of Kendall's tau-b between the two orders (pairs tied on
 * one side count neither way; a point every prediction or every
 * measurement ties has none). */
static void rankings(const point_t *pts, int n, int *points, int *top, double *tau, int *taus)
{
    *points = *top = *taus = 0;
    *tau = 0;
    char *seen = calloc((size_t)(n ? n : 1), 1);
    for (int i = 0; seen && i < n; i++) {
        if (seen[i])
            continue;
        int same[64], c = 0;
        for (int j = i; j < n && c < 64; j++)
            if (!seen[j] && pts[j].np == pts[i].np &&
                pts[j].bytes == pts[i].bytes && !strcmp(pts[j].op, pts[i].op)) {
                seen[j] = 1;
                same[c++] = j;
            }
        int algorithms = 0;
        for (int k = 1; k < c; k++)
            algorithms |= strcmp(pts[same[k]].algo, pts[same[0]].algo) != 0;
        if (!algorithms)
            continue;
        (*points)++;
        int fm = same[0], fs = same[0];
        for (int k = 1; k < c; k++) {
            if (pts[same[k]].measured < pts[fm].measured)
                fm = same[k];
            if (pts[same[k]].simulated < pts[fs].simulated)
                fs = same[k];
        }
        *top += pts[fm].simulated <= pts[fs].simulated * (1 + 1e-9);
        double concordant = 0, discordant = 0, tx = 0, ty = 0, n0 = c * (c - 1) / 2.0;
        for (int a = 0; a < c; a++)
            for (int b = a + 1; b < c; b++) {
                double dx = pts[same[a]].measured - pts[same[b]].measured;
                double dy = pts[same[a]].simulated - pts[same[b]].simulated;
                tx += dx == 0;
                ty += dy == 0;
                concordant += dx * dy > 0;
                discordant += dx * dy < 0;
            }
        if (ty < n0 && tx < n0) {
            *tau += (concordant - discordant) / sqrt((n0 - tx) * (n0 - ty));
            (*taus)++;
        }
    }
    free(seen);
}

static void print_points(const validate_opts_t *o, const point_t *pts, int n)
{
    if (o->format == SC_FORMAT_CSV) {
        puts("file,operation,np,size_bytes,algo,measured_s,simulated_s,error");
        for (int i = 0; i < n; i++) {
            /* a file's name may hold a comma */
            sc_csv_string(stdout, pts[i].file);
            printf(",%s,%d,%zu,", pts[i].op, pts[i].np, pts[i].bytes);
            sc_csv_string(stdout, pts[i].algo);
            printf(",%.9g,%.9g,%.6f\n", pts[i].measured, pts[i].simulated, pts[i].error);
        }
        return;
    }
    if (o->format == SC_FORMAT_JSON) {
        puts("{\n  \"points\": [");
        for (int i = 0; i < n; i++) {
            fputs("    {\"file\": ", stdout);
            sc_json_string(stdout, pts[i].file);
            printf(", \"operation\": \"%s\", \"np\": %d, \"size_bytes\": %zu, \"algo\": ",
                   pts[i].op, pts[i].np, pts[i].bytes);
            sc_json_string(stdout, pts[i].algo);
            printf(", \"measured_s\": %.9g, \"simulated_s\": %.9g, \"error\": %.9g}%s\n",
                   pts[i].measured, pts[i].simulated, pts[i].error, i + 1 < n ? "," : "");
        }
        puts("  ],");
        return;
    }
    printf("%-10s %6s %10s %-24s %12s %12s %9s\n", "operation", "np", "size", "algo",
           "measured", "simulated", "error");
    for (int i = 0; i < n; i++) {
        char size[32], m[32], t[32];
        sc_format_bytes((double)pts[i].bytes, size, sizeof size);
        sc_format_duration(pts[i].measured, m, sizeof m);
        sc_format_duration(pts[i].simulated, t, sizeof t);
        printf("%-10s %6d %10s %-24s %12s %12s %+8.1f%%\n", pts[i].op, pts[i].np, size,
               pts[i].algo, m, t, 100 * pts[i].error);
    }
}

/* The operations of the points, in their first points' order: how many. */
static int distinct_ops(const point_t *pts, int n, const char **ops)
{
    int nops = 0;
    for (int i = 0; i < n; i++) {
        int k = 0;
        while (k < nops && strcmp(ops[k], pts[i].op))
            k++;
        if (k == nops)
            ops[nops++] = pts[i].op;
    }
    return nops;
}

static void print_summary(const validate_opts_t *o, const point_t *pts, int n)
{
    const char *ops[SC_NCOLLECTIVES + 1];
    int nops = distinct_ops(pts, n, ops);
    ops[nops] = NULL; /* all */
    int rp, top, taus;
    double tau;
    rankings(pts, n, &rp, &top, &tau, &taus);
    if (o->format == SC_FORMAT_JSON) {
        puts("  \"summary\": [");
        for (int k = 0; k <= nops; k++) {
            double med = NAN, worst = NAN;
            int c = summarize(pts, n, ops[k], &med, &worst);
            printf("    {\"operation\": \"%s\", \"points\": %d, \"median_abs_error\": %.9g, "
                   "\"largest_error\": %.9g}%s\n",
                   ops[k] ? ops[k] : "all", c, med, worst, k < nops ? "," : "");
        }
        printf("  ],\n  \"rankings\": {\"points\": %d, \"top1_agree\": %d, \"mean_tau_b\": ",
               rp, top);
        if (taus)
            printf("%.4f}\n}\n", tau / taus);
        else
            puts("null}\n}");
        return;
    }
    FILE *f = o->format == SC_FORMAT_CSV ? stderr : stdout;
    fprintf(f, "\n%-10s %7s %15s %10s\n", "operation", "points", "median |error|", "largest");
    for (int k = 0; k <= nops; k++) {
        double med = NAN, worst = NAN;
        int c = summarize(pts, n, ops[k], &med, &worst);
        fprintf(f, "%-10s %7d %14.1f%% %+9.1f%%\n", ops[k] ? ops[k] : "all", c, 100 * med,
                100 * worst);
    }
    if (rp && taus)
        fprintf(f, "rankings: at %d point%s measured with several algorithms, simcoll's "
                   "fastest is the measured fastest at %d; Kendall's tau-b %.2f on average\n",
                rp, rp == 1 ? "" : "s", top, tau / taus);
    else if (rp)
        fprintf(f, "rankings: at %d point%s measured with several algorithms, simcoll's "
                   "fastest is the measured fastest at %d; no Kendall's tau-b: at each, the "
                   "algorithms tie in the measured or in the simulated times\n",
                rp, rp == 1 ? "" : "s", top);
}

/* Simulated against measured, a series per operation, the diagonal exact;
 * the file appears whole or not at all (sc_gnuplot). */
static sc_err_t plot_points(const char *path, const char *platform, const point_t *pts, int n)
{
    const char *terminal, *ops[SC_NCOLLECTIVES];
    int nops = distinct_ops(pts, n, ops);
    char *script = NULL, quoted[600];
    size_t len;
    sc_err_t err = sc_gnuplot_terminal("--plot", path, &terminal);
    FILE *s = err ? NULL : open_memstream(&script, &len);
    if (err || !s)
        return err ? err : sc_error(SC_ERR_RUN, "out of memory");
    sc_gnuplot_quote(platform, quoted, sizeof quoted);
    fprintf(s, "set terminal %s\nset output\nset logscale xy\nset grid\nset key top left\n"
               "set xlabel 'measured (us)'\nset ylabel 'simulated (us)'\n"
               "set title 'simcoll validate on %s'\n"
               "plot x title 'exact' lc rgb 'black', 2*x title 'x2' dt 2 lc rgb 'gray', "
               "x/2 title '/2' dt 2 lc rgb 'gray'",
            terminal, quoted);
    for (int k = 0; k < nops; k++)
        fprintf(s, ", '-' title '%s' pt 7", ops[k]);
    fputc('\n', s);
    for (int k = 0; k < nops; k++) {
        for (int i = 0; i < n; i++)
            if (!strcmp(pts[i].op, ops[k]) && pts[i].measured > 0 && pts[i].simulated > 0)
                fprintf(s, "%.9g %.9g\n", 1e6 * pts[i].measured, 1e6 * pts[i].simulated);
        fputs("e\n", s);
    }
    err = fclose(s) == 0 ? sc_gnuplot("--plot", path, script)
                         : sc_error(SC_ERR_RUN, "out of memory");
    free(script);
    return err;
}

/* 1 if two files' points are the same measurements: the same operations,
 * process counts, sizes and times, in the same order (a file copied). */
static int same_timings(const point_t *a, int na, const point_t *b, int nb)
{
    if (na != nb)
        return 0;
    for (int i = 0; i < na; i++)
        if (a[i].np != b[i].np || a[i].bytes != b[i].bytes || a[i].measured != b[i].measured ||
            strcmp(a[i].op, b[i].op))
            return 0;
    return 1;
}

/* Refuses names[i] if an earlier argument names the same file (another
 * path to it, or another @ALGO: one run cannot have run two algorithms):
 * its points would count twice. A file that cannot be read is left to
 * the reader's message. */
static sc_err_t given_once(char *const *names, int i)
{
    struct stat here, there;
    if (stat(names[i], &here) != 0)
        return SC_OK;
    for (int j = 0; j < i; j++)
        if (stat(names[j], &there) == 0 && here.st_dev == there.st_dev &&
            here.st_ino == there.st_ino)
            return sc_error(SC_ERR_INPUT,
                            "validate: '%s' and '%s' are one file, given twice; its timings "
                            "would count twice (give each file once)",
                            names[j], names[i]);
    return SC_OK;
}

int sc_cli_validate(int argc, char **argv)
{
    validate_opts_t o;
    int first, done;
    sc_err_t err = parse(argc, argv, &o, &first, &done);
    if (err || done)
        return err ? sc_cli_fail(err) : 0;
    sc_platform_t plat = {0};
    point_t *pts = NULL;
    int npts = 0, cap = 0;
    char **names = calloc((size_t)(argc - first), sizeof *names);
    int *starts = calloc((size_t)(argc - first + 1), sizeof *starts); /* each file's points */
    if (!names || !starts)
        err = sc_error(SC_ERR_RUN, "out of memory");
    else
        err = sc_cli_load_platform(o.platform, &plat);
    for (int f = first; !err && f < argc; f++) {
        /* FILE@ALGO: the last @, so that a path may hold one. */
        names[f - first] = strdup(argv[f]);
        if (!names[f - first]) {
            err = sc_error(SC_ERR_RUN, "out of memory");
            break;
        }
        char *at = strrchr(names[f - first], '@'), *forced = NULL;
        if (at) {
            *at = '\0';
            forced = at + 1;
        }
        if ((err = given_once(names, f - first)))
            break;
        sc_series_t *series;
        int ns;
        if ((err = sc_measurements_read("validate", names[f - first], SC_MEASURE_FORMAT_AUTO,
                                        &series, &ns)))
            break;
        int points = 0;
        for (int i = 0; i < ns; i++)
            points += series[i].kind == SC_MEASURE_COLLECTIVE ? series[i].npoints : 0;
        if (!points)
            err = sc_error(SC_ERR_INPUT, "validate '%s': no collective timing in it (OSU's "
                                         "osu_bcast..., IMB's Bcast..., simcoll-probe "
                                         "--collectives); point-to-point files are for "
                                         "simcoll calibrate",
                           names[f - first]);
        if (!err && npts + points > cap) {
            cap = 2 * (npts + points);
            point_t *more = realloc(pts, (size_t)cap * sizeof *more);
            if (more)
                pts = more;
            else
                err = sc_error(SC_ERR_RUN, "out of memory");
        }
        int before = starts[f - first] = npts;
        for (int i = 0; i < ns && !err; i++)
            if (series[i].kind == SC_MEASURE_COLLECTIVE)
                err = predict_series(&o, &plat, names[f - first], forced, &series[i], pts,
                                     &npts);
        if (!err && npts == before)
            err = sc_error(SC_ERR_INPUT, "validate '%s': none of its %d collective timings is "
                                         "one simcoll predicts (the notes above say why); "
                                         "simcoll predicts %s, and no call of 0 bytes but "
                                         "a barrier",
                           names[f - first], points, sc_kind_names());
        starts[f - first + 1] = npts;
        for (int g = 0; !err && g < f - first; g++)
            if (same_timings(pts + starts[g], starts[g + 1] - starts[g], pts + before,
                             npts - before))
                err = sc_error(SC_ERR_INPUT,
                               "validate: '%s' holds the same timings as '%s' (every operation, "
                               "process count, size and time): one measurement given twice "
                               "would count twice; give it once",
                               names[f - first], names[g]);
        sc_series_destroy(series, ns);
    }
    if (!err && o.plot && npts)
        err = plot_points(o.plot, plat.name, pts, npts);
    if (!err) {
        print_points(&o, pts, npts);
        print_summary(&o, pts, npts);
    }
    if (err)
        sc_cli_fail(err);
    for (int f = 0; names && f < argc - first; f++)
        free(names[f]);
    free(names);
    free(starts);
    free(pts);
    sc_platform_destroy(&plat);
    return (int)err;
}
