/* Starting SimGrid on a simcoll platform file and describing the cluster.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sim/simgrid/engine.h"
#include "sim/simgrid/engine_hosts.h"
#include "sim/simgrid/scale.h"

#include <ctype.h>
#include <errno.h>
#include <malloc.h>
#include <math.h>
#include <simgrid/engine.h>
#include <simgrid/version.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/zone.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <string.h>
#include <unistd.h>
#include <xbt/dynar.h>

#include "sim/simgrid/child.h"
#include "sim/io/files.h"
#include "sim/io/platform_file.h"
#include "sim/simgrid/s4u_calls.h"
#include "sim/simgrid/topology_build.h"

#ifndef SC_ACTOR_STACK_KIB
#define SC_ACTOR_STACK_KIB 256
#endif

/* Whether each actor's stack may have a guard page. SimGrid protects it
 * with mprotect, which splits the stack's memory map in two, and Linux
 * limits a process's maps (vm.max_map_count, 65530 by default): above about
 * 28,000 actors SimGrid would abort with "Failed to protect stack". Those
 * runs go without guard pages; simcoll's own code keeps well within the
 * stack (no recursion, no large locals). */
static int guard_pages_fit(int actors)
{
    long limit = 65530;
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    if (f) {
        if (fscanf(f, "%ld", &limit) != 1)
            limit = 65530;
        fclose(f);
    }
    const long others = 8192; /* libraries, heap, SimGrid's own */
    return 2L * actors + others <= limit;
}

static int full_network_update;

void sc_engine_full_network_update(int on)
{
    full_network_update = on;
}

/* SimGrid's lazy network update walks the constraints a changed flow
 * touches recursively (lmm::System::update_modified_cnst_set_rec), on the
 * main thread's stack, one frame per link reached: on a cluster of 131,072
 * nodes a replayed Bruck allgather of a million ranks overflowed the
 * default 8 MiB. The main stack grows up to the limit in force when it
 * grows, and Linux keeps at least 128 MiB below it free of other mappings,
 * so the limit is raised to just under that. */
static void room_for_deep_recursion(void)
{
    const rlim_t want = 120UL << 20;
    struct rlimit lim;
    if (getrlimit(RLIMIT_STACK, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY &&
        lim.rlim_cur < want) {
        lim.rlim_cur = lim.rlim_max == RLIM_INFINITY || lim.rlim_max > want ? want : lim.rlim_max;
        setrlimit(RLIMIT_STACK, &lim);
    }
}

void sc_engine_boot(const sc_platform_t *plat, int actors)
{
    room_for_deep_recursion();
    /* CM02 is SimGrid's flow model without the wide-area TCP corrections of
     * its default (LV08 multiplies latencies by 13.01 and bandwidths by
     * 0.97): the platform files give end-to-end latencies and bandwidths of
     * cluster message passing, to be used as they are. Cross-traffic (5% of
     * each flow charged to the reverse path for TCP acknowledgements) is
     * off for the same reason. See platforms/README.md.
     * surf/precision: SimGrid rounds event times to 1 ns by default, which
     * loses short intra-node transfers (1 byte over a 5.3 GB/s memory bus
     * takes 0.19 ns); at 1 ps simulations match the closed-form models. */
    char stack[64];
    snprintf(stack, sizeof stack, "--cfg=contexts/stack-size:%d", SC_ACTOR_STACK_KIB);
    char *argv[9] = {"simcoll",
                     "--log=root.thresh:error",
                     "--cfg=network/model:CM02",
                     "--cfg=network/crosstraffic:0",
                     "--cfg=surf/precision:1e-12",
                     stack};
    int argc = 6;
    if (full_network_update)
        argv[argc++] = "--cfg=network/optim:Full";
    if (!guard_pages_fit(actors)) {
        argv[argc++] = "--cfg=contexts/guard-size:0";
        /* SimGrid then callocs each stack, which must stay untouched pages
         * until used. jemalloc (CMakeLists.txt) takes a calloc of this size
         * from fresh pages without writing them (1.4 GiB resident at
         * 65,536 ranks). So does glibc's malloc, in builds without jemalloc,
         * from mmap, unless a large free has raised its threshold for mmap:
         * then it zeroes heap memory instead, and 65,536 stacks of 256 KiB
         * become 16 GiB of resident memory. A fixed threshold keeps them on
         * mmap. */
        mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    }
    simgrid_init(&argc, argv);
    sc_engine_watch_lost_events();
    if (plat->topology) {
        sc_engine_build_topology(plat->zone, plat->level[SC_LEVEL_INTER].bidirectional_Bps);
    } else {
        /* SimGrid reads files only: hand it the checked rewrite through a
         * file that lives as long as this (child) process. */
        char path[64];
        if (sc_memory_file("simcoll-platform", plat->engine_xml, plat->engine_xml_len, path,
                           sizeof path) < 0) {
            fprintf(stderr, "[simcoll/ERROR] cannot hand the platform to SimGrid: %s\n",
                    strerror(errno));
            _exit(3);
        }
        simgrid_load_platform(path);
    }
    sc_engine_scale_links(plat);
}

int sc_engine_name_compare(const char *a, const char *b)
{
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            while (*a == '0')
                a++;
            while (*b == '0')
                b++;
            size_t la = strspn(a, "0123456789"), lb = strspn(b, "0123456789");
            if (la != lb)
                return la < lb ? -1 : 1;
            int c = strncmp(a, b, la);
            if (c)
                return c;
            a += la;
            b += lb;
        } else {
            if (*a != *b)
                return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
            a++;
            b++;
        }
    }
    return *a ? 1 : (*b ? -1 : 0);
}

