/* The block-level tree steps of the study algorithms (PMPP ch. 10, Harris's seven
 * kernels, the HIP reduction tutorial), each written once and shared by every kernel
 * that uses it. A step works on `elems` consecutive values at `buf` (shared memory,
 * or a segment of global memory for PMPP's in-place kernels), of which the first
 * `valid` exist: a missing partner counts as the operator's identity, so no padding
 * is needed and any n works. `elems` is a power of two. The result lands in buf[0].
 * Values are read as Op::acc and stored back as P (acc in shared memory, the element
 * type in global memory: every operator's result truncated to the element type is
 * the same whichever way round, see host/study/seed_drivers.h). */
#ifndef HIPREDUCE_STUDY_TREES_H
#define HIPREDUCE_STUDY_TREES_H

#include "block_reduce.h"
#include "hip_compat.h"

namespace hr {

/* buf[e] = op(buf[e], buf[e + s]) when the partner exists. */
template <class Op, class P>
__device__ __forceinline__ void combine_at(P* buf, uint64_t e, unsigned s, uint64_t valid)
{
    if (e + s < valid) buf[e] = P(Op::apply(typename Op::acc(buf[e]), typename Op::acc(buf[e + s])));
}

/* Interleaved addressing, stride doubling; the element a thread owns is `e` and it
 * works while e is a multiple of 2s (the divergent `%` branch). Harris reduce0 and
 * tutorial v1 own e = tid of blockDim values in shared memory; PMPP's simple kernel
 * owns e = 2 tid of 2 blockDim values in global memory. */
template <class Op, class P>
__device__ __forceinline__ void interleaved_tree(P* buf, unsigned e, unsigned elems, uint64_t valid)
{
    for (unsigned s = 1; s < elems; s *= 2) {
        if (e % (2 * s) == 0) combine_at<Op>(buf, e, s, valid);
        __syncthreads();
    }
}

/* Interleaved addressing with a strided index: consecutive threads stay busy, but
 * thread t touches 2 s t, so neighbours hit the same bank (Harris reduce1, tutorial v2). */
template <class Op, class P>
__device__ __forceinline__ void strided_index_tree(P* buf, unsigned tid, unsigned elems)
{
    for (unsigned s = 1; s < elems; s *= 2) {
        const unsigned e = 2 * s * tid;
        if (e < elems) combine_at<Op>(buf, e, s, elems);
        __syncthreads();
    }
}

/* Sequential addressing, stride halving: the active threads are the first s, and
 * they read consecutive words (PMPP convergent, Harris reduce2..5, tutorial v3..v7).
 * Stops before stride `stop` so that a warp-level tail can finish (0: down to 1).
 * Elems > 0: the width is known at compile time and the loop is completely unrolled
 * (Harris reduce5); 0: the run-time `elems`. */
template <class Op, unsigned Elems = 0, class P>
__device__ __forceinline__ void sequential_tree(P* buf, unsigned tid, unsigned elems, uint64_t valid,
                                                unsigned stop = 0)
{
    const auto step = [&](unsigned s) {
        if (tid < s) combine_at<Op>(buf, tid, s, valid);
        __syncthreads();
    };
    if constexpr (Elems > 0) {
#pragma unroll
        for (unsigned s = Elems / 2; s > stop; s /= 2) step(s);
    } else {
        for (unsigned s = elems / 2; s > stop; s /= 2) step(s);
    }
}

/* The last steps (strides W .. 1, those below `elems`) done by the first warp alone,
 * without __syncthreads: "unroll the last warp" (Harris reduce4/5, tutorial v5/v6).
 * Harris relied on lock-step warps and volatile; CUDA since Volta schedules threads
 * independently, so every step also ends with hr_syncwarp() (__syncwarp on CUDA, a
 * wave barrier on AMD, where the W = 64 instance keeps all six steps in one wave). */
template <class Op, int W>
__device__ __forceinline__ void warp_tail_volatile(typename Op::acc* smem, unsigned tid, unsigned elems)
{
    if (tid < W) { /* whole first warp, so that hr_syncwarp() sees all its lanes */
        volatile typename Op::acc* v = smem;
#pragma unroll
        for (unsigned s = W; s > 0; s /= 2) {
            if (s < elems && tid < s) v[tid] = Op::apply(v[tid], v[tid + s]);
            hr_syncwarp();
        }
    }
}

/* Stride-halving shuffle over the first `lanes` lanes of a W-wide warp (lanes is W,
 * or the block's width when a 32-thread block runs on a 64-wide wave: lanes past the
 * block do not exist and must not be read). Reuses the default algorithm's 32-lane
 * segment tree for the strides 16..1. Result in lane 0. */
template <class Op, int W>
__device__ __forceinline__ typename Op::acc warp_reduce(typename Op::acc v, unsigned lanes)
{
    if constexpr (W == 64) {
        if (lanes > 32) v = Op::apply(v, hr_shfl_down(v, 32, 64));
    }
    return segment_reduce<Op>(v);
}

/* "__shfl_down for the last warp" (tutorial v7): after sequential_tree stopped at
 * stride W, the first warp takes the 2W (or fewer) live values into registers and
 * finishes with shuffles. Result in thread 0. */
template <class Op, int W>
__device__ __forceinline__ typename Op::acc warp_tail_shfl(const typename Op::acc* smem, unsigned tid,
                                                           unsigned elems)
{
    typename Op::acc v = Op::identity();
    if (tid < W) {
        v = smem[tid];
        if (tid + W < elems) v = Op::apply(v, smem[tid + W]);
        v = warp_reduce<Op, W>(v, elems < W ? elems : W);
    }
    return v;
}

/* Shared memory of warp_first_reduce: one slot per warp of the largest block. */
template <class Op> struct warp_first_storage {
    typename Op::acc warp[1024 / 32];
};

/* Warp reductions first, partials through shared memory (tutorial v8..v10): every
 * warp shuffles its values to lane 0, the warp sums go to shared memory, the first
 * warp shuffles them. Any power-of-two block from 32 to 1024. Result in thread 0. */
template <class Op, int W>
__device__ __forceinline__ typename Op::acc warp_first_reduce(typename Op::acc v, warp_first_storage<Op>& smem)
{
    const unsigned tid = threadIdx.x, lanes = blockDim.x < W ? blockDim.x : W;
    const unsigned warps = blockDim.x / lanes;
    v = warp_reduce<Op, W>(v, lanes);
    if (tid % W == 0) smem.warp[tid / W] = v;
    __syncthreads();
    if (tid < W) {
        v = tid < warps ? smem.warp[tid] : Op::identity();
        v = warp_reduce<Op, W>(v, lanes);
    }
    return v;
}

}  // namespace hr

#endif
