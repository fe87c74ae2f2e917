/* The cpu device's exact sums, one block of terms at a time (cpu_exact.c's kernels; static
 * inline, compiled into each instruction-set copy there).
 *
 * Each block of HR_EXACT_BLOCK terms is summed in a window of binades under a largest exponent,
 * where every term is a multiple of the window's lowest bit and no sum of the block can need more
 * than 53 bits, so f64 adds sum it without a rounding and the sums enter the accumulator once:
 *  - f32 terms (and f16/bf16 ones, widened): 20 binades, the terms themselves;
 *  - f64 terms (and the products of f16/bf16/f32 inputs, exact in f64): 34 binades, each term
 *    split into (x + C) - C and the rest, two sums.
 * The window comes from the previous block when the block fits it (one pass), else from the
 * block's own maximum (two). Terms below the window (2^-19 or 2^-33 of its top: rare in real
 * data) and blocks with an infinity or a NaN go to the accumulator one by one, as do f64 x f64
 * products (106 bits: cpu_exact.c). Vector code through GCC's and Clang's vector extensions. */
#ifndef HIPREDUCE_CPU_EXACT_BLOCKS_H
#define HIPREDUCE_CPU_EXACT_BLOCKS_H

#include <stdint.h>
#include <string.h>

#include "exact.h"

#define HR_EXACT_INLINE static inline __attribute__((always_inline))

enum { HR_EXACT_BLOCK = 1024 }; /* terms per block: the windows' bounds hold for 1024 */

/* ---- one block of terms ---- */

static uint64_t f64_bits(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}


/* Vectors of GCC's and Clang's vector extensions: 32 bytes, two 16-byte registers where the
 * build has no wider ones. */
typedef uint64_t u64x4 __attribute__((vector_size(32)));
typedef int64_t i64x4 __attribute__((vector_size(32)));
typedef uint32_t u32x8 __attribute__((vector_size(32)));
typedef int32_t i32x8 __attribute__((vector_size(32)));
typedef float f32x4 __attribute__((vector_size(16)));
typedef double f64x4 __attribute__((vector_size(32)));

/* Adds the finite f64 v times 2^shift (a window's sum, computed scaled down). */
static void add_f64_shifted(hr_exact* a, double v, int shift)
{
    const uint64_t b = f64_bits(v);
    const int e = (int)((b >> 52) & 0x7ff);
    const uint64_t f = b & 0xfffffffffffffull;
    hr_exact_add(a, (int)(b >> 63), e ? f | (1ull << 52) : f, (e ? e : 1) - 1075 + shift);
}

/* One pass over k f64 terms for the window whose largest exponent field is top (>= 1; E =
 * top - 1023, C = 1.5 * 2^(E + 11), blocks at the top of the range scaled by 2^-shift): the two
 * parts' sums of the terms in the window, whether any non-zero term lies below it, the largest
 * magnitude's bits and whether any term is not -0.0. */
HR_EXACT_INLINE void window_f64(const unsigned char* p, size_t k, int top, int shift, double* hi_sum, double* lo_sum,
                                int* late, uint64_t* high_bits, uint64_t* any)
{
    const uint64_t abs_mask = 0x7fffffffffffffffull, neg_zero = 1ull << 63;
    const uint64_t floor_bits = top > 34 ? (uint64_t)(top - 33) << 52 : 0; /* the window's least magnitude */
    const double scale = shift ? 0x1p-128 : 1.0;
    const uint64_t c_bits = ((uint64_t)(top - shift + 11) << 52) | (1ull << 51);
    double c;
    memcpy(&c, &c_bits, 8);
    f64x4 hi0 = {0, 0, 0, 0}, hi1 = hi0, lo0 = hi0, lo1 = hi0;
    u64x4 below = {0, 0, 0, 0}, nonneg = below;
    i64x4 top0 = {0, 0, 0, 0}, top1 = top0;
    size_t j = 0;
    for (; j + 8 <= k; j += 8) {
        u64x4 b0, b1;
        memcpy(&b0, p + 8 * j, 32);
        memcpy(&b1, p + 8 * j + 32, 32);
        __builtin_prefetch(p + 8 * j + 8 * HR_EXACT_BLOCK); /* the next block's loads overlap this sum */
        const i64x4 m0 = (i64x4)(b0 & abs_mask), m1 = (i64x4)(b1 & abs_mask); /* below 2^63: signed compares */
        const i64x4 more0 = m0 > top0, more1 = m1 > top1;
        top0 = (top0 & ~more0) | (m0 & more0);
        top1 = (top1 & ~more1) | (m1 & more1);
        nonneg |= (b0 ^ neg_zero) | (b1 ^ neg_zero);
        const u64x4 in0 = (u64x4)(m0 >= (int64_t)floor_bits), in1 = (u64x4)(m1 >= (int64_t)floor_bits);
        below |= ((u64x4)m0 & ~in0) | ((u64x4)m1 & ~in1);
        const f64x4 x0 = (f64x4)(b0 & in0) * scale, x1 = (f64x4)(b1 & in1) * scale;
        const f64x4 h0 = (x0 + c) - c, h1 = (x1 + c) - c;
        hi0 += h0, hi1 += h1;
        lo0 += x0 - h0, lo1 += x1 - h1;
    }
    double hi = ((hi0[0] + hi1[0]) + (hi0[1] + hi1[1])) + ((hi0[2] + hi1[2]) + (hi0[3] + hi1[3]));
    double lo = ((lo0[0] + lo1[0]) + (lo0[1] + lo1[1])) + ((lo0[2] + lo1[2]) + (lo0[3] + lo1[3]));
    uint64_t t = 0, n = 0, l = 0;
    for (int i = 0; i < 4; ++i) {
        t = (uint64_t)top0[i] > t ? (uint64_t)top0[i] : t;
        t = (uint64_t)top1[i] > t ? (uint64_t)top1[i] : t;
        n |= nonneg[i];
        l |= below[i];
    }
    for (; j < k; ++j) {
        uint64_t b;
        double x;
        memcpy(&b, p + 8 * j, 8);
        memcpy(&x, &b, 8);
        t = (b & abs_mask) > t ? b & abs_mask : t;
        n |= b ^ neg_zero;
        if ((b & abs_mask) < floor_bits) {
            l |= b & abs_mask;
            continue;
        }
        x *= scale;
        const double h = (x + c) - c;
        hi += h;
        lo += x - h;
    }
    *hi_sum = hi, *lo_sum = lo, *late = l != 0, *high_bits = t, *any = n;
}

