/* The GPU executor: the handle's device, stream and workspace, and the run-time
 * switch from (algorithm, op, dtype, warp size) to a compiled kernel instance. */
#include "gpu_executor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "segment_drivers.h"
#include "study/pass_drivers.h"
#ifndef HIPREDUCE_STUDY_ALGORITHMS
#define HIPREDUCE_STUDY_ALGORITHMS 1 /* CMake's -DHIPREDUCE_STUDY_ALGORITHMS=OFF defines it 0 */
#endif
#if HIPREDUCE_STUDY_ALGORITHMS
#include "study_dispatch.h"
#endif

using namespace hr;

/* Bytes before the driver's region: the device slot a host-bound result passes through. */
enum { STAGING_BYTES = 16 };

struct hr_gpu {
    device_info dev;
    hipStream_t stream;
    unsigned char* own;        /* handle-owned scratch (staging slot + driver region) */
    size_t own_bytes;
    unsigned char* own_counters; /* handle-owned arrival counters: zeroed once, left zero by every launch */
    size_t own_counter_bytes;
    unsigned char* user;       /* caller workspace as given (NULL: the handle's own), and its size */
    size_t user_bytes;
    unsigned char* user_counters; /* 16-byte aligned; hr_counter_capacity(user_bytes) bytes, then scratch */
    hipEvent_t stream_switch;  /* orders a new stream after the old one's work (created on first switch) */
    unsigned block_size;       /* study algorithms' threads per block, 0 = their default */
    char message[256];
};

