/* Tests of the platform file check: every hostile variant of a good
 * platform is refused with a message that names the problem.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "sim/io/platform_file.h"
#include "sim/io/smpi_config.h"
#include "suites.h"

/* Two ib4x-like nodes; each case below changes one thing in it. */
static const char good[] =
    "<?xml version='1.0'?>\n"
    "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    "<platform version=\"4.1\">\n"
    "  <zone id=\"two\" routing=\"Cluster\">\n"
    "    <prop id=\"simcoll/intra/overhead\" value=\"0.8us\"/>\n"
    "    <prop id=\"simcoll/intra/eager-limit\" value=\"65536\"/>\n"
    "    <prop id=\"simcoll/inter/overhead\" value=\"0.8us\"/>\n"
    "    <prop id=\"simcoll/inter/eager-limit\" value=\"6140\"/>\n"
    "    <prop id=\"simcoll/header-bytes\" value=\"40\"/>\n"
    "    <host id=\"node-0\" speed=\"10Gf\" core=\"8\"/>\n"
    "    <host id=\"node-1\" speed=\"10Gf\" core=\"8\"/>\n"
    "    <link id=\"node-0_nic\" bandwidth=\"1497MBps\" latency=\"1.9us\" "
    "sharing_policy=\"SPLITDUPLEX\"/>\n"
    "    <link id=\"node-0_membus\" bandwidth=\"5333MBps\" latency=\"30ns\" "
    "sharing_policy=\"SHARED\"/>\n"
    "    <link id=\"node-1_nic\" bandwidth=\"1497MBps\" latency=\"1.9us\" "
    "sharing_policy=\"SPLITDUPLEX\"/>\n"
    "    <link id=\"node-1_membus\" bandwidth=\"5333MBps\" latency=\"30ns\" "
    "sharing_policy=\"SHARED\"/>\n"
    "    <host_link id=\"node-0\" up=\"node-0_nic_UP\" down=\"node-0_nic_DOWN\"/>\n"
    "    <host_link id=\"node-1\" up=\"node-1_nic_UP\" down=\"node-1_nic_DOWN\"/>\n"
    "    <route src=\"node-0\" dst=\"node-0\"><link_ctn id=\"node-0_membus\"/></route>\n"
    "    <route src=\"node-1\" dst=\"node-1\"><link_ctn id=\"node-1_membus\"/></route>\n"
    "  </zone>\n"
    "</platform>\n";

/* `s` with the first `from` replaced by `to` (a new string). */
static char *replaced(const char *s, const char *from, const char *to)
{
    const char *at = strstr(s, from);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    size_t head = (size_t)(at - s), n = strlen(s) - strlen(from) + strlen(to);
    char *out = malloc(n + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    memcpy(out, s, head);
    strcpy(out + head, to);
    strcat(out, at + strlen(from));
    return out;
}

/* `good` with the first occurrence of `from` replaced by `to`. */
static char *variant(const char *from, const char *to)
{
    return replaced(good, from, to);
}

/* Checks xml; what the check fills is freed unless `keep`. */
static sc_err_t check_keep(const char *xml, sc_platform_t *plat)
{
    memset(plat, 0, sizeof *plat);
    return sc_platform_xml_check("--platform", "p.xml", xml, strlen(xml), plat);
}

static sc_err_t check(const char *xml, sc_platform_t *plat)
{
    sc_err_t err = check_keep(xml, plat);
    sc_platform_destroy(plat);
    return err;
}

static void test_good(void)
{
    sc_platform_t plat;
    CU_ASSERT_EQUAL_FATAL(check_keep(good, &plat), SC_OK);
    CU_ASSERT_EQUAL(plat.total_cores, 16);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_send_overhead(&plat.level[SC_LEVEL_INTER], 100), 0.8e-6, 1e-18);
    CU_ASSERT_EQUAL(plat.level[SC_LEVEL_INTER].eager_limit, 6140);
    CU_ASSERT_EQUAL(plat.header_bytes, 40);
    /* What SimGrid reads: the same platform, numbers in base units. */
    CU_ASSERT_PTR_NOT_NULL(strstr(plat.engine_xml, "<link id=\"node-0_nic\" "
                                                   "bandwidth=\"1497000000Bps\" "
                                                   "latency=\"1.8999999999999998e-06s\""));
    sc_platform_t again;
    CU_ASSERT_EQUAL(check(plat.engine_xml, &again), SC_OK);
    sc_platform_destroy(&plat);
    /* Order does not matter: routes before links, props last. */
    char *moved = variant("    <prop id=\"simcoll/header-bytes\" value=\"40\"/>\n", "");
    char *back = malloc(strlen(moved) + 64);
    const char *end = strstr(moved, "  </zone>");
    sprintf(back, "%.*s    <prop id=\"simcoll/header-bytes\" value=\"40\"/>\n%s",
            (int)(end - moved), moved, end);
    CU_ASSERT_EQUAL(check(back, &plat), SC_OK);
    free(moved);
    free(back);
}

typedef struct {
    const char *from, *to, *needle;
} case_t;

