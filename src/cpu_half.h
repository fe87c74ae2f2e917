/* f16 (IEEE binary16) and bf16 to and from f32 for the cpu device (ISSUE10_SPEC):
 *  - to f32: exact (subnormals, infinities; a NaN stays a NaN). The f16 path is selects over
 *    integers and one subtraction of normal numbers, which the lane loops vectorise (GCC left
 *    an int-to-float conversion scalar), and no arithmetic touches a subnormal, so a caller's
 *    flush-to-zero or denormals-are-zero mode cannot change it;
 *  - from f32 (rounding a result once): nearest, ties to even; overflow to infinity; any NaN to
 *    the canonical NaN (f16 0x7e00, bf16 0x7fc0). Scalar: it runs once per call. */
#ifndef HIPREDUCE_CPU_HALF_H
#define HIPREDUCE_CPU_HALF_H

#include <stdint.h>
#include <string.h>

enum { HR_F16_NAN = 0x7e00, HR_BF16_NAN = 0x7fc0 };

static inline float hr_bits_f32(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static inline uint32_t hr_f32_bits(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

static inline float hr_f16_to_f32(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    const uint32_t shifted = (uint32_t)(h & 0x7fffu) << 13;  /* exponent and mantissa in place */
    const uint32_t exponent = shifted & UINT32_C(0x0f800000);
    uint32_t bits = shifted + UINT32_C(0x38000000);          /* rebias 15 -> 127 */
    if (exponent == UINT32_C(0x0f800000)) bits += UINT32_C(0x38000000); /* inf/NaN: exponent 255 */
    /* Subnormal (and zero) m * 2^-24: as 2^-14 * (1 + m/1024) less 2^-14, both normal, exact. */
    const float f = hr_bits_f32(exponent == 0 ? bits + UINT32_C(0x00800000) : bits);
    const float subnormal = f - 0x1p-14f; /* computed always: GCC does not vectorise a conditional one */
    return hr_bits_f32(hr_f32_bits(exponent == 0 ? subnormal : f) | sign);
}

static inline float hr_bf16_to_f32(uint16_t h) { return hr_bits_f32((uint32_t)h << 16); }

static inline uint16_t hr_f32_to_f16(float f)
{
    const uint32_t bits = hr_f32_bits(f);
    const uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
    const uint32_t a = bits & UINT32_C(0x7fffffff);
    if (a > UINT32_C(0x7f800000)) return HR_F16_NAN;
    if (a >= UINT32_C(0x477ff000)) return (uint16_t)(sign | 0x7c00u); /* >= 65520 rounds to inf */
    if (a >= UINT32_C(0x38800000)) {                                   /* normal f16: >= 2^-14 */
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

static inline uint16_t hr_f32_to_bf16(float f)
{
    const uint32_t bits = hr_f32_bits(f);
    if ((bits & UINT32_C(0x7fffffff)) > UINT32_C(0x7f800000)) return HR_BF16_NAN;
    return (uint16_t)((bits + UINT32_C(0x7fff) + ((bits >> 16) & 1u)) >> 16);
}

#endif
