/* Mapping files: reading pi, writing pi, machinefiles and rankfiles.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "sim/io/hosts.h"
#include "sim/io/mapfile.h"
#include "suites.h"

static void write_text(const char *name, const char *text)
{
    FILE *f = fopen(sc_test_in_dir(name), "w");
    fputs(text, f);
    fclose(f);
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    static char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* The text as pi.txt, refused: no mapping. */
static sc_err_t try_mapfile(const char *text, int np)
{
    write_text("pi.txt", text);
    int *pi = NULL;
    sc_err_t err = sc_mapfile_read(sc_test_in_dir("pi.txt"), np, &pi);
    CU_ASSERT_PTR_NULL(pi);
    return err;
}

static void test_read(void)
{
    write_text("ok.txt", "# a comment\n2\n\n0 # the first\n  3\n1\n");
    int *pi = NULL;
    CU_ASSERT_EQUAL_FATAL(sc_mapfile_read(sc_test_in_dir("ok.txt"), 4, &pi), SC_OK);
    CU_ASSERT_EQUAL(pi[0], 2);
    CU_ASSERT_EQUAL(pi[1], 0);
    CU_ASSERT_EQUAL(pi[2], 3);
    CU_ASSERT_EQUAL(pi[3], 1);
    free(pi);
    static const sc_test_refusal_t bad[] = {
        {"0\n1\nx2\n3\n", 4, "pi.txt:3: 'x2' is not an integer"},
        {"0\n1\n2 3\n", 4, "pi.txt:3: '2 3' is not an integer"},
        {"0\n1\n1\n3\n", 4, "pi.txt:3: position 1 appears again (first on line 2)"},
        {"0\n1\n4\n3\n", 4,
         "pi.txt:3: position 4 is out of range 0..3: positions count from 0 (a file counting "
         "from 1"},
        {"0\n1\n5\n3\n", 4, "pi.txt:3: position 5 is out of range 0..3"},
        {"0\n-1\n", 4, "pi.txt:2: position -1 is out of range 0..3"},
        {"0\n1\n2\n", 4, "pi.txt: 3 positions, but --np 4 needs 4"},
        {"", 4, "pi.txt: 0 positions, but --np 4 needs 4"},
        {"0\n1\n2\n3\n0\n", 4, "pi.txt:5: more than the 4 positions"},
    };
    sc_test_refusals(bad, sizeof bad / sizeof bad[0], try_mapfile);
    CU_ASSERT_EQUAL(sc_mapfile_read(sc_test_in_dir("missing.txt"), 4, &pi), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "cannot read it as a mapping file"));
}

/* Nodes of 8, 4, 6, 8, 3 cores; 6 ranks placed block: 0..5 on node-0. */
static void test_write(void)
{
    const sc_platform_t *plat = sc_test_platform("tests/platforms/uneven.xml");
    if (!plat)
        return;
    int slot_node[10] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1}, pi[10] = {0, 9, 1, 2, 3, 4, 5, 6, 7, 8};
    sc_err_t err =
        sc_mapfile_write(plat, 10, pi, slot_node, "line one\nline two", sc_test_in_dir("out.txt"),
                         sc_test_in_dir("hosts"), sc_test_in_dir("ranks"), NULL);
    if (err)
        fprintf(stderr, "\n%s\n", sc_error_message());
    CU_ASSERT_EQUAL_FATAL(err, SC_OK);
    int *back = NULL;
    CU_ASSERT_EQUAL_FATAL(sc_mapfile_read(sc_test_in_dir("out.txt"), 10, &back), SC_OK);
    CU_ASSERT_EQUAL(memcmp(back, pi, sizeof pi), 0);
    free(back);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(read_text(sc_test_in_dir("out.txt")), "# line one\n# line two\n"));
    /* position 9 is played by rank 1 on node-0; positions 7 and 8 by the
     * ranks of node-1 */
    /* simcoll's names, said to be replaced */
    static const char said[] = "# node-0... are simcoll's names for the platform's nodes: "
                               "replace them with your hosts, in the same order (simcoll map "
                               "--hosts FILE|LIST writes them)\n";
    CU_ASSERT_STRING_EQUAL(read_text(sc_test_in_dir("hosts")),
                           "# node-0... are simcoll's names for the "
                           "platform's nodes: replace them with your "
                           "hosts, in the same order (simcoll map "
                           "--hosts FILE|LIST writes them)\n"
                           "node-0:1\nnode-0:1\nnode-0:1\nnode-0:1\n"
                           "node-0:1\nnode-0:1\nnode-0:1\nnode-1:1\n"
                           "node-1:1\nnode-0:1\n");
    const char *ranks = read_text(sc_test_in_dir("ranks"));
    CU_ASSERT_EQUAL(strncmp(ranks, said, strlen(said)), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(ranks, "rank 7=node-1 slot=0\nrank 8=node-1 slot=1\n"
                                         "rank 9=node-0 slot=7\n"));
    /* the real hosts, node n's the n-th, and no such line */
    char *hosts[] = {"cn07", "cn08", "cn09", "cn10", "cn11"};
    CU_ASSERT_EQUAL_FATAL(
        sc_mapfile_write(plat, 10, pi, slot_node, "", NULL, NULL, sc_test_in_dir("ranks"), hosts),
        SC_OK);
    ranks = read_text(sc_test_in_dir("ranks"));
    CU_ASSERT_EQUAL(strncmp(ranks, "rank 0=cn07 slot=0\n", 19), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(ranks, "rank 7=cn08 slot=0\n"));
    /* nothing is left behind when a file cannot be written */
    CU_ASSERT_EQUAL(sc_mapfile_write(plat, 10, pi, slot_node, "", sc_test_in_dir("fine.txt"),
                                     "/nonexistent-dir/hosts", NULL, NULL),
                    SC_ERR_INPUT);
    CU_ASSERT_PTR_NULL(read_text(sc_test_in_dir("fine.txt")));
}

