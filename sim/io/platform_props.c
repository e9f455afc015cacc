/* simcoll's properties of a platform zone: the message costs SimGrid's
 * links do not carry (overheads, bandwidth and latency factors, the NIC's
 * gap, the protocol switch, the header), read by the table of
 * models/params.c.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "platform_props.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sc_units.h"
#include "piecewise.h"


int sc_platform_props_list(sc_platform_prop_t props[SC_MAX_PLATFORM_PROPS])
{
    int n = 0;
    for (int at = 0; at < SC_NAT; at++)
        for (const sc_param_t *p = sc_params; p->name; p++) {
            if (p->carrier != SC_CARRIER_PROP || !(p->at & SC_AT(at)))
                continue;
            assert(n < SC_MAX_PLATFORM_PROPS);
            const char *level = sc_param_at_name((sc_param_at_t)at);
            props[n] = (sc_platform_prop_t){.param = p, .at = (sc_param_at_t)at};
            snprintf(props[n].id, sizeof props[n].id, "simcoll/%s%s%s", level ? level : "",
                     level ? "/" : "", p->name);
            n++;
        }
    return n;
}

int sc_platform_prop_index(const char *id)
{
    sc_platform_prop_t props[SC_MAX_PLATFORM_PROPS];
    int n = sc_platform_props_list(props);
    for (int i = 0; i < n; i++)
        if (!strcmp(id, props[i].id))
            return i;
    return -1;
}

/* A duration of a platform file's property: as sc_parse_duration reads
 * it, but a number without a unit but 0 is refused, as on a link: SimGrid's
 * base unit, seconds, is rarely what its author meant. */
static sc_err_t duration(const char *text, const char *what, double *v)
{
    sc_err_t err = sc_parse_duration(text, what, v);
    if (!err && *v != 0 && sc_quantity_is_bare(text))
        err = sc_error(SC_ERR_INPUT,
                       "%s: '%s' has no unit, which would be %s s; write it with its unit, e.g. "
                       "%sus, %sns or %ss",
                       what, text, text, text, text, text);
    return err;
}

/* One segment of a property, SIZE:START[:PER_BYTE] or SIZE:FACTOR, in
 * the ranges of its parameter (arg). */
static sc_err_t prop_segment(const char *what, const char *item,
                             char *const fields[SC_PIECEWISE_FIELDS], int n, const void *arg,
                             sc_segment_t *seg)
{
    (void)item; /* the messages name the field */
    const sc_param_t *spec = arg;
    size_t size;
    char sub[1300];
    snprintf(sub, sizeof sub, "%s: segment size", what);
    sc_err_t err = sc_parse_size(fields[0], sub, &size);
    if (err)
        return err;
    seg->min_bytes = (double)size;
    if (spec->kind == SC_PARAM_PIECEWISE_FACTOR) {
        char *end;
        errno = 0;
        seg->start = strtod(fields[1], &end);
        int number = end != fields[1] && !*end && !errno && !isnan(seg->start);
        int low = spec->above_min ? !(seg->start > spec->min) : !(seg->start >= spec->min);
        if (number && low && spec->min >= 1)
            /* A latency factor: its extra latency is added after
             * SimGrid's route (sc_protocol_wire), which
             * cannot be shortened. */
            return sc_error(SC_ERR_INPUT,
                            "%s: factor '%s' is below %g: simcoll adds the latency beyond "
                            "the route's at the receiver and cannot take any away; give the "
                            "links L times the smallest factor as latency and divide the "
                            "factors by that factor",
                            what, fields[1], spec->min);
        if (!number || low || !(seg->start <= spec->max))
            return sc_error(SC_ERR_INPUT, "%s: factor '%s' is not a number %s %g and at most %g",
                            what, fields[1], spec->above_min ? "above" : "of at least", spec->min,
                            spec->max);
        return SC_OK;
    }
    snprintf(sub, sizeof sub, "%s: segment start", what);
    if ((err = duration(fields[1], sub, &seg->start)))
        return err;
    if (n == 3) {
        snprintf(sub, sizeof sub, "%s: segment per byte", what);
        if ((err = duration(fields[2], sub, &seg->per_byte)))
            return err;
    }
    if (seg->start > spec->max)
        return sc_error(SC_ERR_INPUT,
                        "%s: segment at %zu bytes: start '%s' is out of range; a start is at "
                        "most %g s",
                        what, size, fields[1], spec->max);
    if (seg->per_byte > SC_PROP_MAX_PER_BYTE)
        return sc_error(SC_ERR_INPUT,
                        "%s: segment at %zu bytes: per byte '%s' is out of range; a cost per "
                        "byte is at most %g s",
                        what, size, fields[2], SC_PROP_MAX_PER_BYTE);
    return SC_OK;
}

