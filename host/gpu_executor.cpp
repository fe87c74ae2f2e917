/* The GPU executor: the handle's device, stream and workspace, and the run-time
 * switch from (algorithm, op, dtype, warp size) to a compiled kernel instance. */
#include "gpu_executor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers.h"

using namespace hr;

/* Bytes before the driver's region: the device slot a host-bound result passes through. */
enum { STAGING_BYTES = 16 };

struct hr_gpu {
    device_info dev;
    hipStream_t stream;
    unsigned char* own;        /* handle-owned workspace, zero-filled when allocated */
    size_t own_bytes;
    unsigned char* user;       /* caller workspace, if set */
    size_t user_bytes;
    char message[256];
};

namespace {

const op_entry* find_entry(hipreduce_op op, hipreduce_dtype dtype)
{
    static const op_entry* (*const rows[])() = {row_sum, row_prod, row_min, row_max, row_and, row_or, row_xor};
    if ((unsigned)op >= sizeof rows / sizeof rows[0] || (unsigned)dtype >= HR_DTYPE_SLOTS) return nullptr;
    const op_entry* e = &rows[op]()[dtype];
    return e->acc_size ? e : nullptr;
}

/* Runtime failure → status, keeping the runtime's message for hipreduce_last_error_message. */
hipreduce_status fail(hr_gpu* gpu, const char* what, hipError_t err)
{
    snprintf(gpu->message, sizeof gpu->message, "%s: %s", what, hipGetErrorString(err));
    return err == hipErrorMemoryAllocation ? HIPREDUCE_STATUS_ALLOCATION_FAILED : HIPREDUCE_STATUS_RUNTIME_ERROR;
}

/* Makes the handle's device current for the call and restores the caller's after. */
struct device_scope {
    int previous = -1;
    int wanted;
    hipError_t error = hipSuccess;
    explicit device_scope(int ordinal) : wanted(ordinal)
    {
        error = hipGetDevice(&previous);
        if (error == hipSuccess && previous != wanted) error = hipSetDevice(wanted);
    }
    ~device_scope()
    {
        if (previous >= 0 && previous != wanted) (void)hipSetDevice(previous);
    }
};

/* Workspace bytes of the driver's region (without the staging slot); false on overflow. */
bool driver_bytes(const hr_gpu* gpu, hipreduce_algorithm algorithm, const op_entry* e, uint64_t n, uint64_t* bytes)
{
    const uint64_t tile = hr_tile_items(e->elem_size);
    switch (algorithm) {
    case HIPREDUCE_ALGORITHM_MULTIPASS: {
        hr_multipass_plan p;
        if (hr_plan_multipass(n, tile, e->acc_size, &p) != 0) return false;
        *bytes = p.workspace_bytes;
        return true;
    }
    case HIPREDUCE_ALGORITHM_TWO_PASS: {
        hr_two_pass_plan p;
        if (hr_plan_two_pass(n, tile, resident_blocks(gpu->dev), e->acc_size, &p) != 0) return false;
        *bytes = p.workspace_bytes;
        return true;
    }
    default: {
        hr_tree_plan p;
        if (hr_plan_tree(n, tile, e->acc_size, &p) != 0) return false;
        *bytes = p.workspace_bytes;
        return true;
    }
    }
}

}  // namespace

