/* CSR segments balanced by work (hipreduce_reduce_segments, _argreduce_segments on a GPU): three
 * stream-ordered launches that read the offsets on the device only (no host round trip, so a
 * call can be captured in a graph).
 *  1. segment_sizes_kernel: block b takes a contiguous range of segments; its groups of threads
 *     reduce the short ones (one tile or less: segments.h's group tile), and the block sums the
 *     footprints of the long ones (below) and counts them.
 *  2. segment_index_kernel: the same ranges again, with the sums of the blocks before: each long
 *     segment gets its rank and its footprint's base (an exclusive prefix over the segments),
 *     and its arrival counters are zeroed.
 *  3. segment_tiles_kernel: the persistent grid splits the footprints [0, total) evenly; a block
 *     streams the input tiles of its share (the full reduction's stream_tiles, kernels.h),
 *     writes each tile's partial, and arrives once per level-1 group it touched; the block that
 *     completes a group reduces it, and so on up to the segment's one-element top, as the full
 *     reduction's single launch does for one array. Work is cut only on tile boundaries and
 *     groups are reduced exactly as device/order.h orders them, so a segment's bits are those
 *     of hipreduce_reduce over it, whichever block does what.
 * A long segment's footprint: its stored levels 1 .. top-1 (level 1: one partial per tile),
 * the level-k partials at footprint offset counts[1] + .. + counts[k-1]; the counter of group g
 * of level k (the partials [gT, gT + T) of level k) lies at the index of the group's first
 * partial in a counter array beside the partials. Footprints beyond the workspace's capacity
 * (host/tuning.h: segment_tiles_capacity, in footprint slots) are streamed by one warp each
 * (segments.h's stream_slice) in launch 3, after the balanced work. */
#ifndef HIPREDUCE_SEGMENT_TILES_H
#define HIPREDUCE_SEGMENT_TILES_H

#include "kernels.h"
#include "segments.h"