/* A --hosts list or file refused: no names. */
static sc_err_t try_hosts(const char *hosts, int np)
{
    (void)np;
    sc_hosts_t h;
    sc_err_t err = sc_hosts_read("--hosts", hosts, &h);
    CU_ASSERT_PTR_NULL(h.names);
    return err;
}

/* --hosts: Slurm node lists, files of names, a probe's hosts; refusals. */
static void test_hosts(void)
{
    sc_hosts_t h;
    CU_ASSERT_EQUAL_FATAL(sc_hosts_read("--hosts", "n[08-10,12],login-2,r[1-2]c[1-2]", &h), SC_OK);
    const char *want[] = {"n08", "n09", "n10", "n12", "login-2", "r1c1", "r1c2", "r2c1", "r2c2"};
    CU_ASSERT_EQUAL_FATAL(h.n, 9);
    for (int i = 0; i < 9; i++)
        CU_ASSERT_STRING_EQUAL(h.names[i], want[i]);
    sc_hosts_destroy(&h);
    /* a hostfile of one line a task: each host once, in order */
    FILE *f = fopen(sc_test_in_dir("hostfile"), "w");
    fputs("# the job's hosts\ncn2 slots=4\ncn1:4\n\ncn2\n  cn3  # spare\n", f);
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(sc_hosts_read("--hosts", sc_test_in_dir("hostfile"), &h), SC_OK);
    CU_ASSERT_EQUAL_FATAL(h.n, 3);
    CU_ASSERT_STRING_EQUAL(h.names[0], "cn2");
    CU_ASSERT_STRING_EQUAL(h.names[2], "cn3");
    sc_hosts_destroy(&h);
    /* a probe's file: its ranks' hosts, a machine once for --each-rank-a-node */
    f = fopen(sc_test_in_dir("probe.txt"), "w");
    fputs("# simcoll-probe 1: measurements\n# rank 0: host vm#0, cpu 0, socket 0\n"
          "# rank 1: host vm#1, cpu 1, socket 0\nlatency inter 1 1 1e-6\n",
          f);
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(sc_hosts_read("--hosts", sc_test_in_dir("probe.txt"), &h), SC_OK);
    CU_ASSERT_EQUAL(h.n, 1);
    CU_ASSERT_STRING_EQUAL(h.names[0], "vm");
    sc_hosts_destroy(&h);
    static const sc_test_refusal_t bad[] = {
        {"n[01-04", 0, "opens a bracket it does not close"},
        {"n[4-1]", 0, "'4-1' is not a range"},
        {"n[a-b]", 0, "'a-b' is not a range"},
        {"node 1", 0, "'node 1' is not a host name"},
        {"n[0-2000000]", 0, "names more than"},
        {"/nonexistent/hosts", 0, "cannot read"},
    };
    sc_test_refusals(bad, sizeof bad / sizeof bad[0], try_hosts);
}

void sc_suite_mapfile(void)
{
    CU_pSuite s = CU_add_suite("mapfile", sc_test_dir_make, sc_test_dir_remove);
    CU_add_test(s, "reading pi", test_read);
    CU_add_test(s, "writing pi, machinefile, rankfile", test_write);
    CU_add_test(s, "hosts: Slurm node lists, files, probe files", test_hosts);
}
