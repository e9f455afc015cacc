/* An SMPI time-independent trace's anchor (ti_anchor.h): an action file
 * holding every rank's lines, read once and kept, or an index naming one
 * file per rank (relative to the index's folder, or to the folder smpirun
 * ran in, as smpirun writes them). Each rank's lines are read into
 * events by ti.c.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/sc_grow.h"
#include "ti_anchor.h"

/* The first token of a line as a rank number, or -1. */
int sc_ti_rank_token(const char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    if (!isdigit((unsigned char)*line))
        return -1;
    char *end;
    errno = 0;
    long r = strtol(line, &end, 10);
    if (errno || r > 1 << 28 || (*end != ' ' && *end != '\t'))
        return -1;
    return (int)r;
}

/* Whether a line is "RANK ACTION ...": a rank, then a word. */
static int action_line(const char *line)
{
    if (sc_ti_rank_token(line) < 0)
        return 0;
    while (*line == ' ' || *line == '\t')
        line++;
    while (isdigit((unsigned char)*line))
        line++;
    while (*line == ' ' || *line == '\t')
        line++;
    return isalpha((unsigned char)*line);
}

/* Blank lines and comments say nothing. */
int sc_ti_says_nothing(const char *line)
{
    while (*line == ' ' || *line == '\t' || *line == '\r')
        line++;
    return *line == '\0' || *line == '#';
}

/* The first line of a head of bytes that says something, in `out`. */
static int first_line(const unsigned char *head, size_t len, char *out, size_t outlen)
{
    size_t i = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && head[j] != '\n')
            j++;
        size_t n = j - i < outlen - 1 ? j - i : outlen - 1;
        memcpy(out, head + i, n);
        out[n] = '\0';
        for (size_t k = 0; k < n; k++)
            if (out[k] == '\0')
                return 0; /* binary */
        if (!sc_ti_says_nothing(out)) {
            char *cr = strchr(out, '\r');
            if (cr)
                *cr = '\0';
            return 1;
        }
        i = j + 1;
    }
    return 0;
}

/* A path an index names: relative to the index's folder, else as written
 * (relative to where smpirun ran). malloc'd, NULL if neither is a file. */
static char *index_target(const char *index_dir, const char *name)
{
    char *trimmed = strdup(name), *path = NULL;
    if (!trimmed)
        return NULL;
    char *end = trimmed + strlen(trimmed);
    while (end > trimmed && (end[-1] == ' ' || end[-1] == '\t'))
        *--end = '\0';
    char *start = trimmed;
    while (*start == ' ' || *start == '\t')
        start++;
    struct stat st;
    if (start[0] != '/') {
        size_t len = strlen(index_dir) + strlen(start) + 2;
        path = malloc(len);
        if (path) {
            snprintf(path, len, "%s/%s", index_dir, start);
            if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
                free(trimmed);
                return path;
            }
            free(path);
            path = NULL;
        }
    }
    if (stat(start, &st) == 0 && S_ISREG(st.st_mode))
        path = strdup(start);
    free(trimmed);
    return path;
}

static void dir_of(const char *path, char *out, size_t len)
{
    snprintf(out, len, "%s", path);
    char *slash = strrchr(out, '/');
    if (slash)
        slash[slash == out] = '\0';
    else
        snprintf(out, len, ".");
}

int sc_ti_anchor_detect(const char *path, const unsigned char *head, size_t len)
{
    char line[1024];
    if (!first_line(head, len, line, sizeof line))
        return 0;
    if (action_line(line))
        return 1;
    char dir[4096];
    dir_of(path, dir, sizeof dir);
    char *target = index_target(dir, line);
    if (!target)
        return 0;
    FILE *f = fopen(target, "rb");
    free(target);
    if (!f)
        return 0;
    unsigned char thead[4096];
    size_t n = fread(thead, 1, sizeof thead, f);
    fclose(f);
    return first_line(thead, n, line, sizeof line) && action_line(line);
}

