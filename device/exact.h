/* The exact sums' accumulator (sum_exact, dot_exact; op_table.h's EXACT combine): a fixed-point
 * superaccumulator wide enough for any term the ops meet, so a sum is exact in any order and
 * rounded once at the end (the header's rules). Plain C that C and C++ read alike (integer
 * arithmetic only), so every executor keeps the one layout and the one rounding.
 *
 * Layout: digit i weighs 2^(32 i + HR_EXACT_LOW). The terms span 2^-2148 (the lowest bit of an
 * f64 x f64 product of subnormals) to below 2^2048 (the largest such product); 64 bits of count
 * above that keep 2^64 terms exact, and the top digit holds the sign. A digit takes terms' 32-bit
 * pieces (|piece| < 2^32), so 2^30 adds between normalisations can never overflow it.
 * Normalised: the digits below `hi` lie in [0, 2^32), digit `hi` is signed, |d[hi]| <= 2^32, and
 * every digit outside [lo, hi] is 0. Integers commute, so two accumulators add digit by digit
 * into the same bits in any order (threads, blocks). */
#ifndef HIPREDUCE_EXACT_H
#define HIPREDUCE_EXACT_H

#include <stdint.h>
#include <string.h>

#include "hipreduce/hipreduce.h"
#include "op_table.h"

/* GPU compilers build these for the device too (device/exact_kernels.h's last block rounds). */
#if defined(__CUDACC__) || defined(__HIPCC__)
#define HR_EXACT_FN static inline __host__ __device__
#else
#define HR_EXACT_FN static inline
#endif

enum {
    HR_EXACT_LOW = -2176,  /* the weight of digit 0's lowest bit: 2^-2176, below 2^-2148 */
    HR_EXACT_DIGITS = 136, /* 2^-2176 .. 2^2176: terms below 2^2048 times 2^64 of count, and a sign */
    HR_EXACT_SPILL = 1 << 30 /* adds between normalisations */
};

/* What is not a finite term: any NaN; +inf; -inf. For the sign of an exact zero: NEGZERO, some
 * term is -0.0; NONNEG, some term is not (-0.0 needs the first without the second). */
enum { HR_EXACT_NAN = 1, HR_EXACT_PINF = 2, HR_EXACT_NINF = 4, HR_EXACT_NEGZERO = 8, HR_EXACT_NONNEG = 16 };

typedef struct hr_exact {
    int64_t d[HR_EXACT_DIGITS];
    int32_t lo, hi;  /* the digits in use (lo > hi: none) */
    uint32_t flags;  /* HR_EXACT_* */
    uint32_t adds;   /* since the last normalisation */
} hr_exact;
HR_STATIC_ASSERT(sizeof(hr_exact) == 1104, "op_table.h's EXACT row has the accumulator's size");

HR_EXACT_FN void hr_exact_init(hr_exact* a)
{
    for (int i = 0; i < HR_EXACT_DIGITS; ++i) a->d[i] = 0; /* not memset: HIP's device code has none from string.h */
    a->lo = HR_EXACT_DIGITS;
    a->hi = -1;
    a->flags = 0;
    a->adds = 0;
}

/* Carries every digit into [0, 2^32) but the top one (the layout's normal form). */
HR_EXACT_FN void hr_exact_normalize(hr_exact* a)
{
    a->adds = 0;
    if (a->lo > a->hi) return;
    int64_t carry = 0;
    for (int i = a->lo; i <= a->hi; ++i) {
        const int64_t t = a->d[i] + carry;
        a->d[i] = t & 0xffffffff;
        carry = t >> 32; /* arithmetic: the floor */
    }
    if (carry == -1) {
        a->d[a->hi] -= (int64_t)1 << 32; /* the top digit keeps the sign: [-2^32, 0) */
    } else if (carry != 0) {
        a->d[++a->hi] = carry; /* |carry| < 2^31; the layout's 64 bits of count keep hi in range */
    }
}

