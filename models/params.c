/* The parameters of a platform, one table: what users call each, where it
 * exists, its unit and range, what carries it, who changes or fits it.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "params.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#define LINKS                                                                                      \
    (SC_AT(SC_AT_INTRA) | SC_AT(SC_AT_INTER) | SC_AT(SC_AT_RACK) | SC_AT(SC_AT_SOCKET) |           \
     SC_AT(SC_AT_NUMA) | SC_AT(SC_AT_CCX))
#define LEVELS (SC_AT(SC_AT_INTRA) | SC_AT(SC_AT_INTER))
#define DOMAINS (SC_AT(SC_AT_SOCKET) | SC_AT(SC_AT_NUMA) | SC_AT(SC_AT_CCX))
#define LEVEL(field) SC_IN_LEVEL, offsetof(sc_level_t, field)

/* Adding a parameter is one row here and its use in the model
 * (sim/protocol/protocol.c, models/cost.c); the property reader, the
 * generator's --set and its usage follow the row. The ranges are what
 * files are held to: properties by the property reader, link and host
 * attributes by sim/io/platform_file.c (beyond 1 PB/s, 10 s or 1 Ef a
 * core SimGrid aborts, deadlocks or computes something meaningless). */
const sc_param_t sc_params[] = {
    /* name, at, kind, min, max, above_min, carrier, required, constant_of, settable,
     *     fit_name, fit, doc, in and offset (sc_param_t says what each means) */
    {"latency", LINKS, SC_PARAM_DURATION, 0, 10, 0, SC_CARRIER_LINK, 0, NULL, 1, "latency",
     "the ping-pong's intercept below the first breakpoint, less o_s, o_r and the header's "
     "time (shared memory from streams alone: the template's)",
     "the one-way latency of the level's route (the network's: over two NIC links)",
     LEVEL(latency_s)},
    {"bandwidth", LINKS, SC_PARAM_BANDWIDTH, 1, 1e15, 0, SC_CARRIER_LINK, 0, NULL, 1, "bandwidth",
     "the largest streaming bandwidth (osu_bw), else 1 / the ping-pong's slope; shared memory "
     "from streams alone: the most bytes/s of any stream",
     "the bottleneck bandwidth of the level's route", LEVEL(bandwidth_Bps)},
    {"send-overhead", LEVELS | DOMAINS, SC_PARAM_PIECEWISE_TIME, 0, 1.0, 0, SC_CARRIER_PROP, 1,
     NULL, 1, "o_s",
     "least squares per segment over send-overhead samples (SMPI's Isend), else one pair's "
     "fastest stream of 1 to 64 B; shared memory from streams alone: Biband less Uniband",
     "the sender's software overhead o_s(m) of each %s message", LEVEL(send_overhead)},
    {"recv-overhead", LEVELS | DOMAINS, SC_PARAM_PIECEWISE_TIME, 0, 1.0, 0, SC_CARRIER_PROP, 0,
     NULL, 1, "o_r",
     "least squares per segment over receive-overhead samples (SMPI's Recv), else what one "
     "pair's stream and the smallest ping-pong leave; shared memory from streams alone: Uniband",
     "the receiver's software overhead o_r(m) of each %s message", LEVEL(recv_overhead)},
    {"overhead", LEVELS, SC_PARAM_DURATION, 0, 1.0, 0, SC_CARRIER_PROP, 0, "send-overhead", 0, NULL,
     NULL, "the software overhead of an %s message", LEVEL(send_overhead)},
    {"bandwidth-factor", LEVELS, SC_PARAM_PIECEWISE_FACTOR, 0, 2.0, 1, SC_CARRIER_PROP, 0, NULL, 0,
     "factor", "network, per segment: 1 / the ping-pong's slope over the bandwidth",
     "the share of the level's bandwidth an %s message gets, charged to its links",
     LEVEL(bandwidth_factor)},
    /* At least 1: the engines add the latency beyond the route's after
     * SimGrid has delivered a message, and cannot take any away
     * (sc_protocol_wire). SMPI's own default lat-factor peaks at
     * 11.6, but a factor is relative to the route's latency, which on a
     * fast network is a small part of a message's intercept: calibrate
     * fits about 110 to a rendezvous that takes 25 us more than a 0.23 us
     * route (tests/measurements/osu_latency-5.6.txt). calibrate fits it
     * only with --latency-factor, so its default report has no such
     * note, and the row no fit_name. */
    {"latency-factor", LEVELS, SC_PARAM_PIECEWISE_FACTOR, 1, 1000, 0, SC_CARRIER_PROP, 0, NULL, 0,
     NULL, NULL, "the multiple of the level's latency an %s message takes", LEVEL(latency_factor)},
    /* At most 1: a message cannot pass its links' bandwidth. calibrate
     * fits it instead of the bandwidth factor on shared memory, where one
     * pair's ping-pong shows what one core copies, not what the node's
     * memory carries for all its cores (experiments/validation/README.md,
     * ORFEO). Between a node's domains a pair copies at a rate of its own
     * (ORFEO: 32.7 GB/s in one CCX, 2.8 GB/s between two CCDs), which the
     * domains' levels may give; they take shared memory's otherwise. */
    {"flow-factor", LEVELS | DOMAINS, SC_PARAM_PIECEWISE_FACTOR, 0, 1.0, 1, SC_CARRIER_PROP, 0,
     NULL, 0, "flow factor",
     "shared memory, per segment: 1 / the ping-pong's slope over the bandwidth",
     "the most of the level's bandwidth one %s message moves at, whatever its links carry",
     LEVEL(flow_factor)},
    /* A collective call's own cost beside its messages (issue 45):
     * simcoll-probe --call-costs measured 40 ns with Open MPI 4.1 and 140
     * ns with MPICH 4.0 for a 4-byte MPI_Bcast on two cores
     * (experiments/small-messages). It is the library's work on a node's
     * core, whichever level the messages then cross: a property of the
     * node's level, intra. */
    {"call-overhead", SC_AT(SC_AT_INTRA), SC_PARAM_DURATION, 0, 1.0, 0, SC_CARRIER_PROP, 0, NULL, 1,
     "o_call",
     "the median over the eager sizes of a broadcast on two ranks less their ping-pong's "
     "one-way time (simcoll-probe --call-costs)",
     "the time each rank spends entering a collective call, before its first message (o_call)",
     LEVEL(call_overhead_s)},
    {"eager-limit", LEVELS, SC_PARAM_SIZE, 0, 0x1p40, 0, SC_CARRIER_PROP, 1, NULL, 1, NULL, NULL,
     "the largest %s message sent eagerly (bytes)", LEVEL(eager_limit)},
    {"gap", SC_AT(SC_AT_INTER), SC_PARAM_DURATION, 0, 1.0, 0, SC_CARRIER_PROP, 0, NULL, 1, "g",
     "1 / the largest rate of small messages (osu_mbw_mr, osu_bw), when below what the "
     "senders' overheads allow",
     "the gap g between messages at a node's NIC, per direction", LEVEL(gap_s)},
    /* Only where simcoll builds the network (simcoll/topology): SimGrid's
     * host_link gives a node one link a direction, with no room for a
     * second one that both directions cross (sim/io/platform_file.c). */
    {"bidirectional-bandwidth", SC_AT(SC_AT_INTER), SC_PARAM_BANDWIDTH, 1, 1e15, 0, SC_CARRIER_PROP,
     0, NULL, 1, "B_bi",
     "the largest bandwidth of a stream both ways between two nodes (osu_bibw, IMB Biband; "
     "per size, the median), when more than 5% below twice the bandwidth",
     "what a node's NIC carries in both directions together, bytes/s (none: each direction "
     "its bandwidth)",
     LEVEL(bidirectional_Bps)},
    {"header-bytes", SC_AT(SC_AT_ZONE), SC_PARAM_SIZE, 0, 65536, 0, SC_CARRIER_PROP, 1, NULL, 0,
     NULL, NULL, "the bytes of header each message carries on the wire", SC_IN_PLATFORM,
     offsetof(sc_platform_t, header_bytes)},
    {"speed", SC_AT(SC_AT_NODE), SC_PARAM_SPEED, 1e-300, 1e18, 0, SC_CARRIER_HOST, 0, NULL, 1, NULL,
     NULL, "the speed of each of a node's cores, flop/s", SC_IN_NODE,
     offsetof(sc_node_t, speed_flops)},
    {.name = NULL},
};

