/* Reading a platform file before SimGrid does: everything SimGrid would
 * accept wrongly, abort on or crash on is refused here with a message.
 *
 * libxml2 reads the file; simcoll checks the structure and every number,
 * then writes what it checked anew, in one fixed shape: SimGrid's own XML
 * reader is stricter than XML (a missing or different DOCTYPE, for one,
 * makes it abort), so SimGrid never reads the user's file itself, only
 * this rewrite (sim/simgrid/engine.c; platform_rewrite.c).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "platform_file.h"

#include <assert.h>
#include <libxml/parser.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/sc_units.h"
#include "files.h"
#include "platform_check.h"

#define MAX_CORES_PER_HOST 65536

sc_err_t sc_pf_refuse(const sc_pf_check_t *c, int line, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0)
        return sc_error(SC_ERR_INPUT, "%s '%s':%d: %s", c->option, c->name, line, msg);
    return sc_error(SC_ERR_INPUT, "%s '%s': %s", c->option, c->name, msg);
}

const char *sc_pf_attr(xmlNode *node, const char *name)
{
    for (xmlAttr *a = node->properties; a; a = a->next)
        if (!strcmp((const char *)a->name, name) && a->children &&
            a->children->type == XML_TEXT_NODE)
            return (const char *)a->children->content;
    for (xmlAttr *a = node->properties; a; a = a->next)
        if (!strcmp((const char *)a->name, name))
            return ""; /* present but empty */
    return NULL;
}

int sc_pf_line(xmlNode *node)
{
    return (int)xmlGetLineNo(node);
}

/* Every attribute of node is one of `allowed` (NULL-terminated). */
static sc_err_t only_attrs(const sc_pf_check_t *c, xmlNode *node, const char *const *allowed)
{
    for (xmlAttr *a = node->properties; a; a = a->next) {
        if (a->children && (a->children->type != XML_TEXT_NODE || a->children->next))
            return sc_pf_refuse(c, sc_pf_line(node),
                                "<%s> attribute '%s' holds an entity reference; "
                                "write its value out",
                                node->name, a->name);
        int ok = 0;
        for (int i = 0; allowed[i] && !ok; i++)
            ok = !strcmp((const char *)a->name, allowed[i]);
        if (!ok) {
            char list[256] = "";
            for (int i = 0; allowed[i]; i++) {
                strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
                strncat(list, allowed[i], sizeof list - strlen(list) - 1);
            }
            return sc_pf_refuse(
                c, sc_pf_line(node),
                "<%s> has attribute '%s', which simcoll does not model; it takes %s", node->name,
                a->name, list);
        }
    }
    return SC_OK;
}

static sc_err_t required(const sc_pf_check_t *c, xmlNode *node, const char *name,
                         const char **value)
{
    *value = sc_pf_attr(node, name);
    if (!*value || !**value)
        return sc_pf_refuse(c, sc_pf_line(node), "<%s> needs a non-empty %s=\"...\"", node->name,
                            name);
    return SC_OK;
}

/* The element children of node, skipping comments and blank text. */
xmlNode *sc_pf_next_element(const sc_pf_check_t *c, xmlNode *n, sc_err_t *err)
{
    for (; n; n = n->next) {
        if (n->type == XML_ELEMENT_NODE)
            return n;
        if (n->type == XML_COMMENT_NODE)
            continue;
        if (n->type == XML_TEXT_NODE && n->content &&
            strspn((const char *)n->content, " \t\r\n") == strlen((const char *)n->content))
            continue;
        *err = sc_pf_refuse(c, sc_pf_line(n), "unexpected %s; a platform holds only elements",
                            n->type == XML_TEXT_NODE ? "text" : "content");
        return NULL;
    }
    return NULL;
}

/* The attribute of parameter `name` (models/params.c) at `at`, of a
 * <link> or <host>, in the parameter's range: outside it SimGrid either
 * aborts, deadlocks, or computes something meaningless. `range` says it in
 * messages. */