/* Each class of the robustness issue, and the message that must name it. */
static const case_t cases[] = {
    /* numbers */
    {"bandwidth=\"1497MBps\"", "bandwidth=\"0Bps\"",
     "p.xml':12: <link id=\"node-0_nic\"> "
     "bandwidth=\"0Bps\" is out of range"},
    {"bandwidth=\"1497MBps\"", "bandwidth=\"-5MBps\"", "bandwidth=\"-5MBps\" is out of range"},
    {"bandwidth=\"1497MBps\"", "bandwidth=\"nanBps\"", "is not a number with a unit"},
    {"bandwidth=\"1497MBps\"", "bandwidth=\"infBps\"", "is not a number with a unit"},
    {"bandwidth=\"1497MBps\"", "bandwidth=\"1e300Bps\"", "use a bandwidth from 1Bps to 1PBps"},
    {"bandwidth=\"1497MBps\"", "bandwidth=\"1e999Bps\"", "is not a number with a unit"},
    {"bandwidth=\"1497MBps\"", "bandwidth=\"1497KBps\"",
     "bandwidth=\"1497KBps\" is not a number with a unit; use one of Bps, kBps"},
    {"bandwidth=\"1497MBps\"", "bandwidth=\"fast\"", "is not a number with a unit"},
    {"bandwidth=\"1497MBps\"", "bandwidth=\"1497MBps;2GBps\"", "is not a number with a unit"},
    {" bandwidth=\"1497MBps\"", "", "needs bandwidth="},
    {"latency=\"1.9us\"", "latency=\"-1.9us\"",
     "latency=\"-1.9us\" is out of range; use a "
     "latency from 0s to 10s"},
    {"latency=\"1.9us\"", "latency=\"nan\"", "latency=\"nan\" is not a number"},
    {"latency=\"1.9us\"", "latency=\"1e6s\"", "is out of range"},
    {"latency=\"1.9us\"", "latency=\"1.9 us\"", "is not a number with a unit"},
    {"speed=\"10Gf\" core=\"8\"", "speed=\"0f\" core=\"8\"", "speed=\"0f\" is out of range"},
    {"speed=\"10Gf\" core=\"8\"", "speed=\"-10Gf\" core=\"8\"", "is out of range"},
    {"speed=\"10Gf\" core=\"8\"", "speed=\"10Gf,5Gf\" core=\"8\"", "is not a number with a unit"},
    {"speed=\"10Gf\" core=\"8\"", "core=\"8\"", "needs speed="},
    {"core=\"8\"", "core=\"8.5\"", "core=\"8.5\" is not a whole number of cores in 1..65536"},
    {"core=\"8\"", "core=\"0\"", "core=\"0\" is not a whole number"},
    {"core=\"8\"", "core=\"-8\"", "core=\"-8\" is not a whole number"},
    {"core=\"8\"", "core=\" 8\"", "core=\" 8\" is not a whole number"},
    /* a number without a unit, which SimGrid would read in its base unit */
    {"latency=\"1.9us\"", "latency=\"8.97\"",
     "<link id=\"node-0_nic\"> latency=\"8.97\" has no unit, which SimGrid would read as 8.97 "
     "s; write it with its unit, e.g. 8.97us, 8.97ms or 8.97s"},
    {"bandwidth=\"1497MBps\"", "bandwidth=\"1497\"",
     "bandwidth=\"1497\" has no unit, which SimGrid would read as 1497 Bps"},
    {"speed=\"10Gf\" core=\"8\"", "speed=\"10\" core=\"8\"",
     "speed=\"10\" has no unit, which SimGrid would read as 10 flop/s"},
    {"value=\"0.8us\"", "value=\"0.8\"",
     "property simcoll/intra/overhead: '0.8' has no unit, which would be 0.8 s"},
    {"core=\"8\"", "core=\"99999999999\"", "is not a whole number"},
    {"value=\"0.8us\"", "value=\"-0.8us\"",
     "property simcoll/intra/overhead: '-0.8us' is not a "
     "duration"},
    {"value=\"0.8us\"", "value=\"nanus\"", "is not a duration"},
    /* ranges LO..HI of parameters not measured */
    {"value=\"0.8us\"", "value=\"0.9us..0.8us\"",
     "'0.9us..0.8us': a range LO..HI needs LO below HI"},
    {"value=\"0.8us\"", "value=\"0.8us..\"", "is not a duration"},
    /* an end's message shows the range as written, and which end */
    {"value=\"0.8us\"", "value=\"..1.2us\"",
     "property simcoll/intra/overhead = '..1.2us': the range's LO: '' is not a duration"},
    {"value=\"0.8us\"", "value=\"1us..fast\"",
     "property simcoll/intra/overhead = '1us..fast': the range's HI: 'fast' is not a duration"},
    {"value=\"0.8us\"", "value=\"0.1us..5s\"",
     "simcoll/intra/overhead = '0.1us..5s' is out of range"},
    {"value=\"6140\"", "value=\"4K..x\"", "property simcoll/inter/eager-limit"},
    {"<prop id=\"simcoll/intra/overhead\" value=\"0.8us\"/>",
     "<prop id=\"simcoll/intra/send-overhead\" value=\"0:1us..2us\"/>",
     "a range LO..HI can only stand for a single value; give the range as "
     "simcoll/intra/overhead instead"},
    {"<prop id=\"simcoll/intra/overhead\" value=\"0.8us\"/>",
     "<prop id=\"simcoll/intra/overhead\" value=\"0.8us\"/>"
     "<prop id=\"simcoll/intra/recv-overhead\" value=\"0:1us..2us\"/>",
     "simcoll/intra/recv-overhead = '0:1us..2us': this property takes a value per message "
     "size (SIZE:VALUE,...), and a range LO..HI can only stand for a single value; it has no "
     "single-valued form"},
    {"value=\"0.8us\"/>\n"
     "    <prop id=\"simcoll/intra/eager-limit\" value=\"65536\"/>\n"
     "    <prop id=\"simcoll/inter/overhead\" value=\"0.8us\"/>\n"
     "    <prop id=\"simcoll/inter/eager-limit\" value=\"6140\"/>\n"
     "    <prop id=\"simcoll/header-bytes\" value=\"40\"/>",
     "value=\"0.1us..1us\"/>\n"
     "    <prop id=\"simcoll/intra/eager-limit\" value=\"4K..64K\"/>\n"
     "    <prop id=\"simcoll/inter/overhead\" value=\"0.1us..1us\"/>\n"
     "    <prop id=\"simcoll/inter/eager-limit\" value=\"4K..64K\"/>\n"
     "    <prop id=\"simcoll/header-bytes\" value=\"0..64\"/>",
     "'0..64': at most 4 parameters may be ranges"},
    {"value=\"0.8us\"", "value=\"5s\"", "simcoll/intra/overhead = '5s' is out of range"},
    {"value=\"40\"", "value=\"1G\"", "simcoll/header-bytes = '1G' is out of range"},
    {"value=\"6140\"", "value=\"-1\"", "is negative"},
    /* LogGP properties */
    {"<prop id=\"simcoll/intra/overhead\" value=\"0.8us\"/>",
     "<prop id=\"simcoll/intra/overhead\" value=\"0.8us\"/><prop "
     "id=\"simcoll/intra/send-overhead\" value=\"0:1us\"/>",
     "gives both simcoll/intra/send-overhead and simcoll/intra/overhead"},
    {"    <prop id=\"simcoll/intra/overhead\" value=\"0.8us\"/>\n", "",
     "lacks <prop id=\"simcoll/intra/send-overhead\">"},
    {"<prop id=\"simcoll/inter/overhead\" value=\"0.8us\"/>",
     "<prop id=\"simcoll/inter/send-overhead\" value=\"64:1us\"/>",
     "the first segment starts at 64 bytes; one must start at 0"},
    {"<prop id=\"simcoll/inter/overhead\" value=\"0.8us\"/>",
     "<prop id=\"simcoll/inter/send-overhead\" value=\"0:1us;1K:2us;1024:3us\"/>",
     "two segments start at 1024 bytes"},
    {"<prop id=\"simcoll/inter/overhead\" value=\"0.8us\"/>",
     "<prop id=\"simcoll/inter/send-overhead\" value=\"0:1us:2ns:3ns\"/>",
     "segment '0:1us:2ns:3ns' is not SIZE:START[:PER_BYTE]"},
    {"<prop id=\"simcoll/inter/overhead\" value=\"0.8us\"/>",
     "<prop id=\"simcoll/inter/send-overhead\" value=\"0:-1us\"/>",
     "segment start: '-1us' is "
     "not a duration"},
    {"<prop id=\"simcoll/inter/overhead\" value=\"0.8us\"/>",
     "<prop id=\"simcoll/inter/send-overhead\" value=\"0:1us:1ms\"/>",
     "segment at 0 bytes: per byte '1ms' is out of range; a cost per byte is at most"},
    {"<prop id=\"simcoll/inter/overhead\" value=\"0.8us\"/>",
     "<prop id=\"simcoll/inter/send-overhead\" value=\"0:1us;1420:2s\"/>",
     "segment at 1420 bytes: start '2s' is out of range; a start is at most 1 s"},
    {"<prop id=\"simcoll/inter/overhead\" value=\"0.8us\"/>",
     "<prop id=\"simcoll/inter/send-overhead\" value=\"\"/>", "no segment"},
    {"<prop id=\"simcoll/header-bytes\" value=\"40\"/>",
     "<prop id=\"simcoll/header-bytes\" value=\"40\"/><prop "
     "id=\"simcoll/inter/bandwidth-factor\" value=\"0:0\"/>",
     "factor '0' is not a number above 0 and at most 2"},
    {"<prop id=\"simcoll/header-bytes\" value=\"40\"/>",
     "<prop id=\"simcoll/header-bytes\" value=\"40\"/><prop "
     "id=\"simcoll/inter/bandwidth-factor\" value=\"0:nan\"/>",
     "factor 'nan' is not a number"},
    /* a latency factor below 1 would shorten SimGrid's route */
    {"<prop id=\"simcoll/header-bytes\" value=\"40\"/>",
     "<prop id=\"simcoll/header-bytes\" value=\"40\"/><prop "
     "id=\"simcoll/inter/latency-factor\" value=\"0:1.5;1420:0.9\"/>",
     "latency-factor: factor '0.9' is below 1: simcoll adds the latency beyond the route's at "
     "the receiver and cannot take any away"},
    {"<prop id=\"simcoll/header-bytes\" value=\"40\"/>",
     "<prop id=\"simcoll/header-bytes\" value=\"40\"/><prop "
     "id=\"simcoll/intra/latency-factor\" value=\"0:0\"/>",
     "factor '0' is below 1"},
    {"<prop id=\"simcoll/header-bytes\" value=\"40\"/>",
     "<prop id=\"simcoll/header-bytes\" value=\"40\"/><prop "
     "id=\"simcoll/inter/latency-factor\" value=\"0:1;64K:1001\"/>",
     "factor '1001' is not a number of at least 1 and at most 1000"},
    {"<prop id=\"simcoll/header-bytes\" value=\"40\"/>",
     "<prop id=\"simcoll/header-bytes\" value=\"40\"/><prop "
     "id=\"simcoll/inter/latency-factor\" value=\"0:inf\"/>",
     "factor 'inf' is not a number of at least 1"},
    {"<prop id=\"simcoll/header-bytes\" value=\"40\"/>",
     "<prop id=\"simcoll/header-bytes\" value=\"40\"/><prop "
     "id=\"simcoll/inter/latency-factor\" value=\"0:nan\"/>",
     "factor 'nan' is not a number of at least 1"},
    {"<prop id=\"simcoll/header-bytes\" value=\"40\"/>",
     "<prop id=\"simcoll/header-bytes\" value=\"40\"/><prop "
     "id=\"simcoll/inter/latency-factor\" value=\"1420:2\"/>",
     "the first segment starts at 1420 bytes"},
    {"<prop id=\"simcoll/header-bytes\" value=\"40\"/>",
     "<prop id=\"simcoll/header-bytes\" value=\"40\"/><prop "
     "id=\"simcoll/inter/latency-factor\" value=\"0:1:2ns\"/>",
     "segment '0:1:2ns' is not SIZE:FACTOR"},
    {"<prop id=\"simcoll/header-bytes\" value=\"40\"/>",
     "<prop id=\"simcoll/header-bytes\" value=\"40\"/><prop id=\"simcoll/inter/gap\" "
     "value=\"-1us\"/>",
     "property simcoll/inter/gap: '-1us' is not a duration"},
    {"<prop id=\"simcoll/header-bytes\" value=\"40\"/>",
     "<prop id=\"simcoll/header-bytes\" value=\"40\"/><prop id=\"simcoll/intra/gap\" "
     "value=\"1us\"/>",
     "unknown simcoll property 'simcoll/intra/gap'"},
    {"<prop id=\"simcoll/inter/overhead\" value=\"0.8us\"/>",
     "<prop id=\"simcoll/inter/send-overhead\" value=\"0:0.8us;1420:1.2us:0.1ns\"/><prop "
     "id=\"simcoll/inter/recv-overhead\" value=\"0:2us\"/><prop "
     "id=\"simcoll/inter/bandwidth-factor\" value=\"65536:0.94;0:0.6\"/><prop "
     "id=\"simcoll/inter/latency-factor\" value=\"1420:1.6;0:1\"/><prop "
     "id=\"simcoll/inter/gap\" value=\"3us\"/>",
     NULL},
    /* structure */
    {"routing=\"Cluster\"", "routing=\"Full\"", "routing=\"Full\": simcoll simulates clusters"},
    {"routing=\"Cluster\"", "routing=\"Dijkstra\"", "routing=\"Dijkstra\""},
    {"<platform version=\"4.1\">", "<platform version=\"3\">", "version=\"3\""},
    {"<platform version=\"4.1\">", "<platform version=\"4.1\"><config id=\"x\"/>", NULL},
    {"  </zone>\n", "  </zone>\n  <config/>\n",
     "p.xml':21: <config> in <platform>: a simcoll "
     "platform holds one <zone routing=\"Cluster\">, after the <config> sections"},
    {"  </zone>\n", "  </zone>\n  <zone id=\"b\" routing=\"Cluster\"/>\n", "a second <zone>"},
    {"  <zone id=\"two\" routing=\"Cluster\">", "  <zone routing=\"Cluster\">",
     "<zone> needs a non-empty id"},
    {"    <host_link id=\"node-1\"", "    <cluster id=\"c\"/>\n    <host_link id=\"node-1\"",
     "<cluster> in the cluster"},
    {"    <host_link id=\"node-1\"",
     "    <actor host=\"node-0\" function=\"f\"/>\n    <host_link "
     "id=\"node-1\"",
     "<actor> in the cluster"},
    {"<host id=\"node-1\"", "<host id=\"node-0\"",
     "a second <host id=\"node-0\"> (first on line 10)"},
    {"<link id=\"node-1_nic\"", "<link id=\"node-0_nic\"", "a second <link id=\"node-0_nic\">"},
    {"<host_link id=\"node-1\"", "<host_link id=\"node-9\"", "no host 'node-9' is declared"},
    {"<host_link id=\"node-1\"", "<host_link id=\"node-0\"",
     "host 'node-0' has a second "
     "<host_link>"},
    {"up=\"node-0_nic_UP\"", "up=\"node-0_nic\"", "up=\"node-0_nic\": no such link"},
    {"up=\"node-0_nic_UP\"", "up=\"node-0_membus_UP\"", "no such link"},
    {"down=\"node-0_nic_DOWN\"", "down=\"nowhere\"", "down=\"nowhere\": no such link"},
    {"<route src=\"node-1\" dst=\"node-1\">", "<route src=\"node-0\" dst=\"node-1\">",
     "in a Cluster zone nodes reach each other through their <host_link>"},
    {"<route src=\"node-1\" dst=\"node-1\">", "<route src=\"node-0\" dst=\"node-0\">",
     "host 'node-0' has a second shared-memory <route>"},
    {"<link_ctn id=\"node-1_membus\"/>", "", "holds no <link_ctn>"},
    {"<link_ctn id=\"node-1_membus\"/>", "<link_ctn id=\"bus\"/>",
     "<link_ctn id=\"bus\">: no such "
     "link"},
    {"<link_ctn id=\"node-1_membus\"/>", "<link_ctn id=\"node-1_membus\" direction=\"LEFT\"/>",
     "direction=\"LEFT\""},
    {"    <route src=\"node-1\" dst=\"node-1\"><link_ctn id=\"node-1_membus\"/></route>\n", "",
     "node 'node-1' has no shared-memory route"},
    {"    <host_link id=\"node-1\" up=\"node-1_nic_UP\" down=\"node-1_nic_DOWN\"/>\n", "",
     "host 'node-1' has no <host_link"},
    {"sharing_policy=\"SHARED\"", "sharing_policy=\"WIFI\"",
     "sharing_policy=\"WIFI\": simcoll "
     "models SHARED, SPLITDUPLEX and "
     "FATPIPE"},
    {"<link id=\"node-0_membus\"", "<link id=\"node-1_nic_UP\"",
     "SimGrid gives that name to half of the SPLITDUPLEX link 'node-1_nic'"},
    {"<host id=\"node-0\"", "<host availability_file=\"a.txt\" id=\"node-0\"",
     "<host> has attribute 'availability_file', which simcoll does not model"},
    {"<host id=\"node-0\" speed=\"10Gf\" core=\"8\"/>",
     "<host id=\"node-0\" speed=\"10Gf\" core=\"8\"><disk id=\"d\"/></host>",
     "<disk> inside <host>: only <prop>"},
    {"<prop id=\"simcoll/header-bytes\"", "<prop id=\"simcoll/header-byte\"",
     "unknown simcoll property 'simcoll/header-byte'"},
    {"    <prop id=\"simcoll/header-bytes\" value=\"40\"/>\n", "",
     "lacks <prop id=\"simcoll/header-bytes\">"},
    {"<prop id=\"simcoll/header-bytes\" value=\"40\"/>",
     "<prop id=\"simcoll/header-bytes\" value=\"40\"/><prop id=\"simcoll/header-bytes\" "
     "value=\"40\"/>",
     "is set twice"},
    /* XML itself */
    {"<host id=\"node-0\"", "<host id=\"node-0\" id=\"x\"", "not a well-formed XML platform"},
    {"  </zone>\n", "", "not a well-formed XML platform"},
    {"<?xml version='1.0'?>", "<?xml version='1.0' encoding='ISO-8859-1'?>",
     "encoding 'ISO-8859-1': simcoll reads platform files in UTF-8"},
    {"<zone id=\"two\"", "<zone id=\"tw\xff\"", "not a well-formed XML platform"},
    {"<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">",
     "<!DOCTYPE platform [<!ENTITY bw \"1497MBps\">]>", "the DOCTYPE declares entities"},
    {"  <zone id=\"two\"", "  text\n  <zone id=\"two\"", "unexpected text"},
    {"<zone id=\"two\"", "<zone id=\"t&amp;wo\"", NULL}, /* fine: escaped */
    {"<host id=\"node-1\"", "<!-- -->\n    <host id=\"node-1\"", NULL},
};

