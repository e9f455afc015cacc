/* simcoll's commands, and the dispatch from argv[1].
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "commands.h"

#include <string.h>

#include "args.h"
#include "calibrate.h"
#include "cli.h"
#include "collective_cmd.h"
#include "list_cmd.h"
#include "map_cmd.h"
#include "platform_cmd.h"
#include "plot.h"
#include "plugin.h"
#include "program_cmd.h"
#include "sweep.h"
#include "validate_cmd.h"

/* new-algo reads its words from argv[1] on (COLLECTIVE at argv[1]). */
static int new_algo_command(int argc, char **argv)
{
    return sc_cli_new_algo(argc - 1, argv + 1);
}

const sc_command_t sc_commands[] = {
    /* name       run
     *            usage (after "simcoll "), one line each: help2man reads the
     *            man page's SYNOPSIS off them, and a continued line ends it */
    {NULL,        sc_cli_collective,
                  {"--platform FILE (--algo NAME | --compare A,B,...) [options]",
                   "--platform FILE --coll NAME --mpi PROFILE [options]"}},
    {"map",       sc_cli_map,
                  {"map --platform FILE --algo NAME|--matrix FILE|PROGRAM|TRACE [--np N] [-o PI] "
                   "(map --help)"}},
    {"platform",  sc_cli_platform,
                  {"platform --like FILE|--net NET [--nodes N] [--set LEVEL.PARAM=VALUE] "
                   "[-o OUT] (platform --help)"}},
    {"calibrate", sc_cli_calibrate,
                  {"calibrate MEASUREMENTS --like FILE [-o OUT] (calibrate --help)"}},
    {"validate",  sc_cli_validate,
                  {"validate --platform FILE --mpi PROFILE FILE[@ALGO]... (validate --help)"}},
    {"run",       sc_cli_run_program,
                  {"run --platform FILE [--np N] [options] PROGRAM (run --help)",
                   "run --platform FILE [options] TRACE (an application's recorded run)"}},
    {"tune",      sc_cli_tune,
                  {"tune --platform FILE --coll NAME [--np N] (tune --help)"}},
    {"plot",      sc_cli_plot,
                  {"plot FILE.csv -x COLUMN -y COLUMN [--by COLUMN] -o OUT.png (plot --help)"}},
    {"sweep",     sc_cli_sweep,
                  {"sweep STUDY [-j N|--jobs|--slurm] [-o RESULTS.csv] (sweep --help)"}},
    {"new-algo",  new_algo_command,
                  {"new-algo COLLECTIVE NAME -o FILE.c (an algorithm of your own)"}},
    {"list",      sc_cli_list,
                  {"list [--mpi | --net | --params | --coll NAME] [--format md]"}},
    {NULL, NULL, {NULL, NULL}}};

void sc_cli_usage(FILE *out)
{
    const char *lead = "Usage: ";
    for (const sc_command_t *c = sc_commands; c->run; c++)
        for (int i = 0; i < 2 && c->usage[i]; i++, lead = "  or:  ")
            fprintf(out, "%ssimcoll %s\n", lead, c->usage[i]);
}

/* The command argv[1] names, else the collective run. */
static const sc_command_t *find_command(int argc, char **argv)
{
    const sc_command_t *collective = NULL;
    for (const sc_command_t *c = sc_commands; c->run; c++) {
        if (!c->name)
            collective = c;
        else if (argc > 1 && strcmp(argv[1], c->name) == 0)
            return c;
    }
    return collective;
}

int sc_cli_main(int argc, char **argv)
{
    sc_error_clear();
    return sc_cli_finish(find_command(argc, argv)->run(argc, argv));
}
