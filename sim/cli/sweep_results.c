/* simcoll sweep's results file (sweep_results.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sweep_results.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/io/files.h"

/* Appends a copy of key to *done (*ndone keys). */
static sc_err_t keep_key(char ***done, long *ndone, const char *key)
{
    char **more = realloc(*done, (size_t)(*ndone + 1) * sizeof **done);
    char *copy = strdup(key);
    if (more)
        *done = more;
    if (!more || !copy) {
        free(copy);
        return sc_error(SC_ERR_RUN, "out of memory");
    }
    (*done)[(*ndone)++] = copy;
    return SC_OK;
}

/* The keys OUTPUT already holds, and how many of those points failed;
 * drops a last line a kill cut short; creates OUTPUT with its header if
 * `create`, else takes a missing OUTPUT as empty. */
sc_err_t sc_sweep_read_done(const char *path, const char *header, int create, char ***done,
                            long *ndone, long *nfailed)
{
    *done = NULL;
    *ndone = *nfailed = 0;
    struct stat sb;
    if ((stat(path, &sb) != 0 || sb.st_size == 0) && !create)
        return SC_OK;
    if (stat(path, &sb) != 0 || sb.st_size == 0) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) /* a place that cannot be written: the user's to change */
            return sc_error(SC_ERR_INPUT, "sweep -o '%s': cannot write it: %s", path,
                            strerror(errno));
        size_t n = strlen(header);
        int ok = sc_write_all(fd, header, n) == 0 && sc_write_all(fd, "\n", 1) == 0;
        ok = close(fd) == 0 && ok;
        return ok ? SC_OK
                  : sc_error(SC_ERR_RUN, "sweep -o '%s': cannot write it: %s", path,
                             strerror(errno));
    }
    char *text;
    size_t len;
    sc_err_t err = sc_input_file("sweep -o", path, (size_t)1 << 30, &text, &len);
    if (err)
        return err;
    size_t hlen = strlen(header);
    if (len < hlen + 1 || strncmp(text, header, hlen) != 0 || text[hlen] != '\n') {
        free(text);
        return sc_error(SC_ERR_INPUT,
                        "sweep -o '%s': it is not this sweep's output (its first "
                        "line is not this study's header: another study's, or one written "
                        "by a simcoll whose columns differed); give another file",
                        path);
    }
    size_t complete = len;
    while (complete > 0 && text[complete - 1] != '\n')
        complete--;
    if (complete < len && truncate(path, (off_t)complete) != 0) {
        free(text);
        return sc_error(SC_ERR_RUN, "sweep -o '%s': cannot drop its cut line: %s", path,
                        strerror(errno));
    }
    for (char *line = text + hlen + 1; line < text + complete;) {
        char *end = strchr(line, '\n');
        *end = '\0';
        /* key is the first field, quoted: up to the first quote not doubled */
        if (*line == '"') {
            /* the status follows the key's closing quote and its comma */
            const char *status = strstr(line + 1, "\",");
            *nfailed += !status || strncmp(status, "\",ok,", 5) != 0;
            char *k = line + 1, *w = k;
            for (char *c = k; *c; c++) {
                if (*c == '"' && c[1] == '"')
                    *w++ = *c++;
                else if (*c == '"')
                    break;
                else
                    *w++ = *c;
            }
            *w = '\0';
            if ((err = keep_key(done, ndone, k)))
                break;
        }
        line = end + 1;
    }
    free(text);
    return err;
}

void sc_sweep_free_keys(char **held, long n)
{
    for (long i = 0; i < n; i++)
        free(held[i]);
    free(held);
}

int sc_sweep_has_key(char *const *held, long n, const char *key)
{
    for (long i = 0; i < n; i++)
        if (strcmp(held[i], key) == 0)
            return 1;
    return 0;
}

/* --merge: the rows of OUTPUT.points/N.csv that OUTPUT lacks, appended in
 * point order; *merged counts them. */
