/* DUMPI traces (SST's binary per-rank format, sstsimulator/sst-dumpi), read
 * by a reader of simcoll's own: Debian has no package of sst-dumpi, and its
 * reader library stops the process with assert() on a file it cannot read,
 * where simcoll must name the file and the record and exit 2. The format,
 * as libdumpi 0.6.3 to 1.x writes it:
 *
 *   a .meta file of key=value lines: numprocs and fileprefix name the rank
 *   files PREFIX-NNNN.bin beside it;
 *   a rank file: 8 bytes of magic, the body (cpu and wall time offsets in
 *   seconds, then the records, then the label 293), the header (version,
 *   start time, host), the footer (calls per function), the sizes of the
 *   datatypes the rank used, and an index of the sections' offsets in its
 *   last 64 bytes. Every value is big-endian.
 *   a record: u16 function id, u8 mask, then, as the mask says, u16 thread,
 *   cpu and wall times (u16 s, u32 ns at entry and exit), u8 n performance
 *   counters of 16 bytes; then the function's fields (dumpi_layout.inc).
 *
 * Handles (communicators, requests, datatypes, groups) are the rank's own
 * numbers, reused when MPI reuses the handle: requests are paired with
 * their waits in time order. Which ranks a split or created communicator
 * holds is not written: it is worked out from every rank's calls
 * (sc_trace_comm_created). MPI_PROC_NULL is written as the MPI library's
 * own value: a destination of -1 or -2 is taken as MPI_PROC_NULL (no
 * message), a source of -2 too; a source of -1 is MPI_ANY_SOURCE.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

/* The fields after a record's prelude, one code a field (see the table's
 * head). */
typedef struct {
    const char *name;
    const char *codes;
} layout_t;

static const layout_t layouts[] = {
#include "dumpi_layout.inc"
};
#define NFUNCTIONS ((int)(sizeof layouts / sizeof *layouts))

enum {
    F_SEND = 0, F_RECV = 1, F_BSEND = 3, F_SSEND = 4, F_RSEND = 5, F_ISEND = 8, F_IBSEND = 9,
    F_ISSEND = 10, F_IRSEND = 11, F_IRECV = 12, F_WAIT = 13, F_TEST = 14, F_REQUEST_FREE = 15,
    F_WAITANY = 16, F_TESTANY = 17, F_WAITALL = 18, F_TESTALL = 19, F_WAITSOME = 20,
    F_TESTSOME = 21, F_CANCEL = 24, F_SEND_INIT = 26, F_RECV_INIT = 30, F_START = 31,
    F_STARTALL = 32, F_SENDRECV = 33, F_SENDRECV_REPLACE = 34, F_BARRIER = 52, F_BCAST = 53,
    F_GATHER = 54, F_GATHERV = 55, F_SCATTER = 56, F_SCATTERV = 57, F_ALLGATHER = 58,
    F_ALLGATHERV = 59, F_ALLTOALL = 60, F_ALLTOALLV = 61, F_REDUCE = 62, F_ALLREDUCE = 65,
    F_REDUCE_SCATTER = 66, F_SCAN = 67, F_COMM_GROUP = 72, F_GROUP_UNION = 73,
    F_GROUP_INTERSECTION = 74, F_GROUP_DIFFERENCE = 75, F_GROUP_INCL = 76, F_GROUP_EXCL = 77,
    F_GROUP_RANGE_INCL = 78, F_GROUP_RANGE_EXCL = 79, F_COMM_DUP = 84, F_COMM_CREATE = 85,
    F_COMM_SPLIT = 86, F_COMM_FREE = 87, F_INIT = 124, F_FINALIZE = 125, F_ALLTOALLW = 155,
    F_EXSCAN = 156, F_INIT_THREAD = 171, F_FUNCTION_ENTER = 291, F_FUNCTION_EXIT = 292,
    F_END = 293,
};

/* Handles DUMPI numbers for itself. */
enum { COMM_NULL = 1, COMM_WORLD = 2, COMM_SELF = 3, GROUP_EMPTY = 2, REQUEST_NULL = 1 };

typedef struct {
    int nranks;
    char **files;
    /* the wall clock's offset of the first rank file read: times are
     * seconds from it, exact in a double where seconds since 1970 are not
     * to the nanosecond */
    double base;
    int based;
} dumpi_t;

/* ---- The .meta file ---- */

static int dumpi_detect(const char *path, const unsigned char *head, size_t len)
{
    (void)path;
    static const char magic[] = "\xff\xaa\xdd" "DUMPI";
    if (len >= 8 && !memcmp(head, magic, 8))
        return 1; /* a rank file given as the anchor: refused with a hint at open */
    char text[4097];
    size_t n = len < 4096 ? len : 4096;
    memcpy(text, head, n);
    text[n] = '\0';
    if (strlen(text) != n)
        return 0;
    return (strstr(text, "numprocs=") != NULL) + (strstr(text, "fileprefix=") != NULL) == 2;
}

static void dumpi_close(sc_trace_t *t)
{
    dumpi_t *d = t->format;
    if (!d)
        return;
    for (int r = 0; d->files && r < d->nranks; r++)
        free(d->files[r]);
    free(d->files);
    free(d);
    t->format = NULL;
}

static int file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

