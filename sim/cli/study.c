/* A study file of simcoll sweep (study.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "study.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "program_cmd.h"
#include "sim/engine/generate.h"
#include "sim/io/files.h"
#include "sim/io/platform_file.h"
#include "sim/io/topology.h"
#include "sweep.h"
#include "trace_cmd.h"

static const char *const keys[] = {
    "platform", "algo",   "coll",    "mpi",     "np",    "size",  "mapping",       "op",
    "type",     "root",   "data",    "set",     "nodes", "cores", "sockets",       "net",
    "topology", "levels", "payload", "program", "trace", "algos", "compute-scale", "jobs", NULL};

/* What a point of a program study cannot say: simcoll run has no such
 * options, the program says them. A trace says its ranks too, and holds
 * no data. */
static const char *const call_keys[] = {"algo", "coll", "size", "op", "type", "root", NULL};
static const char *const trace_refuses[] = {"algo", "coll",    "size", "op",      "type", "root",
                                            "np",   "payload", "data", "program", NULL};
/* Jobs side by side name their files, nodes and ranks. */
static const char *const jobs_refuse[] = {"algo", "coll",    "size", "op",      "type",  "root",
                                          "np",   "payload", "data", "program", "trace", "mapping",
                                          NULL};

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *end = s + strlen(s);
    while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
        *--end = '\0';
    return s;
}

/* The ';'-separated settings of a value of set, as the generator takes
 * them (--set's), split in buf[KEY_MAX]. */
sc_err_t sc_study_split_sets(const char *set, char *buf, char **sets, int *nsets)
{
    *nsets = 0;
    snprintf(buf, KEY_MAX, "%s", set); /* a value fits a point's key */
    for (char *s = buf, *semi; s; s = semi) {
        semi = strchr(s, ';');
        if (semi)
            *semi++ = '\0';
        s = trim(s);
        if (!*s)
            continue;
        if (*nsets == MAX_SETS)
            return sc_error(SC_ERR_INPUT, "'%s': more than %d settings", set, MAX_SETS);
        sets[(*nsets)++] = s;
    }
    return SC_OK;
}

/* Refuses a value the point's command would refuse in every point, so
 * that a mistyped study stops before it runs (exit 2, nothing written)
 * instead of giving a row of errors for each point: with the check of
 * the option the value goes to, its message after the study's line.
 * Values whose meaning depends on the platform or on other axes (np
 * beyond its cores, a root beyond np, a cores list against nodes) are
 * left to the points. */
static sc_err_t check_value(const char *path, int line, const char *key, const char *v)
{
    char what[1100];
    snprintf(what, sizeof what, "%s:%d: %s", path, line, key);
    int number;
    size_t bytes;
    sc_op_t op;
    sc_type_t type;
    const sc_profile_t *profile;
    sc_cli_data_t data = {0};
    char buf[KEY_MAX], *sets[MAX_SETS];
    int nsets;
    sc_err_t err = SC_OK;
    if (!strcmp(key, "payload") && strcmp(v, "yes") && strcmp(v, "no"))
        return sc_error(SC_ERR_INPUT, "%s '%s': use yes or no", what, v);
    if (!strcmp(key, "np"))
        return sc_parse_int(v, what, 1, 1 << 30, &number);
    if (!strcmp(key, "root"))
        return sc_parse_int(v, what, 0, 1 << 30, &number);
    if (!strcmp(key, "nodes"))
        return sc_parse_int(v, what, 1, 1 << 20, &number);
    if (!strcmp(key, "sockets"))
        return sc_parse_int(v, what, 1, SC_MAX_SOCKETS, &number);
    if (!strcmp(key, "size"))
        return sc_parse_size(v, what, &bytes);
    if (!strcmp(key, "op"))
        return sc_op_parse(v, what, &op);
    if (!strcmp(key, "type"))
        return sc_type_parse(v, what, &type);
    if (!strcmp(key, "compute-scale"))
        return sc_cli_compute_scale(v, what, &(double){0});
    if (!strcmp(key, "algos"))
        return sc_cli_algos(v, what, (const sc_algo_t *[SC_NCOLLECTIVES]){0});
    if (!strcmp(key, "algo") && !sc_algo_find(v))
        return sc_error(SC_ERR_INPUT,
                        "%s: unknown algorithm '%s'; did you mean '%s'? (simcoll list shows them)",
                        what, v, sc_algo_nearest(v)->name);
    sc_levels_t levels;
    if (!strcmp(key, "coll"))
        err = sc_cli_coll("--coll", v);
    else if (!strcmp(key, "levels"))
        err = sc_levels_parse(v, &levels);
    else if (!strcmp(key, "mpi"))
        err = sc_cli_profile(v, &profile);
    else if (!strcmp(key, "data"))
        err = sc_cli_data(v, &data);
    else if (!strcmp(key, "net"))
        err = sc_generate_check_net(v);
    else if (!strcmp(key, "topology"))
        err = sc_generate_check_topology(v, NULL);
    else if (!strcmp(key, "cores"))
        err = sc_generate_check_cores(v);
    else if (!strcmp(key, "set") && !(err = sc_study_split_sets(v, buf, sets, &nsets)))
        err = sc_generate_check_sets(sets, nsets);
    if (!err)
        return SC_OK;
    char why[1024];
    snprintf(why, sizeof why, "%s", sc_error_message());
    return sc_error(err, "%s: %s", what, why);
}

