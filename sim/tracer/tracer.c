/* libsimcoll-trace.so: a PMPI tracer. Preloaded into an MPI application
 * (mpirun -x LD_PRELOAD=libsimcoll-trace.so ./app), it records every
 * point-to-point call, wait and test, collective and communicator the
 * application makes, with the MPI_Wtime of each call's start and end, so
 * that the computing between calls is kept; at MPI_Finalize the world's
 * rank 0 turns the ranks' records into an OTF2 archive that simcoll run
 * replays (docs/tracer.md).
 *
 * While the application runs, each rank appends its calls to a spool file
 * of its own (spool.h: 10 to 30 bytes a call), a buffer at a time: when
 * the buffer is three quarters full, at the first call a second after the
 * last write, on SIGTERM, SIGINT or SIGHUP (what mpirun and batch systems
 * send before they kill), at MPI_Abort and at exit. A run killed part way
 * leaves the spools up to their last write, which simcoll-trace-recover
 * turns into an archive up to the ranks' last whole calls that pair up.
 *
 * Calls made by threads other than the one that called MPI_Init are not
 * recorded (counted and said at MPI_Finalize). Nothing here stops the
 * application: a tracer that cannot write says why on stderr and stops
 * recording.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <otf2/OTF2_Events.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "convert.h"
#include "spool.h"

#define BUFFER_BYTES (512 * 1024) /* a rank's, written when 3/4 full */
#define FLUSH_SECONDS 1.0
#define ITEM_MAX 64 /* bytes an item takes at most */

typedef struct {
    MPI_Comm comm;
    uint64_t id;
    int size, rank, index; /* index: the spool's number of it */
} comm_entry_t;

typedef struct {
    MPI_Request req;
    uint64_t id, comm;
    int recv, used;
} req_entry_t;

static struct {
    int on; /* recording */
    int rank, size;
    pthread_t main;
    char dir[4096];
    int fd;
    unsigned char *buf;
    size_t used, cap;
    volatile size_t committed; /* bytes of whole frames, what a signal may write */
    volatile sig_atomic_t writing;
    size_t frame; /* where the call under way's frame starts, if framing */
    int framing;
    double sync, last_flush; /* the HEADER's instant; the last write */
    int64_t last_end;        /* the last call's end, ns since sync */
    int next_comm;           /* this rank's number for the next communicator made */
    uint64_t next_req, made;
    comm_entry_t *comms;
    int ncomms, cap_comms;
    req_entry_t *reqs;
    size_t cap_reqs, nreqs;
    long unknown_comm_calls, other_thread_calls;
    struct sigaction old[3];
} T = {.fd = -1};

static const int caught[3] = {SIGTERM, SIGINT, SIGHUP};

/* ---- The spool ---- */

static int write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static void stop(const char *what)
{
    if (T.on)
        fprintf(stderr,
                "simcoll-trace: rank %d: %s: %s; recording stops here (the trace will end "
                "at this rank's last whole call)\n",
                T.rank, what, strerror(errno));
    T.on = 0;
}

/* Writes the whole frames buffered and keeps the one under way. */
static void flush(void)
{
    if (T.fd < 0)
        return;
    T.writing = 1;
    size_t done = T.committed;
    if (done > 0 && write_all(T.fd, T.buf, done) != 0) {
        T.writing = 0;
        stop("writing its spool");
        return;
    }
    memmove(T.buf, T.buf + done, T.used - done);
    T.used -= done;
    T.frame -= T.framing ? done : 0;
    T.committed = 0;
    T.writing = 0;
    T.last_flush = PMPI_Wtime();
}

/* Room for an item at the buffer's end (the call under way's frame
 * begun if it was not); 0 once recording has stopped. */
static int room(void)
{
    if (!T.on)
        return 0;
    if (!T.framing) {
        T.framing = 1;
        T.frame = T.used;
        T.used += 2; /* the length, once known */
    }
    if (T.used + ITEM_MAX + 6 > T.cap) {
        flush();
        if (T.used + ITEM_MAX + 6 > T.cap) { /* a call of more than the buffer holds */
            T.writing = 1;
            unsigned char *more = realloc(T.buf, 2 * T.cap);
            if (more) {
                T.buf = more;
                T.cap *= 2;
            }
            T.writing = 0;
            if (!more) {
                errno = ENOMEM;
                stop("growing its buffer");
                return 0;
            }
        }
    }
    return T.on;
}

static void put_byte(unsigned v)
{
    T.buf[T.used++] = (unsigned char)v;
}

