/* The C API's calls (full, axis and segment reductions, argreductions, dot) and their size
 * queries: argument validation, then dispatch to the CPU or GPU executor with the validated call.
 *
 * Decisions beyond the public header:
 * - Validation order of every call (the first failing check decides the status): handle, op,
 *   input dtype, result dtype, the triple (types.c, from device/op_table.h's rows; an op of
 *   another call is OP_DTYPE_MISMATCH), location (DEVICE on a CPU handle is invalid), pointers
 *   (result, value, index; input, x, y when n > 0), n * sizeof(in_dtype) overflowing uint64_t
 *   or size_t. The size queries check the same, minus location, with `bytes` as the pointer.
 *   The executors take the validated call as one hr_call (device/call.h); a full reduction is
 *   filled as the axis call (1, n, 1).
 * - A failing call writes nothing through its out-pointers.
 */
#include <stdint.h>

#include "api_handle.h"
#include "cpu_reduce.h"
#include "gpu_executor.h"
#include "hipreduce/hipreduce.h"
#include "types.h"

static int bytes_overflow(uint64_t n, size_t elem_size)
{
    return n > UINT64_MAX / elem_size || n > SIZE_MAX / elem_size;
}

/* The checks every call and size query shares, in the header's order, up to the pointers; fills
 * *call's triple, accumulator and n. A size query passes query = 1 (it has no location to check). */
static hipreduce_status validate(hipreduce_handle handle, hr_call_kind kind, int op, int in_dtype, int out_dtype,
                                 uint64_t n, int query, int location, hr_call* call)
{
    if (bad_handle(handle)) return HIPREDUCE_STATUS_INVALID_HANDLE;
    const hipreduce_status st = hr_check_triple(kind, op, in_dtype, out_dtype);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    if (!query) {
        if (location != HIPREDUCE_RESULT_HOST && location != HIPREDUCE_RESULT_DEVICE)
            return HIPREDUCE_STATUS_INVALID_LOCATION;
        if (location == HIPREDUCE_RESULT_DEVICE && handle->gpu == NULL) return HIPREDUCE_STATUS_INVALID_LOCATION;
    }
    call->op = op;
    call->in_dtype = in_dtype;
    call->out_dtype = out_dtype;
    call->acc = hr_acc_of(op, in_dtype, out_dtype);
    call->x = call->y = NULL;
    call->n = n;
    call->result = NULL;
    call->index = NULL;
    call->location = query ? HIPREDUCE_RESULT_HOST : (hipreduce_location)location;
    call->shape = HR_SHAPE_FULL;
    call->outer = call->inner = 1;
    call->extent = n;
    call->num_segments = 0;
    call->offsets = NULL;
    return HIPREDUCE_STATUS_SUCCESS;
}

/* a * b, or 0 with *overflow set when it does not fit in 64 bits. */
static uint64_t mul_checked(uint64_t a, uint64_t b, int* overflow)
{
    if (a != 0 && b > UINT64_MAX / a) {
        *overflow = 1;
        return 0;
    }
    return a * b;
}

/* The shape part of an axis call's validation: n and the byte counts of the input and of the
 * outer * inner results (and indices). */
static hipreduce_status axis_shape(hr_call* call, uint64_t outer, uint64_t extent, uint64_t inner)
{
    int overflow = 0;
    const uint64_t results = mul_checked(outer, inner, &overflow);
    call->shape = HR_SHAPE_AXIS;
    call->outer = outer;
    call->extent = extent;
    call->inner = inner;
    call->n = mul_checked(results, extent, &overflow);
    if (overflow || bytes_overflow(results, 8)) return HIPREDUCE_STATUS_SIZE_OVERFLOW;
    return HIPREDUCE_STATUS_SUCCESS;
}

