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
 * - A failing call writes nothing through its out-pointers, and leaves a sentence on the handle
 *   (hipreduce_last_error_message) naming the argument and what would be accepted.
 * - Each public call is a guarded body (HR_GUARDED, api_handle.h): tag, in-use flag, message.
 */
#include <inttypes.h>
#include <stdint.h>

#include "api_call.h"
#include "api_handle.h"
#include "cpu_reduce.h"
#include "gpu_executor.h"
#include "partials.h"
#include "hipreduce/hipreduce.h"
#include "types.h"

int hr_bytes_overflow(uint64_t n, size_t elem_size)
{
    return n > UINT64_MAX / elem_size || n > SIZE_MAX / elem_size;
}

/* The checks every call and size query shares, in the header's order, up to the pointers; fills
 * *call's triple, accumulator and n. A size query passes query = 1 (it has no location to check). */
hipreduce_status hr_api_validate(hipreduce_handle handle, hr_call_kind kind, int op, int in_dtype, int out_dtype,
                                 uint64_t n, int query, int location, hr_call* call)
{
    const hipreduce_status st =
        hr_explain_triple(kind, op, in_dtype, out_dtype, handle->message, sizeof handle->message);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    if (!query) {
        if (location != HIPREDUCE_RESULT_HOST && location != HIPREDUCE_RESULT_DEVICE)
            return hr_fail(handle, HIPREDUCE_STATUS_INVALID_LOCATION,
                           "location %d is neither HIPREDUCE_RESULT_HOST (0) nor HIPREDUCE_RESULT_DEVICE (1)", location);
        if (location == HIPREDUCE_RESULT_DEVICE && handle->gpu == NULL)
            return hr_fail(handle, HIPREDUCE_STATUS_INVALID_LOCATION,
                           "HIPREDUCE_RESULT_DEVICE needs a GPU handle: this handle is on the cpu device (use HIPREDUCE_RESULT_HOST)");
    }
    call->op = op;
    call->in_dtype = in_dtype;
    call->out_dtype = out_dtype;
    call->acc = hr_acc_of(op, in_dtype, out_dtype);
    call->x = call->y = NULL;
    call->n = n;
    call->result = NULL;
    call->index = NULL;
    call->result2 = NULL;
    call->correction = 0;
    call->location = query ? HIPREDUCE_RESULT_HOST : (hipreduce_location)location;
    call->shape = HR_SHAPE_FULL;
    call->outer = call->inner = 1;
    call->extent = n;
    call->num_segments = 0;
    call->offsets = NULL;
    call->accumulators = 0;
    return HIPREDUCE_STATUS_SUCCESS;
}

/* a * b, or 0 with *overflow set when it does not fit in 64 bits. */
uint64_t hr_mul_checked(uint64_t a, uint64_t b, int* overflow)
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
    const uint64_t results = hr_mul_checked(outer, inner, &overflow);
    call->shape = HR_SHAPE_AXIS;
    call->outer = outer;
    call->extent = extent;
    call->inner = inner;
    call->n = hr_mul_checked(results, extent, &overflow);
    if (overflow || hr_bytes_overflow(results, 8)) return HIPREDUCE_STATUS_SIZE_OVERFLOW;
    return HIPREDUCE_STATUS_SUCCESS;
}

/* The message of a shape's overflow: its sizes. */
hipreduce_status hr_shape_overflow(hipreduce_handle handle, const hr_call* call)
{
    if (call->shape == HR_SHAPE_SEGMENTS)
        return hr_fail(handle, HIPREDUCE_STATUS_SIZE_OVERFLOW, "num_segments = %" PRIu64 ": its offsets overflow the byte count",
                       call->num_segments);
    return hr_fail(handle, HIPREDUCE_STATUS_SIZE_OVERFLOW,
                   "outer %" PRIu64 " x extent %" PRIu64 " x inner %" PRIu64 " elements overflow the byte count",
                   call->outer, call->extent, call->inner);
}

