/* Every message of one run, for people and for trace viewers.
 *
 * The Chrome trace-event file and the Paje file are written here, by hand:
 * both are plain text formats, and no Debian library writes either (Paje
 * writers live inside SimGrid's own tracing, which traces SimGrid's
 * communications, not simcoll's MPI messages: one MPI message is one to
 * three of those). The timeline is drawn by gnuplot.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "trace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sc_units.h"
#include "sim/analysis/explain.h"
#include "gnuplot.h"
#include "report.h"
#include "sim/io/files.h"

static double first_start(const sc_trace_info_t *info, const sc_run_result_t *res)
{
    double t0 = INFINITY;
    for (int r = 0; r < info->np; r++)
        if (res->start[r] < t0)
            t0 = res->start[r];
    return t0;
}

static const char *level_name(int level)
{
    return level == SC_LEVEL_INTER ? "inter-node" : "intra-node";
}

/* A message that was never taken in (cancelled before it arrived) ends
 * where it left. */
static double arrived(const sc_msg_record_t *m)
{
    return isnan(m->arrived) ? m->left : m->arrived;
}

/* ---- Chrome trace events ---- */

/* One process per node, one thread per rank. Each message is a slice
 * "send" on its sender's thread while the sender's core is busy with it
 * (send overhead, the NIC's gap), a slice "recv" on its receiver's thread
 * when the receiver takes it in, a flow arrow between them, and an async
 * span "in flight" from leaving to arriving. Times in microseconds. */
sc_err_t sc_trace_write_json(const char *option, const char *path, const sc_trace_info_t *info,
                             const sc_run_result_t *res)
{
    sc_outputs_t *outs;
    FILE *f;
    sc_err_t err = sc_output_open(option, path, &outs, &f);
    if (err)
        return err;
    double t0 = first_start(info, res);
    fputs("{\"displayTimeUnit\": \"ns\",\n \"otherData\": {\"title\": ", f);
    sc_json_string(f, info->title);
    fputs(", \"command\": ", f);
    sc_json_string(f, info->command);
    fputs("},\n \"traceEvents\": [\n", f);
    int first = 1;
    for (int n = 0; n < info->plat->nnodes; n++) {
        int used = 0;
        for (int r = 0; r < info->np && !used; r++)
            used = info->node_of[r] == n;
        if (!used)
            continue;
        fprintf(
            f, "%s  {\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %d, \"args\": {\"name\": ",
            first ? "" : ",\n", n);
        sc_json_string(f, info->plat->nodes[n].name);
        fprintf(f,
                "}},\n  {\"name\": \"process_sort_index\", \"ph\": \"M\", \"pid\": %d, "
                "\"args\": {\"sort_index\": %d}}",
                n, n);
        first = 0;
    }
    for (int r = 0; r < info->np; r++)
        fprintf(f,
                ",\n  {\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": %d, "
                "\"args\": {\"name\": \"rank %d\"}},\n"
                "  {\"name\": \"thread_sort_index\", \"ph\": \"M\", \"pid\": %d, \"tid\": %d, "
                "\"args\": {\"sort_index\": %d}}",
                info->node_of[r], r, r, info->node_of[r], r, r);
    for (long k = 0; k < res->nmsgs; k++) {
        const sc_msg_record_t *m = &res->msgs[k];
        char size[32];
        sc_format_bytes(m->bytes, size, sizeof size);
        double posted = (m->posted - t0) * 1e6, left = (m->left - t0) * 1e6,
               in = (arrived(m) - t0) * 1e6;
        int from = info->node_of[m->src], to = info->node_of[m->dst];
        const char *cat = level_name(m->level);
        fprintf(f,
                ",\n  {\"name\": \"send\", \"cat\": \"%s\", \"ph\": \"X\", \"pid\": %d, "
                "\"tid\": %d, \"ts\": %.6f, \"dur\": %.6f, \"bind_id\": %ld, \"flow_out\": true, "
                "\"args\": {\"message\": %ld, \"to\": %d, \"bytes\": %.0f, \"tag\": %d, "
                "\"left_us\": %.6f, \"arrived_us\": %.6f}}",
                cat, from, m->src, posted, left - posted, k, k, m->dst, m->bytes, m->tag, left, in);
        fprintf(f,
                ",\n  {\"name\": \"recv\", \"cat\": \"%s\", \"ph\": \"X\", \"pid\": %d, "
                "\"tid\": %d, \"ts\": %.6f, \"dur\": 0, \"bind_id\": %ld, \"flow_in\": true, "
                "\"args\": {\"message\": %ld, \"from\": %d, \"bytes\": %.0f, \"tag\": %d}}",
                cat, to, m->dst, in, k, k, m->src, m->bytes, m->tag);
        fprintf(f,
                ",\n  {\"name\": \"%d -> %d, %s\", \"cat\": \"%s\", \"ph\": \"b\", \"id\": %ld, "
                "\"pid\": %d, \"tid\": %d, \"ts\": %.6f},\n"
                "  {\"name\": \"%d -> %d, %s\", \"cat\": \"%s\", \"ph\": \"e\", \"id\": %ld, "
                "\"pid\": %d, \"tid\": %d, \"ts\": %.6f}",
                m->src, m->dst, size, cat, k, from, m->src, left, m->src, m->dst, size, cat, k,
                from, m->src, in);
    }
    fputs("\n ]\n}\n", f);
    return sc_outputs_commit(outs);
}

