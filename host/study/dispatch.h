/* The study algorithms' interface to the GPU executor: which implementation runs an
 * algorithm value (HIPREDUCE_ALGORITHM_PMPP_SIMPLE and later), the workspace it
 * needs, and the compiled instances per (operator, dtype, warp width). */
#ifndef HIPREDUCE_STUDY_DISPATCH_H
#define HIPREDUCE_STUDY_DISPATCH_H

#include "hipreduce/hipreduce_study.h"
#include "algorithm_table.h"
#include "drivers.h"
#include "rules.h"

namespace hr {

/* The study implementations are device/algorithm_table.h's hr_impl values from
 * HR_IMPL_STUDY_FIRST on (several algorithm values share one where the seeds describe the same
 * kernel); tables over them are indexed by hr_impl - HR_IMPL_STUDY_FIRST. */
enum { HR_STUDY_IMPLS = HR_IMPLS - HR_IMPL_STUDY_FIRST };

using study_run_fn = hipError_t (*)(const reduce_call& call, unsigned block);

/* One (op, dtype) cell: a runner per study implementation and warp width (32, 64); null
 * where the implementation cannot do the operator (the atomic one). */
struct study_entry {
    study_run_fn run[HR_STUDY_IMPLS][2];
};

/* A call's launch geometry and workspace layout, computed once up front. */
struct study_plan {
    unsigned block;             /* threads per block */
    uint32_t steps, paired;     /* loader pattern, see study_pass */
    hr_multipass_plan passes;   /* element counts of every pass (two-pass: n, blocks, 1) */
    uint64_t copy_bytes;        /* PMPP's in-place kernels: the input's copy, first in the workspace */
    uint64_t workspace_bytes;   /* all the call uses */
};

/* impl: a study hr_impl. Block size 0 picks the default. False when the sizes overflow. */
bool make_study_plan(int impl, size_t elem_size, uint64_t n, unsigned block, const device_info& dev,
                     study_plan* plan);

/* The executor's hooks: null or false where `algorithm` has no study implementation. */
study_run_fn study_find(int algorithm, int op, int dtype, int warp_size);
bool study_workspace_bytes(int algorithm, size_t elem_size, uint64_t n, unsigned block, const device_info& dev,
                           uint64_t* bytes);

/* Rows of instances, one per operator, compiled in <op>.cpp. */
template <template <class> class OpT> const study_entry* study_row();
extern template const study_entry* study_row<op_sum>();
extern template const study_entry* study_row<op_prod>();
extern template const study_entry* study_row<op_min>();
extern template const study_entry* study_row<op_max>();
extern template const study_entry* study_row<op_and>();
extern template const study_entry* study_row<op_or>();
extern template const study_entry* study_row<op_xor>();

}  // namespace hr

#endif
