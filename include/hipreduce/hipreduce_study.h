/* libhipreduce's study algorithms: an opt-in part of the API, for learning and for
 * hipreduce-bench, kept apart from the stable header as zstd keeps its experimental API apart.
 * Include this header instead of (or after) hipreduce/hipreduce.h to name them. Their values are
 * hipreduce_algorithm values for hipreduce_set_algorithm; hipreduce_algorithm_name names them. */
#ifndef HIPREDUCE_HIPREDUCE_STUDY_H
#define HIPREDUCE_HIPREDUCE_STUDY_H

#include "hipreduce/hipreduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ================================================================================
 * Study algorithms (MULTIPASS .. TUTORIAL_V10)
 *
 * For learning and for hipreduce-bench, not for production use: the multipass and
 * two-pass drivers, and every kernel of the classic reduction literature as its
 * source describes it. Their float bits need not match AUTO's.
 *  - What they run: hipreduce_reduce with one of the original seven operators
 *    (sum .. xor) on one of the eight integer dtypes, f32 or f64, the result dtype
 *    equal to the input dtype. Anything else (f16/bf16, wider results, the transform
 *    ops, argmin/argmax, dot, the axis and segment calls) returns
 *    HIPREDUCE_STATUS_NOT_SUPPORTED.
 *  - GPU handles only: a CPU handle accepts every value and runs AUTO's order (AUTO's
 *    bits, and what AUTO supports).
 *  - A library built with -DHIPREDUCE_STUDY_ALGORITHMS=OFF returns NOT_SUPPORTED for
 *    the study kernels (PMPP_SIMPLE and later); MULTIPASS and TWO_PASS stay.
 * ================================================================================ */
/* Front/back double buffer: each pass reduces curr elements to
 * ceil(curr / factor) partials in the workspace, then swaps, until one. */
#define HIPREDUCE_ALGORITHM_MULTIPASS ((hipreduce_algorithm)1)
/* Two launches: a grid-stride first pass to at most one block's worth of
 * partials, then one block finishes. */
#define HIPREDUCE_ALGORITHM_TWO_PASS ((hipreduce_algorithm)2)
/* The study kernels: every kernel of the classic reduction literature. Each takes the
 * block size of hipreduce_set_block_size and, unless said otherwise, runs through the
 * front/back double buffer: a pass turns curr elements into one partial per
 * block. Integers, min/max and NaN/signed-zero results are exact; float sums
 * and products are rounded in each algorithm's own order, not AUTO's, so their
 * bits may differ from AUTO's. Where two sources describe the same kernel, both values run one
 * implementation (marked "= ..."). Sources: PMPP = Hwu, Kirk, El Hajj,
 * "Programming Massively Parallel Processors", 4th ed., ch. 10; Harris =
 * M. Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA); tutorial = the
 * HIP documentation's reduction tutorial (rocm-examples Tutorials/reduction). */
/* PMPP simple: owner computes, stride doubling, in place in global memory on a workspace copy
 * (HARRIS_REDUCE0's tree, but in global memory). */
#define HIPREDUCE_ALGORITHM_PMPP_SIMPLE ((hipreduce_algorithm)3)
/* PMPP convergent: stride halving, in place in global memory on a workspace copy (HARRIS_REDUCE2's
 * tree, but in global memory). */
#define HIPREDUCE_ALGORITHM_PMPP_CONVERGENT ((hipreduce_algorithm)4)
/* PMPP shared memory: first add from global, halving tree in shared memory (= HARRIS_REDUCE3). */
#define HIPREDUCE_ALGORITHM_PMPP_SHARED_MEMORY ((hipreduce_algorithm)5)
/* PMPP segmented multiblock: one launch, block results combined by atomics. Integer sum, min,
 * max, and, or, xor; float sum with the order of arrival, so its bits vary from run to run;
 * prod and float min/max: HIPREDUCE_STATUS_NOT_SUPPORTED. */