/* SIZE:START[:PER_BYTE];... or SIZE:FACTOR;... into *pw: every size
 * covered, once. */
static sc_err_t parse_piecewise(const char *what, const sc_param_t *spec, const char *text,
                                sc_piecewise_t *pw)
{
    int factor = spec->kind == SC_PARAM_PIECEWISE_FACTOR;
    const sc_piecewise_syntax_t syntax = {
        .syntax = factor ? "SIZE:FACTOR;... (e.g. 0:0.6;65536:0.94)"
                         : "SIZE:START[:PER_BYTE];... (e.g. 0:0.8us;1420:1.2us:0.1ns)",
        .note = "",
        .min_fields = 2,
        .max_fields = factor ? 2 : 3,
        .segment = prop_segment,
        .arg = spec,
    };
    sc_err_t err = sc_piecewise_parse(what, text, &syntax, pw);
    if (err)
        return err;
    if (pw->seg[0].min_bytes != 0)
        return sc_error(SC_ERR_INPUT, "%s: the first segment starts at %.0f bytes; one must "
                                      "start at 0 so that every size is covered",
                        what, pw->seg[0].min_bytes);
    int k = sc_piecewise_repeated(pw);
    if (k)
        return sc_error(SC_ERR_INPUT, "%s: two segments start at %.0f bytes", what,
                        pw->seg[k].min_bytes);
    return SC_OK;
}

/* The struct of `plat` that holds a property's field. */
static void *owner_of(const sc_platform_prop_t *prop, sc_platform_t *plat)
{
    if (prop->param->in == SC_IN_PLATFORM)
        return plat;
    assert(prop->param->in == SC_IN_LEVEL);
    int domain = sc_param_at_domain(prop->at);
    if (domain >= 0)
        return &plat->between_domains[domain];
    assert(prop->at == SC_AT_INTRA || prop->at == SC_AT_INTER);
    return &plat->level[prop->at];
}

/* The index of parameter `name` at `at` among props[0..n-1]. */
static int index_of(const sc_platform_prop_t *props, int n, const char *name, sc_param_at_t at)
{
    for (int i = 0; i < n; i++)
        if (props[i].at == at && !strcmp(props[i].param->name, name))
            return i;
    assert(!"no such property");
    return -1;
}

/* p's field in `owner` at its default: 0, or no segment. */
static void set_zero(const sc_param_t *p, void *owner)
{
    if (p->kind == SC_PARAM_SIZE)
        *sc_param_size(p, owner) = 0;
    else if (p->kind == SC_PARAM_PIECEWISE_TIME || p->kind == SC_PARAM_PIECEWISE_FACTOR)
        *sc_param_piecewise(p, owner) = (sc_piecewise_t){0};
    else
        *sc_param_double(p, owner) = 0;
}

/* The parameter that is p's constant form, or NULL: the two are required
 * together, once every property is parsed. */
static const sc_param_t *constant_form_of(const sc_param_t *p)
{
    for (const sc_param_t *q = sc_params; q->name; q++)
        if (q->constant_of && !strcmp(q->constant_of, p->name))
            return q;
    return NULL;
}

/* A value of kind `kind` (a duration or a size), into *v. */
/* The base unit of a property's kind, for messages. */
static const char *unit_of(sc_param_kind_t kind)
{
    return kind == SC_PARAM_SIZE ? "bytes" : kind == SC_PARAM_BANDWIDTH ? "Bps" : "s";
}

static sc_err_t parse_number(const char *what, sc_param_kind_t kind, const char *text, double *v)
{
    size_t bytes;
    if (kind == SC_PARAM_BANDWIDTH) {
        if (sc_parse_quantity(text, SC_QTY_BANDWIDTH, v) || !(*v > 0) ||
            sc_quantity_is_bare(text))
            return sc_error(SC_ERR_INPUT,
                            "%s: '%s' is not a bandwidth (a positive number with "
                            "one of %s)",
                            what, text, sc_quantity_units(SC_QTY_BANDWIDTH));
        return SC_OK;
    }
    if (kind != SC_PARAM_SIZE)
        return duration(text, what, v);
    sc_err_t err = sc_parse_size(text, what, &bytes);
    *v = (double)bytes;
    return err;
}

/* A duration or size, or a range of them LO..HI, whose midpoint *v is
 * then and which is added to plat's ranges (as parameter `target`). */
