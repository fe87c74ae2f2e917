/* The study algorithms (HIPREDUCE_ALGORITHM_PMPP_SIMPLE and later) on the host: the drivers
 * that run their implementations (the study hr_impl values of device/algorithm_table.h).
 * dispatch.cpp maps algorithm values onto implementations, holds their tuning as plain data
 * and plans workspace; <op>.cpp compile the instances.
 *
 * Partials are stored in the element type T, not in Op::acc: for every operator the
 * value truncated to T is the same whether truncation happens after each step or
 * once at the end (wrap-around sums and products and bitwise ops depend only on the
 * low bits; min/max never leave T's range; floats accumulate in T). So every pass
 * reads and writes T, one kernel instance serves all passes, and the signed and
 * unsigned integers of one width share the instances of the wrap-around operators. */
#ifndef HIPREDUCE_STUDY_SEED_DRIVERS_H
#define HIPREDUCE_STUDY_SEED_DRIVERS_H

#include "hipreduce/hipreduce_study.h"
#include <utility>

#include "drivers.h"
#include "dispatch.h"
#include "study/seed_kernels.h"

namespace hr {

/* Launches of a pass: at most this many blocks each (HIP caps a grid at 2^32 threads). */
constexpr uint64_t HR_STUDY_MAX_GRID = 1u << 20;

template <class Src, class T> using study_kernel = void (*)(Src*, T*, study_pass);

/* Runs every block of pass p, in as many launches as the grid limit needs. */
template <class Src, class T>
hipError_t launch_pass(study_kernel<Src, T> kernel, Src* in, T* out, study_pass p, unsigned block, size_t smem,
                       hipStream_t stream)
{
    for (uint64_t offset = 0; offset < p.blocks; offset += HR_STUDY_MAX_GRID) {
        p.block_offset = offset;
        const uint64_t grid = p.blocks - offset < HR_STUDY_MAX_GRID ? p.blocks - offset : HR_STUDY_MAX_GRID;
        hipLaunchKernelGGL(kernel, dim3((unsigned)grid), dim3(block), smem, stream, in, out, p);
    }
    return hipGetLastError();
}

/* Front/back double buffer (the tutorial's driver, sizes from hr_plan_multipass):
 * pass k reduces plan.passes.count[k] elements to count[k+1] partials in the buffer
 * pass k-1 did not write; the last pass writes the result. */
template <class Src, class T>
hipError_t run_passes(const reduce_call& c, const study_plan& plan, Src* first, study_kernel<Src, T> kernel,
                      size_t smem)
{
    const hr_multipass_plan& mp = plan.passes;
    unsigned char* buffers = c.workspace + plan.copy_bytes;
    T* buffer[2] = {(T*)buffers, (T*)(buffers + mp.back_offset)};
    Src* src = first;
    for (int pass = 0; pass < mp.passes; ++pass) {
        T* dst = pass + 1 == mp.passes ? (T*)c.result : buffer[pass % 2];
        const study_pass p = {mp.count[pass], mp.count[pass + 1], 0, plan.steps, plan.paired};
        const hipError_t err = launch_pass(kernel, src, dst, p, plan.block, smem, c.stream);
        if (err != hipSuccess) return err;
        src = dst;
    }
    return hipSuccess;
}

/* A pass kernel with its type erased (run_study casts it back) and the dynamic shared
 * memory it needs at launch. */
struct study_launch {
    study_kernel<const void, void> kernel;
    size_t smem;
};

/* The block-size switch of the kernels that take the block size at compile time. */
template <class Op, int W> study_launch unrolled_for(unsigned block)
{
    using T = typename Op::value_t;
    study_kernel<const T, T> k;
    switch (block) {
    case 32: k = shared_tree_kernel<Op, W, tree_shape::warp_volatile, 32>; break;
    case 64: k = shared_tree_kernel<Op, W, tree_shape::warp_volatile, 64>; break;
    case 128: k = shared_tree_kernel<Op, W, tree_shape::warp_volatile, 128>; break;
    case 256: k = shared_tree_kernel<Op, W, tree_shape::warp_volatile, 256>; break;
    case 512: k = shared_tree_kernel<Op, W, tree_shape::warp_volatile, 512>; break;
    default: k = shared_tree_kernel<Op, W, tree_shape::warp_volatile, 1024>; break;
    }
    return {(study_kernel<const void, void>)k, 0};
}

/* The pass kernel of a multipass or two-pass implementation. */
template <class Op, int W, int Impl> study_launch pass_kernel_for(unsigned block)
{
    using T = typename Op::value_t;
    using shape = tree_shape;
    const size_t smem = (size_t)block * sizeof(typename Op::acc); /* a tree's value per thread */
    const auto with = [](study_kernel<const T, T> k, size_t bytes) {
        return study_launch{(study_kernel<const void, void>)k, bytes};
    };
    if constexpr (Impl == HR_IMPL_INTERLEAVED) return with(shared_tree_kernel<Op, 0, shape::interleaved, 0>, smem);
    else if constexpr (Impl == HR_IMPL_STRIDED_INDEX)
        return with(shared_tree_kernel<Op, 0, shape::strided_index, 0>, smem);
    else if constexpr (Impl == HR_IMPL_SEQUENTIAL || Impl == HR_IMPL_FIRST_ADD || Impl == HR_IMPL_COARSENED)
        return with(shared_tree_kernel<Op, 0, shape::sequential, 0>, smem);
    else if constexpr (Impl == HR_IMPL_WARP_VOLATILE)
        return with(shared_tree_kernel<Op, W, shape::warp_volatile, 0>, smem);
    else if constexpr (Impl == HR_IMPL_SHFL_TAIL) return with(shared_tree_kernel<Op, W, shape::warp_shfl, 0>, smem);
    else if constexpr (Impl == HR_IMPL_UNROLLED || Impl == HR_IMPL_GRID_STRIDE) return unrolled_for<Op, W>(block);
    else if constexpr (Impl == HR_IMPL_VECTOR_ITEMS) return with(warp_first_kernel<Op, W, true>, 0);
    else return with(warp_first_kernel<Op, W, false>, 0);
}

template <class Op> hipError_t run_atomic(const reduce_call& c, const study_plan& plan)
{
    using T = typename Op::value_t;
    using slot_t = typename atomic_slot<Op>::type;
    slot_t* slot = (slot_t*)c.workspace;
    hipLaunchKernelGGL((atomic_slot_kernel<Op>), dim3(1), dim3(1), 0, c.stream, slot, (T*)c.result, c.n, 0);
    if (c.n > 0) {
        const study_pass p = {c.n, plan.passes.count[1], 0, plan.steps, plan.paired};
        const hipError_t err = launch_pass(segmented_atomic_kernel<Op>, (const T*)c.input, slot, p, plan.block,
                                           (size_t)plan.block * sizeof(typename Op::acc), c.stream);
        if (err != hipSuccess) return err;
    }
    hipLaunchKernelGGL((atomic_slot_kernel<Op>), dim3(1), dim3(1), 0, c.stream, slot, (T*)c.result, c.n, 1);
    return hipGetLastError();
}

/* One implementation for one operator and warp width. */
template <class Op, int W, int Impl> hipError_t run_study(const reduce_call& c, unsigned block)
{
    using T = typename Op::value_t;
    study_plan plan;
    if (!make_study_plan(Impl, sizeof(T), c.n, block, *c.dev, &plan)) return hipErrorInvalidValue;
    if constexpr (Impl == HR_IMPL_SEGMENTED_ATOMIC) {
        return run_atomic<Op>(c, plan);
    } else if constexpr (Impl == HR_IMPL_PMPP_SIMPLE || Impl == HR_IMPL_PMPP_CONVERGENT) {
        /* These kernels write what they reduce: they get a copy of the input. */
        T* copy = (T*)c.workspace;
        const hipError_t err =
            c.n ? hipMemcpyAsync(copy, c.input, c.n * sizeof(T), hipMemcpyDeviceToDevice, c.stream) : hipSuccess;
        if (err != hipSuccess) return err;
        return run_passes(c, plan, copy, in_place_kernel<Op, Impl == HR_IMPL_PMPP_SIMPLE>, 0);
    } else {
        const study_launch l = pass_kernel_for<Op, W, Impl>(plan.block);
        return run_passes(c, plan, (const T*)c.input, (study_kernel<const T, T>)l.kernel, l.smem);
    }
}

/* Signed integers share the unsigned instances of the wrap-around operators. */
template <template <class> class OpT, class T, bool Integral = std::is_integral<T>::value> struct study_op {
    using type = OpT<T>;
};
template <template <class> class OpT, class T> struct study_op<OpT, T, true> {
    using type = typename std::conditional<std::is_same<typename OpT<T>::acc, wrap_acc_t<T>>::value,
                                           OpT<typename std::make_unsigned<T>::type>, OpT<T>>::type;
};
template <template <class> class OpT, class T> using study_op_t = typename study_op<OpT, T>::type;

template <class Op, int W, int Impl> constexpr study_run_fn study_run_for()
{
    if constexpr (Impl == HR_IMPL_SEGMENTED_ATOMIC && !atomic_supported<Op>) return nullptr;
    else return run_study<Op, W, Impl>;
}

template <class Op, size_t... I> constexpr study_entry study_entry_of(std::index_sequence<I...>)
{
    return {{{study_run_for<Op, 32, HR_IMPL_STUDY_FIRST + (int)I>(),
              study_run_for<Op, 64, HR_IMPL_STUDY_FIRST + (int)I>()}...}};
}

template <template <class> class OpT, class T> constexpr study_entry study_entry_for()
{
    if constexpr (op_applies<OpT<T>>())
        return study_entry_of<study_op_t<OpT, T>>(std::make_index_sequence<HR_STUDY_IMPLS>());
    else
        return {};
}

/* The study row of one operator, indexed like drivers.h's op rows. Instantiated once,
 * in <op>.cpp; everywhere else it is only declared (dispatch.h). */
template <template <class> class OpT> const study_entry* study_row()
{
    static const study_entry row[HR_DTYPE_SLOTS] = {
        study_entry_for<OpT, int8_t>(),   study_entry_for<OpT, uint8_t>(),  study_entry_for<OpT, int16_t>(),
        study_entry_for<OpT, uint16_t>(), study_entry_for<OpT, int32_t>(),  study_entry_for<OpT, uint32_t>(),
        study_entry_for<OpT, int64_t>(),  study_entry_for<OpT, uint64_t>(), study_entry{},
        study_entry{},                    study_entry_for<OpT, float>(),    study_entry_for<OpT, double>()};
    return row;
}

}  // namespace hr

#endif
