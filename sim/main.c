/* simcoll: simulated MPI collectives on hierarchical clusters.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "cli.h"

int main(int argc, char **argv)
{
    return sc_cli_main(argc, argv);
}