static void put_u(uint64_t v)
{
    while (v >= 0x80) {
        T.buf[T.used++] = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    T.buf[T.used++] = (unsigned char)v;
}

static void put_s(int64_t v)
{
    put_u(((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

/* Ends the frame under way: its length before it (moving it on by 4
 * where it needs 6 bytes), whole from now. */
static void frame_end(void)
{
    size_t len = T.used - T.frame - 2;
    if (len < 0xffff) {
        T.buf[T.frame] = (unsigned char)len;
        T.buf[T.frame + 1] = (unsigned char)(len >> 8);
    } else {
        memmove(T.buf + T.frame + 6, T.buf + T.frame + 2, len);
        T.buf[T.frame] = T.buf[T.frame + 1] = 0xff;
        for (int i = 0; i < 4; i++)
            T.buf[T.frame + 2 + i] = (unsigned char)(len >> (8 * i));
        T.used += 4;
    }
    T.framing = 0;
    T.committed = T.used;
}

static int64_t ns(double t)
{
    return (int64_t)((t - T.sync) * 1e9 + (t >= T.sync ? 0.5 : -0.5));
}

/* Closes the call under way: its CALL item, after which it is whole. */
static void call_done(sc_tracer_fn_t fn, double t0, double t1)
{
    if (!room())
        return;
    int64_t begin = ns(t0), end = ns(t1);
    put_byte(SC_SPOOL_CALL);
    put_u((uint64_t)fn);
    put_s(begin - T.last_end);
    put_u(end > begin ? (uint64_t)(end - begin) : 0);
    T.last_end = end > begin ? end : begin;
    frame_end();
    if (T.used >= T.cap / 4 * 3 || t1 - T.last_flush >= FLUSH_SECONDS)
        flush();
}

/* SIGTERM, SIGINT, SIGHUP: the whole frames buffered are written (write is
 * async-signal-safe; a flush the signal interrupted is left to lose what
 * it was writing), then the signal goes to what handled it before. */
static void on_signal(int sig)
{
    if (T.fd >= 0 && !T.writing && T.committed > 0) {
        size_t len = T.committed;
        const unsigned char *p = T.buf;
        while (len > 0) {
            ssize_t n = write(T.fd, p, len);
            if (n <= 0)
                break;
            p += n;
            len -= (size_t)n;
        }
        memmove(T.buf, T.buf + T.committed, T.used - T.committed);
        T.used -= T.committed;
        T.frame -= T.framing ? T.committed : 0;
        T.committed = 0;
    }
    for (int i = 0; i < 3; i++)
        if (caught[i] == sig)
            sigaction(sig, &T.old[i], NULL);
    raise(sig);
}

static void at_exit(void)
{
    if (T.on) {
        flush();
        T.on = 0;
    }
}

/* ---- Communicators and requests ---- */

static const comm_entry_t *comm_find(MPI_Comm comm)
{
    for (int i = 0; i < T.ncomms; i++)
        if (T.comms[i].comm == comm)
            return &T.comms[i];
    T.unknown_comm_calls++;
    return NULL;
}

static void comm_add(MPI_Comm comm, uint64_t id, int size, int rank, int index)
{
    if (T.ncomms == T.cap_comms) {
        int cap = T.cap_comms ? 2 * T.cap_comms : 16;
        comm_entry_t *more = realloc(T.comms, (size_t)cap * sizeof *more);
        if (!more)
            return; /* its calls are then calls on an unknown communicator */
        T.comms = more;
        T.cap_comms = cap;
    }
    T.comms[T.ncomms++] = (comm_entry_t){comm, id, size, rank, index};
}

static void comm_remove(MPI_Comm comm)
{
    for (int i = 2; i < T.ncomms; i++) /* the world and self stay */
        if (T.comms[i].comm == comm) {
            T.comms[i] = T.comms[--T.ncomms];
            return;
        }
}

static uint64_t req_hash(MPI_Request req)
{
    uint64_t h = 0;
    memcpy(&h, &req, sizeof req < sizeof h ? sizeof req : sizeof h);
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    return h;
}

static req_entry_t *req_get(MPI_Request req)
{
    if (T.cap_reqs == 0 || req == MPI_REQUEST_NULL)
        return NULL;
    for (size_t k = req_hash(req) & (T.cap_reqs - 1);; k = (k + 1) & (T.cap_reqs - 1)) {
        if (!T.reqs[k].used)
            return NULL;
        if (T.reqs[k].req == req)
            return &T.reqs[k];
    }
}

static void req_put(req_entry_t *table, size_t cap, req_entry_t e)
{
    size_t k = req_hash(e.req) & (cap - 1);
    while (table[k].used)
        k = (k + 1) & (cap - 1);
    table[k] = e;
}

static int req_add(MPI_Request req, uint64_t id, uint64_t comm, int recv)
{
    if (2 * (T.nreqs + 1) > T.cap_reqs) {
        size_t cap = T.cap_reqs ? 2 * T.cap_reqs : 1024;
        req_entry_t *table = calloc(cap, sizeof *table);
        if (!table)
            return 0;
        for (size_t i = 0; i < T.cap_reqs; i++)
            if (T.reqs[i].used)
                req_put(table, cap, T.reqs[i]);
        free(T.reqs);
        T.reqs = table;
        T.cap_reqs = cap;
    }
    req_put(T.reqs, T.cap_reqs, (req_entry_t){req, id, comm, recv, 1});
    T.nreqs++;
    return 1;
}

/* Linear probing's deletion: the entries after the hole move back into it
 * where their probe passes it. */
static void req_del(req_entry_t *e)
{
    size_t mask = T.cap_reqs - 1, hole = (size_t)(e - T.reqs);
    T.reqs[hole].used = 0;
    T.nreqs--;
    for (size_t k = (hole + 1) & mask; T.reqs[k].used; k = (k + 1) & mask) {
        size_t home = req_hash(T.reqs[k].req) & mask;
        if ((k > hole && (home <= hole || home > k)) || (k < hole && home <= hole && home > k)) {
            T.reqs[hole] = T.reqs[k];
            T.reqs[k].used = 0;
            hole = k;
        }
    }
}

/* ---- What calls record ---- */

static int tracing(void)
{
    if (!T.on)
        return 0;
    if (pthread_equal(pthread_self(), T.main))
        return 1;
    __atomic_fetch_add(&T.other_thread_calls, 1, __ATOMIC_RELAXED);
    return 0;
}

static uint64_t bytes_of(int count, MPI_Datatype type)
{
    int size = 0;
    if (count <= 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS ||
        size < 0)
        return 0;
    return (uint64_t)count * (uint64_t)size;
}

static uint64_t sum_bytes(int n, const int *counts, MPI_Datatype type)
{
    int size = 0;
    if (!counts || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS)
        return 0;
    uint64_t total = 0;
    for (int i = 0; i < n; i++)
        if (counts[i] > 0)
            total += (uint64_t)counts[i];
    return total * (uint64_t)(size > 0 ? size : 0);
}

/* SEND, RECV, ISEND, IRECV_DONE: on the spool's communicator `comm`,
 * with a request for the last two. */
static void message(unsigned kind, int comm, int peer, int tag, uint64_t bytes, uint64_t req)
{
    if (!room())
        return;
    put_byte(kind);
    put_u((uint64_t)comm);
    put_s(peer);
    put_s(tag);
    put_u(bytes);
    if (kind == SC_SPOOL_ISEND || kind == SC_SPOOL_IRECV_DONE)
        put_u(req);
}

/* ISEND_DONE, TEST, CANCELLED; IRECV with its communicator. */
static void request(unsigned kind, int comm, uint64_t req)
{
    if (!room())
        return;
    put_byte(kind);
    if (kind == SC_SPOOL_IRECV)
        put_u((uint64_t)comm);
    put_u(req);
}

/* A receive's end, as its status says; nothing for MPI_PROC_NULL's. */
static void received(unsigned kind, int comm, const MPI_Status *st, uint64_t req)
{
    if (st->MPI_SOURCE == MPI_PROC_NULL)
        return;
    int count = 0;
    PMPI_Get_count(st, MPI_BYTE, &count);
    message(kind, comm, st->MPI_SOURCE, st->MPI_TAG, count > 0 ? (uint64_t)count : 0, req);
}

static void coll(OTF2_CollectiveOp op, const comm_entry_t *c, int root, uint64_t sent,
                 uint64_t recvd)
{
    if (!room())
        return;
    put_byte(SC_SPOOL_COLL);
    put_u((uint64_t)op);
    put_u((uint64_t)c->index);
    put_s(root);
    put_u(sent);
    put_u(recvd);
}

/* A request the call began: ours from now to its end. */
static void began(unsigned kind, const comm_entry_t *c, int peer, int tag, uint64_t bytes,
                  MPI_Request req)
{
    uint64_t id = ++T.next_req;
    if (!req_add(req, id, (uint64_t)c->index, kind == SC_SPOOL_IRECV))
        return; /* out of memory: unrecorded, as an unknown request */
    if (kind == SC_SPOOL_IRECV)
        request(kind, c->index, id);
    else
        message(kind, c->index, peer, tag, bytes, id);
}

/* A request a wait or test was given, `before` the call and as the call
 * left it: ours completed if MPI nulled it (persistent requests, which
 * MPI keeps, are not ours); one still active was tested if `tested`. */
static void settle(MPI_Request before, MPI_Request after, MPI_Status *st, int tested)
{
    req_entry_t *e = req_get(before);
    if (!e)
        return;
    int comm = (int)e->comm;
    if (after != MPI_REQUEST_NULL) {
        if (tested)
            request(SC_SPOOL_TEST, comm, e->id);
        return;
    }
    int cancelled = 0;
    if (st)
        PMPI_Test_cancelled(st, &cancelled);
    if (cancelled)
        request(SC_SPOOL_CANCELLED, comm, e->id);
    else if (e->recv && st)
        received(SC_SPOOL_IRECV_DONE, comm, st, e->id);
    else if (e->recv)
        message(SC_SPOOL_IRECV_DONE, comm, 0, 0, 0, e->id);
    else
        request(SC_SPOOL_ISEND_DONE, comm, e->id);
    req_del(e);
}

/* A communicator the call made (MPI_COMM_NULL where this rank is in none):
 * its id, agreed by a broadcast from its first rank, its members from that
 * rank. `whole`: every rank of the parent took part (a collective on it). */
static void made(const comm_entry_t *parent, MPI_Comm comm, int whole)
{
    if (whole && parent)
        coll(OTF2_COLLECTIVE_OP_CREATE_HANDLE, parent, -1, 0, 0);
    int inter = 0;
    if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)
        return; /* intercommunicators' calls are not recorded */
    int rank, size;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    uint64_t id = rank == 0 ? (uint64_t)(T.rank + 1) << 32 | ++T.made : 0;
    PMPI_Bcast(&id, 1, MPI_UINT64_T, 0, comm);
    if (!room())
        return;
    comm_add(comm, id, size, rank, T.next_comm++);
    put_byte(SC_SPOOL_COMM);
    put_u(id);
    put_u(parent ? parent->id : SC_SPOOL_NO_COMM);
    put_u((uint64_t)size);
    put_u((uint64_t)rank);
    if (rank != 0)
        return;
    int *mine = malloc(2 * (size_t)size * sizeof *mine);
    MPI_Group group, world;
    if (!mine)
        return;
    for (int i = 0; i < size; i++)
        mine[i] = i;
    PMPI_Comm_group(comm, &group);
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    PMPI_Group_translate_ranks(group, size, mine, world, mine + size);
    PMPI_Group_free(&group);
    PMPI_Group_free(&world);
    for (int i = 0; i < size; i += 10) {
        int n = size - i < 10 ? size - i : 10;
        if (!room())
            break;
        put_byte(SC_SPOOL_MEMBERS);
        put_u((uint64_t)n);
        for (int k = 0; k < n; k++)
            put_u((uint64_t)mine[size + i + k]);
    }
    free(mine);
}

/* ---- Start and end ---- */

static double monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int holds_trace(const char *dir)
{
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/traces.otf2", dir);
    if (stat(path, &st) == 0)
        return 1;
    snprintf(path, sizeof path, "%s/spool", dir);
    return stat(path, &st) == 0;
}

/* Rank 0: the folder the trace goes to, made, with the anchor's stand-in;
 * "" if it cannot be. SIMCOLL_TRACE_DIR, or simcoll-trace; DIR.1, DIR.2
 * ... where DIR holds a trace already (none is overwritten). */
static void choose_dir(char *dir, size_t len)
{
    const char *base = getenv("SIMCOLL_TRACE_DIR");
    if (!base || !*base)
        base = "simcoll-trace";
    snprintf(dir, len, "%s", base);
    for (int i = 1; holds_trace(dir) && i < 1000; i++)
        snprintf(dir, len, "%s.%d", base, i);
    char path[4200];
    snprintf(path, sizeof path, "%s/spool", dir);
    if ((mkdir(dir, 0777) != 0 && errno != EEXIST) || mkdir(path, 0777) != 0) {
        fprintf(stderr, "simcoll-trace: cannot make '%s': %s; the run is not traced\n", path,
                strerror(errno));
        dir[0] = '\0';
        return;
    }
    if (sc_tracer_write_stand_in(dir) != 0) {
        fprintf(stderr,
                "simcoll-trace: cannot write '%s/traces.otf2': %s; the run is not "
                "traced\n",
                dir, strerror(errno));
        dir[0] = '\0';
    }
}

/* After PMPI_Init: the folder, the spool, the clocks' common instant; then
 * MPI_Init's call, begun at `entered` (CLOCK_MONOTONIC: MPI_Wtime may not
 * be called before MPI_Init), recorded. */
static void start(sc_tracer_fn_t fn, double entered)
{
    double t_mono = monotonic(), t_wtime = PMPI_Wtime();
    double t0 = t_wtime - (t_mono - entered);
    T.main = pthread_self();
    PMPI_Comm_rank(MPI_COMM_WORLD, &T.rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &T.size);
    if (T.rank == 0)
        choose_dir(T.dir, sizeof T.dir);
    PMPI_Bcast(T.dir, sizeof T.dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    int ok = T.dir[0] != '\0';
    if (ok) {
        char path[4300];
        snprintf(path, sizeof path, "%s/spool/rank-%06d.spool", T.dir, T.rank);
        T.cap = BUFFER_BYTES;
        T.buf = malloc(T.cap);
        T.fd = T.buf ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666) : -1;
        if (T.fd >= 0 && write_all(T.fd, SC_SPOOL_MAGIC, 8) != 0) {
            close(T.fd);
            T.fd = -1;
        }
        if (T.fd < 0) {
            fprintf(stderr,
                    "simcoll-trace: rank %d cannot write '%s': %s; the run is not "
                    "traced\n",
                    T.rank, path, strerror(errno ? errno : ENOMEM));
            ok = 0;
        }
    }
    int all = 0;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all) {
        if (T.fd >= 0)
            close(T.fd);
        T.fd = -1;
        return;
    }
    /* The instant every rank leaves one barrier: where ranks of different
     * hosts put their clocks together (convert.c). */
    PMPI_Barrier(MPI_COMM_WORLD);
    T.sync = PMPI_Wtime();
    T.on = 1;
    comm_add(MPI_COMM_WORLD, SC_SPOOL_WORLD, T.size, T.rank, 0);
    comm_add(MPI_COMM_SELF, SC_SPOOL_SELF, 1, 0, 1);
    T.next_comm = 2;
    room();
    put_byte(SC_SPOOL_HEADER);
    put_u(SC_SPOOL_VERSION);
    put_u((uint64_t)T.rank);
    put_u((uint64_t)T.size);
    put_u((uint64_t)getpid());
    uint64_t bits;
    memcpy(&bits, &T.sync, 8);
    for (int i = 0; i < 8; i++)
        put_byte((unsigned)(bits >> (8 * i)) & 0xff);
    char host[48] = "";
    gethostname(host, sizeof host - 1);
    room();
    put_byte(SC_SPOOL_HOST);
    put_u(strlen(host));
    for (size_t i = 0; host[i]; i++)
        put_byte((unsigned char)host[i]);
    frame_end();
    call_done(fn, t0, PMPI_Wtime());
    flush();
    atexit(at_exit);
    for (int i = 0; i < 3; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(caught[i], &sa, &T.old[i]);
    }
}

int MPI_Init(int *argc, char ***argv)
{
    double entered = monotonic();
    int err = PMPI_Init(argc, argv);
    if (err == MPI_SUCCESS)
        start(SC_FN_MPI_Init, entered);
    return err;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    double entered = monotonic();
    int err = PMPI_Init_thread(argc, argv, required, provided);
    if (err == MPI_SUCCESS)
        start(SC_FN_MPI_Init_thread, entered);
    return err;
}

int MPI_Finalize(void)
{
    if (T.fd < 0)
        return PMPI_Finalize(); /* not traced */
    if (T.on) {
        double t0 = PMPI_Wtime();
        call_done(SC_FN_MPI_Finalize, t0, t0);
        if (room()) {
            for (int i = 2; i < SC_SPOOL_END_FRAME_LEN; i++)
                put_byte((unsigned char)SC_SPOOL_END_FRAME[i]);
            frame_end();
        }
        flush();
    }
    T.on = 0;
    close(T.fd);
    T.fd = -1;
    if (T.unknown_comm_calls > 0)
        fprintf(stderr,
                "simcoll-trace: rank %d: %ld calls on communicators made by calls the "
                "tracer does not record (intercommunicators, MPI_Comm_idup...): their time "
                "is the rank's computing\n",
                T.rank, T.unknown_comm_calls);
    if (T.other_thread_calls > 0)
        fprintf(stderr,
                "simcoll-trace: rank %d: %ld calls of threads other than MPI_Init's "
                "not recorded\n",
                T.rank, T.other_thread_calls);
    /* Every spool written and closed before rank 0 reads them (a rank
     * that stopped recording takes part too: its spool is cut short). */
    PMPI_Barrier(MPI_COMM_WORLD);
    int err = PMPI_Finalize();
    if (T.rank == 0) {
        char msg[1024];
        sc_tracer_convert(T.dir, 1, stderr, msg, sizeof msg);
        fprintf(stderr, "simcoll-trace: %s\n", msg);
    }
    return err;
}

int MPI_Abort(MPI_Comm comm, int code)
{
    if (tracing()) {
        double t = PMPI_Wtime();
        call_done(SC_FN_MPI_Abort, t, t);
        flush();
    }
    return PMPI_Abort(comm, code);
}

/* ---- Point to point ---- */

#define BLOCKING_SEND(NAME)                                                                        \
    int MPI_##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag,               \
                   MPI_Comm comm)                                                                  \
    {                                                                                              \
        if (!tracing())                                                                            \
            return PMPI_##NAME(buf, count, type, dest, tag, comm);                                 \
        double t0 = PMPI_Wtime();                                                                  \
        int err = PMPI_##NAME(buf, count, type, dest, tag, comm);                                  \
        double t1 = PMPI_Wtime();                                                                  \
        const comm_entry_t *c = comm_find(comm);                                                   \
        if (c && dest != MPI_PROC_NULL && err == MPI_SUCCESS)                                      \
            message(SC_SPOOL_SEND, c->index, dest, tag, bytes_of(count, type), 0);                 \
        call_done(SC_FN_MPI_##NAME, t0, t1);                                                       \
        return err;                                                                                \
    }
BLOCKING_SEND(Send)
BLOCKING_SEND(Ssend)
BLOCKING_SEND(Bsend)
BLOCKING_SEND(Rsend)

#define NONBLOCKING_SEND(NAME)                                                                     \
    int MPI_##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag,               \
                   MPI_Comm comm, MPI_Request *req)                                                \
    {                                                                                              \
        if (!tracing())                                                                            \
            return PMPI_##NAME(buf, count, type, dest, tag, comm, req);                            \
        double t0 = PMPI_Wtime();                                                                  \
        int err = PMPI_##NAME(buf, count, type, dest, tag, comm, req);                             \
        double t1 = PMPI_Wtime();                                                                  \
        const comm_entry_t *c = comm_find(comm);                                                   \
        if (c && dest != MPI_PROC_NULL && err == MPI_SUCCESS)                                      \
            began(SC_SPOOL_ISEND, c, dest, tag, bytes_of(count, type), *req);                      \
        call_done(SC_FN_MPI_##NAME, t0, t1);                                                       \
        return err;                                                                                \
    }
NONBLOCKING_SEND(Isend)
NONBLOCKING_SEND(Issend)
NONBLOCKING_SEND(Ibsend)
NONBLOCKING_SEND(Irsend)

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    if (!tracing())
        return PMPI_Recv(buf, count, type, source, tag, comm, status);
    MPI_Status mine;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &mine : status;
    double t0 = PMPI_Wtime();
    int err = PMPI_Recv(buf, count, type, source, tag, comm, st);
    double t1 = PMPI_Wtime();
    const comm_entry_t *c = comm_find(comm);
    if (c && source != MPI_PROC_NULL && err == MPI_SUCCESS)
        received(SC_SPOOL_RECV, c->index, st, 0);
    call_done(SC_FN_MPI_Recv, t0, t1);
    return err;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    if (!tracing())
        return PMPI_Irecv(buf, count, type, source, tag, comm, req);
    double t0 = PMPI_Wtime();
    int err = PMPI_Irecv(buf, count, type, source, tag, comm, req);
    double t1 = PMPI_Wtime();
    const comm_entry_t *c = comm_find(comm);
    if (c && source != MPI_PROC_NULL && err == MPI_SUCCESS)
        began(SC_SPOOL_IRECV, c, source, tag, 0, *req);
    call_done(SC_FN_MPI_Irecv, t0, t1);
    return err;
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag, void *rbuf,
                 int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                 MPI_Status *status)
{
    if (!tracing())
        return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag,
                             comm, status);
    MPI_Status mine;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &mine : status;
    double t0 = PMPI_Wtime();
    int err =
        PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, st);
    double t1 = PMPI_Wtime();
    const comm_entry_t *c = comm_find(comm);
    if (c && err == MPI_SUCCESS) {
        if (dest != MPI_PROC_NULL)
            message(SC_SPOOL_SEND, c->index, dest, stag, bytes_of(scount, stype), 0);
        if (source != MPI_PROC_NULL)
            received(SC_SPOOL_RECV, c->index, st, 0);
    }
    call_done(SC_FN_MPI_Sendrecv, t0, t1);
    return err;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int stag, int source,
                         int rtag, MPI_Comm comm, MPI_Status *status)
{
    if (!tracing())
        return PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm, status);
    MPI_Status mine;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &mine : status;
    double t0 = PMPI_Wtime();
    int err = PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm, st);
    double t1 = PMPI_Wtime();
    const comm_entry_t *c = comm_find(comm);
    if (c && err == MPI_SUCCESS) {
        if (dest != MPI_PROC_NULL)
            message(SC_SPOOL_SEND, c->index, dest, stag, bytes_of(count, type), 0);
        if (source != MPI_PROC_NULL)
            received(SC_SPOOL_RECV, c->index, st, 0);
    }
    call_done(SC_FN_MPI_Sendrecv_replace, t0, t1);
    return err;
}

