/* Running gnuplot: a script drawn into a file, whole or not at all, for
 * `simcoll plot` and the plots of other commands (tune's --plot,
 * validate's, a run's timeline).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_GNUPLOT_H
#define SC_CLI_GNUPLOT_H

#include <stddef.h>

#include "common/sc_error.h"

/* Runs gnuplot on `script` (which must `set output` to stdout, i.e. with no
 * file) and writes what it draws to `path`, whole or not at all; a path
 * ending in .gp gets the script itself (for gnuplot OUT.gp > OUT.png, and
 * for the tests to read the series). The terminal is the script's.
 * `option` names the output in messages. */
sc_err_t sc_gnuplot(const char *option, const char *path, const char *script);

/* The gnuplot terminal for `path` by its extension: "pngcairo" for .png
 * and .gp (a script draws a PNG), "svg" for .svg; SC_ERR_INPUT naming
 * `option` for others. */
sc_err_t sc_gnuplot_terminal(const char *option, const char *path, const char **terminal);

/* Writes `text` into *out (of `size` bytes) as a gnuplot single-quoted
 * string's contents: nothing is expanded there; a quote is written twice. */
void sc_gnuplot_quote(const char *text, char *out, size_t size);

#endif
