/* The HIP names the device and host code use, on every backend.
 *
 * amd:  the real HIP runtime headers (hipcc / ROCm clang).
 * cuda: nvcc compiles the same HIP source; this header maps the few HIP names the
 *       project uses onto CUDA. Debian's HIP 5.2 nvidia headers do not compile
 *       against CUDA 13, so the project carries only what it needs.
 * emu:  the emulated GPU of the tests (test/emu/hip_emu.h): the same sources built by
 *       the host C++ compiler, run by fibers at warp width 32 or 64.
 *
 * Kernel instances per warp width W (DESIGN.md, the run-time warp-size switch). A
 * kernel templated on W (0: it does not depend on the width) starts with the one prologue
 *     HR_KERNEL_BODY(W) { body }
 * which reads
 *     if constexpr (!HR_WIDTH_COMPILED(W)) hr_width_trap(W);
 *     else if (!hr_width_runs(W)) hr_width_trap(W);
 *     else { body }
 *  - HR_WIDTH_COMPILED(W), compile time: whether this pass compiles the body at all.
 *    False in host passes and where the target has no width-W warps (64 on NVIDIA),
 *    so binaries carry no body, and no shuffle, for a width that cannot run.
 *  - hr_width_runs(W), run time: whether the device running it has width W. On AMD
 *    with ROCm 7 a target's wave size is known only at code generation (see the amd
 *    section), which folds this to a constant and drops the other width's body
 *    there; the emulator runs both widths.
 *  - hr_width_trap(W): the host picked an instance its device cannot run (a bug):
 *    trap rather than return, so that no stale result is ever read.
 */
#ifndef HIPREDUCE_HIP_COMPAT_H
#define HIPREDUCE_HIP_COMPAT_H

#if defined(HIPREDUCE_BACKEND_CUDA)

#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include <type_traits>

typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
#define hipSuccess cudaSuccess
#define hipErrorInvalidValue cudaErrorInvalidValue
#define hipErrorMemoryAllocation cudaErrorMemoryAllocation
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
    if constexpr (std::is_arithmetic<T>::value) {
        return __shfl_down_sync(0xffffffffu, value, delta, width);
    } else {
        static_assert(std::is_trivially_copyable<T>::value && sizeof(T) % 4 == 0, "shuffled in 32-bit words");
        uint32_t w[sizeof(T) / 4];
        memcpy(w, &value, sizeof value);
#pragma unroll
        for (unsigned i = 0; i < sizeof(T) / 4; ++i) w[i] = __shfl_down_sync(0xffffffffu, w[i], delta, width);
        memcpy(&value, w, sizeof value);
        return value;
    }
}
/* Butterfly shuffle (every lane gets lane ^ mask of its width-wide group), same rules. */
template <class T>
__device__ __forceinline__ T hr_shfl_xor(T value, unsigned mask, int width)
{
    static_assert(std::is_trivially_copyable<T>::value && sizeof(T) % 4 == 0, "shuffled in 32-bit words");
    uint32_t w[sizeof(T) / 4];
    memcpy(w, &value, sizeof value);
#pragma unroll
    for (unsigned i = 0; i < sizeof(T) / 4; ++i) w[i] = __shfl_xor_sync(0xffffffffu, w[i], mask, width);
    memcpy(&value, w, sizeof value);
    return value;
}
__device__ __forceinline__ void hr_syncwarp() { __syncwarp(); }

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

#elif defined(HIPREDUCE_BACKEND_AMD)

#include <hip/hip_runtime.h>
#include <stdint.h>
#include <string.h>

#include <type_traits>

/* The target's wave size: clang 19 and later (ROCm 6.2 on; ROCm 7 removed the macro)
 * answer __builtin_amdgcn_wavefrontsize(), folded to a constant at code generation, so
 * both widths' bodies are compiled and the other one is dropped there; older clang
 * (CI: ROCm 5.2's clang 15, which lacks the builtin) defines __AMDGCN_WAVEFRONT_SIZE,
 * a constant while parsing, so the other width's body is not even compiled. */
