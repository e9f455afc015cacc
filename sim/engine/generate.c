/* Writing platform files for clusters that do not exist (what-if studies)
 * or that were just measured (calibration).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "generate.h"

#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/zone.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xbt/dynar.h>

#include "algorithms/registry.h"
#include "common/sc_units.h"
#include "sim/simgrid/child.h"
#include "sim/simgrid/engine.h"
#include "sim/simgrid/engine_hosts.h"
#include "sim/simgrid/topology_build.h"
#include "sim/io/files.h"
#include "sim/io/platform_file.h"
#include "sim/io/platform_props.h"
#include "sim/io/smpi_config.h"
#include "sim/io/topology.h"

/* One link as the generator rewrites it for every node. */
typedef struct {
    double bandwidth_Bps, latency_s;
    char policy[16]; /* SHARED, FATPIPE or SPLITDUPLEX */
} link_spec_t;

/* The most cores a generated node has, and the most nodes (as --cores
 * and --nodes allow). */
enum { MAX_CORES = 1 << 16, MAX_NODES = 1 << 20 };

const sc_network_preset_t sc_network_presets[] = {
    {"gige", "gige.xml", "Gigabit Ethernet, MPICH2 1.2.1 over TCP (fitted to Grid'5000 graphene)"},
    {"ib4x-ddr", "ib4x.xml", "InfiniBand 4x DDR, Mellanox InfiniHost III Ex, MVAPICH2 1.4"},
    {"ib4x-edr", "ib4x-edr.xml",
     "InfiniBand 4x EDR, Mellanox ConnectX-4, Open MPI 4.0.3 + UCX (fitted to alaska)"},
    {"ib-hdr100", "ib-hdr100.xml",
     "InfiniBand HDR100, Mellanox ConnectX-6, Open MPI 3.1.6 + UCX (fitted to cclake)"},
    {"roce-25g", "roce-25g.xml",
     "25 Gb/s Ethernet (RoCE), Mellanox ConnectX-4, Open MPI 4.0.3 + UCX (fitted to alaska)"},
    {"roce-50g", "roce-50g.xml",
     "50 Gb/s Ethernet (RoCE), Mellanox ConnectX-6, Open MPI 3.1.6 + UCX (fitted to cclake)"},
    {"tengige", "tengige.xml",
     "10 Gigabit Ethernet, Intel X520, Open MPI over TCP (fitted to Grid'5000 taurus)"},
    {"ib-fdr", "ib-fdr.xml",
     "InfiniBand FDR, Mellanox ConnectX-3, MVAPICH2 2.1 (fitted to TACC Stampede)"},
    {NULL, NULL, NULL},
};

/* The preset named `name`; NULL (an error naming the presets) if none. */
static const sc_network_preset_t *find_network(const char *name)
{
    for (const sc_network_preset_t *n = sc_network_presets; n->name; n++)
        if (strcmp(n->name, name) == 0)
            return n;
    char names[512] = "";
    for (const sc_network_preset_t *n = sc_network_presets; n->name; n++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                 n == sc_network_presets ? "" : ", ", n->name);
    sc_error(SC_ERR_INPUT, "--net: unknown interconnect '%s'; use %s", name, names);
    return NULL;
}

sc_err_t sc_generate_check_net(const char *net)
{
    return find_network(net) ? SC_OK : SC_ERR_INPUT;
}

/* The network level of preset `name`. */
static sc_err_t load_network(const char *name, sc_level_t *level)
{
    const sc_network_preset_t *n = find_network(name);
    if (!n)
        return SC_ERR_INPUT;
    sc_platform_t plat;
    sc_err_t err = sc_platform_load("--net", n->platform, &plat);
    if (err)
        return err;
    *level = plat.level[SC_LEVEL_INTER];
    sc_platform_destroy(&plat);
    return SC_OK;
}

typedef struct {
    link_spec_t membus, nic;
    link_spec_t uplink; /* racks: the link of a rack's switch to the core's */
    /* domains in nodes: the links between a node's sockets, NUMA domains,
     * CCXs (by sc_domain_kind_t) */
    link_spec_t domain_link[SC_NDOMAIN_KINDS];
    double speed_flops;
    int cores;
    char *prop_values[SC_MAX_PLATFORM_PROPS]; /* of sc_platform_props_list's */
} template_t;

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static void describe_link(sg_link_t link, link_spec_t *spec)
{
    spec->bandwidth_Bps = sg_link_get_bandwidth(link);
    spec->latency_s = sg_link_get_latency(link);
    snprintf(spec->policy, sizeof spec->policy, "%s",
             sg_link_is_shared(link) ? "SHARED" : "FATPIPE");
}

/* In a child: reads one node's links and the zone's properties. The
 * template was checked by sc_platform_load beforehand. */
static sc_err_t read_template(void *arg, sc_wire_t *out)
{
    const sc_platform_t *plat = arg;
    const char *path = plat->path;
    sc_engine_boot(plat, 0);
    /* The template is uniform (checked by the caller): any two nodes show
     * its links. */
    sg_host_t *hosts = sg_host_list();
    sg_host_t a = hosts[0], b = hosts[1];
    free(hosts);
    template_t t = {.speed_flops = sg_host_get_speed(a), .cores = sg_host_core_count(a)};
    xbt_dynar_t loop = xbt_dynar_new(sizeof(sg_link_t), NULL);
    xbt_dynar_t route = xbt_dynar_new(sizeof(sg_link_t), NULL);
    xbt_dynar_t net = xbt_dynar_new(sizeof(sg_link_t), NULL);
    sc_engine_route(a, a, loop);
    sc_engine_route(a, b, route);
    /* The nodes' links both ways cross (NODE_bidirectional) are the
     * network level's property, copied with the others. */
    for (unsigned i = 0; i < xbt_dynar_length(route); i++) {
        sg_link_t link = xbt_dynar_get_as(route, i, sg_link_t);
        if (!ends_with(sg_link_get_name(link), SC_ENGINE_BIDIRECTIONAL_SUFFIX))
            xbt_dynar_push_as(net, sg_link_t, link);
    }
    xbt_dynar_free(&route);
    const char *topology = sg_zone_get_property_value(sc_engine_zone(), "simcoll/topology");
    sc_topology_t one_switch;
    sc_err_t err = SC_OK;
    if (topology && (sc_topology_parse("simcoll/topology", topology, &one_switch) != SC_OK ||
                     one_switch.kind != SC_TOPO_RACKS || one_switch.racks != 1)) {
        err = sc_error(SC_ERR_INPUT,
                       "--like '%s': a platform with a topology (simcoll/topology) cannot be a "
                       "template; give the template it was made from (its generated-by "
                       "property) with --topology or --levels",
                       path);
    } else if (xbt_dynar_length(loop) != 1 || xbt_dynar_length(net) != 2) {
        err = sc_error(SC_ERR_INPUT,
                       "--like '%s': the generator copies clusters whose nodes have one "
                       "memory-bus link and one network link each (like platforms/*.xml); "
                       "this one has %lu and %lu",
                       path, xbt_dynar_length(loop), xbt_dynar_length(net) / 2);
    } else {
        describe_link(xbt_dynar_get_as(loop, 0, sg_link_t), &t.membus);
        sg_link_t up = xbt_dynar_get_as(net, 0, sg_link_t);
        describe_link(up, &t.nic);
        if (ends_with(sg_link_get_name(up), "_UP"))
            snprintf(t.nic.policy, sizeof t.nic.policy, "SPLITDUPLEX");
        sc_wire_put(out, &t, sizeof t);
        sc_platform_prop_t props[SC_MAX_PLATFORM_PROPS];
        int nprops = sc_platform_props_list(props);
        for (int i = 0; i < nprops; i++) {
            const char *value = sg_zone_get_property_value(sc_engine_zone(), props[i].id);
            sc_wire_put_int(out, value != NULL); /* optional ones may be absent */
            if (value)
                sc_wire_put_str(out, value);
        }
    }
    xbt_dynar_free(&loop);
    xbt_dynar_free(&net);
    return err;
}

