/* host/gpu_executor.h for a build without a GPU backend: there are no GPUs, so no hr_gpu is ever
 * created and api_calls.c never reaches the calls that take one. They are defined all the same, and
 * answer as a device that does not exist would. */
#include "hipreduce/hipreduce_study.h"
#include "gpu_executor.h"

struct hr_gpu {
    int unused;
};

const char* hr_gpu_backend_name(void) { return "cpu"; }

int hr_gpu_count(char* why, size_t why_size)
{
    (void)why;
    (void)why_size;
    return 0;
}

hipreduce_status hr_gpu_create(int ordinal, hr_gpu** out, char* why, size_t why_size)
{
    (void)ordinal;
    (void)out;
    (void)why;
    (void)why_size;
    return HIPREDUCE_STATUS_INVALID_DEVICE;
}

void hr_gpu_destroy(hr_gpu* gpu) { (void)gpu; }

hipreduce_status hr_gpu_set_stream(hr_gpu* gpu, void* stream)
{
    (void)gpu;
    (void)stream;
    return HIPREDUCE_STATUS_INVALID_DEVICE;
}

hipreduce_status hr_gpu_workspace_size(hr_gpu* gpu, hipreduce_algorithm algorithm, const hr_call* call,
                                       size_t* bytes)
{
    (void)gpu;
    (void)algorithm;
    (void)call;
    (void)bytes;
    return HIPREDUCE_STATUS_INVALID_DEVICE;
}

hipreduce_status hr_gpu_set_workspace(hr_gpu* gpu, void* workspace, size_t bytes)
{
    (void)gpu;
    (void)workspace;
    (void)bytes;
    return HIPREDUCE_STATUS_INVALID_DEVICE;
}

hipreduce_status hr_gpu_run(hr_gpu* gpu, hipreduce_algorithm algorithm, const hr_call* call)
{
    (void)gpu;
    (void)algorithm;
    (void)call;
    return HIPREDUCE_STATUS_INVALID_DEVICE;
}

hipreduce_status hr_gpu_copy(hr_gpu* gpu, void* dst, const void* src, size_t bytes, int to_device)
{
    (void)gpu, (void)dst, (void)src, (void)bytes, (void)to_device;
    return HIPREDUCE_STATUS_INVALID_DEVICE;
}

void hr_gpu_set_block_size(hr_gpu* gpu, unsigned threads)
{
    (void)gpu;
    (void)threads;
}

const char* hr_gpu_error_message(const hr_gpu* gpu)
{
    (void)gpu;
    return "";
}
