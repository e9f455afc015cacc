/* Where a generated platform's parameters came from: its simcoll/source
 * properties (sim/io/platform_props.h), written by sc_generate. Private to
 * sim/engine/generate*.c.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_GENERATE_SOURCES_H
#define SC_GENERATE_SOURCES_H

#include <stdio.h>

#include "generate.h"
#include "models/params.h"

/* The simcoll/source properties of the platform sc_generate writes from
 * `plat` (its template, loaded) and spec: a --set's value the what-if's
 * own (or measured, for calibrate's), the fitted level's measured, --net's
 * network's (net_sources) as its preset says, the template's for the rest. */
void sc_generate_write_sources(FILE *f, const sc_param_source_t *net_sources, int nnet_sources,
                               const sc_platform_t *plat, const sc_generate_spec_t *spec);

/* Whether sc_generate writes parameter p of the level between domains of
 * kind `domain` from spec->domain_props: a piecewise property of that
 * level with segments there. */
int sc_generate_domain_prop(const sc_generate_spec_t *spec, int domain, const sc_param_t *p);

#endif
