/* Writing platform files for clusters that do not exist (what-if studies)
 * or that were just measured (calibration).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_GENERATE_H
#define SC_GENERATE_H

#include "models/platform.h"

/* What to write: the nodes, links and properties of a (uniform) template,
 * repeated, with one level replaced where calibration fitted it. */
typedef struct {
    int nodes, cores;        /* 0: as in the template */
    const int *node_cores;   /* NULL, or the cores of each of the `nodes`
                                nodes (uneven nodes; `cores` is ignored) */
    const sc_level_t *level; /* NULL, or a fitted level: its latency and
                                bandwidth go on that level's links (the
                                network's latency split over the two NIC
                                links), its overheads, factors and gap into
                                properties */
    sc_level_id_t level_id;
    const char *net;         /* NULL, or an interconnect preset (--net): its
                                network level replaces the template's */
    const char *topology;    /* NULL (a star: one NIC link a node to one
                                switch), or SimGrid's topology of the
                                network, simcoll/topology's syntax
                                (sim/io/topology.h): every link of it is a
                                NIC link of the template's */
    int domains[SC_NDOMAIN_KINDS]; /* by sc_domain_kind_t: sockets a node
                                (simcoll/sockets), NUMA domains a socket
                                (simcoll/numa), CCXs a NUMA domain
                                (simcoll/ccx), each in the next larger
                                present; 0 or 1: none. Their links start
                                adding nothing to the memory bus (--set
                                socket.PARAM, numa.PARAM, ccx.PARAM). */
    /* NULL, or the properties of the level between domains of that kind,
     * which must be in `domains`: its piecewise parameters of a domain
     * level (flow factor, overheads; simcoll/KIND/PARAM) that have
     * segments; the others are shared memory's */
    const sc_level_t *domain_props[SC_NDOMAIN_KINDS];
    const char *name;        /* NULL, or the cluster's name (a calibrated
                                one's) in place of the template's, before
                                the shape in the zone's id */
    const char *made_by;     /* the command, for the generated-by property;
                                NULL: "simcoll platform --like ..." */
    const char *comment;     /* more lines for the leading comment, or NULL */
    /* What-if changes, "LEVEL.PARAM=VALUE" (simcoll platform --set): the
     * settable parameters of models/params.c on their levels, here intra,
     * inter and node (rack and socket: the links below). VALUE is
     * absolute, with SimGrid's units (10us, 1.25GBps, 64KiB, 10Gf), or a
     * factor of the template's value (2x, 0.5x; overheads: every segment). */
    char *const *sets;
    int nsets;
    /* 1: the network's overheads, factors and eager limit as SMPI's
     * settings in a <config> (sim/io/smpi_config.h), in place of their
     * simcoll/inter/... properties (simcoll platform --smpi-config). */
    int smpi_config;
    /* The template's ranges LO..HI on the fitted `level` that it keeps
     * (calibrate: of the parameters no measurement gave), written as
     * ranges in place of the midpoints the level holds. A level that --set
     * changes keeps the template's ranges itself: as they are, scaled by
     * a factor --set gives their parameter, or replaced by its value. */
    const sc_range_t *kept_ranges;
    int nkept_ranges;
    /* NULL, or what the fitted `level` (without one: every --set and
     * domain_props) was fitted to, "FILES, fitted by simcoll calibrate":
     * their simcoll/source is "measured: " this, but the send overhead's
     * with `assumed_send_overhead`, "assumed: " that. Otherwise a --set's is
     * "set: --set LEVEL.PARAM=VALUE"; the template's sources are kept for
     * the rest, the network's of --net for the network. */
    const char *measured;
    const char *assumed_send_overhead;
    /* Bit i: the fitted level's sc_params[i] is the template's (no
     * measurement gave it), and so is its source. */
    unsigned long long kept_params;
} sc_generate_spec_t;

/* Range r as a property holds it, "1us..5us" or "2048..6144". */
void sc_generate_range_text(const sc_range_t *r, char *out, size_t len);