/* ---- Waits and tests ---- */

/* The handles a call on n requests was given, and statuses where the
 * application wants none: on the stack for a few, else allocated. */
typedef struct {
    MPI_Request few[32], *before;
    MPI_Status few_st[32], *st;
} copies_t;

static int copies_init(copies_t *cp, int n, const MPI_Request *reqs, MPI_Status *statuses,
                       int need_st)
{
    cp->before = n <= 32 ? cp->few : malloc((size_t)n * sizeof *cp->before);
    cp->st = statuses != MPI_STATUSES_IGNORE || !need_st ? statuses
             : n <= 32                                   ? cp->few_st
                                                         : malloc((size_t)n * sizeof *cp->st);
    if (!cp->before || (need_st && !cp->st)) {
        if (n > 32) {
            free(cp->before);
            if (statuses == MPI_STATUSES_IGNORE && need_st)
                free(cp->st);
        }
        return 0;
    }
    if (n > 0)
        memcpy(cp->before, reqs, (size_t)n * sizeof *reqs);
    return 1;
}

static void copies_destroy(copies_t *cp, int n, MPI_Status *statuses, int need_st)
{
    if (n > 32) {
        free(cp->before);
        if (statuses == MPI_STATUSES_IGNORE && need_st)
            free(cp->st);
    }
}

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    if (!tracing())
        return PMPI_Wait(req, status);
    MPI_Status mine;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &mine : status;
    MPI_Request before = *req;
    double t0 = PMPI_Wtime();
    int err = PMPI_Wait(req, st);
    double t1 = PMPI_Wtime();
    settle(before, *req, st, 0);
    call_done(SC_FN_MPI_Wait, t0, t1);
    return err;
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
    if (!tracing())
        return PMPI_Test(req, flag, status);
    MPI_Status mine;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &mine : status;
    MPI_Request before = *req;
    double t0 = PMPI_Wtime();
    int err = PMPI_Test(req, flag, st);
    double t1 = PMPI_Wtime();
    settle(before, *req, *flag ? st : NULL, 1);
    call_done(SC_FN_MPI_Test, t0, t1);
    return err;
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
    copies_t cp;
    if (!tracing() || !copies_init(&cp, n, reqs, statuses, 1))
        return PMPI_Waitall(n, reqs, statuses);
    double t0 = PMPI_Wtime();
    int err = PMPI_Waitall(n, reqs, cp.st);
    double t1 = PMPI_Wtime();
    for (int i = 0; i < n; i++)
        settle(cp.before[i], reqs[i], &cp.st[i], 0);
    copies_destroy(&cp, n, statuses, 1);
    call_done(SC_FN_MPI_Waitall, t0, t1);
    return err;
}