static int compare_hosts(const void *x, const void *y)
{
    return sc_engine_name_compare(sg_host_get_name(*(const sg_host_t *)x),
                                  sg_host_get_name(*(const sg_host_t *)y));
}

sg_host_t *sc_engine_hosts_in_order(size_t *count)
{
    *count = sg_host_count();
    sg_host_t *hosts = sg_host_list();
    if (hosts && *count)
        qsort(hosts, *count, sizeof *hosts, compare_hosts);
    return hosts;
}

void sc_engine_route(sg_host_t a, sg_host_t b, xbt_dynar_t links)
{
#if SC_SIMGRID_AT_LEAST(4, 1)
    int n = 0;
    const_sg_link_t *route = sg_host_get_route_links(a, b, &n);
    for (int i = 0; i < n; i++) {
        /* The links are the platform's, which simcoll marks (scale.c). */
        sg_link_t link = (sg_link_t)route[i];
        xbt_dynar_push_as(links, sg_link_t, link);
    }
    free(route);
#else
    sg_host_get_route(a, b, links);
#endif
}

sg_netzone_t sc_engine_zone(void)
{
    sg_netzone_t root = sg_zone_get_root();
#if SC_SIMGRID_AT_LEAST(4, 0)
    int n = 0;
    sg_netzone_t *children = sg_zone_get_childs(root, &n);
    if (n == 1 && !strcmp(sg_zone_get_name(root), "_world_"))
        root = children[0];
    free(children);
#endif
    return root;
}

/* The links of the route from a to b (caller frees the dynar). */
static xbt_dynar_t route_links(sg_host_t a, sg_host_t b)
{
    sc_child_step("computing the route from '%s' to '%s' (does every node have "
                  "a <host_link> and a loopback <route>?)",
                  sg_host_get_name(a), sg_host_get_name(b));
    xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
    sc_engine_route(a, b, links);
    return links;
}

static int shares_link(xbt_dynar_t x, xbt_dynar_t y, const char **name)
{
    for (unsigned i = 0; i < xbt_dynar_length(x); i++)
        for (unsigned j = 0; j < xbt_dynar_length(y); j++)
            if (xbt_dynar_get_as(x, i, sg_link_t) == xbt_dynar_get_as(y, j, sg_link_t)) {
                *name = sg_link_get_name(xbt_dynar_get_as(x, i, sg_link_t));
                return 1;
            }
    return 0;
}

static int same(double a, double b)
{
    return fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b));
}

/* The route from node i to node j, of hierarchy level `hier` (1 or more):
 * the first one of its level gives the level's latency and bandwidth, and
 * one that differs from it makes the platform non-uniform. */
