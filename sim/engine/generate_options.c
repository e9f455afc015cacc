/* The generator's options that change its template (generate_options.h):
 * --set LEVEL.PARAM=VALUE, --cores, --topology and --levels, read and
 * checked before any template is.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "generate_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "common/sc_units.h"
#include "sim/io/topology.h"

/* The most cores a generated node has, and the most nodes (as --cores
 * and --nodes allow). */
enum { MAX_CORES = 1 << 16, MAX_NODES = 1 << 20 };

/* Value `text` of --set `set`: a factor of `old` ("2x") or an absolute
 * quantity of `kind`, greater than 0 (or equal to it when `zero_ok`). */
static sc_err_t set_value(const char *set, const char *text, sc_quantity_t kind, double old,
                          int zero_ok, double *out)
{
    char *end;
    size_t n = strlen(text);
    if (n > 1 && text[n - 1] == 'x') {
        double f = strtod(text, &end);
        if (end == text + n - 1 && f > 0 && f < 1e12) {
            *out = old * f;
            return SC_OK;
        }
    } else if (sc_parse_quantity(text, kind, out) == 0 && (*out > 0 || (zero_ok && *out == 0))) {
        *out += 0.0; /* -0 is 0, written as such */
        return SC_OK;
    }
    return sc_error(SC_ERR_INPUT, "--set '%s': '%s' is not a factor above 0 and below 1e12 (like "
                    "2x or 0.5x) or a %s %s (%s)", set, text, zero_ok ? "non-negative" : "positive",
                    kind == SC_QTY_TIME ? "duration" : kind == SC_QTY_BANDWIDTH ? "bandwidth"
                    : kind == SC_QTY_SPEED ? "speed" : "size",
                    sc_quantity_units(kind));
}

/* Refuses sets[i] if an earlier --set names the same parameter: a factor
 * is of the template's value, and a second one would scale the first's
 * result instead (inter.gap=2x then 3x made 6x). */
static sc_err_t once(char *const *sets, int i)
{
    size_t n = strcspn(sets[i], "=");
    for (int j = 0; j < i; j++)
        if (strcspn(sets[j], "=") == n && !strncmp(sets[j], sets[i], n))
            return sc_error(SC_ERR_INPUT, "--set '%s': %.*s is set twice (also by '%s'); give "
                                          "each parameter once",
                            sets[i], (int)n, sets[i], sets[j]);
    return SC_OK;
}

/* `intro` says when the generator has a level. */
void sc_generate_set_usage(char *out, size_t len)
{
    static const char *const intro[SC_NAT] = {[SC_AT_NODE] = "",
                                              [SC_AT_RACK] = "(with racks) ",
                                              [SC_AT_SOCKET] = "or (with sockets) ",
                                              [SC_AT_NUMA] = "(with NUMA domains) ",
                                              [SC_AT_CCX] = "(with CCXs) "};
    const unsigned levels = SC_AT(SC_AT_INTRA) | SC_AT(SC_AT_INTER);
    size_t n = (size_t)snprintf(out, len, "intra.PARAM or inter.PARAM with PARAM ");
    const char *sep = "";
    for (const sc_param_t *p = sc_params; p->name && n < len; p++)
        if (p->settable && (p->at & levels)) {
            n += (size_t)snprintf(out + n, len - n, "%s%s%s", sep, p->name,
                                  p->at & SC_AT(SC_AT_INTRA) ? "" : " (inter only)");
            sep = ", ";
        }
    for (int at = SC_AT_NODE; at <= SC_AT_CCX && n < len; at++) {
        n += (size_t)snprintf(out + n, len - n, "; %s", intro[at]);
        sep = "";
        for (const sc_param_t *p = sc_params; p->name && n < len; p++)
            if (p->settable && (p->at & SC_AT(at))) {
                n += (size_t)snprintf(out + n, len - n, "%s%s.%s", sep,
                                      sc_param_at_name((sc_param_at_t)at), p->name);
                sep = ", ";
            }
    }
}

