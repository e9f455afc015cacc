/* What the trace fuzz targets share (trace_fuzz.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "trace_fuzz.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/trace/trace.h"

static char dir[64];

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* The folder goes with the process. */
static void remove_dir(void)
{
    nftw(dir, remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

const char *sc_fuzz_dir(void)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/simcoll-fuzz-XXXXXX");
        if (!mkdtemp(dir))
            abort();
        atexit(remove_dir);
    }
    return dir;
}

const char *sc_fuzz_write(const char *name, const uint8_t *data, size_t size)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", sc_fuzz_dir(), name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    return path;
}

void sc_fuzz_copy(const char *from, const char *name)
{
    FILE *in = fopen(from, "rb");
    if (!in)
        abort();
    char path[256], buf[65536];
    snprintf(path, sizeof path, "%s/%s", sc_fuzz_dir(), name);
    FILE *out = fopen(path, "wb");
    if (!out)
        abort();
    for (size_t n; (n = fread(buf, 1, sizeof buf, in)) > 0;)
        fwrite(buf, 1, n, out);
    fclose(in);
    fclose(out);
}

void sc_fuzz_read_trace(const char *path)
{
    sc_trace_t *t;
    sc_trace_summary_t sum;
    if (sc_trace_open(path, &t) != SC_OK)
        return;
    if (sc_trace_scan(t, &sum, NULL) == SC_OK) {
        long events = 0;
        for (int r = 0; r < sc_trace_ranks(t); r++) {
            sc_trace_cursor_t *c;
            if (sc_trace_cursor_open(t, r, &c) != SC_OK)
                abort();
            sc_tev_t ev;
            int got;
            while ((got = sc_trace_next(c, &ev)) == 1) {
                char line[256];
                sc_tev_format(&ev, line, sizeof line);
                events++;
            }
            if (got < 0)
                abort(); /* what the scan accepted reads again */
            sc_trace_cursor_close(c);
        }
        if (events != sum.events)
            abort();
        sc_trace_summary_destroy(&sum);
    }
    sc_trace_close(t);
}