static sc_err_t dumpi_open(sc_trace_t *t)
{
    dumpi_t *d = calloc(1, sizeof *d);
    if (!d)
        return sc_error(SC_ERR_RUN, "out of memory");
    t->format = d;
    sc_tfile_t f;
    sc_err_t err = sc_tfile_open(&f, t->path, "DUMPI trace");
    if (err)
        return err;
    unsigned char magic[8];
    if (sc_tfile_read(&f, magic, 8) == 1 && !memcmp(magic, "\xff\xaa\xdd" "DUMPI", 8)) {
        sc_tfile_close(&f);
        return sc_error(SC_ERR_INPUT, "'%s' is one rank's file of a DUMPI trace: give the "
                        "trace's .meta file, which names every rank's", t->path);
    }
    sc_tfile_seek(&f, 0);
    char prefix[1024] = "", *line;
    long numprocs = -1, lineno = 0;
    int failed = 0;
    while ((line = sc_tfile_line(&f, &failed))) {
        lineno++;
        if (!strncmp(line, "numprocs=", 9)) {
            char *end;
            numprocs = strtol(line + 9, &end, 10);
            if (end == line + 9 || *end || numprocs < 1 || numprocs > (1 << 24)) {
                err = sc_error(SC_ERR_INPUT, "%s:%ld: numprocs '%s' is not a number of ranks "
                               "(1 to %d)", t->path, lineno, line + 9, 1 << 24);
                break;
            }
        } else if (!strncmp(line, "fileprefix=", 11)) {
            snprintf(prefix, sizeof prefix, "%s", line + 11);
        }
    }
    sc_tfile_close(&f);
    if (err || failed)
        return err ? err : SC_ERR_INPUT;
    if (numprocs < 0 || !prefix[0])
        return sc_error(SC_ERR_INPUT, "DUMPI trace '%s' lacks %s", t->path,
                        numprocs < 0 ? "numprocs=" : "fileprefix=");
    /* The writer names the prefix from the folder it ran in: the files are
     * the prefix's base name beside the .meta file. */
    const char *base = strrchr(prefix, '/') ? strrchr(prefix, '/') + 1 : prefix;
    d->nranks = (int)numprocs;
    d->files = calloc((size_t)numprocs, sizeof *d->files);
    if (!d->files)
        return sc_error(SC_ERR_RUN, "out of memory");
    for (int r = 0; r < d->nranks; r++) {
        /* zero-padded to 4 digits by the writer; wider ones too */
        for (int width = 4; width <= 9 && !d->files[r]; width++) {
            char name[1100];
            snprintf(name, sizeof name, "%s-%0*d.bin", base, width, r);
            char *path = sc_trace_file(t, name);
            if (!path)
                return sc_error(SC_ERR_RUN, "out of memory");
            if (file_exists(path))
                d->files[r] = path;
            else
                free(path);
        }
        if (!d->files[r])
            return sc_error(SC_ERR_INPUT, "DUMPI trace '%s': rank %d's file %s-%04d.bin is "
                            "missing from its folder", t->path, r, base, r);
    }
    return sc_trace_set_ranks(t, d->nranks);
}

/* ---- One rank's file ---- */

/* A value of a record's field: a number, or an array in the rank's
 * scratch (`at`, `n`). */
typedef struct {
    int64_t v;
    size_t at;
    int n;
} field_t;

#define MAX_FIELDS 32

typedef struct {
    int handle;
    int comm; /* ours; -2 for MPI_COMM_NULL */
} comm_map_t;

typedef struct {
    int handle;
    int *members; /* world ranks */
    int n;
} group_map_t;

typedef struct {
    int handle;
    uint64_t id;
} req_map_t;

typedef struct {
    int parent; /* ours */
    long made;  /* communicators the rank made from it */
} made_count_t;

#define QUEUE 4

typedef struct {
    sc_trace_t *t;
    int rank;
    const char *file;
    sc_tfile_t f;
    int version[3];
    long long body, header, footer, sizelbl;
    double wall_offset;
    uint32_t *type_size;
    int ntypes;
    long record;         /* records read */
    long long record_at; /* its offset */
    int id, mask;
    double began, ended; /* the record's wall times */
    int last_sec;        /* to undo the u16 seconds' wrap */
    double wraps;
    field_t fields[MAX_FIELDS];
    int nfields;
    int64_t *scratch;    /* arrays of the record being read */
    size_t nscratch, cap_scratch;
    int status_source, status_tag, status_n; /* the record's first status */
    comm_map_t *comms;
    int ncomms, cap_comms;
    group_map_t *groups;
    int ngroups, cap_groups;
    req_map_t *reqs;
    int nreqs, cap_reqs;
    made_count_t *made;
    int nmade;
    uint64_t next_id;
    int started, ended_stream, persistent;
    double last_end;     /* wall time the last replayed call ended */
    uint64_t *ids;       /* a wait's requests */
    int cap_ids;
    uint64_t *counts;
    int cap_counts;
    sc_tev_t queue[QUEUE];
    int queued, taken;
} rank_t;

static sc_err_t corrupt(rank_t *s, const char *what)
{
    return sc_error(SC_ERR_INPUT, "DUMPI file '%s' (rank %d), record %ld at byte %lld: %s",
                    s->file, s->rank, s->record, s->record_at, what);
}

static sc_err_t read_bytes(rank_t *s, void *out, size_t n)
{
    int got = sc_tfile_read(&s->f, out, n);
    if (got == 1)
        return SC_OK;
    if (got == -2)
        return SC_ERR_INPUT;
    return corrupt(s, "the file ends part way through it (it is truncated)");
}

static sc_err_t u8(rank_t *s, uint32_t *v)
{
    unsigned char b = 0;
    sc_err_t err = read_bytes(s, &b, 1);
    *v = b;
    return err;
}

static sc_err_t u16(rank_t *s, uint32_t *v)
{
    unsigned char b[2] = {0};
    sc_err_t err = read_bytes(s, b, 2);
    *v = (uint32_t)b[0] << 8 | b[1];
    return err;
}

static sc_err_t u32(rank_t *s, uint32_t *v)
{
    unsigned char b[4] = {0};
    sc_err_t err = read_bytes(s, b, 4);
    *v = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
    return err;
}

static sc_err_t u64(rank_t *s, uint64_t *v)
{
    uint32_t hi = 0, lo = 0;
    sc_err_t err = u32(s, &hi);
    if (!err)
        err = u32(s, &lo);
    *v = (uint64_t)hi << 32 | lo;
    return err;
}

static void dumpi_where(void *state, char *out, size_t len)
{
    rank_t *s = state;
    snprintf(out, len, "%s, record %ld (%s)", s->file, s->record,
             s->id >= 0 && s->id < NFUNCTIONS && layouts[s->id].name ? layouts[s->id].name : "?");
}

static int version_at_least(const rank_t *s, int a, int b, int c)
{
    const int *v = s->version;
    return v[0] != a ? v[0] > a : v[1] != b ? v[1] > b : v[2] >= c;
}

