/* The kernels of the multipass and two-pass algorithms (host/study/pass_drivers.h): the study
 * uses of the front/back double buffer and of the grid-stride two-pass, on the default
 * algorithm's tiles (device/kernels.h). Templates over the operator (ops.h), the type read at
 * this level (In: the elements, or an earlier pass's accumulators) and the warp width W. */
#ifndef HIPREDUCE_STUDY_PASS_KERNELS_H
#define HIPREDUCE_STUDY_PASS_KERNELS_H

#include "kernels.h"

namespace hr {

/* Folds this lane's share of one tile of a pass's input: the elements (pass 0, In is the
 * element type) or accumulators of an earlier pass (In is Op::acc; where both are the same
 * type, the two folds are the same for the original operators). */
template <class Op, class In>
__device__ __forceinline__ typename Op::acc pass_lane_accumulate(typename Op::acc v, const In* in, uint64_t first,
                                                                uint64_t valid, bool vector_ok)
{
    if constexpr (std::is_same<In, typename Op::value_t>::value)
        return input_lane_accumulate<Op>(v, in, nullptr, first, valid, vector_ok, threadIdx.x);
    else
        return partial_lane_accumulate<Op, false>(v, in + first, valid, vector_ok, threadIdx.x);
}

/* Folds tile `tile` of `in` (count elements in all) into v, lane by lane. */
template <class Op, class In>
__device__ __forceinline__ typename Op::acc fold_tile(typename Op::acc v, const In* in, uint64_t count, uint64_t tile,
                                                      bool aligned)
{
    const uint64_t first = tile * tile_items<Op>();
    const uint64_t valid = tile_valid<Op>(count, first);
    return pass_lane_accumulate<Op, In>(v, in, first, valid, aligned && valid == tile_items<Op>());
}

/* One pass of the front/back double-buffer driver: tile t of `in` becomes out[t]
 * (Op::acc); when one tile covers count this is the last pass and it writes the
 * element-typed result instead. */
template <class Op, class In, int W>
__global__ __launch_bounds__(HR_TILE_LANES) void pass_kernel(const In* in, uint64_t count, void* out)
{
    HR_KERNEL_BODY(W)
    {
        using T = typename Op::value_t;
        using acc = typename Op::acc;
        HR_SHARED(smem, block_reduce_storage<Op, HR_TILE_LANES>);
        const uint64_t tiles = tile_count<Op>(count);
        const bool aligned = aligned16(in);
        if (tiles <= 1 && blockIdx.x == 0) {
            acc v = Op::empty();
            if (count)
                v = block_reduce_segments<Op, HR_TILE_LANES>(fold_tile<Op, In>(Op::identity(), in, count, 0, aligned),
                                                             smem);
            if (threadIdx.x == 0) *(T*)out = T(v);
            return;
        }
        for (uint64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
            const acc v = block_reduce_segments<Op, HR_TILE_LANES>(
                fold_tile<Op, In>(Op::identity(), in, count, tile, aligned), smem);
            if (threadIdx.x == 0) ((acc*)out)[tile] = v;
        }
    }
}

/* Two-pass driver (Harris's reduce6 / PMPP coarsening: grid-stride accumulation):
 * each block folds tiles blockIdx.x, +gridDim.x, ... into its lanes, then reduces
 * once. With one block it is the second pass and writes the element-typed result. */
template <class Op, class In, int W>
__global__ __launch_bounds__(HR_TILE_LANES) void grid_stride_kernel(const In* in, uint64_t count, void* out)
{
    HR_KERNEL_BODY(W)
    {
        using T = typename Op::value_t;
        using acc = typename Op::acc;
        HR_SHARED(smem, block_reduce_storage<Op, HR_TILE_LANES>);
        const uint64_t tiles = tile_count<Op>(count);
        const bool aligned = aligned16(in);
        acc v = Op::identity();
        for (uint64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x)
            v = fold_tile<Op, In>(v, in, count, tile, aligned);
        v = block_reduce_segments<Op, HR_TILE_LANES>(v, smem);
        if (threadIdx.x == 0) {
            if (gridDim.x == 1) *(T*)out = count ? T(v) : T(Op::empty());
            else ((acc*)out)[blockIdx.x] = v;
        }
    }
}

}  // namespace hr

#endif