/* Adds (-1)^neg * m * 2^q, m < 2^64, q >= HR_EXACT_LOW, its bits below 2^2176 (the caller's
 * terms: inputs and products). Three pieces of at most 32 bits. */
HR_EXACT_FN void hr_exact_add(hr_exact* a, int neg, uint64_t m, int q)
{
    if (m == 0) return;
    const int pos = q - HR_EXACT_LOW, i = pos >> 5, s = pos & 31;
    const uint64_t low = m << s, high = s ? m >> (64 - s) : 0; /* m * 2^s = high:low */
    const int64_t p0 = (int64_t)(low & 0xffffffff), p1 = (int64_t)(low >> 32), p2 = (int64_t)high;
    if (neg) {
        a->d[i] -= p0, a->d[i + 1] -= p1, a->d[i + 2] -= p2;
    } else {
        a->d[i] += p0, a->d[i + 1] += p1, a->d[i + 2] += p2;
    }
    if (i < a->lo) a->lo = i;
    if (i + 2 > a->hi) a->hi = i + 2;
    if (++a->adds >= HR_EXACT_SPILL) hr_exact_normalize(a);
}

/* Adds s * 2^q for a signed 64-bit s. */
HR_EXACT_FN void hr_exact_add_signed(hr_exact* a, int64_t s, int q)
{
    hr_exact_add(a, s < 0, s < 0 ? 0 - (uint64_t)s : (uint64_t)s, q);
}

/* Adds a normalised accumulator b into a (digit by digit: the same bits in any order). */
HR_EXACT_FN void hr_exact_merge(hr_exact* a, const hr_exact* b)
{
    for (int i = b->lo; i <= b->hi; ++i) a->d[i] += b->d[i];
    if (b->lo < a->lo) a->lo = b->lo;
    if (b->hi > a->hi) a->hi = b->hi;
    a->flags |= b->flags;
    hr_exact_normalize(a);
}

/* A finite f64 by its bits, into the digits only (a partial sum: no flags). */
HR_EXACT_FN void hr_exact_add_f64_value(hr_exact* a, uint64_t b)
{
    const int e = (int)((b >> 52) & 0x7ff);
    const uint64_t f = b & 0xfffffffffffffull;
    hr_exact_add(a, (int)(b >> 63), e ? f | (1ull << 52) : f, (e ? e : 1) - 1075);
}

/* One f64 term by its bits: NaN and infinities to the flags, a finite value to the digits. */
HR_EXACT_FN void hr_exact_add_f64_bits(hr_exact* a, uint64_t b)
{
    a->flags |= b != 0x8000000000000000ull ? HR_EXACT_NONNEG : HR_EXACT_NEGZERO;
    if (((b >> 52) & 0x7ff) == 0x7ff) {
        a->flags |= (b & 0xfffffffffffffull) ? HR_EXACT_NAN : (b >> 63) ? HR_EXACT_NINF : HR_EXACT_PINF;
        return;
    }
    hr_exact_add_f64_value(a, b);
}

/* The terms' least bit and the bound on their magnitude, as powers of two, for sums (dot 0) or
 * products (dot 1) of in_dtype: constant expressions (device/exact_terms.h sizes arrays by them). */
#define HR_EXACT_LEAST(dot, in_dtype)                                                                       \
    (((dot) ? 2 : 1) * ((in_dtype) == HIPREDUCE_F32    ? -149                                              \
                        : (in_dtype) == HIPREDUCE_BF16 ? -133                                              \
                        : (in_dtype) == HIPREDUCE_F16  ? -24                                               \
                                                       : -1074))
#define HR_EXACT_TOP(dot, in_dtype)                                                                         \
    (((dot) ? 2 : 1) * ((in_dtype) == HIPREDUCE_F32 || (in_dtype) == HIPREDUCE_BF16 ? 128                  \
                        : (in_dtype) == HIPREDUCE_F16                               ? 16                   \
                                                                                    : 1024))

/* The digits [*lo, *hi] that the terms of op (SUM_EXACT or DOT_EXACT) over in_dtype can reach,
 * with the count's 64 bits and the sign above them: an accumulator of such terms is 0 outside
 * them, normalised or not (so executors and MPI ranks keep and exchange only these digits). */