int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    copies_t cp;
    if (!tracing() || !copies_init(&cp, n, reqs, statuses, 1))
        return PMPI_Testall(n, reqs, flag, statuses);
    double t0 = PMPI_Wtime();
    int err = PMPI_Testall(n, reqs, flag, cp.st);
    double t1 = PMPI_Wtime();
    for (int i = 0; i < n; i++)
        settle(cp.before[i], reqs[i], *flag ? &cp.st[i] : NULL, 1);
    copies_destroy(&cp, n, statuses, 1);
    call_done(SC_FN_MPI_Testall, t0, t1);
    return err;
}

int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status)
{
    copies_t cp;
    if (!tracing() || !copies_init(&cp, n, reqs, MPI_STATUSES_IGNORE, 0))
        return PMPI_Waitany(n, reqs, index, status);
    MPI_Status mine;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &mine : status;
    double t0 = PMPI_Wtime();
    int err = PMPI_Waitany(n, reqs, index, st);
    double t1 = PMPI_Wtime();
    if (err == MPI_SUCCESS && *index != MPI_UNDEFINED && *index >= 0 && *index < n)
        settle(cp.before[*index], reqs[*index], st, 0);
    copies_destroy(&cp, n, MPI_STATUSES_IGNORE, 0);
    call_done(SC_FN_MPI_Waitany, t0, t1);
    return err;
}

