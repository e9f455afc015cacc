/* --sensitivity: the elasticity of a run's time to each platform parameter.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sensitivity.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/sc_units.h"
#include "models/params.h"
#include "sim/simgrid/engine.h"

/* The relative change each side of the platform's value. */
#define STEP 0.01

/* The levels a parameter is scaled at, in the order the table prints. */
static const sc_param_at_t levels[] = {SC_AT_INTRA,  SC_AT_CCX,   SC_AT_NUMA,
                                       SC_AT_SOCKET, SC_AT_INTER, SC_AT_RACK};

/* The sc_level_t that holds p's value at `at` on plat (rack: the first
 * grouping's routes), or NULL if plat has no such level. */
static const sc_level_t *level_of(const sc_platform_t *plat, sc_param_at_t at)
{
    switch (at) {
    case SC_AT_INTRA: return &plat->level[SC_LEVEL_INTRA];
    case SC_AT_INTER: return &plat->level[SC_LEVEL_INTER];
    case SC_AT_SOCKET:
    case SC_AT_NUMA:
    case SC_AT_CCX: {
        sc_domain_kind_t kind = (sc_domain_kind_t)sc_param_at_domain(at);
        return plat->domain_count[kind] > 1 ? &plat->between_domains[kind] : NULL;
    }
    case SC_AT_RACK: return plat->ngroupings ? &plat->between_groups[0] : NULL;
    default: return NULL;
    }
}

/* p's value at `at` for a message of `bytes`, written in `text`; 0 if the
 * platform does not have it there or it is 0 (nothing to scale). */
static int value_text(const sc_param_t *p, const sc_level_t *lv, size_t bytes, char *text,
                      size_t len)
{
    if (p->in != SC_IN_LEVEL)
        return 0;
    void *owner = (void *)lv;
    switch (p->kind) {
    case SC_PARAM_PIECEWISE_TIME: {
        const sc_piecewise_t *f = sc_param_piecewise(p, owner);
        double v = sc_piecewise_at(f, bytes, 0);
        if (f->n == 0 || v <= 0)
            return 0;
        sc_format_quantity(v, SC_QTY_TIME, text, len);
        return 1;
    }
    case SC_PARAM_SIZE: {
        size_t v = *sc_param_size(p, owner);
        sc_format_bytes((double)v, text, len);
        return v > 0;
    }
    case SC_PARAM_DURATION:
    case SC_PARAM_BANDWIDTH: {
        double v = *sc_param_double(p, owner);
        sc_format_quantity(v, sc_param_quantity(p), text, len);
        return v > 0 && isfinite(v);
    }
    default:
        return 0; /* factors and speeds: not scaled here */
    }
}

/* The run on the platform with p at `at` times `factor`. */
static sc_err_t run_scaled(const char *path, const sc_run_spec_t *spec, const sc_param_t *p,
                           sc_param_at_t at, double factor, sc_run_result_t *res)
{
    sc_scaling_t scaling = {p, at, factor};
    sc_platform_t plat;
    sc_err_t err = sc_platform_load_scaled("--platform", path, &scaling, 1, &plat);
    if (err)
        return err;
    sc_run_spec_t scaled = *spec;
    scaled.plat = &plat;
    err = sc_run(&scaled, res);
    sc_platform_destroy(&plat);
    return err;
}

/* What measures a level of domains inside a node: the ping-pong of its
 * own placement, which calibrate --level fits (sim/cli/calibrate.c,
 * domain_link). Printed as one line, the level's parameters in `shown`
 * (by index of sc_params) named first. */