#define HIPREDUCE_ALGORITHM_PMPP_SEGMENTED_ATOMIC ((hipreduce_algorithm)6)
/* PMPP thread coarsening: each thread first adds 2 * COARSE_FACTOR (4) block-strided elements. */
#define HIPREDUCE_ALGORITHM_PMPP_COARSENED ((hipreduce_algorithm)7)
/* Harris reduce0: interleaved addressing, divergent % branch (= TUTORIAL_V1). */
#define HIPREDUCE_ALGORITHM_HARRIS_REDUCE0 ((hipreduce_algorithm)8)
/* Harris reduce1: interleaved addressing, strided index, bank conflicts (= TUTORIAL_V2). */
#define HIPREDUCE_ALGORITHM_HARRIS_REDUCE1 ((hipreduce_algorithm)9)
/* Harris reduce2: sequential addressing (= TUTORIAL_V3). */
#define HIPREDUCE_ALGORITHM_HARRIS_REDUCE2 ((hipreduce_algorithm)10)
/* Harris reduce3: first add during global load (= PMPP_SHARED_MEMORY = TUTORIAL_V4). */
#define HIPREDUCE_ALGORITHM_HARRIS_REDUCE3 ((hipreduce_algorithm)11)
/* Harris reduce4: last warp unrolled, volatile + __syncwarp (= TUTORIAL_V5). */
#define HIPREDUCE_ALGORITHM_HARRIS_REDUCE4 ((hipreduce_algorithm)12)
/* Harris reduce5: completely unrolled, block size a template parameter (= TUTORIAL_V6). */
#define HIPREDUCE_ALGORITHM_HARRIS_REDUCE5 ((hipreduce_algorithm)13)
/* Harris reduce6: reduce5's kernel in a grid-stride loop, 8 pairs per thread per pass. */
#define HIPREDUCE_ALGORITHM_HARRIS_REDUCE6 ((hipreduce_algorithm)14)
/* Tutorial v1: naive shared-memory reduction (= HARRIS_REDUCE0). */
#define HIPREDUCE_ALGORITHM_TUTORIAL_V1 ((hipreduce_algorithm)15)
/* Tutorial v2: reduced thread divergence (= HARRIS_REDUCE1). */
#define HIPREDUCE_ALGORITHM_TUTORIAL_V2 ((hipreduce_algorithm)16)
/* Tutorial v3: bank conflicts resolved, sequential addressing (= HARRIS_REDUCE2). */
#define HIPREDUCE_ALGORITHM_TUTORIAL_V3 ((hipreduce_algorithm)17)
/* Tutorial v4: the upper half of the block adds during the load (= HARRIS_REDUCE3). */
#define HIPREDUCE_ALGORITHM_TUTORIAL_V4 ((hipreduce_algorithm)18)
/* Tutorial v5: warp size a template parameter, superfluous syncs omitted (= HARRIS_REDUCE4). */
#define HIPREDUCE_ALGORITHM_TUTORIAL_V5 ((hipreduce_algorithm)19)
/* Tutorial v6: every loop unrolled, __launch_bounds__ (= HARRIS_REDUCE5). */
#define HIPREDUCE_ALGORITHM_TUTORIAL_V6 ((hipreduce_algorithm)20)
/* Tutorial v7: __shfl_down for the last warp. */
#define HIPREDUCE_ALGORITHM_TUTORIAL_V7 ((hipreduce_algorithm)21)
/* Tutorial v8: warp reductions first, warp partials through shared memory. */
#define HIPREDUCE_ALGORITHM_TUTORIAL_V8 ((hipreduce_algorithm)22)
/* Tutorial v9: v8 with ItemsPerThread (64 bytes) read by 16-byte vector loads. */
#define HIPREDUCE_ALGORITHM_TUTORIAL_V9 ((hipreduce_algorithm)23)
/* Tutorial v10: two-pass, v8 grid-stride over one block per multiprocessor, then one block. */
#define HIPREDUCE_ALGORITHM_TUTORIAL_V10 ((hipreduce_algorithm)24)

/* Threads per block of the study algorithms (HIPREDUCE_ALGORITHM_PMPP_SIMPLE and
 * later) for later calls: a power of two from 32 to 1024, or 0 for each
 * algorithm's default (256); anything else is HIPREDUCE_STATUS_INVALID_BLOCK_SIZE.
 * AUTO, MULTIPASS, TWO_PASS and the CPU device have fixed geometry and ignore it.
 * It changes the workspace size of the study algorithms. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_set_block_size(hipreduce_handle handle, unsigned threads);

#ifdef __cplusplus
}
#endif

#endif /* HIPREDUCE_HIPREDUCE_STUDY_H */
