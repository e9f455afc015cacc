/* Files users give and get: inputs that cannot block or crash a run, and
 * outputs that appear whole or not at all.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_FILES_H
#define SC_FILES_H

#include <stddef.h>
#include <stdio.h>

#include "common/sc_error.h"

/* Reads the whole regular file `path` into *data (malloc'ed, with a NUL
 * after the *len bytes). FIFOs, devices and directories are refused, never
 * opened for reading, so that no input can block simcoll; so is a file
 * larger than max_bytes. Messages start with `what` ("--mapping 'f'"). */
sc_err_t sc_input_read(const char *what, const char *path, size_t max_bytes, char **data,
                       size_t *len);

/* sc_input_read of `path` as given with `option` (or the command that
 * reads it: "--matrix", "plot"): messages start with "OPTION 'PATH'", or
 * "'PATH'" when option is NULL or empty. */
sc_err_t sc_input_file(const char *option, const char *path, size_t max_bytes, char **data,
                       size_t *len);

/* A set of output files written together. Each is written aside (a
 * temporary file next to the target, ".NAME.PID.simcoll-tmp") and renamed
 * over its target only when every file of the set is complete, so a
 * failure or a kill leaves the old targets as they were. A target that
 * exists and is not a regular file (/dev/null, a FIFO, /dev/stdout) is
 * written directly instead, after the regular ones are complete, and never
 * replaced; so is an existing file named under /dev or /proc (/dev/stdout
 * redirected to a file). A symbolic link is followed, even one whose target
 * does not exist yet: its target is written, not the link. Temporary files
 * a killed run left next to a target are removed. */
typedef struct sc_outputs sc_outputs_t;

/* An empty set; NULL if out of memory. */
sc_outputs_t *sc_outputs_new(void);

/* Adds `path` (given with option `option`, for messages) and returns the
 * stream to write it through. Refuses a path that names the same file as
 * an earlier output of the set, a directory, and a place that cannot be
 * written. The stream belongs to the set. */
sc_err_t sc_outputs_add(sc_outputs_t *outs, const char *option, const char *path, FILE **f);

/* A set of one output, `path` given with `option`, its stream in *f:
 * sc_outputs_new and sc_outputs_add together. On failure nothing is left
 * behind and *outs is NULL. */
sc_err_t sc_output_open(const char *option, const char *path, sc_outputs_t **outs, FILE **f);

/* A file a command reads or writes, for sc_files_distinct. */
typedef struct {
    const char *option; /* for messages: "--platform", "-o" */
    const char *path;   /* NULL: not given */
    int is_output;
} sc_file_role_t;

/* Refuses (SC_ERR_INPUT, naming both) an output that is the same file as
 * another output or as an input of the command, before anything is
 * written: one output would replace the other, or the command would
 * destroy what it reads. Outputs that exist and are not regular files
 * (/dev/null, a FIFO, anything under /dev or /proc) may be shared. */
sc_err_t sc_files_distinct(const sc_file_role_t *files, int n);

/* Closes every stream, checking that everything was written, and puts the
 * files in place; on any failure removes every temporary file and leaves
 * every target as it was. Frees the set either way. */
sc_err_t sc_outputs_commit(sc_outputs_t *outs);

/* Removes every temporary file and frees the set (NULL is fine). */
void sc_outputs_discard(sc_outputs_t *outs);

/* Writes all n bytes to fd, retrying after interruptions and short writes;
 * 0 on success, -1 with errno set. */
int sc_write_all(int fd, const void *data, size_t n);

/* A file that holds `data` in memory only (memfd) and vanishes with this
 * process however it ends, for libraries that read files only: returns
 * its descriptor and writes a path that opens it into path[0..size-1]
 * (at least 32 bytes); -1 with errno set on failure. */
int sc_memory_file(const char *name, const void *data, size_t len, char *path, size_t size);

/* Flushes standard output and reports a failed write (a full disk, a
 * closed pipe) as SC_ERR_RUN: output that did not arrive is an error. */
sc_err_t sc_stdout_finish(void);

#endif
