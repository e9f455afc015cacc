/* --explain (see explain.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "explain.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/sc_units.h"
#include "models/cost.h"

/* A message posted, or completed at its receiver (its wait returned). At
 * one instant a completion comes first: the send it enabled may be posted
 * at that very time. */
typedef struct {
    double time;
    int arrival;
    long msg;
} event_t;

static int by_time(const void *a, const void *b)
{
    const event_t *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    if (x->arrival != y->arrival)
        return y->arrival - x->arrival;
    return (x->msg > y->msg) - (x->msg < y->msg);
}

static int arrived(const sc_msg_record_t *m)
{
    return !isnan(m->arrived);
}

static int completed(const sc_msg_record_t *m)
{
    return !isnan(m->completed);
}

/* The message rank `rank` completed last at or before `t`, or -1. */
static long last_completed(const sc_run_result_t *res, int rank, double t)
{
    long best = -1;
    for (long k = 0; k < res->nmsgs; k++) {
        const sc_msg_record_t *m = &res->msgs[k];
        if (m->dst == rank && completed(m) && m->completed <= t &&
            (best < 0 || m->completed >= res->msgs[best].completed))
            best = k;
    }
    return best;
}

static sc_err_t steps_of(const sc_run_result_t *res, int np, int *step_of_msg, int *nsteps)
{
    event_t *ev = malloc((size_t)(2 * res->nmsgs + 1) * sizeof *ev);
    int *taken = calloc((size_t)np, sizeof *taken); /* highest step completed */
    if (!ev || !taken) {
        free(ev);
        free(taken);
        return sc_error(SC_ERR_RUN, "--explain: out of memory for %ld messages", res->nmsgs);
    }
    long n = 0;
    for (long k = 0; k < res->nmsgs; k++) {
        ev[n++] = (event_t){res->msgs[k].posted, 0, k};
        if (completed(&res->msgs[k]))
            ev[n++] = (event_t){res->msgs[k].completed, 1, k};
    }
    qsort(ev, (size_t)n, sizeof *ev, by_time);
    *nsteps = 0;
    for (long i = 0; i < n; i++) {
        const sc_msg_record_t *m = &res->msgs[ev[i].msg];
        if (ev[i].arrival) {
            if (step_of_msg[ev[i].msg] > taken[m->dst])
                taken[m->dst] = step_of_msg[ev[i].msg];
        } else {
            step_of_msg[ev[i].msg] = taken[m->src] + 1;
            if (step_of_msg[ev[i].msg] > *nsteps)
                *nsteps = step_of_msg[ev[i].msg];
        }
    }
    free(ev);
    free(taken);
    return SC_OK;
}

/* Counts message k in its step: messages, bytes, span, time alone (on the
 * `idle` model) and waited; inter-node bytes and messages in the step's
 * slots of nic and nic_messages (per node and direction). */
static void tally_message(sc_explain_t *out, const sc_model_t *idle, const sc_platform_t *plat,
                          const sc_run_result_t *res, long k, double *nic, long *nic_messages,
                          double *bus, long *bus_messages)
{
    const sc_msg_record_t *m = &res->msgs[k];
    sc_explain_step_t *st = &out->steps[out->step_of_msg[k] - 1];
    st->messages[m->level]++;
    st->bytes[m->level] += m->bytes;
    if (m->posted < st->start)
        st->start = m->posted;
    double end = arrived(m) ? m->arrived : m->left;
    if (end > st->end)
        st->end = end;
    double alone = sc_model_p2p_time(idle, m->src, m->dst, (size_t)m->bytes);
    if (alone > st->alone)
        st->alone = alone;
    double waited = end - m->posted - alone;
    waited = waited > 0 ? waited : 0;
    st->waited_mean += waited;
    if (waited > st->waited_max)
        st->waited_max = waited;
    int crosses = res->domain_of[m->src] != res->domain_of[m->dst];
    if (m->level == SC_LEVEL_INTER && waited > st->waited_inter)
        st->waited_inter = waited;
    if (m->level == SC_LEVEL_INTRA && waited > st->waited_intra)
        st->waited_intra = waited;
    if (m->level == SC_LEVEL_INTRA && crosses && waited > st->waited_between_sockets)
        st->waited_between_sockets = waited;
    if (m->level == SC_LEVEL_INTRA && !crosses && waited > st->waited_in_socket)
        st->waited_in_socket = waited;
    if (m->level == SC_LEVEL_INTRA) {
        /* every message inside a node uses its memory bus; one between its
         * sockets also the link joining them (slot 2 node + 1) */
        size_t base = 2 * (size_t)plat->nnodes * (size_t)(out->step_of_msg[k] - 1),
               node = base + 2 * (size_t)res->node_of[m->src];
        bus[node] += m->bytes;
        bus_messages[node]++;
        if (crosses && sc_platform_node_levels(plat)) {
            bus[node + 1] += m->bytes;
            bus_messages[node + 1]++;
        }
    }
    if (m->level == SC_LEVEL_INTER) {
        size_t base = 2 * (size_t)plat->nnodes * (size_t)(out->step_of_msg[k] - 1);
        size_t up = base + 2 * (size_t)res->node_of[m->src],
               down = base + 2 * (size_t)res->node_of[m->dst] + 1;
        nic[up] += m->bytes;
        nic[down] += m->bytes;
        nic_messages[up]++;
        nic_messages[down]++;
    }
}

