/* Blocking calls and buffers built on a transport's isend/irecv/waitall.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "p2p.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void sc_comm_release(sc_comm_t *comm)
{
    free(comm->algo_state);
    comm->algo_state = NULL;
}

sc_err_t sc_isend(sc_comm_t *comm, const void *buf, size_t bytes, int dst,
                  int tag, sc_request_t **req)
{
    return comm->transport->isend(comm, buf, bytes, dst, tag, req);
}

sc_err_t sc_irecv(sc_comm_t *comm, void *buf, size_t bytes, int src, int tag,
                  sc_request_t **req)
{
    return comm->transport->irecv(comm, buf, bytes, src, tag, req);
}

sc_err_t sc_waitall(sc_comm_t *comm, int count, sc_request_t **reqs)
{
    return comm->transport->waitall(comm, count, reqs);
}

sc_err_t sc_waitany(sc_comm_t *comm, int count, sc_request_t **reqs, int *index,
                    int *source)
{
    return comm->transport->waitany(comm, count, reqs, index, source, 1);
}

sc_err_t sc_wait_ready(sc_comm_t *comm, int count, sc_request_t **reqs, int *index)
{
    return comm->transport->waitany(comm, count, reqs, index, NULL, 0);
}

sc_err_t sc_test(sc_comm_t *comm, sc_request_t **req, int *flag)
{
    return comm->transport->test(comm, req, flag);
}

sc_err_t sc_cancel(sc_comm_t *comm, sc_request_t **req, int *cancelled)
{
    return comm->transport->cancel(comm, req, cancelled);
}

sc_err_t sc_request_free(sc_comm_t *comm, sc_request_t **req)
{
    return comm->transport->request_free(comm, req);
}

sc_err_t sc_iprobe(sc_comm_t *comm, int src, int tag, int *flag, int *source,
                   size_t *bytes)
{
    return comm->transport->iprobe(comm, src, tag, flag, source, bytes);
}

sc_err_t sc_wait(sc_comm_t *comm, sc_request_t **req)
{
    return sc_waitall(comm, 1, req);
}

sc_err_t sc_reduce_time(sc_comm_t *comm, size_t bytes)
{
    return comm->transport->reduce_time(comm, bytes);
}

sc_err_t sc_enter_call(sc_comm_t *comm)
{
    return comm->transport->enter_call(comm);
}

sc_err_t sc_send(sc_comm_t *comm, const void *buf, size_t bytes, int dst,
                 int tag)
{
    sc_request_t *req = NULL;
    sc_err_t err = sc_isend(comm, buf, bytes, dst, tag, &req);
    return err ? err : sc_wait(comm, &req);
}

sc_err_t sc_recv(sc_comm_t *comm, void *buf, size_t bytes, int src, int tag)
{
    sc_request_t *req = NULL;
    sc_err_t err = sc_irecv(comm, buf, bytes, src, tag, &req);
    return err ? err : sc_wait(comm, &req);
}

sc_err_t sc_sendrecv(sc_comm_t *comm, const void *sendbuf, size_t sendbytes,
                     int dst, int sendtag, void *recvbuf, size_t recvbytes,
                     int src, int recvtag)
{
    sc_request_t *reqs[2] = {NULL, NULL};
    sc_err_t err = sc_irecv(comm, recvbuf, recvbytes, src, recvtag, &reqs[0]);
    if (!err)
        err = sc_isend(comm, sendbuf, sendbytes, dst, sendtag, &reqs[1]);
    /* Complete whatever was posted, even after an error, so no request
     * outlives the call. */
    sc_err_t werr = sc_waitall(comm, 2, reqs);
    return err ? err : werr;
}

void *sc_buf_alloc(sc_comm_t *comm, size_t bytes)
{
    if (comm->scratch)
        return sc_scratch_get(comm->scratch, bytes);
    return malloc(bytes ? bytes : 1);
}

void sc_buf_free(sc_comm_t *comm, void *buf)
{
    if (!comm->scratch)
        free(buf);
}

void sc_buf_copy(const sc_comm_t *comm, void *dst, const void *src,
                 size_t bytes)
{
    if (!comm->scratch && bytes && dst != src) /* onto itself: MPI_IN_PLACE */
        memcpy(dst, src, bytes);
}

int sc_moves_data(const sc_comm_t *comm)
{
    return comm->scratch == NULL;
}

/* Every buffer ever handed out stays allocated until the scratch is
 * destroyed: ranks keep pointers into older, smaller areas when a larger
 * one is made. The areas grow geometrically, so few are ever made.
 *
 * No byte of an area is ever read or written, so an area is address space
 * only (mmap, PROT_NONE, no swap reserved): a size-only run of terabytes
 * costs no memory, and an algorithm that touches data it should only have
 * sized crashes at once instead of computing on garbage. */
struct sc_scratch {
    void **areas;
    size_t *sizes;
    size_t count;
    size_t largest;
};

sc_scratch_t *sc_scratch_create(void)
{
    return calloc(1, sizeof(sc_scratch_t));
}

void *sc_scratch_get(sc_scratch_t *scratch, size_t bytes)
{
    if (scratch->count && bytes <= scratch->largest)
        return scratch->areas[scratch->count - 1];
    size_t size = scratch->largest * 2 > bytes ? scratch->largest * 2 : bytes;
    if (size == 0)
        size = 1;
    void **areas = realloc(scratch->areas, (scratch->count + 1) * sizeof *areas);
    if (areas)
        scratch->areas = areas;
    size_t *sizes = realloc(scratch->sizes, (scratch->count + 1) * sizeof *sizes);
    if (sizes)
        scratch->sizes = sizes;
    if (!areas || !sizes)
        return NULL;
    void *area = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (area == MAP_FAILED)
        return NULL;
    scratch->areas[scratch->count] = area;
    scratch->sizes[scratch->count++] = size;
    scratch->largest = size;
    return area;
}

void sc_scratch_destroy(sc_scratch_t *scratch)
{
    if (!scratch)
        return;
    for (size_t i = 0; i < scratch->count; i++)
        munmap(scratch->areas[i], scratch->sizes[i]);
    free(scratch->areas);
    free(scratch->sizes);
    free(scratch);
}
