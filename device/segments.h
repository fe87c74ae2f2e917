/* Kernels of the axis and segment reductions (hipreduce_reduce_axis, _segments), in the
 * orders of device/order.h.
 *
 * Contiguous results (rows, CSR segments) follow the full reduction's tile order applied to
 * the slice alone. A group of G threads (G = 4, 16 or 32, inside one warp) computes one tile:
 * thread g owns the tile's logical lanes g, g + G, .., g + 7G (8 slots), folds each with the
 * full reduction's lane folds (lane_folds.h), and the lanes are combined by the segment tree
 * (order.h). A lane with no element is the operator's identity, which every combine leaves
 * exact, so the tree skips the steps that would only add identities. The tree's steps are
 * butterflies (hr_shfl_xor): apply is commutative, so every lane of the group ends with the
 * bits that the down-tree leaves in its first lane, and no broadcast is needed. Where the
 * combine picks by a total order (argmin/argmax, min/max), any tree has those bits, and a
 * warp's tree combines each thread's slots before it shuffles.
 *  - rows of at most 32 lanes (f32: 128 elements): groups of 4, 8 rows per warp
 *    (host/tuning.h's table); rows of 1-4 whole chunks groups of 1, 2 or 4 threads with 4 rows
 *    per thread at once (short_rows_kernel); other rows of 1-2 lanes a thread each, 4 at once;
 *  - rows of 33-128 lanes: groups of 16, 2 rows per warp;
 *  - other rows: a warp (a 32-lane half of a wave64) per row, rows of 129-256 lanes with the
 *    next row's chunks in flight (rows_prefetch_kernel); a row longer than a tile (and a CSR
 *    segment past segment_tiles.h's capacity) is streamed by its warp tile by tile, each tile
 *    partial folded at once into the next level's lanes (8 slots per thread per level), so
 *    the levels of any length need no workspace;
 *  - few rows longer than a tile: the full reduction's kernel itself, consecutive blocks per row
 *    (kernels.h, host/default_driver.h);
 *  - CSR segments: balanced by work (segment_tiles.h), short ones by this file's group tiles.
 * Strided results (inner > 1, columns): columns.h. */
#ifndef HIPREDUCE_SEGMENTS_H
#define HIPREDUCE_SEGMENTS_H

#include "launch_args.h"
#include "tile_load.h"