/* Each level's name, and its messages for documentation that names them
 * (only the properties' levels have such). */
static const struct {
    const char *name, *messages;
} levels[SC_NAT] = {
    [SC_AT_INTRA] = {"intra", "intra-node"},
    [SC_AT_INTER] = {"inter", "inter-node"},
    [SC_AT_NODE] = {"node", NULL},
    [SC_AT_RACK] = {"rack", NULL},
    [SC_AT_SOCKET] = {"socket", "between-socket"},
    [SC_AT_NUMA] = {"numa", "between-NUMA-domain"},
    [SC_AT_CCX] = {"ccx", "between-CCX"},
    [SC_AT_ZONE] = {NULL, NULL},
};

int sc_param_at_domain(sc_param_at_t at)
{
    return at == SC_AT_SOCKET ? SC_DOMAIN_SOCKET
           : at == SC_AT_NUMA ? SC_DOMAIN_NUMA
           : at == SC_AT_CCX  ? SC_DOMAIN_CCX
                              : -1;
}

int sc_param_domain_own(const sc_param_t *p, sc_param_at_t at)
{
    return sc_param_at_domain(at) >= 0 && (p->at & SC_AT(at)) && p->carrier == SC_CARRIER_PROP &&
           p->in == SC_IN_LEVEL && !p->constant_of &&
           (p->kind == SC_PARAM_PIECEWISE_TIME || p->kind == SC_PARAM_PIECEWISE_FACTOR);
}

