/* Device memory for the demo and the MPI bench (C), through the GPU runtime the library was built
 * with (HR_RUNTIME_CUDA, HR_RUNTIME_HIP; neither: no GPU). The library's API has no allocation
 * calls: its users bring their own memory, as these programs do. */
#ifndef HIPREDUCE_BENCH_DEVICE_MEMORY_H
#define HIPREDUCE_BENCH_DEVICE_MEMORY_H

#include <stddef.h>

#if defined(HR_RUNTIME_CUDA)
#include <cuda_runtime_api.h>
static inline int gm_count(void) { int n = 0; return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0; }
static inline int gm_set_device(int d) { return cudaSetDevice(d) == cudaSuccess ? 0 : -1; }
static inline void* gm_alloc(size_t bytes) { void* p = NULL; return cudaMalloc(&p, bytes ? bytes : 1) == cudaSuccess ? p : NULL; }
static inline void gm_free(void* p) { cudaFree(p); }
static inline int gm_to_device(void* dst, const void* src, size_t bytes) { return cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice) == cudaSuccess ? 0 : -1; }
static inline const char* gm_device_name(int d) { static struct cudaDeviceProp p; return cudaGetDeviceProperties(&p, d) == cudaSuccess ? p.name : "?"; }
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
static inline const char* gm_device_name(int d) { static hipDeviceProp_t p; return hipGetDeviceProperties(&p, d) == hipSuccess ? p.name : "?"; }
#else
static inline int gm_count(void) { return 0; }
static inline int gm_set_device(int d) { (void)d; return -1; }
static inline void* gm_alloc(size_t bytes) { (void)bytes; return NULL; }
static inline void gm_free(void* p) { (void)p; }
static inline int gm_to_device(void* d, const void* s, size_t b) { (void)d; (void)s; (void)b; return -1; }
static inline const char* gm_device_name(int d) { (void)d; return "none"; }
#endif

#endif
