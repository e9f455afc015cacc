/* Files users give and get: inputs that cannot block or crash a run, and
 * outputs that appear whole or not at all.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/sc_cleanup.h"

sc_err_t sc_input_read(const char *what, const char *path, size_t max_bytes, char **data,
                       size_t *len)
{
    *data = NULL;
    *len = 0;
    /* O_NONBLOCK: opening a FIFO for reading would wait for a writer. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return sc_error(SC_ERR_INPUT, "%s: cannot read it: %s", what, strerror(errno));
    struct stat st;
    sc_err_t err = SC_OK;
    if (fstat(fd, &st) != 0)
        err = sc_error(SC_ERR_INPUT, "%s: cannot read it: %s", what, strerror(errno));
    else if (S_ISDIR(st.st_mode))
        err = sc_error(SC_ERR_INPUT, "%s: is a directory; give a file", what);
    else if (!S_ISREG(st.st_mode))
        err = sc_error(SC_ERR_INPUT,
                       "%s: not a regular file (a FIFO, socket or device); "
                       "give a file",
                       what);
    else if ((unsigned long long)st.st_size > max_bytes)
        err = sc_error(SC_ERR_INPUT,
                       "%s: %lld bytes is more than the %zu bytes simcoll reads "
                       "from such a file",
                       what, (long long)st.st_size, max_bytes);
    size_t cap = err ? 0 : (size_t)st.st_size + 1;
    char *buf = err ? NULL : malloc(cap);
    if (!err && !buf)
        err = sc_error(SC_ERR_RUN, "%s: out of memory reading it", what);
    size_t n = 0;
    /* Read to end of file, not to st_size: the file may be growing (or be
     * one of /proc's, whose size is 0), but never past max_bytes. */
    while (!err) {
        if (n + 1 == cap) {
            if (cap > max_bytes) {
                err = sc_error(SC_ERR_INPUT,
                               "%s: more than the %zu bytes simcoll reads from "
                               "such a file",
                               what, max_bytes);
                break;
            }
            size_t grown = cap * 2 > max_bytes + 1 ? max_bytes + 2 : cap * 2;
            char *bigger = realloc(buf, grown);
            if (!bigger) {
                err = sc_error(SC_ERR_RUN, "%s: out of memory reading it", what);
                break;
            }
            buf = bigger;
            cap = grown;
        }
        ssize_t k = read(fd, buf + n, cap - 1 - n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            err = sc_error(SC_ERR_INPUT, "%s: cannot read it: %s", what, strerror(errno));
        else if (k == 0)
            break;
        else
            n += (size_t)k;
    }
    close(fd);
    if (err) {
        free(buf);
        return err;
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return SC_OK;
}

sc_err_t sc_input_file(const char *option, const char *path, size_t max_bytes, char **data,
                       size_t *len)
{
    char what[1100]; /* longer than any message (sc_error keeps 1023 bytes) */
    if (option && *option)
        snprintf(what, sizeof what, "%s '%s'", option, path);
    else
        snprintf(what, sizeof what, "'%s'", path);
    return sc_input_read(what, path, max_bytes, data, len);
}

/* One output: a temporary file renamed over `target`, or (direct) a
 * memory buffer written into a target that is not a regular file. */
typedef struct {
    const char *option;
    char target[PATH_MAX];
    char tmp[PATH_MAX + 64];
    int cleanup; /* sc_cleanup handle of tmp */
    int direct;
    dev_t dev; /* of the target, when it exists */
    ino_t ino;
    FILE *f;
    char *mem; /* direct: what was written */
    size_t mem_len;
} output_t;

enum { MAX_OUTPUTS = 8 };

struct sc_outputs {
    int n;
    output_t out[MAX_OUTPUTS];
};

sc_outputs_t *sc_outputs_new(void)
{
    return calloc(1, sizeof(sc_outputs_t));
}

/* Splits path into its directory ("." if none) and base name. */
static void split_path(const char *path, char *dir, size_t dirlen, const char **base)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(dir, dirlen, ".");
        *base = path;
    } else {
        snprintf(dir, dirlen, "%.*s", slash == path ? 1 : (int)(slash - path), path);
        *base = slash + 1;
    }
}

/* Removes temporary files ".BASE.PID.simcoll-tmp" in dir whose process is
 * gone: a run killed with SIGKILL cannot remove its own. */
static void remove_stale(const char *dir, const char *base)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t blen = strlen(base);
    static const char suffix[] = ".simcoll-tmp";
    for (struct dirent *e; (e = readdir(d));) {
        const char *name = e->d_name;
        size_t n = strlen(name);
        if (name[0] != '.' || strncmp(name + 1, base, blen) != 0 || name[1 + blen] != '.' ||
            n <= blen + 2 + sizeof suffix - 1 ||
            strcmp(name + n - (sizeof suffix - 1), suffix) != 0)
            continue;
        char *end;
        long pid = strtol(name + blen + 2, &end, 10);
        if (end != name + n - (sizeof suffix - 1) || pid <= 0)
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* still running, or not ours to judge */
        char stale[PATH_MAX + 300];
        snprintf(stale, sizeof stale, "%s/%s", dir, name);
        unlink(stale);
    }
    closedir(d);
}

