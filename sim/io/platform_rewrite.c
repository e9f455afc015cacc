/* The platform file as SimGrid reads it: what the check accepted, written
 * anew in one fixed shape, every number in its base unit (SimGrid's own XML
 * reader is stricter than XML: a missing or different DOCTYPE, for one,
 * makes it abort).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sc_units.h"
#include "platform_check.h"
#include "platform_file.h"

void sc_xml_put_escaped(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\t': fputs("&#9;", f); break;
        case '\n': fputs("&#10;", f); break;
        case '\r': fputs("&#13;", f); break;
        default: fputc(*s, f); break;
        }
}

static void put_attr(FILE *f, const char *name, const char *value)
{
    fprintf(f, " %s=\"", name);
    sc_xml_put_escaped(f, value);
    fputc('"', f);
}

/* A checked quantity in its base unit; 0 if not given. */
static double quantity(xmlNode *node, const char *name, sc_quantity_t kind)
{
    double value = 0;
    if (sc_pf_attr(node, name))
        sc_parse_quantity(sc_pf_attr(node, name), kind, &value);
    return value;
}

/* ... written so that it reads back exactly (17 significant digits). */
static void put_quantity(FILE *f, xmlNode *node, const char *name, sc_quantity_t kind,
                         const char *unit)
{
    fprintf(f, " %s=\"%.17g%s\"", name, quantity(node, name, kind), unit);
}

static long host_cores(xmlNode *host)
{
    return sc_pf_attr(host, "core") ? strtol(sc_pf_attr(host, "core"), NULL, 10) : 1L;
}

static const char *sharing_policy(xmlNode *link)
{
    return sc_pf_attr(link, "sharing_policy") ? sc_pf_attr(link, "sharing_policy") : "SHARED";
}

/* The zone's description for SimGrid's C++ API (plat->zone), built from
 * the same elements as the rewrite. Its arrays are sized by the check's
 * counts; every string is a copy. */
typedef struct {
    sc_zone_desc_t *desc;
    sc_zone_host_t **by_name; /* the hosts sorted by name, for the routes */
    int failed;               /* out of memory */
} describer_t;

static char *copy(describer_t *d, const char *text)
{
    char *s = strdup(text ? text : "");
    if (!s)
        d->failed = 1;
    return s;
}

static void describe_prop(describer_t *d, const char *id, const char *value)
{
    sc_zone_prop_t *more = realloc(d->desc->props, (size_t)(d->desc->nprops + 1) * sizeof *more);
    if (!more) {
        d->failed = 1;
        return;
    }
    d->desc->props = more;
    more[d->desc->nprops++] = (sc_zone_prop_t){copy(d, id), copy(d, value)};
}

static void describe_element(describer_t *d, xmlNode *node, int kind)
{
    sc_zone_desc_t *z = d->desc;
    if (kind == 0) {
        sc_zone_host_t *more = realloc(z->hosts, (size_t)(z->nhosts + 1) * sizeof *more);
        if (!more) {
            d->failed = 1;
            return;
        }
        z->hosts = more;
        more[z->nhosts++] =
            (sc_zone_host_t){copy(d, sc_pf_attr(node, "id")), quantity(node, "speed", SC_QTY_SPEED),
                             (int)host_cores(node), NULL};
    } else if (kind == 1) {
        sc_zone_link_t *more = realloc(z->links, (size_t)(z->nlinks + 1) * sizeof *more);
        if (!more) {
            d->failed = 1;
            return;
        }
        z->links = more;
        const char *policy = sharing_policy(node);
        more[z->nlinks++] = (sc_zone_link_t){
            copy(d, sc_pf_attr(node, "id")), quantity(node, "bandwidth", SC_QTY_BANDWIDTH),
            quantity(node, "latency", SC_QTY_TIME),
            !strcmp(policy, "FATPIPE")       ? SC_SHARING_FATPIPE
            : !strcmp(policy, "SPLITDUPLEX") ? SC_SHARING_SPLITDUPLEX
                                             : SC_SHARING_SHARED};
    }
}

static int by_host_name(const void *a, const void *b)
{
    return strcmp((*(sc_zone_host_t *const *)a)->name, (*(sc_zone_host_t *const *)b)->name);
}

/* A zone's route (from a host to itself: the check allows no other) names
 * the host's memory bus, the last of its links, its loopback. The hosts
 * come before the routes in the rewrite: they are sorted by name at the
 * first route, so that a topology of 100,000 nodes is not a search of
 * every host per route. */
static void describe_route(describer_t *d, xmlNode *route, const char *last_link)
{
    const char *src = sc_pf_attr(route, "src");
    sc_zone_desc_t *z = d->desc;
    if (!last_link || !src || d->failed || z->nhosts == 0)
        return;
    if (!d->by_name) {
        if (!(d->by_name = malloc((size_t)z->nhosts * sizeof *d->by_name))) {
            d->failed = 1;
            return;
        }
        for (int i = 0; i < z->nhosts; i++)
            d->by_name[i] = &z->hosts[i];
        qsort(d->by_name, (size_t)z->nhosts, sizeof *d->by_name, by_host_name);
    }
    sc_zone_host_t key = {.name = (char *)src}, *keyp = &key;
    sc_zone_host_t **found =
        bsearch(&keyp, d->by_name, (size_t)z->nhosts, sizeof *d->by_name, by_host_name);
    if (found) {
        free((*found)->membus);
        (*found)->membus = copy(d, last_link);
    }
}

