/* Traces (sim/trace/): the communicators ranks make (split, dup, create)
 * ordered as MPI orders them, the scan's pairing of sends and receives on
 * them, and the buffered reading of files at the edges of its buffer. A
 * reader of scripted events stands in for a format's, so that each rule is
 * tested alone.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "sim/trace/reader.h"
#include "sim/trace/trace.h"
#include "suites.h"

/* ---- A reader of scripted events ---- */

/* One step of a rank's script: an event, or a communicator made from
 * `parent` (made_kind >= 0) whose index is kept in slot `slot`. Peers and
 * communicators name slots (comm_slot: -1 the world). */
typedef struct {
    int made_kind; /* -1: an event */
    int parent_slot, color, key, slot;
    sc_tev_kind_t kind;
    int comm_slot, peer;
    uint64_t bytes;
} step_t;

#define MAX_STEPS 16
typedef struct {
    step_t steps[8][MAX_STEPS]; /* by rank */
    int nsteps[8];
    int group[8], ngroup; /* for create */
} script_t;

static script_t script;

typedef struct {
    sc_trace_t *t;
    int rank, at;
    int slots[8];   /* this rank's communicators by slot */
    long made[8];   /* communicators it made from each parent */
} state_t;

static int no_detect(const char *path, const unsigned char *head, size_t len)
{
    (void)path, (void)head, (void)len;
    return 0;
}

static sc_err_t no_open(sc_trace_t *t)
{
    (void)t;
    return SC_OK;
}

static int rank_opens; /* how many times a rank was opened */

static sc_err_t rank_open(sc_trace_t *t, int rank, void **out)
{
    rank_opens++;
    state_t *s = calloc(1, sizeof *s);
    s->t = t;
    s->rank = rank;
    *out = s;
    return SC_OK;
}

static int comm_of_slot(const state_t *s, int slot)
{
    return slot < 0 ? 0 : s->slots[slot];
}

static int next(void *state, sc_tev_t *ev)
{
    state_t *s = state;
    while (s->at < script.nsteps[s->rank]) {
        const step_t *st = &script.steps[s->rank][s->at++];
        if (st->made_kind < 0) {
            *ev = (sc_tev_t){.kind = st->kind, .comm = comm_of_slot(s, st->comm_slot),
                             .peer = st->peer, .bytes = st->bytes, .began = NAN, .ended = NAN,
                             .index = s->at};
            if (st->kind == SC_TEV_COLL)
                ev->coll = SC_TCOLL_BARRIER;
            return 1;
        }
        int parent = comm_of_slot(s, st->parent_slot);
        int c = sc_trace_comm_created(s->t, s->rank, parent, s->made[parent]++,
                                      (sc_made_kind_t)st->made_kind, st->color, st->key,
                                      script.group, script.ngroup);
        if (c == -1)
            return -1;
        s->slots[st->slot] = c;
    }
    return 0;
}

static void where(void *state, char *out, size_t len)
{
    snprintf(out, len, "step %d", ((state_t *)state)->at);
}

static const sc_trace_reader_t scripted = {
    .name = "scripted",
    .detect = no_detect,
    .open = no_open,
    .rank_open = rank_open,
    .next = next,
    .where = where,
    .rank_close = free,
};

static sc_trace_t *scripted_trace(int nranks)
{
    sc_trace_t *t = calloc(1, sizeof *t);
    t->reader = &scripted;
    t->path = strdup("scripted");
    t->dir = strdup(".");
    CU_ASSERT_EQUAL(sc_trace_set_ranks(t, nranks), SC_OK);
    return t;
}

static void made(int rank, sc_made_kind_t kind, int parent_slot, int color, int key, int slot)
{
    script.steps[rank][script.nsteps[rank]++] =
        (step_t){.made_kind = (int)kind, .parent_slot = parent_slot, .color = color,
                 .key = key, .slot = slot};
}

static void event(int rank, sc_tev_kind_t kind, int comm_slot, int peer, uint64_t bytes)
{
    script.steps[rank][script.nsteps[rank]++] =
        (step_t){.made_kind = -1, .kind = kind, .comm_slot = comm_slot, .peer = peer,
                 .bytes = bytes};
}

static int members_are(const sc_trace_t *t, int comm, const int *expect, int n)
{
    const sc_trace_comm_t *c = sc_trace_comm(t, comm);
    if (c->size != n)
        return 0;
    for (int i = 0; i < n; i++)
        if (c->members[i] != expect[i])
            return 0;
    return 1;
}

