/* The multipass and two-pass algorithms on the host: the study uses of the front/back double
 * buffer (the HIP tutorial's driver) and of the grid-stride two-pass (Harris's reduce6, PMPP's
 * coarsening) on the default algorithm's tiles, for the original 7 operators with the result
 * in the input dtype. Kernels: device/study/pass_kernels.h; instances: pass_instances.h. */
#ifndef HIPREDUCE_STUDY_PASS_DRIVERS_H
#define HIPREDUCE_STUDY_PASS_DRIVERS_H

#include "hipreduce/hipreduce_study.h"
#include <array>

#include "drivers.h"
#include "study/pass_kernels.h"

namespace hr {

template <class Op, int W> hipError_t run_multipass(const reduce_call& c)
{
    using T = typename Op::value_t;
    using acc = typename Op::acc;
    hr_multipass_plan plan;
    if (hr_plan_multipass(c.n, tile_items<Op>(), sizeof(acc), &plan) != 0) return hipErrorInvalidValue;
    void* buffer[2] = {c.workspace, c.workspace + plan.back_offset};
    const void* src = c.input;
    for (int pass = 0; pass < plan.passes; ++pass) {
        void* dst = pass + 1 == plan.passes ? c.result : buffer[pass % 2];
        const dim3 grid(grid_for(plan.count[pass + 1], *c.dev));
        if (pass == 0)
            hipLaunchKernelGGL((pass_kernel<Op, T, W>), grid, dim3(HR_TILE_LANES), 0, c.stream, (const T*)src,
                               plan.count[pass], dst);
        else
            hipLaunchKernelGGL((pass_kernel<Op, acc, W>), grid, dim3(HR_TILE_LANES), 0, c.stream, (const acc*)src,
                               plan.count[pass], dst);
        const hipError_t err = hipGetLastError();
        if (err != hipSuccess) return err;
        src = dst;
    }
    return hipSuccess;
}

template <class Op, int W> hipError_t run_two_pass(const reduce_call& c)
{
    using T = typename Op::value_t;
    using acc = typename Op::acc;
    hr_two_pass_plan plan;
    if (hr_plan_two_pass(c.n, tile_items<Op>(), resident_blocks(*c.dev), sizeof(acc), &plan) != 0)
        return hipErrorInvalidValue;
    if (plan.blocks == 1) {
        hipLaunchKernelGGL((grid_stride_kernel<Op, T, W>), dim3(1), dim3(HR_TILE_LANES), 0, c.stream,
                           (const T*)c.input, c.n, c.result);
        return hipGetLastError();
    }
    hipLaunchKernelGGL((grid_stride_kernel<Op, T, W>), dim3((unsigned)plan.blocks), dim3(HR_TILE_LANES), 0, c.stream,
                       (const T*)c.input, c.n, (void*)c.workspace);
    hipLaunchKernelGGL((grid_stride_kernel<Op, acc, W>), dim3(1), dim3(HR_TILE_LANES), 0, c.stream,
                       (const acc*)c.workspace, plan.blocks, c.result);
    return hipGetLastError();
}

/* Multipass and two-pass instances of one of the original 7 operators on one dtype
 * (in == out); run null where the op does not apply. */
struct pass_entry {
    run_fn run[2][2]; /* [multipass, two-pass][warp 32, warp 64] */
    size_t acc_size;
    size_t elem_size;
};

enum { HR_PASS_OPS = HIPREDUCE_OP_XOR + 1 };
using pass_table = std::array<pass_entry, HR_PASS_OPS>;

/* One input dtype's table (pass_instances.h, compiled beside its tree instances). */
#define HR_DECLARE_PASS_INSTANCES(E, NAME, CLASS, BYTES) const pass_table& pass_instances_##NAME();
HR_DTYPE_ROWS(HR_DECLARE_PASS_INSTANCES)
#undef HR_DECLARE_PASS_INSTANCES

/* The executor's lookup: the instances of (op, dtype) with in == out, or null where the
 * original operators have none (every study algorithm needs such an instance too: its sizes). */
inline const pass_entry* pass_find(int op, int dtype)
{
    if ((unsigned)op >= HR_PASS_OPS) return nullptr;
    const pass_table* table = nullptr;
    switch (dtype) {
#define HR_PASS_INSTANCES_CASE(E, NAME, CLASS, BYTES) \
    case E: table = &pass_instances_##NAME(); break;
        HR_DTYPE_ROWS(HR_PASS_INSTANCES_CASE)
#undef HR_PASS_INSTANCES_CASE
    default: return nullptr;
    }
    const pass_entry& e = (*table)[op];
    return e.acc_size ? &e : nullptr;
}

/* Workspace of a multipass or two-pass call (the executor's call_bytes); false on overflow. */
inline bool pass_workspace_bytes(int algorithm, uint64_t n, size_t elem_size, size_t acc_size,
                                 const device_info& dev, uint64_t* bytes)
{
    const uint64_t tile = hr_tile_items(elem_size);
    if (algorithm == HIPREDUCE_ALGORITHM_TWO_PASS) {
        hr_two_pass_plan p;
        if (hr_plan_two_pass(n, tile, resident_blocks(dev), acc_size, &p) != 0) return false;
        *bytes = p.workspace_bytes;
        return true;
    }
    hr_multipass_plan p;
    if (hr_plan_multipass(n, tile, acc_size, &p) != 0) return false;
    *bytes = p.workspace_bytes;
    return true;
}

}  // namespace hr

#endif