/* Applies VALUE `text` of --set `set` to parameter p of `owner` (the
 * struct p->in names): absolute, with SimGrid's units, or a factor of the
 * value there ("2x"). */
static sc_err_t set_param(const char *set, const char *text, const sc_param_t *p, void *owner)
{
    int factor = text[0] && text[strlen(text) - 1] == 'x';
    int zero_ok = !(p->min > 0 || p->above_min);
    double v;
    sc_err_t err;
    if (p->kind == SC_PARAM_PIECEWISE_TIME) {
        /* Absolutely, one constant; by a factor, every segment scales (pass
         * 1 as the old value). */
        if ((err = set_value(set, text, sc_param_quantity(p), 1, zero_ok, &v)))
            return err;
        if (factor)
            sc_param_scale(p, owner, v);
        else
            *sc_param_piecewise(p, owner) = sc_piecewise_constant(v);
        return SC_OK;
    }
    if (p->kind == SC_PARAM_SIZE) {
        size_t *bytes = sc_param_size(p, owner);
        if (!factor) { /* as the property reads it: 128K is 131072 bytes, as MPI counts */
            char what[300];
            snprintf(what, sizeof what, "--set '%s'", set);
            return sc_parse_size(text, what, bytes);
        }
        if ((err = set_value(set, text, sc_param_quantity(p), (double)*bytes, zero_ok, &v)))
            return err;
        *bytes = (size_t)(v + 0.5);
        return SC_OK;
    }
    double *value = sc_param_double(p, owner);
    if (factor && p->kind == SC_PARAM_BANDWIDTH && p->carrier == SC_CARRIER_PROP && *value == 0)
        return sc_error(SC_ERR_INPUT,
                        "--set '%s': the template has no %s, which a factor "
                        "cannot scale; give a bandwidth (e.g. 10GBps)",
                        set, p->name);
    if ((err = set_value(set, text, sc_param_quantity(p), *value, zero_ok, &v)))
        return err;
    *value = v;
    return SC_OK;
}

int sc_generate_set_level(const char *set)
{
    return sc_param_at_find(set, strcspn(set, ".="));
}

/* "did you mean 'inter.bandwidth'? " for a parameter of `level` (at) close
 * to the misspelt `param` (sc_name_close), else "", in out. */
static const char *nearest_param(const char *param, size_t len, const char *level, int at,
                                 char *out, size_t size)
{
    const char *names[64];
    int n = 0;
    for (const sc_param_t *q = sc_params; q->name && n < 63; q++)
        if (q->settable && (q->at & SC_AT(at)))
            names[n++] = q->name;
    names[n] = NULL;
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)len, param);
    const char *close = n ? sc_name_close(name, names) : NULL;
    snprintf(out, size, "%s%s%s%s%s", close ? "did you mean '" : "", close ? level : "",
             close ? "." : "", close ? close : "", close ? "'? " : "");
    return out;
}

sc_err_t sc_generate_apply_set(const char *set, sc_level_t levels[SC_NLEVELS],
                               int touched[SC_NLEVELS], double *speed)
{
    char params[512];
    const char *eq = strchr(set, '='), *dot = strchr(set, '.');
    if (!eq || !dot || dot > eq) {
        sc_generate_set_usage(params, sizeof params);
        return sc_error(SC_ERR_INPUT, "--set '%s': give LEVEL.PARAM=VALUE, with %s", set, params);
    }
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(eq - set), set);
    const char *text = eq + 1;
    int at = sc_generate_set_level(set);
    if (at == SC_AT_RACK || sc_param_at_domain((sc_param_at_t)at) >= 0)
        return SC_OK; /* apply_link_set, once the links it starts from are known */
    const char *param = at >= 0 ? name + (dot - set) + 1 : NULL;
    const sc_param_t *p = at >= 0 ? sc_param_find(param, strlen(param), (sc_param_at_t)at) : NULL;
    if (p && !p->settable)
        p = NULL;
    if (at == SC_AT_NODE && p) {
        sc_node_t node = {.speed_flops = *speed};
        sc_err_t err = set_param(set, text, p, &node);
        *speed = node.speed_flops;
        return err;
    }
    /* A node's parameters are named whole, node.speed: node.X is no level
     * of LEVEL.PARAM, as the usage says. */
    sc_generate_set_usage(params, sizeof params);
    if (at != SC_AT_INTRA && at != SC_AT_INTER)
        return sc_error(SC_ERR_INPUT, "--set '%s': unknown level '%.*s'; use %s", set,
                        (int)(dot - set), set, params);
    touched[at] = 1;
    char hint[128], level[16];
    snprintf(level, sizeof level, "%.*s", (int)(dot - set), set);
    if (!p)
        return sc_error(SC_ERR_INPUT, "--set '%s': unknown parameter '%s'; %suse %s", set, param,
                        nearest_param(param, strlen(param), level, at, hint, sizeof hint),
                        params);
    return set_param(set, text, p, &levels[at]);
}

