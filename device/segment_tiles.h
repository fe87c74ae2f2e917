/* CSR segments balanced by work (hipreduce_reduce_segments, _argreduce_segments on a GPU): three
 * stream-ordered launches that read the offsets on the device only (no host round trip, so a
 * call can be captured in a graph).
 *  1. segment_sizes_kernel: block b takes a contiguous range of segments; its threads and groups
 *     of threads reduce the short ones (a.long_min elements or less: segments.h's group tile), and
 *     the block sums the footprints of the long ones (below), counts them and notes where they lie.
 *  2. segment_index_kernel: the same ranges again (where they hold long segments), with the sums
 *     of the blocks before: each long segment gets its rank and its footprint's base (an
 *     exclusive prefix over the segments), and its arrival counters are zeroed.
 *  3. segment_tiles_kernel: the persistent grid splits the footprints [0, total) evenly; a block
 *     streams the input tiles of its share as one stream across segment ends (the next tile's
 *     loads in flight while it reduces one), writes each tile's partial, and arrives once per
 *     level-1 group it touched (not at all where the group is wholly its own); the block that
 *     completes a group reduces it, and so on up to the segment's one-element top, as the full
 *     reduction's single launch does for one array. Work is cut only on tile boundaries and
 *     groups are reduced exactly as device/order.h orders them, so a segment's bits are those
 *     of hipreduce_reduce over it, whichever block does what.
 * A long segment's footprint: its stored levels 1 .. top-1 (level 1: one partial per tile; a
 * segment of one tile has none stored and one slot, which only counts its tile as work),
 * the level-k partials at footprint offset counts[1] + .. + counts[k-1]; the counter of group g
 * of level k (the partials [gT, gT + T) of level k) lies at the index of the group's first
 * partial in a counter array beside the partials. Footprints beyond the workspace's capacity
 * (host/tuning.h: segment_tiles_capacity, in footprint slots) are streamed by one warp each
 * (segments.h's stream_slice) in launch 3, after the balanced work. Launch 3 lives in
 * segment_stream.h; this file holds launches 1 and 2 and what the three share. */
#ifndef HIPREDUCE_SEGMENT_TILES_H
#define HIPREDUCE_SEGMENT_TILES_H

#include "kernels.h"
#include "segments.h"

