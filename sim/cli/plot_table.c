/* The CSV file `simcoll plot` draws (plot_table.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "plot_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "sim/io/files.h"

void sc_plot_table_free(sc_plot_table_t *t)
{
    for (int i = 0; i < t->nrows * t->ncols; i++)
        free(t->cell[i]);
    for (int c = 0; c < t->ncols; c++)
        free(t->name[c]);
    free(t->cell);
    free(t->name);
    free(t->line);
}

/* One field from *p; NULL on a quote left open. Leaves *p at the comma or
 * the line's end. */
static char *field(const char **p)
{
    const char *s = *p;
    size_t cap = strcspn(s, "\n") + 1, n = 0;
    char *f = malloc(cap);
    if (!f)
        return NULL;
    if (*s == '"') {
        for (s++;; s++) {
            if (!*s) {
                free(f);
                return NULL;
            }
            if (*s == '"' && s[1] == '"') {
                if (n + 1 < cap)
                    f[n++] = '"';
                s++;
            } else if (*s == '"')
                break;
            else if (n + 1 < cap)
                f[n++] = *s;
        }
        s++;
    } else {
        while (*s && *s != ',' && *s != '\n' && *s != '\r')
            f[n++] = *s++;
    }
    f[n] = '\0';
    *p = s;
    return f;
}

sc_err_t sc_plot_table_read(const char *path, sc_plot_table_t *t)
{
    char *text;
    size_t len;
    sc_err_t err = sc_input_file("plot", path, (size_t)1 << 30, &text, &len);
    if (err)
        return err;
    *t = (sc_plot_table_t){0};
    int lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    const char *p = text;
    for (int line = 1; *p && !err; line++) {
        if (*p == '\n' || *p == '#') { /* blank lines and comments */
            p += strcspn(p, "\n");
            p += *p == '\n';
            continue;
        }
        char **cells = NULL;
        int n = 0;
        for (;;) {
            char *f = field(&p);
            char **more = f ? realloc(cells, (size_t)(n + 1) * sizeof *cells) : NULL;
            if (!more) {
                free(f);
                err = f ? sc_error(SC_ERR_RUN, "out of memory")
                        : sc_error(SC_ERR_INPUT, "plot '%s':%d: a quoted field is not closed", path,
                                   line);
                break;
            }
            cells = more;
            cells[n++] = f;
            if (*p != ',')
                break;
            p++;
        }
        p += strspn(p, "\r");
        p += *p == '\n';
        if (!err && !t->name) {
            t->name = cells;
            t->ncols = n;
            t->cell = malloc((size_t)lines * (size_t)n * sizeof *t->cell);
            t->line = malloc((size_t)lines * sizeof *t->line);
            if (!t->cell || !t->line)
                err = sc_error(SC_ERR_RUN, "out of memory");
            continue;
        }
        if (!err && n != t->ncols)
            err = sc_error(SC_ERR_INPUT, "plot '%s':%d: %d fields where the header has %d", path,
                           line, n, t->ncols);
        if (!err) {
            memcpy(&t->cell[(size_t)t->nrows * (size_t)t->ncols], cells, (size_t)n * sizeof *cells);
            t->line[t->nrows++] = line;
            free(cells);
        } else {
            for (int i = 0; i < n; i++)
                free(cells[i]);
            free(cells);
        }
    }
    free(text);
    if (!err && !t->name)
        err = sc_error(SC_ERR_INPUT, "plot '%s': empty, no header line of column names", path);
    if (err)
        sc_plot_table_free(t);
    return err;
}

const char *sc_plot_cell(const sc_plot_table_t *t, int row, int col)
{
    return t->cell[(size_t)row * (size_t)t->ncols + (size_t)col];
}

sc_err_t sc_plot_column(const sc_plot_table_t *t, const char *path, const char *option,
                        const char *name, int *col)
{
    for (int c = 0; c < t->ncols; c++)
        if (strcmp(t->name[c], name) == 0) {
            *col = c;
            return SC_OK;
        }
    char names[2048] = "";
    for (int c = 0; c < t->ncols; c++) {
        strncat(names, c ? ", " : "", sizeof names - strlen(names) - 1);
        strncat(names, t->name[c], sizeof names - strlen(names) - 1);
    }
    const char **list = calloc((size_t)t->ncols + 1, sizeof *list);
    if (!list)
        return sc_error(SC_ERR_RUN, "out of memory");
    memcpy(list, t->name, (size_t)t->ncols * sizeof *list);
    char nearest[256];
    snprintf(nearest, sizeof nearest, "%s", t->ncols ? sc_name_nearest(name, list) : "");
    free(list);
    return sc_error(SC_ERR_INPUT,
                    "%s: '%s' has no column '%s'; did you mean '%s'? Its columns are %s", option,
                    path, name, nearest, names);
}