/* Applies one --set LEVEL.PARAM (LEVEL rack, socket, numa or ccx) to
 * `link`: a rack's uplink, which starts as fast as the rack's nodes' links
 * together, with one NIC link's latency; the link between a node's sockets
 * (NUMA domains, CCXs), which a message between them takes after the
 * memory bus, and which starts
 * adding nothing (no latency, the memory bus's bandwidth), as in a node
 * whose sockets reach one memory (the shipped platforms' Xeon E5420s); a
 * factor scales those. link NULL: the platform has no such level,
 * `missing` says how to give it. */
sc_err_t sc_generate_apply_link_set(const char *set, sc_param_at_t at, sc_gen_link_t *link,
                                    sc_level_t *own, const sc_level_t *shared, const char *missing)
{
    const char *level = sc_param_at_name(at);
    const char *eq = strchr(set, '='), *text = eq + 1, *param = set + strlen(level) + 1;
    size_t n = (size_t)(eq - param);
    int domain = sc_param_at_domain(at);
    if (!link)
        return sc_error(SC_ERR_INPUT, "--set '%s': there are no %s; %s", set,
                        domain >= 0 ? sc_domain_plural((sc_domain_kind_t)domain) : "racks",
                        missing);
    const sc_param_t *p = sc_param_find(param, n, at);
    if (!p || !p->settable) {
        char use[256] = "";
        for (const sc_param_t *q = sc_params; q->name; q++)
            if (q->settable && (q->at & SC_AT(at)))
                snprintf(use + strlen(use), sizeof use - strlen(use), "%s%s.%s",
                         *use ? " or " : "", level, q->name);
        char hint[128];
        return sc_error(SC_ERR_INPUT, "--set '%s': unknown parameter '%.*s'; %suse %s", set,
                        (int)n, param, nearest_param(param, n, level, at, hint, sizeof hint), use);
    }
    if (p->carrier == SC_CARRIER_PROP) {
        sc_piecewise_t *mine = sc_param_piecewise(p, own);
        if (mine->n == 0) {
            sc_level_t from = *shared; /* the accessor takes a writable level */
            *mine = *sc_param_piecewise(p, &from);
        }
        return set_param(set, text, p, own);
    }
    /* The level as the table sees it: the link's latency and bandwidth. */
    sc_level_t lv = {.latency_s = link->latency_s, .bandwidth_Bps = link->bandwidth_Bps};
    int factor = text[0] && text[strlen(text) - 1] == 'x';
    if (factor && p->kind == SC_PARAM_DURATION && *sc_param_double(p, &lv) == 0)
        return sc_error(SC_ERR_INPUT, "--set '%s': %s.%s starts at 0, which a factor "
                        "leaves 0; give a duration (e.g. 100ns)", set, level, p->name);
    sc_err_t err = set_param(set, text, p, &lv);
    link->latency_s = lv.latency_s;
    link->bandwidth_Bps = lv.bandwidth_Bps;
    return err;
}

sc_gen_link_t sc_generate_domain_link(const sc_gen_link_t *membus)
{
    return (sc_gen_link_t){.bandwidth_Bps = membus->bandwidth_Bps, .policy = "FATPIPE"};
}

