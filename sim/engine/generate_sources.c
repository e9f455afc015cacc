/* Where a generated platform's parameters came from (generate_sources.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "generate_sources.h"
#include "generate_options.h"

#include <string.h>

#include "sim/io/platform_file.h"
#include "sim/io/platform_props.h"

/* One simcoll/source property of parameter `param` at `at`. */
static void write_source(FILE *f, int param, int at, const char *kind, const char *note)
{
    const char *level = sc_param_at_name((sc_param_at_t)at);
    fprintf(f, "    <prop id=\"%s%s%s%s\" value=\"%s: ", SC_SOURCE_PREFIX, level ? level : "",
            level ? "/" : "", sc_params[param].name, kind);
    sc_xml_put_escaped(f, note);
    fputs("\"/>\n", f);
}

/* The source of parameter p at `at` as calibrate fitted it: measured, but
 * an o_s that rests on an assumed share of the ping-pong. */
static void write_fitted_source(FILE *f, const sc_generate_spec_t *spec, const sc_param_t *p,
                                int at)
{
    int assumed = spec->assumed_send_overhead && !strcmp(p->name, "send-overhead");
    write_source(f, (int)(p - sc_params), at, assumed ? "assumed" : "measured",
                 assumed ? spec->assumed_send_overhead : spec->measured);
}

int sc_generate_domain_prop(const sc_generate_spec_t *spec, int domain, const sc_param_t *p)
{
    if (!spec->domain_props[domain] || !sc_param_domain_own(p, sc_param_domain_at(domain)))
        return 0;
    sc_level_t level = *spec->domain_props[domain]; /* the accessor takes a writable level */
    return sc_param_piecewise(p, &level)->n > 0;
}

/* The parameter (its index) and level --set `set` changes, or -1. */
static int set_param_of(const char *set, int *at)
{
    *at = sc_generate_set_level(set);
    const char *dot = strchr(set, '.');
    if (*at < 0 || !dot)
        return -1;
    const sc_param_t *p = sc_param_find(dot + 1, strcspn(dot + 1, "="), (sc_param_at_t)*at);
    return p ? (int)(p - sc_params) : -1;
}

/* Whether calibrate fitted parameter p of the fitted level: those it has
 * a fit of (models/params.c), and the latency factor it fits on request. */
static int fitted(const sc_generate_spec_t *spec, const sc_param_t *p, int at)
{
    if (!spec->level || !spec->measured || at != (int)spec->level_id || !(p->at & SC_AT(at)) ||
        p->constant_of || !(p->fit_name || !strcmp(p->name, "latency-factor")) ||
        (spec->kept_params >> (p - sc_params) & 1))
        return 0;
    /* a value the fit gave: none is the template's default, not a fit */
    sc_level_t level = *spec->level;
    switch (p->kind) {
    case SC_PARAM_PIECEWISE_TIME:
    case SC_PARAM_PIECEWISE_FACTOR: return sc_param_piecewise(p, &level)->n > 0;
    case SC_PARAM_SIZE: return *sc_param_size(p, &level) > 0;
    default: return *sc_param_double(p, &level) > 0;
    }
}

void sc_generate_write_sources(FILE *f, const sc_param_source_t *net_sources, int nnet_sources,
                               const sc_platform_t *plat, const sc_generate_spec_t *spec)
{
    int set_param[64], set_at[64];
    int nsets = spec->nsets < 64 ? spec->nsets : 64;
    for (int i = 0; i < nsets; i++)
        set_param[i] = set_param_of(spec->sets[i], &set_at[i]);
    for (int i = 0; i < plat->nsources; i++) {
        const sc_param_source_t *s = &plat->sources[i];
        int replaced = (spec->net && s->at == SC_AT_INTER) ||
                       fitted(spec, &sc_params[s->param], s->at);
        for (int k = 0; k < nsets; k++)
            replaced |= set_param[k] == s->param && set_at[k] == s->at;
        if (!replaced)
            write_source(f, s->param, s->at, sc_source_kind_name(s->kind), s->note);
    }
    for (int i = 0; spec->net && i < nnet_sources; i++) {
        const sc_param_source_t *s = &net_sources[i];
        int replaced = s->at != SC_AT_INTER;
        for (int k = 0; k < nsets; k++)
            replaced |= set_param[k] == s->param && set_at[k] == s->at;
        if (!replaced)
            write_source(f, s->param, s->at, sc_source_kind_name(s->kind), s->note);
    }
    for (int i = 0; spec->level && spec->measured && sc_params[i].name; i++)
        if (fitted(spec, &sc_params[i], (int)spec->level_id))
            write_fitted_source(f, spec, &sc_params[i], (int)spec->level_id);
    for (int d = SC_NDOMAIN_KINDS - 1; d >= 0 && spec->measured; d--)
        for (const sc_param_t *p = sc_params; p->name; p++)
            if (sc_generate_domain_prop(spec, d, p))
                write_fitted_source(f, spec, p, sc_param_domain_at(d));
    for (int k = 0; k < nsets; k++) {
        if (set_param[k] < 0)
            continue;
        if (spec->measured && !spec->level) {
            write_source(f, set_param[k], set_at[k], "measured", spec->measured);
            continue;
        }
        char note[1100];
        snprintf(note, sizeof note, "--set %s", spec->sets[k]);
        write_source(f, set_param[k], set_at[k], "set", note);
    }
}
