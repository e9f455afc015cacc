/* Plots with gnuplot: the curve of `simcoll tune --plot` and `simcoll plot`
 * of any CSV simcoll writes (runs, programs, tune curves).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "plot.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "sim/io/files.h"

sc_err_t sc_gnuplot(const char *option, const char *path, const char *script)
{
    char script_path[] = "/tmp/simcoll-plot-XXXXXX";
    int fd = mkstemp(script_path);
    size_t len = strlen(script);
    int written = fd >= 0 && sc_write_all(fd, script, len) == 0;
    if (fd >= 0)
        written = close(fd) == 0 && written;
    if (!written) {
        if (fd >= 0)
            unlink(script_path);
        return sc_error(SC_ERR_RUN, "%s %s: cannot write gnuplot's script in /tmp", option, path);
    }
    sc_outputs_t *outs = sc_outputs_new();
    FILE *out = NULL;
    sc_err_t err =
        outs ? sc_outputs_add(outs, option, path, &out) : sc_error(SC_ERR_RUN, "out of memory");
    char command[64];
    snprintf(command, sizeof command, "gnuplot %s 2>/dev/null", script_path);
    FILE *g = !err ? popen(command, "r") : NULL;
    size_t got = 0, n;
    char chunk[65536];
    while (g && (n = fread(chunk, 1, sizeof chunk, g)) > 0)
        got += fwrite(chunk, 1, n, out);
    int status = g ? pclose(g) : -1;
    unlink(script_path);
    if (!err && (status != 0 || got == 0))
        err = sc_error(SC_ERR_RUN,
                       "%s %s: gnuplot failed (is it installed? apt-get install gnuplot-nox)",
                       option, path);
    if (err) {
        sc_outputs_discard(outs);
        return err;
    }
    return sc_outputs_commit(outs);
}

sc_err_t sc_gnuplot_terminal(const char *option, const char *path, const char **terminal)
{
    if (sc_ends_with(path, ".png"))
        *terminal = "pngcairo noenhanced size 900,560 font ',11'";
    else if (sc_ends_with(path, ".svg"))
        *terminal = "svg noenhanced size 900,560 font ',11' background rgb 'white'";
    else
        return sc_error(SC_ERR_INPUT,
                        "%s '%s': the file name says what to draw: end it in .png "
                        "or .svg",
                        option, path);
    return SC_OK;
}

void sc_gnuplot_quote(const char *text, char *out, size_t size)
{
    size_t q = 0;
    for (const char *t = text; *t && q + 3 < size; t++) {
        if (*t == '\'')
            out[q++] = '\'';
        out[q++] = *t == '\n' ? ' ' : *t;
    }
    out[q] = '\0';
}

/* ---- simcoll plot ---- */

/* A CSV file as simcoll writes it: a header of names, then rows; fields
 * may be quoted ("a,b", "" for a quote). */
typedef struct {
    char **cell; /* nrows x ncols, row-major, owned */
    char **name;
    int nrows, ncols;
    int *line; /* of each row, for messages */
} table_t;

static void table_free(table_t *t)
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

static sc_err_t read_table(const char *path, table_t *t)
{
    char *text;
    size_t len;
    char what[1100];
    snprintf(what, sizeof what, "plot '%s'", path);
    sc_err_t err = sc_input_read(what, path, (size_t)1 << 30, &text, &len);
    if (err)
        return err;
    *t = (table_t){0};
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
        table_free(t);
    return err;
}

static const char *cell(const table_t *t, int row, int col)
{
    return t->cell[(size_t)row * (size_t)t->ncols + (size_t)col];
}

static sc_err_t column(const table_t *t, const char *path, const char *option, const char *name,
                       int *col)
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
    return sc_error(SC_ERR_INPUT, "%s: '%s' has no column '%s'; its columns are %s", option, path,
                    name, names);
}

/* An axis label for a column simcoll writes, with its unit. */
static const char *label(const char *name)
{
    static const char *const labels[][2] = {
        {"np", "processes"},
        {"nodes", "nodes"},
        {"size_bytes", "bytes per rank"},
        {"sim_time_s", "simulated time"},
        {"model_time_s", "model's time"},
        {"time_s", "time"},
        {"bandwidth_Bps", "bandwidth"},
        {"inter_node_bytes", "bytes between nodes"},
        {"intra_node_bytes", "bytes inside nodes"},
        {"messages", "messages"},
        {"statements", "statements"},
        {"max_rank_bytes", "most bytes one rank sent"},
        {"critical_path_bytes", "bytes on the critical path"},
    };
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
        if (strcmp(labels[i][0], name) == 0)
            return labels[i][1];
    return name;
}

