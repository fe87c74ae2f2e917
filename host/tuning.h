/* Per-architecture tuning of the default algorithm's launch, as data. Only choices
 * that leave the reduction order alone live here (the tile geometry is part of the
 * reproducibility contract, device/order.h): how many 256-thread blocks to keep resident
 * per multiprocessor (the persistent grid), each streaming a contiguous run of tiles.
 * The input loads are evict-first (__ldcs) on NVIDIA: device/hip_compat.h. The tree
 * kernel's __launch_bounds__ asks for registers that let HR_TREE_MIN_BLOCKS (4) blocks
 * be resident (device/kernels.h), so no row may ask for more than fit; without it
 * ptxas gave the i64 kernel 40 registers and a spill inside the streaming loop (1-2%
 * at 2^28 on H200), and the i8 kernel 128 registers (two blocks per SM). On AMD the
 * bound is in waves per SIMD, which kernels.h derives per family from the same 4
 * blocks per multiprocessor: 4 waves per SIMD on gfx9 (wave64, a block is one wave per
 * SIMD of a CU), 8 on gfx10 and later (wave32; HIP's multiprocessor there is a WGP of 4
 * SIMD32, and a block is 2 waves on each). */
#ifndef HIPREDUCE_TUNING_H
#define HIPREDUCE_TUNING_H