hipreduce_status hr_segments_shape(hr_call* call, uint64_t num_segments)
{
    call->shape = HR_SHAPE_SEGMENTS;
    call->num_segments = num_segments;
    call->n = 0;
    call->length = UINT64_MAX;
    if (num_segments == UINT64_MAX || hr_bytes_overflow(num_segments + 1, sizeof(uint64_t)))
        return HIPREDUCE_STATUS_SIZE_OVERFLOW;
    return HIPREDUCE_STATUS_SUCCESS;
}

/* Host-memory offsets (CPU handles): non-decreasing, and the input they span fits in bytes. */
static hipreduce_status check_host_offsets(hipreduce_handle handle, const hr_call* call)
{
    const uint64_t* o = call->offsets;
    for (uint64_t s = 0; s < call->num_segments; ++s)
        if (o[s + 1] < o[s])
            return hr_fail(handle, HIPREDUCE_STATUS_INVALID_OFFSETS,
                           "offsets decrease at segment %" PRIu64 ": offsets[%" PRIu64 "] = %" PRIu64 " > offsets[%" PRIu64
                           "] = %" PRIu64 " (they must not decrease)",
                           s, s, o[s], s + 1, o[s + 1]);
    if (call->num_segments && hr_bytes_overflow(o[call->num_segments], (size_t)hr_dtype_bytes(call->in_dtype)))
        return hr_fail(handle, HIPREDUCE_STATUS_SIZE_OVERFLOW, "offsets[num_segments] = %" PRIu64 " elements of %s overflow the byte count",
                       o[call->num_segments], hr_dtype_name(call->in_dtype));
    if (call->num_segments && call->length != UINT64_MAX && o[call->num_segments] > call->length)
        return hr_fail(handle, HIPREDUCE_STATUS_INVALID_OFFSETS,
                       "offsets[num_segments] = %" PRIu64 " lies past the input's length %" PRIu64,
                       o[call->num_segments], call->length);
    return HIPREDUCE_STATUS_SUCCESS;
}

/* n elements of the input dtype overflowing the byte count. */
static hipreduce_status n_overflow(hipreduce_handle handle, const hr_call* call)
{
    return hr_fail(handle, HIPREDUCE_STATUS_SIZE_OVERFLOW, "n = %" PRIu64 " elements of %s overflow the byte count",
                   call->n, hr_dtype_name(call->in_dtype));
}

/* A NULL pointer argument. */
hipreduce_status hr_null_pointer(hipreduce_handle handle, const char* name, uint64_t n)
{
    if (n == UINT64_MAX) return hr_fail(handle, HIPREDUCE_STATUS_INVALID_POINTER, "%s is NULL", name);
    return hr_fail(handle, HIPREDUCE_STATUS_INVALID_POINTER, "%s is NULL with %" PRIu64 " elements to read", name, n);
}

/* A complex exact sum as the real one over its (re, im) view (api_complex.c), in *real. */
static hipreduce_status complex_exact(hipreduce_handle handle, const hr_call** call, hr_call* real)
{
    if (hr_op_combine((*call)->op) != HR_CB_EXACT || !hr_dtype_is_complex((*call)->in_dtype)) return HIPREDUCE_STATUS_SUCCESS;
    if (!hr_complex_exact_view(*call, real))
        return hr_fail(handle, HIPREDUCE_STATUS_NOT_SUPPORTED,
                       "sum_exact of %s: the tensor's complex view needs one dimension more than HIPREDUCE_MAX_RANK",
                       hr_dtype_name((*call)->in_dtype));
    *call = real;
    return HIPREDUCE_STATUS_SUCCESS;
}