/* k f64 terms (any alignment). With E the window's largest exponent and C = 1.5 * 2^(E + 11),
 * (x + C) - C is x rounded to a multiple of 2^(E - 41) and x less it is exact and below
 * 2^(E - 42); for every term within 33 binades of E both parts' sums of 1024 terms have at most
 * 53 significant bits, so f64 adds take them without a rounding. Blocks at the top of the range
 * (C would overflow) are scaled by 2^-128 first, which is exact for the terms in the window.
 * *guess carries the window from block to block (0: none yet), as block_f32's. */
HR_EXACT_INLINE void block_f64(hr_exact* a, const unsigned char* p, size_t k, uint32_t* guess)
{
    double hi = 0, lo = 0;
    int late = 0, done = 0;
    uint64_t high_bits = 0, any = 0;
    int top = (int)*guess;
    if (top) {
        window_f64(p, k, top, top > 0x7f0 ? 128 : 0, &hi, &lo, &late, &high_bits, &any);
        /* else inexact (a term above the window), or many terms below it: again with the block's own */
        done = (int)(high_bits >> 52) <= top && (int)(high_bits >> 52) + 8 >= top;
    }
    if (!done) {
        for (size_t j = 0; j < k; ++j) {
            uint64_t b;
            memcpy(&b, p + 8 * j, 8);
            high_bits = (b & 0x7fffffffffffffffull) > high_bits ? b & 0x7fffffffffffffffull : high_bits;
        }
        if (high_bits >> 52 == 0x7ff) { /* an infinity or a NaN: term by term */
            for (size_t j = 0; j < k; ++j) {
                uint64_t b;
                memcpy(&b, p + 8 * j, 8);
                hr_exact_add_f64_bits(a, b);
            }
            *guess = 0;
            return;
        }
        top = high_bits >> 52 ? (int)(high_bits >> 52) : 1; /* a subnormal's exponent is 1's */
        window_f64(p, k, top, top > 0x7f0 ? 128 : 0, &hi, &lo, &late, &high_bits, &any);
    }
    const int shift = top > 0x7f0 ? 128 : 0;
    const uint64_t floor_bits = top > 34 ? (uint64_t)(top - 33) << 52 : 0;
    *guess = (uint32_t)top;
    a->flags |= any ? HR_EXACT_NONNEG : k ? HR_EXACT_NEGZERO : 0;
    add_f64_shifted(a, hi, shift);
    add_f64_shifted(a, lo, shift);
    if (late)
        for (size_t j = 0; j < k; ++j) {
            uint64_t b;
            memcpy(&b, p + 8 * j, 8);
            if ((b & 0x7fffffffffffffffull) < floor_bits) hr_exact_add_f64_value(a, b);
        }
}

/* The f32 window whose largest exponent is emax: its least magnitude's bits. */
static inline int32_t f32_floor(uint32_t emax) { return emax > 20 ? (int32_t)((emax - 19) << 23) : 0; }