static void write_link(FILE *f, const char *id, const link_spec_t *l)
{
    char bandwidth[48], latency[48];
    sc_format_quantity(l->bandwidth_Bps, SC_QTY_BANDWIDTH, bandwidth, sizeof bandwidth);
    sc_format_quantity(l->latency_s, SC_QTY_TIME, latency, sizeof latency);
    fprintf(f, "    <link id=\"%s\" bandwidth=\"%s\" latency=\"%s\" sharing_policy=\"%s\"/>\n",
            id, bandwidth, latency, l->policy);
}

/* Writes s into a comment, which may not hold "--". */
static void put_comment_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        fputc(*s, f);
        if (*s == '-' && s[1] == '-')
            fputc(' ', f);
    }
}

/* The cores of node n. */
static int cores_of(const sc_generate_spec_t *spec, int n)
{
    return spec->node_cores ? spec->node_cores[n] : spec->cores;
}

/* "8x8" for 8 nodes of 8 cores; uneven nodes as their runs, "4x16+2x8". */
static void put_shape(FILE *f, const sc_generate_spec_t *spec)
{
    for (int n = 0, run; n < spec->nodes; n += run) {
        for (run = 1; n + run < spec->nodes && cores_of(spec, n + run) == cores_of(spec, n);)
            run++;
        fprintf(f, "%s%dx%d", n ? "+" : "", run, cores_of(spec, n));
    }
}

/* The template's zone id split around the shape a generator wrote after
 * its name: "tengige-16x32-intra.latency=2x" of 16 nodes of 32 cores is
 * "tengige" and "-intra.latency=2x". A platform generated from a generated
 * one then names its own shape once, where it would pile the template's
 * and its own up ("tengige-16x32-16x32-..."); what else the template's
 * name says still applies and stays. A zone without its shape is all
 * base. */
static void split_zone(const sc_platform_t *plat, char *base, size_t size, const char **rest)
{
    char shape[256] = "-";
    size_t n = 1;
    for (int i = 0, run; i < plat->nnodes && n < sizeof shape; i += run) {
        for (run = 1; i + run < plat->nnodes && plat->nodes[i + run].cores == plat->nodes[i].cores;)
            run++;
        n += (size_t)snprintf(shape + n, sizeof shape - n, "%s%dx%d", i ? "+" : "", run,
                              plat->nodes[i].cores);
    }
    const char *at = plat->name;
    while ((at = strstr(at, shape)) && at[n] != '\0' && at[n] != '-')
        at++;
    size_t len = at ? (size_t)(at - plat->name) : strlen(plat->name);
    snprintf(base, size, "%.*s", (int)len, plat->name);
    *rest = at ? at + n : "";
}

/* `config`: NULL, or the <config> of SMPI's settings, which then take the
 * place of the network properties they give. `zone_base` and `zone_rest`:
 * the template's name around its shape (split_zone). */
static void write_platform(FILE *f, const template_t *t, const char *template_path,
                           const char *zone_base, const char *zone_rest,
                           const sc_generate_spec_t *spec, const char *config)
{
    int nodes = spec->nodes;
    /* The template's path goes into an attribute, where it can be escaped:
     * a comment may not hold "--", which paths can. */
    fprintf(f,
            "<?xml version='1.0'?>\n"
            "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
            "<!-- Generated by simcoll: %d nodes (nodes x cores: ",
            nodes);
    put_shape(f, spec);
    fprintf(f,
            ") with the memory bus,\n"
            "  network link and protocol properties of the nodes of the template named in\n"
            "  the generated-by property below%s; the sources of those\n"
            "  numbers are cited there and in simcoll's platforms/README.md.",
            spec->level ? " (but for the level calibrated here)"
            : spec->net ? ",\n  but for the network: the interconnect preset named there" : "");
    if (spec->comment) {
        fputs("\n", f);
        put_comment_text(f, spec->comment);
    }
    fputs(" -->\n<platform version=\"4.1\">\n", f);
    if (config)
        fputs(config, f);
    fputs("  <zone id=\"", f);
    sc_xml_put_escaped(f, spec->name ? spec->name : spec->net ? spec->net : zone_base);
    fputc('-', f);
    put_shape(f, spec);
    if (!spec->name && !spec->net)
        sc_xml_put_escaped(f, zone_rest);
    /* The name is the run's platform column: whatever makes two generated
     * platforms differ is in it, so that a what-if's rows tell them apart
     * (two fat trees of other shapes, other --set factors). */
    if (spec->topology) {
        fputc('-', f);
        sc_xml_put_escaped(f, spec->topology);
    }
    for (int d = SC_NDOMAIN_KINDS - 1; d >= 0; d--)
        if (spec->domains[d] > 1)
            fprintf(f, "-%d%s%s", spec->domains[d], sc_domain_name((sc_domain_kind_t)d),
                    d == SC_DOMAIN_SOCKET ? "s" : "");
    for (int i = 0; i < spec->nsets; i++) {
        fputc('-', f);
        sc_xml_put_escaped(f, spec->sets[i]);
    }
    fputs("\" routing=\"Cluster\">\n    <prop id=\"generated-by\" value=\"", f);
    if (spec->made_by) {
        sc_xml_put_escaped(f, spec->made_by);
    } else {
        fputs("simcoll platform --like ", f);
        sc_xml_put_escaped(f, template_path);
        if (spec->net) {
            fputs(" --net ", f);
            sc_xml_put_escaped(f, spec->net);
        }
        if (spec->topology) {
            fputs(" --topology ", f);
            sc_xml_put_escaped(f, spec->topology);
        }
        for (int d = SC_NDOMAIN_KINDS - 1; d >= 0; d--)
            if (spec->domains[d] > 1)
                fprintf(f, " --%s%s %d", sc_domain_name((sc_domain_kind_t)d),
                        d == SC_DOMAIN_SOCKET ? "s" : "", spec->domains[d]);
        fprintf(f, " --nodes %d --cores ", nodes);
        if (spec->node_cores)
            put_shape(f, spec);
        else
            fprintf(f, "%d", spec->cores);
        for (int i = 0; i < spec->nsets; i++) {
            fputs(" --set ", f);
            sc_xml_put_escaped(f, spec->sets[i]);
        }
        if (spec->smpi_config)
            fputs(" --smpi-config", f);
    }
    fputs("\"/>\n", f);
    /* Domains in nodes are built in racks (simcoll/sockets, ...), and so
     * is the NICs' limit both ways (a link of each node's besides its NIC
     * link): one rack is one switch. */
    int domains = 0;
    for (int d = 0; d < SC_NDOMAIN_KINDS; d++)
        domains |= spec->domains[d] > 1;
    int bidirectional =
        t->prop_values[sc_platform_prop_index("simcoll/inter/bidirectional-bandwidth")] != NULL;
    int built = spec->topology || domains || bidirectional;
    if (spec->topology) {
        fputs("    <prop id=\"simcoll/topology\" value=\"", f);
        sc_xml_put_escaped(f, spec->topology);
        fputs("\"/>\n", f);
    } else if (built) {
        fprintf(f, "    <prop id=\"simcoll/topology\" value=\"racks:%d,1\"/>\n", nodes);
    }
    for (int d = SC_NDOMAIN_KINDS - 1; d >= 0; d--)
        if (spec->domains[d] > 1)
            fprintf(f, "    <prop id=\"simcoll/%s%s\" value=\"%d\"/>\n",
                    sc_domain_name((sc_domain_kind_t)d), d == SC_DOMAIN_SOCKET ? "s" : "",
                    spec->domains[d]);
    for (int d = SC_NDOMAIN_KINDS - 1; d >= 0; d--)
        if (spec->domain_flow[d] && spec->domain_flow[d]->n > 0) {
            fprintf(f, "    <prop id=\"simcoll/%s/flow-factor\" value=\"",
                    sc_domain_name((sc_domain_kind_t)d));
            sc_piecewise_write(f, spec->domain_flow[d], 1);
            fputs("\"/>\n", f);
        }
    sc_platform_prop_t props[SC_MAX_PLATFORM_PROPS];
    int nprops = sc_platform_props_list(props);
    for (int i = 0; i < nprops; i++) {
        if (!t->prop_values[i] || (config && sc_smpi_gives(&props[i])))
            continue;
        fprintf(f, "    <prop id=\"%s\" value=\"", props[i].id);
        sc_xml_put_escaped(f, t->prop_values[i]);
        fputs("\"/>\n", f);
    }
    char id[64], speed[48];
    sc_format_quantity(t->speed_flops, SC_QTY_SPEED, speed, sizeof speed);
    for (int n = 0; n < nodes; n++)
        fprintf(f, "    <host id=\"node-%d\" speed=\"%s\" core=\"%d\"/>\n", n, speed,
                cores_of(spec, n));
    if (built)
        write_link(f, "network", &t->nic);
    if (t->uplink.bandwidth_Bps > 0)
        write_link(f, "uplink", &t->uplink);
    for (int d = SC_NDOMAIN_KINDS - 1; d >= 0; d--)
        if (spec->domains[d] > 1)
            write_link(f, sc_domain_name((sc_domain_kind_t)d), &t->domain_link[d]);
    for (int n = 0; n < nodes; n++) {
        snprintf(id, sizeof id, "node-%d_nic", n);
        if (!built)
            write_link(f, id, &t->nic);
        snprintf(id, sizeof id, "node-%d_membus", n);
        write_link(f, id, &t->membus);
    }
    int split = strcmp(t->nic.policy, "SPLITDUPLEX") == 0;
    for (int n = 0; n < nodes && !built; n++)
        fprintf(f, "    <host_link id=\"node-%d\" up=\"node-%d_nic%s\" down=\"node-%d_nic%s\"/>\n",
                n, n, split ? "_UP" : "", n, split ? "_DOWN" : "");
    for (int n = 0; n < nodes; n++)
        fprintf(f,
                "    <route src=\"node-%d\" dst=\"node-%d\"><link_ctn "
                "id=\"node-%d_membus\"/></route>\n",
                n, n, n);
    fputs("  </zone>\n</platform>\n", f);
}

