/* Mapping files: pi for simcoll, machinefiles and rankfiles for real MPIs.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "mapfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

sc_err_t sc_mapfile_read(const char *path, int np, int **out)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return sc_error(SC_ERR_INPUT,
                        "--mapping '%s': cannot read it as a mapping file (%s); the built-in "
                        "mappings are block, cyclic, partition and greedy",
                        path, strerror(errno));
    int *pi = malloc((size_t)np * sizeof *pi);
    int *line_of = malloc((size_t)np * sizeof *line_of); /* where each position appeared */
    sc_err_t err = SC_OK;
    if (!pi || !line_of) {
        err = sc_error(SC_ERR_RUN, "out of memory reading '%s'", path);
        goto cleanup;
    }
    for (int j = 0; j < np; j++)
        line_of[j] = 0;
    char buf[256];
    int count = 0, line = 0;
    while (!err && fgets(buf, sizeof buf, f)) {
        line++;
        if (!strchr(buf, '\n') && !feof(f)) {
            err = sc_error(SC_ERR_INPUT, "%s:%d: line too long", path, line);
            break;
        }
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *p = buf;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            continue;
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        char *rest = end;
        while (isspace((unsigned char)*rest))
            rest++;
        if (end == p || *rest || errno == ERANGE) {
            p[strcspn(p, "\r\n")] = '\0';
            err = sc_error(SC_ERR_INPUT, "%s:%d: '%s' is not an integer; a mapping file holds "
                                         "one position per line",
                           path, line, p);
        } else if (count == np) {
            err = sc_error(SC_ERR_INPUT, "%s:%d: more than the %d positions --np %d needs", path,
                           line, np, np);
        } else if (v < 0 || v >= np) {
            err = sc_error(SC_ERR_INPUT, "%s:%d: position %ld is out of range 0..%d", path, line,
                           v, np - 1);
        } else if (line_of[v]) {
            err = sc_error(SC_ERR_INPUT, "%s:%d: position %ld appears again (first on line %d); "
                                         "a mapping must be a permutation",
                           path, line, v, line_of[v]);
        } else {
            line_of[v] = line;
            pi[count++] = (int)v;
        }
    }
    if (!err && ferror(f))
        err = sc_error(SC_ERR_INPUT, "--mapping '%s': cannot read it: %s", path, strerror(errno));
    if (!err && count != np)
        err = sc_error(SC_ERR_INPUT, "%s: %d positions, but --np %d needs %d", path, count, np,
                       np);
cleanup:
    fclose(f);
    free(line_of);
    if (err)
        free(pi);
    else
        *out = pi;
    return err;
}

/* A file being written aside, renamed into place when all are done. */
typedef struct {
    const char *path;
    char tmp[4096];
    FILE *f;
} pending_t;

static sc_err_t open_aside(pending_t *pf, const char *path)
{
    pf->path = path;
    pf->f = NULL;
    if (!path)
        return SC_OK;
    snprintf(pf->tmp, sizeof pf->tmp, "%s.tmp.%ld", path, (long)getpid());
    pf->f = fopen(pf->tmp, "w");
    if (!pf->f)
        return sc_error(SC_ERR_INPUT, "'%s': cannot write: %s", path, strerror(errno));
    return SC_OK;
}

sc_err_t sc_mapfile_write(const sc_platform_t *plat, int np, const int *pi, const int *slot_node,
                          const char *header, const char *pi_path, const char *machinefile,
                          const char *rankfile)
{
    pending_t files[3];
    const char *paths[3] = {pi_path, machinefile, rankfile};
    int *node_of_position = malloc((size_t)np * sizeof *node_of_position);
    int *slot_in_node = calloc((size_t)plat->nnodes, sizeof *slot_in_node);
    sc_err_t err = SC_OK;
    int opened = 0;
    if (!node_of_position || !slot_in_node)
        err = sc_error(SC_ERR_RUN, "out of memory writing the mapping");
    for (; !err && opened < 3; opened++)
        err = open_aside(&files[opened], paths[opened]);
    if (err)
        goto cleanup;
    for (int i = 0; i < np; i++)
        node_of_position[pi[i]] = slot_node[i];
    if (files[0].f) {
        for (const char *line = header; line && *line;) {
            size_t n = strcspn(line, "\n");
            fprintf(files[0].f, "# %.*s\n", (int)n, line);
            line += n + (line[n] == '\n');
        }
        fputs("# line r+1: pi(r), the algorithm position played by rank r\n", files[0].f);
        for (int r = 0; r < np; r++)
            fprintf(files[0].f, "%d\n", pi[r]);
    }
    for (int j = 0; j < np; j++) {
        const char *host = plat->nodes[node_of_position[j]].name;
        if (files[1].f)
            fprintf(files[1].f, "%s:1\n", host);
        if (files[2].f)
            fprintf(files[2].f, "rank %d=%s slot=%d\n", j, host,
                    slot_in_node[node_of_position[j]]++);
    }
cleanup:
    for (int k = 0; k < opened; k++)
        if (files[k].f && fclose(files[k].f) != 0 && !err)
            err = sc_error(SC_ERR_INPUT, "'%s': cannot write: %s", files[k].path, strerror(errno));
    for (int k = 0; k < opened; k++)
        if (files[k].path) {
            if (!err && rename(files[k].tmp, files[k].path) != 0)
                err = sc_error(SC_ERR_INPUT, "'%s': cannot write: %s", files[k].path,
                               strerror(errno));
            if (err)
                remove(files[k].tmp);
        }
    free(node_of_position);
    free(slot_in_node);
    return err;
}