sc_err_t sc_sweep_merge_points(const study_t *st, long npoints, const char *out,
                               const char *header, char ***done, long *ndone, long *merged)
{
    int fd = open(out, O_WRONLY | O_APPEND);
    if (fd < 0)
        return sc_error(SC_ERR_RUN, "sweep -o '%s': cannot append: %s", out, strerror(errno));
    sc_err_t err = SC_OK;
    *merged = 0;
    size_t hlen = strlen(header);
    for (long i = 0; !err && i < npoints; i++) {
        char path[4200], key[4096], *text = NULL;
        size_t len;
        snprintf(path, sizeof path, "%s.points/%ld.csv", out, i + 1);
        if (access(path, F_OK) != 0)
            continue;
        if ((err = sc_input_file("sweep --merge", path, (size_t)1 << 20, &text, &len)))
            break;
        sc_study_key(st, i, key, sizeof key);
        /* The file of one point: the header, then that point's row. */
        char *row = len > hlen && !strncmp(text, header, hlen) && text[hlen] == '\n'
                        ? text + hlen + 1
                        : NULL;
        char *end = row ? strchr(row, '\n') : NULL;
        if (!row || !end || row[0] != '"' || strncmp(row + 1, key, strlen(key)) != 0 ||
            strncmp(row + 1 + strlen(key), "\",", 2) != 0) {
            /* A job still running, or killed before its row: not an error. */
            free(text);
            continue;
        }
        if (!sc_sweep_has_key(*done, *ndone, key) && !(err = keep_key(done, ndone, key))) {
            if (sc_write_all(fd, row, (size_t)(end - row) + 1) != 0)
                err = sc_error(SC_ERR_RUN, "sweep -o '%s': cannot write a row: %s", out,
                               strerror(errno));
            (*merged)++;
        }
        free(text);
    }
    close(fd);
    return err;
}

/* The point whose key is `key`, or -1 (a row of another study): each
 * axis's value is the one followed by the next axis's name, as values may
 * hold ';'. */
static long key_index(const study_t *st, const char *key)
{
    long index = 0;
    for (int a = 0; a < st->naxes; a++) {
        size_t klen = strlen(st->axis[a].key);
        if (strncmp(key, st->axis[a].key, klen) != 0 || key[klen] != '=')
            return -1;
        key += klen + 1;
        int found = -1;
        for (int v = 0; v < st->axis[a].nvalues && found < 0; v++) {
            const char *value = st->axis[a].values[v];
            size_t vlen = strlen(value);
            const char *rest = key + vlen;
            if (strncmp(key, value, vlen) != 0)
                continue;
            if (a + 1 == st->naxes ? *rest == '\0'
                                   : *rest == ';' &&
                                         !strncmp(rest + 1, st->axis[a + 1].key,
                                                  strlen(st->axis[a + 1].key)) &&
                                         rest[1 + strlen(st->axis[a + 1].key)] == '=')
                found = v;
        }
        if (found < 0)
            return -1;
        key += strlen(st->axis[a].values[found]) + (a + 1 < st->naxes);
        index = index * st->axis[a].nvalues + found;
    }
    return index;
}

typedef struct {
    long index; /* the point, or LONG_MAX: another study's row, kept last */
    long at;    /* its place in the file: rows of one index keep their order */
    char *line;
} row_t;

static int by_point(const void *a, const void *b)
{
    const row_t *x = a, *y = b;
    if (x->index != y->index)
        return x->index < y->index ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* Rewrites OUTPUT with its rows in point order, whatever order -j, reruns
 * and --merge appended them in; written aside and renamed, so that a kill
 * leaves the old file. Nothing is written when they are in order. */
sc_err_t sc_sweep_sort_rows(const study_t *st, const char *out, size_t hlen)
{
    char *text;
    size_t len;
    sc_err_t err = sc_input_file("sweep -o", out, (size_t)1 << 30, &text, &len);
    if (err)
        return err;
    long nrows = 0, sorted = 1;
    for (size_t i = hlen + 1; i < len; i++)
        nrows += text[i] == '\n';
    row_t *rows = malloc((size_t)(nrows + 1) * sizeof *rows);
    if (!rows) {
        free(text);
        return sc_error(SC_ERR_RUN, "out of memory");
    }
    long n = 0;
    for (char *line = text + hlen + 1; line < text + len && n < nrows; n++) {
        char *end = strchr(line, '\n');
        *end = '\0';
        char key[KEY_MAX], *w = key;
        /* the key, quoted, quotes doubled */
        for (const char *c = line + (*line == '"'); *c && w < key + KEY_MAX - 1; c++) {
            if (*c == '"' && c[1] != '"')
                break;
            c += *c == '"';
            *w++ = *c;
        }
        *w = '\0';
        long index = key_index(st, key);
        rows[n] = (row_t){index < 0 ? LONG_MAX : index, n, line};
        sorted &= n == 0 || by_point(&rows[n - 1], &rows[n]) < 0;
        line = end + 1;
    }
    if (!sorted) {
        qsort(rows, (size_t)n, sizeof *rows, by_point);
        sc_outputs_t *outs;
        FILE *f;
        err = sc_output_open("-o", out, &outs, &f);
        if (!err) {
            fwrite(text, 1, hlen + 1, f);
            for (long i = 0; i < n; i++)
                fprintf(f, "%s\n", rows[i].line);
            err = sc_outputs_commit(outs);
        }
    }
    free(rows);
    free(text);
    return err;
}