#if defined(__HIP_DEVICE_COMPILE__) && __has_builtin(__builtin_amdgcn_wavefrontsize)
#define HR_WIDTH_COMPILED(W) ((W) == 0 || (W) == 32 || (W) == 64)
#define HR_AMD_WAVE_SIZE __builtin_amdgcn_wavefrontsize()
#elif defined(__HIP_DEVICE_COMPILE__)
#define HR_WIDTH_COMPILED(W) ((W) == 0 || (W) == __AMDGCN_WAVEFRONT_SIZE)
#define HR_AMD_WAVE_SIZE __AMDGCN_WAVEFRONT_SIZE
#else
#define HR_WIDTH_COMPILED(W) false
#define HR_AMD_WAVE_SIZE 0 /* host pass: kernel bodies are never compiled */
#endif
__device__ __forceinline__ bool hr_width_runs(int w) { return w == 0 || HR_AMD_WAVE_SIZE == w; }
__device__ __forceinline__ void hr_width_trap(int) { __builtin_trap(); }

template <class T>
__device__ __forceinline__ T hr_shfl_down(T value, unsigned delta, int width)
{
    if constexpr (std::is_arithmetic<T>::value) {
        return __shfl_down(value, delta, width);
    } else { /* structs word by word */
        static_assert(std::is_trivially_copyable<T>::value && sizeof(T) % 4 == 0, "shuffled in 32-bit words");
        int w[sizeof(T) / 4];
        memcpy(w, &value, sizeof value);
#pragma unroll
        for (unsigned i = 0; i < sizeof(T) / 4; ++i) w[i] = __shfl_down(w[i], delta, width);
        memcpy(&value, w, sizeof value);
        return value;
    }
}
/* A wavefront executes in lock-step; only the compiler must not reorder. */
template <class T>
__device__ __forceinline__ T hr_shfl_xor(T value, unsigned mask, int width)
{
    static_assert(std::is_trivially_copyable<T>::value && sizeof(T) % 4 == 0, "shuffled in 32-bit words");
    uint32_t w[sizeof(T) / 4];
    memcpy(w, &value, sizeof value);
#pragma unroll
    for (unsigned i = 0; i < sizeof(T) / 4; ++i) w[i] = __shfl_xor(w[i], mask, width);
    memcpy(&value, w, sizeof value);
    return value;
}
__device__ __forceinline__ void hr_syncwarp() { __builtin_amdgcn_wave_barrier(); }

__device__ __forceinline__ uint4 hr_load16_input(const void* p) { return *(const uint4*)p; }
/* Coherent reads: relaxed agent-scope atomic loads (glc: past the CU's non-coherent
 * cache). Volatile loads would be coherent too, but the compiler waits for each one
 * to complete before the next (s_waitcnt vmcnt(0)): a chain of round trips. Atomic
 * loads are independent, so a lane has all its loads in flight at once. */
template <class T> __device__ __forceinline__ T hr_load_coherent(const T* p)
{
    if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
        using U = typename std::conditional<sizeof(T) == 8, uint64_t, uint32_t>::type;
        return __builtin_bit_cast(T, __hip_atomic_load((const U*)p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT));
    } else { /* struct accumulators: 64-bit words */
        static_assert(sizeof(T) % 8 == 0 && alignof(T) >= 8, "partials are 4 or 8 bytes, or 64-bit words");
        uint64_t w[sizeof(T) / 8];
#pragma unroll
        for (unsigned i = 0; i < sizeof(T) / 8; ++i)
            w[i] = __hip_atomic_load((const uint64_t*)p + i, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
        T r;
        memcpy(&r, w, sizeof r);
        return r;
    }
}
__device__ __forceinline__ uint4 hr_load16_coherent(const void* p)
{
    const uint64_t lo = hr_load_coherent((const uint64_t*)p), hi = hr_load_coherent((const uint64_t*)p + 1);
    return make_uint4((uint32_t)lo, (uint32_t)(lo >> 32), (uint32_t)hi, (uint32_t)(hi >> 32));
}
#define HR_HAS_COHERENT_LOAD16 1

