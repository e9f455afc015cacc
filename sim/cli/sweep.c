/* simcoll sweep STUDY: the product of a study's axes, one simcoll run per
 * point, rows streamed to a CSV that a rerun completes after any kill.
 *
 * The study file: study.h.
 *
 * Each point runs as a child process of this one (the same code as the
 * command line), -j at a time. Its row goes to OUTPUT as soon as it ends,
 * in one write, behind key (the point, KEY=VALUE joined by ';'), status
 * (ok, or the run's error message) and a column per axis
 * (sc_sweep_axis_column). A rerun reads
 * OUTPUT, drops a last line a kill cut short, and runs only the points
 * whose key is missing. Once every point ran, the rows are put in point
 * order.
 *
 * For a job engine, --jobs prints one command per missing point, each
 * running that point alone (--point N) into OUTPUT.points/N.csv, and
 * --merge appends those files' rows to OUTPUT, each key once; --slurm
 * runs those commands as a Slurm job array, waits and merges
 * (sweep_slurm.c).
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

#include "collective_cmd.h"
#include "jobs_cmd.h"
#include "program_cmd.h"
#include "trace_cmd.h"
#include "sim/analysis/sensitivity.h"
#include "sim/engine/generate.h"
#include "sim/io/files.h"
#include "study.h"
#include "sweep_results.h"
#include "sweep_slurm.h"

/* The platform file of a point: the one named, or one generated from it
 * into `dir` (named by the point's platform, nodes, cores, set, net,
 * topology, sockets and levels). */
static sc_err_t platform_of(const study_t *st, const char **value, const char *dir, char *path,
                            size_t size)
{
    const char *plat = sc_study_value(st, value, "platform"), *nodes = sc_study_value(st, value, "nodes"),
               *cores = sc_study_value(st, value, "cores"), *set = sc_study_value(st, value, "set"),
               *net = sc_study_value(st, value, "net"), *topology = sc_study_value(st, value, "topology"),
               *sockets = sc_study_value(st, value, "sockets"),
               *levels = sc_study_value(st, value, "levels");
    if (!nodes && !cores && !set && !net && !topology && !sockets && !levels) {
        snprintf(path, size, "%s", plat);
        return SC_OK;
    }
    unsigned long h = 5381;
    char spec[2048];
    snprintf(spec, sizeof spec, "%s|%s|%s|%s|%s|%s%s%s%s%s", plat, nodes ? nodes : "",
             cores ? cores : "", set ? set : "", net ? net : "", topology ? topology : "",
             sockets ? "|" : "", sockets ? sockets : "", levels ? "|levels=" : "",
             levels ? levels : "");
    for (const char *c = spec; *c; c++)
        h = h * 33 + (unsigned char)*c;
    /* Named by what it is made of, so that the platform_file column reads
     * as what differs; the hash keeps apart templates of one name in two
     * folders, and values too long for a file name. */
    char name[256];
    const char *base = strrchr(plat, '/') ? strrchr(plat, '/') + 1 : plat;
    size_t len = (size_t)snprintf(name, sizeof name, "%.*s",
                                (int)(sc_ends_with(base, ".xml") ? strlen(base) - 4 : strlen(base)),
                                base);
    const char *made[][2] = {{"net", net},         {"nodes", nodes},       {"cores", cores},
                             {"sockets", sockets}, {"topology", topology}, {"levels", levels},
                             {"set", set}};
    for (size_t i = 0; i < sizeof made / sizeof made[0] && len < sizeof name; i++)
        if (made[i][1])
            len += (size_t)snprintf(name + len, sizeof name - len, "+%s=%s", made[i][0],
                                    made[i][1]);
    if (len > 200)
        len = 200;
    name[len] = '\0';
    for (char *c = name; *c; c++)
        if (*c == '/' || *c == ' ' || *c == '"' || *c == '\'')
            *c = '_';
    if ((size_t)snprintf(path, size, "%s/%s-%08lx.xml", dir, name, h & 0xffffffffUL) >= size)
        return sc_error(SC_ERR_INPUT, "sweep: the output's name is too long");
    if (access(path, R_OK) == 0)
        return SC_OK;
    int n = 0, domains[SC_NDOMAIN_KINDS] = {1, 1, 1};
    sc_err_t err = SC_OK;
    sc_levels_t by_levels;
    if (levels && !(err = sc_levels_parse(levels, &by_levels))) {
        n = by_levels.nodes;
        memcpy(domains, by_levels.domains, sizeof domains);
        cores = by_levels.cores[0] ? by_levels.cores : NULL;
        topology = by_levels.topology[0] ? by_levels.topology : NULL;
    }
    if (!err && nodes)
        err = sc_parse_int(nodes, "nodes", 1, 1 << 20, &n);
    if (!err && sockets)
        err = sc_parse_int(sockets, "sockets", 1, SC_MAX_SOCKETS, &domains[SC_DOMAIN_SOCKET]);
    char setbuf[KEY_MAX], *sets[MAX_SETS];
    int nsets = 0;
    if (!err && set)
        err = sc_study_split_sets(set, setbuf, sets, &nsets);
    return err ? err
               : sc_generate_platform_smpi(plat, net, topology, n, cores, domains, sets, nsets, 0,
                                           path);
}

