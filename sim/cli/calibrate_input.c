/* The measurements simcoll calibrate reads (calibrate_input.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "calibrate_input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *sc_cal_kind_name(sc_measure_kind_t kind)
{
    static const char *const names[] = {"latency",       "ping-ping",    "bandwidth",
                                        "bi-bandwidth",  "message rate", "send overhead",
                                        "recv overhead", "collective",   "call"};
    return names[kind];
}

/* A probe's file also says where its ranks ran: ranks that shared a core
 * measured each other's turns, which no fit undoes, so they are warned
 * of; the cluster's hosts and switches serve the fit. */
static sc_err_t add_probe(sc_cal_series_t *all, const char *option, const char *path)
{
    if (all->nprobes == (int)(sizeof all->probes / sizeof all->probes[0]))
        return SC_OK; /* more probe files say nothing the first eight do not */
    sc_probe_cluster_t *c = &all->probes[all->nprobes];
    sc_err_t err = sc_probe_cluster_read(option, path, c);
    if (err)
        return err;
    all->probe_paths[all->nprobes++] = path;
    char shared[2048];
    sc_probe_cluster_shared_cores(c, shared, sizeof shared);
    if (*shared)
        fprintf(stderr, "simcoll: warning: %s '%s': %s\n", option, path, shared);
    return SC_OK;
}

sc_err_t sc_cal_add_file(sc_cal_series_t *all, const sc_cal_source_t *src, const char *path)
{
    sc_series_t *got;
    int n;
    sc_err_t err = sc_measurements_read(src->option, path, src->format, &got, &n);
    if (err)
        return err;
    int kept = 0, collectives = 0;
    int probe = n > 0 && got[0].source && !strncmp(got[0].source, "simcoll-probe", 13);
    char names[256] = "";
    for (int i = 0; i < n && !err; i++) {
        sc_series_t *s = &got[i];
        if (s->kind == SC_MEASURE_COLLECTIVE) {
            /* Collective times are what predictions are validated against;
             * fitting to them would make that validation meaningless. */
            collectives++;
            size_t len = strlen(names), k = strlen(s->collective);
            const char *seen = strstr(names, s->collective);
            if (!(seen && (seen == names || seen[-1] == ' ') && (seen[k] == ',' || !seen[k])))
                snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "", s->collective);
            continue;
        }
        if (src->kind >= 0 && s->kind != (sc_measure_kind_t)src->kind) {
            err = sc_error(SC_ERR_INPUT, "%s '%s': the file holds a %s series (%s), not %s",
                           src->option, path, sc_cal_kind_name(s->kind), s->source,
                           sc_cal_kind_name(src->kind));
            break;
        }
        if (all->n == all->cap) {
            int cap = all->cap ? 2 * all->cap : 8;
            sc_series_t *grown = realloc(all->series, (size_t)cap * sizeof *grown);
            if (!grown) {
                err = sc_error(SC_ERR_RUN, "out of memory");
                break;
            }
            all->series = grown;
            all->cap = cap;
        }
        all->series[all->n++] = *s;
        *s = (sc_series_t){0}; /* moved */
        kept++;
    }
    sc_series_destroy(got, n);
    if (!err && collectives)
        fprintf(stderr,
                "simcoll: note: %s '%s': %d collective series (%s) not used: calibration uses "
                "point-to-point measurements only (simcoll validate compares with them)\n",
                src->option, path, collectives, names);
    if (!err && kept == 0)
        err = sc_error(SC_ERR_INPUT, "%s '%s': no point-to-point series in the file", src->option,
                       path);
    if (!err && probe)
        err = add_probe(all, src->option, path);
    return err;
}

/* Drops the series whose file gives a process count outside lo..hi. */
sc_err_t sc_cal_keep_processes(sc_cal_series_t *all, int lo, int hi)
{
    int kept = 0;
    for (int i = 0; i < all->n; i++) {
        sc_series_t *s = &all->series[i];
        if (s->np == 0 || (s->np >= lo && s->np <= hi))
            all->series[kept++] = *s;
        else
            sc_series_free(s);
    }
    all->n = kept;
    if (kept == 0)
        return sc_error(SC_ERR_INPUT,
                        "--processes %d-%d: no series of the measurements ran on "
                        "%d to %d processes",
                        lo, hi, lo, hi);
    return SC_OK;
}

/* A file that says between which ranks it measured (simcoll-probe) gives
 * the level its series of that placement: the others are left out, and
 * said so. */
sc_err_t sc_cal_keep_placement(sc_cal_series_t *all, const char *level)
{
    int kept = 0, other = 0, placed = 0;
    char others[64] = ""; /* the other placements measured: "intra, socket" */
    for (int i = 0; i < all->n; i++) {
        sc_series_t *s = &all->series[i];
        placed |= s->placement[0] != '\0';
        if (!s->placement[0] || !strcmp(s->placement, level)) {
            all->series[kept++] = *s;
            continue;
        }
        if (!strstr(others, s->placement)) {
            size_t len = strlen(others);
            snprintf(others + len, sizeof others - len, "%s%s", len ? ", " : "", s->placement);
        }
        other++;
        sc_series_free(s);
    }
    all->n = kept;
    if (placed && kept == 0)
        return sc_error(SC_ERR_INPUT,
                        "--level %s: the measurements hold no series between ranks of "
                        "placement %s (simcoll-probe found no such pair of ranks: see the "
                        "file's '# pair' lines); they hold %s: fit that with --level %.*s%s",
                        level, level, others, (int)strcspn(others, ","), others,
                        strcmp(level, "inter")
                            ? ""
                            : ", or, to measure a network on one machine, run the probe with "
                              "--each-rank-a-node (mpirun -np 2 --mca btl tcp,self "
                              "simcoll-probe --each-rank-a-node)");
    if (other)
        fprintf(stderr,
                "simcoll: note: --level %s fits the series measured between ranks of "
                "placement %s; %d series of other placements not used\n",
                level, level, other);
    return SC_OK;
}
