/* MPI semantics of the simulated point-to-point layer, and its failures.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "algorithms/steps.h"
#include "sim/protocol/streams.h"
#include "suites.h"

/* Runs `fn` on np ranks of ib4x (eager limits 64 KiB in a node, 6140 bytes
 * across) and returns sc_run's result. */
static sc_err_t run_on_ib4x(sc_coll_fn fn, int np, sc_placement_t placement)
{
    const sc_platform_t *plat = sc_test_platform("platforms/ib4x.xml");
    if (!plat)
        return SC_ERR_RUN;
    sc_algo_t algo = {"test", SC_BARRIER, fn, 0, "test program"};
    sc_run_spec_t spec = {.plat = plat, .algo = &algo, .np = np, .placement = placement,
                          .payload = 1};
    sc_run_result_t res;
    sc_err_t err = sc_run(&spec, &res);
    if (!err)
        sc_run_result_destroy(&res);
    return err;
}

static void fill(unsigned char *buf, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = (unsigned char)(seed * 31 + i * 7);
}

static int holds(const unsigned char *buf, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        if (buf[i] != (unsigned char)(seed * 31 + i * 7))
            return 0;
    return 1;
}

/* Rank 0 sends a rendezvous message, then short eager ones, all with the
 * same tag: rank 1 must get them in that order although the short ones
 * would arrive first. */
static const size_t order_sizes[] = {200000, 10, 3000, 0, 70000, 1};
enum { NORDER = sizeof order_sizes / sizeof order_sizes[0] };

static sc_err_t ordered_stream(sc_comm_t *comm, const sc_coll_args_t *args)
{
    (void)args;
    unsigned char *buf = malloc(order_sizes[0]);
    sc_err_t err = SC_OK;
    for (int i = 0; i < NORDER && !err; i++) {
        if (comm->rank == 0) {
            fill(buf, order_sizes[i], i);
            err = sc_send(comm, buf, order_sizes[i], 1, 7);
        } else if (comm->rank == 1) {
            err = sc_recv(comm, buf, order_sizes[i], 0, 7);
            if (!err && !holds(buf, order_sizes[i], i))
                err = sc_error(SC_ERR_RUN, "message %d arrived out of order", i);
        }
    }
    free(buf);
    return err;
}

static void test_order_between_two_ranks(void)
{
    CU_ASSERT_EQUAL(run_on_ib4x(ordered_stream, 2, SC_PLACE_BLOCK), SC_OK);  /* same node */
    CU_ASSERT_EQUAL(run_on_ib4x(ordered_stream, 2, SC_PLACE_CYCLIC), SC_OK); /* two nodes */
}

/* Messages with different tags may be received in any order; unexpected
 * eager and rendezvous messages wait until their receive is posted. */
static sc_err_t tags_out_of_order(sc_comm_t *comm, const sc_coll_args_t *args)
{
    (void)args;
    static const size_t sizes[] = {100, 100000}; /* eager, rendezvous */
    unsigned char *a = malloc(100000), *b = malloc(100000);
    sc_err_t err = SC_OK;
    for (int s = 0; s < 2 && !err; s++) {
        size_t n = sizes[s];
        if (comm->rank == 0) {
            sc_request_t *reqs[2];
            fill(a, n, 1);
            fill(b, n, 2);
            err = sc_isend(comm, a, n, 1, 1, &reqs[0]);
            if (!err)
                err = sc_isend(comm, b, n, 1, 2, &reqs[1]);
            if (!err)
                err = sc_waitall(comm, 2, reqs);
        } else if (comm->rank == 1) {
            err = sc_recv(comm, b, n, 0, 2);
            if (!err)
                err = sc_recv(comm, a, n, 0, 1);
            if (!err && !(holds(a, n, 1) && holds(b, n, 2)))
                err = sc_error(SC_ERR_RUN, "tags mixed up");
        }
    }
    free(a);
    free(b);
    return err;
}

static void test_tags(void)
{
    CU_ASSERT_EQUAL(run_on_ib4x(tags_out_of_order, 2, SC_PLACE_CYCLIC), SC_OK);
}

static sc_err_t to_myself(sc_comm_t *comm, const sc_coll_args_t *args)
{
    (void)args;
    unsigned char out[5000], in[5000];
    fill(out, sizeof out, comm->rank);
    sc_err_t err = sc_sendrecv(comm, out, sizeof out, comm->rank, 3, in, sizeof in, comm->rank, 3);
    if (!err && !holds(in, sizeof in, comm->rank))
        err = sc_error(SC_ERR_RUN, "self message corrupted");
    return err;
}

static void test_self_messages(void)
{
    CU_ASSERT_EQUAL(run_on_ib4x(to_myself, 3, SC_PLACE_BLOCK), SC_OK);
}

/* The failures: each is a run error with a message naming it. */
static sc_err_t size_mismatch(sc_comm_t *comm, const sc_coll_args_t *args)
{
    (void)args;
    char buf[64] = {0};
    if (comm->rank == 0)
        return sc_send(comm, buf, 10, 1, 0);
    return sc_recv(comm, buf, 20, 0, 0);
}