static sc_err_t quantity(const sc_pf_check_t *c, xmlNode *node, sc_param_at_t at, const char *name,
                         const char *range, double *value)
{
    const sc_param_t *p = sc_param_find(name, strlen(name), at);
    assert(p && p->carrier != SC_CARRIER_PROP);
    sc_quantity_t kind = sc_param_quantity(p);
    double min = p->min, max = p->max;
    const char *text = sc_pf_attr(node, name);
    const char *id = sc_pf_attr(node, "id");
    if (!text)
        return sc_pf_refuse(c, sc_pf_line(node), "<%s id=\"%s\"> needs %s=\"...\" (%s)", node->name,
                            id ? id : "", name, range);
    if (sc_parse_quantity(text, kind, value) != 0)
        return sc_pf_refuse(c, sc_pf_line(node),
                            "<%s id=\"%s\"> %s=\"%s\" is not a number with a unit; use one of %s",
                            node->name, id ? id : "", name, text, sc_quantity_units(kind));
    /* A bare number is SimGrid's base unit: latency="8.97" is 8.97 s, a
     * Bruck of 16 ranks then 36 s, and nothing said. 0 is 0 in any unit. */
    if (sc_quantity_is_bare(text) && *value != 0) {
        static const char *const base[] = {"s", "Bps", "flop/s", "bytes"};
        static const char *const unit[][3] = {
            {"us", "ms", "s"}, {"GBps", "MBps", "Bps"}, {"Gf", "Mf", "f"}, {"KiB", "B", "B"}};
        return sc_pf_refuse(
            c, sc_pf_line(node),
            "<%s id=\"%s\"> %s=\"%s\" has no unit, which SimGrid would read as %s %s; "
            "write it with its unit, e.g. %s%s, %s%s or %s%s",
            node->name, id ? id : "", name, text, text, base[kind], text, unit[kind][0], text,
            unit[kind][1], text, unit[kind][2]);
    }
    if (!(*value >= min && *value <= max))
        return sc_pf_refuse(c, sc_pf_line(node), "<%s id=\"%s\"> %s=\"%s\" is out of range; use %s",
                            node->name, id ? id : "", name, text, range);
    return SC_OK;
}

static int compare_decl(const void *a, const void *b)
{
    return strcmp(((const sc_pf_decl_t *)a)->id, ((const sc_pf_decl_t *)b)->id);
}

sc_pf_decl_t *sc_pf_find(sc_pf_decl_t *decls, int n, const char *id)
{
    sc_pf_decl_t key = {.id = id};
    return bsearch(&key, decls, (size_t)n, sizeof key, compare_decl);
}

/* A link as host_link and link_ctn name it: ID, or ID_UP / ID_DOWN of a
 * SPLITDUPLEX link (or ID with direction="UP|DOWN"). */
static sc_pf_decl_t *find_link(sc_pf_check_t *c, const char *name, int with_direction)
{
    sc_pf_decl_t *l = sc_pf_find(c->links, c->nlinks, name);
    if (l)
        return l->split && !with_direction ? NULL : l;
    size_t n = strlen(name);
    for (const char *suffix = "_UP"; suffix; suffix = suffix[1] == 'U' ? "_DOWN" : NULL) {
        size_t k = strlen(suffix);
        if (n > k && !strcmp(name + n - k, suffix)) {
            char base[512];
            if (n - k >= sizeof base)
                return NULL;
            memcpy(base, name, n - k);
            base[n - k] = '\0';
            l = sc_pf_find(c->links, c->nlinks, base);
            return l && l->split ? l : NULL;
        }
    }
    return NULL;
}

const char *const sc_pf_domain_props[SC_NDOMAIN_KINDS] = {"simcoll/ccx", "simcoll/numa",
                                                          "simcoll/sockets"};

static int domain_prop_kind(const char *id)
{
    for (int d = 0; d < SC_NDOMAIN_KINDS; d++)
        if (!strcmp(id, sc_pf_domain_props[d]))
            return d;
    return -1;
}

