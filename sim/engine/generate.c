/* Writing platform files for clusters that do not exist (what-if studies)
 * or that were just measured (calibration).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "generate.h"
#include "generate_options.h"
#include "generate_sources.h"

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
/* The network level of preset `name` into *level, and the sources of its
 * parameters into *sources (the caller frees them). */
static sc_err_t load_network(const char *name, sc_level_t *level, sc_param_source_t **sources,
                             int *nsources)
{
    const sc_network_preset_t *n = find_network(name);
    if (!n)
        return SC_ERR_INPUT;
    sc_platform_t plat;
    sc_err_t err = sc_platform_load("--net", n->platform, &plat);
    if (err)
        return err;
    *level = plat.level[SC_LEVEL_INTER];
    *sources = plat.sources;
    *nsources = plat.nsources;
    plat.sources = NULL;
    plat.nsources = 0;
    sc_platform_destroy(&plat);
    return SC_OK;
}

typedef struct {
    sc_gen_link_t membus, nic;
    sc_gen_link_t uplink; /* racks: the link of a rack's switch to the core's */
    /* domains in nodes: the links between a node's sockets, NUMA domains,
     * CCXs (by sc_domain_kind_t) */
    sc_gen_link_t domain_link[SC_NDOMAIN_KINDS];
    /* and their levels' own properties (calibrate's and --set's) */
    sc_level_t domain_props[SC_NDOMAIN_KINDS];
    double speed_flops;
    int cores;
    char *prop_values[SC_MAX_PLATFORM_PROPS]; /* of sc_platform_props_list's */
    sc_param_source_t *net_sources; /* --net's network's sources */
    int nnet_sources;
} template_t;

