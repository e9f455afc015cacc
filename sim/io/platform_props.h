/* simcoll's properties of a platform zone: the message costs SimGrid's
 * links do not carry (overheads, bandwidth and latency factors, the NIC's
 * gap, the protocol switch, the header), their syntax and ranges.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_PLATFORM_PROPS_H
#define SC_PLATFORM_PROPS_H

#include <stdio.h>

#include "models/params.h"
#include "models/platform.h"
#include "piecewise.h"

/* One property of a zone: a parameter of models/params.c that a property
 * carries (SC_CARRIER_PROP), on one of its levels. LEVEL is intra (shared
 * memory) or inter (network):
 *
 *   simcoll/LEVEL/send-overhead      o_s(m), piecewise: SIZE:START[:PER_BYTE];...
 *                                    e.g. "0:0.8us;1420:1.2us:0.1ns"
 *   simcoll/LEVEL/recv-overhead      o_r(m), the same syntax (default 0)
 *   simcoll/LEVEL/overhead           a constant o_s, as simcoll 0.1 wrote it;
 *                                    give this or send-overhead
 *   simcoll/LEVEL/bandwidth-factor   share of the bandwidth a message gets,
 *                                    piecewise: SIZE:FACTOR;... (default 1)
 *   simcoll/LEVEL/latency-factor     multiple of the latency a message takes,
 *                                    the same syntax (default 1; at least 1)
 *   simcoll/LEVEL/eager-limit        bytes; larger messages use rendezvous
 *   simcoll/inter/gap                g, per message at each NIC (default 0)
 *   simcoll/header-bytes             bytes every message carries
 *
 * SIZE is bytes (K, M, G: powers of 1024), START and PER_BYTE durations
 * (s, ms, us, ns, ps); segment k applies from its SIZE to the next one's,
 * and the first SIZE is 0. */
/* The most an overhead's segment may cost a byte: a millionth of a second
 * a byte is 1 MB/s. */
#define SC_PROP_MAX_PER_BYTE 1e-6

typedef struct {
    const sc_param_t *param;
    sc_param_at_t at;
    char id[48]; /* simcoll/LEVEL/NAME, or simcoll/NAME for the zone's */
} sc_platform_prop_t;

/* Fills props[] with every property, in the order the generator and the
 * calibration write them (the levels' in turn, each in the table's order),
 * and returns how many. */
enum { SC_MAX_PLATFORM_PROPS = 32 };
int sc_platform_props_list(sc_platform_prop_t props[SC_MAX_PLATFORM_PROPS]);

/* Index of `id` in that list, or -1. */
int sc_platform_prop_index(const char *id);

/* Parses the properties' texts (value[i] for the list's props[i], NULL
 * where absent, found on line[i] of the file named `file` in messages as
 * "OPTION 'PATH'") into their fields (plat->level[], plat->header_bytes;
 * an absent optional one 0, or no segment). SC_ERR_INPUT
 * names the property, the line and what is valid; a required property
 * missing is named with the zone. */
sc_err_t sc_platform_props_read(const char *file, const char *zone, const char *const *value,
                                const int *line, sc_platform_t *plat);

/* Where each parameter came from, one property a parameter:
 *
 *   simcoll/source/LEVEL/PARAM   (simcoll/source/PARAM for the zone's)
 *     value "measured: FILE and FIT", "published: CITATION",
 *     "assumed: WHY" (or "assumed" alone), "set: --set ..." (a what-if's
 *     own value, written by simcoll platform; counted as assumed)
 *
 * LEVEL.PARAM as --set names it (intra.bandwidth, node.speed). */
#define SC_SOURCE_PREFIX "simcoll/source/"

/* "measured", "published", "assumed", "set". */
const char *sc_source_kind_name(sc_source_kind_t kind);

/* Reads property `id` (which starts with SC_SOURCE_PREFIX) of value
 * `value` into *src (its note a new string); SC_ERR_INPUT naming `what`
 * and the value if either is not one. */
sc_err_t sc_platform_source_parse(const char *what, const char *id, const char *value,
                                  sc_param_source_t *src);

/* "intra.bandwidth" or "header-bytes": the parameter as --set names it. */
void sc_param_source_name(int param, int at, char *out, size_t len);

/* The source of parameter `param` at `at` among plat's, or NULL. */
const sc_param_source_t *sc_platform_source(const sc_platform_t *plat, int param, int at);

#endif
