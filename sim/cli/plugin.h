/* Algorithms of the user's own: --load FILE.c|FILE.so, and the skeleton
 * `simcoll new-algo` writes (simcoll.h, made from algorithms/plugin/, is their API).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_PLUGIN_H
#define SC_CLI_PLUGIN_H

#include "common/sc_error.h"

/* Compiles FILE.c with the system's C compiler ($CC, else cc) against
 * simcoll's public headers, or takes FILE.so as built, loads it and adds
 * the algorithms of its simcoll_algorithms table (sc_algo_add). It is
 * loaded in a child process first, so that code it runs as it loads and
 * that ends the process (exit, abort, a crash) ends the child, not simcoll.
 * SC_ERR_INPUT naming the file and what was wrong: the compiler's
 * messages, a plug-in that ended the process while loading, a missing or
 * malformed table, a name already taken. */
sc_err_t sc_plugin_load(const char *path);

/* simcoll new-algo COLLECTIVE NAME -o FILE.c */
int sc_cli_new_algo(int argc, char **argv);

#endif