extern "C" {

int hr_gpu_count(void)
{
    int count = 0;
    return hipGetDeviceCount(&count) == hipSuccess ? count : 0;
}

hipreduce_status hr_gpu_create(int ordinal, hr_gpu** out)
{
    const int count = hr_gpu_count();
    if (ordinal < 0 || ordinal >= count) return HIPREDUCE_STATUS_INVALID_DEVICE;
    hr_gpu* gpu = (hr_gpu*)calloc(1, sizeof *gpu);
    if (!gpu) return HIPREDUCE_STATUS_ALLOCATION_FAILED;
    gpu->dev.ordinal = ordinal;
    if (hipDeviceGetAttribute(&gpu->dev.warp_size, hipDeviceAttributeWarpSize, ordinal) != hipSuccess ||
        hipDeviceGetAttribute(&gpu->dev.sm_count, hipDeviceAttributeMultiprocessorCount, ordinal) != hipSuccess ||
        hipDeviceGetAttribute(&gpu->dev.max_threads_per_sm, hipDeviceAttributeMaxThreadsPerMultiProcessor,
                              ordinal) != hipSuccess ||
        (gpu->dev.warp_size != 32 && gpu->dev.warp_size != 64)) {
        free(gpu);
        return HIPREDUCE_STATUS_INVALID_DEVICE;
    }
    *out = gpu;
    return HIPREDUCE_STATUS_SUCCESS;
}

void hr_gpu_destroy(hr_gpu* gpu)
{
    if (!gpu) return;
    if (gpu->own) {
        device_scope scope(gpu->dev.ordinal);
        (void)hipFree(gpu->own);
    }
    free(gpu);
}

void hr_gpu_set_stream(hr_gpu* gpu, void* stream) { gpu->stream = (hipStream_t)stream; }

const char* hr_gpu_error_message(const hr_gpu* gpu) { return gpu->message; }

hipreduce_status hr_gpu_workspace_size(hr_gpu* gpu, hipreduce_algorithm algorithm, hipreduce_op op,
                                       hipreduce_dtype dtype, uint64_t n, size_t* bytes)
{
    const op_entry* e = find_entry(op, dtype);
    if (!e) return HIPREDUCE_STATUS_OP_DTYPE_MISMATCH;
    uint64_t region;
    if (!driver_bytes(gpu, algorithm, e, n, &region) || region > SIZE_MAX - STAGING_BYTES)
        return HIPREDUCE_STATUS_SIZE_OVERFLOW;
    *bytes = (size_t)region + STAGING_BYTES;
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hr_gpu_set_workspace(hr_gpu* gpu, void* workspace, size_t bytes)
{
    gpu->user = (unsigned char*)workspace;
    gpu->user_bytes = workspace ? bytes : 0;
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hr_gpu_reduce(hr_gpu* gpu, hipreduce_algorithm algorithm, hipreduce_op op, hipreduce_dtype dtype,
                               const void* input, uint64_t n, void* result, hipreduce_location location)
{
    gpu->message[0] = '\0';
    const op_entry* e = find_entry(op, dtype);
    if (!e) return HIPREDUCE_STATUS_OP_DTYPE_MISMATCH;
    if ((unsigned)algorithm >= HR_DRIVERS) return HIPREDUCE_STATUS_NOT_SUPPORTED;
    size_t need;
    const hipreduce_status st = hr_gpu_workspace_size(gpu, algorithm, op, dtype, n, &need);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;

    device_scope scope(gpu->dev.ordinal);
    if (scope.error != hipSuccess) return fail(gpu, "hipSetDevice", scope.error);

    unsigned char* ws;
    if (gpu->user) {
        if (gpu->user_bytes < need) return HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL;
        ws = gpu->user;
    } else {
        if (gpu->own_bytes < need) {
            /* Grow (with headroom) once; counters must start zeroed. */
            const size_t bytes = need + need / 4;
            if (gpu->own) {
                hipError_t err = hipStreamSynchronize(gpu->stream);
                if (err != hipSuccess) return fail(gpu, "hipStreamSynchronize", err);
                (void)hipFree(gpu->own);
                gpu->own = nullptr;
                gpu->own_bytes = 0;
            }
            hipError_t err = hipMalloc((void**)&gpu->own, bytes);
            if (err != hipSuccess) {
                gpu->own = nullptr;
                return fail(gpu, "hipMalloc", err);
            }
            err = hipMemsetAsync(gpu->own, 0, bytes, gpu->stream);
            if (err != hipSuccess) return fail(gpu, "hipMemsetAsync", err);
            gpu->own_bytes = bytes;
        }
        ws = gpu->own;
    }

    reduce_call call;
    call.input = input;
    call.n = n;
    call.result = location == HIPREDUCE_RESULT_DEVICE ? result : (void*)ws;
    call.workspace = ws + STAGING_BYTES;
    call.stream = gpu->stream;
    call.dev = &gpu->dev;
    const run_fn run = e->run[algorithm][gpu->dev.warp_size == 64];
    hipError_t err = run(call);
    if (err != hipSuccess) return fail(gpu, "kernel launch", err);
    if (location == HIPREDUCE_RESULT_HOST) {
        err = hipMemcpyAsync(result, ws, e->elem_size, hipMemcpyDeviceToHost, gpu->stream);
        if (err != hipSuccess) return fail(gpu, "hipMemcpyAsync", err);
        err = hipStreamSynchronize(gpu->stream);
        if (err != hipSuccess) return fail(gpu, "hipStreamSynchronize", err);
    }
    return HIPREDUCE_STATUS_SUCCESS;
}

}  // extern "C"
