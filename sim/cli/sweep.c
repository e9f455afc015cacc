/* simcoll sweep STUDY: the product of a study's axes, one simcoll run per
 * point, rows streamed to a CSV that a rerun completes after any kill.
 *
 * A study file has one axis per line, KEY = VALUE, VALUE, ... ('#' starts a
 * comment). KEY is a simcoll option without its dashes (platform, algo,
 * coll, mpi, np, size, mapping, op, type, root, data, set, nodes, cores)
 * or payload (yes, the default, or no). platform is required. A value of
 * set holds ';'-separated --set settings, several making one platform.
 * With nodes, cores or set, each platform is generated from the named one
 * (simcoll platform --like) into OUTPUT.platforms/.
 *
 * Each point runs as a child process of this one (the same code as the
 * command line), -j at a time. Its row goes to OUTPUT as soon as it ends,
 * in one write, behind two columns: key (the point, KEY=VALUE joined by
 * ';') and status (ok, or the run's error message). A rerun reads OUTPUT,
 * drops a last line a kill cut short, and runs only the points whose key
 * is missing.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "cli.h"
#include "common/sc_units.h"
#include "report.h"
#include "sim/engine/engine.h"
#include "sim/engine/generate.h"
#include "sim/io/files.h"

enum { MAX_AXES = 16, MAX_VALUES = 256 };

typedef struct {
    char *key;
    char *values[MAX_VALUES];
    int nvalues;
} axis_t;

typedef struct {
    axis_t axis[MAX_AXES];
    int naxes;
    char *text; /* the file, split in place */
} study_t;

static const char *const keys[] = {"platform", "algo",  "coll",    "mpi",  "np",   "size",
                                   "mapping",  "op",    "type",    "root", "data", "set",
                                   "nodes",    "cores", "payload", NULL};

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *end = s + strlen(s);
    while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
        *--end = '\0';
    return s;
}

static sc_err_t read_study(const char *path, study_t *st)
{
    size_t len;
    char what[1100];
    snprintf(what, sizeof what, "sweep '%s'", path);
    *st = (study_t){0};
    sc_err_t err = sc_input_read(what, path, (size_t)1 << 20, &st->text, &len);
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
        if (!*body) {
            line = next;
            continue;
        }
        if (!eq) {
            err =
                sc_error(SC_ERR_INPUT, "%s:%d: '%s' is not KEY = VALUE, VALUE, ...", path, n, body);
            break;
        }
        *eq = '\0';
        char *key = trim(body);
        int known = 0;
        for (int k = 0; keys[k] && !known; k++)
            known = strcmp(keys[k], key) == 0;
        for (int a = 0; known && a < st->naxes; a++)
            if (strcmp(st->axis[a].key, key) == 0)
                err = sc_error(SC_ERR_INPUT, "%s:%d: '%s' is given twice", path, n, key);
        if (!known)
            err = sc_error(SC_ERR_INPUT,
                           "%s:%d: unknown key '%s'; use platform, algo, coll, mpi, np, size, "
                           "mapping, op, type, root, data, set, nodes, cores or payload",
                           path, n, key);
        if (!err && st->naxes == MAX_AXES)
            err = sc_error(SC_ERR_INPUT, "%s:%d: more than %d keys", path, n, MAX_AXES);
        if (err)
            break;
        axis_t *ax = &st->axis[st->naxes++];
        ax->key = key;
        for (char *v = eq + 1, *comma; v && !err; v = comma) {
            comma = strchr(v, ',');
            if (comma)
                *comma++ = '\0';
            v = trim(v);
            if (!*v)
                err = sc_error(SC_ERR_INPUT, "%s:%d: an empty value of '%s'", path, n, key);
            else if (ax->nvalues == MAX_VALUES)
                err = sc_error(SC_ERR_INPUT, "%s:%d: more than %d values of '%s'", path, n,
                               MAX_VALUES, key);
            else
                ax->values[ax->nvalues++] = v;
        }
        line = next;
    }
    int has_platform = 0;
    for (int a = 0; a < st->naxes; a++)
        has_platform |= strcmp(st->axis[a].key, "platform") == 0;
    if (!err && !has_platform)
        err = sc_error(SC_ERR_INPUT, "%s: no platform = ... line; a study needs one", path);
    if (err) {
        free(st->text);
        st->text = NULL;
    }
    return err;
}