sc_err_t sc_generate_check_sets(char *const *sets, int nsets)
{
    /* Stand-ins for the template's values, none 0 but the domain links'
     * latency, which is 0 whatever the template: what is refused on them
     * is refused on any template. */
    sc_level_t levels[SC_NLEVELS] = {0};
    levels[SC_LEVEL_INTER].bidirectional_Bps = 1; /* a factor of none is refused (set_param) */
    int touched[SC_NLEVELS] = {0};
    double speed = 1;
    sc_gen_link_t membus = {.bandwidth_Bps = 1, .latency_s = 1}, uplink = membus;
    sc_gen_link_t domain = sc_generate_domain_link(&membus);
    sc_level_t own = {0};
    sc_err_t err = SC_OK;
    for (int i = 0; i < nsets && !err; i++) {
        if (!(err = once(sets, i)))
            err = sc_generate_apply_set(sets[i], levels, touched, &speed);
        if (!err && sc_generate_set_level(sets[i]) == SC_AT_RACK)
            err = sc_generate_apply_link_set(sets[i], SC_AT_RACK, &uplink, NULL, NULL, NULL);
        else if (!err && sc_param_at_domain((sc_param_at_t)sc_generate_set_level(sets[i])) >= 0)
            err = sc_generate_apply_link_set(sets[i], (sc_param_at_t)sc_generate_set_level(sets[i]),
                                             &domain, &own, &levels[SC_LEVEL_INTRA], NULL);
    }
    return err;
}

sc_err_t sc_generate_parse_cores(const char *text, sc_generate_spec_t *spec, int **node_cores)
{
    static const char *const form =
        "give C (cores of every node) or a list of C and KxC (K nodes of C cores) separated by "
        "',' or '+', e.g. 4x16,2x8";
    *node_cores = NULL;
    if (!strpbrk(text, ",+x"))
        return sc_parse_int(text, "--cores", 1, MAX_CORES, &spec->cores);
    char *copy = strdup(text);
    int *cores = NULL, n = 0;
    sc_err_t err = copy ? SC_OK : sc_error(SC_ERR_RUN, "out of memory");
    for (char *item = copy, *next; !err && item; item = next) {
        next = strpbrk(item, ",+");
        if (next)
            *next++ = '\0';
        char *x = strchr(item, 'x');
        if (x)
            *x = '\0';
        int k = 1, c = 0;
        if (!*item || (x && !x[1])) {
            err = sc_error(SC_ERR_INPUT, "--cores '%s': an empty item; %s", text, form);
            break;
        }
        if ((x && (err = sc_parse_int(item, "--cores: K of KxC", 1, MAX_NODES, &k))) ||
            (err = sc_parse_int(x ? x + 1 : item, "--cores", 1, MAX_CORES, &c)))
            break;
        if (k > MAX_NODES - n) {
            err = sc_error(SC_ERR_INPUT, "--cores '%s': more than %d nodes", text, MAX_NODES);
            break;
        }
        int *grown = realloc(cores, (size_t)(n + k) * sizeof *cores);
        if (!grown) {
            err = sc_error(SC_ERR_RUN, "out of memory");
            break;
        }
        cores = grown;
        while (k-- > 0)
            cores[n++] = c;
    }
    free(copy);
    if (!err && spec->nodes && spec->nodes != n)
        err = sc_error(SC_ERR_INPUT, "--nodes %d, but --cores '%s' lists %d nodes; give one of "
                       "them, or the same count", spec->nodes, text, n);
    if (err) {
        free(cores);
        return err;
    }
    spec->nodes = n;
    spec->node_cores = *node_cores = cores;
    return SC_OK;
}

sc_err_t sc_generate_check_cores(const char *cores)
{
    sc_generate_spec_t spec = {0};
    int *node_cores;
    sc_err_t err = sc_generate_parse_cores(cores, &spec, &node_cores);
    free(node_cores);
    return err;
}

