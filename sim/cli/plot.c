/* simcoll plot: any CSV simcoll writes (runs, programs, tune curves) drawn
 * with gnuplot: its rows as lines or bars, by columns chosen and filtered.
 * The CSV is read by plot_table.c, gnuplot run by gnuplot.c.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "plot.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algorithms/registry.h"
#include "args.h"
#include "common/sc_units.h"
#include "gnuplot.h"
#include "plot_table.h"
#include "sim/io/files.h"
#include "sweep.h"

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

/* One unit for an axis of seconds or bytes a second, from its largest
 * value: every tick a plain number of it, the unit in the label
 * ("simulated time (ms)"). gnuplot's own prefixes change from tick to
 * tick ("0.0 s" under "1.0 ms"). *scale turns the data into it; 1 and ""
 * for other columns (bytes get ticks of their own: write_byte_tics). */
static void axis_unit(const char *name, double hi, double *scale, char *unit, size_t size)
{
    static const struct {
        double value;
        const char *prefix;
    } prefixes[] = {{1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}, {1e-3, "m"}, {1e-6, "u"},
                    {1e-9, "n"}};
    enum { NPREFIXES = sizeof prefixes / sizeof prefixes[0] };
    int seconds = sc_ends_with(name, "_s");
    *scale = 1;
    unit[0] = '\0';
    if (!seconds && !sc_ends_with(name, "_Bps"))
        return;
    int k = seconds ? 3 : 0; /* no kiloseconds */
    while (k + 1 < NPREFIXES && hi < prefixes[k].value)
        k++;
    *scale = 1 / prefixes[k].value;
    snprintf(unit, size, "%s%s", prefixes[k].prefix, seconds ? "s" : "B/s");
}

/* Ticks of a bytes axis, labelled as simcoll prints sizes ("16 B",
 * "64 KiB"): gnuplot's %b %B would write "16   B" and "kiB". Logarithmic:
 * at powers of 16 (of 4 or 2 over a short range), where the binary
 * prefixes read as whole numbers; linear: at a power of two that makes
 * about six of them. */
static void write_byte_tics(FILE *s, char axis, double lo, double hi, int log)
{
    double ticks[64], step, first;
    int n = 0;
    if (log) {
        step = hi >= 256 * lo ? 16 : hi >= 16 * lo ? 4 : 2;
        first = pow(step, floor(log2(lo) / log2(step)));
        for (double t = first; t <= hi * (1 + 1e-9) && n < 64; t *= step)
            ticks[n++] = t;
    } else {
        double range = hi > lo ? hi - lo : hi > 0 ? hi : 1;
        step = pow(2, ceil(log2(range / 6)));
        first = floor(lo / step) * step;
        for (double t = first; t <= hi + step * 1e-9 && n < 64; t += step)
            ticks[n++] = t;
    }
    fprintf(s, "set %ctics (", axis);
    for (int i = 0; i < n; i++) {
        char label[32];
        sc_format_bytes(ticks[i], label, sizeof label);
        fprintf(s, "%s'%s' %.17g", i ? ", " : "", label, ticks[i]);
    }
    fputs(")\n", s);
}

enum { MAX_BY = 4 };

typedef struct {
    const char *csv, *x, *y, *out, *title;
    const char *relative_to[MAX_BY]; /* COLUMN=VALUE: the reference rows */
    int nrelative;
    char relative_list[512];         /* them, joined by ", ", for labels */
    char by_list[256];
    const char *by[MAX_BY];
    int nby;
    char *where[16];
    int nwhere;
    int logx, logy; /* -1: decide from the data */
} plot_opts_t;

/* --by COLUMN[,COLUMN...] into o->by. */
static sc_err_t parse_by(const char *text, plot_opts_t *o)
{
    snprintf(o->by_list, sizeof o->by_list, "%s", text);
    o->nby = 0;
    for (char *c = o->by_list, *comma; c; c = comma) {
        comma = strchr(c, ',');
        if (comma)
            *comma++ = '\0';
        if (!*c || o->nby == MAX_BY)
            return sc_error(SC_ERR_INPUT,
                            "--by '%s': give one to %d column names separated by commas", text,
                            MAX_BY);
        o->by[o->nby++] = c;
    }
    return SC_OK;
}