static void describe_network_route(sg_host_t *hosts, int i, int j, int hier, int *seen,
                                   double *latency, double *bandwidth, sc_platform_t *plat)
{
    double lat = sg_host_get_route_latency(hosts[i], hosts[j]);
    double bw = sg_host_get_route_bandwidth(hosts[i], hosts[j]);
    if (!seen[hier]) {
        seen[hier] = 1;
        latency[hier] = lat;
        bandwidth[hier] = bw;
    } else if (!same(lat, latency[hier]) || !same(bw, bandwidth[hier])) {
        plat->uniform = 0;
    }
}

/* Checks each node's routes and derives the level parameters from node 0
 * and the network routes from each node to the next and to the nodes one
 * group further (of each size of the checked file's groupings); any that
 * differs from the first of its level makes the platform non-uniform. */
static sc_err_t describe_routes(const char *option, const char *path, sg_host_t *hosts,
                                const sc_platform_t *checked, sc_platform_t *plat)
{
    sc_level_t *intra = &plat->level[SC_LEVEL_INTRA], *inter = &plat->level[SC_LEVEL_INTER];
    int seen[SC_MAX_LEVELS] = {0};
    double latency[SC_MAX_LEVELS], bandwidth[SC_MAX_LEVELS];
    plat->uniform = 1;
    for (int i = 0; i < plat->nnodes; i++) {
        sg_host_t h = hosts[i], next = hosts[(i + 1) % plat->nnodes];
        xbt_dynar_t loop = route_links(h, h);
        if (xbt_dynar_is_empty(loop)) {
            xbt_dynar_free(&loop);
            return sc_error(SC_ERR_INPUT,
                            "%s '%s': node '%s' has no shared-memory route; add "
                            "<route src=\"%s\" dst=\"%s\"> through its memory-bus link",
                            option, path, sg_host_get_name(h), sg_host_get_name(h),
                            sg_host_get_name(h));
        }
        double lat = sg_host_get_route_latency(h, h), bw = sg_host_get_route_bandwidth(h, h);
        plat->nodes[i].membus_Bps = bw;
        if (i == 0) {
            intra->latency_s = lat;
            intra->bandwidth_Bps = bw;
        } else if (!same(lat, intra->latency_s) || !same(bw, intra->bandwidth_Bps) ||
                   !same(plat->nodes[i].speed_flops, plat->nodes[0].speed_flops)) {
            plat->uniform = 0;
        }
        if (plat->nnodes > 1) {
            xbt_dynar_t out = route_links(h, next);
            const char *shared = NULL;
            int bad = shares_link(loop, out, &shared);
            xbt_dynar_free(&out);
            if (bad) {
                xbt_dynar_free(&loop);
                return sc_error(SC_ERR_INPUT,
                                "%s '%s': node '%s' reaches itself through link "
                                "'%s' of its network route; intra-node traffic needs a "
                                "<route src=\"%s\" dst=\"%s\"> through the node's own "
                                "memory-bus link",
                                option, path, sg_host_get_name(h), shared, sg_host_get_name(h),
                                sg_host_get_name(h));
            }
            int j = (i + 1) % plat->nnodes;
            describe_network_route(hosts, i, j, sc_platform_hier_level(checked, i, 0, j, 0),
                                   seen, latency, bandwidth, plat);
            for (int k = 0; k < checked->ngroupings; k++)
                if (i + checked->group_size[k] < plat->nnodes) {
                    j = i + (int)checked->group_size[k];
                    describe_network_route(hosts, i, j,
                                           sc_platform_hier_level(checked, i, 0, j, 0), seen,
                                           latency, bandwidth, plat);
                }
        }
        xbt_dynar_free(&loop);
    }
    /* The network level: between two nodes of the smallest group or, if no
     * group holds two nodes, of the lowest level there is. NaN (never used)
     * for a level no two nodes are at, or no network at all. */
    inter->latency_s = inter->bandwidth_Bps = NAN;
    for (int hier = SC_MAX_LEVELS - 1; hier >= 1; hier--)
        if (seen[hier]) {
            inter->latency_s = latency[hier];
            inter->bandwidth_Bps = bandwidth[hier];
        }
    int s = sc_platform_node_levels(checked);
    for (int k = 0; k < checked->ngroupings; k++) {
        plat->between_groups[k].latency_s = seen[s + 2 + k] ? latency[s + 2 + k] : NAN;
        plat->between_groups[k].bandwidth_Bps = seen[s + 2 + k] ? bandwidth[s + 2 + k] : NAN;
    }
    return SC_OK;
}

