/* A hierarchical cluster as the cost models see it: nodes, their domains,
 * cores, levels.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_PLATFORM_H
#define SC_PLATFORM_H

#include <stddef.h>

#include "../common/sc_error.h"

/* Hierarchy levels. Intra-node messages go through the node's shared memory
 * bus; inter-node messages through the NICs and the switch. */
typedef enum {
    SC_LEVEL_INTRA = 0,
    SC_LEVEL_INTER = 1,
    SC_NLEVELS = 2
} sc_level_id_t;

/* Levels of the hierarchy a message crosses, for its traffic: 0 inside a
 * node (inside its smallest domain when nodes have domains: 1 then between
 * two of those in one domain of the next kind, ... up to between two
 * domains of the largest kind, and the levels below one higher), then 1
 * between two nodes of the smallest group of nodes (those on one switch;
 * in a cluster on one switch, every pair of nodes), 2 between two groups
 * of the next larger group, ... up to the top. Their costs are the two
 * levels above (a network level's link is every link of a topology; inside
 * a node, shared memory over the link of the level where two domains
 * part). */
enum { SC_MAX_LEVELS = 10 }; /* a fat tree has at most 8 levels of switches */

/* Levels inside a node, smallest first: a node's cores split evenly into
 * sockets, a socket's into NUMA domains, a NUMA domain's into CCXs (cores
 * that share a last-level cache). A platform has any of them. */
typedef enum { SC_DOMAIN_CCX, SC_DOMAIN_NUMA, SC_DOMAIN_SOCKET, SC_NDOMAIN_KINDS } sc_domain_kind_t;

/* "ccx", "numa", "socket": the level's name in --levels, --set and a
 * platform file (simcoll/ccx, <link id="ccx">). */
const char *sc_domain_name(sc_domain_kind_t kind);

/* The words a message uses: "CCX", "NUMA domain", "socket"; and their
 * plurals, "CCXs", "NUMA domains", "sockets". */
const char *sc_domain_singular(sc_domain_kind_t kind);
const char *sc_domain_plural(sc_domain_kind_t kind);

/* Most domains of one kind in the next larger one present (a platform's
 * simcoll/sockets, simcoll/numa, simcoll/ccx; --levels), and most smallest
 * domains a node: SimGrid routes every pair of a node's domains. */
enum { SC_MAX_SOCKETS = 64, SC_MAX_DOMAINS = 64 };

/* A function of the message size, linear in pieces like SMPI's smpi/os:
 * segment k applies from seg[k].min_bytes (seg[0].min_bytes = 0) up to the
 * next segment's, and gives start + per_byte * bytes there. */
enum { SC_MAX_SEGMENTS = 16 };
typedef struct {
    double min_bytes, start, per_byte;
} sc_segment_t;
typedef struct {
    int n; /* 0: the function is 0 (an overhead) or 1 (a factor) */
    sc_segment_t seg[SC_MAX_SEGMENTS];
} sc_piecewise_t;

/* f(bytes); `empty` when f has no segment. */
double sc_piecewise_at(const sc_piecewise_t *f, size_t bytes, double empty);

/* f(bytes) = value for every size. */
sc_piecewise_t sc_piecewise_constant(double value);

/* What one message costs on a level, as in LogGP (Alexandrov et al., SPAA
 * 1995) with MPI's protocol switch:
 *   o_s(m)  the sender's core is busy for this long before the message
 *           leaves (send_overhead);
 *   L, G    it then takes latency * lat_factor(m) + (header + m) /
 *           (bandwidth * factor(m)) on the wire, where factor(m) is the
 *           share of the bandwidth a message of that size gets and
 *           lat_factor(m) the multiple of the route's latency it takes (both
 *           1 unless measurements show otherwise; SMPI's smpi/bw-factor and
 *           smpi/lat-factor). Both go by the message's data bytes m, the
 *           header not counted;
 *   F       a message moves no faster than flow_factor(m) * bandwidth,
 *           however little else shares its links: what one pair's copy
 *           or adapter allows, which many pairs' messages do not share
 *           (bandwidth_factor, SMPI's, charges the links instead). No
 *           segments: only the links bound a message;
 *   o_r(m)  the receiver's core is busy for this long once it has the
 *           message (recv_overhead);
 *   g       between the network levels: the node's NIC takes one message
 *           every g in each direction, whichever of its cores sends or
 *           receives it (0: no limit);
 *   B_bi    between the network levels: the NIC's two directions together
 *           carry at most B_bi (0: B each), so that a node sending and
 *           receiving at once may take longer than either alone: a
 *           message of m bytes each way then takes (h + m) / (B_bi / 2)
 *           where one way takes (h + m) / B;
 *   o_call  inside a node: each rank's core is busy for this long when it
 *           enters a collective call, before the algorithm's first
 *           message (the MPI library's checks, its choice of algorithm,
 *           its requests): what a collective pays beside its messages
 *           (0: nothing). */
