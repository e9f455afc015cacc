/* The cluster a simcoll-probe file describes (probe_cluster.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "probe_cluster.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"

/* What a probe's header can hold: its ranks, hosts and switches. */
#define MOST_LINES (1 << 24)

static int grow(void **array, int n, size_t size)
{
    if (n & (n - 1) && n > 0)
        return 1;
    void *more = realloc(*array, (size_t)(n ? 2 * n : 1) * size);
    if (!more)
        return 0;
    *array = more;
    return 1;
}

/* "# rank R: host H, cpu C, ..." */
static int parse_rank(const char *s, sc_probe_rank_t *r)
{
    int rank, used = 0;
    if (sscanf(s, "# rank %d: host %n", &rank, &used) != 1 || !used)
        return 0;
    const char *host = s + used, *comma = strstr(host, ", cpu ");
    size_t len = comma ? (size_t)(comma - host) : 0;
    if (!comma || len == 0 || len >= sizeof r->host || sscanf(comma, ", cpu %d", &r->cpu) != 1)
        return 0;
    memcpy(r->host, host, len);
    r->host[len] = '\0';
    return 1;
}

/* "# host H: C cores, S sockets" */
static int parse_host(const char *s, sc_probe_host_t *h)
{
    const char *name = s + strlen("# host "), *colon = strrchr(name, ':');
    size_t len = colon ? (size_t)(colon - name) : 0;
    if (!colon || len == 0 || len >= sizeof h->name ||
        sscanf(colon, ": %d cores, %d socket", &h->cores, &h->sockets) != 2 || h->cores < 1 ||
        h->sockets < 1)
        return 0;
    memcpy(h->name, name, len);
    h->name[len] = '\0';
    return 1;
}

/* "# switch PLACEMENT BYTES eager-limit|breakpoint: why" */
static int parse_switch(const char *s, sc_probe_switch_t *w)
{
    char kind[16];
    unsigned long long bytes;
    if (sscanf(s, "# switch %7s %llu %15[a-z-]:", w->placement, &bytes, kind) != 3 ||
        (strcmp(kind, "eager-limit") && strcmp(kind, "breakpoint")) || bytes == 0 ||
        bytes > (1ull << 40))
        return 0;
    static const char *const placements[] = {"intra", "ccx", "numa", "socket", "inter"};
    int known = 0;
    for (size_t i = 0; i < sizeof placements / sizeof placements[0]; i++)
        known |= !strcmp(w->placement, placements[i]);
    w->bytes = (size_t)bytes;
    w->eager = !strcmp(kind, "eager-limit");
    return known;
}

sc_err_t sc_probe_cluster_parse(const char *option, const char *name, const char *text, size_t len,
                                sc_probe_cluster_t *out)
{
    *out = (sc_probe_cluster_t){0};
    sc_err_t err = SC_OK;
    char line[1024];
    int number = 0;
    for (size_t at = 0; at < len && !err && number < MOST_LINES;) {
        size_t end = at;
        while (end < len && text[end] != '\n')
            end++;
        size_t n = end - at < sizeof line - 1 ? end - at : sizeof line - 1;
        memcpy(line, text + at, n);
        line[n] = '\0';
        at = end + 1;
        number++;
        if (n && line[n - 1] == '\r')
            line[n - 1] = '\0';
        const char *what = NULL;
        int ok = 1;
        if (!strncmp(line, "# rank ", 7) && strncmp(line, "# ranks:", 8)) {
            what = "'# rank R: host H, cpu C, ...'";
            ok = grow((void **)&out->ranks, out->nranks, sizeof *out->ranks);
            if (ok && !parse_rank(line, &out->ranks[out->nranks]))
                ok = -1;
            out->nranks += ok == 1;
        } else if (!strncmp(line, "# host ", 7)) {
            what = "'# host H: C cores, S sockets'";
            ok = grow((void **)&out->hosts, out->nhosts, sizeof *out->hosts);
            if (ok && !parse_host(line, &out->hosts[out->nhosts]))
                ok = -1;
            out->nhosts += ok == 1;
        } else if (!strncmp(line, "# switch ", 9)) {
            what = "'# switch PLACEMENT BYTES eager-limit|breakpoint: ...' (PLACEMENT one of "
                   "intra, ccx, numa, socket, inter)";
            ok = grow((void **)&out->switches, out->nswitches, sizeof *out->switches);
            if (ok && !parse_switch(line, &out->switches[out->nswitches]))
                ok = -1;
            out->nswitches += ok == 1;
        }
        if (!ok)
            err = sc_error(SC_ERR_RUN, "out of memory");
        else if (ok < 0)
            err = sc_error(SC_ERR_INPUT, "%s '%s':%d: '%.80s' is not simcoll-probe's; expected %s",
                           option, name, number, line, what);
    }
    if (err)
        sc_probe_cluster_destroy(out);
    return err;
}

