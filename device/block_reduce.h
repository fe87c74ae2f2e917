/* Warp and block reductions of the default algorithm's segment tree (src/plan.h):
 * inside each 32-lane segment, lane i += lane i+s for s = 16..1 by __shfl_down of
 * width 32 (a 64-wide wave holds two segments and computes them identically), then
 * the segment sums through shared memory, combined the same way by the first warp. */
#ifndef HIPREDUCE_BLOCK_REDUCE_H
#define HIPREDUCE_BLOCK_REDUCE_H

#include "hip_compat.h"
#include "order.h"

namespace hr {

/* Stride-halving tree over `width` consecutive lanes (a power of two <= 32); the
 * result is in the first lane of each group. */
template <class Op, int Width = HR_SEGMENT>
__device__ __forceinline__ typename Op::acc segment_reduce(typename Op::acc v)
{
#pragma unroll
    for (int s = Width / 2; s > 0; s /= 2) v = Op::apply(v, hr_shfl_down(v, s, HR_SEGMENT));
    return v;
}

/* Shared memory of block_reduce_segments: one slot per segment of the largest block. */
template <class Op, int Threads> struct block_reduce_storage {
    typename Op::acc segment[Threads / HR_SEGMENT];
};

/* Reduces one value per thread of a Threads-wide block by the segment tree; the
 * result is valid in thread 0. All threads must call it; it ends with a barrier,
 * so the storage can be reused at once. */
template <class Op, int Threads>
__device__ __forceinline__ typename Op::acc block_reduce_segments(typename Op::acc v,
                                                                  block_reduce_storage<Op, Threads>& smem)
{
    static_assert(Threads % HR_SEGMENT == 0 && Threads / HR_SEGMENT <= HR_SEGMENT, "segments fit one warp");
    constexpr int segments = Threads / HR_SEGMENT;
    v = segment_reduce<Op>(v);
    if (threadIdx.x % HR_SEGMENT == 0) smem.segment[threadIdx.x / HR_SEGMENT] = v;
    __syncthreads();
    if (threadIdx.x < HR_SEGMENT) {
        v = threadIdx.x < segments ? smem.segment[threadIdx.x] : Op::identity();
        v = segment_reduce<Op, segments>(v);
    }
    __syncthreads();
    return v;
}

}  // namespace hr

#endif
