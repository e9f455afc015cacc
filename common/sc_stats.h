/* Order statistics of measured samples.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_STATS_H
#define SC_STATS_H

/* The median of v[0 .. n), n > 0, which it sorts in place. */
double sc_median_sorting(double *v, int n);

#endif
