/* The tensor shape's kernels (device/call.h, HR_SHAPE_TENSOR): a strided tensor reduced over any
 * set of axes where it lies, no copy. Each slice (the reduced elements of one kept index, in
 * row-major order of the reduced axes) gets the default order of device/order.h, level by level
 * as the row kernels give it, so its bits are those of the simple call on its contiguous copy.
 *
 * Two ways to read a level's tiles, one order:
 *  - tensor_tiles_kernel: a block per tile of a slice (grid-stride), lane l reading its chunks
 *    as the row kernels do; where the reduced axes' innermost dimension is contiguous, a chunk is
 *    one 16-byte load (NCHW over (0, 2, 3): runs of H*W), else element by element through the
 *    strides (tensor_index.h). Also the upper levels of few slices: rows of partials.
 *  - tensor_columns_kernel: where a kept dimension is the fastest in memory (column sums, a
 *    transposed view's rows, channels-last over (0, 1, 2)), a segment of 32 threads holds 32
 *    consecutive slices, each thread computing its slice's whole tile in the order: the tile's
 *    segment tree (lane i = apply(lane i, lane i+s), s = 16 .. 1, then the 8 segments likewise)
 *    is a complete binary tree whose leaves, left to right, are the lanes in bit-reversed order;
 *    so thread c of segment w folds lanes 32w + bitrev5(k), k = 0 .. 31, each as its own
 *    accumulator, combining them by a binary counter (a stack of 6), and the 8 segments' values
 *    meet in shared memory in bitrev3 order. Every load of a warp reads 32 consecutive elements
 *    of one row. Also the upper levels of many slices: partials laid out [tile][slice].
 * A level's output t of slice r goes to the partials at r * out_r + t * out_t (the layout the
 * next level's kernel reads), or, on the top level, is the result. */
#ifndef HIPREDUCE_TENSOR_H
#define HIPREDUCE_TENSOR_H

#include "block_reduce.h"
#include "launch_args.h"
#include "tensor_index.h"
#include "tile_load.h"

