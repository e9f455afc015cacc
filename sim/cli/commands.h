/* simcoll's commands: one table, from which sc_cli_main dispatches and
 * --help's usage lines are written.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_COMMANDS_H
#define SC_CLI_COMMANDS_H

#include <stdio.h>

typedef struct {
    /* argv[1] that selects it; NULL for the collective run, which runs
     * when argv[1] names no command (it is then an option) */
    const char *name;
    /* runs it: argv as simcoll got it (argv[1] the name, if any); returns
     * the exit code (0 ok, 1 a run failed, 2 bad input) */
    int (*run)(int argc, char **argv);
    /* its forms in --help's "Usage:" and "or:" lines, after "simcoll ";
     * the second NULL for a command of one form. A form of two lines
     * indents its second itself. */
    const char *usage[2];
} sc_command_t;

/* Every command, in --help's order; run NULL last. */
extern const sc_command_t sc_commands[];

/* Writes the usage lines of every command (the start of --help). */
void sc_cli_usage(FILE *out);

#endif
