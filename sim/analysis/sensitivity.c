/* --sensitivity: the elasticity of a run's time to each platform parameter.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sensitivity.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/sc_units.h"
#include "models/params.h"
#include "sim/io/files.h"
#include "sim/io/platform_props.h"
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
    int latency = 0, bandwidth = 0, overhead = 0, first = 1;
    fprintf(out, "  ");
    for (int i = 0; sc_params[i].name; i++)
        if (shown & (1ull << i)) {
            fprintf(out, "%s%s.%s", first ? "" : ", ", name, sc_params[i].name);
            latency |= !strcmp(sc_params[i].name, "latency");
            bandwidth |= !strcmp(sc_params[i].name, "bandwidth");
            overhead |= sc_params[i].kind == SC_PARAM_PIECEWISE_TIME;
            first = 0;
        }
    fprintf(out, ": a ping-pong (osu_latency) between two cores on two %s of one %s, fitted by "
                 "simcoll calibrate --level %s --domains N: ",
            sc_domain_plural((sc_domain_kind_t)kind), in, name);
    if (latency)
        fprintf(out,
                "the latency its intercept below the first breakpoint adds to shared "
                "memory's (less o_s, o_r and the header's time)%s",
                bandwidth || overhead ? "; " : "");
    if (bandwidth)
        fprintf(out,
                "the bandwidth 1 / its fastest slope (its slopes against that: the "
                "level's flow factor)%s",
                overhead ? "; " : "");
    if (overhead)
        fprintf(out, "the overheads simcoll-probe's send- and receive-overhead series of that "
                     "placement, else o_s the sender's share of the ping-pong "
                     "(--sender-share)");
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

/* p at `at`'s value on plat for a message of `bytes`, written in text; 0
 * if the parameter cannot be rerun scaled there, or is 0. */
static int assumed_value(const sc_platform_t *plat, const sc_param_t *p, sc_param_at_t at,
                         size_t bytes, char *text, size_t len)
{
    if (p->constant_of)
        return 0;
    if (p->in == SC_IN_PLATFORM) {
        sc_format_bytes((double)plat->header_bytes, text, len);
        return p->kind == SC_PARAM_SIZE && plat->header_bytes > 0;
    }
    const sc_level_t *lv = level_of(plat, at);
    if (!lv)
        return 0;
    /* a property's parameter scales on intra and inter only */
    if (p->carrier == SC_CARRIER_PROP && at != SC_AT_INTRA && at != SC_AT_INTER)
        return 0;
    return value_text(p, lv, bytes, text, len);
}

/* Whether the run sent messages where p at `at` acts. */
static int used(const sc_assumed_run_t *run, const sc_param_t *p, sc_param_at_t at)
{
    if (p->in == SC_IN_PLATFORM)
        return run->messages[SC_LEVEL_INTRA] + run->messages[SC_LEVEL_INTER] > 0;
    if (at == SC_AT_INTER || at == SC_AT_RACK)
        return run->messages[SC_LEVEL_INTER] > 0;
    return run->messages[SC_LEVEL_INTRA] > 0;
}

static sc_err_t rerun_spec(void *arg, const sc_platform_t *plat, double *seconds)
{
    sc_run_spec_t scaled = *(const sc_run_spec_t *)arg;
    scaled.plat = plat;
    sc_run_result_t res;
    sc_err_t err = sc_run(&scaled, &res);
    if (!err) {
        *seconds = res.sim_time_s;
        sc_run_result_destroy(&res);
    }
    return err;
}

sc_assumed_run_t sc_assumed_run_of(const char *path, const sc_run_spec_t *spec,
                                   const sc_run_result_t *base)
{
    return (sc_assumed_run_t){.plat = spec->plat,
                              .path = path,
                              .bytes = spec->bytes,
                              .messages = {base->messages[SC_LEVEL_INTRA],
                                           base->messages[SC_LEVEL_INTER]},
                              .seconds = base->sim_time_s,
                              .rerun = rerun_spec,
                              .arg = (void *)spec};
}

int sc_assumed_params(const sc_assumed_run_t *run, int *ids, int max)
{
    const sc_platform_t *plat = run->plat;
    int n = 0;
    char text[64];
    for (int i = 0; i < plat->nsources && n < max; i++) {
        const sc_param_source_t *s = &plat->sources[i];
        const sc_param_t *p = &sc_params[s->param];
        if ((s->kind == SC_SOURCE_ASSUMED || s->kind == SC_SOURCE_SET) &&
            assumed_value(plat, p, (sc_param_at_t)s->at, run->bytes, text, sizeof text) &&
            used(run, p, (sc_param_at_t)s->at))
            ids[n++] = i;
    }
    return n;
}

/* Whether a larger value of p can only slow a run (1: a latency, an
 * overhead, the header), only speed it (-1: a bandwidth), or either (0:
 * an eager limit, which trades copies against a handshake). */
