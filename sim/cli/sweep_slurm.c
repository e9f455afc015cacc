/* simcoll sweep --slurm (sweep_slurm.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sweep_slurm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "args.h"
#include "sim/io/files.h"

/* Slurm's default MaxArraySize is 1001: array indices 1 to 1000. More
 * points than tasks run several a task. */
enum { MOST_TASKS = 1000, MAX_ARGS = 64 };
/* How often squeue is asked whether the job still runs, in seconds. */
enum { POLL_SECONDS = 2 };

/* What a child that could not run its command prints first. */
static const char cannot_run[] = "\001cannot run\001";

/* Runs argv[0] (found on PATH) and keeps what it printed, stdout and
 * stderr together, in out; *status its exit code (-1: it could not run,
 * out then says why). */
static sc_err_t run(char *const argv[], char *out, size_t size, int *status)
{
    int fd[2];
    if (pipe(fd) != 0)
        return sc_error(SC_ERR_RUN, "sweep --slurm: cannot make a pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]), close(fd[1]);
        return sc_error(SC_ERR_RUN, "sweep --slurm: cannot start %s: %s", argv[0], strerror(errno));
    }
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        dup2(fd[1], STDERR_FILENO);
        close(fd[0]), close(fd[1]);
        execvp(argv[0], argv);
        printf("%s%s", cannot_run, strerror(errno));
        fflush(stdout);
        _exit(127);
    }
    close(fd[1]);
    size_t n = 0;
    for (ssize_t got; n + 1 < size && (got = read(fd[0], out + n, size - n - 1)) != 0;)
        if (got > 0)
            n += (size_t)got;
        else if (errno != EINTR)
            break;
    out[n] = '\0';
    char rest[256]; /* what did not fit: read, so that the child can end */
    while (read(fd[0], rest, sizeof rest) > 0)
        ;
    close(fd[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (!strncmp(out, cannot_run, strlen(cannot_run))) {
        memmove(out, out + strlen(cannot_run), strlen(out + strlen(cannot_run)) + 1);
        *status = -1;
    }
    return SC_OK;
}

/* Which of the job's tasks are left, by squeue: *left of them (0 once it
 * ended: squeue lists it no more, or no longer knows its id). */
static sc_err_t tasks_left(const char *job, int *left)
{
    char output[65536], id[32];
    snprintf(id, sizeof id, "%s", job);
    char *argv[] = {"squeue", "-h", "-r", "-o", "%i", "-j", id, NULL};
    int status;
    sc_err_t err = run(argv, output, sizeof output, &status);
    if (err)
        return err;
    if (status < 0)
        return sc_error(SC_ERR_INPUT,
                        "sweep --slurm: cannot run squeue (%s): run the sweep where Slurm's "
                        "commands are, or use --jobs",
                        output);
    if (status != 0 && strstr(output, "Invalid job id")) {
        *left = 0;
        return SC_OK;
    }
    if (status != 0)
        return sc_error(SC_ERR_RUN,
                        "sweep --slurm: squeue -j %s failed: %.300s; job %s may still run: run "
                        "the sweep again to wait for it and merge its rows",
                        job, output, job);
    /* a line a task, "123_4"; anything else is not a task */
    *left = 0;
    for (const char *line = output; *line;) {
        *left += *line >= '0' && *line <= '9';
        line += strcspn(line, "\n");
        line += *line == '\n';
    }
    return SC_OK;
}

/* Waits until job's tasks have all ended, saying how many are left (of
 * `tasks`, if known: not 0) as that changes. */
static sc_err_t wait_for(const char *job, long tasks)
{
    int left = 0, said = -1;
    sc_err_t err = SC_OK;
    while (!(err = tasks_left(job, &left)) && left > 0) {
        if (left != said && tasks)
            fprintf(stderr, "sweep: Slurm job %s: %d of %ld tasks left\n", job, left, tasks);
        else if (left != said)
            fprintf(stderr, "sweep: Slurm job %s: %d tasks left\n", job, left);
        said = left;
        sleep(POLL_SECONDS);
    }
    return err;
}

/* OUT.slurm/NAME into path. */
static sc_err_t in_dir(const char *out, const char *name, char *path, size_t size)
{
    if ((size_t)snprintf(path, size, "%s.slurm/%s", out, name) >= size)
        return sc_error(SC_ERR_INPUT, "sweep --slurm: the output's name is too long");
    return SC_OK;
}

sc_err_t sc_sweep_slurm_wait(const char *out)
{
    char path[4200], job[64] = "";
    sc_err_t err = in_dir(out, "job-id", path, sizeof path);
    FILE *f = err ? NULL : fopen(path, "r");
    if (!f)
        return err;
    int read_ok = fscanf(f, "%63s", job) == 1;
    fclose(f);
    if (read_ok) {
        fprintf(stderr, "sweep: waiting for Slurm job %s, which an earlier run submitted\n", job);
        err = wait_for(job, 0);
    }
    if (!err)
        remove(path);
    return err;
}

/* The job's script: task i runs lines (i-1)k+1 to ik of the points file,
 * each with `command --point N`. */
static sc_err_t write_script(const char *path, const char *points, const char *command, long k)
{
    char quoted[8300];
    if (sc_shell_quote(points, quoted, sizeof quoted))
        return sc_error(SC_ERR_INPUT, "sweep --slurm: a path is too long to quote");
    sc_outputs_t *outs;
    FILE *f;
    sc_err_t err = sc_output_open("--slurm", path, &outs, &f);
    if (err)
        return err;
    fprintf(f,
            "#!/bin/sh\n"
            "# simcoll sweep --slurm: task i of the array runs lines (i-1)k+1 to ik of the\n"
            "# points file, each point's row into the sweep's .points folder.\n"
            "k=%ld\n"
            "first=$(( (SLURM_ARRAY_TASK_ID - 1) * k + 1 ))\n"
            "status=0\n"
            "for n in $(sed -n \"${first},$((first + k - 1))p\" %s); do\n"
            "    %s --point \"$n\" || status=1\n"
            "done\n"
            "exit $status\n",
            k, quoted, command);
    err = sc_outputs_commit(outs);
    if (!err && chmod(path, 0755) != 0)
        err = sc_error(SC_ERR_RUN, "sweep --slurm: cannot make %s executable: %s", path,
                       strerror(errno));
    return err;
}

static sc_err_t write_points(const char *path, const long *todo, long ntodo)
{
    sc_outputs_t *outs;
    FILE *f;
    sc_err_t err = sc_output_open("--slurm", path, &outs, &f);
    if (err)
        return err;
    for (long i = 0; i < ntodo; i++)
        fprintf(f, "%ld\n", todo[i] + 1);
    return sc_outputs_commit(outs);
}

sc_err_t sc_sweep_slurm_run(const char *out, const char *command, const long *todo, long ntodo,
                            const char *sbatch_args)
{
    char dir[4200], script[4300], points[4300], logs[4300], idpath[4300];
    snprintf(dir, sizeof dir, "%s.slurm", out);
    sc_err_t err = SC_OK;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return sc_error(SC_ERR_INPUT, "sweep --slurm: cannot make %s: %s", dir, strerror(errno));
    if ((err = in_dir(out, "job.sh", script, sizeof script)) ||
        (err = in_dir(out, "points.txt", points, sizeof points)) ||
        (err = in_dir(out, "%A_%a.log", logs, sizeof logs)) ||
        (err = in_dir(out, "job-id", idpath, sizeof idpath)))
        return err;
    long k = (ntodo + MOST_TASKS - 1) / MOST_TASKS, tasks = (ntodo + k - 1) / k;
    if ((err = write_points(points, todo, ntodo)) ||
        (err = write_script(script, points, command, k)))
        return err;
    char array[64], output[4400], extra[4096] = "";
    snprintf(array, sizeof array, "--array=1-%ld", tasks);
    snprintf(output, sizeof output, "--output=%s", logs);
    char *argv[MAX_ARGS + 8] = {"sbatch", "--parsable", "--job-name=simcoll-sweep", array, output};
    int argc = 5;
    if (sbatch_args)
        snprintf(extra, sizeof extra, "%s", sbatch_args);
    for (char *save = NULL, *w = strtok_r(extra, " \t", &save); w;
         w = strtok_r(NULL, " \t", &save)) {
        if (argc == MAX_ARGS)
            return sc_error(SC_ERR_INPUT, "--sbatch: more than %d options", MAX_ARGS - 5);
        argv[argc++] = w;
    }
    argv[argc++] = script;
    argv[argc] = NULL;
    char said[65536];
    int status;
    if ((err = run(argv, said, sizeof said, &status)))
        return err;
    if (status < 0)
        return sc_error(SC_ERR_INPUT,
                        "sweep --slurm: cannot run sbatch (%s): run the sweep where Slurm's "
                        "commands are, or use --jobs",
                        said);
    /* --parsable: "JOBID" or "JOBID;CLUSTER" */
    char job[64];
    size_t digits = strspn(said, "0123456789");
    if (status != 0 || digits == 0 || digits >= sizeof job)
        return sc_error(SC_ERR_RUN, "sweep --slurm: sbatch refused the job: %.500s", said);
    snprintf(job, sizeof job, "%.*s", (int)digits, said);
    FILE *f = fopen(idpath, "w");
    if (!f || fprintf(f, "%s\n", job) < 0 || fclose(f) != 0)
        return sc_error(SC_ERR_RUN,
                        "sweep --slurm: cannot write %s (job %s runs: scancel it, or wait for "
                        "it and run simcoll sweep --merge)",
                        idpath, job);
    fprintf(stderr,
            "sweep: %ld points submitted as Slurm job %s, %ld array tasks; waiting (logs in %s; "
            "if interrupted, run the sweep again to wait for it and merge)\n",
            ntodo, job, tasks, dir);
    err = wait_for(job, tasks);
    if (!err)
        remove(idpath);
    return err;
}
