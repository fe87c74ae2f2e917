/* A rank's own tiles (mpi_internal.h): their partials from the handle's public calls where one
 * gives them, else from the library-internal partials on host memory, the copies of the handle's
 * memory to the host, and the local axis call of any op (a plan for the plan-only ones). */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"
#include "op_table.h"
#include "partials.h"
#include "rules.h"

/* How a tile's partial comes from the handle's public calls: PUBLIC_VALUE, the result of op0
 * into out0 (the accumulator's dtype) is the partial: float sums and products, mean (sum's
 * partials), nrm2 of f16/bf16/f32 (it accumulates x*x exactly in f64 from +0.0, sum_squares into
 * f64 from -0.0: the same sums of squares); PUBLIC_MOMENTS, var_mean's results with correction 0
 * are the moments' m (m * (n / n), exact) and mean, the count being the tile's elements; none (0)
 * for dot (no axis call), f64 nrm2 (three scaled sums), nanmean (its count) and logsumexp. */
int mpi_public_level0(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, hipreduce_op* op0,
                      hipreduce_dtype* out0)
{
    const int acc = hr_acc_of((int)op, (int)in, (int)out);
    if (acc == HR_ACC_MOM_F32 || acc == HR_ACC_MOM_F64) {
        *op0 = HIPREDUCE_OP_VAR_MEAN;
        *out0 = acc == HR_ACC_MOM_F32 ? HIPREDUCE_F32 : HIPREDUCE_F64;
        return PUBLIC_MOMENTS;
    }
    if (op == HIPREDUCE_OP_DOT || (acc != HR_ACC_F32 && acc != HR_ACC_F64)) return 0;
    *op0 = op == HIPREDUCE_OP_NRM2 ? HIPREDUCE_OP_SUM_SQUARES : op == HIPREDUCE_OP_MEAN ? HIPREDUCE_OP_SUM : op;
    *out0 = acc == HR_ACC_F32 ? HIPREDUCE_F32 : HIPREDUCE_F64;
    return PUBLIC_VALUE;
}

hipreduce_status mpi_axis_call(hipreduce_handle h, hipreduce_op op, hipreduce_dtype in, const void* x, uint64_t outer,
                               uint64_t extent, uint64_t inner, double correction, hipreduce_dtype out, void* values,
                               void* values2)
{
    if (hr_op_call((int)op) != HR_CALL_PLAN && correction == 0)
        return hipreduce_reduce_axis(h, op, in, x, outer, extent, inner, out, values, HIPREDUCE_RESULT_HOST);
    hipreduce_plan plan = NULL;
    hipreduce_status s = mpi_axis_plan(h, op, in, outer, extent, inner, correction, out, &plan);
    if (s != HIPREDUCE_STATUS_SUCCESS) return s;
    const hipreduce_operands o = {.x = x, .values = values, .values2 = hr_op_outputs((int)op) > 1 ? values2 : NULL};
    s = hipreduce_plan_run(h, plan, &o, HIPREDUCE_RESULT_HOST);
    hipreduce_plan_destroy(plan);
    return s;
}

hipreduce_status mpi_axis_plan(hipreduce_handle h, hipreduce_op op, hipreduce_dtype in, uint64_t outer, uint64_t extent,
                               uint64_t inner, double correction, hipreduce_dtype out, hipreduce_plan* plan)
{
    const uint64_t extents[3] = {outer, extent, inner};
    hipreduce_reduction_desc d;
    hipreduce_status s = hipreduce_desc_init(&d, op, in, out, 3, extents);
    if (s != HIPREDUCE_STATUS_SUCCESS) return s;
    d.num_axes = 1;
    d.axes[0] = 1;
    d.order = inner > 1 ? HIPREDUCE_ORDER_STRIDED : HIPREDUCE_ORDER_LOGICAL;
    d.correction = correction;
    return hipreduce_plan_create(h, &d, plan);
}

hipreduce_status mpi_public_rows(const mpi_call* c, const mpi_geometry* g, const unsigned char* x, uint64_t rows,
                                 uint64_t extent, size_t acc, unsigned char* dst)
{
    hipreduce_op op0;
    hipreduce_dtype out0;
    const int how = mpi_public_level0(c->op, c->in, c->out, &op0, &out0);
    if (rows == 0) return HIPREDUCE_STATUS_SUCCESS;
    if (how == PUBLIC_VALUE) return hipreduce_reduce_axis(c->handle, op0, c->in, x, rows, extent, g->inner, out0, dst,
                                                          HIPREDUCE_RESULT_HOST);
    /* the moments: m and the mean, then (mean, m, count) in the accumulator's layout (device/stats.h) */
    const uint64_t partials = rows * g->inner;
    const size_t f = (size_t)hr_dtype_bytes((int)out0);
    unsigned char* values = (unsigned char*)malloc((size_t)partials * 2 * f + 1);
    if (values == NULL) return HIPREDUCE_STATUS_ALLOCATION_FAILED;
    const hipreduce_status s = mpi_axis_call(c->handle, op0, c->in, x, rows, extent, g->inner, 0.0, out0,
                                             values, values + partials * f);
    for (uint64_t p = 0; p < partials && s == HIPREDUCE_STATUS_SUCCESS; ++p) {
        unsigned char* a = dst + p * acc; /* mean, m, count: hr_mom_f32 / hr_mom_f64 */
        memset(a, 0, acc);
        memcpy(a, values + (partials + p) * f, f);
        memcpy(a + f, values + p * f, f);
        memcpy(a + 2 * f, &extent, sizeof extent);
    }
    free(values);
    return s;
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
        s = mpi_public_rows(c, g, x, full, tile, acc, dst);
        if (s == HIPREDUCE_STATUS_SUCCESS && full < tiles)
            s = mpi_public_rows(c, g, x + full * tile * ielem, 1, rest, acc, dst + full * iacc);
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
