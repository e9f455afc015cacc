/* What the run of a program and of a trace share: ranks.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "ranks.h"

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/engine/run.h"
#include "sim/simgrid/engine.h"
#include "sim/simgrid/engine_hosts.h"

sc_err_t sc_ranks_start(const sc_platform_t *plat, int p, const int *node_of, const int *domain_of,
                        const sc_model_t *model, sc_scratch_t *scratch, int receives, int messages,
                        xbt_main_func_t rank_main, sc_world_t **world)
{
    sc_child_step("loading the platform");
    sc_engine_boot(plat, p);
    sc_err_t err = sc_world_create(model, scratch, receives, world);
    if (!err && messages)
        sc_world_record_messages(*world, SC_RUN_MAX_MESSAGES);
    for (int r = 0; !err && r < p; r++) {
        char name[32];
        snprintf(name, sizeof name, "rank-%d", r);
        sg_host_t host = sc_engine_host(plat, node_of[r], domain_of[r]);
        sg_actor_t actor = sg_actor_init(name, host);
        sg_actor_set_data(actor, sc_world_comm(*world, r));
        sg_actor_start(actor, rank_main, 0, NULL);
    }
    return err;
}

int sc_ranks_simulate(const int *finished, int p)
{
    simgrid_run();
    int unfinished = 0;
    for (int r = 0; r < p; r++)
        unfinished += !finished[r];
    return unfinished;
}

void sc_ranks_traffic(const sc_world_t *world, int p, sc_traffic_t *total, double *max_rank_bytes)
{
    *total = (sc_traffic_t){0};
    *max_rank_bytes = 0;
    for (int r = 0; r < p; r++) {
        const sc_traffic_t *tr = sc_world_traffic(world, r);
        double sent = 0;
        for (int l = 0; l < SC_MAX_LEVELS; l++) {
            total->level_messages[l] += tr->level_messages[l];
            total->level_bytes[l] += tr->level_bytes[l];
            sent += tr->level_bytes[l];
        }
        if (sent > *max_rank_bytes)
            *max_rank_bytes = sent;
        if (tr->path_bytes > total->path_bytes)
            total->path_bytes = tr->path_bytes;
    }
}

void sc_ranks_put_messages(const sc_world_t *world, sc_wire_t *out)
{
    long n;
    int overflow;
    const sc_msg_record_t *msgs = sc_world_messages(world, &n, &overflow);
    sc_wire_put(out, &n, sizeof n);
    sc_wire_put_int(out, overflow);
    if (n)
        sc_wire_put(out, msgs, (size_t)n * sizeof *msgs);
}

int sc_ranks_get_messages(sc_wire_t *in, sc_msg_record_t **msgs, long *n, int *overflow,
                          sc_err_t *err)
{
    int ok = sc_wire_get(in, n, sizeof *n) && sc_wire_get_int(in, overflow) && *n >= 0 &&
             *n <= SC_RUN_MAX_MESSAGES;
    if (ok && *n && !(*msgs = malloc((size_t)*n * sizeof **msgs)))
        *err = sc_error(SC_ERR_RUN, "out of memory for %ld messages", *n);
    if (ok && *msgs)
        ok = sc_wire_get(in, *msgs, (size_t)*n * sizeof **msgs);
    return ok;
}

sc_err_t sc_ranks_run_child(sc_child_fn fn, void *arg, int *receives, const char *what,
                            sc_wire_t *in, int *short_of)
{
    while (1) {
        sc_err_t err = sc_child_run(fn, arg, SC_ERR_RUN, what, in);
        if (err)
            return err;
        if (!sc_wire_get_int(in, short_of))
            *short_of = -1; /* cut short */
        if (*short_of <= *receives)
            return SC_OK;
        /* A message may have been seen late: run again with enough receives. */
        sc_wire_free(in);
        *receives = *short_of > 2 * *receives ? *short_of : 2 * *receives;
    }
}
