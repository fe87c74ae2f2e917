/* Device memory for the tests, through whichever runtime
 * the library was built with (HR_RUNTIME_CUDA, HR_RUNTIME_HIP, or neither; the emu
 * tests use the emulated GPU's, HR_RUNTIME_EMU). The library's own API has no
 * allocation calls; users bring their own memory. */
#ifndef HIPREDUCE_TEST_GPU_MEMORY_H
#define HIPREDUCE_TEST_GPU_MEMORY_H

#include <stddef.h>

#if defined(HR_RUNTIME_CUDA)
#include <cuda_runtime_api.h>
static inline int gm_count(void) { int n = 0; return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0; }
static inline int gm_set_device(int d) { return cudaSetDevice(d) == cudaSuccess ? 0 : -1; }
static inline void* gm_alloc(size_t bytes) { void* p = NULL; return cudaMalloc(&p, bytes ? bytes : 1) == cudaSuccess ? p : NULL; }
static inline void gm_free(void* p) { cudaFree(p); }
static inline int gm_to_device(void* dst, const void* src, size_t bytes) { return cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice) == cudaSuccess ? 0 : -1; }
static inline int gm_to_host(void* dst, const void* src, size_t bytes) { return cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost) == cudaSuccess ? 0 : -1; }
static inline int gm_memset(void* dst, int value, size_t bytes) { return cudaMemset(dst, value, bytes) == cudaSuccess ? 0 : -1; }
static inline int gm_sync(void) { return cudaDeviceSynchronize() == cudaSuccess ? 0 : -1; }
static inline const char* gm_device_name(int d) { static struct cudaDeviceProp p; return cudaGetDeviceProperties(&p, d) == cudaSuccess ? p.name : "?"; }
static inline void* gm_stream_create(void) { cudaStream_t s = NULL; return cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess ? (void*)s : NULL; }
static inline void gm_stream_destroy(void* s) { cudaStreamDestroy((cudaStream_t)s); }
/* Captures fn(arg)'s work on stream s into a graph, launches it once and waits. Returns the
 * graph's node count (-1 on a runtime error, -2 where capture is not available); *kernels
 * receives how many nodes are kernels. */
