/* The platform file's checks of a network of SimGrid's own topology
 * (simcoll/topology) and of domains inside nodes (simcoll/sockets,
 * simcoll/numa, simcoll/ccx): what simcoll builds from them
 * (sim/simgrid/topology.cpp) and the names it gives what it builds.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sc_error.h"
#include "platform_check.h"
#include "topology.h"

/* Whether `id` ends with `suffix`, or with it and "_UP" or "_DOWN". */
static int names_like(const char *id, const char *suffix)
{
    size_t n = strlen(id), k = strlen(suffix);
    static const char *const halves[] = {"", "_UP", "_DOWN"};
    for (int i = 0; i < 3; i++) {
        size_t h = strlen(halves[i]);
        if (n >= k + h && !strncmp(id + n - k - h, suffix, k) && !strcmp(id + n - h, halves[i]))
            return 1;
    }
    return 0;
}

/* Racks are built by simcoll (sim/simgrid/topology.cpp), which names each
 * node's link HOST_nic, each rack ZONE-rack-R, its switch ZONE-rack-R_switch
 * and its uplink ZONE-rack-R_uplink: SimGrid refuses a second element of
 * any of those names, so the file may not use them. */
static sc_err_t check_rack_names(sc_pf_check_t *c, xmlNode *zone)
{
    const char *zone_id = sc_pf_attr(zone, "id");
    size_t len = strlen(zone_id);
    for (int i = 0; i < c->nhosts; i++)
        if (!strcmp(c->hosts[i].id, zone_id) ||
            (!strncmp(c->hosts[i].id, zone_id, len) && !strncmp(c->hosts[i].id + len, "-rack-", 6)))
            return sc_pf_refuse(c, c->hosts[i].line,
                                "<host id=\"%s\">: in racks simcoll names the racks %s-rack-R and "
                                "their switches %s-rack-R_switch; rename the host",
                                c->hosts[i].id, zone_id, zone_id);
    for (int i = 0; i < c->nlinks; i++)
        if (names_like(c->links[i].id, "_nic") || names_like(c->links[i].id, "_uplink"))
            return sc_pf_refuse(
                c, c->links[i].line,
                "<link id=\"%s\">: in racks simcoll names each node's link HOST_nic "
                "and each rack's uplink %s-rack-R_uplink; rename the link",
                c->links[i].id, zone_id);
    return SC_OK;
}

/* Domains inside nodes (simcoll/sockets = S sockets a node, simcoll/numa
 * = N NUMA domains a socket, or a node without sockets, simcoll/ccx = X
 * CCXs a NUMA domain, or the next larger present): built with racks only
 * (sim/simgrid/topology.cpp makes each node a zone of one host a smallest
 * domain, NODE-KIND-K, joined by links of each level, PARENT_sockets,
 * PARENT_numas, PARENT_ccxs, copies of the links "socket", "numa" and "ccx"
 * (PARENT the node, NODE-socket-J or NODE-numa-J), and leaving through the
 * router NODE_router), every node's cores a multiple of the domains'
 * product. SimGrid refuses a second element of any of those names. */
static sc_err_t check_domains(sc_pf_check_t *c, const sc_topology_t *t, sc_platform_t *plat)
{
    long product = 1;
    int first = -1, smallest = -1;
    char given[96] = ""; /* the properties that make the product */
    for (int d = SC_NDOMAIN_KINDS - 1; d >= 0; d--) {
        const char *text = c->domains[d];
        const char *prop = sc_pf_domain_props[d], *name = sc_domain_name((sc_domain_kind_t)d);
        if (!text)
            continue;
        int line = c->domains_line[d];
        char *end;
        long count = strtol(text, &end, 10);
        if (end == text || *end || strspn(text, "0123456789") != strlen(text) || count < 1 ||
            count > SC_MAX_SOCKETS)
            return sc_pf_refuse(c, line, "%s '%s' is not a whole number of %s in 1..%d", prop, text,
                                sc_domain_plural((sc_domain_kind_t)d), SC_MAX_SOCKETS);
        plat->domain_count[d] = (int)count;
        if (count == 1)
            continue;
        if (first < 0)
            first = d;
        smallest = d;
        snprintf(given + strlen(given), sizeof given - strlen(given), "%s%s", *given ? " x " : "",
                 prop);
        if ((product *= count) > SC_MAX_DOMAINS)
            return sc_pf_refuse(
                c, line,
                "%s '%s': %ld smallest domains a node, more than %d (the product of "
                "simcoll/sockets, simcoll/numa and simcoll/ccx)",
                prop, text, product, SC_MAX_DOMAINS);
        if (t->kind != SC_TOPO_RACKS)
            return sc_pf_refuse(c, line,
                                "%s: nodes have %s in racks only (simcoll/topology 'racks:N,R'; "
                                "racks:N,1 is one switch), not in '%s'",
                                prop, sc_domain_plural((sc_domain_kind_t)d), c->topology);
        if (!sc_pf_find(c->links, c->nlinks, name))
            return sc_pf_refuse(c, line,
                                "a zone with %s needs <link id=\"%s\">, the bandwidth, latency and "
                                "sharing policy of the link between a node's %s",
                                prop, name, sc_domain_plural((sc_domain_kind_t)d));
        plat->nlevels++;
    }
    if (first < 0)
        return SC_OK;
    for (int i = 0; i < c->nhosts; i++) {
        const sc_pf_decl_t *h = &c->hosts[i];
        if (h->cores % product)
            return sc_pf_refuse(c, h->line,
                                "<host id=\"%s\"> has %ld cores, which %ld %s (%s) cannot share "
                                "evenly; give it a multiple of %ld",
                                h->id, h->cores, product,
                                sc_domain_plural((sc_domain_kind_t)smallest), given, product);
        size_t len = strlen(h->id);
        for (int d = 0; d < SC_NDOMAIN_KINDS; d++) {
            char part[16];
            snprintf(part, sizeof part, "-%s-", sc_domain_name((sc_domain_kind_t)d));
            if (strstr(h->id, part) || (len >= 7 && !strcmp(h->id + len - 7, "_router")))
                return sc_pf_refuse(
                    c, h->line,
                    "<host id=\"%s\">: with domains in nodes simcoll names each "
                    "domain NODE-%s-K (and its parents NODE-KIND-J) and each node's "
                    "router NODE_router; rename the host",
                    h->id, sc_domain_name((sc_domain_kind_t)smallest));
        }
    }
    for (int i = 0; i < c->nlinks; i++)
        for (int d = 0; d < SC_NDOMAIN_KINDS; d++) {
            char suffix[16];
            snprintf(suffix, sizeof suffix, "_%ss", sc_domain_name((sc_domain_kind_t)d));
            if (names_like(c->links[i].id, suffix))
                return sc_pf_refuse(
                    c, c->links[i].line,
                    "<link id=\"%s\">: with domains in nodes simcoll names the links "
                    "between them PARENT_sockets, PARENT_numas and PARENT_ccxs; "
                    "rename the link",
                    c->links[i].id);
        }
    return SC_OK;
}

