/* The generator's options that change its template, and their checks
 * (generate_options.c): --set on the levels, the node and the links of
 * racks and domains, and --cores. Private to sim/engine/generate*.c.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_GENERATE_OPTIONS_H
#define SC_GENERATE_OPTIONS_H

#include "generate.h"
#include "models/params.h"

/* One link as the generator rewrites it for every node. */
typedef struct {
    double bandwidth_Bps, latency_s;
    char policy[16]; /* SHARED, FATPIPE or SPLITDUPLEX */
} sc_gen_link_t;

/* The level of --set LEVEL.PARAM=VALUE (sc_param_at_t), or -1. */
int sc_generate_set_level(const char *set);

/* Applies one --set to the levels (marking touched[] the levels it
 * changes) and the node speed. A --set of a rack or a domain is left to
 * sc_generate_apply_link_set. */
sc_err_t sc_generate_apply_set(const char *set, sc_level_t levels[SC_NLEVELS],
                               int touched[SC_NLEVELS], double *speed);

/* Applies one --set LEVEL.PARAM (LEVEL rack, socket, numa or ccx) to
 * `link`, a rack's uplink or the link between a node's domains of that
 * level, or for a property of a domain level (its overheads) to `own`, the
 * level's own properties, where a property without segments starts as
 * shared memory's (`shared`). link NULL: the platform has no such level,
 * `missing` says how to give it. */
sc_err_t sc_generate_apply_link_set(const char *set, sc_param_at_t at, sc_gen_link_t *link,
                                    sc_level_t *own, const sc_level_t *shared, const char *missing);

/* The link between a node's domains before any --set
 * (sc_generate_apply_link_set says why it adds nothing). */
sc_gen_link_t sc_generate_domain_link(const sc_gen_link_t *membus);

/* Parses --cores (generate.h) into `spec`: a number, or a list into a new
 * array of every node's cores, *node_cores (NULL for a number), which the
 * caller frees. */
sc_err_t sc_generate_parse_cores(const char *text, sc_generate_spec_t *spec, int **node_cores);

#endif
