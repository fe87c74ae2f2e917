/* The GPU executor's workspaces and result staging: the handle's own scratch and counters (grown
 * as calls need), the caller's workspace (laid out once, device/plan.h), and the staging slots
 * through which host-bound results pass. */
#include <stdio.h>
#include <string.h>

#include "gpu_state.h"

namespace hr {

hipreduce_status fail_into(char* message, size_t size, const char* what, hipError_t err)
{
    snprintf(message, size, "%s: %s", what, hipGetErrorString(err));
    return err == hipErrorMemoryAllocation ? HIPREDUCE_STATUS_ALLOCATION_FAILED : HIPREDUCE_STATUS_RUNTIME_ERROR;
}

namespace {

/* Makes *buffer at least `need` bytes (with headroom), zero-filled when it grows. */
hipreduce_status grow(hr_gpu* gpu, unsigned char** buffer, size_t* bytes, size_t need)
{
    if (*bytes >= need) return HIPREDUCE_STATUS_SUCCESS;
    if (*buffer) {
        const hipError_t err = hipStreamSynchronize(gpu->stream); /* the old one may be in use */
        if (err != hipSuccess) return fail(gpu, "hipStreamSynchronize", err);
        (void)hipFree(*buffer);
        *buffer = nullptr;
        *bytes = 0;
    }
    const size_t size = need + need / 4;
    hipError_t err = hipMalloc((void**)buffer, size);
    if (err != hipSuccess) {
        *buffer = nullptr;
        return fail(gpu, "hipMalloc", err);
    }
    err = hipMemsetAsync(*buffer, 0, size, gpu->stream);
    if (err != hipSuccess) return fail(gpu, "hipMemsetAsync", err);
    *bytes = size;
    return HIPREDUCE_STATUS_SUCCESS;
}

/* Staging of a host-bound call: argmin/argmax's indices first, then the values (a two-output op's
 * second values after them), the whole rounded to 16 bytes. Indices first, so that the staging has no gap: copy_back reads only bytes
 * the kernels wrote (values first left up to 7 bytes of padding before the indices, which a
 * caller's fresh workspace leaves uninitialized: compute-sanitizer's initcheck flagged the copy).
 * By the op, not call->index: a size query has no index pointer but its call will. */
uint64_t values_offset(const hr_call* call)
{
    return hr_op_call(call->op) == HR_CALL_ARGREDUCE ? hr_call_results(call) * sizeof(int64_t) : 0;
}

}  // namespace

bool staging_bytes(const hr_call* call, uint64_t* bytes)
{
    const uint64_t results = hr_call_results(call);
    if (results > (UINT64_MAX / 2) / 16) return false;
    if (call->location != HIPREDUCE_RESULT_HOST) {
        *bytes = 0;
        return true;
    }
    *bytes = round16(values_offset(call) + results * hr_call_result_bytes(call) * (uint64_t)hr_op_outputs(call->op));
    return true;
}

hipreduce_status take_workspace(hr_gpu* gpu, const call_bytes& b, call_space* s)
{
    const size_t scratch = (size_t)(b.staging + b.region), counters = (size_t)b.counters;
    if (gpu->user) {
        /* Caller workspace: [pad | counters (zeroed by set_workspace) | staging | driver region]. */
        if (gpu->user_bytes < hr_workspace_need(scratch, counters)) return HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL;
        s->counter_region = (size_t)hr_counter_capacity(gpu->user_bytes);
        s->counters = (uint32_t*)gpu->user_counters;
        s->staging = gpu->user_counters + s->counter_region;
    } else {
        /* Handle workspace: scratch and counters in separate allocations, so partials of
         * one call never land where a later call expects zeroed counters. */
        hipreduce_status grown = grow(gpu, &gpu->own, &gpu->own_bytes, scratch);
        if (grown == HIPREDUCE_STATUS_SUCCESS) grown = grow(gpu, &gpu->own_counters, &gpu->own_counter_bytes, counters);
        if (grown != HIPREDUCE_STATUS_SUCCESS) return grown;
        s->staging = gpu->own;
        s->counters = (uint32_t*)gpu->own_counters;
        s->counter_region = gpu->own_counter_bytes;
    }
    s->region = s->staging + b.staging;
    return HIPREDUCE_STATUS_SUCCESS;
}

void* staged_result(const hr_call* call, const call_space& s)
{
    return call->location == HIPREDUCE_RESULT_HOST ? (void*)(s.staging + values_offset(call)) : call->result;
}

/* Two-output ops' second results: after the values in staging. */
void* staged_result2(const hr_call* call, const call_space& s)
{
    if (hr_op_outputs(call->op) < 2) return nullptr;
    if (call->location != HIPREDUCE_RESULT_HOST) return call->result2;
    return s.staging + values_offset(call) + hr_call_results(call) * hr_call_result_bytes(call);
}

int64_t* staged_index(const hr_call* call, const call_space& s)
{
    if (!call->index || call->location != HIPREDUCE_RESULT_HOST) return call->index;
    return (int64_t*)s.staging;
}

hipreduce_status copy_back(hr_gpu* gpu, const hr_call* call, const call_space& s)
{
    if (call->location != HIPREDUCE_RESULT_HOST) return HIPREDUCE_STATUS_SUCCESS;
    const uint64_t results = hr_call_results(call), values = results * hr_call_result_bytes(call);
    const uint64_t at = values_offset(call); /* the indices lie before it */
    const uint64_t indices = call->index ? at : 0;
    const uint64_t second = hr_op_outputs(call->op) > 1 ? values : 0; /* values2, after the values */
    /* A few results (a full reduction's one) come back in one copy, through a local slot. */
    unsigned char slot[64];
    const bool bounce = at + values + second <= sizeof slot;
    hipError_t err = hipMemcpyAsync(bounce ? (void*)slot : call->result, s.staging + (bounce ? 0 : at),
                                    bounce ? at + values + second : values, hipMemcpyDeviceToHost, gpu->stream);
    if (err == hipSuccess && indices && !bounce)
        err = hipMemcpyAsync(call->index, s.staging, indices, hipMemcpyDeviceToHost, gpu->stream);
    if (err == hipSuccess && second && !bounce)
        err = hipMemcpyAsync(call->result2, s.staging + at + values, second, hipMemcpyDeviceToHost, gpu->stream);
    if (err != hipSuccess) return fail(gpu, "hipMemcpyAsync", err);
    err = hipStreamSynchronize(gpu->stream);
    if (err != hipSuccess) return fail(gpu, "hipStreamSynchronize", err);
    if (bounce) {
        memcpy(call->result, slot + at, values);
        if (indices) memcpy(call->index, slot, indices);
        if (second) memcpy(call->result2, slot + at + values, second);
    }
    return HIPREDUCE_STATUS_SUCCESS;
}

}  // namespace hr

extern "C" hipreduce_status hr_gpu_set_workspace(hr_gpu* gpu, void* workspace, size_t bytes)
{
    gpu->message[0] = '\0';
    unsigned char* const base = (unsigned char*)workspace;
    unsigned char* counters = nullptr;
    if (base) {
        /* Zero the counter region once, on the stream (plan.h: caller workspaces). */
        const size_t pad = (size_t)(-(uintptr_t)base & 15), cap = (size_t)hr_counter_capacity(bytes);
        if (bytes >= pad + cap) {
            counters = base + pad;
            hr::device_scope scope(gpu->dev.ordinal);
            if (scope.error != hipSuccess) return hr::fail(gpu, "hipSetDevice", scope.error);
            const hipError_t err = hipMemsetAsync(counters, 0, cap, gpu->stream);
            if (err != hipSuccess) return hr::fail(gpu, "hipMemsetAsync", err);
        }
    }
    gpu->user = base;
    gpu->user_bytes = base ? bytes : 0;
    gpu->user_counters = counters;
    return HIPREDUCE_STATUS_SUCCESS;
}