int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
    copies_t cp;
    if (!tracing() || !copies_init(&cp, n, reqs, MPI_STATUSES_IGNORE, 0))
        return PMPI_Testany(n, reqs, index, flag, status);
    MPI_Status mine;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &mine : status;
    double t0 = PMPI_Wtime();
    int err = PMPI_Testany(n, reqs, index, flag, st);
    double t1 = PMPI_Wtime();
    if (err == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED && *index >= 0 && *index < n)
        settle(cp.before[*index], reqs[*index], st, 0);
    /* those still active were tested (the one completed is no longer ours) */
    for (int i = 0; i < n; i++)
        if (reqs[i] != MPI_REQUEST_NULL)
            settle(cp.before[i], reqs[i], NULL, 1);
    copies_destroy(&cp, n, MPI_STATUSES_IGNORE, 0);
    call_done(SC_FN_MPI_Testany, t0, t1);
    return err;
}

#define SOME_CALL(NAME, TESTED)                                                                    \
    int MPI_##NAME(int n, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[]) \
    {                                                                                              \
        copies_t cp;                                                                               \
        if (!tracing() || !copies_init(&cp, n, reqs, statuses, 1))                                 \
            return PMPI_##NAME(n, reqs, outcount, indices, statuses);                              \
        double t0 = PMPI_Wtime();                                                                  \
        int err = PMPI_##NAME(n, reqs, outcount, indices, cp.st);                                  \
        double t1 = PMPI_Wtime();                                                                  \
        if (err == MPI_SUCCESS && *outcount != MPI_UNDEFINED)                                      \
            for (int k = 0; k < *outcount; k++)                                                    \
                if (indices[k] >= 0 && indices[k] < n)                                             \
                    settle(cp.before[indices[k]], reqs[indices[k]], &cp.st[k], 0);                 \
        for (int i = 0; TESTED && i < n; i++)                                                      \
            if (reqs[i] != MPI_REQUEST_NULL)                                                       \
                settle(cp.before[i], reqs[i], NULL, 1);                                            \
        copies_destroy(&cp, n, statuses, 1);                                                       \
        call_done(SC_FN_MPI_##NAME, t0, t1);                                                       \
        return err;                                                                                \
    }
SOME_CALL(Waitsome, 0)
SOME_CALL(Testsome, 1)

int MPI_Request_free(MPI_Request *req)
{
    if (tracing()) {
        /* freed while active: its end is not seen (an MPI_Isend's is then
         * taken at the rank's end) */
        req_entry_t *e = req_get(*req);
        if (e)
            req_del(e);
    }
    return PMPI_Request_free(req);
}

int MPI_Cancel(MPI_Request *req)
{
    if (!tracing())
        return PMPI_Cancel(req);
    double t0 = PMPI_Wtime();
    int err = PMPI_Cancel(req);
    call_done(SC_FN_MPI_Cancel, t0, PMPI_Wtime());
    return err;
}

/* ---- Collectives, sizes as Score-P counts them (what sim/trace/otf2.c
 * reads): a rooted call's root sends or receives the whole; allreduce,
 * allgather(v) and alltoall count what the rank's share is times the
 * communicator's size. ---- */

#define COLL_BEGIN(CALL)                                                                           \
    if (!tracing())                                                                                \
        return CALL;                                                                               \
    double t0 = PMPI_Wtime();                                                                      \
    int err = CALL;                                                                                \
    double t1 = PMPI_Wtime();                                                                      \
    const comm_entry_t *c = comm_find(comm);                                                       \
    if (c && err == MPI_SUCCESS) {                                                                 \
        uint64_t n = (uint64_t)c->size;                                                            \
        int me = c->rank;                                                                          \
        (void)n;                                                                                   \
        (void)me;
#define COLL_END(NAME)                                                                             \
    }                                                                                              \
    call_done(SC_FN_MPI_##NAME, t0, t1);                                                           \
    return err;

int MPI_Barrier(MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Barrier(comm))
    coll(OTF2_COLLECTIVE_OP_BARRIER, c, -1, 0, 0);
    COLL_END(Barrier)
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Bcast(buf, count, type, root, comm))
    uint64_t b = bytes_of(count, type);
    coll(OTF2_COLLECTIVE_OP_BCAST, c, root, me == root ? n * b : 0, b);
    COLL_END(Bcast)
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
               MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm))
    uint64_t b = bytes_of(count, type);
    coll(OTF2_COLLECTIVE_OP_REDUCE, c, root, b, me == root ? n * b : 0);
    COLL_END(Reduce)
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Allreduce(sbuf, rbuf, count, type, op, comm))
    uint64_t b = bytes_of(count, type);
    coll(OTF2_COLLECTIVE_OP_ALLREDUCE, c, -1, n * b, n * b);
    COLL_END(Allreduce)
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
               MPI_Datatype rtype, int root, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm))
    uint64_t mine = sbuf == MPI_IN_PLACE ? bytes_of(rcount, rtype) : bytes_of(scount, stype);
    coll(OTF2_COLLECTIVE_OP_GATHER, c, root, mine, me == root ? n * bytes_of(rcount, rtype) : 0);
    COLL_END(Gather)
}

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int rcounts[],
                const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm))
    uint64_t mine =
        sbuf == MPI_IN_PLACE && rcounts ? bytes_of(rcounts[me], rtype) : bytes_of(scount, stype);
    coll(OTF2_COLLECTIVE_OP_GATHERV, c, root, mine,
         me == root ? sum_bytes((int)n, rcounts, rtype) : 0);
    COLL_END(Gatherv)
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm))
    uint64_t mine = rbuf == MPI_IN_PLACE ? bytes_of(scount, stype) : bytes_of(rcount, rtype);
    coll(OTF2_COLLECTIVE_OP_SCATTER, c, root, me == root ? n * bytes_of(scount, stype) : 0, mine);
    COLL_END(Scatter)
}