/* The first axis named `key`, or NULL. */
static const axis_t *find_axis(const study_t *st, const char *key)
{
    for (int a = 0; a < st->naxes; a++)
        if (strcmp(st->axis[a].key, key) == 0)
            return &st->axis[a];
    return NULL;
}

/* rack.*, socket.*, numa.* and ccx.* settings need racks and those
 * domains, which the topology, sockets and levels axes give: a setting no
 * point has them for is refused as every point would refuse it. */
static sc_err_t check_set_levels(const char *path, const study_t *st)
{
    const axis_t *set = find_axis(st, "set"), *topology = find_axis(st, "topology"),
                 *sockets = find_axis(st, "sockets"), *levels = find_axis(st, "levels");
    int racks = 0, split[SC_NDOMAIN_KINDS] = {0};
    for (int v = 0; topology && v < topology->nvalues; v++) {
        sc_topology_t t;
        racks |= !sc_topology_parse("--topology", topology->values[v], &t) &&
                 t.kind == SC_TOPO_RACKS && t.racks > 1;
    }
    for (int v = 0; sockets && v < sockets->nvalues; v++)
        split[SC_DOMAIN_SOCKET] |= atoi(sockets->values[v]) > 1; /* checked as integers */
    for (int v = 0; levels && v < levels->nvalues; v++) {
        sc_levels_t l;
        if (sc_levels_parse(levels->values[v], &l))
            return SC_ERR_INPUT; /* checked already */
        racks |= l.topology[0] != '\0';
        for (int d = 0; d < SC_NDOMAIN_KINDS; d++)
            split[d] |= l.domains[d] > 1;
    }
    for (int v = 0; set && v < set->nvalues; v++) {
        char buf[KEY_MAX], *sets[MAX_SETS];
        int nsets;
        if (sc_study_split_sets(set->values[v], buf, sets, &nsets))
            return SC_ERR_INPUT; /* checked already */
        for (int i = 0; i < nsets; i++) {
            int at = sc_param_at_find(sets[i], strcspn(sets[i], "."));
            if (!racks && at == SC_AT_RACK)
                return sc_error(SC_ERR_INPUT,
                                "%s:%d: set: --set '%s': no point of the study has racks; add "
                                "a topology axis with racks:N,R (R > 1)",
                                path, set->line, sets[i]);
            int domain = at >= 0 ? sc_param_at_domain((sc_param_at_t)at) : -1;
            if (domain >= 0 && !split[domain])
                return sc_error(
                    SC_ERR_INPUT, "%s:%d: set: --set '%s': no point of the study has %s; add %s",
                    path, set->line, sets[i], sc_domain_plural((sc_domain_kind_t)domain),
                    domain == SC_DOMAIN_SOCKET
                        ? "a sockets axis with a value above 1, or a levels axis "
                          "with socket:S"
                        : "a levels axis with them (e.g. core:4,numa:4,node:2)");
        }
    }
    return SC_OK;
}

