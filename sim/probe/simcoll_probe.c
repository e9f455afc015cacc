/* simcoll-probe: the measurements simcoll calibrate (and simcoll validate)
 * need, taken with the cluster's own MPI library, in one file they read.
 *
 * Run it under mpirun with ranks on at least two nodes (and, to measure
 * between sockets, two ranks of a node on different sockets). Rank 0 picks
 * a partner for each placement it can tell apart from the ranks' host
 * names and processor ids (and Linux's sysfs: socket, NUMA node, last-level
 * cache): "intra" (its node and the smallest of those it shares), "ccx"
 * (its NUMA domain, another last-level cache), "numa" (its socket, another
 * NUMA domain), "socket" (its node, another socket), "inter" (another
 * node); each of simcoll's levels (calibrate --level). For each it measures
 *   latency        the one-way time of a ping-pong (half the round trip),
 *                  the median of --reps after --warmup, 1 B to --max-size
 *                  in powers of two;
 *   send-overhead  the time inside MPI_Isend (SMPI's calibration measures
 *                  the same), the receive posted;
 *   recv-overhead  the time inside MPI_Recv once MPI_Iprobe has seen the
 *                  message arrive;
 * then, wherever an overhead jumps or the time falls or grows more than
 * the size between two of those sizes (the library switches protocol:
 * eager limit, single copy, TCP segment; switches.h), the three again at
 * eight sizes inside, which locate the switch: a "# switch" line each,
 * which calibrate takes as its eager limit and breakpoints;
 * and, through one node, k pairs streaming at once (k = 1, 2, 4, ... as
 * ranks allow), each sender a window of 64 MPI_Isend to its receiver:
 *   bandwidth      bytes a second in all, between two nodes ("inter") and
 *                  inside rank 0's node ("intra"), at sizes from 8 B (the
 *                  message rate) to 1 MiB.
 * With --collectives, it also times collectives as OSU does (each rank's
 * mean time per call after a barrier, averaged over the ranks) on the
 * first n ranks for each --np n, at each of --sizes, as the library
 * chooses, or as the MPI library's own controls in the environment force
 * (OMPI_MCA_coll_tuned_*, MPIR_CVAR_*: recorded in the file), for simcoll
 * validate. --skip-point-to-point leaves the rest out (a second run with
 * another algorithm forced).
 * With --call-costs, what a small collective pays beside the messages a
 * ping-pong shows (issue 45), at --sizes (default 4 B to 4 KiB), each row
 * the median of --reps and a row KIND-min of the smallest:
 *   call-COLL self     one MPI_Barrier, MPI_Bcast, MPI_Allreduce or
 *                      MPI_Scatter on MPI_COMM_SELF: no message at all;
 *   call-COLL PLACE    the same on rank 0 and its partner of a placement,
 *                      rooted at each in turn, half the time of both: one
 *                      message and no algorithm (barrier and allreduce:
 *                      one each way at once);
 *   call-pingpong      that pair's ping-pong one-way time, measured next
 *                      to them (0 bytes too, the barrier's);
 *   pingpong-barrier   the same with an MPI_Barrier before each round
 *                      trip (outside the time): no round trip warm;
 *   pingpong-requests  that pair's ping-pong made of MPI_Irecv,
 *                      MPI_Isend and MPI_Wait, as collectives send their
 *                      messages: less call-pingpong, what such a message
 *                      pays beside a blocking one;
 *   fan-in intra K     K ranks of rank 0's host sending to it at once,
 *                      rank 0's time from telling them to go to the last
 *                      message (K in the pairs column);
 *   relay intra K      a message passed round rank 0 and K ranks of its
 *                      host by requests, as a chain (a pipeline
 *                      broadcast) passes it on: the time of a hop;
 *   barrier-skew       when the partner leaves an MPI_Barrier less when
 *                      rank 0 does (clocks aligned by a ping-pong; a
 *                      signed value: positive, the partner leaves later),
 *                      barriers back to back (0 bytes), or
 *                      barrier-skew-bcast in OSU's loop of a barrier and
 *                      a broadcast of that many bytes from rank 0 (no
 *                      -min row: the median, quartiles in a comment).
 * simcoll calibrate fits none of these yet: its reader skips them.
 * The file starts with the cluster as the probe saw it (hosts, cores,
 * sockets, ranks, the MPI library, date, command line) in comment lines;
 * each row is "kind placement pairs bytes value" (seconds, or bytes/s), or
 * "collective NAME np bytes seconds".
 * Only standard MPI-3 calls: any MPI library runs it. Written here rather
 * than taken from OSU or IMB because neither measures the overheads nor
 * knows the ranks' placement, and simcoll calibrate wants both in one file.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getcpu */