int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype stype,
                 void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm))
    uint64_t mine =
        rbuf == MPI_IN_PLACE && scounts ? bytes_of(scounts[me], stype) : bytes_of(rcount, rtype);
    coll(OTF2_COLLECTIVE_OP_SCATTERV, c, root, me == root ? sum_bytes((int)n, scounts, stype) : 0,
         mine);
    COLL_END(Scatterv)
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm))
    uint64_t mine = sbuf == MPI_IN_PLACE ? bytes_of(rcount, rtype) : bytes_of(scount, stype);
    coll(OTF2_COLLECTIVE_OP_ALLGATHER, c, -1, n * mine, n * bytes_of(rcount, rtype));
    COLL_END(Allgather)
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                   const int rcounts[], const int displs[], MPI_Datatype rtype, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm))
    uint64_t mine =
        sbuf == MPI_IN_PLACE && rcounts ? bytes_of(rcounts[me], rtype) : bytes_of(scount, stype);
    coll(OTF2_COLLECTIVE_OP_ALLGATHERV, c, -1, n * mine, sum_bytes((int)n, rcounts, rtype));
    COLL_END(Allgatherv)
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm))
    uint64_t r = bytes_of(rcount, rtype);
    coll(OTF2_COLLECTIVE_OP_ALLTOALL, c, -1,
         n * (sbuf == MPI_IN_PLACE ? r : bytes_of(scount, stype)), n * r);
    COLL_END(Alltoall)
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
                  void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype,
                  MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm))
    uint64_t r = sum_bytes((int)n, rcounts, rtype);
    coll(OTF2_COLLECTIVE_OP_ALLTOALLV, c, -1,
         sbuf == MPI_IN_PLACE ? r : sum_bytes((int)n, scounts, stype), r);
    COLL_END(Alltoallv)
}

