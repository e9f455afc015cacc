/* A recorded application run on a platform: an actor per rank plays its
 * events in a child process.
 *
 * Communicators: a rank's point-to-point messages go on the world's
 * transport, each communicator's tags in a band of their own
 * (SC_TAG_BAND: MPI keeps communicators apart by a context id, and a
 * receive of any tag takes only its communicator's); its collectives run
 * on a subcommunicator of the communicator's ranks, whose context keeps
 * their messages apart from every other's, and which knows the nodes of
 * its ranks, so that the SMP-aware algorithms and the profiles see the
 * communicator's own hierarchy.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "trace_run.h"

#include <math.h>
#include <simgrid/actor.h>
#include <stdarg.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/kinds.h"
#include "algorithms/subcomm.h"
#include "sim/simgrid/child.h"
#include "sim/simgrid/engine.h"
#include "ranks.h"
#include "run.h"
#include "sim/simgrid/driver.h"
#include "sim/simgrid/s4u_calls.h"
#include "sim/simgrid/node_replay.h"
#include "sim/replay/id_table.h"
#include "sim/replay/trace_coll.h"
#include "sim/replay/trace_source.h"


const char *sc_tcost_name(sc_tcost_kind_t kind)
{
    static const char *const p2p[] = {"send", "recv", "isend", "irecv", "wait", "test"};
    if ((int)kind < SC_TCOLL_COUNT)
        return sc_tcoll_name((sc_tcoll_t)kind);
    return kind < SC_TCOST_KINDS ? p2p[kind - SC_TCOST_SEND] : "?";
}

/* ---- What the parent works out ---- */

typedef struct {
    const sc_trace_run_spec_t *spec;
    int np;
    int *node_of, *domain_of; /* by rank */
    int receives;
} layout_t;

static sc_err_t layout_init(const sc_trace_run_spec_t *spec, layout_t *lay)
{
    const sc_platform_t *plat = spec->plat;
    int p = sc_trace_ranks(spec->trace);
    *lay = (layout_t){.spec = spec, .np = p, .receives = 3};
    if (p > plat->total_cores)
        return sc_error(SC_ERR_INPUT,
                        "trace '%s' has %d ranks, more than platform '%s' has cores (%d on %d "
                        "nodes); give a larger platform (simcoll platform --nodes N ...)",
                        sc_trace_path(spec->trace), p, plat->path, plat->total_cores,
                        plat->nnodes);
    int *slot_node = malloc(2 * (size_t)p * sizeof *slot_node);
    int *pi_inv = spec->pi ? malloc((size_t)p * sizeof *pi_inv) : NULL;
    lay->node_of = malloc((size_t)p * sizeof *lay->node_of);
    lay->domain_of = malloc((size_t)p * sizeof *lay->domain_of);
    sc_err_t err = SC_OK;
    if (!slot_node || !lay->node_of || !lay->domain_of || (spec->pi && !pi_inv))
        err = sc_error(SC_ERR_RUN, "out of memory for %d ranks", p);
    int *slot_domain = slot_node ? slot_node + p : NULL;
    /* The slots' nodes: the jobs' own (spec->node_of), or MPI's placement. */
    if (!err && spec->node_of)
        memcpy(slot_node, spec->node_of, (size_t)p * sizeof *slot_node);
    else if (!err)
        err = sc_place(plat, p, spec->placement, slot_node);
    if (!err)
        err = sc_place_domains(plat, p, slot_node, slot_domain);
    if (!err && spec->pi) {
        for (int i = 0; i < p; i++)
            pi_inv[spec->pi[i]] = i;
    }
    for (int r = 0; !err && r < p; r++) {
        int slot = pi_inv ? pi_inv[r] : r;
        lay->node_of[r] = slot_node[slot];
        lay->domain_of[r] = slot_domain[slot];
    }
    free(slot_node);
    free(pi_inv);
    return err;
}

static void layout_destroy(layout_t *lay)
{
    free(lay->node_of);
    free(lay->domain_of);
    *lay = (layout_t){0};
}

