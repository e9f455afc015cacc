/* libotf2's complaints as a message: what simcoll's OTF2 reader
 * (otf2_defs.c, otf2.c) and the tracer's writer (sim/tracer/otf2_write.c,
 * which compiles this file in) say when libotf2 fails. libotf2 itself only
 * returns a code; its message comes through a handler, which this is.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_OTF2_ERROR_H
#define SC_OTF2_ERROR_H

#include <stddef.h>

/* Hidden: libsimcoll-trace.so, preloaded into applications, exports MPI's
 * functions and its own alone. */
#pragma GCC visibility push(hidden)

/* libotf2's complaints go to `into` (`size` bytes, cleared), each as
 * "ITS_CODE: its message" over the last, from now on; NULL: nowhere. */
void sc_otf2_errors_into(char *into, size_t size);

#pragma GCC visibility pop

#endif
