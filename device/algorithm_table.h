/* The algorithms as data: the one list that the public enum's values are checked against, the
 * names (hipreduce_algorithm_name) and the GPU executor's choice of implementation read.
 *
 * A row: X(enumerator, name, implementation)
 *   implementation: TREE (the default algorithm's single-launch tree, host/drivers.h),
 *     MULTIPASS (front/back double buffer), TWO_PASS (grid-stride blocks, then one block), or one
 *     of the study kernels (host/study/, device/study/). Several seeds that describe the same
 *     kernel share its implementation (PMPP's shared-memory kernel = Harris's reduce3 = the
 *     tutorial's v4).
 * The study rows (PMPP, Harris, the HIP tutorial) run the original 7 operators with the result in
 * the input dtype; the cpu device runs AUTO's order for every row. */
#ifndef HIPREDUCE_ALGORITHM_TABLE_H
#define HIPREDUCE_ALGORITHM_TABLE_H

#include "hipreduce/hipreduce_study.h"

#define HR_ALGORITHM_ROWS(X)                                                     \
    X(HIPREDUCE_ALGORITHM_AUTO, auto, TREE)                                      \
    X(HIPREDUCE_ALGORITHM_MULTIPASS, multipass, MULTIPASS)                       \
    X(HIPREDUCE_ALGORITHM_TWO_PASS, two_pass, TWO_PASS)                          \
    X(HIPREDUCE_ALGORITHM_PMPP_SIMPLE, pmpp_simple, PMPP_SIMPLE)                 \
    X(HIPREDUCE_ALGORITHM_PMPP_CONVERGENT, pmpp_convergent, PMPP_CONVERGENT)     \
    X(HIPREDUCE_ALGORITHM_PMPP_SHARED_MEMORY, pmpp_shared_memory, FIRST_ADD)     \
    X(HIPREDUCE_ALGORITHM_PMPP_SEGMENTED_ATOMIC, pmpp_segmented_atomic, SEGMENTED_ATOMIC) \
    X(HIPREDUCE_ALGORITHM_PMPP_COARSENED, pmpp_coarsened, COARSENED)             \
    X(HIPREDUCE_ALGORITHM_HARRIS_REDUCE0, harris_reduce0, INTERLEAVED)           \
    X(HIPREDUCE_ALGORITHM_HARRIS_REDUCE1, harris_reduce1, STRIDED_INDEX)         \
    X(HIPREDUCE_ALGORITHM_HARRIS_REDUCE2, harris_reduce2, SEQUENTIAL)            \
    X(HIPREDUCE_ALGORITHM_HARRIS_REDUCE3, harris_reduce3, FIRST_ADD)             \
    X(HIPREDUCE_ALGORITHM_HARRIS_REDUCE4, harris_reduce4, WARP_VOLATILE)         \
    X(HIPREDUCE_ALGORITHM_HARRIS_REDUCE5, harris_reduce5, UNROLLED)              \
    X(HIPREDUCE_ALGORITHM_HARRIS_REDUCE6, harris_reduce6, GRID_STRIDE)           \
    X(HIPREDUCE_ALGORITHM_TUTORIAL_V1, tutorial_v1, INTERLEAVED)                 \
    X(HIPREDUCE_ALGORITHM_TUTORIAL_V2, tutorial_v2, STRIDED_INDEX)               \
    X(HIPREDUCE_ALGORITHM_TUTORIAL_V3, tutorial_v3, SEQUENTIAL)                  \
    X(HIPREDUCE_ALGORITHM_TUTORIAL_V4, tutorial_v4, FIRST_ADD)                   \
    X(HIPREDUCE_ALGORITHM_TUTORIAL_V5, tutorial_v5, WARP_VOLATILE)               \
    X(HIPREDUCE_ALGORITHM_TUTORIAL_V6, tutorial_v6, UNROLLED)                    \
    X(HIPREDUCE_ALGORITHM_TUTORIAL_V7, tutorial_v7, SHFL_TAIL)                   \
    X(HIPREDUCE_ALGORITHM_TUTORIAL_V8, tutorial_v8, WARP_FIRST)                  \
    X(HIPREDUCE_ALGORITHM_TUTORIAL_V9, tutorial_v9, VECTOR_ITEMS)                \
    X(HIPREDUCE_ALGORITHM_TUTORIAL_V10, tutorial_v10, TWO_PASS_WARP)

/* The implementations: the three drivers first, then the study kernels (the study implementation
 * of an algorithm is HR_IMPL_x - HR_IMPL_STUDY_FIRST). */
#define HR_IMPL_ROWS(X)                                                                        \
    X(TREE) X(MULTIPASS) X(TWO_PASS)                                                           \
    X(PMPP_SIMPLE)      /* global memory in place, stride doubling, owner computes */          \
    X(PMPP_CONVERGENT)  /* global memory in place, stride halving */                           \
    X(INTERLEAVED)      /* shared, interleaved addressing, divergent % branch */               \
    X(STRIDED_INDEX)    /* shared, interleaved addressing with strided index */                \
    X(SEQUENTIAL)       /* shared, sequential addressing */                                    \
    X(FIRST_ADD)        /* sequential addressing, first add during the global load */          \
    X(COARSENED)        /* PMPP thread coarsening */                                           \
    X(SEGMENTED_ATOMIC) /* PMPP segmented multiblock, atomic finish */                         \
    X(WARP_VOLATILE)    /* last warp unrolled, volatile + hr_syncwarp */                       \
    X(UNROLLED)         /* completely unrolled, block size a template parameter */             \
    X(GRID_STRIDE)      /* the unrolled kernel, several grid-stride steps per thread */        \
    X(SHFL_TAIL)        /* last warp by __shfl_down */                                         \
    X(WARP_FIRST)       /* warp shuffles first, warp partials through shared memory */         \
    X(VECTOR_ITEMS)     /* warp first, ItemsPerThread by 16-byte vector loads */               \
    X(TWO_PASS_WARP)    /* warp first, grid-stride over one block per SM, then one block */

#define HR_IMPL_ENUMERATOR(I) HR_IMPL_##I,
typedef enum hr_impl { HR_IMPL_ROWS(HR_IMPL_ENUMERATOR) HR_IMPLS, HR_IMPL_STUDY_FIRST = HR_IMPL_PMPP_SIMPLE } hr_impl;
#undef HR_IMPL_ENUMERATOR

#define HR_ALGORITHM_COUNT_ROW(...) +1
enum { HR_ALGORITHM_SLOTS = 0 HR_ALGORITHM_ROWS(HR_ALGORITHM_COUNT_ROW) };
#undef HR_ALGORITHM_COUNT_ROW

#endif
