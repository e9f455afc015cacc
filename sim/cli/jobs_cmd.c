/* simcoll run --job FILE@NODES ... : several applications (traces or
 * programs) at once on their own nodes of one platform, sharing its links
 * and switches, each also alone on the same nodes: the slowdown each
 * suffers from the others.
 *
 * A program runs as the events --export-ti writes of it (its calls as
 * collectives the run's --mpi or --algos choose), read back as a trace,
 * so that every job is a trace and the jobs one trace side by side
 * (sc_trace_side_by_side).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "jobs_cmd.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algorithms/mapping/graph.h"
#include "common/sc_grow.h"
#include "common/sc_units.h"
#include "program_cmd.h"
#include "report.h"
#include "sim/analysis/sensitivity.h"
#include "sim/engine/trace_run.h"
#include "sim/program/export_ti.h"
#include "sim/simgrid/engine.h"
#include "sim/simgrid/routes.h"
#include "sim/trace/ti_write.h"
#include "trace_cmd.h"

typedef struct {
    char given[PATH_MAX + 64]; /* FILE@NODES[:NP] as written, for messages */
    char file[PATH_MAX];
    int *nodes; /* the platform's node indices, in the order given */
    int nnodes;
    int np; /* 0 until known: the trace's ranks, or its nodes' cores */
    sc_trace_t *trace;
    sc_trace_summary_t summary;
    char tmp[64]; /* a program's events, written for the run; "" for traces */
    double alone, together;
} job_t;

/* ---- Reading the jobs ---- */

static sc_err_t bad_job(const char *given, const char *fmt, const char *detail)
{
    return sc_error(SC_ERR_INPUT, "--job '%s': %s%s", given, fmt, detail ? detail : "");
}

static sc_err_t add_node(job_t *job, long node)
{
    int *more = realloc(job->nodes, (size_t)(job->nnodes + 1) * sizeof *more);
    if (!more)
        return sc_error(SC_ERR_RUN, "out of memory");
    job->nodes = more;
    job->nodes[job->nnodes++] = (int)node;
    return SC_OK;
}

/* NODES: A, A-B, and lists of them (0-3,8-11), numbered as simcoll orders
 * the platform's nodes (simcoll list --nodes is not needed: node i is the
 * i-th by name, numbers compared by value). */
static sc_err_t parse_nodes(job_t *job, const char *text, const sc_platform_t *plat)
{
    const char *p = text;
    while (*p) {
        char *end;
        errno = 0;
        long a = isdigit((unsigned char)*p) ? strtol(p, &end, 10) : -1, b = a;
        if (a < 0 || errno)
            return bad_job(job->given,
                           "the nodes are a range such as 0-7 or a list such as "
                           "0-3,8-11 of the platform's nodes, numbered from 0",
                           NULL);
        p = end;
        if (*p == '-') {
            b = isdigit((unsigned char)p[1]) ? strtol(p + 1, &end, 10) : -1;
            if (b < a)
                return bad_job(job->given, "a node range goes up, such as 0-7", NULL);
            p = end;
        }
        if (b >= plat->nnodes) {
            char detail[128];
            snprintf(detail, sizeof detail, " (nodes 0 to %d)", plat->nnodes - 1);
            return sc_error(SC_ERR_INPUT, "--job '%s': node %ld is outside platform '%s'%s",
                            job->given, b, plat->path, detail);
        }
        for (long n = a; n <= b; n++) {
            for (int i = 0; i < job->nnodes; i++)
                if (job->nodes[i] == n)
                    return sc_error(SC_ERR_INPUT, "--job '%s': node %ld is given twice", job->given,
                                    n);
            sc_err_t err = add_node(job, n);
            if (err)
                return err;
        }
        if (*p == ',')
            p++;
        else if (*p)
            return bad_job(job->given,
                           "the nodes are a range such as 0-7 or a list such as "
                           "0-3,8-11 of the platform's nodes, numbered from 0",
                           NULL);
    }
    return job->nnodes ? SC_OK : bad_job(job->given, "no nodes given", NULL);
}