/* A study is text: a NUL byte is refused, naming its line. */
static sc_err_t check_no_nul(const char *path, const char *text, size_t len)
{
    const char *nul = memchr(text, '\0', len);
    if (!nul)
        return SC_OK;
    int line = 1;
    for (const char *c = text; c < nul; c++)
        line += *c == '\n';
    return sc_error(SC_ERR_INPUT, "%s:%d: a NUL byte; a study is text", path, line);
}

/* A new axis for `key` at line n: a known key, given once, within
 * MAX_AXES. */
static sc_err_t add_axis(const char *path, int n, char *key, study_t *st)
{
    int known = 0;
    for (int k = 0; keys[k] && !known; k++)
        known = strcmp(keys[k], key) == 0;
    for (int a = 0; known && a < st->naxes; a++)
        if (strcmp(st->axis[a].key, key) == 0)
            return sc_error(SC_ERR_INPUT, "%s:%d: '%s' is given twice", path, n, key);
    if (!known)
        return sc_error(SC_ERR_INPUT,
                        "%s:%d: unknown key '%s'; did you mean '%s'? Use platform, algo, coll, "
                        "mpi, np, size, mapping, op, type, root, data, set, nodes, cores, "
                        "sockets, net, topology, levels, payload or program",
                        path, n, key, sc_name_nearest(key, keys));
    if (st->naxes == MAX_AXES)
        return sc_error(SC_ERR_INPUT, "%s:%d: more than %d keys", path, n, MAX_AXES);
    axis_t *ax = &st->axis[st->naxes++];
    ax->key = key;
    ax->line = n;
    return SC_OK;
}

/* The values after '=' of line n, split in place into ax: separated by
 * commas, a value with commas between double quotes. */
static sc_err_t parse_values(const char *path, int n, char *values, axis_t *ax)
{
    const char *key = ax->key;
    sc_err_t err = SC_OK;
    for (char *v = values, *comma; v && !err; v = comma) {
        v += strspn(v, " \t\r");
        char *close = *v == '"' ? strchr(v + 1, '"') : NULL;
        if (*v == '"' && !close)
            return sc_error(SC_ERR_INPUT, "%s:%d: a value of '%s' opens a quote it does not close",
                            path, n, key);
        if (close) {
            /* "...": the value, commas and all; then a comma or the end */
            *close = '\0';
            char *rest = close + 1 + strspn(close + 1, " \t\r");
            if (*rest && *rest != ',')
                return sc_error(SC_ERR_INPUT,
                                "%s:%d: '%s' after a quoted value of '%s'; separate values "
                                "with commas",
                                path, n, rest, key);
            comma = *rest ? rest + 1 : NULL;
            v++;
        } else {
            comma = strchr(v, ',');
            if (comma)
                *comma++ = '\0';
            v = trim(v);
        }
        if (!*v)
            err = sc_error(SC_ERR_INPUT, "%s:%d: an empty value of '%s'", path, n, key);
        else if (ax->nvalues == MAX_VALUES)
            err = sc_error(SC_ERR_INPUT, "%s:%d: more than %d values of '%s'", path, n, MAX_VALUES,
                           key);
        for (int k = 0; !err && k < ax->nvalues; k++)
            if (strcmp(ax->values[k], v) == 0)
                err = sc_error(SC_ERR_INPUT,
                               "%s:%d: '%s' lists '%s' twice (its points would share a key)", path,
                               n, key, v);
        if (!err)
            ax->values[ax->nvalues++] = v;
    }
    return err;
}