/* The forced algorithms' preconditions against every communicator a
 * collective of theirs is called on, in the order the scan met them, so
 * that the first call that fails is named as a check of every call would
 * name it. */
static sc_err_t check_forced(const sc_trace_run_spec_t *spec)
{
    sc_tcoll_t coll;
    int comm;
    for (size_t i = 0; sc_trace_collective_use(spec->trace, i, &coll, &comm); i++) {
        int has;
        sc_collective_t kind = sc_tcoll_kind(coll, &has);
        const sc_algo_t *forced = has ? spec->forced[kind] : NULL;
        int n = sc_trace_comm(spec->trace, comm)->size;
        if (forced && sc_algo_check(forced, n))
            return sc_error(SC_ERR_INPUT,
                            "--algos %s=%s cannot run the trace's %s on %d ranks "
                            "(communicator %d): %s",
                            sc_kind(kind)->name, forced->name, sc_tcoll_name(coll), n, comm,
                            sc_error_message());
    }
    return SC_OK;
}

sc_err_t sc_trace_run_check(const sc_trace_run_spec_t *spec)
{
    for (int k = 0; k < SC_NCOLLECTIVES; k++) {
        const sc_algo_t *a = spec->forced[k];
        if (a && (a->needs & SC_DATA_DEPENDENT))
            return sc_error(SC_ERR_INPUT, "--algos %s=%s: its messages depend on the data, "
                            "which a trace does not hold; choose another", sc_kind(a->collective)->name,
                            a->name);
    }
    if (sc_trace_ncomms(spec->trace) > SC_TRACE_MAX_COMMS)
        return sc_error(SC_ERR_INPUT, "trace '%s' makes %d communicators; simcoll replays at "
                        "most %d", sc_trace_path(spec->trace), sc_trace_ncomms(spec->trace),
                        SC_TRACE_MAX_COMMS);
    if (!(spec->compute_scale > 0) || isinf(spec->compute_scale))
        return sc_error(SC_ERR_INPUT, "--compute-scale %g: a positive factor", spec->compute_scale);
    if (spec->replay == SC_REPLAY_LIVE)
        return sc_error(SC_ERR_INPUT, "--replay=live runs a collective's own code, and a trace "
                                      "holds its ranks' calls: use --replay=maestro or --replay "
                                      "to play them");
    if (spec->replay == SC_REPLAY_MAESTRO) {
        sc_err_t err = sc_driver_available();
        if (err)
            return err;
    }
    if (spec->replay && spec->messages)
        return sc_error(SC_ERR_INPUT, "--replay plays the ranks' ops without recording each "
                                      "message: --timeline, --trace, --paje and --explain need "
                                      "the actors (leave --replay out)");
    if (spec->replay && sc_platform_node_levels(spec->plat))
        return sc_error(SC_ERR_INPUT, "--replay runs a node's ranks on one host, and platform "
                                      "'%s' has sockets, NUMA domains or CCXs in its nodes "
                                      "(leave --replay out)", spec->plat->path);
    layout_t lay;
    sc_err_t err = layout_init(spec, &lay);
    layout_destroy(&lay);
    return err ? err : check_forced(spec);
}

/* ---- The simulation, in the child ---- */

/* A rank's collective communicator. */
typedef struct {
    int comm;
    sc_subcomm_t sub;
} rank_comm_t;

typedef struct {
    sc_trace_cursor_t *cursor;
    sc_id_table_t requests; /* the open ones by trace id (slot_put) */
    rank_comm_t **comms;
    int ncomms, cap_comms;
} rank_t;

typedef struct {
    const sc_trace_run_spec_t *spec;
    const layout_t *lay;
    int np;
    sc_model_t model;
    sc_scratch_t *scratch;
    sc_world_t *world;
    rank_t *ranks;
    double *start, *finish, *mpi, *compute;
    int *finished;
    sc_tcost_t costs[SC_TCOST_KINDS][SC_TCOST_BUCKETS];
    sc_tcoll_use_t uses[SC_TRACE_MAX_USES];
    int nuses;
    int **comm_nodes;       /* by communicator: its ranks' nodes, made on first use */
    sc_trace_tags_t *tags;
    sc_trace_choice_t choice;
    sc_err_t error;
    char error_msg[512];
} session_t;