sc_err_t sc_generate_check_topology(const char *topology, long *nodes)
{
    sc_topology_t t;
    sc_err_t err = sc_topology_parse("--topology", topology, &t);
    if (err)
        return err;
    if (t.nodes > MAX_NODES)
        return sc_error(SC_ERR_INPUT, "--topology '%s' connects %ld nodes, more than %d",
                        topology, t.nodes, MAX_NODES);
    if (nodes)
        *nodes = t.nodes;
    return SC_OK;
}

sc_err_t sc_levels_parse(const char *text, sc_levels_t *out)
{
    static const char *const names[] = {"core", "ccx", "numa", "socket", "node", "rack"};
    static const char *const form =
        "give LEVEL:N items from the smallest, each the number of LEVELs in one of the next "
        "(the last: in the cluster), LEVEL core, ccx, numa, socket, node or rack; e.g. "
        "core:8,socket:2,node:8,rack:4 is 4 racks of 8 nodes of 2 sockets of 8 cores";
    enum { CORE, CCX, NUMA, SOCKET, NODE, RACK, NAMES };
    int count[NAMES] = {0};
    memset(out, 0, sizeof *out);
    int last = -1;
    for (const char *item = text; *item;) {
        size_t len = strcspn(item, ",");
        const char *colon = memchr(item, ':', len);
        int k = 0;
        while (k < NAMES && !(colon && (size_t)(colon - item) == strlen(names[k]) &&
                              !strncmp(item, names[k], strlen(names[k]))))
            k++;
        if (k == NAMES)
            return sc_error(SC_ERR_INPUT, "--levels '%s': unknown item '%.*s'; %s", text, (int)len,
                            item, form);
        if (k <= last)
            return sc_error(SC_ERR_INPUT, "--levels '%s': '%s' %s; %s", text, names[k],
                            k == last ? "twice" : "after a larger level", form);
        char *number = strndup(colon + 1, len - (size_t)(colon + 1 - item));
        if (!number)
            return sc_error(SC_ERR_RUN, "out of memory");
        char what[64];
        snprintf(what, sizeof what, "--levels: %s", names[k]);
        int most = k == CORE ? MAX_CORES : k < NODE ? SC_MAX_SOCKETS : MAX_NODES;
        sc_err_t err = sc_parse_int(number, what, 1, most, &count[k]);
        free(number);
        if (err)
            return err;
        last = k;
        item += len;
        if (*item == ',' && !*++item)
            return sc_error(SC_ERR_INPUT, "--levels '%s': ends with ','; %s", text, form);
    }
    if (!count[NODE])
        return sc_error(SC_ERR_INPUT, "--levels '%s': no node level; %s", text, form);
    /* Products of at most two counts below 2^21: no overflow in 64 bits. */
    long long nodes = (long long)count[NODE] * (count[RACK] ? count[RACK] : 1);
    if (nodes > MAX_NODES)
        return sc_error(SC_ERR_INPUT, "--levels '%s': %lld nodes, more than %d", text, nodes,
                        MAX_NODES);
    out->nodes = (int)nodes;
    /* Counts of at most 64 below 2^16 cores: no overflow either. */
    long long domains = 1;
    for (int d = 0; d < SC_NDOMAIN_KINDS; d++) {
        out->domains[d] = count[CCX + d] ? count[CCX + d] : 1;
        domains *= out->domains[d];
    }
    if (domains > SC_MAX_DOMAINS)
        return sc_error(SC_ERR_INPUT, "--levels '%s': %lld smallest domains a node, more than %d",
                        text, domains, SC_MAX_DOMAINS);
    if (count[CORE] && (long long)count[CORE] * domains > MAX_CORES)
        return sc_error(SC_ERR_INPUT, "--levels '%s': %lld cores a node, more than %d", text,
                        (long long)count[CORE] * domains, MAX_CORES);
    if (count[CORE])
        snprintf(out->cores, sizeof out->cores, "%d", (int)(count[CORE] * domains));
    if (count[RACK])
        snprintf(out->topology, sizeof out->topology, "racks:%d,%d", count[NODE], count[RACK]);
    return SC_OK;
}