int MPI_Alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                  const MPI_Datatype stypes[], void *rbuf, const int rcounts[], const int rdispls[],
                  const MPI_Datatype rtypes[], MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm))
    uint64_t s = 0, r = 0;
    for (int i = 0; i < (int)n; i++) {
        r += rcounts && rtypes ? bytes_of(rcounts[i], rtypes[i]) : 0;
        s += sbuf != MPI_IN_PLACE && scounts && stypes ? bytes_of(scounts[i], stypes[i]) : 0;
    }
    coll(OTF2_COLLECTIVE_OP_ALLTOALLW, c, -1, sbuf == MPI_IN_PLACE ? r : s, r);
    COLL_END(Alltoallw)
}

int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type,
                       MPI_Op op, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm))
    coll(OTF2_COLLECTIVE_OP_REDUCE_SCATTER, c, -1, sum_bytes((int)n, rcounts, type),
         rcounts ? bytes_of(rcounts[me], type) : 0);
    COLL_END(Reduce_scatter)
}

int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, type, op, comm))
    uint64_t b = bytes_of(rcount, type);
    coll(OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK, c, -1, n * b, b);
    COLL_END(Reduce_scatter_block)
}

int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Scan(sbuf, rbuf, count, type, op, comm))
    uint64_t b = bytes_of(count, type);
    coll(OTF2_COLLECTIVE_OP_SCAN, c, -1, b, b);
    COLL_END(Scan)
}

