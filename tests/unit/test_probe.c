/* simcoll-probe's protocol switches (sim/probe/switches.c).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>

#include <stdio.h>
#include <string.h>

#include "sim/io/probe_cluster.h"
#include "sim/probe/switches.h"
#include "suites.h"

enum { N = 23 }; /* 1 B to 4 MiB */

/* A machine whose ranks shared a core (issue 46): the receive overhead
 * jumps from 0.09 to 2.3 us at 4 KiB (the eager limit), the one-way time
 * falls from 140 to 43 us between 256 and 512 KiB (single copy), and
 * grows from 150 to 700 us between 2 and 4 MiB (the noise of the shared
 * core), the largest growth, which the probe once named alone. */
static void shared_core_machine(long *sizes, double *lat, double *snd, double *rcv)
{
    for (int k = 0; k < N; k++) {
        long m = 1l << k;
        sizes[k] = m;
        snd[k] = 1e-7;
        rcv[k] = m < 4096 ? 9e-8 : 2.3e-6 + (double)m * 1e-10;
        lat[k] = 2e-6 + (double)m * 5.3e-10;
    }
    lat[N - 4] = 43e-6;
    lat[N - 3] = 80e-6;
    lat[N - 2] = 150e-6;
    lat[N - 1] = 700e-6;
}

static void test_every_switch_named(void)
{
    long sizes[N];
    double lat[N], snd[N], rcv[N];
    shared_core_machine(sizes, lat, snd, rcv);
    probe_switch_t sw[8];
    int n = probe_switches_find(sizes, (const double *const[]){lat, snd, rcv}, N, sw, 8);
    CU_ASSERT_EQUAL_FATAL(n, 3);
    CU_ASSERT_EQUAL(sizes[sw[0].at], 4096);
    CU_ASSERT_EQUAL(sw[0].sign, PROBE_RECV_JUMP);
    CU_ASSERT_TRUE(probe_switch_is_eager(&sw[0]));
    CU_ASSERT_EQUAL(sw[0].last, 2048);
    CU_ASSERT_EQUAL(sizes[sw[1].at], 524288);
    CU_ASSERT_EQUAL(sw[1].sign, PROBE_TIME_FALL);
    CU_ASSERT_FALSE(probe_switch_is_eager(&sw[1]));
    CU_ASSERT_EQUAL(sizes[sw[2].at], 4194304);
    CU_ASSERT_EQUAL(sw[2].sign, PROBE_TIME_JUMP);
}

/* Sizes inside the interval locate the switch: the last before the first
 * past the geometric mean of the two ends, for a jump and for a fall. */
static void test_switch_located(void)
{
    static const struct {
        probe_switch_t sw;
        long more[8];
        double values[8];
        int m;
        long want; /* the last size below the switch */
    } cases[] = {
        {{.at = 12, .sign = PROBE_RECV_JUMP, .series = PROBE_RECV, .before = 9e-8,
          .after = 2.3e-6, .last = 2048},
         {2275, 2503, 2730, 2958, 3185, 3413, 3640, 3868},
         {9e-8, 9e-8, 1e-7, 9e-8, 9e-8, 9e-8, 9e-8, 2.2e-6},
         8,
         3640},
        /* the first that falls ends it */
        {{.at = 19, .sign = PROBE_TIME_FALL, .series = PROBE_LATENCY, .before = 140e-6,
          .after = 43e-6, .last = 262144},
         {291271, 320398, 349525},
         {150e-6, 30e-6, 160e-6},
         3,
         291271},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        probe_switch_t sw = cases[i].sw;
        probe_switch_locate(&sw, cases[i].more, cases[i].values, cases[i].m);
        if (sw.last != cases[i].want)
            fprintf(stderr, "\n  switch at %d: last %ld, want %ld\n", sw.at, sw.last,
                    cases[i].want);
        CU_ASSERT_EQUAL(sw.last, cases[i].want);
    }
}

/* A loaded core's delay of one size is no switch: the send overhead
 * 70 ns, 210 ns at 1 KiB, then 75 ns again (seen on this machine), beside
 * the receive overhead's real jump at 4 KiB. */
static void test_spike_no_switch(void)
{
    long sizes[N];
    double lat[N], snd[N], rcv[N];
    for (int k = 0; k < N; k++) {
        sizes[k] = 1l << k;
        lat[k] = 1e-6 + (double)sizes[k] / 1e10;
        snd[k] = sizes[k] == 1024 ? 2.1e-7 : sizes[k] > 1024 ? 7.5e-8 : 7e-8;
        rcv[k] = sizes[k] >= 4096 ? 2.3e-6 + (double)sizes[k] / 2e10 : 8.5e-8;
    }
    probe_switch_t sw[8];
    CU_ASSERT_EQUAL_FATAL(
        probe_switches_find(sizes, (const double *const[]){lat, snd, rcv}, N, sw, 8), 1);
    CU_ASSERT_EQUAL(sizes[sw[0].at], 4096);
    CU_ASSERT_EQUAL(sw[0].sign, PROBE_RECV_JUMP);
}

