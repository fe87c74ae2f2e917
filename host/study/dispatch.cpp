/* The study algorithms' tables: algorithm value -> implementation (device/algorithm_table.h),
 * and each implementation's tuning (plain data) -> launch geometry and workspace. */
#include "dispatch.h"

#include "study/loaders.h"

namespace hr {
namespace {

/* Threads per block when the handle's block size is 0 (every seed's usual 256). */
constexpr unsigned HR_STUDY_DEFAULT_BLOCK = 256;
/* PMPP's COARSE_FACTOR: each thread adds 2 * COARSE_FACTOR elements before the tree. */
constexpr uint32_t HR_PMPP_COARSE_FACTOR = 4;
/* Harris reduce6: grid-stride steps (of two elements) per thread and pass. */
constexpr uint32_t HR_HARRIS_REDUCE6_STEPS = 8;

enum class study_driver { multipass, in_place, atomic, two_pass };

/* An implementation's tuning, keyed by its hr_impl. */
struct study_policy {
    int impl;
    study_driver driver;
    uint32_t items;  /* elements one thread reduces per pass (factor = items * block); 0: 64 bytes' worth */
    uint32_t steps;  /* study_pass.steps: loader steps per thread, 0 = grid-stride */
    uint32_t paired; /* study_pass.paired: first add during load */
};

/* Null for an implementation that is not a study one. */
const study_policy* policy_of(int impl)
{
    static constexpr study_policy table[] = {
        {HR_IMPL_PMPP_SIMPLE, study_driver::in_place, 2, 0, 0},
        {HR_IMPL_PMPP_CONVERGENT, study_driver::in_place, 2, 0, 0},
        {HR_IMPL_INTERLEAVED, study_driver::multipass, 1, 1, 0},
        {HR_IMPL_STRIDED_INDEX, study_driver::multipass, 1, 1, 0},
        {HR_IMPL_SEQUENTIAL, study_driver::multipass, 1, 1, 0},
        {HR_IMPL_FIRST_ADD, study_driver::multipass, 2, 1, 1},
        {HR_IMPL_COARSENED, study_driver::multipass, 2 * HR_PMPP_COARSE_FACTOR, 2 * HR_PMPP_COARSE_FACTOR, 0},
        {HR_IMPL_SEGMENTED_ATOMIC, study_driver::atomic, 2, 1, 1},
        {HR_IMPL_WARP_VOLATILE, study_driver::multipass, 2, 1, 1},
        {HR_IMPL_UNROLLED, study_driver::multipass, 2, 0, 1},
        {HR_IMPL_GRID_STRIDE, study_driver::multipass, 2 * HR_HARRIS_REDUCE6_STEPS, 0, 1},
        {HR_IMPL_SHFL_TAIL, study_driver::multipass, 2, 1, 1},
        {HR_IMPL_WARP_FIRST, study_driver::multipass, 1, 0, 0},
        {HR_IMPL_VECTOR_ITEMS, study_driver::multipass, 0, 0, 0},
        {HR_IMPL_TWO_PASS_WARP, study_driver::two_pass, 1, 0, 0},
    };
    static_assert(sizeof table / sizeof table[0] == HR_STUDY_IMPLS, "one policy per study implementation");
    for (const study_policy& p : table)
        if (p.impl == impl) return &p;
    return nullptr;
}

/* The study implementation of an algorithm value (one serves every seed that describes the
 * same kernel), or -1. */
int impl_of(int algorithm)
{
    const int impl = hr_algorithm_impl(algorithm);
    return impl >= HR_IMPL_STUDY_FIRST ? impl : -1;
}

}  // namespace

bool make_study_plan(int impl, size_t elem_size, uint64_t n, unsigned block, const device_info& dev,
                     study_plan* plan)
{
    const study_policy* policy = policy_of(impl);
    if (!policy || elem_size == 0) return false;
    const study_policy& pol = *policy;
    *plan = study_plan{};
    plan->block = block ? block : HR_STUDY_DEFAULT_BLOCK;
    plan->steps = pol.steps;
    plan->paired = pol.paired;
    const uint64_t items = pol.items ? pol.items : HR_VECTOR_THREAD_BYTES / elem_size;
    const uint64_t factor = items * plan->block;
    if (pol.driver == study_driver::two_pass) {
        /* The tutorial's v10: one block per multiprocessor, then one block. */
        hr_two_pass_plan tp;
        if (hr_plan_two_pass(n, factor, dev.sm_count > 0 ? (uint64_t)dev.sm_count : 1, elem_size, &tp) != 0)
            return false;
        hr_multipass_plan& mp = plan->passes;
        mp.passes = tp.blocks > 1 ? 2 : 1;
        mp.count[0] = n;
        mp.count[1] = tp.blocks;
        mp.count[2] = 1;
        plan->workspace_bytes = tp.workspace_bytes;
        return true;
    }
    if (hr_plan_multipass(n, factor, elem_size, &plan->passes) != 0) return false;
    plan->workspace_bytes = plan->passes.workspace_bytes;
    if (pol.driver == study_driver::atomic) plan->workspace_bytes = 16; /* the atomic slot */
    if (pol.driver == study_driver::in_place) {
        if (n > (UINT64_MAX - 15) / elem_size) return false;
        plan->copy_bytes = (n * elem_size + 15) & ~(uint64_t)15;
        if (plan->copy_bytes > UINT64_MAX - plan->workspace_bytes) return false;
        plan->workspace_bytes += plan->copy_bytes;
    }
    return true;
}

study_run_fn study_find(int algorithm, int op, int dtype, int warp_size)
{
    static const study_entry* (*const rows[])() = {study_row<op_sum>, study_row<op_prod>, study_row<op_min>,
                                                   study_row<op_max>, study_row<op_and>,  study_row<op_or>,
                                                   study_row<op_xor>};
    const int impl = impl_of(algorithm);
    if (impl < 0 || (unsigned)op >= sizeof rows / sizeof rows[0] || (unsigned)dtype >= HR_DTYPE_SLOTS) return nullptr;
    return rows[op]()[dtype].run[impl - HR_IMPL_STUDY_FIRST][warp_size == 64];
}

bool study_workspace_bytes(int algorithm, size_t elem_size, uint64_t n, unsigned block, const device_info& dev,
                           uint64_t* bytes)
{
    study_plan plan;
    if (!make_study_plan(impl_of(algorithm), elem_size, n, block, dev, &plan)) return false;
    *bytes = plan.workspace_bytes;
    return true;
}

}  // namespace hr
