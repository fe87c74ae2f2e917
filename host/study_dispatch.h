/* The study algorithms' interface to the GPU executor: which implementation runs an
 * algorithm value (HIPREDUCE_ALGORITHM_PMPP_SIMPLE and later), the workspace it
 * needs, and the compiled instances per (operator, dtype, warp width). */
#ifndef HIPREDUCE_STUDY_DISPATCH_H
#define HIPREDUCE_STUDY_DISPATCH_H

#include "drivers.h"

namespace hr {

/* The distinct implementations. Several algorithm values share one where the seeds
 * describe the same kernel (study_dispatch.cpp's table says which). */
enum study_impl {
    HR_STUDY_PMPP_SIMPLE,      /* global memory in place, stride doubling, owner computes */
    HR_STUDY_PMPP_CONVERGENT,  /* global memory in place, stride halving */
    HR_STUDY_INTERLEAVED,      /* shared, interleaved addressing, divergent % branch */
    HR_STUDY_STRIDED_INDEX,    /* shared, interleaved addressing with strided index */
    HR_STUDY_SEQUENTIAL,       /* shared, sequential addressing */
    HR_STUDY_FIRST_ADD,        /* sequential addressing, first add during the global load */
    HR_STUDY_COARSENED,        /* PMPP thread coarsening */
    HR_STUDY_SEGMENTED_ATOMIC, /* PMPP segmented multiblock, atomic finish */
    HR_STUDY_WARP_VOLATILE,    /* last warp unrolled, volatile + hr_syncwarp */
    HR_STUDY_UNROLLED,         /* completely unrolled, block size a template parameter */
    HR_STUDY_GRID_STRIDE,      /* the unrolled kernel, several grid-stride steps per thread */
    HR_STUDY_SHFL_TAIL,        /* last warp by __shfl_down */
    HR_STUDY_WARP_FIRST,       /* warp shuffles first, warp partials through shared memory */
    HR_STUDY_VECTOR_ITEMS,     /* warp first, ItemsPerThread by 16-byte vector loads */
    HR_STUDY_TWO_PASS_WARP,    /* warp first, grid-stride over one block per SM, then one block */
    HR_STUDY_IMPLS
};

using study_run_fn = hipError_t (*)(const reduce_call& call, unsigned block);

/* One (op, dtype) cell: a runner per implementation and warp width (32, 64); null
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

/* Block size 0 picks the default. False when the sizes overflow. */
bool make_study_plan(int impl, size_t elem_size, uint64_t n, unsigned block, const device_info& dev,
                     study_plan* plan);

/* The executor's hooks. algorithm is a hipreduce_algorithm value >= HR_DRIVERS. */
study_run_fn study_find(int algorithm, int op, int dtype, int warp_size);
bool study_workspace_bytes(int algorithm, size_t elem_size, uint64_t n, unsigned block, const device_info& dev,
                           uint64_t* bytes);

/* Rows of instances, one per operator, compiled in study_<op>.cpp. */
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
