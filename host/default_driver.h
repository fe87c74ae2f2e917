/* The default algorithm's driver (AUTO), a host template over (operator, warp width). Every call
 * it runs is the shaped call [outer][extent][inner]: a full reduction (hipreduce_reduce, _argreduce,
 * _dot) is outer 1, extent n, inner 1, and takes the same kernel as any single row. The shape picks
 * the kernel (device/kernels.h, segments.h, columns.h) and its levels; the workspace is the partials of
 * the levels between the input and the results, and the arrival counters of the tree kernel's.
 * One function both sizes and runs a call, so the size query and the launches cannot disagree. */
#ifndef HIPREDUCE_DEFAULT_DRIVER_H
#define HIPREDUCE_DEFAULT_DRIVER_H

#include "drivers.h"
#include "columns.h"
#include "segment_stream.h"

namespace hr {

/* Grid of a grid-stride launch of Kernel over `units` of `per_block` each: at most one wave of
 * its resident blocks, or with OneWave false grid_stride_blocks_per_sm an SM (host/tuning.h; also
 * where the runtime has no occupancy to tell). */
template <auto Kernel, bool OneWave = true>
unsigned grid_over(uint64_t units, uint64_t per_block, const device_info& dev)
{
    const uint64_t blocks = (units + per_block - 1) / per_block;
    const uint64_t per_sm = OneWave ? kernel_blocks_per_sm<Kernel>(grid_stride_blocks_per_sm)
                                    : (uint64_t)grid_stride_blocks_per_sm;
    const uint64_t cap = (uint64_t)dev.sm_count * per_sm;
    return (unsigned)(blocks == 0 ? 1 : blocks < cap ? blocks : cap);
}

/* The tree kernel's levels of one plan, its partials at `partials` and its counters at `counters`
 * (plan.h's offsets as pointers). */
static inline tree_levels tree_levels_of(const hr_tree_plan& plan, unsigned char* partials, uint32_t* counters)
{
    tree_levels lv = {};
    lv.levels = plan.levels;
    for (int k = 0; k < plan.levels; ++k) {
        lv.count[k] = plan.count[k];
        lv.partial[k] = partials + plan.partial_offset[k];
        lv.counter[k] = (uint32_t*)((unsigned char*)counters + plan.counter_offset[k]);
    }
    return lv;
}

/* One row, or few rows longer than a tile: the full reduction's single-launch kernel, one plan
 * per row, so that each row has the bits of hipreduce_reduce by construction. The device's
 * resident blocks are shared out between the rows, row_blocks consecutive blocks per row
 * (kernels.h); the rows' partials and arrival counters lie one plan's size apart. Even shares:
 * each block of a row streams a contiguous run of its tiles, the runs differing by at most one
 * tile (every resident slot streams until the last tiles; ceil-sized runs would leave up to a
 * tile per block of slots idle: 3% for i8 at 2^28). One row is one array (row_blocks 0). */
template <class R, int W> hipError_t run_tree(const reduce_call& c, call_need* need)
{
    hr_tree_plan plan;
    if (hr_plan_tree(c.extent, tile_items<R>(), sizeof(typename R::acc), &plan) != 0) return hipErrorInvalidValue;
    const uint64_t rows = c.outer, row_partials = round16(plan.partial_bytes), row_counters = round16(plan.counter_bytes);
    need->partials = rows * row_partials;
    need->counters = rows * row_counters;
    if (c.size_only || rows == 0) return hipSuccess;
    tree_levels lv = tree_levels_of(plan, c.workspace, c.counters);
    const uint64_t tiles = plan.levels > 1 ? plan.count[1] : 1, resident = resident_blocks(*c.dev);
    const uint64_t share_out = (resident + rows - 1) / rows;
    const uint64_t per_row = share_out < tiles ? share_out : tiles;
    lv.share = tiles / per_row;
    lv.extra = tiles % per_row;
    if (rows > 1) {
        lv.row_blocks = per_row;
        lv.row_partial_bytes = row_partials;
        lv.row_counters = row_counters / sizeof(uint32_t);
    }
    const tree_args args = {results_of(c), c.input, c.y, c.extent};
    hipLaunchKernelGGL((tree_kernel<R, W>), dim3((unsigned)(per_row * rows)), dim3(HR_TILE_LANES), 0, c.stream,
                       args, lv);
    return hipGetLastError();
}

/* A rows kernel over a.items rows, K per group of G threads at once. */
template <auto Kernel, bool OneWave = true> hipError_t launch_rows(const reduce_call& c, const seg_args& a, int G, int K)
{
    hipLaunchKernelGGL(Kernel, dim3(grid_over<Kernel, OneWave>(a.items, rows_per_block(G, K), *c.dev)),
                       dim3(HR_TILE_LANES), 0, c.stream, a);
    return hipGetLastError();
}
/* segments_kernel; argmin/argmax with a group of 16 or 32 per row without the one-wave grid
 * (host/tuning.h's grid_stride_blocks_per_sm says why). */
template <class R, int W, int G, int S> hipError_t launch_segments(const reduce_call& c, const seg_args& a)
{
    constexpr bool one_wave = !(G >= 16 && R::keyed);
    return launch_rows<segments_kernel<R, W, G, S>, one_wave>(c, a, G, rows_at_once<G, S>());
}

/* Many rows (inner == 1): a group of threads per row, small groups several rows at once
 * (host/tuning.h's segment_table; the instances below are its rows). */
struct group_slots {
    int group, slots;
};
constexpr group_slots rows_instances[] = {{1, 2}, {4, 2}, {4, SEG_SLOTS}, {16, SEG_SLOTS}, {HR_SEGMENT, SEG_SLOTS}};
constexpr bool same_shape(const group_slots& i, const segment_row& row) { return i.group == row.group && i.slots == row.slots; }
constexpr bool instantiated(const segment_row& row)
{
    for (const group_slots& i : rows_instances)
        if (same_shape(i, row)) return true;
    return false;
}
constexpr bool segment_rows_instantiated()
{
    for (const segment_row& row : segment_table)
        if (!instantiated(row)) return false;
    return instantiated(segment_shape(~0ull)); /* past the table */
}
static_assert(segment_rows_instantiated(), "run_slices launches an instance for each row of segment_table");
/* The instance of the row's (group, slots). */
template <class R, int W, size_t... I>
hipError_t launch_row(const reduce_call& c, const seg_args& a, const segment_row& row, std::index_sequence<I...>)
{
    hipError_t err = hipErrorInvalidValue; /* not reached: the static_assert above */
    (void)((same_shape(rows_instances[I], row) &&
            (err = launch_segments<R, W, rows_instances[I].group, rows_instances[I].slots>(c, a), true)) ||
           ...);
    return err;
}
template <class R> constexpr bool rows_prefetch() { return chunk_items<R>() <= 4; }
template <class R, int W> hipError_t run_slices(const reduce_call& c)
{
    if (c.size_only || c.outer == 0) return hipSuccess;
    const seg_args a = {results_of(c), c.input, c.outer, c.extent};
    const uint64_t lanes = (c.extent + chunk_items<R>() - 1) / chunk_items<R>();
    const segment_row row = segment_shape(lanes);
    /* Rows of chunk 0 only, each at a 16-byte boundary and of whole chunks: prefetching warps, or short
     * rows without per-element tests; 4- and 8-byte elements (i8 -> i64 took 220 registers in the
     * prefetching warps: a register per byte of the next row). */
    if constexpr (rows_prefetch<R>())
        if (row.whole_chunks && lanes > 0 && c.extent % chunk_items<R>() == 0 && ((uintptr_t)c.input & 15) == 0) {
            if (row.group == HR_SEGMENT && lanes <= HR_TILE_LANES)
                return launch_rows<rows_prefetch_kernel<R, W>>(c, a, HR_SEGMENT, 1);
            if (row.group < HR_SEGMENT && lanes <= SHORT_ROW_LANES)
                return launch_rows<short_rows_kernel<R, W>>(c, a, (int)short_row_group(lanes), SHORT_ROW_ROWS);
        }
    return launch_row<R, W>(c, a, row, std::make_index_sequence<sizeof rows_instances / sizeof rows_instances[0]>());
}

/* CSR segments balanced by work (device/segment_tiles.h, segment_stream.h): three launches over a
 * workspace of num_segments and segment_tiles_capacity only (host/tuning.h). */
template <class R, int W> hipError_t run_segments(const reduce_call& c, call_need* need)
{
    const uint64_t segments = c.num_segments, per_block = segments_per_block(segments, (uint64_t)c.dev->sm_count * HR_SEGMENT_SIZES_BLOCKS);
    /* The sizes below overflow, or a block's range outgrows launch 1's 32-bit list entries: SIZE_OVERFLOW. */
    if (segments > UINT64_MAX / 64 || per_block > UINT32_MAX) return hipErrorInvalidValue;
    const uint64_t blocks = (segments + per_block - 1) / per_block, cap = segment_tiles_capacity;
    uint64_t bytes = 0;
    const auto take = [&bytes](uint64_t size) { const uint64_t at = bytes; bytes += round16(size); return at; };
    const uint64_t sums = take(blocks * 32), header = take(16), ids = take(segments * 8);
    const uint64_t bases = take((segments + 1) * 8), partials = take(cap * sizeof(typename R::acc));
    const uint64_t counters = take(cap * 4);
    need->partials = bytes;
    if (c.size_only || segments == 0) return hipSuccess;
    unsigned char* ws = c.workspace;
    tile_args a = {results_of(c), c.input, c.offsets, segments, per_block, cap,
                   segment_long_min(sizeof(typename R::value_t), tile_items<R>())};
    a.block_sums = (uint64_t*)(ws + sums);
    a.header = (uint64_t*)(ws + header);
    a.long_ids = (uint64_t*)(ws + ids);
    a.long_base = (uint64_t*)(ws + bases);
    a.partials = ws + partials;
    a.counters = (uint32_t*)(ws + counters);
    hipLaunchKernelGGL((segment_sizes_kernel<R, W>), dim3((unsigned)blocks), dim3(HR_TILE_LANES), 0, c.stream, a);
    hipLaunchKernelGGL((segment_index_kernel<R, W>), dim3((unsigned)blocks), dim3(HR_TILE_LANES), 0, c.stream, a);
    hipLaunchKernelGGL((segment_tiles_kernel<R, W>), dim3((unsigned)resident_blocks(*c.dev)), dim3(HR_TILE_LANES), 0,
                       c.stream, a);
    return hipGetLastError();
}

/* Consecutive columns per thread of a strided level 0 (host/tuning.h's strided_vector_bytes): one
 * 16-byte load per element, for sums whose lanes' accumulators of V columns take no more registers
 * than those bytes (not sums that widen; f64 max took 154 registers); 1: a column per thread. */
template <class R> constexpr int strided_vector()
{
    using T = typename R::value_t;
    constexpr int v = (int)(strided_vector_bytes / sizeof(T));
    return strided_vector_bytes == HR_CHUNK_BYTES && v > 1 && R::combine == HR_CB_ADD && sizeof(typename R::acc) <= sizeof(T) ? v : 1;
}

/* A level of the columns, a thread per one of `threads` (outer, block, inner) outputs; a column per
 * thread (V 1) without the one-wave grid (host/tuning.h's grid_stride_blocks_per_sm says why). */
template <auto Kernel, int V> void launch_strided(const reduce_call& c, const strided_args& a, uint64_t threads)
{
    constexpr bool one_wave = V > 1;
    const unsigned grid = grid_over<Kernel, one_wave>(threads, HR_TILE_LANES, *c.dev);
    hipLaunchKernelGGL(Kernel, dim3(grid), dim3(HR_TILE_LANES), 0, c.stream, a);
}

/* Columns (inner > 1): one launch per level of HR_STRIDED_BLOCK blocks. */
template <class R, int W> hipError_t run_strided(const reduce_call& c, call_need* bytes)
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
        strided_args a = {results_of(c),
                          k == 0 ? c.input : (const void*)(c.workspace + offset[k]),
                          c.outer,
                          counts[k],
                          c.inner,
                          k + 1 < levels ? counts[k + 1] : 1,
                          k + 1 < levels ? c.workspace + offset[k + 1] : nullptr,
                          c.extent};
        const uint64_t outputs = c.outer * a.blocks * c.inner;
        constexpr int V = strided_vector<R>();
        if (k == 0 && V > 1 && c.inner % V == 0 && ((uintptr_t)c.input & 15) == 0)
            launch_strided<strided_kernel<R, W, true, V>, V>(c, a, outputs / V);
        else if (k == 0)
            launch_strided<strided_kernel<R, W, true>, 1>(c, a, outputs);
        else
            launch_strided<strided_kernel<R, W, false>, 1>(c, a, outputs);
        const hipError_t err = hipGetLastError();
        if (err != hipSuccess) return err;
    }
    return hipSuccess;
}

/* Tensors over any axes: host/tensor_driver.h. */
template <class R, int W> hipError_t run_tensor(const reduce_call& c, call_need* need);

/* Every call of the default algorithm: sizes it (c.size_only) or runs it; *need (if not null)
 * gets the bytes of partials and of zeroed arrival counters that it needs. */
template <class R, int W> hipError_t run_call(const reduce_call& c, call_need* need)
{
    call_need n = {0, 0};
    hipError_t err;
    if constexpr (R::inputs == 2) {
        err = run_tree<R, W>(c, &n); /* dot: one row, or a plan's rows */
    } else if (c.shape == HR_SHAPE_SEGMENTS) {
        err = run_segments<R, W>(c, &n);
    } else if (c.shape == HR_SHAPE_TENSOR) {
        err = run_tensor<R, W>(c, &n);
    } else if (c.inner > 1) {
        err = run_strided<R, W>(c, &n);
    } else if (c.outer == 1 || (c.extent > tile_items<R>() && c.outer <= segment_tree_rows_max(c.dev->sm_count))) {
        err = run_tree<R, W>(c, &n);
    } else {
        err = run_slices<R, W>(c);
    }
    if (need) *need = n;
    return err;
}

}  // namespace hr

#endif