namespace {

#if !HIPREDUCE_STUDY_ALGORITHMS
/* Built with -DHIPREDUCE_STUDY_ALGORITHMS=OFF: the study algorithms are valid values that this
 * library cannot run. */
using study_run_fn = hipError_t (*)(const reduce_call&, unsigned);
study_run_fn study_find(int, int, int, int) { return nullptr; }
bool study_workspace_bytes(int, size_t, uint64_t, unsigned, const device_info&, uint64_t*) { return false; }
#endif

/* The instances of one input dtype. */
const dtype_instances& instances_of(int dtype)
{
    switch (dtype) {
#define HR_INSTANCES_CASE(E, NAME, CLASS, BYTES) \
    case E: return instances_##NAME();
        HR_DTYPE_ROWS(HR_INSTANCES_CASE)
#undef HR_INSTANCES_CASE
    default: return instances_f32(); /* unreachable: calls arrive validated */
    }
}

/* What runs a validated call on `algorithm`: its launcher for this device's warp width,
 * sizes, and whether it is a study algorithm's. False where the algorithm cannot run the
 * call (NOT_SUPPORTED): multipass, two-pass and the study algorithms run only the original
 * operators with the result in the input dtype (and no f16/bf16). */
struct chosen {
    run_fn run;
    shaped_fn shaped; /* AUTO's axis and segment calls */
    study_run_fn study;
    size_t acc_size, elem_size;
};
bool choose(const hr_gpu* gpu, hipreduce_algorithm algorithm, const hr_call* call, chosen* c)
{
    const dtype_instances& in = instances_of(call->in_dtype);
    const int wide = gpu->dev.warp_size == 64;
    *c = chosen{};
    if (algorithm == HIPREDUCE_ALGORITHM_AUTO) {
        if ((unsigned)call->acc >= HR_ACC_KINDS) return false;
        const tree_entry& e = in.tree[call->op][call->acc];
        c->run = e.run[wide];
        c->shaped = e.shaped[wide];
        c->acc_size = e.acc_size;
        c->elem_size = e.elem_size;
        return c->run != nullptr;
    }
    if (call->shape != HR_SHAPE_FULL) return false; /* axis and segment calls: AUTO only */
    if (call->out_dtype != call->in_dtype) return false;
    const pass_entry* e = pass_find(call->op, call->in_dtype);
    if (!e) return false;
    c->acc_size = e->acc_size;
    c->elem_size = e->elem_size;
    if ((unsigned)algorithm >= HR_DRIVERS) {
        c->study = study_find(algorithm, call->op, call->in_dtype, gpu->dev.warp_size);
        return c->study != nullptr;
    }
    c->run = e->run[algorithm == HIPREDUCE_ALGORITHM_TWO_PASS][wide];
    return c->run != nullptr;
}

/* Runtime failure → status, keeping the runtime's message for hipreduce_last_error_message. */
hipreduce_status fail_into(char* message, size_t size, const char* what, hipError_t err)
{
    snprintf(message, size, "%s: %s", what, hipGetErrorString(err));
    return err == hipErrorMemoryAllocation ? HIPREDUCE_STATUS_ALLOCATION_FAILED : HIPREDUCE_STATUS_RUNTIME_ERROR;
}
hipreduce_status fail(hr_gpu* gpu, const char* what, hipError_t err)
{
    return fail_into(gpu->message, sizeof gpu->message, what, err);
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

/* The bytes a call needs: scratch (the staging slot and the driver's region) and the
 * default algorithm's arrival counters; false on overflow. */
bool call_bytes(const hr_gpu* gpu, hipreduce_algorithm algorithm, const chosen* e, uint64_t n, size_t* scratch,
                size_t* counter_bytes)
{
    uint64_t region = 0, counters = 0;
    const uint64_t tile = hr_tile_items(e->elem_size);
    bool ok;
    if ((int)algorithm >= HR_DRIVERS) {
        ok = study_workspace_bytes(algorithm, e->elem_size, n, gpu->block_size, gpu->dev, &region);
    } else if (algorithm != HIPREDUCE_ALGORITHM_AUTO) {
        ok = pass_workspace_bytes(algorithm, n, e->elem_size, e->acc_size, gpu->dev, &region);
    } else {
        hr_tree_plan p;
        ok = hr_plan_tree(n, tile, e->acc_size, &p) == 0;
        region = p.partial_bytes;
        counters = p.counter_bytes;
    }
    if (!ok || region > SIZE_MAX - STAGING_BYTES || counters > SIZE_MAX - STAGING_BYTES - region) return false;
    *scratch = (size_t)region + STAGING_BYTES;
    *counter_bytes = (size_t)counters;
    return true;
}

/* An axis or segment call for the driver (partials null: size only). */
shaped_call shaped_of(const hr_gpu* gpu, const hr_call* call, void* result, int64_t* index, unsigned char* partials,
                      uint32_t* counters)
{
    shaped_call sc;
    sc.segments = call->shape == HR_SHAPE_SEGMENTS;
    sc.input = call->x;
    sc.offsets = call->offsets;
    sc.outer = call->outer;
    sc.extent = call->extent;
    sc.inner = call->inner;
    sc.num_segments = call->num_segments;
    sc.result = result;
    sc.index = index;
    sc.out_dtype = call->out_dtype;
    sc.workspace = partials;
    sc.counters = counters;
    sc.size_only = partials == nullptr;
    sc.stream = gpu->stream;
    sc.dev = &gpu->dev;
    return sc;
}

/* Host-bound results of an axis or segment call pass through staging at the scratch's start:
 * the values, then (argmin/argmax) the indices, each 16-byte aligned; the driver's partials
 * follow. False on overflow. */
struct shaped_layout {
    uint64_t values, indices, partials, scratch, counters;
};
bool shaped_bytes(const hr_gpu* gpu, const chosen& c, const hr_call* call, shaped_layout* l)
{
    const uint64_t results = hr_call_results(call);
    const uint64_t out = hipreduce_dtype_size((hipreduce_dtype)call->out_dtype);
    const bool host = call->location == HIPREDUCE_RESULT_HOST;
    if (results > (UINT64_MAX / 2) / 16) return false;
    l->values = host ? round16(results * out) : 0;
    /* By the op, not call->index: a size query has no index pointer but its call will. */
    l->indices = host && hr_op_call(call->op) == HR_CALL_ARGREDUCE ? round16(results * 8) : 0;
    shaped_need need = {0, 0};
    if (c.shaped(shaped_of(gpu, call, nullptr, nullptr, nullptr, nullptr), &need) != hipSuccess) return false;
    l->partials = need.partials;
    l->counters = need.counters;
    l->scratch = l->values + l->indices + need.partials;
    return l->scratch >= need.partials && l->scratch <= SIZE_MAX && l->counters <= SIZE_MAX;
}

}  // namespace

extern "C" {

const char* hr_gpu_backend_name(void)
{
#if defined(HIPREDUCE_BACKEND_CUDA)
    return "cuda";
#elif defined(HIPREDUCE_BACKEND_AMD)
    return "amd";
#else
    return "emu"; /* the emulated GPU of the tests (test/emu) */
#endif
}

int hr_gpu_count(char* why, size_t why_size)
{
    int count = 0;
    const hipError_t err = hipGetDeviceCount(&count);
    if (err == hipSuccess) return count;
    (void)hipGetLastError(); /* a failed runtime start is not a sticky error */
    fail_into(why, why_size, "hipGetDeviceCount", err);
    return 0;
}

hipreduce_status hr_gpu_create(int ordinal, hr_gpu** out, char* why, size_t why_size)
{
    hr_gpu* gpu = (hr_gpu*)calloc(1, sizeof *gpu);
    if (!gpu) {
        snprintf(why, why_size, "host allocation of the GPU executor failed");
        return HIPREDUCE_STATUS_ALLOCATION_FAILED;
    }
    gpu->dev.ordinal = ordinal;
    const struct { int* value; hipDeviceAttribute_t attribute; const char* name; } reads[] = {
        {&gpu->dev.warp_size, hipDeviceAttributeWarpSize, "warp size"},
        {&gpu->dev.sm_count, hipDeviceAttributeMultiprocessorCount, "multiprocessor count"},
        {&gpu->dev.major, hipDeviceAttributeComputeCapabilityMajor, "compute capability"},
    };
    for (const auto& r : reads) {
        const hipError_t err = hipDeviceGetAttribute(r.value, r.attribute, ordinal);
        if (err != hipSuccess) {
            char what[64];
            snprintf(what, sizeof what, "hipDeviceGetAttribute(%s) of device %d", r.name, ordinal);
            fail_into(why, why_size, what, err);
            free(gpu);
            return HIPREDUCE_STATUS_INVALID_DEVICE;
        }
    }
    if (gpu->dev.warp_size != 32 && gpu->dev.warp_size != 64) {
        snprintf(why, why_size, "device %d has warp size %d; only 32 and 64 are supported", ordinal,
                 gpu->dev.warp_size);
        free(gpu);
        return HIPREDUCE_STATUS_INVALID_DEVICE;
    }
    gpu->dev.blocks_per_sm = blocks_per_sm(gpu->dev.major);
    *out = gpu;
    return HIPREDUCE_STATUS_SUCCESS;
}

void hr_gpu_destroy(hr_gpu* gpu)
{
    if (!gpu) return;
    if (gpu->own || gpu->own_counters || gpu->stream_switch) {
        device_scope scope(gpu->dev.ordinal);
        (void)hipFree(gpu->own);
        (void)hipFree(gpu->own_counters);
        if (gpu->stream_switch) (void)hipEventDestroy(gpu->stream_switch);
    }
    free(gpu);
}

hipreduce_status hr_gpu_set_stream(hr_gpu* gpu, void* stream)
{
    gpu->message[0] = '\0';
    const hipStream_t next = (hipStream_t)stream;
    if (next == gpu->stream) return HIPREDUCE_STATUS_SUCCESS;
    device_scope scope(gpu->dev.ordinal);
    if (scope.error != hipSuccess) return fail(gpu, "hipSetDevice", scope.error);
    hipError_t err = hipSuccess;
    if (!gpu->stream_switch) {
        err = hipEventCreateWithFlags(&gpu->stream_switch, hipEventDisableTiming);
        if (err != hipSuccess) {
            gpu->stream_switch = nullptr;
            return fail(gpu, "hipEventCreateWithFlags", err);
        }
    }
    /* Calls on the new stream reuse the workspace that work on the old one may still read. */
    err = hipEventRecord(gpu->stream_switch, gpu->stream);
    if (err != hipSuccess) return fail(gpu, "hipEventRecord", err);
    err = hipStreamWaitEvent(next, gpu->stream_switch, 0);
    if (err != hipSuccess) return fail(gpu, "hipStreamWaitEvent", err);
    gpu->stream = next;
    return HIPREDUCE_STATUS_SUCCESS;
}

void hr_gpu_set_block_size(hr_gpu* gpu, unsigned threads) { gpu->block_size = threads; }

const char* hr_gpu_error_message(const hr_gpu* gpu) { return gpu->message; }

hipreduce_status hr_gpu_workspace_size(hr_gpu* gpu, hipreduce_algorithm algorithm, const hr_call* call,
                                       size_t* bytes)
{
    chosen c;
    if (!choose(gpu, algorithm, call, &c)) return HIPREDUCE_STATUS_NOT_SUPPORTED;
    size_t scratch, counters;
    if (call->shape != HR_SHAPE_FULL) {
        shaped_layout l;
        if (!shaped_bytes(gpu, c, call, &l)) return HIPREDUCE_STATUS_SIZE_OVERFLOW;
        scratch = (size_t)l.scratch;
        counters = (size_t)l.counters;
    } else if (!call_bytes(gpu, algorithm, &c, call->n, &scratch, &counters)) {
        return HIPREDUCE_STATUS_SIZE_OVERFLOW;
    }
    const uint64_t need = hr_workspace_need(scratch, counters);
    if (need > SIZE_MAX) return HIPREDUCE_STATUS_SIZE_OVERFLOW;
    *bytes = (size_t)need;
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hr_gpu_set_workspace(hr_gpu* gpu, void* workspace, size_t bytes)
{
    gpu->message[0] = '\0';
    unsigned char* const base = (unsigned char*)workspace;
    unsigned char* counters = nullptr;
    if (base) {
        /* Zero the counter region once, on the stream (plan.h: caller workspaces). */
        const size_t pad = (size_t)(-(uintptr_t)base & 15), cap = (size_t)hr_counter_capacity(bytes);
        if (bytes >= pad + cap) {
            counters = base + pad;
            device_scope scope(gpu->dev.ordinal);
            if (scope.error != hipSuccess) return fail(gpu, "hipSetDevice", scope.error);
            const hipError_t err = hipMemsetAsync(counters, 0, cap, gpu->stream);
            if (err != hipSuccess) return fail(gpu, "hipMemsetAsync", err);
        }
    }
    gpu->user = base;
    gpu->user_bytes = base ? bytes : 0;
    gpu->user_counters = counters;
    return HIPREDUCE_STATUS_SUCCESS;
}

/* Launches an axis or segment call with its scratch at `scratch` (layout: shaped_bytes) and
 * copies host-bound results back. */
static hipreduce_status run_shaped_call(hr_gpu* gpu, const chosen& c, const hr_call* call, const shaped_layout& l,
                                        unsigned char* scratch, unsigned char* counters, size_t counter_region)
{
    const bool host = call->location == HIPREDUCE_RESULT_HOST;
    void* values = host ? (void*)scratch : call->result;
    int64_t* indices = !call->index ? nullptr : host ? (int64_t*)(scratch + l.values) : call->index;
    shaped_call sc = shaped_of(gpu, call, values, indices, scratch + l.values + l.indices, (uint32_t*)counters);
    sc.size_only = false; /* the handle's scratch may be unallocated (null) when the call needs none */
    hipError_t err = c.shaped(sc, nullptr);
    if (err != hipSuccess) {
        /* A launch that failed may have left counters half-counted: the next call needs them zero. */
        if (counter_region) (void)hipMemsetAsync(counters, 0, counter_region, gpu->stream);
        return fail(gpu, "kernel launch", err);
    }
    if (!host) return HIPREDUCE_STATUS_SUCCESS;
    const uint64_t results = hr_call_results(call);
    err = hipMemcpyAsync(call->result, values, results * hipreduce_dtype_size((hipreduce_dtype)call->out_dtype),
                         hipMemcpyDeviceToHost, gpu->stream);
    if (err == hipSuccess && indices)
        err = hipMemcpyAsync(call->index, indices, results * sizeof(int64_t), hipMemcpyDeviceToHost, gpu->stream);
    if (err != hipSuccess) return fail(gpu, "hipMemcpyAsync", err);
    err = hipStreamSynchronize(gpu->stream);
    if (err != hipSuccess) return fail(gpu, "hipStreamSynchronize", err);
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hr_gpu_run(hr_gpu* gpu, hipreduce_algorithm algorithm, const hr_call* call)
{
    gpu->message[0] = '\0';
    const uint64_t n = call->n;
    const hipreduce_location location = call->location;
    chosen c;
    if (!choose(gpu, algorithm, call, &c)) return HIPREDUCE_STATUS_NOT_SUPPORTED;
    size_t scratch_bytes, counter_bytes;
    shaped_layout layout = {};
    if (call->shape != HR_SHAPE_FULL) {
        if (!shaped_bytes(gpu, c, call, &layout)) return HIPREDUCE_STATUS_SIZE_OVERFLOW;
        if (hr_call_results(call) == 0) return HIPREDUCE_STATUS_SUCCESS;
        scratch_bytes = (size_t)layout.scratch;
        counter_bytes = (size_t)layout.counters;
    } else if (!call_bytes(gpu, algorithm, &c, n, &scratch_bytes, &counter_bytes)) {
        return HIPREDUCE_STATUS_SIZE_OVERFLOW;
    }

    device_scope scope(gpu->dev.ordinal);
    if (scope.error != hipSuccess) return fail(gpu, "hipSetDevice", scope.error);

    unsigned char* staging; /* followed by the driver's region */
    unsigned char* counters;
    size_t counter_region; /* what to re-zero if the launch fails */
    if (gpu->user) {
        /* Caller workspace: [pad | counters (zeroed by set_workspace) | staging | driver region]. */
        if (gpu->user_bytes < hr_workspace_need(scratch_bytes, counter_bytes)) return HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL;
        counter_region = (size_t)hr_counter_capacity(gpu->user_bytes);
        counters = gpu->user_counters;
        staging = counters + counter_region;
    } else {
        /* Handle workspace: scratch and counters in separate allocations, so partials of
         * one call never land where a later call expects zeroed counters. */
        hipreduce_status grown = grow(gpu, &gpu->own, &gpu->own_bytes, scratch_bytes);
        if (grown == HIPREDUCE_STATUS_SUCCESS)
            grown = grow(gpu, &gpu->own_counters, &gpu->own_counter_bytes, counter_bytes);
        if (grown != HIPREDUCE_STATUS_SUCCESS) return grown;
        staging = gpu->own;
        counters = gpu->own_counters;
        counter_region = gpu->own_counter_bytes;
    }

    if (call->shape != HR_SHAPE_FULL) return run_shaped_call(gpu, c, call, layout, staging, counters, counter_region);

    /* A host-bound result passes through the staging slot: the value at 0, an index at 8. */
    reduce_call rc;
    rc.input = call->x;
    rc.y = call->y;
    rc.n = n;
    rc.result = location == HIPREDUCE_RESULT_DEVICE ? call->result : (void*)staging;
    rc.index = !call->index ? nullptr : location == HIPREDUCE_RESULT_DEVICE ? call->index : (int64_t*)(staging + 8);
    rc.out_dtype = call->out_dtype;
    rc.workspace = staging + STAGING_BYTES;
    rc.counters = (uint32_t*)counters;
    rc.stream = gpu->stream;
    rc.dev = &gpu->dev;
    hipError_t err = c.study ? c.study(rc, gpu->block_size) : c.run(rc);
    if (err != hipSuccess) {
        /* A launch that failed may have left counters half-counted: the next call needs them zero. */
        if (counter_region) (void)hipMemsetAsync(counters, 0, counter_region, gpu->stream);
        return fail(gpu, "kernel launch", err);
    }
    if (location == HIPREDUCE_RESULT_HOST) {
        unsigned char slot[STAGING_BYTES];
        const size_t bytes = call->index ? STAGING_BYTES : hipreduce_dtype_size((hipreduce_dtype)call->out_dtype);
        err = hipMemcpyAsync(slot, staging, bytes, hipMemcpyDeviceToHost, gpu->stream);
        if (err != hipSuccess) return fail(gpu, "hipMemcpyAsync", err);
        err = hipStreamSynchronize(gpu->stream);
        if (err != hipSuccess) return fail(gpu, "hipStreamSynchronize", err);
        memcpy(call->result, slot, hipreduce_dtype_size((hipreduce_dtype)call->out_dtype));
        if (call->index) memcpy(call->index, slot + 8, sizeof(int64_t));
    }
    return HIPREDUCE_STATUS_SUCCESS;
}

}  // extern "C"
