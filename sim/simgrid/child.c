/* Running SimGrid in a child process, and the byte buffers that carry
 * its results back.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sim/simgrid/child.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/sc_cleanup.h"
#include "sim/io/files.h"

void sc_wire_put(sc_wire_t *w, const void *src, size_t n)
{
    if (w->failed || n == 0) /* an empty buffer's data is NULL: no memcpy from it */
        return;
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap : 256;
        while (cap < w->len + n)
            cap *= 2;
        char *data = realloc(w->data, cap);
        if (!data) {
            w->failed = 1;
            return;
        }
        w->data = data;
        w->cap = cap;
    }
    memcpy(w->data + w->len, src, n);
    w->len += n;
}

void sc_wire_put_int(sc_wire_t *w, int v)
{
    sc_wire_put(w, &v, sizeof v);
}

void sc_wire_put_double(sc_wire_t *w, double v)
{
    sc_wire_put(w, &v, sizeof v);
}

void sc_wire_put_str(sc_wire_t *w, const char *s)
{
    int n = (int)strlen(s);
    sc_wire_put_int(w, n);
    sc_wire_put(w, s, (size_t)n);
}

int sc_wire_get(sc_wire_t *w, void *dst, size_t n)
{
    if (w->pos + n > w->len)
        return 0;
    memcpy(dst, w->data + w->pos, n);
    w->pos += n;
    return 1;
}

int sc_wire_get_int(sc_wire_t *w, int *v)
{
    return sc_wire_get(w, v, sizeof *v);
}

int sc_wire_get_double(sc_wire_t *w, double *v)
{
    return sc_wire_get(w, v, sizeof *v);
}

char *sc_wire_get_str(sc_wire_t *w)
{
    int n;
    if (!sc_wire_get_int(w, &n) || n < 0 || w->pos + (size_t)n > w->len)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s)
        return NULL;
    sc_wire_get(w, s, (size_t)n);
    s[n] = '\0';
    return s;
}

void sc_wire_free(sc_wire_t *w)
{
    free(w->data);
    memset(w, 0, sizeof *w);
}

/* Reads fd to end of file into w. */
static int read_all(int fd, sc_wire_t *w)
{
    char chunk[65536];
    for (;;) {
        ssize_t k = read(fd, chunk, sizeof chunk);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return -1;
        if (k == 0)
            return w->failed ? -1 : 0;
        sc_wire_put(w, chunk, (size_t)k);
    }
}

/* The step the child announced last (sc_child_step), in memory it shares
 * with the parent, which reads it if the child dies: writing each step to
 * a file cost a system call, and a platform of 131,072 nodes has its
 * routes checked one step each (engine.c), 262,144 writes. */
enum { STEP_ROOM = 256 };
static char *child_step;

void sc_child_step(const char *fmt, ...)
{
    if (!child_step)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(child_step, STEP_ROOM, fmt, ap);
    va_end(ap);
}

void sc_simgrid_reason(const char *log, char *out, size_t outlen)
{
    out[0] = '\0';
    for (const char *line = log; line && *line;) {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        /* SimGrid lines look like "[0.000] file:95: [cat/ERROR] message". */
        const char *tag = strstr(line, "/ERROR] ");
        if (!tag || tag > line + len)
            tag = strstr(line, "/CRITICAL] ");
        if (tag && tag < line + len) {
            const char *msg = strchr(tag, ']') + 2;
            size_t n = len - (size_t)(msg - line);
            static const char uncaught[] = "Uncaught exception ";
            if (n >= sizeof uncaught - 1 && !strncmp(msg, uncaught, sizeof uncaught - 1)) {
                msg += sizeof uncaught - 1;
                n -= sizeof uncaught - 1;
            }
            static const char exiting[] = "Exiting now.", backtrace[] = "Current backtrace";
            int noise = (n == sizeof exiting - 1 && !strncmp(msg, exiting, n)) ||
                        !strncmp(msg, backtrace, sizeof backtrace - 1);
            if (!noise) {
                if (n >= outlen)
                    n = outlen - 1;
                memcpy(out, msg, n);
                out[n] = '\0';
                return;
            }
        }
        line = eol ? eol + 1 : NULL;
    }
}

#ifdef SC_SANITIZE
/* A sanitizer's report in a child would die with the child's log: copy it
 * to our stderr, where the tests' output shows it. */
