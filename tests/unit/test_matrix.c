/* Traffic matrices: Matrix Market and CSV, the shipped fixtures and
 * hostile text.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <string.h>

#include "helpers.h"
#include "sim/io/matrix.h"
#include "suites.h"

static sc_err_t parse(const char *text, int np, sc_matrix_t *m)
{
    return sc_matrix_parse("t", text, strlen(text), np, m);
}

/* A refused text or file leaves no entries. */
static sc_err_t try_parse(const char *text, int np)
{
    sc_matrix_t m;
    sc_err_t err = parse(text, np, &m);
    CU_ASSERT_PTR_NULL(m.entries);
    return err;
}

static sc_err_t try_read(const char *relative, int np)
{
    sc_matrix_t m;
    sc_err_t err = sc_matrix_read(sc_test_path(relative), np, &m);
    CU_ASSERT_PTR_NULL(m.entries);
    return err;
}

static void test_fixtures(void)
{
    sc_matrix_t m;
    CU_ASSERT_EQUAL_FATAL(sc_matrix_read(sc_test_path("tests/matrices/ring8.mtx"), 0, &m), SC_OK);
    CU_ASSERT_EQUAL(m.size, 8);
    CU_ASSERT_EQUAL(m.nentries, 8);
    CU_ASSERT_EQUAL(m.has_messages, 0);
    CU_ASSERT_EQUAL(m.entries[7].src, 7);
    CU_ASSERT_EQUAL(m.entries[7].dst, 0);
    CU_ASSERT_DOUBLE_EQUAL(m.entries[7].bytes, 1e6, 0);
    sc_matrix_destroy(&m);

    CU_ASSERT_EQUAL_FATAL(sc_matrix_read(sc_test_path("tests/matrices/pairs4.csv"), 0, &m), SC_OK);
    CU_ASSERT_EQUAL(m.size, 4);
    CU_ASSERT_EQUAL(m.nentries, 5);
    CU_ASSERT_EQUAL(m.has_messages, 1);
    CU_ASSERT_EQUAL(m.entries[2].src, 1);
    CU_ASSERT_DOUBLE_EQUAL(m.entries[2].bytes, 4000, 0);
    CU_ASSERT_DOUBLE_EQUAL(m.entries[2].messages, 8, 0);
    sc_matrix_destroy(&m);

    /* --np larger than the CSV's ranks: ranks that send nothing */
    CU_ASSERT_EQUAL_FATAL(sc_matrix_read(sc_test_path("tests/matrices/pairs4.csv"), 6, &m), SC_OK);
    CU_ASSERT_EQUAL(m.size, 6);
    sc_matrix_destroy(&m);
}

static void test_forms(void)
{
    sc_matrix_t m;
    /* symmetric: an entry stands for both directions; the diagonal once */
    CU_ASSERT_EQUAL_FATAL(parse("%%MatrixMarket matrix coordinate integer symmetric\n"
                                "% comment\n\n3 3 2\n2 1 7\n3 3 1\n",
                                0, &m),
                          SC_OK);
    CU_ASSERT_EQUAL(m.nentries, 3);
    CU_ASSERT_EQUAL(m.entries[1].src, 0);
    CU_ASSERT_EQUAL(m.entries[1].dst, 1);
    sc_matrix_destroy(&m);
    /* either triangle, and an entry given twice adds up, as in a general file */
    CU_ASSERT_EQUAL_FATAL(parse("%%MatrixMarket matrix coordinate real symmetric\n"
                                "3 3 3\n1 2 100\n3 2 50\n1 2 100\n",
                                0, &m),
                          SC_OK);
    CU_ASSERT_EQUAL(m.nentries, 6);
    sc_matrix_destroy(&m);
    /* CSV without a header, CRLF line ends, spaces, comments */
    CU_ASSERT_EQUAL_FATAL(parse("0, 1, 1.5e3\r\n# note\n 2 ,0,0 # none\n", 0, &m), SC_OK);
    CU_ASSERT_EQUAL(m.size, 3);
    CU_ASSERT_EQUAL(m.nentries, 2);
    CU_ASSERT_DOUBLE_EQUAL(m.entries[0].bytes, 1500, 0);
    sc_matrix_destroy(&m);
}

/* The header of a general Matrix Market file of real weights. */
#define MM "%%MatrixMarket matrix coordinate real general\n"

