/* Binomial-tree broadcast (MPICH's MPIR_Bcast for short messages).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "algorithms/steps.h"
#include "../collectives.h"

/* With relative rank r = (rank - root) mod p, a rank receives from r minus
 * its lowest set bit, then sends to r + 2^j for every 2^j below that bit,
 * largest first, with blocking sends. Cost on one level with sends that
 * hold the sender for the whole transfer: ceil(log2 p)(alpha + m beta). */
sc_err_t sc_binomial_down(sc_comm_t *comm, int root, char *buf, int tag, sc_subtree_part_t part,
                          const void *ctx)
{
    int rank = comm->rank, p = comm->size;
    int rel = (rank - root + p) % p;
    int mask = sc_binomial_mask(rel, p);
    size_t offset, size;
    part(ctx, p, rel, mask, &offset, &size);
    if (rel && size) {
        sc_err_t err = sc_recv(comm, buf + offset, size, (rank - mask + p) % p, tag);
        if (err)
            return err;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (rel + mask >= p)
            continue;
        part(ctx, p, rel + mask, mask, &offset, &size);
        if (!size)
            continue;
        sc_err_t err = sc_send(comm, buf + offset, size, (rank + mask) % p, tag);
        if (err)
            return err;
    }
    return SC_OK;
}

/* Every subtree's part is the whole message. */
static void whole(const void *ctx, int p, int rel, int mask, size_t *offset, size_t *size)
{
    (void)p;
    (void)rel;
    (void)mask;
    *offset = 0;
    *size = ((const sc_coll_args_t *)ctx)->bytes;
}

sc_err_t sc_bcast_binomial(sc_comm_t *comm, const sc_coll_args_t *args)
{
    if (args->bytes == 0)
        return SC_OK;
    return sc_binomial_down(comm, args->root, args->recvbuf, SC_TAG_BCAST, whole, args);
}