/* Writes the platform to `out_path` (stdout if NULL), whole or not at all.
 * The template is read (and checked) as `option` names it. SC_ERR_INPUT for
 * a bad template or count. */
sc_err_t sc_generate(const char *option, const char *template_path, const sc_generate_spec_t *spec,
                     const char *out_path);

/* Interconnect presets: the network level of a shipped platform, whose
 * comment and platforms/README.md cite every number. NULL-terminated. */
typedef struct {
    const char *name, *platform, *what;
} sc_network_preset_t;
extern const sc_network_preset_t sc_network_presets[];

/* `simcoll platform --like T [--net NET] [--topology TOPO] --nodes N
 * --cores C [--set ...] [-o OUT]`. template_path NULL: the preset's
 * platform (net required). With a topology, nodes 0 means its count.
 * nodes 0: as the template, or as many as `cores` lists. cores NULL: as
 * the template's nodes; "C": every node C cores; or a list of groups
 * separated by ',' or '+', each "C" (one node of C cores) or "KxC" (K nodes
 * of C cores): "4x16,2x8" is 4 nodes of 16 cores then 2 of 8. A list gives
 * the number of nodes, which `nodes`, if not 0, must equal. `sockets`
 * (1: none) splits each node's cores among that many sockets.
 */
sc_err_t sc_generate_platform(const char *template_path, const char *net,
                              const char *topology, int nodes, const char *cores, int sockets,
                              char *const *sets, int nsets, const char *out_path);

/* The same, with domains in nodes (NULL: none; else counts by
 * sc_domain_kind_t as sc_generate_spec_t's domains) and the network's
 * settings for SMPI in a <config> when smpi_config (simcoll platform
 * --smpi-config; see sc_generate_spec_t). */
sc_err_t sc_generate_platform_smpi(const char *template_path, const char *net, const char *topology,
                                   int nodes, const char *cores, const int *domains,
                                   char *const *sets, int nsets, int smpi_config,
                                   const char *out_path);

/* The checks of simcoll platform's options that need no template, with the
 * generator's own messages (SC_ERR_INPUT), so that a sweep refuses a
 * study's value before it runs a point, as the generator would at each:
 *   sets:     every --set LEVEL.PARAM=VALUE known, with a value of its
 *             kind, no parameter twice, no factor of socket.latency (0);
 *             whether there are racks or domains for rack.*, socket.*,
 *             numa.* and ccx.*
 *             depends on the other options, and is not checked;
 *   net:      the name of an interconnect preset;
 *   topology: its syntax and at most as many nodes as --nodes allows;
 *             *nodes (if not NULL): the nodes it connects;
 *   cores:    --cores's syntax and ranges (not a list's count of nodes
 *             against --nodes). */
sc_err_t sc_generate_check_sets(char *const *sets, int nsets);
sc_err_t sc_generate_check_net(const char *net);
sc_err_t sc_generate_check_topology(const char *topology, long *nodes);
sc_err_t sc_generate_check_cores(const char *cores);

/* What --set takes, for messages and help: every settable parameter of
 * models/params.c, by level ("intra.PARAM or inter.PARAM with PARAM
 * latency, ...; node.speed; ..."), in at most len bytes. */
void sc_generate_set_usage(char *out, size_t len);

/* `simcoll platform --levels`: a cluster given by its levels, smallest
 * first, each LEVEL:N the number of LEVELs in one of the next (the last, in
 * the cluster): core:C (C cores a node; absent: the template's), node:N
 * (N nodes a rack, or in the cluster) and rack:R (R racks, the topology
 * racks:N,R), and socket:S, numa:M, ccx:X between core and node (S
 * sockets a node, M NUMA domains a socket, X CCXs a NUMA domain, any of
 * them; C cores a smallest domain then). SC_ERR_INPUT naming the bad
 * item. */
typedef struct {
    int nodes;
    int domains[SC_NDOMAIN_KINDS]; /* 1: none */
    char cores[16];    /* --cores's text; "": as the template's */
    char topology[64]; /* --topology's; "" without racks */
} sc_levels_t;
sc_err_t sc_levels_parse(const char *text, sc_levels_t *out);

#endif
