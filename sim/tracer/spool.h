/* The tracer's spool: what each rank appends to DIR/spool/rank-N.spool as
 * its application runs, and what sc_tracer_convert turns into an OTF2
 * archive at MPI_Finalize (or simcoll-trace-recover after a run that was
 * killed). Shared by libsimcoll-trace.so (spool_write.c, which writes it)
 * and the conversion (spool_read.c, which reads it) only.
 *
 * The file: the 8 bytes "SCSPOOL2", then frames. A frame is its payload's
 * length (2 bytes, little-endian; 0xffff: 4 more bytes give it) and the
 * payload: items, each a kind byte (sc_spool_kind_t) and its fields,
 * unsigned numbers as LEB128 varints (7 bits a byte, lowest first), signed
 * ones zigzagged first (u: unsigned, s: signed below). The first frame
 * holds HEADER and HOST; each later one a whole call: what it did, then
 * its CALL; the last MPI_Finalize's END frame. Frames are written whole,
 * so a file cut anywhere (a killed run) is read to its last whole frame,
 * that is to its last whole call. Compact because writing it is most of
 * the tracer's cost: a call takes 10 to 30 bytes.
 *
 * Communicators are numbered by each rank: 0 MPI_COMM_WORLD, 1
 * MPI_COMM_SELF, then 2, 3, ... in the order of the rank's COMM items.
 * Each has an id all its ranks share: the world 0, self 1, then (its first
 * rank's world rank + 1) << 32 | that rank's count of communicators it was
 * first of. Times are nanoseconds of the rank's MPI_Wtime since the
 * HEADER's instant. */
#ifndef SC_TRACER_SPOOL_H
#define SC_TRACER_SPOOL_H

#include <stdint.h>

#define SC_SPOOL_MAGIC "SCSPOOL2"
#define SC_SPOOL_VERSION 2
/* The END frame, whole, which a finished spool ends with. */
#define SC_SPOOL_END_FRAME "\x09\x00\x0fSCSPLEND"
#define SC_SPOOL_END_FRAME_LEN 11

#define SC_SPOOL_WORLD UINT64_C(0)
#define SC_SPOOL_SELF UINT64_C(1)
#define SC_SPOOL_NO_COMM UINT64_MAX

typedef enum {
    SC_SPOOL_HEADER = 1, /* u version, u world rank, u world size, u pid, then 8 bytes: the
                            rank's MPI_Wtime (a double, little-endian) at the instant the
                            ranks' clocks are put together, rank 0's leaving one barrier at
                            MPI_Init (spool_write.c) */
    SC_SPOOL_HOST,       /* u length, the host's name */
    SC_SPOOL_CALL,       /* closes a call: u function (sc_tracer_fn_t), s its start less the
                            last call's end (the first: less the HEADER's instant), u its
                            duration */
    SC_SPOOL_SEND,       /* blocking send: u comm, s peer (its rank there), s tag, u bytes */
    SC_SPOOL_RECV,       /* blocking receive: u comm, s peer, s tag as the status says, u bytes */
    SC_SPOOL_ISEND,      /* u comm, s peer, s tag, u bytes, u request id */
    SC_SPOOL_IRECV,      /* posted: u comm, u request id (the rest comes with its end) */
    SC_SPOOL_ISEND_DONE, /* u request id */
    SC_SPOOL_IRECV_DONE, /* u comm, s peer, s tag as the status says, u bytes, u request id */
    SC_SPOOL_TEST,       /* u request id: a test that did not complete it */
    SC_SPOOL_CANCELLED,  /* u request id: cancelled */
    SC_SPOOL_COLL,       /* u OTF2_CollectiveOp, u comm, s root (-1: none), u bytes sent,
                            u bytes received, as Score-P counts them */
    SC_SPOOL_COMM,       /* a communicator made: u id, u its parent's id (SC_SPOOL_NO_COMM if
                            unknown), u size, u this rank's rank in it */
    SC_SPOOL_MEMBERS,    /* its first rank's: u n, then n world ranks, in its order */
    SC_SPOOL_END,        /* MPI_Finalize: the 8 bytes "SCSPLEND"; nothing follows */
} sc_spool_kind_t;

/* The MPI functions the tracer records, with the role their OTF2 region
 * has: one list for the tracer's wrappers and the converter's regions. */