namespace hr {

#ifndef HR_SEGMENT_SIZES_BLOCKS
/* Resident blocks per SM that launch 1's registers must allow (host/default_driver.h launches
 * that many per SM for launches 1 and 2): 5 on NVIDIA (nvcc 13.0 sm_90: 48 registers; f32 sum
 * does not spill, f64 argmax spills 60 bytes; at 6, 40 registers, f64 argmax spilled 488); on AMD
 * the tree kernel's 4 (kernels.h maps blocks per CU to waves per SIMD). */
#if defined(HIPREDUCE_BACKEND_CUDA)
#define HR_SEGMENT_SIZES_BLOCKS 5
#define HR_SEGMENT_SIZES_OCCUPANCY 5
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
    uint64_t* block_sums; /* launch 1: [block][2] = footprint, long segments */
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

/* The levels of a segment of `count` elements longer than a tile: counts[k] for k = 0 .. top,
 * counts[top] = 1 (order.h), and the footprint (the stored levels 1 .. top-1). */
template <class R> struct seg_levels {
    uint64_t counts[HR_MAX_LEVELS];
    int top;
    uint64_t footprint;
    __device__ explicit seg_levels(uint64_t count)
    {
        counts[0] = count;
        top = 0;
        footprint = 0;
        while (counts[top] > 1) {
            counts[top + 1] = (counts[top] + tile_items<R>() - 1) / tile_items<R>();
            ++top;
            if (counts[top] > 1) footprint += counts[top];
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

template <class R> __device__ __forceinline__ bool is_long(uint64_t count) { return count > tile_items<R>(); }
template <class R> __device__ __forceinline__ uint64_t footprint_of(uint64_t count)
{
    return is_long<R>(count) ? seg_levels<R>(count).footprint : 0;
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

/* Launch 1: the block's range in chunks of 256 segments. Those of at most 32 lanes (f32: 128
 * elements) are reduced by groups of 4 threads, 64 in flight per block, as the rows' kernel groups
 * short rows (host/tuning.h's segment_table); the others up to a tile are gathered into a list
 * and reduced by 32-lane groups, so that no group idles on a segment of the other kind (a warp
 * per segment of every kind: 0.25 ms for a million power-law ones on an H100, latency after
 * latency; skipping instead of gathering: 262144 of 0..511 elements 19% slower than a warp each).
 * The first pass also sums the long ones' footprints. */
struct short_list {
    uint64_t first[HR_TILE_LANES], count[HR_TILE_LANES], segment[HR_TILE_LANES];
};
template <class R, int W>
__global__ __launch_bounds__(HR_TILE_LANES, HR_SEGMENT_SIZES_OCCUPANCY) void segment_sizes_kernel(tile_args a)
{
    HR_KERNEL_BODY(W)
    {
        using T = typename R::value_t;
        using acc = typename R::acc;
        constexpr uint64_t small = (uint64_t)4 * SEG_SLOTS * chunk_items<R>();
        constexpr unsigned G = HR_SEGMENT;
        HR_SHARED(scan, scan_storage);
        HR_SHARED(mids, short_list);
        const uint64_t lo = (uint64_t)blockIdx.x * a.per_block;
        const uint64_t hi = lo + a.per_block < a.items ? lo + a.per_block : a.items;
        uint64_t fp = 0, longs = 0;
        /* Every group of a wave runs the same iterations (the shuffles need the whole wave). */
        for (uint64_t chunk = lo; chunk < hi; chunk += HR_TILE_LANES) {
            for (unsigned round = 0; round < 4; ++round) {
                const uint64_t s = chunk + round * (HR_TILE_LANES / 4) + threadIdx.x / 4;
                uint64_t first = 0, count = 0;
                if (s < hi) segment_span(a.offsets, a.items, s, &first, &count);
                const bool tiny = s < hi && count <= small;
                const acc v = group_tile<R, 4, false>((const T*)a.x + first, 0, tiny ? count : 0, threadIdx.x % 4);
                if (threadIdx.x % 4 == 0) {
                    if (tiny) store_result<R>(a, s, v, count == 0);
                    fp += footprint_of<R>(count);
                    longs += is_long<R>(count);
                }
            }
            const uint64_t s = chunk + threadIdx.x;
            uint64_t first = 0, count = 0;
            if (s < hi) segment_span(a.offsets, a.items, s, &first, &count);
            uint64_t at = s < hi && count > small && !is_long<R>(count), none = 0, n_mid, unused;
            const bool mid = at;
            block_scan2(&at, &none, &n_mid, &unused, scan);
            if (mid) {
                mids.first[at] = first;
                mids.count[at] = count;
                mids.segment[at] = s;
            }
            __syncthreads();
            for (uint64_t base = 0; base < n_mid; base += HR_TILE_LANES / G) {
                const uint64_t i = base + threadIdx.x / G;
                const bool real = i < n_mid;
                const acc v = group_tile<R, G, G == W>((const T*)a.x + (real ? mids.first[i] : 0), 0,
                                                       real ? mids.count[i] : 0, threadIdx.x % G);
                if (real && threadIdx.x % G == 0) store_result<R>(a, mids.segment[i], v, false);
            }
            __syncthreads(); /* the list is rewritten by the next chunk */
        }
        uint64_t sum_fp, sum_longs;
        block_scan2(&fp, &longs, &sum_fp, &sum_longs, scan);
        if (threadIdx.x == 0) {
            a.block_sums[2 * blockIdx.x] = sum_fp;
            a.block_sums[2 * blockIdx.x + 1] = sum_longs;
        }
    }
}

/* Launch 2: ranks and footprint bases of the long segments; their counters zeroed. */
template <class R, int W>
__global__ __launch_bounds__(HR_TILE_LANES) void segment_index_kernel(tile_args a)
{
    HR_KERNEL_BODY(W)
    {
        HR_SHARED(scan, scan_storage);
        /* The blocks before this one. */
        uint64_t fp = 0, longs = 0;
        for (uint64_t b = threadIdx.x; b < blockIdx.x; b += HR_TILE_LANES) {
            fp += a.block_sums[2 * b];
            longs += a.block_sums[2 * b + 1];
        }
        uint64_t base_fp, base_longs;
        block_scan2(&fp, &longs, &base_fp, &base_longs, scan);
        const uint64_t lo = (uint64_t)blockIdx.x * a.per_block;
        const uint64_t hi = lo + a.per_block < a.items ? lo + a.per_block : a.items;
        const bool last_block = blockIdx.x + 1 == gridDim.x;
        if (a.block_sums[2 * blockIdx.x + 1] != 0) {
            for (uint64_t chunk = lo; chunk < hi; chunk += HR_TILE_LANES) {
                const uint64_t s = chunk + threadIdx.x;
                uint64_t first = 0, count = 0;
                if (s < hi) segment_span(a.offsets, a.items, s, &first, &count);
                const bool long_one = s < hi && is_long<R>(count);
                uint64_t my_fp = long_one ? footprint_of<R>(count) : 0, rank = long_one;
                uint64_t sum_fp, sum_longs;
                block_scan2(&my_fp, &rank, &sum_fp, &sum_longs, scan);
                if (long_one) {
                    const uint64_t at = base_fp + my_fp;
                    a.long_ids[base_longs + rank] = s;
                    a.long_base[base_longs + rank] = at;
                    const seg_levels<R> lv(count);
                    if (at + lv.footprint <= a.capacity)
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

/* The largest r < n with v[r] <= w (v non-decreasing, v[0] <= w), found by the whole block in
 * rounds of 256 probes (a few dependent loads instead of log2(n)). */
__device__ __forceinline__ uint64_t block_search(const uint64_t* v, uint64_t n, uint64_t w)
{
    uint64_t lo = 0, hi = n;
    while (hi - lo > 1) {
        const uint64_t step = (hi - lo + HR_TILE_LANES - 1) / HR_TILE_LANES;
        const uint64_t p = lo + threadIdx.x * step;
        const int c = __syncthreads_count(p < hi && v[p] <= w);
        lo += (uint64_t)(c - 1) * step;
        hi = lo + step < hi ? lo + step : hi;
    }
    return lo;
}

/* `arrivals` partials of a group are stored (by thread 0): whether they complete it, in every
 * thread (kernels.h's arrive, with the counter and the member count given). */
__device__ __forceinline__ bool arrive_at(uint32_t* counter, uint64_t members, uint64_t arrivals)
{
    bool last = false;
    if (threadIdx.x == 0) last = hr_arrive_add(counter, (uint32_t)arrivals) + arrivals == members;
    return __syncthreads_or(last);
}

/* Group g of level 1 of a segment of `count` elements is complete: reduces it, stores the value one level up and
 * climbs for as long as this block completes each group; the top is the result. */
template <class R>
__device__ __forceinline__ void segment_climb(const tile_args& a, uint64_t s, uint64_t at, uint64_t count, uint64_t g,
                                              block_reduce_storage<R, HR_TILE_LANES>& smem)
{
    using acc = typename R::acc;
    constexpr uint64_t T = tile_items<R>();
    const seg_levels<R> lv(count);
    acc* partials = (acc*)a.partials + at;
    for (int k = 1;; ++k) {
        const uint64_t valid = tile_valid<R>(lv.counts[k], g * T);
        acc v = partial_lane_accumulate<R, true>(R::identity(), partials + lv.offset(k) + g * T, valid, valid == T,
                                                 threadIdx.x);
        v = block_reduce_segments<R, HR_TILE_LANES>(v, smem);
        if (k + 1 == lv.top) {
            if (threadIdx.x == 0) store_result<R>(a, s, v, false);
            return;
        }
        const uint64_t up = lv.offset(k + 1);
        if (threadIdx.x == 0) partials[up + g] = v;
        g /= T;
        if (!arrive_at(a.counters + at + up + g * T, tile_valid<R>(lv.counts[k + 1], g * T), 1)) return;
    }
}

/* Launch 3's walk over the long segments (kept in shared memory while the tiles stream). */
struct tile_walk {
    uint64_t rank, at, count, i0, i1;
};

/* Launch 3's second part: the long segments whose footprint ends past the capacity, a 32-lane
 * group each (out of line: the tiles' stream keeps its registers). */
template <class R, int W> __device__ HR_NOINLINE void stream_past_capacity(const tile_args& a, uint64_t longs)
{
    using T = typename R::value_t;
    /* The first rank whose footprint ends past the capacity, then a group per segment. */
    uint64_t from = block_search(a.long_base, longs + 1, a.capacity);
    if (from < longs && a.long_base[from + 1] <= a.capacity) ++from;
    constexpr unsigned G = HR_SEGMENT, groups = HR_TILE_LANES / G;
    const unsigned g = threadIdx.x % G;
    for (uint64_t base = from + (uint64_t)blockIdx.x * groups; base < longs; base += (uint64_t)gridDim.x * groups) {
        const uint64_t r = base + threadIdx.x / G;
        if (r >= longs) continue; /* both halves of a wave64 stream whole slices on their own */
        uint64_t first, count;
        const uint64_t s = a.long_ids[r];
        segment_span(a.offsets, a.items, s, &first, &count);
        const typename R::acc v = stream_slice<R>((const T*)a.x + first, count, g);
        if (g == 0) store_result<R>(a, s, v, false);
    }
}

/* Launch 3: the footprints' tiles shared evenly by the persistent grid, then the long segments
 * past the capacity, a 32-lane group each. */
template <class R, int W>
__global__ __launch_bounds__(HR_TILE_LANES, HR_TREE_MIN_OCCUPANCY) void segment_tiles_kernel(tile_args a)
{
    HR_KERNEL_BODY(W)
    {
        using T = typename R::value_t;
        constexpr uint64_t TI = tile_items<R>();
        HR_SHARED(smem, block_reduce_storage<R, HR_TILE_LANES>);
        const uint64_t longs = a.header[0];
        if (longs == 0) return;
        const uint64_t total = a.long_base[longs];
        const uint64_t work = total < a.capacity ? total : a.capacity;
        const uint64_t w0 = work * blockIdx.x / gridDim.x, w1 = work * (blockIdx.x + 1) / gridDim.x;
        /* The walk's state lies in shared memory while the tiles stream (block-uniform values that
         * would otherwise hold registers the stream's prefetch needs: 64 bytes spilled). */
        HR_SHARED(walk, tile_walk);
        for (uint64_t r = w0 < w1 ? block_search(a.long_base, longs, w0) : longs; r < longs;) {
            const uint64_t at = a.long_base[r];
            if (at >= w1) break;
            uint64_t first, count;
            segment_span(a.offsets, a.items, a.long_ids[r], &first, &count);
            if (at + footprint_of<R>(count) > a.capacity) break; /* streamed below */
            const uint64_t tiles = (count + TI - 1) / TI;
            const uint64_t i0 = w0 > at ? w0 - at : 0, i1 = w1 - at < tiles ? w1 - at : tiles;
            if (i0 >= i1) { /* this share holds only upper-level slots of it */
                ++r;
                continue;
            }
            if (threadIdx.x == 0) walk = tile_walk{r, at, count, i0, i1};
            stream_tiles<R>((const T*)a.x + first, nullptr, count, i0, i1, (typename R::acc*)a.partials + at, smem);
            const tile_walk w = walk; /* stream_tiles ended with a barrier */
            const uint64_t n = (w.count + TI - 1) / TI;
            for (uint64_t g = w.i0 / TI; g * TI < w.i1; ++g) {
                const uint64_t lo = g * TI > w.i0 ? g * TI : w.i0, hi = (g + 1) * TI < w.i1 ? (g + 1) * TI : w.i1;
                if (arrive_at(a.counters + w.at + g * TI, tile_valid<R>(n, g * TI), hi - lo))
                    segment_climb<R>(a, a.long_ids[w.rank], w.at, w.count, g, smem);
            }
            r = w.rank + 1; /* every thread read walk before the arrivals' barriers */
        }
        if (total > a.capacity) stream_past_capacity<R, W>(a, longs);
    }
}

}  // namespace hr

#endif
