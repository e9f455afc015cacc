/* Traces side by side (sc_trace_side_by_side): one trace whose ranks are
 * the jobs' in turn, each job's events read from its own trace with its
 * communicators renumbered, so that every engine runs several jobs at
 * once as it runs one.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

typedef struct {
    sc_trace_t **jobs;
    int njobs;
    int *first; /* by job: its first rank; first[njobs] is every job's ranks */
    int **comm; /* by job, by its communicator: the side-by-side trace's */
} side_by_side_t;

typedef struct {
    const side_by_side_t *s;
    int job;
    sc_trace_cursor_t *cursor; /* in the job's own trace */
} job_rank_t;

static int job_of(const side_by_side_t *s, int rank)
{
    int job = 0;
    while (job + 1 < s->njobs && rank >= s->first[job + 1])
        job++;
    return job;
}

static sc_err_t jobs_rank_open(sc_trace_t *t, int rank, void **state)
{
    const side_by_side_t *s = t->format;
    job_rank_t *jr = calloc(1, sizeof *jr);
    if (!jr)
        return sc_error(SC_ERR_RUN, "out of memory");
    jr->s = s;
    jr->job = job_of(s, rank);
    sc_err_t err = sc_trace_cursor_open(s->jobs[jr->job], rank - s->first[jr->job], &jr->cursor);
    if (err) {
        free(jr);
        return err;
    }
    *state = jr;
    return SC_OK;
}

static int jobs_next(void *state, sc_tev_t *ev)
{
    job_rank_t *jr = state;
    int got = sc_trace_next(jr->cursor, ev);
    if (got > 0 && ev->kind != SC_TEV_COMPUTE && ev->kind != SC_TEV_WAIT && ev->kind != SC_TEV_TEST)
        ev->comm = jr->s->comm[jr->job][ev->comm];
    return got;
}

static void jobs_where(void *state, char *out, size_t len)
{
    const job_rank_t *jr = state;
    snprintf(out, len, "job %d (%s), %s", jr->job + 1, sc_trace_path(jr->s->jobs[jr->job]),
             sc_trace_cursor_where(jr->cursor));
}

static void jobs_rank_close(void *state)
{
    job_rank_t *jr = state;
    sc_trace_cursor_close(jr->cursor);
    free(jr);
}

static void jobs_close(sc_trace_t *t)
{
    side_by_side_t *s = t->format;
    if (!s)
        return;
    for (int j = 0; s->comm && j < s->njobs; j++)
        free(s->comm[j]);
    free(s->comm);
    free(s->first);
    free(s->jobs);
    free(s);
}

static const sc_trace_reader_t jobs_reader = {
    .name = "jobs side by side",
    .rank_open = jobs_rank_open,
    .next = jobs_next,
    .where = jobs_where,
    .rank_close = jobs_rank_close,
    .close = jobs_close,
};

/* Job j's communicators, their members moved to its ranks here. */
static sc_err_t add_job_comms(sc_trace_t *t, side_by_side_t *s, int j)
{
    const sc_trace_t *job = s->jobs[j];
    int n = sc_trace_ncomms(job);
    if (!(s->comm[j] = malloc((size_t)n * sizeof *s->comm[j])))
        return sc_error(SC_ERR_RUN, "out of memory");
    for (int c = 0; c < n; c++) {
        const sc_trace_comm_t *from = sc_trace_comm(job, c);
        int index = sc_trace_add_comm(t, from->size, from->members);
        if (index < 0)
            return SC_ERR_RUN;
        for (int i = 0; i < from->size; i++)
            t->comms[index].members[i] += s->first[j];
        s->comm[j][c] = index;
    }
    return SC_OK;
}

sc_err_t sc_trace_side_by_side(sc_trace_t *const *jobs, int njobs, sc_trace_t **out)
{
    *out = NULL;
    sc_trace_t *t = calloc(1, sizeof *t);
    side_by_side_t *s = calloc(1, sizeof *s);
    size_t len = 1;
    for (int j = 0; j < njobs; j++)
        len += strlen(sc_trace_path(jobs[j])) + 1;
    if (t) {
        t->reader = &jobs_reader;
        t->format = s;
        t->path = malloc(len);
        t->dir = strdup(".");
    }
    if (s) {
        s->njobs = njobs;
        s->jobs = malloc((size_t)njobs * sizeof *s->jobs);
        s->first = malloc((size_t)(njobs + 1) * sizeof *s->first);
        s->comm = calloc((size_t)njobs, sizeof *s->comm);
    }
    if (!t || !s || !t->path || !t->dir || !s->jobs || !s->first || !s->comm) {
        if (t)
            sc_trace_close(t);
        else
            free(s);
        return sc_error(SC_ERR_RUN, "out of memory");
    }
    t->path[0] = '\0';
    s->first[0] = 0;
    for (int j = 0; j < njobs; j++) {
        s->jobs[j] = jobs[j];
        s->first[j + 1] = s->first[j] + sc_trace_ranks(jobs[j]);
        strcat(strcat(t->path, j ? "+" : ""), sc_trace_path(jobs[j]));
    }
    sc_err_t err = sc_trace_set_ranks(t, s->first[njobs]);
    for (int j = 0; j < njobs && !err; j++)
        err = add_job_comms(t, s, j);
    if (err) {
        sc_trace_close(t);
        return err;
    }
    *out = t;
    return SC_OK;
}

int sc_trace_job_first_rank(const sc_trace_t *t, int job)
{
    return t->reader == &jobs_reader ? ((const side_by_side_t *)t->format)->first[job] : 0;
}