/* Each step's mean wait, busiest NIC, memory bus and link between
 * sockets, from the tallies. */
static void finish_steps(sc_explain_t *out, const sc_platform_t *plat, const double *nic,
                         const long *nic_messages, const double *bus, const long *bus_messages)
{
    for (int s = 0; s < out->nsteps; s++) {
        sc_explain_step_t *st = &out->steps[s];
        long count = st->messages[SC_LEVEL_INTRA] + st->messages[SC_LEVEL_INTER];
        st->waited_mean = count ? st->waited_mean / (double)count : 0;
        st->busiest_node = st->bus_node = st->socket_node = -1;
        for (int i = 0; i < 2 * plat->nnodes; i++) {
            size_t at = 2 * (size_t)plat->nnodes * (size_t)s + (size_t)i;
            if (nic[at] > st->busiest_bytes) {
                st->busiest_bytes = nic[at];
                st->busiest_messages = nic_messages[at];
                st->busiest_node = i / 2;
                st->busiest_in = i % 2;
            }
            double *most = i % 2 ? &st->socket_bytes : &st->bus_bytes;
            if (bus[at] > *most) {
                *most = bus[at];
                *(i % 2 ? &st->socket_messages : &st->bus_messages) = bus_messages[at];
                *(i % 2 ? &st->socket_node : &st->bus_node) = i / 2;
            }
        }
    }
}

sc_waited_at_t sc_explain_waited_at(const sc_explain_step_t *st)
{
    /* A step without messages between nodes waited inside them. */
    if (st->busiest_node >= 0 && st->waited_inter >= st->waited_intra)
        return SC_WAITED_NIC;
    /* The link between sockets when what crossed it waited longer than
     * what stayed in a socket, which had only the memory bus to wait for. */
    return st->socket_node >= 0 && st->waited_between_sockets > st->waited_in_socket * (1 + 1e-9)
               ? SC_WAITED_SOCKETS
               : SC_WAITED_BUS;
}

/* The critical path, back from the rank that finished last, earliest
 * message first. */
static sc_err_t critical_path(sc_explain_t *out, int np, const sc_run_result_t *res)
{
    out->last_rank = 0;
    for (int r = 1; r < np; r++)
        if (res->finish[r] > res->finish[out->last_rank])
            out->last_rank = r;
    out->path = malloc(((size_t)res->nmsgs + 1) * sizeof *out->path);
    if (!out->path)
        return sc_error(SC_ERR_RUN, "--explain: out of memory");
    long k = last_completed(res, out->last_rank, res->finish[out->last_rank]);
    while (k >= 0 && out->npath <= res->nmsgs) {
        out->path[out->npath++] = k;
        const sc_msg_record_t *m = &res->msgs[k];
        long before = last_completed(res, m->src, m->posted);
        /* Steps only go down along the path: no loops. */
        k = before >= 0 && out->step_of_msg[before] < out->step_of_msg[k] ? before : -1;
    }
    for (int i = 0; i < out->npath / 2; i++) { /* earliest first */
        long t = out->path[i];
        out->path[i] = out->path[out->npath - 1 - i];
        out->path[out->npath - 1 - i] = t;
    }
    /* Between two messages of the path their rank computes: it combines
     * a reduction's data, copies, pays overheads. */
    out->path_on_rank = malloc(((size_t)out->npath + 1) * sizeof *out->path_on_rank);
    if (!out->path_on_rank)
        return sc_error(SC_ERR_RUN, "--explain: out of memory");
    for (int i = 0; i < out->npath; i++) {
        const sc_msg_record_t *m = &res->msgs[out->path[i]];
        double since = i ? res->msgs[out->path[i - 1]].completed : res->start[m->src];
        out->path_on_rank[i] = m->posted > since ? m->posted - since : 0;
    }
    out->path_tail = 0;
    if (out->npath) {
        double done = res->msgs[out->path[out->npath - 1]].completed;
        double end = res->finish[out->last_rank];
        out->path_tail = end > done ? end - done : 0;
    }
    return SC_OK;
}