/* One pass over k f32 terms: the sum in f64 of those at or above floor_bits, whether any (non-zero)
 * term lies below, the largest magnitude and whether any term is not -0.0. The sum is exact when
 * no term's exponent exceeds the window's (block_f32). */
HR_EXACT_INLINE double window_f32(const unsigned char* p, size_t k, int32_t floor_bits, int* late, uint32_t* top,
                                  uint32_t* any)
{
    f64x4 sum0 = {0, 0, 0, 0}, sum1 = sum0;
    u32x8 below = {0, 0, 0, 0, 0, 0, 0, 0}, nonneg = below;
    i32x8 high = {0, 0, 0, 0, 0, 0, 0, 0};
    size_t j = 0;
    for (; j + 8 <= k; j += 8) {
        u32x8 b;
        memcpy(&b, p + 4 * j, 32);
        __builtin_prefetch(p + 4 * j + 4 * HR_EXACT_BLOCK); /* the next block's loads overlap this sum */
        const u32x8 mag = b & 0x7fffffff;
        const i32x8 more = (i32x8)mag > high;
        high = (high & ~more) | ((i32x8)mag & more);
        nonneg |= b ^ 0x80000000u;
        const u32x8 in = (u32x8)((i32x8)mag >= floor_bits);
        const u32x8 kept = b & in;
        below |= mag & ~in;
        f32x4 f0, f1;
        memcpy(&f0, &kept, 16);
        memcpy(&f1, (const unsigned char*)&kept + 16, 16);
        sum0 += __builtin_convertvector(f0, f64x4);
        sum1 += __builtin_convertvector(f1, f64x4);
    }
    double total = (sum0[0] + sum1[0]) + (sum0[1] + sum1[1]) + (sum0[2] + sum1[2]) + (sum0[3] + sum1[3]);
    uint32_t t = 0, n = 0, l = 0;
    for (int i = 0; i < 8; ++i) {
        t = (uint32_t)high[i] > t ? (uint32_t)high[i] : t;
        n |= nonneg[i];
        l |= below[i];
    }
    for (; j < k; ++j) {
        uint32_t b;
        float f;
        memcpy(&b, p + 4 * j, 4);
        memcpy(&f, &b, 4);
        t = (b & 0x7fffffff) > t ? b & 0x7fffffff : t;
        n |= b ^ 0x80000000u;
        if ((int32_t)(b & 0x7fffffff) >= floor_bits) total += (double)f;
        else l |= b & 0x7fffffff;
    }
    *late = l != 0;
    *top = t;
    *any = n;
    return total;
}

/* k f32 terms (any alignment): in f64, exactly. Terms within 19 binades of the window's largest
 * exponent are multiples of 2^(base - 150) below 2^(emax - 126), so any sum of 1024 of them has at
 * most 53 significant bits: f64 adds take them without a rounding. *guess carries the window from
 * block to block (0: none yet): one pass when no term of the block lies above it and its largest
 * is within 4 binades of it, else a second with the block's own (which the next block inherits). */
HR_EXACT_INLINE void block_f32(hr_exact* a, const unsigned char* p, size_t k, uint32_t* guess)
{
    int late = 0;
    uint32_t top = 0, any = 0;
    int32_t floor_bits = f32_floor(*guess);
    double total = 0;
    int done = 0;
    if (*guess) {
        total = window_f32(p, k, floor_bits, &late, &top, &any);
        /* else inexact (a term above the window), or many terms below it: again with the block's own */
        done = (top >> 23) <= *guess && (top >> 23) + 4 >= *guess;
    }
    if (!done) {
        for (size_t j = 0; j < k; ++j) {
            uint32_t b;
            memcpy(&b, p + 4 * j, 4);
            top = (b & 0x7fffffff) > top ? b & 0x7fffffff : top;
        }
        if (top >> 23 == 0xff) { /* an infinity or a NaN: term by term */
            for (size_t j = 0; j < k; ++j) {
                float f;
                memcpy(&f, p + 4 * j, 4);
                hr_exact_add_f64_bits(a, f64_bits((double)f));
            }
            *guess = 0;
            return;
        }
        *guess = top >> 23;
        floor_bits = f32_floor(*guess);
        total = window_f32(p, k, floor_bits, &late, &top, &any);
    }
    a->flags |= any ? HR_EXACT_NONNEG : k ? HR_EXACT_NEGZERO : 0;
    hr_exact_add_f64_value(a, f64_bits(total));
    if (late)
        for (size_t j = 0; j < k; ++j) {
            uint32_t b;
            float f;
            memcpy(&b, p + 4 * j, 4);
            memcpy(&f, &b, 4);
            if ((int32_t)(b & 0x7fffffff) < floor_bits) hr_exact_add_f64_value(a, f64_bits((double)f));
        }
}

#endif
