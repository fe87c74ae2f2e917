/* The statistics' accumulators and their arithmetic (hipreduce.h's "Statistics"): plain C that
 * the cpu device (src/cpu_ops.h, cpu_result.c) reads as C and the device code (device/combines.h,
 * transforms.h, stores.h) as __host__ __device__ C++, so that every device runs one definition and
 * gets the same bits (built without contraction, as every float accumulation: docs/DESIGN.md).
 *
 *  - SUMN (nanmean): a float sum and the count of the elements summed; the sum is nansum's
 *    accumulator (the same lifts, identity -0.0 and order), the count exact in 64 bits.
 *  - MOM (var, std): the count n, the mean and m, the mean of the squared deviations from it
 *    (M2 / n, not M2: no intermediate is n times the variance, so data whose variance is finite
 *    keeps it finite). One element is (1, x, x - x); two are merged by Chan's update,
 *      n = na + nb,  wa = na / n,  wb = nb / n,  d = mean_b - mean_a,
 *      mean = mean_a + d * wb,  m = (wa * m_a + wb * m_b) + (wa * d) * (wb * d),
 *    every term >= 0, so m is never negative; no square of the data and no sum of them is formed.
 *    The operands are first put in a fixed order (larger count, then larger bits), so the merge
 *    is commutative bit for bit: a butterfly tree, whose lanes combine (a, b) and (b, a), leaves
 *    the same bits in every lane. An empty side (n 0) returns the other exactly. Non-finite
 *    means (an element +-inf or NaN) give mean_a + mean_b (the sign of the infinities, or NaN)
 *    and m NaN; finite means too far apart for d give the weighted mean and m +inf. A NaN a merge
 *    makes is the canonical one, so a merge's bits never depend on which operand's NaN payload
 *    an addition keeps (the code generation's choice).
 *  - LSE (logsumexp): a running maximum and a rescaled sum, with this file's own exp and log
 *    (below: the vendors' differ in their last bits);
 *  - MM (aminmax): the least and greatest order key, minmax.h (included at the end). */
#ifndef HIPREDUCE_STATS_H
#define HIPREDUCE_STATS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__CUDACC__)
#define HR_STATS_FN static __host__ __device__ __forceinline__
#elif defined(__HIPCC__)
#define HR_STATS_FN static __host__ __device__ inline __attribute__((always_inline))
#else
#define HR_STATS_FN static inline
#endif

/* 8-byte alignment for the accumulators of two 4-byte words: the GPUs' coherent loads of a partial
 * take 64-bit words (device/compat/cuda.h). */
#ifdef __cplusplus
#define HR_STATS_ALIGN8 alignas(8)
#else
#define HR_STATS_ALIGN8 _Alignas(8)
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hr_sumn_f32 {
    float sum;
    uint32_t pad; /* zero */
    uint64_t count;
} hr_sumn_f32;
typedef struct hr_sumn_f64 {
    double sum;
    uint64_t count;
} hr_sumn_f64;
typedef struct hr_mom_f32 {
    float mean, m;
    uint64_t count;
} hr_mom_f32;
typedef struct hr_mom_f64 {
    double mean, m;
    uint64_t count;
} hr_mom_f64;