sc_err_t sc_explain(const sc_platform_t *plat, int np, const sc_run_result_t *res,
                    sc_explain_t *out)
{
    *out = (sc_explain_t){0};
    out->step_of_msg = calloc((size_t)res->nmsgs + 1, sizeof *out->step_of_msg);
    if (!out->step_of_msg)
        return sc_error(SC_ERR_RUN, "--explain: out of memory");
    sc_err_t err = steps_of(res, np, out->step_of_msg, &out->nsteps);
    sc_model_t model = {0};
    double *nic = NULL; /* bytes per node and direction, per step */
    /* bytes per node on its memory bus (even slots) and between its
     * sockets (odd), per step */
    double *bus = NULL;
    long *bus_messages = NULL;
    if (!err)
        err = sc_model_init(&model, plat, np, res->node_of, res->domain_of, NULL, NULL,
                            sizeof(double));
    if (!err) {
        out->steps = calloc((size_t)out->nsteps + 1, sizeof *out->steps);
        size_t slots = 2 * (size_t)plat->nnodes * ((size_t)out->nsteps + 1);
        nic = calloc(slots, sizeof *nic);
        bus = calloc(slots, sizeof *bus);
        bus_messages = calloc(slots, sizeof *bus_messages);
        if (!out->steps || !nic || !bus || !bus_messages)
            err = sc_error(SC_ERR_RUN, "--explain: out of memory");
    }
    long *nic_messages =
        err ? NULL
            : calloc(2 * (size_t)plat->nnodes * ((size_t)out->nsteps + 1), sizeof *nic_messages);
    if (!err && !nic_messages)
        err = sc_error(SC_ERR_RUN, "--explain: out of memory");
    /* Alone: the model without the NICs' gap queue, every route idle. */
    sc_model_t idle = model;
    idle.nic_free = NULL;
    for (int s = 0; !err && s < out->nsteps; s++)
        out->steps[s] = (sc_explain_step_t){.start = INFINITY, .end = -INFINITY};
    for (long k = 0; !err && k < res->nmsgs; k++)
        tally_message(out, &idle, plat, res, k, nic, nic_messages, bus, bus_messages);
    if (!err)
        finish_steps(out, plat, nic, nic_messages, bus, bus_messages);
    free(nic);
    free(nic_messages);
    free(bus);
    free(bus_messages);
    sc_model_destroy(&model);
    if (!err)
        err = critical_path(out, np, res);
    if (err)
        sc_explain_destroy(out);
    return err;
}

void sc_explain_destroy(sc_explain_t *e)
{
    free(e->step_of_msg);
    free(e->steps);
    free(e->path);
    free(e->path_on_rank);
    *e = (sc_explain_t){0};
}

/* What a message between two of a node's smallest domains crosses, for
 * the text: "sockets" when nodes have sockets alone, "domains" when they
 * have several levels; and one smallest domain, "socket", "NUMA domain"
 * or "CCX". */
static const char *between_word(const sc_platform_t *plat)
{
    return sc_platform_node_levels(plat) > 1
               ? "domains"
               : sc_domain_plural((sc_domain_kind_t)sc_platform_domain_kind(plat, 1));
}

static const char *smallest_domain_word(const sc_platform_t *plat)
{
    return sc_domain_singular((sc_domain_kind_t)sc_platform_domain_kind(plat, 1));
}

/* "12.3 us" */
static void seconds(double s, char *out, size_t size)
{
    if (fabs(s) < 1e-3)
        snprintf(out, size, "%.4g us", s * 1e6);
    else if (fabs(s) < 1)
        snprintf(out, size, "%.4g ms", s * 1e3);
    else
        snprintf(out, size, "%.4g s", s);
}

/* A step's "waited at": the busiest NIC, the busiest links between a
 * node's sockets or the busiest memory bus, "-" where none. */
