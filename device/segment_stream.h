/* Launch 3 of the CSR segments balanced by work (segment_tiles.h says how the three launches
 * share the work): the footprints' tiles streamed by the persistent grid as one stream of
 * (segment, tile) items per block, each level-1 group climbed by the block that completes it,
 * then the long segments past the workspace's capacity. */
#ifndef HIPREDUCE_SEGMENT_STREAM_H
#define HIPREDUCE_SEGMENT_STREAM_H

#include "segment_tiles.h"

namespace hr {

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
            if (threadIdx.x == 0) store_result<R>(a, s, v, count);
            return;
        }
        const uint64_t up = lv.offset(k + 1);
        if (threadIdx.x == 0) partials[up + g] = v;
        g /= T;
        if (!arrive_at(a.counters + at + up + g * T, tile_valid<R>(lv.counts[k + 1], g * T), 1)) return;
    }
}

/* Launch 3's work items: tile `tile` of long segment s (rank r, footprint base at, elements
 * [first, first + count)), whose tiles [i0, i1) are the block's; the block's walk holds the item
 * it reduces, the next one (whose loads are in flight meanwhile) and the one after (the first warp
 * finds it while those loads are in flight), in a ring of 4 (launch 3's loop says why 4). The
 * first warp writes the walk (its lane 0). */
struct tile_item {
    uint64_t r, s, at, first, count, tile, i0, i1;
};
/* The records of HR_SEGMENT consecutive long segments, ranks [base, base + HR_SEGMENT), which the
 * first warp loads together (a lane a rank): the walk reads a new segment's base and span from
 * here, so it waits on global memory once per HR_SEGMENT segments, not three dependent loads per
 * segment on the block's critical path (the warp that finds the item is the block's tree's too). */
struct rank_batch {
    uint64_t base;
    uint64_t at[HR_SEGMENT], s[HR_SEGMENT], first[HR_SEGMENT], count[HR_SEGMENT];
};
enum { WALK_RING = 4 };
/* Thread 0's partials of a segment's first tiles (launch 3: the first chunk of lane 0's). */
template <class R> struct lane0_partials {
    typename R::acc v[chunk_items<R>()];
};
struct tile_walk {
    tile_item item[WALK_RING]; /* the one reduced, the next, the one after (launch 3's loop) */
    rank_batch batch;
};

/* The first warp (every lane, warp-uniform r): the records of ranks [r, r + HR_SEGMENT). */
__device__ __forceinline__ void fill_batch(const tile_args& a, uint64_t longs, uint64_t r, rank_batch& b)
{
    const unsigned lane = threadIdx.x;
    hr_syncwarp(); /* every lane has read the records it replaces */
    if (lane < HR_SEGMENT && r + lane < longs) {
        const uint64_t q = r + lane, s = a.long_ids[q];
        uint64_t first, count;
        segment_span(a.offsets, a.items, s, &first, &count);
        b.at[lane] = a.long_base[q], b.s[lane] = s, b.first[lane] = first, b.count[lane] = count;
    }
    if (lane == 0) b.base = r;
    hr_syncwarp();
}

/* The first warp (every lane, warp-uniform arguments; lane 0 writes it): the first tile of the
 * block's footprint share [w0, w1) in a long segment of rank r or later (it.r = longs: none
 * left). A footprint past the capacity ends the walk (streamed after). */
template <class R>
__device__ __forceinline__ void seek_item(const tile_args& a, uint64_t longs, uint64_t w0, uint64_t w1, uint64_t r,
                                          tile_item& it, rank_batch& b)
{
    constexpr uint64_t TI = tile_items<R>();
    for (; r < longs; ++r) {
        if (r - b.base >= HR_SEGMENT) fill_batch(a, longs, r, b); /* ranks only rise: r >= base */
        const unsigned j = (unsigned)(r - b.base);
        const uint64_t at = b.at[j];
        if (at >= w1) break;
        const uint64_t count = b.count[j];
        if (at + footprint_of<R>(a, count) > a.capacity) break;
        const uint64_t tiles = (count + TI - 1) / TI;
        const uint64_t i0 = w0 > at ? w0 - at : 0, i1 = w1 - at < tiles ? w1 - at : tiles;
        if (i0 < i1) { /* else the share holds only upper-level slots of it */
            if (threadIdx.x == 0) it = tile_item{r, b.s[j], at, b.first[j], count, i0, i0, i1};
            return;
        }
    }
    if (threadIdx.x == 0) it.r = longs;
}
/* The first warp: the item after `from` into `to`. */
template <class R>
__device__ __forceinline__ void next_item(const tile_args& a, uint64_t longs, uint64_t w0, uint64_t w1,
                                          const tile_item& from, tile_item& to, rank_batch& b)
{
    const uint64_t r = from.r, tile = from.tile, i1 = from.i1;
    if (tile + 1 < i1) {
        if (threadIdx.x == 0) {
            to = from;
            to.tile = tile + 1;
        }
    } else {
        seek_item<R>(a, longs, w0, w1, r + 1, to, b);
    }
}