static void test_hostile_files(void)
{
    static const sc_test_refusal_t files[] = {
        {"tests/matrices/bad-rank.mtx", 0, "bad-rank.mtx:4: rank 5 is out of range 1..4"},
        {"tests/matrices/negative.csv", 0, "negative.csv:3: bytes -5 is negative"},
        {"tests/matrices/not-number.csv", 0, "not-number.csv:2: bytes 'lots' is not a number"},
        {"tests/matrices/not-square.mtx", 0, "not-square.mtx:2: a traffic matrix is square"},
        {"tests/matrices/short.mtx", 0, "short.mtx:4: 2 entries, but the size line announces 3"},
        {"tests/matrices/ring8.mtx", 16, "ring8.mtx:4: the matrix has 8 ranks, but --np is 16"},
    };
    sc_test_refusals(files, sizeof files / sizeof files[0], try_read);

    static const sc_test_refusal_t texts[] = {
        {"%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 0, "t:1:"},
        {"%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n", 0, "field 'pattern'"},
        {"%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1 0\n", 0,
         "field 'complex'"},
        {"%%MatrixMarket matrix coordinate real hermitian\n", 0, "symmetry 'hermitian'"},
        {"%%MatrixMarket matrix coordinate real\n", 0, "needs a field"},
        {MM, 0, "t:1: no size line"},
        {MM "2 2 1\n1 2 3\n2 1 3\n", 0, "t:4: an entry more than the 1"},
        {MM "2 2 1\n0 2 3\n", 0, "t:3: rank 0 is out of range 1..2"},
        {MM "2 2 1\n1 2 nan\n", 0, "t:3: bytes 'nan' is not a finite number"},
        {MM "2 2 1\n1 2 1e999\n", 0, "bytes '1e999' is not a finite number"},
        {MM "2 2 1\n1 2\n", 0, "an entry is 'I J BYTES'"},
        {MM "-2 -2 1\n", 0, "rows '-2' is not an integer from 1"},
        {MM "2 2 x\n", 0, "entries 'x' is not an integer"},
        {"%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 2.5\n", 0,
         "bytes 2.5 is not a whole number"},
        /* a symmetric file's entry stands for both directions: its mirror
         * too would count the pair twice */
        {"%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n2 1 100\n3 3 5\n1 2 100\n", 0,
         "t:5: entry 1 2 mirrors line 3's 2 1: a symmetric matrix holds one triangle"},
        /* weights whose sum passes a double's largest: every cut is a part of it */
        {MM "3 3 2\n1 2 1e308\n2 3 1e308\n", 0,
         "t:4: bytes 1e308 takes the sum of the matrix's bytes past 1.79769e+308"},
        {"%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1e308\n", 0,
         "t:3: bytes 1e308 takes the sum"},
        {"0,1,1e308,1\n1,0,1e308,1\n", 0, "t:2: bytes 1e308 takes the sum"},
        {"0,1,1,1e308\n1,0,1,1e308\n", 0, "t:2: messages 1e308 takes the sum"},

        {"0,1\n", 0, "t:1: '0,1' has 2 fields"},
        {"0,1,2\n0,1,2,3\n", 0, "t:2: '0,1,2,3' has 4 fields"},
        {"0,1,2,3,4\n", 0, "has 5 fields"},
        {"src,dst,size\n", 0, "header 'src,dst,size'"},
        {"0,x,2\n", 0, "rank 'x' is not an integer"},
        {"0,-1,2\n", 0, "rank -1 is out of range 0.."},
        {"0,4,2\n", 4, "t:1: rank 4 is out of range 0..3"},
        {"0,1,2,1.5\n", 0, "messages 1.5 is not a whole number"},
        {"0,1,2,-1\n", 0, "messages -1 is negative"},
        {"0,1,99999999999999999999999999999999999999999999999999999999999999999999999999"
         "9999999999999999999999999999999999999999999999999999999999999999999999999999999"
         "9999999999999999999999999999999999999999999999999999999999999999999999999999999"
         "9999999999999999999999999999999999999999999999999999999999999999999999999999999\n",
         0, "is not a finite number"},
        {"0,99999999999999999999,2\n", 0, "is not an integer"},
        {"# nothing\n\n", 0, "no entries"},
        {"", 0, "no entries"},
    };
    sc_test_refusals(texts, sizeof texts / sizeof texts[0], try_parse);
    sc_matrix_t m;
    CU_ASSERT_EQUAL(sc_matrix_parse("t", "0,1,2\n\0", 7, 0, &m), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "NUL byte"));
    char longline[2048];
    memset(longline, ' ', sizeof longline - 1);
    longline[sizeof longline - 1] = '\0';
    sc_test_refusals(&(sc_test_refusal_t){longline, 0, "t:1: line too long"}, 1, try_parse);
}

void sc_suite_matrix(void)
{
    CU_pSuite s = CU_add_suite("matrix", NULL, NULL);
    CU_add_test(s, "the fixtures", test_fixtures);
    CU_add_test(s, "forms each format allows", test_forms);
    CU_add_test(s, "hostile files", test_hostile_files);
}