/* The index, the header and the datatypes' sizes, then the body's start. */
static sc_err_t read_sections(rank_t *s)
{
    unsigned char magic[8];
    sc_err_t err = read_bytes(s, magic, 8);
    if (!err && memcmp(magic, "\xff\xaa\xdd" "DUMPI", 8))
        return sc_error(SC_ERR_INPUT, "DUMPI file '%s' (rank %d) does not start with DUMPI's "
                        "magic bytes: it is not a DUMPI rank file", s->file, s->rank);
    if (err)
        return sc_error(SC_ERR_INPUT, "DUMPI file '%s' (rank %d) is too short to be one",
                        s->file, s->rank);
    /* The index: the last 8 u64, or fewer in older files, after a magic. */
    FILE *fp = fopen(s->file, "rb");
    long long size = -1;
    if (fp && fseek(fp, 0, SEEK_END) == 0)
        size = ftell(fp);
    if (fp)
        fclose(fp);
    if (size < 72)
        return sc_error(SC_ERR_INPUT, "DUMPI file '%s' (rank %d) is too short (%lld bytes) to "
                        "hold its sections: it is truncated", s->file, s->rank, size);
    /* The index: DUMPI's magic, then the sections' offsets, in the last
     * 64 bytes; older files have fewer sections, and the magic later. */
    uint64_t index[8];
    int found = 0;
    for (int back = 8; back >= 5 && !found && !err; back--) {
        sc_tfile_seek(&s->f, size - 8LL * back);
        for (int i = 0; i < back && !err; i++)
            err = u64(s, &index[i]);
        found = !err && index[0] == 0xffaadd44554d5049ull;
        if (found) {
            /* the last four are header, body, footer, keyval */
            s->header = (long long)index[back - 4];
            s->body = (long long)index[back - 3];
            s->footer = (long long)index[back - 2];
            s->sizelbl = back >= 8 ? (long long)index[1] : 0;
        }
    }
    if (err)
        return err;
    if (!found || s->header <= 0 || s->header >= size || s->body < 8 || s->body >= size)
        return sc_error(SC_ERR_INPUT, "DUMPI file '%s' (rank %d): its index of sections "
                        "(the last 64 bytes) is missing or corrupt: the file is truncated",
                        s->file, s->rank);
    sc_tfile_seek(&s->f, s->header);
    uint32_t v[3];
    for (int i = 0; i < 3 && !err; i++)
        err = u8(s, &v[i]);
    if (err)
        return err;
    for (int i = 0; i < 3; i++)
        s->version[i] = (int)v[i];
    if (!version_at_least(s, 0, 6, 3) || s->version[0] > 1)
        return sc_error(SC_ERR_INPUT, "DUMPI file '%s' (rank %d) is of DUMPI version %d.%d.%d; "
                        "simcoll reads versions 0.6.3 to 1.x", s->file, s->rank, s->version[0],
                        s->version[1], s->version[2]);
    if (s->sizelbl > 0 && s->sizelbl < size) {
        sc_tfile_seek(&s->f, s->sizelbl);
        uint32_t n;
        if ((err = u32(s, &n)))
            return err;
        if (n > 65536)
            return sc_error(SC_ERR_INPUT, "DUMPI file '%s' (rank %d): %u datatype sizes, more "
                            "than handles can number", s->file, s->rank, n);
        s->type_size = malloc((n ? n : 1) * sizeof *s->type_size);
        if (!s->type_size)
            return sc_error(SC_ERR_RUN, "out of memory");
        s->ntypes = (int)n;
        for (uint32_t i = 0; i < n && !err; i++)
            err = u32(s, &s->type_size[i]);
        if (err)
            return err;
    }
    sc_tfile_seek(&s->f, s->body);
    uint32_t cpu, wall;
    if ((err = u32(s, &cpu)) || (err = u32(s, &wall)))
        return err;
    dumpi_t *d = s->t->format;
    if (!d->based) {
        d->base = (double)wall;
        d->based = 1;
    }
    s->wall_offset = (double)wall - d->base;
    return SC_OK;
}

static sc_err_t dumpi_rank_open(sc_trace_t *t, int rank, void **state)
{
    dumpi_t *d = t->format;
    rank_t *s = calloc(1, sizeof *s);
    if (!s)
        return sc_error(SC_ERR_RUN, "out of memory");
    s->t = t;
    s->rank = rank;
    s->file = d->files[rank];
    s->last_end = NAN;
    s->id = -1;
    s->last_sec = -1;
    sc_err_t err = sc_tfile_open(&s->f, s->file, "DUMPI file");
    if (!err && (err = read_sections(s)))
        sc_tfile_close(&s->f);
    if (err) {
        free(s->type_size);
        free(s);
        return err;
    }
    *state = s;
    return SC_OK;
}

static void dumpi_rank_close(void *state)
{
    rank_t *s = state;
    sc_tfile_close(&s->f);
    free(s->type_size);
    free(s->scratch);
    free(s->comms);
    for (int i = 0; i < s->ngroups; i++)
        free(s->groups[i].members);
    free(s->groups);
    free(s->reqs);
    free(s->made);
    free(s->ids);
    free(s->counts);
    free(s);
}

/* ---- Reading one record ---- */

static int grow(void **array, int *cap, int need, size_t each)
{
    if (need <= *cap)
        return 1;
    int more = *cap ? *cap : 8;
    while (more < need)
        more *= 2;
    void *grown = realloc(*array, (size_t)more * each);
    if (!grown)
        return 0;
    *array = grown;
    *cap = more;
    return 1;
}

static sc_err_t scratch_take(rank_t *s, size_t n, size_t *at)
{
    if (s->nscratch + n > s->cap_scratch) {
        size_t cap = s->cap_scratch ? s->cap_scratch : 256;
        while (cap < s->nscratch + n)
            cap *= 2;
        int64_t *more = realloc(s->scratch, cap * sizeof *more);
        if (!more)
            return sc_error(SC_ERR_RUN, "out of memory");
        s->scratch = more;
        s->cap_scratch = cap;
    }
    *at = s->nscratch;
    s->nscratch += n;
    return SC_OK;
}

/* An array's length: at most what the rest of the file could hold. */
static sc_err_t length(rank_t *s, int *n)
{
    uint32_t v;
    sc_err_t err = u32(s, &v);
    if (err)
        return err;
    if ((int32_t)v < 0 || v > (1u << 26))
        return corrupt(s, "an array of a negative or impossible length");
    *n = (int)v;
    return SC_OK;
}

/* A status block: its first entry's source and tag are kept. */
static sc_err_t status(rank_t *s)
{
    if (!(s->mask & 3))
        return SC_OK;
    int n = 0;
    sc_err_t err = length(s, &n);
    for (int i = 0; i < n && !err; i++) {
        uint32_t bytes, source, cancelled, error, tag = (uint32_t)-1;
        if (!(err = u32(s, &bytes)) && !(err = u32(s, &source)) && !(err = u8(s, &cancelled)) &&
            !(err = u8(s, &error)) && version_at_least(s, 0, 6, 3))
            err = u32(s, &tag);
        if (!err && i == 0) {
            s->status_source = (int32_t)source;
            s->status_tag = (int32_t)tag;
            s->status_n = 1;
        }
    }
    return err;
}

