/* CUnit runner for every simcoll test suite.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/Basic.h>

#include "helpers.h"
#include "suites.h"

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    sc_suite_units();
    sc_suite_models();
    sc_suite_registry();
    sc_suite_platform();
    sc_suite_transport();
    sc_suite_collectives();
    sc_suite_mapping();
    sc_suite_variants();
    sc_suite_mapfile();
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures();
    CU_cleanup_registry();
    sc_test_cleanup();
    return failed ? 1 : 0;
}