static void waited_at_text(const sc_platform_t *plat, const sc_explain_step_t *st, char *nic,
                           size_t size)
{
    char nicb[32];
    sc_waited_at_t at = sc_explain_waited_at(st);
    if (at == SC_WAITED_NIC) {
        sc_format_bytes(st->busiest_bytes, nicb, sizeof nicb);
        snprintf(nic, size, "%s NIC %s: %s in %ld", plat->nodes[st->busiest_node].name,
                 st->busiest_in ? "in" : "out", nicb, st->busiest_messages);
    } else if (at == SC_WAITED_SOCKETS) {
        sc_format_bytes(st->socket_bytes, nicb, sizeof nicb);
        snprintf(nic, size, "%s link%s between %s: %s in %ld", plat->nodes[st->socket_node].name,
                 sc_platform_node_levels(plat) > 1 ? "s" : "", between_word(plat), nicb,
                 st->socket_messages);
    } else if (st->bus_node >= 0) {
        sc_format_bytes(st->bus_bytes, nicb, sizeof nicb);
        snprintf(nic, size, "%s memory bus: %s in %ld", plat->nodes[st->bus_node].name, nicb,
                 st->bus_messages);
    } else {
        snprintf(nic, size, "-");
    }
}

/* The steps' table, a line a step, times from t0; and what steps that end
 * after the run are. */
static void print_steps(FILE *f, const sc_platform_t *plat, const sc_run_result_t *res,
                        const sc_explain_t *e, double t0)
{
    char a[32], b[32], c[32], d[32], g[32], h[32], bytes[2][32];
    fprintf(f, "  %4s %17s %17s %10s %10s %10s %10s %10s %10s  %s\n", "step", "inter-node",
            "intra-node", "start", "end", "took", "alone", "waited", "(most)", "waited at");
    for (int s = 0; s < e->nsteps; s++) {
        const sc_explain_step_t *st = &e->steps[s];
        char inter[40], intra[40], nic[96];
        sc_format_bytes(st->bytes[SC_LEVEL_INTER], bytes[0], sizeof bytes[0]);
        sc_format_bytes(st->bytes[SC_LEVEL_INTRA], bytes[1], sizeof bytes[1]);
        snprintf(inter, sizeof inter, "%ld: %s", st->messages[SC_LEVEL_INTER], bytes[0]);
        snprintf(intra, sizeof intra, "%ld: %s", st->messages[SC_LEVEL_INTRA], bytes[1]);
        seconds(st->start - t0, a, sizeof a);
        seconds(st->end - t0, b, sizeof b);
        seconds(st->end - st->start, c, sizeof c);
        seconds(st->alone, d, sizeof d);
        seconds(st->waited_mean, g, sizeof g);
        seconds(st->waited_max, h, sizeof h);
        waited_at_text(plat, st, nic, sizeof nic);
        fprintf(f, "  %4d %17s %17s %10s %10s %10s %10s %10s %10s  %s\n", s + 1, inter, intra, a, b,
                c, d, g, h, nic);
    }
    double last_end = -INFINITY;
    for (int s = 0; s < e->nsteps; s++)
        last_end = e->steps[s].end > last_end ? e->steps[s].end : last_end;
    if (last_end - t0 > res->sim_time_s * (1 + 1e-9)) {
        seconds(res->sim_time_s, a, sizeof a);
        fprintf(f,
                "\n  Steps that end after %s (the last rank's end) are messages no rank waited\n"
                "  for, still in flight when it finished (early exit's DECIDE messages are\n"
                "  sent on and drained in the background).\n",
                a);
    }
}

/* Message i of the critical path: the time its sender spent before
 * posting it (`busy` says on what), then the message. */