typedef struct {
    const char *option, *path;
    const sc_platform_t *checked;
    /* Its links' factors (sc_platform_load_scaled), or NULL: applied once
     * the first description knows the nodes, then described again. */
    const sc_platform_t *link_scales;
} source_t;

/* Copies the factors on links of `from` into `to`. */
static void copy_link_scales(sc_platform_t *to, const sc_platform_t *from)
{
    to->links_scaled = from->links_scaled;
    memcpy(to->link_latency_scale, from->link_latency_scale, sizeof to->link_latency_scale);
    memcpy(to->link_bandwidth_scale, from->link_bandwidth_scale, sizeof to->link_bandwidth_scale);
}

sg_host_t sc_engine_host(const sc_platform_t *plat, int node, int domain)
{
    const char *name = plat->nodes[node].name;
    int smallest = sc_platform_domain_kind(plat, 1);
    if (smallest < 0)
        return sg_host_by_name(name);
    size_t len = strlen(name) + 32;
    char *host_name = malloc(len);
    if (!host_name)
        return NULL;
    snprintf(host_name, len, "%s-%s-%d", name, sc_domain_name((sc_domain_kind_t)smallest), domain);
    sg_host_t host = sg_host_by_name(host_name);
    free(host_name);
    return host;
}

static int compare_names(const void *x, const void *y)
{
    return sc_engine_name_compare(*(char *const *)x, *(char *const *)y);
}

/* With domains in nodes, SimGrid's hosts are the nodes' smallest domains
 * (NODE-KIND-K, sim/simgrid/topology.cpp): the nodes are the names of the
 * domain 0 hosts less that suffix, in simcoll's order. */
static sc_err_t domain_nodes(sg_host_t *hosts, size_t count, sc_platform_t *plat)
{
    int domains = sc_platform_domains(plat);
    char suffix[32];
    snprintf(suffix, sizeof suffix, "-%s-0",
             sc_domain_name((sc_domain_kind_t)sc_platform_domain_kind(plat, 1)));
    size_t k = strlen(suffix);
    plat->nnodes = (int)(count / (size_t)domains);
    plat->nodes = calloc((size_t)plat->nnodes, sizeof *plat->nodes);
    char **names = calloc((size_t)plat->nnodes, sizeof *names);
    int n = 0;
    for (size_t i = 0; plat->nodes && names && i < count; i++) {
        const char *name = sg_host_get_name(hosts[i]);
        size_t len = strlen(name);
        if (len > k && !strcmp(name + len - k, suffix) && n < plat->nnodes &&
            (names[n] = strndup(name, len - k)))
            n++;
    }
    if (!plat->nodes || !names || n != plat->nnodes) {
        for (int i = 0; names && i < n; i++)
            free(names[i]);
        free(names);
        return sc_error(SC_ERR_RUN,
                        "reading the platform: out of memory, or its %zu domain hosts "
                        "are not %d a node (a simcoll bug)",
                        count, domains);
    }
    qsort(names, (size_t)n, sizeof *names, compare_names);
    for (int i = 0; i < n; i++) {
        sc_node_t *node = &plat->nodes[i];
        node->name = names[i];
        sg_host_t domain0 = sc_engine_host(plat, i, 0);
        node->cores = domains * sg_host_core_count(domain0);
        node->speed_flops = sg_host_get_speed(domain0);
        plat->total_cores += node->cores;
    }
    free(names);
    return SC_OK;
}

/* The routes between the domains of each node, at each level: from domain
 * 0 to the first of another domain of that kind in the same parent. The
 * first node's give between_domains their latency and bandwidth, one that
 * differs makes the platform non-uniform. */
static void describe_domain_routes(sc_platform_t *plat)
{
    for (int d = 0; d < SC_NDOMAIN_KINDS; d++) {
        if (plat->domain_count[d] <= 1)
            continue;
        sc_level_t *between = &plat->between_domains[d];
        int other = sc_platform_domain_span(plat, (sc_domain_kind_t)d);
        for (int i = 0; i < plat->nnodes; i++) {
            sg_host_t a = sc_engine_host(plat, i, 0), b = sc_engine_host(plat, i, other);
            double lat = sg_host_get_route_latency(a, b), bw = sg_host_get_route_bandwidth(a, b);
            if (i == 0) {
                between->latency_s = lat;
                between->bandwidth_Bps = bw;
            } else if (!same(lat, between->latency_s) || !same(bw, between->bandwidth_Bps)) {
                plat->uniform = 0;
            }
        }
    }
}