/* Skips a string (i32 length and bytes). */
static sc_err_t skip_string(rank_t *s)
{
    int n = 0;
    sc_err_t err = length(s, &n);
    unsigned char buf[256];
    while (!err && n > 0) {
        int part = n < 256 ? n : 256;
        err = read_bytes(s, buf, (size_t)part);
        n -= part;
    }
    return err;
}

static sc_err_t string_array(rank_t *s)
{
    int n = 0;
    sc_err_t err = length(s, &n);
    for (int i = 0; i < n && !err; i++)
        err = skip_string(s);
    return err;
}

/* One field of code c into f. */
static sc_err_t field(rank_t *s, char c, field_t *f)
{
    uint32_t v;
    uint64_t w;
    sc_err_t err = SC_OK;
    *f = (field_t){0};
    switch (c) {
    case 'i': err = u32(s, &v); f->v = (int32_t)v; break;
    case 'h': err = u16(s, &v); f->v = v; break;
    case 'c': err = u8(s, &v); f->v = v; break;
    case 'l': err = u64(s, &w); f->v = (int64_t)w; break;
    case 'I':
    case 'H':
    case 'C':
    case 'L':
        if ((err = length(s, &f->n)) || (err = scratch_take(s, (size_t)f->n, &f->at)))
            break;
        for (int k = 0; k < f->n && !err; k++) {
            if (c == 'I' && !(err = u32(s, &v)))
                s->scratch[f->at + k] = (int32_t)v;
            else if (c == 'H' && !(err = u16(s, &v)))
                s->scratch[f->at + k] = v;
            else if (c == 'C' && !(err = u8(s, &v)))
                s->scratch[f->at + k] = v;
            else if (c == 'L' && !(err = u64(s, &w)))
                s->scratch[f->at + k] = (int64_t)w;
        }
        break;
    case 's': err = skip_string(s); break;
    case 'S': err = string_array(s); break;
    case 'X': {
        int n = 0;
        err = length(s, &n);
        for (int k = 0; k < n && !err; k++)
            err = string_array(s);
        break;
    }
    case 'J': {
        int n = 0;
        err = length(s, &n);
        for (int k = 0; k < n && !err; k++) {
            int m = 0;
            err = length(s, &m);
            for (int j = 0; j < m && !err; j++)
                err = u32(s, &v);
        }
        break;
    }
    case 't':
    case 'T': err = status(s); break;
    default: err = corrupt(s, "simcoll's table of DUMPI layouts has an unknown code");
    }
    return err;
}

/* The fields of the record's function, as its layout says. */
static sc_err_t fields(rank_t *s)
{
    const char *codes = layouts[s->id].codes;
    s->nfields = 0;
    s->nscratch = 0;
    s->status_n = 0;
    int present = 1, depth = 0;
    sc_err_t err = SC_OK;
    /* Before 0.6.2 MPI_Init wrote argc twice; simcoll reads from 0.6.3. */
    for (const char *c = codes; *c && !err; c++) {
        if (*c == '?') {
            int a = 0, b = 0;
            c++;
            while (*c >= '0' && *c <= '9')
                a = a * 10 + (*c++ - '0');
            c++; /* '=' */
            while (*c >= '0' && *c <= '9')
                b = b * 10 + (*c++ - '0');
            /* c is at '(' */
            present = a < s->nfields && b < s->nfields && s->fields[a].v == s->fields[b].v;
            depth = 1;
            continue;
        }
        if (*c == ')') {
            present = 1;
            depth = 0;
            continue;
        }
        if (s->nfields >= MAX_FIELDS)
            return corrupt(s, "more fields than any function has");
        field_t *f = &s->fields[s->nfields++];
        if (present || !depth)
            err = field(s, *c, f);
        else
            *f = (field_t){.v = INT64_MIN};
    }
    return err;
}

/* Seconds of a wall time, its u16 seconds' wrap undone: they wrap after
 * 65,536 s of a run. */
static double wall(rank_t *s, uint32_t sec, uint32_t ns)
{
    if (s->last_sec >= 0 && (int)sec < s->last_sec - 32768)
        s->wraps += 65536;
    s->last_sec = (int)sec;
    return s->wraps + (double)sec + s->wall_offset + (double)ns * 1e-9;
}

/* The next record's prelude and fields; 0 at the end of the body. */
static sc_err_t read_record(rank_t *s, int *end)
{
    *end = 0;
    s->record_at = sc_tfile_tell(&s->f);
    s->record++;
    uint32_t id, mask, skip;
    sc_err_t err = u16(s, &id);
    if (err)
        return err;
    s->id = (int)id;
    if (id == F_END) {
        *end = 1;
        return SC_OK;
    }
    if ((id >= (uint32_t)NFUNCTIONS || !layouts[id].codes) && id != F_FUNCTION_ENTER &&
        id != F_FUNCTION_EXIT) {
        char what[96];
        snprintf(what, sizeof what, "function number %u is none DUMPI writes: the file is "
                 "corrupt", id);
        return corrupt(s, what);
    }
    if ((err = u8(s, &mask)))
        return err;
    s->mask = (int)mask;
    if (mask & 0x30)
        return corrupt(s, "a record prelude with bits DUMPI never sets: the file is corrupt");
    if (mask & 0x40)
        err = u16(s, &skip);
    for (int i = 0; i < 4 && !err && (mask & 0x04); i++)
        err = i % 2 ? u32(s, &skip) : u16(s, &skip);
    s->began = s->ended = NAN;
    if (!err && (mask & 0x08)) {
        uint32_t s0, n0, s1, n1;
        if (!(err = u16(s, &s0)) && !(err = u32(s, &n0)) && !(err = u16(s, &s1)) &&
            !(err = u32(s, &n1))) {
            s->began = wall(s, s0, n0);
            s->ended = wall(s, s1, n1);
        }
    }
    if (!err && (mask & 0x80)) {
        uint32_t n;
        uint64_t w;
        err = u8(s, &n);
        for (uint32_t i = 0; i < 2 * n && !err; i++)
            err = u64(s, &w);
    }
    if (err)
        return err;
    if (id == F_FUNCTION_ENTER || id == F_FUNCTION_EXIT) {
        uint64_t w;
        return u64(s, &w); /* a user's annotation: nothing to replay */
    }
    return fields(s);
}

/* ---- Handles ---- */