/* Where a file a command names really is, to tell whether two names are
 * one file: an existing file by its device and inode, a file still to be
 * made by its directory's real path and its name. */
typedef struct {
    int exists, shared; /* shared: not a regular file, or under /dev or /proc */
    dev_t dev;
    ino_t ino;
    char dir[PATH_MAX];
    const char *base;
} file_id_t;

/* A dangling symbolic link's target (made relative to the link's
 * directory), which an output writes through; else path itself. */
static const char *through_link(const char *path, char *buf, size_t len)
{
    struct stat st;
    char link[PATH_MAX];
    ssize_t n;
    if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode) ||
        (n = readlink(path, link, sizeof link - 1)) <= 0)
        return path;
    link[n] = '\0';
    const char *slash = strrchr(path, '/');
    int written = link[0] == '/' || !slash
                      ? snprintf(buf, len, "%s", link)
                      : snprintf(buf, len, "%.*s/%s", (int)(slash - path), path, link);
    return written > 0 && (size_t)written < len ? buf : path;
}

/* Fills *id; -1 (errno set) if the file's directory cannot be resolved. */
static int identify(const char *path, file_id_t *id)
{
    struct stat st;
    *id = (file_id_t){.exists = stat(path, &st) == 0};
    if (id->exists) {
        id->dev = st.st_dev;
        id->ino = st.st_ino;
        id->shared = !S_ISREG(st.st_mode) || !strncmp(path, "/dev/", 5) ||
                     !strncmp(path, "/proc/", 6);
        return 0;
    }
    char dir[PATH_MAX];
    split_path(path, dir, sizeof dir, &id->base);
    return realpath(dir, id->dir) ? 0 : -1;
}

static int same_file(const file_id_t *a, const file_id_t *b)
{
    if (a->exists != b->exists)
        return 0;
    return a->exists ? a->dev == b->dev && a->ino == b->ino
                     : !strcmp(a->dir, b->dir) && !strcmp(a->base, b->base);
}

sc_err_t sc_files_distinct(const sc_file_role_t *files, int n)
{
    for (int i = 0; i < n; i++) {
        file_id_t a, b;
        if (!files[i].path || !files[i].is_output || identify(files[i].path, &a) || a.shared)
            continue;
        for (int j = 0; j < n; j++) {
            /* an input that does not exist cannot be destroyed (and may
             * be found elsewhere, as a shipped platform is) */
            if (j == i || !files[j].path || (files[j].is_output && j < i) ||
                identify(files[j].path, &b) || (!files[j].is_output && !b.exists) ||
                !same_file(&a, &b))
                continue;
            if (files[j].is_output)
                return sc_error(SC_ERR_INPUT,
                                "%s '%s' and %s '%s' name the same file; give each output its "
                                "own",
                                files[i].option, files[i].path, files[j].option, files[j].path);
            return sc_error(SC_ERR_INPUT,
                            "%s '%s' is also %s '%s', an input: writing it would destroy what "
                            "the command reads; give another output file",
                            files[i].option, files[i].path, files[j].option, files[j].path);
        }
    }
    return SC_OK;
}

sc_err_t sc_outputs_add(sc_outputs_t *outs, const char *option, const char *path, FILE **f)
{
    *f = NULL;
    if (outs->n == MAX_OUTPUTS)
        return sc_error(SC_ERR_INPUT, "more than %d output files", MAX_OUTPUTS);
    if (!*path)
        return sc_error(SC_ERR_INPUT, "%s: an empty file name", option);
    output_t *o = &outs->out[outs->n];
    *o = (output_t){.option = option, .cleanup = -1};
    char link_target[PATH_MAX];
    const char *where = through_link(path, link_target, sizeof link_target);
    struct stat st;
    int exists = stat(where, &st) == 0;
    if (!exists && errno != ENOENT)
        return sc_error(SC_ERR_INPUT, "%s '%s': cannot write: %s", option, path, strerror(errno));
    if (exists && S_ISDIR(st.st_mode))
        return sc_error(SC_ERR_INPUT, "%s '%s': is a directory; give a file name", option, path);
    /* Where the file really is: through symbolic links to the target. */
    if (exists && realpath(where, o->target)) {
        o->dev = st.st_dev;
        o->ino = st.st_ino;
    } else if (snprintf(o->target, sizeof o->target, "%s", where) >= (int)sizeof o->target) {
        return sc_error(SC_ERR_INPUT, "%s: the file name is too long", option);
    }
    char dir[PATH_MAX], real_dir[PATH_MAX];
    const char *base;
    split_path(o->target, dir, sizeof dir, &base);
    if (!*base)
        return sc_error(SC_ERR_INPUT, "%s '%s': not a file name", option, path);
    if (!realpath(dir, real_dir))
        return sc_error(SC_ERR_INPUT, "%s '%s': cannot write: %s", option, path, strerror(errno));
    file_id_t id;
    int known = identify(o->target, &id) == 0;
    for (int i = 0; known && i < outs->n; i++) {
        file_id_t other;
        if (!identify(outs->out[i].target, &other) && same_file(&id, &other))
            return sc_error(SC_ERR_INPUT,
                            "%s '%s' and %s name the same file; give each output its own", option,
                            path, outs->out[i].option);
    }
    /* Under /dev and /proc a name may stand for another file (/dev/stdout
     * for whatever the shell redirected to): write there, never replace. */
    int special = !strncmp(path, "/dev/", 5) || !strncmp(path, "/proc/", 6);
    if (exists && (!S_ISREG(st.st_mode) || special)) {
        o->direct = 1;
        o->f = open_memstream(&o->mem, &o->mem_len);
        if (!o->f)
            return sc_error(SC_ERR_RUN, "out of memory");
    } else {
        remove_stale(real_dir, base);
        snprintf(o->tmp, sizeof o->tmp, "%s/.%s.%ld.simcoll-tmp", real_dir, base, (long)getpid());
        mode_t mode = exists ? st.st_mode & 07777 : 0666;
        int fd = open(o->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_EXCL, mode);
        if (fd < 0)
            return sc_error(SC_ERR_INPUT, "%s '%s': cannot write: %s", option, path,
                            strerror(errno));
        o->cleanup = sc_cleanup_remember(o->tmp);
        if (exists)
            fchmod(fd, mode); /* the umask narrowed it; keep the target's */
        o->f = fdopen(fd, "w");
        if (!o->f) {
            close(fd);
            unlink(o->tmp);
            sc_cleanup_forget(o->cleanup);
            return sc_error(SC_ERR_RUN, "out of memory");
        }
    }
    outs->n++;
    *f = o->f;
    return SC_OK;
}