/* Six ranks split by parity with keys reversing their order, then each
 * half split again with equal keys (the parent's order kept), a dup of
 * the world, and a rank left out by MPI_UNDEFINED. */
static void test_split(void)
{
    memset(&script, 0, sizeof script);
    for (int r = 0; r < 6; r++) {
        made(r, SC_MADE_SPLIT, -1, r % 2, -r, 0);
        made(r, SC_MADE_SPLIT, 0, 0, 7, 1);
        made(r, SC_MADE_DUP, -1, 0, 0, 2);
        /* rank 5 takes no part (MPI_UNDEFINED) */
        made(r, SC_MADE_SPLIT, -1, r == 5 ? -32766 : 0, 0, 3);
        /* a message on the parity communicator: rank 1 of it to rank 0 */
        if (r == 2)
            event(r, SC_TEV_SEND, 0, 0, 8); /* its rank 1 sends to its rank 0, rank 4 */
        if (r == 4)
            event(r, SC_TEV_RECV, 0, 1, 8);
    }
    sc_trace_t *t = scripted_trace(6);
    sc_trace_summary_t sum;
    CU_ASSERT_EQUAL_FATAL(sc_trace_scan(t, &sum, NULL), SC_OK);
    /* world, even, odd, even again, odd again, the dup, the one without 5 */
    CU_ASSERT_EQUAL(sc_trace_ncomms(t), 7);
    const int even[] = {4, 2, 0}, odd[] = {5, 3, 1}, all[] = {0, 1, 2, 3, 4, 5},
              five[] = {0, 1, 2, 3, 4};
    int found_even = 0, found_odd = 0, found_all = 0, found_five = 0;
    for (int c = 1; c < sc_trace_ncomms(t); c++) {
        found_even += members_are(t, c, even, 3);
        found_odd += members_are(t, c, odd, 3);
        found_all += members_are(t, c, all, 6);
        found_five += members_are(t, c, five, 5);
    }
    CU_ASSERT_EQUAL(found_even, 2); /* the split by parity, and its split kept in order */
    CU_ASSERT_EQUAL(found_odd, 2);
    CU_ASSERT_EQUAL(found_all, 1);
    CU_ASSERT_EQUAL(found_five, 1);
    CU_ASSERT_EQUAL(sum.p2p_messages, 1);
    sc_trace_summary_destroy(&sum);
    sc_trace_close(t);
}

/* A send whose receiver is named on the wrong communicator is never
 * received: the scan names both sides. */
static void test_unmatched_on_split(void)
{
    memset(&script, 0, sizeof script);
    for (int r = 0; r < 4; r++)
        made(r, SC_MADE_SPLIT, -1, r / 2, r, 0);
    event(0, SC_TEV_SEND, 0, 1, 8); /* to rank 1 of {0, 1}: world rank 1 */
    event(1, SC_TEV_RECV, -1, 0, 8); /* but rank 1 receives on the world */
    sc_trace_t *t = scripted_trace(4);
    sc_trace_summary_t sum;
    CU_ASSERT_EQUAL(sc_trace_scan(t, &sum, NULL), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "rank 1 receives 1 message(s) from rank 0 "
                                                      "on MPI_COMM_WORLD"));
    sc_trace_close(t);
}

/* MPI_Comm_create: the group's ranks, in its order; a rank outside has
 * none; a rank making it by another call than the others is refused. */
static void test_create(void)
{
    memset(&script, 0, sizeof script);
    script.ngroup = 3;
    script.group[0] = 3, script.group[1] = 0, script.group[2] = 2;
    for (int r = 0; r < 4; r++) {
        made(r, SC_MADE_CREATE, -1, 0, 0, 0);
        if (r != 1) /* outside the group: MPI_COMM_NULL */
            event(r, SC_TEV_COLL, 0, 0, 0);
    }
    sc_trace_t *t = scripted_trace(4);
    sc_trace_summary_t sum;
    CU_ASSERT_EQUAL_FATAL(sc_trace_scan(t, &sum, NULL), SC_OK);
    CU_ASSERT_EQUAL(sc_trace_ncomms(t), 2);
    const int group[] = {3, 0, 2};
    CU_ASSERT(members_are(t, 1, group, 3));
    CU_ASSERT_EQUAL(sum.collectives[SC_TCOLL_BARRIER], 1);
    CU_ASSERT_EQUAL(sum.collective_rank_calls[SC_TCOLL_BARRIER], 3);
    sc_trace_summary_destroy(&sum);
    sc_trace_close(t);

    memset(&script, 0, sizeof script);
    made(0, SC_MADE_SPLIT, -1, 0, 0, 0);
    made(1, SC_MADE_DUP, -1, 0, 0, 0);
    t = scripted_trace(2);
    CU_ASSERT_EQUAL(sc_trace_scan(t, &sum, NULL), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "by comm_dup, where another rank made it "
                                                      "by comm_split"));
    sc_trace_close(t);
}