/* After the pointers: the byte count, then the executor. */
hipreduce_status hr_api_run(hipreduce_handle handle, const hr_call* call)
{
    if (hr_bytes_overflow(call->n, (size_t)hr_dtype_bytes(call->in_dtype))) return n_overflow(handle, call);
    if (handle->cpu && call->shape == HR_SHAPE_SEGMENTS) { /* the offsets as the caller gave them */
        const hipreduce_status st = check_host_offsets(handle, call);
        if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    }
    hr_call real;
    const hipreduce_status view = complex_exact(handle, &call, &real);
    if (view != HIPREDUCE_STATUS_SUCCESS) return view;
    if (handle->cpu) return hr_executor_status(handle, hr_cpu_run(handle->cpu, call));
    return hr_executor_status(handle, hr_gpu_run(handle->gpu, handle->algorithm, call));
}

hipreduce_status hr_api_size_query(hipreduce_handle handle, const hr_call* call, size_t* bytes)
{
    if (bytes == NULL) return hr_null_pointer(handle, "bytes", HR_ANY);
    if (hr_bytes_overflow(call->n, (size_t)hr_dtype_bytes(call->in_dtype))) return n_overflow(handle, call);
    hr_call real;
    const hipreduce_status view = complex_exact(handle, &call, &real);
    if (view != HIPREDUCE_STATUS_SUCCESS) return view;
    if (handle->cpu) {
        *bytes = hr_cpu_workspace_size(call);
        return HIPREDUCE_STATUS_SUCCESS;
    }
    return hr_executor_status(handle, hr_gpu_workspace_size(handle->gpu, handle->algorithm, call, bytes));
}

/* ---- the calls: each body below runs inside its public function's HR_GUARDED ---- */

