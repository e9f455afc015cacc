/* The cost model as an evaluator (evaluate.h).
 *
 * A discrete-event loop over play.c's ranks, as the driver (driver.cpp)
 * runs them, with SimGrid's network replaced by the cost of an idle
 * route: what is due at an instant (envelopes arriving, ranks no longer
 * busy) is handed on first, in the order it was queued, then the ranks
 * that may go on, by rank, as the replay's and the driver's ranks do.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "evaluate.h"
#include "due_queue.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    sc_player_t pl;
    sc_due_queue_t due; /* envelopes arriving, ranks whose busy time ends (env NULL) */
    double now;         /* the instant being played */
    int *ready, nready, *resuming; /* ranks that may go on, np each at most */
    unsigned char *listed;         /* by rank: in ready */
} evaluator_t;

/* One evaluation runs at a time in a process, as play.c's callbacks
 * assume. */
static evaluator_t *E;

static void push(double date, sc_envelope_t *env, int rank)
{
    if (!sc_due_push(&E->due, date, env, rank)) {
        if (env)
            sc_envelope_free(env);
        sc_play_fail(&E->pl, "out of memory evaluating %d ranks", E->pl.np);
    }
}

static void make_ready(int r)
{
    if (!E->listed[r]) {
        E->listed[r] = 1;
        E->ready[E->nready++] = r;
    }
}

/* An envelope carrying `data` bytes arrives its level's wire time after it
 * left, as on an idle route (a header alone too: sc_protocol_ready). */
static void post(sc_player_t *pl, sc_envelope_t *env, size_t data)
{
    const sc_model_t *model = pl->model;
    env->left = E->now;
    push(E->now + sc_wire_time(model->plat, sc_model_level(model, env->src, env->dst), data), env,
         -1);
}

static void put_data(sc_player_t *pl, sc_envelope_t *env)
{
    post(pl, env, env->bytes);
}

static void busy(sc_player_t *pl, int r)
{
    push(pl->ranks[r].busy_until, NULL, r);
}

static void wait_over(sc_player_t *pl, int r)
{
    (void)pl;
    make_ready(r);
}

static const sc_play_ops_t evaluate_ops = {
    .post = post, .put_data = put_data, .busy = busy, .wait_over = wait_over};

/* Hands an arrived envelope to its rank; rendezvous data completes its
 * send too, both ends at once. */
static void hand_on(sc_envelope_t *env)
{
    int src = env->src;
    int data = env->kind == SC_ENV_DATA;
    uint32_t send_req = (uint32_t)env->sreq;
    sc_play_deliver(&E->pl, env);
    if (data)
        sc_play_complete(&E->pl, src, send_req);
}

/* The latest date due at time t, as the engines allow for rounding
 * (sc_held_due, sc_play_can_resume). */
static double due_by(double t)
{
    return t + 1e-12 * (t > 1 ? t : 1);
}

static int by_rank(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* The ranks made ready, by rank, into E->resuming. A sort of them was 5%
 * of the evaluation at 262,144 ranks (Bruck): they mostly come in order
 * already (those due at one date were queued by ranks resuming in order),
 * and when many do not, the marks in `listed` give the order in one pass. */
static void ready_by_rank(int n)
{
    int sorted = 1;
    for (int i = 1; i < n && sorted; i++)
        sorted = E->ready[i] > E->ready[i - 1];
    if (!sorted && n > E->pl.np / 32) {
        for (int r = 0, k = 0; k < n; r++)
            if (E->listed[r])
                E->resuming[k++] = r;
        return;
    }
    memcpy(E->resuming, E->ready, (size_t)n * sizeof *E->ready);
    if (!sorted)
        qsort(E->resuming, (size_t)n, sizeof *E->resuming, by_rank);
}

static void run(void)
{
    while (!sc_due_empty(&E->due) && !E->pl.failed) {
        double t = sc_due_first(&E->due), by = due_by(t);
        E->now = t;
        while (!sc_due_empty(&E->due) && sc_due_first(&E->due) <= by && !E->pl.failed) {
            sc_due_t d = sc_due_pop(&E->due);
            if (d.env)
                hand_on(d.env);
            else
                make_ready(d.rank);
        }
        /* The ranks that may go on, by rank; those made ready meanwhile
         * go on in the next round, at the same instant. */
        while (E->nready > 0 && !E->pl.failed) {
            int n = E->nready;
            ready_by_rank(n);
            E->nready = 0;
            for (int i = 0; i < n; i++)
                E->listed[E->resuming[i]] = 0;
            for (int i = 0; i < n && !E->pl.failed; i++)
                if (sc_play_can_resume(&E->pl, E->resuming[i], t))
                    sc_play_advance(&E->pl, E->resuming[i], t);
        }
    }
    /* a failure leaves envelopes in flight */
    while (!sc_due_empty(&E->due)) {
        sc_due_t d = sc_due_pop(&E->due);
        if (d.env)
            sc_envelope_free(d.env);
    }
}

sc_err_t sc_evaluate(sc_op_source_t *source, const sc_model_t *model, const double *start,
                     double *finish, sc_traffic_t *total)
{
    int p = source->np;
    sc_traffic_t ignored;
    evaluator_t ev = {0};
    sc_err_t err = sc_play_init(&ev.pl, source, model, &evaluate_ops, total ? total : &ignored,
                                finish);
    if (err)
        return err;
    ev.ready = malloc((size_t)p * sizeof *ev.ready);
    ev.resuming = malloc((size_t)p * sizeof *ev.resuming);
    ev.listed = calloc((size_t)p, 1);
    E = &ev;
    if (!ev.ready || !ev.resuming || !ev.listed) {
        err = sc_error(SC_ERR_RUN, "out of memory evaluating %d ranks", p);
    } else {
        /* every rank starts as if it had been busy until its start */
        for (int r = 0; r < p; r++) {
            ev.pl.ranks[r].state = SC_RANK_BUSY;
            ev.pl.ranks[r].busy_until = start ? start[r] : 0;
            push(ev.pl.ranks[r].busy_until, NULL, r);
        }
        run();
        double ignored_bytes;
        err = sc_play_result(&ev.pl, &ignored_bytes, NULL);
    }
    sc_play_destroy(&ev.pl);
    sc_due_free(&ev.due);
    free(ev.ready);
    free(ev.resuming);
    free(ev.listed);
    E = NULL;
    return err;
}
