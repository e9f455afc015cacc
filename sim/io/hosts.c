/* Host names for a mapping's machinefile and rankfile (hosts.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "hosts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
#include "probe_cluster.h"

/* Far beyond any machine a mapping file places ranks on; keeps a range
 * such as n[0-999999999] from filling memory. */
#define MOST_HOSTS (1 << 20)
enum { NAME_MAX_CHARS = 255 };

void sc_hosts_destroy(sc_hosts_t *hosts)
{
    for (int i = 0; i < hosts->n; i++)
        free(hosts->names[i]);
    free(hosts->names);
    *hosts = (sc_hosts_t){0};
}

/* Adds name[0..len) unless it is there already. */
static sc_err_t add(const char *option, sc_hosts_t *h, const char *name, size_t len)
{
    if (len == 0 || len > NAME_MAX_CHARS ||
        strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_") < len)
        return sc_error(SC_ERR_INPUT,
                        "%s: '%.*s' is not a host name; use letters, digits, '.', '-' and '_' "
                        "(at most %d)",
                        option, (int)(len < 80 ? len : 80), name, NAME_MAX_CHARS);
    for (int i = 0; i < h->n; i++)
        if (strlen(h->names[i]) == len && !strncmp(h->names[i], name, len))
            return SC_OK;
    if (h->n == MOST_HOSTS)
        return sc_error(SC_ERR_INPUT, "%s: more than %d hosts", option, MOST_HOSTS);
    if ((h->n & (h->n - 1)) == 0) {
        char **more = realloc(h->names, (size_t)(h->n ? 2 * h->n : 1) * sizeof *more);
        if (!more)
            return sc_error(SC_ERR_RUN, "out of memory");
        h->names = more;
    }
    if (!(h->names[h->n] = strndup(name, len)))
        return sc_error(SC_ERR_RUN, "out of memory");
    h->n++;
    return SC_OK;
}

/* done[0..ndone), then [from, to), into out as *len bytes and a NUL: a
 * name of an item of a node list, or its start, at most NAME_MAX_CHARS. */
static sc_err_t join(const char *option, const char *item, const char *done, size_t ndone,
                     const char *from, const char *to, char out[NAME_MAX_CHARS + 2], size_t *len)
{
    *len = ndone + (size_t)(to - from);
    if (*len > NAME_MAX_CHARS)
        return sc_error(SC_ERR_INPUT, "%s: a name of '%s' is longer than %d characters", option,
                        item, NAME_MAX_CHARS);
    memcpy(out, done, ndone);
    memcpy(out + ndone, from, (size_t)(to - from));
    out[*len] = '\0';
    return SC_OK;
}

/* One item of a Slurm node list, its brackets multiplied out: `done` the
 * part expanded so far, `rest` what follows (up to `end`). */
static sc_err_t expand(const char *option, const char *item, sc_hosts_t *h, const char *done,
                       size_t ndone, const char *rest, const char *end)
{
    char name[NAME_MAX_CHARS + 2];
    size_t len;
    sc_err_t err;
    const char *open = memchr(rest, '[', (size_t)(end - rest));
    if (!open) {
        if ((err = join(option, item, done, ndone, rest, end, name, &len)))
            return err;
        return add(option, h, name, len);
    }
    const char *close = memchr(open, ']', (size_t)(end - open));
    if (!close || close == open + 1)
        return sc_error(SC_ERR_INPUT,
                        "%s: '%s' opens a bracket it does not close; a Slurm node list "
                        "brackets ranges, e.g. n[01-04,07]",
                        option, item);
    char prefix[NAME_MAX_CHARS + 2];
    size_t nprefix;
    if ((err = join(option, item, done, ndone, rest, open, prefix, &nprefix)))
        return err;
    for (const char *r = open + 1; r < close && !err;) {
        const char *comma = memchr(r, ',', (size_t)(close - r));
        const char *stop = comma ? comma : close, *dash = memchr(r, '-', (size_t)(stop - r));
        char *after;
        long lo = strtol(r, &after, 10), hi = lo;
        int width = (int)(after - r);
        if (after != (dash ? dash : stop) || *r == '-' || *r == '+' || width == 0)
            return sc_error(SC_ERR_INPUT,
                            "%s: '%s': '%.*s' is not a range; give N or N-M between the "
                            "brackets, e.g. n[01-04,07]",
                            option, item, (int)(stop - r), r);
        if (dash) {
            hi = strtol(dash + 1, &after, 10);
            if (after != stop || dash[1] == '-' || dash[1] == '+' || after == dash + 1 || hi < lo)
                return sc_error(SC_ERR_INPUT,
                                "%s: '%s': '%.*s' is not a range; give N or N-M (N up to M) "
                                "between the brackets, e.g. n[01-04,07]",
                                option, item, (int)(stop - r), r);
        }
        if (hi - lo >= MOST_HOSTS)
            return sc_error(SC_ERR_INPUT, "%s: '%s' names more than %d hosts", option, item,
                            MOST_HOSTS);
        for (long v = lo; v <= hi && !err; v++) {
            char number[32];
            int n = snprintf(number, sizeof number, "%0*ld", width, v);
            if (!(err = join(option, item, prefix, nprefix, number, number + n, name, &len)))
                err = expand(option, item, h, name, len, close + 1, end);
        }
        r = comma ? comma + 1 : close;
    }
    return err;
}

static sc_err_t parse_list(const char *option, const char *list, sc_hosts_t *h)
{
    sc_err_t err = SC_OK;
    for (const char *item = list; *item && !err;) {
        const char *end = item;
        for (int depth = 0; *end && (depth || *end != ','); end++)
            depth += *end == '[' ? 1 : *end == ']' ? -1 : 0;
        char shown[256];
        snprintf(shown, sizeof shown, "%.*s", (int)(end - item), item);
        err = expand(option, shown, h, "", 0, item, end);
        item = *end ? end + 1 : end;
    }
    return err;
}

/* A file of names, one a line, or a simcoll-probe file's hosts. */
static sc_err_t parse_file(const char *option, const char *path, sc_hosts_t *h)
{
    char *text;
    size_t len;
    sc_err_t err = sc_input_file(option, path, (size_t)1 << 26, &text, &len);
    if (err)
        return err;
    if (!strncmp(text, "# simcoll-probe ", 16)) {
        sc_probe_cluster_t c;
        if (!(err = sc_probe_cluster_parse(option, path, text, len, &c))) {
            for (int i = 0; i < c.nranks && !err; i++)
                err = add(option, h, c.ranks[i].host, strcspn(c.ranks[i].host, "#"));
            sc_probe_cluster_destroy(&c);
        }
    } else {
        for (char *line = text; line < text + len && !err;) {
            char *eol = memchr(line, '\n', (size_t)(text + len - line));
            size_t n = eol ? (size_t)(eol - line) : (size_t)(text + len - line);
            line[n] = '\0';
            line[strcspn(line, "#")] = '\0';
            char *name = line + strspn(line, " \t\r");
            size_t k = strcspn(name, " \t\r:");
            if (k)
                err = add(option, h, name, k);
            line += n + 1;
        }
    }
    free(text);
    if (!err && h->n == 0)
        err = sc_error(SC_ERR_INPUT, "%s '%s': no host name in it", option, path);
    return err;
}

sc_err_t sc_hosts_read(const char *option, const char *spec, sc_hosts_t *out)
{
    *out = (sc_hosts_t){0};
    sc_err_t err = access(spec, F_OK) == 0 || strchr(spec, '/') ? parse_file(option, spec, out)
                                                                : parse_list(option, spec, out);
    if (!err && out->n == 0)
        err = sc_error(SC_ERR_INPUT, "%s '%s': no host name in it", option, spec);
    if (err)
        sc_hosts_destroy(out);
    return err;
}