static hipreduce_status reduce_body(hipreduce_handle handle, int op, int in_dtype, const void* input, uint64_t n,
                                    int out_dtype, void* result, int location)
{
    hr_call call;
    const hipreduce_status st = hr_api_validate(handle, HR_CALL_REDUCE, op, in_dtype, out_dtype, n, 0, location, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    if (result == NULL) return hr_null_pointer(handle, "result", HR_ANY);
    if (input == NULL && n > 0) return hr_null_pointer(handle, "input", n);
    call.x = input;
    call.result = result;
    return hr_api_run(handle, &call);
}

static hipreduce_status argreduce_body(hipreduce_handle handle, int op, int dtype, const void* input, uint64_t n,
                                       void* value, int64_t* index, int location)
{
    hr_call call;
    const hipreduce_status st = hr_api_validate(handle, HR_CALL_ARGREDUCE, op, dtype, dtype, n, 0, location, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    if (value == NULL) return hr_null_pointer(handle, "value", HR_ANY);
    if (index == NULL) return hr_null_pointer(handle, "index", HR_ANY);
    if (input == NULL && n > 0) return hr_null_pointer(handle, "input", n);
    call.x = input;
    call.result = value;
    call.index = index;
    return hr_api_run(handle, &call);
}

static hipreduce_status dot_body(hipreduce_handle handle, int op, int in_dtype, const void* x, const void* y,
                                 uint64_t n, int out_dtype, void* result, int location)
{
    hr_call call;
    const hipreduce_status st = hr_api_validate(handle, HR_CALL_DOT, op, in_dtype, out_dtype, n, 0, location, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    if (result == NULL) return hr_null_pointer(handle, "result", HR_ANY);
    if (x == NULL && n > 0) return hr_null_pointer(handle, "x", n);
    if (y == NULL && n > 0) return hr_null_pointer(handle, "y", n);
    call.x = x;
    call.y = y;
    call.result = result;
    return hr_api_run(handle, &call);
}

/* Axis calls, value and argument forms (index NULL and arg 0: the value form). */
static hipreduce_status axis_body(hipreduce_handle handle, hr_call_kind kind, int op, int in_dtype,
                                  const void* input, uint64_t outer, uint64_t extent, uint64_t inner, int out_dtype,
                                  void* results, int64_t* indices, int location)
{
    hr_call call;
    hipreduce_status st = hr_api_validate(handle, kind, op, in_dtype, out_dtype, 0, 0, location, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    int overflow = 0;
    const uint64_t n = hr_mul_checked(hr_mul_checked(outer, extent, &overflow), inner, &overflow);
    if (results == NULL) return hr_null_pointer(handle, kind == HR_CALL_ARGREDUCE ? "values" : "results", HR_ANY);
    if (kind == HR_CALL_ARGREDUCE && indices == NULL) return hr_null_pointer(handle, "indices", HR_ANY);
    if (input == NULL && (n > 0 || overflow)) return hr_null_pointer(handle, "input", n);
    if ((st = axis_shape(&call, outer, extent, inner)) != HIPREDUCE_STATUS_SUCCESS) return hr_shape_overflow(handle, &call);
    call.x = input;
    call.result = results;
    call.index = indices;
    return hr_api_run(handle, &call);
}

static hipreduce_status segments_body(hipreduce_handle handle, hr_call_kind kind, int op, int in_dtype,
                                      const void* input, uint64_t num_segments, const uint64_t* offsets,
                                      int out_dtype, void* results, int64_t* indices, int location)
{
    hr_call call;
    hipreduce_status st = hr_api_validate(handle, kind, op, in_dtype, out_dtype, 0, 0, location, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    if (results == NULL) return hr_null_pointer(handle, kind == HR_CALL_ARGREDUCE ? "values" : "results", HR_ANY);
    if (kind == HR_CALL_ARGREDUCE && indices == NULL) return hr_null_pointer(handle, "indices", HR_ANY);
    if (num_segments > 0 && input == NULL) return hr_fail(handle, HIPREDUCE_STATUS_INVALID_POINTER, "input is NULL with %" PRIu64 " segments", num_segments);
    if (num_segments > 0 && offsets == NULL) return hr_fail(handle, HIPREDUCE_STATUS_INVALID_POINTER, "offsets is NULL with %" PRIu64 " segments", num_segments);
    if ((st = hr_segments_shape(&call, num_segments)) != HIPREDUCE_STATUS_SUCCESS) return hr_shape_overflow(handle, &call);
    call.x = input;
    call.offsets = offsets;
    call.result = results;
    call.index = indices;
    return hr_api_run(handle, &call);
}

/* libhipreduce_mpi's exact sums (partials.h): the axis call's (a full call: 1, n, 1; dot: x and y,
 * outer and inner ignored) accumulators as words on the host instead of rounded results. */
static hipreduce_status exact_words_body(hipreduce_handle handle, int op, int in_dtype, const void* x, const void* y,
                                         uint64_t outer, uint64_t extent, uint64_t inner, int64_t* words)
{
    hr_call call;
    const int dot = op == HIPREDUCE_OP_DOT_EXACT;
    if (hr_dtype_is_complex(in_dtype)) /* before the triple: its words are those of an f64 result */
        return hr_fail(handle, HIPREDUCE_STATUS_NOT_SUPPORTED, "%s of %s: the MPI component's exact sums take real inputs",
                       hr_op_name(op) ? hr_op_name(op) : "an exact sum", hr_dtype_name(in_dtype));
    hipreduce_status st = hr_api_validate(handle, dot ? HR_CALL_DOT : HR_CALL_REDUCE, op, in_dtype, HIPREDUCE_F64, extent, 0,
                                   HIPREDUCE_RESULT_HOST, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    if (hr_op_combine(op) != HR_CB_EXACT) return hr_fail(handle, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, "%s is not an exact sum", hr_op_name(op));
    if (words == NULL) return hr_null_pointer(handle, "words", HR_ANY);
    if ((st = axis_shape(&call, dot ? 1 : outer, extent, dot ? 1 : inner)) != HIPREDUCE_STATUS_SUCCESS)
        return hr_shape_overflow(handle, &call);
    if ((x == NULL || (dot && y == NULL)) && call.n > 0) return hr_null_pointer(handle, "input", call.n);
    call.x = x;
    call.y = dot ? y : NULL;
    call.result = words;
    call.accumulators = 1;
    return hr_api_run(handle, &call);
}

hipreduce_status hr_internal_partials_exact(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype in_dtype,
                                          const void* x, const void* y, uint64_t outer, uint64_t extent,
                                          uint64_t inner, int64_t* words)
{
    HR_GUARDED(handle, exact_words_body(handle, (int)op, (int)in_dtype, x, y, outer, extent, inner, words));
}

/* Size queries: kind, triple and shape (HR_SHAPE_FULL: n; AXIS: outer/extent/inner; SEGMENTS:
 * num_segments in outer). */
static hipreduce_status query_body(hipreduce_handle handle, hr_call_kind kind, int op, int in_dtype, int out_dtype,
                                   int shape, uint64_t a, uint64_t extent, uint64_t inner, size_t* bytes)
{
    hr_call call;
    hipreduce_status st = hr_api_validate(handle, kind, op, in_dtype, out_dtype, shape == HR_SHAPE_FULL ? a : 0, 1, 0, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    if (bytes == NULL) return hr_null_pointer(handle, "bytes", HR_ANY);
    if (shape == HR_SHAPE_AXIS) st = axis_shape(&call, a, extent, inner);
    if (shape == HR_SHAPE_SEGMENTS) st = hr_segments_shape(&call, a);
    if (st != HIPREDUCE_STATUS_SUCCESS) return hr_shape_overflow(handle, &call);
    return hr_api_size_query(handle, &call, bytes);
}

/* ---- the public functions ---- */

hipreduce_status hipreduce_reduce(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype in_dtype,
                                  const void* input, uint64_t n, hipreduce_dtype out_dtype, void* result,
                                  hipreduce_location location)
{
    HR_GUARDED(handle, reduce_body(handle, (int)op, (int)in_dtype, input, n, (int)out_dtype, result, (int)location));
}

hipreduce_status hipreduce_argreduce(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype dtype,
                                     const void* input, uint64_t n, void* value, int64_t* index,
                                     hipreduce_location location)
{
    HR_GUARDED(handle, argreduce_body(handle, (int)op, (int)dtype, input, n, value, index, (int)location));
}

hipreduce_status hipreduce_dot(hipreduce_handle handle, hipreduce_dtype in_dtype, const void* x, const void* y,
                               uint64_t n, hipreduce_dtype out_dtype, void* result, hipreduce_location location)
{
    HR_GUARDED(handle, dot_body(handle, HIPREDUCE_OP_DOT, (int)in_dtype, x, y, n, (int)out_dtype, result, (int)location));
}

hipreduce_status hipreduce_dot_op(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype in_dtype, const void* x,
                                  const void* y, uint64_t n, hipreduce_dtype out_dtype, void* result,
                                  hipreduce_location location)
{
    HR_GUARDED(handle, dot_body(handle, (int)op, (int)in_dtype, x, y, n, (int)out_dtype, result, (int)location));
}

hipreduce_status hipreduce_reduce_axis(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype in_dtype,
                                       const void* input, uint64_t outer, uint64_t extent, uint64_t inner,
                                       hipreduce_dtype out_dtype, void* results, hipreduce_location location)
{
    HR_GUARDED(handle, axis_body(handle, HR_CALL_REDUCE, (int)op, (int)in_dtype, input, outer, extent, inner,
                                 (int)out_dtype, results, NULL, (int)location));
}

hipreduce_status hipreduce_argreduce_axis(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype dtype,
                                          const void* input, uint64_t outer, uint64_t extent, uint64_t inner,
                                          void* values, int64_t* indices, hipreduce_location location)
{
    HR_GUARDED(handle, axis_body(handle, HR_CALL_ARGREDUCE, (int)op, (int)dtype, input, outer, extent, inner,
                                 (int)dtype, values, indices, (int)location));
}

hipreduce_status hipreduce_reduce_segments(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype in_dtype,
                                           const void* input, uint64_t num_segments, const uint64_t* offsets,
                                           hipreduce_dtype out_dtype, void* results, hipreduce_location location)
{
    HR_GUARDED(handle, segments_body(handle, HR_CALL_REDUCE, (int)op, (int)in_dtype, input, num_segments, offsets,
                                     (int)out_dtype, results, NULL, (int)location));
}

hipreduce_status hipreduce_argreduce_segments(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype dtype,
                                              const void* input, uint64_t num_segments, const uint64_t* offsets,
                                              void* values, int64_t* indices, hipreduce_location location)
{
    HR_GUARDED(handle, segments_body(handle, HR_CALL_ARGREDUCE, (int)op, (int)dtype, input, num_segments, offsets,
                                     (int)dtype, values, indices, (int)location));
}

hipreduce_status hipreduce_workspace_size(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype in_dtype,
                                          uint64_t n, hipreduce_dtype out_dtype, size_t* bytes)
{
    HR_GUARDED(handle, query_body(handle, HR_CALL_REDUCE, (int)op, (int)in_dtype, (int)out_dtype, HR_SHAPE_FULL, n, 0,
                                  0, bytes));
}

hipreduce_status hipreduce_argreduce_workspace_size(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype dtype,
                                                    uint64_t n, size_t* bytes)
{
    HR_GUARDED(handle,
               query_body(handle, HR_CALL_ARGREDUCE, (int)op, (int)dtype, (int)dtype, HR_SHAPE_FULL, n, 0, 0, bytes));
}

hipreduce_status hipreduce_dot_workspace_size(hipreduce_handle handle, hipreduce_dtype in_dtype, uint64_t n,
                                              hipreduce_dtype out_dtype, size_t* bytes)
{
    HR_GUARDED(handle, query_body(handle, HR_CALL_DOT, HIPREDUCE_OP_DOT, (int)in_dtype, (int)out_dtype, HR_SHAPE_FULL,
                                  n, 0, 0, bytes));
}

hipreduce_status hipreduce_dot_op_workspace_size(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype in_dtype,
                                                 uint64_t n, hipreduce_dtype out_dtype, size_t* bytes)
{
    HR_GUARDED(handle, query_body(handle, HR_CALL_DOT, (int)op, (int)in_dtype, (int)out_dtype, HR_SHAPE_FULL, n, 0, 0,
                                  bytes));
}

hipreduce_status hipreduce_reduce_axis_workspace_size(hipreduce_handle handle, hipreduce_op op,
                                                      hipreduce_dtype in_dtype, uint64_t outer, uint64_t extent,
                                                      uint64_t inner, hipreduce_dtype out_dtype, size_t* bytes)
{
    HR_GUARDED(handle, query_body(handle, HR_CALL_REDUCE, (int)op, (int)in_dtype, (int)out_dtype, HR_SHAPE_AXIS, outer,
                                  extent, inner, bytes));
}

hipreduce_status hipreduce_argreduce_axis_workspace_size(hipreduce_handle handle, hipreduce_op op,
                                                         hipreduce_dtype dtype, uint64_t outer, uint64_t extent,
                                                         uint64_t inner, size_t* bytes)
{
    HR_GUARDED(handle, query_body(handle, HR_CALL_ARGREDUCE, (int)op, (int)dtype, (int)dtype, HR_SHAPE_AXIS, outer,
                                  extent, inner, bytes));
}

hipreduce_status hipreduce_reduce_segments_workspace_size(hipreduce_handle handle, hipreduce_op op,
                                                          hipreduce_dtype in_dtype, uint64_t num_segments,
                                                          hipreduce_dtype out_dtype, size_t* bytes)
{
    HR_GUARDED(handle, query_body(handle, HR_CALL_REDUCE, (int)op, (int)in_dtype, (int)out_dtype, HR_SHAPE_SEGMENTS,
                                  num_segments, 0, 0, bytes));
}

hipreduce_status hipreduce_argreduce_segments_workspace_size(hipreduce_handle handle, hipreduce_op op,
                                                             hipreduce_dtype dtype, uint64_t num_segments,
                                                             size_t* bytes)
{
    HR_GUARDED(handle, query_body(handle, HR_CALL_ARGREDUCE, (int)op, (int)dtype, (int)dtype, HR_SHAPE_SEGMENTS,
                                  num_segments, 0, 0, bytes));
}
