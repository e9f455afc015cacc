/* Fuzz target: the benchmark-output reader. The input is the file, read
 * with the format found from its content and with each format forced, and
 * as the header of a simcoll-probe file (sim/io/probe_cluster.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/io/measurements.h"
#include "sim/io/probe_cluster.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What was accepted must be usable as it is: at least one point a series,
 * every number finite and non-negative (value2 may be NAN), lines in the
 * file, strings terminated; pairs for message rates (osu_mbw_mr), and
 * otherwise only for bandwidths (IMB's Uniband and Biband: np/2); a
 * collective named for collectives and calls, a call's ping-pong beside
 * it (value2) on the intra placement's two ranks. */
static void check(const sc_series_t *series, int n, size_t size)
{
    if (n < 1 || !series)
        abort();
    for (int i = 0; i < n; i++) {
        const sc_series_t *s = &series[i];
        if (!s->path || !s->source || s->npoints < 1 || !s->points || s->np < 0 || s->pairs < 0 ||
            (int)s->kind < (int)SC_MEASURE_LATENCY || (int)s->kind > (int)SC_MEASURE_CALL ||
            !memchr(s->collective, '\0', sizeof s->collective) ||
            (s->kind == SC_MEASURE_COLLECTIVE || s->kind == SC_MEASURE_CALL) !=
                (s->collective[0] != '\0') ||
            (s->kind == SC_MEASURE_CALL && (s->np != 2 || strcmp(s->placement, "intra"))) ||
            (s->kind == SC_MEASURE_MESSAGE_RATE && s->pairs < 1) ||
            (s->pairs > 0 && s->kind != SC_MEASURE_MESSAGE_RATE &&
             s->kind != SC_MEASURE_BANDWIDTH && s->kind != SC_MEASURE_BIBANDWIDTH))
            abort();
        for (int k = 0; k < s->npoints; k++) {
            const sc_point_t *p = &s->points[k];
            if (!isfinite(p->value) || p->value < 0 || signbit(p->value) ||
                (s->kind == SC_MEASURE_CALL && isnan(p->value2)) ||
                (!isnan(p->value2) && (!isfinite(p->value2) || p->value2 < 0)) || p->line < 1 ||
                (size_t)p->line > size + 1)
                abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const sc_measure_format_t formats[] = {SC_MEASURE_FORMAT_AUTO, SC_MEASURE_FORMAT_OSU,
                                                  SC_MEASURE_FORMAT_IMB, SC_MEASURE_FORMAT_NETPIPE,
                                                  SC_MEASURE_FORMAT_SMPI};
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        sc_series_t *series = NULL;
        int n = 0;
        sc_err_t err = sc_measurements_parse("--fuzz", "fuzz.txt", (const char *)data, size,
                                             formats[f], &series, &n);
        if (err == SC_OK)
            check(series, n, size);
        else if (err != SC_ERR_INPUT || series || n)
            abort(); /* out of memory is not expected on small inputs */
        sc_series_destroy(series, n);
    }
    sc_probe_cluster_t cluster;
    sc_err_t err = sc_probe_cluster_parse("--fuzz", "fuzz.txt", (const char *)data, size, &cluster);
    if (err == SC_OK) {
        char text[2048];
        sc_probe_cluster_shared_cores(&cluster, text, sizeof text);
        sc_probe_cluster_name(&cluster, text, sizeof text);
        if (!text[0])
            abort();
    } else if (err != SC_ERR_INPUT || cluster.ranks || cluster.hosts || cluster.switches) {
        abort();
    }
    sc_probe_cluster_destroy(&cluster);
    return 0;
}