/* The values of point `index` of the product, one per axis. */
static void point(const study_t *st, long index, const char **value)
{
    for (int a = st->naxes - 1; a >= 0; a--) {
        value[a] = st->axis[a].values[index % st->axis[a].nvalues];
        index /= st->axis[a].nvalues;
    }
}

static const char *axis_value(const study_t *st, const char **value, const char *key)
{
    for (int a = 0; a < st->naxes; a++)
        if (strcmp(st->axis[a].key, key) == 0)
            return value[a];
    return NULL;
}

static void make_key(const study_t *st, const char **value, char *key, size_t size)
{
    size_t n = 0;
    key[0] = '\0';
    for (int a = 0; a < st->naxes && n < size; a++)
        n +=
            (size_t)snprintf(key + n, size - n, "%s%s=%s", a ? ";" : "", st->axis[a].key, value[a]);
}

/* The platform file of a point: the one named, or one generated from it
 * into `dir` (named by the point's platform, nodes, cores and set). */
static sc_err_t platform_of(const study_t *st, const char **value, const char *dir, char *path,
                            size_t size)
{
    const char *plat = axis_value(st, value, "platform"), *nodes = axis_value(st, value, "nodes"),
               *cores = axis_value(st, value, "cores"), *set = axis_value(st, value, "set");
    if (!nodes && !cores && !set) {
        snprintf(path, size, "%s", plat);
        return SC_OK;
    }
    unsigned long h = 5381;
    char spec[2048];
    snprintf(spec, sizeof spec, "%s|%s|%s|%s", plat, nodes ? nodes : "", cores ? cores : "",
             set ? set : "");
    for (const char *c = spec; *c; c++)
        h = h * 33 + (unsigned char)*c;
    if ((size_t)snprintf(path, size, "%s/platform-%016lx.xml", dir, h) >= size)
        return sc_error(SC_ERR_INPUT, "sweep: the output's name is too long");
    if (access(path, R_OK) == 0)
        return SC_OK;
    int n = 0, c = 0;
    sc_err_t err = SC_OK;
    if (nodes)
        err = sc_parse_int(nodes, "nodes", 1, 1 << 20, &n);
    if (!err && cores)
        err = sc_parse_int(cores, "cores", 1, 1 << 16, &c);
    char setbuf[1024], *sets[32];
    int nsets = 0;
    snprintf(setbuf, sizeof setbuf, "%s", set ? set : "");
    for (char *s = setbuf, *semi; set && s && nsets < 32; s = semi) {
        semi = strchr(s, ';');
        if (semi)
            *semi++ = '\0';
        s = trim(s);
        if (*s)
            sets[nsets++] = s;
    }
    if (!err && !nodes) {
        sc_platform_t p;
        if (!(err = sc_platform_load("platform", plat, &p))) {
            n = p.nnodes;
            sc_platform_destroy(&p);
        }
    }
    return err ? err : sc_generate_platform(plat, n, c, sets, nsets, path);
}

/* The command line of a point: simcoll's options, and CSV output. */
static int job_args(const study_t *st, const char **value, const char *platform, char **argv,
                    int max)
{
    int n = 0;
    argv[n++] = (char *)"simcoll";
    argv[n++] = (char *)"--platform";
    argv[n++] = (char *)platform;
    for (int a = 0; a < st->naxes && n + 3 < max; a++) {
        const char *k = st->axis[a].key;
        if (!strcmp(k, "platform") || !strcmp(k, "nodes") || !strcmp(k, "cores") ||
            !strcmp(k, "set"))
            continue;
        if (!strcmp(k, "payload")) {
            if (!strcmp(value[a], "no"))
                argv[n++] = (char *)"--no-payload";
            continue;
        }
        static char options[MAX_AXES][32];
        snprintf(options[a], sizeof options[a], "--%s", k);
        argv[n++] = options[a];
        argv[n++] = (char *)value[a];
    }
    argv[n++] = (char *)"--format";
    argv[n++] = (char *)"csv";
    argv[n] = NULL;
    return n;
}

typedef struct {
    int busy;
    pid_t pid;    /* -1: the point failed before it could start */
    int out, err; /* pipes from the child, -1 once closed */
    char *outbuf, *errbuf;
    size_t outlen, errlen;
    long index;
    struct timespec start;
} job_t;

static void append(char **buf, size_t *len, const char *data, size_t n)
{
    char *more = realloc(*buf, *len + n + 1);
    if (!more)
        return;
    memcpy(more + *len, data, n);
    *len += n;
    more[*len] = '\0';
    *buf = more;
}