/* gnuplot's tick format for a column: seconds and bytes with prefixes. */
static const char *tick_format(const char *name)
{
    if (sc_ends_with(name, "_s"))
        return "%.1s %cs";
    if (sc_ends_with(name, "_Bps"))
        return "%.1s %cB/s";
    if (sc_ends_with(name, "bytes"))
        return "%.0b %BB";
    return "% g";
}

typedef struct {
    const char *csv, *x, *y, *by, *out, *title;
    char *where[16];
    int nwhere;
    int logx, logy; /* -1: decide from the data */
} plot_opts_t;

static sc_err_t parse_plot(int argc, char **argv, plot_opts_t *o, int *done)
{
    static const struct option longopts[] = {
        {"by", required_argument, NULL, 'b'},    {"where", required_argument, NULL, 'w'},
        {"title", required_argument, NULL, 't'}, {"logx", no_argument, NULL, 'X'},
        {"logy", no_argument, NULL, 'Y'},        {"linx", no_argument, NULL, 'L'},
        {"liny", no_argument, NULL, 'M'},        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},        {NULL, 0, NULL, 0}};
    *o = (plot_opts_t){.logx = -1, .logy = -1};
    *done = 0;
    opterr = 0;
    optind = 0;
    char **args = argv + 1;
    int nargs = argc - 1, c;
    sc_err_t err = SC_OK;
    for (int before = 1; !err && (c = getopt_long(nargs, args, ":x:y:o:", longopts, NULL)) != -1;
         before = optind) {
        switch (c) {
        case 'x': o->x = optarg; break;
        case 'y': o->y = optarg; break;
        case 'b': o->by = optarg; break;
        case 'o': o->out = optarg; break;
        case 't': o->title = optarg; break;
        case 'X': o->logx = 1; break;
        case 'Y': o->logy = 1; break;
        case 'L': o->logx = 0; break;
        case 'M': o->logy = 0; break;
        case 'w':
            if (o->nwhere == 16 || !strchr(optarg, '='))
                err = sc_error(SC_ERR_INPUT, "--where '%s': give COLUMN=VALUE, at most 16 times",
                               optarg);
            else
                o->where[o->nwhere++] = optarg;
            break;
        case 'h':
            fputs("usage: simcoll plot FILE.csv -x COLUMN -y COLUMN [--by COLUMN]\n"
                  "                    [--where COLUMN=VALUE]... [--logx|--linx] [--logy|--liny]\n"
                  "                    [--title TEXT] -o OUT.png|OUT.svg\n"
                  "Draws y against x from a CSV simcoll wrote (runs, programs, tune curves),\n"
                  "one line per value of the --by column, of the rows --where keeps. Axes are\n"
                  "logarithmic when the values span a factor of 100 or more, unless told;\n"
                  "seconds and bytes are labelled with their prefixes (1 ms, 64 KiB).\n",
                  stdout);
            *done = 1;
            return SC_OK;
        case ':':
            err = sc_error(SC_ERR_INPUT, "'%s needs a value (simcoll plot --help)",
                           sc_cli_refused_option(args, before, longopts));
            break;
        default:
            err = sc_error(SC_ERR_INPUT, "plot: unknown option '%s (simcoll plot --help)",
                           sc_cli_refused_option(args, before, longopts));
            break;
        }
    }
    if (!err && optind + 1 != nargs)
        err = sc_error(SC_ERR_INPUT, "plot needs one CSV file, e.g. simcoll plot results.csv -x "
                                     "np -y sim_time_s --by algo -o study.png");
    if (!err)
        o->csv = args[optind];
    if (!err && (!o->x || !o->y || !o->out))
        err = sc_error(SC_ERR_INPUT, "plot needs -x COLUMN, -y COLUMN and -o OUT.png|OUT.svg");
    return err;
}