static void discard_one(output_t *o)
{
    if (o->f)
        fclose(o->f);
    o->f = NULL;
    if (!o->direct && o->tmp[0]) {
        unlink(o->tmp);
        sc_cleanup_forget(o->cleanup);
    }
    free(o->mem);
    o->mem = NULL;
}

sc_err_t sc_output_open(const char *option, const char *path, sc_outputs_t **outs, FILE **f)
{
    *f = NULL;
    *outs = sc_outputs_new();
    sc_err_t err = *outs ? sc_outputs_add(*outs, option, path, f)
                         : sc_error(SC_ERR_RUN, "out of memory");
    if (err) {
        sc_outputs_discard(*outs);
        *outs = NULL;
    }
    return err;
}

void sc_outputs_discard(sc_outputs_t *outs)
{
    if (!outs)
        return;
    for (int i = 0; i < outs->n; i++)
        discard_one(&outs->out[i]);
    free(outs);
}

int sc_write_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

int sc_memory_file(const char *name, const void *data, size_t len, char *path, size_t size)
{
    int fd = memfd_create(name, 0);
    if (fd < 0)
        return -1;
    if (sc_write_all(fd, data, len) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    snprintf(path, size, "/proc/self/fd/%d", fd);
    return fd;
}

sc_err_t sc_outputs_commit(sc_outputs_t *outs)
{
    sc_err_t err = SC_OK;
    /* 1. Everything written and closed: the usual failures (a full disk)
     *    show here, before any target changes. */
    for (int i = 0; i < outs->n && !err; i++) {
        output_t *o = &outs->out[i];
        int bad = fflush(o->f) != 0 || ferror(o->f);
        int saved = errno;
        bad |= fclose(o->f) != 0;
        o->f = NULL;
        if (bad)
            err = sc_error(SC_ERR_INPUT, "%s '%s': cannot write: %s", o->option, o->target,
                           strerror(saved ? saved : errno));
    }
    /* 2. Targets that are not files (devices, FIFOs) take their bytes. */
    for (int i = 0; i < outs->n && !err; i++) {
        output_t *o = &outs->out[i];
        if (!o->direct)
            continue;
        int fd = open(o->target, O_WRONLY | O_APPEND | O_NOCTTY);
        int bad = fd < 0 || sc_write_all(fd, o->mem, o->mem_len) != 0;
        int saved = errno;
        if (fd >= 0 && close(fd) != 0 && !bad) {
            bad = 1;
            saved = errno;
        }
        if (bad)
            err = sc_error(SC_ERR_INPUT, "%s '%s': cannot write: %s", o->option, o->target,
                           strerror(saved));
    }
    /* 3. The files go into place; a rename within one directory does not
     *    fail once the file could be created there. */
    for (int i = 0; i < outs->n && !err; i++) {
        output_t *o = &outs->out[i];
        if (o->direct)
            continue;
        if (rename(o->tmp, o->target) != 0)
            err = sc_error(SC_ERR_INPUT, "%s '%s': cannot write: %s", o->option, o->target,
                           strerror(errno));
        else
            o->tmp[0] = '\0';
        sc_cleanup_forget(o->cleanup);
    }
    sc_outputs_discard(outs);
    return err;
}

sc_err_t sc_stdout_finish(void)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout))
        return sc_error(SC_ERR_RUN, "cannot write to standard output: %s",
                        errno ? strerror(errno) : "write error");
    return SC_OK;
}
