/* libotf2's complaints as a message (otf2_error.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "otf2_error.h"

#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdio.h>

/* Where libotf2's messages go: one place at a time, as libotf2's handler
 * is one for the process. */
static char *errors_into;
static size_t errors_size;

static OTF2_ErrorCode on_otf2_error(void *data, const char *file, uint64_t line,
                                    const char *function, OTF2_ErrorCode code, const char *msg,
                                    va_list args)
{
    (void)data;
    (void)file;
    (void)line;
    (void)function;
    if (errors_into) {
        char text[200];
        vsnprintf(text, sizeof text, msg, args);
        snprintf(errors_into, errors_size, "%s: %s", OTF2_Error_GetName(code), text);
    }
    return code;
}

void sc_otf2_errors_into(char *into, size_t size)
{
    errors_into = into;
    errors_size = size;
    if (into && size > 0)
        into[0] = '\0';
    OTF2_Error_RegisterCallback(on_otf2_error, NULL);
}
