/* simcoll's properties of a platform zone: the message costs SimGrid's
 * links do not carry (overheads, bandwidth factors, the NIC's gap, the
 * protocol switch, the header), their syntax and ranges.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "platform_props.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sc_units.h"

typedef enum { DURATION, SIZE, PIECEWISE_TIME, PIECEWISE_FACTOR } kind_t;

/* One property: its kind, whether a file must give it, and its range
 * (the minimum is 0; per byte, overheads are at most MAX_PER_BYTE). */
typedef struct {
    const char *id;
    kind_t kind;
    int required;
    double max;
    const char *meaning;
} spec_t;

#define MAX_PER_BYTE 1e-6 /* s/B: a millionth of a second a byte is 1 MB/s */
#define MAX_FACTOR 2.0

enum {
    INTRA_SEND, INTRA_RECV, INTRA_OVERHEAD, INTRA_FACTOR, INTRA_EAGER,
    INTER_SEND, INTER_RECV, INTER_OVERHEAD, INTER_FACTOR, INTER_EAGER,
    INTER_GAP, HEADER, NPROPS
};

static const spec_t specs[NPROPS] = {
    {"simcoll/intra/send-overhead", PIECEWISE_TIME, 0, 1.0,
     "the sender's software overhead o_s(m) of an intra-node message"},
    {"simcoll/intra/recv-overhead", PIECEWISE_TIME, 0, 1.0,
     "the receiver's software overhead o_r(m) of an intra-node message"},
    {"simcoll/intra/overhead", DURATION, 0, 1.0,
     "the software overhead of an intra-node message"},
    {"simcoll/intra/bandwidth-factor", PIECEWISE_FACTOR, 0, MAX_FACTOR,
     "the share of the memory bus an intra-node message gets"},
    {"simcoll/intra/eager-limit", SIZE, 1, 0x1p40,
     "the largest intra-node message sent eagerly (bytes)"},
    {"simcoll/inter/send-overhead", PIECEWISE_TIME, 0, 1.0,
     "the sender's software overhead o_s(m) of an inter-node message"},
    {"simcoll/inter/recv-overhead", PIECEWISE_TIME, 0, 1.0,
     "the receiver's software overhead o_r(m) of an inter-node message"},
    {"simcoll/inter/overhead", DURATION, 0, 1.0,
     "the software overhead of an inter-node message"},
    {"simcoll/inter/bandwidth-factor", PIECEWISE_FACTOR, 0, MAX_FACTOR,
     "the share of the network bandwidth an inter-node message gets"},
    {"simcoll/inter/eager-limit", SIZE, 1, 0x1p40,
     "the largest inter-node message sent eagerly (bytes)"},
    {"simcoll/inter/gap", DURATION, 0, 1.0,
     "the gap g between messages at a node's NIC, per direction"},
    {"simcoll/header-bytes", SIZE, 1, 65536,
     "the bytes of header each message carries on the wire"},
};

_Static_assert((int)NPROPS == (int)SC_NPLATFORM_PROPS, "sc_platform_props and specs differ");

const char *const sc_platform_props[NPROPS + 1] = {
    "simcoll/intra/send-overhead", "simcoll/intra/recv-overhead", "simcoll/intra/overhead",
    "simcoll/intra/bandwidth-factor", "simcoll/intra/eager-limit",
    "simcoll/inter/send-overhead", "simcoll/inter/recv-overhead", "simcoll/inter/overhead",
    "simcoll/inter/bandwidth-factor", "simcoll/inter/eager-limit", "simcoll/inter/gap",
    "simcoll/header-bytes", NULL};

int sc_platform_prop_index(const char *id)
{
    for (int i = 0; i < NPROPS; i++)
        if (!strcmp(id, specs[i].id))
            return i;
    return -1;
}

static int by_size(const void *a, const void *b)
{
    const sc_segment_t *x = a, *y = b;
    return x->min_bytes < y->min_bytes ? -1 : x->min_bytes > y->min_bytes;
}