int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Exscan(sbuf, rbuf, count, type, op, comm))
    uint64_t b = bytes_of(count, type);
    coll(OTF2_COLLECTIVE_OP_EXSCAN, c, -1, b, b);
    COLL_END(Exscan)
}

/* ---- Communicators ---- */

/* A call that makes *NEWCOMM from PARENT; WHOLE: every rank of the parent
 * calls it. The broadcast that names the new communicator is part of the
 * call's time. */
#define MAKES(NAME, CALL, PARENT, NEWCOMM, WHOLE)                                                  \
    if (!tracing())                                                                                \
        return CALL;                                                                               \
    double t0 = PMPI_Wtime();                                                                      \
    int err = CALL;                                                                                \
    if (err == MPI_SUCCESS) {                                                                      \
        const comm_entry_t *parent = (PARENT) == MPI_COMM_NULL ? NULL : comm_find(PARENT);         \
        made(parent, *(NEWCOMM), WHOLE);                                                           \
    }                                                                                              \
    call_done(SC_FN_MPI_##NAME, t0, PMPI_Wtime());                                                 \
    return err;

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    MAKES(Comm_split, PMPI_Comm_split(comm, color, key, newcomm), comm, newcomm, 1)
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    MAKES(Comm_split_type, PMPI_Comm_split_type(comm, type, key, info, newcomm), comm, newcomm, 1)
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    MAKES(Comm_dup, PMPI_Comm_dup(comm, newcomm), comm, newcomm, 1)
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    MAKES(Comm_dup_with_info, PMPI_Comm_dup_with_info(comm, info, newcomm), comm, newcomm, 1)
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    MAKES(Comm_create, PMPI_Comm_create(comm, group, newcomm), comm, newcomm, 1)
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    /* only the group's ranks call it: no collective on the parent */
    MAKES(Comm_create_group, PMPI_Comm_create_group(comm, group, tag, newcomm), comm, newcomm, 0)
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                    MPI_Comm *newcomm)
{
    MAKES(Cart_create, PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm), comm,
          newcomm, 1)
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    MAKES(Cart_sub, PMPI_Cart_sub(comm, remain_dims, newcomm), comm, newcomm, 1)
}

int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                     MPI_Comm *newcomm)
{
    MAKES(Graph_create, PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm), comm,
          newcomm, 1)
}

int MPI_Dist_graph_create(MPI_Comm comm, int n, const int nodes[], const int degrees[],
                          const int targets[], const int weights[], MPI_Info info, int reorder,
                          MPI_Comm *newcomm)
{
    MAKES(Dist_graph_create,
          PMPI_Dist_graph_create(comm, n, nodes, degrees, targets, weights, info, reorder, newcomm),
          comm, newcomm, 1)
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm *newcomm)
{
    MAKES(Dist_graph_create_adjacent,
          PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree,
                                          destinations, destweights, info, reorder, newcomm),
          comm, newcomm, 1)
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newcomm)
{
    /* the parent, an intercommunicator, is not one the trace knows */
    MAKES(Intercomm_merge, PMPI_Intercomm_merge(intercomm, high, newcomm), MPI_COMM_NULL, newcomm,
          0)
}

int MPI_Comm_free(MPI_Comm *comm)
{
    if (!tracing())
        return PMPI_Comm_free(comm);
    MPI_Comm gone = *comm;
    double t0 = PMPI_Wtime();
    int err = PMPI_Comm_free(comm);
    double t1 = PMPI_Wtime();
    const comm_entry_t *c = NULL;
    for (int i = 2; i < T.ncomms && !c; i++)
        if (T.comms[i].comm == gone)
            c = &T.comms[i];
    if (c && err == MPI_SUCCESS) {
        coll(OTF2_COLLECTIVE_OP_DESTROY_HANDLE, c, -1, 0, 0);
        comm_remove(gone);
    }
    call_done(SC_FN_MPI_Comm_free, t0, t1);
    return err;
}
