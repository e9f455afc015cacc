/* SimGrid's own network topologies for a platform (simcoll/topology):
 * their text, as SimGrid's topo_parameters write them, and their size.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_TOPOLOGY_H
#define SC_TOPOLOGY_H

#include "common/sc_error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { SC_TOPO_TORUS, SC_TOPO_FAT_TREE, SC_TOPO_DRAGONFLY, SC_TOPO_RACKS } sc_topo_kind_t;

enum { SC_TOPO_MAX_DIMS = 8 };

typedef struct {
    sc_topo_kind_t kind;
    /* torus: the size of each dimension */
    int ndims;
    unsigned dims[SC_TOPO_MAX_DIMS];
    /* fat tree (Zahavi's PGFT): per level, the children of a switch, its
     * parents, and the links to each parent */
    unsigned levels, down[SC_TOPO_MAX_DIMS], up[SC_TOPO_MAX_DIMS], links[SC_TOPO_MAX_DIMS];
    /* dragonfly: groups, chassis per group, routers per chassis (each with
     * the links between two of them), nodes per router */
    unsigned groups[2], chassis[2], routers[2], nodes_per_router;
    /* racks: the nodes of a rack (on its switch) and the racks (on the core
     * switch, each through its uplink) */
    unsigned rack_nodes, racks;
    long nodes; /* the nodes it connects */
} sc_topology_t;

/* Parses `text`:
 *   torus:X,Y,...                 X * Y * ... nodes
 *   fat-tree:L;D1,..,DL;U1,..,UL;N1,..,NL   D1 * ... * DL nodes
 *   dragonfly:G,g;C,c;R,r;N       G groups of C chassis of R routers of N
 *                                 nodes (g, c, r: links between two groups,
 *                                 chassis, routers)
 *   racks:N,R                     R racks of N nodes: each node linked to
 *                                 its rack's switch, each rack's switch to
 *                                 the core switch by an uplink (simcoll's,
 *                                 built from SimGrid's star zones)
 * (SimGrid's topology and topo_parameters). SC_ERR_INPUT naming `text`,
 * the part that is wrong and the forms above. */
sc_err_t sc_topology_parse(const char *what, const char *text, sc_topology_t *t);

/* The topology's groups of consecutive nodes below its top, smallest first:
 * a fat tree's switches of levels 1 to L-1 (size D1, D1*D2, ...); a
 * dragonfly's routers, chassis and groups (N, N*R, N*R*C); racks (N, if R > 1); a
 * torus has none. Writes at most `max` sizes and returns how many there are. */
int sc_topology_groupings(const sc_topology_t *t, long *sizes, int max);

#ifdef __cplusplus
}
#endif

#endif