static sc_err_t describe_platform(const source_t *src, sc_platform_t *plat)
{
    const char *zone = sg_zone_get_name(sc_engine_zone()), *path = src->path;
    plat->path = strdup(path);
    plat->name = strdup(zone);
    size_t count = sg_host_count();
    if (!plat->path || !plat->name)
        return sc_error(SC_ERR_RUN, "out of memory reading the platform");
    if (count == 0)
        return sc_error(SC_ERR_INPUT, "%s '%s': the platform has no hosts", src->option, path);

    sc_err_t err = SC_OK;
    sg_host_t *hosts = sc_engine_hosts_in_order(&count);
    memcpy(plat->domain_count, src->checked->domain_count, sizeof plat->domain_count);
    if (sc_platform_node_levels(plat)) {
        /* describe_routes takes each node's routes from its domain 0 */
        if (!(err = domain_nodes(hosts, count, plat)))
            for (int i = 0; i < plat->nnodes; i++)
                hosts[i] = sc_engine_host(plat, i, 0);
        if (!err && !(err = describe_routes(src->option, path, hosts, src->checked, plat)))
            describe_domain_routes(plat);
        free(hosts);
        return err;
    }
    plat->nnodes = (int)count;
    plat->nodes = calloc(count, sizeof *plat->nodes);
    if (!plat->nodes) {
        free(hosts);
        return sc_error(SC_ERR_RUN, "out of memory reading the platform");
    }
    for (size_t i = 0; i < count && !err; i++) {
        sc_node_t *node = &plat->nodes[i];
        node->name = strdup(sg_host_get_name(hosts[i]));
        node->cores = sg_host_core_count(hosts[i]);
        node->speed_flops = sg_host_get_speed(hosts[i]);
        plat->total_cores += node->cores;
        if (!node->name)
            err = sc_error(SC_ERR_RUN, "out of memory reading the platform");
    }
    if (!err)
        err = describe_routes(src->option, path, hosts, src->checked, plat);
    /* In a torus or a dragonfly the routes of one level differ in hops
     * whatever pairs describe_routes looked at. */
    if (src->checked->topology && !src->checked->routes_by_level)
        plat->uniform = 0;
    free(hosts);
    return err;
}

static void put_platform(sc_wire_t *w, const sc_platform_t *plat)
{
    sc_wire_put_str(w, plat->name);
    sc_wire_put_int(w, plat->nnodes);
    for (int i = 0; i < plat->nnodes; i++) {
        sc_wire_put_str(w, plat->nodes[i].name);
        sc_wire_put_int(w, plat->nodes[i].cores);
        sc_wire_put_double(w, plat->nodes[i].speed_flops);
        sc_wire_put_double(w, plat->nodes[i].membus_Bps);
    }
    sc_wire_put(w, plat->level, sizeof plat->level);
    sc_wire_put(w, plat->domain_count, sizeof plat->domain_count);
    sc_wire_put(w, plat->between_domains, sizeof plat->between_domains);
    sc_wire_put(w, plat->between_groups, sizeof plat->between_groups);
    sc_wire_put(w, &plat->header_bytes, sizeof plat->header_bytes);
    sc_wire_put_int(w, plat->uniform);
}

static sc_err_t get_platform(sc_wire_t *w, const char *path, sc_platform_t *plat)
{
    plat->path = strdup(path);
    plat->name = sc_wire_get_str(w);
    int ok = plat->path && plat->name && sc_wire_get_int(w, &plat->nnodes) && plat->nnodes > 0;
    if (ok)
        plat->nodes = calloc((size_t)plat->nnodes, sizeof *plat->nodes);
    ok = ok && plat->nodes;
    for (int i = 0; ok && i < plat->nnodes; i++) {
        sc_node_t *node = &plat->nodes[i];
        node->name = sc_wire_get_str(w);
        ok = node->name && sc_wire_get_int(w, &node->cores) &&
             sc_wire_get_double(w, &node->speed_flops) && sc_wire_get_double(w, &node->membus_Bps);
        plat->total_cores += node->cores;
    }
    ok = ok && sc_wire_get(w, plat->level, sizeof plat->level) &&
         sc_wire_get(w, plat->domain_count, sizeof plat->domain_count) &&
         sc_wire_get(w, plat->between_domains, sizeof plat->between_domains) &&
         sc_wire_get(w, plat->between_groups, sizeof plat->between_groups) &&
         sc_wire_get(w, &plat->header_bytes, sizeof plat->header_bytes) &&
         sc_wire_get_int(w, &plat->uniform);
    if (!ok) {
        sc_platform_destroy(plat);
        return sc_error(SC_ERR_RUN, "out of memory reading the platform description");
    }
    return SC_OK;
}

