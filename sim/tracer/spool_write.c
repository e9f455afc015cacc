/* A rank's spool (spool.h), written as its application runs
 * (spool_write.h): a buffer at a time, when three quarters full, at the
 * first call a second after the last write, on SIGTERM, SIGINT or SIGHUP,
 * at MPI_Abort and at exit; the communicators and requests the rank
 * knows; the items its calls record; the start at MPI_Init (the trace's
 * folder, the clocks' common instant) and the end at MPI_Finalize, where
 * rank 0 converts the spools (convert.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "convert.h"
#include "spool_write.h"

#define BUFFER_BYTES (512 * 1024) /* a rank's, written when 3/4 full */
#define FLUSH_SECONDS 1.0
#define ITEM_MAX 64 /* bytes an item takes at most */

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
void sc_tracer_call_done(sc_tracer_fn_t fn, double t0, double t1)
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

const comm_entry_t *sc_tracer_comm_find(MPI_Comm comm)
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

const comm_entry_t *sc_tracer_comm_made(MPI_Comm comm)
{
    for (int i = 2; i < T.ncomms; i++) /* after the world and self */
        if (T.comms[i].comm == comm)
            return &T.comms[i];
    return NULL;
}

void sc_tracer_comm_remove(MPI_Comm comm)
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

req_entry_t *sc_tracer_req_get(MPI_Request req)
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
void sc_tracer_req_del(req_entry_t *e)
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

int sc_tracer_tracing(void)
{
    if (!T.on)
        return 0;
    if (pthread_equal(pthread_self(), T.main))
        return 1;
    __atomic_fetch_add(&T.other_thread_calls, 1, __ATOMIC_RELAXED);
    return 0;
}

uint64_t sc_tracer_bytes_of(int count, MPI_Datatype type)
{
    int size = 0;
    if (count <= 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS ||
        size < 0)
        return 0;
    return (uint64_t)count * (uint64_t)size;
}

uint64_t sc_tracer_sum_bytes(int n, const int *counts, MPI_Datatype type)
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
void sc_tracer_message(unsigned kind, int comm, int peer, int tag, uint64_t bytes, uint64_t req)
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
void sc_tracer_received(unsigned kind, int comm, const MPI_Status *st, uint64_t req)
{
    if (st->MPI_SOURCE == MPI_PROC_NULL)
        return;
    int count = 0;
    PMPI_Get_count(st, MPI_BYTE, &count);
    sc_tracer_message(kind, comm, st->MPI_SOURCE, st->MPI_TAG, count > 0 ? (uint64_t)count : 0,
                      req);
}

void sc_tracer_coll(OTF2_CollectiveOp op, const comm_entry_t *c, int root, uint64_t sent,
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
void sc_tracer_began(unsigned kind, const comm_entry_t *c, int peer, int tag, uint64_t bytes,
                     MPI_Request req)
{
    uint64_t id = ++T.next_req;
    if (!req_add(req, id, (uint64_t)c->index, kind == SC_SPOOL_IRECV))
        return; /* out of memory: unrecorded, as an unknown request */
    if (kind == SC_SPOOL_IRECV)
        request(kind, c->index, id);
    else
        sc_tracer_message(kind, c->index, peer, tag, bytes, id);
}

/* A request a wait or test was given, `before` the call and as the call
 * left it: ours completed if MPI nulled it (persistent requests, which
 * MPI keeps, are not ours); one still active was tested if `tested`. */
void sc_tracer_settle(MPI_Request before, MPI_Request after, MPI_Status *st, int tested)
{
    req_entry_t *e = sc_tracer_req_get(before);
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
        sc_tracer_received(SC_SPOOL_IRECV_DONE, comm, st, e->id);
    else if (e->recv)
        sc_tracer_message(SC_SPOOL_IRECV_DONE, comm, 0, 0, 0, e->id);
    else
        request(SC_SPOOL_ISEND_DONE, comm, e->id);
    sc_tracer_req_del(e);
}

/* A communicator the call made (MPI_COMM_NULL where this rank is in none):
 * its id, agreed by a broadcast from its first rank, its members from that
 * rank. `whole`: every rank of the parent took part (a collective on it). */
void sc_tracer_made(const comm_entry_t *parent, MPI_Comm comm, int whole)
{
    if (whole && parent)
        sc_tracer_coll(OTF2_COLLECTIVE_OP_CREATE_HANDLE, parent, -1, 0, 0);
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

/* This kernel's boot, which names the CLOCK_MONOTONIC its processes share;
 * "" if unknown. */
static void read_boot_id(char id[40])
{
    id[0] = '\0';
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (!fgets(id, 40, f))
            id[0] = '\0';
        fclose(f);
    }
}

/* The instant where convert.c puts the ranks' clocks together, on this
 * rank's MPI_Wtime: rank 0's leaving one barrier. A rank booted with rank
 * 0 (one host, or containers of it) reads its clock at that very instant
 * through the CLOCK_MONOTONIC they share; a rank of another host takes its
 * own leaving of the barrier, as near as the network lets. Leavings on one
 * host can be milliseconds apart where the ranks outnumber free cores. */
static double common_instant(void)
{
    PMPI_Barrier(MPI_COMM_WORLD);
    double wtime = PMPI_Wtime(), mono = monotonic();
    struct {
        double mono;
        char boot[40];
    } zero = {mono, ""};
    char boot[40];
    read_boot_id(boot);
    memcpy(zero.boot, boot, sizeof boot);
    PMPI_Bcast(&zero, (int)sizeof zero, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (boot[0] != '\0' && strcmp(boot, zero.boot) == 0)
        return wtime - (mono - zero.mono);
    return wtime;
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
    T.sync = common_instant();
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
    sc_tracer_call_done(fn, t0, PMPI_Wtime());
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
        sc_tracer_call_done(SC_FN_MPI_Finalize, t0, t0);
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
    if (sc_tracer_tracing()) {
        double t = PMPI_Wtime();
        sc_tracer_call_done(SC_FN_MPI_Abort, t, t);
        flush();
    }
    return PMPI_Abort(comm, code);
}