/* ---- Paje ---- */

typedef struct {
    double time;
    long order; /* ties keep the order events were made in */
    char text[160];
} paje_event_t;

static int by_time(const void *a, const void *b)
{
    const paje_event_t *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

/* The event definitions of the Paje file format (Schnorr, "Paje trace
 * file format", 2013), the subset used. */
static const char paje_header[] =
    "%EventDef PajeDefineContainerType 0\n%  Alias string\n%  Type string\n%  Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeDefineStateType 1\n%  Alias string\n%  Type string\n%  Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeDefineLinkType 2\n%  Alias string\n%  Type string\n"
    "%  StartContainerType string\n%  EndContainerType string\n%  Name string\n%EndEventDef\n"
    "%EventDef PajeDefineEntityValue 3\n%  Alias string\n%  Type string\n%  Name string\n"
    "%  Color color\n%EndEventDef\n"
    "%EventDef PajeCreateContainer 4\n%  Time date\n%  Alias string\n%  Type string\n"
    "%  Container string\n%  Name string\n%EndEventDef\n"
    "%EventDef PajeDestroyContainer 5\n%  Time date\n%  Type string\n%  Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeSetState 6\n%  Time date\n%  Type string\n%  Container string\n"
    "%  Value string\n%EndEventDef\n"
    "%EventDef PajeStartLink 7\n%  Time date\n%  Type string\n%  Container string\n"
    "%  Value string\n%  StartContainer string\n%  Key string\n%EndEventDef\n"
    "%EventDef PajeEndLink 8\n%  Time date\n%  Type string\n%  Container string\n"
    "%  Value string\n%  EndContainer string\n%  Key string\n%EndEventDef\n";

/* Containers: the cluster, its nodes, their ranks. A rank's state is
 * "send" while its core is busy sending, "run" otherwise; each message is
 * a link from its sender to its receiver, from leaving to arriving, of
 * value inter or intra. Times in seconds. */
sc_err_t sc_trace_write_paje(const char *option, const char *path, const sc_trace_info_t *info,
                             const sc_run_result_t *res)
{
    long cap = 4 * res->nmsgs + 2 * info->np + 1;
    paje_event_t *ev = malloc((size_t)cap * sizeof *ev);
    if (!ev)
        return sc_error(SC_ERR_RUN, "%s %s: out of memory for %ld messages", option, path,
                        res->nmsgs);
    double t0 = first_start(info, res), end = 0;
    long n = 0;
    for (int r = 0; r < info->np; r++) {
        ev[n] = (paje_event_t){res->start[r] - t0, n, ""};
        snprintf(ev[n].text, sizeof ev[n].text, "6 %.9f STATE r%d run", res->start[r] - t0, r);
        n++;
        if (res->finish[r] - t0 > end)
            end = res->finish[r] - t0;
    }
    for (long k = 0; k < res->nmsgs; k++) {
        const sc_msg_record_t *m = &res->msgs[k];
        double posted = m->posted - t0, left = m->left - t0, in = arrived(m) - t0;
        const char *value = m->level == SC_LEVEL_INTER ? "inter" : "intra";
        if (left > posted) {
            ev[n] = (paje_event_t){posted, n, ""};
            snprintf(ev[n].text, sizeof ev[n].text, "6 %.9f STATE r%d send", posted, m->src);
            n++;
            ev[n] = (paje_event_t){left, n, ""};
            snprintf(ev[n].text, sizeof ev[n].text, "6 %.9f STATE r%d run", left, m->src);
            n++;
        }
        ev[n] = (paje_event_t){left, n, ""};
        snprintf(ev[n].text, sizeof ev[n].text, "7 %.9f MSG cluster %s r%d m%ld", left, value,
                 m->src, k);
        n++;
        ev[n] = (paje_event_t){in, n, ""};
        snprintf(ev[n].text, sizeof ev[n].text, "8 %.9f MSG cluster %s r%d m%ld", in, value, m->dst,
                 k);
        n++;
        if (in > end)
            end = in;
    }
    qsort(ev, (size_t)n, sizeof *ev, by_time);

    sc_outputs_t *outs;
    FILE *f;
    sc_err_t err = sc_output_open(option, path, &outs, &f);
    if (err) {
        free(ev);
        return err;
    }
    fputs(paje_header, f);
    fputs("0 CLUSTER 0 CLUSTER\n0 NODE CLUSTER NODE\n0 RANK NODE RANK\n"
          "1 STATE RANK STATE\n2 MSG CLUSTER RANK RANK MSG\n"
          "3 run STATE run \"0.85 0.85 0.85\"\n3 send STATE send \"0.2 0.4 0.8\"\n"
          "3 intra MSG intra \"0.1 0.5 0.9\"\n3 inter MSG inter \"0.85 0.2 0.1\"\n",
          f);
    fputs("4 0 cluster CLUSTER 0 ", f);
    fprintf(f, "\"%s\"\n", info->plat->name);
    for (int node = 0; node < info->plat->nnodes; node++) {
        int used = 0;
        for (int r = 0; r < info->np && !used; r++)
            used = info->node_of[r] == node;
        if (used)
            fprintf(f, "4 0 n%d NODE cluster \"%s\"\n", node, info->plat->nodes[node].name);
    }
    for (int r = 0; r < info->np; r++)
        fprintf(f, "4 0 r%d RANK n%d \"rank %d\"\n", r, info->node_of[r], r);
    for (long k = 0; k < n; k++)
        fprintf(f, "%s\n", ev[k].text);
    for (int r = 0; r < info->np; r++)
        fprintf(f, "5 %.9f RANK r%d\n", end, r);
    for (int node = 0; node < info->plat->nnodes; node++) {
        int used = 0;
        for (int r = 0; r < info->np && !used; r++)
            used = info->node_of[r] == node;
        if (used)
            fprintf(f, "5 %.9f NODE n%d\n", end, node);
    }
    fprintf(f, "5 %.9f CLUSTER cluster\n", end);
    free(ev);
    return sc_outputs_commit(outs);
}

/* ---- The timeline picture ---- */

/* What the parts of a timeline's script share. */
typedef struct {
    const sc_trace_info_t *info;
    const sc_run_result_t *res;
    int by_node;     /* a lane per node, not per rank */
    int *lane;       /* by rank: its lane */
    int *lane_is;    /* by lane: the rank, or the node, it is */
    int nlanes;
    double t0, scale; /* the first message's start; seconds to the axis's unit */
} timeline_t;

/* A lane per rank, in node order then rank order; or per node. */
static void assign_lanes(timeline_t *t)
{
    const sc_trace_info_t *info = t->info;
    t->nlanes = 0;
    for (int node = 0; node < info->plat->nnodes; node++) {
        int used = 0;
        for (int r = 0; r < info->np; r++)
            if (info->node_of[r] == node) {
                t->lane[r] = t->by_node ? t->nlanes : t->nlanes + used;
                if (!t->by_node)
                    t->lane_is[t->lane[r]] = r;
                used++;
            }
        if (t->by_node && used)
            t->lane_is[t->nlanes] = node;
        t->nlanes += t->by_node ? used > 0 : used;
    }
}

/* Title, axes, lane labels and node boundaries; end is the last finish
 * after t0, in seconds. */
static void write_axes(FILE *s, const timeline_t *t, const char *terminal, double end,
                       const char *unit)
{
    char title[1024], quoted[2048];
    snprintf(title, sizeof title, "%s%s", t->info->title, t->by_node ? ", a lane per node" : "");
    sc_gnuplot_quote(title, quoted, sizeof quoted);
    fprintf(s, "set terminal %s\nset output\nset title '%s'\n", terminal, quoted);
    fprintf(s, "set xlabel 'simulated time (%s)'\nset ylabel '%s'\n", unit,
            t->by_node ? "node" : "rank");
    /* Rank 0 (or the first node) on top. */
    fprintf(s, "set yrange [%g:%g]\nset xrange [0:%g]\nset key outside right top\n",
            t->nlanes - 0.3, -0.7, end * t->scale * 1.02);
    /* Lane labels: the rank (or node) each lane is, at most 32 of them. */
    fputs("set ytics (", s);
    int step = t->nlanes > 32 ? (t->nlanes + 31) / 32 : 1;
    for (int l = 0; l < t->nlanes; l += step) {
        char name[128];
        if (t->by_node)
            snprintf(name, sizeof name, "%s", t->info->plat->nodes[t->lane_is[l]].name);
        else
            snprintf(name, sizeof name, "%d", t->lane_is[l]);
        sc_gnuplot_quote(name, quoted, sizeof quoted);
        fprintf(s, "%s'%s' %d", l ? ", " : "", quoted, l);
    }
    fputs(")\n", s);
    /* Node boundaries, between lanes of different nodes. */
    for (int l = 0; !t->by_node && l + 1 < t->nlanes; l++)
        if (t->info->node_of[t->lane_is[l]] != t->info->node_of[t->lane_is[l + 1]])
            fprintf(s,
                    "set arrow from graph 0, first %g to graph 1, first %g nohead dt 2 "
                    "lc rgb 'gray50'\n",
                    l + 0.5, l + 0.5);
}

/* Data: arrows (x, y, dx, dy) per level, and the senders' busy bars. */
static void write_messages(FILE *s, const timeline_t *t)
{
    const sc_run_result_t *res = t->res;
    for (int level = 0; level < SC_NLEVELS; level++) {
        fprintf(s, "$arrows%d << EOD\n", level);
        long drawn = 0;
        for (long k = 0; k < res->nmsgs; k++) {
            const sc_msg_record_t *m = &res->msgs[k];
            if (m->level != level || (t->by_node && level != SC_LEVEL_INTER))
                continue;
            double x = (m->left - t->t0) * t->scale, dx = (arrived(m) - m->left) * t->scale;
            fprintf(s, "%.9g %d %.9g %d\n", x, t->lane[m->src], dx,
                    t->lane[m->dst] - t->lane[m->src]);
            drawn++;
        }
        if (!drawn) /* an empty block cannot be plotted: one point off the range */
            fprintf(s, "%g -10 0 0\n", -1.0);
        fputs("EOD\n", s);
    }
    fputs("$busy << EOD\n", s);
    long busy = 0;
    for (long k = 0; k < res->nmsgs && !t->by_node; k++) {
        const sc_msg_record_t *m = &res->msgs[k];
        if (m->left > m->posted) {
            fprintf(s, "%.9g %d %.9g 0\n", (m->posted - t->t0) * t->scale, t->lane[m->src],
                    (m->left - m->posted) * t->scale);
            busy++;
        }
    }
    if (!busy)
        fputs("-1 -10 0 0\n", s);
    fputs("EOD\n", s);
}

/* The algorithm's steps (explain.h): each message's step number at the
 * middle of its arrow, where there are few enough to read; then the plot
 * command. At their tails the labels piled up: the first steps of most
 * algorithms leave within microseconds of the start, one column at t = 0
 * on a scale of milliseconds, while their arrows end apart. A label that
 * would fall on one of the same step (arrows drawn over each other) is
 * left out. */
static void write_steps_and_plot(FILE *s, const timeline_t *t)
{
    const sc_run_result_t *res = t->res;
    sc_explain_t e;
    int steps = res->nmsgs <= SC_TIMELINE_MAX_STEP_LABELS && !t->by_node &&
                sc_explain(t->info->plat, t->info->np, res, &e) == SC_OK;
    double(*at)[2] = steps ? malloc((size_t)res->nmsgs * sizeof *at) : NULL;
    fputs("$steps << EOD\n", s);
    for (long k = 0; at && k < res->nmsgs; k++) {
        const sc_msg_record_t *m = &res->msgs[k];
        at[k][0] = ((m->left + arrived(m)) / 2 - t->t0) * t->scale;
        at[k][1] = (t->lane[m->src] + t->lane[m->dst]) / 2.0;
        int same = 0;
        for (long j = 0; j < k && !same; j++)
            same = e.step_of_msg[j] == e.step_of_msg[k] && at[j][1] == at[k][1] &&
                   fabs(at[j][0] - at[k][0]) <= 1e-9 * (fabs(at[k][0]) + 1);
        if (!same)
            fprintf(s, "%.9g %.9g %d\n", at[k][0], at[k][1], e.step_of_msg[k]);
    }
    if (!at) /* an empty block cannot be plotted: one label off the range */
        fputs("-1 -10 0\n", s);
    free(at);
    fputs("EOD\n", s);
    if (steps)
        sc_explain_destroy(&e);
    fprintf(s,
            "plot $busy using 1:2:3:4 with vectors nohead lw 6 lc rgb 'gray40' title 'sender "
            "busy', \\\n"
            "     $arrows%d using 1:2:3:4 with vectors filled head size screen 0.008,20 lw 1 lc "
            "rgb '#1f77b4' title 'intra-node message', \\\n"
            "     $arrows%d using 1:2:3:4 with vectors filled head size screen 0.008,20 lw 1 lc "
            "rgb '#d62728' title 'inter-node message', \\\n"
            "     $steps using 1:2:3 with labels offset 0.6,0.45 font ',8' tc rgb 'gray20' "
            "title '%s'\n",
            SC_LEVEL_INTRA, SC_LEVEL_INTER, steps ? "n = step" : "");
}

/* Lanes top to bottom: ranks grouped by node (or nodes, above
 * SC_TIMELINE_MAX_LANES ranks). Each message is an arrow from its sender's
 * lane when it left to its receiver's when it arrived, blue inside a node,
 * red between nodes, with the algorithm's step it belongs to (explain.h)
 * at its tail; a thick bar on the sender's lane marks its core busy with
 * it (overhead, the NIC's gap). Dashed lines separate the nodes. */
sc_err_t sc_trace_write_timeline(const char *option, const char *path, const sc_trace_info_t *info,
                                 const sc_run_result_t *res)
{
    const char *terminal;
    sc_err_t err = sc_gnuplot_terminal(option, path, &terminal);
    if (err)
        return err;
    timeline_t t = {.info = info, .res = res, .by_node = info->np > SC_TIMELINE_MAX_LANES,
                    .lane = malloc((size_t)info->np * sizeof *t.lane),
                    .lane_is = malloc((size_t)info->np * sizeof *t.lane_is)};
    char *script = NULL;
    size_t len = 0;
    FILE *s = t.lane && t.lane_is ? open_memstream(&script, &len) : NULL;
    if (!s) {
        free(t.lane);
        free(t.lane_is);
        return sc_error(SC_ERR_RUN, "%s %s: out of memory", option, path);
    }
    assign_lanes(&t);
    double end = 0;
    t.t0 = first_start(info, res);
    for (int r = 0; r < info->np; r++)
        if (res->finish[r] - t.t0 > end)
            end = res->finish[r] - t.t0;
    t.scale = end < 1e-3 ? 1e6 : end < 1 ? 1e3 : 1;
    write_axes(s, &t, terminal, end, end < 1e-3 ? "us" : end < 1 ? "ms" : "s");
    write_messages(s, &t);
    write_steps_and_plot(s, &t);
    free(t.lane);
    free(t.lane_is);
    if (fclose(s) != 0) {
        free(script);
        return sc_error(SC_ERR_RUN, "%s %s: out of memory", option, path);
    }
    err = sc_gnuplot(option, path, script);
    free(script);
    return err;
}

sc_err_t sc_trace_write_all(const char *timeline, const char *trace, const char *paje,
                            const sc_trace_info_t *info, const sc_run_result_t *res)
{
    sc_err_t err = SC_OK;
    if (timeline)
        err = sc_trace_write_timeline("--timeline", timeline, info, res);
    if (!err && trace)
        err = sc_trace_write_json("--trace", trace, info, res);
    if (!err && paje)
        err = sc_trace_write_paje("--paje", paje, info, res);
    return err;
}