static int slower_when_larger(const sc_param_t *p)
{
    switch (p->kind) {
    case SC_PARAM_BANDWIDTH:
        return -1;
    case SC_PARAM_DURATION:
    case SC_PARAM_PIECEWISE_TIME:
        return 1;
    case SC_PARAM_SIZE:
        return p->in == SC_IN_PLATFORM;
    default:
        return 0;
    }
}

/* The run's relative change with the sources ids[0..n) scaled together,
 * each to its slower side (slower = 1: (1 + STEP)x a latency, (1 - STEP)x
 * a bandwidth) or its faster side (slower = 0); an eager limit (no side)
 * at (1 + STEP)x when slower, else (1 - STEP)x. One rerun. */
static sc_err_t change_with(const sc_assumed_run_t *run, const int *ids, int n, int slower,
                            double *change)
{
    sc_scaling_t scalings[64];
    for (int i = 0; i < n; i++) {
        const sc_param_source_t *s = &run->plat->sources[ids[i]];
        const sc_param_t *p = &sc_params[s->param];
        int larger = slower_when_larger(p) < 0 ? !slower : slower;
        scalings[i] = (sc_scaling_t){p, (sc_param_at_t)s->at,
                                     larger ? 1 + SC_ASSUMED_STEP : 1 - SC_ASSUMED_STEP};
    }
    sc_platform_t plat;
    double seconds = 0;
    sc_err_t err = sc_platform_load_scaled("--platform", run->path, scalings, n, &plat);
    if (err)
        return err;
    err = run->rerun(run->arg, &plat, &seconds);
    sc_platform_destroy(&plat);
    *change = run->seconds > 0 ? (seconds - run->seconds) / run->seconds : 0;
    return err;
}

/* The effect of source `id` on the run: one rerun at its slower side, or
 * two for a parameter without one, the side that moves it more kept. */
static sc_err_t effect_of(const sc_assumed_run_t *run, int id, sc_assumed_effect_t *effect)
{
    const sc_param_source_t *s = &run->plat->sources[id];
    int sign = slower_when_larger(&sc_params[s->param]);
    *effect = (sc_assumed_effect_t){s->param, s->at, sign < 0 ? 1 - SC_ASSUMED_STEP
                                                              : 1 + SC_ASSUMED_STEP, 0};
    sc_err_t err = change_with(run, &id, 1, 1, &effect->change);
    double smaller;
    if (!err && sign == 0 && !(err = change_with(run, &id, 1, 0, &smaller)) &&
        fabs(smaller) > fabs(effect->change))
        effect->factor = 1 - SC_ASSUMED_STEP, effect->change = smaller;
    return err;
}

/* Whether a note of this process names `name` already: sc_assumed_found
 * holds each as "NAME at ..." (a name followed by a space, so that one
 * name is not taken for another it begins). */
static int noted(const char *name)
{
    size_t len = strlen(name);
    for (const char *at = sc_assumed_found; (at = strstr(at, name)); at += len)
        if (at[len] == ' ' && (at == sc_assumed_found || at[-1] == ' '))
            return 1;
    return 0;
}

int sc_assumed_print(FILE *out, const sc_platform_t *plat, size_t bytes, const char *what,
                     const sc_assumed_effect_t *effect)
{
    if (!(fabs(effect->change) > SC_ASSUMED_THRESHOLD))
        return 0;
    const sc_param_source_t *s = sc_platform_source(plat, effect->param, effect->at);
    int set = s && s->kind == SC_SOURCE_SET;
    char name[96], value[64];
    sc_param_source_name(effect->param, effect->at, name, sizeof name);
    assumed_value(plat, &sc_params[effect->param], (sc_param_at_t)effect->at, bytes, value,
                  sizeof value);
    fprintf(out, "note: %s rests on assumed %s (%s, %s%s%s): at %gx it moves by %+.0f%%\n",
            what ? what : "this result", name, value, set ? "" : "from ",
            s && *s->note ? s->note : "a placeholder", set ? ", this what-if's own" : "",
            effect->factor, 100 * effect->change);
    size_t used_len = strlen(sc_assumed_found);
    if (!noted(name))
        snprintf(sc_assumed_found + used_len, sizeof sc_assumed_found - used_len,
                 "%s%s at %gx %+.0f%%", used_len ? "; " : "", name, effect->factor,
                 100 * effect->change);
    return 1;
}

int sc_assumed_skip;
char sc_assumed_found[1024];
int sc_assumed_unchecked;

/* The order the check takes a run's assumed parameters in when it cannot
 * take them all: bandwidths, overheads, latencies, the rest. */
static int priority(const sc_param_t *p)
{
    return p->kind == SC_PARAM_BANDWIDTH        ? 0
           : p->kind == SC_PARAM_PIECEWISE_TIME ? 1
           : p->kind == SC_PARAM_DURATION       ? 2
                                                : 3;
}

