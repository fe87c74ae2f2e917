/* The axis and segment drivers as host templates over (operator, warp width): the levels and
 * launches of device/segments.h's kernels, and their workspace (the partials of the levels
 * between the input and the results). One function both sizes and runs a call, so the size
 * query and the launches cannot disagree. */
#ifndef HIPREDUCE_SEGMENT_DRIVERS_H
#define HIPREDUCE_SEGMENT_DRIVERS_H

#include "drivers.h"
#include "segments.h"

namespace hr {

/* A validated axis or segment call (types.h's hr_call, with device pointers). */
struct shaped_call {
    bool segments;             /* CSR segments; else the axis [outer][extent][inner] */
    const void* input;
    const uint64_t* offsets;   /* device memory */
    uint64_t outer, extent, inner, num_segments;
    void* result;              /* device memory: the results (argmin/argmax: the values) */
    int64_t* index;            /* argmin/argmax: device memory for the indices; null otherwise */
    int out_dtype;
    unsigned char* workspace;  /* 16-byte aligned partials region (may be null when none is needed) */
    uint32_t* counters;        /* zeroed arrival counters (the rows' tree path), left zero */
    bool size_only;            /* only report the bytes (the size query, and before a run) */
    hipStream_t stream;
    const device_info* dev;
};

static inline uint64_t round16(uint64_t b) { return (b + 15) / 16 * 16; }

/* Grid of a grid-stride launch over `units` of `per_block` each, at most 8 blocks per SM. */
static inline unsigned grid_over(uint64_t units, uint64_t per_block, const device_info& dev)
{
    const uint64_t blocks = (units + per_block - 1) / per_block, cap = (uint64_t)dev.sm_count * 8;
    return (unsigned)(blocks == 0 ? 1 : blocks < cap ? blocks : cap);
}

template <class R, int W, int G>
hipError_t launch_segments(const shaped_call& c, const seg_args& a)
{
    hipLaunchKernelGGL((segments_kernel<R, W, G>), dim3(grid_over(a.items, HR_TILE_LANES / G, *c.dev)),
                       dim3(HR_TILE_LANES), 0, c.stream, a);
    return hipGetLastError();
}

/* Few rows longer than a tile: the full reduction's single-launch kernel, one plan per row,
 * row_blocks consecutive blocks per row (kernels.h), so each row gets the bits of hipreduce_reduce by
 * construction; the rows' partials and arrival counters lie one plan's size apart. */
template <class R, int W> hipError_t run_rows_tree(const shaped_call& c, shaped_need* need)
{
    using acc = typename R::acc;
    hr_tree_plan plan;
    if (hr_plan_tree(c.extent, tile_items<R>(), sizeof(acc), &plan) != 0) return hipErrorInvalidValue;
    const uint64_t rows = c.outer, row_partials = round16(plan.partial_bytes), row_counters = round16(plan.counter_bytes);
    need->partials = rows * row_partials;
    need->counters = rows * row_counters;
    if (c.size_only) return hipSuccess;
    tree_levels lv = {};
    lv.levels = plan.levels;
    for (int k = 0; k < plan.levels; ++k) {
        lv.count[k] = plan.count[k];
        lv.partial[k] = c.workspace + plan.partial_offset[k];
        lv.counter[k] = (uint32_t*)((unsigned char*)c.counters + plan.counter_offset[k]);
    }
    lv.row_partial_bytes = row_partials;
    lv.row_blocks = 0; /* set below, once the blocks per row are known */
    lv.row_counters = row_counters / sizeof(uint32_t);
    const uint64_t tiles = plan.count[1], resident = resident_blocks(*c.dev);
    uint64_t per_row = (resident + rows - 1) / rows;
    per_row = per_row < tiles ? per_row : tiles;
    lv.share = tiles / per_row;
    lv.extra = tiles % per_row;
    lv.row_blocks = per_row;
    const tree_args args = {c.input, nullptr, c.result, c.index, c.out_dtype, c.extent,
                            (uint64_t)dtype_row(c.out_dtype).bytes};
    hipLaunchKernelGGL((tree_kernel<R, W>), dim3((unsigned)(per_row * rows)), dim3(HR_TILE_LANES), 0, c.stream,
                       args, lv);
    return hipGetLastError();
}

/* Rows (inner == 1) and segments. */
template <class R, int W> hipError_t run_contiguous(const shaped_call& c, shaped_need* need)
{
    constexpr uint64_t T = tile_items<R>();
    const uint64_t rows = c.outer, extent = c.extent;
    if (!c.segments && extent > T && rows <= segment_tree_rows_max(c.dev->sm_count))
        return run_rows_tree<R, W>(c, need);
    if (c.size_only) return hipSuccess;
    seg_args a = {c.input, nullptr, rows, extent, c.result, c.index, c.out_dtype};
    if (c.segments) {
        if (c.num_segments == 0) return hipSuccess;
        a.offsets = c.offsets;
        a.items = c.num_segments;
        return launch_segments<R, W, HR_SEGMENT>(c, a);
    }
    if (rows == 0) return hipSuccess;
    const uint64_t lanes = (extent + chunk_items<R>() - 1) / chunk_items<R>();
    if (segment_group(lanes) == 4) return launch_segments<R, W, 4>(c, a);
    return launch_segments<R, W, HR_SEGMENT>(c, a);
}

/* Columns (inner > 1): one launch per level of HR_STRIDED_BLOCK blocks. */
template <class R, int W> hipError_t run_strided(const shaped_call& c, shaped_need* bytes)
{
    using acc = typename R::acc;
    uint64_t counts[HR_MAX_LEVELS * 2] = {c.extent}, offset[HR_MAX_LEVELS * 2] = {0};
    int levels = 1;
    uint64_t need = 0;
    while (counts[levels - 1] > (uint64_t)HR_STRIDED_BLOCK) {
        counts[levels] = (counts[levels - 1] + HR_STRIDED_BLOCK - 1) / HR_STRIDED_BLOCK;
        offset[levels] = need;
        need += round16(c.outer * counts[levels] * c.inner * sizeof(acc));
        ++levels;
    }
    bytes->partials = need;
    if (c.size_only || c.outer * c.inner == 0) return hipSuccess;
    for (int k = 0; k < levels; ++k) {
        strided_args a = {k == 0 ? c.input : (const void*)(c.workspace + offset[k]), c.outer, counts[k], c.inner,
                          k + 1 < levels ? counts[k + 1] : 1, k + 1 < levels ? c.workspace + offset[k + 1] : nullptr,
                          c.result, c.index, c.out_dtype};
        const dim3 grid(grid_over(c.outer * a.blocks * c.inner, HR_TILE_LANES, *c.dev));
        if (k == 0)
            hipLaunchKernelGGL((strided_kernel<R, W, true>), grid, dim3(HR_TILE_LANES), 0, c.stream, a);
        else
            hipLaunchKernelGGL((strided_kernel<R, W, false>), grid, dim3(HR_TILE_LANES), 0, c.stream, a);
        const hipError_t err = hipGetLastError();
        if (err != hipSuccess) return err;
    }
    return hipSuccess;
}

template <class R, int W> hipError_t run_shaped(const shaped_call& c, shaped_need* need)
{
    shaped_need n = {0, 0};
    const hipError_t err = !c.segments && c.inner > 1 ? run_strided<R, W>(c, &n) : run_contiguous<R, W>(c, &n);
    if (need) *need = n;
    return err;
}

}  // namespace hr

#endif