static void test_refused(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *xml = variant(cases[i].from, cases[i].to);
        sc_platform_t plat;
        sc_err_t err = check(xml, &plat);
        const char *needle = cases[i].needle;
        if (!needle ? err != SC_OK : err != SC_ERR_INPUT || !strstr(sc_error_message(), needle)) {
            fprintf(stderr, "\ncase %zu (%s -> %s): got %d '%s', want '%s'\n", i, cases[i].from,
                    cases[i].to, err, sc_error_message(), needle ? needle : "ok");
            CU_FAIL("platform case");
        }
        free(xml);
    }
}

/* xml (freed) with each edits[i][0] replaced by edits[i][1], then `from`
 * by `to` (from NULL: nothing). */
static char *edited(char *xml, const char *const (*edits)[2], size_t n, const char *from,
                    const char *to)
{
    for (size_t i = 0; i < n + (from != NULL); i++) {
        char *next = i < n ? replaced(xml, edits[i][0], edits[i][1]) : replaced(xml, from, to);
        free(xml);
        xml = next;
    }
    return xml;
}

/* `good` as a torus of two nodes: no host_link, a simcoll/topology and a
 * "network" link; then `from` replaced by `to` (from NULL: nothing). */
static char *topology_variant(const char *from, const char *to)
{
    static const char *const edits[][2] = {
        {"    <host_link id=\"node-0\" up=\"node-0_nic_UP\" down=\"node-0_nic_DOWN\"/>\n", ""},
        {"    <host_link id=\"node-1\" up=\"node-1_nic_UP\" down=\"node-1_nic_DOWN\"/>\n", ""},
        {"routing=\"Cluster\">\n",
         "routing=\"Cluster\">\n    <prop id=\"simcoll/topology\" value=\"torus:2\"/>\n"
         "    <link id=\"network\" bandwidth=\"1GBps\" latency=\"1us\" "
         "sharing_policy=\"SHARED\"/>\n"},
    };
    return edited(strdup(good), edits, sizeof edits / sizeof edits[0], from, to);
}

