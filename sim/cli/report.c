/* Printing run results as a table, CSV or JSON.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "report.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

#include "args.h"
#include "common/sc_units.h"

static const char *valid_word(int valid)
{
    return valid > 0 ? "yes" : valid == 0 ? "NO" : "n/a";
}

static long total_messages(const sc_run_result_t *r)
{
    return r->messages[SC_LEVEL_INTRA] + r->messages[SC_LEVEL_INTER];
}

/* The bytes or messages of each level of the network's hierarchy, level 0
 * first: ",b0;b1;..." in CSV, ", "level_bytes": [b0, b1, ...]" in JSON. */
/* The platform's nodes beside the run's `nodes` (those its ranks used):
 * np 512 on 8 of 16 nodes shows. */
static void put_platform_nodes(FILE *out, const sc_run_result_t *r, int json)
{
    fprintf(out, json ? ", \"platform_nodes\": %d" : ",%d", r->platform_nodes);
}

static void put_levels(FILE *out, const sc_run_result_t *r, int json)
{
    int n = r->nlevels > 2 ? r->nlevels : 2;
    for (int which = 0; which < 2; which++) {
        if (json)
            fprintf(out, ", \"%s\": [", which ? "level_messages" : "level_bytes");
        else
            fputc(',', out);
        for (int l = 0; l < n; l++) {
            const char *sep = l == 0 ? "" : json ? ", " : ";";
            if (which)
                fprintf(out, "%s%ld", sep, r->level_messages[l]);
            else
                fprintf(out, "%s%.0f", sep, r->level_bytes[l]);
        }
        if (json)
            fputc(']', out);
    }
}

void sc_csv_string(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}


/* The valid column of a table, with the bets of speculative reductions. */
static void valid_cell(const sc_run_result_t *r, char *cell, size_t size)
{
    if (r->speculated)
        snprintf(cell, size, "%s (%ld bets, %ld wrong)", valid_word(r->valid), r->speculated,
                 r->mispredicted);
    else
        snprintf(cell, size, "%s", valid_word(r->valid));
}

/* The command line as a shell would take it back: words with anything but
 * letters, digits and -_./=,:+@% in single quotes. */
void sc_provenance_command(const sc_provenance_t *prov, char *text, size_t size)
{
    size_t n = 0;
    text[0] = '\0';
    for (int i = 0; i < prov->argc && n + 1 < size; i++) {
        const char *word = prov->argv[i];
        if (i == 0) {
            const char *slash = strrchr(word, '/');
            word = slash ? slash + 1 : word;
        }
        int plain = *word != '\0';
        for (const char *c = word; *c && plain; c++)
            plain = isalnum((unsigned char)*c) || strchr("-_./=,:+@%", *c);
        n += (size_t)snprintf(text + n, size - n, "%s", i ? " " : "");
        if (plain) {
            n += (size_t)snprintf(text + n, size - n, "%s", word);
            continue;
        }
        char quoted[8300];
        sc_shell_quote(word, quoted, sizeof quoted); /* cut below if long */
        n += (size_t)snprintf(text + n, size - n, "%s", quoted);
    }
    if (n >= size && size > 4)
        memcpy(text + size - 4, "...", 4);
}

static void csv_provenance(FILE *out, const sc_provenance_t *prov, const char *command)
{
    fprintf(out, ",%s,", SC_VERSION);
    sc_csv_string(out, prov->platform_file);
    fputc(',', out);
    sc_csv_string(out, command);
}

static void json_provenance(FILE *out, const sc_provenance_t *prov, const char *command)
{
    fprintf(out, ", \"simcoll_version\": \"%s\", \"platform_file\": ", SC_VERSION);
    sc_json_string(out, prov->platform_file);
    fputs(", \"command\": ", out);
    sc_json_string(out, command);
}

static void table_provenance(FILE *out, const sc_provenance_t *prov, const char *command)
{
    fprintf(out, "# simcoll %s, platform file %s: %s\n", SC_VERSION, prov->platform_file,
            command);
}

void sc_provenance_csv_fields(FILE *out, const sc_provenance_t *prov)
{
    char command[4096];
    sc_provenance_command(prov, command, sizeof command);
    csv_provenance(out, prov, command);
}