namespace hr {

enum { SEG_SLOTS = 8 };

/* Lanes of a tile with elements: ceil(valid / chunk items), at most HR_TILE_LANES. */
template <class R> __device__ __forceinline__ uint32_t tile_lanes(uint64_t valid)
{
    constexpr int items = chunk_items<R>();
    return valid >= (uint64_t)HR_TILE_LANES * items ? HR_TILE_LANES : (uint32_t)((valid + items - 1) / items);
}

/* Level 0: a group thread's slots (lanes g + G*k) of the input tile at t (tile_first: its
 * position in the slice, for argmin/argmax indices). Chunk by chunk, every slot's chunk in
 * flight at once; a whole chunk at a 16-byte boundary is one load, any other element by
 * element, in the order's (c, v) sequence either way. */
template <class R, int G, size_t... K>
__device__ __forceinline__ void seg_input_lanes(typename R::acc (&a)[SEG_SLOTS], const typename R::value_t* t,
                                                uint64_t tile_first, uint64_t valid, unsigned g,
                                                std::index_sequence<K...>)
{
    using T = typename R::value_t;
    constexpr int items = chunk_items<R>();
    const bool aligned = aligned16(t);
    const uint64_t valid_lanes = (valid + items - 1) / items; /* lanes with an element in chunk 0 */
    input_fold<R> fold[SEG_SLOTS] = {input_fold<R>(R::identity(), (g + (unsigned)G * (unsigned)K) * items)...};
#pragma unroll 1
    for (int c = 0; c < HR_TILE_CHUNKS; ++c) {
        if (((uint64_t)c * HR_TILE_LANES + g) * items >= valid) break; /* every slot's chunk starts further on */
#pragma unroll
        for (int k = 0; k < SEG_SLOTS; ++k) {
            if ((uint64_t)G * k >= valid_lanes) break; /* this slot is past the tile in every thread */
            const uint64_t at = ((uint64_t)c * HR_TILE_LANES + g + (unsigned)G * k) * items;
            if (aligned && at + items <= valid) {
                const uint4 raw = hr_load16_input(t + at);
                T v[items];
                HR_MEMCPY(v, &raw, sizeof v);
#pragma unroll
                for (int i = 0; i < items; ++i) fold[k].add(v[i], lane_pos<R>(c, i));
            } else if (at < valid) {
                /* Element by element (an unaligned slice, or the chunk the slice ends in): unrolled,
                 * so the chunk's loads are in flight together (a rolled loop waited for each). */
#pragma unroll
                for (int i = 0; i < items; ++i)
                    if (at + i < valid) fold[k].add(t[at + i], lane_pos<R>(c, i));
            }
        }
    }
#pragma unroll
    for (int k = 0; k < SEG_SLOTS; ++k) a[k] = fold[k].result(tile_first);
}

/* Whether the combine picks one operand by a total order (argmin/argmax: key, then index; min/max:
 * combines.h orders -0.0 below +0.0 and makes NaN canonical), so that any tree of combines gives
 * the segment tree's bits. */
template <class R> constexpr bool any_order() { return R::keyed || R::combine == HR_CB_MIN || R::combine == HR_CB_MAX; }

/* argmin/argmax within one tile (positions below 2^32): a lane's best key and its position in the
 * slice, combined by apply's rule (the better key; on equal keys the lower position), widened once
 * at the end: a butterfly step shuffles 2 words for 4-byte keys where key_acc takes 4 (argmax per
 * row of 1024 f32 on an H200: 3372-3449 -> 3631-3652 GB/s). The rule picks by a total order, so
 * any tree of it gives group_tree's bits. */
template <class R> struct key_pos {
    typename R::acc::key_t key;
    uint32_t pos;
};
template <class R> __device__ __forceinline__ key_pos<R> key_pos_of(const input_fold<R>& f) { return {f.key, f.first + f.pos}; }
template <class R> __device__ __forceinline__ key_pos<R> better_of(key_pos<R> a, key_pos<R> b)
{
    return R::combine_t::better(b.key, a.key) || (b.key == a.key && b.pos < a.pos) ? b : a;
}
/* The butterflies of steps s < below within groups of Width lanes: every lane of a group of `below`
 * lanes ends with the pair of the group's best. */
template <class R, int Width> __device__ __forceinline__ key_pos<R> key_pos_tree(key_pos<R> b, uint32_t below)
{
#pragma unroll
    for (int s = Width / 2; s > 0; s /= 2)
        if ((uint32_t)s < below) b = better_of<R>(b, {hr_shfl_xor(b.key, s, Width), hr_shfl_xor(b.pos, s, Width)});
    return b;
}

/* The segment tree over a group's slots (slot k of thread g is lane g + G*k); every lane of
 * the group returns the tile's value. `lanes`: lanes with elements, uniform in the group;
 * Skip: leave out the steps that would only combine identities (allowed where the group is
 * the whole shuffle unit); then only the group's first lane is sure to hold the value. */
template <class R, int G, bool Skip>
__device__ __forceinline__ typename R::acc group_tree(typename R::acc (&a)[SEG_SLOTS], uint32_t lanes)
{
    if constexpr (any_order<R>() && G * SEG_SLOTS > HR_SEGMENT) {
        /* Any tree gives the segment tree's bits here: a thread's slots first (a slot with no
         * lane of elements in any thread holds identities only: left out), then one value's
         * butterflies instead of every slot's (argmax per row of 1024 f32: 2454 -> 3647 GB/s;
         * groups of 16 over several 32-lane segments, rows of 33-128 lanes). */
#pragma unroll
        for (int s = SEG_SLOTS / 2; s > 0; s /= 2)
#pragma unroll
            for (int k = 0; k < s; ++k)
                if ((uint32_t)(k + s) * G < lanes) a[k] = R::apply(a[k], a[k + s]);
#pragma unroll
        for (int s = G / 2; s > 0; s /= 2) {
            if (Skip && (uint32_t)s >= lanes) continue; /* only identities beyond */
            a[0] = R::apply(a[0], hr_shfl_xor(a[0], s, G));
        }
        return a[0];
    } else if constexpr (G == HR_SEGMENT) {
#pragma unroll
        for (int k = 0; k < SEG_SLOTS; ++k) {
            if (Skip && (uint32_t)k * HR_SEGMENT >= lanes) break;
#pragma unroll
            for (int s = HR_SEGMENT / 2; s > 0; s /= 2) {
                if (Skip && k == 0 && (uint32_t)s >= lanes) continue; /* only identities beyond */
                a[k] = R::apply(a[k], hr_shfl_xor(a[k], s, HR_SEGMENT));
            }
        }
#pragma unroll
        for (int s = SEG_SLOTS / 2; s > 0; s /= 2)
#pragma unroll
            for (int k = 0; k < s; ++k) a[k] = R::apply(a[k], a[k + s]);
        return a[0];
    } else {
        /* A group of G < 32 threads: a 32-lane segment is PER consecutive slots of each thread (all
         * of its slots where G * SEG_SLOTS <= 32), and the group's lanes span SEGS segments (lanes
         * past G * SEG_SLOTS are never given to it: host/tuning.h's segment_table). Inside
         * each segment, the steps s >= G pair slots of one thread, then butterflies inside the group
         * (every segment's, whether it has elements or not: the group's lanes shuffle together);
         * then the segments' sums combine as order.h's s = 4, 2, 1, in the thread. */
        constexpr int PER = HR_SEGMENT / G, SEGS = G * SEG_SLOTS > HR_SEGMENT ? G * SEG_SLOTS / HR_SEGMENT : 1;
#pragma unroll
        for (int m = 0; m < SEGS; ++m)
#pragma unroll
            for (int s = HR_SEGMENT / 2; s >= G; s /= 2)
#pragma unroll
                for (int k = m * PER; k < m * PER + s / G; ++k) {
                    const int partner = k + s / G; /* (a group of 1 would pair slots past SEG_SLOTS) */
                    if (partner < SEG_SLOTS && (uint32_t)partner * G < lanes)
                        a[k] = R::apply(a[k], a[partner < SEG_SLOTS ? partner : 0]);
                }
#pragma unroll
        for (int m = 0; m < SEGS; ++m)
#pragma unroll
            for (int s = G / 2; s > 0; s /= 2) a[m * PER] = R::apply(a[m * PER], hr_shfl_xor(a[m * PER], s, G));
#pragma unroll
        for (int s = HR_TILE_LANES / HR_SEGMENT / 2; s > 0; s /= 2)
#pragma unroll
            for (int m = 0; m < s; ++m)
                if (m + s < SEGS && (uint32_t)(m + s) * HR_SEGMENT < lanes)
                    a[m * PER] = R::apply(a[m * PER], a[(m + s < SEGS ? m + s : 0) * PER]);
        return a[0];
    }
}

/* One tile of a contiguous slice, valid elements from tile_first on; every lane of the group
 * returns its value (with Skip: the first). */
template <class R, int G, bool Skip>
__device__ __forceinline__ typename R::acc group_tile(const typename R::value_t* slice, uint64_t tile_first,
                                                     uint64_t valid, unsigned g)
{
    typename R::acc a[SEG_SLOTS];
    /* A slot without elements holds the identity with its lane's position as index (lane
     * folds), which loses every tie to a real element: the same result as the identity. */
    seg_input_lanes<R, G>(a, slice + tile_first, tile_first, valid, g, std::make_index_sequence<SEG_SLOTS>());
    return group_tree<R, G, Skip>(a, tile_lanes<R>(valid));
}

/* A slice of at most G * S lanes from its chunks v[k] (chunk 0 of lane g + G*k, k < S; the other
 * slots the identity), elements past `valid` left out: group_tile's folds and tree, so its bits. */
template <class R, int G, int S, bool Skip>
__device__ __forceinline__ typename R::acc chunk0_tile(const typename R::value_t (&v)[S][chunk_items<R>()],
                                                      uint64_t valid, unsigned g)
{
    constexpr int items = chunk_items<R>();
    typename R::acc a[SEG_SLOTS];
    constexpr bool keys = R::keyed && G == HR_SEGMENT; /* argmin/argmax of a warp: on 32-bit positions */
    typename std::conditional<keys, key_pos<R>, char>::type best = {};
#pragma unroll
    for (int k = 0; k < SEG_SLOTS; ++k) {
        const uint32_t lane = g + (unsigned)G * (unsigned)k;
        input_fold<R> fold(R::identity(), lane * items);
        if (k < S)
#pragma unroll
            for (int i = 0; i < items; ++i)
                if ((uint64_t)lane * items + i < valid) fold.add(v[k < S ? k : 0][i], lane_pos<R>(0, i));
        if constexpr (keys) best = k == 0 ? key_pos_of<R>(fold) : better_of<R>(best, key_pos_of<R>(fold));
        else a[k] = fold.result(0);
    }
    if constexpr (keys) {
        best = key_pos_tree<R, HR_SEGMENT>(best, Skip ? tile_lanes<R>(valid) : HR_SEGMENT);
        return {best.key, (int64_t)best.pos};
    } else {
        return group_tree<R, G, Skip>(a, tile_lanes<R>(valid));
    }
}

/* K short slices per group at once (host/tuning.h's segment_table rows with slots < 8): slice j
 * has valid[j] <= G * S lanes, so a thread's slots are chunk 0 of lanes g + G*k, k < S, and the
 * other slots hold the identity. Every slice's chunks are loaded before any is folded, so the
 * group has K * S loads in flight (one slice at a time: ~100 instructions per warp per 512 bytes
 * of 16-element f32 rows, each row's loads waiting alone). The folds and the tree are
 * group_tile's, so each slice gets the same bits. out[j]: every lane of the group (with Skip,
 * the first) holds slice j's value. */
template <class R, int G, int S, int K, bool Skip>
__device__ __forceinline__ void group_short_tiles(typename R::acc (&out)[K],
                                                  const typename R::value_t* const (&slice)[K],
                                                  const uint64_t (&valid)[K], unsigned g)
{
    using T = typename R::value_t;
    constexpr int items = chunk_items<R>();
    static_assert(G < HR_SEGMENT && S <= SEG_SLOTS, "short slices are small groups' (one chunk per slot)");
    T v[K][S][items];
#pragma unroll
    for (int j = 0; j < K; ++j) {
        const bool aligned = aligned16(slice[j]);
#pragma unroll
        for (int k = 0; k < S; ++k) {
            const uint64_t at = (uint64_t)(g + (unsigned)G * k) * items;
            if (aligned && at + items <= valid[j]) {
                const uint4 raw = hr_load16_input(slice[j] + at);
                HR_MEMCPY(v[j][k], &raw, sizeof v[j][k]);
            } else {
#pragma unroll
                for (int i = 0; i < items; ++i)
                    if (at + i < valid[j]) v[j][k][i] = slice[j][at + i];
            }
        }
    }
#pragma unroll
    for (int j = 0; j < K; ++j) out[j] = chunk0_tile<R, G, S, Skip>(v[j], valid[j], g);
}

/* A slice longer than a tile, by one warp-wide group: level-0 tiles in order, each partial
 * folded into its lane of the level-1 tile at once (lane (p / chunk items) % lanes of
 * position p, in rising p as the order has it), a completed level-k tile reduced into
 * level k+1, up to the one-element top. */
template <class R>
__device__ HR_NOINLINE typename R::acc stream_slice(const typename R::value_t* x, uint64_t count, unsigned g)
{
    using acc = typename R::acc;
    constexpr uint64_t T = tile_items<R>();
    constexpr int items = chunk_items<R>();
    uint64_t counts[HR_MAX_LEVELS];
    int top = 0;
    counts[0] = count;
    while (counts[top] > 1) {
        counts[top + 1] = (counts[top] + T - 1) / T;
        ++top;
    }
    acc st[6][SEG_SLOTS]; /* levels 1 .. top-1: top <= 6 for 2^64 elements of tiles >= 2048 */
    for (int k = 1; k < top; ++k)
#pragma unroll
        for (int s = 0; s < SEG_SLOTS; ++s) st[k][s] = R::identity();
    for (uint64_t j = 0;; ++j) {
        /* No skipped steps here: the partial's owner may be any lane of the group. */
        acc v = group_tile<R, HR_SEGMENT, false>(x, j * T, tile_valid<R>(count, j * T), g);
        uint64_t at = j;
        for (int k = 1;; ++k) {
            if (k == top) return v;
            const uint64_t p = at % T;
            const unsigned lane = (unsigned)(p / items) % HR_TILE_LANES;
            if (lane % HR_SEGMENT == g) {
#pragma unroll
                for (int s = 0; s < SEG_SLOTS; ++s)
                    if ((unsigned)s == lane / HR_SEGMENT) st[k][s] = R::apply(st[k][s], v);
            }
            if (p != T - 1 && at != counts[k] - 1) break;
            acc a[SEG_SLOTS];
#pragma unroll
            for (int s = 0; s < SEG_SLOTS; ++s) {
                a[s] = st[k][s];
                st[k][s] = R::identity();
            }
            v = group_tree<R, HR_SEGMENT, false>(a, tile_lanes<R>(p + 1));
            at /= T;
        }
    }
}

/* Rows a group of segments_kernel takes at once: small groups with S < SEG_SLOTS, SEG_SLOTS / S. */
template <int G, int S> constexpr int rows_at_once() { return G == HR_SEGMENT || S == SEG_SLOTS ? 1 : SEG_SLOTS / S; }

/* Rows a block's groups take per grid-stride step: K each, groups of G threads. */
constexpr uint64_t rows_per_block(int G, int K) { return (uint64_t)K * (HR_TILE_LANES / G); }

/* A warp's walk over contiguous rows: per step, its groups take K * (W / G) consecutive rows from
 * `first` (the group's j-th row: first + j * (W / G) + mine), then `stride` on. Every group of a
 * warp runs the same number of steps (shuffles need the whole warp). G: a power of two <= W. */
struct row_walk {
    uint64_t first, stride, mine;
};
template <int W, int K> __device__ __forceinline__ row_walk row_walk_of(unsigned G)
{
    const uint64_t per_block = rows_per_block((int)G, K);
    const uint64_t first = (uint64_t)blockIdx.x * per_block + threadIdx.x / W * (uint64_t)(K * (W / G));
    return {first, (uint64_t)gridDim.x * per_block, (uint64_t)(threadIdx.x % W / G)};
}

/* Contiguous rows: a group of G threads per row, grid-stride. Small groups with S < SEG_SLOTS take
 * K = SEG_SLOTS / S rows per iteration (rows of at most G * S lanes), a warp's j-th rows
 * consecutive; S = SEG_SLOTS: one row per group, by group_tile. */
template <class R, int W, int G, int S>
__global__ __launch_bounds__(HR_TILE_LANES) void segments_kernel(seg_args a)
{
    HR_KERNEL_BODY(W)
    {
        using T = typename R::value_t;
        constexpr bool skip = G == W; /* the group is the shuffle unit: its counts are uniform there */
        constexpr int K = rows_at_once<G, S>();
        const unsigned g = threadIdx.x % G;
        const row_walk w = row_walk_of<W, K>(G);
        const uint64_t mine = w.mine;
        for (uint64_t base = w.first; base < a.items; base += w.stride) {
            if constexpr (K == 1) {
                const uint64_t item = base + mine;
                const bool real = item < a.items;
                const uint64_t count = real ? a.extent : 0;
                const T* slice = (const T*)a.x + (real ? item * a.extent : 0);
                typename R::acc v;
                if constexpr (G == HR_SEGMENT) {
                    if (count > tile_items<R>()) v = stream_slice<R>(slice, count, g);
                    else v = group_tile<R, G, skip>(slice, 0, count, g);
                } else {
                    v = group_tile<R, G, skip>(slice, 0, count, g);
                }
                if (real && g == 0) store_result<R>(a, item, v, count);
            } else {
                const T* slices[K];
                uint64_t valid[K];
#pragma unroll
                for (int j = 0; j < K; ++j) {
                    const uint64_t item = base + (uint64_t)j * (W / G) + mine;
                    valid[j] = item < a.items ? a.extent : 0;
                    slices[j] = (const T*)a.x + (item < a.items ? item * a.extent : 0);
                }
                typename R::acc v[K];
                group_short_tiles<R, G, S, K, skip>(v, slices, valid, g);
#pragma unroll
                for (int j = 0; j < K; ++j) {
                    const uint64_t item = base + (uint64_t)j * (W / G) + mine;
                    if (item < a.items && g == 0) store_result<R>(a, item, v[j], a.extent);
                }
            }
        }
    }
}

/* Rows of at most HR_TILE_LANES lanes (chunk 0 only), each at a 16-byte boundary and of whole
 * chunks (host/tuning.h's segment_table rows with whole_chunks): a warp-wide group per row,
 * grid-stride, the next row's chunks loaded while this row folds and climbs its tree (as the
 * full reduction's kernel prefetches its next tile; ncu on 65536 x 1024 f32 without it: loads,
 * then the tree, then the next row, DRAM 55%). chunk0_tile's folds and tree: group_tile's bits. */
template <class R, int W>
__global__ __launch_bounds__(HR_TILE_LANES) void rows_prefetch_kernel(seg_args a)
{
    HR_KERNEL_BODY(W)
    {
        using T = typename R::value_t;
        constexpr int items = chunk_items<R>();
        const unsigned g = threadIdx.x % HR_SEGMENT;
        const uint32_t lanes = (uint32_t)(a.extent / items);
        const row_walk w = row_walk_of<W, 1>(HR_SEGMENT);
        const uint64_t stride = w.stride, mine = w.mine;
        uint4 next[SEG_SLOTS];
        const auto load = [&](uint64_t item) {
            const T* row = (const T*)a.x + item * a.extent;
#pragma unroll
            for (int k = 0; k < SEG_SLOTS; ++k)
                if (item < a.items && g + HR_SEGMENT * k < lanes)
                    next[k] = hr_load16_input(row + (uint64_t)(g + HR_SEGMENT * k) * items);
        };
        load(w.first + mine);
        for (uint64_t base = w.first; base < a.items; base += stride) {
            T v[SEG_SLOTS][items];
            HR_MEMCPY(v, next, sizeof v);
            load(base + stride + mine);
            const typename R::acc r = chunk0_tile<R, HR_SEGMENT, SEG_SLOTS, HR_SEGMENT == W>(v, a.extent, g);
            if (base + mine < a.items && g == 0) store_result<R>(a, base + mine, r, a.extent);
        }
    }
}

/* Rows of at most SHORT_ROW_LANES lanes (f32: 16 elements), each at a 16-byte boundary and of
 * whole chunks (host/tuning.h's segment_table rows of at most 4 lanes with whole_chunks): a group of
 * G = short_row_group(lanes) threads per row (1, 2 or 4: every thread has a lane where the row
 * fills the group), each thread loading its one chunk of K = 4 rows at once with no per-element
 * test (segments_kernel's general path tests every element against the row's end, and its groups
 * of 4 leave half of the threads idle on rows of 2 lanes), and the group's 4 results leaving one
 * per thread and store (thread g stores rows g, g + G, ..: a warp's 32 results per instruction).
 * The lane folds are chunk0_tile's and the tree is group_tree's for a group of 4 (its slot steps
 * only ever pair identities here), with the butterflies that would only combine identities left
 * out: a lane past the row (g >= lanes) is the identity with its position, which every combine
 * leaves exact, so the bits are group_tile's. */
enum { SHORT_ROW_GROUP = 4, SHORT_ROW_LANES = 4, SHORT_ROW_ROWS = 4 };
HR_HD constexpr unsigned short_row_group(uint64_t lanes) { return lanes <= 1 ? 1 : lanes <= 2 ? 2 : SHORT_ROW_GROUP; }
template <class R, int W>
__global__ __launch_bounds__(HR_TILE_LANES) void short_rows_kernel(seg_args a)
{
    HR_KERNEL_BODY(W)
    {
        using T = typename R::value_t;
        using acc = typename R::acc;
        constexpr int K = SHORT_ROW_ROWS, items = chunk_items<R>();
        const uint32_t lanes = (uint32_t)(a.extent / items);
        const unsigned G = short_row_group(lanes), g = threadIdx.x % G, groups = W / G;
        const bool has_lane = g < lanes;
        const row_walk w = row_walk_of<W, K>(G);
        for (uint64_t base = w.first; base < a.items; base += w.stride) {
            T v[K][items] = {}; /* rows past the end: folded, never stored */
#pragma unroll
            for (int j = 0; j < K; ++j) {
                const uint64_t item = base + (uint64_t)j * groups + w.mine;
                if (has_lane && item < a.items) {
                    const uint4 raw = hr_load16_input((const T*)a.x + item * a.extent + g * items);
                    HR_MEMCPY(v[j], &raw, sizeof v[j]);
                }
            }
            acc r[K];
#pragma unroll
            for (int j = 0; j < K; ++j) {
                input_fold<R> fold(R::identity(), g * items);
                if (has_lane)
#pragma unroll
                    for (int i = 0; i < items; ++i) fold.add(v[j][i], lane_pos<R>(0, i));
                /* group_tree's butterflies for a group of 4; with G < 4 the partners past G are
                 * identities (every lane of the group holds the row's value after them). */
                if constexpr (R::keyed) {
                    const key_pos<R> b = key_pos_tree<R, SHORT_ROW_GROUP>(key_pos_of<R>(fold), G);
                    r[j] = {b.key, (int64_t)b.pos};
                } else {
                    r[j] = fold.result(0);
#pragma unroll
                    for (unsigned s = SHORT_ROW_GROUP / 2; s > 0; s /= 2)
                        if (s < G) r[j] = R::apply(r[j], hr_shfl_xor(r[j], s, SHORT_ROW_GROUP));
                }
            }
            for (unsigned m = g; m < (unsigned)K; m += G) {
                acc mine_result = r[0];
#pragma unroll
                for (int j = 1; j < K; ++j)
                    if ((unsigned)j == m) mine_result = r[j];
                const uint64_t item = base + (uint64_t)m * groups + w.mine;
                if (item < a.items) store_result<R>(a, item, mine_result, a.extent);
            }
        }
    }
}

}  // namespace hr

#endif
