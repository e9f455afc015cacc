/* The ranks' spools of a traced run (spool.h) into an OTF2 archive that
 * simcoll reads: what libsimcoll-trace.so does at MPI_Finalize and
 * simcoll-trace-recover after a run that was killed.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_TRACER_CONVERT_H
#define SC_TRACER_CONVERT_H

#include <stddef.h>
#include <stdio.h>

/* Writes DIR/traces.otf2 (with DIR/traces.def and DIR/traces/) from the
 * spools DIR/spool/rank-N.spool. Where a rank's spool ends before its
 * MPI_Finalize (the run was killed), every rank's calls are kept up to
 * the last ones that still pair up with the others' (each message sent
 * and received, each collective called by every rank of its
 * communicator, each communicator made), what was cut said on `log` (if
 * not NULL), rank by rank. `remove_spool`: the spools are removed once the
 * archive is written. Returns 0 (msg: what was written), 2 where the
 * spools are no trace (none, a rank's missing, a record that is not a
 * spool's: msg names the file and the record), 1 where the archive
 * cannot be written (msg: libotf2's or the system's complaint). */
int sc_tracer_convert(const char *dir, int remove_spool, FILE *log, char *msg, size_t len);

/* DIR/traces.otf2 as a run leaves it until its archive is written: a text
 * that says so and how to recover (simcoll run quotes it). 0, or -1 with
 * errno. */
int sc_tracer_write_stand_in(const char *dir);

/* The first line of the stand-in, which sim/trace/trace.c recognizes. */
#define SC_TRACER_STAND_IN "# simcoll-trace: "

#endif