/* A smooth curve, timer noise at small sizes and a bandwidth-bound time
 * that nearly doubles: no switch. */
static void test_smooth_no_switch(void)
{
    long sizes[N];
    double lat[N], snd[N], rcv[N];
    for (int k = 0; k < N; k++) {
        sizes[k] = 1l << k;
        lat[k] = 1e-6 + (double)sizes[k] / 1e10 + (k % 2 ? 2e-8 : 0);
        snd[k] = 1e-7 + (k % 3 ? 5e-9 : 0);
        rcv[k] = 1.1e-7 + (double)sizes[k] / 2e10;
    }
    probe_switch_t sw[8];
    CU_ASSERT_EQUAL(probe_switches_find(sizes, (const double *const[]){lat, snd, rcv}, N, sw, 8),
                    0);
}

/* The header calibrate reads: ranks, hosts, switches; who shared a core;
 * the cluster's name. */
static void test_cluster_header(void)
{
    static const char text[] = "# simcoll-probe 1: measurements\n"
                               "# ranks: 3\n"
                               "# rank 0: host cn-07.example.org, cpu 1, socket 0, numa 0, l3 0\n"
                               "# rank 1: host cn-07.example.org, cpu 0, socket 0, numa 0, l3 0\n"
                               "# rank 2: host cn-07.example.org, cpu 1, socket 0, numa 0, l3 0\n"
                               "# host cn-07.example.org: 2 cores, 1 socket\n"
                               "# switch intra 3640 eager-limit: the receive overhead grows\n"
                               "# switch intra 262144 breakpoint: the one-way time falls\n"
                               "latency intra 1 1 1e-6\n";
    sc_probe_cluster_t c;
    CU_ASSERT_EQUAL_FATAL(sc_probe_cluster_parse("--probe", "p.txt", text, strlen(text), &c),
                          SC_OK);
    CU_ASSERT_EQUAL(c.nranks, 3);
    CU_ASSERT_STRING_EQUAL(c.ranks[2].host, "cn-07.example.org");
    CU_ASSERT_EQUAL(c.ranks[2].cpu, 1);
    CU_ASSERT_EQUAL_FATAL(c.nhosts, 1);
    CU_ASSERT_EQUAL(c.hosts[0].cores, 2);
    CU_ASSERT_EQUAL(c.hosts[0].sockets, 1);
    CU_ASSERT_EQUAL_FATAL(c.nswitches, 2);
    CU_ASSERT_EQUAL(c.switches[0].bytes, 3640);
    CU_ASSERT_TRUE(c.switches[0].eager);
    CU_ASSERT_FALSE(c.switches[1].eager);
    char out[1024];
    sc_probe_cluster_shared_cores(&c, out, sizeof out);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "ranks 0 and 2 ran on cpu 1 of cn-07.example.org"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "3 ranks on cn-07.example.org's 2 cores"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "--bind-to core"));
    sc_probe_cluster_name(&c, out, sizeof out);
    CU_ASSERT_STRING_EQUAL(out, "cn");
    sc_probe_cluster_destroy(&c);

    /* --each-rank-a-node's hosts are one machine: no core shared here */
    static const char tcp[] = "# rank 0: host vm#0, cpu 0, socket 0\n"
                              "# rank 1: host vm#1, cpu 1, socket 0\n"
                              "# host vm#0: 2 cores, 1 socket\n# host vm#1: 2 cores, 1 socket\n";
    CU_ASSERT_EQUAL_FATAL(sc_probe_cluster_parse("--probe", "t.txt", tcp, strlen(tcp), &c), SC_OK);
    sc_probe_cluster_shared_cores(&c, out, sizeof out);
    CU_ASSERT_STRING_EQUAL(out, "");
    sc_probe_cluster_name(&c, out, sizeof out);
    CU_ASSERT_STRING_EQUAL(out, "vm");
    sc_probe_cluster_destroy(&c);

    static const char bad[] = "# rank 0: host vm, cpu 0\n# switch intra lots eager-limit: x\n";
    CU_ASSERT_EQUAL(sc_probe_cluster_parse("--probe", "b.txt", bad, strlen(bad), &c), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "b.txt':2"));
    CU_ASSERT_PTR_NULL(c.ranks);
}

void sc_suite_probe(void)
{
    CU_pSuite s = CU_add_suite("probe", NULL, NULL);
    CU_add_test(s, "every protocol switch named, the eager limit from the overheads",
                test_every_switch_named);
    CU_add_test(s, "a switch located inside its interval", test_switch_located);
    CU_add_test(s, "no switch on a smooth curve", test_smooth_no_switch);
    CU_add_test(s, "no switch where one size was delayed", test_spike_no_switch);
    CU_add_test(s, "the cluster a probe's header describes", test_cluster_header);
}