namespace hr {

/* One level of a tensor reduction. */
struct tensor_args : result_args {
    const void* x;          /* level 0: the tensor's origin; later levels: the previous partials */
    hr_dims kept;           /* level 0: the kept dimensions (columns: all but the innermost) */
    hr_dims reduced;        /* level 0: the reduced dimensions */
    uint64_t results;       /* slices */
    uint64_t count;         /* elements (level 0) or partials of a slice at this level */
    uint64_t slice;         /* elements of a slice (the results' count) */
    uint64_t tiles;         /* this level's outputs per slice; 1: the results */
    uint64_t columns;       /* columns kernel: consecutive slices per kept index (level 0: the
                             * innermost kept extent, later levels: results) */
    int64_t column_stride;  /* columns kernel, level 0: the innermost kept dimension's stride */
    uint64_t in_r, in_t;    /* later levels: partial p of slice r at x[r * in_r + p * in_t] */
    void* partial;          /* tiles > 1: output t of slice r at partial[r * out_r + t * out_t] */
    uint64_t out_r, out_t;
    bool runs;              /* level 0: a chunk's elements lie along the reduced innermost dimension */
    bool vector;            /* tiles kernel, level 0: ... contiguous, at 16-byte boundaries */
};

/* A level's output t of slice r. */
template <class R>
__device__ __forceinline__ void tensor_output(const tensor_args& a, uint64_t r, uint64_t t, typename R::acc v)
{
    if (a.tiles == 1) store_result<R>(a, r, v, a.slice);
    else ((typename R::acc*)a.partial)[r * a.out_r + t * a.out_t] = v;
}

__device__ __forceinline__ unsigned bit_reverse5(unsigned k)
{
    return ((k & 1u) << 4) | ((k & 2u) << 2) | (k & 4u) | ((k & 8u) >> 2) | ((k & 16u) >> 4);
}

/* Lane `lane`'s accumulator of the tile at `first` of one slice (columns kernel): level 0 at
 * element offset `base` of the tensor, later levels slice r's partials. */
template <class R, bool Level0>
__device__ __forceinline__ typename R::acc column_lane(const tensor_args& a, int64_t base, uint64_t r, uint64_t first,
                                                      unsigned lane)
{
    using acc = typename R::acc;
    constexpr int items = chunk_items<R>();
    if constexpr (Level0) {
        using T = typename R::value_t;
        const T* x = (const T*)a.x + base;
        const int64_t step = a.reduced.rank > 0 ? a.reduced.stride[a.reduced.rank - 1] : 0;
        input_fold<R> fold(R::identity(), lane * items);
#pragma unroll 1
        for (int c = 0; c < HR_TILE_CHUNKS; ++c) {
            const uint64_t at = first + ((uint64_t)c * HR_TILE_LANES + lane) * items;
            if (at >= a.count) break;
            if (a.runs) {
                const T* p = x + hr_dims_offset(&a.reduced, at);
#pragma unroll 4
                for (int i = 0; i < items; ++i)
                    if (at + i < a.count) fold.add(p[i * step], lane_pos<R>(c, i));
            } else { /* not unrolled: each element's offset is a division loop */
#pragma unroll 1
                for (int i = 0; i < items; ++i)
                    if (at + i < a.count) fold.add(x[hr_dims_offset(&a.reduced, at + i)], lane_pos<R>(c, i));
            }
        }
        return fold.result(first);
    } else {
        const acc* in = (const acc*)a.x + r * a.in_r;
        partial_fold<R> fold(R::identity());
        for_lane_elements<items>(a.count - first < tile_items<R>() ? a.count - first : tile_items<R>(), lane,
                                 [&](uint64_t at, int, int i) { fold.add(in[(first + at + i) * a.in_t]); });
        return fold.result();
    }
}

/* Lane `lane`'s elements of a full tile at level 0 (every one valid; a.runs: each chunk along the
 * reduced innermost dimension), loaded before any is folded, so that a thread has a whole lane's
 * loads in flight (the columns kernel: two lanes' for elements of 4 bytes or more; the tiles kernel
 * where chunks are not 16-byte loads). */
template <class R> struct lane_leaf {
    typename R::value_t v[HR_TILE_CHUNKS][chunk_items<R>()];
};

template <class R>
__device__ __forceinline__ void load_leaf(lane_leaf<R>& leaf, const tensor_args& a, const typename R::value_t* x,
                                          uint64_t first, unsigned lane)
{
    constexpr int items = chunk_items<R>();
    const int64_t step = a.reduced.rank > 0 ? a.reduced.stride[a.reduced.rank - 1] : 0;
#pragma unroll
    for (int c = 0; c < HR_TILE_CHUNKS; ++c) {
        const typename R::value_t* p = x + hr_dims_offset(&a.reduced, first + ((uint64_t)c * HR_TILE_LANES + lane) * items);
#pragma unroll
        for (int i = 0; i < items; ++i) leaf.v[c][i] = p[i * step];
    }
}

template <class R>
__device__ __forceinline__ typename R::acc fold_leaf(const lane_leaf<R>& leaf, uint64_t first, unsigned lane)
{
    constexpr int items = chunk_items<R>();
    input_fold<R> fold(R::identity(), lane * items);
#pragma unroll
    for (int c = 0; c < HR_TILE_CHUNKS; ++c)
#pragma unroll
        for (int i = 0; i < items; ++i) fold.add(leaf.v[c][i], lane_pos<R>(c, i));
    return fold.result(first);
}

/* Pushes v, the accumulator of leaves [n * 2^level0, (n + 1) * 2^level0) of a segment, onto the binary
 * counter `stack` (stack[k]: a finished run of 2^k leaves): it merges with each finished run on its
 * left, as the tree does. */
template <class R>
__device__ __forceinline__ void push_leaves(typename R::acc (&stack)[6], typename R::acc v, unsigned n, unsigned level)
{
    for (; n & 1u; n >>= 1) v = R::apply(stack[level++], v);
    stack[level] = v;
}

template <class R, int W, bool Level0>
__global__ __launch_bounds__(HR_TILE_LANES) void tensor_columns_kernel(tensor_args a)
{
    HR_KERNEL_BODY(W)
    {
        using acc = typename R::acc;
        constexpr int segments = HR_TILE_LANES / HR_SEGMENT;
        static_assert(segments == 8, "the segments' tree below is written for 8");
        HR_SHARED(smem, acc[HR_TILE_LANES]);
        const unsigned column = threadIdx.x % HR_SEGMENT, segment = threadIdx.x / HR_SEGMENT;
        const uint64_t groups = (a.columns + HR_SEGMENT - 1) / HR_SEGMENT;
        const uint64_t units = a.results / a.columns * groups * a.tiles;
        for (uint64_t unit = blockIdx.x; unit < units; unit += gridDim.x) {
            const uint64_t t = unit % a.tiles, g = unit / a.tiles;
            const uint64_t o = g / groups, j = (g % groups) * HR_SEGMENT + column;
            const bool active = j < a.columns;
            const uint64_t r = o * a.columns + j, first = t * tile_items<R>();
            int64_t base = 0;
            if constexpr (Level0) base = hr_dims_offset(&a.kept, o) + (int64_t)j * a.column_stride;
            acc stack[6];
            stack[5] = R::identity(); /* an inactive thread's (never read) */
            const unsigned lane0 = segment * HR_SEGMENT;
            if (Level0 && active && a.runs && first + tile_items<R>() <= a.count) { /* a full tile: leaves by pairs */
                using T = typename R::value_t;
                const T* x = (const T*)a.x + base;
#pragma unroll 1
                for (unsigned k = 0; k < HR_SEGMENT; k += 2) {
                    lane_leaf<R> even, odd;
                    load_leaf<R>(even, a, x, first, lane0 + bit_reverse5(k));
                    if constexpr (sizeof(T) >= 4) load_leaf<R>(odd, a, x, first, lane0 + bit_reverse5(k + 1));
                    const acc left = fold_leaf<R>(even, first, lane0 + bit_reverse5(k));
                    if constexpr (sizeof(T) < 4) load_leaf<R>(odd, a, x, first, lane0 + bit_reverse5(k + 1));
                    push_leaves<R>(stack, R::apply(left, fold_leaf<R>(odd, first, lane0 + bit_reverse5(k + 1))), k / 2, 1);
                }
            } else if (active) {
#pragma unroll 1
                for (unsigned k = 0; k < HR_SEGMENT; ++k)
                    push_leaves<R>(stack, column_lane<R, Level0>(a, base, r, first, lane0 + bit_reverse5(k)), k, 0);
            }
            smem[threadIdx.x] = stack[5];
            __syncthreads();
            if (segment == 0 && active) {
                const acc* s = smem + column;
                const acc low = R::apply(R::apply(s[0], s[4 * HR_SEGMENT]), R::apply(s[2 * HR_SEGMENT], s[6 * HR_SEGMENT]));
                const acc high = R::apply(R::apply(s[HR_SEGMENT], s[5 * HR_SEGMENT]), R::apply(s[3 * HR_SEGMENT], s[7 * HR_SEGMENT]));
                tensor_output<R>(a, r, t, R::apply(low, high));
            }
            __syncthreads();
        }
    }
}

/* The thread's chunks of the full tile at `first` of the slice at x, by 16-byte loads (a.vector). */
template <class R>
__device__ __forceinline__ void load_tile_chunks(input_chunks<R>& chunks, const tensor_args& a,
                                                 const typename R::value_t* x, uint64_t first)
{
#pragma unroll
    for (int c = 0; c < HR_TILE_CHUNKS; ++c)
        chunks.x.raw[c] = hr_load16_input(
            x + hr_dims_offset(&a.reduced, first + ((uint64_t)c * HR_TILE_LANES + threadIdx.x) * chunk_items<R>()));
}

template <class R, int W, bool Level0>
__global__ __launch_bounds__(HR_TILE_LANES) void tensor_tiles_kernel(tensor_args a)
{
    HR_KERNEL_BODY(W)
    {
        using acc = typename R::acc;
        using T = typename R::value_t;
        constexpr int items = chunk_items<R>();
        HR_SHARED(smem, block_reduce_storage<R, HR_TILE_LANES>);
        const uint64_t units = a.results * a.tiles;
        input_chunks<R> next; /* level 0, 16-byte loads: the block's next full tile, loaded ahead */
        bool ahead = false;
        for (uint64_t unit = blockIdx.x; unit < units; unit += gridDim.x) {
            const uint64_t r = unit / a.tiles, t = unit % a.tiles, first = t * tile_items<R>();
            const uint64_t valid = tile_valid<R>(a.count, first);
            acc v;
            if constexpr (Level0) {
                const T* x = (const T*)a.x + hr_dims_offset(&a.kept, r);
                if (a.vector && valid == tile_items<R>()) {
                    input_chunks<R> chunks;
                    if (ahead) chunks = next;
                    else load_tile_chunks<R>(chunks, a, x, first);
                    const uint64_t later = unit + gridDim.x, t2 = later % a.tiles;
                    ahead = later < units && tile_valid<R>(a.count, t2 * tile_items<R>()) == tile_items<R>();
                    if (ahead)
                        load_tile_chunks<R>(next, a, (const T*)a.x + hr_dims_offset(&a.kept, later / a.tiles),
                                            t2 * tile_items<R>());
                    v = fold_input<R>(R::identity(), chunks, threadIdx.x, first);
                } else if (a.runs && valid == tile_items<R>()) {
                    lane_leaf<R> leaf;
                    load_leaf<R>(leaf, a, x, first, threadIdx.x);
                    v = fold_leaf<R>(leaf, first, threadIdx.x);
                } else {
                    /* element by element, not unrolled: each element's offset is a division loop */
                    input_fold<R> fold(R::identity(), threadIdx.x * items);
#pragma unroll 1
                    for (int c = 0; c < HR_TILE_CHUNKS; ++c) {
                        const uint64_t at = ((uint64_t)c * HR_TILE_LANES + threadIdx.x) * items;
#pragma unroll 1
                        for (int i = 0; i < items; ++i)
                            if (at + i < valid) fold.add(x[hr_dims_offset(&a.reduced, first + at + i)], lane_pos<R>(c, i));
                    }
                    v = fold.result(first);
                }
            } else {
                const acc* in = (const acc*)a.x + r * a.in_r + first; /* in_t 1: rows of partials */
                v = partial_lane_accumulate<R, false>(R::identity(), in, valid, valid == tile_items<R>() && aligned16(in),
                                                      threadIdx.x);
            }
            v = block_reduce_segments<R, HR_TILE_LANES>(v, smem);
            if (threadIdx.x == 0) tensor_output<R>(a, r, t, v);
        }
    }
}

}  // namespace hr

#endif