sc_param_at_t sc_param_domain_at(int domain)
{
    assert(domain >= 0 && domain < SC_NDOMAIN_KINDS);
    return domain == SC_DOMAIN_SOCKET ? SC_AT_SOCKET
           : domain == SC_DOMAIN_NUMA ? SC_AT_NUMA
                                      : SC_AT_CCX;
}

const char *sc_param_at_name(sc_param_at_t at)
{
    return levels[at].name;
}

int sc_param_at_find(const char *name, size_t len)
{
    for (int at = 0; at < SC_NAT; at++)
        if (levels[at].name && strlen(levels[at].name) == len &&
            !strncmp(levels[at].name, name, len))
            return at;
    return -1;
}

const sc_param_t *sc_param_find(const char *name, size_t len, sc_param_at_t at)
{
    for (const sc_param_t *p = sc_params; p->name; p++)
        if ((p->at & SC_AT(at)) && strlen(p->name) == len && !strncmp(p->name, name, len))
            return p;
    return NULL;
}

void sc_param_describe(const sc_param_t *p, sc_param_at_t at, char *out, size_t len)
{
    const char *hole = strstr(p->doc, "%s");
    assert(!hole || levels[at].messages);
    if (!hole)
        snprintf(out, len, "%s", p->doc);
    else
        snprintf(out, len, "%.*s%s%s", (int)(hole - p->doc), p->doc, levels[at].messages, hole + 2);
}

sc_quantity_t sc_param_quantity(const sc_param_t *p)
{
    switch (p->kind) {
    case SC_PARAM_BANDWIDTH: return SC_QTY_BANDWIDTH;
    case SC_PARAM_SPEED: return SC_QTY_SPEED;
    case SC_PARAM_SIZE: return SC_QTY_SIZE;
    case SC_PARAM_DURATION:
    case SC_PARAM_PIECEWISE_TIME: return SC_QTY_TIME;
    case SC_PARAM_PIECEWISE_FACTOR: break;
    }
    assert(!"a factor has no unit");
    return SC_QTY_SIZE;
}

static void *field(const sc_param_t *p, void *owner)
{
    return (char *)owner + p->offset;
}

double *sc_param_double(const sc_param_t *p, void *owner)
{
    assert((p->kind == SC_PARAM_DURATION || p->kind == SC_PARAM_BANDWIDTH ||
            p->kind == SC_PARAM_SPEED) &&
           !p->constant_of);
    return field(p, owner);
}

size_t *sc_param_size(const sc_param_t *p, void *owner)
{
    assert(p->kind == SC_PARAM_SIZE);
    return field(p, owner);
}

sc_piecewise_t *sc_param_piecewise(const sc_param_t *p, void *owner)
{
    assert(p->kind == SC_PARAM_PIECEWISE_TIME || p->kind == SC_PARAM_PIECEWISE_FACTOR ||
           p->constant_of);
    return field(p, owner);
}

void sc_param_scale(const sc_param_t *p, void *owner, double factor)
{
    switch (p->kind) {
    case SC_PARAM_PIECEWISE_TIME:
    case SC_PARAM_PIECEWISE_FACTOR: {
        sc_piecewise_t *pw = sc_param_piecewise(p, owner);
        for (int k = 0; k < pw->n; k++) {
            pw->seg[k].start *= factor;
            pw->seg[k].per_byte *= factor;
        }
        return;
    }
    case SC_PARAM_SIZE: {
        size_t *bytes = sc_param_size(p, owner);
        *bytes = (size_t)((double)*bytes * factor + 0.5);
        return;
    }
    case SC_PARAM_DURATION:
    case SC_PARAM_BANDWIDTH:
    case SC_PARAM_SPEED:
        *sc_param_double(p, owner) *= factor;
        return;
    }
}
