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
 *    an addition keeps (the code generation's choice). */
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

HR_STATS_FN uint32_t hr_stats_bits_f32(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}
HR_STATS_FN uint64_t hr_stats_bits_f64(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}
HR_STATS_FN float hr_stats_of_bits_f32(uint32_t b)
{
    float x;
    memcpy(&x, &b, sizeof x);
    return x;
}
HR_STATS_FN double hr_stats_of_bits_f64(uint64_t b)
{
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}

/* One definition per float type F (f32: float, bits uint32_t, NaN/inf bits; f64 likewise). */
#define HR_STATS_DEFINE(F, T, B, NAN_BITS, INF_BITS)                                                        \
    HR_STATS_FN T hr_stats_nan_##F(void) { return hr_stats_of_bits_##F(NAN_BITS); }                          \
    HR_STATS_FN int hr_stats_finite_##F(T x) { return (hr_stats_bits_##F(x) & ~((B)1 << (sizeof(B) * 8 - 1))) < (INF_BITS); } \
                                                                                                            \
    /* nanmean's lifts and sum: a NaN is +0.0 and not counted. */                                       \
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
    /* The mean: the sum / its count, in F (the count rounded to F); no element: NaN (0 / 0). */         \
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
    /* Whether x goes before y in a merge: the larger count, then the larger bits. */                      \
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
        if (!hr_stats_finite_##F(a.mean) || !hr_stats_finite_##F(b.mean)) {                                \
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
        /* NaNs canonical: which operand's payload an addition keeps is the code generation's */          \
        if (r.mean != r.mean) r.mean = hr_stats_nan_##F();                                                  \
        if (r.m != r.m) r.m = hr_stats_nan_##F();                                                           \
        return r;                                                                                           \
    }                                                                                                       \
    /* The variance with a correction: m * (n / max(n - correction, 0)), in F (n and the correction \
     * rounded to F): a divisor 0 gives +inf, or NaN when m is 0 (n == 0 included). */                    \
    HR_STATS_FN T hr_mom_var_##F(hr_mom_##F a, double correction)                                           \
    {                                                                                                       \
        const T n = (T)a.count;                                                                             \
        T dof = n - (T)correction;                                                                          \
        if (!(dof > 0)) dof = 0;                                                                            \
        return a.m * (n / dof);                                                                             \
    }                                                                                                       \
    /* The mean of the moments: NaN for no element. */                                                     \
    HR_STATS_FN T hr_mom_mean_##F(hr_mom_##F a) { return a.count == 0 ? hr_stats_nan_##F() : a.mean; }

HR_STATS_DEFINE(f32, float, uint32_t, UINT32_C(0x7fc00000), UINT32_C(0x7f800000))
HR_STATS_DEFINE(f64, double, uint64_t, UINT64_C(0x7ff8000000000000), UINT64_C(0x7ff0000000000000))
#undef HR_STATS_DEFINE

/* The standard deviation: the correctly rounded root (f32's through f64, where the root of an f32
 * value rounded once more to f32 is the correctly rounded f32 root). */
HR_STATS_FN float hr_stats_sqrt_f32(float v) { return (float)sqrt((double)v); }
HR_STATS_FN double hr_stats_sqrt_f64(double v) { return sqrt(v); }

#ifdef __cplusplus
}
#endif

#endif
