/* Tests of size and duration parsing.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <string.h>

#include "common/sc_units.h"
#include "suites.h"

static void test_sizes(void)
{
    static const struct {
        const char *text;
        size_t bytes;
    } sizes[] = {{"0", 0},         {"2048", 2048},   {"4K", 4096},
                 {"64KiB", 65536}, {"1M", 1048576}, {"1m", 1048576}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t b = 7;
        CU_ASSERT_EQUAL(sc_parse_size(sizes[i].text, "--size", &b), SC_OK);
        CU_ASSERT_EQUAL(b, sizes[i].bytes);
    }
}

static void test_bad_sizes(void)
{
    size_t b = 7;
    CU_ASSERT_EQUAL(sc_parse_size("-5", "--size", &b), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "negative"));
    CU_ASSERT_EQUAL(sc_parse_size("abc", "--size", &b), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "'abc' is not a size"));
    CU_ASSERT_EQUAL(sc_parse_size("12X", "--size", &b), SC_ERR_INPUT);
    CU_ASSERT_EQUAL(sc_parse_size("", "--size", &b), SC_ERR_INPUT);
    CU_ASSERT_EQUAL(sc_parse_size("99999999999999999999", "--size", &b), SC_ERR_INPUT);
    CU_ASSERT_EQUAL(b, 7);
    /* 10^6 in SimGrid's platform files, 2^20 as MPI counts: refused */
    CU_ASSERT_EQUAL(sc_parse_size("1MB", "--size", &b), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "'1MB' is ambiguous"));
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "write 1M or 1MiB for 1048576 bytes"));
    CU_ASSERT_EQUAL(sc_parse_size("64kB", "--size", &b), SC_ERR_INPUT);
    CU_ASSERT_EQUAL(sc_parse_size("2GB", "--size", &b), SC_ERR_INPUT);
    CU_ASSERT_EQUAL(sc_parse_size("2048B", "--size", &b), SC_OK);
    CU_ASSERT_EQUAL(b, 2048);
}

static void test_durations(void)
{
    double s;
    CU_ASSERT_EQUAL(sc_parse_duration("0.8us", "x", &s), SC_OK);
    CU_ASSERT_DOUBLE_EQUAL(s, 0.8e-6, 1e-18);
    CU_ASSERT_EQUAL(sc_parse_duration("23us", "x", &s), SC_OK);
    CU_ASSERT_DOUBLE_EQUAL(s, 23e-6, 1e-18);
    CU_ASSERT_EQUAL(sc_parse_duration("30ns", "x", &s), SC_OK);
    CU_ASSERT_DOUBLE_EQUAL(s, 30e-9, 1e-20);
    CU_ASSERT_EQUAL(sc_parse_duration("2", "x", &s), SC_OK);
    CU_ASSERT_DOUBLE_EQUAL(s, 2.0, 0);
    CU_ASSERT_EQUAL(sc_parse_duration("3 weeks", "x", &s), SC_ERR_INPUT);
    CU_ASSERT_EQUAL(sc_parse_duration("-1us", "x", &s), SC_ERR_INPUT);
    CU_ASSERT_EQUAL(sc_parse_duration("us", "x", &s), SC_ERR_INPUT);
}

/* Quantities as generated platforms write them: readable, and read back. */
static void test_format_quantities(void)
{
    static const struct {
        double value;
        sc_quantity_t kind;
        const char *text;
    } cases[] = {
        {33.6e9, SC_QTY_SPEED, "33.6Gf"},      {1.5e-6, SC_QTY_TIME, "1.5us"},
        {0, SC_QTY_TIME, "0s"},                {12.17e9, SC_QTY_BANDWIDTH, "12.17GBps"},
        {115.73e6, SC_QTY_BANDWIDTH, "115.73MBps"}, {0.6184e-9, SC_QTY_TIME, "618.4ps"},
        {8192, SC_QTY_SIZE, "8.192kB"},        {2.5, SC_QTY_TIME, "2.5s"},
        {1e-15, SC_QTY_TIME, "0.001ps"},       {3, SC_QTY_BANDWIDTH, "3Bps"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[48];
        double back = -1;
        sc_format_quantity(cases[i].value, cases[i].kind, text, sizeof text);
        CU_ASSERT_STRING_EQUAL(text, cases[i].text);
        CU_ASSERT_EQUAL(sc_parse_quantity(text, cases[i].kind, &back), 0);
        CU_ASSERT_DOUBLE_EQUAL(back, cases[i].value, 1e-12 * cases[i].value);
    }
    /* Ten significant digits survive. */
    char text[48];
    double back;
    sc_format_quantity(3.7862331107919311e-07, SC_QTY_TIME, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "378.6233111ns");
    CU_ASSERT_EQUAL(sc_parse_quantity(text, SC_QTY_TIME, &back), 0);
    CU_ASSERT_DOUBLE_EQUAL(back, 3.7862331107919311e-07, 1e-9 * back);
}

void sc_suite_units(void)
{
    CU_pSuite s = CU_add_suite("units", NULL, NULL);
    CU_add_test(s, "sizes", test_sizes);
    CU_add_test(s, "bad sizes", test_bad_sizes);
    CU_add_test(s, "durations", test_durations);
    CU_add_test(s, "quantities written", test_format_quantities);
}
