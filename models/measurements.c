/* Measurements of real machines: their lifetime.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "measurements.h"

#include <stdlib.h>

void sc_series_destroy(sc_series_t *series, int n)
{
    for (int i = 0; series && i < n; i++) {
        free(series[i].path);
        free(series[i].source);
        free(series[i].points);
    }
    free(series);
}