static void print_domain_fit(FILE *out, const sc_platform_t *plat, sc_param_at_t at,
                             unsigned long long shown)
{
    int kind = sc_param_at_domain(at);
    const char *name = sc_domain_name((sc_domain_kind_t)kind);
    /* the domain the level's two domains share: the next larger present */
    const char *in = "node";
    for (int k = kind + 1; k < SC_NDOMAIN_KINDS; k++)
        if (plat->domain_count[k] > 1) {
            in = sc_domain_singular((sc_domain_kind_t)k);
            break;
        }
    int latency = 0, bandwidth = 0, first = 1;
    fprintf(out, "  ");
    for (int i = 0; sc_params[i].name; i++)
        if (shown & (1ull << i)) {
            fprintf(out, "%s%s.%s", first ? "" : ", ", name, sc_params[i].name);
            latency |= !strcmp(sc_params[i].name, "latency");
            bandwidth |= !strcmp(sc_params[i].name, "bandwidth");
            first = 0;
        }
    fprintf(out, ": a ping-pong (osu_latency) between two cores on two %s of one %s, fitted by "
                 "simcoll calibrate --level %s --domains N: ",
            sc_domain_plural((sc_domain_kind_t)kind), in, name);
    if (latency)
        fprintf(out, "the latency its intercept below the first breakpoint adds to shared "
                     "memory's (less o_s, o_r and the header's time)%s",
                bandwidth ? "; " : "");
    if (bandwidth)
        fprintf(out, "the bandwidth 1 / its fastest slope (its slopes against that: the "
                     "level's flow factor)");
    fprintf(out, "\n");
}

static double elasticity(double up, double down, double base)
{
    return base > 0 ? (up - down) / (2 * STEP * base) : NAN;
}

sc_err_t sc_sensitivity_print(FILE *out, const char *path, const sc_run_spec_t *spec,
                              const sc_run_result_t *base)
{
    char t[64];
    sc_format_duration(base->sim_time_s, t, sizeof t);
    fprintf(out, "sensitivity of the simulated time (%s) to each parameter, changed by "
                 "+-%g%% (elasticity: the time's relative change over the parameter's)\n",
            t, 100 * STEP);
    fprintf(out, "%-30s %-14s %12s %12s\n", "parameter", "value", "sim_time_s", "mean_rank");
    sc_err_t err = SC_OK;
    unsigned long long shown = 0; /* the parameters (by index) listed below */
    /* those listed at a level of domains, which their own placement measures */
    unsigned long long shown_at[sizeof levels / sizeof levels[0]] = {0};
    int routes = 0;               /* rows of domains' links or rack. */
    for (size_t l = 0; l < sizeof levels / sizeof levels[0] && !err; l++) {
        const sc_level_t *lv = level_of(spec->plat, levels[l]);
        for (int i = 0; lv && sc_params[i].name && !err; i++) {
            const sc_param_t *p = &sc_params[i];
            char value[64], name[64];
            if (!(p->at & SC_AT(levels[l])) || p->constant_of ||
                !value_text(p, lv, spec->bytes, value, sizeof value))
                continue;
            sc_run_result_t up, down;
            if ((err = run_scaled(path, spec, p, levels[l], 1 + STEP, &up)))
                break;
            if (!(err = run_scaled(path, spec, p, levels[l], 1 - STEP, &down))) {
                snprintf(name, sizeof name, "%s.%s", sc_param_at_name(levels[l]), p->name);
                fprintf(
                    out, "%-30s %-14s %12.3f %12.3f\n", name, value,
                    elasticity(up.sim_time_s, down.sim_time_s, base->sim_time_s),
                    elasticity(up.mean_rank_time_s, down.mean_rank_time_s, base->mean_rank_time_s));
                if (sc_param_at_domain(levels[l]) >= 0)
                    shown_at[l] |= 1ull << i; /* its own placement measures it */
                else
                    shown |= 1ull << i;
                routes |= levels[l] != SC_AT_INTRA && levels[l] != SC_AT_INTER;
                sc_run_result_destroy(&down);
            }
            sc_run_result_destroy(&up);
        }
    }
    if (err)
        return err;
    if (routes)
        fprintf(out, "(socket., numa., ccx. and rack. change the links between a node's "
                     "sockets, NUMA domains or CCXs and the racks' uplinks; the value shown is "
                     "their routes', memory buses or NIC links included)\n");
    fprintf(out, "what measures each (simcoll calibrate fits it so):\n");
    for (int i = 0; sc_params[i].name; i++)
        if (shown & (1ull << i))
            fprintf(out, "  %s: %s\n", sc_params[i].name,
                    sc_params[i].fit ? sc_params[i].fit
                                     : "not fitted: the template's, or --eager-limit's");
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++)
        if (shown_at[l])
            print_domain_fit(out, spec->plat, levels[l], shown_at[l]);
    return SC_OK;
}

