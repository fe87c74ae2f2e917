/* The __global__ kernels of the study algorithms (HIPREDUCE_ALGORITHM_PMPP_SIMPLE and
 * later): one pass each, composed of a loader (loaders.h) and a tree
 * (trees.h). Which seed kernel each combination is: host/study/seed_drivers.h.
 *
 * Templates: the operator (it fixes the element type T), the warp width W where the
 * tree uses warp-level steps (W = 0: the kernel does not depend on it and is compiled
 * once; an instance whose W cannot exist on the target compiles to a trap, see
 * hip_compat.h),
 * and the block size only where the seed needs it at compile time.
 * Every pass reads T and writes T: one partial per block, or the result when the
 * pass has one block (the identity of an empty input is Op::empty()). */
#ifndef HIPREDUCE_STUDY_SEED_KERNELS_H
#define HIPREDUCE_STUDY_SEED_KERNELS_H

#include "hipreduce/hipreduce_study.h"
#include "ops.h"
#include "atomics.h"
#include "loaders.h"
#include "trees.h"

namespace hr {

/* One pass's geometry. Blocks are numbered block_offset + blockIdx.x, because the
 * host splits passes of more blocks than a grid may have into several launches. */
struct study_pass {
    uint64_t count;        /* elements this pass reads */
    uint64_t blocks;       /* blocks of the whole pass, all launches together */
    uint64_t block_offset; /* number of this launch's first block */
    uint32_t steps;        /* loader steps per thread; 0: grid-stride over the whole pass */
    uint32_t paired;       /* each step also adds the element blockDim further on */
};

/* Block width and shared memory of a shared-memory tree: compile-time (static shared
 * memory, Harris reduce5/6 and tutorial v6) or the launch's (dynamic shared memory of
 * blockDim values, sized by the host). */
template <class A, int BlockSize> struct tree_smem {
    static __device__ __forceinline__ unsigned width() { return BlockSize; }
    static __device__ __forceinline__ A* get()
    {
        HR_SHARED(smem, A[BlockSize]);
        return smem;
    }
};
template <class A> struct tree_smem<A, 0> {
    static __device__ __forceinline__ unsigned width() { return blockDim.x; }
    static __device__ __forceinline__ A* get()
    {
        HR_DYNAMIC_SHARED(unsigned char, hr_study_dynamic_smem);
        return (A*)hr_study_dynamic_smem;
    }
};

/* This thread's share of the pass (see study_pass), folded into one value. */
template <class Op>
__device__ __forceinline__ typename Op::acc thread_accumulate(const typename Op::value_t* in, const study_pass& p,
                                                              unsigned width)
{
    const uint64_t block = p.block_offset + blockIdx.x;
    const uint64_t span = (uint64_t)width * (p.paired ? 2 : 1); /* elements one step of the block covers */
    const uint64_t first = block * span * (p.steps ? p.steps : 1) + threadIdx.x;
    const uint64_t step = p.steps ? span : span * p.blocks;
    return strided_accumulate<Op>(Op::identity(), in, p.count, first, step, p.steps ? p.steps : UINT64_MAX,
                                  p.paired ? width : 0);
}

template <class Op>
__device__ __forceinline__ void store_partial(typename Op::value_t* out, const study_pass& p, typename Op::acc v)
{
    using T = typename Op::value_t;
    out[p.block_offset + blockIdx.x] = p.count ? T(v) : T(Op::empty());
}

enum class tree_shape {
    interleaved,   /* Harris reduce0, tutorial v1 */
    strided_index, /* Harris reduce1, tutorial v2 */
    sequential,    /* Harris reduce2/3, tutorial v3/v4, PMPP shared-memory, coarsened, segmented */
    warp_volatile, /* Harris reduce4/5/6, tutorial v5/v6: last warp unrolled, volatile + hr_syncwarp */
    warp_shfl      /* tutorial v7: last warp by __shfl_down */
};

/* Loads this thread's share into shared memory and reduces the block; the result is
 * valid in thread 0. */
template <class Op, int W, tree_shape Shape, int BlockSize>
__device__ __forceinline__ typename Op::acc shared_tree_block(const typename Op::value_t* in, const study_pass& p)
{
    using smem_t = tree_smem<typename Op::acc, BlockSize>;
    typename Op::acc* smem = smem_t::get();
    const unsigned tid = threadIdx.x, width = smem_t::width();
    smem[tid] = thread_accumulate<Op>(in, p, width);
    __syncthreads();
    if constexpr (Shape == tree_shape::interleaved) {
        interleaved_tree<Op>(smem, tid, width, width);
    } else if constexpr (Shape == tree_shape::strided_index) {
        strided_index_tree<Op>(smem, tid, width);
    } else if constexpr (Shape == tree_shape::sequential) {
        sequential_tree<Op>(smem, tid, width, width);
    } else if constexpr (Shape == tree_shape::warp_volatile) {
        sequential_tree<Op, BlockSize>(smem, tid, width, width, W);
        warp_tail_volatile<Op, W>(smem, tid, width);
    } else {
        sequential_tree<Op, BlockSize>(smem, tid, width, width, W);
        return warp_tail_shfl<Op, W>(smem, tid, width);
    }
    return smem[0];
}

/* The shared-memory tree ladder. BlockSize 0: run-time block size. */
template <class Op, int W, tree_shape Shape, int BlockSize>
__global__ __launch_bounds__(BlockSize ? BlockSize : 1024) void shared_tree_kernel(const typename Op::value_t* in,
                                                                                  typename Op::value_t* out,
                                                                                  study_pass p)
{
    HR_KERNEL_BODY(W)
    {
        const typename Op::acc v = shared_tree_block<Op, W, Shape, BlockSize>(in, p);
        if (threadIdx.x == 0) store_partial<Op>(out, p, v);
    }
}

/* Warp reductions first, partials through shared memory (tutorial v8, and v10's
 * grid-stride passes); Vector: ItemsPerThread consecutive elements by 16-byte loads
 * (tutorial v9). */
template <class Op, int W, bool Vector>
__global__ __launch_bounds__(1024) void warp_first_kernel(const typename Op::value_t* in, typename Op::value_t* out,
                                                          study_pass p)
{
    HR_KERNEL_BODY(W)
    {
        HR_SHARED(smem, warp_first_storage<Op>);
        typename Op::acc v;
        if constexpr (Vector) {
            constexpr uint64_t items = HR_VECTOR_THREAD_BYTES / sizeof(typename Op::value_t);
            const uint64_t first = ((p.block_offset + blockIdx.x) * blockDim.x + threadIdx.x) * items;
            v = vector_items_accumulate<Op>(Op::identity(), in, p.count, first);
        } else {
            v = thread_accumulate<Op>(in, p, blockDim.x);
        }
        v = warp_first_reduce<Op, W>(v, smem);
        if (threadIdx.x == 0) store_partial<Op>(out, p, v);
    }
}

/* PMPP's simple (Doubling: owner-computes, stride doubling, thread t owns element 2t)
 * and convergent (stride halving) kernels: each block reduces its 2 blockDim elements
 * of `buf` in place in global memory. buf is a workspace copy of the input, never the
 * caller's array. */
template <class Op, bool Doubling>
__global__ __launch_bounds__(1024) void in_place_kernel(typename Op::value_t* buf, typename Op::value_t* out,
                                                        study_pass p)
{
    HR_KERNEL_BODY(0)
    {
        const unsigned tid = threadIdx.x, elems = 2 * blockDim.x;
        const uint64_t first = (p.block_offset + blockIdx.x) * elems;
        const uint64_t valid = p.count <= first ? 0 : p.count - first < elems ? p.count - first : elems;
        typename Op::value_t* segment = buf + first;
        if constexpr (Doubling) interleaved_tree<Op>(segment, 2 * tid, elems, valid);
        else sequential_tree<Op>(segment, tid, elems, valid);
        if (tid == 0) { /* folding into the identity also canonicalises a lone NaN (n == 1) */
            const typename Op::acc v = valid ? typename Op::acc(segment[0]) : Op::identity();
            store_partial<Op>(out, p, Op::apply(Op::identity(), v));
        }
    }
}

/* PMPP's segmented multiblock reduction: each block reduces its segment in shared
 * memory, then thread 0 folds the block's value into one slot with an atomic. */
template <class Op>
__global__ __launch_bounds__(1024) void segmented_atomic_kernel(const typename Op::value_t* in,
                                                                typename atomic_slot<Op>::type* slot, study_pass p)
{
    HR_KERNEL_BODY(0)
    {
        if constexpr (atomic_supported<Op>) {
            const typename Op::acc v = shared_tree_block<Op, 0, tree_shape::sequential, 0>(in, p);
            if (threadIdx.x == 0) atomic_slot<Op>::combine(slot, v);
        }
    }
}

/* One thread: before the atomic kernel, the slot gets the identity; after it, the
 * slot becomes the result (the empty value for n == 0). */
template <class Op>
__global__ void atomic_slot_kernel(typename atomic_slot<Op>::type* slot, typename Op::value_t* result,
                                   uint64_t count, int finish)
{
    HR_KERNEL_BODY(0)
    {
        if constexpr (atomic_supported<Op>) {
            using slot_t = atomic_slot<Op>;
            using T = typename Op::value_t;
            if (!finish) {
                *slot = slot_t::to_slot(Op::identity());
                return;
            }
            *result = count ? T(slot_t::from_slot(*slot)) : T(Op::empty());
        }
    }
}

}  // namespace hr

#endif