static sc_err_t start_job(const study_t *st, long index, const char *dir, job_t *job)
{
    const char *value[MAX_AXES];
    point(st, index, value);
    static char platform[4096];
    sc_err_t err = platform_of(st, value, dir, platform, sizeof platform);
    int out[2], errp[2];
    if (!err && (pipe(out) != 0 || pipe(errp) != 0))
        err = sc_error(SC_ERR_RUN, "sweep: cannot make a pipe: %s", strerror(errno));
    *job = (job_t){.busy = 1, .pid = -1, .out = -1, .err = -1, .index = index};
    clock_gettime(CLOCK_MONOTONIC, &job->start);
    if (err) {
        /* The point fails, with its reason, like a run would. */
        append(&job->errbuf, &job->errlen, "simcoll: ", 9);
        append(&job->errbuf, &job->errlen, sc_error_message(), strlen(sc_error_message()));
        return SC_OK;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(out[0]), close(out[1]), close(errp[0]), close(errp[1]);
        return sc_error(SC_ERR_RUN, "sweep: cannot start a run: %s", strerror(errno));
    }
    if (pid == 0) {
        dup2(out[1], STDOUT_FILENO);
        dup2(errp[1], STDERR_FILENO);
        close(out[0]), close(out[1]), close(errp[0]), close(errp[1]);
        char *argv[2 * MAX_AXES + 8];
        int argc = job_args(st, value, platform, argv, 2 * MAX_AXES + 8);
        int code = sc_cli_main(argc, argv);
        fflush(NULL);
        _exit(code);
    }
    close(out[1]);
    close(errp[1]);
    job->pid = pid;
    job->out = out[0];
    job->err = errp[0];
    return SC_OK;
}

/* The row of a finished point: key, status, and the run's CSV row (or
 * empty fields), as one line. */
static char *job_row(const study_t *st, const job_t *job, int code, int ncols)
{
    const char *value[MAX_AXES];
    point(st, job->index, value);
    char key[4096], *row = NULL;
    size_t len = 0;
    make_key(st, value, key, sizeof key);
    FILE *f = open_memstream(&row, &len);
    if (!f)
        return NULL;
    fputc('"', f);
    for (const char *c = key; *c; c++)
        fputs(*c == '"' ? "\"\"" : (char[]){*c, 0}, f);
    fputs("\",", f);
    const char *data = job->outbuf ? strchr(job->outbuf, '\n') : NULL;
    if (code == 0 && data && data[1]) {
        fputs("ok,", f);
        data++;
        fwrite(data, 1, strcspn(data, "\n"), f);
    } else {
        /* The message, without "simcoll: " and its newline. */
        const char *msg = job->errbuf ? job->errbuf : "the run printed no row";
        if (!strncmp(msg, "simcoll: ", 9))
            msg += 9;
        fputc('"', f);
        for (const char *c = msg; *c && *c != '\n'; c++)
            fputs(*c == '"' ? "\"\"" : (char[]){*c, 0}, f);
        fputc('"', f);
        for (int i = 0; i < ncols; i++)
            fputc(',', f);
    }
    fputc('\n', f);
    if (fclose(f) != 0) {
        free(row);
        return NULL;
    }
    return row;
}

/* The keys OUTPUT already holds, and how many of those points failed;
 * drops a last line a kill cut short; creates OUTPUT with its header. */
