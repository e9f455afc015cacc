/* The links of routes between nodes of a platform, as SimGrid computes
 * them: which links jobs side by side share (simcoll run --job).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_ROUTES_H
#define SC_ROUTES_H

#include "models/platform.h"

typedef struct {
    char **names; /* the distinct links, sorted by name */
    int nnames;
    int *links;  /* pair i crosses names[links[first[i]]] .. names[links[first[i+1] - 1]] */
    long *first; /* npairs + 1 */
} sc_routes_t;

/* The links each route from node pairs[2i] to node pairs[2i + 1] crosses
 * (i < npairs), the platform loaded in a child process. Free with
 * sc_routes_destroy. */
sc_err_t sc_engine_routes(const sc_platform_t *plat, const int *pairs, long npairs,
                          sc_routes_t *out);
void sc_routes_destroy(sc_routes_t *routes);

#endif
