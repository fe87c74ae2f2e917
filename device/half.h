/* f16 (IEEE binary16) and bf16 conversions of the device code, on raw 16-bit values, with
 * integer arithmetic only, so that every backend (and the emulator) gives the same bits
 * without a vendor half header:
 *  - to f32: exact (subnormals, infinities; a NaN stays a NaN);
 *  - from f32 (a result's one rounding): round to nearest, ties to even, overflow to
 *    infinity, any NaN to the canonical NaN (f16 0x7e00, bf16 0x7fc0).
 * On NVIDIA, f16 -> f32 in the streaming loops is the hardware conversion (exact as well). */
#ifndef HIPREDUCE_HALF_H
#define HIPREDUCE_HALF_H

#include <stdint.h>

#ifndef HR_HD
#if defined(__CUDACC__) || defined(__HIPCC__)
#define HR_HD __host__ __device__ __forceinline__
#else
#define HR_HD inline
#endif
#endif

namespace hr {

enum : uint16_t { F16_INF = 0x7c00, F16_NAN = 0x7e00, BF16_INF = 0x7f80, BF16_NAN = 0x7fc0 };

HR_HD float f16_to_f32(uint16_t h)
{
#if defined(__CUDA_ARCH__)
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
#else
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1f) return __builtin_bit_cast(float, sign | 0x7f800000u | (m << 13));
    if (e != 0) return __builtin_bit_cast(float, sign | ((e + 112u) << 23) | (m << 13));
    /* Subnormal (or zero): m * 2^-24, exact in f32. */
    const float mag = (float)m * 5.9604644775390625e-8f;
    return __builtin_bit_cast(float, __builtin_bit_cast(uint32_t, mag) | sign);
#endif
}

HR_HD float bf16_to_f32(uint16_t h) { return __builtin_bit_cast(float, (uint32_t)h << 16); }

HR_HD uint16_t f32_to_f16(float f)
{
    const uint32_t bits = __builtin_bit_cast(uint32_t, f);
    const uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
    const uint32_t x = bits & 0x7fffffffu;
    if (x > 0x7f800000u) return F16_NAN;
    if (x >= 0x477ff000u) return (uint16_t)(sign | F16_INF); /* 65520 and up round to infinity */
    if (x >= 0x38800000u) {                                   /* normal f16: rebias, round on bit 13 */
        const uint32_t r = x - 0x38000000u + 0xfffu + ((x >> 13) & 1u);
        return (uint16_t)(sign | (r >> 13));
    }
    const uint32_t e = x >> 23;
    if (e < 102) return sign; /* below 2^-25 (half the smallest subnormal): zero */
    const uint32_t m = (x & 0x7fffffu) | 0x800000u, shift = 126 - e; /* 14 .. 24 */
    uint32_t r = m >> shift;
    const uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (r & 1u))) ++r;
    return (uint16_t)(sign | r);
}

HR_HD uint16_t f32_to_bf16(float f)
{
    const uint32_t bits = __builtin_bit_cast(uint32_t, f);
    if ((bits & 0x7fffffffu) > 0x7f800000u) return BF16_NAN;
    return (uint16_t)((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

}  // namespace hr

#endif