static sc_err_t check_prop(sc_pf_check_t *c, xmlNode *node)
{
    static const char *const allowed[] = {"id", "value", NULL};
    const char *id, *value;
    sc_err_t err;
    if ((err = only_attrs(c, node, allowed)) || (err = required(c, node, "id", &id)))
        return err;
    value = sc_pf_attr(node, "value");
    if (!value)
        return sc_pf_refuse(c, sc_pf_line(node), "<prop id=\"%s\"> needs value=\"...\"", id);
    if (strncmp(id, "simcoll/", 8) != 0)
        return SC_OK; /* not ours: SimGrid keeps it, nobody reads it */
    int kind = domain_prop_kind(id);
    if (!strcmp(id, "simcoll/topology") || kind >= 0) {
        const char **seen = kind < 0 ? &c->topology : &c->domains[kind];
        int *line = kind < 0 ? &c->topology_line : &c->domains_line[kind];
        if (*seen)
            return sc_pf_refuse(c, sc_pf_line(node),
                                "<prop id=\"%s\"> is set twice (first on line %d)", id, *line);
        *seen = value;
        *line = sc_pf_line(node);
        return SC_OK;
    }
    if (!strncmp(id, SC_SOURCE_PREFIX, strlen(SC_SOURCE_PREFIX))) {
        sc_param_source_t src;
        char what[160];
        snprintf(what, sizeof what, "<prop id=\"%s\">", id);
        err = sc_platform_source_parse(what, id, value, &src);
        if (err)
            return err == SC_ERR_INPUT ? sc_pf_refuse(c, sc_pf_line(node), "%s", sc_error_message())
                                       : err;
        for (int k = 0; k < c->nsources; k++)
            if (c->sources[k].param == src.param && c->sources[k].at == src.at) {
                free(src.note);
                return sc_pf_refuse(c, sc_pf_line(node),
                                    "<prop id=\"%s\"> is set twice (first on line %d)", id,
                                    c->source_line[k]);
            }
        sc_param_source_t *grown = realloc(c->sources, (size_t)(c->nsources + 1) * sizeof *grown);
        int *lines = grown ? realloc(c->source_line, (size_t)(c->nsources + 1) * sizeof *lines)
                           : NULL;
        if (grown)
            c->sources = grown;
        if (lines)
            c->source_line = lines;
        if (!grown || !lines) {
            free(src.note);
            return sc_error(SC_ERR_RUN, "out of memory reading the platform");
        }
        c->source_line[c->nsources] = sc_pf_line(node);
        c->sources[c->nsources++] = src;
        return SC_OK;
    }
    int i = sc_platform_prop_index(id);
    if (i >= 0) {
        if (c->prop_value[i])
            return sc_pf_refuse(c, sc_pf_line(node),
                                "<prop id=\"%s\"> is set twice (first on line %d)", id,
                                c->prop_line[i]);
        c->prop_value[i] = value;
        c->prop_line[i] = sc_pf_line(node);
        return SC_OK;
    }
    char known[1024] = "";
    sc_platform_prop_t props[SC_MAX_PLATFORM_PROPS];
    int n = sc_platform_props_list(props);
    for (int k = 0; k < n; k++) {
        strncat(known, k ? ", " : "", sizeof known - strlen(known) - 1);
        strncat(known, props[k].id, sizeof known - strlen(known) - 1);
    }
    strncat(known, ", simcoll/topology", sizeof known - strlen(known) - 1);
    strncat(known, ", " SC_SOURCE_PREFIX "LEVEL/PARAM", sizeof known - strlen(known) - 1);
    for (int d = SC_NDOMAIN_KINDS - 1; d >= 0; d--) {
        strncat(known, ", ", sizeof known - strlen(known) - 1);
        strncat(known, sc_pf_domain_props[d], sizeof known - strlen(known) - 1);
    }
    return sc_pf_refuse(c, sc_pf_line(node), "unknown simcoll property '%s'; the properties are %s",
                        id, known);
}

static sc_err_t check_props_of(sc_pf_check_t *c, xmlNode *node)
{
    sc_err_t err = SC_OK;
    SC_PF_FOR_ELEMENTS(c, node, child, err)
    {
        if (strcmp((const char *)child->name, "prop") != 0)
            return sc_pf_refuse(c, sc_pf_line(child), "<%s> inside <%s>: only <prop> may be there",
                                child->name, node->name);
        static const char *const allowed[] = {"id", "value", NULL};
        if ((err = only_attrs(c, child, allowed)))
            return err;
    }
    return err;
}

/* <config>: SimGrid's settings. simcoll configures SimGrid itself, and
 * reads from there SMPI's calibration settings alone (sim/io/
 * smpi_config.h); SMPI's others are SMPI's own (smpi/ois, smpi/wtime,
 * ...): ignored. */
static sc_err_t check_config(sc_pf_check_t *c, xmlNode *node)
{
    static const char *const allowed[] = {"id", NULL};
    sc_err_t err = only_attrs(c, node, allowed);
    if (err)
        return err;
    SC_PF_FOR_ELEMENTS(c, node, child, err)
    {
        static const char *const prop_attrs[] = {"id", "value", NULL};
        const char *id, *value;
        if (strcmp((const char *)child->name, "prop") != 0)
            return sc_pf_refuse(c, sc_pf_line(child),
                                "<%s> inside <config>: only <prop> may be there", child->name);
        if ((err = only_attrs(c, child, prop_attrs)) || (err = required(c, child, "id", &id)))
            return err;
        if (!(value = sc_pf_attr(child, "value")))
            return sc_pf_refuse(c, sc_pf_line(child), "<prop id=\"%s\"> needs value=\"...\"", id);
        int k = sc_smpi_find(id);
        if (k >= 0 && c->smpi_value[k])
            return sc_pf_refuse(c, sc_pf_line(child), "<config> sets %s twice (first on line %d)",
                                id, c->smpi_line[k]);
        if (k >= 0) {
            c->smpi_value[k] = value;
            c->smpi_line[k] = sc_pf_line(child);
        } else if (sc_smpi_renamed(id)) {
            return sc_pf_refuse(c, sc_pf_line(child),
                                "<config> %s: SimGrid 3.32 names it %s (older calibration scripts "
                                "wrote the old name, which SimGrid now refuses); rename it",
                                id, sc_smpi_renamed(id));
        } else if (strncmp(id, "smpi/", 5) != 0) {
            return sc_pf_refuse(
                c, sc_pf_line(child),
                "<config> %s: simcoll configures SimGrid itself; of <config> it reads "
                "SMPI's calibration settings (smpi/os, smpi/or, smpi/bw-factor, "
                "smpi/lat-factor, smpi/async-small-thresh, "
                "smpi/send-is-detached-thresh) and ignores SMPI's others",
                id);
        }
    }
    return err;
}

