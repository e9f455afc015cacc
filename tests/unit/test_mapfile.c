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

static char dir[] = "/tmp/simcoll-mapfile-XXXXXX";

static const char *in_dir(const char *name)
{
    static char path[4][512]; /* a call may name three files */
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    return p;
}

static void write_text(const char *name, const char *text)
{
    FILE *f = fopen(in_dir(name), "w");
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

static void expect_refused(const char *text, int np, const char *needle)
{
    write_text("pi.txt", text);
    int *pi = NULL;
    CU_ASSERT_EQUAL(sc_mapfile_read(in_dir("pi.txt"), np, &pi), SC_ERR_INPUT);
    CU_ASSERT_PTR_NULL(pi);
    if (!strstr(sc_error_message(), needle)) {
        fprintf(stderr, "\nmessage lacks '%s': %s\n", needle, sc_error_message());
        CU_FAIL("message does not name the problem");
    }
}

static void test_read(void)
{
    write_text("ok.txt", "# a comment\n2\n\n0 # the first\n  3\n1\n");
    int *pi = NULL;
    CU_ASSERT_EQUAL_FATAL(sc_mapfile_read(in_dir("ok.txt"), 4, &pi), SC_OK);
    CU_ASSERT_EQUAL(pi[0], 2);
    CU_ASSERT_EQUAL(pi[1], 0);
    CU_ASSERT_EQUAL(pi[2], 3);
    CU_ASSERT_EQUAL(pi[3], 1);
    free(pi);
    expect_refused("0\n1\nx2\n3\n", 4, "pi.txt:3: 'x2' is not an integer");
    expect_refused("0\n1\n2 3\n", 4, "pi.txt:3: '2 3' is not an integer");
    expect_refused("0\n1\n1\n3\n", 4, "pi.txt:3: position 1 appears again (first on line 2)");
    expect_refused("0\n1\n4\n3\n", 4, "pi.txt:3: position 4 is out of range 0..3: positions "
                                        "count from 0 (a file counting from 1");
    expect_refused("0\n1\n5\n3\n", 4, "pi.txt:3: position 5 is out of range 0..3");
    expect_refused("0\n-1\n", 4, "pi.txt:2: position -1 is out of range 0..3");
    expect_refused("0\n1\n2\n", 4, "pi.txt: 3 positions, but --np 4 needs 4");
    expect_refused("", 4, "pi.txt: 0 positions, but --np 4 needs 4");
    expect_refused("0\n1\n2\n3\n0\n", 4, "pi.txt:5: more than the 4 positions");
    CU_ASSERT_EQUAL(sc_mapfile_read(in_dir("missing.txt"), 4, &pi), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "cannot read it as a mapping file"));
}