/* --smpi-config: the <config> of SMPI's settings for the network level
 * the properties `t` writes give, into *config (a new string). */
static sc_err_t smpi_config(const template_t *t, const char *zone, char **config)
{
    sc_platform_t plat = {0};
    int line[SC_MAX_PLATFORM_PROPS] = {0};
    sc_err_t err = sc_platform_props_read("--smpi-config: the platform", zone,
                                          (const char *const *)t->prop_values, line, &plat);
    sc_platform_prop_t props[SC_MAX_PLATFORM_PROPS];
    int nprops = sc_platform_props_list(props);
    for (int r = 0; r < plat.nranges && !err; r++) {
        const sc_param_t *p = &sc_params[plat.ranges[r].param];
        for (int i = 0; i < nprops && !err; i++)
            if (props[i].at == (sc_param_at_t)plat.ranges[r].at && sc_smpi_gives(&props[i]) &&
                (props[i].param == p || (props[i].param->constant_of &&
                                         !strcmp(props[i].param->constant_of, p->name))))
                err = sc_error(SC_ERR_INPUT,
                               "--smpi-config: the network's %s is a range LO..HI, which SMPI "
                               "cannot take; give one value",
                               p->name);
    }
    if (!err && plat.level[SC_LEVEL_INTER].flow_factor.n > 0)
        err = sc_error(SC_ERR_INPUT,
                       "--smpi-config: the network has a flow-factor, a bound on each message "
                       "that SMPI has no setting for; remove it to write SMPI's settings");
    if (!err && plat.level[SC_LEVEL_INTER].bidirectional_Bps > 0)
        err = sc_error(SC_ERR_INPUT,
                       "--smpi-config: the network has a bidirectional-bandwidth, a link of "
                       "each node that simcoll builds and SMPI has no setting for; remove it to "
                       "write SMPI's settings");
    size_t len = 0;
    FILE *f = NULL;
    if (!err && !(f = open_memstream(config, &len)))
        err = sc_error(SC_ERR_RUN, "out of memory");
    if (f) {
        err = sc_smpi_write(f, &plat.level[SC_LEVEL_INTER], "  ");
        if (fclose(f) != 0 && !err)
            err = sc_error(SC_ERR_RUN, "out of memory");
        if (err) {
            free(*config);
            *config = NULL;
        }
    }
    sc_platform_destroy(&plat);
    return err;
}

/* The properties of a fitted level, replacing the template's. */
static sc_err_t apply_level(template_t *t, sc_level_id_t id, const sc_level_t *lv)
{
    sc_level_t level = *lv; /* the table's accessors take a writable level */
    sc_platform_prop_t props[SC_MAX_PLATFORM_PROPS];
    int nprops = sc_platform_props_list(props);
    for (int i = 0; i < nprops; i++) {
        const sc_param_t *p = props[i].param;
        if (props[i].at != (sc_param_at_t)id)
            continue;
        free(t->prop_values[i]);
        t->prop_values[i] = NULL;
        /* The constant form is replaced by its form; a piecewise function
         * without segments is the property's default. */
        if (p->constant_of)
            continue;
        int piecewise = p->kind == SC_PARAM_PIECEWISE_TIME || p->kind == SC_PARAM_PIECEWISE_FACTOR;
        if (piecewise && sc_param_piecewise(p, &level)->n == 0)
            continue;
        if (p->kind == SC_PARAM_BANDWIDTH && *sc_param_double(p, &level) == 0)
            continue; /* none: the property is absent */
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        if (!f)
            return sc_error(SC_ERR_RUN, "out of memory");
        if (piecewise) {
            sc_piecewise_write(f, sc_param_piecewise(p, &level),
                               p->kind == SC_PARAM_PIECEWISE_FACTOR);
        } else if (p->kind == SC_PARAM_SIZE) {
            fprintf(f, "%zu", *sc_param_size(p, &level));
        } else {
            char quantity[48];
            sc_format_quantity(*sc_param_double(p, &level), sc_param_quantity(p), quantity,
                               sizeof quantity);
            fputs(quantity, f);
        }
        if (fclose(f) != 0) {
            free(text);
            return sc_error(SC_ERR_RUN, "out of memory");
        }
        t->prop_values[i] = text;
    }
    link_spec_t *link = id == SC_LEVEL_INTER ? &t->nic : &t->membus;
    link->bandwidth_Bps = lv->bandwidth_Bps;
    /* A message between nodes crosses two NIC links. */
    link->latency_s = id == SC_LEVEL_INTER ? lv->latency_s / 2 : lv->latency_s;
    return SC_OK;
}