static session_t *session;

static void fail(session_t *s, sc_err_t err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fail(session_t *s, sc_err_t err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sc_error_keep_first(&s->error, s->error_msg, sizeof s->error_msg, err, fmt, ap);
    va_end(ap);
}

static int bucket_of(uint64_t bytes)
{
    int b = 0;
    while (bytes) {
        b++;
        bytes >>= 1;
    }
    return b;
}

static void charge(session_t *s, sc_tcost_kind_t kind, uint64_t bytes, double seconds, long calls)
{
    sc_tcost_t *c = &s->costs[kind][bucket_of(bytes)];
    c->calls += calls;
    c->seconds += seconds;
}

static void count_use(session_t *s, sc_tcoll_t coll, const char *name)
{
    for (int i = 0; i < s->nuses; i++)
        if (s->uses[i].coll == coll && !strcmp(s->uses[i].name, name)) {
            s->uses[i].calls++;
            return;
        }
    if (s->nuses == SC_TRACE_MAX_USES)
        return;
    sc_tcoll_use_t *u = &s->uses[s->nuses++];
    u->coll = coll;
    snprintf(u->name, sizeof u->name, "%s", name);
    u->calls = 1;
}

/* ---- A rank's requests ---- */

/* A request is kept by its trace id: the transport's request and its
 * bytes (the entry's number). */
static int slot_put(rank_t *rk, uint64_t id, sc_request_t *req, uint64_t bytes)
{
    return sc_id_table_put(&rk->requests, id, bytes, req);
}

/* Takes request `id` out of the table (NULL: none, completed already). */
static sc_request_t *slot_take(rank_t *rk, uint64_t id, uint64_t *bytes)
{
    sc_id_entry_t e;
    if (!sc_id_table_take(&rk->requests, id, &e))
        return NULL;
    if (bytes)
        *bytes = e.number;
    return e.ptr;
}

/* ---- Collectives ---- */

static const int *comm_nodes(session_t *s, int comm)
{
    if (!s->comm_nodes[comm]) {
        const sc_trace_comm_t *c = sc_trace_comm(s->spec->trace, comm);
        int *nodes = malloc((size_t)(c->size ? c->size : 1) * sizeof *nodes);
        if (!nodes)
            return NULL;
        for (int i = 0; i < c->size; i++)
            nodes[i] = s->lay->node_of[c->members[i]];
        s->comm_nodes[comm] = nodes;
    }
    return s->comm_nodes[comm];
}

/* The rank's side of communicator `comm` for collectives. */
static sc_comm_t *coll_comm(session_t *s, int r, int comm)
{
    sc_comm_t *world = sc_world_comm(s->world, r);
    if (comm == 0)
        return world;
    rank_t *rk = &s->ranks[r];
    for (int i = 0; i < rk->ncomms; i++)
        if (rk->comms[i]->comm == comm)
            return &rk->comms[i]->sub.comm;
    const sc_trace_comm_t *c = sc_trace_comm(s->spec->trace, comm);
    int me = sc_trace_cursor_comm_rank(rk->cursor, comm);
    const int *nodes = comm_nodes(s, comm);
    rank_comm_t *rc = malloc(sizeof *rc);
    if (!nodes || !rc || me < 0 ||
        (rk->ncomms == rk->cap_comms &&
         !(rk->comms = realloc(rk->comms, (size_t)(rk->cap_comms = rk->cap_comms ? 2 * rk->cap_comms
                                                                                 : 4) *
                                               sizeof *rk->comms)))) {
        free(rc);
        fail(s, SC_ERR_RUN, "rank %d: out of memory for communicator %d", r, comm);
        return NULL;
    }
    rc->comm = comm;
    sc_subcomm_init(&rc->sub, world, c->members, c->size, me, sc_trace_coll_context(comm));
    rc->sub.comm.node_of = nodes;
    rk->comms[rk->ncomms++] = rc;
    return &rc->sub.comm;
}

static sc_err_t run_collective(session_t *s, int r, const sc_tev_t *ev)
{
    sc_comm_t *comm = coll_comm(s, r, ev->comm);
    if (!comm)
        return SC_ERR_RUN;
    const char *algo = NULL;
    sc_err_t err = sc_trace_coll_run(comm, ev, &s->choice, s->scratch, &algo);
    if (!err && comm->rank == 0 && algo)
        count_use(s, ev->coll, algo);
    return err;
}

/* ---- One rank ---- */

static sc_err_t play(session_t *s, int r, const sc_tev_t *ev)
{
    rank_t *rk = &s->ranks[r];
    sc_comm_t *world = sc_world_comm(s->world, r);
    const sc_trace_t *t = s->spec->trace;
    switch (ev->kind) {
    case SC_TEV_COMPUTE: {
        double speed = sg_host_get_speed(sg_host_self());
        double flops = (ev->flops > 0 ? ev->flops : ev->seconds * speed) / s->spec->compute_scale;
        /* what arrives meanwhile waits for the rank's next call, as in an
         * MPI library without a progress thread (the protocol's rule) */
        if (flops > 0)
            sg_actor_execute(flops);
        return SC_OK;
    }
    case SC_TEV_SEND:
    case SC_TEV_ISEND: {
        int dst = sc_trace_world_rank(t, ev->comm, ev->peer), tag;
        sc_err_t err = sc_trace_world_tag(s->tags, ev->comm, ev->tag, &tag);
        if (err)
            return err;
        if (ev->kind == SC_TEV_SEND)
            return sc_send(world, NULL, (size_t)ev->bytes, dst, tag);
        sc_request_t *req = NULL;
        err = sc_isend(world, NULL, (size_t)ev->bytes, dst, tag, &req);
        if (!err && !slot_put(rk, ev->req, req, ev->bytes))
            fail(s, SC_ERR_RUN, "rank %d: out of memory for requests", r);
        return err ? err : s->error;
    }
    case SC_TEV_RECV:
    case SC_TEV_IRECV: {
        int src = ev->peer == SC_TRACE_ANY ? SC_ANY_SOURCE
                                           : sc_trace_world_rank(t, ev->comm, ev->peer);
        int tag;
        sc_err_t err = sc_trace_world_tag(s->tags, ev->comm, ev->tag, &tag);
        if (err)
            return err;
        if (ev->kind == SC_TEV_RECV)
            return sc_recv(world, NULL, SC_ANY_SIZE, src, tag);
        sc_request_t *req = NULL;
        err = sc_irecv(world, NULL, SC_ANY_SIZE, src, tag, &req);
        if (!err && !slot_put(rk, ev->req, req, ev->bytes))
            fail(s, SC_ERR_RUN, "rank %d: out of memory for requests", r);
        return err ? err : s->error;
    }
    case SC_TEV_WAIT: {
        sc_request_t *small[16], **reqs = ev->nreqs <= 16 ? small
                                                          : malloc((size_t)ev->nreqs * sizeof *reqs);
        if (!reqs)
            return SC_ERR_RUN;
        int n = 0;
        for (int i = 0; i < ev->nreqs; i++)
            if ((reqs[n] = slot_take(rk, ev->reqs[i], NULL)))
                n++;
        sc_err_t err = n ? sc_waitall(world, n, reqs) : SC_OK;
        if (reqs != small)
            free(reqs);
        return err;
    }
    case SC_TEV_TEST:
        for (int i = 0; i < ev->nreqs; i++) {
            uint64_t bytes;
            sc_request_t *req = slot_take(rk, ev->reqs[i], &bytes);
            int flag = 0;
            if (!req)
                continue;
            sc_err_t err = sc_test(world, &req, &flag);
            if (err)
                return err;
            if (!flag && !slot_put(rk, ev->reqs[i], req, bytes))
                return SC_ERR_RUN;
        }
        return SC_OK;
    case SC_TEV_COLL:
        return run_collective(s, r, ev);
    }
    return SC_OK;
}

static sc_tcost_kind_t cost_kind(const sc_tev_t *ev)
{
    switch (ev->kind) {
    case SC_TEV_SEND: return SC_TCOST_SEND;
    case SC_TEV_RECV: return SC_TCOST_RECV;
    case SC_TEV_ISEND: return SC_TCOST_ISEND;
    case SC_TEV_IRECV: return SC_TCOST_IRECV;
    case SC_TEV_WAIT: return SC_TCOST_WAIT;
    case SC_TEV_TEST: return SC_TCOST_TEST;
    default: return (sc_tcost_kind_t)ev->coll;
    }
}

/* The bytes a wait is charged by: its largest request's. */
static uint64_t wait_bytes(rank_t *rk, const sc_tev_t *ev)
{
    uint64_t most = 0;
    for (int i = 0; i < ev->nreqs; i++) {
        const sc_id_entry_t *e = sc_id_table_find(&rk->requests, ev->reqs[i]);
        if (e && e->number > most)
            most = e->number;
    }
    return most;
}

static void rank_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    sc_comm_t *world = sg_actor_self_get_data();
    session_t *s = session;
    int r = world->rank;
    rank_t *rk = &s->ranks[r];
    sc_transport_begin(world);
    sg_actor_yield(); /* every rank listens before any sends */
    s->start[r] = simgrid_get_clock();
    sc_err_t err = SC_OK;
    sc_tev_t ev;
    int got;
    while (!err && !s->error && (got = sc_trace_next(rk->cursor, &ev)) == 1) {
        double before = simgrid_get_clock();
        uint64_t bytes = ev.kind == SC_TEV_WAIT || ev.kind == SC_TEV_TEST ? wait_bytes(rk, &ev)
                                                                          : ev.bytes;
        err = play(s, r, &ev);
        double spent = simgrid_get_clock() - before;
        if (ev.kind == SC_TEV_COMPUTE) {
            s->compute[r] += spent;
        } else {
            s->mpi[r] += spent;
            charge(s, cost_kind(&ev), bytes, spent, 1);
        }
    }
    if (!err && !s->error && got < 0)
        fail(s, SC_ERR_INPUT, "%s", sc_error_message());
    /* What the rank never waited for is waited for at its end, as SMPI's
     * replay does. */
    for (size_t k = 0; !err && !s->error && k < rk->requests.cap; k++)
        if (rk->requests.slots[k].used) {
            sc_request_t *req = rk->requests.slots[k].ptr;
            rk->requests.slots[k].used = 0;
            err = sc_wait(world, &req);
        }
    s->finish[r] = simgrid_get_clock();
    sc_err_t end = sc_transport_end(world);
    if (!err)
        err = end;
    if (err)
        fail(s, err, "%s", sc_error_message());
    for (int i = 0; i < rk->ncomms; i++)
        sc_comm_release(&rk->comms[i]->sub.comm);
    s->finished[r] = 1;
}