sc_err_t sc_ranges_print(FILE *out, const char *path, const sc_run_spec_t *spec,
                         const sc_run_result_t *mid)
{
    const sc_platform_t *plat = spec->plat;
    int n = plat->nranges;
    if (n == 0)
        return SC_OK;
    sc_scaling_t scalings[SC_MAX_RANGES];
    double lo = INFINITY, hi = -INFINITY, mean_lo = INFINITY, mean_hi = -INFINITY;
    sc_err_t err = SC_OK;
    for (int corner = 0; corner < 1 << n && !err; corner++) {
        for (int i = 0; i < n; i++) {
            const sc_range_t *r = &plat->ranges[i];
            double end = corner & (1 << i) ? r->hi : r->lo;
            scalings[i] = (sc_scaling_t){&sc_params[r->param], (sc_param_at_t)r->at,
                                         end / r->mid};
        }
        sc_platform_t at_corner;
        sc_run_result_t res;
        if ((err = sc_platform_load_scaled("--platform", path, scalings, n, &at_corner)))
            break;
        sc_run_spec_t run = *spec;
        run.plat = &at_corner;
        if (!(err = sc_run(&run, &res))) {
            lo = fmin(lo, res.sim_time_s);
            hi = fmax(hi, res.sim_time_s);
            mean_lo = fmin(mean_lo, res.mean_rank_time_s);
            mean_hi = fmax(mean_hi, res.mean_rank_time_s);
            sc_run_result_destroy(&res);
        }
        sc_platform_destroy(&at_corner);
    }
    if (err)
        return err;
    char t[4][64], m[64];
    sc_format_duration(lo, t[0], sizeof t[0]);
    sc_format_duration(hi, t[1], sizeof t[1]);
    sc_format_duration(mean_lo, t[2], sizeof t[2]);
    sc_format_duration(mean_hi, t[3], sizeof t[3]);
    sc_format_duration(mid->sim_time_s, m, sizeof m);
    if (spec->program)
        fprintf(out, "%s np %d: ", spec->program->path, spec->np);
    else
        fprintf(out, "%s np %d, %zu bytes: ", spec->algo->name, spec->np, spec->bytes);
    fprintf(out, "over the %d corners of ", 1 << n);
    for (int i = 0; i < n; i++) {
        const sc_range_t *r = &plat->ranges[i];
        const sc_param_t *p = &sc_params[r->param];
        char a[64], b[64];
        if (p->kind == SC_PARAM_SIZE) {
            sc_format_bytes(r->lo, a, sizeof a);
            sc_format_bytes(r->hi, b, sizeof b);
        } else if (p->kind == SC_PARAM_BANDWIDTH) {
            sc_format_quantity(r->lo, SC_QTY_BANDWIDTH, a, sizeof a);
            sc_format_quantity(r->hi, SC_QTY_BANDWIDTH, b, sizeof b);
        } else {
            sc_format_duration(r->lo, a, sizeof a);
            sc_format_duration(r->hi, b, sizeof b);
        }
        fprintf(out, "%s%s.%s %s..%s", i ? ", " : "", sc_param_at_name((sc_param_at_t)r->at),
                p->name, a, b);
    }
    fprintf(out, ", the simulated time is %s to %s (%s at their midpoints), the mean rank time "
                 "%s to %s\n",
            t[0], t[1], m, t[2], t[3]);
    return SC_OK;
}