/* A network of SimGrid's own topology (simcoll/topology): as many hosts
 * as it connects, no host_link (the topology connects them), each host's
 * shared memory one link of its own, and a link "network" that every link
 * of the topology copies (racks: every node's; their uplinks copy a link
 * "uplink"). */
sc_err_t sc_pf_check_topology(sc_pf_check_t *c, xmlNode *zone, sc_platform_t *plat)
{
    sc_topology_t t;
    char what[64];
    snprintf(what, sizeof what, "<prop id=\"simcoll/topology\">");
    if (sc_topology_parse(what, c->topology, &t)) {
        char why[1024];
        snprintf(why, sizeof why, "%s", sc_error_message());
        return sc_pf_refuse(c, c->topology_line, "%s", why);
    }
    if (t.nodes != c->nhosts)
        return sc_pf_refuse(
            c, c->topology_line,
            "simcoll/topology '%s' connects %ld nodes, and the zone declares %d hosts", c->topology,
            t.nodes, c->nhosts);
    plat->ngroupings = sc_topology_groupings(&t, plat->group_size, SC_MAX_LEVELS - 2);
    /* A fat tree's route climbs to the lowest common switch and down, with
     * links of one kind; racks' cross the uplinks or not. */
    plat->routes_by_level = t.kind == SC_TOPO_FAT_TREE || t.kind == SC_TOPO_RACKS;
    plat->nlevels = 2 + plat->ngroupings;
    sc_err_t err = SC_OK;
    SC_PF_FOR_ELEMENTS(c, zone, child, err)
    if (!strcmp((const char *)child->name, "host_link"))
        return sc_pf_refuse(
            c, sc_pf_line(child),
            "<host_link> in a zone with simcoll/topology: the topology connects the "
            "nodes, through the link \"network\"");
    if (err)
        return err;
    if (!sc_pf_find(c->links, c->nlinks, "network"))
        return sc_pf_refuse(
            c, c->topology_line,
            "a zone with simcoll/topology needs <link id=\"network\">, the bandwidth, "
            "latency and sharing policy of every link of the topology");
    if (t.kind == SC_TOPO_RACKS && t.racks > 1 && !sc_pf_find(c->links, c->nlinks, "uplink"))
        return sc_pf_refuse(
            c, c->topology_line,
            "a zone with simcoll/topology 'racks:...' of more than one rack needs "
            "<link id=\"uplink\">, the bandwidth, latency and sharing policy of the "
            "link from each rack's switch to the core switch");
    if ((err = check_domains(c, &t, plat)))
        return err;
    if (t.kind == SC_TOPO_RACKS && (err = check_rack_names(c, zone)))
        return err;
    for (int i = 0; i < c->nhosts; i++) {
        const sc_pf_decl_t *h = &c->hosts[i];
        if (!h->loopback)
            continue; /* said below */
        if (!h->bus || !strcmp(h->bus, "network") || !strcmp(h->bus, "uplink") ||
            !strcmp(h->bus, "socket") || !strcmp(h->bus, "numa") || !strcmp(h->bus, "ccx") ||
            !sc_pf_find(c->links, c->nlinks, h->bus))
            return sc_pf_refuse(
                c, h->loopback,
                "host '%s': in a zone with simcoll/topology a node's shared-memory "
                "<route> holds one link of its own, by its id (not half of a "
                "SPLITDUPLEX link), not \"network\", \"uplink\", \"socket\", \"numa\" or \"ccx\"",
                h->id);
        for (int k = 0; k < i; k++)
            if (c->hosts[k].bus && !strcmp(c->hosts[k].bus, h->bus))
                return sc_pf_refuse(c, h->loopback,
                                    "hosts '%s' and '%s' share the memory-bus link '%s': in a zone "
                                    "with simcoll/topology each node has its own",
                                    c->hosts[k].id, h->id, h->bus);
    }
    return SC_OK;
}
