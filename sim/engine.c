/* Starting SimGrid on a simcoll platform file and describing the cluster.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "engine.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/zone.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <xbt/dynar.h>

#include "child.h"
#include "units.h"

#ifndef SC_ACTOR_STACK_KIB
#define SC_ACTOR_STACK_KIB 256
#endif

void sc_engine_boot(const char *path)
{
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
    char *argv[] = {"simcoll",
                    "--log=root.thresh:error",
                    "--cfg=network/model:CM02",
                    "--cfg=network/crosstraffic:0",
                    "--cfg=surf/precision:1e-12",
                    stack,
                    NULL};
    int argc = (int)(sizeof argv / sizeof argv[0]) - 1;
    simgrid_init(&argc, argv);
    simgrid_load_platform(path);
}

/* Orders names so that numbers compare by value: node-2 before node-10. */
static int natural_compare(const char *a, const char *b)
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
    return natural_compare(sg_host_get_name(*(const sg_host_t *)x),
                           sg_host_get_name(*(const sg_host_t *)y));
}

static sc_err_t read_property(const char *path, const char *zone, const char *key,
                              const char *meaning, int is_size, double *seconds,
                              size_t *bytes)
{
    const char *value = sg_zone_get_property_value(sg_zone_get_root(), key);
    if (!value)
        return sc_error(SC_ERR_INPUT,
                        "--platform '%s': zone '%s' lacks <prop id=\"%s\">, %s "
                        "(see platforms/README.md)",
                        path, zone, key, meaning);
    char what[256];
    snprintf(what, sizeof what, "--platform '%s': property %s", path, key);
    return is_size ? sc_parse_size(value, what, bytes)
                   : sc_parse_duration(value, what, seconds);
}