HR_EXACT_FN void hr_exact_digit_range(int op, int in_dtype, int* lo, int* hi)
{
    const int least = HR_EXACT_LEAST(op == HIPREDUCE_OP_DOT_EXACT, in_dtype), top = HR_EXACT_TOP(op == HIPREDUCE_OP_DOT_EXACT, in_dtype);
    *lo = (least - HR_EXACT_LOW) >> 5;
    *hi = (top + 64 - HR_EXACT_LOW) >> 5; /* the bit above the count's: the sign */
    if (*hi > HR_EXACT_DIGITS - 1) *hi = HR_EXACT_DIGITS - 1;
}

/* ---- the one rounding ---- */

/* 64 bits of the normalised non-negative accumulator from bit weight 2^k up (k >= HR_EXACT_LOW). */
HR_EXACT_FN uint64_t hr_exact_bits_at(const hr_exact* a, int k)
{
    const int pos = k - HR_EXACT_LOW, i = pos >> 5, s = pos & 31;
    uint64_t w[3];
    for (int j = 0; j < 3; ++j) w[j] = i + j >= a->lo && i + j <= a->hi ? (uint64_t)a->d[i + j] : 0;
    const uint64_t low = w[0] | (w[1] << 32); /* bits 0..63 from digit i */
    return s ? (low >> s) | (w[2] << (64 - s)) : low;
}

/* Whether any bit below weight 2^k is set (k > HR_EXACT_LOW). */
HR_EXACT_FN int hr_exact_any_below(const hr_exact* a, int k)
{
    const int pos = k - HR_EXACT_LOW, i = pos >> 5, s = pos & 31;
    for (int j = a->lo; j < i && j <= a->hi; ++j)
        if (a->d[j]) return 1;
    return i >= a->lo && i <= a->hi && s && ((uint64_t)a->d[i] & ((1ull << s) - 1)) != 0;
}

/* The result dtype's format: precision (with the hidden bit), least normal exponent, largest
 * exponent, total bits. */
typedef struct hr_exact_format {
    int p, emin, emax, bits;
} hr_exact_format;

HR_EXACT_FN hr_exact_format hr_exact_format_of(int dtype)
{
    hr_exact_format f = {53, -1022, 1023, 64};
    if (dtype == HIPREDUCE_F32) f.p = 24, f.emin = -126, f.emax = 127, f.bits = 32;
    if (dtype == HIPREDUCE_BF16) f.p = 8, f.emin = -126, f.emax = 127, f.bits = 16;
    if (dtype == HIPREDUCE_F16) f.p = 11, f.emin = -14, f.emax = 15, f.bits = 16;
    return f;
}

/* The result's bits (in the low f.bits of the return value): the header's rules. Normalises
 * (and may negate) a. */
