/* What every simcoll command does with its arguments: lists, choices,
 * options getopt refused, and the message of a failure.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_ARGS_H
#define SC_CLI_ARGS_H

#include "common/sc_error.h"

/* Prints "simcoll: MESSAGE" for the last error and returns err as an exit
 * code. */
int sc_cli_fail(sc_err_t err);

/* Splits a comma-separated list in place into *items (caller frees the
 * array) and its length *n. An empty item is bad input, named with `what`. */
sc_err_t sc_cli_split_list(char *text, const char *what, char ***items, int *n);

/* The option getopt_long just refused, as the user wrote it, followed by a
 * closing quote: "-x' (in '-xyz')" or "--frob'". `before` is optind before
 * the call. */
const char *sc_cli_refused_option(char **args, int before);

/* The index of `value` among the NULL-terminated `choices`, or SC_ERR_INPUT
 * naming `option` and listing them. */
sc_err_t sc_cli_choice(const char *value, const char *option, const char *const *choices,
                       int *index);

#endif
