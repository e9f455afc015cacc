/* DUMPI rank files record by record (dumpi_record.h), as libdumpi 0.6.3
 * to 1.x writes them:
 *   a rank file: 8 bytes of magic, the body (cpu and wall time offsets in
 *   seconds, then the records, then the label 293), the header (version,
 *   start time, host), the footer (calls per function), the sizes of the
 *   datatypes the rank used, and an index of the sections' offsets in its
 *   last 64 bytes. Every value is big-endian.
 *   a record: u16 function id, u8 mask, then, as the mask says, u16 thread,
 *   cpu and wall times (u16 s, u32 ns at entry and exit), u8 n performance
 *   counters of 16 bytes; then the function's fields (dumpi_layout.inc).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "dumpi_record.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

sc_err_t sc_dumpi_corrupt(const sc_dumpi_file_t *s, const char *what)
{
    return sc_error(SC_ERR_INPUT, "DUMPI file '%s' (rank %d), record %ld at byte %lld: %s",
                    s->file, s->rank, s->record, s->record_at, what);
}

static sc_err_t read_bytes(sc_dumpi_file_t *s, void *out, size_t n)
{
    int got = sc_tfile_read(&s->f, out, n);
    if (got == 1)
        return SC_OK;
    if (got == -2)
        return SC_ERR_INPUT;
    return sc_dumpi_corrupt(s, "the file ends part way through it (it is truncated)");
}

static sc_err_t u8(sc_dumpi_file_t *s, uint32_t *v)
{
    unsigned char b = 0;
    sc_err_t err = read_bytes(s, &b, 1);
    *v = b;
    return err;
}

static sc_err_t u16(sc_dumpi_file_t *s, uint32_t *v)
{
    unsigned char b[2] = {0};
    sc_err_t err = read_bytes(s, b, 2);
    *v = (uint32_t)b[0] << 8 | b[1];
    return err;
}

static sc_err_t u32(sc_dumpi_file_t *s, uint32_t *v)
{
    unsigned char b[4] = {0};
    sc_err_t err = read_bytes(s, b, 4);
    *v = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
    return err;
}

static sc_err_t u64(sc_dumpi_file_t *s, uint64_t *v)
{
    uint32_t hi = 0, lo = 0;
    sc_err_t err = u32(s, &hi);
    if (!err)
        err = u32(s, &lo);
    *v = (uint64_t)hi << 32 | lo;
    return err;
}

static int version_at_least(const sc_dumpi_file_t *s, int a, int b, int c)
{
    const int *v = s->version;
    return v[0] != a ? v[0] > a : v[1] != b ? v[1] > b : v[2] >= c;
}

/* The index, the header and the datatypes' sizes, then the body's start. */
static sc_err_t read_sections(sc_dumpi_file_t *s, sc_dumpi_clock_t *clock)
{
    unsigned char magic[8];
    sc_err_t err = read_bytes(s, magic, 8);
    if (!err && memcmp(magic, SC_DUMPI_MAGIC, 8))
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
    if (!clock->based) {
        clock->base = (double)wall;
        clock->based = 1;
    }
    s->wall_offset = (double)wall - clock->base;
    return SC_OK;
}

sc_err_t sc_dumpi_file_open(sc_dumpi_file_t *df, const char *path, int rank,
                            sc_dumpi_clock_t *clock)
{
    *df = (sc_dumpi_file_t){.file = path, .rank = rank, .id = -1, .last_sec = -1};
    sc_err_t err = sc_tfile_open(&df->f, path, "DUMPI file");
    if (!err && (err = read_sections(df, clock)))
        sc_tfile_close(&df->f);
    if (err)
        free(df->type_size);
    return err;
}

void sc_dumpi_file_close(sc_dumpi_file_t *df)
{
    sc_tfile_close(&df->f);
    free(df->type_size);
    free(df->scratch);
}

const char *sc_dumpi_function_name(int id)
{
    return id >= 0 && id < NFUNCTIONS ? layouts[id].name : NULL;
}