/* simcoll/topology: SimGrid's topologies, checked before SimGrid sees
 * them (a dragonfly with more groups than routers crashes SimGrid 3.32). */
static void test_topology(void)
{
    sc_platform_t plat;
    char *xml = topology_variant(NULL, NULL);
    CU_ASSERT_EQUAL(check_keep(xml, &plat), SC_OK);
    CU_ASSERT_TRUE(plat.topology);
    sc_platform_destroy(&plat);
    free(xml);
    static const case_t bad[] = {
        {"torus:2", "torus:3", "connects 3 nodes, and the zone declares 2 hosts"},
        {"torus:2", "torus:0,2", "whole numbers of at least 1"},
        {"torus:2", "ring:2", "unknown kind"},
        {"torus:2", "fat-tree:1;2;1", "a fat tree takes 4 fields"},
        {"torus:2", "fat-tree:2;2;1,1;1,1", "one whole number of at least 1 per level"},
        {"torus:2", "dragonfly:2,1;1,1;1,1;1", "at most as many groups as routers per chassis"},
        {"torus:2", "racks:2", "racks take the nodes of a rack and the racks"},
        {"torus:2", "racks:1,2", "needs <link id=\"uplink\">"},
        /* its nodes' NIC links, node-0_nic, have the names racks give */
        {"torus:2\"/>\n    <link id=\"network\"",
         "racks:1,2\"/>\n    <link id=\"uplink\" bandwidth=\"1GBps\"/>\n    <link id=\"network\"",
         "<link id=\"node-0_nic\">: in racks simcoll names each node's link HOST_nic"},
        {"<link id=\"network\"", "<link id=\"net\"", "needs <link id=\"network\">"},
        {"    <route src=\"node-0\"",
         "    <host_link id=\"node-0\" up=\"node-0_nic_UP\" "
         "down=\"node-0_nic_DOWN\"/>\n    <route src=\"node-0\"",
         "<host_link> in a zone with"},
        {"<link_ctn id=\"node-1_membus\"/>", "<link_ctn id=\"node-0_membus\"/>",
         "share the memory-bus link 'node-0_membus'"},
        {"<link_ctn id=\"node-1_membus\"/>", "<link_ctn id=\"network\"/>", "not \"network\""},
        {"<link_ctn id=\"node-1_membus\"/>", "<link_ctn id=\"node-1_nic\" direction=\"UP\"/>",
         "holds one link of its own, by its id (not half of a SPLITDUPLEX link)"},
        {"<link_ctn id=\"node-1_membus\"/>",
         "<link_ctn id=\"node-1_membus\"/><link_ctn id=\"node-1_nic\" direction=\"UP\"/>",
         "holds one link of its own"},
        {"    <prop id=\"simcoll/header-bytes\"",
         "    <prop id=\"simcoll/topology\" value=\"torus:2\"/>\n    <prop "
         "id=\"simcoll/header-bytes\"",
         "is set twice"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        xml = topology_variant(bad[i].from, bad[i].to);
        sc_err_t err = check(xml, &plat);
        if (err != SC_ERR_INPUT || !strstr(sc_error_message(), bad[i].needle)) {
            fprintf(stderr, "\ntopology case %zu: got %d '%s', want '%s'\n", i, err,
                    sc_error_message(), bad[i].needle);
            CU_FAIL("topology case");
        }
        free(xml);
    }
}

/* topology_variant's nodes in one rack, each of two sockets of 4 cores,
 * then `from` replaced by `to`. */
static char *sockets_variant(const char *from, const char *to)
{
    static const char *const edits[][2] = {
        {"    <link id=\"node-0_nic\" bandwidth=\"1497MBps\" latency=\"1.9us\" "
         "sharing_policy=\"SPLITDUPLEX\"/>\n",
         ""},
        {"    <link id=\"node-1_nic\" bandwidth=\"1497MBps\" latency=\"1.9us\" "
         "sharing_policy=\"SPLITDUPLEX\"/>\n",
         ""},
        {"torus:2\"/>\n", "racks:2,1\"/>\n    <prop id=\"simcoll/sockets\" value=\"2\"/>\n"
                          "    <link id=\"socket\" bandwidth=\"10GBps\" latency=\"100ns\"/>\n"},
    };
    return edited(topology_variant(NULL, NULL), edits, sizeof edits / sizeof edits[0], from, to);
}

/* simcoll/sockets: nodes of sockets, in racks only, their cores shared
 * evenly, the link between them given, and no name the builder takes. */
static void test_sockets(void)
{
    sc_platform_t plat;
    char *xml = sockets_variant(NULL, NULL);
    CU_ASSERT_EQUAL(check_keep(xml, &plat), SC_OK);
    CU_ASSERT_EQUAL(plat.domain_count[SC_DOMAIN_SOCKET], 2);
    CU_ASSERT_EQUAL(plat.nlevels, 3); /* socket, node, cluster */
    CU_ASSERT_EQUAL(plat.ngroupings, 0); /* one rack is no level */
    sc_platform_destroy(&plat);
    free(xml);
    static const case_t bad[] = {
        {"simcoll/sockets\" value=\"2", "simcoll/sockets\" value=\"3",
         "<host id=\"node-0\"> has 8 cores, which 3 sockets (simcoll/sockets) cannot share evenly"},
        {"simcoll/sockets\" value=\"2", "simcoll/sockets\" value=\"2x",
         "simcoll/sockets '2x' is not a whole number of sockets in 1..64"},
        {"simcoll/sockets\" value=\"2", "simcoll/sockets\" value=\"0",
         "simcoll/sockets '0' is not a whole number"},
        {"<link id=\"socket\"", "<link id=\"sockets\"", "needs <link id=\"socket\">"},
        {"racks:2,1", "torus:2", "nodes have sockets in racks only"},
        {"    <prop id=\"simcoll/sockets\"",
         "    <prop id=\"simcoll/sockets\" value=\"1\"/>\n    <prop id=\"simcoll/sockets\"",
         "is set twice"},
        {"<link id=\"socket\"",
         "<link id=\"a_sockets\" bandwidth=\"1GBps\"/>\n    <link id=\"socket\"",
         "names the links between them PARENT_sockets, PARENT_numas and PARENT_ccxs"},
        {"<link_ctn id=\"node-1_membus\"/>", "<link_ctn id=\"socket\"/>", "\"socket\""},
        /* NUMA domains and CCXs: the same rules, and their product */
        {"simcoll/sockets\" value=\"2",
         "simcoll/sockets\" value=\"2\"/>\n    <prop id=\"simcoll/numa\" value=\"2",
         "a zone with simcoll/numa needs <link id=\"numa\">"},
        {"simcoll/sockets\" value=\"2",
         "simcoll/sockets\" value=\"2\"/>\n    <prop id=\"simcoll/numa\" value=\"3\"/>\n"
         "    <link id=\"numa\" bandwidth=\"10GBps\"/>\n    <prop id=\"x\" value=\"2",
         "has 8 cores, which 6 NUMA domains (simcoll/sockets x simcoll/numa) cannot share evenly"},
        {"simcoll/sockets\" value=\"2",
         "simcoll/sockets\" value=\"64\"/>\n    <prop id=\"simcoll/ccx\" value=\"2",
         "simcoll/ccx '2': 128 smallest domains a node, more than 64"},
        {"    <prop id=\"simcoll/sockets\"",
         "    <prop id=\"simcoll/ccx/flow-factor\" value=\"0:0.5\"/>\n    <prop "
         "id=\"simcoll/sockets\"",
         "<prop id=\"simcoll/ccx/flow-factor\">: the nodes have no CCXs (simcoll/ccx above 1 gives "
         "them)"},
        {"    <prop id=\"simcoll/sockets\"",
         "    <prop id=\"simcoll/socket/flow-factor\" value=\"0:2\"/>\n    <prop "
         "id=\"simcoll/sockets\"",
         "simcoll/socket/flow-factor"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        xml = sockets_variant(bad[i].from, bad[i].to);
        sc_err_t err = check(xml, &plat);
        if (err != SC_ERR_INPUT || !strstr(sc_error_message(), bad[i].needle)) {
            fprintf(stderr, "\nsockets case %zu: got %d '%s', want '%s'\n", i, err,
                    sc_error_message(), bad[i].needle);
            CU_FAIL("sockets case");
        }
        free(xml);
    }
    /* without racks */
    xml = variant("routing=\"Cluster\">\n",
                  "routing=\"Cluster\">\n    <prop id=\"simcoll/sockets\" value=\"2\"/>\n");
    CU_ASSERT_EQUAL(check(xml, &plat), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(sc_error_message(), "add <prop id=\"simcoll/topology\" value=\"racks:2,1\"/>"));
    free(xml);
}

/* The total core count must not overflow: 300 hosts of 65536 cores. */
static void test_too_many_cores(void)
{
    size_t cap = 300 * 200 + 4096;
    char *xml = malloc(cap);
    CU_ASSERT_PTR_NOT_NULL_FATAL(xml);
    int n = snprintf(xml, cap, "<platform version=\"4.1\"><zone id=\"z\" routing=\"Cluster\">\n");
    for (int h = 0; h < 300; h++)
        n += snprintf(xml + n, cap - (size_t)n, "<host id=\"n%d\" speed=\"1Gf\" core=\"65536\"/>\n",
                      h);
    snprintf(xml + n, cap - (size_t)n, "</zone></platform>\n");
    sc_platform_t plat;
    CU_ASSERT_EQUAL(check(xml, &plat), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "more than 16777216 cores in all"));
    free(xml);
}

/* End to end: a refused file never reaches SimGrid, so no SimGrid abort
 * or crash becomes the message. */
static void test_load_refuses(void)
{
    char path[] = "/tmp/simcoll-plat-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    char *xml = variant("routing=\"Cluster\"", "routing=\"Full\"");
    CU_ASSERT_EQUAL((size_t)write(fd, xml, strlen(xml)), strlen(xml));
    close(fd);
    sc_platform_t plat;
    CU_ASSERT_EQUAL(sc_platform_load("--platform", path, &plat), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "routing=\"Full\""));
    CU_ASSERT_PTR_NULL(strstr(sc_error_message(), "signal"));
    free(xml);
    remove(path);
}