static int comm_of(rank_t *s, int handle, int *comm)
{
    if (handle == COMM_WORLD) {
        *comm = 0;
        return 1;
    }
    for (int i = s->ncomms - 1; i >= 0; i--)
        if (s->comms[i].handle == handle) {
            *comm = s->comms[i].comm;
            return *comm >= 0;
        }
    if (handle == COMM_SELF) {
        /* made on first use: a communicator of the rank alone */
        int me = s->rank, c = sc_trace_add_comm(s->t, 1, &me);
        if (c < 0 || !grow((void **)&s->comms, &s->cap_comms, s->ncomms + 1, sizeof *s->comms))
            return 0;
        s->comms[s->ncomms++] = (comm_map_t){COMM_SELF, c};
        *comm = c;
        return 1;
    }
    return 0;
}

static sc_err_t need_comm(rank_t *s, int handle, int *comm)
{
    if (comm_of(s, handle, comm))
        return SC_OK;
    char what[96];
    snprintf(what, sizeof what, "communicator %d was never made (or is MPI_COMM_NULL)", handle);
    return corrupt(s, what);
}

static sc_err_t set_comm(rank_t *s, int handle, int comm)
{
    for (int i = 0; i < s->ncomms; i++)
        if (s->comms[i].handle == handle) {
            s->comms[i].comm = comm;
            return SC_OK;
        }
    if (!grow((void **)&s->comms, &s->cap_comms, s->ncomms + 1, sizeof *s->comms))
        return sc_error(SC_ERR_RUN, "out of memory");
    s->comms[s->ncomms++] = (comm_map_t){handle, comm};
    return SC_OK;
}

static uint64_t type_bytes(rank_t *s, int64_t type, sc_err_t *err)
{
    if (type >= 0 && type < s->ntypes)
        return s->type_size[type];
    char what[128];
    snprintf(what, sizeof what, "datatype %lld has no size in the file's table of datatypes",
             (long long)type);
    *err = corrupt(s, what);
    return 0;
}

static group_map_t *group_of(rank_t *s, int handle)
{
    for (int i = s->ngroups - 1; i >= 0; i--)
        if (s->groups[i].handle == handle)
            return &s->groups[i];
    return NULL;
}

/* Sets group `handle` to members (taken). */
static sc_err_t set_group(rank_t *s, int handle, int *members, int n)
{
    group_map_t *g = group_of(s, handle);
    if (!g) {
        if (!grow((void **)&s->groups, &s->cap_groups, s->ngroups + 1, sizeof *s->groups)) {
            free(members);
            return sc_error(SC_ERR_RUN, "out of memory");
        }
        g = &s->groups[s->ngroups++];
        g->handle = handle;
        g->members = NULL;
    }
    free(g->members);
    g->members = members;
    g->n = n;
    return SC_OK;
}

static sc_err_t need_group(rank_t *s, int handle, group_map_t **g)
{
    static group_map_t empty = {GROUP_EMPTY, NULL, 0};
    if (handle == GROUP_EMPTY) {
        *g = &empty;
        return SC_OK;
    }
    if ((*g = group_of(s, handle)))
        return SC_OK;
    char what[64];
    snprintf(what, sizeof what, "group %d was never made", handle);
    return corrupt(s, what);
}

static sc_err_t new_request(rank_t *s, int handle, uint64_t *id)
{
    if (!grow((void **)&s->reqs, &s->cap_reqs, s->nreqs + 1, sizeof *s->reqs))
        return sc_error(SC_ERR_RUN, "out of memory");
    *id = s->next_id++;
    s->reqs[s->nreqs++] = (req_map_t){handle, *id};
    return SC_OK;
}

/* The request of handle `handle`, forgotten if `done`: 0 when the rank
 * has none (MPI_REQUEST_NULL, or a persistent request this reader skips). */
static int request_of(rank_t *s, int handle, int done, uint64_t *id)
{
    for (int i = 0; i < s->nreqs; i++)
        if (s->reqs[i].handle == handle) {
            *id = s->reqs[i].id;
            if (done)
                s->reqs[i] = s->reqs[--s->nreqs];
            return 1;
        }
    return 0;
}

/* ---- Records into events ---- */

static sc_tev_t *push(rank_t *s, sc_tev_kind_t kind)
{
    sc_tev_t *ev = &s->queue[s->queued++];
    *ev = (sc_tev_t){.kind = kind, .index = s->record, .began = s->began, .ended = s->ended};
    return ev;
}

/* A message on communicator handle `comm` to or from `peer`: 0 if the
 * peer is MPI_PROC_NULL (no message). */
static sc_err_t p2p(rank_t *s, sc_tev_kind_t kind, int64_t count, int64_t type, int64_t peer,
                    int64_t tag, int64_t comm_handle, int request)
{
    int recv = kind == SC_TEV_RECV || kind == SC_TEV_IRECV, comm;
    if (peer == -2 || (!recv && peer == -1))
        return SC_OK; /* MPI_PROC_NULL */
    sc_err_t err = need_comm(s, (int)comm_handle, &comm);
    uint64_t elem = err ? 0 : type_bytes(s, type, &err);
    if (err)
        return err;
    if (count < 0)
        return corrupt(s, "a message of a negative count");
    sc_tev_t *ev = push(s, kind);
    ev->comm = comm;
    ev->peer = (int)peer;
    ev->tag = tag < 0 ? SC_TRACE_ANY : (int)tag;
    if (recv && peer == -1 && s->status_n && s->status_source >= 0)
        ev->peer = s->status_source; /* the source the receive took, as its status says */
    else if (recv && peer == -1)
        ev->peer = SC_TRACE_ANY;
    if (recv && tag < 0 && s->status_n && s->status_tag >= 0)
        ev->tag = s->status_tag;
    ev->bytes = (uint64_t)count * elem;
    if (kind == SC_TEV_ISEND || kind == SC_TEV_IRECV)
        return new_request(s, request, &ev->req);
    return SC_OK;
}

static sc_err_t wait_on(rank_t *s, sc_tev_kind_t kind, const int64_t *handles, int n)
{
    if (!grow((void **)&s->ids, &s->cap_ids, n, sizeof *s->ids))
        return sc_error(SC_ERR_RUN, "out of memory");
    int k = 0;
    for (int i = 0; i < n; i++) {
        uint64_t id;
        if (handles[i] != REQUEST_NULL && request_of(s, (int)handles[i], kind == SC_TEV_WAIT, &id))
            s->ids[k++] = id;
        else if (handles[i] != REQUEST_NULL && !s->persistent) {
            char what[96];
            snprintf(what, sizeof what, "a wait or test on request %lld, which no call made",
                     (long long)handles[i]);
            return corrupt(s, what);
        }
    }
    if (k == 0)
        return SC_OK;
    sc_tev_t *ev = push(s, kind);
    ev->reqs = s->ids;
    ev->nreqs = k;
    return SC_OK;
}

