/* f16 (IEEE binary16) and bf16 to and from f32, on raw 16-bit values: the library's one
 * conversion, plain C for the cpu device (src/) and C++ for the device code (device/, host/;
 * __host__ __device__ there), with integer selects only, so every backend, the emulator and the
 * cpu device give the same bits without a vendor half header:
 *  - to f32: exact (subnormals, infinities; a NaN stays a NaN). The f16 path is selects over
 *    integers and one subtraction of normal numbers, which the cpu device's lane loops vectorise
 *    (GCC left an int-to-float conversion scalar), and no arithmetic touches a subnormal, so a
 *    flush-to-zero or denormals-are-zero mode cannot change it. NVIDIA device code uses the
 *    hardware conversion (exact as well);
 *  - from f32 (a result's one rounding): nearest, ties to even; overflow to infinity; any NaN to
 *    the canonical NaN (f16 0x7e00, bf16 0x7fc0). */
#ifndef HIPREDUCE_HALF_H
#define HIPREDUCE_HALF_H

#include <stdint.h>
#ifndef __cplusplus
#include <string.h>
#endif

#ifdef __cplusplus
#ifndef HR_HD
#if defined(__CUDACC__) || defined(__HIPCC__)
#define HR_HD __host__ __device__ __forceinline__
#else
#define HR_HD inline
#endif
#endif
#endif

#if defined(__CUDACC__)
#define HR_HALF_FN static __host__ __device__ __forceinline__
#elif defined(__HIPCC__) /* __forceinline__ is hip_runtime.h's, which this header does not need */
#define HR_HALF_FN static __host__ __device__ inline __attribute__((always_inline))
#else
#define HR_HALF_FN static inline
#endif

/* Each format's infinity and canonical NaN bits, named after its dtype row (op_table.h), as its
 * converters are: code per half dtype pastes the row's name onto hr_<name>_inf, hr_<name>_to_f32... */
enum { hr_f16_inf = 0x7c00, hr_f16_nan = 0x7e00, hr_bf16_inf = 0x7f80, hr_bf16_nan = 0x7fc0 };

HR_HALF_FN float hr_bits_f32(uint32_t bits)
{
#ifdef __cplusplus
    return __builtin_bit_cast(float, bits);
#else
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
#endif
}

HR_HALF_FN uint32_t hr_f32_bits(float f)
{
#ifdef __cplusplus
    return __builtin_bit_cast(uint32_t, f);
#else
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
#endif
}

HR_HALF_FN float hr_f16_to_f32(uint16_t h)
{
#if defined(__CUDA_ARCH__)
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
#else
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    const uint32_t shifted = (uint32_t)(h & 0x7fffu) << 13; /* exponent and mantissa in place */
    const uint32_t exponent = shifted & UINT32_C(0x0f800000);
    uint32_t bits = shifted + UINT32_C(0x38000000);         /* rebias 15 -> 127 */
    if (exponent == UINT32_C(0x0f800000)) bits += UINT32_C(0x38000000); /* inf/NaN: exponent 255 */
    /* Subnormal (and zero) m * 2^-24: as 2^-14 * (1 + m/1024) less 2^-14, both normal, exact. */
    const float f = hr_bits_f32(exponent == 0 ? bits + UINT32_C(0x00800000) : bits);
    const float subnormal = f - 0x1p-14f; /* computed always: GCC does not vectorise a conditional one */
    return hr_bits_f32(hr_f32_bits(exponent == 0 ? subnormal : f) | sign);
#endif
}

HR_HALF_FN float hr_bf16_to_f32(uint16_t h) { return hr_bits_f32((uint32_t)h << 16); }

HR_HALF_FN uint16_t hr_f32_to_f16(float f)
{
    const uint32_t bits = hr_f32_bits(f);
    const uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
    const uint32_t a = bits & UINT32_C(0x7fffffff);
    if (a > UINT32_C(0x7f800000)) return hr_f16_nan;
    if (a >= UINT32_C(0x477ff000)) return (uint16_t)(sign | hr_f16_inf); /* >= 65520 rounds to inf */
    if (a >= UINT32_C(0x38800000)) {                                      /* normal f16: >= 2^-14 */
        const uint32_t r = a - UINT32_C(0x38000000);
        return (uint16_t)(sign | ((r + 0xfffu + ((r >> 13) & 1u)) >> 13)); /* a carry bumps the exponent */
    }
    if (a <= UINT32_C(0x33000000)) return sign; /* <= 2^-25: the tie at 2^-25 goes to even, 0 */
    /* Subnormal f16: the value in units of 2^-24 is m * 2^(e - 126), shift 126 - e in 14..24. */
    const uint32_t e = a >> 23, m = (a & UINT32_C(0x7fffff)) | UINT32_C(0x800000);
    const uint32_t shift = 126u - e;
    const uint32_t q = m >> shift, rest = m & ((UINT32_C(1) << shift) - 1u), half = UINT32_C(1) << (shift - 1u);
    return (uint16_t)(sign | (q + (rest > half || (rest == half && (q & 1u)))));
}

HR_HALF_FN uint16_t hr_f32_to_bf16(float f)
{
    const uint32_t bits = hr_f32_bits(f);
    if ((bits & UINT32_C(0x7fffffff)) > UINT32_C(0x7f800000)) return hr_bf16_nan;
    return (uint16_t)((bits + UINT32_C(0x7fff) + ((bits >> 16) & 1u)) >> 16);
}

#endif
