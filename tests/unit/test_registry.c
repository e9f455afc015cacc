/* Consistency of the algorithm registry and its lookups.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <string.h>

#include "algorithms/registry.h"
#include "helpers.h"
#include "algorithms/schedule.h"
#include "suites.h"

static void test_table(void)
{
    int count = 0;
    for (const sc_algo_t *a = sc_algos; a->name; a++, count++) {
        CU_ASSERT_TRUE(strlen(a->name) > 0);
        CU_ASSERT_PTR_NOT_NULL(a->run);
        /* every algorithm whose messages follow from sizes can be recorded */
        if (!(a->needs & SC_DATA_DEPENDENT))
            CU_ASSERT_EQUAL(sc_schedule_replayable(a), SC_OK);
        CU_ASSERT_PTR_NOT_NULL(a->doc);
        CU_ASSERT_TRUE(a->doc && strlen(a->doc) > 10);
        CU_ASSERT_STRING_NOT_EQUAL(sc_collective_name(a->collective), "?");
        CU_ASSERT_PTR_EQUAL(sc_algo_find(a->name), a);
        for (const sc_algo_t *b = a + 1; b->name; b++)
            CU_ASSERT_STRING_NOT_EQUAL(a->name, b->name);
    }
    CU_ASSERT_TRUE(count >= 6);
}

static void test_lookup(void)
{
    CU_ASSERT_PTR_NULL(sc_algo_find("rbd"));
    CU_ASSERT_STRING_EQUAL(sc_algo_nearest("rbd")->name, "rd");
    CU_ASSERT_STRING_EQUAL(sc_algo_nearest("bruk")->name, "bruck");
    CU_ASSERT_STRING_EQUAL(sc_algo_nearest("rign")->name, "ring");
    CU_ASSERT_STRING_EQUAL(sc_algo_nearest("bcast-binomail")->name, "bcast-binomial");
}

static void test_preconditions(void)
{
    const sc_algo_t *rd = sc_algo_find("rd"), *bruck = sc_algo_find("bruck");
    CU_ASSERT_EQUAL(sc_algo_check(rd, 16), SC_OK);
    CU_ASSERT_EQUAL(sc_algo_check(rd, 1), SC_OK);
    CU_ASSERT_EQUAL(sc_algo_check(rd, 24), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "power-of-two"));
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "use 16 or 32 processes"));
    CU_ASSERT_EQUAL(sc_algo_check(rd, 3), SC_ERR_INPUT);
    for (int p = 1; p <= 100; p++)
        CU_ASSERT_EQUAL(sc_algo_check(bruck, p), SC_OK);
}

void sc_suite_registry(void)
{
    CU_pSuite s = CU_add_suite("registry", NULL, NULL);
    CU_add_test(s, "table", test_table);
    CU_add_test(s, "lookup", test_lookup);
    CU_add_test(s, "preconditions", test_preconditions);
}