static sc_err_t describe_in_child(void *arg, sc_wire_t *out)
{
    const source_t *src = arg;
    sc_child_step("loading it");
    sc_engine_boot(src->checked, 0);
    sc_platform_t plat = {0};
    sc_err_t err = describe_platform(src, &plat);
    if (!err && src->link_scales && src->link_scales->links_scaled) {
        /* The links' levels follow the file's groupings of nodes. */
        plat.ngroupings = src->checked->ngroupings;
        memcpy(plat.group_size, src->checked->group_size, sizeof plat.group_size);
        copy_link_scales(&plat, src->link_scales);
        sc_engine_scale_links(&plat);
        sc_platform_destroy(&plat);
        err = describe_platform(src, &plat);
    }
    if (!err)
        put_platform(out, &plat);
    sc_platform_destroy(&plat);
    return err;
}

/* `properties` with the latency and bandwidth of `route`. */
static sc_level_t with_route(sc_level_t properties, const sc_level_t *route)
{
    properties.latency_s = route->latency_s;
    properties.bandwidth_Bps = route->bandwidth_Bps;
    return properties;
}

/* Applies scalings[0..n-1] to the checked file: link parameters become
 * factors on the links of their hierarchy levels (in `links`), the others
 * change in `checked`. */
static sc_err_t scale_checked(const char *option, const char *path, const sc_scaling_t *scalings,
                              int n, sc_platform_t *checked, sc_platform_t *links)
{
    int s = sc_platform_node_levels(checked);
    /* A domain level without a property of its own takes shared memory's:
     * scaled, it gets its own, from shared memory's as the file gives it. */
    for (int i = 0; i < n; i++) {
        const sc_param_t *p = scalings[i].param;
        int domain = sc_param_at_domain(scalings[i].at);
        if (!sc_param_domain_own(p, scalings[i].at))
            continue;
        sc_piecewise_t *own = sc_param_piecewise(p, &checked->between_domains[domain]);
        if (own->n == 0)
            *own = *sc_param_piecewise(p, &checked->level[SC_LEVEL_INTRA]);
    }
    for (int i = 0; i < n; i++) {
        const sc_param_t *p = scalings[i].param;
        sc_param_at_t at = scalings[i].at;
        double f = scalings[i].factor;
        const char *level = sc_param_at_name(at);
        int lo = -1, hi = -1; /* the hierarchy levels of a link parameter */
        if (p->carrier == SC_CARRIER_LINK) {
            int domain = sc_param_at_domain(at);
            lo = at == SC_AT_INTRA   ? 0
                 : domain >= 0       ? sc_platform_domain_hier(checked, (sc_domain_kind_t)domain)
                 : at == SC_AT_INTER ? s + 1
                                     : s + 2;
            hi = at == SC_AT_RACK ? s + 1 + checked->ngroupings : lo;
            if ((domain >= 0 && !lo) || hi < lo)
                return sc_error(SC_ERR_INPUT, "%s '%s' has no %s level to change the %s of",
                                option, path, level, p->name);
        } else if (!(p->in == SC_IN_LEVEL &&
                     (at == SC_AT_INTRA || at == SC_AT_INTER || sc_param_at_domain(at) >= 0)) &&
                   p->in != SC_IN_PLATFORM) {
            return sc_error(SC_ERR_INPUT, "%s%s%s cannot be scaled in a loaded platform",
                            level ? level : "", level ? "." : "", p->name);
        }
        for (int l = lo; l >= 0 && l <= hi; l++) {
            double *scale = p->kind == SC_PARAM_DURATION ? links->link_latency_scale
                                                         : links->link_bandwidth_scale;
            scale[l] = (scale[l] > 0 ? scale[l] : 1) * f;
            links->links_scaled = 1;
        }
        int domain = sc_param_at_domain(at);
        if (p->carrier != SC_CARRIER_LINK)
            sc_param_scale(p,
                           p->in == SC_IN_PLATFORM ? (void *)checked
                           : domain >= 0           ? &checked->between_domains[domain]
                                                   : &checked->level[at],
                           f);
    }
    return SC_OK;
}

