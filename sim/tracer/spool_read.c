/* A rank's spool (spool.h), read a frame at a time and decoded an item at
 * a time, for the conversion's two passes (conversion.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "conversion.h"

_Static_assert(SC_SPOOL_END == 15, "SC_SPOOL_END_FRAME spells the END kind");

int sc_spool_open(conv_t *c, rank_t *r)
{
    r->f = fopen(r->path, "rb");
    if (!r->f)
        return sc_conv_fail(c, 2, "%s: %s", r->path, strerror(errno));
    char magic[8];
    if (fread(magic, 1, 8, r->f) != 8 || memcmp(magic, SC_SPOOL_MAGIC, 8) != 0) {
        fclose(r->f);
        r->f = NULL;
        return sc_conv_fail(c, 2,
                            "%s is not a spool of simcoll-trace's (rank %d's; its run may have "
                            "been killed before it wrote anything)",
                            r->path, r->rank);
    }
    r->index = 0;
    r->flen = r->pos = 0;
    r->nids = 0;
    r->last_end = 0;
    return 0;
}

static int get_u(rank_t *r, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; shift < 64 && r->pos < r->flen; shift += 7) {
        unsigned char b = r->frame[r->pos++];
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return 1;
    }
    r->error = "a number that runs past its call";
    return 0;
}

static int get_s(rank_t *r, int64_t *v)
{
    uint64_t u;
    if (!get_u(r, &u))
        return 0;
    *v = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
    return 1;
}

static int get_i32(rank_t *r, int32_t *v)
{
    int64_t x;
    if (!get_s(r, &x))
        return 0;
    if (x < INT32_MIN || x > INT32_MAX) {
        r->error = "a rank or tag out of range";
        return 0;
    }
    *v = (int32_t)x;
    return 1;
}

/* A communicator by the rank's number of it: its id. */
static int get_comm(rank_t *r, uint64_t *id)
{
    uint64_t k;
    if (!get_u(r, &k))
        return 0;
    if (k < 2) {
        *id = k; /* SC_SPOOL_WORLD, SC_SPOOL_SELF */
        return 1;
    }
    if (k - 2 >= r->nids) {
        r->error = "a communicator the rank did not make";
        return 0;
    }
    *id = r->ids[k - 2];
    return 1;
}

static int get_bytes(rank_t *r, void *out, size_t n)
{
    if (r->flen - r->pos < n) {
        r->error = "a field that runs past its call";
        return 0;
    }
    memcpy(out, r->frame + r->pos, n);
    r->pos += n;
    return 1;
}

static double get_time(const rank_t *r, int64_t ns)
{
    return r->sync + 1e-9 * (double)ns;
}

/* One item of the frame under way. */
static int decode(rank_t *r, rec_t *rec)
{
    uint64_t u, v;
    int64_t x;
    memset(rec, 0, sizeof *rec);
    rec->kind = r->frame[r->pos++];
    rec->n = r->in_frame++;
    switch (rec->kind) {
    case SC_SPOOL_HEADER: {
        uint64_t bits = 0;
        unsigned char b[8];
        if (!get_u(r, &u) || !get_u(r, &v) || v > INT32_MAX)
            return r->error ? 0 : (r->error = "a rank out of range", 0);
        rec->n = (uint32_t)u;
        rec->peer = (int32_t)v;
        if (!get_u(r, &u) || u > INT32_MAX || !get_u(r, &rec->a) || !get_bytes(r, b, 8))
            return r->error ? 0 : (r->error = "a size out of range", 0);
        rec->tag = (int32_t)u;
        for (int i = 0; i < 8; i++)
            bits |= (uint64_t)b[i] << (8 * i);
        memcpy(&rec->t0, &bits, 8);
        return 1;
    }
    case SC_SPOOL_HOST:
        if (!get_u(r, &u) || u > 47 || !get_bytes(r, rec->text, (size_t)u))
            return r->error ? 0 : (r->error = "a host name too long", 0);
        rec->text[u] = '\0';
        return 1;
    case SC_SPOOL_CALL:
        if (!get_u(r, &u) || !get_s(r, &x) || !get_u(r, &v))
            return 0;
        if (u >= SC_FN_COUNT || r->pos != r->flen) {
            r->error = u >= SC_FN_COUNT ? "an unknown function" : "a call's end inside it";
            return 0;
        }
        rec->fn = (int)u;
        rec->n = r->in_frame - 1;
        rec->t0 = get_time(r, r->last_end + x);
        r->last_end += x + (int64_t)v;
        rec->t1 = get_time(r, r->last_end);
        return 1;
    case SC_SPOOL_SEND:
    case SC_SPOOL_RECV:
    case SC_SPOOL_ISEND:
    case SC_SPOOL_IRECV_DONE:
        if (!get_comm(r, &rec->comm) || !get_i32(r, &rec->peer) || !get_i32(r, &rec->tag) ||
            !get_u(r, &rec->a))
            return 0;
        return rec->kind == SC_SPOOL_SEND || rec->kind == SC_SPOOL_RECV || get_u(r, &rec->b);
    case SC_SPOOL_IRECV: return get_comm(r, &rec->comm) && get_u(r, &rec->b);
    case SC_SPOOL_ISEND_DONE:
    case SC_SPOOL_TEST:
    case SC_SPOOL_CANCELLED: return get_u(r, &rec->b);
    case SC_SPOOL_COLL:
        if (!get_u(r, &u) || !get_comm(r, &rec->comm) || !get_i32(r, &rec->peer) ||
            !get_u(r, &rec->a) || !get_u(r, &rec->b))
            return 0;
        rec->n = (uint32_t)u;
        return 1;
    case SC_SPOOL_COMM:
        if (!get_u(r, &rec->comm) || !get_u(r, &rec->a) || !get_u(r, &u) || !get_u(r, &v))
            return 0;
        if (u == 0 || u > INT32_MAX || v >= u) {
            r->error = "a communicator of a size or rank out of range";
            return 0;
        }
        rec->n = (uint32_t)u;
        rec->peer = (int32_t)v;
        if (r->nids == r->cap_ids) {
            size_t cap = r->cap_ids ? 2 * r->cap_ids : 16;
            uint64_t *more = realloc(r->ids, cap * sizeof *more);
            if (!more) {
                r->error = "out of memory";
                return 0;
            }
            r->ids = more;
            r->cap_ids = cap;
        }
        r->ids[r->nids++] = rec->comm;
        return 1;
    case SC_SPOOL_MEMBERS:
        if (!get_u(r, &u) || u > 10)
            return r->error ? 0 : (r->error = "too many members in one item", 0);
        rec->n = (uint32_t)u;
        for (uint32_t k = 0; k < rec->n; k++) {
            if (!get_u(r, &v) || v > INT32_MAX)
                return r->error ? 0 : (r->error = "a member out of range", 0);
            rec->members[k] = (int)v;
        }
        return 1;
    case SC_SPOOL_END: {
        char end[8];
        if (!get_bytes(r, end, 8) || memcmp(end, &SC_SPOOL_END_FRAME[3], 8) != 0)
            return r->error ? 0 : (r->error = "a damaged end", 0);
        return 1;
    }
    }
    r->error = "an unknown kind of item";
    return 0;
}