void sc_generate_range_text(const sc_range_t *r, char *out, size_t len)
{
    const sc_param_t *p = &sc_params[r->param];
    char lo[48], hi[48];
    if (p->kind == SC_PARAM_SIZE) { /* whole bytes: sc_parse_size reads no kB */
        snprintf(out, len, "%.0f..%.0f", r->lo, r->hi);
        return;
    }
    sc_format_quantity(r->lo, sc_param_quantity(p), lo, sizeof lo);
    sc_format_quantity(r->hi, sc_param_quantity(p), hi, sizeof hi);
    snprintf(out, len, "%s..%s", lo, hi);
}

/* Writes range r into the template's properties, as LO..HI on the
 * property that carried it (a piecewise parameter's constant form, whose
 * piecewise form apply_level wrote and which goes). */
static sc_err_t put_range(template_t *t, const sc_range_t *r)
{
    const sc_param_t *target = &sc_params[r->param], *carrier = target;
    for (const sc_param_t *q = sc_params; q->name; q++)
        if (q->constant_of && !strcmp(q->constant_of, target->name) && (q->at & SC_AT(r->at)))
            carrier = q;
    sc_platform_prop_t props[SC_MAX_PLATFORM_PROPS];
    int nprops = sc_platform_props_list(props);
    char text[112];
    sc_generate_range_text(r, text, sizeof text);
    for (int i = 0; i < nprops; i++) {
        if (props[i].at != (sc_param_at_t)r->at)
            continue;
        if (props[i].param == target && carrier != target) {
            free(t->prop_values[i]);
            t->prop_values[i] = NULL;
        } else if (props[i].param == carrier) {
            free(t->prop_values[i]);
            if (!(t->prop_values[i] = strdup(text)))
                return sc_error(SC_ERR_RUN, "out of memory");
        }
    }
    return SC_OK;
}

/* The factor a --set gives range r's parameter (1: no --set names it), or
 * 0 if the --set gives a value, which replaces the range. r is on a level
 * of links (intra, inter). */
static double set_factor(const sc_range_t *r, char *const *sets, int nsets)
{
    const char *level = sc_param_at_name((sc_param_at_t)r->at), *name = sc_params[r->param].name;
    size_t n = strlen(level), k = strlen(name);
    for (int i = 0; i < nsets; i++) {
        const char *set = sets[i];
        if (strncmp(set, level, n) || set[n] != '.' || strncmp(set + n + 1, name, k) ||
            set[n + 1 + k] != '=')
            continue;
        const char *value = set + n + 2 + k;
        /* checked by sc_generate_check_sets: "2x" or a quantity */
        return value[0] && value[strlen(value) - 1] == 'x' ? strtod(value, NULL) : 0;
    }
    return 1;
}

/* The template's ranges on a level --set changed, which apply_level wrote
 * as their midpoints: LO..HI again, both ends scaled by the factor a
 * --set gives their parameter; a value --set gives replaces the range. */
static sc_err_t keep_ranges(template_t *t, const sc_platform_t *plat, sc_level_id_t id,
                            char *const *sets, int nsets)
{
    sc_err_t err = SC_OK;
    for (int i = 0; i < plat->nranges && !err; i++) {
        sc_range_t r = plat->ranges[i];
        double factor = r.at == (int)id ? set_factor(&r, sets, nsets) : 0;
        if (factor == 0)
            continue;
        r.lo *= factor;
        r.hi *= factor;
        if (sc_params[r.param].kind == SC_PARAM_SIZE) { /* whole bytes, as --set rounds */
            r.lo = floor(r.lo + 0.5);
            r.hi = floor(r.hi + 0.5);
        }
        err = put_range(t, &r);
    }
    return err;
}

/* Value `text` of --set `set`: a factor of `old` ("2x") or an absolute
 * quantity of `kind`, greater than 0 (or equal to it when `zero_ok`). */
static sc_err_t set_value(const char *set, const char *text, sc_quantity_t kind, double old,
                          int zero_ok, double *out)
{
    char *end;
    size_t n = strlen(text);
    if (n > 1 && text[n - 1] == 'x') {
        double f = strtod(text, &end);
        if (end == text + n - 1 && f > 0 && f < 1e12) {
            *out = old * f;
            return SC_OK;
        }
    } else if (sc_parse_quantity(text, kind, out) == 0 && (*out > 0 || (zero_ok && *out == 0))) {
        *out += 0.0; /* -0 is 0, written as such */
        return SC_OK;
    }
    return sc_error(SC_ERR_INPUT, "--set '%s': '%s' is not a factor above 0 and below 1e12 (like "
                    "2x or 0.5x) or a %s %s (%s)", set, text, zero_ok ? "non-negative" : "positive",
                    kind == SC_QTY_TIME ? "duration" : kind == SC_QTY_BANDWIDTH ? "bandwidth"
                    : kind == SC_QTY_SPEED ? "speed" : "size",
                    sc_quantity_units(kind));
}

/* Refuses sets[i] if an earlier --set names the same parameter: a factor
 * is of the template's value, and a second one would scale the first's
 * result instead (inter.gap=2x then 3x made 6x). */
static sc_err_t once(char *const *sets, int i)
{
    size_t n = strcspn(sets[i], "=");
    for (int j = 0; j < i; j++)
        if (strcspn(sets[j], "=") == n && !strncmp(sets[j], sets[i], n))
            return sc_error(SC_ERR_INPUT, "--set '%s': %.*s is set twice (also by '%s'); give "
                                          "each parameter once",
                            sets[i], (int)n, sets[i], sets[j]);
    return SC_OK;
}

/* `intro` says when the generator has a level. */
void sc_generate_set_usage(char *out, size_t len)
{
    static const char *const intro[SC_NAT] = {[SC_AT_NODE] = "",
                                              [SC_AT_RACK] = "(with racks) ",
                                              [SC_AT_SOCKET] = "or (with sockets) ",
                                              [SC_AT_NUMA] = "(with NUMA domains) ",
                                              [SC_AT_CCX] = "(with CCXs) "};
    const unsigned levels = SC_AT(SC_AT_INTRA) | SC_AT(SC_AT_INTER);
    size_t n = (size_t)snprintf(out, len, "intra.PARAM or inter.PARAM with PARAM ");
    const char *sep = "";
    for (const sc_param_t *p = sc_params; p->name && n < len; p++)
        if (p->settable && (p->at & levels)) {
            n += (size_t)snprintf(out + n, len - n, "%s%s%s", sep, p->name,
                                  p->at & SC_AT(SC_AT_INTRA) ? "" : " (inter only)");
            sep = ", ";
        }
    for (int at = SC_AT_NODE; at <= SC_AT_CCX && n < len; at++) {
        n += (size_t)snprintf(out + n, len - n, "; %s", intro[at]);
        sep = "";
        for (const sc_param_t *p = sc_params; p->name && n < len; p++)
            if (p->settable && (p->at & SC_AT(at))) {
                n += (size_t)snprintf(out + n, len - n, "%s%s.%s", sep,
                                      sc_param_at_name((sc_param_at_t)at), p->name);
                sep = ", ";
            }
    }
}