/* SIZE:START[:PER_BYTE];... or SIZE:FACTOR;... into *pw. */
static sc_err_t parse_piecewise(const char *what, const spec_t *spec, const char *text,
                                sc_piecewise_t *pw)
{
    int factor = spec->kind == PIECEWISE_FACTOR;
    const char *syntax = factor ? "SIZE:FACTOR;... (e.g. 0:0.6;65536:0.94)"
                                : "SIZE:START[:PER_BYTE];... (e.g. 0:0.8us;1420:1.2us:0.1ns)";
    char *copy = strdup(text);
    if (!copy)
        return sc_error(SC_ERR_RUN, "out of memory");
    *pw = (sc_piecewise_t){0};
    sc_err_t err = SC_OK;
    char *save = NULL;
    for (char *item = strtok_r(copy, ";", &save); item && !err;
         item = strtok_r(NULL, ";", &save)) {
        int n = 1;
        for (const char *p = item; *p; p++)
            n += *p == ':';
        if (n < 2 || n > (factor ? 2 : 3)) {
            err = sc_error(SC_ERR_INPUT, "%s: segment '%s' is not %s", what, item, syntax);
            break;
        }
        if (pw->n == SC_MAX_SEGMENTS) {
            err = sc_error(SC_ERR_INPUT, "%s: more than %d segments", what, SC_MAX_SEGMENTS);
            break;
        }
        char *fields[3] = {item, NULL, NULL};
        for (int k = 1; k < n; k++) {
            fields[k] = strchr(fields[k - 1], ':');
            *fields[k]++ = '\0';
        }
        sc_segment_t *seg = &pw->seg[pw->n++];
        size_t size;
        char sub[1300];
        snprintf(sub, sizeof sub, "%s: segment size", what);
        if ((err = sc_parse_size(fields[0], sub, &size)))
            break;
        seg->min_bytes = (double)size;
        if (factor) {
            char *end;
            errno = 0;
            seg->start = strtod(fields[1], &end);
            if (end == fields[1] || *end || errno || !(seg->start > 0 && seg->start <= spec->max))
                err = sc_error(SC_ERR_INPUT,
                               "%s: factor '%s' is not a number above 0 and at most %g",
                               what, fields[1], spec->max);
            continue;
        }
        snprintf(sub, sizeof sub, "%s: segment start", what);
        if ((err = sc_parse_duration(fields[1], sub, &seg->start)))
            break;
        if (n == 3) {
            snprintf(sub, sizeof sub, "%s: segment per byte", what);
            if ((err = sc_parse_duration(fields[2], sub, &seg->per_byte)))
                break;
        }
        if (seg->start > spec->max || seg->per_byte > MAX_PER_BYTE)
            err = sc_error(SC_ERR_INPUT,
                           "%s: segment '%s' is out of range; a start is at most %g s, a cost "
                           "per byte at most %g s",
                           what, item, spec->max, MAX_PER_BYTE);
    }
    free(copy);
    if (err)
        return err;
    if (pw->n == 0)
        return sc_error(SC_ERR_INPUT, "%s: no segment; use %s", what, syntax);
    qsort(pw->seg, (size_t)pw->n, sizeof pw->seg[0], by_size);
    if (pw->seg[0].min_bytes != 0)
        return sc_error(SC_ERR_INPUT, "%s: the first segment starts at %.0f bytes; one must "
                                      "start at 0 so that every size is covered",
                        what, pw->seg[0].min_bytes);
    for (int k = 1; k < pw->n; k++)
        if (pw->seg[k].min_bytes == pw->seg[k - 1].min_bytes)
            return sc_error(SC_ERR_INPUT, "%s: two segments start at %.0f bytes", what,
                            pw->seg[k].min_bytes);
    return SC_OK;
}

sc_err_t sc_platform_props_read(const char *file, const char *zone, const char *const *value,
                                const int *line, sc_platform_t *plat)
{
    sc_piecewise_t pw[NPROPS];
    double number[NPROPS] = {0};
    for (int i = 0; i < NPROPS; i++) {
        const spec_t *spec = &specs[i];
        pw[i] = (sc_piecewise_t){0};
        if (!value[i]) {
            if (spec->required)
                return sc_error(SC_ERR_INPUT,
                                "%s: zone '%s' lacks <prop id=\"%s\">, %s (see "
                                "platforms/README.md)",
                                file, zone, spec->id, spec->meaning);
            continue;
        }
        char what[1200];
        snprintf(what, sizeof what, "%s:%d: property %s", file, line[i], spec->id);
        sc_err_t err = SC_OK;
        size_t bytes;
        switch (spec->kind) {
        case SIZE:
            err = sc_parse_size(value[i], what, &bytes);
            number[i] = (double)bytes;
            break;
        case DURATION:
            err = sc_parse_duration(value[i], what, &number[i]);
            break;
        case PIECEWISE_TIME:
        case PIECEWISE_FACTOR:
            err = parse_piecewise(what, spec, value[i], &pw[i]);
            break;
        }
        if (err)
            return err;
        if (number[i] > spec->max)
            return sc_error(SC_ERR_INPUT, "%s = '%s' is out of range; use at most %g %s", what,
                            value[i], spec->max, spec->kind == SIZE ? "bytes" : "s");
    }
    static const int base[SC_NLEVELS] = {INTRA_SEND, INTER_SEND};
    for (int l = 0; l < SC_NLEVELS; l++) {
        int b = base[l];
        sc_level_t *lv = &plat->level[l];
        const int send = b, recv = b + 1, old = b + 2, factor = b + 3, eager = b + 4;
        if (value[send] && value[old])
            return sc_error(SC_ERR_INPUT,
                            "%s:%d: zone '%s' gives both %s and %s; keep %s (the other is its "
                            "constant form)",
                            file, line[old], zone, specs[send].id, specs[old].id, specs[send].id);
        if (!value[send] && !value[old])
            return sc_error(SC_ERR_INPUT,
                            "%s: zone '%s' lacks <prop id=\"%s\">, %s (see platforms/README.md)",
                            file, zone, specs[send].id, specs[send].meaning);
        lv->send_overhead = value[send] ? pw[send] : sc_piecewise_constant(number[old]);
        lv->recv_overhead = pw[recv];
        lv->bandwidth_factor = pw[factor];
        lv->eager_limit = (size_t)number[eager];
        lv->gap_s = 0;
    }
    plat->level[SC_LEVEL_INTER].gap_s = number[INTER_GAP];
    plat->header_bytes = (size_t)number[HEADER];
    return SC_OK;
}

void sc_piecewise_write(FILE *f, const sc_piecewise_t *pw, int is_factor)
{
    for (int k = 0; k < pw->n; k++) {
        const sc_segment_t *seg = &pw->seg[k];
        char start[48], per_byte[48];
        sc_format_quantity(seg->start, SC_QTY_TIME, start, sizeof start);
        sc_format_quantity(seg->per_byte, SC_QTY_TIME, per_byte, sizeof per_byte);
        if (is_factor)
            fprintf(f, "%s%.0f:%.10g", k ? ";" : "", seg->min_bytes, seg->start);
        else
            fprintf(f, "%s%.0f:%s:%s", k ? ";" : "", seg->min_bytes, start, per_byte);
    }
}