/* Splits st->text in place into its axes, line by line. */
static sc_err_t parse_lines(const char *path, study_t *st)
{
    sc_err_t err = SC_OK;
    char *line = st->text;
    for (int n = 1; !err && line && *line; n++) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *eq = strchr(line, '=');
        char *body = trim(line);
        if (*body && !eq)
            return sc_error(SC_ERR_INPUT, "%s:%d: '%s' is not KEY = VALUE, VALUE, ...", path, n,
                            body);
        if (*body) {
            *eq = '\0';
            if (!(err = add_axis(path, n, trim(body), st)))
                err = parse_values(path, n, eq + 1, &st->axis[st->naxes - 1]);
        }
        line = next;
    }
    return err;
}

/* The study's shape: a platform, at most MAX_POINTS points, keys shorter
 * than KEY_MAX, and with programs no key that names a call. */
static sc_err_t check_shape(const char *path, const study_t *st)
{
    int has_platform = 0;
    for (int a = 0; a < st->naxes; a++)
        has_platform |= strcmp(st->axis[a].key, "platform") == 0;
    if (!has_platform)
        return sc_error(SC_ERR_INPUT, "%s: no platform = ... line; a study needs one", path);
    long points = 1;
    size_t key_len = 0;
    for (int a = 0; a < st->naxes; a++) {
        const axis_t *ax = &st->axis[a];
        size_t longest = 0;
        for (int v = 0; v < ax->nvalues; v++)
            if (strlen(ax->values[v]) > longest)
                longest = strlen(ax->values[v]);
        key_len += strlen(ax->key) + longest + 2; /* KEY=VALUE; */
        if (points > MAX_POINTS / ax->nvalues)
            return sc_error(SC_ERR_INPUT,
                            "%s: the product of the axes is more than %ld points; split the "
                            "study",
                            path, MAX_POINTS);
        points *= ax->nvalues;
    }
    if (key_len >= KEY_MAX)
        return sc_error(SC_ERR_INPUT,
                        "%s: a point's key (KEY=VALUE;... of its values) can be %zu bytes, more "
                        "than %d; use shorter values (a shorter path to the platforms or "
                        "programs)",
                        path, key_len, KEY_MAX - 1);
    for (int a = 0; st->programs && a < st->naxes; a++)
        for (int k = 0; call_keys[k]; k++)
            if (strcmp(st->axis[a].key, call_keys[k]) == 0)
                return sc_error(SC_ERR_INPUT,
                                "%s: '%s' with 'program': a program names its own calls; use "
                                "platform, mpi, np, mapping, data, set, nodes, cores, sockets, "
                                "net, topology, levels and payload with it",
                                path, call_keys[k]);
    for (int a = 0; st->traces && a < st->naxes; a++)
        for (int k = 0; trace_refuses[k]; k++)
            if (strcmp(st->axis[a].key, trace_refuses[k]) == 0)
                return sc_error(SC_ERR_INPUT,
                                "%s:%d: '%s' with 'trace': a trace has its own calls, ranks and "
                                "no data; use platform, mpi, algos, compute-scale, mapping, set, "
                                "nodes, cores, sockets, net, topology and levels with it",
                                path, st->axis[a].line, trace_refuses[k]);
    for (int a = 0; st->jobs && a < st->naxes; a++)
        for (int k = 0; jobs_refuse[k]; k++)
            if (strcmp(st->axis[a].key, jobs_refuse[k]) == 0)
                return sc_error(SC_ERR_INPUT,
                                "%s:%d: '%s' with 'jobs': a job file names each job's file, "
                                "nodes and ranks; use platform, mpi, algos, compute-scale, set, "
                                "nodes, cores, sockets, net, topology and levels with it",
                                path, st->axis[a].line, jobs_refuse[k]);
    for (int a = 0; !st->traces && !st->jobs && a < st->naxes; a++)
        if (!strcmp(st->axis[a].key, "algos") || !strcmp(st->axis[a].key, "compute-scale"))
            return sc_error(SC_ERR_INPUT,
                            "%s:%d: '%s' applies to a trace's runs; add a trace "
                            "axis",
                            path, st->axis[a].line, st->axis[a].key);
    /* levels gives what these would: a point could not say which wins. */
    static const char *const by_levels[] = {"nodes", "cores", "sockets", "topology", NULL};
    for (int k = 0; find_axis(st, "levels") && by_levels[k]; k++)
        if (find_axis(st, by_levels[k]))
            return sc_error(SC_ERR_INPUT,
                            "%s:%d: '%s' with 'levels': levels gives the nodes, cores, sockets "
                            "and topology; give them in its values (e.g. core:8,socket:2,node:4)",
                            path, find_axis(st, by_levels[k])->line, by_levels[k]);
    return SC_OK;
}

