/* The GPU executor's tuning, as data: every knob that decides how work is launched and never the
 * order of the reduction (the tile geometry is the reproducibility contract: device/order.h,
 * docs/DESIGN.md). Changing a value here changes speed only, never a result's bits.
 *
 * THE TABLE. One row per knob and (backend, architecture class), its value and one line of
 * evidence: the case, GB/s (input bytes over the median time) and the ratio to the alternative
 * measured in the same process. Measured on an NVIDIA H200 (CUDA 13.0, hipreduce-bench, CUB 3.5
 * interleaved call by call) unless the line says H100. "not measured": chosen by reasoning, no GPU
 * of that class was available; AMD values are compile-checked only (test/amd_spills.sh).
 * To re-measure on a new GPU, run bench/report.sh (docs/PERFORMANCE.md) on a build with the row's
 * value changed (the knobs in device/ take a -D override where noted) and compare the row's case.
 *
 *   knob (where)                     cuda sm_90 | cuda other | amd gfx9 | amd gfx10+
 * Full reductions (device/kernels.h's tree kernel, a persistent grid)
 *   blocks_per_sm (tuning_table)     4          | 4          | 4        | 4
 *     f32 sum 2^28: 4465 GB/s (0.98x CUB's time); 8 an SM 4454 (f32 max 1.08x CUB's time against
 *     1.00x), 6 an SM 4128 (4 is 1.08x faster); 1-2 an SM equal to 2^20, 2-30% slower from 2^21.
 *     Other columns: not measured.
 *   HR_TREE_MIN_BLOCKS (kernels.h,   4          | 4          | 4 waves/SIMD | 8 waves/SIMD
 *     -D)  the launch bound: i64 sum 2^28 0.4899 ms against 0.4980 unbounded (1.02x: a spill in
 *     the streaming loop); gfx1030 at a bound of 16 waves spilled 33-52 VGPRs (compile-checked).
 *   HR_TREE_PREFETCH,                1          | 1          | 1        | 1
 *   HR_KEYED_PREFETCH (kernels.h, -D)  the next tile's loads in flight: f32 sum 2^28 4351 GB/s
 *     against 4075 without (1.07x); argmin/argmax keyed: not measured on its own.
 * Rows and columns (device/segments.h, columns.h)
 *   segment_table (group, slots by a row's lanes; a lane is a 16-byte chunk: f32 4 elements)
 *     <= 2 lanes, 1 thread x 2 slots, whole chunks: 8388608 x 8 f32 sum 3422-3441 GB/s against
 *        1166-1228 with groups of 4 (2.9x; CUB 3.5 2651-3210)
 *     <= 4 lanes, 4 x 2, whole chunks: 4194304 x 16 f32 sum 3572-3742 against 2455-2539 (1.46x;
 *        CUB 3.5 3220-3706)
 *     <= 32 lanes, 4 x 8: 1048576 x 64 f32 sum 2969 (1.46x CUB 3.5); rows of 16 ran 2018 in groups
 *        of 4 against 1538 a thread a row (1.31x)
 *     <= 128 lanes, 16 x 8: H100, 262144 x 256 f32 sum 2759-2794 against 2458-2471 a warp a row
 *        (1.13x; CUB 3.5 2510-2555), argmax 2211-2213 against 1627-1650 (1.35x)
 *     <= 256 lanes, a warp, whole chunks prefetched: 65536 x 1024 f32 sum 3802-3896 against
 *        2793-2816 unprefetched (1.37x; CUB 3.5 2207-2232)
 *     longer: a warp streams a row (past segment_tree_rows_max) or the tree kernel plans each row:
 *        16 x 4194304 f32 sum 3938 against 2972 a warp per (row, tile) (1.32x)
 *     every backend and architecture: the same rows; AMD not measured
 *   segment_tree_rows_per_sm         256        | 256        | 256      | 256
 *     rows longer than a tile take the tree kernel while outer <= 256 an SM (and <= 65535, the
 *     grid's y limit): 1024 x 65536 f32 sum 3912 GB/s against 3044 a warp per (row, tile) (1.29x)
 *   grid_stride_blocks_per_sm        8          | 8          | 8        | 8
 *     the grid of a grid-stride kernel where it is not one resident wave (columns a column a
 *     thread; argmin/argmax in groups of 16-32): columns argmax 1024 x 65536 3339-3349 capped
 *     against 3187-3198 one wave (1.05x); the other kernels take one wave: 262144 x 256 sum
 *     2710-2726 against 2244-2267 capped (1.2x, with that change's kernel edits). Also the
 *     emulator's grid (it has no occupancy).
 *   strided_vector_bytes             16         | 16         | 16       | 16
 *     consecutive columns a thread reads per element: 16 x 4194304 f32 sum 3363-3387 against
 *     2413-2433 a column a thread (1.39x) and 3028 at 8 bytes (1.11x)
 * Tensors over any axes (device/tensor.h, host/tensor_driver.h; the default order, no copy)
 *   tensor_columns_min               16 slices (all backends)
 *     level 0 reads by columns (a segment of threads, 32 consecutive slices) where the innermost
 *     kept dimension holds at least this many, and every level above 0 where the tensor has as
 *     many slices; fewer: a block per tile. Not measured on its own
 *   tensor_column_stride_max         4 elements (all backends)
 *     the largest step of the innermost kept dimension read by columns (a segment's load spans
 *     at most 4 x 32 elements): not measured on its own
 * CSR segments (device/segment_tiles.h, segment_stream.h)
 *   segment_block_bytes              8192       | 8192       | 8192     | 8192
 *     segments longer go to launch 3 (a block a tile, tiles shared by the grid), shorter to
 *     launch 1's lists: H100, 16384 x 0..8192 f32 sum 161-162 us against 175-177 all in launch 1
 *     (1.09x); from 4096 bytes that case took 149-151, but 65536 x 1500 274-277 against 179-181
 *   segments_per_block_min           8          | 8          | 8        | 8
 *     launches 1-2 give a block at least one segment a warp: 16384 x 4096 f32 sum 2716-2774 GB/s
 *     against 1791-1811 at 64 (1.5x, with launch 3's streaming; 512 blocks instead of 256)
 *   segment_tiles_capacity (-D       2^18 slots (all backends)
 *     HR_SEGMENT_TILES_CAPACITY)  the long segments' partials: 2-4 GiB of input in 2-6 MiB of
 *     workspace, which depends on num_segments only; past it a warp streams a segment. A size
 *     bound, not a speed choice: not measured
 *   HR_SEGMENT_SIZES_BLOCKS (segment_tiles.h, -D)  4 | 4 | the tree kernel's | the tree kernel's
 *     launch 1's launch bound: a million power-law segments 75-77 us against 79-85 at 5 (1.08x;
 *     at 5 f32 sum spilled 44 bytes)
 *   ONE_LANES (segment_tiles.h)      2 lanes (all backends)
 *     segments a thread reduces alone (f32: 8 elements, 94% of power-law lengths): with launch 1's
 *     lists, a million power-law segments 75-77 us against 118-122 (1.6x); 8 lanes spilled
 *     108-252 bytes (f32 sum, i8 -> i64, f64 argmax)
 * Exact sums (device/exact_kernels.h, host/exact_driver.cpp)
 *   HR_EXACT_BLOCKS (launch bound)   2          | 2          | block size only | block size only
 *     f64 sum_exact at 3 an SM (80 registers) spilled and ran 1.20x the time; AMD: not measured
 *   EXACT_CHUNK_ROUNDS               4 rounds (all backends)
 *     a block claims 4 rounds of its warps a chunk: 2^28 bf16, chunks of 2 rounds took 1.06-1.07x
 *     the time (f32 dot 1.17x), of 8 rounds 1.01-1.03x
 *   exact_kind K (exact_terms.h)     128 bytes a lane (at most 16 elements a dot; slices of
 *     f16/bf16 64 bytes): 4-15% faster than half as many (f64 dot 17%); bf16 rows of 256 1.46x,
 *     of 4096 4x with 64-byte slices
 *   EXACT_LANE_TERMS                 64 terms (all backends)
 *     a lane sums a short slice alone: f32 rows of 61 (2^20 rows) 0.142 ms against 1.41 (10x)
 *   exact slices grid (exact_driver.cpp)  16 blocks an SM at most: not measured on its own
 */