/* Whether row r passes every --where. */
static int kept(const table_t *t, const int *where_col, char *const *where, int nwhere, int r)
{
    for (int i = 0; i < nwhere; i++)
        if (strcmp(cell(t, r, where_col[i]), strchr(where[i], '=') + 1) != 0)
            return 0;
    return 1;
}

typedef struct {
    double x, y;
} point_t;

static int by_x(const void *a, const void *b)
{
    double x = ((const point_t *)a)->x, y = ((const point_t *)b)->x;
    return x < y ? -1 : x > y;
}

/* The rows --where keeps, grouped by --by's column (groups[], the first
 * row of each its value), with the range [lo, hi] of x (0) and y (1); a
 * value that is not a number is SC_ERR_INPUT naming its line. */
static sc_err_t collect_groups(const plot_opts_t *o, const table_t *t, int xc, int yc, int bc,
                               const int *where_col, const char **groups, int *ngroups,
                               double lo[2], double hi[2])
{
    int npoints = 0;
    sc_err_t err = SC_OK;
    *ngroups = 0;
    for (int r = 0; r < t->nrows && !err; r++) {
        if (!kept(t, where_col, o->where, o->nwhere, r))
            continue;
        const char *g = bc >= 0 ? cell(t, r, bc) : "";
        int known = 0;
        for (int i = 0; i < *ngroups && !known; i++)
            known = strcmp(groups[i], g) == 0;
        if (!known)
            groups[(*ngroups)++] = g;
        for (int a = 0; a < 2 && !err; a++) {
            const char *text = cell(t, r, a ? yc : xc);
            char *end;
            double v = strtod(text, &end);
            if (end == text || *end || !isfinite(v))
                err = sc_error(SC_ERR_INPUT, "plot '%s':%d: %s is '%s', not a number", o->csv,
                               t->line[r], a ? o->y : o->x, text);
            else if (v < lo[a])
                lo[a] = v;
            if (!err && v > hi[a])
                hi[a] = v;
        }
        npoints++;
    }
    if (!err && npoints == 0)
        err = sc_error(SC_ERR_INPUT, "plot '%s': no row to draw%s", o->csv,
                       o->nwhere ? " (--where kept none)" : "");
    return err;
}

/* An inline data block per group, its points in x order (pts: room for
 * every row). */
static void write_blocks(FILE *s, const plot_opts_t *o, const table_t *t, int xc, int yc,
                         int bc, const int *where_col, const char **groups, int ngroups,
                         point_t *pts)
{
    for (int g = 0; g < ngroups; g++) {
        int n = 0;
        for (int r = 0; r < t->nrows; r++)
            if (kept(t, where_col, o->where, o->nwhere, r) &&
                (bc < 0 || strcmp(cell(t, r, bc), groups[g]) == 0))
                pts[n++] = (point_t){strtod(cell(t, r, xc), NULL), strtod(cell(t, r, yc), NULL)};
        qsort(pts, (size_t)n, sizeof *pts, by_x);
        fprintf(s, "$d%d << EOD\n", g);
        for (int i = 0; i < n; i++)
            fprintf(s, "%.17g %.17g\n", pts[i].x, pts[i].y);
        fputs("EOD\n", s);
    }
}

/* The axes' labels, formats and scales. Both axes are written; a
 * logarithmic axis over values not above 0 is SC_ERR_INPUT (the y axis's
 * when both are). */
static sc_err_t write_axes(FILE *s, const plot_opts_t *o, const double lo[2], const double hi[2])
{
    char quoted[1024];
    const char *names[2] = {o->x, o->y};
    int logs[2] = {o->logx, o->logy};
    sc_err_t err = SC_OK;
    for (int a = 0; a < 2; a++) {
        int log = logs[a] >= 0 ? logs[a] : lo[a] > 0 && hi[a] >= 100 * lo[a];
        if (log && lo[a] <= 0)
            err = sc_error(SC_ERR_INPUT,
                           "plot: a logarithmic %s axis needs values above 0, "
                           "and %s has %g (use --lin%c)",
                           a ? "y" : "x", names[a], lo[a], a ? 'y' : 'x');
        sc_gnuplot_quote(label(names[a]), quoted, sizeof quoted);
        fprintf(s, "set %clabel '%s'\nset format %c '%s'\n", a ? 'y' : 'x', quoted,
                a ? 'y' : 'x', tick_format(names[a]));
        /* Sizes in bytes tick at powers of 16 (1 B, 16 B, ... 4 KiB), where
         * their binary prefixes read as whole numbers; ticks at powers
         * of 10 would read "977 KiB". */
        if (log && sc_ends_with(names[a], "bytes"))
            fprintf(s, "set logscale %c 2\nset %ctics 16\n", a ? 'y' : 'x', a ? 'y' : 'x');
        else if (log)
            fprintf(s, "set logscale %c\n", a ? 'y' : 'x');
    }
    return err;
}