namespace hr {

#ifndef HR_SEGMENT_SIZES_BLOCKS
/* Resident blocks per SM that launch 1's registers must allow (host/default_driver.h launches
 * that many per SM for launches 1 and 2): 4 on NVIDIA (nvcc 13.0 sm_90: f32 sum and i8 -> i64 do
 * not spill, f64 argmax 56 bytes; at 5, 48 registers, f32 sum spilled 44 bytes and ncu counted
 * 155k local-memory requests in launch 1 of a million power-law segments: H200, 79-85 us a call
 * against 75-77 at 4, and 262144 x 0..511 0.5% slower); on AMD the tree kernel's 4 (kernels.h
 * maps blocks per CU to waves per SIMD). */
#if defined(HIPREDUCE_BACKEND_CUDA)
#define HR_SEGMENT_SIZES_BLOCKS 4
#define HR_SEGMENT_SIZES_OCCUPANCY 4
#else
#define HR_SEGMENT_SIZES_BLOCKS HR_TREE_MIN_BLOCKS
#define HR_SEGMENT_SIZES_OCCUPANCY HR_TREE_MIN_OCCUPANCY
#endif
#endif

/* The workspace of the three launches (the host lays it out: host/default_driver.h). */
struct tile_args : result_args {
    const void* x;
    const uint64_t* offsets;
    uint64_t items;       /* segments */
    uint64_t per_block;   /* launches 1 and 2: segments per block */
    uint64_t capacity;    /* footprint slots of partials and counters */
    uint64_t long_min;    /* launch 3 takes the segments of more elements (at most a tile) */
    uint64_t* block_sums; /* launch 1: [block][4] = footprint, long segments, first and last long one */
    uint64_t* header;     /* [0]: long segments (launch 2's last block) */
    uint64_t* long_ids;   /* rank -> segment */
    uint64_t* long_base;  /* rank -> footprint base; [long segments]: the total */
    void* partials;       /* capacity accumulators */
    uint32_t* counters;   /* capacity counters (zeroed by launch 2 where used) */
};

/* Segment s's slice (offsets clamped as the public header says). */
__device__ __forceinline__ void segment_span(const uint64_t* offsets, uint64_t items, uint64_t s, uint64_t* first,
                                             uint64_t* count)
{
    const uint64_t end_all = offsets[items];
    const uint64_t e = offsets[s + 1] < end_all ? offsets[s + 1] : end_all, b = offsets[s];
    *first = b < e ? b : e;
    *count = e - *first;
}

/* The partials one level up from n values (a tile's worth each). */
template <class R> __device__ __forceinline__ uint64_t level_above(uint64_t n) { return (n + tile_items<R>() - 1) / tile_items<R>(); }

/* The footprint of a segment of `count` elements: its stored levels 1 .. top-1 (seg_levels'
 * counts[k] > 1), counted in scalars (seek_item asks it for every segment it walks to: an array
 * would sit in local memory, on the block's critical path). */
template <class R> __device__ __forceinline__ uint64_t levels_footprint(uint64_t count)
{
    uint64_t fp = 0;
    for (uint64_t n = level_above<R>(count); n > 1; n = level_above<R>(n)) fp += n;
    return fp;
}

/* The levels of a segment of `count` elements longer than a tile: counts[k] for k = 0 .. top,
 * counts[top] = 1 (order.h). */
template <class R> struct seg_levels {
    uint64_t counts[HR_MAX_LEVELS];
    int top;
    __device__ explicit seg_levels(uint64_t count)
    {
        counts[0] = count;
        top = 0;
        while (counts[top] > 1) {
            counts[top + 1] = level_above<R>(counts[top]);
            ++top;
        }
    }
    /* Footprint offset of level k's partials (k = 1 .. top-1). */
    __device__ uint64_t offset(int k) const
    {
        uint64_t o = 0;
        for (int j = 1; j < k; ++j) o += counts[j];
        return o;
    }
};

/* Launch 3's segments ("long" here): those over a.long_min elements (host/tuning.h's
 * segment_block_bytes), a block a tile; shorter ones are launch 1's. A long segment of one tile
 * (top 1: its tile's value is the result) stores no partial but takes one footprint slot, its
 * share of launch 3's work. */
__device__ __forceinline__ bool is_long(const tile_args& a, uint64_t count) { return count > a.long_min; }
template <class R> __device__ __forceinline__ uint64_t footprint_of(const tile_args& a, uint64_t count)
{
    return !is_long(a, count) ? 0 : count <= tile_items<R>() ? 1 : levels_footprint<R>(count);
}

/* Exclusive prefix of (a, b) over the block's threads in thread order; the block's sums in
 * *sum_a, *sum_b. All threads call it; it ends with a barrier. */
struct scan_storage {
    uint64_t a[HR_TILE_LANES], b[HR_TILE_LANES];
};
__device__ __forceinline__ void block_scan2(uint64_t* a, uint64_t* b, uint64_t* sum_a, uint64_t* sum_b, scan_storage& s)
{
    const unsigned t = threadIdx.x;
    s.a[t] = *a;
    s.b[t] = *b;
    __syncthreads();
    for (unsigned d = 1; d < HR_TILE_LANES; d *= 2) { /* inclusive, Hillis-Steele */
        const uint64_t xa = t >= d ? s.a[t - d] : 0, xb = t >= d ? s.b[t - d] : 0;
        __syncthreads();
        s.a[t] += xa;
        s.b[t] += xb;
        __syncthreads();
    }
    *sum_a = s.a[HR_TILE_LANES - 1];
    *sum_b = s.b[HR_TILE_LANES - 1];
    *a = s.a[t] - *a;
    *b = s.b[t] - *b;
    __syncthreads();
}

/* The block's minimum of *lo and maximum of *hi, in every thread; ends with a barrier. */
__device__ __forceinline__ void block_min_max(uint64_t* lo, uint64_t* hi, scan_storage& s)
{
    const unsigned t = threadIdx.x;
    s.a[t] = *lo;
    s.b[t] = *hi;
    __syncthreads();
    for (unsigned d = HR_TILE_LANES / 2; d > 0; d /= 2) {
        if (t < d) {
            s.a[t] = s.a[t + d] < s.a[t] ? s.a[t + d] : s.a[t];
            s.b[t] = s.b[t + d] > s.b[t] ? s.b[t + d] : s.b[t];
        }
        __syncthreads();
    }
    *lo = s.a[0];
    *hi = s.b[0];
    __syncthreads();
}

/* Launch 1's lists of the segments longer than a thread's ONE_LANES lanes, up to a.long_min: those
 * of at most 32 lanes are reduced by groups of 4 threads (64 at once), the others by 32-lane groups
 * (8 at once). A list is reduced once it fills a pass (or at the range's end), so that a chunk
 * of 256 segments with only a few such segments (power-law lengths) does not wait for a pass
 * of its own. Position of an entry: its append's counter value minus the count reduced before.
 * ONE_LANES: lanes of the segments a thread reduces alone (host/tuning.h says why 2). */
enum { ONE_LANES = 2, LIST4 = HR_TILE_LANES / 4, LIST32 = HR_TILE_LANES / HR_SEGMENT };
struct short_lists {
    uint64_t first4[LIST4 + HR_TILE_LANES], first32[LIST32 + HR_TILE_LANES];
    uint32_t count4[LIST4 + HR_TILE_LANES], count32[LIST32 + HR_TILE_LANES];
    uint32_t at4[LIST4 + HR_TILE_LANES], at32[LIST32 + HR_TILE_LANES]; /* segment - range start */
    uint32_t appended[2];
};

/* The n listed segments, by groups of G threads (every thread calls it, n block-uniform). */
template <class R, int G, int W>
__device__ __forceinline__ void reduce_listed(const tile_args& a, uint64_t lo, const uint64_t* first,
                                              const uint32_t* count, const uint32_t* at, uint32_t n)
{
    using T = typename R::value_t;
    for (uint32_t base = 0; base < n; base += HR_TILE_LANES / G) {
        const uint32_t i = base + threadIdx.x / G;
        const bool real = i < n;
        const typename R::acc v = group_tile<R, G, G == W>((const T*)a.x + (real ? first[i] : 0), 0,
                                                           real ? count[i] : 0, threadIdx.x % G);
        if (real && threadIdx.x % G == 0) store_result<R>(a, lo + at[i], v, count[i]);
    }
}

/* Launch 1: the block's range in chunks of 256 segments, one per thread, the next chunk's offsets
 * loaded while this one's elements are. A segment of at most ONE_LANES lanes (f32: 8 elements)
 * is reduced by its thread alone (group_short_tiles with a group of 1: the same folds and tree);
 * longer ones up to a.long_min are listed (short_lists); the long ones' footprints are summed, and
 * the first and last long segment of the range noted for launch 2. Against 4 rounds of 64
 * segments by groups of 4 per chunk and a 256-thread scan per chunk (latency after latency):
 * a million power-law segments (mean 3.9 elements) in 75-77 us a call on an H200 instead of
 * 118-122, all-empty ones in 30-31 instead of 56. */
template <class R, int W>
__global__ __launch_bounds__(HR_TILE_LANES, HR_SEGMENT_SIZES_OCCUPANCY) void segment_sizes_kernel(tile_args a)
{
    HR_KERNEL_BODY(W)
    {
        using T = typename R::value_t;
        constexpr uint64_t one = (uint64_t)ONE_LANES * chunk_items<R>(), four = (uint64_t)4 * SEG_SLOTS * chunk_items<R>();
        HR_SHARED(scan, scan_storage);
        HR_SHARED(lists, short_lists);
        const uint64_t lo = (uint64_t)blockIdx.x * a.per_block;
        const uint64_t hi = lo + a.per_block < a.items ? lo + a.per_block : a.items;
        const uint64_t end_all = a.offsets[a.items];
        uint64_t fp = 0;
        uint32_t longs = 0, first_long = UINT32_MAX, last_long = 0; /* positions in the range */
        uint32_t done4 = 0, done32 = 0, n4 = 0, n32 = 0; /* entries reduced, and listed since (block-uniform) */
        if (threadIdx.x < 2) lists.appended[threadIdx.x] = 0;
        uint64_t b = 0, e = 0; /* this thread's segment's offsets in the current chunk */
        if (lo + threadIdx.x < hi) b = a.offsets[lo + threadIdx.x], e = a.offsets[lo + threadIdx.x + 1];
        __syncthreads();
        for (uint64_t chunk = lo; chunk < hi; chunk += HR_TILE_LANES) {
            const uint64_t s = chunk + threadIdx.x;
            const bool real = s < hi;
            const uint64_t end = e < end_all ? e : end_all, first = b < end ? b : end, count = real ? end - first : 0;
            if (s + HR_TILE_LANES < hi) b = a.offsets[s + HR_TILE_LANES], e = a.offsets[s + HR_TILE_LANES + 1];
            if (real && count <= one) {
                const T* const slice[1] = {(const T*)a.x + first};
                const uint64_t valid[1] = {count};
                typename R::acc v[1];
                group_short_tiles<R, 1, ONE_LANES, 1, false>(v, slice, valid, 0);
                store_result<R>(a, s, v[0], count);
            }
            const bool to4 = real && count > one && count <= four;
            const bool to32 = real && count > four && !is_long(a, count);
            if (to4) {
                const uint32_t i = atomicAdd(&lists.appended[0], 1u) - done4;
                lists.first4[i] = first, lists.count4[i] = (uint32_t)count, lists.at4[i] = (uint32_t)(s - lo);
            } else if (to32) {
                const uint32_t i = atomicAdd(&lists.appended[1], 1u) - done32;
                lists.first32[i] = first, lists.count32[i] = (uint32_t)count, lists.at32[i] = (uint32_t)(s - lo);
            } else if (real && is_long(a, count)) {
                fp += footprint_of<R>(a, count);
                ++longs;
                first_long = first_long < s - lo ? first_long : (uint32_t)(s - lo);
                last_long = (uint32_t)(s - lo);
            }
            /* The counts from the barriers themselves (no shared read that a next append could race). */
            n4 += (uint32_t)__syncthreads_count(to4);
            n32 += (uint32_t)__syncthreads_count(to32);
            const bool last = chunk + HR_TILE_LANES >= hi;
            const bool flush4 = n4 >= LIST4 || (last && n4 > 0), flush32 = n32 >= LIST32 || (last && n32 > 0);
            if (flush4) reduce_listed<R, 4, W>(a, lo, lists.first4, lists.count4, lists.at4, n4);
            if (flush32) reduce_listed<R, HR_SEGMENT, W>(a, lo, lists.first32, lists.count32, lists.at32, n32);
            if (flush4 || flush32) __syncthreads(); /* the lists are rewritten from their start */
            if (flush4) done4 += n4, n4 = 0;
            if (flush32) done32 += n32, n32 = 0;
        }
        uint64_t sum_fp, sum_longs, n_longs = longs, from = first_long, to = last_long;
        block_scan2(&fp, &n_longs, &sum_fp, &sum_longs, scan);
        block_min_max(&from, &to, scan);
        if (threadIdx.x == 0) {
            uint64_t* sums = a.block_sums + 4 * blockIdx.x;
            sums[0] = sum_fp, sums[1] = sum_longs, sums[2] = lo + from, sums[3] = lo + to;
        }
    }
}

/* Launch 2: ranks and footprint bases of the long segments; their counters zeroed. A block reads
 * only the stretch of its range from its first to its last long segment (launch 1's note). */
template <class R, int W>
__global__ __launch_bounds__(HR_TILE_LANES) void segment_index_kernel(tile_args a)
{
    HR_KERNEL_BODY(W)
    {
        HR_SHARED(scan, scan_storage);
        /* The blocks before this one. */
        uint64_t fp = 0, longs = 0;
        for (uint64_t b = threadIdx.x; b < blockIdx.x; b += HR_TILE_LANES) {
            fp += a.block_sums[4 * b];
            longs += a.block_sums[4 * b + 1];
        }
        uint64_t base_fp, base_longs;
        block_scan2(&fp, &longs, &base_fp, &base_longs, scan);
        const uint64_t* mine = a.block_sums + 4 * blockIdx.x;
        const bool last_block = blockIdx.x + 1 == gridDim.x;
        if (mine[1] != 0) {
            const uint64_t lo = mine[2], hi = mine[3] + 1;
            for (uint64_t chunk = lo; chunk < hi; chunk += HR_TILE_LANES) {
                const uint64_t s = chunk + threadIdx.x;
                uint64_t first = 0, count = 0;
                if (s < hi) segment_span(a.offsets, a.items, s, &first, &count);
                const bool long_one = s < hi && is_long(a, count);
                const uint64_t fp_own = long_one ? footprint_of<R>(a, count) : 0;
                uint64_t my_fp = fp_own, rank = long_one;
                uint64_t sum_fp, sum_longs;
                block_scan2(&my_fp, &rank, &sum_fp, &sum_longs, scan);
                if (long_one) {
                    const uint64_t at = base_fp + my_fp;
                    a.long_ids[base_longs + rank] = s;
                    a.long_base[base_longs + rank] = at;
                    const seg_levels<R> lv(count);
                    if (at + fp_own <= a.capacity) /* its counters (a segment of one tile: none) */
                        for (int k = 1; k < lv.top; ++k)
                            for (uint64_t q = 0; q < lv.counts[k]; q += tile_items<R>())
                                a.counters[at + lv.offset(k) + q] = 0;
                }
                base_fp += sum_fp;
                base_longs += sum_longs;
            }
        }
        if (last_block && threadIdx.x == 0) {
            a.header[0] = base_longs; /* every long segment, all blocks' */
            a.long_base[base_longs] = base_fp;
        }
    }
}

}  // namespace hr

#endif