static sc_err_t read_done(const char *path, const char *header, char ***done, long *ndone,
                          long *nfailed)
{
    *done = NULL;
    *ndone = *nfailed = 0;
    struct stat sb;
    if (stat(path, &sb) != 0 || sb.st_size == 0) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        size_t n = strlen(header);
        int ok = fd >= 0 && sc_write_all(fd, header, n) == 0 && sc_write_all(fd, "\n", 1) == 0;
        ok = (fd >= 0 && close(fd) == 0) && ok;
        return ok ? SC_OK
                  : sc_error(SC_ERR_RUN, "sweep -o '%s': cannot write it: %s", path,
                             strerror(errno));
    }
    char *text;
    size_t len;
    char what[1100];
    snprintf(what, sizeof what, "sweep -o '%s'", path);
    sc_err_t err = sc_input_read(what, path, (size_t)1 << 30, &text, &len);
    if (err)
        return err;
    size_t hlen = strlen(header);
    if (len < hlen + 1 || strncmp(text, header, hlen) != 0 || text[hlen] != '\n') {
        free(text);
        return sc_error(SC_ERR_INPUT,
                        "sweep -o '%s': it is not this sweep's output (its first "
                        "line is not the header); give another file",
                        path);
    }
    size_t complete = len;
    while (complete > 0 && text[complete - 1] != '\n')
        complete--;
    if (complete < len && truncate(path, (off_t)complete) != 0) {
        free(text);
        return sc_error(SC_ERR_RUN, "sweep -o '%s': cannot drop its cut line: %s", path,
                        strerror(errno));
    }
    for (char *line = text + hlen + 1; line < text + complete;) {
        char *end = strchr(line, '\n');
        *end = '\0';
        /* key is the first field, quoted: up to the first quote not doubled */
        if (*line == '"') {
            /* the status follows the key's closing quote and its comma */
            const char *status = strstr(line + 1, "\",");
            *nfailed += !status || strncmp(status, "\",ok,", 5) != 0;
            char *k = line + 1, *w = k;
            for (char *c = k; *c; c++) {
                if (*c == '"' && c[1] == '"')
                    *w++ = *c++;
                else if (*c == '"')
                    break;
                else
                    *w++ = *c;
            }
            *w = '\0';
            char **more = realloc(*done, (size_t)(*ndone + 1) * sizeof **done);
            char *copy = strdup(k);
            if (!more || !copy) {
                free(copy);
                if (more)
                    *done = more;
                err = sc_error(SC_ERR_RUN, "out of memory");
                break;
            }
            *done = more;
            (*done)[(*ndone)++] = copy;
        }
        line = end + 1;
    }
    free(text);
    return err;
}

static double since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