__device__ __forceinline__ uint32_t hr_arrive_add(uint32_t* p, uint32_t v)
{
    return __hip_atomic_fetch_add(p, v, __ATOMIC_ACQ_REL, __HIP_MEMORY_SCOPE_AGENT);
}

#elif defined(HIPREDUCE_BACKEND_EMU)

#include <stdint.h>
#include <string.h>

#include "hip_emu.h"

#define HR_WIDTH_COMPILED(W) true
inline bool hr_width_runs(int w) { return w == 0 || hr_emu::warp_size() == w; }
[[noreturn]] inline void hr_width_trap(int w)
{
    hr_emu::fail("a kernel instance for warp width %d ran on a device of width %d", w, hr_emu::warp_size());
}

/* Macros, so that the emulator's messages name the device code's line. */
#define hr_shfl_down(value, delta, width) ::hr_emu::shfl((value), false, (delta), (width), __FILE__, __LINE__)
#define hr_shfl_xor(value, mask, width) ::hr_emu::shfl((value), true, (mask), (width), __FILE__, __LINE__)
#define hr_syncwarp() ::hr_emu::syncwarp(__FILE__, __LINE__)

/* 16-byte loads fault on a GPU unless 16-byte aligned: the emulator says so. */
inline uint4 hr_load16_input(const void* p)
{
    hr_emu::check_aligned(p, 16, "16-byte load");
    uint4 r;
    memcpy(&r, p, sizeof r);
    return r;
}
inline uint4 hr_load16_coherent(const void* p) { return hr_load16_input(p); }
#define HR_HAS_COHERENT_LOAD16 1
template <class T> inline T hr_load_coherent(const T* p) { return *p; }
inline uint32_t hr_arrive_add(uint32_t* p, uint32_t v) { return atomicAdd(p, v); }

#else
#error "hip_compat.h needs HIPREDUCE_BACKEND_CUDA, HIPREDUCE_BACKEND_AMD or HIPREDUCE_BACKEND_EMU"
#endif

/* A device function kept out of line (a rarely taken path that would bloat its callers). */
#if defined(HIPREDUCE_BACKEND_EMU)
#define HR_NOINLINE __attribute__((noinline))
#else
#define HR_NOINLINE __noinline__
#endif

/* Shared memory. HR_SHARED(name, type): a block's variable (arrays too: HR_SHARED(buf,
 * float[256])). HR_DYNAMIC_SHARED(type, name): the launch's dynamic shared memory as
 * type[] (HIP's HIP_DYNAMIC_SHARED, which the cuda backend's headers lack), 16-byte
 * aligned. The emulator gives every block fresh heap copies of both, so that AddressSanitizer
 * sees an index past them (a function-local static, as __shared__ would be on the host,
 * gets no redzone: it is a COMDAT symbol). */
template <class T> using hr_alias = T;
#if defined(HIPREDUCE_BACKEND_EMU)
#define HR_SHARED(name, ...) \
    hr_alias<__VA_ARGS__>& name = ::hr_emu::shared_variable<hr_alias<__VA_ARGS__>>(__FILE__, __LINE__)
#define HR_DYNAMIC_SHARED(type, name) type* name = (type*)::hr_emu::dynamic_shared()
#else
#define HR_SHARED(name, ...) __shared__ hr_alias<__VA_ARGS__> name
#define HR_DYNAMIC_SHARED(type, name) extern __shared__ __attribute__((aligned(16))) type name[]
#endif

/* The width prologue of every kernel (see the top of this file). */
#define HR_KERNEL_BODY(W)                 \
    if constexpr (!HR_WIDTH_COMPILED(W)) \
        hr_width_trap(W);                 \
    else if (!hr_width_runs(W))           \
        hr_width_trap(W);                 \
    else

#endif