/* The scan reads a trace of the world's communicator alone once, checks
 * and all; one whose ranks make communicators twice. A check that fails
 * on an early rank is still reported after a later rank's reading error,
 * as the second pass reports it. */
static void test_scan_passes(void)
{
    memset(&script, 0, sizeof script);
    event(0, SC_TEV_SEND, -1, 1, 8);
    event(1, SC_TEV_RECV, -1, 0, 8);
    event(2, SC_TEV_COLL, -1, 0, 0);
    sc_trace_t *t = scripted_trace(3);
    sc_trace_summary_t sum;
    rank_opens = 0;
    CU_ASSERT_EQUAL_FATAL(sc_trace_scan(t, &sum, NULL), SC_OK);
    CU_ASSERT_EQUAL(rank_opens, 3);
    CU_ASSERT_EQUAL(sum.p2p_messages, 1);
    CU_ASSERT_EQUAL(sum.collectives[SC_TCOLL_BARRIER], 0); /* rank 0 calls none */
    sc_tcoll_t coll;
    int comm;
    CU_ASSERT(sc_trace_collective_use(t, 0, &coll, &comm) && coll == SC_TCOLL_BARRIER && comm == 0);
    CU_ASSERT_FALSE(sc_trace_collective_use(t, 1, &coll, &comm));
    sc_trace_summary_destroy(&sum);
    sc_trace_close(t);

    memset(&script, 0, sizeof script);
    for (int r = 0; r < 2; r++) {
        made(r, SC_MADE_DUP, -1, 0, 0, 0);
        event(r, SC_TEV_COLL, 0, 0, 0);
    }
    t = scripted_trace(2);
    rank_opens = 0;
    CU_ASSERT_EQUAL_FATAL(sc_trace_scan(t, &sum, NULL), SC_OK);
    CU_ASSERT_EQUAL(rank_opens, 4);
    CU_ASSERT_EQUAL(sum.collectives[SC_TCOLL_BARRIER], 1);
    sc_trace_summary_destroy(&sum);
    sc_trace_close(t);

    memset(&script, 0, sizeof script);
    event(0, SC_TEV_SEND, -1, 5, 8); /* no rank 5 */
    made(1, SC_MADE_SPLIT, -1, 0, 0, 0);
    made(2, SC_MADE_DUP, -1, 0, 0, 0);
    t = scripted_trace(3);
    CU_ASSERT_EQUAL(sc_trace_scan(t, &sum, NULL), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "by comm_dup, where another rank made it "
                                                      "by comm_split"));
    sc_trace_close(t);
}

/* ---- Reading files through a buffer ---- */

/* Lines that cross the 16 KiB buffer, one longer than it, CR LF ends and
 * a last line without its end: each read whole, in order. */
static void test_lines(void)
{
    FILE *f = fopen(sc_test_in_dir("lines.txt"), "w");
    char *long_line = malloc(40000);
    memset(long_line, 'x', 39999);
    long_line[39999] = '\0';
    for (int i = 0; i < 3000; i++)
        fprintf(f, "line %d\r\n", i);
    fprintf(f, "%s\n", long_line);
    fprintf(f, "last");
    fclose(f);
    sc_tfile_t tf;
    CU_ASSERT_EQUAL_FATAL(sc_tfile_open(&tf, sc_test_in_dir("lines.txt"), "test"), SC_OK);
    int failed = 0, ok = 1;
    char expect[32], *line;
    for (int i = 0; i < 3000; i++) {
        snprintf(expect, sizeof expect, "line %d", i);
        line = sc_tfile_line(&tf, &failed);
        ok &= line && !strcmp(line, expect);
    }
    CU_ASSERT(ok);
    line = sc_tfile_line(&tf, &failed);
    CU_ASSERT(line && strlen(line) == 39999);
    line = sc_tfile_line(&tf, &failed);
    CU_ASSERT(line && !strcmp(line, "last"));
    CU_ASSERT_PTR_NULL(sc_tfile_line(&tf, &failed));
    CU_ASSERT_EQUAL(failed, 0);
    sc_tfile_close(&tf);
    free(long_line);
    remove(sc_test_in_dir("lines.txt"));
}

/* A file is read as it was when opened, up to its size then: lines
 * appended later are not read, whether it was small enough to be read
 * whole at once or is read through its buffer as it goes. */
