/* simcoll: simulated MPI collectives on hierarchical clusters.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "cli.h"
#include "common/sc_cleanup.h"

int main(int argc, char **argv)
{
    sc_cleanup_install();
    return sc_cli_main(argc, argv);
}