void sc_provenance_line(FILE *out, const sc_provenance_t *prov)
{
    char command[4096];
    sc_provenance_command(prov, command, sizeof command);
    table_provenance(out, prov, command);
}

const char *sc_report_csv_header(void)
{
    return "platform,algo,collective,np,nodes,size_bytes,mapping,sim_time_s,"
           "model_time_s,inter_node_bytes,intra_node_bytes,inter_node_messages,"
           "intra_node_messages,messages,valid,cut_weight,graph_weight,partition_wall_time_s,"
           "op,type,max_rank_bytes,critical_path_bytes,mpi,speculated,mispredicted,"
           "mean_rank_time_s,level_bytes,level_messages,platform_nodes,simcoll_version,platform_file,"
           "command";
}

const char *sc_program_report_csv_header(void)
{
    return "program,platform,np,nodes,mapping,pack,sim_time_s,model_time_s,statements,"
           "inter_node_bytes,intra_node_bytes,inter_node_messages,intra_node_messages,"
           "messages,valid,speculated,mispredicted,level_bytes,level_messages,platform_nodes,"
           "simcoll_version,platform_file,command";
}

/* `value` in `format` into out[0..31], or `none` where there is none
 * (NaN: a platform without a model, an algorithm without a fixed graph). */
static void number_or(char *out, double value, const char *format, const char *none)
{
    if (isnan(value))
        snprintf(out, 32, "%s", none);
    else
        snprintf(out, 32, format, value);
}

/* The numbers a row may lack, as text: `none` where there is none. */
typedef struct {
    char model[32], cut[32], graph[32];
} optional_numbers_t;

static optional_numbers_t optional_numbers(const sc_report_row_t *row, const char *none)
{
    optional_numbers_t o;
    number_or(o.model, row->result.model_time_s, "%.9g", none);
    number_or(o.cut, row->cut_weight, "%.0f", none);
    number_or(o.graph, row->graph_weight, "%.0f", none);
    return o;
}

static void print_csv(FILE *out, const sc_report_row_t *rows, int nrows,
                      const sc_provenance_t *prov, const char *command)
{
    fputs(sc_report_csv_header(), out);
    fputc('\n', out);
    for (int i = 0; i < nrows; i++) {
        const sc_report_row_t *row = &rows[i];
        const sc_run_result_t *r = &row->result;
        optional_numbers_t opt = optional_numbers(row, ""); /* empty cells */
        sc_csv_string(out, row->platform);
        fprintf(out, ",%s,%s,%d,%d,%zu,", row->algo->name,
                sc_collective_name(row->algo->collective), row->np, r->nodes, row->bytes);
        sc_csv_string(out, row->mapping);
        fprintf(out, ",%.9g,%s,%.0f,%.0f,%ld,%ld,%ld,%s,%s,%s,%.6g,%s,%s,%.0f,%.0f,",
                r->sim_time_s, opt.model, r->bytes[SC_LEVEL_INTER], r->bytes[SC_LEVEL_INTRA],
                r->messages[SC_LEVEL_INTER], r->messages[SC_LEVEL_INTRA], total_messages(r),
                r->valid > 0    ? "yes"
                : r->valid == 0 ? "no"
                                : "",
                opt.cut, opt.graph, row->partition_wall_time_s,
                sc_algo_is_reduction(row->algo) ? sc_op_name(row->op) : "",
                sc_algo_is_reduction(row->algo) ? sc_type_name(row->type) : "", r->max_rank_bytes,
                r->path_bytes);
        if (row->mpi)
            sc_csv_string(out, row->mpi);
        fprintf(out, ",%ld,%ld,%.9g", r->speculated, r->mispredicted, r->mean_rank_time_s);
        put_levels(out, r, 0);
        put_platform_nodes(out, r, 0);
        csv_provenance(out, prov, command);
        fputc('\n', out);
    }
}