/* Applies VALUE `text` of --set `set` to parameter p of `owner` (the
 * struct p->in names): absolute, with SimGrid's units, or a factor of the
 * value there ("2x"). */
static sc_err_t set_param(const char *set, const char *text, const sc_param_t *p, void *owner)
{
    int factor = text[0] && text[strlen(text) - 1] == 'x';
    int zero_ok = !(p->min > 0 || p->above_min);
    double v;
    sc_err_t err;
    if (p->kind == SC_PARAM_PIECEWISE_TIME) {
        /* Absolutely, one constant; by a factor, every segment scales (pass
         * 1 as the old value). */
        if ((err = set_value(set, text, sc_param_quantity(p), 1, zero_ok, &v)))
            return err;
        if (factor)
            sc_param_scale(p, owner, v);
        else
            *sc_param_piecewise(p, owner) = sc_piecewise_constant(v);
        return SC_OK;
    }
    if (p->kind == SC_PARAM_SIZE) {
        size_t *bytes = sc_param_size(p, owner);
        if (!factor) { /* as the property reads it: 128K is 131072 bytes, as MPI counts */
            char what[300];
            snprintf(what, sizeof what, "--set '%s'", set);
            return sc_parse_size(text, what, bytes);
        }
        if ((err = set_value(set, text, sc_param_quantity(p), (double)*bytes, zero_ok, &v)))
            return err;
        *bytes = (size_t)(v + 0.5);
        return SC_OK;
    }
    double *value = sc_param_double(p, owner);
    if (factor && p->kind == SC_PARAM_BANDWIDTH && p->carrier == SC_CARRIER_PROP && *value == 0)
        return sc_error(SC_ERR_INPUT,
                        "--set '%s': the template has no %s, which a factor "
                        "cannot scale; give a bandwidth (e.g. 10GBps)",
                        set, p->name);
    if ((err = set_value(set, text, sc_param_quantity(p), *value, zero_ok, &v)))
        return err;
    *value = v;
    return SC_OK;
}

/* The level of --set LEVEL.PARAM=VALUE, or -1. */
static int set_level(const char *set)
{
    return sc_param_at_find(set, strcspn(set, ".="));
}

/* "did you mean 'inter.bandwidth'? " for a parameter of `level` (at) close
 * to the misspelt `param` (sc_name_close), else "", in out. */
static const char *nearest_param(const char *param, size_t len, const char *level, int at,
                                 char *out, size_t size)
{
    const char *names[64];
    int n = 0;
    for (const sc_param_t *q = sc_params; q->name && n < 63; q++)
        if (q->settable && (q->at & SC_AT(at)))
            names[n++] = q->name;
    names[n] = NULL;
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)len, param);
    const char *close = n ? sc_name_close(name, names) : NULL;
    snprintf(out, size, "%s%s%s%s%s", close ? "did you mean '" : "", close ? level : "",
             close ? "." : "", close ? close : "", close ? "'? " : "");
    return out;
}

/* Applies one --set to the levels and node speed. */
static sc_err_t apply_set(const char *set, sc_level_t levels[SC_NLEVELS], int touched[SC_NLEVELS],
                          double *speed)
{
    char params[512];
    const char *eq = strchr(set, '='), *dot = strchr(set, '.');
    if (!eq || !dot || dot > eq) {
        sc_generate_set_usage(params, sizeof params);
        return sc_error(SC_ERR_INPUT, "--set '%s': give LEVEL.PARAM=VALUE, with %s", set, params);
    }
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(eq - set), set);
    const char *text = eq + 1;
    int at = set_level(set);
    if (at == SC_AT_RACK || sc_param_at_domain((sc_param_at_t)at) >= 0)
        return SC_OK; /* apply_link_set, once the links it starts from are known */
    const char *param = at >= 0 ? name + (dot - set) + 1 : NULL;
    const sc_param_t *p = at >= 0 ? sc_param_find(param, strlen(param), (sc_param_at_t)at) : NULL;
    if (p && !p->settable)
        p = NULL;
    if (at == SC_AT_NODE && p) {
        sc_node_t node = {.speed_flops = *speed};
        sc_err_t err = set_param(set, text, p, &node);
        *speed = node.speed_flops;
        return err;
    }
    /* A node's parameters are named whole, node.speed: node.X is no level
     * of LEVEL.PARAM, as the usage says. */
    sc_generate_set_usage(params, sizeof params);
    if (at != SC_AT_INTRA && at != SC_AT_INTER)
        return sc_error(SC_ERR_INPUT, "--set '%s': unknown level '%.*s'; use %s", set,
                        (int)(dot - set), set, params);
    touched[at] = 1;
    char hint[128], level[16];
    snprintf(level, sizeof level, "%.*s", (int)(dot - set), set);
    if (!p)
        return sc_error(SC_ERR_INPUT, "--set '%s': unknown parameter '%s'; %suse %s", set, param,
                        nearest_param(param, strlen(param), level, at, hint, sizeof hint),
                        params);
    return set_param(set, text, p, &levels[at]);
}

/* Applies one --set LEVEL.PARAM (LEVEL rack, socket, numa or ccx) to
 * `link`: a rack's uplink, which starts as fast as the rack's nodes' links
 * together, with one NIC link's latency; the link between a node's sockets
 * (NUMA domains, CCXs), which a message between them takes after the
 * memory bus, and which starts
 * adding nothing (no latency, the memory bus's bandwidth), as in a node
 * whose sockets reach one memory (the shipped platforms' Xeon E5420s); a
 * factor scales those. link NULL: the platform has no such level,
 * `missing` says how to give it. */
static sc_err_t apply_link_set(const char *set, sc_param_at_t at, link_spec_t *link,
                               const char *missing)
{
    const char *level = sc_param_at_name(at);
    const char *eq = strchr(set, '='), *text = eq + 1, *param = set + strlen(level) + 1;
    size_t n = (size_t)(eq - param);
    int domain = sc_param_at_domain(at);
    if (!link)
        return sc_error(SC_ERR_INPUT, "--set '%s': there are no %s; %s", set,
                        domain >= 0 ? sc_domain_plural((sc_domain_kind_t)domain) : "racks",
                        missing);
    const sc_param_t *p = sc_param_find(param, n, at);
    if (!p || !p->settable) {
        char use[256] = "";
        for (const sc_param_t *q = sc_params; q->name; q++)
            if (q->settable && (q->at & SC_AT(at)))
                snprintf(use + strlen(use), sizeof use - strlen(use), "%s%s.%s",
                         *use ? " or " : "", level, q->name);
        char hint[128];
        return sc_error(SC_ERR_INPUT, "--set '%s': unknown parameter '%.*s'; %suse %s", set,
                        (int)n, param, nearest_param(param, n, level, at, hint, sizeof hint), use);
    }
    /* The level as the table sees it: the link's latency and bandwidth. */
    sc_level_t lv = {.latency_s = link->latency_s, .bandwidth_Bps = link->bandwidth_Bps};
    int factor = text[0] && text[strlen(text) - 1] == 'x';
    if (factor && p->kind == SC_PARAM_DURATION && *sc_param_double(p, &lv) == 0)
        return sc_error(SC_ERR_INPUT, "--set '%s': %s.%s starts at 0, which a factor "
                        "leaves 0; give a duration (e.g. 100ns)", set, level, p->name);
    sc_err_t err = set_param(set, text, p, &lv);
    link->latency_s = lv.latency_s;
    link->bandwidth_Bps = lv.bandwidth_Bps;
    return err;
}