HR_EXACT_FN uint64_t hr_exact_round(hr_exact* a, int dtype)
{
    const hr_exact_format f = hr_exact_format_of(dtype);
    const int frac = f.p - 1, ebits = f.bits - f.p;
    const uint64_t sign_bit = 1ull << (f.bits - 1), inf = ((1ull << ebits) - 1) << frac;
    const int nan = (a->flags & HR_EXACT_NAN) || (a->flags & (HR_EXACT_PINF | HR_EXACT_NINF)) == (HR_EXACT_PINF | HR_EXACT_NINF);
    if (nan) return inf | (1ull << (frac - 1)); /* the canonical quiet NaN */
    if (a->flags & HR_EXACT_PINF) return inf;
    if (a->flags & HR_EXACT_NINF) return sign_bit | inf;
    hr_exact_normalize(a);
    int neg = 0;
    if (a->lo <= a->hi && a->d[a->hi] < 0) { /* the magnitude: negate, normalise again */
        for (int i = a->lo; i <= a->hi; ++i) a->d[i] = -a->d[i];
        hr_exact_normalize(a);
        neg = 1;
    }
    int top = a->hi;
    while (top >= a->lo && a->d[top] == 0) --top;
    if (top < a->lo) /* an exact zero: -0.0 when every term is -0.0 (and there is one) */
        return (a->flags & (HR_EXACT_NEGZERO | HR_EXACT_NONNEG)) == HR_EXACT_NEGZERO ? sign_bit : 0;
    int msb = 31;
    while (!((uint64_t)a->d[top] >> msb & 1)) --msb;
    const int e = HR_EXACT_LOW + 32 * top + msb; /* the value lies in [2^e, 2^(e+1)) */
    const int ulp = (e < f.emin ? f.emin : e) - frac; /* the result's unit in the last place */
    const int width = e - ulp + 1; /* bits of the significand kept, <= p; <= 0 below half the least subnormal */
    uint64_t m = width <= 0 ? 0 : hr_exact_bits_at(a, ulp) & (width >= 64 ? ~0ull : (1ull << width) - 1);
    const int half = (int)(hr_exact_bits_at(a, ulp - 1) & 1);
    if (half && ((m & 1) || hr_exact_any_below(a, ulp - 1))) ++m; /* to nearest, ties to even */
    /* m * 2^ulp, m <= 2^p. Subnormals (ulp at its least) encode as m itself, and a carry into
     * 2^frac is the least normal: biased exponent (ulp - least ulp) above m's own. */
    const int least = f.emin - frac;
    uint64_t bits;
    if (m >> f.p) { /* rounded up to 2^p: one more exponent */
        m >>= 1;
        bits = (uint64_t)(ulp + 1 - least) << frac;
    } else {
        bits = (uint64_t)(ulp - least) << frac;
    }
    bits += m; /* m's hidden bit adds the 1 that makes (ulp - least) the biased exponent */
    if (bits >= inf) bits = inf; /* overflow: to infinity */
    return (neg ? sign_bit : 0) | bits;
}

/* hr_exact_round's bits stored as one `dtype` element at dst. */
HR_EXACT_FN void hr_exact_store(uint64_t bits, int dtype, void* dst)
{
    const uint32_t b32 = (uint32_t)bits;
    const uint16_t b16 = (uint16_t)bits;
    if (dtype == HIPREDUCE_F64) memcpy(dst, &bits, 8);
    else if (dtype == HIPREDUCE_F32) memcpy(dst, &b32, 4);
    else memcpy(dst, &b16, 2);
}

/* ---- the accumulator as words (libhipreduce_mpi's integer allreduce across ranks): the digits of
 * hr_exact_digit_range, then the flags ---- */

/* Words of a result in that form: its digits, then its flags. */
HR_EXACT_FN int hr_exact_words(int op, int in_dtype)
{
    int lo, hi;
    hr_exact_digit_range(op, in_dtype, &lo, &hi);
    return hi - lo + 2;
}

/* a (normalised here) as words: digits lo..hi, then the flags. Words of several such results
 * add digit by digit (the flags OR) into the words of their sum, as long as fewer than 2^31 are
 * added: normalised digits are below 2^32. */
HR_EXACT_FN void hr_exact_to_words(hr_exact* a, int op, int in_dtype, int64_t* w)
{
    int lo, hi;
    hr_exact_digit_range(op, in_dtype, &lo, &hi);
    hr_exact_normalize(a);
    for (int i = lo; i <= hi; ++i) w[i - lo] = a->d[i];
    w[hi - lo + 1] = (int64_t)a->flags;
}

/* The accumulator of words (of one result or a sum of several). */
HR_EXACT_FN void hr_exact_from_words(hr_exact* a, int op, int in_dtype, const int64_t* w)
{
    int lo, hi;
    hr_exact_digit_range(op, in_dtype, &lo, &hi);
    hr_exact_init(a);
    for (int i = lo; i <= hi; ++i) a->d[i] = w[i - lo];
    a->lo = lo;
    a->hi = hi;
    a->flags = (uint32_t)w[hi - lo + 1];
    hr_exact_normalize(a);
}

#endif