static void teardown(session_t *s)
{
    for (int r = 0; s->ranks && r < s->np; r++) {
        rank_t *rk = &s->ranks[r];
        sc_trace_cursor_close(rk->cursor);
        sc_id_table_free(&rk->requests);
        for (int i = 0; i < rk->ncomms; i++)
            free(rk->comms[i]);
        free(rk->comms);
    }
    for (int c = 0; s->comm_nodes && c < sc_trace_ncomms(s->spec->trace); c++)
        free(s->comm_nodes[c]);
    free(s->comm_nodes);
    free(s->ranks);
    sc_trace_tags_free(s->tags);
    sc_world_destroy(s->world);
    sc_scratch_destroy(s->scratch);
    free(s->start);
    free(s->finish);
    free(s->mpi);
    free(s->compute);
    free(s->finished);
    sc_model_destroy(&s->model);
}

/* Names the ranks a deadlock left waiting, and the events they wait in. */
static sc_err_t deadlock(session_t *s, int unfinished)
{
    char text[1024];
    int n = snprintf(text, sizeof text, "the replay of trace '%s' deadlocked: %d of %d ranks "
                     "never finished;", sc_trace_path(s->spec->trace), unfinished, s->np);
    int shown = 0;
    for (int r = 0; r < s->np && shown < 4 && n > 0 && (size_t)n < sizeof text; r++)
        if (!s->finished[r]) {
            n += snprintf(text + n, sizeof text - (size_t)n, "%s %s", shown ? ";" : "",
                          sc_trace_cursor_where(s->ranks[r].cursor));
            shown++;
        }
    if (n > 0 && (size_t)n < sizeof text && shown < unfinished)
        snprintf(text + n, sizeof text - (size_t)n, "; ...");
    sc_err_t err = sc_engine_unfinished("the replay", unfinished, s->np);
    /* SimGrid's lost event says so; a deadlock says where */
    return strstr(sc_error_message(), "deadlocked") ? sc_error(SC_ERR_RUN, "%s", text) : err;
}

