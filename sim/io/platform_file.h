/* Reading a platform file before SimGrid does: everything SimGrid would
 * accept wrongly, abort on or crash on is refused here with a message.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_PLATFORM_FILE_H
#define SC_PLATFORM_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "models/platform.h"

/* The most cores a platform may have in all: ranks are ints, and every
 * simulated rank costs SimGrid an actor. */
#define SC_MAX_CORES (1 << 24)

/* The largest platform file read (a million nodes take about 300 MB). */
#define SC_MAX_PLATFORM_BYTES ((size_t)1 << 30)

/* Where the platform file `name` is: `name` itself if it holds a '/' or
 * names a file here; else the first directory of SIMCOLL_PLATFORM_PATH
 * (colon-separated), of the installed platforms (DATADIR/simcoll/platforms)
 * and of the source tree's platforms/ that holds it, so that a shipped
 * platform is found by its name (--platform ib4x.xml) from anywhere. Into
 * out (len bytes). SC_ERR_INPUT naming where it looked when nowhere. */
sc_err_t sc_platform_find(const char *option, const char *name, char *out, size_t len);

/* Reads `path` (named on the command line by `option`, e.g. "--platform")
 * and checks it is a cluster simcoll can simulate:
 *   - well-formed XML in UTF-8 (or ASCII), without a DTD internal subset;
 *   - <platform version="4.1"> holding one <zone routing="Cluster">, which
 *     holds only <prop>, <host>, <link>, <host_link> and <route>;
 *   - every host with a speed and a whole number of cores, every link with
 *     a bandwidth, a latency and a sharing policy simcoll models, each a
 *     finite number in range with a unit SimGrid knows;
 *   - every id declared once and every reference (host_link, route,
 *     link_ctn) declared; each host with exactly one host_link and exactly
 *     one <route src=dst> through a link of its own (its shared memory);
 *   - simcoll's properties present, known and in range; at most
 *     SC_MAX_CORES cores in all.
 * Fills plat->level[].overhead_s and .eager_limit, plat->header_bytes,
 * plat->total_cores, and plat->engine_xml: the checked platform written
 * anew in one fixed shape, which is what SimGrid reads (its own XML reader
 * is stricter than XML). SC_ERR_INPUT names the file, the line, the
 * element, the attribute and what is valid. */
sc_err_t sc_platform_file_check(const char *option, const char *path, sc_platform_t *plat);

/* The same on `len` bytes of XML; `name` stands for the file in messages. */
sc_err_t sc_platform_xml_check(const char *option, const char *name, const char *xml, size_t len,
                               sc_platform_t *plat);

/* Writes s as an XML attribute value: the special characters, tabs and
 * line ends escaped. */
void sc_xml_put_escaped(FILE *f, const char *s);

#endif
