/* The cpu device's tensor shape (device/call.h, HR_SHAPE_TENSOR): any set of axes of a strided
 * tensor. Result r is row r of the (kept..., reduced...) contiguous copy, reduced as a row; so
 * the rows are gathered, a block at a time, into the workspace and reduced there by the row path
 * (hr_cpu_run on an axis call), which gives each the bits of the simple call on its elements.
 *
 * Workspace: [the row call's own][the gathered block: x, then y for dot]. The row call asks the
 * executor for its own bytes, which are the workspace's first, so the block after them stays. */
#include <string.h>

#include "cpu_executor.h"
#include "cpu_reduce.h"

enum { HR_CPU_GATHER_BYTES = 1 << 20 }; /* a block of gathered rows: at least one row */

/* Rows gathered at a time. */
static uint64_t block_rows(const hr_call* call)
{
    const uint64_t row_bytes = call->extent * (uint64_t)hr_dtype_bytes(call->in_dtype);
    const uint64_t rows = row_bytes == 0 ? call->outer : HR_CPU_GATHER_BYTES / row_bytes;
    return rows == 0 ? 1 : rows < call->outer ? rows : call->outer;
}

/* The row call of `rows` rows at `x` (and y): what the block's reduction runs. */
static hr_call row_call(const hr_call* call, uint64_t rows, const void* x, const void* y)
{
    hr_call row = *call;
    row.shape = HR_SHAPE_AXIS;
    row.outer = rows;
    row.inner = 1;
    row.n = rows * call->extent;
    row.x = x;
    row.y = y;
    return row;
}

/* Bytes of a gathered block of rows: x's, and y's for dot. */
static size_t gather_bytes(const hr_call* call, uint64_t rows)
{
    const int inputs = hr_op_call(call->op) == HR_CALL_DOT ? 2 : 1;
    return (size_t)(rows * call->extent * (uint64_t)hr_dtype_bytes(call->in_dtype)) * (size_t)inputs;
}

size_t hr_cpu_tensor_workspace_size(const hr_call* call)
{
    const uint64_t rows = block_rows(call);
    const hr_call row = row_call(call, rows, NULL, NULL);
    return hr_cpu_workspace_size(&row) + gather_bytes(call, rows);
}

/* One element of elem bytes (1, 2, 4 or 8), as one load and one store. */
static inline void copy_element(unsigned char* dst, const unsigned char* src, size_t elem)
{
    switch (elem) {
    case 1: *dst = *src; break;
    case 2: memcpy(dst, src, 2); break;
    case 4: memcpy(dst, src, 4); break;
    default: memcpy(dst, src, 8); break;
    }
}

/* Rows walked together when the kept axis is the inner one in memory: their writes, a row apart
 * (often a multiple of 4 KiB), must share an L1 set's ways; 8 rows: 4096 x 4096 f32 column sums
 * 58-86 ms against 500-560 row by row and 240-900 with 256 rows (a loaded 2-core host). */
enum { HR_GATHER_ROWS = 8 };

/* Copies rows [r0, r0 + rows) of the contiguous copy of `base` (strides s) to dst. The walk goes
 * along whichever of the innermost kept and reduced dimensions has the smaller stride, so that
 * the reads follow memory: row by row for rows, across 8 rows at a time for columns and
 * transposes (the block's writes stay in cache either way). */
static void gather(const hr_call* call, const unsigned char* base, const int64_t* s, uint64_t r0, uint64_t rows,
                   unsigned char* dst)
{
    const hr_tensor* t = &call->tensor;
    const size_t elem = (size_t)hr_dtype_bytes(call->in_dtype);
    const int last = t->kept + t->reduced - 1;
    const uint64_t reduced = call->extent;
    const int64_t reduced_step = t->reduced ? s[last] : 0;
    const int64_t kept_step = t->kept ? s[t->kept - 1] : 0;
    const uint64_t mag_r = (uint64_t)(reduced_step < 0 ? -reduced_step : reduced_step);
    const uint64_t mag_k = (uint64_t)(kept_step < 0 ? -kept_step : kept_step);
    if (t->kept && t->reduced && rows > 1 && mag_k < mag_r) {
        int64_t row[HR_GATHER_ROWS];
        for (uint64_t c0 = 0; c0 < rows; c0 += HR_GATHER_ROWS) {
            const uint64_t count = rows - c0 < HR_GATHER_ROWS ? rows - c0 : HR_GATHER_ROWS;
            for (uint64_t i = 0; i < count; ++i) row[i] = hr_tensor_offset(t, s, 0, t->kept, r0 + c0 + i);
            unsigned char* out = dst + c0 * reduced * elem;
            for (uint64_t j = 0; j < reduced; ++j) {
                const int64_t at = hr_tensor_offset(t, s, t->kept, t->reduced, j);
                for (uint64_t i = 0; i < count; ++i)
                    copy_element(out + (i * reduced + j) * elem, base + (row[i] + at) * (int64_t)elem, elem);
            }
        }
        return;
    }
    /* Row by row: the innermost reduced dimension is walked by its stride, the others by the index. */
    const uint64_t inner = t->reduced ? t->extent[last] : 1;
    const int64_t step = reduced_step * (int64_t)elem;
    const uint64_t outer_reduced = reduced / inner;
    for (uint64_t r = r0; r < r0 + rows; ++r) {
        const int64_t row = hr_tensor_offset(t, s, 0, t->kept, r);
        for (uint64_t o = 0; o < outer_reduced; ++o) {
            const unsigned char* p =
                base + (row + (t->reduced > 1 ? hr_tensor_offset(t, s, t->kept, t->reduced - 1, o) : 0)) * (int64_t)elem;
            if (step == (int64_t)elem) {
                memcpy(dst, p, inner * elem);
                dst += inner * elem;
                continue;
            }
            for (uint64_t i = 0; i < inner; ++i, p += step, dst += elem) copy_element(dst, p, elem);
        }
    }
}

hipreduce_status hr_cpu_run_tensor(hr_cpu* cpu, const hr_call* call)
{
    const uint64_t rows = block_rows(call);
    const hr_call first = row_call(call, rows, NULL, NULL);
    const size_t own = hr_cpu_workspace_size(&first);
    hipreduce_status status = HIPREDUCE_STATUS_SUCCESS;
    unsigned char* workspace = hr_cpu_workspace(cpu, own + gather_bytes(call, rows), &status);
    if (workspace == NULL) return status;
    unsigned char* bx = workspace + own;
    unsigned char* by = bx + (size_t)(rows * call->extent * (uint64_t)hr_dtype_bytes(call->in_dtype));
    const size_t out_bytes = (size_t)hr_dtype_bytes(call->out_dtype);
    for (uint64_t r0 = 0; r0 < call->outer; r0 += rows) {
        const uint64_t count = call->outer - r0 < rows ? call->outer - r0 : rows;
        gather(call, (const unsigned char*)call->x, call->tensor.xstride, r0, count, bx);
        if (call->y) gather(call, (const unsigned char*)call->y, call->tensor.ystride, r0, count, by);
        hr_call block = row_call(call, count, bx, call->y ? by : NULL);
        block.result = (unsigned char*)call->result + r0 * out_bytes;
        block.result2 = call->result2 ? (unsigned char*)call->result2 + r0 * out_bytes : NULL;
        block.index = call->index ? call->index + r0 : NULL;
        status = hr_cpu_run(cpu, &block);
        if (status != HIPREDUCE_STATUS_SUCCESS) return status;
    }
    return HIPREDUCE_STATUS_SUCCESS;
}
