/* Which ranks hold a deciding value.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "deciders.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static sc_err_t bad(const char *text, const char *why)
{
    return sc_error(SC_ERR_INPUT,
                    "--data decider=%s: %s; use none, first, last, middle, a rank (5), ranks "
                    "joined by '+' (0+5+63) or a fraction of the ranks (0.01, 1.0)",
                    text, why);
}

sc_err_t sc_deciders_parse(const char *text, sc_deciders_t *out)
{
    *out = (sc_deciders_t){.kind = SC_DECIDERS_RANKS};
    if (strcmp(text, "none") == 0)
        return SC_OK;
    if (strchr(text, '.')) {
        char *end;
        errno = 0;
        double f = strtod(text, &end);
        if (errno || end == text || *end || !(f >= 0 && f <= 1))
            return bad(text, "a fraction is a number from 0 to 1");
        out->kind = SC_DECIDERS_FRACTION;
        out->fraction = f;
        return SC_OK;
    }
    const char *s = text;
    while (*s) {
        if (out->nranks == SC_DECIDERS_MAX)
            return bad(text, "more than 16 ranks");
        size_t len = strcspn(s, "+");
        int rank;
        if (len == 5 && strncmp(s, "first", 5) == 0) {
            rank = 0;
        } else if (len == 4 && strncmp(s, "last", 4) == 0) {
            rank = SC_DECIDER_LAST;
        } else if (len == 6 && strncmp(s, "middle", 6) == 0) {
            rank = SC_DECIDER_MIDDLE;
        } else {
            char *end;
            errno = 0;
            long v = strtol(s, &end, 10);
            if (errno || end != s + len || len == 0 || *s == '+' || *s == '-' || v > INT32_MAX)
                return bad(text, "not a rank");
            rank = (int)v;
        }
        out->ranks[out->nranks++] = rank;
        s += len;
        if (*s == '+' && !*++s)
            return bad(text, "nothing after '+'");
    }
    if (out->nranks == 0)
        return bad(text, "empty");
    return SC_OK;
}

sc_err_t sc_deciders_check(const sc_deciders_t *d, int p)
{
    for (int i = 0; d->kind == SC_DECIDERS_RANKS && i < d->nranks; i++)
        if (d->ranks[i] >= p)
            return sc_error(SC_ERR_INPUT,
                            "--data decider: rank %d does not exist with %d processes (ranks "
                            "are 0..%d)",
                            d->ranks[i], p, p - 1);
    return SC_OK;
}

/* 32 well-mixed bits of (rank, seed) (MurmurHash3's finalizer). */
static uint32_t mix(int rank, unsigned long seed)
{
    uint32_t h = (uint32_t)(rank + 1) * 0x9e3779b1u ^ (uint32_t)(seed + 1) * 0x85ebca77u;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    return h ^ (h >> 16);
}

int sc_deciders_has(const sc_deciders_t *d, int rank, int p, unsigned long seed)
{
    if (d->kind == SC_DECIDERS_FRACTION)
        return (double)mix(rank, seed) < d->fraction * 4294967296.0;
    for (int i = 0; i < d->nranks; i++) {
        int r = d->ranks[i] == SC_DECIDER_LAST     ? p - 1
                : d->ranks[i] == SC_DECIDER_MIDDLE ? p / 2
                                                   : d->ranks[i];
        if (r == rank)
            return 1;
    }
    return 0;
}

sc_err_t sc_extreme_parse(const char *text, sc_extreme_t *out)
{
    *out = (sc_extreme_t){0, 0};
    char rank[32];
    const char *slash = strchr(text, '/');
    size_t len = slash ? (size_t)(slash - text) : strlen(text);
    sc_deciders_t one;
    snprintf(rank, sizeof rank, "%.*s", (int)(len < sizeof rank ? len : 0), text);
    if (len == 0 || len >= sizeof rank || strchr(rank, '.') || strchr(rank, '+') ||
        sc_deciders_parse(rank, &one) != SC_OK || one.nranks != 1)
        return sc_error(SC_ERR_INPUT,
                        "--data extreme=%s: give the rank that holds it (first, last, middle or "
                        "a number) and, after '/', how likely it moves each call (0 to 1): "
                        "extreme=5 or extreme=first/0.1",
                        text);
    out->rank = one.ranks[0];
    if (slash) {
        char *end;
        errno = 0;
        out->move = strtod(slash + 1, &end);
        if (errno || end == slash + 1 || *end || !(out->move >= 0 && out->move <= 1))
            return sc_error(SC_ERR_INPUT,
                            "--data extreme=%s: '%s' is not a probability from 0 to 1", text,
                            slash + 1);
    }
    return SC_OK;
}

sc_err_t sc_extreme_check(const sc_extreme_t *e, int p)
{
    if (e->rank >= p)
        return sc_error(SC_ERR_INPUT,
                        "--data extreme: rank %d does not exist with %d processes (ranks are "
                        "0..%d)",
                        e->rank, p, p - 1);
    return SC_OK;
}

int sc_extreme_holder(const sc_extreme_t *e, int p, unsigned long seed)
{
    int holder = e->rank == SC_DECIDER_LAST     ? p - 1
                 : e->rank == SC_DECIDER_MIDDLE ? p / 2
                                                : e->rank;
    /* Calls go forward: remember where the last question left off. */
    static const sc_extreme_t *last_e;
    static int last_p, last_holder;
    static unsigned long last_seed;
    unsigned long from = 1;
    if (last_e == e && last_p == p && last_seed <= seed) {
        from = last_seed + 1;
        holder = last_holder;
    }
    for (unsigned long k = from; k <= seed && e->move > 0; k++)
        if ((double)mix(-1, k) < e->move * 4294967296.0)
            holder = (int)(mix(-2, k) % (uint32_t)p);
    last_e = e;
    last_p = p;
    last_seed = seed;
    last_holder = holder;
    return holder;
}