#ifndef HIPREDUCE_TUNING_H
#define HIPREDUCE_TUNING_H

#include "kernels.h"

namespace hr {

/* The run-time rows: picked once per device (host/gpu_executor.cpp) by backend and architecture
 * (compute capability major on NVIDIA, gfx major on AMD; 0 = any); the first match wins. */
struct tuning_row {
    bool amd;          /* amd (HIP on ROCm) or cuda */
    int major;         /* architecture class */
    int blocks_per_sm; /* resident tree-kernel blocks of HR_TILE_LANES threads per SM / CU / WGP */
};
constexpr tuning_row tuning_table[] = {
    {false, 9, 4}, /* sm_90: measured (the table above) */
    {false, 0, 4}, /* other NVIDIA: not measured */
    {true, 9, 4},  /* gfx9 (CDNA, wave64): 16 waves a CU; not measured */
    {true, 10, 4}, /* gfx10+ (RDNA, wave32, WGP mode): 8 waves a SIMD; not measured */
    {true, 0, 4},  /* other AMD: not measured */
};
/* A row may not ask for more blocks than the tree kernel's launch bound lets be resident. */
constexpr bool tuning_rows_fit()
{
    for (const tuning_row& row : tuning_table)
        if (row.blocks_per_sm > HR_TREE_MIN_BLOCKS) return false;
    return true;
}
static_assert(tuning_rows_fit(), "blocks_per_sm above HR_TREE_MIN_BLOCKS would spill the tree kernel");

inline int blocks_per_sm(int major)
{
#if defined(HIPREDUCE_BACKEND_AMD)
    const bool amd = true;
#else
    const bool amd = false;
#endif
    for (const tuning_row& row : tuning_table)
        if (row.amd == amd && (row.major == 0 || row.major == major)) return row.blocks_per_sm;
    return 4;
}

/* Rows (host/default_driver.h's run_slices): the first row whose max_lanes holds a row's lanes
 * gives its group of threads and lanes per thread. */
struct segment_row {
    unsigned long long max_lanes; /* rows of at most this many lanes */
    int group;                    /* threads per row: 1 (32 rows per warp), 4 (8), 16 (2) or 32 */
    int slots;                    /* lanes per thread; below 8, 8 / slots rows per group at once */
    bool whole_chunks;            /* rows of whole chunks at 16-byte boundaries: short_rows_kernel (at
                                   * most 4 lanes) or rows_prefetch_kernel (a warp, the next row's chunks
                                   * loaded during this row's tree) */
};
constexpr segment_row segment_table[] = {
    {2, 1, 2, true},
    {4, 4, 2, true},
    {32, 4, 8, false},
    {128, 16, 8, false},
    {256, 32, 8, true},
};
constexpr segment_row segment_shape(unsigned long long lanes)
{
    for (const segment_row& row : segment_table)
        if (lanes <= row.max_lanes) return row;
    return {lanes, 32, 8, false};
}

/* Rows longer than a tile: the tree kernel, a plan a row, up to this many rows. */
constexpr unsigned long long segment_tree_rows_per_sm = 256;
inline unsigned long long segment_tree_rows_max(int sm_count)
{
    const unsigned long long rows = (unsigned long long)sm_count * segment_tree_rows_per_sm;
    return rows < 65535 ? rows : 65535; /* the grid's y extent */
}

/* Grid-stride kernels that are not one resident wave, and the emulator's grids. */
constexpr int grid_stride_blocks_per_sm = 8;

/* Columns (device/columns.h's strided_kernel): bytes of consecutive columns a thread reads per
 * element at level 0 (16: one 16-byte load; 0: a column per thread). */
constexpr unsigned strided_vector_bytes = 16;

/* Tensors (host/tensor_driver.h): slices a level needs to be read by columns, and the largest
 * step in memory of the innermost kept dimension that level 0 reads by columns. */
constexpr unsigned long long tensor_columns_min = 16;
constexpr unsigned long long tensor_column_stride_max = 4;

/* CSR segments (device/segment_tiles.h). */
#ifndef HR_SEGMENT_TILES_CAPACITY
#define HR_SEGMENT_TILES_CAPACITY (1ull << 18)
#endif
constexpr unsigned long long segment_tiles_capacity = HR_SEGMENT_TILES_CAPACITY;
constexpr unsigned long long segment_block_bytes = 8192;
inline unsigned long long segment_long_min(unsigned long long item_bytes, unsigned long long tile_items)
{
    const unsigned long long items = segment_block_bytes / item_bytes;
    return items < tile_items ? items : tile_items;
}
constexpr unsigned long long segments_per_block_min = 8;
inline unsigned long long segments_per_block(unsigned long long segments, unsigned long long resident_blocks)
{
    const unsigned long long spread = (segments + resident_blocks - 1) / resident_blocks;
    return spread > segments_per_block_min ? spread : segments_per_block_min;
}

}  // namespace hr

#endif