static sc_err_t parse_value(const char *what, const sc_param_t *spec, const sc_param_t *target,
                            sc_param_at_t at, const char *text, double *v, sc_platform_t *plat)
{
    const char *dots = strstr(text, "..");
    if (!dots)
        return parse_number(what, spec->kind, text, v);
    char lo_text[128], end[1400];
    double lo, hi;
    snprintf(lo_text, sizeof lo_text, "%.*s", (int)(dots - text), text);
    /* An end's message names the range as written: "..1.2us" has an
     * empty LO, which alone would show as ''. */
    snprintf(end, sizeof end, "%s = '%s': the range's LO", what, text);
    sc_err_t err = parse_number(end, spec->kind, lo_text, &lo);
    snprintf(end, sizeof end, "%s = '%s': the range's HI", what, text);
    if (!err)
        err = parse_number(end, spec->kind, dots + 2, &hi);
    if (err)
        return err;
    if (!(lo < hi))
        return sc_error(SC_ERR_INPUT, "%s = '%s': a range LO..HI needs LO below HI", what, text);
    if (hi > spec->max)
        return sc_error(SC_ERR_INPUT, "%s = '%s' is out of range; use at most %g %s", what, text,
                        spec->max, unit_of(spec->kind));
    if (plat->nranges == SC_MAX_RANGES)
        return sc_error(SC_ERR_INPUT, "%s = '%s': at most %d parameters may be ranges (a run "
                                      "reports the time at every corner, 2^%d)",
                        what, text, SC_MAX_RANGES, SC_MAX_RANGES);
    *v = spec->kind == SC_PARAM_SIZE ? floor((lo + hi) / 2) : (lo + hi) / 2;
    plat->ranges[plat->nranges++] = (sc_range_t){
        .param = (int)(target - sc_params), .at = at, .lo = lo, .hi = hi, .mid = *v};
    return SC_OK;
}

/* The parameter a property's value sets: itself, or for a constant form
 * the piecewise one it is a constant of. */
static const sc_param_t *target_of(const sc_param_t *p, sc_param_at_t at)
{
    return p->constant_of ? sc_param_find(p->constant_of, strlen(p->constant_of), at) : p;
}

sc_err_t sc_platform_props_read(const char *file, const char *zone, const char *const *value,
                                const int *line, sc_platform_t *plat)
{
    sc_platform_prop_t props[SC_MAX_PLATFORM_PROPS];
    int n = sc_platform_props_list(props);
    sc_piecewise_t pw[SC_MAX_PLATFORM_PROPS];
    double number[SC_MAX_PLATFORM_PROPS] = {0};
    char meaning[200];
    for (int i = 0; i < n; i++) {
        const sc_param_t *spec = props[i].param;
        pw[i] = (sc_piecewise_t){0};
        if (!value[i] && spec->required && !constant_form_of(spec)) {
            sc_param_describe(spec, props[i].at, meaning, sizeof meaning);
            return sc_error(SC_ERR_INPUT,
                            "%s: zone '%s' lacks <prop id=\"%s\">, %s (see platforms/README.md)",
                            file, zone, props[i].id, meaning);
        }
        if (!value[i])
            continue;
        char what[1200];
        snprintf(what, sizeof what, "%s:%d: property %s", file, line[i], props[i].id);
        sc_err_t err = SC_OK;
        switch (spec->kind) {
        case SC_PARAM_SIZE:
        case SC_PARAM_DURATION:
        case SC_PARAM_BANDWIDTH:
            err = parse_value(what, spec, target_of(spec, props[i].at), props[i].at, value[i],
                              &number[i], plat);
            break;
        case SC_PARAM_PIECEWISE_TIME:
        case SC_PARAM_PIECEWISE_FACTOR:
            if (strstr(value[i], "..")) {
                /* A range is one value's: only a constant form can take it. */
                const sc_param_t *constant = constant_form_of(spec);
                char instead[200] = "it has no single-valued form, so give it as SIZE:VALUE "
                                    "pairs without a range";
                const char *level = sc_param_at_name(props[i].at);
                if (constant)
                    snprintf(instead, sizeof instead,
                             "give the range as simcoll/%s%s%s instead, one value for "
                             "every message size",
                             level ? level : "", level ? "/" : "", constant->name);
                err = sc_error(SC_ERR_INPUT,
                               "%s = '%s': this property takes a value per message size "
                               "(SIZE:VALUE,...), and a range LO..HI can only stand for a "
                               "single value; %s",
                               what, value[i], instead);
            } else
                err = parse_piecewise(what, spec, value[i], &pw[i]);
            break;
        case SC_PARAM_SPEED: assert(!"a property of a host's kind"); break;
        }
        if (err)
            return err;
        if (number[i] > spec->max)
            return sc_error(SC_ERR_INPUT, "%s = '%s' is out of range; use at most %g %s", what,
                            value[i], spec->max, unit_of(spec->kind));
    }
    /* A form and its constant form: exactly one of the two. */
    for (int old = 0; old < n; old++) {
        const char *form = props[old].param->constant_of;
        if (!form)
            continue;
        int i = index_of(props, n, form, props[old].at);
        if (value[i] && value[old])
            return sc_error(SC_ERR_INPUT,
                            "%s:%d: zone '%s' gives both %s and %s; keep %s (the other is its "
                            "constant form)",
                            file, line[old], zone, props[i].id, props[old].id, props[i].id);
        sc_param_describe(props[i].param, props[i].at, meaning, sizeof meaning);
        if (!value[i] && !value[old])
            return sc_error(SC_ERR_INPUT,
                            "%s: zone '%s' lacks <prop id=\"%s\">, %s (see platforms/README.md)",
                            file, zone, props[i].id, meaning);
    }
    /* Every field a property carries, on both levels (the gap of shared
     * memory too, which has no property): absent, it is 0 or no segment. */
    for (const sc_param_t *p = sc_params; p->name; p++)
        for (int l = 0; l < SC_NLEVELS && p->carrier == SC_CARRIER_PROP && p->in == SC_IN_LEVEL &&
                        !p->constant_of;
             l++)
            set_zero(p, &plat->level[l]);
    for (int i = 0; i < n; i++) {
        const sc_param_t *p = props[i].param;
        void *owner = owner_of(&props[i], plat);
        if (!value[i])
            continue;
        if (p->constant_of)
            *sc_param_piecewise(p, owner) = sc_piecewise_constant(number[i]);
        else if (p->kind == SC_PARAM_SIZE)
            *sc_param_size(p, owner) = (size_t)number[i]; /* at most 2^40: exact */
        else if (p->kind == SC_PARAM_DURATION || p->kind == SC_PARAM_BANDWIDTH)
            *sc_param_double(p, owner) = number[i];
        else
            *sc_param_piecewise(p, owner) = pw[i];
    }
    return SC_OK;
}