sc_err_t sc_platform_load(const char *option, const char *name, sc_platform_t *plat)
{
    return sc_platform_load_scaled(option, name, NULL, 0, plat);
}

sc_err_t sc_platform_load_scaled(const char *option, const char *name, const sc_scaling_t *scalings,
                                 int n, sc_platform_t *plat)
{
    memset(plat, 0, sizeof *plat);
    char path[4096];
    sc_err_t err = sc_platform_find(option, name, path, sizeof path);
    /* Nothing reaches SimGrid that it could abort or crash on. */
    sc_platform_t checked = {0}, links = {0};
    if (!err)
        err = sc_platform_file_check(option, path, &checked);
    if (!err)
        err = scale_checked(option, path, scalings, n, &checked, &links);
    if (err) {
        sc_platform_destroy(&checked);
        return err;
    }
    char what[4300];
    snprintf(what, sizeof what, "%s '%s': SimGrid failed on a platform simcoll had checked "
                                "(a simcoll bug)",
             option, path);
    source_t src = {option, path, &checked, &links};
    sc_wire_t in;
    /* After the check, SimGrid dying on the file is simcoll's fault: exit 1,
     * and the platform fuzzer's finding (tests/fuzz/). Refusals of the
     * routes it computes are still bad input. */
    if (!(err = sc_child_run(describe_in_child, &src, SC_ERR_RUN, what, &in))) {
        err = get_platform(&in, path, plat);
        sc_wire_free(&in);
    }
    if (err) {
        sc_platform_destroy(&checked);
        return err;
    }
    /* SimGrid gave the routes; the file check gave simcoll's properties. */
    for (int l = 0; l < SC_NLEVELS; l++)
        plat->level[l] = with_route(checked.level[l], &plat->level[l]);
    plat->header_bytes = checked.header_bytes;
    plat->engine_xml = checked.engine_xml;
    plat->engine_xml_len = checked.engine_xml_len;
    plat->topology = checked.topology;
    plat->zone = checked.zone;
    plat->ngroupings = checked.ngroupings;
    plat->nlevels = checked.nlevels;
    memcpy(plat->group_size, checked.group_size, sizeof plat->group_size);
    plat->routes_by_level = checked.routes_by_level;
    copy_link_scales(plat, &links);
    plat->nranges = checked.nranges;
    memcpy(plat->ranges, checked.ranges, sizeof plat->ranges);
    plat->sources = checked.sources;
    plat->nsources = checked.nsources;
    /* Between domains: shared memory's properties, the route's latency and
     * bandwidth; between groups: the network's. */
    for (int d = 0; d < SC_NDOMAIN_KINDS; d++) {
        plat->between_domains[d] =
            with_route(plat->level[SC_LEVEL_INTRA], &plat->between_domains[d]);
        /* the level's own where the file gives them (simcoll/KIND/flow-factor:
         * a pair's copy rate; its overheads) */
        for (const sc_param_t *p = sc_params; p->name; p++) {
            if (!sc_param_domain_own(p, sc_param_domain_at(d)))
                continue;
            const sc_piecewise_t *own = sc_param_piecewise(p, &checked.between_domains[d]);
            if (own->n > 0)
                *sc_param_piecewise(p, &plat->between_domains[d]) = *own;
        }
    }
    for (int k = 0; k < plat->ngroupings; k++)
        plat->between_groups[k] =
            with_route(plat->level[SC_LEVEL_INTER], &plat->between_groups[k]);
    return SC_OK;
}

const char *sc_simgrid_version(void)
{
    static char text[48];
    int major, minor, patch;
    sg_version_get(&major, &minor, &patch);
    snprintf(text, sizeof text, "%d.%d.%d", major, minor, patch);
    return text;
}
