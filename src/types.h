/* The op and dtype tables of the C side (rows in device/op_table.h), and the validated form of a
 * call that the executors take. */
#ifndef HIPREDUCE_TYPES_H
#define HIPREDUCE_TYPES_H

#include "hipreduce/hipreduce.h"
#include "op_table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hr_dtype_class { HR_CLASS_NONE = 0, HR_CLASS_SIGNED, HR_CLASS_UNSIGNED, HR_CLASS_HALF, HR_CLASS_FLOAT } hr_dtype_class;

typedef struct hr_dtype_info {
    const char* name; /* "i8", ... */
    size_t size;      /* bytes of one element */
    hr_dtype_class cls;
} hr_dtype_info;

/* Which public call an operator belongs to. */
typedef enum hr_call_kind { HR_CALL_REDUCE, HR_CALL_ARGREDUCE, HR_CALL_DOT } hr_call_kind;

/* NULL for a value that is not a hipreduce_dtype. */
const hr_dtype_info* hr_dtype_lookup(int dtype);
int hr_dtype_is_float(int dtype); /* f16, bf16, f32, f64 */
/* Name of an op value ("sum", ...), NULL when unknown. */
const char* hr_op_name(int op);
/* The call that takes op (op valid). */
hr_call_kind hr_op_call(int op);
/* Validates (op, in, out) for the call `kind`: INVALID_OP, INVALID_DTYPE (in, then out),
 * OP_DTYPE_MISMATCH (the triple, or an op of another call) or SUCCESS. */
hipreduce_status hr_check_triple(hr_call_kind kind, int op, int in_dtype, int out_dtype);
/* The accumulator of a valid triple (op_table.h). */
hr_acc_kind hr_acc_of(int op, int in_dtype, int out_dtype);
/* Bytes of one accumulator of that kind (partials in a workspace). */
size_t hr_acc_size(hr_acc_kind acc);
/* Name of an algorithm value, NULL when unknown. */
const char* hr_algorithm_name(int algorithm);

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
} hr_call;

/* Number of results of a call (FULL: 1). */
uint64_t hr_call_results(const hr_call* call);

#ifdef __cplusplus
}
#endif

#endif
