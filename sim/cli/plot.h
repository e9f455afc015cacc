/* simcoll plot: a CSV simcoll writes drawn with gnuplot (gnuplot.h runs
 * it, for tune's --plot too).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_PLOT_H
#define SC_CLI_PLOT_H

/* simcoll plot CSV -x COL -y COL [--by COL] [--where COL=VALUE]... -o OUT */
int sc_cli_plot(int argc, char **argv);

#endif
