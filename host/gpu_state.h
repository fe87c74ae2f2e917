/* The GPU executor's state and the functions its files share (host/gpu_executor.cpp: the handle,
 * the run-time switch and the call; host/gpu_workspace.cpp: workspaces and result staging). */
#ifndef HIPREDUCE_GPU_STATE_H
#define HIPREDUCE_GPU_STATE_H

#include "drivers.h"
#include "gpu_executor.h"

struct hr_gpu {
    hr::device_info dev;
    hipStream_t stream;
    unsigned char* own;        /* handle-owned scratch (staging + driver region) */
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

namespace hr {

/* Runtime failure -> status, keeping the runtime's message for hipreduce_last_error_message. */
hipreduce_status fail_into(char* message, size_t size, const char* what, hipError_t err);
inline hipreduce_status fail(hr_gpu* gpu, const char* what, hipError_t err)
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

/* A call's workspace in bytes: the staging of host-bound results, then the driver's region
 * (together the scratch), and the arrival counters. */
struct call_bytes {
    uint64_t staging, region, counters;
};

/* Staging bytes of a call (gpu_workspace.cpp); false on overflow. */
bool staging_bytes(const hr_call* call, uint64_t* bytes);

/* Where a call's workspace lies: staging, then the driver's region; the counters, and the
 * counter bytes to re-zero if a launch fails. */
struct call_space {
    unsigned char* staging;
    unsigned char* region;
    uint32_t* counters;
    size_t counter_region;
};

/* Takes a call's workspace: the caller's (WORKSPACE_TOO_SMALL when it is short) or the
 * handle's own, grown as needed. */
hipreduce_status take_workspace(hr_gpu* gpu, const call_bytes& bytes, call_space* space);

/* Where the kernels write a call's results: the caller's device memory, or staging. */
void* staged_result(const hr_call* call, const call_space& space);
int64_t* staged_index(const hr_call* call, const call_space& space);
void* staged_result2(const hr_call* call, const call_space& space); /* null for one-output ops */

/* Copies a host-bound call's results from staging to the caller (and waits for them). */
hipreduce_status copy_back(hr_gpu* gpu, const hr_call* call, const call_space& space);

}  // namespace hr

#endif
