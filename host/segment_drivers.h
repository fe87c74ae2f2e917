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

template <class R, int W, int G, bool Level0>
hipError_t launch_segments(const shaped_call& c, const seg_args& a)
{
    hipLaunchKernelGGL((segments_kernel<R, W, G, Level0>), dim3(grid_over(a.items, HR_TILE_LANES / G, *c.dev)),
                       dim3(HR_TILE_LANES), 0, c.stream, a);
    return hipGetLastError();
}

/* Rows (inner == 1) and segments. */
template <class R, int W> hipError_t run_contiguous(const shaped_call& c, uint64_t* bytes)
{
    using acc = typename R::acc;
    constexpr uint64_t T = tile_items<R>();
    seg_args a = {c.input, nullptr, 0, 0, 0, nullptr, c.result, c.index, c.out_dtype};
    if (c.segments) {
        *bytes = 0;
        if (c.size_only || c.num_segments == 0) return hipSuccess;
        a.offsets = c.offsets;
        a.items = c.num_segments;
        return launch_segments<R, W, HR_SEGMENT, true>(c, a);
    }
    const uint64_t rows = c.outer, extent = c.extent;
    const uint32_t lanes = extent >= HR_TILE_LANES * (uint64_t)chunk_items<R>()
                               ? HR_TILE_LANES
                               : (uint32_t)((extent + chunk_items<R>() - 1) / chunk_items<R>());
    const bool tiles = extent > T && rows < (uint64_t)c.dev->sm_count * segment_stream_rows_per_sm();
    /* The tiles path's levels: counts[k] partials per row at level k. */
    uint64_t counts[HR_MAX_LEVELS] = {extent}, offset[HR_MAX_LEVELS] = {0};
    int levels = 1;
    uint64_t need = 0;
    if (tiles) {
        while (counts[levels - 1] > T) {
            counts[levels] = (counts[levels - 1] + T - 1) / T;
            offset[levels] = need;
            need += round16(rows * counts[levels] * sizeof(acc));
            ++levels;
        }
    }
    *bytes = need;
    if (c.size_only || rows == 0) return hipSuccess;
    a.items = rows;
    a.extent = extent;
    if (!tiles) {
        if (segment_group(lanes) == 4) return launch_segments<R, W, 4, true>(c, a);
        return launch_segments<R, W, HR_SEGMENT, true>(c, a);
    }
    for (int k = 0; k + 1 < levels; ++k) {
        seg_args t = a;
        t.x = k == 0 ? c.input : (const void*)(c.workspace + offset[k]);
        t.extent = counts[k];
        t.tiles = counts[k + 1];
        t.items = rows * counts[k + 1];
        t.partial = c.workspace + offset[k + 1];
        const hipError_t err = k == 0 ? launch_segments<R, W, HR_SEGMENT, true>(c, t)
                                      : launch_segments<R, W, HR_SEGMENT, false>(c, t);
        if (err != hipSuccess) return err;
    }
    a.x = c.workspace + offset[levels - 1];
    a.extent = counts[levels - 1];
    return launch_segments<R, W, HR_SEGMENT, false>(c, a);
}

/* Columns (inner > 1): one launch per level of HR_STRIDED_BLOCK blocks. */
template <class R, int W> hipError_t run_strided(const shaped_call& c, uint64_t* bytes)
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
    *bytes = need;
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

template <class R, int W> hipError_t run_shaped(const shaped_call& c, uint64_t* bytes)
{
    uint64_t need = 0;
    const hipError_t err = !c.segments && c.inner > 1 ? run_strided<R, W>(c, &need) : run_contiguous<R, W>(c, &need);
    if (bytes) *bytes = need;
    return err;
}

}  // namespace hr

#endif
