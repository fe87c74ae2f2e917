/* hip_compat.h's amd backend: the real HIP runtime headers (hipcc / ROCm clang), and the few
 * device functions the project names its own way. Include hip_compat.h, not this. */
#ifndef HIPREDUCE_COMPAT_AMD_H
#define HIPREDUCE_COMPAT_AMD_H

#include <hip/hip_runtime.h>
#include <stdint.h>
#include <string.h>

#include <type_traits>

#include "words.h"

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

/* Shuffles as on cuda (compat/cuda.h): structs word by word. */
template <class T>
__device__ __forceinline__ T hr_shfl_down(T value, unsigned delta, int width)
{
    if constexpr (std::is_arithmetic<T>::value) return __shfl_down(value, delta, width);
    else return hr_by_words(value, [=](uint32_t w) { return __shfl_down(w, delta, width); });
}
template <class T>
__device__ __forceinline__ T hr_shfl_xor(T value, unsigned mask, int width)
{
    return hr_by_words(value, [=](uint32_t w) { return __shfl_xor(w, mask, width); });
}
/* A wavefront executes in lock-step; only the compiler must not reorder. */
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
        HR_MEMCPY(&r, w, sizeof r);
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

#endif