typedef struct {
    double latency_s;     /* one-way wire latency of the route */
    double bandwidth_Bps; /* bottleneck bandwidth of the route, bytes/s */
    sc_piecewise_t send_overhead, recv_overhead; /* seconds */
    sc_piecewise_t bandwidth_factor;             /* no segments: 1 */
    sc_piecewise_t latency_factor;               /* no segments: 1; at least 1 */
    sc_piecewise_t flow_factor;                  /* no segments: no bound */
    double gap_s;         /* per message at each NIC, each direction */
    /* Between the network levels: the most bytes/s a node's NIC carries in
     * both directions together (what osu_bibw measures), a link every
     * message into or out of the node crosses besides its NIC link; 0:
     * each direction carries its own bandwidth (a full-duplex NIC). */
    double bidirectional_Bps;
    size_t eager_limit;   /* larger messages use the rendezvous protocol */
    double call_overhead_s; /* intra only: o_call */
} sc_level_t;

/* A level with a constant send overhead and nothing else of LogGP: the
 * Hockney model of simcoll 0.1. */
sc_level_t sc_level_hockney(double latency_s, double bandwidth_Bps, double overhead_s,
                            size_t eager_limit);

/* o_s(m), o_r(m), the bandwidth factor and the latency factor of a level. */
double sc_level_send_overhead(const sc_level_t *lv, size_t bytes);
double sc_level_recv_overhead(const sc_level_t *lv, size_t bytes);
double sc_level_bandwidth_factor(const sc_level_t *lv, size_t bytes);
double sc_level_latency_factor(const sc_level_t *lv, size_t bytes);

/* The most bytes/s of data one message of `bytes` moves at on the level,
 * flow_factor(m) * bandwidth; 0 if only its links bound it. */
double sc_level_flow_bound(const sc_level_t *lv, size_t bytes);

/* Seconds a piece carrying `data` bytes and a header of `header` holds the
 * level's link, its bandwidth shared: its wire bytes (header and data over
 * the bandwidth factor, whole bytes, as SimGrid counts them) over the
 * bandwidth. */
double sc_level_link_time(const sc_level_t *lv, size_t header, size_t data);

/* The least seconds that piece takes at the level's flow bound; 0 without
 * one. */
double sc_level_flow_time(const sc_level_t *lv, size_t header, size_t data);

/* Seconds that piece takes alone on the level's idle route: latency *
 * latency factor(data), then the slower of the link and flow times. The
 * cost models (sc_wire_time) and calibrate's predictions both use it. */
double sc_level_wire_time(const sc_level_t *lv, size_t header, size_t data);

typedef struct {
    char *name;
    int cores;
    double speed_flops; /* per core */
    double membus_Bps;  /* bandwidth of its shared-memory route */
} sc_node_t;

/* A parameter the platform file gives as a range LO..HI, as for one not
 * measured: the platform holds its midpoint, and a run reports the time
 * over every corner of its ranges (sim/cli/sensitivity.h). */
enum { SC_MAX_RANGES = 4 };
typedef struct {
    int param;     /* its index in sc_params (models/params.h) */
    int at;        /* its level, an sc_param_at_t */
    double lo, hi; /* seconds or bytes */
    double mid;    /* the value the platform holds (a size: whole bytes) */
} sc_range_t;

/* Where a parameter's value came from (simcoll/source/LEVEL/PARAM): a
 * measurement and its fit, a publication, a placeholder, or a what-if's
 * own --set (an assumption of the study's, counted as assumed). */