/* Parses the study `text` of `len` bytes and a NUL (the study keeps it
 * and splits it in place) of the file `path`. */
static sc_err_t parse_study(const char *path, char *text, size_t len, study_t *st)
{
    *st = (study_t){.text = text};
    sc_err_t err = check_no_nul(path, text, len);
    if (!err)
        err = parse_lines(path, st);
    for (int a = 0; a < st->naxes; a++) {
        st->programs |= strcmp(st->axis[a].key, "program") == 0;
        st->traces |= strcmp(st->axis[a].key, "trace") == 0;
        st->jobs |= strcmp(st->axis[a].key, "jobs") == 0;
    }
    if (!err)
        err = check_shape(path, st);
    /* The values, once the study's shape is known to be right. */
    for (int a = 0; !err && a < st->naxes; a++)
        for (int v = 0; !err && v < st->axis[a].nvalues; v++)
            err = check_value(path, st->axis[a].line, st->axis[a].key, st->axis[a].values[v]);
    if (!err)
        err = check_set_levels(path, st);
    if (err) {
        free(st->text);
        st->text = NULL;
    }
    return err;
}

/* The files the points read, platforms (or templates) and programs, as
 * the points' commands check them: one that cannot be read or is
 * malformed is refused, as every point would refuse it. Files, so not in
 * parse_study, which the study fuzzer runs. */
sc_err_t sc_study_check_files(const char *path, const study_t *st)
{
    sc_err_t err = SC_OK;
    for (int a = 0; !err && a < st->naxes; a++) {
        const axis_t *ax = &st->axis[a];
        int platform = !strcmp(ax->key, "platform"), program = !strcmp(ax->key, "program");
        int trace = !strcmp(ax->key, "trace"), jobs = !strcmp(ax->key, "jobs");
        for (int v = 0; !err && (platform || program || trace || jobs) && v < ax->nvalues; v++) {
            if (jobs) {
                /* its jobs' nodes are the platform's, checked by each point */
                FILE *f = fopen(ax->values[v], "r");
                if (!f)
                    err = sc_error(SC_ERR_INPUT, "'%s': %s", ax->values[v], strerror(errno));
                else
                    fclose(f);
            } else if (trace) {
                sc_trace_t *t = NULL;
                sc_trace_summary_t sum = {0};
                if (!(err = sc_cli_trace_open(ax->values[v], &t, &sum))) {
                    sc_trace_summary_destroy(&sum);
                    sc_trace_close(t);
                }
            } else if (platform) {
                char found[4096];
                sc_platform_t plat = {0};
                err = sc_platform_find("--platform", ax->values[v], found, sizeof found);
                if (!err && !(err = sc_platform_file_check("--platform", found, &plat)))
                    sc_platform_destroy(&plat);
            } else {
                sc_program_t prog = {0};
                err = sc_cli_program_read(ax->values[v], &prog);
                sc_program_destroy(&prog);
            }
            if (err) {
                char why[1024];
                snprintf(why, sizeof why, "%s", sc_error_message());
                err = sc_error(err, "%s:%d: %s: %s", path, ax->line, ax->key, why);
            }
        }
    }
    return err;
}

sc_err_t sc_study_read(const char *path, study_t *st)
{
    size_t len;
    char *text;
    *st = (study_t){0};
    sc_err_t err = sc_input_file("sweep", path, (size_t)1 << 20, &text, &len);
    return err ? err : parse_study(path, text, len, st);
}

/* The values of point `index` of the product, one per axis. */
void sc_study_point(const study_t *st, long index, const char **value)
{
    for (int a = st->naxes - 1; a >= 0; a--) {
        value[a] = st->axis[a].values[index % st->axis[a].nvalues];
        index /= st->axis[a].nvalues;
    }
}

