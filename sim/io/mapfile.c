/* Mapping files: pi for simcoll, machinefiles and rankfiles for real MPIs.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "mapfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"

sc_err_t sc_mapfile_read(const char *path, int np, int **out)
{
    *out = NULL;
    char *text;
    size_t len;
    /* Up to 24 bytes a line: a million ranks with comments fit. */
    sc_err_t err = sc_input_file("--mapping", path, (size_t)np * 24 + 65536, &text, &len);
    if (err) {
        if (access(path, F_OK) != 0)
            return sc_error(SC_ERR_INPUT,
                            "--mapping '%s': cannot read it as a mapping file (%s); the built-in "
                            "mappings are block, cyclic, partition and greedy",
                            path, strerror(errno));
        return err;
    }
    err = sc_mapfile_parse(path, text, len, np, out);
    free(text);
    return err;
}

sc_err_t sc_mapfile_parse(const char *name, const char *text, size_t len, int np, int **out)
{
    *out = NULL;
    int *pi = malloc((size_t)np * sizeof *pi);
    int *line_of = calloc((size_t)np, sizeof *line_of); /* where each position appeared */
    sc_err_t err = SC_OK;
    if (!pi || !line_of) {
        err = sc_error(SC_ERR_RUN, "out of memory reading '%s'", name);
        goto cleanup;
    }
    if (memchr(text, '\0', len)) {
        err = sc_error(SC_ERR_INPUT, "%s: holds a NUL byte; a mapping file is text", name);
        goto cleanup;
    }
    int count = 0, line = 0;
    for (const char *at = text, *end = text + len; !err && at < end;) {
        line++;
        const char *eol = memchr(at, '\n', (size_t)(end - at));
        size_t n = eol ? (size_t)(eol - at) : (size_t)(end - at);
        char buf[256];
        if (n >= sizeof buf) {
            err = sc_error(SC_ERR_INPUT, "%s:%d: line too long", name, line);
            break;
        }
        memcpy(buf, at, n);
        buf[n] = '\0';
        at += n + 1;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *p = buf;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            continue;
        char *num_end;
        errno = 0;
        long v = strtol(p, &num_end, 10);
        char *rest = num_end;
        while (isspace((unsigned char)*rest))
            rest++;
        if (num_end == p || *rest || errno == ERANGE) {
            p[strcspn(p, "\r\n")] = '\0';
            err = sc_error(SC_ERR_INPUT,
                           "%s:%d: '%s' is not an integer; a mapping file holds "
                           "one position per line",
                           name, line, p);
        } else if (count == np) {
            err = sc_error(SC_ERR_INPUT, "%s:%d: more than the %d positions --np %d needs", name,
                           line, np, np);
        } else if (v < 0 || v >= np) {
            err = sc_error(SC_ERR_INPUT, "%s:%d: position %ld is out of range 0..%d%s", name, line,
                           v, np - 1,
                           v == np ? ": positions count from 0 (a file counting from 1 names "
                                     "every position one too high: subtract 1)"
                                   : "");
        } else if (line_of[v]) {
            err = sc_error(SC_ERR_INPUT,
                           "%s:%d: position %ld appears again (first on line %d); "
                           "a mapping must be a permutation",
                           name, line, v, line_of[v]);
        } else {
            line_of[v] = line;
            pi[count++] = (int)v;
        }
    }
    if (!err && count != np)
        err = sc_error(SC_ERR_INPUT, "%s: %d positions, but --np %d needs %d", name, count, np,
                       np);
cleanup:
    free(line_of);
    if (err)
        free(pi);
    else
        *out = pi;
    return err;
}

sc_err_t sc_mapfile_write(const sc_platform_t *plat, int np, const int *pi, const int *slot_node,
                          const char *header, const char *pi_path, const char *machinefile,
                          const char *rankfile, char *const *hosts)
{
    const char *paths[3] = {pi_path, machinefile, rankfile};
    static const char *const options[3] = {"-o", "--machinefile", "--rankfile"};
    FILE *files[3] = {NULL, NULL, NULL};
    int *node_of_position = malloc(2 * (size_t)np * sizeof *node_of_position);
    int *slot_in_node = calloc((size_t)plat->nnodes, sizeof *slot_in_node);
    sc_outputs_t *outs = sc_outputs_new();
    sc_err_t err = SC_OK;
    if (!node_of_position || !slot_in_node || !outs)
        err = sc_error(SC_ERR_RUN, "out of memory writing the mapping");
    for (int k = 0; k < 3 && !err; k++)
        if (paths[k])
            err = sc_outputs_add(outs, options[k], paths[k], &files[k]);
    if (err)
        goto cleanup;
    /* A node's cores are alike, so the positions on it take them in order;
     * with domains each takes the core of its slot (the k-th slot of a node
     * is its core k), whose domain the mapping chose. */
    int *core_of_position = node_of_position + np;
    for (int i = 0; i < np; i++) {
        node_of_position[pi[i]] = slot_node[i];
        core_of_position[pi[i]] = slot_in_node[slot_node[i]]++;
    }
    memset(slot_in_node, 0, (size_t)plat->nnodes * sizeof *slot_in_node);
    if (files[0]) {
        for (const char *line = header; line && *line;) {
            size_t n = strcspn(line, "\n");
            fprintf(files[0], "# %.*s\n", (int)n, line);
            line += n + (line[n] == '\n');
        }
        fputs("# line r+1: pi(r), the algorithm position played by rank r\n", files[0]);
        for (int r = 0; r < np; r++)
            fprintf(files[0], "%d\n", pi[r]);
    }
    /* mpirun knows its hosts, not simcoll's names for the platform's
     * nodes: said where it would be read (MPICH's machinefiles and Open
     * MPI's rankfiles skip '#' lines). */
    for (int k = 1; k < 3 && !hosts; k++)
        if (files[k])
            fprintf(files[k],
                    "# %s... are simcoll's names for the platform's nodes: replace them with "
                    "your hosts, in the same order (simcoll map --hosts FILE|LIST writes them)\n",
                    plat->nodes[0].name);
    for (int j = 0; j < np; j++) {
        const char *host = hosts ? hosts[node_of_position[j]] : plat->nodes[node_of_position[j]].name;
        if (files[1])
            fprintf(files[1], "%s:1\n", host);
        if (files[2])
            fprintf(files[2], "rank %d=%s slot=%d\n", j, host,
                    sc_platform_node_levels(plat) ? core_of_position[j]
                                                  : slot_in_node[node_of_position[j]]++);
    }
    err = sc_outputs_commit(outs);
    outs = NULL;
cleanup:
    sc_outputs_discard(outs);
    free(node_of_position);
    free(slot_in_node);
    return err;
}
