/* What the trace fuzz targets share: the input written as a trace's file
 * in a folder of the process's own, and the trace read whole.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_TRACE_FUZZ_H
#define SC_TRACE_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* The folder the target's files go to, made once (mkdtemp). */
const char *sc_fuzz_dir(void);

/* Writes data[0..size) to the file `name` of that folder; its path. */
const char *sc_fuzz_write(const char *name, const uint8_t *data, size_t size);

/* Copies the file `from` to `name` of that folder (the parts of a trace
 * the input does not replace). */
void sc_fuzz_copy(const char *from, const char *name);

/* Opens and scans the trace whose anchor is `path`; when the scan accepts
 * it, reads every rank's events and aborts unless every cursor reads
 * without error exactly the events the scan counted. */
void sc_fuzz_read_trace(const char *path);

#endif