/* SMPI's settings in <config> (sim/io/smpi_config.h). */

/* `good` without its network overhead and eager limit, with `config`
 * (the settings' <prop>s, or NULL: none) in a <config> on line 4. */
static char *smpi_variant(const char *config)
{
    char *a = variant("    <prop id=\"simcoll/inter/overhead\" value=\"0.8us\"/>\n", "");
    char *b = replaced(a, "    <prop id=\"simcoll/inter/eager-limit\" value=\"6140\"/>\n", "");
    free(a);
    if (!config)
        return b;
    static const char form[] = "<platform version=\"4.1\">\n  <config>%s</config>";
    size_t len = strlen(config) + sizeof form; /* the form's %s makes room for the NUL */
    char *with = malloc(len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(with);
    snprintf(with, len, form, config);
    char *c = replaced(b, "<platform version=\"4.1\">", with);
    free(b);
    free(with);
    return c;
}

static int same_piecewise(const sc_piecewise_t *a, const sc_piecewise_t *b)
{
    if (a->n != b->n)
        return 0;
    for (int k = 0; k < a->n; k++)
        if (a->seg[k].min_bytes != b->seg[k].min_bytes || a->seg[k].start != b->seg[k].start ||
            a->seg[k].per_byte != b->seg[k].per_byte)
            return 0;
    return 1;
}

/* Every parameter of two levels equal, to the bit. */
static int same_level(const sc_level_t *a, const sc_level_t *b)
{
    return a->latency_s == b->latency_s && a->bandwidth_Bps == b->bandwidth_Bps &&
           same_piecewise(&a->send_overhead, &b->send_overhead) &&
           same_piecewise(&a->recv_overhead, &b->recv_overhead) &&
           same_piecewise(&a->bandwidth_factor, &b->bandwidth_factor) &&
           same_piecewise(&a->latency_factor, &b->latency_factor) && a->gap_s == b->gap_s &&
           a->eager_limit == b->eager_limit;
}

/* The network level `config` gives, into *lv (the check must pass). */
static void smpi_level(const char *config, sc_level_t *lv)
{
    char *xml = smpi_variant(config);
    sc_platform_t plat;
    sc_err_t err = check_keep(xml, &plat);
    if (err)
        fprintf(stderr, "\n%s\n", sc_error_message());
    CU_ASSERT_EQUAL_FATAL(err, SC_OK);
    *lv = plat.level[SC_LEVEL_INTER];
    sc_platform_destroy(&plat);
    free(xml);
}

/* The settings read as the same properties would be, segment for
 * segment: SMPI's segment at SIZE from SIZE + 1 (overheads) or from SIZE
 * - 15 (factors, by the size with SMPI's 16-byte envelope), a factor of 1
 * below the first, the eager limit one below the thresholds. */
static void test_smpi_read(void)
{
    sc_platform_t plat;
    CU_ASSERT_EQUAL_FATAL(check_keep(good, &plat), SC_OK);
    sc_level_t lv, want = plat.level[SC_LEVEL_INTER];
    sc_platform_destroy(&plat);
    smpi_level("<prop id=\"smpi/os\" value=\"0:0.8us:0\"/>"
               "<prop id=\"smpi/async-small-thresh\" value=\"6141\"/>"
               "<prop id=\"smpi/send-is-detached-thresh\" value=\"6141\"/>"
               "<prop id=\"smpi/ois\" value=\"0:5us:0\"/><prop id=\"smpi/wtime\" value=\"1\"/>",
               &lv);
    CU_ASSERT_TRUE(same_level(&lv, &want));

    smpi_level("<prop id=\"smpi/os\" value=\"100:1us:0;0:2e-6:0:0:0;5000:3us:1ns\"/>"
               "<prop id=\"smpi/or\" value=\"7:1e-6:2e-9\"/>"
               "<prop id=\"smpi/bw-factor\" value=\"64:0.5;1420:0.9\"/>"
               "<prop id=\"smpi/lat-factor\" value=\"3:1.5;10:2;16:3\"/>"
               "<prop id=\"smpi/async-small-thresh\" value=\"1\"/>"
               "<prop id=\"smpi/send-is-detached-thresh\" value=\"1\"/>",
               &lv);
    const sc_piecewise_t os = {3, {{0, 2e-6, 0}, {101, 1e-6, 0}, {5001, 3e-6, 1e-9}}};
    const sc_piecewise_t or = {1, {{0, 1e-6, 2e-9}}};
    const sc_piecewise_t bw = {3, {{0, 1, 0}, {49, 0.5, 0}, {1405, 0.9, 0}}};
    const sc_piecewise_t lat = {2, {{0, 2, 0}, {1, 3, 0}}};
    CU_ASSERT_TRUE(same_piecewise(&lv.send_overhead, &os));
    CU_ASSERT_TRUE(same_piecewise(&lv.recv_overhead, &or));
    CU_ASSERT_TRUE(same_piecewise(&lv.bandwidth_factor, &bw));
    CU_ASSERT_TRUE(same_piecewise(&lv.latency_factor, &lat));
    CU_ASSERT_EQUAL(lv.eager_limit, 0);
    /* A factor of 1 everywhere is the default: no segment. */
    smpi_level("<prop id=\"smpi/os\" value=\"0:1us:0\"/>"
               "<prop id=\"smpi/bw-factor\" value=\"0:1;65536:1\"/>"
               "<prop id=\"smpi/async-small-thresh\" value=\"6141\"/>"
               "<prop id=\"smpi/send-is-detached-thresh\" value=\"6141\"/>",
               &lv);
    CU_ASSERT_EQUAL(lv.bandwidth_factor.n, 0);
    CU_ASSERT_EQUAL(lv.recv_overhead.n, 0);
    /* SimGrid reads the settings as simcoll's properties. */
    char *xml = smpi_variant("<prop id=\"smpi/os\" value=\"0:1us:0\"/>"
                             "<prop id=\"smpi/async-small-thresh\" value=\"6141\"/>"
                             "<prop id=\"smpi/send-is-detached-thresh\" value=\"6141\"/>");
    CU_ASSERT_EQUAL_FATAL(check_keep(xml, &plat), SC_OK);
    CU_ASSERT_PTR_NULL(strstr(plat.engine_xml, "config"));
    CU_ASSERT_PTR_NOT_NULL(strstr(plat.engine_xml, "<prop id=\"simcoll/inter/send-overhead\" "
                                                   "value=\"0:1e-06s:0s\"/>"));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(plat.engine_xml, "<prop id=\"simcoll/inter/eager-limit\" value=\"6140\"/>"));
    sc_platform_destroy(&plat);
    free(xml);
}

