/* Protocol switches from a probe's series (switches.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "switches.h"

#include <math.h>

/* An overhead that grows more than threefold when the size doubles, by
 * more than timer noise, has started moving the data (a copy grows
 * twofold at most). */
#define JUMP_RATIO 3.0
#define JUMP_SECONDS 1e-7
/* A one-way time that grows more than the size did is a step (the time's
 * fixed part makes it grow less otherwise); one that falls by a quarter is
 * a faster protocol, not noise of a median. */
#define TIME_JUMP_RATIO 2.0
#define TIME_FALL_RATIO 0.75
#define SMALLEST 64

/* Whether series s jumped between sizes k - 1 and k and stayed up at the
 * next size: past a protocol switch the call goes on moving the data,
 * while a loaded core's delay of one size falls back at the next (a
 * send overhead of 70 ns, 210 ns, then 75 ns on this project's shared
 * 2-core machine). */
static int jumped(const double *s, int k, int n)
{
    double before = s[k - 1];
    return s[k] > JUMP_RATIO * before && s[k] - before > JUMP_SECONDS &&
           (k + 1 == n || s[k + 1] > JUMP_RATIO * before);
}

int probe_switches_find(const long *sizes, const double *const series[PROBE_NSERIES], int n,
                        probe_switch_t *out, int most)
{
    int found = 0;
    for (int k = 1; k < n && found < most; k++) {
        if (sizes[k] < SMALLEST)
            continue;
        const double *lat = series[PROBE_LATENCY];
        probe_switch_t s = {.at = k, .last = sizes[k - 1]};
        if (jumped(series[PROBE_RECV], k, n))
            s.sign = PROBE_RECV_JUMP, s.series = PROBE_RECV;
        else if (jumped(series[PROBE_SEND], k, n))
            s.sign = PROBE_SEND_JUMP, s.series = PROBE_SEND;
        else if (lat[k] < TIME_FALL_RATIO * lat[k - 1])
            s.sign = PROBE_TIME_FALL, s.series = PROBE_LATENCY;
        else if (lat[k] > TIME_JUMP_RATIO * lat[k - 1])
            s.sign = PROBE_TIME_JUMP, s.series = PROBE_LATENCY;
        else
            continue;
        s.before = series[s.series][k - 1];
        s.after = series[s.series][k];
        out[found++] = s;
    }
    return found;
}

void probe_switch_locate(probe_switch_t *s, const long *more, const double *values, int m)
{
    double middle =
        s->before > 0 && s->after > 0 ? sqrt(s->before * s->after) : (s->before + s->after) / 2;
    int falls = s->after < s->before;
    for (int j = 0; j < m; j++) {
        if (falls ? values[j] < middle : values[j] > middle)
            return;
        s->last = more[j];
    }
}

int probe_switch_is_eager(const probe_switch_t *s)
{
    return s->sign == PROBE_RECV_JUMP || s->sign == PROBE_SEND_JUMP;
}