/* The command line of a point: simcoll's options, and CSV output. */
static int job_args(const study_t *st, const char **value, const char *platform, char **argv,
                    int max)
{
    int n = 0;
    argv[n++] = (char *)"simcoll";
    if (st->programs || st->traces || st->jobs)
        argv[n++] = (char *)"run";
    argv[n++] = (char *)"--platform";
    argv[n++] = (char *)platform;
    for (int a = 0; a < st->naxes && n + 4 < max; a++) {
        const char *k = st->axis[a].key;
        if (!strcmp(k, "platform") || !strcmp(k, "nodes") || !strcmp(k, "cores") ||
            !strcmp(k, "set") || !strcmp(k, "net") || !strcmp(k, "topology") ||
            !strcmp(k, "sockets") || !strcmp(k, "levels") || !strcmp(k, "program") ||
            !strcmp(k, "trace"))
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
    if (st->programs || st->traces)
        argv[n++] = (char *)sc_study_value(st, value, st->programs ? "program" : "trace");
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

/* Whether point `index` checks its platform's assumed parameters: the
 * first point of each platform in the study's order, whose other axes all
 * take their first value (the others only say whether they use one), so
 * that --jobs and a resumed sweep check the same points as one run. */
static int checks_platform(const study_t *st, long index)
{
    static const char *const shape[] = {"platform", "nodes", "cores", "set", "net",
                                        "topology", "sockets", "levels", NULL};
    for (int a = st->naxes - 1; a >= 0; a--) {
        long digit = index % st->axis[a].nvalues;
        index /= st->axis[a].nvalues;
        int of_platform = 0;
        for (int k = 0; shape[k] && !of_platform; k++)
            of_platform = !strcmp(st->axis[a].key, shape[k]);
        if (digit && !of_platform)
            return 0;
    }
    return 1;
}

/* The line a point's child ends its stderr with: what its check of the
 * assumed parameters found (the assumed column). */
#define ASSUMED_LINE "simcoll sweep: assumed="

static sc_err_t start_job(const study_t *st, long index, const char *dir, job_t *job)
{
    const char *value[MAX_AXES];
    sc_study_point(st, index, value);
    static char platform[4096];
    sc_err_t err = platform_of(st, value, dir, platform, sizeof platform);
    int check = checks_platform(st, index);
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
        char *argv[2 * MAX_AXES + 10];
        int argc = job_args(st, value, platform, argv, 2 * MAX_AXES + 10);
        /* The point runs in this child as `simcoll run` or the collective
         * run would, straight through their entry functions. */
        sc_error_clear();
        sc_assumed_skip = !check;
        int runs = st->programs || st->traces || st->jobs;
        int code = sc_cli_finish(runs ? sc_cli_run_program(argc, argv)
                                      : sc_cli_collective(argc, argv));
        if (code == 0)
            fprintf(stderr, ASSUMED_LINE "%s\n",
                    sc_assumed_found[0] ? sc_assumed_found
                    : sc_assumed_unchecked ? "not checked"
                                           : "");
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

/* Why a point failed: the first line of what it printed on stderr,
 * without "simcoll: " (the message a user acts on), or `none`. */
static const char *failure(const job_t *job, const char *none, int *len)
{
    const char *msg = job->errbuf ? job->errbuf : none;
    if (!strncmp(msg, "simcoll: ", 9))
        msg += 9;
    *len = (int)strcspn(msg, "\n");
    return msg;
}

/* The first n bytes of s as a quoted CSV field, quotes doubled. */
static void put_quoted(FILE *f, const char *s, size_t n)
{
    fputc('"', f);
    for (size_t i = 0; i < n; i++)
        fputs(s[i] == '"' ? "\"\"" : (char[]){s[i], 0}, f);
    fputc('"', f);
}

/* The row of a finished point: key, status, the point's value of each
 * axis, and the run's CSV row (or empty fields), as one line. */
static char *job_row(const study_t *st, const job_t *job, int code)
{
    char key[KEY_MAX], *row = NULL;
    size_t len = 0;
    const char *value[MAX_AXES];
    sc_study_key(st, job->index, key, sizeof key);
    sc_study_point(st, job->index, value);
    FILE *f = open_memstream(&row, &len);
    if (!f)
        return NULL;
    put_quoted(f, key, strlen(key));
    fputc(',', f);
    const char *data = job->outbuf ? strchr(job->outbuf, '\n') : NULL;
    int ok = code == 0 && data && data[1];
    if (ok) {
        fputs("ok", f);
    } else {
        int msg_len;
        const char *msg = failure(job, "the run printed no row", &msg_len);
        put_quoted(f, msg, (size_t)msg_len);
    }
    for (int a = 0; a < st->naxes; a++) {
        fputc(',', f);
        if (strpbrk(value[a], ",\"\r\n"))
            put_quoted(f, value[a], strlen(value[a]));
        else
            fputs(value[a], f);
    }
    if (ok) {
        sc_study_put_kept(f, st, data + 1);
    } else {
        for (int i = 0; i < st->kept_columns; i++)
            fputc(',', f);
    }
    fputc(',', f);
    const char *assumed = job->errbuf ? strstr(job->errbuf, ASSUMED_LINE) : NULL;
    if (ok && assumed) {
        assumed += strlen(ASSUMED_LINE);
        size_t n = strcspn(assumed, "\n");
        if (n)
            put_quoted(f, assumed, n);
    }
    fputc('\n', f);
    if (fclose(f) != 0) {
        free(row);
        return NULL;
    }
    return row;
}

static double since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* "1h05m", "3m20s", "12s": what a person reads at a glance. */
static void format_left(double seconds, char *out, size_t size)
{
    long s = (long)(seconds + 0.5);
    if (s >= 3600)
        snprintf(out, size, "%ldh%02ldm", s / 3600, s / 60 % 60);
    else if (s >= 60)
        snprintf(out, size, "%ldm%02lds", s / 60, s % 60);
    else
        snprintf(out, size, "%lds", s);
}

/* Progress on stderr: a bar redrawn in place on a terminal, else a line
 * per finished point; a point that failed says why, as its row does. */
static void progress(int terminal, long finished, long total, long failed, const char *key,
                     const job_t *job, int code, double took, double elapsed)
{
    char left[32];
    int len;
    const char *why = failure(job, "the run printed no row", &len);
    format_left(elapsed / (double)finished * (double)(total - finished), left, sizeof left);
    if (!terminal) {
        fprintf(stderr, "sweep: [%ld/%ld] %s: %s (%.1f s), %s left%s%.*s\n", finished, total, key,
                code ? "failed" : "ok", took, left, code ? ": " : "", code ? len : 0, why);
        return;
    }
    if (code) /* above the bar, which is redrawn below it */
        fprintf(stderr, "\r\033[Ksweep: %s: failed: %.*s\n", key, len, why);
    char bar[41];
    int filled = (int)(40 * finished / total);
    for (int i = 0; i < 40; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[40] = '\0';
    fprintf(stderr, "\rsweep: [%s] %ld/%ld, %ld failed, %s left  ", bar, finished, total, failed,
            left);
    if (finished == total)
        fputc('\n', stderr);
}

/* A point's notes (the assumed parameters its result rests on), each
 * behind its key. */
static void print_notes(int terminal, const char *key, const job_t *job, int code)
{
    for (const char *line = job->errbuf; code == 0 && line && *line;) {
        size_t n = strcspn(line, "\n");
        if (!strncmp(line, "note: ", 6))
            fprintf(stderr, "%snote: %s: %.*s\n", terminal ? "\r\033[K" : "", key,
                    (int)(n - 6), line + 6);
        line += n + (line[n] == '\n');
    }
}

/* Runs the points todo[0..ntodo-1], `parallel` at a time, each row
 * appended to `out` as it ends. */
static sc_err_t run_points(const study_t *st, const long *todo, long ntodo, int parallel,
                           const char *out, const char *dir, long *failed)
{
    int fd = open(out, O_WRONLY | O_APPEND);
    job_t *jobs = calloc((size_t)parallel, sizeof *jobs);
    if (fd < 0 || !jobs) {
        if (fd >= 0)
            close(fd);
        free(jobs);
        return sc_error(SC_ERR_RUN, "sweep -o '%s': cannot append: %s", out, strerror(errno));
    }
    int terminal = isatty(STDERR_FILENO);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long next = 0, finished = 0;
    int running = 0;
    sc_err_t err = SC_OK;
    *failed = 0;
    while (!err && (next < ntodo || running > 0)) {
        for (int j = 0; j < parallel && next < ntodo && !err; j++)
            if (!jobs[j].busy) {
                err = start_job(st, todo[next++], dir, &jobs[j]);
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
            for (int k = 0; k < 2; k++) {
                int *p = k ? &job->err : &job->out;
                if (!job->busy || *p < 0)
                    continue;
                for (int i = 0; i < nfds; i++)
                    if (fds[i].fd == *p && fds[i].revents) {
                        ssize_t n = read(*p, chunk, sizeof chunk);
                        if (n > 0)
                            append(k ? &job->errbuf : &job->outbuf, k ? &job->errlen : &job->outlen,
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
            char *row = job_row(st, job, code);
            if (!row || sc_write_all(fd, row, strlen(row)) != 0)
                err = sc_error(SC_ERR_RUN, "sweep -o '%s': cannot write a row: %s", out,
                               strerror(errno));
            free(row);
            finished++;
            *failed += code != 0;
            char key[KEY_MAX];
            sc_study_key(st, job->index, key, sizeof key);
            progress(terminal, finished, ntodo, *failed, key, job, code, since(&job->start),
                     since(&t0));
            print_notes(terminal, key, job, code);
            free(job->outbuf);
            free(job->errbuf);
            *job = (job_t){0};
            running--;
        }
    }
    close(fd);
    free(jobs);
    return err;
}

/* An absolute form of `path`, which need not exist (its directory must). */
static sc_err_t absolute(const char *path, char *out, size_t size)
{
    char dir[4096], resolved[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    const char *base = slash ? slash + 1 : path;
    if (slash)
        *(slash == dir ? slash + 1 : slash) = '\0';
    if (!realpath(slash ? dir : ".", resolved))
        return sc_error(SC_ERR_INPUT, "sweep: '%s': %s", path, strerror(errno));
    if ((size_t)snprintf(out, size, "%s/%s", strcmp(resolved, "/") ? resolved : "", base) >= size)
        return sc_error(SC_ERR_INPUT, "sweep: '%s': the path is too long", path);
    return SC_OK;
}

/* "SIMCOLL sweep STUDY -o OUT", absolute and shell-quoted: a job's command
 * but its --point, which runs anywhere the files are. */
static sc_err_t job_command(const char *option, const char *study, const char *out,
                            char *command, size_t size)
{
    char self[4096], study_abs[4096], out_abs[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return sc_error(SC_ERR_RUN, "sweep %s: cannot find simcoll's own path: %s", option,
                        strerror(errno));
    self[n] = '\0';
    sc_err_t err = absolute(study, study_abs, sizeof study_abs);
    if (!err)
        err = absolute(out, out_abs, sizeof out_abs);
    char q_self[8300], q_study[8300], q_out[8300];
    if (!err && (sc_shell_quote(self, q_self, sizeof q_self) ||
                 sc_shell_quote(study_abs, q_study, sizeof q_study) ||
                 sc_shell_quote(out_abs, q_out, sizeof q_out) ||
                 (size_t)snprintf(command, size, "%s sweep %s -o %s", q_self, q_study, q_out) >=
                     size))
        err = sc_error(SC_ERR_INPUT, "sweep %s: a path is too long to quote", option);
    return err;
}

/* --jobs: one self-contained command per point OUTPUT does not hold. */
static sc_err_t print_jobs(const char *study, const char *out, const long *todo, long ntodo)
{
    char command[25000];
    sc_err_t err = job_command("--jobs", study, out, command, sizeof command);
    for (long i = 0; !err && i < ntodo; i++)
        printf("%s --point %ld\n", command, todo[i] + 1);
    if (!err && (fflush(stdout) != 0 || ferror(stdout)))
        err = sc_error(SC_ERR_RUN, "sweep --jobs: cannot write the commands: %s",
                       strerror(errno));
    return err;
}

/* The options of `simcoll sweep`. */
typedef struct {
    const char *study, *out;
    int parallel, parallel_given, jobs_mode, merge_mode, the_point;
    int slurm_mode;     /* --slurm */
    const char *sbatch; /* --sbatch ARGS: more options for sbatch */
} sweep_opts_t;

static void print_sweep_usage(void)
{
    fputs("usage: simcoll sweep STUDY [-j N] [-o RESULTS.csv]\n"
          "       simcoll sweep STUDY --jobs [-o RESULTS.csv]\n"
          "       simcoll sweep STUDY --merge [-o RESULTS.csv]\n"
          "       simcoll sweep STUDY --slurm [--sbatch 'OPTIONS'] [-o RESULTS.csv]\n"
          "Runs simcoll at every point of the study's axes (one KEY = VALUE, ... per\n"
          "line: platform, algo, coll, mpi, np, size, mapping, op, type, root, data,\n"
          "set, nodes, cores, sockets, net, topology, levels, payload, program; a\n"
          "value with commas between double quotes), N at a time (-j, --parallel),\n"
          "each row written to RESULTS.csv (default: the study's name with .csv) as\n"
          "it ends: key, status, a column per axis, then the run's; one name a\n"
          "quantity whatever the axes: np, algo, ... are the run's columns, the\n"
          "platform axis's file is template (platform: the run's platform's\n"
          "name), the nodes axis's is platform_nodes (nodes: those the ranks\n"
          "used); in point order once all ran. Run it again after an\n"
          "interruption: it runs only the points RESULTS.csv does not hold.\n"
          "Progress goes to stderr: a bar on a terminal, else a line per point, a\n"
          "failed one with its reason. levels takes simcoll platform --levels's value\n"
          "(core:4,numa:4,socket:2,node:8) in place of nodes, cores, sockets and\n"
          "topology.\n"
          "  --jobs     print one command per missing point instead (for GNU parallel\n"
          "             or a Slurm job array); each runs its point with --point N\n"
          "             into RESULTS.csv.points/N.csv\n"
          "  --merge    append the rows of RESULTS.csv.points/ that RESULTS.csv lacks\n"
          "  --slurm    submit the points RESULTS.csv lacks as a Slurm job array\n"
          "             (sbatch; each task runs its share as --jobs's commands do), wait\n"
          "             for it (squeue) and merge its rows; run it again after an\n"
          "             interruption: it waits for the job it submitted, merges, and\n"
          "             submits only what is still missing. Script, points and logs in\n"
          "             RESULTS.csv.slurm/\n"
          "  --sbatch 'OPTIONS'  more options for sbatch: --sbatch '--partition=short\n"
          "             --time=10'\n",
          stdout);
}

/* Reads argv into *o; sets *done after --help. */
static sc_err_t parse_sweep_opts(int argc, char **argv, sweep_opts_t *o, int *done)
{
    static const struct option longopts[] = {{"parallel", required_argument, NULL, 'j'},
                                             {"output", required_argument, NULL, 'o'},
                                             {"jobs", no_argument, NULL, 'J'},
                                             {"point", required_argument, NULL, 'p'},
                                             {"merge", no_argument, NULL, 'm'},
                                             {"slurm", no_argument, NULL, 'S'},
                                             {"sbatch", required_argument, NULL, 'B'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    int c;
    sc_err_t err = SC_OK;
    *o = (sweep_opts_t){.parallel = 1};
    *done = 0;
    opterr = 0;
    optind = 0;
    char **args = argv + 1;
    int nargs = argc - 1;
    for (int before = 1; !err && (c = getopt_long(nargs, args, ":j:o:", longopts, NULL)) != -1;
         before = optind) {
        switch (c) {
        case 'j':
            o->parallel_given = 1;
            err = sc_parse_int(optarg, "-j", 1, 256, &o->parallel);
            break;
        case 'o': o->out = optarg; break;
        case 'J': o->jobs_mode = 1; break;
        case 'm': o->merge_mode = 1; break;
        case 'S': o->slurm_mode = 1; break;
        case 'B': o->sbatch = optarg; break;
        case 'p': err = sc_parse_int(optarg, "--point", 1, 1 << 30, &o->the_point); break;
        case 'h':
            print_sweep_usage();
            *done = 1;
            return SC_OK;
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
    if (!err && optind + 1 != nargs)
        return sc_error(SC_ERR_INPUT, "sweep needs one study file, e.g. simcoll sweep study.ini "
                                      "-j 2 -o results.csv");
    if (!err && o->jobs_mode + o->merge_mode + (o->the_point > 0) + o->slurm_mode > 1)
        return sc_error(SC_ERR_INPUT, "sweep: give one of --jobs, --merge, --point and --slurm");
    if (!err && o->parallel_given &&
        (o->jobs_mode || o->merge_mode || o->the_point > 0 || o->slurm_mode))
        return sc_error(SC_ERR_INPUT, "sweep: -j runs points here, and --jobs, --merge, --point "
                                      "and --slurm run none or one; leave -j out");
    if (!err && o->sbatch && !o->slurm_mode)
        return sc_error(SC_ERR_INPUT, "sweep: --sbatch gives sbatch's options to --slurm; give "
                                      "--slurm");
    if (!err)
        o->study = args[optind];
    return err;
}

/* RESULTS.csv by default: the study's path, its extension replaced. */
static void default_results(const char *study, char *out, size_t size)
{
    snprintf(out, size, "%s", study);
    char *dot = strrchr(out, '.'), *slash = strrchr(out, '/');
    if (dot && (!slash || dot > slash))
        *dot = '\0';
    strncat(out, ".csv", size - strlen(out) - 1);
}

/* --merge: the rows of the points' files that `out` lacks, and how many of
 * the study's points it then holds (in *holds), with `missing` said when
 * some are not. */
static sc_err_t merge_mode(const study_t *st, long npoints, const char *out, const char *header,
                           char ***done, long *ndone, long *failed_before, const char *missing,
                           long *holds)
{
    long merged = 0, have = 0;
    sc_err_t err = sc_sweep_merge_points(st, npoints, out, header, done, ndone, &merged);
    sc_sweep_free_keys(*done, *ndone);
    *done = NULL;
    *ndone = 0;
    if (!err)
        err = sc_sweep_read_done(out, header, 1, done, ndone, failed_before);
    for (long i = 0; !err && i < npoints; i++) {
        char key[KEY_MAX];
        sc_study_key(st, i, key, sizeof key);
        have += sc_sweep_has_key(*done, *ndone, key);
    }
    if (!err)
        fprintf(stderr, "sweep: merged %ld rows into %s; it holds %ld of %ld points%s\n",
                merged, out, have, npoints, have < npoints ? missing : "");
    *holds = have;
    return err;
}

/* --point N: one point, into its own file (a job of --jobs), unless that
 * file holds it already. */
static sc_err_t point_mode(const study_t *st, int the_point, const long *todo, long ntodo,
                           const char *point_out, const char *header, const char *dir,
                           long *failed)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/%d.csv", point_out, the_point);
    char **pdone = NULL;
    long npdone = 0, pfailed = 0;
    sc_err_t err = sc_sweep_read_done(path, header, 1, &pdone, &npdone, &pfailed);
    int already = !err && npdone > 0;
    sc_sweep_free_keys(pdone, npdone);
    if (!err && ntodo && !already)
        err = run_points(st, todo, ntodo, 1, path, dir, failed);
    else if (!err)
        fprintf(stderr, "sweep: point %d is already done\n", the_point);
    return err;
}

/* The points still to run (--point: that one), those `done` lacks. */
static sc_err_t points_to_run(const study_t *st, long npoints, int the_point, char **done,
                              long ndone, long **todo, long *ntodo)
{
    *ntodo = 0;
    if (!(*todo = malloc((size_t)npoints * sizeof **todo)))
        return sc_error(SC_ERR_RUN, "out of memory");
    for (long i = 0; i < npoints; i++) {
        char key[KEY_MAX];
        sc_study_key(st, i, key, sizeof key);
        if ((!the_point || i == the_point - 1) && !sc_sweep_has_key(done, ndone, key))
            (*todo)[(*ntodo)++] = i;
    }
    return SC_OK;
}

/* --slurm: the points OUTPUT lacks as a Slurm job array, waited for and
 * merged. A rerun first waits for the job an interrupted run submitted and
 * merges its rows, then submits only the points still missing. */
static sc_err_t slurm_mode(const study_t *st, const sweep_opts_t *o, long npoints, const char *out,
                           const char *header, char ***done, long *ndone, long *failed_before)
{
    long have = 0, *todo = NULL, ntodo = 0;
    char command[25000];
    sc_err_t err = job_command("--slurm", o->study, out, command, sizeof command);
    if (!err)
        err = sc_sweep_slurm_wait(out);
    if (!err)
        err = merge_mode(st, npoints, out, header, done, ndone, failed_before, ", to submit",
                         &have);
    if (!err)
        err = points_to_run(st, npoints, 0, *done, *ndone, &todo, &ntodo);
    if (!err && ntodo)
        err = sc_sweep_slurm_run(out, command, todo, ntodo, o->sbatch);
    if (!err && ntodo)
        err = merge_mode(st, npoints, out, header, done, ndone, failed_before, "", &have);
    if (!err && have < npoints)
        err = sc_error(SC_ERR_RUN,
                       "sweep --slurm: %ld of %ld points have no row: their tasks did not end "
                       "(their logs are in %s.slurm/); run the sweep again to submit them",
                       npoints - have, npoints, out);
    free(todo);
    return err;
}

int sc_cli_sweep(int argc, char **argv)
{
    sweep_opts_t o;
    int help;
    study_t st = {0};
    sc_err_t err = parse_sweep_opts(argc, argv, &o, &help);
    if (!err && help)
        return 0;
    if (err || (err = sc_study_read(o.study, &st)))
        return sc_cli_fail(err);
    long npoints = 1;
    for (int a = 0; a < st.naxes; a++)
        npoints *= st.axis[a].nvalues;
    char default_out[4096], header[4096], dir[4200], point_out[4300];
    const char *out = o.out;
    if (!out) {
        default_results(o.study, default_out, sizeof default_out);
        out = default_out;
    }
    if (o.the_point > npoints)
        err = sc_error(SC_ERR_INPUT, "--point %d: the study has points 1 to %ld", o.the_point,
                       npoints);
    /* Before anything is written; a job's --point and --merge come after
     * --jobs, which checked them. */
    if (!err && !o.the_point && !o.merge_mode)
        err = sc_study_check_files(o.study, &st);
    const char *body = st.programs ? sc_program_report_csv_header()
                       : st.traces ? sc_trace_report_csv_header()
                       : st.jobs   ? sc_jobs_report_csv_header()
                                   : sc_report_csv_header();
    sc_study_header(&st, body, header, sizeof header);
    snprintf(dir, sizeof dir, "%s.platforms", out);
    snprintf(point_out, sizeof point_out, "%s.points", out);
    char **done = NULL;
    long ndone = 0, failed_before = 0;
    if (!err)
        err = sc_sweep_read_done(out, header, !o.jobs_mode, &done, &ndone, &failed_before);
    if (!err && !o.jobs_mode && mkdir(dir, 0755) != 0 && errno != EEXIST)
        err = sc_error(SC_ERR_RUN, "sweep: cannot make %s: %s", dir, strerror(errno));
    if (!err && (o.jobs_mode || o.the_point) && mkdir(point_out, 0755) != 0 && errno != EEXIST)
        err = sc_error(SC_ERR_RUN, "sweep: cannot make %s: %s", point_out, strerror(errno));
    long *todo = NULL, ntodo = 0, failed = 0;
    if (!err)
        err = points_to_run(&st, npoints, o.the_point, done, ndone, &todo, &ntodo);
    if (!err && o.jobs_mode) {
        err = print_jobs(o.study, out, todo, ntodo);
        if (!err)
            fprintf(stderr, "sweep: %ld points, %ld already in %s, %ld commands printed\n",
                    npoints, npoints - ntodo, out, ntodo);
    } else if (!err && o.merge_mode) {
        long have;
        err = merge_mode(&st, npoints, out, header, &done, &ndone, &failed_before,
                         " (run the missing jobs, or the sweep, then merge again)", &have);
    } else if (!err && o.slurm_mode) {
        err = slurm_mode(&st, &o, npoints, out, header, &done, &ndone, &failed_before);
    } else if (!err && o.the_point) {
        err = point_mode(&st, o.the_point, todo, ntodo, point_out, header, dir, &failed);
    } else if (!err) {
        fprintf(stderr, "sweep: %ld points, %ld already in %s, %ld to run\n", npoints,
                npoints - ntodo, out, ntodo);
        err = run_points(&st, todo, ntodo, o.parallel, out, dir, &failed);
    }
    if (!err && !o.jobs_mode && !o.the_point)
        err = sc_sweep_sort_rows(&st, out, strlen(header));
    sc_sweep_free_keys(done, ndone);
    free(todo);
    free(st.text);
    if (!err && !o.jobs_mode && failed + failed_before)
        err = sc_error(SC_ERR_RUN, "sweep: %ld of %ld points failed (status column of %s)",
                       failed + failed_before, npoints, out);
    return err ? sc_cli_fail(err) : 0;
}