/* The link between a node's domains before any --set (apply_link_set
 * says why it adds nothing). */
static link_spec_t domain_link(const link_spec_t *membus)
{
    return (link_spec_t){.bandwidth_Bps = membus->bandwidth_Bps, .policy = "FATPIPE"};
}

sc_err_t sc_generate_check_sets(char *const *sets, int nsets)
{
    /* Stand-ins for the template's values, none 0 but the domain links'
     * latency, which is 0 whatever the template: what is refused on them
     * is refused on any template. */
    sc_level_t levels[SC_NLEVELS] = {0};
    levels[SC_LEVEL_INTER].bidirectional_Bps = 1; /* a factor of none is refused (set_param) */
    int touched[SC_NLEVELS] = {0};
    double speed = 1;
    link_spec_t membus = {.bandwidth_Bps = 1, .latency_s = 1}, uplink = membus;
    link_spec_t domain = domain_link(&membus);
    sc_err_t err = SC_OK;
    for (int i = 0; i < nsets && !err; i++) {
        if (!(err = once(sets, i)))
            err = apply_set(sets[i], levels, touched, &speed);
        if (!err && set_level(sets[i]) == SC_AT_RACK)
            err = apply_link_set(sets[i], SC_AT_RACK, &uplink, NULL);
        else if (!err && sc_param_at_domain((sc_param_at_t)set_level(sets[i])) >= 0)
            err = apply_link_set(sets[i], (sc_param_at_t)set_level(sets[i]), &domain, NULL);
    }
    return err;
}

/* Loads the generated text as a platform file. It goes through a memory
 * file (memfd), which vanishes with simcoll however it ends: a temporary
 * file would stay behind when simcoll is killed while SimGrid reads it.
 * `cause` says what made the text (calibrate's fit, --set). */
static sc_err_t check_generated(const char *cause, const char *xml, size_t len)
{
    char path[64];
    int fd = sc_memory_file("simcoll-generated-platform", xml, len, path, sizeof path);
    if (fd < 0)
        return sc_error(SC_ERR_RUN, "cannot hold the platform in memory to check it: %s",
                        strerror(errno));
    sc_platform_t plat;
    sc_err_t err = sc_platform_load("the generated platform", path, &plat);
    if (!err) {
        sc_platform_destroy(&plat);
    } else {
        /* the memory file's name means nothing to the user: drop it */
        char why[1024], quoted[80];
        snprintf(why, sizeof why, "%s", sc_error_message());
        snprintf(quoted, sizeof quoted, " '%s'", path);
        char *at = strstr(why, quoted);
        if (at)
            memmove(at, at + strlen(quoted), strlen(at + strlen(quoted)) + 1);
        err = sc_error(SC_ERR_INPUT, "%s: the platform would not load (nothing written): %s",
                       cause, why);
    }
    close(fd);
    return err;
}

/* "sockets", "NUMA domains" or "CCXs": the smallest domains of spec's
 * nodes. */
static const char *smallest_domains(const sc_generate_spec_t *spec)
{
    for (int d = 0; d < SC_NDOMAIN_KINDS; d++)
        if (spec->domains[d] > 1)
            return sc_domain_plural((sc_domain_kind_t)d);
    return "domains";
}