static void test_file_as_opened(void)
{
    for (int big = 0; big < 2; big++) {
        FILE *f = fopen(sc_test_in_dir("grows.txt"), "w");
        fprintf(f, "0 init\n");
        for (int i = 0; big && i < 3000; i++) /* beyond a buffer of 16 KiB */
            fprintf(f, "0 compute %d\n", i);
        fclose(f);
        sc_tfile_t tf;
        CU_ASSERT_EQUAL_FATAL(sc_tfile_open(&tf, sc_test_in_dir("grows.txt"), "test"), SC_OK);
        f = fopen(sc_test_in_dir("grows.txt"), "a");
        for (int i = 0; i < 500; i++)
            fprintf(f, "0 send 1 %d %0*d\n", i, 60 + i, i);
        fclose(f);
        int failed = 0, ok = 1;
        char *line = sc_tfile_line(&tf, &failed);
        CU_ASSERT(line && !strcmp(line, "0 init"));
        char expect[64];
        for (int i = 0; big && i < 3000; i++) {
            snprintf(expect, sizeof expect, "0 compute %d", i);
            line = sc_tfile_line(&tf, &failed);
            ok &= line && !strcmp(line, expect);
        }
        CU_ASSERT(ok);
        CU_ASSERT_PTR_NULL(sc_tfile_line(&tf, &failed));
        CU_ASSERT_EQUAL(failed, 0);
        sc_tfile_close(&tf);
        remove(sc_test_in_dir("grows.txt"));
    }
}

/* A TI file of every rank's lines, interleaved with comments, CR LF ends
 * and no end on its last line, gives each rank the events of the same
 * trace written a file a rank, in order, and says where each is by the
 * shared file's own line numbers. */
static void test_ti_shared_file(void)
{
    const char *lines[] = {"# a comment",
                           "0 init",
                           "1 init",
                           "2 init",
                           "",
                           "0 send 1 0 100 2",
                           "1 recv 0 0 100 2",
                           "2 compute 1000",
                           "1 send 2 0 40 2",
                           "2 recv 1 0 40 2",
                           "0 allgather 8 8 2 2",
                           "1 allgather 8 8 2 2",
                           "2 allgather 8 8 2 2",
                           "0 finalize",
                           "2 finalize",
                           "1 finalize"};
    const int n = (int)(sizeof lines / sizeof *lines);
    FILE *shared = fopen(sc_test_in_dir("shared.txt"), "w");
    FILE *index = fopen(sc_test_in_dir("index.txt"), "w");
    FILE *own[3];
    char name[32];
    for (int r = 0; r < 3; r++) {
        snprintf(name, sizeof name, "rank%d.txt", r);
        own[r] = fopen(sc_test_in_dir(name), "w");
        fprintf(index, "%s\n", name);
    }
    for (int i = 0; i < n; i++) {
        fprintf(shared, i + 1 < n ? "%s\r\n" : "%s", lines[i]);
        if (lines[i][0] >= '0' && lines[i][0] <= '2')
            fprintf(own[lines[i][0] - '0'], "%s\n", lines[i]);
    }
    fclose(shared);
    fclose(index);
    for (int r = 0; r < 3; r++)
        fclose(own[r]);
    sc_trace_t *a = NULL, *b = NULL;
    CU_ASSERT_EQUAL_FATAL(sc_trace_open(sc_test_in_dir("shared.txt"), &a), SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_trace_open(sc_test_in_dir("index.txt"), &b), SC_OK);
    CU_ASSERT_EQUAL(sc_trace_ranks(a), 3);
    CU_ASSERT_EQUAL(sc_trace_ranks(b), 3);
    /* the line of each rank's events in the shared file (init and
     * finalize make none) */
    const char *at[3][3] = {{":6", ":11"}, {":7", ":9", ":12"}, {":8", ":10", ":13"}};
    const int events[3] = {2, 3, 3};
    for (int r = 0; r < 3; r++) {
        sc_trace_cursor_t *x = NULL, *y = NULL;
        CU_ASSERT_EQUAL_FATAL(sc_trace_cursor_open(a, r, &x), SC_OK);
        CU_ASSERT_EQUAL_FATAL(sc_trace_cursor_open(b, r, &y), SC_OK);
        sc_tev_t ex, ey;
        int got, k = 0;
        while ((got = sc_trace_next(x, &ex)) == 1) {
            CU_ASSERT_EQUAL_FATAL(sc_trace_next(y, &ey), 1);
            CU_ASSERT_EQUAL(ex.kind, ey.kind);
            CU_ASSERT_EQUAL(ex.peer, ey.peer);
            CU_ASSERT_EQUAL(ex.bytes, ey.bytes);
            CU_ASSERT_EQUAL(ex.coll, ey.coll);
            const char *where = sc_trace_cursor_where(x);
            size_t len = strlen(where);
            CU_ASSERT_FATAL(k < events[r]);
            CU_ASSERT(len > strlen(at[r][k]) && !strcmp(where + len - strlen(at[r][k]), at[r][k]));
            k++;
        }
        CU_ASSERT_EQUAL(got, 0);
        CU_ASSERT_EQUAL(sc_trace_next(y, &ey), 0);
        CU_ASSERT_EQUAL(k, events[r]);
        sc_trace_cursor_close(x);
        sc_trace_cursor_close(y);
    }
    sc_trace_close(a);
    sc_trace_close(b);
    remove(sc_test_in_dir("shared.txt"));
    remove(sc_test_in_dir("index.txt"));
    for (int r = 0; r < 3; r++) {
        snprintf(name, sizeof name, "rank%d.txt", r);
        remove(sc_test_in_dir(name));
    }
}