static sc_err_t check_host(sc_pf_check_t *c, xmlNode *node, long long *total_cores)
{
    static const char *const allowed[] = {"id", "speed", "core", NULL};
    const char *id;
    double speed;
    sc_err_t err;
    if ((err = only_attrs(c, node, allowed)) || (err = required(c, node, "id", &id)) ||
        (err = quantity(c, node, SC_AT_NODE, "speed",
                        "a speed above 0 and at most 1Ef per core, e.g. 10Gf", &speed)) ||
        (err = check_props_of(c, node)))
        return err;
    const char *core = sc_pf_attr(node, "core");
    long cores = 1; /* SimGrid's default */
    if (!core && c->coreless++ == 0) {
        snprintf(c->first_coreless, sizeof c->first_coreless, "%s", id);
        c->first_coreless_line = sc_pf_line(node);
    }
    if (core) {
        char *end;
        cores = strtol(core, &end, 10);
        if (end == core || *end || strspn(core, "0123456789") != strlen(core) || cores < 1 ||
            cores > MAX_CORES_PER_HOST)
            return sc_pf_refuse(c, sc_pf_line(node),
                                "<host id=\"%s\"> core=\"%s\" is not a whole number of cores in "
                                "1..%d",
                                id, core, MAX_CORES_PER_HOST);
    }
    *total_cores += cores;
    c->hosts[c->nhosts++] = (sc_pf_decl_t){.id = id, .line = sc_pf_line(node), .cores = cores};
    return SC_OK;
}

static sc_err_t check_link(sc_pf_check_t *c, xmlNode *node)
{
    static const char *const allowed[] = {"id", "bandwidth", "latency", "sharing_policy", NULL};
    const char *id;
    double bw, lat = 0;
    sc_err_t err;
    if ((err = only_attrs(c, node, allowed)) || (err = required(c, node, "id", &id)) ||
        (err = quantity(c, node, SC_AT_INTER, "bandwidth",
                        "a bandwidth from 1Bps to 1PBps, e.g. 117.685MBps", &bw)) ||
        (sc_pf_attr(node, "latency") &&
         (err = quantity(c, node, SC_AT_INTER, "latency", "a latency from 0s to 10s, e.g. 11.5us",
                         &lat))) ||
        (err = check_props_of(c, node)))
        return err;
    const char *policy = sc_pf_attr(node, "sharing_policy");
    int split = policy && !strcmp(policy, "SPLITDUPLEX");
    if (policy && !split && strcmp(policy, "SHARED") && strcmp(policy, "FATPIPE"))
        return sc_pf_refuse(c, sc_pf_line(node),
                            "<link id=\"%s\"> sharing_policy=\"%s\": simcoll models SHARED, "
                            "SPLITDUPLEX and FATPIPE links",
                            id, policy);
    c->links[c->nlinks++] = (sc_pf_decl_t){.id = id, .line = sc_pf_line(node), .split = split};
    return SC_OK;
}

static sc_err_t check_host_link(sc_pf_check_t *c, xmlNode *node)
{
    static const char *const allowed[] = {"id", "up", "down", NULL};
    const char *id, *up, *down;
    sc_err_t err;
    if ((err = only_attrs(c, node, allowed)) || (err = required(c, node, "id", &id)) ||
        (err = required(c, node, "up", &up)) || (err = required(c, node, "down", &down)) ||
        (err = check_props_of(c, node)))
        return err;
    sc_pf_decl_t *h = sc_pf_find(c->hosts, c->nhosts, id);
    if (!h)
        return sc_pf_refuse(c, sc_pf_line(node), "<host_link id=\"%s\">: no host '%s' is declared",
                            id, id);
    if (h->host_link)
        return sc_pf_refuse(c, sc_pf_line(node),
                            "host '%s' has a second <host_link> (first on line %d)", id,
                            h->host_link);
    h->host_link = sc_pf_line(node);
    const char *ends[2] = {up, down}, *names[2] = {"up", "down"};
    for (int i = 0; i < 2; i++)
        if (!find_link(c, ends[i], 0))
            return sc_pf_refuse(c, sc_pf_line(node),
                                "<host_link id=\"%s\"> %s=\"%s\": no such link (a SPLITDUPLEX link "
                                "L is named L_UP and L_DOWN)",
                                id, names[i], ends[i]);
    return SC_OK;
}

