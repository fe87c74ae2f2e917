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

/* What a call reduces: the whole input, one axis of [outer][extent][inner], or CSR segments. */
typedef enum hr_shape { HR_SHAPE_FULL = 0, HR_SHAPE_AXIS, HR_SHAPE_SEGMENTS } hr_shape;

/* A validated call, as the executors take it. */
typedef struct hr_call {
    int op, in_dtype, out_dtype; /* an allowed triple; argreduce: out_dtype = in_dtype */
    hr_acc_kind acc;
    const void* x;               /* input (dot: x) */
    const void* y;               /* dot: y; NULL otherwise */
    uint64_t n;
    void* result;                /* one out_dtype element (argreduce: the value) */
    int64_t* index;              /* argreduce: the index; NULL otherwise */
    hipreduce_location location;
    /* The shape (FULL: n elements, one result). AXIS: n = outer * extent * inner, outer * inner
     * results at result (and index). SEGMENTS: num_segments results, offsets in the input's
     * memory space (validated on the host when they are host memory), n unused (0). */
    hr_shape shape;
    uint64_t outer, extent, inner;
    uint64_t num_segments;
    const uint64_t* offsets;
    /* Exact ops only, for libhipreduce_mpi (src/partials.h): 1 stores each result's accumulator
     * as device/exact.h's words (hr_exact_words int64 each, host memory) instead of rounding it. */
    int accumulators;
} hr_call;

/* Number of results of a call (FULL: 1). */
static inline uint64_t hr_call_results(const hr_call* call)
{
    if (call->shape == HR_SHAPE_AXIS) return call->outer * call->inner;
    if (call->shape == HR_SHAPE_SEGMENTS) return call->num_segments;
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
