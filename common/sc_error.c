/* Error codes and the last error message.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sc_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* simcoll is single-threaded (SimGrid actors run one at a time), so one
 * static buffer is enough. */
static char sc_last_message[1024];

sc_err_t sc_error(sc_err_t code, const char *fmt, ...)
{
    /* Formatted apart first: callers add context to the last message by
     * passing it in (sc_error(err, "...: %s", sc_error_message())), and
     * vsnprintf into the buffer it reads from garbles it. */
    char msg[sizeof sc_last_message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    memcpy(sc_last_message, msg, sizeof msg);
    return code;
}

sc_err_t sc_error_at(const char *where, int line, const char *fmt, ...)
{
    char msg[sizeof sc_last_message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (where && line > 0)
        return sc_error(SC_ERR_INPUT, "%s:%d: %s", where, line, msg);
    if (where)
        return sc_error(SC_ERR_INPUT, "%s: %s", where, msg);
    return sc_error(SC_ERR_INPUT, "%s", msg);
}

void sc_error_keep_first(sc_err_t *kept, char *msg, size_t size, sc_err_t code, const char *fmt,
                         va_list ap)
{
    if (*kept)
        return;
    vsnprintf(msg, size, fmt, ap);
    *kept = code;
}

const char *sc_error_message(void)
{
    return sc_last_message;
}

void sc_error_clear(void)
{
    sc_last_message[0] = '\0';
}