/* The next item: 1, 0 at the end (a frame cut short by the run's end is
 * no frame), -1 where the spool is damaged (r->error says how). */
int sc_spool_next(rank_t *r, rec_t *rec)
{
    r->error = NULL;
    if (r->pos == r->flen) {
        unsigned char head[6];
        if (fread(head, 1, 2, r->f) != 2)
            return 0;
        size_t len = head[0] | (size_t)head[1] << 8;
        if (len == 0xffff) {
            if (fread(head + 2, 1, 4, r->f) != 4)
                return 0;
            len = head[2] | (size_t)head[3] << 8 | (size_t)head[4] << 16 | (size_t)head[5] << 24;
        }
        if (len == 0) {
            r->error = "an empty frame";
            return -1;
        }
        if (len > r->fcap) {
            unsigned char *more = realloc(r->frame, len);
            if (!more) {
                r->error = "out of memory";
                return -1;
            }
            r->frame = more;
            r->fcap = len;
        }
        if (fread(r->frame, 1, len, r->f) != len)
            return 0;
        r->flen = len;
        r->pos = 0;
        r->in_frame = 0;
        r->index++;
    }
    return decode(r, rec) ? 1 : -1;
}

/* Frames count from the header's: call k (0 is MPI_Init's) is frame k + 2. */
int sc_spool_bad(conv_t *c, const rank_t *r, const char *what)
{
    char where[64];
    if (r->index <= 1)
        snprintf(where, sizeof where, "its header");
    else
        snprintf(where, sizeof where, "call %ld", r->index - 2);
    return sc_conv_fail(c, 2, "%s, %s: %s (not a spool simcoll-trace wrote, or damaged)", r->path,
                        where, r->error ? r->error : what);
}

/* HEADER and HOST. */
int sc_spool_read_head(conv_t *c, rank_t *r, int *size)
{
    rec_t rec;
    int got = sc_spool_next(r, &rec);
    if (got == 0)
        return sc_conv_fail(c, 2,
                            "%s is empty: rank %d recorded nothing (killed before its MPI_Init "
                            "returned?)",
                            r->path, r->rank);
    if (got < 0 || rec.kind != SC_SPOOL_HEADER)
        return sc_spool_bad(c, r, "no simcoll-trace header");
    if (rec.n != SC_SPOOL_VERSION)
        return sc_conv_fail(c, 2, "%s: spool version %u, this simcoll-trace reads version %d",
                            r->path, rec.n, SC_SPOOL_VERSION);
    if (rec.peer != r->rank)
        return sc_spool_bad(c, r, "its header names another rank than its file name");
    *size = rec.tag;
    r->sync = rec.t0;
    if (sc_spool_next(r, &rec) != 1 || rec.kind != SC_SPOOL_HOST)
        return sc_spool_bad(c, r, "no host record after the header");
    memcpy(r->host, rec.text, sizeof r->host);
    r->host[sizeof r->host - 1] = '\0';
    return 0;
}

/* Whether a spool ends with its END frame. */
int sc_spool_ended(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    int ended = 0;
    char tail[SC_SPOOL_END_FRAME_LEN];
    if (fseeko(f, -(off_t)SC_SPOOL_END_FRAME_LEN, SEEK_END) == 0 &&
        fread(tail, 1, sizeof tail, f) == sizeof tail)
        ended = !memcmp(tail, SC_SPOOL_END_FRAME, SC_SPOOL_END_FRAME_LEN);
    fclose(f);
    return ended;
}
