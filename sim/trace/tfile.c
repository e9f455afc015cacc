/* Buffered reading of many trace files at once, with a bounded number of
 * descriptors open: a cursor per rank of a trace of thousands of files
 * (DUMPI's and TI's are one per rank) would otherwise exceed the
 * process's limit on open files.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "reader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* At most this many files open at once; the least recently read is
 * closed to open another. Far below the usual limit of 1024. */
#define POOL_OPEN 256
/* A buffer starts at this size, or the file's if smaller (a rank's file
 * of a trace of 65,536 ranks may hold a few lines), and grows only for a
 * longer line. */
#define BUF_START 16384
#define BUF_LEAST 64
#define LINE_MAX_BYTES (1 << 20)

static struct {
    sc_tfile_t *oldest, *newest;
    int open;
} pool;

static void pool_unlink(sc_tfile_t *f)
{
    if (f->older)
        f->older->newer = f->newer;
    else if (pool.oldest == f)
        pool.oldest = f->newer;
    if (f->newer)
        f->newer->older = f->older;
    else if (pool.newest == f)
        pool.newest = f->older;
    f->older = f->newer = NULL;
}

static void pool_push(sc_tfile_t *f)
{
    f->older = pool.newest;
    f->newer = NULL;
    if (pool.newest)
        pool.newest->newer = f;
    else
        pool.oldest = f;
    pool.newest = f;
}

static void shut(sc_tfile_t *f)
{
    if (f->fd < 0)
        return;
    close(f->fd);
    f->fd = -1;
    pool_unlink(f);
    pool.open--;
}

/* Takes an open descriptor into the pool, closing the least recently
 * read file's if the pool is full. */
static void pool_add(sc_tfile_t *f, int fd)
{
    if (pool.open >= POOL_OPEN)
        shut(pool.oldest);
    f->fd = fd;
    pool.open++;
    pool_push(f);
}

/* The file open, most recently used; SC_ERR_INPUT if it cannot be. */
static sc_err_t reopen(sc_tfile_t *f)
{
    if (f->fd >= 0) {
        pool_unlink(f);
        pool_push(f);
        return SC_OK;
    }
    int fd = open(f->path, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return sc_error(SC_ERR_INPUT, "trace file '%s': %s", f->path, strerror(errno));
    pool_add(f, fd);
    return SC_OK;
}

/* Reads from the open file into the buffer's room after buf[len], up to
 * the size it had when opened: the number read, 0 at the end, -1 on error
 * (sc_error set). */
static ssize_t read_more(sc_tfile_t *f)
{
    size_t room = f->cap - f->len;
    if ((long long)room > f->size - f->pos)
        room = (size_t)(f->size - f->pos);
    ssize_t got;
    do
        got = pread(f->fd, f->buf + f->len, room, (off_t)f->pos);
    while (got < 0 && errno == EINTR);
    if (got < 0) {
        sc_error(SC_ERR_INPUT, "trace file '%s': %s", f->path, strerror(errno));
        return -1;
    }
    if (got == 0)
        f->eof = 1;
    f->len += (size_t)got;
    f->pos += got;
    return got;
}

/* Why `path` could not be opened (errno `why`), as a stat of it tells. */
static sc_err_t open_failed(const char *path, const char *what, int why)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return sc_error(SC_ERR_INPUT, "%s '%s' is not a regular file", what, path);
    return sc_error(SC_ERR_INPUT, "%s '%s': %s", what, path, strerror(why));
}

