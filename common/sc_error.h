/* Error codes and the last error message, shared by every simcoll module.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_ERROR_H
#define SC_ERROR_H

#include <stdarg.h>
#include <stddef.h>

/* public: in simcoll.h, the plug-ins' API (algorithms/plugin/) */
/* Every function that can fail returns an sc_err_t. The value doubles as the
 * process exit code chosen by main: 1 = a run failed, 2 = bad input. */
typedef enum {
    SC_OK = 0,
    SC_ERR_RUN = 1,   /* simulation failed, wrong result, out of memory */
    SC_ERR_INPUT = 2, /* bad command line, platform, algorithm precondition */
} sc_err_t;

/* Records a one-line, human-readable message (printf format) describing why
 * the current operation failed and returns `code`, so callers can write
 * `return sc_error(SC_ERR_INPUT, "...", ...);`. The message names the bad
 * value and what would be valid. A later call replaces the message. */
sc_err_t sc_error(sc_err_t code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* end public */

/* sc_error(SC_ERR_INPUT, ...) about line `line` of an input: "WHERE:LINE:
 * message", "WHERE: message" when line is 0 or less (the input as a whole),
 * the message alone when where is NULL (a value from the command line).
 * WHERE names the input as users gave it ("prog.txt", "--matrix 'm.csv'"). */
sc_err_t sc_error_at(const char *where, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Keeps the first failure of something that goes on after it fails (a rank
 * of the actors, a replay's player, a trace's session): unless *kept is set
 * already, formats the message (printf format, ap) into msg, which holds
 * size bytes, and sets *kept to code. Later failures follow from the first
 * and are dropped. */
void sc_error_keep_first(sc_err_t *kept, char *msg, size_t size, sc_err_t code, const char *fmt,
                         va_list ap) __attribute__((format(printf, 5, 0)));

/* The last message recorded by sc_error(), or "" if none. */
const char *sc_error_message(void);

/* Forgets the last message. */
void sc_error_clear(void);

#endif