static sc_err_t check_route(sc_pf_check_t *c, xmlNode *node)
{
    static const char *const allowed[] = {"src", "dst", "symmetrical", NULL};
    const char *src, *dst;
    sc_err_t err;
    if ((err = only_attrs(c, node, allowed)) || (err = required(c, node, "src", &src)) ||
        (err = required(c, node, "dst", &dst)))
        return err;
    sc_pf_decl_t *h = sc_pf_find(c->hosts, c->nhosts, src);
    if (!h)
        return sc_pf_refuse(c, sc_pf_line(node), "<route src=\"%s\">: no host '%s' is declared",
                            src, src);
    if (strcmp(src, dst) != 0)
        return sc_pf_refuse(
            c, sc_pf_line(node),
            "<route src=\"%s\" dst=\"%s\">: in a Cluster zone nodes reach each other "
            "through their <host_link>; a <route> gives a node's own shared-memory "
            "route (src = dst)",
            src, dst);
    if (h->loopback)
        return sc_pf_refuse(c, sc_pf_line(node),
                            "host '%s' has a second shared-memory <route> (first on "
                            "line %d)",
                            src, h->loopback);
    h->loopback = sc_pf_line(node);
    int nlinks = 0;
    SC_PF_FOR_ELEMENTS(c, node, child, err)
    {
        static const char *const ctn_attrs[] = {"id", "direction", NULL};
        const char *id;
        if (strcmp((const char *)child->name, "link_ctn") != 0)
            return sc_pf_refuse(c, sc_pf_line(child),
                                "<%s> inside <route>: only <link_ctn> may be there", child->name);
        if ((err = only_attrs(c, child, ctn_attrs)) || (err = required(c, child, "id", &id)))
            return err;
        const char *direction = sc_pf_attr(child, "direction");
        if (direction && strcmp(direction, "UP") && strcmp(direction, "DOWN"))
            return sc_pf_refuse(c, sc_pf_line(child),
                                "<link_ctn id=\"%s\"> direction=\"%s\": use UP or "
                                "DOWN",
                                id, direction);
        if (!find_link(c, id, direction != NULL))
            return sc_pf_refuse(c, sc_pf_line(child), "<link_ctn id=\"%s\">: no such link", id);
        h->bus = nlinks++ == 0 && !direction ? id : NULL;
    }
    if (!err && nlinks == 0)
        return sc_pf_refuse(c, sc_pf_line(node),
                            "<route src=\"%s\" dst=\"%s\"> holds no <link_ctn>; name the node's "
                            "memory-bus link",
                            src, dst);
    return err;
}

/* Collects the ids of one kind of element, sorted, refusing duplicates. */
static sc_err_t declare_all(sc_pf_check_t *c, xmlNode *zone, const char *element,
                            sc_pf_decl_t **decls, int *n)
{
    int count = 0;
    sc_err_t err = SC_OK;
    SC_PF_FOR_ELEMENTS(c, zone, child, err)
    count += !strcmp((const char *)child->name, element);
    if (err)
        return err;
    *decls = calloc((size_t)count + 1, sizeof **decls);
    *n = 0;
    return *decls ? SC_OK : sc_error(SC_ERR_RUN, "out of memory reading the platform");
}

static sc_err_t sort_unique(sc_pf_check_t *c, sc_pf_decl_t *decls, int n, const char *element)
{
    qsort(decls, (size_t)n, sizeof *decls, compare_decl);
    for (int i = 1; i < n; i++)
        if (!strcmp(decls[i].id, decls[i - 1].id)) {
            int first = decls[i].line < decls[i - 1].line ? decls[i].line : decls[i - 1].line;
            int again = decls[i].line < decls[i - 1].line ? decls[i - 1].line : decls[i].line;
            return sc_pf_refuse(c, again, "a second <%s id=\"%s\"> (first on line %d)", element,
                                decls[i].id, first);
        }
    return SC_OK;
}