/* Many files read a little at a time each, more of them than the pool
 * keeps open (each larger than its buffer, which would otherwise hold it
 * whole from its opening): every one reads on where it was. */
static void test_many_files(void)
{
    enum { FILES = 300 };
    sc_tfile_t *tf = calloc(FILES, sizeof *tf);
    char name[32];
    for (int i = 0; i < FILES; i++) {
        snprintf(name, sizeof name, "f%d", i);
        FILE *f = fopen(sc_test_in_dir(name), "wb");
        for (int k = 0; k < 100; k++)
            fprintf(f, "%d %d %0200d\n", i, k, k);
        fclose(f);
        CU_ASSERT_EQUAL_FATAL(sc_tfile_open(&tf[i], sc_test_in_dir(name), "test"), SC_OK);
    }
    int ok = 1, failed = 0;
    for (int k = 0; k < 100; k++)
        for (int i = 0; i < FILES; i++) {
            char *line = sc_tfile_line(&tf[i], &failed), expect[256];
            snprintf(expect, sizeof expect, "%d %d %0200d", i, k, k);
            ok &= line && !strcmp(line, expect);
        }
    CU_ASSERT(ok);
    for (int i = 0; i < FILES; i++) {
        sc_tfile_close(&tf[i]);
        snprintf(name, sizeof name, "f%d", i);
        remove(sc_test_in_dir(name));
    }
    free(tf);
}

/* Binary reads: whole, at the end, and part way through a short file. */
static void test_reads(void)
{
    FILE *f = fopen(sc_test_in_dir("bin"), "wb");
    fwrite("abcdefgh", 1, 8, f);
    fclose(f);
    sc_tfile_t tf;
    CU_ASSERT_EQUAL_FATAL(sc_tfile_open(&tf, sc_test_in_dir("bin"), "test"), SC_OK);
    char out[8];
    CU_ASSERT_EQUAL(sc_tfile_read(&tf, out, 3), 1);
    CU_ASSERT_EQUAL(memcmp(out, "abc", 3), 0);
    CU_ASSERT_EQUAL(sc_tfile_tell(&tf), 3);
    CU_ASSERT_EQUAL(sc_tfile_read(&tf, out, 8), -1); /* 5 left: truncated */
    sc_tfile_seek(&tf, 6);
    CU_ASSERT_EQUAL(sc_tfile_read(&tf, out, 2), 1);
    CU_ASSERT_EQUAL(memcmp(out, "gh", 2), 0);
    CU_ASSERT_EQUAL(sc_tfile_read(&tf, out, 1), 0); /* the end */
    sc_tfile_close(&tf);
    remove(sc_test_in_dir("bin"));
}

void sc_suite_tracefile(void)
{
    CU_pSuite s = CU_add_suite("tracefile", sc_test_dir_make, sc_test_dir_remove);
    CU_add_test(s, "communicators made by split and dup", test_split);
    CU_add_test(s, "a message on another communicator than its receive", test_unmatched_on_split);
    CU_add_test(s, "communicators made by create", test_create);
    CU_add_test(s, "what the scan reads twice", test_scan_passes);
    CU_add_test(s, "lines across the buffer", test_lines);
    CU_add_test(s, "a file read as it was when opened", test_file_as_opened);
    CU_add_test(s, "a TI file of every rank's lines", test_ti_shared_file);
    CU_add_test(s, "more files than are kept open", test_many_files);
    CU_add_test(s, "binary reads", test_reads);
}
