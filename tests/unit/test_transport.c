/* MPI semantics of the simulated point-to-point layer, and its failures.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "models/collectives.h"
#include "suites.h"

/* Runs `fn` on np ranks of ib4x (eager limits 64 KiB in a node, 6140 bytes
 * across) and returns sc_run's result. */
static sc_err_t run_on_ib4x(sc_coll_fn fn, int np, sc_placement_t placement)
{
    const sc_platform_t *plat = sc_test_platform("platforms/ib4x.xml");
    if (!plat)
        return SC_ERR_RUN;
    sc_algo_t algo = {"test", SC_BARRIER, fn, sc_model_barrier_dissemination, 0, "test program"};
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

void sc_suite_transport(void)
{
    CU_pSuite s = CU_add_suite("transport", NULL, NULL);
    CU_add_test(s, "order between two ranks", test_order_between_two_ranks);
    CU_add_test(s, "tags received out of order", test_tags);
    CU_add_test(s, "messages to oneself", test_self_messages);
    CU_add_test(s, "failures are reported", test_failures);
}
