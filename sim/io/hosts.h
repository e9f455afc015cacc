/* The real hosts a mapping's machinefile and rankfile name (simcoll map
 * --hosts), in the order of the platform's nodes: simcoll's own names
 * (node-0, ...) mean nothing to mpirun.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_IO_HOSTS_H
#define SC_IO_HOSTS_H

#include "common/sc_error.h"

typedef struct {
    char **names; /* each once, in the order given */
    int n;
} sc_hosts_t;

/* `spec` names a readable file or is a Slurm node list:
 *   a file of host names, one a line ('#' starts a comment; a name ends at
 *     a blank or ':', so hostfiles "n01 slots=8" and machinefiles "n01:8"
 *     read too; a name listed again, as in a file of one line a task, is
 *     kept once);
 *   a simcoll-probe file: the hosts its header names (the machine's name
 *     for --each-rank-a-node's "vm#1");
 *   a Slurm node list, as $SLURM_JOB_NODELIST holds it: names and
 *     bracketed ranges separated by commas, "n[01-04,07],login2" (leading
 *     zeros kept, several brackets in one name multiplied out).
 * A name of characters other than letters, digits, '.', '-' and '_', a
 * malformed range, an unreadable file or none at all is SC_ERR_INPUT
 * naming it, as `option` (--hosts). Free with sc_hosts_destroy. */
sc_err_t sc_hosts_read(const char *option, const char *spec, sc_hosts_t *out);

void sc_hosts_destroy(sc_hosts_t *hosts);

#endif
