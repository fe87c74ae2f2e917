/* What the examples share: checking a status, picking the device, and moving arrays to and from
 * it. Copy what you need; the rest of each example is the library's API alone.
 * Built by CMake with EXAMPLE_CUDA (cuda backend), EXAMPLE_HIP (amd backend) or neither (cpu). */
#ifndef HIPREDUCE_EXAMPLE_H
#define HIPREDUCE_EXAMPLE_H

#include <hipreduce/hipreduce.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(EXAMPLE_CUDA)
#include <cuda_runtime.h>
#elif defined(EXAMPLE_HIP)
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h> /* the runtime's C API: these examples are C */
#endif

/* Every call returns a status; on failure the handle says why in a sentence. */
#define CHECK(h, call)                                                                                   \
    do {                                                                                                 \
        const hipreduce_status check_status_ = (call);                                                   \
        if (check_status_ != HIPREDUCE_STATUS_SUCCESS) {                                                 \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, hipreduce_status_string(check_status_), \
                    hipreduce_last_error_message(h));                                                    \
            exit(1);                                                                                     \
        }                                                                                                \
    } while (0)

/* A handle on the device argv[1] names ("cpu" or "gpu"); without an argument, GPU 0 where there is
 * one, else the cpu device. Asked for a GPU where there is none, exits 77 (CTest: skipped). */
static hipreduce_handle example_open(int argc, char** argv)
{
    int gpus = 0;
    hipreduce_get_device_count(&gpus);
    const int want_gpu = argc > 1 ? strcmp(argv[1], "gpu") == 0 : gpus > 0;
    if (want_gpu && gpus == 0) {
        printf("no GPU: %s\n", hipreduce_create_error_message());
        exit(77);
    }
    hipreduce_handle h;
    const hipreduce_status st = hipreduce_create(&h, want_gpu ? HIPREDUCE_DEVICE_GPU : HIPREDUCE_DEVICE_CPU, 0);
    if (st != HIPREDUCE_STATUS_SUCCESS) {
        fprintf(stderr, "hipreduce_create: %s: %s\n", hipreduce_status_string(st), hipreduce_create_error_message());
        exit(1);
    }
    printf("device: %s\n", want_gpu ? "GPU 0" : "cpu");
    return h;
}

static int example_on_gpu(hipreduce_handle h)
{
    unsigned threads = 1;
    hipreduce_get_threads(h, &threads);
    return threads == 0; /* a GPU handle reports 0 threads */
}

/* A copy of host bytes in the handle's memory space (device memory on a GPU handle). */
static void* example_upload(hipreduce_handle h, const void* host, size_t bytes)
{
    void* p = NULL;
    if (!example_on_gpu(h)) {
        p = malloc(bytes ? bytes : 1);
        if (p && bytes) memcpy(p, host, bytes);
        return p;
    }
#if defined(EXAMPLE_CUDA)
    if (cudaMalloc(&p, bytes ? bytes : 1) != cudaSuccess || cudaMemcpy(p, host, bytes, cudaMemcpyHostToDevice) != cudaSuccess) exit(1);
#elif defined(EXAMPLE_HIP)
    if (hipMalloc(&p, bytes ? bytes : 1) != hipSuccess || hipMemcpy(p, host, bytes, hipMemcpyHostToDevice) != hipSuccess) exit(1);
#endif
    return p;
}

static void example_free(hipreduce_handle h, void* p)
{
    if (!example_on_gpu(h)) {
        free(p);
        return;
    }
#if defined(EXAMPLE_CUDA)
    cudaFree(p);
#elif defined(EXAMPLE_HIP)
    (void)hipFree(p);
#endif
}

#endif
