/* Running SimGrid in a child process, and the byte buffers that carry
 * its results back.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CHILD_H
#define SC_CHILD_H

#include <stddef.h>

#include "common/sc_error.h"

/* SimGrid can load one platform per process and aborts on malformed input,
 * so every SimGrid session runs in a forked child: a crash becomes a message
 * and each simulation starts from a clean engine. */

/* A growable buffer read from the front. Writes never fail: running out of
 * memory sets `failed`, checked once when the buffer is sent. */
typedef struct {
    char *data;
    size_t len, cap, pos;
    int failed;
} sc_wire_t;

void sc_wire_put(sc_wire_t *w, const void *src, size_t n);
void sc_wire_put_int(sc_wire_t *w, int v);
void sc_wire_put_double(sc_wire_t *w, double v);
void sc_wire_put_str(sc_wire_t *w, const char *s);
/* Reads return 0 and leave `dst` alone once the buffer is exhausted. */
int sc_wire_get(sc_wire_t *w, void *dst, size_t n);
int sc_wire_get_int(sc_wire_t *w, int *v);
int sc_wire_get_double(sc_wire_t *w, double *v);
char *sc_wire_get_str(sc_wire_t *w); /* malloc'ed; NULL when exhausted */
void sc_wire_free(sc_wire_t *w);

/* The work done in the child: fills `out` or returns an error (with
 * sc_error's message). */
typedef sc_err_t (*sc_child_fn)(void *arg, sc_wire_t *out);

/* Runs fn(arg, out) in a forked child and hands what it wrote to `in`.
 * If fn fails, returns its code and message. If the child dies (a SimGrid
 * abort, a crash), returns `crash_code` with a message made of `what`, the
 * step the child announced last with sc_child_step(), and the reason
 * SimGrid printed. */
sc_err_t sc_child_run(sc_child_fn fn, void *arg, sc_err_t crash_code,
                      const char *what, sc_wire_t *in);

/* Called in the child before a step that SimGrid may abort in, so that the
 * parent can say what was being done ("computing the route from a to b"). */
void sc_child_step(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The first error SimGrid logged in `log` ("Parse error at f.xml:7: ..."),
 * copied to out; "" if none. Exposed for tests. */
void sc_simgrid_reason(const char *log, char *out, size_t outlen);

#endif
