/* CUnit runner for every simcoll test suite.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "suites.h"

/* simcoll_tests runs every suite; simcoll_tests NAME... only those (ctest
 * runs the long reduction suites as tests of their own, in parallel). */
int main(int argc, char **argv)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    sc_suite_units();
    sc_suite_models();
    sc_suite_registry();
    sc_suite_commands();
    sc_suite_platform();
    sc_suite_platform_file();
    sc_suite_child();
    sc_suite_transport();
    sc_suite_loggp();
    sc_suite_collectives();
    sc_suite_mapping();
    sc_suite_external();
    sc_suite_objective();
    sc_suite_variants();
    sc_suite_mapfile();
    sc_suite_matrix();
    sc_suite_measurements();
    sc_suite_calibrate();
    sc_suite_profiles();
    sc_suite_reduce();
    sc_suite_early();
    sc_suite_program();
    sc_suite_program_graph();
    sc_suite_program_run();
    sc_suite_trace();
    sc_suite_tracefile();
    sc_suite_replay();
    sc_suite_evaluate();
    sc_suite_probe();
    CU_basic_set_mode(CU_BRM_VERBOSE);
    /* Every run starts a new summary: add up the failures as we go. */
    unsigned failed = 0;
    if (argc == 1) {
        CU_basic_run_tests();
        failed = CU_get_number_of_failures();
    }
    /* --skip A B ...: every suite but those (ctest runs the long ones
     * beside, and a new suite is never left out). */
    int skip = argc > 1 && strcmp(argv[1], "--skip") == 0;
    for (CU_pSuite suite = skip ? CU_get_registry()->pSuite : NULL; suite; suite = suite->pNext) {
        int skipped = 0;
        for (int i = 2; i < argc && !skipped; i++)
            skipped = strcmp(argv[i], suite->pName) == 0;
        if (!skipped) {
            CU_basic_run_suite(suite);
            failed += CU_get_number_of_failures();
        }
    }
    for (int i = 1; i < argc && !skip; i++) {
        CU_pSuite suite = CU_get_suite(argv[i]);
        if (!suite) {
            fprintf(stderr, "simcoll_tests: no suite '%s'\n", argv[i]);
            CU_cleanup_registry();
            return 2;
        }
        CU_basic_run_suite(suite);
        failed += CU_get_number_of_failures();
    }
    CU_cleanup_registry();
    sc_test_cleanup();
    return failed ? 1 : 0;
}