#endif
#include <dirent.h>
#include <limits.h>
#include <mpi.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "probe.h"
#include "switches.h"

enum { WINDOW = 64, MAX_SIZES = 64, MAX_SWITCHES = 8, MORE = 8,
       HOST_LEN = MPI_MAX_PROCESSOR_NAME };

static const char *const collective_names[] = {"barrier", "bcast", "allgather", "reduce",
                                               "allreduce"};
enum { NCOLLECTIVES = 5 };

/* Where a rank runs: its host (by name; with --each-rank-a-node, the
 * machine's name and '#rank'), processor, socket, NUMA node and last-level
 * cache (-1 when the system does not say); and its machine's cores and
 * sockets. */
typedef struct {
    char host[HOST_LEN], machine[HOST_LEN];
    int cpu, socket, numa, l3;
    int cores, sockets;
} place_t;

static int me, nranks;
static place_t *places;
static char *buffer;
/* -o FILE is written as FILE.part and renamed when complete: a run that
 * fails leaves no file that looks whole. */
static char *partial;

void probe_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (me == 0) {
        fputs("simcoll-probe: ", stderr);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        if (partial)
            remove(partial);
    }
    va_end(ap);
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

static int parse_count(const char *option, const char *text, long lo, long hi, long *v)
{
    char *end;
    long x = strtol(text, &end, 10);
    if (*text == '\0' || *end || x < lo || x > hi)
        probe_die("%s: '%s' is not an integer from %ld to %ld", option, text, lo, hi);
    *v = x;
    return 1;
}

/* A comma-separated list of integers from lo to hi, at most `most`. */
static int parse_list(const char *option, const char *text, long lo, long hi, long *v, int most)
{
    char *copy = strdup(text), *save = NULL;
    int n = 0;
    if (!copy)
        probe_die("out of memory");
    for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        if (n == most)
            probe_die("%s: more than %d values in '%s'", option, most, text);
        parse_count(option, item, lo, hi, &v[n++]);
    }
    free(copy);
    if (!n)
        probe_die("%s: '%s' holds no value", option, text);
    return n;
}

static void parse_collectives(const char *text, options_t *o)
{
    char *copy = strdup(text), *save = NULL;
    if (!copy)
        probe_die("out of memory");
    for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        int k = 0;
        while (k < NCOLLECTIVES && strcmp(item, collective_names[k]))
            k++;
        if (k == NCOLLECTIVES)
            probe_die("--collectives: unknown collective '%s': use barrier, bcast, allgather, "
                "reduce, allreduce",
                item);
        if (o->ncolls < NCOLLECTIVES)
            o->colls[o->ncolls++] = collective_names[k];
    }
    free(copy);
}