sc_err_t sc_generate(const char *option, const char *template_path, const sc_generate_spec_t *spec,
                     const char *out_path)
{
    sc_platform_t plat;
    int *template_cores = NULL;
    sc_err_t err = sc_generate_check_sets(spec->sets, spec->nsets);
    if (err || (err = sc_platform_load(option, template_path, &plat)))
        return err;
    if (plat.nnodes < 2) {
        err = sc_error(SC_ERR_INPUT,
                       "%s '%s': a template needs at least two nodes to show its network", option,
                       template_path);
        sc_platform_destroy(&plat);
        return err;
    }
    if (plat.topology && (sc_platform_domains(&plat) > 1 || !plat.uniform)) {
        /* Its nodes' links are those of a star cluster, but the copy would
         * lose the topology: say so rather than write a star. (Nodes on one
         * switch that simcoll builds, for the NICs' limit both ways, are
         * a star: read_template takes them.) */
        err = sc_error(SC_ERR_INPUT,
                       "%s '%s': a platform with a topology (simcoll/topology) cannot be a "
                       "template; give the template it was made from (its generated-by "
                       "property) with --topology or --levels",
                       option, template_path);
        sc_platform_destroy(&plat);
        return err;
    }
    if (!plat.uniform) {
        err = sc_error(SC_ERR_INPUT,
                       "%s '%s': its nodes' links differ, so no node can stand for all", option,
                       template_path);
        sc_platform_destroy(&plat);
        return err;
    }
    char what[1100];
    snprintf(what, sizeof what, "%s '%s' could not be read", option, template_path);
    sc_wire_t in;
    err = sc_child_run(read_template, &plat, SC_ERR_RUN, what, &in);
    if (err) {
        sc_platform_destroy(&plat);
        return err;
    }
    template_t t;
    int ok = sc_wire_get(&in, &t, sizeof t);
    sc_platform_prop_t props[SC_MAX_PLATFORM_PROPS];
    int nprops = sc_platform_props_list(props);
    for (int i = 0; i < nprops; i++) {
        int present = 0;
        ok = ok && sc_wire_get_int(&in, &present);
        t.prop_values[i] = ok && present ? sc_wire_get_str(&in) : NULL;
        ok = ok && (!present || t.prop_values[i]);
    }
    sc_wire_free(&in);
    if (!ok) {
        err = sc_error(SC_ERR_RUN, "out of memory reading the template");
        goto cleanup;
    }
    sc_generate_spec_t full = *spec;
    /* Neither nodes nor cores given: the template's own, uneven ones too
     * (a what-if that changes only a parameter keeps the cluster). */
    if (full.nodes == 0 && full.cores == 0 && !full.node_cores) {
        int even = 1;
        for (int n = 1; n < plat.nnodes; n++)
            even &= plat.nodes[n].cores == plat.nodes[0].cores;
        if (!even && (template_cores = malloc((size_t)plat.nnodes * sizeof *template_cores))) {
            for (int n = 0; n < plat.nnodes; n++)
                template_cores[n] = plat.nodes[n].cores;
            full.node_cores = template_cores;
        } else if (!even) {
            err = sc_error(SC_ERR_RUN, "out of memory");
            goto cleanup;
        }
    }
    if (full.nodes == 0)
        full.nodes = plat.nnodes;
    if (full.cores == 0)
        full.cores = t.cores;
    /* The platform reader's limit, before a million nodes are written and
     * read back only to be refused (at most 2^20 nodes of 2^16 cores: the
     * sum cannot overflow). */
    long long total = 0;
    for (int n = 0; n < full.nodes; n++)
        total += cores_of(&full, n);
    if (total > SC_MAX_CORES)
        err = sc_error(SC_ERR_INPUT,
                       "simcoll platform: %d nodes with %lld cores in all, more than %d; simcoll "
                       "simulates at most that many ranks (nothing written)",
                       full.nodes, total, SC_MAX_CORES);
    int domains = 1;
    for (int d = 0; d < SC_NDOMAIN_KINDS; d++)
        domains *= full.domains[d] > 1 ? full.domains[d] : 1;
    for (int n = 0; n < full.nodes && domains > 1 && !err; n++)
        if (cores_of(&full, n) % domains)
            err = sc_error(SC_ERR_INPUT,
                           "%d %s a node cannot share node-%d's %d cores evenly; give "
                           "nodes a multiple of %d cores",
                           domains, smallest_domains(&full), n, cores_of(&full, n), domains);
    if (err || (spec->level && (err = apply_level(&t, spec->level_id, spec->level))))
        goto cleanup;
    for (int i = 0; i < spec->nkept_ranges && !err; i++)
        err = put_range(&t, &spec->kept_ranges[i]);
    sc_level_t levels[SC_NLEVELS];
    int touched[SC_NLEVELS] = {0};
    memcpy(levels, plat.level, sizeof levels);
    if (spec->net) {
        if ((err = load_network(spec->net, &levels[SC_LEVEL_INTER])))
            goto cleanup;
        touched[SC_LEVEL_INTER] = 1;
    }
    for (int i = 0; i < spec->nsets && !err; i++)
        err = apply_set(spec->sets[i], levels, touched, &t.speed_flops);
    for (int id = 0; id < SC_NLEVELS && !err; id++)
        if (touched[id] && !(err = apply_level(&t, (sc_level_id_t)id, &levels[id])) &&
            !(spec->net && id == SC_LEVEL_INTER)) /* --net's network has no ranges */
            err = keep_ranges(&t, &plat, (sc_level_id_t)id, spec->sets, spec->nsets);
    if (err)
        goto cleanup;
    sc_topology_t topology;
    int has_topology = spec->topology && !sc_topology_parse("--topology", spec->topology, &topology);
    int racks = has_topology && topology.kind == SC_TOPO_RACKS && topology.racks > 1;
    t.uplink = t.nic;
    t.uplink.bandwidth_Bps = racks ? t.nic.bandwidth_Bps * topology.rack_nodes : 0;
    for (int d = 0; d < SC_NDOMAIN_KINDS; d++)
        t.domain_link[d] = domain_link(&t.membus);
    for (int i = 0; i < spec->nsets && !err; i++)
        if (set_level(spec->sets[i]) == SC_AT_RACK)
            err = apply_link_set(spec->sets[i], SC_AT_RACK, racks ? &t.uplink : NULL,
                                 "give --levels ...,rack:R or --topology racks:N,R (R > 1)");
        else if (sc_param_at_domain((sc_param_at_t)set_level(spec->sets[i])) >= 0) {
            sc_param_at_t at = (sc_param_at_t)set_level(spec->sets[i]);
            int d = sc_param_at_domain(at);
            char missing[96];
            snprintf(missing, sizeof missing, "give --levels ...,%s:N,... or --%s%s N",
                     sc_domain_name((sc_domain_kind_t)d), sc_domain_name((sc_domain_kind_t)d),
                     d == SC_DOMAIN_SOCKET ? "s" : "");
            err = apply_link_set(spec->sets[i], at, spec->domains[d] > 1 ? &t.domain_link[d] : NULL,
                                 missing);
        }
    if (err)
        goto cleanup;

    char *config = NULL;
    if (spec->smpi_config && (err = smpi_config(&t, plat.name, &config)))
        goto cleanup;
    /* What is written is what loads: the text is checked by the platform
     * reader before it goes anywhere. */
    char *xml = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&xml, &len);
    if (!mem) {
        free(config);
        err = sc_error(SC_ERR_RUN, "out of memory");
        goto cleanup;
    }
    char zone_base[1024];
    const char *zone_rest;
    split_zone(&plat, zone_base, sizeof zone_base, &zone_rest);
    write_platform(mem, &t, template_path, zone_base, zone_rest, &full, config);
    free(config);
    if (fclose(mem) != 0)
        err = sc_error(SC_ERR_RUN, "out of memory");
    if (!err)
        err = check_generated(spec->level  ? "the fitted values"
                              : spec->nsets ? "--set"
                                            : "simcoll platform",
                              xml, len);
    if (!err && !out_path) {
        fwrite(xml, 1, len, stdout); /* main checks that stdout was written */
    } else if (!err) {
        sc_outputs_t *outs = sc_outputs_new();
        FILE *f;
        if (!outs)
            err = sc_error(SC_ERR_RUN, "out of memory");
        else if (!(err = sc_outputs_add(outs, "-o", out_path, &f))) {
            fwrite(xml, 1, len, f);
            err = sc_outputs_commit(outs);
            outs = NULL;
        }
        sc_outputs_discard(outs);
    }
    free(xml);
cleanup:
    for (int i = 0; i < nprops; i++)
        free(t.prop_values[i]);
    free(template_cores);
    sc_platform_destroy(&plat);
    return err;
}

/* Parses --cores (see generate.h) into `spec`: a number, or a list into
 * a new array of every node's cores. */
static sc_err_t parse_cores(const char *text, sc_generate_spec_t *spec, int **node_cores)
{
    static const char *const form =
        "give C (cores of every node) or a list of C and KxC (K nodes of C cores) separated by "
        "',' or '+', e.g. 4x16,2x8";
    *node_cores = NULL;
    if (!strpbrk(text, ",+x"))
        return sc_parse_int(text, "--cores", 1, MAX_CORES, &spec->cores);
    char *copy = strdup(text);
    int *cores = NULL, n = 0;
    sc_err_t err = copy ? SC_OK : sc_error(SC_ERR_RUN, "out of memory");
    for (char *item = copy, *next; !err && item; item = next) {
        next = strpbrk(item, ",+");
        if (next)
            *next++ = '\0';
        char *x = strchr(item, 'x');
        if (x)
            *x = '\0';
        int k = 1, c = 0;
        if (!*item || (x && !x[1])) {
            err = sc_error(SC_ERR_INPUT, "--cores '%s': an empty item; %s", text, form);
            break;
        }
        if ((x && (err = sc_parse_int(item, "--cores: K of KxC", 1, MAX_NODES, &k))) ||
            (err = sc_parse_int(x ? x + 1 : item, "--cores", 1, MAX_CORES, &c)))
            break;
        if (k > MAX_NODES - n) {
            err = sc_error(SC_ERR_INPUT, "--cores '%s': more than %d nodes", text, MAX_NODES);
            break;
        }
        int *grown = realloc(cores, (size_t)(n + k) * sizeof *cores);
        if (!grown) {
            err = sc_error(SC_ERR_RUN, "out of memory");
            break;
        }
        cores = grown;
        while (k-- > 0)
            cores[n++] = c;
    }
    free(copy);
    if (!err && spec->nodes && spec->nodes != n)
        err = sc_error(SC_ERR_INPUT, "--nodes %d, but --cores '%s' lists %d nodes; give one of "
                       "them, or the same count", spec->nodes, text, n);
    if (err) {
        free(cores);
        return err;
    }
    spec->nodes = n;
    spec->node_cores = *node_cores = cores;
    return SC_OK;
}

sc_err_t sc_generate_check_cores(const char *cores)
{
    sc_generate_spec_t spec = {0};
    int *node_cores;
    sc_err_t err = parse_cores(cores, &spec, &node_cores);
    free(node_cores);
    return err;
}