const char *sc_study_value(const study_t *st, const char **value, const char *key)
{
    for (int a = 0; a < st->naxes; a++)
        if (strcmp(st->axis[a].key, key) == 0)
            return value[a];
    return NULL;
}

/* The key of point `index`: its KEY=VALUE pairs joined by ';'. */
void sc_study_key(const study_t *st, long index, char *key, size_t size)
{
    const char *value[MAX_AXES];
    sc_study_point(st, index, value);
    size_t n = 0;
    key[0] = '\0';
    for (int a = 0; a < st->naxes && n < size; a++)
        n +=
            (size_t)snprintf(key + n, size - n, "%s%s=%s", a ? ";" : "", st->axis[a].key, value[a]);
}

const char *sc_sweep_axis_column(const char *key)
{
    return !strcmp(key, "platform") ? "template" : !strcmp(key, "nodes") ? "platform_nodes" : key;
}

/* OUTPUT's header: key and status, the study's axes as columns (so that a
 * plot can group by any of them), then the run's columns but those an
 * axis's column holds: every quantity under one name, whatever the axes
 * (sc_sweep_axis_column). Sets st's run_columns, kept_columns and keep. */
void sc_study_header(study_t *st, const char *body, char *header, size_t size)
{
    size_t n = (size_t)snprintf(header, size, "key,status");
    for (int a = 0; a < st->naxes && n < size; a++)
        n += (size_t)snprintf(header + n, size - n, ",%s", sc_sweep_axis_column(st->axis[a].key));
    st->run_columns = st->kept_columns = 0;
    for (const char *name = body; *name && n < size && st->run_columns < MAX_RUN_COLUMNS;) {
        size_t len = strcspn(name, ",");
        int taken = 0;
        for (int a = 0; a < st->naxes && !taken; a++) {
            const char *column = sc_sweep_axis_column(st->axis[a].key);
            taken = strlen(column) == len && !strncmp(column, name, len);
        }
        st->keep[st->run_columns++] = !taken;
        st->kept_columns += !taken;
        if (!taken)
            n += (size_t)snprintf(header + n, size - n, ",%.*s", (int)len, name);
        name += len + (name[len] == ',');
    }
    if (n < size)
        snprintf(header + n, size - n, ",assumed");
}

/* The fields of the run's CSV row `data` (up to its newline) that st
 * keeps, each behind a comma. Fields may be quoted, quotes doubled. */
void sc_study_put_kept(FILE *f, const study_t *st, const char *data)
{
    const char *c = data;
    for (int col = 0; col < st->run_columns; col++) {
        const char *start = c;
        if (*c == '"') {
            for (c++; *c && !(*c == '"' && c[1] != '"'); c += *c == '"' ? 2 : 1)
                ;
            c += *c == '"';
        } else {
            c += strcspn(c, ",\n");
        }
        if (st->keep[col]) {
            fputc(',', f);
            fwrite(start, 1, (size_t)(c - start), f);
        }
        if (*c == ',')
            c++;
    }
}

sc_err_t sc_sweep_check_study(const char *name, const char *text, size_t len, long *points,
                              size_t *longest_key)
{
    char *copy = malloc(len + 1);
    if (!copy)
        return sc_error(SC_ERR_RUN, "out of memory");
    memcpy(copy, text, len);
    copy[len] = '\0';
    study_t st;
    sc_err_t err = parse_study(name, copy, len, &st);
    if (err)
        return err;
    *points = 1;
    for (int a = 0; a < st.naxes; a++)
        *points *= st.axis[a].nvalues;
    *longest_key = 0;
    /* Every key of a small study, the first and last 64 of a large one. */
    for (long i = 0; i < *points; i = i == 63 && *points > 128 ? *points - 64 : i + 1) {
        char key[KEY_MAX];
        sc_study_key(&st, i, key, sizeof key);
        if (strlen(key) > *longest_key)
            *longest_key = strlen(key);
    }
    free(st.text);
    return SC_OK;
}