/* Launch 3 loads a tile ahead across segment ends: full 16-byte aligned tiles by 16-byte loads,
 * other tiles of 4- and 8-byte elements one element at a time into the same registers (narrower
 * ones, 64 loads a lane, are read when folded); the fold is input_lane_accumulate's sequence.
 * Not for accumulators over 16 bytes (f64 nrm2's three sums) on 64-lane waves: with the tile ahead,
 * gfx90a's launch 3 needed 128 VGPRs and spilled 2 (test/amd_spills.sh); without it, 116. */
template <class R, int W> constexpr bool load_ahead()
{
    return HR_TREE_PREFETCH && R::inputs == 1 && (HR_KEYED_PREFETCH || !R::keyed) && !(W == 64 && sizeof(typename R::acc) > 16);
}
template <class R, int W> constexpr bool gather_ahead() { return load_ahead<R, W>() && sizeof(typename R::value_t) >= 4; }

template <class R, int W>
__device__ __forceinline__ void load_item(input_chunks<R>& r, const typename R::value_t* x, uint64_t first,
                                          uint64_t valid, bool vector)
{
    using T = typename R::value_t;
    constexpr int items = chunk_items<R>();
    if (load_ahead<R, W>() && vector) {
        load_input<R>(r, x, nullptr, first, threadIdx.x);
    } else if constexpr (gather_ahead<R, W>()) {
#pragma unroll
        for (int c = 0; c < HR_TILE_CHUNKS; ++c) {
            const uint64_t at = ((uint64_t)c * HR_TILE_LANES + threadIdx.x) * items;
            T v[items];
#pragma unroll
            for (int i = 0; i < items; ++i) v[i] = at + i < valid ? x[first + at + i] : T();
            HR_MEMCPY(&r.x.raw[c], v, sizeof v);
        }
    }
}

/* The block's value of the tile load_item loaded (valid in thread 0); ends with a barrier. */
template <class R, int W>
__device__ __forceinline__ typename R::acc reduce_item(const input_chunks<R>& r, const typename R::value_t* x,
                                                       uint64_t first, uint64_t valid, bool vector,
                                                       block_reduce_storage<R, HR_TILE_LANES>& smem)
{
    using T = typename R::value_t;
    constexpr int items = chunk_items<R>();
    const unsigned lane = threadIdx.x;
    typename R::acc v;
    if (load_ahead<R, W>() && vector) {
        if constexpr (narrow_keys<R>()) return reduce_narrow_keys<R>(r.x, first, smem);
        v = fold_input<R>(R::identity(), r, lane, first);
    } else if constexpr (gather_ahead<R, W>()) {
        if (valid == tile_items<R>()) {
            v = fold_input<R>(R::identity(), r, lane, first);
        } else {
            input_fold<R> fold(R::identity(), lane * items);
#pragma unroll
            for (int c = 0; c < HR_TILE_CHUNKS; ++c) {
                const uint64_t at = ((uint64_t)c * HR_TILE_LANES + lane) * items;
                T e[items];
                chunk_elements(e, r.x.raw[c]);
#pragma unroll
                for (int i = 0; i < items; ++i)
                    if (at + i < valid) fold.add(e[i], lane_pos<R>(c, i));
            }
            v = fold.result(first);
        }
    } else {
        v = input_lane_accumulate<R>(R::identity(), x, nullptr, first, valid, vector, lane);
    }
    return block_reduce_segments<R, HR_TILE_LANES>(v, smem);
}

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
        if (g == 0) store_result<R>(a, s, v, count);
    }
}

/* A block-uniform 64-bit value read from global memory, held in scalar registers on AMD (the
 * compiler cannot prove a loaded value uniform; in vector registers the walk's values pushed launch
 * 3 past its 128 VGPRs). The value itself elsewhere. */
__device__ __forceinline__ uint64_t block_uniform(uint64_t v)
{
#if defined(HIPREDUCE_BACKEND_AMD) && defined(__HIP_DEVICE_COMPILE__)
    return (uint64_t)__builtin_amdgcn_readfirstlane((int)(uint32_t)v) |
           (uint64_t)(uint32_t)__builtin_amdgcn_readfirstlane((int)(uint32_t)(v >> 32)) << 32;
#else
    return v;
#endif
}

/* Launch 3: the footprints' tiles shared evenly by the persistent grid, as one stream of (segment,
 * tile) items per block: the next item's loads (and the first warp's walk to it) are in flight while the
 * block reduces the current tile and climbs any group it completes, so a segment of a few tiles
 * does not stall the stream at its start and end (ncu, H200: 26-31% of DRAM with a stream per
 * segment). A level-1 group whose partials are all the block's own is climbed without its arrival
 * counter; a segment of at most a chunk of tiles (f32: 4) wholly the block's is finished by thread 0
 * alone. Then the long segments past the capacity, a 32-lane group each. */