/* FILE@NODES[:NP]; a relative FILE is taken from `dir` (a job file's). */
static sc_err_t parse_job(const char *text, const char *dir, const sc_platform_t *plat, job_t *job)
{
    snprintf(job->given, sizeof job->given, "%s", text);
    const char *at = strrchr(text, '@');
    if (!at || at == text)
        return bad_job(text,
                       "a job is FILE@NODES[:NP], e.g. halo.prog@0-3 or "
                       "app.otf2@4-7 (FILE a program or a trace)",
                       NULL);
    int len = (int)(at - text);
    if (dir && text[0] != '/')
        snprintf(job->file, sizeof job->file, "%s/%.*s", dir, len, text);
    else
        snprintf(job->file, sizeof job->file, "%.*s", len, text);
    char nodes[256];
    snprintf(nodes, sizeof nodes, "%s", at + 1);
    char *colon = strchr(nodes, ':');
    if (colon) {
        *colon = '\0';
        if (sc_parse_int(colon + 1, "--job's NP", 1, 1 << 30, &job->np))
            return bad_job(text,
                           "NP after ':' is the job's process count, a whole number of "
                           "at least 1",
                           NULL);
    }
    return parse_nodes(job, nodes, plat);
}

/* --jobs FILE: a job a line, FILE@NODES[:NP], '#' to the end of a line a
 * comment; files relative to the job file's folder. */
static sc_err_t read_job_file(const char *path, const sc_platform_t *plat, job_t *jobs, int *njobs)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return sc_error(SC_ERR_INPUT, "--jobs '%s': %s", path, strerror(errno));
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        strcpy(dir, ".");
    char line[PATH_MAX + 300];
    sc_err_t err = SC_OK;
    for (int n = 1; !err && fgets(line, sizeof line, f); n++) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *s = line, *e = line + strlen(line);
        while (isspace((unsigned char)*s))
            s++;
        while (e > s && isspace((unsigned char)e[-1]))
            *--e = '\0';
        if (!*s)
            continue;
        if (*njobs == SC_CLI_MAX_JOBS)
            err = sc_error_at(path, n, "more than %d jobs", SC_CLI_MAX_JOBS);
        else if ((err = parse_job(s, dir, plat, &jobs[*njobs])))
            err = sc_error_at(path, n, "%s", sc_error_message());
        else
            ++*njobs;
    }
    fclose(f);
    if (!err && *njobs == 0)
        err =
            sc_error(SC_ERR_INPUT, "--jobs '%s' names no job (a line FILE@NODES[:NP] each)", path);
    return err;
}

/* No node runs two jobs. */
static sc_err_t check_overlaps(const job_t *jobs, int njobs)
{
    for (int a = 0; a < njobs; a++)
        for (int b = a + 1; b < njobs; b++)
            for (int i = 0; i < jobs[a].nnodes; i++)
                for (int k = 0; k < jobs[b].nnodes; k++)
                    if (jobs[a].nodes[i] == jobs[b].nodes[k])
                        return sc_error(SC_ERR_INPUT,
                                        "--job '%s' and --job '%s' both run on "
                                        "node %d: jobs side by side have nodes of their own",
                                        jobs[a].given, jobs[b].given, jobs[a].nodes[i]);
    return SC_OK;
}

static int cores_of(const job_t *job, const sc_platform_t *plat)
{
    int cores = 0;
    for (int i = 0; i < job->nnodes; i++)
        cores += plat->nodes[job->nodes[i]].cores;
    return cores;
}

/* A program's events, written as --export-ti writes them into a folder of
 * the job's own, and read back as a trace. */