void sc_ti_anchor_close(sc_trace_t *t)
{
    sc_ti_anchor_t *ti = t->format;
    if (!ti)
        return;
    for (int r = 0; ti->files && r < t->nranks; r++)
        if (!ti->shared || r == 0)
            free(ti->files[r]);
    free(ti->files);
    free(ti->text);
    free(ti->lines);
    free(ti->first);
    free(ti);
    t->format = NULL;
}

/* The rank a file's first action line is of, -1 if it has none. */
static sc_err_t file_rank(const char *path, int *rank)
{
    sc_tfile_t f;
    sc_err_t err = sc_tfile_open(&f, path, "TI trace file");
    if (err)
        return err;
    *rank = -1;
    int failed = 0;
    char *line;
    while ((line = sc_tfile_line(&f, &failed)))
        if (!sc_ti_says_nothing(line)) {
            *rank = sc_ti_rank_token(line);
            if (*rank < 0)
                err = sc_error(SC_ERR_INPUT,
                               "TI trace file '%s': its first line '%.60s' does "
                               "not start with a rank number",
                               path, line);
            break;
        }
    if (failed)
        err = SC_ERR_INPUT;
    sc_tfile_close(&f);
    return err;
}

/* Keeps an action line (line number `lineno` of the file) in ti's copy;
 * 0 if out of memory. */
static int keep_line(sc_ti_anchor_t *ti, const char *line, long lineno)
{
    size_t n = strlen(line) + 1;
    if (ti->text_len + n > ti->text_cap) {
        size_t cap = ti->text_cap ? 2 * ti->text_cap : 65536;
        while (cap < ti->text_len + n)
            cap *= 2;
        char *text = realloc(ti->text, cap);
        if (!text)
            return 0;
        ti->text = text;
        ti->text_cap = cap;
    }
    sc_ti_kept_line_t *lines = sc_grow(ti->lines, ti->nlines, &ti->cap_lines, 1024, sizeof *lines);
    if (!lines)
        return 0;
    ti->lines = lines;
    memcpy(ti->text + ti->text_len, line, n);
    ti->lines[ti->nlines++] = (sc_ti_kept_line_t){ti->text_len, lineno, -1};
    ti->text_len += n;
    return 1;
}

/* Chains each rank's kept lines in file order, from ti->first. */
static sc_err_t chain_lines(sc_trace_t *t, sc_ti_anchor_t *ti)
{
    ti->first = malloc((size_t)t->nranks * sizeof *ti->first);
    long *last = malloc((size_t)t->nranks * sizeof *last);
    if (!ti->first || !last) {
        free(last);
        return sc_error(SC_ERR_RUN, "out of memory");
    }
    for (int r = 0; r < t->nranks; r++)
        ti->first[r] = last[r] = -1;
    for (size_t i = 0; i < ti->nlines; i++) {
        int r = sc_ti_rank_token(ti->text + ti->lines[i].at);
        if (last[r] < 0)
            ti->first[r] = (long)i;
        else
            ti->lines[last[r]].next = (long)i;
        last[r] = (long)i;
    }
    free(last);
    return SC_OK;
}

/* An action file of every rank: its ranks are 0 to the largest named. */
static sc_err_t open_shared(sc_trace_t *t, sc_ti_anchor_t *ti)
{
    sc_tfile_t f;
    sc_err_t err = sc_tfile_open(&f, t->path, "TI trace file");
    if (err)
        return err;
    int top = -1, failed = 0, top_line = 0;
    long lineno = 0, actions = 0;
    char *line;
    while (!err && (line = sc_tfile_line(&f, &failed))) {
        lineno++;
        if (sc_ti_says_nothing(line))
            continue;
        actions++;
        int r = sc_ti_rank_token(line);
        if (r < 0)
            err = sc_error(SC_ERR_INPUT, "%s:%ld: '%.60s' does not start with a rank number",
                           t->path, lineno, line);
        else if (!keep_line(ti, line, lineno))
            err = sc_error(SC_ERR_RUN, "out of memory reading '%s'", t->path);
        else if (r > top)
            top = r, top_line = (int)lineno;
    }
    sc_tfile_close(&f);
    if (err || failed)
        return err ? err : SC_ERR_INPUT;
    if (top < 0)
        return sc_error(SC_ERR_INPUT, "TI trace '%s' holds no action", t->path);
    /* Every rank from 0 to the highest has its actions in the file: a
     * rank beyond its count of actions is a wrong number, not a job of
     * that many ranks (whose room would be taken before reading on). */
    if (top >= actions)
        return sc_error(SC_ERR_INPUT,
                        "%s:%d: rank %d in a file of %ld actions; a TI trace holds the "
                        "actions of every rank from 0 to its highest, at least one each",
                        t->path, top_line, top, actions);
    if ((err = sc_trace_set_ranks(t, top + 1)) || (err = chain_lines(t, ti)))
        return err;
    ti->shared = 1;
    ti->files = malloc((size_t)t->nranks * sizeof *ti->files);
    char *path = strdup(t->path);
    if (!ti->files || !path) {
        free(path);
        return sc_error(SC_ERR_RUN, "out of memory");
    }
    for (int r = 0; r < t->nranks; r++)
        ti->files[r] = path;
    return SC_OK;
}

