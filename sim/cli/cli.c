/* The simcoll command line: the dispatch from argv[1].
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "cli.h"

#include <string.h>

#include "args.h"
#include "calibrate.h"
#include "collective_cmd.h"
#include "list_cmd.h"
#include "map_cmd.h"
#include "platform_cmd.h"
#include "plot.h"
#include "plugin.h"
#include "program_cmd.h"
#include "sim/io/files.h"
#include "sweep.h"

int sc_cli_main(int argc, char **argv)
{
    sc_error_clear();
    int code;
    if (argc > 1 && strcmp(argv[1], "list") == 0)
        code = sc_cli_list(argc, argv);
    else if (argc > 1 && strcmp(argv[1], "platform") == 0)
        code = sc_cli_platform(argc, argv);
    else if (argc > 1 && strcmp(argv[1], "map") == 0)
        code = sc_cli_map(argc, argv);
    else if (argc > 1 && strcmp(argv[1], "calibrate") == 0)
        code = sc_cli_calibrate(argc, argv);
    else if (argc > 1 && strcmp(argv[1], "run") == 0)
        code = sc_cli_run_program(argc, argv);
    else if (argc > 1 && strcmp(argv[1], "tune") == 0)
        code = sc_cli_tune(argc, argv);
    else if (argc > 1 && strcmp(argv[1], "plot") == 0)
        code = sc_cli_plot(argc, argv);
    else if (argc > 1 && strcmp(argv[1], "sweep") == 0)
        code = sc_cli_sweep(argc, argv);
    else if (argc > 1 && strcmp(argv[1], "new-algo") == 0)
        code = sc_cli_new_algo(argc - 1, argv + 1);
    else
        code = sc_cli_collective(argc, argv);
    /* Results that never reached stdout (a full disk, /dev/full) are a
     * failed run, not a success. */
    sc_err_t err = sc_stdout_finish();
    return err && !code ? sc_cli_fail(err) : code;
}