/* The plot command: a line per group. */
static void write_plot(FILE *s, const plot_opts_t *o, const char **groups, int ngroups)
{
    char quoted[1024];
    fputs("plot ", s);
    for (int g = 0; g < ngroups; g++) {
        char title[512];
        /* A value that is a word says what it is; a number needs its
         * column's name (np 64). */
        char *end;
        strtod(groups[g], &end);
        int numeric = *groups[g] && *end == '\0';
        if (o->by && !numeric)
            snprintf(title, sizeof title, "%s", groups[g]);
        else
            snprintf(title, sizeof title, "%s %s", o->by ? o->by : o->y, groups[g]);
        sc_gnuplot_quote(title, quoted, sizeof quoted);
        fprintf(s, "%s$d%d using 1:2 with linespoints lw 2 title '%s'", g ? ", \\\n     " : "",
                g, quoted);
    }
    fputc('\n', s);
}

/* Writes the gnuplot script: one inline data block per group. */
static sc_err_t write_script(const plot_opts_t *o, const table_t *t, int xc, int yc, int bc,
                             const int *where_col, const char *terminal, char **script)
{
    size_t len;
    FILE *s = open_memstream(script, &len);
    point_t *pts = malloc(((size_t)t->nrows + 1) * sizeof *pts);
    const char **groups = malloc(((size_t)t->nrows + 1) * sizeof *groups);
    if (!s || !pts || !groups) {
        if (s)
            fclose(s);
        free(pts);
        free(groups);
        return sc_error(SC_ERR_RUN, "out of memory");
    }
    int ngroups = 0;
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    sc_err_t err = collect_groups(o, t, xc, yc, bc, where_col, groups, &ngroups, lo, hi);
    if (!err) {
        write_blocks(s, o, t, xc, yc, bc, where_col, groups, ngroups, pts);
        /* The key goes under the plot: beside it, long titles (a
         * platform file, a command) squeeze the plot to half the width. */
        fprintf(s, "set terminal %s\nset output\nset grid\nset key below\n", terminal);
        err = write_axes(s, o, lo, hi);
        if (o->title) {
            char quoted[1024];
            sc_gnuplot_quote(o->title, quoted, sizeof quoted);
            fprintf(s, "set title '%s'\n", quoted);
        }
        write_plot(s, o, groups, ngroups);
    }
    free(pts);
    free(groups);
    if (fclose(s) != 0 && !err)
        err = sc_error(SC_ERR_RUN, "out of memory");
    if (err) {
        free(*script);
        *script = NULL;
    }
    return err;
}

int sc_cli_plot(int argc, char **argv)
{
    plot_opts_t o;
    int done;
    sc_err_t err = parse_plot(argc, argv, &o, &done);
    if (err || done)
        return err ? sc_cli_fail(err) : 0;
    const char *terminal = NULL;
    table_t t = {0};
    if ((err = sc_gnuplot_terminal("-o", o.out, &terminal)) || (err = read_table(o.csv, &t)))
        return sc_cli_fail(err);
    int xc, yc, bc = -1, where_col[16];
    if (!(err = column(&t, o.csv, "-x", o.x, &xc)) && !(err = column(&t, o.csv, "-y", o.y, &yc)) &&
        o.by)
        err = column(&t, o.csv, "--by", o.by, &bc);
    for (int i = 0; i < o.nwhere && !err; i++) {
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(strchr(o.where[i], '=') - o.where[i]),
                 o.where[i]);
        err = column(&t, o.csv, "--where", name, &where_col[i]);
    }
    char *script = NULL;
    if (!err)
        err = write_script(&o, &t, xc, yc, bc, where_col, terminal, &script);
    if (!err)
        err = sc_gnuplot("-o", o.out, script);
    free(script);
    table_free(&t);
    return err ? sc_cli_fail(err) : 0;
}