int sc_cli_sweep(int argc, char **argv)
{
    static const struct option longopts[] = {{"jobs", required_argument, NULL, 'j'},
                                             {"output", required_argument, NULL, 'o'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *out = NULL;
    int parallel = 1, c;
    sc_err_t err = SC_OK;
    opterr = 0;
    optind = 0;
    char **args = argv + 1;
    int nargs = argc - 1;
    for (int before = 1; !err && (c = getopt_long(nargs, args, ":j:o:", longopts, NULL)) != -1;
         before = optind) {
        switch (c) {
        case 'j': err = sc_parse_int(optarg, "-j", 1, 256, &parallel); break;
        case 'o': out = optarg; break;
        case 'h':
            fputs("usage: simcoll sweep STUDY [-j N] -o RESULTS.csv\n"
                  "Runs simcoll at every point of the study's axes (one KEY = VALUE, ... per\n"
                  "line: platform, algo, coll, mpi, np, size, mapping, op, type, root, data,\n"
                  "set, nodes, cores, payload), N at a time, each row written to RESULTS.csv\n"
                  "as it ends (key and status columns first). Run it again after an\n"
                  "interruption: it runs only the points RESULTS.csv does not hold.\n",
                  stdout);
            return 0;
        case ':':
            err = sc_error(SC_ERR_INPUT, "'%s needs a value (simcoll sweep --help)",
                           sc_cli_refused_option(args, before, longopts));
            break;
        default:
            err = sc_error(SC_ERR_INPUT, "sweep: unknown option '%s (simcoll sweep --help)",
                           sc_cli_refused_option(args, before, longopts));
            break;
        }
    }
    if (!err && (optind + 1 != nargs || !out))
        err = sc_error(SC_ERR_INPUT, "sweep needs a study file and -o RESULTS.csv, e.g. simcoll "
                                     "sweep study.ini -j 2 -o results.csv");
    study_t st = {0};
    if (err || (err = read_study(args[optind], &st)))
        return sc_cli_fail(err);
    long npoints = 1;
    for (int a = 0; a < st.naxes; a++)
        npoints *= st.axis[a].nvalues;
    char header[2048], dir[4096];
    snprintf(header, sizeof header, "key,status,%s", sc_report_csv_header());
    int ncols = 1;
    for (const char *h = sc_report_csv_header(); *h; h++)
        ncols += *h == ',';
    snprintf(dir, sizeof dir, "%s.platforms", out);
    char **done = NULL;
    long ndone = 0, failed_before = 0;
    if ((err = read_done(out, header, &done, &ndone, &failed_before))) {
        free(st.text);
        return sc_cli_fail(err);
    }
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        free(st.text);
        return sc_cli_fail(sc_error(SC_ERR_RUN, "sweep: cannot make %s: %s", dir, strerror(errno)));
    }
    int fd = open(out, O_WRONLY | O_APPEND);
    job_t *jobs = calloc((size_t)parallel, sizeof *jobs);
    if (fd < 0 || !jobs) {
        free(jobs);
        free(st.text);
        return sc_cli_fail(
            sc_error(SC_ERR_RUN, "sweep -o '%s': cannot append: %s", out, strerror(errno)));
    }
    /* The points still to run. */
    long *todo = malloc((size_t)npoints * sizeof *todo), ntodo = 0;
    for (long i = 0; todo && i < npoints; i++) {
        const char *value[MAX_AXES];
        char key[4096];
        point(&st, i, value);
        make_key(&st, value, key, sizeof key);
        int have = 0;
        for (long d = 0; d < ndone && !have; d++)
            have = strcmp(done[d], key) == 0;
        if (!have)
            todo[ntodo++] = i;
    }
    fprintf(stderr, "sweep: %ld points, %ld already in %s, %ld to run\n", npoints, npoints - ntodo,
            out, ntodo);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long next = 0, finished = 0, failed = 0;
    int running = 0;
    while (!err && (next < ntodo || running > 0)) {
        for (int j = 0; j < parallel && next < ntodo && !err; j++)
            if (!jobs[j].busy) {
                err = start_job(&st, todo[next++], dir, &jobs[j]);
                running++;
            }
        /* Read whatever the running points print; reap the ones done. */
        struct pollfd fds[2 * 256];
        int nfds = 0;
        for (int j = 0; j < parallel; j++) {
            if (jobs[j].busy && jobs[j].out >= 0)
                fds[nfds++] = (struct pollfd){jobs[j].out, POLLIN, 0};
            if (jobs[j].busy && jobs[j].err >= 0)
                fds[nfds++] = (struct pollfd){jobs[j].err, POLLIN, 0};
        }
        if (nfds && poll(fds, (nfds_t)nfds, 1000) < 0 && errno != EINTR)
            err = sc_error(SC_ERR_RUN, "sweep: poll failed: %s", strerror(errno));
        for (int j = 0; j < parallel; j++) {
            job_t *job = &jobs[j];
            char chunk[65536];
            for (int s = 0; s < 2; s++) {
                int *p = s ? &job->err : &job->out;
                if (!job->busy || *p < 0)
                    continue;
                for (int i = 0; i < nfds; i++)
                    if (fds[i].fd == *p && fds[i].revents) {
                        ssize_t n = read(*p, chunk, sizeof chunk);
                        if (n > 0)
                            append(s ? &job->errbuf : &job->outbuf, s ? &job->errlen : &job->outlen,
                                   chunk, (size_t)n);
                        else if (n == 0 || errno != EINTR) {
                            close(*p);
                            *p = -1;
                        }
                    }
            }
            if (!job->busy || job->out >= 0 || job->err >= 0)
                continue;
            int status = 0, code = 1;
            if (job->pid > 0 && waitpid(job->pid, &status, 0) == job->pid)
                code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
            char *row = job_row(&st, job, code, ncols);
            if (!row || sc_write_all(fd, row, strlen(row)) != 0)
                err = sc_error(SC_ERR_RUN, "sweep -o '%s': cannot write a row: %s", out,
                               strerror(errno));
            free(row);
            finished++;
            failed += code != 0;
            double elapsed = since(&t0);
            const char *value[MAX_AXES];
            char key[4096];
            point(&st, job->index, value);
            make_key(&st, value, key, sizeof key);
            fprintf(stderr, "sweep: [%ld/%ld] %s: %s (%.1f s), ETA %.0f s\n", finished, ntodo, key,
                    code ? "failed" : "ok", since(&job->start),
                    elapsed / (double)finished * (double)(ntodo - finished));
            free(job->outbuf);
            free(job->errbuf);
            *job = (job_t){0};
            running--;
        }
    }
    close(fd);
    for (long d = 0; d < ndone; d++)
        free(done[d]);
    free(done);
    free(todo);
    free(jobs);
    free(st.text);
    if (!err && failed + failed_before)
        err = sc_error(SC_ERR_RUN, "sweep: %ld of %ld points failed (status column of %s)",
                       failed + failed_before, npoints, out);
    return err ? sc_cli_fail(err) : 0;
}