static void print_path_message(FILE *f, const sc_platform_t *plat, const sc_run_result_t *res,
                               const sc_explain_t *e, int i, double t0, const char *busy)
{
    char a[32], b[32], c[32], bytes[32];
    const sc_msg_record_t *m = &res->msgs[e->path[i]];
    sc_format_bytes(m->bytes, bytes, sizeof bytes);
    seconds(m->posted - t0, a, sizeof a);
    seconds(m->arrived - t0, b, sizeof b);
    if (e->path_on_rank[i] > 0) {
        seconds(e->path_on_rank[i], c, sizeof c);
        fprintf(f, "    on rank %d: %s (%s)\n", m->src, c, busy);
    }
    char where[64] = "between nodes";
    if (m->level != SC_LEVEL_INTER && !sc_platform_node_levels(plat))
        snprintf(where, sizeof where, "in a node");
    else if (m->level != SC_LEVEL_INTER && res->domain_of[m->src] != res->domain_of[m->dst])
        snprintf(where, sizeof where, "between %s", between_word(plat));
    else if (m->level != SC_LEVEL_INTER)
        snprintf(where, sizeof where, "in a %s", smallest_domain_word(plat));
    seconds(m->completed - t0, c, sizeof c);
    fprintf(f, "    step %d: rank %d -> rank %d (%s, %s), posted %s, arrived %s, completed %s\n",
            e->step_of_msg[e->path[i]], m->src, m->dst, bytes, where, a, b, c);
}

/* The critical path back from the last rank to finish: its last 24
 * messages and the time on the ranks between them, then the totals. */
static void print_critical_path(FILE *f, const sc_platform_t *plat, const sc_run_result_t *res,
                                const sc_explain_t *e, double t0)
{
    char a[32], b[32], c[32];
    seconds(res->finish[e->last_rank] - t0, a, sizeof a);
    fprintf(f,
            "\n  critical path: rank %d finished last, at %s; back from it, each message\n"
            "  the last its sender completed before posting the next:\n",
            e->last_rank, a);
    if (e->npath == 0)
        fprintf(f, "    (rank %d received nothing)\n", e->last_rank);
    int shown = e->npath > 24 ? 24 : e->npath;
    if (shown < e->npath)
        fprintf(f, "    ... %d earlier messages\n", e->npath - shown);
    const char *busy = e->computes    ? "computing, combining, copies, overheads"
                       : e->reduction ? "combining, copies, overheads"
                                      : "copies, overheads";
    /* A message's time on the path ends when its receiver completed it:
     * after it arrived the receiver still pays its receive overhead (or
     * finishes what kept it busy), which the path counts with the message,
     * not on the rank, and says so. */
    double on_ranks = e->path_tail, in_messages = 0, after_arrival = 0;
    for (int i = 0; i < e->npath; i++) {
        const sc_msg_record_t *m = &res->msgs[e->path[i]];
        on_ranks += e->path_on_rank[i];
        in_messages += m->completed - m->posted;
        if (!isnan(m->arrived))
            after_arrival += m->completed - m->arrived;
    }
    for (int i = e->npath - shown; i < e->npath; i++)
        print_path_message(f, plat, res, e, i, t0, busy);
    if (e->path_tail > 0) {
        seconds(e->path_tail, c, sizeof c);
        fprintf(f, "    on rank %d: %s (%s) to its end\n", e->last_rank, c, busy);
    }
    if (e->npath) {
        seconds(in_messages, a, sizeof a);
        seconds(after_arrival, c, sizeof c);
        seconds(on_ranks, b, sizeof b);
        fprintf(f,
                "  on the path: %s from posting to completing its messages (%s of it after\n"
                "  they arrived: the receivers' overheads and waits), %s on the ranks between\n"
                "  completing one and posting the next (%s)\n",
                a, c, b, busy);
    }
}

void sc_explain_print(FILE *f, const char *title, const sc_platform_t *plat, int np,
                      const sc_run_result_t *res, const sc_explain_t *e)
{
    double t0 = INFINITY;
    for (int r = 0; r < np; r++)
        t0 = res->start[r] < t0 ? res->start[r] : t0;
    char a[32], b[32];
    seconds(res->sim_time_s, a, sizeof a);
    if (isnan(res->model_time_s))
        snprintf(b, sizeof b, "none");
    else
        seconds(res->model_time_s, b, sizeof b);
    fprintf(f, "\nexplain: %s: %d steps, simulated %s, model %s\n", title, e->nsteps, a, b);
    fprintf(f, "  A step's messages are those whose senders had completed a receive of the\n"
               "  previous step's.\n"
               "  alone: its slowest message on idle links and NICs (the cost model's point-to-\n"
               "  point time); waited: how much longer its messages took (links, NICs, memory\n"
               "  buses, busy receivers), mean and most; waited at: the busiest NIC when a\n"
               "  message between nodes waited most, else the busiest memory bus (or link\n"
               "  between a node's sockets, NUMA domains or CCXs).\n\n");
    print_steps(f, plat, res, e, t0);
    print_critical_path(f, plat, res, e, t0);
}