static sc_err_t program_as_trace(job_t *job, const sc_run_opts_t *o, const sc_platform_t *plat)
{
    sc_program_t prog = {0}, resolved = {0};
    sc_err_t err = sc_cli_program_read(job->file, &prog);
    if (err)
        return err;
    sc_run_spec_t spec = {.plat = plat,
                          .program = &prog,
                          .profile = o->mpi,
                          .np = job->np,
                          .placement = SC_PLACE_BLOCK};
    /* sc_run_resolved checks the spec as sc_run_check does */
    if (!(err = sc_run_resolved(&spec, &resolved))) {
        snprintf(job->tmp, sizeof job->tmp, "%s/simcoll-job-XXXXXX",
                 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        if (strlen(job->tmp) >= sizeof job->tmp - 1 || !mkdtemp(job->tmp)) {
            job->tmp[0] = '\0';
            err = sc_error(SC_ERR_RUN, "cannot make a temporary folder for job '%s': %s",
                           job->given, strerror(errno));
        }
    }
    char events[sizeof job->tmp + 16];
    snprintf(events, sizeof events, "%s/events", job->tmp);
    if (!err)
        err = sc_program_export_ti(&resolved, job->np, job->given, events);
    if (!err) {
        snprintf(events, sizeof events, "%s/events/index.txt", job->tmp);
        err = sc_cli_trace_open(events, &job->trace, &job->summary);
    }
    sc_program_destroy(&resolved);
    sc_program_destroy(&prog);
    return err;
}

/* The job's file read: its ranks known and checked against its nodes. */
static sc_err_t open_job(job_t *job, const sc_run_opts_t *o, const sc_platform_t *plat)
{
    int cores = cores_of(job, plat);
    if (sc_cli_is_trace(job->file)) {
        sc_err_t err = sc_cli_trace_open(job->file, &job->trace, &job->summary);
        if (err)
            return err;
        int ranks = sc_trace_ranks(job->trace);
        if (job->np && job->np != ranks)
            return sc_error(SC_ERR_INPUT,
                            "--job '%s': the trace has %d ranks, not %d (leave "
                            ":NP out for a trace)",
                            job->given, ranks, job->np);
        job->np = ranks;
    } else if (!job->np) {
        job->np = cores;
    }
    if (job->np > cores)
        return sc_error(SC_ERR_INPUT,
                        "--job '%s': %d ranks need more cores than its %d nodes "
                        "have (%d); give it more nodes",
                        job->given, job->np, job->nnodes, cores);
    return job->trace ? SC_OK : program_as_trace(job, o, plat);
}

/* Job `job`'s ranks on its nodes, each node's cores in turn, from
 * node_of[0]. */
static void place_job(const job_t *job, const sc_platform_t *plat, int *node_of)
{
    int r = 0;
    for (int i = 0; i < job->nnodes && r < job->np; i++)
        for (int c = 0; c < plat->nodes[job->nodes[i]].cores && r < job->np; c++)
            node_of[r++] = job->nodes[i];
}

/* ---- Running ---- */

static sc_trace_run_spec_t job_spec(const sc_run_opts_t *o, const sc_platform_t *plat,
                                    sc_trace_t *trace, const int *node_of)
{
    sc_trace_run_spec_t spec = {.plat = plat,
                                .trace = trace,
                                .node_of = node_of,
                                .profile = o->mpi,
                                .compute_scale = o->compute_scale,
                                .replay = o->replay};
    memcpy(spec.forced, o->forced, sizeof spec.forced);
    return spec;
}

/* The span of ranks first..first+n-1: the latest finish less the
 * earliest start. */
static double span(const sc_trace_run_result_t *res, int first, int n)
{
    double start = INFINITY, finish = -INFINITY;
    for (int r = first; r < first + n; r++) {
        start = fmin(start, res->start[r]);
        finish = fmax(finish, res->finish[r]);
    }
    return finish - start;
}

static sc_err_t run_alone(const sc_run_opts_t *o, const sc_platform_t *plat, job_t *job)
{
    int *node_of = malloc((size_t)job->np * sizeof *node_of);
    if (!node_of)
        return sc_error(SC_ERR_RUN, "out of memory");
    place_job(job, plat, node_of);
    sc_trace_run_spec_t spec = job_spec(o, plat, job->trace, node_of);
    sc_trace_run_result_t res;
    sc_err_t err = sc_trace_run_check(&spec);
    if (!err && !(err = sc_trace_run(&spec, &res))) {
        job->alone = res.sim_time_s;
        sc_trace_run_result_destroy(&res);
    }
    free(node_of);
    return err;
}

/* What a run of the jobs at once gives the check of assumed parameters. */
typedef struct {
    double seconds;
    long messages[SC_NLEVELS];
} together_run_t;

/* The jobs at once on plat: their simulated time and messages by level in
 * *ran; with `record`, each job's span in jobs[j].together. */
static sc_err_t run_together(const sc_run_opts_t *o, const sc_platform_t *plat, job_t *jobs,
                             int njobs, int record, together_run_t *ran)
{
    sc_trace_t *traces[SC_CLI_MAX_JOBS], *all = NULL;
    int total = 0;
    for (int j = 0; j < njobs; j++) {
        traces[j] = jobs[j].trace;
        total += jobs[j].np;
    }
    int *node_of = malloc((size_t)total * sizeof *node_of);
    sc_err_t err = node_of ? sc_trace_side_by_side(traces, njobs, &all)
                           : sc_error(SC_ERR_RUN, "out of memory");
    if (!err)
        err = sc_trace_scan(all, NULL, NULL);
    for (int j = 0; !err && j < njobs; j++)
        place_job(&jobs[j], plat, node_of + sc_trace_job_first_rank(all, j));
    sc_trace_run_spec_t spec = job_spec(o, plat, all, node_of);
    sc_trace_run_result_t res;
    if (!err && !(err = sc_trace_run_check(&spec)) && !(err = sc_trace_run(&spec, &res))) {
        for (int j = 0; record && j < njobs; j++)
            jobs[j].together = span(&res, sc_trace_job_first_rank(all, j), jobs[j].np);
        *ran = (together_run_t){res.sim_time_s, {0}};
        memcpy(ran->messages, res.messages, sizeof ran->messages);
        sc_trace_run_result_destroy(&res);
    }
    sc_trace_close(all);
    free(node_of);
    return err;
}

/* The jobs at once again on another platform (the check of the assumed
 * parameters, sim/analysis/sensitivity.h). */
typedef struct {
    const sc_run_opts_t *o;
    job_t *jobs;
    int njobs;
} together_t;

static sc_err_t rerun_together(void *arg, const sc_platform_t *plat, double *seconds)
{
    const together_t *t = arg;
    together_run_t ran = {0};
    sc_err_t err = run_together(t->o, plat, t->jobs, t->njobs, 0, &ran);
    *seconds = ran.seconds;
    return err;
}

/* On stderr: the assumed parameters the jobs' time together rests on. */
static sc_err_t note_assumed(const sc_run_opts_t *o, const sc_platform_t *plat, job_t *jobs,
                             int njobs, const together_run_t *ran)
{
    together_t t = {o, jobs, njobs};
    sc_assumed_run_t run = {.plat = plat, .path = o->platform,
                            .messages = {ran->messages[SC_LEVEL_INTRA],
                                         ran->messages[SC_LEVEL_INTER]},
                            .seconds = ran->seconds, .rerun = rerun_together, .arg = &t};
    sc_assumed_budget_t budget = {0};
    sc_err_t err = sc_assumed_check(stderr, &run, "the jobs' time together", &budget);
    if (!err)
        sc_assumed_print_unchecked(stderr, &budget);
    return err;
}

/* ---- The links they share ---- */

/* Bytes between two nodes of one job. */
typedef struct {
    int a, b, job; /* a < b */
    double bytes;
} node_pair_t;

static int by_pair(const void *x, const void *y)
{
    const node_pair_t *p = x, *q = y;
    return p->a != q->a ? (p->a > q->a) - (p->a < q->a) : (p->b > q->b) - (p->b < q->b);
}

/* Job j's traffic between its nodes, from its communication graph (its
 * messages, and its collectives' as their algorithms send them), added to
 * *pairs. */
static sc_err_t job_pairs(const sc_run_opts_t *o, const sc_platform_t *plat, const job_t *job,
                          int j, node_pair_t **pairs, long *n, size_t *cap)
{
    sc_graph_t graph = {0};
    int *node_of = malloc((size_t)job->np * sizeof *node_of);
    sc_err_t err = node_of ? sc_cli_trace_graph(plat, job->trace, o->mpi, o->forced, &graph)
                           : sc_error(SC_ERR_RUN, "out of memory");
    if (!err)
        place_job(job, plat, node_of);
    for (long e = 0; !err && e < sc_graph_nedges(&graph); e++) {
        int a, b;
        double w = sc_graph_edge(&graph, e, &a, &b);
        a = node_of[a];
        b = node_of[b];
        if (a == b)
            continue; /* inside a node: its memory bus, its own */
        node_pair_t *more = sc_grow(*pairs, (size_t)*n, cap, 256, sizeof *more);
        if (!more) {
            err = sc_error(SC_ERR_RUN, "out of memory");
            break;
        }
        *pairs = more;
        (*pairs)[(*n)++] = (node_pair_t){a < b ? a : b, a < b ? b : a, j, w};
    }
    sc_graph_destroy(&graph);
    free(node_of);
    return err;
}

/* The links that two jobs or more cross, each with the bytes each job's
 * traffic puts on it (both directions of a pair's routes), printed after
 * the table. */
static sc_err_t print_shared_links(const sc_run_opts_t *o, const sc_platform_t *plat,
                                   const job_t *jobs, int njobs, FILE *out)
{
    node_pair_t *pairs = NULL;
    long n = 0;
    size_t cap = 0;
    sc_err_t err = SC_OK;
    for (int j = 0; j < njobs && !err; j++)
        err = job_pairs(o, plat, &jobs[j], j, &pairs, &n, &cap);
    qsort(pairs, (size_t)n, sizeof *pairs, by_pair);
    /* each distinct pair both ways: route 2u from a to b, 2u + 1 back */
    int *ends = malloc((size_t)(4 * (n ? n : 1)) * sizeof *ends);
    long *route_of = malloc((size_t)(n ? n : 1) * sizeof *route_of), nroutes = 0;
    if (!err && (!ends || !route_of))
        err = sc_error(SC_ERR_RUN, "out of memory");
    for (long i = 0; !err && i < n; i++) {
        if (i == 0 || by_pair(&pairs[i], &pairs[i - 1])) {
            int *e = &ends[4 * nroutes++];
            e[0] = e[3] = pairs[i].a;
            e[1] = e[2] = pairs[i].b;
        }
        route_of[i] = nroutes - 1;
    }
    sc_routes_t routes = {0};
    if (!err && nroutes)
        err = sc_engine_routes(plat, ends, 2 * nroutes, &routes);
    double *bytes =
        err || !nroutes ? NULL : calloc((size_t)routes.nnames * (size_t)njobs, sizeof *bytes);
    if (!err && nroutes && !bytes)
        err = sc_error(SC_ERR_RUN, "out of memory");
    for (long i = 0; !err && i < n; i++) {
        long r = 2 * route_of[i];
        /* a link on both ways of the route counts once */
        for (long k = routes.first[r]; k < routes.first[r + 2]; k++) {
            int link = routes.links[k], seen = 0;
            for (long m = routes.first[r]; m < k; m++)
                seen |= routes.links[m] == link;
            if (!seen)
                bytes[(size_t)link * (size_t)njobs + (size_t)pairs[i].job] += pairs[i].bytes;
        }
    }
    int shared = 0;
    for (int l = 0; !err && l < routes.nnames; l++) {
        int users = 0;
        for (int j = 0; j < njobs; j++)
            users += bytes[(size_t)l * (size_t)njobs + (size_t)j] > 0;
        if (users < 2)
            continue;
        if (!shared++)
            fprintf(out, "# links two jobs or more cross, with the bytes each job's messages "
                         "and collectives put on them:\n");
        fprintf(out, "#   %s:", routes.names[l]);
        int listed = 0;
        for (int j = 0; j < njobs; j++) {
            char size[32];
            double b = bytes[(size_t)l * (size_t)njobs + (size_t)j];
            if (b > 0) {
                sc_format_bytes(b, size, sizeof size);
                fprintf(out, "%s job %d %s", listed++ ? "," : "", j + 1, size);
            }
        }
        fprintf(out, "\n");
    }
    if (!err && !shared)
        fprintf(out, "# the jobs share no link: what they slow each other by is none of the "
                     "network's\n");
    free(bytes);
    sc_routes_destroy(&routes);
    free(ends);
    free(route_of);
    free(pairs);
    return err;
}

/* ---- The report ---- */

const char *sc_jobs_report_csv_header(void)
{
    return "jobs,platform,files,nodes,ranks,alone_s,together_s,slowdown,slowdown_max,"
           "simcoll_version,platform_file,command";
}

static void nodes_text(const job_t *job, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < job->nnodes && used < len; i++) {
        int a = job->nodes[i], b = a;
        while (i + 1 < job->nnodes && job->nodes[i + 1] == b + 1)
            b = job->nodes[++i];
        used += (size_t)snprintf(out + used, len - used, "%s%d", used ? "," : "", a);
        if (b > a && used < len)
            used += (size_t)snprintf(out + used, len - used, "-%d", b);
    }
}