typedef enum {
    SC_SOURCE_MEASURED,
    SC_SOURCE_PUBLISHED,
    SC_SOURCE_ASSUMED,
    SC_SOURCE_SET,
    SC_NSOURCE_KINDS
} sc_source_kind_t;
typedef struct {
    int param;             /* its index in sc_params (models/params.h) */
    int at;                /* its level, an sc_param_at_t */
    sc_source_kind_t kind;
    char *note;            /* the file and fit, the citation, or why assumed */
} sc_param_source_t;

/* The checked zone as SimGrid's C++ API builds it when the network is one
 * of SimGrid's topologies (simcoll/topology): SimGrid's XML reader cannot
 * give such a cluster a memory bus per node. The file's check writes it
 * beside engine_xml (sim/io), so the platform is read once; every number
 * in its base unit. */
typedef enum { SC_SHARING_SHARED, SC_SHARING_FATPIPE, SC_SHARING_SPLITDUPLEX } sc_sharing_t;
typedef struct {
    char *id, *value;
} sc_zone_prop_t;
typedef struct {
    char *name;
    double speed_flops;
    int cores;
    char *membus; /* the link of its loopback route, NULL if none */
} sc_zone_host_t;
typedef struct {
    char *id;
    double bandwidth_Bps, latency_s;
    sc_sharing_t sharing;
} sc_zone_link_t;
typedef struct {
    char *id;
    sc_zone_prop_t *props; /* the zone's and SMPI settings' as properties */
    int nprops;
    sc_zone_host_t *hosts; /* in the file's order */
    int nhosts;
    sc_zone_link_t *links;
    int nlinks;
} sc_zone_desc_t;

typedef struct {
    char *path;        /* the file it was read from */
    char *name;        /* the cluster zone's id */
    int nnodes;
    sc_node_t *nodes;  /* ordered by name, numbers compared by value */
    int total_cores;
    sc_level_t level[SC_NLEVELS];
    /* Domains inside each node (every node's cores split evenly among
     * them; sim/simgrid/topology.cpp makes each smallest domain a host, in
     * racks only): domain_count[d] domains of kind d in one domain of the
     * next larger kind present (the node for the largest), 1 where nodes
     * have no such level (simcoll/sockets, simcoll/numa, simcoll/ccx). A
     * message between two domains of a node is shared memory (level[
     * SC_LEVEL_INTRA]'s overheads, factors and eager limit) over the route
     * between them: the memory bus and the link of the level where they
     * part (one per domain of the next larger kind), whose latency and
     * bandwidth between_domains[d] holds. */
    int domain_count[SC_NDOMAIN_KINDS];
    sc_level_t between_domains[SC_NDOMAIN_KINDS];
    size_t header_bytes; /* sent on the wire with every message */
    /* What SimGrid reads instead of the file: simcoll's rewrite of what it
     * checked (sim/io/platform_file.h), NUL-terminated. */
    char *engine_xml;
    size_t engine_xml_len;
    /* 1 if the network is one of SimGrid's topologies (simcoll/topology),
     * which sim/simgrid builds from `zone` instead of loading engine_xml. */
    int topology;
    sc_zone_desc_t *zone; /* NULL unless topology */
    /* The network's groups of nodes, smallest first, for the level of a
     * message (sc_model_hier_level): SimGrid numbers a topology's nodes so
     * that each group is group_size[k] consecutive nodes (a fat tree's
     * switches below its top level; a dragonfly's routers, chassis and
     * groups). nlevels = 2 + ngroupings; a cluster on one switch, or a
     * torus, has none. */
    int ngroupings, nlevels;
    long group_size[SC_MAX_LEVELS - 2];
    /* What a message between two groups costs (hierarchy level 2 + k, a
     * route between two groups of group_size[k] nodes): the network level
     * with the latency and bandwidth of those routes. */
    sc_level_t between_groups[SC_MAX_LEVELS - 2];
    /* 1 if a route between two nodes depends only on the level of the
     * smallest group holding both (a fat tree, racks); set by the file
     * check for a topology. */
    int routes_by_level;
    /* Factors on the latency and on the bandwidth of every link, by the
     * hierarchy level of the links (the lowest level of a route crossing
     * it: 0 memory buses, then sockets' links, NIC links, uplinks), which
     * the engine applies as it boots the platform (sim/simgrid/scale.c):
     * what a sensitivity analysis changes. links_scaled 0: none. */
    int links_scaled;
    double link_latency_scale[SC_MAX_LEVELS], link_bandwidth_scale[SC_MAX_LEVELS];
    sc_range_t ranges[SC_MAX_RANGES];
    int nranges;
    /* Where its parameters came from, as the file says (none: unmarked),
     * in the file's order. */
    sc_param_source_t *sources;
    int nsources;
    /* 1 if every node has the same core speed, and every node's memory bus
     * and every node pair's route the parameters of its level (`level`,
     * `between_groups`); cost models are only exact then (never on a torus
     * or a dragonfly: their routes differ in hops within a level). */
    int uniform;
} sc_platform_t;