/* Read, written as SMPI's settings (sc_smpi_write), read again: the same
 * network level, and the same text written again. */
static void test_smpi_round_trip(void)
{
    static const char *const configs[] = {
        "<prop id=\"smpi/os\" value=\"0:1.72337677392447e-06:2.80556540986036e-10;1420:0:0;"
        "65536:7.58804087458976e-06:6.77088730090102e-11\"/>"
        "<prop id=\"smpi/or\" value=\"0:3.27843243070814e-06:3.41675771019744e-09;1420:1us:0\"/>"
        "<prop id=\"smpi/bw-factor\" value=\"0:0.057020586149179;1420:0.955647413834744;"
        "65536:1.55105118737739;131072:0.683839496893133;450000:0.613154277278705\"/>"
        "<prop id=\"smpi/lat-factor\" value=\"0:1.42;1420:1.15371118224093;"
        "65536:1.89572829187563\"/>"
        "<prop id=\"smpi/async-small-thresh\" value=\"17408\"/>"
        "<prop id=\"smpi/send-is-detached-thresh\" value=\"17408\"/>",
        /* defaults: no receive overhead, factors 1 */
        "<prop id=\"smpi/os\" value=\"0:1us:0\"/>"
        "<prop id=\"smpi/async-small-thresh\" value=\"65536\"/>"
        "<prop id=\"smpi/send-is-detached-thresh\" value=\"65536\"/>",
        /* factors 1 below SMPI's first size */
        "<prop id=\"smpi/os\" value=\"0:1us:0\"/>"
        "<prop id=\"smpi/bw-factor\" value=\"1000:0.5\"/>"
        "<prop id=\"smpi/lat-factor\" value=\"100:2;7:1.5\"/>"
        "<prop id=\"smpi/async-small-thresh\" value=\"1\"/>"
        "<prop id=\"smpi/send-is-detached-thresh\" value=\"1\"/>",
    };
    for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++) {
        sc_level_t first, second;
        smpi_level(configs[i], &first);
        char *text[2] = {NULL, NULL};
        for (int pass = 0; pass < 2; pass++) {
            size_t len = 0;
            FILE *f = open_memstream(&text[pass], &len);
            CU_ASSERT_PTR_NOT_NULL_FATAL(f);
            CU_ASSERT_EQUAL(sc_smpi_write(f, pass ? &second : &first, ""), SC_OK);
            fclose(f);
            /* The <prop>s between <config> and </config>. */
            char *props = strstr(text[pass], "<prop");
            CU_ASSERT_PTR_NOT_NULL_FATAL(props);
            *strstr(props, "</config>") = '\0';
            if (!pass)
                smpi_level(props, &second);
        }
        if (!same_level(&first, &second) || strcmp(text[0], text[1]))
            fprintf(stderr, "\nconfig %zu:\n%s\n%s\n", i, text[0], text[1]);
        CU_ASSERT_TRUE(same_level(&first, &second));
        CU_ASSERT_STRING_EQUAL(text[0], text[1]);
        free(text[0]);
        free(text[1]);
    }
    /* What SMPI cannot hold is refused. */
    sc_level_t big = {.send_overhead = sc_piecewise_constant(1e-6), .eager_limit = 1ul << 31};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CU_ASSERT_EQUAL(sc_smpi_write(f, &big, ""), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "SMPI's are ints"));
    fclose(f);
    free(text);
}