/* Length of the valid UTF-8 sequence at s (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF), or 0. */
static int utf8_length(const unsigned char *s)
{
    int n = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3
                          : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (n == 0)
        return 0;
    unsigned long cp = n == 1 ? s[0] : s[0] & (0x7f >> n);
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    static const unsigned long least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

/* Writes s as a JSON string literal. JSON is UTF-8: a byte that is not
 * part of valid UTF-8 (a file name can hold any) becomes U+FFFD. */
void sc_json_string(FILE *out, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    fputc('"', out);
    while (*s) {
        int n = utf8_length(s);
        if (n == 0) {
            fputs("\\ufffd", out);
            s++;
        } else if (*s == '"' || *s == '\\') {
            fprintf(out, "\\%c", *s++);
        } else if (*s < 0x20) {
            fprintf(out, "\\u%04x", *s++);
        } else {
            fwrite(s, 1, (size_t)n, out);
            s += n;
        }
    }
    fputc('"', out);
}

/* The end of a run's or a program's JSON object: what speculation did, the
 * levels, the nodes, the provenance, and a comma unless it is the last. */
static void json_row_end(FILE *out, const sc_run_result_t *r, const sc_provenance_t *prov,
                         const char *command, int last)
{
    fprintf(out, ", \"speculated\": %ld, \"mispredicted\": %ld, \"mean_rank_time_s\": %.9g",
            r->speculated, r->mispredicted, r->mean_rank_time_s);
    put_levels(out, r, 1);
    put_platform_nodes(out, r, 1);
    json_provenance(out, prov, command);
    fprintf(out, "}%s\n", last ? "" : ",");
}

static void print_json(FILE *out, const sc_report_row_t *rows, int nrows,
                       const sc_provenance_t *prov, const char *command)
{
    fputs("[\n", out);
    for (int i = 0; i < nrows; i++) {
        const sc_report_row_t *row = &rows[i];
        const sc_run_result_t *r = &row->result;
        optional_numbers_t opt = optional_numbers(row, "null");
        fputs("  {\"platform\": ", out);
        sc_json_string(out, row->platform);
        fputs(", \"algo\": ", out);
        sc_json_string(out, row->algo->name);
        fprintf(out,
                ", \"collective\": \"%s\", \"np\": %d, \"nodes\": %d, \"size_bytes\": %zu, "
                "\"mapping\": ",
                sc_collective_name(row->algo->collective), row->np, r->nodes, row->bytes);
        sc_json_string(out, row->mapping);
        fprintf(out,
                ", \"sim_time_s\": %.9g, \"model_time_s\": %s, \"inter_node_bytes\": %.0f, "
                "\"intra_node_bytes\": %.0f, \"inter_node_messages\": %ld, "
                "\"intra_node_messages\": %ld, \"messages\": %ld, \"valid\": %s, "
                "\"cut_weight\": %s, \"graph_weight\": %s, \"partition_wall_time_s\": %.6g, ",
                r->sim_time_s, opt.model, r->bytes[SC_LEVEL_INTER], r->bytes[SC_LEVEL_INTRA],
                r->messages[SC_LEVEL_INTER], r->messages[SC_LEVEL_INTRA], total_messages(r),
                r->valid > 0    ? "true"
                : r->valid == 0 ? "false"
                                : "null",
                opt.cut, opt.graph, row->partition_wall_time_s);
        if (sc_algo_is_reduction(row->algo))
            fprintf(out, "\"op\": \"%s\", \"type\": \"%s\", ", sc_op_name(row->op),
                    sc_type_name(row->type));
        else
            fputs("\"op\": null, \"type\": null, ", out);
        fprintf(out, "\"max_rank_bytes\": %.0f, \"critical_path_bytes\": %.0f, \"mpi\": ",
                r->max_rank_bytes, r->path_bytes);
        if (row->mpi)
            sc_json_string(out, row->mpi);
        else
            fputs("null", out);
        json_row_end(out, r, prov, command, i + 1 == nrows);
    }
    fputs("]\n", out);
}

enum { NCOLS = 18, CELL = 64, LEVELS_COL = 16, MPI_COL = 17 };

static void table_cells(const sc_report_row_t *row, char cells[NCOLS][CELL])
{
    const sc_run_result_t *r = &row->result;
    snprintf(cells[0], CELL, "%s", row->platform);
    snprintf(cells[1], CELL, "%s", row->algo->name);
    snprintf(cells[2], CELL, "%d", row->np);
    snprintf(cells[3], CELL, "%d", r->nodes);
    sc_format_bytes((double)row->bytes, cells[4], CELL);
    snprintf(cells[5], CELL, "%s", row->mapping);
    sc_format_duration(r->sim_time_s, cells[6], CELL);
    sc_format_duration(r->model_time_s, cells[7], CELL);
    sc_format_bytes(r->bytes[SC_LEVEL_INTER], cells[8], CELL);
    sc_format_bytes(r->bytes[SC_LEVEL_INTRA], cells[9], CELL);
    snprintf(cells[10], CELL, "%ld", total_messages(r));
    if (row->graph_weight > 0)
        snprintf(cells[11], CELL, "%.1f%%", 100 * row->cut_weight / row->graph_weight);
    else
        snprintf(cells[11], CELL, "-");
    if (sc_algo_is_reduction(row->algo))
        snprintf(cells[12], CELL, "%s/%s", sc_op_name(row->op), sc_type_name(row->type));
    else
        snprintf(cells[12], CELL, "-");
    sc_format_bytes(r->max_rank_bytes, cells[13], CELL);
    sc_format_bytes(r->path_bytes, cells[14], CELL);
    valid_cell(r, cells[15], CELL);
    /* Bytes between nodes by the network's level, 1 to the top. */
    cells[LEVELS_COL][0] = 0;
    for (int l = 1; l < r->nlevels && l < SC_MAX_LEVELS; l++) {
        char part[24];
        sc_format_bytes(r->level_bytes[l], part, sizeof part);
        size_t n = strlen(cells[LEVELS_COL]);
        snprintf(cells[LEVELS_COL] + n, CELL - n, "%s%s", l > 1 ? " / " : "", part);
    }
    snprintf(cells[MPI_COL], CELL, "%s", row->mpi ? row->mpi : "-");
}

/* One table line; the last column is not padded (no trailing blanks). */
static void print_line(FILE *out, int ncols, const char *const *cells, const int *width,
                       const int *left)
{
    for (int c = 0; c < ncols; c++) {
        int w = c + 1 < ncols ? width[c] : 0;
        fprintf(out, left[c] ? "%-*s" : "%*s", w, cells[c]);
        fputs(c + 1 < ncols ? "  " : "\n", out);
    }
}

/* A table of text cells: each column as wide as its widest cell or head.
 * A row's cells are ncols strings `cell` bytes apart, filled by cells(). */
enum { MAX_COLS = 18, MAX_ROW_BYTES = 18 * 512 };
_Static_assert((int)NCOLS <= (int)MAX_COLS && (int)NCOLS * CELL <= (int)MAX_ROW_BYTES,
               "a run's row fits");
typedef struct {
    int ncols; /* at most MAX_COLS, ncols * cell at most MAX_ROW_BYTES */
    const char *const *head;
    const int *left;  /* text columns align left, numbers right */
    const int *shown; /* the columns printed, NULL: all (all are measured) */
    size_t cell;
    void (*cells)(const void *rows, int i, char *cells);
} text_table_t;

static void print_text_table(FILE *out, const text_table_t *t, const void *rows, int nrows)
{
    int width[MAX_COLS], w[MAX_COLS] = {0}, l[MAX_COLS] = {0}, ncols = 0;
    char cells[MAX_ROW_BYTES];
    for (int c = 0; c < t->ncols; c++)
        width[c] = (int)strlen(t->head[c]);
    for (int i = 0; i < nrows; i++) {
        t->cells(rows, i, cells);
        for (int c = 0; c < t->ncols; c++)
            if ((int)strlen(cells + c * t->cell) > width[c])
                width[c] = (int)strlen(cells + c * t->cell);
    }
    const char *line[MAX_COLS] = {0};
    for (int c = 0; c < t->ncols; c++)
        if (!t->shown || t->shown[c]) {
            w[ncols] = width[c];
            l[ncols] = t->left[c];
            line[ncols++] = t->head[c];
        }
    print_line(out, ncols, line, w, l);
    for (int i = 0; i < nrows; i++) {
        t->cells(rows, i, cells);
        for (int c = 0, k = 0; c < t->ncols; c++)
            if (!t->shown || t->shown[c])
                line[k++] = cells + c * t->cell;
        print_line(out, ncols, line, w, l);
    }
}

static void run_cells(const void *rows, int i, char *cells)
{
    table_cells((const sc_report_row_t *)rows + i, (char(*)[CELL])cells);
}

static void print_table(FILE *out, const sc_report_row_t *rows, int nrows)
{
    static const char *const head[NCOLS] = {
        "platform",  "algo",  "np",         "nodes",      "size",     "mapping",
        "simulated", "model", "inter-node", "intra-node", "messages", "cut",
        "op",        "max/rank",   "crit. path", "valid", "by level", "mpi"};
    /* Text columns align left, numbers right. */
    static const int left[NCOLS] = {1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1};
    /* The by-level column only on a network of several levels, the mpi
     * column only when a profile chose an algorithm. */
    int shown[NCOLS];
    for (int c = 0; c < NCOLS; c++)
        shown[c] = c != LEVELS_COL && c != MPI_COL;
    for (int i = 0; i < nrows; i++) {
        shown[LEVELS_COL] |= rows[i].result.nlevels > 2;
        shown[MPI_COL] |= rows[i].mpi != NULL;
    }
    text_table_t t = {NCOLS, head, left, shown, CELL, run_cells};
    print_text_table(out, &t, rows, nrows);
}

/* Under a table, what its columns cannot say: what the model leaves out,
 * and the partitioner's time, which is wall-clock time, differs from run
 * to run and belongs to no simulated column. */
static void print_model_note(FILE *out)
{
    fputs("# model: the cost model's time for the same layout with no contention: each "
          "message alone on its links, NICs and memory buses; simulated - model is what "
          "messages sharing them cost\n",
          out);
}

static void print_table_notes(FILE *out, const sc_report_row_t *rows, int nrows)
{
    int modelled = 0;
    for (int i = 0; i < nrows; i++)
        modelled |= !isnan(rows[i].result.model_time_s);
    if (modelled)
        print_model_note(out);
    for (int i = 0; i < nrows; i++) {
        if (!(rows[i].partition_wall_time_s > 0))
            continue;
        char took[CELL], size[CELL];
        sc_format_duration(rows[i].partition_wall_time_s, took, sizeof took);
        sc_format_bytes((double)rows[i].bytes, size, sizeof size);
        fprintf(out,
                "# mapping of %s at np %d, %s: partitioned in %s of wall time (not simulated; "
                "it varies from run to run)\n",
                rows[i].algo->name, rows[i].np, size, took);
    }
}

void sc_report_print(FILE *out, sc_format_t format, const sc_report_row_t *rows, int nrows,
                     const sc_provenance_t *prov)
{
    char command[4096];
    sc_provenance_command(prov, command, sizeof command);
    switch (format) {
    case SC_FORMAT_CSV: print_csv(out, rows, nrows, prov, command); break;
    case SC_FORMAT_JSON: print_json(out, rows, nrows, prov, command); break;
    case SC_FORMAT_TABLE:
        print_table(out, rows, nrows);
        print_table_notes(out, rows, nrows);
        table_provenance(out, prov, command);
        break;
    }
}

/* ---- Programs ---- */

enum { PCOLS = 13, PCELL = 512 }; /* program paths can be long */
_Static_assert((int)PCOLS <= (int)MAX_COLS && (int)PCOLS * PCELL <= (int)MAX_ROW_BYTES,
               "a program row fits");

static void program_cells(const sc_program_report_row_t *row, char cells[PCOLS][PCELL])
{
    const sc_run_result_t *r = &row->result;
    snprintf(cells[0], PCELL, "%s", row->program);
    snprintf(cells[1], PCELL, "%s", row->platform);
    snprintf(cells[2], PCELL, "%d", row->np);
    snprintf(cells[3], PCELL, "%d", r->nodes);
    snprintf(cells[4], PCELL, "%s", row->mapping);
    snprintf(cells[5], PCELL, "%s", row->pack);
    sc_format_duration(r->sim_time_s, cells[6], PCELL);
    if (isnan(r->model_time_s))
        snprintf(cells[7], PCELL, "-");
    else
        sc_format_duration(r->model_time_s, cells[7], PCELL);
    snprintf(cells[8], PCELL, "%ld", r->statements);
    sc_format_bytes(r->bytes[SC_LEVEL_INTER], cells[9], PCELL);
    sc_format_bytes(r->bytes[SC_LEVEL_INTRA], cells[10], PCELL);
    snprintf(cells[11], PCELL, "%ld", total_messages(r));
    valid_cell(r, cells[12], PCELL);
}

static void program_row_cells(const void *rows, int i, char *cells)
{
    program_cells((const sc_program_report_row_t *)rows + i, (char(*)[PCELL])cells);
}

static void print_program_table(FILE *out, const sc_program_report_row_t *rows, int nrows)
{
    static const char *const head[PCOLS] = {"program",    "platform",   "np",       "nodes",
                                            "mapping",    "pack",       "simulated", "model",
                                            "statements", "inter-node", "intra-node", "messages",
                                            "valid"};
    static const int left[PCOLS] = {1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1};
    text_table_t t = {PCOLS, head, left, NULL, PCELL, program_row_cells};
    print_text_table(out, &t, rows, nrows);
}

void sc_program_report_print(FILE *out, sc_format_t format, const sc_program_report_row_t *rows,
                             int nrows, const sc_provenance_t *prov)
{
    char command[4096];
    sc_provenance_command(prov, command, sizeof command);
    if (format == SC_FORMAT_TABLE) {
        print_program_table(out, rows, nrows);
        int modelled = 0;
        for (int i = 0; i < nrows; i++)
            modelled |= !isnan(rows[i].result.model_time_s);
        if (modelled)
            print_model_note(out);
        table_provenance(out, prov, command);
        return;
    }
    int csv = format == SC_FORMAT_CSV;
    if (csv)
        fprintf(out, "%s\n", sc_program_report_csv_header());
    else
        fputs("[\n", out);
    for (int i = 0; i < nrows; i++) {
        const sc_program_report_row_t *row = &rows[i];
        const sc_run_result_t *r = &row->result;
        char model[32];
        if (isnan(r->model_time_s))
            snprintf(model, sizeof model, "%s", csv ? "" : "null");
        else
            snprintf(model, sizeof model, "%.9g", r->model_time_s);
        const char *valid = r->valid > 0 ? (csv ? "yes" : "true")
                            : r->valid == 0 ? (csv ? "no" : "false")
                                            : (csv ? "" : "null");
        if (csv) {
            sc_csv_string(out, row->program);
            fputc(',', out);
            sc_csv_string(out, row->platform);
            fprintf(out, ",%d,%d,", row->np, r->nodes);
            sc_csv_string(out, row->mapping);
            fprintf(out, ",%s,%.9g,%s,%ld,%.0f,%.0f,%ld,%ld,%ld,%s", row->pack, r->sim_time_s,
                    model, r->statements, r->bytes[SC_LEVEL_INTER], r->bytes[SC_LEVEL_INTRA],
                    r->messages[SC_LEVEL_INTER], r->messages[SC_LEVEL_INTRA], total_messages(r),
                    valid);
            fprintf(out, ",%ld,%ld", r->speculated, r->mispredicted);
            put_levels(out, r, 0);
            put_platform_nodes(out, r, 0);
            csv_provenance(out, prov, command);
            fputc('\n', out);
            continue;
        }
        fputs("  {\"program\": ", out);
        sc_json_string(out, row->program);
        fputs(", \"platform\": ", out);
        sc_json_string(out, row->platform);
        fprintf(out, ", \"np\": %d, \"nodes\": %d, \"mapping\": ", row->np, r->nodes);
        sc_json_string(out, row->mapping);
        fprintf(out,
                ", \"pack\": \"%s\", \"sim_time_s\": %.9g, \"model_time_s\": %s, "
                "\"statements\": %ld, \"inter_node_bytes\": %.0f, \"intra_node_bytes\": %.0f, "
                "\"inter_node_messages\": %ld, \"intra_node_messages\": %ld, \"messages\": %ld, "
                "\"valid\": %s",
                row->pack, r->sim_time_s, model, r->statements, r->bytes[SC_LEVEL_INTER],
                r->bytes[SC_LEVEL_INTRA], r->messages[SC_LEVEL_INTER],
                r->messages[SC_LEVEL_INTRA], total_messages(r), valid);
        json_row_end(out, r, prov, command, i + 1 == nrows);
    }
    if (!csv)
        fputs("]\n", out);
}
