/* Traffic matrices in Matrix Market coordinate format and as CSV.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "matrix.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/sc_grow.h"
#include "files.h"

/* A matrix of a million ranks, each talking to a few hundred others,
 * stays well below this; a larger file is a mistake. */
#define MAX_MATRIX_BYTES (4ul << 30)

/* The most ranks a run takes (--np). */
#define MAX_RANKS (1 << 30)

/* Lines are short: three or four numbers. */
#define MAX_LINE 1024

/* An entry of a symmetric Matrix Market file off the diagonal: its pair
 * of ranks, lower first, and whether it was written in the upper triangle
 * (row below column). */
typedef struct {
    int lo, hi, line, upper;
} pair_t;

typedef struct {
    const char *name;
    int line;
    sc_matrix_t *m;
    size_t cap;
    /* what every entry so far adds up to: no sum of some of them (a cut,
     * a node's load, two directions merged) can pass it */
    double total_bytes, total_messages;
    pair_t *pairs; /* symmetric files: each entry off the diagonal */
    long npairs;
    size_t pairs_cap;
} reader_t;

/* The next line of text into buf, without its end and any '\r'; 0 at the
 * end of the text. */
static int next_line(const char **at, const char *end, char *buf, size_t *n)
{
    if (*at >= end)
        return 0;
    const char *eol = memchr(*at, '\n', (size_t)(end - *at));
    size_t len = eol ? (size_t)(eol - *at) : (size_t)(end - *at);
    *n = len;
    if (len < MAX_LINE) {
        memcpy(buf, *at, len);
        buf[len] = '\0';
        if (len && buf[len - 1] == '\r')
            buf[len - 1] = '\0';
    }
    *at += len + 1;
    return 1;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* A rank written `word`, counted from `base`, into 0..size-1 (size 0: any
 * up to MAX_RANKS); `bound` says where size comes from. */
static sc_err_t parse_rank(const reader_t *rd, const char *what, const char *word, int base,
                           int size, const char *bound, int *rank)
{
    char *end;
    errno = 0;
    long v = strtol(word, &end, 10);
    if (end == word || *end || errno == ERANGE)
        return sc_error_at(rd->name, rd->line, "%s '%s' is not an integer; a rank is %s", what,
                           word,
                           base ? "counted from 1 in Matrix Market" : "counted from 0 in CSV");
    long top = size ? size - 1 + base : MAX_RANKS - 1 + base;
    if (v < base || v > top)
        return sc_error_at(rd->name, rd->line, "%s %ld is out of range %d..%ld%s", what, v, base,
                           top, bound);
    *rank = (int)(v - base);
    return SC_OK;
}

/* A count of bytes or messages: a finite number >= 0, whole if `whole`. */
static sc_err_t parse_weight(const reader_t *rd, const char *what, const char *word, int whole,
                             double *out)
{
    char *end;
    errno = 0;
    double v = strtod(word, &end);
    if (end == word || *end)
        return sc_error_at(rd->name, rd->line, "%s '%s' is not a number; give a count of %s (>= 0)",
                           what, word, what);
    if (!isfinite(v) || errno == ERANGE)
        return sc_error_at(rd->name, rd->line,
                           "%s '%s' is not a finite number; give a count of %s (>= 0)", what, word,
                           what);
    if (v < 0)
        return sc_error_at(rd->name, rd->line, "%s %s is negative; give a count of %s (>= 0)", what,
                           word, what);
    if (whole && v != floor(v))
        return sc_error_at(rd->name, rd->line, "%s %s is not a whole number%s", what, word,
                           whole > 1 ? " (the matrix's field is integer)" : "");
    *out = v;
    return SC_OK;
}

/* Adds `count` (of `what`, as written: `word`) to *total, refused where the
 * sum would not be finite. */
static sc_err_t add_to_total(const reader_t *rd, const char *what, const char *word, double count,
                             double *total)
{
    if (!isfinite(*total + count))
        return sc_error_at(rd->name, rd->line,
                           "%s %s takes the sum of the matrix's %s past %g, the largest a double "
                           "holds; give smaller counts (in a larger unit) so that all of them "
                           "add up to at most that",
                           what, word, what, DBL_MAX);
    *total += count;
    return SC_OK;
}

static sc_err_t add_entry(reader_t *rd, int src, int dst, double bytes, double messages)
{
    sc_matrix_t *m = rd->m;
    sc_traffic_entry_t *more =
        sc_grow(m->entries, (size_t)m->nentries, &rd->cap, 1024, sizeof *more);
    if (!more)
        return sc_error(SC_ERR_RUN, "out of memory reading '%s'", rd->name);
    m->entries = more;
    m->entries[m->nentries++] = (sc_traffic_entry_t){src, dst, bytes, messages};
    return SC_OK;
}

/* Splits `line` at whitespace (Matrix Market) or commas (CSV) into words,
 * trimmed, keeping the first max; returns how many there are. */
static int split_words(char *line, int csv, char **words, int max)
{
    int n = 0;
    if (csv) {
        for (char *field = line;; n++) {
            char *comma = strchr(field, ',');
            if (comma)
                *comma = '\0';
            if (n < max)
                words[n] = trim(field);
            if (!comma)
                return n + 1;
            field = comma + 1;
        }
    }
    for (char *word = strtok(line, " \t"); word; word = strtok(NULL, " \t"))
        if (n++ < max)
            words[n - 1] = word;
    return n;
}

/* A count of the size line: an integer from 0 (entries) or 1 (ranks). */
static sc_err_t parse_count(const reader_t *rd, const char *what, const char *word, long least,
                            long most, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(word, &end, 10);
    if (end == word || *end || errno == ERANGE || v < least || v > most)
        return sc_error_at(rd->name, rd->line, "%s '%s' is not an integer from %ld to %ld", what,
                           word, least, most);
    *out = v;
    return SC_OK;
}

static sc_err_t add_pair(reader_t *rd, int src, int dst)
{
    pair_t *more = sc_grow(rd->pairs, (size_t)rd->npairs, &rd->pairs_cap, 1024, sizeof *more);
    if (!more)
        return sc_error(SC_ERR_RUN, "out of memory reading '%s'", rd->name);
    rd->pairs = more;
    rd->pairs[rd->npairs++] =
        (pair_t){src < dst ? src : dst, src < dst ? dst : src, rd->line, src < dst};
    return SC_OK;
}

static int by_pair(const void *a, const void *b)
{
    const pair_t *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    if (x->hi != y->hi)
        return x->hi < y->hi ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* A symmetric file holds one triangle, either, each entry standing for
 * both directions: an entry whose mirror is given too would count the
 * pair's traffic twice (2 1 100 and 1 2 100 made 400 bytes of 200). The
 * same entry twice adds up, as in a general file. */
static sc_err_t no_mirrors(const reader_t *rd)
{
    if (rd->npairs < 2)
        return SC_OK; /* and qsort must not see a NULL array */
    qsort(rd->pairs, (size_t)rd->npairs, sizeof *rd->pairs, by_pair);
    for (long i = 0, j; i < rd->npairs; i = j) {
        const pair_t *first = &rd->pairs[i], *mirror = NULL;
        for (j = i; j < rd->npairs && rd->pairs[j].lo == first->lo && rd->pairs[j].hi == first->hi;
             j++)
            if (!mirror && rd->pairs[j].upper != first->upper)
                mirror = &rd->pairs[j];
        if (mirror)
            return sc_error_at(rd->name, mirror->line,
                               "entry %d %d mirrors line %d's %d %d: a symmetric matrix holds "
                               "one triangle, each entry standing for both directions, so the "
                               "pair would count twice; keep one of them (or declare the matrix "
                               "general, each direction its own entry)",
                               mirror->upper ? mirror->lo + 1 : mirror->hi + 1,
                               mirror->upper ? mirror->hi + 1 : mirror->lo + 1, first->line,
                               first->upper ? first->lo + 1 : first->hi + 1,
                               first->upper ? first->hi + 1 : first->lo + 1);
    }
    return SC_OK;
}

static sc_err_t parse_market(reader_t *rd, const char *at, const char *end, int np)
{
    char buf[MAX_LINE];
    size_t n;
    next_line(&at, end, buf, &n); /* the banner, read again here */
    rd->line = 1;
    if (n >= MAX_LINE)
        return sc_error_at(rd->name, rd->line, "line too long");
    char object[64] = "", format[64] = "", field[64] = "", symmetry[64] = "";
    int got = sscanf(buf, "%*s %63s %63s %63s %63s", object, format, field, symmetry);
    if (got < 2 || strcasecmp(object, "matrix") || strcasecmp(format, "coordinate"))
        return sc_error_at(
            rd->name, rd->line,
            "'%s': simcoll reads '%%%%MatrixMarket matrix coordinate FIELD SYMMETRY' "
            "(a sparse matrix), not a dense array or another object",
            trim(buf));
    if (got < 4)
        return sc_error_at(rd->name, rd->line,
                           "the banner needs a field (real or integer) and a symmetry (general or "
                           "symmetric)");
    int integer = !strcasecmp(field, "integer"), symmetric = !strcasecmp(symmetry, "symmetric");
    if (!integer && strcasecmp(field, "real"))
        return sc_error_at(rd->name, rd->line,
                           "field '%s': a traffic matrix holds bytes, so its field is real or "
                           "integer",
                           field);
    if (!symmetric && strcasecmp(symmetry, "general"))
        return sc_error_at(rd->name, rd->line,
                           "symmetry '%s': use general (each direction its own entry) or symmetric",
                           symmetry);
    char *words[3];
    int nw;
    long expected = -1, seen = 0;
    while (next_line(&at, end, buf, &n)) {
        rd->line++;
        if (n >= MAX_LINE)
            return sc_error_at(rd->name, rd->line, "line too long");
        char *text = trim(buf);
        if (!*text || *text == '%')
            continue;
        nw = split_words(text, 0, words, 3);
        if (expected < 0) { /* the size line */
            long rows, cols;
            sc_err_t err;
            if (nw != 3)
                return sc_error_at(rd->name, rd->line,
                                   "the size line is 'ROWS COLUMNS ENTRIES', got '%s'", text);
            if ((err = parse_count(rd, "rows", words[0], 1, MAX_RANKS, &rows)) ||
                (err = parse_count(rd, "columns", words[1], 1, MAX_RANKS, &cols)) ||
                (err = parse_count(rd, "entries", words[2], 0, LONG_MAX, &expected)))
                return err;
            if (rows != cols)
                return sc_error_at(rd->name, rd->line,
                                   "a traffic matrix is square (a row and a column per rank), and "
                                   "this one is %ld x %ld",
                                   rows, cols);
            if (np && rows != np)
                return sc_error_at(rd->name, rd->line, "the matrix has %ld ranks, but --np is %d",
                                   rows, np);
            rd->m->size = (int)rows;
            continue;
        }
        if (nw != 3)
            return sc_error_at(rd->name, rd->line,
                               "an entry is 'I J BYTES' (ranks from 1), got '%s'", text);
        if (seen == expected)
            return sc_error_at(rd->name, rd->line,
                               "an entry more than the %ld the size line announces", expected);
        int src, dst;
        double bytes;
        sc_err_t err;
        const char *bound = " (the size line's)";
        if ((err = parse_rank(rd, "rank", words[0], 1, rd->m->size, bound, &src)) ||
            (err = parse_rank(rd, "rank", words[1], 1, rd->m->size, bound, &dst)) ||
            (err = parse_weight(rd, "bytes", words[2], 2 * integer, &bytes)))
            return err;
        int both = symmetric && src != dst; /* the entry stands for both directions */
        if ((err = add_to_total(rd, "bytes", words[2], bytes, &rd->total_bytes)) ||
            (both && (err = add_to_total(rd, "bytes", words[2], bytes, &rd->total_bytes))) ||
            (err = add_entry(rd, src, dst, bytes, 0)) ||
            (both && ((err = add_entry(rd, dst, src, bytes, 0)) || (err = add_pair(rd, src, dst)))))
            return err;
        seen++;
    }
    if (expected < 0)
        return sc_error_at(rd->name, rd->line,
                           "no size line 'ROWS COLUMNS ENTRIES' after the banner");
    if (seen < expected)
        return sc_error_at(rd->name, rd->line, "%ld entries, but the size line announces %ld", seen,
                           expected);
    return symmetric ? no_mirrors(rd) : SC_OK;
}

static sc_err_t parse_csv(reader_t *rd, const char *at, const char *end, int np)
{
    char buf[MAX_LINE], *words[4];
    size_t n;
    int columns = 0, largest = -1, header_allowed = 1;
    char bound[64] = "";
    if (np)
        snprintf(bound, sizeof bound, " (--np %d)", np);
    rd->line = 0;
    while (next_line(&at, end, buf, &n)) {
        rd->line++;
        if (n >= MAX_LINE)
            return sc_error_at(rd->name, rd->line, "line too long");
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *text = trim(buf);
        if (!*text)
            continue;
        char shown[MAX_LINE];
        snprintf(shown, sizeof shown, "%s", text);
        int nw = split_words(text, 1, words, 4);
        if (header_allowed && !strcasecmp(words[0], "src")) {
            header_allowed = 0;
            if ((nw != 3 && nw != 4) || strcasecmp(words[1], "dst") ||
                strcasecmp(words[2], "bytes") || (nw == 4 && strcasecmp(words[3], "messages")))
                return sc_error_at(rd->name, rd->line,
                                   "header '%s': use src,dst,bytes or src,dst,bytes,messages",
                                   shown);
            columns = nw;
            continue;
        }
        header_allowed = 0;
        if (!columns && (nw == 3 || nw == 4))
            columns = nw;
        if (nw != columns)
            return sc_error_at(rd->name, rd->line,
                               "'%s' has %d field%s; each line is SRC,DST,BYTES%s", shown, nw,
                               nw == 1 ? "" : "s", columns == 4 ? ",MESSAGES" : "");
        int src, dst;
        double bytes, messages = 0;
        sc_err_t err;
        if ((err = parse_rank(rd, "rank", words[0], 0, np, bound, &src)) ||
            (err = parse_rank(rd, "rank", words[1], 0, np, bound, &dst)) ||
            (err = parse_weight(rd, "bytes", words[2], 0, &bytes)) ||
            (err = add_to_total(rd, "bytes", words[2], bytes, &rd->total_bytes)) ||
            (columns == 4 &&
             ((err = parse_weight(rd, "messages", words[3], 1, &messages)) ||
              (err = add_to_total(rd, "messages", words[3], messages, &rd->total_messages)))) ||
            (err = add_entry(rd, src, dst, bytes, messages)))
            return err;
        if (src > largest)
            largest = src;
        if (dst > largest)
            largest = dst;
    }
    if (largest < 0 && !np)
        return sc_error_at(rd->name, rd->line,
                           "no entries: a traffic matrix has lines SRC,DST,BYTES");
    rd->m->size = np ? np : largest + 1;
    rd->m->has_messages = columns == 4;
    return SC_OK;
}

sc_err_t sc_matrix_parse(const char *name, const char *text, size_t len, int np, sc_matrix_t *m)
{
    *m = (sc_matrix_t){0};
    if (memchr(text, '\0', len))
        return sc_error(SC_ERR_INPUT, "%s: holds a NUL byte; a traffic matrix is text", name);
    reader_t rd = {.name = name, .m = m};
    static const char banner[] = "%%MatrixMarket";
    sc_err_t err = len >= sizeof banner - 1 && !strncasecmp(text, banner, sizeof banner - 1)
                       ? parse_market(&rd, text, text + len, np)
                       : parse_csv(&rd, text, text + len, np);
    free(rd.pairs);
    if (err)
        sc_matrix_destroy(m);
    return err;
}

sc_err_t sc_matrix_read(const char *path, int np, sc_matrix_t *m)
{
    *m = (sc_matrix_t){0};
    char *text;
    size_t len;
    sc_err_t err = sc_input_file("--matrix", path, MAX_MATRIX_BYTES, &text, &len);
    if (err)
        return err;
    err = sc_matrix_parse(path, text, len, np, m);
    free(text);
    return err;
}

void sc_matrix_destroy(sc_matrix_t *m)
{
    free(m->entries);
    *m = (sc_matrix_t){0};
}