static sc_err_t everyone_waits(sc_comm_t *comm, const sc_coll_args_t *args)
{
    (void)args;
    char c;
    return sc_recv(comm, &c, 1, (comm->rank + 1) % comm->size, 0);
}

static sc_err_t one_too_many(sc_comm_t *comm, const sc_coll_args_t *args)
{
    (void)args;
    char c = 0;
    return comm->rank == 0 ? sc_send(comm, &c, 1, 1, 0) : SC_OK;
}

static void test_failures(void)
{
    CU_ASSERT_EQUAL(run_on_ib4x(size_mismatch, 2, SC_PLACE_BLOCK), SC_ERR_RUN);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "expected 20 bytes from rank 0"));
    CU_ASSERT_EQUAL(run_on_ib4x(everyone_waits, 4, SC_PLACE_BLOCK), SC_ERR_RUN);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "deadlocked"));
    CU_ASSERT_EQUAL(run_on_ib4x(one_too_many, 2, SC_PLACE_BLOCK), SC_ERR_RUN);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "rank 1 was sent 1 message(s) but received 0"));
}

/* Three ranks send to rank 0, which receives from any source: it gets
 * each message once, learns who sent it, and the lowest index of several
 * complete receives wins. */
static sc_err_t from_anyone(sc_comm_t *comm, const sc_coll_args_t *args)
{
    (void)args;
    int p = comm->size;
    if (comm->rank != 0) {
        unsigned char buf[100];
        fill(buf, sizeof buf, comm->rank);
        return sc_send(comm, buf, sizeof buf, 0, 4);
    }
    unsigned char bufs[3][100];
    sc_request_t *reqs[3] = {NULL, NULL, NULL};
    sc_err_t err = SC_OK;
    for (int i = 0; i < p - 1 && !err; i++)
        err = sc_irecv(comm, bufs[i], 100, SC_ANY_SOURCE, 4, &reqs[i]);
    int seen = 0;
    for (int k = 0; k < p - 1 && !err; k++) {
        int index, source;
        err = sc_waitany(comm, p - 1, reqs, &index, &source);
        if (err)
            break;
        if (index < 0 || source < 1 || source >= p || (seen & 1 << source) ||
            !holds(bufs[index], 100, source))
            return sc_error(SC_ERR_RUN, "any-source receive %d: index %d, source %d", k, index,
                            source);
        seen |= 1 << source;
    }
    int index = 5;
    if (!err)
        err = sc_waitany(comm, p - 1, reqs, &index, NULL);
    if (!err && index != -1)
        err = sc_error(SC_ERR_RUN, "waitany on no request gave index %d", index);
    return err;
}

static void test_any_source(void)
{
    CU_ASSERT_EQUAL(run_on_ib4x(from_anyone, 4, SC_PLACE_BLOCK), SC_OK);
    CU_ASSERT_EQUAL(run_on_ib4x(from_anyone, 4, SC_PLACE_CYCLIC), SC_OK);
}

/* Rank 1 posts a receive for tag 5 that nothing will match and cancels
 * it; a receive whose message has arrived is not cancelled but completes.
 * Rank 0's rendezvous message for tag 6 then waits to be probed and is
 * drained in the background by a receive of any size rank 1 frees. */
static sc_err_t cancel_probe_free(sc_comm_t *comm, const sc_coll_args_t *args)
{
    (void)args;
    static unsigned char big[100000];
    unsigned char small[10];
    sc_err_t err = SC_OK;
    if (comm->rank == 0) {
        fill(small, sizeof small, 7);
        err = sc_send(comm, small, sizeof small, 1, 7);
        if (!err)
            err = sc_send(comm, small, sizeof small, 1, 8);
        sc_request_t *req = NULL;
        if (!err)
            err = sc_isend(comm, big, sizeof big, 1, 6, &req);
        if (!err)
            err = sc_send(comm, small, sizeof small, 1, 9);
        return err ? err : sc_wait(comm, &req);
    }
    if (comm->rank != 1)
        return SC_OK;
    sc_request_t *never = NULL, *seven = NULL;
    int cancelled = 0, flag = 0, source = -1;
    size_t bytes = 0;
    err = sc_irecv(comm, small, sizeof small, 0, 5, &never);
    if (!err)
        err = sc_cancel(comm, &never, &cancelled);
    if (!err && (!cancelled || never))
        return sc_error(SC_ERR_RUN, "an unmatched receive was not cancelled");
    if (!err)
        err = sc_irecv(comm, small, sizeof small, SC_ANY_SOURCE, SC_ANY_TAG, &seven);
    if (!err)
        err = sc_test(comm, &seven, &flag);
    if (!err && flag)
        return sc_error(SC_ERR_RUN, "a receive completed before its message could arrive");
    if (!err) /* tag 8 comes after tag 7: once it is in, 7 has matched */
        err = sc_recv(comm, small, sizeof small, 0, 8);
    if (!err)
        err = sc_cancel(comm, &seven, &cancelled);
    if (!err && (cancelled || !seven))
        return sc_error(SC_ERR_RUN, "a matched receive was cancelled");
    if (!err)
        err = sc_test(comm, &seven, &flag);
    if (!err && (!flag || seven))
        return sc_error(SC_ERR_RUN, "a matched receive did not test complete");
    if (!err)
        err = sc_recv(comm, small, sizeof small, 0, 9);
    if (!err)
        err = sc_iprobe(comm, 0, 6, &flag, &source, &bytes);
    if (!err && (!flag || source != 0 || bytes != sizeof big))
        return sc_error(SC_ERR_RUN, "probe: flag %d, source %d, %zu bytes", flag, source, bytes);
    if (!err)
        err = sc_iprobe(comm, SC_ANY_SOURCE, 5, &flag, NULL, NULL);
    if (!err && flag)
        return sc_error(SC_ERR_RUN, "probe found a message for tag 5");
    sc_request_t *drain = NULL;
    if (!err)
        err = sc_irecv(comm, NULL, SC_ANY_SIZE, 0, SC_ANY_TAG, &drain);
    if (!err)
        err = sc_request_free(comm, &drain);
    return err;
}

