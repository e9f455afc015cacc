/* The links of routes between nodes (routes.h): SimGrid's routing asked
 * in a child process, as every SimGrid session is, the names sent back.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "routes.h"

#include <simgrid/link.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "common/sc_grow.h"
#include "engine.h"
#include "engine_hosts.h"

typedef struct {
    const sc_platform_t *plat;
    const int *pairs;
    long npairs;
} routes_arg_t;

/* In the child: per pair, its number of links and their names. */
static sc_err_t routes_in_child(void *arg, sc_wire_t *out)
{
    const routes_arg_t *a = arg;
    sc_child_step("loading the platform");
    sc_engine_boot(a->plat, 0);
    sc_child_step("computing the routes between the jobs' nodes");
    xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
    for (long i = 0; i < a->npairs; i++) {
        xbt_dynar_reset(links);
        sc_engine_route(sc_engine_host(a->plat, a->pairs[2 * i], 0),
                        sc_engine_host(a->plat, a->pairs[2 * i + 1], 0), links);
        sc_wire_put_int(out, (int)xbt_dynar_length(links));
        unsigned k;
        sg_link_t link;
        xbt_dynar_foreach(links, k, link) sc_wire_put_str(out, sg_link_get_name(link));
    }
    xbt_dynar_free(&links);
    return SC_OK;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* names[] (n, each once, sorted) from the names of every route's links,
 * then each route's links as indices. */
static sc_err_t index_names(char **all, long nall, sc_routes_t *out)
{
    char **sorted = malloc((size_t)(nall ? nall : 1) * sizeof *sorted);
    if (!sorted)
        return sc_error(SC_ERR_RUN, "out of memory");
    memcpy(sorted, all, (size_t)nall * sizeof *sorted);
    qsort(sorted, (size_t)nall, sizeof *sorted, by_name);
    out->names = malloc((size_t)(nall ? nall : 1) * sizeof *out->names);
    if (!out->names) {
        free(sorted);
        return sc_error(SC_ERR_RUN, "out of memory");
    }
    for (long i = 0; i < nall; i++)
        if (i == 0 || strcmp(sorted[i], sorted[i - 1]))
            if (!(out->names[out->nnames++] = strdup(sorted[i]))) {
                free(sorted);
                return sc_error(SC_ERR_RUN, "out of memory");
            }
    free(sorted);
    for (long i = 0; i < nall; i++) {
        char **found =
            bsearch(&all[i], out->names, (size_t)out->nnames, sizeof *out->names, by_name);
        out->links[i] = (int)(found - out->names);
    }
    return SC_OK;
}

sc_err_t sc_engine_routes(const sc_platform_t *plat, const int *pairs, long npairs,
                          sc_routes_t *out)
{
    *out = (sc_routes_t){0};
    routes_arg_t arg = {plat, pairs, npairs};
    sc_wire_t in;
    sc_err_t err = sc_child_run(routes_in_child, &arg, SC_ERR_RUN,
                                "computing the routes between the jobs' nodes", &in);
    if (err)
        return err;
    char **all = NULL;
    long nall = 0;
    size_t cap = 0;
    out->first = malloc((size_t)(npairs + 1) * sizeof *out->first);
    err = out->first ? SC_OK : sc_error(SC_ERR_RUN, "out of memory");
    for (long i = 0; !err && i < npairs; i++) {
        int n;
        out->first[i] = nall;
        if (!sc_wire_get_int(&in, &n) || n < 0) {
            err = sc_error(SC_ERR_RUN, "the routes came back incomplete (a simcoll bug)");
            break;
        }
        for (int k = 0; !err && k < n; k++) {
            char **more = sc_grow(all, (size_t)nall, &cap, 256, sizeof *more);
            if (!more) {
                err = sc_error(SC_ERR_RUN, "out of memory");
                break;
            }
            all = more;
            if (!(all[nall] = sc_wire_get_str(&in)))
                err = sc_error(SC_ERR_RUN, "the routes came back incomplete (a simcoll bug)");
            else
                nall++;
        }
    }
    sc_wire_free(&in);
    if (!err) {
        out->first[npairs] = nall;
        out->links = malloc((size_t)(nall ? nall : 1) * sizeof *out->links);
        err = out->links ? index_names(all, nall, out) : sc_error(SC_ERR_RUN, "out of memory");
    }
    for (long i = 0; i < nall; i++)
        free(all[i]);
    free(all);
    if (err)
        sc_routes_destroy(out);
    return err;
}

void sc_routes_destroy(sc_routes_t *routes)
{
    for (int i = 0; i < routes->nnames; i++)
        free(routes->names[i]);
    free(routes->names);
    free(routes->links);
    free(routes->first);
    *routes = (sc_routes_t){0};
}