static const char *const source_kinds[SC_NSOURCE_KINDS] = {
    [SC_SOURCE_MEASURED] = "measured",
    [SC_SOURCE_PUBLISHED] = "published",
    [SC_SOURCE_ASSUMED] = "assumed",
    [SC_SOURCE_SET] = "set",
};

const char *sc_source_kind_name(sc_source_kind_t kind)
{
    return source_kinds[kind];
}

void sc_param_source_name(int param, int at, char *out, size_t len)
{
    const char *level = sc_param_at_name((sc_param_at_t)at);
    snprintf(out, len, "%s%s%s", level ? level : "", level ? "." : "", sc_params[param].name);
}

const sc_param_source_t *sc_platform_source(const sc_platform_t *plat, int param, int at)
{
    for (int i = 0; i < plat->nsources; i++)
        if (plat->sources[i].param == param && plat->sources[i].at == at)
            return &plat->sources[i];
    return NULL;
}

sc_err_t sc_platform_source_parse(const char *what, const char *id, const char *value,
                                  sc_param_source_t *src)
{
    const char *name = id + strlen(SC_SOURCE_PREFIX), *slash = strchr(name, '/');
    int at = slash ? sc_param_at_find(name, (size_t)(slash - name)) : SC_AT_ZONE;
    const char *param = slash ? slash + 1 : name;
    const sc_param_t *p = at >= 0 ? sc_param_find(param, strlen(param), (sc_param_at_t)at) : NULL;
    if (!p || p->constant_of)
        return sc_error(SC_ERR_INPUT,
                        "%s: '%s' names no parameter; give %sLEVEL/PARAM (PARAM alone for the "
                        "zone's header-bytes) with a parameter of simcoll list --params",
                        what, id, SC_SOURCE_PREFIX);
    size_t k = strcspn(value, ":");
    int kind = -1;
    for (int i = 0; i < SC_NSOURCE_KINDS; i++)
        if (strlen(source_kinds[i]) == k && !strncmp(value, source_kinds[i], k))
            kind = i;
    const char *note = value[k] ? value + k + 1 : "";
    note += strspn(note, " ");
    if (kind < 0 || (value[k] && !*note) || (!*note && kind != SC_SOURCE_ASSUMED))
        return sc_error(SC_ERR_INPUT,
                        "%s = '%s': give 'measured: FILE and FIT', 'published: CITATION', "
                        "'assumed: WHY' (or 'assumed'), or 'set: --set ...'",
                        what, value);
    *src = (sc_param_source_t){.param = (int)(p - sc_params), .at = at,
                               .kind = (sc_source_kind_t)kind, .note = strdup(note)};
    if (!src->note)
        return sc_error(SC_ERR_RUN, "out of memory");
    return SC_OK;
}
