/* The C API's handle and its settings (api_handle.h): create and destroy, stream, algorithm,
 * block size, threads, workspace, error messages. The calls are api_calls.c's.
 *
 * Decisions beyond the public header:
 * - A failing call writes nothing through its out-pointers (hipreduce_create leaves *handle).
 * - CPU handles: any valid algorithm (study ones included) and block size is accepted and
 *   remembered (get_algorithm returns it), but the CPU always runs AUTO's order, so every
 *   algorithm gives AUTO's bits. The stream is ignored (calls return when the result is
 *   written). The executor (cpu_reduce.h) owns a pool of threads, started by the first call
 *   with enough work for more than one and joined by destroy or by a changed thread count;
 *   its workspace is host memory (hr_cpu_workspace_size: the partial stack of the tile levels,
 *   0 when one tile covers each result), handle-owned and grown on demand, or the caller's (any
 *   alignment, no initialisation; too small is WORKSPACE_TOO_SMALL). A forked child must not
 *   use a CPU handle created before the fork (its pool's threads do not exist there).
 * - set_threads / get_threads: GPU handles accept and ignore the count and report 0.
 * - set_workspace: NULL with bytes > 0 is INVALID_POINTER; a non-NULL workspace of 0 bytes is a
 *   (too small) caller workspace; NULL with 0 returns to the handle-owned workspace.
 * - hipreduce_last_error_message: the handle's message (api_handle.h), which every guarded
 *   entry point clears and a failure writes; "" for NULL and invalid handles.
 * - Every entry point but create and last_error_message takes the handle's in-use flag
 *   (HR_GUARDED); destroy too, so a handle is never freed under a running call.
 * - Handle tag: every entry point checks it first (bad_handle); destroy of a bad handle returns
 *   INVALID_HANDLE and frees nothing. For a destroyed handle this is a best effort: reading freed
 *   memory is still undefined and the allocator may have reused it, but the common mistake (a
 *   second destroy, a call after destroy) usually meets the cleared tag and gets a status.
 * - Creation errors are kept in thread-local storage (hipreduce_create_error_message), since no
 *   handle exists to carry them.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_handle.h"
#include "cpu_reduce.h"
#include "gpu_executor.h"
#include "hipreduce/hipreduce_study.h"
#include "types.h"

hipreduce_status hr_fail(hipreduce_handle handle, hipreduce_status st, const char* format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(handle->message, sizeof handle->message, format, args);
    va_end(args);
    return st;
}

hipreduce_status hr_executor_status(hipreduce_handle handle, hipreduce_status st)
{
    const char* runtime = handle->gpu ? hr_gpu_error_message(handle->gpu) : NULL;
    switch (st) {
    case HIPREDUCE_STATUS_SUCCESS: return st;
    case HIPREDUCE_STATUS_RUNTIME_ERROR:
    case HIPREDUCE_STATUS_ALLOCATION_FAILED:
        if (runtime && runtime[0]) return hr_fail(handle, st, "%s", runtime);
        return hr_fail(handle, st, "%s workspace allocation failed", handle->gpu ? "device" : "host");
    case HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL:
        return hr_fail(handle, st,
                       "the caller workspace (hipreduce_set_workspace) is smaller than this call's size query says; "
                       "set a larger one, or NULL to use the handle's own");
    case HIPREDUCE_STATUS_NOT_SUPPORTED:
        return hr_fail(handle, st,
                       "algorithm %s runs hipreduce_reduce with sum, prod, min, max, and, or or xor and the result in "
                       "the input dtype (not f16/bf16) on a GPU handle%s; HIPREDUCE_ALGORITHM_AUTO runs every call",
                       hr_algorithm_name((int)handle->algorithm),
                       HIPREDUCE_STUDY_ALGORITHMS ? "" : ", and this library was built without the study kernels");
    default: return hr_fail(handle, st, "%s", hipreduce_status_string(st));
    }
}

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
    if (!hr_enter(handle)) return HIPREDUCE_STATUS_HANDLE_BUSY;
    handle->tag = 0;
    if (handle->gpu) hr_gpu_destroy(handle->gpu);
    hr_cpu_destroy(handle->cpu);
    free(handle);
    return HIPREDUCE_STATUS_SUCCESS;
}

static hipreduce_status set_stream_body(hipreduce_handle handle, void* stream)
{
    return handle->gpu ? hr_executor_status(handle, hr_gpu_set_stream(handle->gpu, stream)) : HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hipreduce_set_stream(hipreduce_handle handle, void* stream)
{
    HR_GUARDED(handle, set_stream_body(handle, stream));
}

static hipreduce_status set_algorithm_body(hipreduce_handle handle, hipreduce_algorithm algorithm)
{
    if (hr_algorithm_name((int)algorithm) == NULL)
        return hr_fail(handle, HIPREDUCE_STATUS_INVALID_ALGORITHM, "algorithm %d is not a hipreduce_algorithm (0 to %d)",
                       (int)algorithm, HR_ALGORITHM_SLOTS - 1);
    handle->algorithm = algorithm;
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hipreduce_set_algorithm(hipreduce_handle handle, hipreduce_algorithm algorithm)
{
    HR_GUARDED(handle, set_algorithm_body(handle, algorithm));
}

static hipreduce_status get_algorithm_body(hipreduce_handle handle, hipreduce_algorithm* algorithm)
{
    if (algorithm == NULL) return hr_fail(handle, HIPREDUCE_STATUS_INVALID_POINTER, "algorithm is NULL");
    *algorithm = handle->algorithm;
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hipreduce_get_algorithm(hipreduce_handle handle, hipreduce_algorithm* algorithm)
{
    HR_GUARDED(handle, get_algorithm_body(handle, algorithm));
}

static hipreduce_status set_block_size_body(hipreduce_handle handle, unsigned threads)
{
    if (threads != 0 && (threads < 32 || threads > 1024 || (threads & (threads - 1)) != 0))
        return hr_fail(handle, HIPREDUCE_STATUS_INVALID_BLOCK_SIZE,
                       "block size %u: use 0 (each algorithm's default) or a power of two from 32 to 1024", threads);
    if (handle->gpu) hr_gpu_set_block_size(handle->gpu, threads);
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hipreduce_set_block_size(hipreduce_handle handle, unsigned threads)
{
    HR_GUARDED(handle, set_block_size_body(handle, threads));
}

static hipreduce_status set_threads_body(hipreduce_handle handle, unsigned threads)
{
    return handle->cpu ? hr_executor_status(handle, hr_cpu_set_threads(handle->cpu, threads)) : HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hipreduce_set_threads(hipreduce_handle handle, unsigned threads)
{
    HR_GUARDED(handle, set_threads_body(handle, threads));
}

static hipreduce_status get_threads_body(hipreduce_handle handle, unsigned* threads)
{
    if (threads == NULL) return hr_fail(handle, HIPREDUCE_STATUS_INVALID_POINTER, "threads is NULL");
    *threads = handle->cpu ? hr_cpu_threads(handle->cpu) : 0;
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hipreduce_get_threads(hipreduce_handle handle, unsigned* threads)
{
    HR_GUARDED(handle, get_threads_body(handle, threads));
}

static hipreduce_status set_workspace_body(hipreduce_handle handle, void* workspace, size_t bytes)
{
    if (workspace == NULL && bytes > 0)
        return hr_fail(handle, HIPREDUCE_STATUS_INVALID_POINTER,
                       "workspace is NULL with bytes = %zu (NULL with 0 returns to the handle's own workspace)", bytes);
    if (handle->cpu) {
        hr_cpu_set_workspace(handle->cpu, workspace, bytes);
        return HIPREDUCE_STATUS_SUCCESS;
    }
    return hr_executor_status(handle, hr_gpu_set_workspace(handle->gpu, workspace, bytes));
}

hipreduce_status hipreduce_set_workspace(hipreduce_handle handle, void* workspace, size_t bytes)
{
    HR_GUARDED(handle, set_workspace_body(handle, workspace, bytes));
}

const char* hipreduce_last_error_message(hipreduce_handle handle)
{
    return bad_handle(handle) ? "" : handle->message;
}
