/* hip_compat.h's cuda backend: nvcc compiles the same HIP source, and this header maps the few
 * HIP names the project uses onto CUDA. Debian's HIP 5.2 nvidia headers do not compile against
 * CUDA 13, so the project carries only what it needs. Include hip_compat.h, not this. */
#ifndef HIPREDUCE_COMPAT_CUDA_H
#define HIPREDUCE_COMPAT_CUDA_H

#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include <type_traits>

#include "words.h"

typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
#define hipSuccess cudaSuccess
#define hipErrorInvalidValue cudaErrorInvalidValue
#define hipErrorMemoryAllocation cudaErrorMemoryAllocation
#define hipErrorNoDevice cudaErrorNoDevice
#define hipErrorInsufficientDriver cudaErrorInsufficientDriver
#define hipGetErrorString cudaGetErrorString
#define hipGetLastError cudaGetLastError
#define hipGetDevice cudaGetDevice
#define hipSetDevice cudaSetDevice
#define hipGetDeviceCount cudaGetDeviceCount
#define hipDeviceGetAttribute cudaDeviceGetAttribute
#define hipDeviceAttributeWarpSize cudaDevAttrWarpSize
#define hipDeviceAttributeMultiprocessorCount cudaDevAttrMultiProcessorCount
#define hipDeviceAttributeComputeCapabilityMajor cudaDevAttrComputeCapabilityMajor
#define hipMalloc cudaMalloc
#define hipFree cudaFree
#define hipMemsetAsync cudaMemsetAsync
#define hipMemcpyAsync cudaMemcpyAsync
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipStreamSynchronize cudaStreamSynchronize
#define hipStreamWaitEvent cudaStreamWaitEvent
#define hipEventCreateWithFlags cudaEventCreateWithFlags
#define hipEventDisableTiming cudaEventDisableTiming
typedef cudaDeviceAttr hipDeviceAttribute_t;
#define hipOccupancyMaxActiveBlocksPerMultiprocessor cudaOccupancyMaxActiveBlocksPerMultiprocessor
/* Used by hipreduce-bench only. */
typedef cudaEvent_t hipEvent_t;
typedef cudaDeviceProp hipDeviceProp_t;
#define hipEventCreate cudaEventCreate
#define hipEventDestroy cudaEventDestroy
#define hipEventRecord cudaEventRecord
#define hipEventSynchronize cudaEventSynchronize
#define hipEventElapsedTime cudaEventElapsedTime
#define hipGetDeviceProperties cudaGetDeviceProperties
#define hipDeviceAttributeL2CacheSize cudaDevAttrL2CacheSize
#define hipMemGetInfo cudaMemGetInfo
#define hipDeviceSynchronize cudaDeviceSynchronize
#define hipLaunchKernelGGL(kernel, grid, block, shmem, stream, ...) \
    kernel<<<(grid), (block), (shmem), (stream)>>>(__VA_ARGS__)

#if defined(__CUDA_ARCH__)
#define HR_WIDTH_COMPILED(W) ((W) == 0 || (W) == 32)
#else
#define HR_WIDTH_COMPILED(W) false
#endif
__device__ __forceinline__ bool hr_width_runs(int) { return true; } /* compiled widths are 32 (or 0) */
__device__ __forceinline__ void hr_width_trap(int) { __trap(); }

/* Width-limited shuffle over the whole warp (all lanes take part); a struct (the
 * accumulators of nrm2 and argmin/argmax) goes word by word. */
template <class T>
__device__ __forceinline__ T hr_shfl_down(T value, unsigned delta, int width)
{
    if constexpr (std::is_arithmetic<T>::value) return __shfl_down_sync(0xffffffffu, value, delta, width);
    else return hr_by_words(value, [=](uint32_t w) { return __shfl_down_sync(0xffffffffu, w, delta, width); });
}
/* Butterfly shuffle (every lane gets lane ^ mask of its width-wide group), word by word. */
template <class T>
__device__ __forceinline__ T hr_shfl_xor(T value, unsigned mask, int width)
{
    return hr_by_words(value, [=](uint32_t w) { return __shfl_xor_sync(0xffffffffu, w, mask, width); });
}
__device__ __forceinline__ void hr_syncwarp() { __syncwarp(); }
/* Whole-warp unsigned max and min in one instruction (redux.sync, sm_80 on); where
 * HR_WARP_REDUX is not defined (older GPUs, AMD, the emulator) callers shuffle. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define HR_WARP_REDUX 1
__device__ __forceinline__ uint32_t hr_warp_umax(uint32_t v) { return __reduce_max_sync(0xffffffffu, v); }
__device__ __forceinline__ uint32_t hr_warp_umin(uint32_t v) { return __reduce_min_sync(0xffffffffu, v); }
#endif
/* Per-halfword unsigned max and min, and wrapping subtraction (one instruction each on sm_90;
 * where HR_HALFWORD_OPS is not defined callers take the halves apart). */
#if defined(__CUDA_ARCH__)
#define HR_HALFWORD_OPS 1
__device__ __forceinline__ uint32_t hr_vmaxu2(uint32_t a, uint32_t b) { return __vmaxu2(a, b); }
__device__ __forceinline__ uint32_t hr_vminu2(uint32_t a, uint32_t b) { return __vminu2(a, b); }
__device__ __forceinline__ uint32_t hr_vsub2(uint32_t a, uint32_t b) { return __vsub2(a, b); }
#endif

/* 16-byte loads: of the input (read once, streamed), and coherent ones that see what
 * other blocks of the same launch wrote before their release (through L2, not L1). */
__device__ __forceinline__ uint4 hr_load16_input(const void* p)
{
#if defined(HR_INPUT_LOAD_HINT)
    return HR_INPUT_LOAD_HINT((const uint4*)p);
#else
    return __ldcs((const uint4*)p); /* evict-first: measured 1-3% faster than plain loads on H200 */
#endif
}
__device__ __forceinline__ uint4 hr_load16_coherent(const void* p) { return __ldcg((const uint4*)p); }
#define HR_HAS_COHERENT_LOAD16 1
template <class T> __device__ __forceinline__ T hr_load_coherent(const T* p)
{
    if constexpr (std::is_arithmetic<T>::value) {
        return *(const volatile T*)p;
    } else { /* struct accumulators: 64-bit words */
        static_assert(std::is_trivially_copyable<T>::value && sizeof(T) % 8 == 0 && alignof(T) >= 8, "64-bit words");
        uint64_t w[sizeof(T) / 8];
#pragma unroll
        for (unsigned i = 0; i < sizeof(T) / 8; ++i) w[i] = ((const volatile uint64_t*)p)[i];
        T r;
        memcpy(&r, w, sizeof r);
        return r;
    }
}

/* Device-scope acquire-release atomic add, returning the old value: the arrival of the
 * default algorithm's last-block finish. Release orders the arriving block's partials
 * before it; acquire orders the finishing block's reads of all partials after it. */
__device__ __forceinline__ uint32_t hr_arrive_add(uint32_t* p, uint32_t v)
{
    uint32_t old;
    asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}

#endif
