/* SimGrid's own network topologies: parsing their parameters.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char forms[] =
    "torus:X,Y,... | fat-tree:LEVELS;DOWN,...;UP,...;LINKS,... | dragonfly:G,g;C,c;R,r;N | "
    "racks:NODES,RACKS";

/* The most nodes a topology may connect (as many as a platform's cores). */
#define MAX_NODES (1L << 24)

/* A list of `want` (or, want 0, 1 to SC_TOPO_MAX_DIMS) whole numbers of at
 * least 1, separated by commas, up to `end`, into out[], which has room for
 * that many. Returns how many, or -1. */
static int numbers(const char *s, const char *end, int want, unsigned *out)
{
    int n = 0, room = want ? want : SC_TOPO_MAX_DIMS;
    while (s < end) {
        char *stop;
        if (*s < '0' || *s > '9')
            return -1;
        unsigned long v = strtoul(s, &stop, 10);
        if (stop > end || v < 1 || v > MAX_NODES || n == room)
            return -1;
        out[n++] = (unsigned)v;
        s = stop;
        if (s < end && *s++ != ',')
            return -1;
        if (s == end && s[-1] == ',')
            return -1;
    }
    return n == 0 || (want && n != want) ? -1 : n;
}

/* The semicolon-separated fields of `s`: up to `max`, ends in ends[]. */
static int fields(const char *s, const char **starts, const char **ends, int max)
{
    int n = 0;
    for (;;) {
        if (n == max)
            return -1;
        starts[n] = s;
        const char *semi = strchr(s, ';');
        ends[n] = semi ? semi : s + strlen(s);
        n++;
        if (!semi)
            return n;
        s = semi + 1;
    }
}

static sc_err_t bad(const char *what, const char *text, const char *why)
{
    return sc_error(SC_ERR_INPUT, "%s '%s': %s; use %s", what, text, why, forms);
}

sc_err_t sc_topology_parse(const char *what, const char *text, sc_topology_t *t)
{
    memset(t, 0, sizeof *t);
    const char *colon = strchr(text, ':');
    if (!colon)
        return bad(what, text, "no kind");
    const char *params = colon + 1, *starts[4], *ends[4];
    size_t kind_len = (size_t)(colon - text);
    double nodes = 1;
    if (kind_len == 5 && !strncmp(text, "torus", 5)) {
        t->kind = SC_TOPO_TORUS;
        t->ndims = numbers(params, params + strlen(params), 0, t->dims);
        if (t->ndims < 0)
            return bad(what, text, "a torus takes its dimensions, whole numbers of at least 1");
        int ones = 0;
        for (int i = 0; i < t->ndims; i++) {
            nodes *= t->dims[i];
            ones += t->dims[i] == 1;
        }
        /* A dimension of 1 links each node to itself, under a name that
         * does not say which dimension: SimGrid refuses the second. */
        if (ones > 1)
            return bad(what, text,
                       "a torus may have at most one dimension of size 1 (SimGrid gives the "
                       "link of a node to itself the same name in each); leave the others out");
    } else if (kind_len == 8 && !strncmp(text, "fat-tree", 8)) {
        t->kind = SC_TOPO_FAT_TREE;
        unsigned levels[1];
        if (fields(params, starts, ends, 4) != 4 || numbers(starts[0], ends[0], 1, levels) != 1 ||
            levels[0] > SC_TOPO_MAX_DIMS)
            return bad(what, text,
                       "a fat tree takes 4 fields: its levels (1 to 8), then per "
                       "level the down, up and link counts");
        t->levels = levels[0];
        if (numbers(starts[1], ends[1], (int)t->levels, t->down) < 0 ||
            numbers(starts[2], ends[2], (int)t->levels, t->up) < 0 ||
            numbers(starts[3], ends[3], (int)t->levels, t->links) < 0)
            return bad(what, text,
                       "each of the last 3 fields needs one whole number of at "
                       "least 1 per level");
        for (unsigned i = 0; i < t->levels; i++)
            nodes *= t->down[i];
    } else if (kind_len == 9 && !strncmp(text, "dragonfly", 9)) {
        t->kind = SC_TOPO_DRAGONFLY;
        unsigned n[1];
        if (fields(params, starts, ends, 4) != 4 ||
            numbers(starts[0], ends[0], 2, t->groups) != 2 ||
            numbers(starts[1], ends[1], 2, t->chassis) != 2 ||
            numbers(starts[2], ends[2], 2, t->routers) != 2 ||
            numbers(starts[3], ends[3], 1, n) != 1)
            return bad(what, text,
                       "a dragonfly takes groups,links;chassis,links;routers,"
                       "links;nodes, whole numbers of at least 1");
        t->nodes_per_router = n[0];
        /* SimGrid 3.32 joins group j to the others through the j-th router
         * of its first chassis (DragonflyZone::generate_links and its
         * routing), and crashes when there is no such router. */
        if (t->groups[0] > t->routers[0])
            return bad(what, text,
                       "a dragonfly has at most as many groups as routers per "
                       "chassis (SimGrid joins group j through router j)");
        nodes = (double)t->groups[0] * t->chassis[0] * t->routers[0] * n[0];
    } else if (kind_len == 5 && !strncmp(text, "racks", 5)) {
        t->kind = SC_TOPO_RACKS;
        unsigned n[2];
        if (numbers(params, params + strlen(params), 2, n) != 2)
            return bad(what, text,
                       "racks take the nodes of a rack and the racks, whole numbers of at least 1");
        t->rack_nodes = n[0];
        t->racks = n[1];
        nodes = (double)n[0] * n[1];
    } else {
        return bad(what, text, "unknown kind");
    }
    if (nodes > MAX_NODES)
        return bad(what, text, "more than 2^24 nodes");
    t->nodes = (long)nodes;
    return SC_OK;
}

int sc_topology_groupings(const sc_topology_t *t, long *sizes, int max)
{
    int n = 0;
    long size = 1;
    switch (t->kind) {
    case SC_TOPO_TORUS:
        break;
    case SC_TOPO_FAT_TREE:
        for (unsigned k = 0; k + 1 < t->levels && n < max; k++)
            sizes[n++] = size *= t->down[k];
        break;
    case SC_TOPO_RACKS: /* one rack is one switch: no level */
        if (max > 0 && t->racks > 1)
            sizes[n++] = t->rack_nodes;
        break;
    case SC_TOPO_DRAGONFLY: {
        const long per[3] = {(long)t->nodes_per_router, (long)t->routers[0], (long)t->chassis[0]};
        for (int k = 0; k < 3 && n < max; k++)
            sizes[n++] = size *= per[k];
        break;
    }
    }
    return n;
}