/* How many levels nodes have inside them (domain kinds of more than one
 * domain), 0 to SC_NDOMAIN_KINDS. */
int sc_platform_node_levels(const sc_platform_t *plat);

/* Smallest domains a node: the product of domain_count (1 without). */
int sc_platform_domains(const sc_platform_t *plat);

/* Smallest domains in one domain of `kind` (1 for the smallest kind
 * present or below it). Two smallest domains p and q of a node are in one
 * domain of `kind` when p / span == q / span. */
int sc_platform_domain_span(const sc_platform_t *plat, sc_domain_kind_t kind);

/* The domain kind a message between two domains of a node crosses at
 * hierarchy level `hier` (1 to sc_platform_node_levels), or -1. */
int sc_platform_domain_kind(const sc_platform_t *plat, int hier);

/* The hierarchy level of a message between two domains of `kind` in one
 * of the next larger kind (1 to sc_platform_node_levels), or 0 when nodes
 * have no domains of that kind. */
int sc_platform_domain_hier(const sc_platform_t *plat, sc_domain_kind_t kind);

/* The hierarchy level of a message from core slot (node a, smallest domain
 * da) to (node b, db): 0 in one smallest domain of one node, 1 + the
 * level (among those present, smallest 0) of the largest kind whose
 * domains differ between da and db; between nodes, s + 1 + the first
 * grouping that holds both, or the top, s + 1 + ngroupings, where s =
 * sc_platform_node_levels. */
int sc_platform_hier_level(const sc_platform_t *plat, long a, int da, long b, int db);

/* What a message crossing hierarchy level `hier` costs: level[0] inside a
 * node (or its smallest domain), between_domains inside a node, level[1]
 * between nodes of the smallest group (or of a flat cluster),
 * between_groups above. */
const sc_level_t *sc_platform_level(const sc_platform_t *plat, int hier);

/* Frees what `plat` owns and zeroes it. */
void sc_platform_destroy(sc_platform_t *plat);

/* How ranks are placed on cores before any algorithm-specific mapping. */
typedef enum {
    SC_PLACE_BLOCK,  /* fill node 0's cores, then node 1's ... (mpirun by slot) */
    SC_PLACE_CYCLIC  /* rank r on the next node with a free core, round robin */
} sc_placement_t;

/* Returns "block" / "cyclic". */
const char *sc_placement_name(sc_placement_t placement);

/* Fills node_of[0..np-1] with the node index of each rank. np must be
 * between 1 and plat->total_cores (SC_ERR_INPUT otherwise). */
sc_err_t sc_place(const sc_platform_t *plat, int np, sc_placement_t placement,
                  int *node_of);

/* Fills domain_of[0..np-1] with the smallest domain of each rank placed
 * on node_of, numbered in its node: a node's ranks take its cores in rank
 * order, and its cores are its domains' in turn (cores / domains each), as
 * MPI binds ranks to cores. All 0 when nodes have no domains. */
sc_err_t sc_place_domains(const sc_platform_t *plat, int np, const int *node_of, int *domain_of);

/* Number of distinct nodes that appear in node_of[0..np-1]. */
int sc_place_nodes_used(const sc_platform_t *plat, int np, const int *node_of);

#endif