sc_err_t sc_dumpi_scratch_take(sc_dumpi_file_t *s, size_t n, size_t *at)
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
static sc_err_t length(sc_dumpi_file_t *s, int *n)
{
    uint32_t v;
    sc_err_t err = u32(s, &v);
    if (err)
        return err;
    if ((int32_t)v < 0 || v > (1u << 26))
        return sc_dumpi_corrupt(s, "an array of a negative or impossible length");
    *n = (int)v;
    return SC_OK;
}

/* A status block: its first entry's source and tag are kept. */
static sc_err_t status(sc_dumpi_file_t *s)
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
static sc_err_t skip_string(sc_dumpi_file_t *s)
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

static sc_err_t string_array(sc_dumpi_file_t *s)
{
    int n = 0;
    sc_err_t err = length(s, &n);
    for (int i = 0; i < n && !err; i++)
        err = skip_string(s);
    return err;
}

/* One field of code c into f. */
static sc_err_t field(sc_dumpi_file_t *s, char c, sc_dumpi_field_t *f)
{
    uint32_t v;
    uint64_t w;
    sc_err_t err = SC_OK;
    *f = (sc_dumpi_field_t){0};
    switch (c) {
    case 'i': err = u32(s, &v); f->v = (int32_t)v; break;
    case 'h': err = u16(s, &v); f->v = v; break;
    case 'c': err = u8(s, &v); f->v = v; break;
    case 'l': err = u64(s, &w); f->v = (int64_t)w; break;
    case 'I':
    case 'H':
    case 'C':
    case 'L':
        if ((err = length(s, &f->n)) || (err = sc_dumpi_scratch_take(s, (size_t)f->n, &f->at)))
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
    default: err = sc_dumpi_corrupt(s, "simcoll's table of DUMPI layouts has an unknown code");
    }
    return err;
}

/* The fields of the record's function, as its layout says. */
static sc_err_t fields(sc_dumpi_file_t *s)
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
        if (s->nfields >= SC_DUMPI_MAX_FIELDS)
            return sc_dumpi_corrupt(s, "more fields than any function has");
        sc_dumpi_field_t *f = &s->fields[s->nfields++];
        if (present || !depth)
            err = field(s, *c, f);
        else
            *f = (sc_dumpi_field_t){.v = INT64_MIN};
    }
    return err;
}

/* Seconds of a wall time, its u16 seconds' wrap undone: they wrap after
 * 65,536 s of a run. */
static double wall(sc_dumpi_file_t *s, uint32_t sec, uint32_t ns)
{
    if (s->last_sec >= 0 && (int)sec < s->last_sec - 32768)
        s->wraps += 65536;
    s->last_sec = (int)sec;
    return s->wraps + (double)sec + s->wall_offset + (double)ns * 1e-9;
}

/* The next record's prelude and fields; 0 at the end of the body. */
sc_err_t sc_dumpi_read_record(sc_dumpi_file_t *s, int *end)
{
    *end = 0;
    s->record_at = sc_tfile_tell(&s->f);
    s->record++;
    uint32_t id, mask, skip;
    sc_err_t err = u16(s, &id);
    if (err)
        return err;
    s->id = (int)id;
    if (id == SC_DUMPI_END) {
        *end = 1;
        return SC_OK;
    }
    if ((id >= (uint32_t)NFUNCTIONS || !layouts[id].codes) && id != SC_DUMPI_FUNCTION_ENTER &&
        id != SC_DUMPI_FUNCTION_EXIT) {
        char what[96];
        snprintf(what, sizeof what, "function number %u is none DUMPI writes: the file is "
                 "corrupt", id);
        return sc_dumpi_corrupt(s, what);
    }
    if ((err = u8(s, &mask)))
        return err;
    s->mask = (int)mask;
    if (mask & 0x30)
        return sc_dumpi_corrupt(s,
                                "a record prelude with bits DUMPI never sets: the file is corrupt");
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
    if (id == SC_DUMPI_FUNCTION_ENTER || id == SC_DUMPI_FUNCTION_EXIT) {
        uint64_t w;
        return u64(s, &w); /* a user's annotation: nothing to replay */
    }
    return fields(s);
}
