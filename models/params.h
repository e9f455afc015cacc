/* The parameters of a platform, one table: what users call each, where it
 * exists, its unit and range, what carries it, who changes or fits it.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_PARAMS_H
#define SC_PARAMS_H

#include <stddef.h>

#include "../common/sc_units.h"
#include "platform.h"

/* Where a parameter exists. A message's cost is its level's sc_level_t:
 * intra and inter are plat->level[], a rack's uplink between_groups[], the
 * links between a node's domains between_domains[]; a node's are in
 * sc_node_t, the zone's in sc_platform_t. */
typedef enum {
    SC_AT_INTRA = SC_LEVEL_INTRA, /* a node's shared memory, its memory-bus link */
    SC_AT_INTER = SC_LEVEL_INTER, /* the network, its NIC links */
    SC_AT_NODE,                   /* each node */
    SC_AT_RACK,                   /* a rack's uplink (racks:N,R) */
    SC_AT_SOCKET,                 /* the link between a node's sockets */
    SC_AT_NUMA,                   /* between a socket's (or node's) NUMA domains */
    SC_AT_CCX,                    /* between a NUMA domain's (...) CCXs */
    SC_AT_ZONE,                   /* the cluster as a whole */
    SC_NAT
} sc_param_at_t;

#define SC_AT(at) (1u << (at))

/* A parameter's unit, and the type of its field. */
typedef enum {
    SC_PARAM_DURATION,        /* seconds, a double */
    SC_PARAM_BANDWIDTH,       /* bytes/s, a double */
    SC_PARAM_SPEED,           /* flop/s, a double */
    SC_PARAM_SIZE,            /* bytes, a size_t */
    SC_PARAM_PIECEWISE_TIME,  /* seconds by message size, an sc_piecewise_t */
    SC_PARAM_PIECEWISE_FACTOR /* a multiple of the bandwidth or latency by size, an
                                 sc_piecewise_t */
} sc_param_kind_t;

/* What carries it in a platform file (sim/io/platform_file.c). */
typedef enum {
    SC_CARRIER_PROP, /* <prop id="simcoll/AT/NAME"> of the zone; simcoll/NAME for the zone's */
    SC_CARRIER_LINK, /* the attribute NAME of the level's <link>s */
    SC_CARRIER_HOST  /* the attribute NAME of each <host> */
} sc_param_carrier_t;

/* The struct that holds it. */
typedef enum { SC_IN_LEVEL, SC_IN_NODE, SC_IN_PLATFORM } sc_param_in_t;

typedef struct {
    const char *name; /* as users write it: --set AT.NAME, simcoll/AT/NAME */
    unsigned at;      /* the levels it exists on: SC_AT(SC_AT_INTRA) | ... */
    sc_param_kind_t kind;
    double min, max; /* its range, min excluded when above_min */
    int above_min;
    sc_param_carrier_t carrier;
    int required; /* a platform file must give it (or its constant form) */
    /* NULL, or the parameter whose constant form this is: its field holds
     * sc_piecewise_constant(value), and a file gives one of the two. */
    const char *constant_of;
    int settable; /* simcoll platform --set AT.NAME changes it */
    /* simcoll calibrate's name for it in its report ("o_s"; a piecewise
     * parameter's segments are "o_s [0, 1420)"...) and the measurements it
     * is fitted to; NULL: not fitted (the template's, or an option's). */
    const char *fit_name, *fit;
    const char *doc; /* one line; %s is the level's messages ("intra-node") */
    sc_param_in_t in;
    size_t offset; /* of its field in `in`'s struct */
} sc_param_t;

/* Every parameter, NULL-terminated, in the order files hold the properties
 * and messages list them. */
extern const sc_param_t sc_params[];

/* "intra", "inter", "node", "rack", "socket", "numa", "ccx"; NULL for the
 * zone, whose parameters are named without a level. */
const char *sc_param_at_name(sc_param_at_t at);

/* The kind of domains inside nodes whose links `at` is (an
 * sc_domain_kind_t), or -1. */
int sc_param_at_domain(sc_param_at_t at);

/* Whether p at `at` is a property a level between a node's domains may
 * have of its own (its flow factor, overheads: piecewise, carried by a
 * property), which shared memory's gives where the file gives none. */
int sc_param_domain_own(const sc_param_t *p, sc_param_at_t at);

/* The level of the links between domains of kind `domain` (an
 * sc_domain_kind_t): the inverse of sc_param_at_domain. */
sc_param_at_t sc_param_domain_at(int domain);

/* The level named by the `len` bytes at `name`, or -1. */
int sc_param_at_find(const char *name, size_t len);

/* The parameter named by the `len` bytes at `name` that exists at `at`, or
 * NULL. */
const sc_param_t *sc_param_find(const char *name, size_t len, sc_param_at_t at);

/* p's documentation at `at`, %s replaced by that level's messages. */
void sc_param_describe(const sc_param_t *p, sc_param_at_t at, char *out, size_t len);

/* The quantity of SimGrid's notation p is written in; not for factors,
 * which are plain numbers. */
sc_quantity_t sc_param_quantity(const sc_param_t *p);

/* Multiplies p's value in `owner` by `factor`: a piecewise parameter's
 * every segment, a size rounded to whole bytes. */
void sc_param_scale(const sc_param_t *p, void *owner, double factor);

/* p's field in `owner`, the sc_level_t, sc_node_t or sc_platform_t that
 * p->in names: a double (durations, bandwidths, speeds), a size_t (sizes)
 * or an sc_piecewise_t (piecewise kinds, and constant forms). */
double *sc_param_double(const sc_param_t *p, void *owner);
size_t *sc_param_size(const sc_param_t *p, void *owner);
sc_piecewise_t *sc_param_piecewise(const sc_param_t *p, void *owner);

#endif
