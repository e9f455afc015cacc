/* Values per message size as platform files write them, SIZE:V[:V];...:
 * the syntax, read and written; the units and ranges are the callers'.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "piecewise.h"

#include <stdlib.h>
#include <string.h>

#include "common/sc_units.h"

static int by_size(const void *a, const void *b)
{
    const sc_segment_t *x = a, *y = b;
    return x->min_bytes < y->min_bytes ? -1 : x->min_bytes > y->min_bytes;
}

sc_err_t sc_piecewise_parse(const char *where, const char *text,
                            const sc_piecewise_syntax_t *syntax, sc_piecewise_t *pw)
{
    /* Two copies: one cut into segments, one into a segment's fields, so
     * that the segment stays whole for messages. */
    size_t len = strlen(text);
    char *copy = malloc(2 * (len + 1));
    if (!copy)
        return sc_error(SC_ERR_RUN, "out of memory");
    memcpy(copy, text, len + 1);
    char *fields = copy + len + 1;
    *pw = (sc_piecewise_t){0};
    sc_err_t err = SC_OK;
    char *save = NULL;
    for (char *item = strtok_r(copy, ";", &save); item && !err; item = strtok_r(NULL, ";", &save)) {
        int n = 1;
        for (const char *p = item; *p; p++)
            n += *p == ':';
        if (n < syntax->min_fields || n > syntax->max_fields) {
            err = sc_error(SC_ERR_INPUT, "%s: segment '%s' is not %s%s", where, item,
                           syntax->syntax, syntax->note);
            break;
        }
        if (pw->n == SC_MAX_SEGMENTS) {
            err = sc_error(SC_ERR_INPUT, "%s: more than %d segments", where, SC_MAX_SEGMENTS);
            break;
        }
        /* Split on ':' by hand: strtok would merge empty fields. */
        char *field[SC_PIECEWISE_FIELDS] = {strcpy(fields, item), NULL, NULL};
        int k = 1;
        for (char *c = fields; *c; c++)
            if (*c == ':') {
                *c = '\0';
                if (k < SC_PIECEWISE_FIELDS)
                    field[k++] = c + 1;
            }
        err = syntax->segment(where, item, field, n, syntax->arg, &pw->seg[pw->n++]);
    }
    free(copy);
    if (err)
        return err;
    if (pw->n == 0)
        return sc_error(SC_ERR_INPUT, "%s: no segment; use %s", where, syntax->syntax);
    qsort(pw->seg, (size_t)pw->n, sizeof pw->seg[0], by_size);
    return SC_OK;
}

int sc_piecewise_repeated(const sc_piecewise_t *pw)
{
    for (int k = 1; k < pw->n; k++)
        if (pw->seg[k].min_bytes == pw->seg[k - 1].min_bytes)
            return k;
    return 0;
}

void sc_piecewise_write(FILE *f, const sc_piecewise_t *pw, int is_factor)
{
    for (int k = 0; k < pw->n; k++) {
        const sc_segment_t *seg = &pw->seg[k];
        char start[48], per_byte[48];
        sc_format_quantity(seg->start, SC_QTY_TIME, start, sizeof start);
        sc_format_quantity(seg->per_byte, SC_QTY_TIME, per_byte, sizeof per_byte);
        if (is_factor)
            fprintf(f, "%s%.0f:%.10g", k ? ";" : "", seg->min_bytes, seg->start);
        else
            fprintf(f, "%s%.0f:%s:%s", k ? ";" : "", seg->min_bytes, start, per_byte);
    }
}