static sc_err_t check_zone(sc_pf_check_t *c, xmlNode *zone, sc_platform_t *plat)
{
    static const char *const allowed[] = {"id", "routing", NULL};
    const char *id, *routing;
    sc_err_t err;
    if ((err = only_attrs(c, zone, allowed)) || (err = required(c, zone, "id", &id)) ||
        (err = required(c, zone, "routing", &routing)))
        return err;
    if (strcmp(routing, "Cluster") != 0)
        return sc_pf_refuse(c, sc_pf_line(zone),
                            "<zone id=\"%s\"> routing=\"%s\": simcoll simulates clusters, "
                            "routing=\"Cluster\" (see platforms/README.md)",
                            id, routing);
    if ((err = declare_all(c, zone, "host", &c->hosts, &c->nhosts)) ||
        (err = declare_all(c, zone, "link", &c->links, &c->nlinks)))
        return err;
    /* Hosts and links first, so that later elements can refer to them
     * whatever the order in the file. */
    long long total_cores = 0;
    SC_PF_FOR_ELEMENTS(c, zone, child, err)
    {
        const char *name = (const char *)child->name;
        if (!strcmp(name, "host"))
            err = check_host(c, child, &total_cores);
        else if (!strcmp(name, "link"))
            err = check_link(c, child);
        else if (!strcmp(name, "prop"))
            err = check_prop(c, child);
        else if (strcmp(name, "host_link") && strcmp(name, "route"))
            err =
                sc_pf_refuse(c, sc_pf_line(child),
                             "<%s> in the cluster: simcoll platforms hold <prop>, <host>, <link>, "
                             "<host_link> and <route> (see platforms/README.md)",
                             name);
        if (!err && total_cores > SC_MAX_CORES)
            err = sc_pf_refuse(c, sc_pf_line(child),
                               "more than %d cores in all; simcoll simulates at "
                               "most that many ranks",
                               SC_MAX_CORES);
    }
    if (err || (err = sort_unique(c, c->hosts, c->nhosts, "host")) ||
        (err = sort_unique(c, c->links, c->nlinks, "link")))
        return err;
    /* SimGrid names the halves of a SPLITDUPLEX link L "L_UP" and "L_DOWN",
     * and refuses a link of its own of either name. */
    for (int i = 0; i < c->nlinks; i++) {
        if (!c->links[i].split)
            continue;
        for (const char *half = "_UP"; half; half = half[1] == 'U' ? "_DOWN" : NULL) {
            size_t len = strlen(c->links[i].id) + strlen(half) + 1;
            char *name = malloc(len);
            if (!name)
                return sc_error(SC_ERR_RUN, "out of memory reading the platform");
            snprintf(name, len, "%s%s", c->links[i].id, half);
            const sc_pf_decl_t *same = sc_pf_find(c->links, c->nlinks, name);
            free(name);
            if (same)
                return sc_pf_refuse(c, same->line,
                                    "<link id=\"%s\">: SimGrid gives that name to half of the "
                                    "SPLITDUPLEX link '%s' (line %d); rename one of them",
                                    same->id, c->links[i].id, c->links[i].line);
        }
    }
    if (c->nhosts == 0)
        return sc_pf_refuse(c, sc_pf_line(zone), "<zone id=\"%s\"> declares no <host>", id);
    SC_PF_FOR_ELEMENTS(c, zone, child, err)
    {
        const char *name = (const char *)child->name;
        if (!strcmp(name, "host_link"))
            err = check_host_link(c, child);
        else if (!strcmp(name, "route"))
            err = check_route(c, child);
    }
    if (err)
        return err;
    plat->ngroupings = 0;
    plat->nlevels = 2;
    for (int d = 0; d < SC_NDOMAIN_KINDS; d++) {
        plat->domain_count[d] = 1;
        if (c->domains[d] && !c->topology)
            return sc_pf_refuse(c, c->domains_line[d],
                                "%s: nodes have %s in racks only; add <prop "
                                "id=\"simcoll/topology\" value=\"racks:%d,1\"/> for one switch",
                                sc_pf_domain_props[d], sc_domain_plural((sc_domain_kind_t)d),
                                c->nhosts);
    }
    if (c->topology && (err = sc_pf_check_topology(c, zone, plat)))
        return err;
    for (int i = 0; i < c->nhosts; i++) {
        const sc_pf_decl_t *h = &c->hosts[i];
        if (c->nhosts > 1 && !h->host_link && !c->topology)
            return sc_pf_refuse(
                c, h->line,
                "host '%s' has no <host_link id=\"%s\" up=\"...\" down=\"...\">, so "
                "it cannot reach the other nodes",
                h->id, h->id);
        if (!h->loopback)
            return sc_pf_refuse(c, h->line,
                                "node '%s' has no shared-memory route; add <route src=\"%s\" "
                                "dst=\"%s\"> through its memory-bus link",
                                h->id, h->id, h->id);
    }
    plat->total_cores = (int)total_cores;
    plat->topology = c->topology != NULL;
    return SC_OK;
}

