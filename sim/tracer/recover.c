/* simcoll-trace-recover DIR: the trace of a traced run that did not reach
 * MPI_Finalize (killed, crashed, out of time), from the spools its ranks
 * left in DIR, up to the ranks' last whole calls that pair up.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <string.h>

#include "convert.h"

static const char usage[] =
    "usage: simcoll-trace-recover DIR\n"
    "Writes DIR/traces.otf2 from the spools (DIR/spool/rank-N.spool) that a run traced\n"
    "by libsimcoll-trace.so left when it did not reach MPI_Finalize. Each rank's calls\n"
    "are kept up to its last whole one, then cut further where they would not pair up\n"
    "with the other ranks' (a message sent and never received, a collective some ranks\n"
    "of its communicator did not reach, a communicator whose making was lost); stderr\n"
    "says what was kept of each rank and why. Exit 0 when written, 2 when DIR holds no\n"
    "spools or a damaged one, 1 when the archive cannot be written.\n";

int main(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(usage, stdout);
        return 0;
    }
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "simcoll-trace-recover: give one folder a traced run wrote (%s)\n%s",
                argc < 2   ? "none given"
                : argc > 2 ? "several given"
                           : argv[1],
                usage);
        return 2;
    }
    char msg[2048];
    int rc = sc_tracer_convert(argv[1], 1, stderr, msg, sizeof msg);
    if (rc == 0)
        printf("%s\n", msg);
    else
        fprintf(stderr, "simcoll-trace-recover: %s\n", msg);
    return rc;
}
