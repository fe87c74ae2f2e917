/* The GPU executor: the handle's device and stream, the run-time switch from (algorithm, op,
 * dtype, warp size) to a compiled driver, and the one path of a call: its sizes, its workspace
 * (host/gpu_workspace.cpp), the driver's launches and the host-bound results' copy back. */
#include "hipreduce/hipreduce_study.h"
#include "gpu_executor.h"

#include <stdio.h>
#include <stdlib.h>

#include "exact_driver.h"
#include "gpu_by_key.h"
#include "gpu_state.h"
#include "gpu_tensor.h"
#include "study/pass_drivers.h"
#ifndef HIPREDUCE_STUDY_ALGORITHMS
#define HIPREDUCE_STUDY_ALGORITHMS 1 /* CMake's -DHIPREDUCE_STUDY_ALGORITHMS=OFF defines it 0 */
#endif
#if HIPREDUCE_STUDY_ALGORITHMS
#include "study/dispatch.h"
#endif

using namespace hr;

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

/* What runs a validated call on `algorithm`, for this device's warp width: the default
 * algorithm's driver (every shape), or a multipass / two-pass / study runner (full reductions
 * of the original operators with the result in the input dtype, no f16/bf16). False where the
 * algorithm cannot run the call (NOT_SUPPORTED). */