#define SC_TRACER_FUNCTIONS(X)                                                                     \
    X(MPI_Init, FUNCTION)                                                                          \
    X(MPI_Init_thread, FUNCTION)                                                                   \
    X(MPI_Finalize, FUNCTION)                                                                      \
    X(MPI_Abort, FUNCTION)                                                                         \
    X(MPI_Send, POINT2POINT)                                                                       \
    X(MPI_Ssend, POINT2POINT)                                                                      \
    X(MPI_Bsend, POINT2POINT)                                                                      \
    X(MPI_Rsend, POINT2POINT)                                                                      \
    X(MPI_Isend, POINT2POINT)                                                                      \
    X(MPI_Issend, POINT2POINT)                                                                     \
    X(MPI_Ibsend, POINT2POINT)                                                                     \
    X(MPI_Irsend, POINT2POINT)                                                                     \
    X(MPI_Recv, POINT2POINT)                                                                       \
    X(MPI_Irecv, POINT2POINT)                                                                      \
    X(MPI_Sendrecv, POINT2POINT)                                                                   \
    X(MPI_Sendrecv_replace, POINT2POINT)                                                           \
    X(MPI_Wait, POINT2POINT)                                                                       \
    X(MPI_Waitall, POINT2POINT)                                                                    \
    X(MPI_Waitany, POINT2POINT)                                                                    \
    X(MPI_Waitsome, POINT2POINT)                                                                   \
    X(MPI_Test, POINT2POINT)                                                                       \
    X(MPI_Testall, POINT2POINT)                                                                    \
    X(MPI_Testany, POINT2POINT)                                                                    \
    X(MPI_Testsome, POINT2POINT)                                                                   \
    X(MPI_Cancel, POINT2POINT)                                                                     \
    X(MPI_Barrier, BARRIER)                                                                        \
    X(MPI_Bcast, COLL_ONE2ALL)                                                                     \
    X(MPI_Reduce, COLL_ALL2ONE)                                                                    \
    X(MPI_Allreduce, COLL_ALL2ALL)                                                                 \
    X(MPI_Gather, COLL_ALL2ONE)                                                                    \
    X(MPI_Gatherv, COLL_ALL2ONE)                                                                   \
    X(MPI_Scatter, COLL_ONE2ALL)                                                                   \
    X(MPI_Scatterv, COLL_ONE2ALL)                                                                  \
    X(MPI_Allgather, COLL_ALL2ALL)                                                                 \
    X(MPI_Allgatherv, COLL_ALL2ALL)                                                                \
    X(MPI_Alltoall, COLL_ALL2ALL)                                                                  \
    X(MPI_Alltoallv, COLL_ALL2ALL)                                                                 \
    X(MPI_Alltoallw, COLL_ALL2ALL)                                                                 \
    X(MPI_Reduce_scatter, COLL_ALL2ALL)                                                            \
    X(MPI_Reduce_scatter_block, COLL_ALL2ALL)                                                      \
    X(MPI_Scan, COLL_OTHER)                                                                        \
    X(MPI_Exscan, COLL_OTHER)                                                                      \
    X(MPI_Comm_split, COLL_OTHER)                                                                  \
    X(MPI_Comm_split_type, COLL_OTHER)                                                             \
    X(MPI_Comm_dup, COLL_OTHER)                                                                    \
    X(MPI_Comm_dup_with_info, COLL_OTHER)                                                          \
    X(MPI_Comm_create, COLL_OTHER)                                                                 \
    X(MPI_Comm_create_group, COLL_OTHER)                                                           \
    X(MPI_Cart_create, COLL_OTHER)                                                                 \
    X(MPI_Cart_sub, COLL_OTHER)                                                                    \
    X(MPI_Graph_create, COLL_OTHER)                                                                \
    X(MPI_Dist_graph_create, COLL_OTHER)                                                           \
    X(MPI_Dist_graph_create_adjacent, COLL_OTHER)                                                  \
    X(MPI_Intercomm_merge, COLL_OTHER)                                                             \
    X(MPI_Comm_free, COLL_OTHER)

#define SC_TRACER_FN_ENUM(name, role) SC_FN_##name,
typedef enum { SC_TRACER_FUNCTIONS(SC_TRACER_FN_ENUM) SC_FN_COUNT } sc_tracer_fn_t;
#undef SC_TRACER_FN_ENUM

#endif