static inline int gm_capture(void* s, int (*fn)(void*), void* arg, int* kernels)
{
    cudaStream_t st = (cudaStream_t)s;
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;
    cudaGraphNode_t nodes[16];
    size_t count = 16;
    if (cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal) != cudaSuccess) return -1;
    const int fn_failed = fn(arg);
    if (cudaStreamEndCapture(st, &graph) != cudaSuccess || fn_failed) return -1;
    int rc = cudaGraphGetNodes(graph, nodes, &count) == cudaSuccess ? (int)count : -1;
    *kernels = 0;
    for (size_t i = 0; rc >= 0 && i < count && i < 16; ++i) {
        enum cudaGraphNodeType type;
        if (cudaGraphNodeGetType(nodes[i], &type) != cudaSuccess) rc = -1;
        else *kernels += type == cudaGraphNodeTypeKernel;
    }
    if (rc >= 0 && (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess || cudaGraphLaunch(exec, st) != cudaSuccess ||
                    cudaStreamSynchronize(st) != cudaSuccess))
        rc = -1;
    if (exec) cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    return rc;
}
#elif defined(HR_RUNTIME_HIP)
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h>
static inline int gm_count(void) { int n = 0; return hipGetDeviceCount(&n) == hipSuccess ? n : 0; }
static inline int gm_set_device(int d) { return hipSetDevice(d) == hipSuccess ? 0 : -1; }
static inline void* gm_alloc(size_t bytes) { void* p = NULL; return hipMalloc(&p, bytes ? bytes : 1) == hipSuccess ? p : NULL; }
static inline void gm_free(void* p) { (void)hipFree(p); }
static inline int gm_to_device(void* dst, const void* src, size_t bytes) { return hipMemcpy(dst, src, bytes, hipMemcpyHostToDevice) == hipSuccess ? 0 : -1; }
static inline int gm_to_host(void* dst, const void* src, size_t bytes) { return hipMemcpy(dst, src, bytes, hipMemcpyDeviceToHost) == hipSuccess ? 0 : -1; }
static inline int gm_memset(void* dst, int value, size_t bytes) { return hipMemset(dst, value, bytes) == hipSuccess ? 0 : -1; }
static inline int gm_sync(void) { return hipDeviceSynchronize() == hipSuccess ? 0 : -1; }
static inline const char* gm_device_name(int d) { static hipDeviceProp_t p; return hipGetDeviceProperties(&p, d) == hipSuccess ? p.name : "?"; }
static inline void* gm_stream_create(void) { hipStream_t s = NULL; return hipStreamCreateWithFlags(&s, hipStreamNonBlocking) == hipSuccess ? (void*)s : NULL; }
static inline void gm_stream_destroy(void* s) { (void)hipStreamDestroy((hipStream_t)s); }
static inline int gm_capture(void* s, int (*fn)(void*), void* arg, int* kernels)
{
    hipStream_t st = (hipStream_t)s;
    hipGraph_t graph = NULL;
    hipGraphExec_t exec = NULL;
    hipGraphNode_t nodes[16];
    size_t count = 16;
    if (hipStreamBeginCapture(st, hipStreamCaptureModeThreadLocal) != hipSuccess) return -1;
    const int fn_failed = fn(arg);
    if (hipStreamEndCapture(st, &graph) != hipSuccess || fn_failed) return -1;
    int rc = hipGraphGetNodes(graph, nodes, &count) == hipSuccess ? (int)count : -1;
    *kernels = 0;
    for (size_t i = 0; rc >= 0 && i < count && i < 16; ++i) {
        hipGraphNodeType type;
        if (hipGraphNodeGetType(nodes[i], &type) != hipSuccess) rc = -1;
        else *kernels += type == hipGraphNodeTypeKernel;
    }
    if (rc >= 0 && (hipGraphInstantiate(&exec, graph, NULL, NULL, 0) != hipSuccess ||
                    hipGraphLaunch(exec, st) != hipSuccess || hipStreamSynchronize(st) != hipSuccess))
        rc = -1;
    if (exec) (void)hipGraphExecDestroy(exec);
    (void)hipGraphDestroy(graph);
    return rc;
}
#elif defined(HR_RUNTIME_EMU)
#include "emu_api.h" /* the emulated GPU (device/compat/emu) */
static inline int gm_count(void) { int n = 0; return hr_emu_get_device_count(&n) == HR_EMU_SUCCESS ? n : 0; }
static inline int gm_set_device(int d) { return hr_emu_set_device(d) == HR_EMU_SUCCESS ? 0 : -1; }
static inline void* gm_alloc(size_t bytes) { void* p = NULL; return hr_emu_malloc(&p, bytes ? bytes : 1) == HR_EMU_SUCCESS ? p : NULL; }
static inline void gm_free(void* p) { (void)hr_emu_free(p); }
static inline int gm_to_device(void* dst, const void* src, size_t bytes) { return hr_emu_memcpy(dst, src, bytes, HR_EMU_HOST_TO_DEVICE) == HR_EMU_SUCCESS ? 0 : -1; }
static inline int gm_to_host(void* dst, const void* src, size_t bytes) { return hr_emu_memcpy(dst, src, bytes, HR_EMU_DEVICE_TO_HOST) == HR_EMU_SUCCESS ? 0 : -1; }
static inline int gm_memset(void* dst, int value, size_t bytes) { return hr_emu_memset(dst, value, bytes) == HR_EMU_SUCCESS ? 0 : -1; }
static inline int gm_sync(void) { return hr_emu_device_synchronize() == HR_EMU_SUCCESS ? 0 : -1; }
static inline const char* gm_device_name(int d) { return hr_emu_device_name(d); }
static inline void* gm_stream_create(void) { hr_emu_stream_t s = NULL; return hr_emu_stream_create(&s, HR_EMU_STREAM_NON_BLOCKING) == HR_EMU_SUCCESS ? (void*)s : NULL; }
static inline void gm_stream_destroy(void* s) { (void)hr_emu_stream_destroy((hr_emu_stream_t)s); }
static inline int gm_capture(void* s, int (*fn)(void*), void* arg, int* kernels)
{
    hr_emu_graph_t graph = NULL;
    if (hr_emu_stream_begin_capture((hr_emu_stream_t)s) != HR_EMU_SUCCESS) return -1;
    const int fn_failed = fn(arg);
    if (hr_emu_stream_end_capture((hr_emu_stream_t)s, &graph) != HR_EMU_SUCCESS || fn_failed) return -1;
    int rc = hr_emu_graph_nodes(graph, kernels);
    if (hr_emu_graph_launch(graph, (hr_emu_stream_t)s) != HR_EMU_SUCCESS ||
        hr_emu_stream_synchronize((hr_emu_stream_t)s) != HR_EMU_SUCCESS)
        rc = -1;
    hr_emu_graph_destroy(graph);
    return rc;
}
#else
static inline int gm_count(void) { return 0; }
static inline int gm_set_device(int d) { (void)d; return -1; }
static inline void* gm_alloc(size_t bytes) { (void)bytes; return NULL; }
static inline void gm_free(void* p) { (void)p; }
static inline int gm_to_device(void* d, const void* s, size_t b) { (void)d; (void)s; (void)b; return -1; }
static inline int gm_to_host(void* d, const void* s, size_t b) { (void)d; (void)s; (void)b; return -1; }
static inline int gm_memset(void* d, int v, size_t b) { (void)d; (void)v; (void)b; return -1; }
static inline int gm_sync(void) { return -1; }
static inline const char* gm_device_name(int d) { (void)d; return "none"; }
static inline void* gm_stream_create(void) { return NULL; }
static inline void gm_stream_destroy(void* s) { (void)s; }
static inline int gm_capture(void* s, int (*fn)(void*), void* arg, int* kernels) { (void)s; (void)fn; (void)arg; *kernels = 0; return -2; }
#endif

#endif