/* Settings simcoll cannot simulate as SMPI would, or that SMPI would read
 * otherwise than they seem, refused with the file, the line (<config> is
 * on line 4, its props with it) and the reason. */
static void test_smpi_refused(void)
{
#define OS "<prop id=\"smpi/os\" value=\"0:1us:0\"/>"
#define THRESH                                                                                     \
    "<prop id=\"smpi/async-small-thresh\" value=\"6141\"/>"                                        \
    "<prop id=\"smpi/send-is-detached-thresh\" value=\"6141\"/>"
    static const struct {
        const char *config, *needle;
    } smpi_cases[] = {
        {OS THRESH "<prop id=\"smpi/lat-factor\" value=\"0:0.5;1420:1.2\"/>",
         "p.xml':4: <config> smpi/lat-factor: factor 0.5 (segment at 0 bytes) is below 1: "
         "simcoll adds the latency beyond the route's at the receiver and cannot take any away. "
         "Give the NIC links 0.5 times their latency and divide every factor by 0.5"},
        {OS THRESH "<prop id=\"smpi/bw-factor\" value=\"0:0\"/>", "factor 0 (segment at 0 "
                                                                   "bytes) is not above 0"},
        {OS THRESH "<prop id=\"smpi/bw-factor\" value=\"0:3\"/>", "and at most 2"},
        {OS THRESH "<prop id=\"smpi/bw-factor\" value=\"0:fast\"/>", "factor 'fast' is not a "
                                                                      "number"},
        {OS THRESH "<prop id=\"smpi/bw-factor\" value=\"0:0.5:1\"/>", "is not SIZE:FACTOR"},
        {"<prop id=\"smpi/os\" value=\"0:1us\"/>" THRESH,
         "smpi/os: segment '0:1us' is not SIZE:START:PER_BYTE"},
        {"<prop id=\"smpi/os\" value=\"0:1us:0;4e+05:2us:0\"/>" THRESH,
         "'4e+05' is not a whole number of bytes"},
        {"<prop id=\"smpi/os\" value=\"-1:1us:0\"/>" THRESH, "'-1' is not a whole number"},
        {"<prop id=\"smpi/os\" value=\"0:-1us:0\"/>" THRESH, "takes no negative overhead"},
        {"<prop id=\"smpi/os\" value=\"0:1us:-1ns\"/>" THRESH, "takes no negative overhead"},
        {"<prop id=\"smpi/os\" value=\"0:2s:0\"/>" THRESH, "is out of range"},
        /* the field out of range and its value named */
        {"<prop id=\"smpi/os\" value=\"0:1us:0;1420:1e308:0\"/>" THRESH,
         "smpi/os: START 1e+308 s (segment at 1420 bytes) is out of range; a start is at most "
         "1 s"},
        {"<prop id=\"smpi/or\" value=\"0:1us:0.5\"/>" OS THRESH,
         "smpi/or: PER_BYTE 0.5 s (segment at 0 bytes) is out of range; a cost per byte is at "
         "most"},
        {"<prop id=\"smpi/os\" value=\"0:1parsec:0\"/>" THRESH, "'1parsec' is not a duration"},
        {"<prop id=\"smpi/os\" value=\"0:1us:0;0:2us:0\"/>" THRESH, "two segments at 0 bytes"},
        {"<prop id=\"smpi/os\" value=\"\"/>" THRESH, "smpi/os: no segment"},
        {OS "<prop id=\"smpi/send-is-detached-thresh\" value=\"6141\"/>",
         "gives smpi/send-is-detached-thresh but not smpi/async-small-thresh"},
        {OS "<prop id=\"smpi/async-small-thresh\" value=\"6141\"/>",
         "gives smpi/async-small-thresh but not smpi/send-is-detached-thresh"},
        {OS "<prop id=\"smpi/async-small-thresh\" value=\"100\"/>"
            "<prop id=\"smpi/send-is-detached-thresh\" value=\"6141\"/>",
         "smpi/async-small-thresh 100 is below smpi/send-is-detached-thresh 6141: a send of "
         "100 to 6140 bytes returns at once in SMPI, but its data waits for the receive"},
        {OS "<prop id=\"smpi/async-small-thresh\" value=\"7000\"/>"
            "<prop id=\"smpi/send-is-detached-thresh\" value=\"6141\"/>",
         "which SMPI refuses"},
        {OS "<prop id=\"smpi/async-small-thresh\" value=\"0\"/>"
            "<prop id=\"smpi/send-is-detached-thresh\" value=\"0\"/>",
         "sends no message eagerly"},
        {OS "<prop id=\"smpi/async-small-thresh\" value=\"1e4\"/>"
            "<prop id=\"smpi/send-is-detached-thresh\" value=\"1e4\"/>",
         "'1e4' is not a whole number of bytes"},
        {OS "<prop id=\"smpi/async-small-thres\" value=\"6141\"/>"
            "<prop id=\"smpi/send-is-detached-thresh\" value=\"6141\"/>",
         "p.xml':4: <config> smpi/async-small-thres: SimGrid 3.32 names it "
         "smpi/async-small-thresh"},
        {OS THRESH "<prop id=\"network/model\" value=\"SMPI\"/>",
         "<config> network/model: simcoll configures SimGrid itself"},
        {OS OS THRESH, "<config> sets smpi/os twice"},
        {OS THRESH "<cluster/>", "<cluster> inside <config>: only <prop>"},
        {OS THRESH "<prop id=\"smpi/or\"/>", "<prop id=\"smpi/or\"> needs value="},
        /* the zone's properties lack what no setting gives */
        {THRESH, "lacks <prop id=\"simcoll/inter/send-overhead\">"},
        {OS, "lacks <prop id=\"simcoll/inter/eager-limit\">"},
    };
    for (size_t i = 0; i < sizeof smpi_cases / sizeof smpi_cases[0]; i++) {
        char *xml = smpi_variant(smpi_cases[i].config);
        sc_platform_t plat;
        sc_err_t err = check(xml, &plat);
        if (err != SC_ERR_INPUT || !strstr(sc_error_message(), smpi_cases[i].needle)) {
            fprintf(stderr, "\nsmpi case %zu: got %d '%s', want '%s'\n", i, err,
                    sc_error_message(), smpi_cases[i].needle);
            CU_FAIL("smpi case");
        }
        free(xml);
    }
    /* A setting and the zone's property for the same parameter. */
    char *both = replaced(good, "<platform version=\"4.1\">",
                          "<platform version=\"4.1\">\n  <config>" OS "</config>");
    sc_platform_t plat;
    CU_ASSERT_EQUAL(check(both, &plat), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(),
                                  "p.xml':4: <config> gives smpi/os, and the zone "
                                  "simcoll/inter/overhead (line 8): both are the network's "
                                  "send-overhead; keep one of them"));
    free(both);
#undef OS
#undef THRESH
}

void sc_suite_platform_file(void)
{
    CU_pSuite s = CU_add_suite("platform-file", NULL, NULL);
    CU_add_test(s, "a good platform", test_good);
    CU_add_test(s, "hostile variants refused", test_refused);
    CU_add_test(s, "SimGrid's topologies", test_topology);
    CU_add_test(s, "nodes of sockets", test_sockets);
    CU_add_test(s, "total cores bounded", test_too_many_cores);
    CU_add_test(s, "refused before SimGrid", test_load_refuses);
    CU_add_test(s, "SMPI's settings read", test_smpi_read);
    CU_add_test(s, "SMPI's settings written back identically", test_smpi_round_trip);
    CU_add_test(s, "SMPI's settings refused", test_smpi_refused);
}