/* Nodes of 8, 4, 6, 8, 3 cores; 6 ranks placed block: 0..5 on node-0. */
static void test_write(void)
{
    const sc_platform_t *plat = sc_test_platform("tests/platforms/uneven.xml");
    if (!plat)
        return;
    int slot_node[10] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1}, pi[10] = {0, 9, 1, 2, 3, 4, 5, 6, 7, 8};
    sc_err_t err = sc_mapfile_write(plat, 10, pi, slot_node, "line one\nline two",
                                    in_dir("out.txt"), in_dir("hosts"), in_dir("ranks"), NULL);
    if (err)
        fprintf(stderr, "\n%s\n", sc_error_message());
    CU_ASSERT_EQUAL_FATAL(err, SC_OK);
    int *back = NULL;
    CU_ASSERT_EQUAL_FATAL(sc_mapfile_read(in_dir("out.txt"), 10, &back), SC_OK);
    CU_ASSERT_EQUAL(memcmp(back, pi, sizeof pi), 0);
    free(back);
    CU_ASSERT_PTR_NOT_NULL(strstr(read_text(in_dir("out.txt")), "# line one\n# line two\n"));
    /* position 9 is played by rank 1 on node-0; positions 7 and 8 by the
     * ranks of node-1 */
    /* simcoll's names, said to be replaced */
    static const char said[] = "# node-0... are simcoll's names for the platform's nodes: "
                               "replace them with your hosts, in the same order (simcoll map "
                               "--hosts FILE|LIST writes them)\n";
    CU_ASSERT_STRING_EQUAL(read_text(in_dir("hosts")), "# node-0... are simcoll's names for the "
                                                       "platform's nodes: replace them with your "
                                                       "hosts, in the same order (simcoll map "
                                                       "--hosts FILE|LIST writes them)\n"
                                                       "node-0:1\nnode-0:1\nnode-0:1\nnode-0:1\n"
                                                       "node-0:1\nnode-0:1\nnode-0:1\nnode-1:1\n"
                                                       "node-1:1\nnode-0:1\n");
    const char *ranks = read_text(in_dir("ranks"));
    CU_ASSERT_EQUAL(strncmp(ranks, said, strlen(said)), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(ranks, "rank 7=node-1 slot=0\nrank 8=node-1 slot=1\n"
                                         "rank 9=node-0 slot=7\n"));
    /* the real hosts, node n's the n-th, and no such line */
    char *hosts[] = {"cn07", "cn08", "cn09", "cn10", "cn11"};
    CU_ASSERT_EQUAL_FATAL(sc_mapfile_write(plat, 10, pi, slot_node, "", NULL, NULL,
                                           in_dir("ranks"), hosts),
                          SC_OK);
    ranks = read_text(in_dir("ranks"));
    CU_ASSERT_EQUAL(strncmp(ranks, "rank 0=cn07 slot=0\n", 19), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(ranks, "rank 7=cn08 slot=0\n"));
    /* nothing is left behind when a file cannot be written */
    CU_ASSERT_EQUAL(sc_mapfile_write(plat, 10, pi, slot_node, "", in_dir("fine.txt"),
                                     "/nonexistent-dir/hosts", NULL, NULL),
                    SC_ERR_INPUT);
    CU_ASSERT_PTR_NULL(read_text(in_dir("fine.txt")));
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
    FILE *f = fopen(in_dir("hostfile"), "w");
    fputs("# the job's hosts\ncn2 slots=4\ncn1:4\n\ncn2\n  cn3  # spare\n", f);
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(sc_hosts_read("--hosts", in_dir("hostfile"), &h), SC_OK);
    CU_ASSERT_EQUAL_FATAL(h.n, 3);
    CU_ASSERT_STRING_EQUAL(h.names[0], "cn2");
    CU_ASSERT_STRING_EQUAL(h.names[2], "cn3");
    sc_hosts_destroy(&h);
    /* a probe's file: its ranks' hosts, a machine once for --each-rank-a-node */
    f = fopen(in_dir("probe.txt"), "w");
    fputs("# simcoll-probe 1: measurements\n# rank 0: host vm#0, cpu 0, socket 0\n"
          "# rank 1: host vm#1, cpu 1, socket 0\nlatency inter 1 1 1e-6\n",
          f);
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(sc_hosts_read("--hosts", in_dir("probe.txt"), &h), SC_OK);
    CU_ASSERT_EQUAL(h.n, 1);
    CU_ASSERT_STRING_EQUAL(h.names[0], "vm");
    sc_hosts_destroy(&h);
    const char *bad[][2] = {{"n[01-04", "opens a bracket it does not close"},
                            {"n[4-1]", "'4-1' is not a range"},
                            {"n[a-b]", "'a-b' is not a range"},
                            {"node 1", "'node 1' is not a host name"},
                            {"n[0-2000000]", "names more than"},
                            {"/nonexistent/hosts", "cannot read"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_EQUAL(sc_hosts_read("--hosts", bad[i][0], &h), SC_ERR_INPUT);
        CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), bad[i][1]));
        CU_ASSERT_PTR_NULL(h.names);
    }
}

static int setup(void)
{
    return mkdtemp(dir) ? 0 : 1;
}

static int teardown(void)
{
    const char *names[] = {"ok.txt",   "pi.txt",   "out.txt",  "hosts",
                           "ranks",    "fine.txt", "hostfile", "probe.txt"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        remove(in_dir(names[i]));
    return rmdir(dir);
}

void sc_suite_mapfile(void)
{
    CU_pSuite s = CU_add_suite("mapfile", setup, teardown);
    CU_add_test(s, "reading pi", test_read);
    CU_add_test(s, "writing pi, machinefile, rankfile", test_write);
    CU_add_test(s, "hosts: Slurm node lists, files, probe files", test_hosts);
}