/* One definition per float type F (f32: float, bits uint32_t, NaN/inf bits; f64 likewise). */
#define HR_STATS_DEFINE(F, T, B, NAN_BITS, INF_BITS)                                                        \
    HR_STATS_FN B hr_stats_bits_##F(T x)                                                                    \
    {                                                                                                       \
        B b;                                                                                                \
        memcpy(&b, &x, sizeof b);                                                                           \
        return b;                                                                                           \
    }                                                                                                       \
    HR_STATS_FN T hr_stats_of_bits_##F(B b)                                                                 \
    {                                                                                                       \
        T x;                                                                                                \
        memcpy(&x, &b, sizeof x);                                                                           \
        return x;                                                                                           \
    }                                                                                                       \
    HR_STATS_FN T hr_stats_nan_##F(void) { return hr_stats_of_bits_##F(NAN_BITS); }                         \
    HR_STATS_FN int hr_stats_finite_##F(T x) { return (hr_stats_bits_##F(x) & ~((B)1 << (sizeof(B) * 8 - 1))) < (INF_BITS); } \
                                                                                                            \
    /* nanmean's lifts and sum: a NaN is +0.0 and not counted. */                                           \
    HR_STATS_FN hr_sumn_##F hr_sumn_lift_##F(T x)                                                           \
    {                                                                                                       \
        const int nan = x != x;                                                                             \
        hr_sumn_##F r;                                                                                      \
        memset(&r, 0, sizeof r);                                                                            \
        r.sum = nan ? (T)0 : x;                                                                             \
        r.count = nan ? 0u : 1u;                                                                            \
        return r;                                                                                           \
    }                                                                                                       \
    HR_STATS_FN hr_sumn_##F hr_sumn_identity_##F(void)                                                      \
    {                                                                                                       \
        hr_sumn_##F r;                                                                                      \
        memset(&r, 0, sizeof r);                                                                            \
        r.sum = -(T)0;                                                                                      \
        return r;                                                                                           \
    }                                                                                                       \
    HR_STATS_FN hr_sumn_##F hr_sumn_add_##F(hr_sumn_##F a, hr_sumn_##F b)                                   \
    {                                                                                                       \
        a.sum = a.sum + b.sum;                                                                              \
        a.count += b.count;                                                                                 \
        return a;                                                                                           \
    }                                                                                                       \
    /* The mean: the sum / its count, in F (the count rounded to F); no element: NaN (0 / 0). */            \
    HR_STATS_FN T hr_sumn_mean_##F(hr_sumn_##F a) { return a.count == 0 ? hr_stats_nan_##F() : a.sum / (T)a.count; } \
                                                                                                            \
    HR_STATS_FN hr_mom_##F hr_mom_lift_##F(T x)                                                             \
    {                                                                                                       \
        hr_mom_##F r;                                                                                       \
        r.mean = x;                                                                                         \
        r.m = x - x; /* +0.0, or NaN for an infinity or a NaN */                                            \
        r.count = 1;                                                                                        \
        return r;                                                                                           \
    }                                                                                                       \
    HR_STATS_FN hr_mom_##F hr_mom_identity_##F(void)                                                        \
    {                                                                                                       \
        hr_mom_##F r;                                                                                       \
        r.mean = 0;                                                                                         \
        r.m = 0;                                                                                            \
        r.count = 0;                                                                                        \
        return r;                                                                                           \
    }                                                                                                       \
    /* Whether x goes before y in a merge: the larger count, then the larger bits. */                       \
    HR_STATS_FN int hr_mom_before_##F(hr_mom_##F x, hr_mom_##F y)                                           \
    {                                                                                                       \
        if (x.count != y.count) return x.count > y.count;                                                   \
        const B xm = hr_stats_bits_##F(x.mean), ym = hr_stats_bits_##F(y.mean);                             \
        if (xm != ym) return xm > ym;                                                                       \
        return hr_stats_bits_##F(x.m) > hr_stats_bits_##F(y.m);                                             \
    }                                                                                                       \
    HR_STATS_FN hr_mom_##F hr_mom_merge_##F(hr_mom_##F a, hr_mom_##F b)                                     \
    {                                                                                                       \
        if (b.count == 0) return a;                                                                         \
        if (a.count == 0) return b;                                                                         \
        if (hr_mom_before_##F(b, a)) {                                                                      \
            const hr_mom_##F t = a;                                                                         \
            a = b;                                                                                          \
            b = t;                                                                                          \
        }                                                                                                   \
        hr_mom_##F r;                                                                                       \
        r.count = a.count + b.count;                                                                        \
        const T n = (T)r.count, wa = (T)a.count / n, wb = (T)b.count / n;                                   \
        if (!hr_stats_finite_##F(a.mean) || !hr_stats_finite_##F(b.mean)) {                                 \
            r.mean = a.mean + b.mean;                                                                       \
            r.m = hr_stats_nan_##F();                                                                       \
        } else {                                                                                            \
            const T d = b.mean - a.mean;                                                                    \
            if (!hr_stats_finite_##F(d)) {                                                                  \
                r.mean = a.mean * wa + b.mean * wb;                                                         \
                r.m = hr_stats_of_bits_##F(INF_BITS);                                                       \
            } else {                                                                                        \
                r.mean = a.mean + d * wb;                                                                   \
                r.m = (wa * a.m + wb * b.m) + (wa * d) * (wb * d);                                          \
            }                                                                                               \
        }                                                                                                   \
        /* NaNs canonical: which operand's payload an addition keeps is the code generation's */            \
        if (r.mean != r.mean) r.mean = hr_stats_nan_##F();                                                  \
        if (r.m != r.m) r.m = hr_stats_nan_##F();                                                           \
        return r;                                                                                           \
    }                                                                                                       \
    /* The variance with a correction: m * (n / max(n - correction, 0)), in F (n and the correction         \
     * rounded to F): a divisor 0 gives +inf, or NaN when m is 0 (n == 0 included). */                      \
    HR_STATS_FN T hr_mom_var_##F(hr_mom_##F a, double correction)                                           \
    {                                                                                                       \
        const T n = (T)a.count;                                                                             \
        T dof = n - (T)correction;                                                                          \
        if (!(dof > 0)) dof = 0;                                                                            \
        return a.m * (n / dof);                                                                             \
    }                                                                                                       \
    /* The mean of the moments: NaN for no element. */                                                      \
    HR_STATS_FN T hr_mom_mean_##F(hr_mom_##F a) { return a.count == 0 ? hr_stats_nan_##F() : a.mean; }