static void template_destroy(template_t *t)
{
    for (int i = 0; i < SC_MAX_PLATFORM_PROPS; i++)
        free(t->prop_values[i]);
    for (int i = 0; i < t->nnet_sources; i++)
        free(t->net_sources[i].note);
    free(t->net_sources);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static void describe_link(sg_link_t link, sc_gen_link_t *spec)
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

static void write_link(FILE *f, const char *id, const sc_gen_link_t *l)
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

/* The file's head and its leading comment: the shape, and where the
 * numbers come from. The template's path is not in the comment but in the
 * generated-by property, where it can be escaped: a comment may not hold
 * "--", which paths can. */
static void write_head(FILE *f, const sc_generate_spec_t *spec)
{
    fprintf(f,
            "<?xml version='1.0'?>\n"
            "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
            "<!-- Generated by simcoll: %d nodes (nodes x cores: ",
            spec->nodes);
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
}

/* The zone's id, escaped. It is the run's platform column: whatever makes
 * two generated platforms differ is in it, so that a what-if's rows tell
 * them apart (two fat trees of other shapes, other --set factors).
 * `zone_base` and `zone_rest`: the template's name around its shape
 * (split_zone). */
static void write_zone_id(FILE *f, const sc_generate_spec_t *spec, const char *zone_base,
                          const char *zone_rest)
{
    sc_xml_put_escaped(f, spec->name ? spec->name : spec->net ? spec->net : zone_base);
    fputc('-', f);
    put_shape(f, spec);
    if (!spec->name && !spec->net)
        sc_xml_put_escaped(f, zone_rest);
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
}

/* The generated-by property's value, escaped: spec->made_by, or the
 * command of simcoll platform that writes this platform again. */
static void write_generated_by(FILE *f, const char *template_path, const sc_generate_spec_t *spec)
{
    if (spec->made_by) {
        sc_xml_put_escaped(f, spec->made_by);
        return;
    }
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
    fprintf(f, " --nodes %d --cores ", spec->nodes);
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

/* The zone's properties: its topology (with `built`, the nodes on one
 * switch when no topology is asked for), its domains and their own
 * properties, and the template's properties but those `config` gives. */
static void write_props(FILE *f, const template_t *t, const sc_generate_spec_t *spec,
                        const char *config, int built)
{
    if (spec->topology) {
        fputs("    <prop id=\"simcoll/topology\" value=\"", f);
        sc_xml_put_escaped(f, spec->topology);
        fputs("\"/>\n", f);
    } else if (built) {
        fprintf(f, "    <prop id=\"simcoll/topology\" value=\"racks:%d,1\"/>\n", spec->nodes);
    }
    for (int d = SC_NDOMAIN_KINDS - 1; d >= 0; d--)
        if (spec->domains[d] > 1)
            fprintf(f, "    <prop id=\"simcoll/%s%s\" value=\"%d\"/>\n",
                    sc_domain_name((sc_domain_kind_t)d), d == SC_DOMAIN_SOCKET ? "s" : "",
                    spec->domains[d]);
    for (int d = SC_NDOMAIN_KINDS - 1; d >= 0; d--)
        for (const sc_param_t *p = sc_params; p->name; p++) {
            if (!sc_generate_domain_prop(spec, d, p))
                continue;
            sc_level_t level = *spec->domain_props[d];
            fprintf(f, "    <prop id=\"simcoll/%s/%s\" value=\"",
                    sc_domain_name((sc_domain_kind_t)d), p->name);
            sc_piecewise_write(f, sc_param_piecewise(p, &level),
                               p->kind == SC_PARAM_PIECEWISE_FACTOR);
            fputs("\"/>\n", f);
        }
    sc_platform_prop_t props[SC_MAX_PLATFORM_PROPS];
    int nprops = sc_platform_props_list(props);
    for (int i = 0; i < nprops; i++) {
        int domain = sc_param_at_domain(props[i].at);
        if (!t->prop_values[i] || (config && sc_smpi_gives(&props[i])) ||
            (domain >= 0 && sc_generate_domain_prop(spec, domain, props[i].param)))
            continue; /* none, SMPI's setting, or written above */
        fprintf(f, "    <prop id=\"%s\" value=\"", props[i].id);
        sc_xml_put_escaped(f, t->prop_values[i]);
        fputs("\"/>\n", f);
    }
}

/* The nodes, their links and their routes. A zone simcoll builds
 * (`built`: sim/simgrid/topology.cpp) copies the one "network" link as
 * every node's NIC link, and has the uplink and the domains' links; a
 * star cluster has a NIC link of each node's, its host_link. */
static void write_nodes(FILE *f, const template_t *t, const sc_generate_spec_t *spec, int built)
{
    int nodes = spec->nodes;
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
}

/* `config`: NULL, or the <config> of SMPI's settings, which then take the
 * place of the network properties they give. `zone_base` and `zone_rest`:
 * the template's name around its shape (split_zone). */
static void write_platform(FILE *f, const template_t *t, const sc_platform_t *plat,
                           const char *template_path, const char *zone_base,
                           const char *zone_rest, const sc_generate_spec_t *spec,
                           const char *config)
{
    write_head(f, spec);
    if (config)
        fputs(config, f);
    fputs("  <zone id=\"", f);
    write_zone_id(f, spec, zone_base, zone_rest);
    fputs("\" routing=\"Cluster\">\n    <prop id=\"generated-by\" value=\"", f);
    write_generated_by(f, template_path, spec);
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
    write_props(f, t, spec, config, built);
    sc_generate_write_sources(f, t->net_sources, t->nnet_sources, plat, spec);
    write_nodes(f, t, spec, built);
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
    sc_gen_link_t *link = id == SC_LEVEL_INTER ? &t->nic : &t->membus;
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

/* Reads the template `template_path` (named `option` in messages) into
 * *plat, and into *t one node's links and the zone's properties, read by
 * SimGrid in a child (read_template). A template has two nodes or more,
 * all alike, and no topology, which its copy would lose. Nothing to free
 * on error. */
static sc_err_t load_template(const char *option, const char *template_path, sc_platform_t *plat,
                              template_t *t)
{
    sc_err_t err = sc_platform_load(option, template_path, plat);
    if (err)
        return err;
    if (plat->nnodes < 2)
        err = sc_error(SC_ERR_INPUT,
                       "%s '%s': a template needs at least two nodes to show its network", option,
                       template_path);
    else if (plat->topology && (sc_platform_domains(plat) > 1 || !plat->uniform))
        /* Its nodes' links are those of a star cluster, but the copy would
         * lose the topology: say so rather than write a star. (Nodes on one
         * switch that simcoll builds, for the NICs' limit both ways, are
         * a star: read_template takes them.) */
        err = sc_error(SC_ERR_INPUT,
                       "%s '%s': a platform with a topology (simcoll/topology) cannot be a "
                       "template; give the template it was made from (its generated-by "
                       "property) with --topology or --levels",
                       option, template_path);
    else if (!plat->uniform)
        err = sc_error(SC_ERR_INPUT,
                       "%s '%s': its nodes' links differ, so no node can stand for all", option,
                       template_path);
    char what[1100];
    snprintf(what, sizeof what, "%s '%s' could not be read", option, template_path);
    sc_wire_t in;
    if (!err)
        err = sc_child_run(read_template, plat, SC_ERR_RUN, what, &in);
    if (err) {
        sc_platform_destroy(plat);
        return err;
    }
    int ok = sc_wire_get(&in, t, sizeof *t);
    for (int i = 0; i < SC_MAX_PLATFORM_PROPS; i++)
        t->prop_values[i] = NULL; /* the child's pointers, or none if it sent nothing */
    sc_platform_prop_t props[SC_MAX_PLATFORM_PROPS];
    int nprops = sc_platform_props_list(props);
    for (int i = 0; i < nprops; i++) {
        int present = 0;
        ok = ok && sc_wire_get_int(&in, &present);
        t->prop_values[i] = ok && present ? sc_wire_get_str(&in) : NULL;
        ok = ok && (!present || t->prop_values[i]);
    }
    sc_wire_free(&in);
    if (!ok) {
        template_destroy(t);
        sc_platform_destroy(plat);
        return sc_error(SC_ERR_RUN, "out of memory reading the template");
    }
    return SC_OK;
}

/* What spec leaves to the template, into *full: neither nodes nor cores
 * given, the template's own, uneven ones too, in *template_cores (which
 * the caller frees), as a what-if that changes only a parameter keeps the
 * cluster. SC_ERR_INPUT for more cores than simcoll simulates, or nodes
 * whose cores the domains cannot share. */
static sc_err_t complete_shape(const sc_platform_t *plat, const template_t *t,
                               sc_generate_spec_t *full, int **template_cores)
{
    if (full->nodes == 0 && full->cores == 0 && !full->node_cores) {
        int even = 1;
        for (int n = 1; n < plat->nnodes; n++)
            even &= plat->nodes[n].cores == plat->nodes[0].cores;
        if (!even && !(*template_cores = malloc((size_t)plat->nnodes * sizeof **template_cores)))
            return sc_error(SC_ERR_RUN, "out of memory");
        for (int n = 0; !even && n < plat->nnodes; n++)
            (*template_cores)[n] = plat->nodes[n].cores;
        if (!even)
            full->node_cores = *template_cores;
    }
    if (full->nodes == 0)
        full->nodes = plat->nnodes;
    if (full->cores == 0)
        full->cores = t->cores;
    /* The platform reader's limit, before a million nodes are written and
     * read back only to be refused (at most 2^20 nodes of 2^16 cores: the
     * sum cannot overflow). */
    long long total = 0;
    for (int n = 0; n < full->nodes; n++)
        total += cores_of(full, n);
    if (total > SC_MAX_CORES)
        return sc_error(SC_ERR_INPUT,
                        "simcoll platform: %d nodes with %lld cores in all, more than %d; simcoll "
                        "simulates at most that many ranks (nothing written)",
                        full->nodes, total, SC_MAX_CORES);
    int domains = 1;
    for (int d = 0; d < SC_NDOMAIN_KINDS; d++)
        domains *= full->domains[d] > 1 ? full->domains[d] : 1;
    for (int n = 0; n < full->nodes && domains > 1; n++)
        if (cores_of(full, n) % domains)
            return sc_error(SC_ERR_INPUT,
                            "%d %s a node cannot share node-%d's %d cores evenly; give "
                            "nodes a multiple of %d cores",
                            domains, smallest_domains(full), n, cores_of(full, n), domains);
    return SC_OK;
}

/* The template's levels changed: by a fitted level and the ranges it
 * keeps, by --net's network, and by every --set of a level or the node; a
 * level --set changes keeps the template's ranges on it (keep_ranges). */
static sc_err_t change_levels(const sc_generate_spec_t *spec, const sc_platform_t *plat,
                              template_t *t)
{
    sc_err_t err = SC_OK;
    if (spec->level && (err = apply_level(t, spec->level_id, spec->level)))
        return err;
    for (int i = 0; i < spec->nkept_ranges && !err; i++)
        err = put_range(t, &spec->kept_ranges[i]);
    sc_level_t levels[SC_NLEVELS];
    int touched[SC_NLEVELS] = {0};
    memcpy(levels, plat->level, sizeof levels);
    if (!err && spec->net) {
        if ((err = load_network(spec->net, &levels[SC_LEVEL_INTER], &t->net_sources,
                                &t->nnet_sources)))
            return err;
        touched[SC_LEVEL_INTER] = 1;
    }
    for (int i = 0; i < spec->nsets && !err; i++)
        err = sc_generate_apply_set(spec->sets[i], levels, touched, &t->speed_flops);
    for (int id = 0; id < SC_NLEVELS && !err; id++)
        if (touched[id] && !(err = apply_level(t, (sc_level_id_t)id, &levels[id])) &&
            !(spec->net && id == SC_LEVEL_INTER)) /* --net's network has no ranges */
            err = keep_ranges(t, plat, (sc_level_id_t)id, spec->sets, spec->nsets);
    return err;
}

/* The links beside the levels', as --set leaves them: with racks, a
 * rack's uplink, which starts as fast as its nodes' NIC links together;
 * the links between a node's domains (sc_generate_domain_link), and the
 * properties of their levels (full->domain_props, spec's and --set's). */
static sc_err_t change_links(const sc_generate_spec_t *spec, const sc_platform_t *plat,
                             template_t *t, sc_generate_spec_t *full)
{
    sc_topology_t topology;
    int has_topology =
        spec->topology && !sc_topology_parse("--topology", spec->topology, &topology);
    int racks = has_topology && topology.kind == SC_TOPO_RACKS && topology.racks > 1;
    t->uplink = t->nic;
    t->uplink.bandwidth_Bps = racks ? t->nic.bandwidth_Bps * topology.rack_nodes : 0;
    for (int d = 0; d < SC_NDOMAIN_KINDS; d++) {
        t->domain_link[d] = sc_generate_domain_link(&t->membus);
        t->domain_props[d] = spec->domain_props[d] ? *spec->domain_props[d] : (sc_level_t){0};
        full->domain_props[d] = &t->domain_props[d];
    }
    sc_err_t err = SC_OK;
    for (int i = 0; i < spec->nsets && !err; i++) {
        int at = sc_generate_set_level(spec->sets[i]);
        int d = sc_param_at_domain((sc_param_at_t)at);
        if (at == SC_AT_RACK) {
            err = sc_generate_apply_link_set(spec->sets[i], SC_AT_RACK, racks ? &t->uplink : NULL,
                                             NULL, NULL,
                                             "give --levels ...,rack:R or --topology racks:N,R "
                                             "(R > 1)");
        } else if (d >= 0) {
            char missing[96];
            snprintf(missing, sizeof missing, "give --levels ...,%s:N,... or --%s%s N",
                     sc_domain_name((sc_domain_kind_t)d), sc_domain_name((sc_domain_kind_t)d),
                     d == SC_DOMAIN_SOCKET ? "s" : "");
            err = sc_generate_apply_link_set(
                spec->sets[i], (sc_param_at_t)at, spec->domains[d] > 1 ? &t->domain_link[d] : NULL,
                &t->domain_props[d], &plat->level[SC_LEVEL_INTRA], missing);
        }
    }
    return err;
}

/* `xml` to out_path, whole or not at all, or to stdout if NULL. */
static sc_err_t put_output(const char *xml, size_t len, const char *out_path)
{
    if (!out_path) {
        fwrite(xml, 1, len, stdout); /* main checks that stdout was written */
        return SC_OK;
    }
    sc_outputs_t *outs = sc_outputs_new();
    FILE *f;
    sc_err_t err = SC_OK;
    if (!outs)
        err = sc_error(SC_ERR_RUN, "out of memory");
    else if (!(err = sc_outputs_add(outs, "-o", out_path, &f))) {
        fwrite(xml, 1, len, f);
        err = sc_outputs_commit(outs);
        outs = NULL;
    }
    sc_outputs_discard(outs);
    return err;
}

/* Writes the platform of `full` into memory, checks that it loads (what
 * is written is what loads: the text is checked by the platform reader
 * before it goes anywhere), then puts it out. */
static sc_err_t write_checked(const sc_generate_spec_t *full, const sc_platform_t *plat,
                              const template_t *t, const char *template_path, const char *out_path)
{
    char *config = NULL;
    sc_err_t err;
    if (full->smpi_config && (err = smpi_config(t, plat->name, &config)))
        return err;
    char *xml = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&xml, &len);
    if (!mem) {
        free(config);
        return sc_error(SC_ERR_RUN, "out of memory");
    }
    char zone_base[1024];
    const char *zone_rest;
    split_zone(plat, zone_base, sizeof zone_base, &zone_rest);
    write_platform(mem, t, plat, template_path, zone_base, zone_rest, full, config);
    free(config);
    err = fclose(mem) != 0 ? sc_error(SC_ERR_RUN, "out of memory") : SC_OK;
    if (!err)
        err = check_generated(full->level   ? "the fitted values"
                              : full->nsets ? "--set"
                                            : "simcoll platform",
                              xml, len);
    if (!err)
        err = put_output(xml, len, out_path);
    free(xml);
    return err;
}

sc_err_t sc_generate(const char *option, const char *template_path, const sc_generate_spec_t *spec,
                     const char *out_path)
{
    sc_platform_t plat;
    template_t t;
    sc_err_t err = sc_generate_check_sets(spec->sets, spec->nsets);
    if (err || (err = load_template(option, template_path, &plat, &t)))
        return err;
    sc_generate_spec_t full = *spec;
    int *template_cores = NULL;
    if (!(err = complete_shape(&plat, &t, &full, &template_cores)) &&
        !(err = change_levels(spec, &plat, &t)) && !(err = change_links(spec, &plat, &t, &full)))
        err = write_checked(&full, &plat, &t, template_path, out_path);
    template_destroy(&t);
    free(template_cores);
    sc_platform_destroy(&plat);
    return err;
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
        err = sc_generate_parse_cores(cores, &spec, &node_cores);
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