static hipreduce_status segments_shape(hr_call* call, uint64_t num_segments)
{
    call->shape = HR_SHAPE_SEGMENTS;
    call->num_segments = num_segments;
    call->n = 0;
    if (num_segments == UINT64_MAX || bytes_overflow(num_segments + 1, sizeof(uint64_t)))
        return HIPREDUCE_STATUS_SIZE_OVERFLOW;
    return HIPREDUCE_STATUS_SUCCESS;
}

/* Host-memory offsets (CPU handles): non-decreasing, and the input they span fits in bytes. */
static hipreduce_status check_host_offsets(const hr_call* call)
{
    const uint64_t* o = call->offsets;
    for (uint64_t s = 0; s < call->num_segments; ++s)
        if (o[s + 1] < o[s]) return HIPREDUCE_STATUS_INVALID_OFFSETS;
    if (call->num_segments && bytes_overflow(o[call->num_segments], (size_t)hr_dtype_bytes(call->in_dtype)))
        return HIPREDUCE_STATUS_SIZE_OVERFLOW;
    return HIPREDUCE_STATUS_SUCCESS;
}

/* After the pointers: the byte count, then the executor. */
static hipreduce_status run(hipreduce_handle handle, const hr_call* call)
{
    if (bytes_overflow(call->n, (size_t)hr_dtype_bytes(call->in_dtype))) return HIPREDUCE_STATUS_SIZE_OVERFLOW;
    if (handle->cpu) {
        if (call->shape == HR_SHAPE_SEGMENTS) {
            const hipreduce_status st = check_host_offsets(call);
            if (st != HIPREDUCE_STATUS_SUCCESS) return st;
        }
        return hr_cpu_run(handle->cpu, call);
    }
    return hr_gpu_run(handle->gpu, handle->algorithm, call);
}

static hipreduce_status size_query(hipreduce_handle handle, const hr_call* call, size_t* bytes)
{
    if (bytes == NULL) return HIPREDUCE_STATUS_INVALID_POINTER;
    if (bytes_overflow(call->n, (size_t)hr_dtype_bytes(call->in_dtype))) return HIPREDUCE_STATUS_SIZE_OVERFLOW;
    if (handle->cpu) {
        *bytes = hr_cpu_workspace_size(call);
        return HIPREDUCE_STATUS_SUCCESS;
    }
    return hr_gpu_workspace_size(handle->gpu, handle->algorithm, call, bytes);
}