sc_err_t sc_generate_check_topology(const char *topology, long *nodes)
{
    sc_topology_t t;
    sc_err_t err = sc_topology_parse("--topology", topology, &t);
    if (err)
        return err;
    if (t.nodes > MAX_NODES)
        return sc_error(SC_ERR_INPUT, "--topology '%s' connects %ld nodes, more than %d",
                        topology, t.nodes, MAX_NODES);
    if (nodes)
        *nodes = t.nodes;
    return SC_OK;
}

sc_err_t sc_levels_parse(const char *text, sc_levels_t *out)
{
    static const char *const names[] = {"core", "ccx", "numa", "socket", "node", "rack"};
    static const char *const form =
        "give LEVEL:N items from the smallest, each the number of LEVELs in one of the next "
        "(the last: in the cluster), LEVEL core, ccx, numa, socket, node or rack; e.g. "
        "core:8,socket:2,node:8,rack:4 is 4 racks of 8 nodes of 2 sockets of 8 cores";
    enum { CORE, CCX, NUMA, SOCKET, NODE, RACK, NAMES };
    int count[NAMES] = {0};
    memset(out, 0, sizeof *out);
    int last = -1;
    for (const char *item = text; *item;) {
        size_t len = strcspn(item, ",");
        const char *colon = memchr(item, ':', len);
        int k = 0;
        while (k < NAMES && !(colon && (size_t)(colon - item) == strlen(names[k]) &&
                              !strncmp(item, names[k], strlen(names[k]))))
            k++;
        if (k == NAMES)
            return sc_error(SC_ERR_INPUT, "--levels '%s': unknown item '%.*s'; %s", text, (int)len,
                            item, form);
        if (k <= last)
            return sc_error(SC_ERR_INPUT, "--levels '%s': '%s' %s; %s", text, names[k],
                            k == last ? "twice" : "after a larger level", form);
        char *number = strndup(colon + 1, len - (size_t)(colon + 1 - item));
        if (!number)
            return sc_error(SC_ERR_RUN, "out of memory");
        char what[64];
        snprintf(what, sizeof what, "--levels: %s", names[k]);
        int most = k == CORE ? MAX_CORES : k < NODE ? SC_MAX_SOCKETS : MAX_NODES;
        sc_err_t err = sc_parse_int(number, what, 1, most, &count[k]);
        free(number);
        if (err)
            return err;
        last = k;
        item += len;
        if (*item == ',' && !*++item)
            return sc_error(SC_ERR_INPUT, "--levels '%s': ends with ','; %s", text, form);
    }
    if (!count[NODE])
        return sc_error(SC_ERR_INPUT, "--levels '%s': no node level; %s", text, form);
    /* Products of at most two counts below 2^21: no overflow in 64 bits. */
    long long nodes = (long long)count[NODE] * (count[RACK] ? count[RACK] : 1);
    if (nodes > MAX_NODES)
        return sc_error(SC_ERR_INPUT, "--levels '%s': %lld nodes, more than %d", text, nodes,
                        MAX_NODES);
    out->nodes = (int)nodes;
    /* Counts of at most 64 below 2^16 cores: no overflow either. */
    long long domains = 1;
    for (int d = 0; d < SC_NDOMAIN_KINDS; d++) {
        out->domains[d] = count[CCX + d] ? count[CCX + d] : 1;
        domains *= out->domains[d];
    }
    if (domains > SC_MAX_DOMAINS)
        return sc_error(SC_ERR_INPUT, "--levels '%s': %lld smallest domains a node, more than %d",
                        text, domains, SC_MAX_DOMAINS);
    if (count[CORE] && (long long)count[CORE] * domains > MAX_CORES)
        return sc_error(SC_ERR_INPUT, "--levels '%s': %lld cores a node, more than %d", text,
                        (long long)count[CORE] * domains, MAX_CORES);
    if (count[CORE])
        snprintf(out->cores, sizeof out->cores, "%d", (int)(count[CORE] * domains));
    if (count[RACK])
        snprintf(out->topology, sizeof out->topology, "racks:%d,%d", count[NODE], count[RACK]);
    return SC_OK;
}

sc_err_t sc_generate_platform(const char *template_path, const char *net, const char *topology,
                              int nodes, const char *cores, int sockets, char *const *sets,
                              int nsets, const char *out_path)
{
    const int domains[SC_NDOMAIN_KINDS] = {[SC_DOMAIN_SOCKET] = sockets};
    return sc_generate_platform_smpi(template_path, net, topology, nodes, cores, domains, sets,
                                     nsets, 0, out_path);
}

sc_err_t sc_generate_platform_smpi(const char *template_path, const char *net, const char *topology,
                                   int nodes, const char *cores, const int *domains,
                                   char *const *sets, int nsets, int smpi_config,
                                   const char *out_path)
{
    sc_generate_spec_t spec = {.nodes = nodes,
                               .net = net,
                               .topology = topology,
                               .sets = sets,
                               .nsets = nsets,
                               .smpi_config = smpi_config};
    int *node_cores = NULL;
    sc_err_t err = SC_OK;
    long long product = 1;
    for (int d = SC_NDOMAIN_KINDS - 1; d >= 0 && domains; d--) {
        const char *name = sc_domain_name((sc_domain_kind_t)d),
                   *s = d == SC_DOMAIN_SOCKET ? "s" : "";
        int n = domains[d] ? domains[d] : 1;
        spec.domains[d] = n;
        if (n < 1 || n > SC_MAX_SOCKETS)
            return sc_error(SC_ERR_INPUT, "--%s%s %d: give 1 to %d %s a %s", name, s, n,
                            SC_MAX_SOCKETS, sc_domain_plural((sc_domain_kind_t)d),
                            d == SC_DOMAIN_SOCKET ? "node" : "socket (or node)");
        if (n > 1 && topology && strncmp(topology, "racks:", 6) != 0)
            return sc_error(SC_ERR_INPUT,
                            "--%s%s %d: nodes have %s on one switch or in racks "
                            "(--topology racks:N,R), not in '%s'",
                            name, s, n, sc_domain_plural((sc_domain_kind_t)d), topology);
        if ((product *= n) > SC_MAX_DOMAINS)
            return sc_error(SC_ERR_INPUT,
                            "--sockets, --numa and --ccx make %lld smallest domains a node, more "
                            "than %d",
                            product, SC_MAX_DOMAINS);
    }

    if (topology) {
        long connected = 0;
        if ((err = sc_generate_check_topology(topology, &connected)))
            return err;
        if (nodes && nodes != connected)
            return sc_error(SC_ERR_INPUT,
                            "--nodes %d, but --topology '%s' connects %ld nodes; "
                            "give one of them, or the same count",
                            nodes, topology, connected);
        spec.nodes = (int)connected;
    }
    if (cores)
        err = parse_cores(cores, &spec, &node_cores);
    if (!err && !template_path) {
        /* The preset's own platform is the template. */
        const sc_network_preset_t *n = net ? find_network(net) : NULL;
        if (!net)
            err = sc_error(SC_ERR_INPUT, "give --like FILE or --net NAME");
        else if (!n)
            err = SC_ERR_INPUT;
        else
            template_path = n->platform;
    }
    if (!err)
        err = sc_generate("--like", template_path, &spec, out_path);
    free(node_cores);
    return err;
}
