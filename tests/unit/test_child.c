/* Tests of the child processes simulations run in: results, errors and
 * deaths come back as such, and sanitizer reports are not swallowed.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <limits.h>
#include <signal.h>
#include <string.h>

#include "sim/simgrid/child.h"
#include "suites.h"

static sc_err_t answer(void *arg, sc_wire_t *out)
{
    sc_wire_put_int(out, *(int *)arg);
    return SC_OK;
}

static sc_err_t refuse(void *arg, sc_wire_t *out)
{
    (void)arg;
    (void)out;
    return sc_error(SC_ERR_INPUT, "refused in the child");
}

static sc_err_t crash(void *arg, sc_wire_t *out)
{
    (void)arg;
    (void)out;
    sc_child_step("a first step, longer than the last, which alone is said");
    sc_child_step("crashing on purpose");
    raise(SIGABRT); /* as SimGrid does on an error */
    return SC_OK;
}

static void test_results_and_errors(void)
{
    int x = 42, got = 0;
    sc_wire_t in;
    CU_ASSERT_EQUAL_FATAL(sc_child_run(answer, &x, SC_ERR_RUN, "answer", &in), SC_OK);
    CU_ASSERT_TRUE(sc_wire_get_int(&in, &got));
    CU_ASSERT_EQUAL(got, 42);
    sc_wire_free(&in);
    CU_ASSERT_EQUAL(sc_child_run(refuse, NULL, SC_ERR_RUN, "refuse", &in), SC_ERR_INPUT);
    CU_ASSERT_STRING_EQUAL(sc_error_message(), "refused in the child");
    CU_ASSERT_EQUAL(sc_child_run(crash, NULL, SC_ERR_RUN, "crash", &in), SC_ERR_RUN);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "crash while crashing on purpose: the "
                                                      "process died of signal 6"));
}

#ifdef SC_SANITIZE
static sc_err_t overflow(void *arg, sc_wire_t *out)
{
    (void)arg;
    volatile int big = INT_MAX;
    int wrapped = big + 1; /* undefined: UBSan reports it */
    sc_wire_put_int(out, wrapped);
    return SC_OK;
}

/* The child's stderr is a log the parent reads only on failure; a
 * sanitizer report must come out all the same, and fail the run. */
static void test_sanitizer_report(void)
{
    sc_wire_t in;
    CU_ASSERT_EQUAL(sc_child_run(overflow, NULL, SC_ERR_INPUT, "overflow", &in), SC_ERR_RUN);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "overflow: a sanitizer reported an error"));
}
#endif

void sc_suite_child(void)
{
    CU_pSuite s = CU_add_suite("child", NULL, NULL);
    CU_add_test(s, "results, errors, deaths", test_results_and_errors);
#ifdef SC_SANITIZE
    CU_add_test(s, "sanitizer reports surface", test_sanitizer_report);
#endif
}