static void parse_options(int argc, char **argv, options_t *o)
{
    *o = (options_t){.reps = 100, .warmup = 10, .max_size = 4l << 20, .out = NULL,
                     .nsizes = 4, .sizes = {1, 1024, 65536, 1048576}};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        long v;
        if (!strcmp(a, "--each-rank-a-node") || !strcmp(a, "--skip-point-to-point") ||
            !strcmp(a, "--call-costs")) {
            *(a[2] == 'e' ? &o->each_rank_a_node : a[2] == 's' ? &o->skip_p2p : &o->call_costs) = 1;
            continue;
        }
        if (!strcmp(a, "--help")) {
            if (me == 0)
                printf("usage: mpirun ... simcoll-probe [--reps N] [--warmup N] [--max-size "
                       "BYTES] [--each-rank-a-node] [-o FILE]\n"
                       "         [--collectives barrier,bcast,allgather,reduce,allreduce "
                       "[--np N,...] [--sizes S,...] [--skip-point-to-point]]\n"
                       "         [--call-costs [--sizes S,...] [--skip-point-to-point]]\n"
                       "Measures ping-pong latency, send and receive overheads between rank 0 "
                       "and a rank of each placement (same socket, other socket, other node) "
                       "and k pairs streaming through one node, for simcoll calibrate --probe "
                       "FILE; locates where the library switches protocol ('# switch' lines, "
                       "calibrate's eager limit and breakpoints) and warns of ranks sharing a "
                       "core (bind them: --bind-to core). Defaults: 100 repetitions after 10, "
                       "sizes up to 4 MiB, standard "
                       "output. --each-rank-a-node counts every rank as a node of its own, to "
                       "measure a network between the ranks of one host (TCP loopback). "
                       "--collectives times those collectives on the first N ranks (--np, "
                       "default all) at --sizes bytes (default 1,1024,65536,1048576), as "
                       "the library chooses or as its environment forces. --call-costs "
                       "measures what a small collective pays beside its messages (issue 45): "
                       "collectives on MPI_COMM_SELF and on two ranks against their "
                       "ping-pong, a ping-pong after a barrier, k senders to one receiver, "
                       "the barrier's exit skew, at --sizes bytes (default 4,64,1024,4096).\n");
            MPI_Finalize();
            exit(0);
        }
        if (i + 1 >= argc)
            probe_die("unknown option '%s' (or it lacks its value): use --reps, --warmup, "
                "--max-size, --each-rank-a-node, --collectives, --np, --sizes, "
                "--skip-point-to-point, --call-costs, -o or --help",
                a);
        const char *value = argv[++i];
        if (!strcmp(a, "--reps") && parse_count(a, value, 1, 1000000, &v))
            o->reps = (int)v;
        else if (!strcmp(a, "--warmup") && parse_count(a, value, 0, 1000000, &v))
            o->warmup = (int)v;
        else if (!strcmp(a, "--max-size") && parse_count(a, value, 1, 1l << 30, &v))
            o->max_size = v;
        else if (!strcmp(a, "-o") || !strcmp(a, "--output"))
            o->out = value;
        else if (!strcmp(a, "--collectives"))
            parse_collectives(value, o);
        else if (!strcmp(a, "--np"))
            o->nnps = parse_list(a, value, 1, nranks, o->nps, 64);
        else if (!strcmp(a, "--sizes") && ++o->sizes_given)
            o->nsizes = parse_list(a, value, 0, 1l << 30, o->sizes, 64);
        else
            probe_die("unknown option '%s': use --reps, --warmup, --max-size, --each-rank-a-node, "
                "--collectives, --np, --sizes, --skip-point-to-point, --call-costs, -o or "
                "--help",
                a);
    }
    if (o->nnps && !o->ncolls)
        probe_die("--np goes with --collectives LIST");
    if ((o->skip_p2p || o->sizes_given) && !o->ncolls && !o->call_costs)
        probe_die("--sizes and --skip-point-to-point go with --collectives LIST or --call-costs");
    if (!o->nnps) {
        o->nnps = 1;
        o->nps[0] = nranks;
    }
}

/* A number in a file of processor `cpu`'s directory in Linux's sysfs
 * (topology/physical_package_id: its socket; cache/index3/id: its
 * last-level cache), or -1. */
static int cpu_number(int cpu, const char *file)
{
    char path[160];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/%s", cpu, file);
    FILE *f = fopen(path, "r");
    int id = -1;
    if (f) {
        if (fscanf(f, "%d", &id) != 1)
            id = -1;
        fclose(f);
    }
    return id;
}

/* The NUMA node of processor `cpu`: sysfs links nodeN into its directory;
 * -1 if none. */
static int numa_of_cpu(int cpu)
{
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d", cpu);
    DIR *d = opendir(path);
    int node = -1;
    for (struct dirent *e; d && (e = readdir(d));) {
        char *end;
        long n = !strncmp(e->d_name, "node", 4) ? strtol(e->d_name + 4, &end, 10) : -1;
        if (n >= 0 && end != e->d_name + 4 && !*end && n < INT_MAX)
            node = (int)n;
    }
    if (d)
        closedir(d);
    return node;
}

/* This machine's cores (distinct socket and core ids of the processors
 * online) and sockets, from sysfs; without it, the processors online and
 * one socket. */