static sc_err_t simulate(void *arg, sc_wire_t *out)
{
    const layout_t *lay = arg;
    const sc_trace_run_spec_t *spec = lay->spec;
    int p = lay->np, ncomms = sc_trace_ncomms(spec->trace);
    session_t s = {.spec = spec, .lay = lay, .np = p,
                   .ranks = calloc((size_t)p, sizeof *s.ranks),
                   .start = calloc((size_t)p, sizeof(double)),
                   .finish = calloc((size_t)p, sizeof(double)),
                   .mpi = calloc((size_t)p, sizeof(double)),
                   .compute = calloc((size_t)p, sizeof(double)),
                   .finished = calloc((size_t)p, sizeof(int)),
                   .comm_nodes = calloc((size_t)ncomms, sizeof(int *)),
                   .tags = sc_trace_tags_new(ncomms),
                   .choice = {.profile = spec->profile}};
    memcpy(s.choice.forced, spec->forced, sizeof s.choice.forced);
    session = &s;
    sc_err_t err = sc_model_init(&s.model, spec->plat, p, lay->node_of, lay->domain_of, NULL, NULL,
                                 sizeof(double));
    if (!err && (!s.ranks || !s.start || !s.finish || !s.mpi || !s.compute || !s.finished ||
                 !s.comm_nodes || !s.tags || !(s.scratch = sc_scratch_create())))
        err = sc_error(SC_ERR_RUN, "out of memory for %d ranks", p);
    for (int r = 0; !err && r < p; r++)
        err = sc_trace_cursor_open(spec->trace, r, &s.ranks[r].cursor);
    if (!err)
        err = sc_ranks_start(spec->plat, p, lay->node_of, lay->domain_of, &s.model, s.scratch,
                             lay->receives, spec->messages, rank_main, &s.world);
    if (!err) {
        sc_child_step("replaying trace '%s' on %d ranks", sc_trace_path(spec->trace), p);
        int unfinished = sc_ranks_simulate(s.finished, p);
        if (s.error)
            err = sc_error(s.error, "%s", s.error_msg);
        else if (unfinished)
            err = deadlock(&s, unfinished);
        else
            err = sc_world_check(s.world);
    }
    if (!err) {
        sc_wire_put_int(out, sc_world_receives_short(s.world));
        sc_traffic_t total;
        double max_rank_bytes;
        sc_ranks_traffic(s.world, p, &total, &max_rank_bytes);
        sc_wire_put(out, s.start, (size_t)p * sizeof *s.start);
        sc_wire_put(out, s.finish, (size_t)p * sizeof *s.finish);
        sc_wire_put(out, s.mpi, (size_t)p * sizeof *s.mpi);
        sc_wire_put(out, s.compute, (size_t)p * sizeof *s.compute);
        sc_wire_put(out, &total, sizeof total);
        sc_wire_put_double(out, max_rank_bytes);
        sc_wire_put(out, s.costs, sizeof s.costs);
        sc_wire_put_int(out, s.nuses);
        sc_wire_put(out, s.uses, (size_t)s.nuses * sizeof *s.uses);
        if (spec->messages)
            sc_ranks_put_messages(s.world, out);
    }
    teardown(&s);
    session = NULL;
    return err;
}