HR_STATS_DEFINE(f32, float, uint32_t, UINT32_C(0x7fc00000), UINT32_C(0x7f800000))
HR_STATS_DEFINE(f64, double, uint64_t, UINT64_C(0x7ff8000000000000), UINT64_C(0x7ff0000000000000))
#undef HR_STATS_DEFINE

/* exp(t) for t <= 0 and log(s) for s >= 1, logsumexp's (below), from +, -, *, / and floor only,
 * so that every device computes the same bits (the vendors' exp and log differ in their last
 * bits). exp: t = k ln2 + r (Cody and Waite's two-part ln2, k ln2's high part exact), |r| <=
 * ln2 / 2, exp(r) by its Taylor polynomial (degree 13 in f64, 7 in f32: the truncation below a
 * unit roundoff), times 2^k (two steps below the normal range, one rounding); t <= -746 (f32:
 * -104) or -inf gives +0.0, NaN NaN. log: s = 2^e f, f in [sqrt(1/2), sqrt(2)), log f = 2 atanh(z),
 * z = (f - 1) / (f + 1), |z| <= 0.172, by its odd series; +0.0 gives -inf, +inf +inf. Measured
 * against long double on 2 million arguments: exp within 1.6 unit roundoffs (f64) and 1.8 (f32),
 * log within 2.9 of its value (s >= e^(1/1000)). One definition for both types: F's fraction bits
 * MANT and exponent bias BIAS, its constants, and where its polynomials start in the tables of
 * coefficients (EXP_FIRST, LOG_FIRST: f64 from 1/13! and 1/23, f32 from 1/7! and 1/11). */