namespace hr {

struct tuning_row {
    bool amd;          /* the backend this row is for: amd (HIP on ROCm) or cuda */
    int major;         /* compute capability major (NVIDIA) or gfx major (AMD); 0 = any */
    int blocks_per_sm; /* resident blocks of HR_TILE_LANES threads per SM / CU */
};

/* First match wins. Measured rows name the figure that chose them (NVIDIA H200, CUDA
 * 13.0, tuning harness against CUB DeviceReduce in the same process, docs/BENCHMARKS.md). */
constexpr tuning_row tuning_table[] = {
    /* sm_90: 4 blocks/SM. f32 sum 2^28: 4465 GB/s (0.98x CUB), f32 max 2^28: 1.00x CUB;
     * with 8 blocks/SM: 4454 GB/s and 1.08x for max; with 6: 4128 GB/s. hipreduce-bench
     * (interleaved with CUB) at 02531a2: f32 sum 2^28 4499 GB/s (99.4% of its ceiling, 0.987x
     * CUB), f32 max 0.990x; 1 or 2 blocks/SM: equal at 2^16..2^20, 2-30% slower from 2^21. */
    {false, 9, 4},
    /* Other NVIDIA: the same 1024 threads per SM hide DRAM latency with 4 x 16 B in
     * flight per lane and the next tile prefetched (reasoned, not measured). */
    {false, 0, 4},
    /* AMD gfx9 (GCN/CDNA, wave64, up to 2560 threads per CU): 4 blocks = 16 waves per CU,
     * 128 KiB of loads in flight per CU with the prefetch (reasoned, no AMD GPU here). */
    {true, 9, 4},
    /* AMD gfx10 and later (RDNA, wave32, WGP mode: HIP's multiprocessor is a WGP of 4
     * SIMD32): 4 blocks = 32 waves of 32 per WGP, 8 per SIMD, the same bytes in flight per
     * SIMD as gfx9; the kernel's bound of 8 waves per SIMD allows 128 VGPRs (reasoned; no
     * RDNA GPU here). */
    {true, 10, 4},
    {true, 0, 4},
};

/* The default algorithm's strategy per shape (host/default_driver.h), as data. One row (a full
 * reduction is the row [1][n][1]) of any length: the full reduction's kernel. Contiguous rows up
 * to one tile: a group of threads per row, by the row's lanes (elements / chunk items, at most
 * 256); the first row whose max_lanes holds wins. Rows longer than a tile: the full reduction's
 * kernel, one plan per row (consecutive blocks per row), while there are at most
 * segment_tree_rows_max rows (256 per SM, 65535 at most); more rows: a warp streams each. CSR segments:
 * balanced by work (below). Columns (inner > 1): a thread per (outer, 256-block, inner).
 * Figures: hipreduce-bench on the H200, f32 sum, 256 MiB, at 95b09b6 + this table
 * (docs/BENCHMARKS.md). Few long rows: 1024 x 65536 3912 GB/s, 16 x 4194304 3938 GB/s
 * (a warp per (row, tile) and levels of partials instead: 3044 and 2972). */
struct segment_row {
    unsigned long long max_lanes; /* rows of at most this many lanes */
    int group;                    /* threads per row: 1 (32 rows per warp), 4 (8), 16 (2) or 32 */
    int slots;                    /* lanes per thread; below 8, 8 / slots rows per group at once */
    bool whole_chunks;            /* rows of whole chunks at 16-byte boundaries: chunk-0 kernels (groups of
                                   * 32: the next row's chunks loaded during this row's tree; rows of at most
                                   * 4 lanes: short_rows_kernel, no per-element tests) */
};
constexpr segment_row segment_table[] = {
    /* Groups of 4 (8 rows per warp). H200, f32 sum, hipreduce-bench, CUB 3.5 in the same run
     * (docs/BENCHMARKS.md, "Short rows"). f32 rows of 9..16 elements: 4 rows per group per
     * iteration, every row's loads in flight together (device/segments.h, group_short_tiles):
     * 4194304 x 16 2320-2323 GB/s against one row per group's 2117-2155 (33a00c7, same run).
     * 4 rows per group lost elsewhere, so the other rows keep one: 8388608 x 8 905-914 (one row:
     * 1151-1156), 2097152 x 32 3052-3074 (3122-3178). Rows of 1-2 whole chunks at 16-byte
     * boundaries (f32: 4 or 8 elements), 4- and 8-byte elements: short_rows_kernel with groups of
     * 1 or 2 threads, every thread a lane, 4 rows a thread at once (device/segments.h). H200,
     * a5df371 against d8468c5 in one call (docs/BENCHMARKS.md, "Short rows of 1-2 chunks (issue
     * 21, session 8)"): 8388608 x 8 sum 1166-1228 -> 3422-3441 GB/s (CUB 3.5 2651-3210), argmax
     * 656-660 -> 2660-2689; 16777216 x 4 sum 606-625 -> 2969-3003 (CUB 3.5 2370-2936). Other rows of
     * 1-2 lanes (a part of a chunk: f32 rows of 1-3 elements; or not at 16-byte boundaries): a thread
     * per row, 4 rows a thread at once (segments_kernel with groups of 1; a group of 4 left 3 of its
     * threads idle and 6 of its 8 slots empty). H100, the call of the rows of 33-128 lanes below:
     * 134217728 x 2 f32 sum 292-293 -> 1361-1382 GB/s (CUB 3.5 1645-1712), argmax 164 -> 756-761;
     * 89478485 x 3 sum 436 -> 1885-1886 (CUB 3.5 1900-1948), argmax 245 -> 1080-1082. */
    {2, 1, 2, true},
    /* Rows of 3-4 whole chunks at 16-byte boundaries (f32: 12 or 16 elements), 4- and 8-byte
     * elements: short_rows_kernel (device/segments.h), 4 rows a group without per-element
     * tests, a warp's 32 results in one store; other rows of 3-4 lanes: 4 rows a group as above.
     * H200, 4194304 x 16 f32 (the run of grid_stride_blocks_per_sm below): sum 2455-2539 ->
     * 3572-3742 GB/s (CUB 3.5 3220-3706), argmax 1284-1294 -> 2914-3074; ncu (sum): 77 -> 32
     * registers, issue slots busy 66% -> 38%, DRAM 44% -> 86%. */
    {4, 4, 2, true},
    /* f32 rows <= 128 elements: 8 rows per warp, one row per group. 4194304 x 16: 2018 GB/s (a
     * thread per row, 8 lanes in one thread, gave 1538); 1048576 x 64: 2969 GB/s (1.46x CUB 3.5). */
    {32, 4, 8, false},
    /* Rows of 33-128 lanes (f32: 129-512 elements): a group of 16 threads each, 8 slots a thread as
     * a warp's would have (whose slots 4-7 would hold nothing here), so two rows a warp with their
     * loads in flight together (device/segments.h's group_tree for 16). H100, c0ca689 against
     * 7ca16f4 in one call, two rounds (docs/BENCHMARKS.md, "Rows of 33-128 lanes and of 1-2 lanes
     * (issue 21, session 9)"): 262144 x 256 f32 sum 2458-2471 -> 2759-2794 GB/s (CUB 3.5
     * 2510-2555), argmax 1627-1650 -> 2211-2213 (CUB 3.5 2055-2108), f64 sum 2394-2398 ->
     * 2852-2857; 131072 x 512 sum +4-6%, argmax +11-13%. The same groups for launch 1's CSR segments
     * of that length (a third list, 16 a pass) measured slower there: 262144 x 0..511 f32 1484-1499
     * -> 1382-1387 GB/s (ncu: a third fewer instructions, twice the load and barrier stalls); not
     * taken. */
    {128, 16, 8, false},
    /* longer rows: a warp each. 65536 x 1024: 2828 GB/s (1.26x CUB 3.5). Rows of 129-256 lanes
     * (f32: 513-1024 elements) prefetch the next row (device/segments.h, rows_prefetch_kernel;
     * H200, hipreduce-bench, 4b7cec3 against 3804623 in one run, docs/BENCHMARKS.md "Rows and
     * columns"): 65536 x 1024 sum 2793-2816 -> 3802-3896 GB/s (CUB 3.5 2207-2232), argmax
     * 2192-2210 -> 3250-3341 with the order-free tree (group_tree). Shorter rows keep the plain
     * loop: in a kernel harness of the same session, 262144 x 256 argmax ran 1523 GB/s plain and
     * 1298 prefetched (its registers: 2 blocks per SM instead of 4), though its sum went 2288 -> 2892. */
    {256, 32, 8, true},
};
constexpr segment_row segment_shape(unsigned long long lanes)
{
    for (const segment_row& row : segment_table)
        if (lanes <= row.max_lanes) return row;
    return {lanes, 32, 8, false};
}
/* Columns (device/columns.h, strided_kernel): bytes of consecutive columns a thread reads per
 * element at level 0 (16: one 16-byte load; 0: a column per thread). H200, f32 sum, hipreduce-bench
 * in the run above: 16 x 4194304 2413-2433 -> 3363-3387 GB/s, 64 x 1048576 2859-2895 -> 3653-3746,
 * 65536 x 1024 3239-3285 -> 3498-3559, 1024 x 65536 3550-3638 -> 3674-3789. The kernel harness
 * (one run, 16 x 4194304, 64 x 1048576, 1024 x 65536: 2429 -> 3313, 2882 -> 3880, 3660 -> 3970)
 * gave 8 bytes 3028, 3583, 3730, and two elements' loads of each lane in flight (2 blocks per SM)
 * 2889, 3491, 3737. */
constexpr unsigned strided_vector_bytes = 16;
/* Grid-stride kernels of rows and columns (device/segments.h, columns.h): one wave of the kernel's
 * resident blocks by the runtime's occupancy (host/drivers.h), where the grid was capped at
 * grid_stride_blocks_per_sm whatever fit (argmax per row 65536 x 1024 f32: 89 registers, 2 blocks
 * an SM, so 1056 blocks ran in 4 waves). H200, hipreduce-bench, 211dc70 against this branch in one
 * call, two rounds (docs/BENCHMARKS.md, "Rows and columns (issue 21, session 7)"), one wave with the
 * kernels' other changes: rows argmax 65536 x 1024 3353-3375 -> 3439-3449 GB/s, 262144 x 256 sum
 * 2244-2267 -> 2710-2726, 131072 x 512 sum 2605-2620 -> 3348-3360, 1048576 x 64 argmax 2329-2337
 * -> 2554-2565, but 262144 x 256 argmax 1673-1677 -> 1633-1636 and 8388608 x 8 argmax 685-691 ->
 * 656-658; columns 16 x 4194304 sum 3365-3371 -> 3707-3712 (with the 16-byte stores). Columns a
 * column per thread (argmax, unaligned sums, upper levels) keep the cap: one wave took columns
 * argmax 1024 x 65536 3339-3349 -> 3187-3198 and 65536 x 1024 2814-2831 -> 2704-2717. Rows
 * argmin/argmax of a warp per row (segments_kernel, rows of 33-128 lanes and rows streamed) keep it
 * too: one wave took 262144 x 256 1673-1677 -> 1633-1636 and 131072 x 512 2302-2307 -> 2275-2291;
 * the cap again, session 8 (docs/BENCHMARKS.md, "Short rows of 1-2 chunks (issue 21, session 8)"):
 * 262144 x 256 1627-1647 -> 1642-1667, 131072 x 512 within the spread. The cap is
 * also the emulator's (no occupancy there). */
constexpr int grid_stride_blocks_per_sm = 8;
/* CSR segments (device/segment_tiles.h): the footprint slots of the long segments' partials in
 * the workspace (each slot one accumulator and one 32-bit counter), so the workspace depends on
 * num_segments only, as the public header promises. 2^18 slots hold the long segments of 2-4 GiB
 * of input at 2-6 MiB of workspace (a slot per 16 KiB tile at level 1, one per segment of a
 * single tile: 8-16 KiB, segment_block_bytes below); long segments past it are streamed by a
 * warp each. Launches 1 and 2 give each block at least
 * segments_per_block_min segments (one per warp) and no more blocks than are resident at once
 * (device/segment_tiles.h's HR_SEGMENT_SIZES_BLOCKS per SM, which launch 1's register bound
 * allows): with 1024 blocks, 262144 segments of 0..511 f32 elements ran in 1.3 waves, 16% slower
 * than a warp per segment over a grid-stride loop (H100, 1311 vs 1558 GB/s); every block of
 * launch 2 adds up the sums of the blocks before it. The floor was 64 (8 per warp) until session
 * 7: 16384 segments of one tile took 256 blocks, a quarter of the resident slots (ncu, H200:
 * launch 1 at 24% occupancy, 38% of DRAM); with 8 they take 512 (docs/BENCHMARKS.md, "Ragged
 * segments (issue 21, session 7)"). Launch 1's one-thread segments (ONE_LANES there): at most 2 lanes
 * (f32: 8 elements, 94% of the power-law lengths): nvcc 13.0 sm_90 at 4 blocks per SM, f32 sum
 * and i8 -> i64 do not spill, f64 argmax 56 bytes; with 8 lanes (all 8 slots loaded at once)
 * they spilled 108, 124 and 252 bytes. */
#ifndef HR_SEGMENT_TILES_CAPACITY
#define HR_SEGMENT_TILES_CAPACITY (1ull << 18)
#endif
constexpr unsigned long long segment_tiles_capacity = HR_SEGMENT_TILES_CAPACITY;
/* CSR segments over segment_block_bytes of input are launch 3's (a block a tile, the next tile's
 * loads in flight, the tiles shared evenly by the grid), shorter ones launch 1's (a 32-lane group
 * each, 8 at once a block). Until session 13 only segments over a tile were launch 3's. H100,
 * 72541cc's launch 1 against launch 3 from 4096 / 8192 bytes, f32 sum (argmax), us a call, three
 * rounds (docs/BENCHMARKS.md, "Mid-length segments to launch 3 (issue 21, session 13)"):
 * 16384 x 0..8192 175-177 -> 149-151 / 161-162 (213-216 -> 186-190 / 193-195); 32768 x 0..4096
 * 180-182 -> 154-158 / 164-165; a million power-law lengths 74-76 -> 66-72 / 67-70; but 65536 x
 * 0..2048 170-174 -> 202-207 / 170-173 (argmax 200-202 -> 286-288 / 200-202) and 65536 x 1500
 * 182 -> 274-277 / 179-181: launch 3 holds one tile ahead a block, too few bytes in flight where
 * tiles are a few KiB, so 8192 (f32: 2048 elements) loses nothing measured and 4096 does. */
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
inline unsigned long long segment_tree_rows_max(int sm_count)
{
    const unsigned long long rows = (unsigned long long)sm_count * 256;
    return rows < 65535 ? rows : 65535;
}

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

}  // namespace hr

#endif