hipreduce_status hipreduce_reduce(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype in_dtype,
                                  const void* input, uint64_t n, hipreduce_dtype out_dtype, void* result,
                                  hipreduce_location location)
{
    hr_call call;
    const hipreduce_status st =
        validate(handle, HR_CALL_REDUCE, (int)op, (int)in_dtype, (int)out_dtype, n, 0, (int)location, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    if (result == NULL || (input == NULL && n > 0)) return HIPREDUCE_STATUS_INVALID_POINTER;
    call.x = input;
    call.result = result;
    return run(handle, &call);
}

hipreduce_status hipreduce_argreduce(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype dtype,
                                     const void* input, uint64_t n, void* value, int64_t* index,
                                     hipreduce_location location)
{
    hr_call call;
    const hipreduce_status st =
        validate(handle, HR_CALL_ARGREDUCE, (int)op, (int)dtype, (int)dtype, n, 0, (int)location, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    if (value == NULL || index == NULL || (input == NULL && n > 0)) return HIPREDUCE_STATUS_INVALID_POINTER;
    call.x = input;
    call.result = value;
    call.index = index;
    return run(handle, &call);
}

hipreduce_status hipreduce_dot(hipreduce_handle handle, hipreduce_dtype in_dtype, const void* x, const void* y,
                               uint64_t n, hipreduce_dtype out_dtype, void* result, hipreduce_location location)
{
    hr_call call;
    const hipreduce_status st = validate(handle, HR_CALL_DOT, HIPREDUCE_OP_DOT, (int)in_dtype, (int)out_dtype, n,
                                         0, (int)location, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    if (result == NULL || ((x == NULL || y == NULL) && n > 0)) return HIPREDUCE_STATUS_INVALID_POINTER;
    call.x = x;
    call.y = y;
    call.result = result;
    return run(handle, &call);
}

hipreduce_status hipreduce_workspace_size(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype in_dtype,
                                          uint64_t n, hipreduce_dtype out_dtype, size_t* bytes)
{
    hr_call call;
    const hipreduce_status st =
        validate(handle, HR_CALL_REDUCE, (int)op, (int)in_dtype, (int)out_dtype, n, 1, 0, &call);
    return st != HIPREDUCE_STATUS_SUCCESS ? st : size_query(handle, &call, bytes);
}

hipreduce_status hipreduce_argreduce_workspace_size(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype dtype,
                                                    uint64_t n, size_t* bytes)
{
    hr_call call;
    const hipreduce_status st = validate(handle, HR_CALL_ARGREDUCE, (int)op, (int)dtype, (int)dtype, n, 1, 0, &call);
    return st != HIPREDUCE_STATUS_SUCCESS ? st : size_query(handle, &call, bytes);
}

hipreduce_status hipreduce_dot_workspace_size(hipreduce_handle handle, hipreduce_dtype in_dtype, uint64_t n,
                                              hipreduce_dtype out_dtype, size_t* bytes)
{
    hr_call call;
    const hipreduce_status st =
        validate(handle, HR_CALL_DOT, HIPREDUCE_OP_DOT, (int)in_dtype, (int)out_dtype, n, 1, 0, &call);
    return st != HIPREDUCE_STATUS_SUCCESS ? st : size_query(handle, &call, bytes);
}

hipreduce_status hipreduce_reduce_axis(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype in_dtype,
                                       const void* input, uint64_t outer, uint64_t extent, uint64_t inner,
                                       hipreduce_dtype out_dtype, void* results, hipreduce_location location)
{
    hr_call call;
    hipreduce_status st =
        validate(handle, HR_CALL_REDUCE, (int)op, (int)in_dtype, (int)out_dtype, 0, 0, (int)location, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    int overflow = 0;
    const uint64_t n = mul_checked(mul_checked(outer, extent, &overflow), inner, &overflow);
    if (results == NULL || (input == NULL && (n > 0 || overflow))) return HIPREDUCE_STATUS_INVALID_POINTER;
    if ((st = axis_shape(&call, outer, extent, inner)) != HIPREDUCE_STATUS_SUCCESS) return st;
    call.x = input;
    call.result = results;
    return run(handle, &call);
}

hipreduce_status hipreduce_argreduce_axis(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype dtype,
                                          const void* input, uint64_t outer, uint64_t extent, uint64_t inner,
                                          void* values, int64_t* indices, hipreduce_location location)
{
    hr_call call;
    hipreduce_status st =
        validate(handle, HR_CALL_ARGREDUCE, (int)op, (int)dtype, (int)dtype, 0, 0, (int)location, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    int overflow = 0;
    const uint64_t n = mul_checked(mul_checked(outer, extent, &overflow), inner, &overflow);
    if (values == NULL || indices == NULL || (input == NULL && (n > 0 || overflow)))
        return HIPREDUCE_STATUS_INVALID_POINTER;
    if ((st = axis_shape(&call, outer, extent, inner)) != HIPREDUCE_STATUS_SUCCESS) return st;
    call.x = input;
    call.result = values;
    call.index = indices;
    return run(handle, &call);
}

hipreduce_status hipreduce_reduce_segments(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype in_dtype,
                                           const void* input, uint64_t num_segments, const uint64_t* offsets,
                                           hipreduce_dtype out_dtype, void* results, hipreduce_location location)
{
    hr_call call;
    hipreduce_status st =
        validate(handle, HR_CALL_REDUCE, (int)op, (int)in_dtype, (int)out_dtype, 0, 0, (int)location, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    if (results == NULL || (num_segments > 0 && (input == NULL || offsets == NULL)))
        return HIPREDUCE_STATUS_INVALID_POINTER;
    if ((st = segments_shape(&call, num_segments)) != HIPREDUCE_STATUS_SUCCESS) return st;
    call.x = input;
    call.offsets = offsets;
    call.result = results;
    return run(handle, &call);
}

hipreduce_status hipreduce_argreduce_segments(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype dtype,
                                              const void* input, uint64_t num_segments, const uint64_t* offsets,
                                              void* values, int64_t* indices, hipreduce_location location)
{
    hr_call call;
    hipreduce_status st =
        validate(handle, HR_CALL_ARGREDUCE, (int)op, (int)dtype, (int)dtype, 0, 0, (int)location, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    if (values == NULL || indices == NULL || (num_segments > 0 && (input == NULL || offsets == NULL)))
        return HIPREDUCE_STATUS_INVALID_POINTER;
    if ((st = segments_shape(&call, num_segments)) != HIPREDUCE_STATUS_SUCCESS) return st;
    call.x = input;
    call.offsets = offsets;
    call.result = values;
    call.index = indices;
    return run(handle, &call);
}

hipreduce_status hipreduce_reduce_axis_workspace_size(hipreduce_handle handle, hipreduce_op op,
                                                      hipreduce_dtype in_dtype, uint64_t outer, uint64_t extent,
                                                      uint64_t inner, hipreduce_dtype out_dtype, size_t* bytes)
{
    hr_call call;
    hipreduce_status st = validate(handle, HR_CALL_REDUCE, (int)op, (int)in_dtype, (int)out_dtype, 0, 1, 0, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    if (bytes == NULL) return HIPREDUCE_STATUS_INVALID_POINTER;
    if ((st = axis_shape(&call, outer, extent, inner)) != HIPREDUCE_STATUS_SUCCESS) return st;
    return size_query(handle, &call, bytes);
}

hipreduce_status hipreduce_argreduce_axis_workspace_size(hipreduce_handle handle, hipreduce_op op,
                                                         hipreduce_dtype dtype, uint64_t outer, uint64_t extent,
                                                         uint64_t inner, size_t* bytes)
{
    hr_call call;
    hipreduce_status st = validate(handle, HR_CALL_ARGREDUCE, (int)op, (int)dtype, (int)dtype, 0, 1, 0, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    if (bytes == NULL) return HIPREDUCE_STATUS_INVALID_POINTER;
    if ((st = axis_shape(&call, outer, extent, inner)) != HIPREDUCE_STATUS_SUCCESS) return st;
    return size_query(handle, &call, bytes);
}

hipreduce_status hipreduce_reduce_segments_workspace_size(hipreduce_handle handle, hipreduce_op op,
                                                          hipreduce_dtype in_dtype, uint64_t num_segments,
                                                          hipreduce_dtype out_dtype, size_t* bytes)
{
    hr_call call;
    hipreduce_status st = validate(handle, HR_CALL_REDUCE, (int)op, (int)in_dtype, (int)out_dtype, 0, 1, 0, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    if (bytes == NULL) return HIPREDUCE_STATUS_INVALID_POINTER;
    if ((st = segments_shape(&call, num_segments)) != HIPREDUCE_STATUS_SUCCESS) return st;
    return size_query(handle, &call, bytes);
}

hipreduce_status hipreduce_argreduce_segments_workspace_size(hipreduce_handle handle, hipreduce_op op,
                                                             hipreduce_dtype dtype, uint64_t num_segments,
                                                             size_t* bytes)
{
    hr_call call;
    hipreduce_status st = validate(handle, HR_CALL_ARGREDUCE, (int)op, (int)dtype, (int)dtype, 0, 1, 0, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    if (bytes == NULL) return HIPREDUCE_STATUS_INVALID_POINTER;
    if ((st = segments_shape(&call, num_segments)) != HIPREDUCE_STATUS_SUCCESS) return st;
    return size_query(handle, &call, bytes);
}