/* The ranks' ops played by an actor per node or by the driver
 * (spec->replay): the same results but each call's time. */
static sc_err_t simulate_replay(void *arg, sc_wire_t *out)
{
    const layout_t *lay = arg;
    const sc_trace_run_spec_t *spec = lay->spec;
    int p = lay->np;
    sc_model_t model = {0};
    sc_trace_source_t *source = NULL;
    sc_trace_choice_t choice = {.profile = spec->profile};
    memcpy(choice.forced, spec->forced, sizeof choice.forced);
    sc_replay_result_t res = {.start = calloc((size_t)p, sizeof(double)),
                              .finish = calloc((size_t)p, sizeof(double))};
    double *mpi = calloc((size_t)p, sizeof(double));
    sc_err_t err = sc_model_init(&model, spec->plat, p, lay->node_of, lay->domain_of, NULL, NULL,
                                 sizeof(double));
    if (!err && (!res.start || !res.finish || !mpi))
        err = sc_error(SC_ERR_RUN, "out of memory for %d ranks", p);
    if (!err)
        err = sc_trace_source_new(spec->trace, &model, &choice, spec->compute_scale, &source);
    if (!err) {
        sc_child_step("loading the platform");
        sc_engine_boot(spec->plat, sc_place_nodes_used(spec->plat, p, lay->node_of));
        sc_child_step("replaying trace '%s' on %d ranks", sc_trace_path(spec->trace), p);
        sc_op_source_t *ops = sc_trace_source_ops(source);
        err = spec->replay == SC_REPLAY_MAESTRO ? sc_driver_run(ops, &model, &res)
                                                : sc_replay_run(ops, &model, lay->receives, &res);
    }
    if (!err) {
        const double *compute = sc_trace_source_compute(source);
        for (int r = 0; r < p; r++)
            mpi[r] = res.finish[r] - res.start[r] - compute[r];
        sc_tcoll_use_t uses[SC_TRACE_MAX_USES];
        int nuses = 0;
        for (; nuses < SC_TRACE_MAX_USES; nuses++) {
            const char *name;
            if (!sc_trace_source_use(source, nuses, &uses[nuses].coll, &name,
                                     &uses[nuses].calls))
                break;
            snprintf(uses[nuses].name, sizeof uses[nuses].name, "%s", name);
        }
        static const sc_tcost_t none[SC_TCOST_KINDS][SC_TCOST_BUCKETS];
        sc_wire_put_int(out, res.receives_short);
        sc_wire_put(out, res.start, (size_t)p * sizeof(double));
        sc_wire_put(out, res.finish, (size_t)p * sizeof(double));
        sc_wire_put(out, mpi, (size_t)p * sizeof(double));
        sc_wire_put(out, compute, (size_t)p * sizeof(double));
        sc_wire_put(out, &res.total, sizeof res.total);
        sc_wire_put_double(out, res.max_rank_bytes);
        sc_wire_put(out, none, sizeof none);
        sc_wire_put_int(out, nuses);
        sc_wire_put(out, uses, (size_t)nuses * sizeof *uses);
    }
    sc_trace_source_free(source);
    sc_model_destroy(&model);
    free(res.start);
    free(res.finish);
    free(mpi);
    return err;
}