static void print_report(const sc_run_opts_t *o, const sc_platform_t *plat, const job_t *jobs,
                         int njobs, const char *shared, const sc_provenance_t *prov)
{
    char nodes[256], alone[32], together[32];
    if (o->format == SC_FORMAT_CSV) {
        printf("%s\n", sc_jobs_report_csv_header());
        double worst = 0;
        for (int j = 0; j < njobs; j++)
            worst = fmax(worst, jobs[j].together / jobs[j].alone);
        /* one row a run, as every run's CSV (a sweep's point is a row):
         * the jobs' values in job order, joined by ';' */
        char list[SC_CLI_MAX_JOBS * (PATH_MAX + 1)];
        size_t used = 0;
        printf("%d,", njobs);
        sc_csv_string(stdout, plat->name);
        putchar(',');
        for (int j = 0; j < njobs; j++)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", j ? ";" : "",
                                     jobs[j].file);
        sc_csv_string(stdout, list);
        putchar(',');
        used = 0;
        for (int j = 0; j < njobs; j++) {
            nodes_text(&jobs[j], nodes, sizeof nodes);
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", j ? ";" : "", nodes);
        }
        sc_csv_string(stdout, list);
        putchar(',');
        for (int j = 0; j < njobs; j++)
            printf("%s%d", j ? ";" : "", jobs[j].np);
        putchar(',');
        for (int j = 0; j < njobs; j++)
            printf("%s%.10g", j ? ";" : "", jobs[j].alone);
        putchar(',');
        for (int j = 0; j < njobs; j++)
            printf("%s%.10g", j ? ";" : "", jobs[j].together);
        putchar(',');
        for (int j = 0; j < njobs; j++)
            printf("%s%.6f", j ? ";" : "", jobs[j].together / jobs[j].alone);
        printf(",%.6f", worst);
        sc_provenance_csv_fields(stdout, prov);
        printf("\n");
        return;
    }
    printf("%-4s %-40s %-12s %6s %12s %12s %9s\n", "job", "file", "nodes", "ranks", "alone",
           "together", "slowdown");
    for (int j = 0; j < njobs; j++) {
        nodes_text(&jobs[j], nodes, sizeof nodes);
        sc_format_duration(jobs[j].alone, alone, sizeof alone);
        sc_format_duration(jobs[j].together, together, sizeof together);
        printf("%-4d %-40s %-12s %6d %12s %12s %8.3fx\n", j + 1, jobs[j].file, nodes, jobs[j].np,
               alone, together, jobs[j].together / jobs[j].alone);
    }
    printf("# alone: the job by itself on its nodes; together: while the other jobs run on "
           "theirs, sharing the platform's links and switches; slowdown: together / alone\n");
    fputs(shared, stdout);
    sc_provenance_line(stdout, prov);
}