/* simcoll's properties: present, parsable, in range. */
static sc_err_t read_props(sc_pf_check_t *c, const char *zone_id, sc_platform_t *plat)
{
    char file[1100];
    snprintf(file, sizeof file, "%s '%s'", c->option, c->name);
    /* SMPI's settings give the network's properties the zone does not. */
    int from[SC_MAX_PLATFORM_PROPS];
    sc_err_t err = sc_smpi_translate(file, c->smpi_value, c->smpi_line, c->smpi_text, from);
    if (err)
        return err;
    sc_platform_prop_t props[SC_MAX_PLATFORM_PROPS];
    int n = sc_platform_props_list(props);
    for (int k = 0; k < SC_SMPI_N; k++) {
        if (!c->smpi_value[k])
            continue;
        for (int i = 0; i < n; i++) {
            const sc_param_t *p = props[i].param;
            const char *name = p->constant_of ? p->constant_of : p->name;
            if (props[i].at == SC_AT_INTER && c->prop_value[i] && !strcmp(name, sc_smpi_param(k)))
                return sc_pf_refuse(c, c->smpi_line[k],
                                    "<config> gives %s, and the zone %s (line %d): both are the "
                                    "network's %s; keep one of them",
                                    sc_smpi_names[k], props[i].id, c->prop_line[i], name);
        }
    }
    for (int i = 0; i < n; i++) {
        if (c->smpi_text[i]) {
            c->prop_value[i] = c->smpi_text[i];
            c->prop_line[i] = c->smpi_line[from[i]];
        }
        int domain = sc_param_at_domain(props[i].at);
        if (c->prop_value[i] && domain >= 0 && plat->domain_count[domain] <= 1)
            return sc_pf_refuse(c, c->prop_line[i],
                                "<prop id=\"%s\">: the nodes have no %s (%s above 1 gives them)",
                                props[i].id, sc_domain_plural((sc_domain_kind_t)domain),
                                sc_pf_domain_props[domain]);
        /* SimGrid's host_link gives a node one link each way; the link
         * both ways cross is one simcoll adds where it builds the network
         * (sim/simgrid/topology.cpp). */
        if (c->prop_value[i] && !c->topology &&
            !strcmp(props[i].param->name, "bidirectional-bandwidth"))
            return sc_pf_refuse(c, c->prop_line[i],
                                "<prop id=\"%s\">: a NIC's limit both ways is built where simcoll "
                                "builds the network; give the zone <prop id=\"simcoll/topology\" "
                                "value=\"racks:%d,1\"/> and one <link id=\"network\"> instead of "
                                "host_links",
                                props[i].id, c->nhosts);
    }
    return sc_platform_props_read(file, zone_id, c->prop_value, c->prop_line, plat);
}


static int is_utf8_name(const char *encoding)
{
    static const char *const ok[] = {"UTF-8",    "utf-8", "UTF8",  "utf8", "US-ASCII",
                                     "us-ascii", "ASCII", "ascii", NULL};
    for (int i = 0; ok[i]; i++)
        if (!strcmp(encoding, ok[i]))
            return 1;
    return 0;
}

static sc_err_t check_document(sc_pf_check_t *c, xmlDoc *doc, sc_platform_t *plat)
{
    if (doc->encoding && !is_utf8_name((const char *)doc->encoding))
        return sc_pf_refuse(c, 1, "encoding '%s': simcoll reads platform files in UTF-8",
                            doc->encoding);
    if (doc->intSubset && (doc->intSubset->children || doc->intSubset->entities ||
                           doc->intSubset->elements || doc->intSubset->attributes))
        return sc_pf_refuse(c, sc_pf_line((xmlNode *)doc->intSubset),
                            "the DOCTYPE declares entities or elements of its own; simcoll takes "
                            "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\"> only");
    xmlNode *root = xmlDocGetRootElement(doc);
    if (!root || strcmp((const char *)root->name, "platform") != 0)
        return sc_pf_refuse(c, root ? sc_pf_line(root) : 1,
                            "the document is <%s>, not a <platform>",
                            root ? (const char *)root->name : "empty");
    static const char *const allowed[] = {"version", NULL};
    const char *version;
    sc_err_t err;
    if ((err = only_attrs(c, root, allowed)) || (err = required(c, root, "version", &version)))
        return err;
    if (strcmp(version, "4.1") != 0)
        return sc_pf_refuse(c, sc_pf_line(root),
                            "<platform version=\"%s\">: simcoll reads version 4.1 "
                            "(SimGrid's simgrid_update_xml converts older files)",
                            version);
    xmlNode *zone = NULL;
    SC_PF_FOR_ELEMENTS(c, root, child, err)
    {
        const char *name = (const char *)child->name;
        if (!strcmp(name, "config") && !zone) {
            if ((err = check_config(c, child)))
                return err;
            continue;
        }
        if (strcmp(name, "zone") != 0)
            return sc_pf_refuse(c, sc_pf_line(child),
                                "<%s> in <platform>: a simcoll platform holds one <zone "
                                "routing=\"Cluster\">%s",
                                name,
                                !strcmp(name, "config")
                                    ? ", after the <config> sections (SimGrid reads those first)"
                                    : "");
        if (zone)
            return sc_pf_refuse(c, sc_pf_line(child),
                                "a second <zone> (first on line %d); a simcoll "
                                "platform is one cluster",
                                sc_pf_line(zone));
        zone = child;
    }
    if (err)
        return err;
    if (!zone)
        return sc_pf_refuse(c, sc_pf_line(root), "<platform> holds no <zone routing=\"Cluster\">");
    if ((err = check_zone(c, zone, plat)) || (err = read_props(c, sc_pf_attr(zone, "id"), plat)))
        return err;
    plat->sources = c->sources;
    plat->nsources = c->nsources;
    c->sources = NULL;
    c->nsources = 0;
    return sc_pf_rewrite(c, zone, plat);
}