static sc_err_t open_index(sc_trace_t *t, sc_ti_anchor_t *ti, char **names, int n)
{
    if (n == 1) { /* an index of one shared file */
        char *target = index_target(t->dir, names[0]);
        if (!target)
            return sc_error(SC_ERR_INPUT, "TI index '%s': '%s' is not a file", t->path, names[0]);
        free(t->path);
        t->path = target;
        return open_shared(t, ti);
    }
    sc_err_t err = sc_trace_set_ranks(t, n);
    if (err)
        return err;
    ti->files = calloc((size_t)n, sizeof *ti->files);
    if (!ti->files)
        return sc_error(SC_ERR_RUN, "out of memory");
    /* smpirun lists the files as ranks started, not in rank order: each
     * file's first line says its rank. */
    for (int i = 0; i < n && !err; i++) {
        char *target = index_target(t->dir, names[i]);
        int r = -1;
        if (!target) {
            err = sc_error(SC_ERR_INPUT,
                           "TI index '%s', line %d: '%s' is not a file (looked "
                           "for it in the index's folder and in the current one)",
                           t->path, i + 1, names[i]);
            break;
        }
        if ((err = file_rank(target, &r))) {
            free(target);
            break;
        }
        if (r < 0)
            r = i; /* an empty file: its place in the index */
        if (r >= n || ti->files[r]) {
            err = sc_error(SC_ERR_INPUT,
                           "TI index '%s', line %d: '%s' holds rank %d's actions, "
                           "%s; an index of %d files holds ranks 0 to %d, one file each",
                           t->path, i + 1, names[i], r,
                           r >= n ? "beyond the index's ranks" : "which another file holds too", n,
                           n - 1);
            free(target);
            break;
        }
        ti->files[r] = target;
    }
    return err;
}

sc_err_t sc_ti_anchor_open(sc_trace_t *t)
{
    sc_ti_anchor_t *ti = calloc(1, sizeof *ti);
    if (!ti)
        return sc_error(SC_ERR_RUN, "out of memory");
    t->format = ti;
    sc_tfile_t f;
    sc_err_t err = sc_tfile_open(&f, t->path, "TI trace");
    if (err)
        return err;
    int failed = 0, n = 0, cap = 0, actions = -1;
    char **names = NULL, *line;
    while (!err && (line = sc_tfile_line(&f, &failed))) {
        if (sc_ti_says_nothing(line))
            continue;
        if (actions < 0)
            actions = action_line(line);
        if (actions)
            break;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **more = realloc(names, (size_t)cap * sizeof *names);
            if (!more) {
                err = sc_error(SC_ERR_RUN, "out of memory");
                break;
            }
            names = more;
        }
        if (!(names[n] = strdup(line)))
            err = sc_error(SC_ERR_RUN, "out of memory");
        else
            n++;
    }
    sc_tfile_close(&f);
    if (!err && failed)
        err = SC_ERR_INPUT;
    if (!err)
        err = actions ? open_shared(t, ti) : open_index(t, ti, names, n);
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return err;
}
