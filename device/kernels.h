/* The kernels of the three drivers, each a template over the operator (which fixes
 * the element type), the type read at this level (In) and the warp width W. An
 * instance whose W does not exist on the target compiles to an empty body. */
#ifndef HIPREDUCE_KERNELS_H
#define HIPREDUCE_KERNELS_H

#include "block_reduce.h"
#include "tile_load.h"

namespace hr {

/* Levels and workspace of the default algorithm (plan.h's hr_tree_plan, as pointers). */
struct tree_levels {
    int levels;
    uint64_t count[HR_MAX_LEVELS];
    void* partial[HR_MAX_LEVELS];      /* acc arrays of levels 1 .. levels-2 */
    uint32_t* counter[HR_MAX_LEVELS];  /* arrival counters of levels 2 .. levels-1, zero between launches */
};

template <class Op, class In>
__device__ __forceinline__ typename Op::acc reduce_tile(const In* data, uint64_t count, uint64_t tile, bool aligned,
                                                       block_reduce_storage<Op, HR_TILE_LANES>& smem)
{
    const uint64_t first = tile * tile_items<Op>();
    const uint64_t valid = tile_valid<Op>(count, first);
    typename Op::acc v = lane_accumulate<Op, In>(Op::identity(), data + first, valid,
                                                 aligned && valid == tile_items<Op>(), threadIdx.x);
    return block_reduce_segments<Op, HR_TILE_LANES>(v, smem);
}

template <class Op> __device__ __forceinline__ bool aligned16(const void* p) { return ((uintptr_t)p & 15) == 0; }

/* Default algorithm, one launch (HIP tutorial's "single pass with last-block finish";
 * PMPP 10.8 segmented reduction with a deterministic finish). A persistent grid walks
 * the input tiles; each tile's partial goes to level 1; the block whose arrival
 * completes a group of tile_items partials reduces that group into the next level,
 * up to the one-element top, which is the result. No float atomics: the order is
 * fixed by index, whichever block finishes. */
template <class Op, int W>
__global__ __launch_bounds__(HR_TILE_LANES) void tree_kernel(const typename Op::value_t* in, tree_levels lv,
                                                             typename Op::value_t* result)
{
    if constexpr (HR_WARP_SIZE_MATCHES(W)) {
        using acc = typename Op::acc;
        using T = typename Op::value_t;
        __shared__ block_reduce_storage<Op, HR_TILE_LANES> smem;
        __shared__ bool finisher;
        if (lv.count[0] == 0) {
            if (blockIdx.x == 0 && threadIdx.x == 0) *result = T(Op::empty());
            return;
        }
        const bool aligned = aligned16<Op>(in);
        for (uint64_t tile = blockIdx.x; tile < lv.count[1]; tile += gridDim.x) {
            acc v = reduce_tile<Op, T>(in, lv.count[0], tile, aligned, smem);
            uint64_t index = tile;
            for (int level = 1;; ++level) {
                if (level == lv.levels - 1) {
                    if (threadIdx.x == 0) *result = T(v);
                    break;
                }
                acc* partial = (acc*)lv.partial[level];
                const uint64_t group = index / tile_items<Op>();
                if (threadIdx.x == 0) {
                    partial[index] = v;
                    __threadfence();
                    const uint64_t members = tile_valid<Op>(lv.count[level], group * tile_items<Op>());
                    uint32_t* counter = lv.counter[level + 1] + group;
                    finisher = atomicAdd(counter, 1u) == members - 1;
                    if (finisher) *counter = 0; /* every member arrived: ready for the next launch */
                }
                __syncthreads();
                if (!finisher) break; /* the next write of `finisher` is behind reduce_tile's barriers */
                __threadfence();
                const uint64_t first = group * tile_items<Op>();
                const uint64_t valid = tile_valid<Op>(lv.count[level], first);
                v = lane_accumulate<Op, acc, true>(Op::identity(), partial + first, valid, false, threadIdx.x);
                v = block_reduce_segments<Op, HR_TILE_LANES>(v, smem);
                index = group;
            }
        }
    }
}

/* One pass of the front/back double-buffer driver: tile t of `in` becomes out[t]
 * (Op::acc); when one tile covers count this is the last pass and it writes the
 * element-typed result instead. */
template <class Op, class In, int W>
__global__ __launch_bounds__(HR_TILE_LANES) void pass_kernel(const In* in, uint64_t count, void* out)
{
    if constexpr (HR_WARP_SIZE_MATCHES(W)) {
        using T = typename Op::value_t;
        __shared__ block_reduce_storage<Op, HR_TILE_LANES> smem;
        const uint64_t tiles = tile_count<Op>(count);
        if (tiles <= 1 && blockIdx.x == 0) {
            typename Op::acc v = count ? reduce_tile<Op, In>(in, count, 0, aligned16<Op>(in), smem) : Op::empty();
            if (threadIdx.x == 0) *(T*)out = T(v);
            return;
        }
        const bool aligned = aligned16<Op>(in);
        for (uint64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
            typename Op::acc v = reduce_tile<Op, In>(in, count, tile, aligned, smem);
            if (threadIdx.x == 0) ((typename Op::acc*)out)[tile] = v;
        }
    }
}

/* Two-pass driver (Harris's reduce6 / PMPP coarsening: grid-stride accumulation):
 * each block folds tiles blockIdx.x, +gridDim.x, ... into its lanes, then reduces
 * once. With one block it is the second pass and writes the element-typed result. */
template <class Op, class In, int W>
__global__ __launch_bounds__(HR_TILE_LANES) void grid_stride_kernel(const In* in, uint64_t count, void* out)
{
    if constexpr (HR_WARP_SIZE_MATCHES(W)) {
        using T = typename Op::value_t;
        using acc = typename Op::acc;
        __shared__ block_reduce_storage<Op, HR_TILE_LANES> smem;
        const uint64_t tiles = tile_count<Op>(count);
        const bool aligned = aligned16<Op>(in);
        acc v = Op::identity();
        for (uint64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
            const uint64_t first = tile * tile_items<Op>();
            const uint64_t valid = tile_valid<Op>(count, first);
            v = lane_accumulate<Op, In>(v, in + first, valid, aligned && valid == tile_items<Op>(), threadIdx.x);
        }
        v = block_reduce_segments<Op, HR_TILE_LANES>(v, smem);
        if (threadIdx.x == 0) {
            if (gridDim.x == 1) *(T*)out = count ? T(v) : T(Op::empty());
            else ((acc*)out)[blockIdx.x] = v;
        }
    }
}

}  // namespace hr

#endif
