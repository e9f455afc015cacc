/* NetPIPE 3.x np.out: "%8d %lf %12.8lf", bytes, Mbps, one-way seconds,
 * where Mbps = 8 bytes / (seconds * 2^20).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "reader.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Half the last printed digit of tok: the rounding of a printed number. */
static double printed_rounding(const char *tok)
{
    const char *dot = strchr(tok, '.'), *e = strpbrk(tok, "eE");
    int decimals = 0;
    if (dot)
        for (const char *p = dot + 1; isdigit((unsigned char)*p); p++)
            decimals++;
    long exp10 = e ? strtol(e + 1, NULL, 10) : 0;
    if (exp10 > 400)
        exp10 = 400;
    if (exp10 < -400)
        exp10 = -400;
    return 0.5 * pow(10.0, (double)(exp10 - decimals));
}

/* Whether Mbps is 8 bytes / seconds in megabits (2^20 as NetPIPE 3 has it,
 * or 1e6), up to the rounding of the printed numbers. A check that three
 * numbers are NetPIPE's, not another benchmark's columns. */
static int netpipe_consistent(const char *mbps_tok, size_t bytes, double mbps, const char *t_tok,
                              double t)
{
    double dm = printed_rounding(mbps_tok), dt = printed_rounding(t_tok);
    double bits = 8.0 * (double)bytes;
    static const double megabit[] = {1048576.0, 1e6};
    for (int i = 0; i < 2; i++) {
        double lo = bits / ((t + dt) * megabit[i]);
        double hi = t - dt > 0 ? bits / ((t - dt) * megabit[i]) : INFINITY;
        if (bytes == 0)
            lo = hi = 0;
        if (mbps + dm >= lo * (1 - 1e-9) && mbps - dm <= hi * (1 + 1e-9))
            return 1;
    }
    return 0;
}

sc_err_t sc_meas_netpipe_parse(sc_meas_reader_t *r)
{
    char *field[SC_MEAS_MAX_FIELDS + 1], shown[80], copy[SC_MEAS_LINE_MAX + 1];
    sc_err_t err = SC_OK;
    sc_meas_rewind(r);
    char *s;
    while (!err && (s = sc_meas_next_text(r, &err))) {
        if (*s == '#')
            continue;
        snprintf(copy, sizeof copy, "%s", s);
        int n = sc_meas_split(s, field);
        if (n != 3) {
            err = sc_error_at(r->where, r->line,
                              "'%s' has %d fields; expected NetPIPE's three: bytes Mbps "
                              "seconds",
                              sc_meas_show(copy, shown, sizeof shown), n);
            break;
        }
        size_t bytes;
        double mbps, t;
        if ((err = sc_meas_get_size(r, "bytes", field[0], &bytes)) ||
            (err = sc_meas_get_real(r, "Mbps", field[1], &mbps)) ||
            (err = sc_meas_get_real(r, "seconds", field[2], &t)))
            break;
        if (!netpipe_consistent(field[1], bytes, mbps, field[2], t)) {
            err = sc_error_at(r->where, r->line,
                              "'%s': %s Mbps is not 8 x %zu bytes in %s s; expected NetPIPE's "
                              "'bytes Mbps seconds', Mbps = 8 bytes / seconds / 2^20",
                              sc_meas_show(copy, shown, sizeof shown), field[1], bytes, field[2]);
            break;
        }
        if (r->open < 0 &&
            (err = sc_meas_series_open(r, copy, SC_MEASURE_LATENCY, "NetPIPE np.out", NULL, 0, 0)))
            break;
        err = sc_meas_point_add(r, bytes, t, NAN);
    }
    return err;
}

/* A NetPIPE row: three numbers, the second the bandwidth of the first two. */
int sc_meas_netpipe_row(char *line)
{
    char *field[SC_MEAS_MAX_FIELDS + 1];
    size_t bytes;
    double mbps, t;
    return sc_meas_split(line, field) == 3 &&
           sc_meas_parse_size(field[0], &bytes) == SC_MEAS_NUM_OK &&
           sc_meas_parse_real(field[1], &mbps) == SC_MEAS_NUM_OK &&
           sc_meas_parse_real(field[2], &t) == SC_MEAS_NUM_OK &&
           netpipe_consistent(field[1], bytes, mbps, field[2], t);
}