/* The <prop> children of node, one per line (and in the description if
 * d is given). */
static void put_props(FILE *f, const sc_pf_check_t *c, xmlNode *node, const char *indent,
                      describer_t *d)
{
    sc_err_t err = SC_OK;
    SC_PF_FOR_ELEMENTS(c, node, child, err)
    if (!strcmp((const char *)child->name, "prop")) {
        fprintf(f, "%s<prop", indent);
        put_attr(f, "id", sc_pf_attr(child, "id"));
        put_attr(f, "value", sc_pf_attr(child, "value"));
        fputs("/>\n", f);
        if (d)
            describe_prop(d, sc_pf_attr(child, "id"), sc_pf_attr(child, "value"));
    }
}

static int has_elements(const sc_pf_check_t *c, xmlNode *node)
{
    sc_err_t err = SC_OK;
    return sc_pf_next_element(c, node->children, &err) != NULL;
}

/* The checked zone in simcoll's shape: the zone's properties, hosts, links,
 * host_links, routes, with every number in its base unit. */
sc_err_t sc_pf_rewrite(const sc_pf_check_t *c, xmlNode *zone, sc_platform_t *plat)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    describer_t d = {NULL, NULL, 0};
    if (c->topology && !(d.desc = calloc(1, sizeof *d.desc)))
        d.failed = 1;
    if (!f || d.failed) {
        if (f)
            fclose(f);
        free(text);
        free(d.desc);
        return sc_error(SC_ERR_RUN, "out of memory reading the platform");
    }
    if (d.desc)
        d.desc->id = copy(&d, sc_pf_attr(zone, "id"));
    fputs("<?xml version='1.0'?>\n"
          "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<platform version=\"4.1\">\n<zone",
          f);
    put_attr(f, "id", sc_pf_attr(zone, "id"));
    fputs(" routing=\"Cluster\">\n", f);
    put_props(f, c, zone, "", d.desc ? &d : NULL);
    /* What SMPI's settings gave, as simcoll's properties (which the
     * generator copies from here). */
    sc_platform_prop_t props[SC_MAX_PLATFORM_PROPS];
    int nprops = sc_platform_props_list(props);
    for (int i = 0; i < nprops; i++)
        if (c->smpi_text[i]) {
            fputs("<prop", f);
            put_attr(f, "id", props[i].id);
            put_attr(f, "value", c->smpi_text[i]);
            fputs("/>\n", f);
            if (d.desc)
                describe_prop(&d, props[i].id, c->smpi_text[i]);
        }
    static const char *const order[] = {"host", "link", "host_link", "route"};
    for (int k = 0; k < 4; k++) {
        sc_err_t err = SC_OK;
        SC_PF_FOR_ELEMENTS(c, zone, node, err)
        {
            const char *name = (const char *)node->name;
            if (strcmp(name, order[k]) != 0)
                continue;
            fprintf(f, "<%s", name);
            if (d.desc)
                describe_element(&d, node, k);
            if (k == 0) {
                put_attr(f, "id", sc_pf_attr(node, "id"));
                put_quantity(f, node, "speed", SC_QTY_SPEED, "f");
                fprintf(f, " core=\"%ld\"", host_cores(node));
            } else if (k == 1) {
                put_attr(f, "id", sc_pf_attr(node, "id"));
                put_quantity(f, node, "bandwidth", SC_QTY_BANDWIDTH, "Bps");
                /* Written even where SimGrid has defaults: 3.32 fails to
                 * apply the latency's. */
                if (sc_pf_attr(node, "latency"))
                    put_quantity(f, node, "latency", SC_QTY_TIME, "s");
                else
                    fputs(" latency=\"0s\"", f);
                put_attr(f, "sharing_policy", sharing_policy(node));
            } else if (k == 2) {
                put_attr(f, "id", sc_pf_attr(node, "id"));
                put_attr(f, "up", sc_pf_attr(node, "up"));
                put_attr(f, "down", sc_pf_attr(node, "down"));
            } else {
                put_attr(f, "src", sc_pf_attr(node, "src"));
                put_attr(f, "dst", sc_pf_attr(node, "dst"));
            }
            if (k == 3) {
                fputs(">", f);
                sc_err_t inner = SC_OK;
                const char *last_link = NULL;
                SC_PF_FOR_ELEMENTS(c, node, ctn, inner)
                {
                    last_link = sc_pf_attr(ctn, "id");
                    fputs("<link_ctn", f);
                    put_attr(f, "id", sc_pf_attr(ctn, "id"));
                    if (sc_pf_attr(ctn, "direction"))
                        put_attr(f, "direction", sc_pf_attr(ctn, "direction"));
                    fputs("/>", f);
                }
                fputs("</route>\n", f);
                if (d.desc)
                    describe_route(&d, node, last_link);
            } else if (has_elements(c, node)) {
                fputs(">\n", f);
                put_props(f, c, node, "  ", NULL);
                fprintf(f, "</%s>\n", name);
            } else {
                fputs("/>\n", f);
            }
        }
    }
    fputs("</zone>\n</platform>\n", f);
    plat->zone = d.desc;
    free(d.by_name);
    if (fclose(f) != 0 || !text || d.failed) {
        free(text);
        return sc_error(SC_ERR_RUN, "out of memory reading the platform");
    }
    plat->engine_xml = text;
    plat->engine_xml_len = len;
    return SC_OK;
}