int sc_cli_run_jobs(const sc_run_opts_t *o, int argc, char **argv)
{
    sc_platform_t plat = {0};
    job_t jobs[SC_CLI_MAX_JOBS];
    memset(jobs, 0, sizeof jobs);
    int njobs = 0;
    /* jobs run as traces, each rank's calls recorded: nothing runs live */
    sc_err_t err = o->replay == SC_REPLAY_LIVE
                       ? sc_error(SC_ERR_INPUT, "--replay=live runs one program or call, and "
                                                "jobs are played as traces: use --replay=maestro "
                                                "or --replay")
                       : sc_cli_load_all(o->loads, o->nloads);
    if (!err)
        err = sc_platform_load("--platform", o->platform, &plat);
    for (int i = 0; !err && i < o->njobs; i++)
        if (!(err = parse_job(o->jobs[i], NULL, &plat, &jobs[njobs])))
            njobs++;
    if (!err && o->jobs_file)
        err = read_job_file(o->jobs_file, &plat, jobs, &njobs);
    if (!err)
        err = check_overlaps(jobs, njobs);
    for (int j = 0; !err && j < njobs; j++)
        err = open_job(&jobs[j], o, &plat);
    for (int j = 0; !err && j < njobs; j++)
        err = run_alone(o, &plat, &jobs[j]);
    together_run_t together = {0};
    if (!err)
        err = run_together(o, &plat, jobs, njobs, 1, &together);
    char *shared = NULL;
    size_t shared_len = 0;
    if (!err && o->format == SC_FORMAT_TABLE) {
        FILE *f = open_memstream(&shared, &shared_len);
        err = f ? print_shared_links(o, &plat, jobs, njobs, f)
                : sc_error(SC_ERR_RUN, "out of memory");
        if (f && fclose(f) != 0 && !err)
            err = sc_error(SC_ERR_RUN, "out of memory");
    }
    if (!err) {
        sc_provenance_t prov = {o->platform, argc, argv};
        print_report(o, &plat, jobs, njobs, shared ? shared : "", &prov);
        err = note_assumed(o, &plat, jobs, njobs, &together);
    }
    free(shared);
    for (int j = 0; j < SC_CLI_MAX_JOBS; j++) {
        free(jobs[j].nodes);
        sc_trace_summary_destroy(&jobs[j].summary);
        sc_trace_close(jobs[j].trace);
        if (jobs[j].tmp[0]) {
            char events[sizeof jobs[j].tmp + 16];
            snprintf(events, sizeof events, "%s/events", jobs[j].tmp);
            sc_ti_folder_remove(events, jobs[j].np);
            rmdir(jobs[j].tmp);
        }
    }
    sc_platform_destroy(&plat);
    return err ? sc_cli_fail(err) : 0;
}