sc_err_t sc_probe_cluster_read(const char *option, const char *path, sc_probe_cluster_t *out)
{
    char *text;
    size_t len;
    sc_err_t err = sc_input_file(option, path, (size_t)1 << 30, &text, &len);
    if (err)
        return err;
    err = sc_probe_cluster_parse(option, path, text, len, out);
    free(text);
    return err;
}

void sc_probe_cluster_destroy(sc_probe_cluster_t *cluster)
{
    free(cluster->ranks);
    free(cluster->hosts);
    free(cluster->switches);
    *cluster = (sc_probe_cluster_t){0};
}

/* The machine a probe's host stands for: "vm" for --each-rank-a-node's
 * "vm#1". */
static size_t machine_len(const char *host)
{
    return strcspn(host, "#");
}

static int same_machine(const char *a, const char *b)
{
    size_t n = machine_len(a);
    return n == machine_len(b) && !strncmp(a, b, n);
}

/* Appends to out (n bytes used of size), never past it. */
static size_t add(char *out, size_t n, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (n < size)
        n += (size_t)vsnprintf(out + n, size - n, fmt, ap);
    va_end(ap);
    return n;
}

void sc_probe_cluster_shared_cores(const sc_probe_cluster_t *c, char *out, size_t size)
{
    size_t n = 0;
    int groups = 0;
    out[0] = '\0';
    for (int r = 0; r < c->nranks; r++) {
        const sc_probe_rank_t *a = &c->ranks[r];
        int first = a->cpu >= 0, count = 0;
        for (int q = 0; q < c->nranks && first; q++)
            if (same_machine(c->ranks[q].host, a->host) && c->ranks[q].cpu == a->cpu)
                first = q >= r, count++;
        if (!first || count < 2 || groups++ >= 4)
            continue;
        n = add(out, n, size, "%sranks", groups > 1 ? ", " : "");
        for (int q = r, k = 0; q < c->nranks; q++)
            if (same_machine(c->ranks[q].host, a->host) && c->ranks[q].cpu == a->cpu)
                n = add(out, n, size, "%s %d", k++ ? (k == count ? " and" : ",") : "", q);
        n = add(out, n, size, " ran on cpu %d of %.*s", a->cpu, (int)machine_len(a->host), a->host);
    }
    for (int h = 0; h < c->nhosts; h++) {
        int first = 1, count = 0;
        for (int g = 0; g < h && first; g++)
            first = !same_machine(c->hosts[g].name, c->hosts[h].name);
        for (int r = 0; r < c->nranks && first; r++)
            count += same_machine(c->ranks[r].host, c->hosts[h].name);
        if (first && count > c->hosts[h].cores)
            n = add(out, n, size, "%s%d ranks on %.*s's %d cores", n ? "; " : "", count,
                    (int)machine_len(c->hosts[h].name), c->hosts[h].name, c->hosts[h].cores);
    }
    if (n)
        add(out, n, size,
            ": ranks sharing a core take turns, and every time measured holds the "
            "others' turns; measure again with one rank a core (mpirun --bind-to "
            "core with no more ranks than cores, srun --cpu-bind=cores)");
}

void sc_probe_cluster_name(const sc_probe_cluster_t *c, char *out, size_t size)
{
    size_t n = 0;
    if (c->nranks > 0) {
        const char *first = c->ranks[0].host;
        n = strcspn(first, ".#");
        for (int r = 1; r < c->nranks; r++) {
            size_t k = 0;
            while (k < n && c->ranks[r].host[k] == first[k])
                k++;
            n = k;
        }
        while (n > 0 && strchr("0123456789-_.#", first[n - 1]))
            n--;
        snprintf(out, size, "%.*s", (int)n, first);
    }
    if (n == 0)
        snprintf(out, size, "probed");
}
