/* The validated call: what the C API (src/api_calls.c) hands an executor (the cpu device, src/cpu_*; the
 * GPU, host/) after every check. Plain C, so every layer includes it downwards. */
#ifndef HIPREDUCE_CALL_H
#define HIPREDUCE_CALL_H

#include <stdint.h>

#include "exact.h"
#include "hipreduce/hipreduce.h"
#include "op_table.h"
#include "rules.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a call reduces: the whole input, one axis of [outer][extent][inner], CSR segments, a
 * strided tensor over any set of axes (a plan whose layout is none of the others), or rows
 * reduced into bins by key (a plan of layout BY_KEY). */
typedef enum hr_shape { HR_SHAPE_FULL = 0, HR_SHAPE_AXIS, HR_SHAPE_SEGMENTS, HR_SHAPE_TENSOR, HR_SHAPE_BY_KEY } hr_shape;

/* A TENSOR call's coalesced dimensions: the kept axes first, then the reduced ones, each list in
 * the descriptor's axis order (row-major: the last varies fastest), no extent 0 or 1 among them.
 * Result r is the reduction, in the default order, of the reduced elements of kept index r taken
 * in row-major order: the row r of the (kept..., reduced...) contiguous copy. */
typedef struct hr_tensor {
    int kept, reduced;
    uint64_t extent[HIPREDUCE_MAX_RANK];
    int64_t xstride[HIPREDUCE_MAX_RANK], ystride[HIPREDUCE_MAX_RANK];
} hr_tensor;

/* Element offset of position i (0 .. product of extents) of dims [first, first + count) of t,
 * in row-major order, with strides s (t's xstride or ystride). */
HR_RULE int64_t hr_tensor_offset(const hr_tensor* t, const int64_t* s, int first, int count, uint64_t i)
{
    int64_t offset = 0;
    for (int d = first + count - 1; d >= first; --d) {
        offset += (int64_t)(i % t->extent[d]) * s[d];
        i /= t->extent[d];
    }
    return offset;
}

/* A validated call, as the executors take it. */
typedef struct hr_call {
    int op, in_dtype, out_dtype; /* an allowed triple; argreduce: out_dtype = in_dtype */
    hr_acc_kind acc;
    const void* x;               /* input (dot: x) */
    const void* y;               /* dot: y; NULL otherwise */
    uint64_t n;
    void* result;                /* one out_dtype element (argreduce: the value) */
    int64_t* index;              /* argreduce: the index; NULL otherwise */
    void* result2;               /* two-output ops (hr_op_outputs 2: var_mean, std_mean): the second
                                  * results, as many as `result`'s; NULL otherwise */
    double correction;           /* var, std and their means: the divisor is n - correction */
    hipreduce_location location;
    /* The shape (FULL: n elements, one result). AXIS: n = outer * extent * inner, outer * inner
     * results at result (and index). SEGMENTS: num_segments results, offsets in the input's
     * memory space (validated on the host when they are host memory), n unused (0); inner 1, or k
     * for the exact sums of a complex input's (re, im) view (src/api_complex.c): k results a
     * segment, result s k + j over elements offsets[s] k + j, step k, up to offsets[s + 1] k. */
    hr_shape shape;
    uint64_t outer, extent, inner;
    uint64_t num_segments;
    const uint64_t* offsets;
    uint64_t length; /* SEGMENTS: the input's elements (a plan's), UINT64_MAX where not given */
    /* TENSOR: outer = results (kept elements), extent = reduced elements per result, inner 1,
     * n = outer * extent; the dimensions here. */
    hr_tensor tensor;
    /* BY_KEY: `length` rows of `row` values at x (n = length * row), keys[length] of key_dtype
     * (HIPREDUCE_I32/I64), results [num_bins][row]; counts (num_bins int64, optional) where the
     * results go. The executors sort the rows by key, stably, and reduce each bin's values as CSR
     * segments (src/cpu_by_key.c, host/gpu_by_key.cpp). */
    uint64_t num_bins, row;
    int key_dtype;
    const void* keys;
    int64_t* counts;
    /* Exact ops only, for libhipreduce_mpi (src/partials.h): 1 stores each result's accumulator
     * as device/exact.h's words (hr_exact_words int64 each, host memory) instead of rounding it. */
    int accumulators;
} hr_call;

/* Number of results of a call (FULL: 1). */
static inline uint64_t hr_call_results(const hr_call* call)
{
    if (call->shape == HR_SHAPE_AXIS || call->shape == HR_SHAPE_TENSOR) return call->outer * call->inner;
    if (call->shape == HR_SHAPE_SEGMENTS) return call->num_segments * call->inner;
    if (call->shape == HR_SHAPE_BY_KEY) return call->num_bins * call->row;
    return 1;
}

/* Bytes of one result as the executors write it: an out_dtype element, or an accumulator's words. */
static inline uint64_t hr_call_result_bytes(const hr_call* call)
{
    return call->accumulators ? 8u * (uint64_t)hr_exact_words(call->op, call->in_dtype)
                              : (uint64_t)hr_dtype_bytes(call->out_dtype);
}

#ifdef __cplusplus
}
#endif

#endif
