/* A rank's own tiles (mpi_internal.h): their partials from the handle's public calls where one
 * gives them, else from the library-internal partials on host memory, and the copies of the
 * handle's memory to the host. */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"
#include "op_table.h"
#include "partials.h"
#include "rules.h"

/* The public call whose result is a tile's partial, or 0 when none is: dot (no axis call) and
 * f64 nrm2 (three scaled sums). nrm2 of f16/bf16/f32 accumulates x*x exactly in f64 from +0.0 and
 * sum_squares into f64 from -0.0, which give the same sums of squares, so its partials are
 * sum_squares's. */
int mpi_public_level0(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, hipreduce_op* op0,
                      hipreduce_dtype* out0)
{
    const int acc = hr_acc_of((int)op, (int)in, (int)out);
    if (op == HIPREDUCE_OP_DOT || acc == HR_ACC_NRM2_F64) return 0;
    *op0 = op == HIPREDUCE_OP_NRM2 ? HIPREDUCE_OP_SUM_SQUARES : op;
    *out0 = acc == HR_ACC_F32 ? HIPREDUCE_F32 : HIPREDUCE_F64;
    return 1;
}

/* Tile data stays where it is on a cpu-device handle; HIPREDUCE_MPI_TEST_STAGE=1 stages it as on a
 * GPU (the tests' way to run the GPU's path on the cpu device). */
int mpi_reads_host(hipreduce_handle h)
{
    unsigned threads = 0;
    const char* stage = getenv("HIPREDUCE_MPI_TEST_STAGE");
    if (stage && stage[0] == '1') return 0;
    return hipreduce_get_threads(h, &threads) == HIPREDUCE_STATUS_SUCCESS && threads > 0;
}

/* Copies bytes of the handle's memory to host memory (src/partials.h). */
hipreduce_status mpi_to_host(hipreduce_handle h, const void* src, uint64_t bytes, void* dst)
{
    if (bytes == 0) return HIPREDUCE_STATUS_SUCCESS;
    if (mpi_reads_host(h)) {
        memcpy(dst, src, (size_t)bytes);
        return HIPREDUCE_STATUS_SUCCESS;
    }
    return hr_internal_partials_copy(h, dst, src, (size_t)bytes, 0);
}

enum { STAGE_TILES = 64 }; /* tiles per staged chunk on a GPU handle */

/* Partials of `tiles` consecutive tiles of a level at x (level 0: also y, dot's), count items of
 * inner columns each, into dst, on the host. */
hipreduce_status mpi_host_tiles(const mpi_call* c, const mpi_geometry* g, int level, const unsigned char* x,
                                const unsigned char* y, uint64_t count, uint64_t tiles, unsigned char* dst)
{
    if (tiles == 0) return HIPREDUCE_STATUS_SUCCESS;
    if (g->strided) return hr_internal_partials_strided(c->op, c->in, c->out, level, x, count, g->inner, tiles, dst);
    return hr_internal_partials_tiles(c->op, c->in, c->out, level, x, y, count, tiles, dst);
}

/* Partials of `tiles` consecutive level-0 tiles at x (and y) of count items, into dst. */
hipreduce_status mpi_local_tiles(const mpi_call* c, const mpi_geometry* g, const unsigned char* x,
                                 const unsigned char* y, uint64_t count, uint64_t tiles, size_t acc,
                                 unsigned char* dst)
{
    if (tiles == 0) return HIPREDUCE_STATUS_SUCCESS;
    const uint64_t tile = g->tile, inner = g->inner;
    const size_t ielem = (size_t)hr_dtype_bytes((int)c->in) * (size_t)inner, iacc = acc * (size_t)inner;
    hipreduce_op op0;
    hipreduce_dtype out0;
    hipreduce_status s = HIPREDUCE_STATUS_SUCCESS;
    if (mpi_public_level0(c->op, c->in, c->out, &op0, &out0)) {
        /* full tiles as rows (or [tiles][256][inner] blocks), then the level's last, shorter one */
        const uint64_t full = count == tiles * tile ? tiles : tiles - 1, rest = count - full * tile;
        const unsigned char* last = x + full * tile * ielem;
        if (full > 0) s = hipreduce_reduce_axis(c->handle, op0, c->in, x, full, tile, inner, out0, dst, HIPREDUCE_RESULT_HOST);
        if (s == HIPREDUCE_STATUS_SUCCESS && full < tiles)
            s = g->strided ? hipreduce_reduce_axis(c->handle, op0, c->in, last, 1, rest, inner, out0, dst + full * iacc,
                                                   HIPREDUCE_RESULT_HOST)
                           : hipreduce_reduce(c->handle, op0, c->in, last, rest, out0, dst + full * acc, HIPREDUCE_RESULT_HOST);
        return s;
    }
    if (mpi_reads_host(c->handle)) return mpi_host_tiles(c, g, 0, x, y, count, tiles, dst);
    const uint64_t chunk = STAGE_TILES * tile;
    unsigned char* host = (unsigned char*)malloc((size_t)(y ? 2 : 1) * (size_t)chunk * ielem);
    if (host == NULL) return HIPREDUCE_STATUS_ALLOCATION_FAILED;
    for (uint64_t t = 0; t < tiles && s == HIPREDUCE_STATUS_SUCCESS; t += STAGE_TILES) {
        const uint64_t first = t * tile, k = count - first < chunk ? count - first : chunk;
        s = mpi_to_host(c->handle, x + first * ielem, k * ielem, host);
        if (s == HIPREDUCE_STATUS_SUCCESS && y) s = mpi_to_host(c->handle, y + first * ielem, k * ielem, host + k * ielem);
        if (s == HIPREDUCE_STATUS_SUCCESS)
            s = mpi_host_tiles(c, g, 0, host, y ? host + k * ielem : NULL, k, hr_tiles(k, tile), dst + t * iacc);
    }
    free(host);
    return s;
}