struct chosen {
    call_fn run;
    run_fn pass;
    study_run_fn study;
    size_t acc_size, elem_size;
};
bool choose(const hr_gpu* gpu, hipreduce_algorithm algorithm, const hr_call* call, chosen* c)
{
    const int wide = gpu->dev.warp_size == 64;
    *c = chosen{};
    if (hr_op_combine(call->op) == HR_CB_EXACT) { /* sum_exact, dot_exact: their own driver, AUTO only */
        if (algorithm != HIPREDUCE_ALGORITHM_AUTO) return false;
        c->run = exact_driver(call->in_dtype, call->op == HIPREDUCE_OP_DOT_EXACT, wide);
        c->acc_size = sizeof(hr_exact);
        c->elem_size = (size_t)hr_dtype_bytes(call->in_dtype);
        return c->run != nullptr;
    }
    if (algorithm == HIPREDUCE_ALGORITHM_AUTO) {
        if ((unsigned)call->acc >= HR_ACC_KINDS) return false;
        const tree_entry& e = instances_of(call->in_dtype).tree[call->op][call->acc];
        c->run = e.run[wide];
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
    if (hr_algorithm_impl(algorithm) >= HR_IMPL_STUDY_FIRST) {
        c->study = study_find(algorithm, call->op, call->in_dtype, gpu->dev.warp_size);
        return c->study != nullptr;
    }
    c->pass = e->run[algorithm == HIPREDUCE_ALGORITHM_TWO_PASS][wide];
    return c->pass != nullptr;
}

/* The one call struct of a validated call: the drivers' view of it, where its results go and
 * its workspace (space null: the size query's, which launches nothing). */
reduce_call driver_call(const hr_gpu* gpu, const hr_call* call, const call_space* space)
{
    reduce_call rc = {};
    rc.shape = call->shape;
    rc.input = call->x;
    rc.y = call->y;
    rc.offsets = call->offsets;
    rc.n = call->n;
    rc.outer = call->outer;
    rc.extent = call->extent;
    rc.inner = call->inner;
    rc.num_segments = call->num_segments;
    rc.tensor = &call->tensor;
    rc.out_dtype = call->out_dtype;
    rc.finish = hr_op_finish(call->op);
    rc.correction = call->correction;
    rc.words = call->accumulators ? hr_exact_words(call->op, call->in_dtype) : 0;
    rc.size_only = space == nullptr;
    if (space) {
        rc.result = staged_result(call, *space);
        rc.index = staged_index(call, *space);
        rc.result2 = staged_result2(call, *space);
        rc.workspace = space->region;
        rc.counters = space->counters;
    }
    rc.stream = gpu->stream;
    rc.dev = &gpu->dev;
    return rc;
}

/* The bytes a call needs (staging, the driver's region, counters); false on overflow. */
bool bytes_of(const hr_gpu* gpu, hipreduce_algorithm algorithm, const chosen& c, const hr_call* call,
              call_bytes* b)
{
    *b = call_bytes{};
    if (!staging_bytes(call, &b->staging)) return false;
    bool ok;
    if (c.run) {
        call_need need = {0, 0};
        ok = c.run(driver_call(gpu, call, nullptr), &need) == hipSuccess;
        b->region = need.partials;
        b->counters = need.counters;
    } else if (c.study) {
        ok = study_workspace_bytes(algorithm, c.elem_size, call->n, gpu->block_size, gpu->dev, &b->region);
    } else {
        ok = pass_workspace_bytes(algorithm, call->n, c.elem_size, c.acc_size, gpu->dev, &b->region);
    }
    return ok && b->region <= SIZE_MAX - b->staging && b->counters <= SIZE_MAX - b->staging - b->region;
}

/* What runs a call and the bytes it needs; a tensor runs as the row call over its gathered copy,
 * a by-key call as the segment call over its sorted copy, which take the front of the driver's
 * region. */
hipreduce_status plan_bytes(const hr_gpu* gpu, hipreduce_algorithm algorithm, const hr_call* call, chosen* c,
                            call_bytes* b)
{
    uint64_t gathered = tensor_gather_bytes(call), sorted = 0;
    if (!by_key_bytes(call, gpu->dev, &sorted)) return HIPREDUCE_STATUS_SIZE_OVERFLOW;
    const hr_call run_call = gathered                            ? tensor_rows_call(call, nullptr)
                             : call->shape == HR_SHAPE_BY_KEY ? by_key_segments_call(call, nullptr, gpu->dev)
                                                              : *call;
    if (!choose(gpu, algorithm, &run_call, c)) return HIPREDUCE_STATUS_NOT_SUPPORTED;
    gathered += sorted; /* one of the two is 0 */
    if (!bytes_of(gpu, algorithm, *c, &run_call, b) || gathered > SIZE_MAX - b->staging - b->region - b->counters)
        return HIPREDUCE_STATUS_SIZE_OVERFLOW;
    b->region += gathered;
    return HIPREDUCE_STATUS_SUCCESS;
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
    return "emu"; /* the emulated GPU (device/compat/emu) */
#endif
}

int hr_gpu_count(char* why, size_t why_size)
{
    int count = 0;
    const hipError_t err = hipGetDeviceCount(&count);
    if (err == hipSuccess) return count;
    (void)hipGetLastError(); /* a failed runtime start is not a sticky error */
    /* The two causes a user meets most, in words first; the runtime's own text after them. */
    const char* cause = err == hipErrorInsufficientDriver ? "no usable GPU driver (none installed, or older than the runtime)"
                        : err == hipErrorNoDevice          ? "no GPU found"
                                                           : "the GPU runtime did not start";
    snprintf(why, why_size, "%s [%s backend; hipGetDeviceCount: %s]", cause, hr_gpu_backend_name(), hipGetErrorString(err));
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

hipreduce_status hr_gpu_copy(hr_gpu* gpu, void* dst, const void* src, size_t bytes, int to_device)
{
    gpu->message[0] = '\0';
    device_scope scope(gpu->dev.ordinal);
    if (scope.error != hipSuccess) return fail(gpu, "hipSetDevice", scope.error);
    hipError_t err = hipMemcpyAsync(dst, src, bytes, to_device ? hipMemcpyHostToDevice : hipMemcpyDeviceToHost, gpu->stream);
    if (err != hipSuccess) return fail(gpu, "hipMemcpyAsync", err);
    err = hipStreamSynchronize(gpu->stream);
    return err == hipSuccess ? HIPREDUCE_STATUS_SUCCESS : fail(gpu, "hipStreamSynchronize", err);
}

hipreduce_status hr_gpu_workspace_size(hr_gpu* gpu, hipreduce_algorithm algorithm, const hr_call* call,
                                       size_t* bytes)
{
    chosen c;
    call_bytes b;
    const hipreduce_status planned = plan_bytes(gpu, algorithm, call, &c, &b);
    if (planned != HIPREDUCE_STATUS_SUCCESS) return planned;
    const uint64_t need = hr_workspace_need(b.staging + b.region, b.counters);
    if (need > SIZE_MAX) return HIPREDUCE_STATUS_SIZE_OVERFLOW;
    *bytes = (size_t)need;
    return HIPREDUCE_STATUS_SUCCESS;
}

/* Every call, full, axis or segments, on any algorithm: sizes, workspace, launches, results. */
hipreduce_status hr_gpu_run(hr_gpu* gpu, hipreduce_algorithm algorithm, const hr_call* call)
{
    gpu->message[0] = '\0';
    chosen c;
    call_bytes b;
    const hipreduce_status planned = plan_bytes(gpu, algorithm, call, &c, &b);
    if (planned != HIPREDUCE_STATUS_SUCCESS) return planned;
    if (hr_call_results(call) == 0) return HIPREDUCE_STATUS_SUCCESS;

    device_scope scope(gpu->dev.ordinal);
    if (scope.error != hipSuccess) return fail(gpu, "hipSetDevice", scope.error);
    call_space space;
    const hipreduce_status taken = take_workspace(gpu, b, &space);
    if (taken != HIPREDUCE_STATUS_SUCCESS) return taken;

    /* A tensor: its gathered copy first in the driver's region, the row call's region after it;
     * a by-key call: its sorted copy and arrays there (host/gpu_by_key.cpp). */
    const bool keyed = call->shape == HR_SHAPE_BY_KEY;
    uint64_t gathered = tensor_gather_bytes(call), sorted = 0;
    (void)by_key_bytes(call, gpu->dev, &sorted); /* plan_bytes has checked it */
    unsigned char* const front = space.region;
    const hr_call run_call = gathered ? tensor_rows_call(call, front) : keyed ? by_key_segments_call(call, front, gpu->dev) : *call;
    hipError_t err = gathered ? tensor_gather(call, front, gpu->stream, gpu->dev) : hipSuccess;
    if (err != hipSuccess) return fail(gpu, "gather launch", err);
    err = keyed ? by_key_prepare(call, front, gpu->stream, gpu->dev) : hipSuccess;
    if (err != hipSuccess) return fail(gpu, "by-key sort launch", err);
    space.region += gathered + sorted;
    const reduce_call rc = driver_call(gpu, &run_call, &space);
    err = c.run ? c.run(rc, nullptr) : c.study ? c.study(rc, gpu->block_size) : c.pass(rc);
    if (err != hipSuccess) {
        /* A launch that failed may have left counters half-counted: the next call needs them zero. */
        if (space.counter_region) (void)hipMemsetAsync(space.counters, 0, space.counter_region, gpu->stream);
        return fail(gpu, "kernel launch", err);
    }
    err = keyed ? by_key_finish(call, front, rc.index, gpu->stream, gpu->dev) : hipSuccess;
    if (err != hipSuccess) return fail(gpu, "by-key finish", err);
    return copy_back(gpu, call, space);
}

}  // extern "C"
