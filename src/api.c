/* The C API: argument validation, the handle, and dispatch to the CPU or GPU executor.
 *
 * Decisions beyond the public header:
 * - Validation order of every call (the first failing check decides the status): handle, op,
 *   input dtype, result dtype, the triple (types.c, from device/op_table.h's rows; an op of
 *   another call is OP_DTYPE_MISMATCH), location (DEVICE on a CPU handle is invalid), pointers
 *   (result, value, index; input, x, y when n > 0), n * sizeof(in_dtype) overflowing uint64_t
 *   or size_t. The size queries check the same, minus location, with `bytes` as the pointer.
 *   The executors take the validated call as one hr_call (types.h).
 * - A failing call writes nothing through its out-pointers (hipreduce_create leaves *handle).
 * - CPU handles: any valid algorithm (study ones included) and block size is accepted and
 *   remembered (get_algorithm returns it), but the CPU always runs AUTO's order, so every
 *   algorithm gives AUTO's bits. The stream is ignored (calls return when the result is
 *   written). The executor (cpu_reduce.h) owns a pool of threads, started by the first call
 *   with enough work for more than one and joined by destroy or by a changed thread count;
 *   its workspace is host memory: the tile partials of level 1 (workspace_size reports them,
 *   0 when one tile covers n), handle-owned and grown on demand, or the caller's (any
 *   alignment, no initialisation; too small is WORKSPACE_TOO_SMALL). A forked child must not
 *   use a CPU handle created before the fork (its pool's threads do not exist there).
 * - set_threads / get_threads: GPU handles accept and ignore the count and report 0.
 * - set_workspace: NULL with bytes > 0 is INVALID_POINTER; a non-NULL workspace of 0 bytes is a
 *   (too small) caller workspace; NULL with 0 returns to the handle-owned workspace.
 * - hipreduce_last_error_message: "" for NULL and CPU handles (the CPU has no runtime errors);
 *   the GPU executor's message otherwise.
 * - Handle tag: every entry point checks it first (bad_handle); destroy of a bad handle returns
 *   INVALID_HANDLE and frees nothing. For a destroyed handle this is a best effort: reading freed
 *   memory is still undefined and the allocator may have reused it, but the common mistake (a
 *   second destroy, a call after destroy) usually meets the cleared tag and gets a status.
 * - Creation errors are kept in thread-local storage (hipreduce_create_error_message), since no
 *   handle exists to carry them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu_reduce.h"
#include "gpu_executor.h"
#include "hipreduce/hipreduce.h"
#include "types.h"

/* Every live handle carries this tag; destroy clears it before freeing, so a destroyed or
 * foreign pointer passed by mistake is INVALID_HANDLE wherever its memory no longer holds it. */
#define HR_HANDLE_TAG UINT64_C(0x68697072656475ce) /* "hipredu" + 0xce */

struct hipreduce_handle_s {
    uint64_t tag;
    hipreduce_algorithm algorithm;
    hr_gpu* gpu; /* NULL on the CPU device */
    hr_cpu* cpu; /* NULL on a GPU device */
};

static int bytes_overflow(uint64_t n, size_t elem_size)
{
    return n > UINT64_MAX / elem_size || n > SIZE_MAX / elem_size;
}

static int bad_handle(hipreduce_handle handle) { return handle == NULL || handle->tag != HR_HANDLE_TAG; }

/* Why the last hipreduce_create / hipreduce_get_device_count of this thread failed. */
static _Thread_local char create_error[256];

const char* hipreduce_create_error_message(void) { return create_error; }

const char* hipreduce_backend_name(void) { return hr_gpu_backend_name(); }

