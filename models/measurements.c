/* Measurements of real machines: their lifetime.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "measurements.h"

#include <stdlib.h>
#include <string.h>

void sc_series_free(sc_series_t *series)
{
    free(series->path);
    free(series->source);
    free(series->points);
    memset(series, 0, sizeof *series);
}

void sc_series_destroy(sc_series_t *series, int n)
{
    for (int i = 0; series && i < n; i++)
        sc_series_free(&series[i]);
    free(series);
}
