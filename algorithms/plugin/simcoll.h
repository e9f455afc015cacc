/* simcoll's public API for algorithms of your own (plug-ins).
 *
 * A plug-in is one C file that includes this header, defines one function
 * per algorithm, and lists them in a table named simcoll_algorithms:
 *
 *     #include <simcoll.h>
 *
 *     static sc_err_t my_ring(sc_comm_t *comm, const sc_coll_args_t *args)
 *     {
 *         ... sc_send, sc_recv, sc_sendrecv, sc_isend, sc_irecv, sc_wait ...
 *     }
 *
 *     const sc_algo_t simcoll_algorithms[] = {
 *         {"my_ring", SC_ALLGATHER, my_ring, NULL, 0, "my ring allgather"},
 *         {NULL, 0, NULL, NULL, 0, NULL},
 *     };
 *
 * simcoll compiles it (simcoll --load my_ring.c ...) with the system's C
 * compiler against this header, or loads it already built as a shared
 * object (cc -shared -fPIC $(pkg-config --cflags simcoll) my_ring.c -o
 * my_ring.so; --load ./my_ring.so), and runs its algorithms like its own:
 * every result is checked against the sequential reference, and a crash,
 * a deadlock or a wrong result is reported as such, naming the algorithm.
 * `simcoll new-algo COLLECTIVE NAME -o FILE.c` writes a commented skeleton.
 *
 * What an algorithm sees (algorithms/p2p.h, algorithms/registry.h):
 *   comm->rank, comm->size   this rank and the number of ranks;
 *   args->sendbuf, recvbuf   this rank's input and where the result goes
 *                            (allgather: size blocks of args->bytes, in rank
 *                            order; bcast: the message, the root's is the
 *                            source; reduce, allreduce: the vector);
 *   args->bytes, root, op, type  the call's size, root and reduction;
 *   sc_send, sc_recv, sc_sendrecv  blocking messages with a tag;
 *   sc_isend, sc_irecv, sc_wait, sc_waitall  non-blocking ones;
 *   sc_buf_copy              a local copy (free in size-only runs);
 *   sc_vector_elems, sc_vector_combine  the vector's elements, and
 *                            combining a received vector into yours with
 *                            args->op (algorithms/reduce/vector.h).
 * Every function returns SC_OK or an error, which the algorithm returns.
 * The model field (a cost prediction) may be NULL: simcoll then prints no
 * model time. needs: 0, SC_NEEDS_POW2 for power-of-two process counts, or
 * SC_USES_MAPPING for a mapping-aware algorithm: ranks stay where MPI put
 * them and play the positions of a mapping file (--mapping FILE, from
 * simcoll map): rank r plays position sc_position(args, r), and position j
 * is played by rank sc_player(args, j).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SIMCOLL_H
#define SIMCOLL_H

#include "algorithms/collectives.h"
#include "algorithms/reduce/vector.h"

/* The name of the table a plug-in defines. */
#define SIMCOLL_ALGORITHMS "simcoll_algorithms"

#endif