#define HR_EXP_LOG_DEFINE(F, T, B, FLOOR, MANT, BIAS, INF_BITS, EXP_MIN, LOG2E, LN2_HI, LN2_LO, SQRT2,      \
                          EXP_FIRST, LOG_FIRST)                                                             \
    HR_STATS_FN T hr_exp_neg_##F(T t)                                                                       \
    {                                                                                                       \
        if (!(t > EXP_MIN)) return t != t ? t : (T)0;                                                       \
        const T k = FLOOR(t * LOG2E + (T)0.5);                                                              \
        const T r = (t - k * LN2_HI) - k * LN2_LO;                                                          \
        const T c[14] = {(T)1 / (T)6227020800, (T)1 / (T)479001600, (T)1 / (T)39916800, (T)1 / (T)3628800,  \
                         (T)1 / (T)362880,     (T)1 / (T)40320,     (T)1 / (T)5040,     (T)1 / (T)720,      \
                         (T)1 / (T)120,        (T)1 / (T)24,        (T)1 / (T)6,        (T)1 / (T)2,        \
                         (T)1,                 (T)1}; /* 1 / k!, k = 13 down to 0 */                        \
        T p = c[EXP_FIRST];                                                                                 \
        for (int i = (EXP_FIRST) + 1; i < 14; ++i) p = p * r + c[i];                                        \
        const int e = (int)k;                                                                               \
        if (e >= 1 - (BIAS)) return p * hr_stats_of_bits_##F((B)(e + (BIAS)) << (MANT));                    \
        return (p * hr_stats_of_bits_##F((B)(e + (MANT) + 2 + (BIAS)) << (MANT))) *                         \
               hr_stats_of_bits_##F((B)((BIAS) - (MANT) - 2) << (MANT));                                    \
    }                                                                                                       \
    HR_STATS_FN T hr_log_##F(T s)                                                                           \
    {                                                                                                       \
        if (s != s || s == hr_stats_of_bits_##F(INF_BITS)) return s;                                        \
        if (!(s > 0)) return -hr_stats_of_bits_##F(INF_BITS);                                               \
        const B b = hr_stats_bits_##F(s);                                                                   \
        int e = (int)(b >> (MANT)) - (BIAS); /* s >= 1: a normal number */                                  \
        T f = hr_stats_of_bits_##F((b & (((B)1 << (MANT)) - 1)) | ((B)(BIAS) << (MANT)));                   \
        if (f > SQRT2) f = f * (T)0.5, e += 1;                                                              \
        const T z = (f - (T)1) / (f + (T)1), z2 = z * z;                                                    \
        const T c[11] = {(T)1 / (T)23, (T)1 / (T)21, (T)1 / (T)19, (T)1 / (T)17, (T)1 / (T)15, (T)1 / (T)13, \
                         (T)1 / (T)11, (T)1 / (T)9,  (T)1 / (T)7,  (T)1 / (T)5,  (T)1 / (T)3};              \
        T p = c[LOG_FIRST];                                                                                 \
        for (int i = (LOG_FIRST) + 1; i < 11; ++i) p = p * z2 + c[i];                                       \
        const T ed = (T)e;                                                                                  \
        return ed * LN2_HI + ((2 * z + 2 * z * (z2 * p)) + ed * LN2_LO);                                    \
    }
HR_EXP_LOG_DEFINE(f64, double, uint64_t, floor, 52, 1023, UINT64_C(0x7ff0000000000000), -746.0, 1.4426950408889634,
                  6.93147180369123816490e-01, 1.90821492927058770002e-10, 1.4142135623730951, 0, 0)
HR_EXP_LOG_DEFINE(f32, float, uint32_t, floorf, 23, 127, UINT32_C(0x7f800000), -104.0f, 1.44269504f, 0.693145751953125f,
                  1.428606765330187045e-06f, 1.41421356f, 6, 6)
#undef HR_EXP_LOG_DEFINE

/* logsumexp's accumulator: the largest element so far and the sum of exp(x - it). One element is
 * (x, 1), the identity (-inf, 0). Merging puts the larger maximum first (equal ones need no
 * order: the sum is then a + b * 1, commutative), so it is commutative bit for bit, and adds the
 * other side's sum scaled by exp(its maximum - the larger): one exp a merge, the argument <= 0.
 * Equal maxima (infinities included) scale by 1, a -inf side by 0, a NaN maximum makes both NaN;
 * a NaN a merge makes is the canonical one. The result: maximum + log(sum); a NaN maximum NaN,
 * an infinite one itself (every element -inf, or none: -inf). */
#define HR_LSE_DEFINE(F, T, INF_BITS)                                                                       \
    typedef struct hr_lse_##F {                                                                             \
        HR_STATS_ALIGN8 T max;                                                                              \
        T sum;                                                                                              \
    } hr_lse_##F;                                                                                           \
    HR_STATS_FN hr_lse_##F hr_lse_lift_##F(T x)                                                             \
    {                                                                                                       \
        hr_lse_##F r;                                                                                       \
        r.max = x;                                                                                          \
        r.sum = 1;                                                                                          \
        return r;                                                                                           \
    }                                                                                                       \
    HR_STATS_FN hr_lse_##F hr_lse_identity_##F(void)                                                        \
    {                                                                                                       \
        hr_lse_##F r;                                                                                       \
        r.max = -hr_stats_of_bits_##F(INF_BITS);                                                            \
        r.sum = 0;                                                                                          \
        return r;                                                                                           \
    }                                                                                                       \
    HR_STATS_FN hr_lse_##F hr_lse_merge_##F(hr_lse_##F a, hr_lse_##F b)                                     \
    {                                                                                                       \
        hr_lse_##F r;                                                                                       \
        if (a.max != a.max || b.max != b.max) {                                                             \
            r.max = r.sum = hr_stats_nan_##F();                                                             \
            return r;                                                                                       \
        }                                                                                                   \
        if (b.max > a.max) {                                                                                \
            const hr_lse_##F t = a;                                                                         \
            a = b;                                                                                          \
            b = t;                                                                                          \
        }                                                                                                   \
        const T scale = b.max == a.max ? (T)1 : hr_exp_neg_##F(b.max - a.max);                              \
        r.max = a.max;                                                                                      \
        r.sum = a.sum + b.sum * scale;                                                                      \
        if (r.sum != r.sum) r.sum = hr_stats_nan_##F();                                                     \
        return r;                                                                                           \
    }                                                                                                       \
    HR_STATS_FN T hr_lse_value_##F(hr_lse_##F a)                                                            \
    {                                                                                                       \
        if (a.max != a.max) return hr_stats_nan_##F();                                                      \
        if (!hr_stats_finite_##F(a.max)) return a.max;                                                      \
        return a.max + hr_log_##F(a.sum);                                                                   \
    }
HR_LSE_DEFINE(f32, float, UINT32_C(0x7f800000))
HR_LSE_DEFINE(f64, double, UINT64_C(0x7ff0000000000000))
#undef HR_LSE_DEFINE

/* The standard deviation: the correctly rounded root (f32's through f64, where the root of an f32
 * value rounded once more to f32 is the correctly rounded f32 root). */
HR_STATS_FN float hr_stats_sqrt_f32(float v) { return (float)sqrt((double)v); }
HR_STATS_FN double hr_stats_sqrt_f64(double v) { return sqrt(v); }

#ifdef __cplusplus
}
#endif

#include "minmax.h"

#endif