/* Field f's array; NULL for an empty one before any array was read. */
static const int64_t *array(const rank_t *s, int f)
{
    return s->scratch ? s->scratch + s->fields[f].at : NULL;
}

static sc_tev_t *collective(rank_t *s, sc_tcoll_t coll, int64_t comm_handle, sc_err_t *err)
{
    int comm;
    if ((*err = need_comm(s, (int)comm_handle, &comm)))
        return NULL;
    sc_tev_t *ev = push(s, SC_TEV_COLL);
    ev->coll = coll;
    ev->comm = comm;
    return ev;
}

/* counts[i] = the array's entries times elem bytes. */
static sc_err_t counts_of(rank_t *s, int f, uint64_t elem, const uint64_t **out, uint64_t *sum)
{
    int n = s->fields[f].n;
    if (!grow((void **)&s->counts, &s->cap_counts, n, sizeof *s->counts))
        return sc_error(SC_ERR_RUN, "out of memory");
    *sum = 0;
    for (int i = 0; i < n; i++) {
        int64_t c = array(s, f)[i];
        if (c < 0)
            return corrupt(s, "a negative count");
        s->counts[i] = (uint64_t)c * elem;
        *sum += s->counts[i];
    }
    *out = n ? s->counts : NULL;
    return SC_OK;
}

/* Where the rank is in its communicator: needed to know who the root is in
 * the calls whose fields depend on it. */
static sc_err_t collectives(rank_t *s, int *known)
{
    const field_t *F = s->fields;
    sc_err_t err = SC_OK;
    sc_tev_t *ev = NULL;
    uint64_t sum;
    *known = 1;
    switch (s->id) {
    case F_BARRIER:
        collective(s, SC_TCOLL_BARRIER, F[0].v, &err);
        break;
    case F_BCAST: /* count datatype root comm */
        if ((ev = collective(s, SC_TCOLL_BCAST, F[3].v, &err))) {
            ev->bytes = (uint64_t)F[0].v * type_bytes(s, F[1].v, &err);
            ev->root = (int)F[2].v;
        }
        break;
    case F_REDUCE: /* count datatype op root comm */
    case F_ALLREDUCE: /* count datatype op comm */
    case F_SCAN:
    case F_EXSCAN: {
        int rooted = s->id == F_REDUCE;
        sc_tcoll_t coll = rooted                 ? SC_TCOLL_REDUCE
                          : s->id == F_ALLREDUCE ? SC_TCOLL_ALLREDUCE
                          : s->id == F_SCAN      ? SC_TCOLL_SCAN
                                                 : SC_TCOLL_EXSCAN;
        if ((ev = collective(s, coll, F[rooted ? 4 : 3].v, &err))) {
            ev->elem = type_bytes(s, F[1].v, &err);
            ev->bytes = (uint64_t)F[0].v * ev->elem;
            ev->root = rooted ? (int)F[3].v : 0;
        }
        break;
    }
    case F_GATHER: /* commrank sendcount sendtype root comm [recvcount recvtype] */
        if ((ev = collective(s, SC_TCOLL_GATHER, F[4].v, &err))) {
            ev->bytes = (uint64_t)F[1].v * type_bytes(s, F[2].v, &err);
            ev->root = (int)F[3].v;
        }
        break;
    case F_SCATTER: /* commrank recvcount recvtype root comm [sendcount sendtype] */
        if ((ev = collective(s, SC_TCOLL_SCATTER, F[4].v, &err))) {
            ev->bytes = (uint64_t)F[1].v * type_bytes(s, F[2].v, &err);
            ev->root = (int)F[3].v;
        }
        break;
    case F_GATHERV: /* commrank commsize sendcount sendtype root comm [recvcounts displs] recvtype */
        if ((ev = collective(s, SC_TCOLL_GATHERV, F[5].v, &err))) {
            ev->bytes = (uint64_t)F[2].v * type_bytes(s, F[3].v, &err);
            ev->root = (int)F[4].v;
            if (!err && F[0].v == F[4].v)
                err = counts_of(s, 6, type_bytes(s, F[8].v, &err), &ev->counts, &sum);
        }
        break;
    case F_SCATTERV: /* commrank commsize sendtype recvcount recvtype root comm [sendcounts displs] */
        if ((ev = collective(s, SC_TCOLL_SCATTERV, F[6].v, &err))) {
            ev->bytes = (uint64_t)F[3].v * type_bytes(s, F[4].v, &err);
            ev->root = (int)F[5].v;
            if (!err && F[0].v == F[5].v)
                err = counts_of(s, 7, type_bytes(s, F[2].v, &err), &ev->counts, &sum);
        }
        break;
    case F_ALLGATHER: /* sendcount sendtype recvcount recvtype comm */
    case F_ALLTOALL:
        if ((ev = collective(s, s->id == F_ALLGATHER ? SC_TCOLL_ALLGATHER : SC_TCOLL_ALLTOALL,
                             F[4].v, &err)))
            ev->bytes = (uint64_t)F[0].v * type_bytes(s, F[1].v, &err);
        break;
    case F_ALLGATHERV: /* commsize sendcount sendtype recvcounts displs recvtype comm */
        if ((ev = collective(s, SC_TCOLL_ALLGATHERV, F[6].v, &err))) {
            ev->bytes = (uint64_t)F[1].v * type_bytes(s, F[2].v, &err);
            if (!err)
                err = counts_of(s, 3, type_bytes(s, F[5].v, &err), &ev->counts, &sum);
        }
        break;
    case F_ALLTOALLV: /* commsize sendcounts senddispls sendtype recvcounts recvdispls recvtype comm */
        if ((ev = collective(s, SC_TCOLL_ALLTOALLV, F[7].v, &err)) && !err) {
            err = counts_of(s, 1, type_bytes(s, F[3].v, &err), &ev->counts, &sum);
            ev->bytes = sum;
        }
        break;
    case F_ALLTOALLW: /* commsize sendcounts senddispls sendtypes recvcounts recvdispls recvtypes comm */
        if ((ev = collective(s, SC_TCOLL_ALLTOALLV, F[7].v, &err)) && !err) {
            int n = F[1].n < F[3].n ? F[1].n : F[3].n;
            if (!grow((void **)&s->counts, &s->cap_counts, n, sizeof *s->counts))
                return sc_error(SC_ERR_RUN, "out of memory");
            ev->bytes = 0;
            for (int i = 0; i < n && !err; i++) {
                s->counts[i] = (uint64_t)array(s, 1)[i] * type_bytes(s, array(s, 3)[i], &err);
                ev->bytes += s->counts[i];
            }
            ev->counts = n ? s->counts : NULL;
        }
        break;
    case F_REDUCE_SCATTER: /* commsize recvcounts datatype op comm */
        if ((ev = collective(s, SC_TCOLL_REDUCE_SCATTER, F[4].v, &err))) {
            ev->elem = type_bytes(s, F[2].v, &err);
            if (!err)
                err = counts_of(s, 1, ev->elem, &ev->counts, &ev->bytes);
        }
        break;
    default:
        *known = 0;
    }
    if (!err && ev && ev->elem == 0)
        ev->elem = 1;
    return err;
}