static sc_err_t parse_plot(int argc, char **argv, plot_opts_t *o, int *done)
{
    static const struct option longopts[] = {
        {"by", required_argument, NULL, 'b'},    {"where", required_argument, NULL, 'w'},
        {"title", required_argument, NULL, 't'}, {"logx", no_argument, NULL, 'X'},
        {"logy", no_argument, NULL, 'Y'},        {"linx", no_argument, NULL, 'L'},
        {"liny", no_argument, NULL, 'M'},        {"output", required_argument, NULL, 'o'},
        {"relative-to", required_argument, NULL, 'r'},
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
        case 'b': err = parse_by(optarg, o); break;
        case 'o': o->out = optarg; break;
        case 't': o->title = optarg; break;
        case 'X': o->logx = 1; break;
        case 'Y': o->logy = 1; break;
        case 'L': o->logx = 0; break;
        case 'M': o->logy = 0; break;
        case 'r':
            if (!strchr(optarg, '=') || *optarg == '=' || o->nrelative == MAX_BY)
                err = sc_error(SC_ERR_INPUT,
                               "--relative-to '%s': give COLUMN=VALUE, the rows to compare with "
                               "(e.g. set=inter.bandwidth=1x), at most %d times",
                               optarg, MAX_BY);
            else
                o->relative_to[o->nrelative++] = optarg;
            break;
        case 'w':
            if (o->nwhere == 16 || !strchr(optarg, '='))
                err = sc_error(SC_ERR_INPUT, "--where '%s': give COLUMN=VALUE, at most 16 times",
                               optarg);
            else
                o->where[o->nwhere++] = optarg;
            break;
        case 'h':
            fputs("usage: simcoll plot FILE.csv -x COLUMN -y COLUMN [--by COLUMN[,COLUMN...]]\n"
                  "                    [--where COLUMN=VALUE]... [--relative-to COLUMN=VALUE]...\n"
                  "                    [--logx|--linx] [--logy|--liny] [--title TEXT]\n"
                  "                    -o OUT.png|OUT.svg|OUT.gp\n"
                  "Draws y against x from a CSV simcoll wrote (runs, programs, tune curves,\n"
                  "sweeps: every axis of the study is a column), one line per value of the\n"
                  "--by columns, of the rows --where keeps; two rows of one line at one x are\n"
                  "refused, naming the columns that tell them apart. An x of words (an axis\n"
                  "such as set or algo) is drawn as bars. --relative-to draws each row's y as\n"
                  "a ratio: the y of the row with COLUMN=VALUE (each, when given several\n"
                  "times) and otherwise the same point, over its own (a speedup, for times).\n"
                  "Axes are logarithmic when the values\n"
                  "span a factor of 100 or more, unless told; seconds and bytes are labelled\n"
                  "with their prefixes (1 ms, 64 KiB). OUT.gp is gnuplot's script, the data\n"
                  "inline, for gnuplot OUT.gp > OUT.png.\n",
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

/* The columns plot reads, found in the table. */
typedef struct {
    int x, y, by[MAX_BY], where[16], relative[MAX_BY];
    int status; /* a sweep's status column, or -1 */
} cols_t;

/* Whether row r passes every --where. */
static int wanted(const sc_plot_table_t *t, const plot_opts_t *o, const cols_t *c, int r)
{
    for (int i = 0; i < o->nwhere; i++)
        if (strcmp(sc_plot_cell(t, r, c->where[i]), strchr(o->where[i], '=') + 1) != 0)
            return 0;
    return 1;
}

/* Whether row r is drawn: every --where passes, and a sweep's point ran
 * (a failed one has no figures; collect_points says how many). */
static int kept(const sc_plot_table_t *t, const plot_opts_t *o, const cols_t *c, int r)
{
    return wanted(t, o, c, r) && (c->status < 0 || !strcmp(sc_plot_cell(t, r, c->status), "ok"));
}

static int is_number(const char *text, double *v)
{
    char *end;
    *v = strtod(text, &end);
    return end != text && !*end && isfinite(*v);
}

/* One point to draw: its line, x (a category's index for bars), y, and
 * the row it comes from. */
typedef struct {
    int group, row;
    double x, y;
} point_t;

static int by_group_x(const void *a, const void *b)
{
    const point_t *p = a, *q = b;
    if (p->group != q->group)
        return p->group < q->group ? -1 : 1;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->row < q->row ? -1 : p->row > q->row;
}

/* Interned strings: the lines' names and the categories of a bar chart,
 * in the order they first appear. */
typedef struct {
    char **name;
    int n;
} names_t;

static int intern(names_t *names, const char *name)
{
    for (int i = 0; i < names->n; i++)
        if (strcmp(names->name[i], name) == 0)
            return i;
    names->name[names->n] = strdup(name);
    return names->name[names->n] ? names->n++ : -1;
}

static void names_free(names_t *names)
{
    for (int i = 0; i < names->n; i++)
        free(names->name[i]);
    free(names->name);
}

/* The name of row r's line: its --by values, each number after its
 * column's name (np 64), words as they are; joined by ", ". */
static void line_name(const sc_plot_table_t *t, const plot_opts_t *o, const cols_t *c, int r,
                      char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < o->nby && n < size; i++) {
        double v;
        const char *value = sc_plot_cell(t, r, c->by[i]);
        if (is_number(value, &v) || !*value)
            n += (size_t)snprintf(out + n, size - n, "%s%s %s", i ? ", " : "", o->by[i], value);
        else
            n += (size_t)snprintf(out + n, size - n, "%s%s", i ? ", " : "", value);
    }
}

/* The columns that say which point a row is, for --relative-to: a sweep's
 * axes (the names its key column lists), which x is one of or derives
 * from (the run's platform, say); else the run's inputs and x. Sets
 * same[col] for each. */
static void point_columns(const sc_plot_table_t *t, const char *x, int *same)
{
    static const char *const inputs[] = {"platform_file", "program", "algo", "np", "size_bytes",
                                         "op", "type", NULL};
    int key = -1;
    for (int c = 0; c < t->ncols; c++)
        if (strcmp(t->name[c], "key") == 0)
            key = c;
    for (int c = 0; c < t->ncols; c++)
        same[c] = key < 0 && strcmp(t->name[c], x) == 0;
    for (int c = 0; c < t->ncols; c++) {
        if (key >= 0 && t->nrows > 0) {
            /* KEY=VALUE;... : a key at the start or after a ';' whose
             * column (sc_sweep_axis_column) this is */
            for (const char *k = sc_plot_cell(t, 0, key); k && !same[c];
                 k = strchr(k, ';'), k = k ? k + 1 : k) {
                char name[64];
                snprintf(name, sizeof name, "%.*s", (int)strcspn(k, "=;"), k);
                same[c] = k[strlen(name)] == '=' && !strcmp(sc_sweep_axis_column(name), t->name[c]);
            }
        } else {
            for (int i = 0; inputs[i] && !same[c]; i++)
                same[c] = strcmp(inputs[i], t->name[c]) == 0;
        }
    }
}

/* The row that row r is compared with under --relative-to: the values
 * asked for in their columns, the same as row r in every other column of
 * `same`; -1 if none. */
static int reference_row(const sc_plot_table_t *t, const plot_opts_t *o, const cols_t *c,
                         const int *same, int r)
{
    for (int q = 0; q < t->nrows; q++) {
        int match = kept(t, o, c, q);
        for (int i = 0; i < o->nrelative && match; i++)
            match =
                strcmp(sc_plot_cell(t, q, c->relative[i]), strchr(o->relative_to[i], '=') + 1) == 0;
        for (int col = 0; col < t->ncols && match; col++) {
            int asked = 0;
            for (int i = 0; i < o->nrelative; i++)
                asked |= col == c->relative[i];
            match = !same[col] || asked ||
                    strcmp(sc_plot_cell(t, q, col), sc_plot_cell(t, r, col)) == 0;
        }
        if (match)
            return q;
    }
    return -1;
}

/* The points of the rows --where keeps: lines (by --by), categories (an x
 * of words), y or its ratio (--relative-to). A y that is not a number is
 * SC_ERR_INPUT naming its line. */
/* Where the rows drawn ran on fewer nodes than their platform has (a
 * platform_nodes column beside nodes): "np 64 on 8 of 16 nodes, np 32 on
 * 4 of 16" into note, each case once; "" if none. A what-if that adds
 * nodes changes nothing for a point that does not fill them, and the plot
 * says why. */
static void fewer_nodes(const plot_opts_t *o, const sc_plot_table_t *t, const cols_t *c, char *note,
                        size_t size)
{
    int used = -1, has = -1, np = -1, cases = 0;
    for (int i = 0; i < t->ncols; i++) {
        used = strcmp(t->name[i], "nodes") ? used : i;
        has = strcmp(t->name[i], "platform_nodes") ? has : i;
        np = strcmp(t->name[i], "np") ? np : i;
    }
    size_t n = 0;
    note[0] = '\0';
    for (int r = 0; used >= 0 && has >= 0 && r < t->nrows && n < size; r++) {
        double a, b;
        if (!kept(t, o, c, r) || !is_number(sc_plot_cell(t, r, used), &a) ||
            !is_number(sc_plot_cell(t, r, has), &b) || a >= b)
            continue;
        char one[128];
        snprintf(one, sizeof one, "%s%s on %s of %s nodes", np >= 0 ? "np " : "",
                 np >= 0 ? sc_plot_cell(t, r, np) : "points", sc_plot_cell(t, r, used),
                 sc_plot_cell(t, r, has));
        if (strstr(note, one))
            continue;
        if (cases++ == 6) {
            n += (size_t)snprintf(note + n, size - n, ", ...");
            break;
        }
        n += (size_t)snprintf(note + n, size - n, "%s%s", n ? ", " : "", one);
    }
}

/* When --where keeps no row: the first --where that keeps none alone, and
 * the values its column holds, ": np has 16, 32, 64" (a value mistyped, or
 * spelt otherwise than the file does); "" if each keeps some. */
static void where_values(const plot_opts_t *o, const sc_plot_table_t *t, const cols_t *c, char *out,
                         size_t size)
{
    out[0] = '\0';
    for (int i = 0; i < o->nwhere; i++) {
        const char *want = strchr(o->where[i], '=') + 1;
        int any = 0;
        for (int r = 0; r < t->nrows && !any; r++)
            any = !strcmp(sc_plot_cell(t, r, c->where[i]), want);
        if (any)
            continue;
        size_t n = (size_t)snprintf(out, size, ": %s has", t->name[c->where[i]]);
        int shown = 0;
        for (int r = 0; r < t->nrows && n < size; r++) {
            const char *v = sc_plot_cell(t, r, c->where[i]);
            int seen = 0;
            for (int q = 0; q < r && !seen; q++)
                seen = !strcmp(sc_plot_cell(t, q, c->where[i]), v);
            if (seen)
                continue;
            if (shown++ == 12) {
                n += (size_t)snprintf(out + n, size - n, ", ...");
                break;
            }
            n += (size_t)snprintf(out + n, size - n, "%s '%s'", shown > 1 ? "," : "", v);
        }
        return;
    }
}

static sc_err_t collect_points(const plot_opts_t *o, const sc_plot_table_t *t, const cols_t *c,
                               point_t *pts, int *npts, names_t *groups, names_t *categories)
{
    sc_err_t err = SC_OK;
    int *same = calloc((size_t)t->ncols, sizeof *same);
    int words = 0, unmatched = 0, first_unmatched = 0;
    if (!same)
        return sc_error(SC_ERR_RUN, "out of memory");
    point_columns(t, o->x, same);
    *npts = 0;
    for (int r = 0; r < t->nrows; r++) {
        double v;
        words |= kept(t, o, c, r) && !is_number(sc_plot_cell(t, r, c->x), &v);
    }
    for (int r = 0; r < t->nrows && !err; r++) {
        if (!kept(t, o, c, r))
            continue;
        double x, y;
        if (!is_number(sc_plot_cell(t, r, c->y), &y)) {
            err = sc_error(SC_ERR_INPUT, "plot '%s':%d: %s is '%s', not a number", o->csv,
                           t->line[r], o->y, sc_plot_cell(t, r, c->y));
            break;
        }
        if (o->nrelative) {
            int q = reference_row(t, o, c, same, r);
            double ref;
            if (q < 0 || !is_number(sc_plot_cell(t, q, c->y), &ref)) {
                first_unmatched = unmatched++ ? first_unmatched : t->line[r];
                continue;
            }
            y = ref / y;
        }
        char name[1024];
        line_name(t, o, c, r, name, sizeof name);
        int g = intern(groups, name);
        int k = words ? intern(categories, sc_plot_cell(t, r, c->x)) : 0;
        if (g < 0 || k < 0) {
            err = sc_error(SC_ERR_RUN, "out of memory");
            break;
        }
        if (!words)
            is_number(sc_plot_cell(t, r, c->x), &x);
        pts[(*npts)++] = (point_t){g, r, words ? k : x, y};
    }
    free(same);
    int failed = 0;
    for (int r = 0; r < t->nrows; r++)
        failed += wanted(t, o, c, r) && !kept(t, o, c, r);
    if (!err && failed)
        fprintf(stderr, "simcoll: plot: %d row%s of failed points (status not ok) left out\n",
                failed, failed == 1 ? "" : "s");
    if (!err && unmatched)
        fprintf(stderr,
                "simcoll: plot: %d rows have no row with %s at the same point to compare with "
                "(the first at line %d); they are left out\n",
                unmatched, o->relative_list, first_unmatched);
    if (!err && *npts == 0) {
        char values[600];
        where_values(o, t, c, values, sizeof values);
        err = sc_error(SC_ERR_INPUT, "plot '%s': no row to draw%s%s", o->csv,
                       unmatched      ? " (none has a row to compare with)"
                       : o->nwhere ? " (--where kept none)"
                                   : "",
                       unmatched ? "" : values);
    }
    return err;
}

/* Two rows of one line at one x would draw a zig-zag where a reader sees
 * a curve: refused, naming the columns the two rows differ in (the
 * columns that say which point a row is first), for --by or --where. */
static sc_err_t check_one_value(const plot_opts_t *o, const sc_plot_table_t *t, const cols_t *c,
                                point_t *pts, int npts)
{
    qsort(pts, (size_t)npts, sizeof *pts, by_group_x);
    for (int i = 1; i < npts; i++) {
        if (pts[i].group != pts[i - 1].group || pts[i].x != pts[i - 1].x)
            continue;
        int a = pts[i - 1].row < pts[i].row ? pts[i - 1].row : pts[i].row,
            b = pts[i - 1].row < pts[i].row ? pts[i].row : pts[i - 1].row;
        int *same = calloc((size_t)t->ncols, sizeof *same);
        if (!same)
            return sc_error(SC_ERR_RUN, "out of memory");
        point_columns(t, o->x, same);
        char differ[1024] = "", example[512] = "";
        size_t n = 0;
        for (int pass = 0; pass < 2 && !*differ; pass++)
            for (int col = 0; col < t->ncols && n < sizeof differ; col++) {
                const char *name = t->name[col];
                if ((pass == 0 && !same[col]) || !strcmp(name, "key") || !strcmp(name, o->y) ||
                    !strcmp(sc_plot_cell(t, a, col), sc_plot_cell(t, b, col)))
                    continue;
                if (!*example)
                    snprintf(example, sizeof example, "--by %s%s%s, or --where %s=%s",
                             o->nby ? o->by_list : "", o->nby ? "," : "", name, name,
                             sc_plot_cell(t, a, col));
                n += (size_t)snprintf(differ + n, sizeof differ - n, "%s%s ('%s', '%s')",
                                      *differ ? ", " : "", name, sc_plot_cell(t, a, col),
                                      sc_plot_cell(t, b, col));
            }
        free(same);
        return sc_error(SC_ERR_INPUT,
                        "plot '%s': lines %d and %d would put two values of %s at %s %s on one "
                        "line; they differ in %s: draw a line for each (%s)",
                        o->csv, t->line[a], t->line[b], o->y, o->x, sc_plot_cell(t, a, c->x),
                        *differ ? differ : "nothing but y", *example ? example : "--where");
    }
    return SC_OK;
}
/* The axes' labels, formats and scales: y only for bars, whose x is the
 * categories; scale[a] multiplies axis a's data into its unit
 * (axis_unit). A logarithmic axis over values not above 0 is SC_ERR_INPUT
 * (the y axis's when both are). */
static sc_err_t write_axes(FILE *s, const plot_opts_t *o, int bars, const double lo[2],
                           const double hi[2], double scale[2])
{
    char quoted[1024], ratio[1024];
    /* Of times, the reference's over this one's is how many times faster
     * this one is: a speedup, as the reader asks it. */
    if (sc_ends_with(o->y, "_s"))
        snprintf(ratio, sizeof ratio, "speedup over the reference (its %s / this one's)",
                 label(o->y));
    else
        snprintf(ratio, sizeof ratio, "ratio: the reference's %s over this one's", label(o->y));
    const char *names[2] = {o->x, o->y};
    int logs[2] = {o->logx, o->logy};
    sc_err_t err = SC_OK;
    scale[0] = scale[1] = 1;
    for (int a = bars; a < 2; a++) {
        int log = logs[a] >= 0 ? logs[a] : !bars && lo[a] > 0 && hi[a] >= 100 * lo[a];
        if (log && lo[a] <= 0)
            err = sc_error(SC_ERR_INPUT,
                           "plot: a logarithmic %s axis needs values above 0, "
                           "and %s has %g (use --lin%c)",
                           a ? "y" : "x", names[a], lo[a], a ? 'y' : 'x');
        int relative = a == 1 && o->nrelative;
        char unit[16] = "", text[1100];
        if (!relative)
            axis_unit(names[a], fmax(fabs(lo[a]), fabs(hi[a])), &scale[a], unit, sizeof unit);
        snprintf(text, sizeof text, "%s%s%s%s", relative ? ratio : label(names[a]),
                 *unit ? " (" : "", unit, *unit ? ")" : "");
        sc_gnuplot_quote(text, quoted, sizeof quoted);
        fprintf(s, "set %clabel '%s'\nset format %c '%%g'\n", a ? 'y' : 'x', quoted,
                a ? 'y' : 'x');
        if (log)
            fprintf(s, "set logscale %c%s\n", a ? 'y' : 'x',
                    !relative && sc_ends_with(names[a], "bytes") ? " 2" : "");
        else if (bars)
            fputs("set yrange [0:*]\n", s);
        if (!relative && sc_ends_with(names[a], "bytes") && !(log && lo[a] <= 0))
            write_byte_tics(s, a ? 'y' : 'x', lo[a], hi[a], log);
    }
    if (bars) {
        sc_gnuplot_quote(label(o->x), quoted, sizeof quoted);
        fprintf(s, "set xlabel '%s'\n", quoted);
    }
    return err;
}

/* A line per group: an inline data block each, its points in x order
 * (pts sorted so). */
static void write_lines(FILE *s, const point_t *pts, int npts, const names_t *groups)
{
    for (int g = 0, i = 0; g < groups->n; g++) {
        fprintf(s, "$d%d << EOD\n", g);
        for (; i < npts && pts[i].group == g; i++)
            fprintf(s, "%.17g %.17g\n", pts[i].x, pts[i].y);
        fputs("EOD\n", s);
    }
}

/* gnuplot's column `col` of the data times `scale`: "2", "($2*1000)". */
static void put_column(FILE *s, int col, double scale)
{
    if (scale == 1)
        fprintf(s, "%d", col);
    else
        fprintf(s, "($%d*%.17g)", col, scale);
}

/* The plot command of lines, the data (in the CSV's units) scaled to the
 * axes' (scale). */
static void write_line_plot(FILE *s, const names_t *groups, const plot_opts_t *o,
                            const double scale[2])
{
    char quoted[1024];
    fputs("plot ", s);
    for (int g = 0; g < groups->n; g++) {
        sc_gnuplot_quote(o->nby ? groups->name[g] : o->y, quoted, sizeof quoted);
        fprintf(s, "%s$d%d using ", g ? ", \\\n     " : "", g);
        put_column(s, 1, scale[0]);
        fputc(':', s);
        put_column(s, 2, scale[1]);
        fprintf(s, " with linespoints lw 2 title '%s'", quoted);
    }
    fputc('\n', s);
}

/* Bars: one data block, a row per category (x), a column per line; a
 * line without that category gets NaN (no bar). */
static void write_bars(FILE *s, const point_t *pts, int npts, const names_t *groups,
                       const names_t *categories, double scale)
{
    char quoted[1024];
    fputs("$bars << EOD\n", s);
    for (int k = 0; k < categories->n; k++) {
        /* gnuplot's own quoting: a string in double quotes, \" and \\ inside */
        fputc('"', s);
        for (const char *c = categories->name[k]; *c; c++) {
            if (*c == '"' || *c == '\\')
                fputc('\\', s);
            fputc(*c, s);
        }
        fputc('"', s);
        for (int g = 0; g < groups->n; g++) {
            double y = NAN;
            for (int i = 0; i < npts; i++)
                if (pts[i].group == g && (int)pts[i].x == k)
                    y = pts[i].y;
            fprintf(s, " %.17g", y);
        }
        fputc('\n', s);
    }
    size_t longest = 0;
    for (int k = 0; k < categories->n; k++)
        if (strlen(categories->name[k]) > longest)
            longest = strlen(categories->name[k]);
    fputs("EOD\n"
          "set style data histograms\nset style histogram clustered gap 1\n"
          "set style fill solid 0.8 border -1\n",
          s);
    /* Names that would run into each other under their clusters slant. */
    fputs(longest * (size_t)categories->n > 90 ? "set xtics scale 0 rotate by -25\n"
                                               : "set xtics scale 0\n",
          s);
    fputs("plot ", s);
    for (int g = 0; g < groups->n; g++) {
        sc_gnuplot_quote(groups->name[g], quoted, sizeof quoted);
        fprintf(s, "%s$bars using ", g ? ", \\\n     " : "");
        put_column(s, g + 2, scale);
        fprintf(s, "%s title '%s'", g ? "" : ":xtic(1)", quoted);
    }
    fputc('\n', s);
}

/* Writes the gnuplot script, the data inline. */
static sc_err_t write_script(const plot_opts_t *o, const sc_plot_table_t *t, const cols_t *c,
                             const char *terminal, char **script)
{
    size_t len;
    FILE *s = open_memstream(script, &len);
    point_t *pts = malloc(((size_t)t->nrows + 1) * sizeof *pts);
    names_t groups = {calloc((size_t)t->nrows + 1, sizeof(char *)), 0},
            categories = {calloc((size_t)t->nrows + 1, sizeof(char *)), 0};
    sc_err_t err = !s || !pts || !groups.name || !categories.name
                       ? sc_error(SC_ERR_RUN, "out of memory")
                       : SC_OK;
    int npts = 0;
    if (!err)
        err = collect_points(o, t, c, pts, &npts, &groups, &categories);
    if (!err)
        err = check_one_value(o, t, c, pts, npts);
    int bars = categories.n > 0;
    if (!err && bars && o->logx >= 0)
        err = sc_error(SC_ERR_INPUT,
                       "plot: x is %s, words (such as '%s'), drawn as bars; leave --logx and "
                       "--linx out",
                       o->x, categories.name[0]);
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (int i = 0; !err && i < npts; i++)
        for (int a = 0; a < 2; a++) {
            double v = a ? pts[i].y : pts[i].x;
            lo[a] = v < lo[a] ? v : lo[a];
            hi[a] = v > hi[a] ? v : hi[a];
        }
    if (!err) {
        if (!bars)
            write_lines(s, pts, npts, &groups);
        /* The key goes under the plot: beside it, long titles (a
         * platform file, a command) squeeze the plot to half the width;
         * and a line's height apart from the x axis's label, which it
         * touched. */
        fprintf(s, "set terminal %s\nset output\nset grid\nset key below height 1.5\n",
                terminal);
        double scale[2];
        err = write_axes(s, o, bars, lo, hi, scale);
        /* The title, then the reference (which the y label has no room
         * for), then the points that did not fill their platform, a line
         * each, as wide as the picture. */
        char reference[600] = "", fewer[600], fewer_line[700] = "";
        if (o->nrelative)
            snprintf(reference, sizeof reference, "the reference: %s", o->relative_list);
        fewer_nodes(o, t, c, fewer, sizeof fewer);
        if (*fewer) {
            snprintf(fewer_line, sizeof fewer_line, "fewer nodes than the platform has: %s",
                     fewer);
            fprintf(stderr, "simcoll: plot: %s\n", fewer_line);
        }
        const char *lines[] = {o->title ? o->title : "", reference, fewer_line};
        if (o->title || *reference || *fewer) {
            fputs("set title \"", s);
            for (size_t i = 0, any = 0; i < sizeof lines / sizeof lines[0]; i++) {
                if (!*lines[i])
                    continue;
                if (any++)
                    fputs("\\n", s);
                for (const char *ch = lines[i]; *ch; ch++)
                    fprintf(s, "%s%c", *ch == '"' || *ch == '\\' ? "\\" : "",
                            *ch == '\n' ? ' ' : *ch);
            }
            fputs("\"\n", s);
        }
        if (bars)
            write_bars(s, pts, npts, &groups, &categories, scale[1]);
        else
            write_line_plot(s, &groups, o, scale);
    }
    if (!err && groups.n > 1 && npts == groups.n && !bars)
        fprintf(stderr, "simcoll: plot: each line has one point: --by %s tells every row "
                        "apart; group by a column the rows share (an axis of the study)\n",
                o->by_list);
    free(pts);
    names_free(&groups);
    names_free(&categories);
    if (s && fclose(s) != 0 && !err)
        err = sc_error(SC_ERR_RUN, "out of memory");
    if (err) {
        free(*script);
        *script = NULL;
    }
    return err;
}

/* A sweep's assumed column: on stderr, the points drawn that rest on an
 * assumed parameter (each with what its ±50% did), and how many drawn
 * points use one that the sweep did not check. */
static void note_assumed(const sc_plot_table_t *t, const plot_opts_t *o, const cols_t *c)
{
    int col = -1, unchecked = 0, drawn = 0;
    for (int i = 0; i < t->ncols; i++)
        if (!strcmp(t->name[i], "assumed") && !strcmp(t->name[0], "key"))
            col = i;
    for (int r = 0; col >= 0 && r < t->nrows; r++) {
        const char *v = sc_plot_cell(t, r, col);
        if (!kept(t, o, c, r) || !*v)
            continue;
        drawn++;
        if (!strcmp(v, "not checked"))
            unchecked++;
        else
            fprintf(stderr, "note: point %s rests on assumed %s\n",
                    sc_plot_cell(t, r, 0), v);
    }
    if (unchecked)
        fprintf(stderr,
                "note: %d of the points drawn use assumed parameters that the sweep did not "
                "check (it checks the first point of each platform; simcoll on one point "
                "checks it)\n",
                unchecked);
}

int sc_cli_plot(int argc, char **argv)
{
    plot_opts_t o;
    int done;
    sc_err_t err = parse_plot(argc, argv, &o, &done);
    if (err || done)
        return err ? sc_cli_fail(err) : 0;
    const char *terminal = NULL;
    sc_plot_table_t t = {0};
    if ((err = sc_gnuplot_terminal("-o", o.out, &terminal)) ||
        (err = sc_plot_table_read(o.csv, &t)))
        return sc_cli_fail(err);
    cols_t c = {.status = -1};
    for (int i = 0; i < t.ncols; i++)
        if (!strcmp(t.name[i], "status") && !strcmp(t.name[0], "key"))
            c.status = i;
    if (!(err = sc_plot_column(&t, o.csv, "-x", o.x, &c.x)))
        err = sc_plot_column(&t, o.csv, "-y", o.y, &c.y);
    for (int i = 0; i < o.nby && !err; i++)
        err = sc_plot_column(&t, o.csv, "--by", o.by[i], &c.by[i]);
    for (int i = 0; i < o.nwhere && !err; i++) {
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(strchr(o.where[i], '=') - o.where[i]),
                 o.where[i]);
        err = sc_plot_column(&t, o.csv, "--where", name, &c.where[i]);
    }
    for (int i = 0; i < o.nrelative && !err; i++) {
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(strchr(o.relative_to[i], '=') - o.relative_to[i]),
                 o.relative_to[i]);
        err = sc_plot_column(&t, o.csv, "--relative-to", name, &c.relative[i]);
        size_t n = strlen(o.relative_list);
        snprintf(o.relative_list + n, sizeof o.relative_list - n, "%s%s", i ? ", " : "",
                 o.relative_to[i]);
    }
    char *script = NULL;
    if (!err)
        err = write_script(&o, &t, &c, terminal, &script);
    if (!err)
        err = sc_gnuplot("-o", o.out, script);
    if (!err)
        note_assumed(&t, &o, &c);
    free(script);
    sc_plot_table_free(&t);
    return err ? sc_cli_fail(err) : 0;
}