template <class R, int W>
__global__ __launch_bounds__(HR_TILE_LANES, HR_TREE_MIN_OCCUPANCY) void segment_tiles_kernel(tile_args a)
{
    HR_KERNEL_BODY(W)
    {
        using T = typename R::value_t;
        using acc = typename R::acc;
        constexpr uint64_t TI = tile_items<R>();
        HR_SHARED(smem, block_reduce_storage<R, HR_TILE_LANES>);
        HR_SHARED(walk, tile_walk);
        constexpr int LANE0 = chunk_items<R>(); /* partials lane 0 folds first in a level-1 group */
        HR_SHARED(own, lane0_partials<R>);
        const uint64_t longs = block_uniform(a.header[0]);
        if (longs == 0) return;
        const uint64_t total = block_uniform(a.long_base[longs]);
        const uint64_t work = total < a.capacity ? total : a.capacity;
        const uint64_t w0 = work * blockIdx.x / gridDim.x, w1 = work * (blockIdx.x + 1) / gridDim.x;
        const uint64_t r0 = w0 < w1 ? block_search(a.long_base, longs, w0) : longs;
        const bool walker = threadIdx.x < (unsigned)W; /* the first warp */
        if (walker) {
            fill_batch(a, longs, r0, walk.batch);
            seek_item<R>(a, longs, w0, w1, r0, walk.item[0], walk.batch);
        }
        __syncthreads();
        input_chunks<R> cur, next;
        const auto load = [&](input_chunks<R>& r, const tile_item& it) {
            const T* x = (const T*)a.x + block_uniform(it.first);
            const uint64_t first = block_uniform(it.tile) * TI, valid = tile_valid<R>(block_uniform(it.count), first);
            load_item<R, W>(r, x, first, valid, valid == TI && aligned16(x));
        };
        const bool any = block_uniform(walk.item[0].r) < longs;
        if (any) load(cur, walk.item[0]);
        if (walker && any) next_item<R>(a, longs, w0, w1, walk.item[0], walk.item[1], walk.batch);
        __syncthreads();
        /* Item i lies in walk.item[i % WALK_RING] (k here): the first warp writes item i + 2 while the block
         * reduces item i, into the slot of item i - 2, which every thread finished with before item
         * i - 1's tree (its barriers), so the loop needs no barrier of its own. */
        for (unsigned k = 0;; k = (k + 1) % WALK_RING) {
            const tile_item &it = walk.item[k], &it_next = walk.item[(k + 1) % WALK_RING];
            if (block_uniform(it.r) >= longs) break;
            const bool more = block_uniform(it_next.r) < longs;
            if (more) load(next, it_next);
            if (walker && more) next_item<R>(a, longs, w0, w1, it_next, walk.item[(k + 2) % WALK_RING], walk.batch);
            const T* x = (const T*)a.x + block_uniform(it.first);
            const uint64_t tile = block_uniform(it.tile), count = block_uniform(it.count);
            const uint64_t valid = tile_valid<R>(count, tile * TI);
            const acc v = reduce_item<R, W>(cur, x, tile * TI, valid, valid == TI && aligned16(x), smem);
            const uint64_t at = block_uniform(it.at);
            const bool one_tile = count <= TI; /* the tile's value is the segment's */
            if (threadIdx.x == 0) {
                if (one_tile) {
                    store_result<R>(a, block_uniform(it.s), v, count);
                } else {
                    ((acc*)a.partials + at)[tile] = v;
                    if (tile < LANE0) own.v[tile] = v;
                }
            }
            const uint64_t i0 = block_uniform(it.i0), i1 = block_uniform(it.i1);
            if (!one_tile && (tile + 1 == i1 || (tile + 1) % TI == 0)) { /* the block's last tile of a level-1 group */
                const uint64_t g = tile / TI, lo = g * TI > i0 ? g * TI : i0;
                const uint64_t members = tile_valid<R>((count + TI - 1) / TI, g * TI), arrivals = tile + 1 - lo;
                bool complete = arrivals == members; /* the whole group is this block's */
                if (complete && g == 0 && members <= LANE0) {
                    /* The segment's one group, its partials all lane 0's in segment_climb (its first
                     * chunk) and all in thread 0: lane 0's fold is the result, the tree over the other
                     * lanes' identities leaves it as it is (as group_tree's Skip does), so no barrier,
                     * read-back or tree. */
                    if (threadIdx.x == 0) {
                        partial_fold<R> f(R::identity());
                        for (uint64_t m = 0; m < members; ++m) f.add(own.v[m]);
                        store_result<R>(a, block_uniform(it.s), f.result(), count);
                    }
                    complete = false;
                } else if (complete) {
                    __syncthreads(); /* thread 0's partials, to every thread */
                } else {
                    complete = arrive_at(a.counters + at + g * TI, members, arrivals);
                }
                if (complete) segment_climb<R>(a, block_uniform(it.s), at, count, g, smem);
            }
            cur = next;
        }
        if (total > a.capacity) stream_past_capacity<R, W>(a, longs);
    }
}

}  // namespace hr

#endif