hipreduce_status hipreduce_get_device_count(int* count)
{
    if (count == NULL) return HIPREDUCE_STATUS_INVALID_POINTER;
    create_error[0] = '\0';
    *count = hr_gpu_count(create_error, sizeof create_error);
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hipreduce_create(hipreduce_handle* handle, hipreduce_device_kind kind, int device_ordinal)
{
    create_error[0] = '\0';
    if (handle == NULL) {
        snprintf(create_error, sizeof create_error, "handle out-pointer is NULL");
        return HIPREDUCE_STATUS_INVALID_POINTER;
    }
    if (kind != HIPREDUCE_DEVICE_CPU && kind != HIPREDUCE_DEVICE_GPU) {
        snprintf(create_error, sizeof create_error, "unknown device kind %d", (int)kind);
        return HIPREDUCE_STATUS_INVALID_DEVICE;
    }
    if (kind == HIPREDUCE_DEVICE_GPU) {
        const int count = hr_gpu_count(create_error, sizeof create_error);
        if (device_ordinal < 0 || device_ordinal >= count) {
            if (create_error[0] == '\0')
                snprintf(create_error, sizeof create_error, "device ordinal %d out of range (%d GPU%s, %s backend)",
                         device_ordinal, count, count == 1 ? "" : "s", hr_gpu_backend_name());
            return HIPREDUCE_STATUS_INVALID_DEVICE;
        }
    }
    struct hipreduce_handle_s* h = (struct hipreduce_handle_s*)calloc(1, sizeof *h);
    if (h == NULL) {
        snprintf(create_error, sizeof create_error, "host allocation of the handle failed");
        return HIPREDUCE_STATUS_ALLOCATION_FAILED;
    }
    h->tag = HR_HANDLE_TAG;
    h->algorithm = HIPREDUCE_ALGORITHM_AUTO;
    if (kind == HIPREDUCE_DEVICE_GPU) {
        const hipreduce_status st = hr_gpu_create(device_ordinal, &h->gpu, create_error, sizeof create_error);
        if (st != HIPREDUCE_STATUS_SUCCESS) {
            free(h);
            return st;
        }
    } else if (hr_cpu_create(&h->cpu) != HIPREDUCE_STATUS_SUCCESS) {
        snprintf(create_error, sizeof create_error, "host allocation of the cpu executor failed");
        free(h);
        return HIPREDUCE_STATUS_ALLOCATION_FAILED;
    }
    *handle = h;
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hipreduce_destroy(hipreduce_handle handle)
{
    if (handle == NULL) return HIPREDUCE_STATUS_SUCCESS;
    if (bad_handle(handle)) return HIPREDUCE_STATUS_INVALID_HANDLE;
    handle->tag = 0;
    if (handle->gpu) hr_gpu_destroy(handle->gpu);
    hr_cpu_destroy(handle->cpu);
    free(handle);
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hipreduce_set_stream(hipreduce_handle handle, void* stream)
{
    if (bad_handle(handle)) return HIPREDUCE_STATUS_INVALID_HANDLE;
    return handle->gpu ? hr_gpu_set_stream(handle->gpu, stream) : HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hipreduce_set_algorithm(hipreduce_handle handle, hipreduce_algorithm algorithm)
{
    if (bad_handle(handle)) return HIPREDUCE_STATUS_INVALID_HANDLE;
    if (hr_algorithm_name((int)algorithm) == NULL) return HIPREDUCE_STATUS_INVALID_ALGORITHM;
    handle->algorithm = algorithm;
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hipreduce_get_algorithm(hipreduce_handle handle, hipreduce_algorithm* algorithm)
{
    if (bad_handle(handle)) return HIPREDUCE_STATUS_INVALID_HANDLE;
    if (algorithm == NULL) return HIPREDUCE_STATUS_INVALID_POINTER;
    *algorithm = handle->algorithm;
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hipreduce_set_block_size(hipreduce_handle handle, unsigned threads)
{
    if (bad_handle(handle)) return HIPREDUCE_STATUS_INVALID_HANDLE;
    if (threads != 0 && (threads < 32 || threads > 1024 || (threads & (threads - 1)) != 0))
        return HIPREDUCE_STATUS_INVALID_BLOCK_SIZE;
    if (handle->gpu) hr_gpu_set_block_size(handle->gpu, threads);
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hipreduce_set_threads(hipreduce_handle handle, unsigned threads)
{
    if (bad_handle(handle)) return HIPREDUCE_STATUS_INVALID_HANDLE;
    return handle->cpu ? hr_cpu_set_threads(handle->cpu, threads) : HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hipreduce_get_threads(hipreduce_handle handle, unsigned* threads)
{
    if (bad_handle(handle)) return HIPREDUCE_STATUS_INVALID_HANDLE;
    if (threads == NULL) return HIPREDUCE_STATUS_INVALID_POINTER;
    *threads = handle->cpu ? hr_cpu_threads(handle->cpu) : 0;
    return HIPREDUCE_STATUS_SUCCESS;
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

hipreduce_status hipreduce_set_workspace(hipreduce_handle handle, void* workspace, size_t bytes)
{
    if (bad_handle(handle)) return HIPREDUCE_STATUS_INVALID_HANDLE;
    if (workspace == NULL && bytes > 0) return HIPREDUCE_STATUS_INVALID_POINTER;
    if (handle->cpu) {
        hr_cpu_set_workspace(handle->cpu, workspace, bytes);
        return HIPREDUCE_STATUS_SUCCESS;
    }
    return hr_gpu_set_workspace(handle->gpu, workspace, bytes);
}

const char* hipreduce_last_error_message(hipreduce_handle handle)
{
    if (bad_handle(handle) || handle->gpu == NULL) return "";
    const char* message = hr_gpu_error_message(handle->gpu);
    return message ? message : "";
}
