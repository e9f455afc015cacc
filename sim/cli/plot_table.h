/* The CSV file `simcoll plot` draws (plot_table.c), as simcoll writes
 * them: a header of names, then rows. Private to sim/cli/plot*.c.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_PLOT_TABLE_H
#define SC_CLI_PLOT_TABLE_H

#include "common/sc_error.h"

/* A CSV file as simcoll writes it: a header of names, then rows; fields
 * may be quoted ("a,b", "" for a quote). */
typedef struct {
    char **cell; /* nrows x ncols, row-major, owned */
    char **name;
    int nrows, ncols;
    int *line; /* of each row, for messages */
} sc_plot_table_t;

/* Reads the CSV file `path` into *t: fields may be quoted ("a,b", "" for
 * a quote); blank lines and # comments are skipped. */
sc_err_t sc_plot_table_read(const char *path, sc_plot_table_t *t);

void sc_plot_table_free(sc_plot_table_t *t);

/* The text of row `row`, column `col`. */
const char *sc_plot_cell(const sc_plot_table_t *t, int row, int col);

/* The column named `name` into *col; SC_ERR_INPUT naming `option`, the
 * nearest name and every column where there is none. */
sc_err_t sc_plot_column(const sc_plot_table_t *t, const char *path, const char *option,
                        const char *name, int *col);

#endif