static void count_cores(int *cores, int *sockets)
{
    enum { MOST = 4096 };
    static int seen_core[MOST], seen_socket[MOST];
    long cpus = sysconf(_SC_NPROCESSORS_CONF);
    *cores = *sockets = 0;
    for (int c = 0; c < cpus && c < MOST; c++) {
        char path[96];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/online", c);
        FILE *f = fopen(path, "r");
        int online = 1;
        if (f) {
            if (fscanf(f, "%d", &online) != 1)
                online = 1;
            fclose(f);
        }
        int socket = cpu_number(c, "topology/physical_package_id"),
            core = cpu_number(c, "topology/core_id");
        if (!online || socket < 0 || core < 0)
            continue;
        int id = socket * 65536 + core, known = 0;
        for (int i = 0; i < *cores && !known; i++)
            known = seen_core[i] == id;
        if (!known)
            seen_core[(*cores)++] = id;
        known = 0;
        for (int i = 0; i < *sockets && !known; i++)
            known = seen_socket[i] == socket;
        if (!known)
            seen_socket[(*sockets)++] = socket;
    }
    if (*cores == 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        *cores = online > 0 && online < INT_MAX ? (int)online : 1;
        *sockets = 1;
    }
}

static void gather_places(const options_t *o)
{
    place_t mine = {.cpu = sched_getcpu(), .socket = -1, .numa = -1, .l3 = -1};
    int len = 0;
    MPI_Get_processor_name(mine.host, &len);
    memcpy(mine.machine, mine.host, sizeof mine.machine);
    count_cores(&mine.cores, &mine.sockets);
    if (o->each_rank_a_node)
        snprintf(mine.host + len, sizeof mine.host - (size_t)len, "#%d", me);
    if (mine.cpu >= 0) {
        mine.socket = cpu_number(mine.cpu, "topology/physical_package_id");
        mine.numa = numa_of_cpu(mine.cpu);
        mine.l3 = cpu_number(mine.cpu, "cache/index3/id");
    }
    places = malloc((size_t)nranks * sizeof *places);
    if (!places)
        probe_die("out of memory");
    MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, places, (int)sizeof mine, MPI_BYTE,
                  MPI_COMM_WORLD);
}

int probe_same_host(int a, int b)
{
    return !strcmp(places[a].host, places[b].host);
}

static int same_machine(int a, int b)
{
    return !strcmp(places[a].machine, places[b].machine);
}

/* Appends to out (n bytes used of size) as snprintf would, never past it. */
static size_t add(char *out, size_t n, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (n < size)
        n += (size_t)vsnprintf(out + n, size - n, fmt, ap);
    va_end(ap);
    return n;
}

/* Ranks on one processor of a machine, or more ranks on a machine than it
 * has cores, take turns, and every time measured then holds the others'
 * turns: the warning, in out, or "" if none. */
static void shared_cores(char *out, size_t size)
{
    size_t n = 0;
    int groups = 0;
    out[0] = '\0';
    for (int r = 0; r < nranks; r++) {
        int first = places[r].cpu >= 0, count = 0;
        for (int q = 0; q < nranks && first; q++)
            if (same_machine(q, r) && places[q].cpu == places[r].cpu)
                first = q >= r, count++;
        if (!first || count < 2 || groups++ >= 4)
            continue;
        n = add(out, n, size, "%sranks", groups > 1 ? ", " : "");
        for (int q = r, k = 0; q < nranks; q++)
            if (same_machine(q, r) && places[q].cpu == places[r].cpu)
                n = add(out, n, size, "%s %d", k++ ? (k == count ? " and" : ",") : "", q);
        n = add(out, n, size, " on cpu %d of %s", places[r].cpu, places[r].machine);
    }
    for (int r = 0; r < nranks; r++) {
        int first = 1, count = 0;
        for (int q = 0; q < nranks && first; q++)
            if (same_machine(q, r))
                first = q >= r, count++;
        if (first && count > places[r].cores)
            n = add(out, n, size, "%s%d ranks on %s's %d cores", n ? "; " : "", count,
                    places[r].machine, places[r].cores);
    }
    if (n)
        add(out, n, size, ": ranks sharing a core take turns, and every time measured holds the "
                          "others' turns; run one rank a core (mpirun --bind-to core with no more "
                          "ranks than cores, srun --cpu-bind=cores)");
}

/* probe.h's placements, as the file names them. */
const char *const probe_placement_name[NPLACEMENTS] = {"intra", "ccx", "numa", "socket",
                                                       "inter"};

/* 1 if ranks a and b are known to differ in that field. */
static int differ(int a, int b)
{
    return a >= 0 && b >= 0 && a != b;
}

/* The placement of rank r against rank 0: the largest of its node's
 * levels where the two differ. What the system does not say counts as
 * the same: a node of one socket, one NUMA domain, one cache. */