sc_err_t sc_tfile_open(sc_tfile_t *f, const char *path, const char *what)
{
    *f = (sc_tfile_t){.fd = -1};
    /* opened, then asked its size: the path is looked up once, not by a
     * stat and again by the open */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return open_failed(path, what, errno);
    struct stat st;
    sc_err_t err = SC_OK;
    if (fstat(fd, &st) != 0)
        err = sc_error(SC_ERR_INPUT, "%s '%s': %s", what, path, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        err = sc_error(SC_ERR_INPUT, "%s '%s' is not a regular file", what, path);
    if (!err) {
        f->path = strdup(path);
        f->size = st.st_size;
        f->cap = st.st_size < BUF_START ? (size_t)st.st_size + 1 : BUF_START;
        if (f->cap < BUF_LEAST)
            f->cap = BUF_LEAST;
        f->buf = malloc(f->cap);
        if (!f->path || !f->buf)
            err = sc_error(SC_ERR_RUN, "out of memory");
    }
    if (err) {
        close(fd);
        sc_tfile_close(f);
        return err;
    }
    if (f->size >= (long long)f->cap) { /* read as the caller reads on */
        pool_add(f, fd);
        return SC_OK;
    }
    /* A file the buffer holds whole (a rank's few lines) is read now and
     * closed: it takes no room in the pool, and is not opened again when
     * other ranks' files have taken that room. */
    f->fd = fd;
    if (read_more(f) < 0)
        err = SC_ERR_INPUT;
    close(fd);
    f->fd = -1;
    if (err)
        sc_tfile_close(f);
    return err;
}

void sc_tfile_close(sc_tfile_t *f)
{
    shut(f);
    free(f->path);
    free(f->buf);
    *f = (sc_tfile_t){.fd = -1};
}

/* Moves what is unread to the buffer's start and grows it to `need`
 * bytes; 0 if out of memory (sc_error set). */
static int make_room(sc_tfile_t *f, size_t need)
{
    if (f->start > 0) {
        memmove(f->buf, f->buf + f->start, f->len - f->start);
        f->len -= f->start;
        f->start = 0;
    }
    if (need > f->cap) {
        unsigned char *grown = realloc(f->buf, need);
        if (!grown) {
            sc_error(SC_ERR_RUN, "out of memory reading '%s'", f->path);
            return 0;
        }
        f->buf = grown;
        f->cap = need;
    }
    return 1;
}

/* Reads more after what is unread, growing the buffer to `need` bytes of
 * room at least; the number read, 0 at the end, -1 on error. The end is
 * the size the file had when opened: no read is spent to find it. */
static ssize_t fill(sc_tfile_t *f, size_t need)
{
    if (f->pos >= f->size)
        f->eof = 1;
    if (f->eof)
        return 0;
    if (!make_room(f, need))
        return -1;
    if (f->len == f->cap)
        return 0;
    if (reopen(f))
        return -1;
    return read_more(f);
}

char *sc_tfile_line(sc_tfile_t *f, int *failed)
{
    *failed = 0;
    size_t scanned = 0;
    while (1) {
        unsigned char *from = f->buf + f->start + scanned;
        unsigned char *nl = memchr(from, '\n', f->len - f->start - scanned);
        if (nl) {
            size_t n = (size_t)(nl - (f->buf + f->start));
            char *line = (char *)f->buf + f->start;
            line[n] = '\0';
            if (n > 0 && line[n - 1] == '\r')
                line[n - 1] = '\0';
            f->start += n + 1;
            return line;
        }
        scanned = f->len - f->start;
        if (scanned >= LINE_MAX_BYTES) {
            *failed = 1;
            sc_error(SC_ERR_INPUT, "trace file '%s': a line longer than %d bytes", f->path,
                     LINE_MAX_BYTES);
            return NULL;
        }
        size_t room = f->cap;
        if (f->len - f->start + 1 >= f->cap)
            room = 2 * f->cap;
        ssize_t got = fill(f, room);
        if (got < 0) {
            *failed = 1;
            return NULL;
        }
        if (got == 0 && (f->len - f->start == scanned)) {
            if (scanned == 0)
                return NULL;
            /* the last line, without its end: make room for the NUL */
            if (f->len == f->cap && !make_room(f, f->cap + 1)) {
                *failed = 1;
                return NULL;
            }
            char *line = (char *)f->buf + f->start;
            line[scanned] = '\0';
            if (scanned > 0 && line[scanned - 1] == '\r')
                line[scanned - 1] = '\0';
            f->start = f->len;
            return line;
        }
    }
}

int sc_tfile_read(sc_tfile_t *f, void *out, size_t n)
{
    while (f->len - f->start < n) {
        size_t room = f->cap < n ? n : f->cap;
        ssize_t got = fill(f, room);
        if (got < 0)
            return -2;
        if (got == 0)
            return f->len == f->start ? 0 : -1;
    }
    memcpy(out, f->buf + f->start, n);
    f->start += n;
    return 1;
}

sc_err_t sc_tfile_seek(sc_tfile_t *f, long long pos)
{
    /* inside what the buffer holds (a file read whole at opening): no
     * read again */
    long long held = f->pos - (long long)f->len;
    if (pos >= held && pos <= f->pos) {
        f->start = (size_t)(pos - held);
        return SC_OK;
    }
    f->start = f->len = 0;
    f->pos = pos;
    f->eof = 0;
    return SC_OK;
}

long long sc_tfile_tell(const sc_tfile_t *f)
{
    return f->pos - (long long)(f->len - f->start);
}
