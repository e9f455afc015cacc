/* What to undo when simcoll is killed: the simulation child to stop and
 * the temporary files to remove.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLEANUP_H
#define SC_CLEANUP_H

#include <sys/types.h>

/* Installs handlers for SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE that
 * kill the current child, remove the registered files and then let the
 * signal end simcoll as it would have. Called once by main. */
void sc_cleanup_install(void);

/* In a freshly forked child: default signal handling again, and death
 * when the parent dies (it can no longer read the results). */
void sc_cleanup_in_child(pid_t parent);

/* The child being waited for, or 0. */
void sc_cleanup_set_child(pid_t pid);

/* Registers a file to remove if simcoll is killed; returns a handle for
 * sc_cleanup_forget, or -1 when the table is full or the path too long
 * (the file then stays behind on a kill, and a later run removes it). */
int sc_cleanup_remember(const char *path);
void sc_cleanup_forget(int handle);

#endif