static int placement_of(int r)
{
    const place_t *a = &places[0], *b = &places[r];
    return !probe_same_host(0, r)         ? INTER
           : differ(a->socket, b->socket) ? SOCKET
           : differ(a->numa, b->numa)     ? NUMA
           : differ(a->l3, b->l3)         ? CCX
                                          : INTRA;
}

/* Rank 0's partner of placement p, or -1. */
int probe_partner(int p)
{
    for (int r = 1; r < nranks; r++)
        if (placement_of(r) == p)
            return r;
    return -1;
}

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* As common/sc_stats.c's median: this program uses no layer of simcoll's
 * (ARCHITECTURE.md). */
double probe_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* What one test measures between rank 0 and `peer`: a time in seconds
 * (rank 0's median), every rank of the two taking part. */
typedef double (*pair_test_t)(int peer, long bytes, const options_t *o, double *samples);

static double pingpong(int peer, long bytes, const options_t *o, double *t)
{
    int other = me == 0 ? peer : 0;
    for (int i = -o->warmup; i < o->reps; i++) {
        double start = MPI_Wtime();
        if (me == 0) {
            MPI_Send(buffer, (int)bytes, MPI_BYTE, other, TAG, MPI_COMM_WORLD);
            MPI_Recv(buffer, (int)bytes, MPI_BYTE, other, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buffer, (int)bytes, MPI_BYTE, other, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buffer, (int)bytes, MPI_BYTE, other, TAG, MPI_COMM_WORLD);
        }
        if (i >= 0)
            t[i] = (MPI_Wtime() - start) / 2;
    }
    return me == 0 ? probe_median(t, o->reps) : 0;
}

/* The time inside MPI_Isend, the peer's receive already posted (the peer
 * says so first). */
static double send_overhead(int peer, long bytes, const options_t *o, double *t)
{
    int other = me == 0 ? peer : 0;
    for (int i = -o->warmup; i < o->reps; i++) {
        if (me == 0) {
            MPI_Request req;
            MPI_Recv(NULL, 0, MPI_BYTE, other, TAG + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            double start = MPI_Wtime();
            MPI_Isend(buffer, (int)bytes, MPI_BYTE, other, TAG, MPI_COMM_WORLD, &req);
            double took = MPI_Wtime() - start;
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            if (i >= 0)
                t[i] = took;
        } else {
            MPI_Request req;
            MPI_Irecv(buffer, (int)bytes, MPI_BYTE, other, TAG, MPI_COMM_WORLD, &req);
            MPI_Send(NULL, 0, MPI_BYTE, other, TAG + 1, MPI_COMM_WORLD);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
    }
    return me == 0 ? probe_median(t, o->reps) : 0;
}

/* The time inside MPI_Recv of a message MPI_Iprobe has seen arrive (past
 * the eager limit the receive fetches the data too, as calibrate knows). */
static double recv_overhead(int peer, long bytes, const options_t *o, double *t)
{
    int other = me == 0 ? peer : 0;
    for (int i = -o->warmup; i < o->reps; i++) {
        if (me == 0) {
            int there = 0;
            while (!there)
                MPI_Iprobe(other, TAG, MPI_COMM_WORLD, &there, MPI_STATUS_IGNORE);
            double start = MPI_Wtime();
            MPI_Recv(buffer, (int)bytes, MPI_BYTE, other, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            double took = MPI_Wtime() - start;
            MPI_Send(NULL, 0, MPI_BYTE, other, TAG + 1, MPI_COMM_WORLD);
            if (i >= 0)
                t[i] = took;
        } else {
            MPI_Send(buffer, (int)bytes, MPI_BYTE, other, TAG, MPI_COMM_WORLD);
            MPI_Recv(NULL, 0, MPI_BYTE, other, TAG + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    return me == 0 ? probe_median(t, o->reps) : 0;
}

/* Runs `test` between rank 0 and peer; every other rank waits. */
static double between(int peer, pair_test_t test, long bytes, const options_t *o, double *t)
{
    double v = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0 || me == peer)
        v = test(peer, bytes, o, t);
    MPI_Barrier(MPI_COMM_WORLD);
    return v;
}

static void row(FILE *f, const char *kind, int placement, int pairs, long bytes, double value)
{
    if (me == 0)
        fprintf(f, "%-13s %-6s %3d %9ld %.6e\n", kind, probe_placement_name[placement], pairs,
                bytes, value);
}

/* Eight sizes strictly between from and to, ascending, into more;
 * returns how many (fewer where the interval is narrow). */
static int inside(long from, long to, long *more)
{
    int m = 0;
    for (int j = 1; j <= MORE; j++) {
        long s = from + (to - from) * j / (MORE + 1);
        if (s > from && s < to && (m == 0 || s > more[m - 1]))
            more[m++] = s;
    }
    return m;
}

/* "140 ns", "2.77 us": a time as a person reads it. */
static const char *show_time(double s, char *out, size_t size)
{
    static const struct {
        double unit;
        const char *name;
    } units[] = {{1, "s"}, {1e-3, "ms"}, {1e-6, "us"}, {1e-9, "ns"}};
    int u = 0;
    while (u < 3 && s < units[u].unit)
        u++;
    snprintf(out, size, "%.3g %s", s / units[u].unit, units[u].name);
    return out;
}

/* The file's line for switch s of placement p (rank 0): "# switch
 * PLACEMENT LAST eager-limit|breakpoint: why", which calibrate --probe
 * reads, and what showed it. */
static void print_switch(FILE *f, int p, const probe_switch_t *s, int eager, const long *pow2)
{
    static const char *const what[] = {
        [PROBE_RECV_JUMP] = "the receive overhead grows", [PROBE_SEND_JUMP] = "the send overhead grows",
        [PROBE_TIME_FALL] = "the one-way time falls", [PROBE_TIME_JUMP] = "the one-way time grows"};
    static const char *const past[] = {
        [PROBE_RECV_JUMP] = "MPI_Recv fetches the data itself (rendezvous)",
        [PROBE_SEND_JUMP] = "MPI_Isend moves the data itself",
        [PROBE_TIME_FALL] = "a faster protocol", [PROBE_TIME_JUMP] = "another protocol"};
    char a[32], b[32];
    fprintf(f, "# switch %s %ld %s: %s from %s at %ld bytes to %s at %ld bytes%s; past %ld bytes, "
               "%s\n",
            probe_placement_name[p], s->last, eager ? "eager-limit" : "breakpoint", what[s->sign],
            show_time(s->before, a, sizeof a), pow2[s->at - 1], show_time(s->after, b, sizeof b),
            pow2[s->at], s->sign == PROBE_TIME_JUMP ? ", more than the size" : "", s->last,
            past[s->sign]);
}

/* The ping-pong, send and receive overheads between rank 0 and `peer`
 * at powers of two up to --max-size; then, where those show a protocol
 * switch (switches.h), eight sizes more of each inside its interval, to
 * locate it. Rank 0 prints the switches and every row, each series in
 * ascending sizes. */
static void measure_pair(FILE *f, int p, int peer, const options_t *o, double *t)
{
    static const pair_test_t tests[PROBE_NSERIES] = {pingpong, send_overhead, recv_overhead};
    static const char *const kinds[PROBE_NSERIES] = {"latency", "send-overhead", "recv-overhead"};
    long pow2[MAX_SIZES];
    double v[PROBE_NSERIES][MAX_SIZES];
    int n = 0;
    for (long s = 1; s <= o->max_size && n < MAX_SIZES; s *= 2)
        pow2[n++] = s;
    for (int q = 0; q < PROBE_NSERIES; q++)
        for (int k = 0; k < n; k++)
            v[q][k] = between(peer, tests[q], pow2[k], o, t);
    probe_switch_t sw[MAX_SWITCHES];
    int nsw = 0;
    if (me == 0)
        nsw = probe_switches_find(pow2, (const double *const[]){v[0], v[1], v[2]}, n, sw,
                                  MAX_SWITCHES);
    MPI_Bcast(&nsw, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(sw, nsw * (int)sizeof *sw, MPI_BYTE, 0, MPI_COMM_WORLD);
    long more[MAX_SWITCHES][MORE];
    double mv[MAX_SWITCHES][PROBE_NSERIES][MORE];
    int nmore[MAX_SWITCHES];
    for (int i = 0; i < nsw; i++) {
        nmore[i] = inside(pow2[sw[i].at - 1], pow2[sw[i].at], more[i]);
        for (int q = 0; q < PROBE_NSERIES; q++)
            for (int j = 0; j < nmore[i]; j++)
                mv[i][q][j] = between(peer, tests[q], more[i][j], o, t);
        probe_switch_locate(&sw[i], more[i], mv[i][sw[i].series], nmore[i]);
    }
    if (me != 0)
        return;
    /* The eager limit: where the receive starts fetching the data, the
     * rendezvous; where the send overhead alone jumps, only if the receive's
     * never does (Open MPI's shared memory on this project's machine: the
     * send's from 55 ns to 181 ns at 512 bytes, a copy of its own, the
     * receive's from 80 ns to 2.2 us at 4 KiB, its eager limit). */
    int eager = -1;
    for (int i = 0; i < nsw && eager < 0; i++)
        if (sw[i].sign == PROBE_RECV_JUMP)
            eager = i;
    for (int i = 0; i < nsw && eager < 0; i++)
        if (probe_switch_is_eager(&sw[i]))
            eager = i;
    for (int i = 0; i < nsw; i++)
        print_switch(f, p, &sw[i], i == eager, pow2);
    if (nsw > 0) {
        fprintf(f, "# %s: simcoll calibrate --probe takes %s as", probe_placement_name[p],
                nsw > 1 ? "these" : "this");
        if (eager >= 0)
            fprintf(f, " --eager-limit %ld", sw[eager].last);
        for (int i = 0, listed = 0; i < nsw; i++)
            if (i != eager)
                fprintf(f, "%s%ld", listed++ ? "," : " --breakpoints ", sw[i].last);
        fputc('\n', f);
    }
    for (int q = 0; q < PROBE_NSERIES; q++)
        for (int k = 0; k < n; k++) {
            for (int i = 0; i < nsw; i++)
                for (int j = 0; sw[i].at == k && j < nmore[i]; j++)
                    row(f, kinds[q], p, 1, more[i][j], mv[i][q][j]);
            row(f, kinds[q], p, 1, pow2[k], v[q][k]);
        }
}

/* k pairs streaming at once: senders[i] to receivers[i], each a window of
 * WINDOW messages of `bytes`, answered by one empty message; bytes a
 * second in all, timed by senders[0] between two barriers of the pairs'
 * ranks (everyone else waits at the world's). */
static double stream(const int *senders, const int *receivers, int k, long bytes,
                     const options_t *o)
{
    MPI_Request req[WINDOW];
    int role = 0, peer = -1; /* 1 sender, 2 receiver */
    for (int i = 0; i < k; i++) {
        if (me == senders[i])
            role = 1, peer = receivers[i];
        if (me == receivers[i])
            role = 2, peer = senders[i];
    }
    int iters = o->reps / 10 > 2 ? o->reps / 10 : 2, warm = o->warmup > 0 ? 1 : 0;
    double start = 0, elapsed = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int it = -warm; it < iters; it++) {
        if (it == 0) {
            MPI_Barrier(MPI_COMM_WORLD);
            start = MPI_Wtime();
        }
        if (role == 1) {
            for (int w = 0; w < WINDOW; w++)
                MPI_Isend(buffer, (int)bytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &req[w]);
            MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
            MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (role == 2) {
            /* One buffer for the whole window, as osu_bw does: the data
             * are never read. */
            for (int w = 0; w < WINDOW; w++)
                MPI_Irecv(buffer, (int)bytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &req[w]);
            MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
            MPI_Send(NULL, 0, MPI_BYTE, peer, TAG + 1, MPI_COMM_WORLD);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    elapsed = MPI_Wtime() - start;
    return (double)k * WINDOW * (double)iters * (double)bytes / elapsed;
}

/* Streams inside rank 0's node (its ranks paired in order) and from rank
 * 0's node to the first other node (rank i of one to rank i of the other),
 * for k = 1, 2, 4, ... pairs. */
static void measure_streams(FILE *f, const options_t *o)
{
    int *a = malloc((size_t)nranks * sizeof *a), *b = malloc((size_t)nranks * sizeof *b);
    if (!a || !b)
        probe_die("out of memory");
    int na = 0, nb = 0, other = probe_partner(INTER);
    for (int r = 0; r < nranks; r++) {
        if (probe_same_host(0, r))
            a[na++] = r;
        else if (other >= 0 && probe_same_host(other, r))
            b[nb++] = r;
    }
    static const long sizes[] = {8, 64, 512, 4096, 32768, 262144, 1048576};
    for (int p = INTRA; p <= INTER; p += INTER - INTRA) {
        int most = p == INTRA ? na / 2 : (na < nb ? na : nb);
        for (int k = 1; k <= most; k *= 2)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                if (sizes[s] > o->max_size)
                    break;
                /* Inside the node the first k ranks send to the next k. */
                const int *snd = a, *rcv = p == INTRA ? a + k : b;
                row(f, "bandwidth", p, k, sizes[s], stream(snd, rcv, k, sizes[s], o));
            }
    }
    free(a);
    free(b);
}

extern char **environ;

static void header(FILE *f, int argc, char **argv)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING], date[64];
    int len = 0;
    MPI_Get_library_version(version, &len);
    char *eol = strchr(version, '\n');
    if (eol)
        *eol = '\0';
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    fprintf(f, "# simcoll-probe 1: measurements for simcoll calibrate --probe and simcoll "
               "validate\n");
    fprintf(f, "# date: %s\n# mpi: %s\n# command:", date, version);
    for (int i = 0; i < argc; i++)
        fprintf(f, " %s", argv[i]);
    fprintf(f, "\n# ranks: %d\n", nranks);
    for (int r = 0; r < nranks; r++)
        fprintf(f, "# rank %d: host %s, cpu %d, socket %d, numa %d, l3 %d\n", r, places[r].host,
                places[r].cpu, places[r].socket, places[r].numa, places[r].l3);
    for (int r = 0; r < nranks; r++) {
        int first = 1;
        for (int q = 0; q < r && first; q++)
            first = !probe_same_host(q, r);
        if (first)
            fprintf(f, "# host %s: %d cores, %d socket%s\n", places[r].host, places[r].cores,
                    places[r].sockets, places[r].sockets == 1 ? "" : "s");
    }
    char warning[1024];
    shared_cores(warning, sizeof warning);
    if (*warning) {
        fprintf(f, "# warning: %s\n", warning);
        fprintf(stderr, "simcoll-probe: warning: %s\n", warning);
    }
    static const char *const where[NPLACEMENTS] = {
        "rank 0's host, socket, NUMA domain and cache", "rank 0's NUMA domain, another cache",
        "rank 0's socket, another NUMA domain", "rank 0's host, another socket", "another host"};
    for (int p = 0; p < NPLACEMENTS; p++) {
        int peer = probe_partner(p);
        if (peer < 0)
            fprintf(f, "# pair %s: none (no rank on %s)\n", probe_placement_name[p], where[p]);
        else
            fprintf(f, "# pair %s: ranks 0 and %d\n", probe_placement_name[p], peer);
    }
    /* What the library's own controls forced, for the collectives. */
    for (char **e = environ; *e; e++)
        if (!strncmp(*e, "OMPI_MCA_coll", 13) || !strncmp(*e, "MPIR_CVAR_", 10) ||
            !strncmp(*e, "I_MPI_ADJUST_", 13) || !strncmp(*e, "MV2_", 4))
            fprintf(f, "# environment: %s\n", *e);
    fprintf(f, "# columns: kind placement pairs bytes value (seconds; bandwidth in bytes/s "
               "in all), or collective NAME np bytes seconds\n");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    options_t o;
    parse_options(argc, argv, &o);
    if (nranks < 2)
        probe_die("needs at least 2 ranks (mpirun -np 2 or more), got %d", nranks);
    gather_places(&o);
    FILE *f = stdout;
    if (me == 0 && o.out) {
        size_t len = strlen(o.out) + sizeof ".part";
        if (!(partial = malloc(len)))
            probe_die("out of memory");
        snprintf(partial, len, "%s.part", o.out);
        if (!(f = fopen(partial, "w"))) {
            free(partial);
            partial = NULL;
            probe_die("-o '%s': cannot write it", o.out);
        }
    }
    buffer = malloc((size_t)o.max_size);
    double *samples = malloc((size_t)o.reps * sizeof *samples);
    if (!buffer || !samples)
        probe_die("out of memory for messages of %ld bytes", o.max_size);
    memset(buffer, 1, (size_t)o.max_size);
    if (me == 0)
        header(f, argc, argv);
    for (int p = 0; p < NPLACEMENTS && !o.skip_p2p; p++) {
        int peer = probe_partner(p);
        if (peer >= 0)
            measure_pair(f, p, peer, &o, samples);
    }
    if (!o.skip_p2p)
        measure_streams(f, &o);
    probe_measure_collectives(f, &o, me, nranks);
    if (o.call_costs)
        probe_measure_call_costs(f, &o, me, nranks, buffer, samples);
    if (me == 0 && f != stdout && (fclose(f) != 0 || rename(partial, o.out) != 0))
        probe_die("-o '%s': cannot write it", o.out);
    free(partial);
    free(samples);
    free(buffer);
    free(places);
    MPI_Finalize();
    return 0;
}