/* The links of the route from a to b (caller frees the dynar). */
static xbt_dynar_t route_links(sg_host_t a, sg_host_t b)
{
    sc_child_step("computing the route from '%s' to '%s' (does every node have "
                  "a <host_link> and a loopback <route>?)",
                  sg_host_get_name(a), sg_host_get_name(b));
    xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
    sg_host_get_route(a, b, links);
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

/* Checks each node's routes and derives the level parameters from node 0
 * (and node 0 to node 1); any node that differs makes the platform
 * non-uniform. */
static sc_err_t describe_routes(const char *path, sg_host_t *hosts, sc_platform_t *plat)
{
    sc_level_t *intra = &plat->level[SC_LEVEL_INTRA], *inter = &plat->level[SC_LEVEL_INTER];
    plat->uniform = 1;
    for (int i = 0; i < plat->nnodes; i++) {
        sg_host_t h = hosts[i], next = hosts[(i + 1) % plat->nnodes];
        xbt_dynar_t loop = route_links(h, h);
        if (xbt_dynar_is_empty(loop)) {
            xbt_dynar_free(&loop);
            return sc_error(SC_ERR_INPUT,
                            "--platform '%s': node '%s' has no shared-memory route; add "
                            "<route src=\"%s\" dst=\"%s\"> through its memory-bus link",
                            path, sg_host_get_name(h), sg_host_get_name(h),
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
            double olat = sg_host_get_route_latency(h, next);
            double obw = sg_host_get_route_bandwidth(h, next);
            xbt_dynar_free(&out);
            if (bad) {
                xbt_dynar_free(&loop);
                return sc_error(SC_ERR_INPUT,
                                "--platform '%s': node '%s' reaches itself through link "
                                "'%s' of its network route; intra-node traffic needs a "
                                "<route src=\"%s\" dst=\"%s\"> through the node's own "
                                "memory-bus link",
                                path, sg_host_get_name(h), shared, sg_host_get_name(h),
                                sg_host_get_name(h));
            }
            if (i == 0) {
                inter->latency_s = olat;
                inter->bandwidth_Bps = obw;
            } else if (!same(olat, inter->latency_s) || !same(obw, inter->bandwidth_Bps)) {
                plat->uniform = 0;
            }
        }
        xbt_dynar_free(&loop);
    }
    if (plat->nnodes == 1) { /* no network: only the intra level is ever used */
        inter->latency_s = NAN;
        inter->bandwidth_Bps = NAN;
    }
    return SC_OK;
}

static sc_err_t describe_platform(const char *path, sc_platform_t *plat)
{
    const char *zone = sg_zone_get_name(sg_zone_get_root());
    plat->path = strdup(path);
    plat->name = strdup(zone);
    size_t count = sg_host_count();
    if (!plat->path || !plat->name)
        return sc_error(SC_ERR_RUN, "out of memory reading the platform");
    if (count == 0)
        return sc_error(SC_ERR_INPUT, "--platform '%s': the platform has no hosts", path);

    sc_err_t err = SC_OK;
    double unused;
    size_t unused_bytes;
    sc_level_t *intra = &plat->level[SC_LEVEL_INTRA], *inter = &plat->level[SC_LEVEL_INTER];
    if ((err = read_property(path, zone, SC_PROP_INTRA_OVERHEAD,
                             "the software overhead of an intra-node message", 0,
                             &intra->overhead_s, &unused_bytes)) ||
        (err = read_property(path, zone, SC_PROP_INTRA_EAGER,
                             "the largest intra-node message sent eagerly (bytes)", 1,
                             &unused, &intra->eager_limit)) ||
        (err = read_property(path, zone, SC_PROP_INTER_OVERHEAD,
                             "the software overhead of an inter-node message", 0,
                             &inter->overhead_s, &unused_bytes)) ||
        (err = read_property(path, zone, SC_PROP_INTER_EAGER,
                             "the largest inter-node message sent eagerly (bytes)", 1,
                             &unused, &inter->eager_limit)) ||
        (err = read_property(path, zone, SC_PROP_HEADER,
                             "the bytes of header each message carries on the wire", 1, &unused,
                             &plat->header_bytes)))
        return err;

    sg_host_t *hosts = sg_host_list();
    qsort(hosts, count, sizeof *hosts, compare_hosts);
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
        err = describe_routes(path, hosts, plat);
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
    sc_wire_put(w, &plat->header_bytes, sizeof plat->header_bytes);
    sc_wire_put_int(w, plat->uniform);
}

static sc_err_t get_platform(sc_wire_t *w, const char *path, sc_platform_t *plat)
{
    plat->path = strdup(path);
    plat->name = sc_wire_get_str(w);
    int ok = plat->path && plat->name && sc_wire_get_int(w, &plat->nnodes) &&
             plat->nnodes > 0;
    if (ok)
        plat->nodes = calloc((size_t)plat->nnodes, sizeof *plat->nodes);
    ok = ok && plat->nodes;
    for (int i = 0; ok && i < plat->nnodes; i++) {
        sc_node_t *node = &plat->nodes[i];
        node->name = sc_wire_get_str(w);
        ok = node->name && sc_wire_get_int(w, &node->cores) &&
             sc_wire_get_double(w, &node->speed_flops) &&
             sc_wire_get_double(w, &node->membus_Bps);
        plat->total_cores += node->cores;
    }
    ok = ok && sc_wire_get(w, plat->level, sizeof plat->level) &&
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
    const char *path = arg;
    sc_child_step("loading it");
    sc_engine_boot(path);
    sc_platform_t plat = {0};
    sc_err_t err = describe_platform(path, &plat);
    if (!err)
        put_platform(out, &plat);
    sc_platform_destroy(&plat);
    return err;
}

sc_err_t sc_platform_load(const char *path, sc_platform_t *plat)
{
    memset(plat, 0, sizeof *plat);
    struct stat st;
    if (stat(path, &st) != 0)
        return sc_error(SC_ERR_INPUT, "--platform '%s': cannot read it: %s", path,
                        strerror(errno));
    if (!S_ISREG(st.st_mode))
        return sc_error(SC_ERR_INPUT, "--platform '%s': not a regular file", path);
    FILE *f = fopen(path, "r");
    if (!f)
        return sc_error(SC_ERR_INPUT, "--platform '%s': cannot read it: %s", path,
                        strerror(errno));
    fclose(f);

    char what[1100];
    snprintf(what, sizeof what, "--platform '%s' is not a usable SimGrid platform", path);
    sc_wire_t in;
    sc_err_t err = sc_child_run(describe_in_child, (void *)path, SC_ERR_INPUT, what, &in);
    if (err)
        return err;
    err = get_platform(&in, path, plat);
    sc_wire_free(&in);
    return err;
}