/* ---- Back in the parent ---- */

sc_err_t sc_trace_run(const sc_trace_run_spec_t *spec, sc_trace_run_result_t *res)
{
    memset(res, 0, sizeof *res);
    layout_t lay;
    sc_err_t err = layout_init(spec, &lay);
    if (err)
        return err;
    int p = lay.np;
    res->np = p;
    res->start = malloc((size_t)p * sizeof(double));
    res->finish = malloc((size_t)p * sizeof(double));
    res->mpi = malloc((size_t)p * sizeof(double));
    res->compute = malloc((size_t)p * sizeof(double));
    res->node_of = malloc((size_t)p * sizeof(int));
    res->domain_of = malloc((size_t)p * sizeof(int));
    if (!res->start || !res->finish || !res->mpi || !res->compute || !res->node_of ||
        !res->domain_of) {
        err = sc_error(SC_ERR_RUN, "out of memory for %d ranks", p);
        goto cleanup;
    }
    char what[600];
    snprintf(what, sizeof what, "the replay of trace '%s' (%d ranks) failed",
             sc_trace_path(spec->trace), p);
    sc_wire_t in;
    int short_of;
    if ((err = sc_ranks_run_child(spec->replay ? simulate_replay : simulate, &lay, &lay.receives,
                                  what, &in, &short_of)))
        goto cleanup;
    sc_traffic_t total;
    int overflow = 0;
    int ok = short_of >= 0 && sc_wire_get(&in, res->start, (size_t)p * sizeof(double)) &&
             sc_wire_get(&in, res->finish, (size_t)p * sizeof(double)) &&
             sc_wire_get(&in, res->mpi, (size_t)p * sizeof(double)) &&
             sc_wire_get(&in, res->compute, (size_t)p * sizeof(double)) &&
             sc_wire_get(&in, &total, sizeof total) &&
             sc_wire_get_double(&in, &res->max_rank_bytes) &&
             sc_wire_get(&in, res->costs, sizeof res->costs) &&
             sc_wire_get_int(&in, &res->nuses) && res->nuses >= 0 &&
             res->nuses <= SC_TRACE_MAX_USES &&
             sc_wire_get(&in, res->uses, (size_t)res->nuses * sizeof *res->uses);
    if (ok && spec->messages)
        ok = sc_ranks_get_messages(&in, &res->msgs, &res->nmsgs, &overflow, &err);
    sc_wire_free(&in);
    if (!err && overflow)
        err = sc_error(SC_ERR_INPUT, "trace '%s' sends more than %ld messages, more than a "
                       "timeline records", sc_trace_path(spec->trace), SC_RUN_MAX_MESSAGES);
    if (!err && !ok)
        err = sc_error(SC_ERR_RUN, "%s: its results were cut short", what);
    if (err)
        goto cleanup;
    sc_traffic_add(spec->plat, &total, 1, res->messages, res->bytes);
    memcpy(res->level_messages, total.level_messages, sizeof res->level_messages);
    memcpy(res->level_bytes, total.level_bytes, sizeof res->level_bytes);
    res->nlevels = spec->plat->nlevels > 2 ? spec->plat->nlevels : 2;
    res->nodes = sc_place_nodes_used(spec->plat, p, lay.node_of);
    memcpy(res->node_of, lay.node_of, (size_t)p * sizeof(int));
    memcpy(res->domain_of, lay.domain_of, (size_t)p * sizeof(int));
    double first = res->start[0], last = res->finish[0];
    for (int r = 1; r < p; r++) {
        if (res->start[r] < first)
            first = res->start[r];
        if (res->finish[r] > last)
            last = res->finish[r];
    }
    res->sim_time_s = last - first;
cleanup:
    layout_destroy(&lay);
    if (err)
        sc_trace_run_result_destroy(res);
    return err;
}

void sc_trace_run_result_destroy(sc_trace_run_result_t *res)
{
    free(res->start);
    free(res->finish);
    free(res->mpi);
    free(res->compute);
    free(res->msgs);
    free(res->node_of);
    free(res->domain_of);
    res->start = res->finish = res->mpi = res->compute = NULL;
    res->msgs = NULL;
    res->node_of = res->domain_of = NULL;
}