static int surface_sanitizer_reports(FILE *log)
{
    long size = ftell(log);
    if (size <= 0)
        return 0;
    char *text = calloc((size_t)size + 1, 1);
    if (!text)
        return 0;
    rewind(log);
    size_t got = fread(text, 1, (size_t)size, log);
    text[got] = '\0';
    fseek(log, size, SEEK_SET);
    static const char *const markers[] = {"runtime error:", "ERROR: AddressSanitizer",
                                          "ERROR: LeakSanitizer", "UndefinedBehaviorSanitizer"};
    int found = 0;
    for (size_t i = 0; i < sizeof markers / sizeof markers[0] && !found; i++)
        found = strstr(text, markers[i]) != NULL;
    if (found) {
        fputs("simcoll: a sanitizer reported in a simulation child:\n", stderr);
        fputs(text, stderr);
    }
    free(text);
    return found;
}
#else
static int surface_sanitizer_reports(FILE *log)
{
    (void)log;
    return 0;
}
#endif

/* Wire status byte sent first by the child. */
enum { CHILD_OK = 0, CHILD_FAILED = 1 };

static void child_main(sc_child_fn fn, void *arg, int out_fd, FILE *log, char *step)
{
    child_step = step;
    dup2(fileno(log), STDERR_FILENO);
    sc_wire_t out = {0};
    sc_err_t err = fn(arg, &out);
    sc_wire_t reply = {0};
    char status = err ? CHILD_FAILED : CHILD_OK;
    sc_wire_put(&reply, &status, 1);
    if (err) {
        sc_wire_put_int(&reply, err);
        sc_wire_put_str(&reply, sc_error_message());
    } else {
        sc_wire_put(&reply, out.data, out.len);
    }
    int bad = out.failed || reply.failed || sc_write_all(out_fd, reply.data, reply.len);
    /* _exit: the parent's atexit handlers and stdio buffers are not ours. */
    _exit(bad ? 3 : 0);
}

sc_err_t sc_child_run(sc_child_fn fn, void *arg, sc_err_t crash_code,
                      const char *what, sc_wire_t *in)
{
    int fds[2];
    FILE *log = tmpfile();
    char *step = mmap(NULL, STEP_ROOM, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (!log || step == MAP_FAILED || pipe(fds) != 0) {
        sc_err_t err =
            sc_error(SC_ERR_RUN, "%s: cannot prepare a child process: %s", what, strerror(errno));
        if (log)
            fclose(log);
        if (step != MAP_FAILED)
            munmap(step, STEP_ROOM);
        return err;
    }
    step[0] = '\0';
    fflush(stdout);
    fflush(stderr);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        fclose(log);
        return sc_error(SC_ERR_RUN, "%s: cannot fork: %s", what, strerror(errno));
    }
    if (pid == 0) {
        sc_cleanup_in_child(parent);
        close(fds[0]);
        child_main(fn, arg, fds[1], log, step);
    }
    sc_cleanup_set_child(pid);
    close(fds[1]);
    memset(in, 0, sizeof *in);
    int read_failed = read_all(fds[0], in);
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    sc_cleanup_set_child(0);
    int sanitizer_report = surface_sanitizer_reports(log);

    sc_err_t result = SC_OK;
    char st = CHILD_FAILED;
    if (!read_failed && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
        sc_wire_get(in, &st, 1)) {
        if (st != CHILD_OK) {
            int code = SC_ERR_RUN;
            sc_wire_get_int(in, &code);
            char *msg = sc_wire_get_str(in);
            result = sc_error((sc_err_t)code, "%s", msg ? msg : "(no message)");
            free(msg);
            sc_wire_free(in);
        }
    } else {
        /* The child died: say what it was doing and what SimGrid said. */
        long size = ftell(log);
        char *text = calloc((size_t)(size > 0 ? size : 0) + 1, 1);
        if (text && size > 0) {
            rewind(log);
            size_t got = fread(text, 1, (size_t)size, log);
            text[got] = '\0';
        }
        char reason[512];
        sc_simgrid_reason(text ? text : "", reason, sizeof reason);
        step[STEP_ROOM - 1] = '\0'; /* whatever the child was writing */
        if (!reason[0]) {
            if (WIFSIGNALED(status))
                snprintf(reason, sizeof reason, "the process died of signal %d (%s)",
                         WTERMSIG(status), strsignal(WTERMSIG(status)));
            else
                snprintf(reason, sizeof reason, "the process exited with status %d",
                         WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        }
        result = sc_error(crash_code, "%s%s%s: %s", what, step[0] ? " while " : "", step,
                          reason);
        free(text);
        sc_wire_free(in);
    }
    if (sanitizer_report) { /* whatever else happened, that is the news */
        sc_wire_free(in);
        result = sc_error(SC_ERR_RUN, "%s: a sanitizer reported an error (above)", what);
    }
    fclose(log);
    munmap(step, STEP_ROOM);
    return result;
}
