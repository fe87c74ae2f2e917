/* aminmax's accumulators (hipreduce.h's aminmax; op_table.h's MM32 and MM64): plain C that the
 * cpu device (src/cpu_ops.h, cpu_result.c) and the device code (transforms.h, combines.h,
 * stores.h) both read, as stats.h, which includes this file.
 *
 * An element enters as its order key, an integer whose signed order is the value order:
 *  - integers of up to 32 bits their value (int32); u32 with its top bit flipped (int32); i64 its
 *    value and u64 with its top bit flipped (int64);
 *  - floats their bits as a signed integer with the magnitude bits flipped when negative (f16 and
 *    bf16 through their exact f32 value), so -0.0 is below +0.0 and a NaN lies beyond the
 *    infinity of its sign: the key of a NaN is above key(+inf) or below key(-inf).
 * MM32 holds the keys of inputs of up to 4 bytes, MM64 of 8-byte inputs. One element is (k, k);
 * the merge takes the smaller lo and the larger hi, exactly, so any order or tree of merges gives
 * the same bits. The identity (the key type's maximum, its minimum) has lo > hi, which no element
 * gives: it is the empty slice. A float slice holds a NaN exactly when lo < key(-inf) or hi >
 * key(+inf); both results are then the canonical NaN, as MIN and MAX give. Otherwise the results
 * are the elements of keys lo and hi: MIN's and MAX's bits (-0.0 below +0.0). */
#ifndef HIPREDUCE_MINMAX_H
#define HIPREDUCE_MINMAX_H

/* Read through stats.h, which defines HR_STATS_FN, HR_STATS_ALIGN8 and the bit casts. */
#ifndef HIPREDUCE_STATS_H
#error "include stats.h, not minmax.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hr_mm32 {
    HR_STATS_ALIGN8 int32_t lo;
    int32_t hi;
} hr_mm32;
typedef struct hr_mm64 {
    int64_t lo, hi;
} hr_mm64;

/* The keys of each kind of integer element, and the elements of keys (the float keys below: each
 * map is its own inverse's twin, flipping the magnitude bits keeps the sign bit). */
HR_STATS_FN int32_t hr_mm_key_i32(int32_t x) { return x; }
HR_STATS_FN int64_t hr_mm_key_i64(int64_t x) { return x; }
HR_STATS_FN int32_t hr_mm_key_u32(uint32_t x) { return (int32_t)(x ^ UINT32_C(0x80000000)); }
HR_STATS_FN uint32_t hr_mm_u32_of_key(int32_t k) { return (uint32_t)k ^ UINT32_C(0x80000000); }
HR_STATS_FN int64_t hr_mm_key_u64(uint64_t x) { return (int64_t)(x ^ UINT64_C(0x8000000000000000)); }
HR_STATS_FN uint64_t hr_mm_u64_of_key(int64_t k) { return (uint64_t)k ^ UINT64_C(0x8000000000000000); }
/* Per kind W (32, 64) of key type K: the keys of float type F (T, bits B) and their elements, then
 * lift, identity, merge, whether the slice was empty, and whether a float slice held a NaN. */
#define HR_MM_DEFINE(W, K, KMAX, F, T, B, INF_BITS)                                                         \
    HR_STATS_FN K hr_mm_key_##F(T x)                                                                        \
    {                                                                                                       \
        const B b = hr_stats_bits_##F(x);                                                                   \
        return (K)(b >> (sizeof(B) * 8 - 1) ? b ^ (B)KMAX : b);                                             \
    }                                                                                                       \
    HR_STATS_FN T hr_mm_##F##_of_key(K k)                                                                   \
    {                                                                                                       \
        const B b = (B)k;                                                                                   \
        return hr_stats_of_bits_##F(b >> (sizeof(B) * 8 - 1) ? b ^ (B)KMAX : b);                            \
    }                                                                                                       \
    HR_STATS_FN hr_mm##W hr_mm##W##_lift(K k)                                                               \
    {                                                                                                       \
        hr_mm##W r;                                                                                         \
        r.lo = k;                                                                                           \
        r.hi = k;                                                                                           \
        return r;                                                                                           \
    }                                                                                                       \
    HR_STATS_FN hr_mm##W hr_mm##W##_identity(void)                                                          \
    {                                                                                                       \
        hr_mm##W r;                                                                                         \
        r.lo = KMAX;                                                                                        \
        r.hi = -KMAX - 1;                                                                                   \
        return r;                                                                                           \
    }                                                                                                       \
    HR_STATS_FN hr_mm##W hr_mm##W##_merge(hr_mm##W a, hr_mm##W b)                                           \
    {                                                                                                       \
        hr_mm##W r;                                                                                         \
        r.lo = b.lo < a.lo ? b.lo : a.lo;                                                                   \
        r.hi = b.hi > a.hi ? b.hi : a.hi;                                                                   \
        return r;                                                                                           \
    }                                                                                                       \
    HR_STATS_FN int hr_mm##W##_empty(hr_mm##W a) { return a.lo > a.hi; }                                    \
    HR_STATS_FN int hr_mm##W##_nan(hr_mm##W a)                                                              \
    {                                                                                                       \
        const T inf = hr_stats_of_bits_##F(INF_BITS);                                                       \
        return a.lo < hr_mm_key_##F(-inf) || a.hi > hr_mm_key_##F(inf);                                     \
    }
HR_MM_DEFINE(32, int32_t, INT32_MAX, f32, float, uint32_t, UINT32_C(0x7f800000))
HR_MM_DEFINE(64, int64_t, INT64_MAX, f64, double, uint64_t, UINT64_C(0x7ff0000000000000))
#undef HR_MM_DEFINE

#ifdef __cplusplus
}
#endif

#endif