static sc_err_t group_from(rank_t *s, int handle, const int *members, int n)
{
    int *copy = malloc((size_t)(n ? n : 1) * sizeof *copy);
    if (!copy)
        return sc_error(SC_ERR_RUN, "out of memory");
    memcpy(copy, members, (size_t)n * sizeof *copy);
    return set_group(s, handle, copy, n);
}

static int in_list(const int *v, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

/* Groups and the communicators made of them. */
static sc_err_t groups_and_comms(rank_t *s, int *known)
{
    const field_t *F = s->fields;
    sc_err_t err = SC_OK;
    group_map_t *g = NULL, *h = NULL;
    *known = 1;
    switch (s->id) {
    case F_COMM_GROUP: { /* comm group */
        int comm;
        if (!(err = need_comm(s, (int)F[0].v, &comm))) {
            const sc_trace_comm_t *c = sc_trace_comm(s->t, comm);
            err = group_from(s, (int)F[1].v, c->members, c->size);
        }
        break;
    }
    case F_GROUP_INCL:  /* group count ranks newgroup */
    case F_GROUP_EXCL: {
        if ((err = need_group(s, (int)F[0].v, &g)))
            break;
        int n = s->fields[2].n, *members = malloc((size_t)(g->n ? g->n : 1) * sizeof *members),
            k = 0;
        if (!members)
            return sc_error(SC_ERR_RUN, "out of memory");
        for (int i = 0; i < n && !err; i++)
            if (array(s, 2)[i] < 0 || array(s, 2)[i] >= g->n)
                err = corrupt(s, "a group of ranks out of its group");
        if (s->id == F_GROUP_INCL)
            for (int i = 0; i < n && !err && k < g->n; i++)
                members[k++] = g->members[array(s, 2)[i]];
        else
            for (int i = 0; i < g->n && !err; i++) {
                int out = 0;
                for (int j = 0; j < n && !out; j++)
                    out = array(s, 2)[j] == i;
                if (!out)
                    members[k++] = g->members[i];
            }
        if (err)
            free(members);
        else
            err = set_group(s, (int)F[3].v, members, k);
        break;
    }
    case F_GROUP_UNION:        /* group1 group2 newgroup */
    case F_GROUP_INTERSECTION:
    case F_GROUP_DIFFERENCE: {
        if ((err = need_group(s, (int)F[0].v, &g)) || (err = need_group(s, (int)F[1].v, &h)))
            break;
        int *members = malloc((size_t)(g->n + h->n + 1) * sizeof *members), k = 0;
        if (!members)
            return sc_error(SC_ERR_RUN, "out of memory");
        for (int i = 0; i < g->n; i++) {
            int both = in_list(h->members, h->n, g->members[i]);
            if (s->id == F_GROUP_UNION || (s->id == F_GROUP_INTERSECTION) == both)
                members[k++] = g->members[i];
        }
        for (int i = 0; s->id == F_GROUP_UNION && i < h->n; i++)
            if (!in_list(g->members, g->n, h->members[i]))
                members[k++] = h->members[i];
        err = set_group(s, (int)F[2].v, members, k);
        break;
    }
    case F_COMM_DUP:    /* oldcomm newcomm */
    case F_COMM_SPLIT:  /* oldcomm color key newcomm */
    case F_COMM_CREATE: { /* oldcomm group newcomm */
        int parent;
        if ((err = need_comm(s, (int)F[0].v, &parent)))
            break;
        sc_made_kind_t kind = s->id == F_COMM_DUP     ? SC_MADE_DUP
                              : s->id == F_COMM_SPLIT ? SC_MADE_SPLIT
                                                      : SC_MADE_CREATE;
        if (kind == SC_MADE_CREATE && (err = need_group(s, (int)F[1].v, &g)))
            break;
        long seq = 0;
        int i;
        for (i = 0; i < s->nmade && s->made[i].parent != parent; i++)
            ;
        if (i == s->nmade) {
            made_count_t *more = realloc(s->made, (size_t)(s->nmade + 1) * sizeof *more);
            if (!more)
                return sc_error(SC_ERR_RUN, "out of memory");
            s->made = more;
            s->made[s->nmade++] = (made_count_t){parent, 0};
        }
        seq = s->made[i].made++;
        int color = kind == SC_MADE_SPLIT ? (int)F[1].v : 0;
        int key = kind == SC_MADE_SPLIT ? (int)F[2].v : 0;
        int comm = sc_trace_comm_created(s->t, s->rank, parent, seq, kind, color, key,
                                         g ? g->members : NULL, g ? g->n : 0);
        if (comm == -1)
            return corrupt(s, sc_error_message());
        err = set_comm(s, (int)F[kind == SC_MADE_SPLIT ? 3 : kind == SC_MADE_DUP ? 1 : 2].v,
                       comm);
        break;
    }
    case F_COMM_FREE:
        for (int i = 0; i < s->ncomms; i++)
            if (s->comms[i].handle == F[0].v)
                s->comms[i] = s->comms[--s->ncomms];
        break;
    default:
        *known = 0;
    }
    return err;
}

/* Calls whose time is kept as the rank's computing but which are not
 * replayed: I/O, one-sided communication, persistent requests. */
static int skipped_call(int id)
{
    const char *name = layouts[id].name;
    return !strncmp(name, "MPI_File_", 9) || !strncmp(name, "MPIO_", 5) ||
           !strncmp(name, "MPI_Win_", 8) || !strcmp(name, "MPI_Put") ||
           !strcmp(name, "MPI_Get") || !strcmp(name, "MPI_Accumulate") ||
           (id >= F_SEND_INIT && id <= F_STARTALL) || id == F_CANCEL;
}

/* The record into events; `replayed` set when it made some. */
static sc_err_t translate(rank_t *s)
{
    const field_t *F = s->fields;
    sc_err_t err = SC_OK;
    int known;
    uint64_t a;
    switch (s->id) {
    case F_SEND:
    case F_BSEND:
    case F_SSEND:
    case F_RSEND: /* count datatype dest tag comm */
        return p2p(s, SC_TEV_SEND, F[0].v, F[1].v, F[2].v, F[3].v, F[4].v, 0);
    case F_RECV: /* count datatype source tag comm status */
        return p2p(s, SC_TEV_RECV, F[0].v, F[1].v, F[2].v, F[3].v, F[4].v, 0);
    case F_ISEND:
    case F_IBSEND:
    case F_ISSEND:
    case F_IRSEND: /* count datatype dest tag comm request */
        return p2p(s, SC_TEV_ISEND, F[0].v, F[1].v, F[2].v, F[3].v, F[4].v, (int)F[5].v);
    case F_IRECV:
        return p2p(s, SC_TEV_IRECV, F[0].v, F[1].v, F[2].v, F[3].v, F[4].v, (int)F[5].v);
    case F_WAIT: /* request status */
        return wait_on(s, SC_TEV_WAIT, &F[0].v, 1);
    case F_TEST: /* request flag status */
        return wait_on(s, F[1].v ? SC_TEV_WAIT : SC_TEV_TEST, &F[0].v, 1);
    case F_REQUEST_FREE:
        request_of(s, (int)F[0].v, 1, &a); /* completes unseen */
        return SC_OK;
    case F_WAITANY: /* count requests index status */
    case F_TESTANY: { /* count requests index flag status */
        int done = s->id == F_WAITANY || F[3].v;
        int64_t index = F[2].v;
        if (done && index >= 0 && index < s->fields[1].n)
            return wait_on(s, SC_TEV_WAIT, &array(s, 1)[index], 1);
        return done ? SC_OK : wait_on(s, SC_TEV_TEST, array(s, 1), s->fields[1].n);
    }
    case F_WAITALL: /* count requests statuses */
        return wait_on(s, SC_TEV_WAIT, array(s, 1), s->fields[1].n);
    case F_TESTALL: /* count requests flag statuses */
        return wait_on(s, F[2].v ? SC_TEV_WAIT : SC_TEV_TEST, array(s, 1), s->fields[1].n);
    case F_WAITSOME: /* count requests outcount indices statuses */
    case F_TESTSOME: {
        int n = s->fields[3].n, k = 0;
        size_t at;
        if (n == 0)
            return s->id == F_TESTSOME ? wait_on(s, SC_TEV_TEST, array(s, 1), s->fields[1].n)
                                       : SC_OK;
        if ((err = scratch_take(s, (size_t)n, &at)))
            return err;
        for (int i = 0; i < n; i++) {
            int64_t index = array(s, 3)[i];
            if (index >= 0 && index < s->fields[1].n)
                s->scratch[at + k++] = array(s, 1)[index];
        }
        return wait_on(s, SC_TEV_WAIT, s->scratch + at, k);
    }
    case F_SENDRECV: /* sendcount sendtype dest sendtag recvcount recvtype source recvtag comm status */
    case F_SENDRECV_REPLACE: { /* count datatype dest sendtag source recvtag comm status */
        int full = s->id == F_SENDRECV;
        int64_t rcount = full ? F[4].v : F[0].v, rtype = full ? F[5].v : F[1].v;
        int64_t src = full ? F[6].v : F[4].v, rtag = full ? F[7].v : F[5].v;
        int64_t comm = full ? F[8].v : F[6].v;
        /* the receive first, as MPI libraries post it */
        int before = s->queued;
        if ((err = p2p(s, SC_TEV_IRECV, rcount, rtype, src, rtag, comm, -100)) ||
            (err = p2p(s, SC_TEV_ISEND, F[0].v, F[1].v, F[2].v, F[3].v, comm, -101)))
            return err;
        int made = s->queued - before;
        if (!grow((void **)&s->ids, &s->cap_ids, 2, sizeof *s->ids))
            return sc_error(SC_ERR_RUN, "out of memory");
        for (int i = 0; i < made; i++) {
            s->ids[i] = s->queue[before + i].req;
            request_of(s, s->queue[before + i].kind == SC_TEV_IRECV ? -100 : -101, 1, &a);
        }
        if (made) {
            sc_tev_t *ev = push(s, SC_TEV_WAIT);
            ev->reqs = s->ids;
            ev->nreqs = made;
        }
        return SC_OK;
    }
    case F_INIT:
    case F_INIT_THREAD:
        s->started = 1;
        s->last_end = s->ended;
        return SC_OK;
    case F_FINALIZE:
        s->ended_stream = 1;
        return SC_OK;
    }
    if ((err = collectives(s, &known)) || known)
        return err;
    if ((err = groups_and_comms(s, &known)) || known)
        return err;
    if (skipped_call(s->id)) {
        if (s->id >= F_SEND_INIT && s->id <= F_STARTALL)
            s->persistent = 1;
        sc_trace_skip(s->t, layouts[s->id].name,
                      isnan(s->began) ? 0 : s->ended - s->began);
    }
    return SC_OK; /* a call of the rank alone: its time is computing */
}

static int dumpi_next(void *state, sc_tev_t *ev)
{
    rank_t *s = state;
    while (s->taken == s->queued) {
        s->taken = s->queued = 0;
        if (s->ended_stream)
            return 0;
        int end;
        if (read_record(s, &end))
            return -1;
        if (end) {
            s->ended_stream = 1;
            return 0;
        }
        if (s->id == F_FUNCTION_ENTER || s->id == F_FUNCTION_EXIT)
            continue;
        if (translate(s))
            return -1;
        if (s->queued > 0) {
            /* the time since the last call that made events is computing */
            double gap = s->began - s->last_end;
            if (s->started && gap > 0) {
                memmove(&s->queue[1], &s->queue[0], (size_t)s->queued * sizeof *s->queue);
                s->queue[0] = (sc_tev_t){.kind = SC_TEV_COMPUTE, .seconds = gap,
                                         .index = s->record, .began = s->last_end,
                                         .ended = s->began};
                s->queued++;
            }
            if (!isnan(s->ended))
                s->last_end = s->ended;
        }
    }
    *ev = s->queue[s->taken++];
    return 1;
}

const sc_trace_reader_t sc_trace_dumpi_reader = {
    .name = "DUMPI",
    .detect = dumpi_detect,
    .open = dumpi_open,
    .rank_open = dumpi_rank_open,
    .next = dumpi_next,
    .where = dumpi_where,
    .rank_close = dumpi_rank_close,
    .close = dumpi_close,
};