/* A <host> without core= is a node of one core to SimGrid: the ranks
 * then spread one a node, which a file written for nodes of several cores
 * never meant, and no run would say. Said once a file a process, however
 * often a command loads it (scaled for --sensitivity, say). */
static void warn_coreless(const sc_pf_check_t *c)
{
    static char warned[1024];
    if (!strcmp(warned, c->name))
        return;
    snprintf(warned, sizeof warned, "%s", c->name);
    char more[64] = "";
    if (c->coreless > 1)
        snprintf(more, sizeof more, " (and %d hosts more)", c->coreless - 1);
    fprintf(stderr,
            "simcoll: warning: %s '%s':%d: <host id=\"%s\"> has no core=%s: SimGrid gives it one "
            "core, so ranks spread one a node; write core=\"N\" for a node of N cores "
            "(core=\"1\" if one is meant)\n",
            c->option, c->name, c->first_coreless_line, c->first_coreless, more);
}

/* libxml2 reports through a global callback: keep its first error. */
static void silent(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

sc_err_t sc_platform_xml_check(const char *option, const char *name, const char *xml, size_t len,
                               sc_platform_t *plat)
{
    sc_pf_check_t c = {.option = option, .name = name};
    if (len > (size_t)0x7fffffff)
        return sc_pf_refuse(&c, 0, "the file is too large");
    xmlSetGenericErrorFunc(NULL, silent);
    xmlSetStructuredErrorFunc(NULL, NULL);
    xmlParserCtxt *ctxt = xmlNewParserCtxt();
    if (!ctxt)
        return sc_error(SC_ERR_RUN, "out of memory reading the platform");
    /* No network, no external DTD, no entity substitution. */
    xmlDoc *doc = xmlCtxtReadMemory(ctxt, xml, (int)len, name, NULL,
                                    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    sc_err_t err;
    if (!doc) {
        const xmlError *e = xmlCtxtGetLastError(ctxt);
        char msg[512] = "not well-formed XML";
        if (e && e->message) {
            snprintf(msg, sizeof msg, "%s", e->message);
            msg[strcspn(msg, "\n")] = '\0';
        }
        err = sc_pf_refuse(&c, e ? e->line : 0, "not a well-formed XML platform: %s", msg);
    } else {
        err = check_document(&c, doc, plat);
    }
    if (!err && c.coreless)
        warn_coreless(&c);
    /* The ids point into doc: nothing of them is kept. */
    free(c.hosts);
    free(c.links);
    for (int i = 0; i < c.nsources; i++)
        free(c.sources[i].note);
    free(c.sources);
    free(c.source_line);
    for (int i = 0; i < SC_MAX_PLATFORM_PROPS; i++)
        free(c.smpi_text[i]);
    xmlFreeDoc(doc);
    xmlFreeParserCtxt(ctxt);
    return err;
}

/* Directories of shipped platforms, set by CMake: the source tree's, then
 * the installed ones. */
#ifndef SC_PLATFORM_DIRS
#define SC_PLATFORM_DIRS ""
#endif

sc_err_t sc_platform_find(const char *option, const char *name, char *out, size_t len)
{
    struct stat st;
    if (strchr(name, '/') || stat(name, &st) == 0 || !*name) {
        snprintf(out, len, "%s", name);
        return SC_OK;
    }
    const char *env = getenv("SIMCOLL_PLATFORM_PATH");
    char dirs[8192];
    snprintf(dirs, sizeof dirs, "%s%s%s", env ? env : "", env && *env ? ":" : "",
             SC_PLATFORM_DIRS);
    char looked[2048] = "";
    char *save = NULL;
    for (char *dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
        snprintf(out, len, "%s/%s", dir, name);
        if (stat(out, &st) == 0)
            return SC_OK;
        strncat(looked, ", ", sizeof looked - strlen(looked) - 1);
        strncat(looked, dir, sizeof looked - strlen(looked) - 1);
    }
    snprintf(out, len, "%s", name);
    return sc_error(SC_ERR_INPUT,
                    "%s '%s': no such file here%s%s (a shipped platform is found by its name: "
                    "gige.xml, ib4x.xml, ib4x-edr.xml, ib-hdr100.xml, roce-25g.xml, roce-50g.xml, "
                    "tengige.xml, orfeo-genoa.xml; SIMCOLL_PLATFORM_PATH adds directories)",
                    option, name, looked[0] ? ", nor in" : "", looked[0] ? looked + 1 : "");
}

sc_err_t sc_platform_file_check(const char *option, const char *path, sc_platform_t *plat)
{
    char *xml;
    size_t len;
    sc_err_t err = sc_input_file(option, path, SC_MAX_PLATFORM_BYTES, &xml, &len);
    if (err)
        return err;
    err = sc_platform_xml_check(option, path, xml, len, plat);
    free(xml);
    return err;
}
