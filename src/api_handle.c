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

#include "api_handle.h"
#include "cpu_reduce.h"
#include "gpu_executor.h"
#include "hipreduce/hipreduce.h"
#include "types.h"

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