sc_err_t sc_assumed_check(FILE *out, const sc_assumed_run_t *run, const char *what,
                          sc_assumed_budget_t *b)
{
    int ids[64], order[64], k = 0;
    b->runs++;
    int n = sc_assumed_params(run, ids, 64);
    if (n == 0)
        return SC_OK;
    if (sc_assumed_skip ||
        run->messages[SC_LEVEL_INTRA] + run->messages[SC_LEVEL_INTER] > SC_ASSUMED_MAX_MESSAGES) {
        b->unchecked++;
        return SC_OK;
    }
    /* The results are out before the reruns start (each forks, flushing
     * stdout): a stdout that cannot take them fails here, saying why. */
    sc_err_t err = sc_stdout_finish();
    /* One rerun with every parameter that has a side at its slower side.
     * As the run's time is a sum of terms each growing with a latency or
     * an overhead or with the inverse of a bandwidth, no one of them moves
     * it further, on either side, than all of them on their slower sides:
     * if this stays within the threshold, so does each. */
    int sided[64], nsided = 0;
    for (int i = 0; i < n; i++)
        if (slower_when_larger(&sc_params[run->plat->sources[ids[i]].param]))
            sided[nsided++] = ids[i];
    double together = 0;
    if (nsided && !err)
        err = change_with(run, sided, nsided, 1, &together);
    int moved = fabs(together) > SC_ASSUMED_THRESHOLD;
    if (moved) {
        b->moved++;
        b->most = fmax(b->most, together);
    }
    if (nsided == 1 && !err) {
        /* the rerun was that parameter's own */
        const sc_param_source_t *s = &run->plat->sources[sided[0]];
        sc_assumed_effect_t effect = {s->param, s->at, 0, together};
        effect.factor = slower_when_larger(&sc_params[s->param]) < 0 ? 1 - SC_ASSUMED_STEP
                                                                     : 1 + SC_ASSUMED_STEP;
        sc_assumed_print(out, run->plat, run->bytes, what, &effect);
        moved = 0;
    }
    /* Which of them, when it moved: those no note names yet, within the
     * reruns left; an eager limit, which has no slower side, always. */
    for (int level = 0; level < 4; level++)
        for (int i = 0; i < n; i++) {
            const sc_param_t *p = &sc_params[run->plat->sources[ids[i]].param];
            if (priority(p) == level && (moved || !slower_when_larger(p)))
                order[k++] = ids[i];
        }
    int told = 0;          /* a note names one of them */
    double left = together; /* of the move, what the ones tried leave */
    for (int i = 0; i < k && !err; i++) {
        const sc_param_source_t *s = &run->plat->sources[order[i]];
        int sided_param = slower_when_larger(&sc_params[s->param]) != 0;
        /* The moves add up as the terms of the time do: once those tried
         * leave 10% or less of it, none of the others moves it more. */
        if (sided_param && fabs(left) <= SC_ASSUMED_THRESHOLD)
            continue;
        char name[96];
        sc_param_source_name(s->param, s->at, name, sizeof name);
        if (noted(name)) {
            told = 1;
            continue;
        }
        int cost = sided_param ? 1 : 2;
        if (b->reruns + cost > SC_ASSUMED_RERUNS)
            break;
        sc_assumed_effect_t effect;
        err = effect_of(run, order[i], &effect);
        b->reruns += cost;
        if (!err && sided_param)
            left -= effect.change;
        if (!err)
            told |= sc_assumed_print(out, run->plat, run->bytes, what, &effect);
    }
    b->untold += moved && !told;
    return err;
}

void sc_assumed_print_unchecked(FILE *out, const sc_assumed_budget_t *b)
{
    sc_assumed_unchecked += b->unchecked;
    if (sc_assumed_skip)
        return;
    if (b->untold)
        fprintf(out,
                "note: %d of %d runs move by more than %.0f%% (up to %+.0f%%) with every "
                "assumed parameter they use at its slower side (%gx a bandwidth, %gx a latency "
                "or overhead), %d of them with none of those parameters named above (the check "
                "reruns %d times a command to single them out; --sensitivity on one run shows "
                "every parameter's effect)\n",
                b->moved, b->runs, 100 * SC_ASSUMED_THRESHOLD, 100 * b->most,
                1 - SC_ASSUMED_STEP, 1 + SC_ASSUMED_STEP, b->untold, SC_ASSUMED_RERUNS);
    if (b->unchecked)
        fprintf(out,
                "note: %d of %d runs not checked against the assumed parameters they use "
                "(runs of more than %ld messages; --sensitivity on one run shows every "
                "parameter's effect)\n",
                b->unchecked, b->runs, SC_ASSUMED_MAX_MESSAGES);
}