/* A freed receive whose message never comes still fails the run. */
static sc_err_t free_lost(sc_comm_t *comm, const sc_coll_args_t *args)
{
    (void)args;
    sc_request_t *req = NULL;
    if (comm->rank != 1)
        return SC_OK;
    sc_err_t err = sc_irecv(comm, NULL, SC_ANY_SIZE, 0, SC_ANY_TAG, &req);
    return err ? err : sc_request_free(comm, &req);
}

static sc_err_t cancel_send(sc_comm_t *comm, const sc_coll_args_t *args)
{
    (void)args;
    char c = 0;
    sc_request_t *req = NULL;
    int cancelled;
    if (comm->rank == 1)
        return sc_recv(comm, &c, 1, 0, 0);
    sc_err_t err = sc_isend(comm, &c, 1, 1, 0, &req);
    sc_err_t cerr = err ? err : sc_cancel(comm, &req, &cancelled);
    sc_wait(comm, &req);
    return cerr;
}

static void test_cancel_probe_free(void)
{
    CU_ASSERT_EQUAL(run_on_ib4x(cancel_probe_free, 2, SC_PLACE_BLOCK), SC_OK);
    CU_ASSERT_EQUAL(run_on_ib4x(cancel_probe_free, 2, SC_PLACE_CYCLIC), SC_OK);
    CU_ASSERT_EQUAL(run_on_ib4x(free_lost, 2, SC_PLACE_BLOCK), SC_ERR_RUN);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "deadlocked"));
    CU_ASSERT_EQUAL(run_on_ib4x(cancel_send, 2, SC_PLACE_BLOCK), SC_ERR_RUN);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "only receives can be cancelled"));
}

/* A rank's streams stay sorted by peer, each keeping its numbers, as the
 * table grows by 8 and then by doubling: peers met in a scrambled order. */
static void test_streams(void)
{
    enum { peers = 300 };
    sc_streams_t streams = {0};
    for (int i = 0; i < peers; i++) {
        int peer = (i * 7919) % peers; /* 7919 is prime: every peer once */
        sc_stream_t *st = sc_stream(&streams, peer);
        CU_ASSERT_PTR_NOT_NULL_FATAL(st);
        CU_ASSERT_EQUAL(st->next_out, 0);
        st->next_out = (unsigned)peer + 1;
        st->next_in = 2 * (unsigned)peer;
    }
    CU_ASSERT_EQUAL(streams.n, peers);
    CU_ASSERT_TRUE(streams.cap >= peers && streams.cap <= 2 * peers);
    for (int peer = 0; peer < peers; peer++) {
        CU_ASSERT_EQUAL(streams.v[peer].peer, peer);
        const sc_stream_t *st = sc_stream(&streams, peer);
        CU_ASSERT_EQUAL(st->next_out, (unsigned)peer + 1);
        CU_ASSERT_EQUAL(st->next_in, 2 * (unsigned)peer);
    }
    CU_ASSERT_EQUAL(streams.n, peers);
    sc_streams_free(&streams);
    CU_ASSERT_PTR_NULL(streams.v);
}

void sc_suite_transport(void)
{
    CU_pSuite s = CU_add_suite("transport", NULL, NULL);
    CU_add_test(s, "order between two ranks", test_order_between_two_ranks);
    CU_add_test(s, "tags received out of order", test_tags);
    CU_add_test(s, "messages to oneself", test_self_messages);
    CU_add_test(s, "failures are reported", test_failures);
    CU_add_test(s, "receives from any source", test_any_source);
    CU_add_test(s, "cancel, test, probe, free", test_cancel_probe_free);
    CU_add_test(s, "streams sorted by peer as they grow", test_streams);
}
