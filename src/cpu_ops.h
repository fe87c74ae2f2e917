/* The cpu device's operators as small units, shared by the level kernels (cpu_levels_impl.h),
 * the strided executor (cpu_segments_strided.c) and the results (cpu_result.c), in the shape of
 * the device code's (device/ops.h) and of CUB's thread operators:
 *  - source dtypes: per dtype name, its element type st_<name>, the value an element is read as
 *    (val_<name>: integers as themselves, f16/bf16 as the exact f32 of device/half.h, f32/f64 as
 *    themselves) and its magnitude (mag_<name>: integers as the unsigned type of their width, so
 *    |INT8_MIN| = 128);
 *  - combines, per accumulator kind (named as hr_acc_kind: I32 .. KEY64, acc_<K> its type): the
 *    identity identity_<K>(combine) and the apply combine_<K>(combine, a, b), for the combine
 *    column's values (HR_CB_*, op_table.h); load_<K> / store_<K> keep partials in the workspace.
 *    The empty result (n == 0) and the store policy (the top accumulator rounded once to the
 *    result dtype) are cpu_result.c's;
 *  - transforms (the transform column, HR_TF_*): HR_LIFT_<transform>, an element of a source
 *    made an accumulator of a kind (ident_, square_, product_, nanzero_, pack_<K>, nonzero's
 *    0 or 1, and the order keys of argmin/argmax), the one definition every kernel reads.
 * A transform or combine is one unit beside the others here. Integers wrap in unsigned
 * accumulators (no signed overflow); floats use plain float/double arithmetic, built with
 * -ffp-contract=off (no FMA). Every access to caller memory or the workspace goes through memcpy
 * (compilers make it a plain load or store), so no pointer needs any alignment. */
#ifndef HIPREDUCE_CPU_OPS_H
#define HIPREDUCE_CPU_OPS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "complex.h"
#include "half.h"
#include "hipreduce/hipreduce.h"
#include "rules.h"
#include "stats.h"

#if defined(__GNUC__) || defined(__clang__)
#define HR_ALWAYS_INLINE static inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define HR_ALWAYS_INLINE static __forceinline
#else
#define HR_ALWAYS_INLINE static inline
#endif


/* ---- raw access ---- */

#define HR_DEFINE_ACCESS(NAME, T)                                                                          \
    HR_ALWAYS_INLINE T load_##NAME(const unsigned char* p)                                                 \
    {                                                                                                      \
        T v;                                                                                               \
        memcpy(&v, p, sizeof v);                                                                           \
        return v;                                                                                          \
    }                                                                                                      \
    HR_ALWAYS_INLINE void store_##NAME(unsigned char* p, T v) { memcpy(p, &v, sizeof v); }

/* ---- source dtypes ---- */

#define HR_INT_SOURCE(NAME, T, U, MAG)                                                                     \
    typedef T st_##NAME;                                                                                   \
    HR_ALWAYS_INLINE T val_##NAME(const unsigned char* p) { return load_##NAME(p); }                       \
    HR_ALWAYS_INLINE U mag_##NAME(T v) { return MAG; }
#define HR_SIGNED_MAG(U) v < 0 ? (U)((U)0 - (U)v) : (U)v

/* Float sources also give their bits (bits_<name>, type sb_<name>, signed twin sk_<name>), how
 * wide a NaN starts (inf_<name>) and the value of given bits (of_bits_<name>), for the order
 * keys of min/max/argmin/argmax. */
#define HR_FLOAT_SOURCE(NAME, T, V, B, SK, INF, TO_VALUE)                                                  \
    typedef T st_##NAME;                                                                                   \
    typedef B sb_##NAME;                                                                                   \
    typedef SK sk_##NAME;                                                                                  \
    HR_ALWAYS_INLINE B bits_##NAME(const unsigned char* p)                                                 \
    {                                                                                                      \
        B b;                                                                                               \
        memcpy(&b, p, sizeof b);                                                                           \
        return b;                                                                                          \
    }                                                                                                      \
    HR_ALWAYS_INLINE V of_bits_##NAME(B b) { return TO_VALUE; }                                            \
    HR_ALWAYS_INLINE V val_##NAME(const unsigned char* p) { return of_bits_##NAME(bits_##NAME(p)); }       \
    HR_ALWAYS_INLINE V mag_##NAME(V v) { return (V)fabs(v); }                                              \
    HR_ALWAYS_INLINE B inf_##NAME(void) { return (B)(INF); }

/* The source units, one per row of op_table.h's HR_DTYPE_ROWS, by class and width: raw access,
 * val_/mag_, and the bits of floats. */
#define HR_SINT_1 int8_t
#define HR_SINT_2 int16_t
#define HR_SINT_4 int32_t
#define HR_SINT_8 int64_t
#define HR_UINT_1 uint8_t
#define HR_UINT_2 uint16_t
#define HR_UINT_4 uint32_t
#define HR_UINT_8 uint64_t
#define HR_FLOAT_T_4 float
#define HR_FLOAT_T_8 double
#define HR_FLOAT_INF_4 UINT32_C(0x7f800000)
#define HR_FLOAT_INF_8 UINT64_C(0x7ff0000000000000)
#define HR_FLOAT_OF_BITS_4(b) hr_bits_f32(b)
#define HR_FLOAT_OF_BITS_8(b) load_f64((const unsigned char*)&(b))
#define HR_SOURCE_SIGNED(NAME, BYTES)               \
    HR_DEFINE_ACCESS(NAME, HR_SINT_##BYTES)         \
    HR_INT_SOURCE(NAME, HR_SINT_##BYTES, HR_UINT_##BYTES, HR_SIGNED_MAG(HR_UINT_##BYTES))
#define HR_SOURCE_UNSIGNED(NAME, BYTES)             \
    HR_DEFINE_ACCESS(NAME, HR_UINT_##BYTES)         \
    HR_INT_SOURCE(NAME, HR_UINT_##BYTES, HR_UINT_##BYTES, v)
#define HR_SOURCE_HALF(NAME, BYTES) \
    HR_FLOAT_SOURCE(NAME, uint16_t, float, uint16_t, int16_t, hr_##NAME##_inf, hr_##NAME##_to_f32(b))
#define HR_SOURCE_FLOAT(NAME, BYTES)                                                                    \
    HR_DEFINE_ACCESS(NAME, HR_FLOAT_T_##BYTES)                                                        \
    HR_FLOAT_SOURCE(NAME, HR_FLOAT_T_##BYTES, HR_FLOAT_T_##BYTES, HR_UINT_##BYTES, HR_SINT_##BYTES,   \
                    HR_FLOAT_INF_##BYTES, HR_FLOAT_OF_BITS_##BYTES(b))
/* Complex sources: the element as its struct (device/complex.h), read as it is. */
#define HR_COMPLEX_T_8 hr_c64
#define HR_COMPLEX_T_16 hr_c128
#define HR_SOURCE_COMPLEX(NAME, BYTES)                                                                  \
    HR_DEFINE_ACCESS(NAME, HR_COMPLEX_T_##BYTES)                                                      \
    typedef HR_COMPLEX_T_##BYTES st_##NAME;                                                           \
    HR_ALWAYS_INLINE HR_COMPLEX_T_##BYTES val_##NAME(const unsigned char* p) { return load_##NAME(p); }
#define HR_SOURCE_ROW(E, NAME, CLASS, BYTES) HR_SOURCE_##CLASS(NAME, BYTES)
HR_DTYPE_ROWS(HR_SOURCE_ROW)
#undef HR_SOURCE_ROW

/* The order key of float bits: bits as a signed integer, magnitude bits flipped when negative
 * (-0.0 below +0.0, NaNs beyond the infinities); its own inverse. */
#define hr_order_key(SK, B, bits) ((SK)(bits) ^ (SK)(-(SK)((B)(bits) >> (8 * sizeof(B) - 1)) & (SK)((B)~(B)0 >> 1)))
#define hr_is_nan_bits(B, bits, inf) (((B)(bits) & (B)((B)~(B)0 >> 1)) > (inf))

/* ---- accumulator kinds ---- */

/* Integers: U32/U64 wrap (sum, prod, bitwise, and |x| max); I32/I64 keep the sign for min/max. */
#define HR_INT_KIND(K, T, U, LO, HI)                                                                       \
    typedef T acc_##K;                                                                                     \
    HR_ALWAYS_INLINE T identity_##K(int cmb)                                                               \
    {                                                                                                      \
        switch (cmb) {                                                                                     \
        case HR_CB_MUL: return 1;                                                                            \
        case HR_CB_MIN: return HI;                                                                           \
        case HR_CB_MAX: return LO;                                                                           \
        case HR_CB_AND: return (T) ~(U)0;                                                                    \
        default: return 0;                                                                                 \
        }                                                                                                  \
    }                                                                                                      \
    HR_ALWAYS_INLINE T combine_##K(int cmb, T a, T b)                                                      \
    {                                                                                                      \
        switch (cmb) {                                                                                     \
        case HR_CB_MUL: return (T)((U)a * (U)b);                                                             \
        case HR_CB_MIN: return b < a ? b : a;                                                                \
        case HR_CB_MAX: return a < b ? b : a;                                                                \
        case HR_CB_AND: return (T)(a & b);                                                                   \
        case HR_CB_OR: return (T)(a | b);                                                                    \
        case HR_CB_XOR: return (T)(a ^ b);                                                                   \
        default: return (T)((U)a + (U)b);                                                                  \
        }                                                                                                  \
    }                                                                                                      \
    HR_ALWAYS_INLINE T ident_##K(T x) { return x; }                                                        \
    HR_ALWAYS_INLINE T square_##K(T x) { return (T)((U)x * (U)x); }                                        \
    HR_ALWAYS_INLINE T product_##K(T x, T y) { return (T)((U)x * (U)y); }                                  \
    HR_DEFINE_ACCESS(K, T)

/* Floats: ADD from -0.0 (the exact identity), NRM2 (a plain sum of squares here) from +0.0; min
 * and max give the canonical NaN for any NaN and order -0.0 below +0.0, so they are commutative
 * and associative bit for bit (the level kernels fold them in any order); nanmin and nanmax rank
 * a NaN past every value (a NaN operand gives the other) from the canonical NaN, so only a slice
 * of NaNs gives NaN (device/combines.h's nan_order_unit). */
#define HR_FLOAT_KIND(K, T, BITS, NAN_BITS)                                                                \
    typedef T acc_##K;                                                                                     \
    HR_ALWAYS_INLINE T canonical_nan_##K(void)                                                             \
    {                                                                                                      \
        const BITS bits = NAN_BITS;                                                                        \
        T v;                                                                                               \
        memcpy(&v, &bits, sizeof v);                                                                       \
        return v;                                                                                          \
    }                                                                                                      \
    HR_ALWAYS_INLINE T identity_##K(int cmb)                                                               \
    {                                                                                                      \
        switch (cmb) {                                                                                     \
        case HR_CB_ADD: return -(T)0;                                                                        \
        case HR_CB_MUL: return 1;                                                                            \
        case HR_CB_MIN: return (T)HUGE_VAL;                                                                  \
        case HR_CB_MAX: return -(T)HUGE_VAL;                                                                 \
        case HR_CB_NANMIN:                                                                                   \
        case HR_CB_NANMAX: return canonical_nan_##K();                                                       \
        default: return 0;                                                                                 \
        }                                                                                                  \
    }                                                                                                      \
    HR_ALWAYS_INLINE T combine_##K(int cmb, T a, T b)                                                      \
    {                                                                                                      \
        switch (cmb) {                                                                                     \
        case HR_CB_MUL: return a * b;                                                                        \
        case HR_CB_NANMIN:                                                                                   \
        case HR_CB_NANMAX:                                                                                   \
            if (a != a) return b;                                                                          \
            if (b != b) return a;                                                                          \
            if (a == b) return (signbit(a) != 0) == (cmb == HR_CB_NANMIN) ? a : b;                           \
            return (a < b) == (cmb == HR_CB_NANMIN) ? a : b;                                                 \
        case HR_CB_MIN:                                                                                      \
        case HR_CB_MAX:                                                                                      \
            if (a != a || b != b) return canonical_nan_##K();                                              \
            if (a == b) return (signbit(a) != 0) == (cmb == HR_CB_MIN) ? a : b;                              \
            return (a < b) == (cmb == HR_CB_MIN) ? a : b;                                                    \
        default: return a + b;                                                                             \
        }                                                                                                  \
    }                                                                                                      \
    HR_ALWAYS_INLINE T ident_##K(T x) { return x; }                                                        \
    HR_ALWAYS_INLINE T square_real_##K(T x) { return x * x; }                                              \
    HR_ALWAYS_INLINE T product_##K(T x, T y) { return x * y; }                                             \
    HR_ALWAYS_INLINE T nanzero_##K(T x) { return x != x ? (T)0 : x; }                                      \
    HR_DEFINE_ACCESS(K, T)

HR_INT_KIND(I32, int32_t, uint32_t, INT32_MIN, INT32_MAX)
HR_INT_KIND(U32, uint32_t, uint32_t, 0, UINT32_MAX)
HR_INT_KIND(I64, int64_t, uint64_t, INT64_MIN, INT64_MAX)
HR_INT_KIND(U64, uint64_t, uint64_t, 0, UINT64_MAX)
HR_FLOAT_KIND(F32, float, uint32_t, UINT32_C(0x7fc00000))
HR_FLOAT_KIND(F64, double, uint64_t, UINT64_C(0x7ff8000000000000))
/* The square of a real element; a complex one's is |z|^2 (device/complex.h's abs2). */
#define square_F32(v) _Generic((v), hr_c64: hr_c64_abs2, default: square_real_F32)(v)
#define square_F64(v) _Generic((v), hr_c64: hr_c64_abs2_f64, hr_c128: hr_c128_abs2, default: square_real_F64)(v)

/* Partials read back as sources at the levels above the input. */
#define HR_ACC_SOURCE(K, B, SK, INF, BL)                                                                       \
    typedef acc_##K st_##K;                                                                                \
    typedef B sb_##K;                                                                                      \
    typedef SK sk_##K;                                                                                     \
    HR_ALWAYS_INLINE acc_##K val_##K(const unsigned char* p) { return load_##K(p); }                       \
    HR_ALWAYS_INLINE B bits_##K(const unsigned char* p) { return load_##BL(p); }                           \
    HR_ALWAYS_INLINE acc_##K of_bits_##K(B b) { return load_##K((const unsigned char*)&b); }               \
    HR_ALWAYS_INLINE B inf_##K(void) { return (B)(INF); }
HR_ACC_SOURCE(I32, uint32_t, int32_t, 0, u32)
HR_ACC_SOURCE(U32, uint32_t, int32_t, 0, u32)
HR_ACC_SOURCE(I64, uint64_t, int64_t, 0, u64)
HR_ACC_SOURCE(U64, uint64_t, int64_t, 0, u64)
HR_ACC_SOURCE(F32, uint32_t, int32_t, UINT32_C(0x7f800000), u32)
HR_ACC_SOURCE(F64, uint64_t, int64_t, UINT64_C(0x7ff0000000000000), u64)

/* NRM2_F64: f64 input's three scaled sums of squares, Blue's algorithm with LAPACK 3.10
 * dnrm2's thresholds (hipreduce.h's nrm2 rule). The square is picked by selects, not branches, so the lane
 * loop vectorises: adding +0.0 to a sum that starts at +0.0 and only grows leaves its bits. */
#define HR_NRM2_TSML 0x1p-511
#define HR_NRM2_TBIG 0x1p486
#define HR_NRM2_SSML 0x1p537
#define HR_NRM2_SBIG 0x1p-538
typedef struct acc_NRM2_F64 {
    double sml, med, big;
} acc_NRM2_F64;
typedef acc_NRM2_F64 st_NRM2_F64;
HR_ALWAYS_INLINE acc_NRM2_F64 identity_NRM2_F64(int cmb)
{
    (void)cmb;
    const acc_NRM2_F64 zero = {0.0, 0.0, 0.0};
    return zero;
}
HR_ALWAYS_INLINE acc_NRM2_F64 combine_NRM2_F64(int cmb, acc_NRM2_F64 a, acc_NRM2_F64 b)
{
    (void)cmb;
    const acc_NRM2_F64 r = {a.sml + b.sml, a.med + b.med, a.big + b.big};
    return r;
}
HR_ALWAYS_INLINE acc_NRM2_F64 square_real_NRM2_F64(double x)
{
    /* Quiet comparisons (false for NaN, which so goes to med): GCC does not turn the ordinary,
     * signalling ones into vector selects under its default -ftrapping-math. */
    const double a = fabs(x), big = a * HR_NRM2_SBIG, sml = a * HR_NRM2_SSML;
    const double big2 = big * big, sml2 = sml * sml, med2 = a * a;
    const int is_big = isgreater(a, HR_NRM2_TBIG), is_sml = isless(a, HR_NRM2_TSML);
    const acc_NRM2_F64 r = {is_sml ? sml2 : 0.0, (is_big | is_sml) ? 0.0 : med2, is_big ? big2 : 0.0};
    return r;
}
HR_ALWAYS_INLINE acc_NRM2_F64 ident_NRM2_F64(acc_NRM2_F64 x) { return x; }
/* A c128's: the split of re plus the split of im (device/transforms.h's SQUARE). */
HR_ALWAYS_INLINE acc_NRM2_F64 square_c128_NRM2_F64(hr_c128 z)
{
    return combine_NRM2_F64(HR_CB_NRM2, square_real_NRM2_F64(z.re), square_real_NRM2_F64(z.im));
}
#define square_NRM2_F64(v) _Generic((v), hr_c128: square_c128_NRM2_F64, default: square_real_NRM2_F64)(v)
HR_ALWAYS_INLINE acc_NRM2_F64 load_NRM2_F64(const unsigned char* p)
{
    acc_NRM2_F64 v;
    memcpy(&v.sml, p, 8);
    memcpy(&v.med, p + 8, 8);
    memcpy(&v.big, p + 16, 8);
    return v;
}
HR_ALWAYS_INLINE void store_NRM2_F64(unsigned char* p, acc_NRM2_F64 v)
{
    memcpy(p, &v.sml, 8);
    memcpy(p + 8, &v.med, 8);
    memcpy(p + 16, &v.big, 8);
}
HR_ALWAYS_INLINE acc_NRM2_F64 val_NRM2_F64(const unsigned char* p) { return load_NRM2_F64(p); }

/* The statistics' accumulators (device/stats.h, which the device code shares): SUMN (nanmean's
 * sum and count, a NaN lifted to +0.0 and not counted), MOM (var/std's count, mean and mean
 * square deviation, merged by Chan's update) and LSE (logsumexp's maximum and rescaled sum). Stored as the structs' bytes (SUMN_F32's padding
 * zero). Their tiles keep the canonical order (cpu_levels_impl.h's STRUCT family). */
#define HR_STATS_KIND(K, T, F, IDENTITY, COMBINE, LIFT, LIFT_NAME)                                         \
    typedef T acc_##K;                                                                                     \
    typedef T st_##K;                                                                                      \
    HR_ALWAYS_INLINE T identity_##K(int cmb)                                                               \
    {                                                                                                      \
        (void)cmb;                                                                                         \
        return IDENTITY();                                                                                 \
    }                                                                                                      \
    HR_ALWAYS_INLINE T combine_##K(int cmb, T a, T b)                                                      \
    {                                                                                                      \
        (void)cmb;                                                                                         \
        return COMBINE(a, b);                                                                              \
    }                                                                                                      \
    HR_ALWAYS_INLINE T LIFT_NAME##_##K(F x) { return LIFT(x); }                                            \
    HR_ALWAYS_INLINE T ident_##K(T x) { return x; }                                                        \
    HR_DEFINE_ACCESS(K, T)                                                                                 \
    HR_ALWAYS_INLINE T val_##K(const unsigned char* p) { return load_##K(p); }
HR_STATS_KIND(SUMN_F32, hr_sumn_f32, float, hr_sumn_identity_f32, hr_sumn_add_f32, hr_sumn_lift_f32, nanzero)
HR_STATS_KIND(SUMN_F64, hr_sumn_f64, double, hr_sumn_identity_f64, hr_sumn_add_f64, hr_sumn_lift_f64, nanzero)
HR_STATS_KIND(MOM_F32, hr_mom_f32, float, hr_mom_identity_f32, hr_mom_merge_f32, hr_mom_lift_f32, pack)
HR_STATS_KIND(MOM_F64, hr_mom_f64, double, hr_mom_identity_f64, hr_mom_merge_f64, hr_mom_lift_f64, pack)
HR_STATS_KIND(LSE_F32, hr_lse_f32, float, hr_lse_identity_f32, hr_lse_merge_f32, hr_lse_lift_f32, pack)
HR_STATS_KIND(LSE_F64, hr_lse_f64, double, hr_lse_identity_f64, hr_lse_merge_f64, hr_lse_lift_f64, pack)

/* MM32 / MM64 (aminmax, device/minmax.h): the least and greatest order key. An element's key by
 * the type the source reads it as (val_<name>: f16/bf16/f32 as float, f64 as double; unsigned
 * 32/64-bit integers flipped; narrower integers and i64 as they are). The merge is exact, so the
 * level kernels take the order-free family of the integer kinds (cpu_levels_impl.h's INT: flat_
 * kernels in memory order), and the tensor column kernels none (cpu_columns_impl.h's NONE: the
 * statistics' kinds are gathered); both are named here beside the kinds, where the families'
 * lists (cpu_levels_impl.h's HR_FAMILY_<kind>, cpu_columns_impl.h's HR_COL_FAM_<kind>) name the
 * other kinds. */
#define HR_MM_KIND(K, T, KEY)                                                                              \
    typedef T acc_##K;                                                                                     \
    typedef T st_##K;                                                                                      \
    HR_ALWAYS_INLINE T identity_##K(int cmb)                                                               \
    {                                                                                                      \
        (void)cmb;                                                                                         \
        return hr_##KEY##_identity();                                                                      \
    }                                                                                                      \
    HR_ALWAYS_INLINE T combine_##K(int cmb, T a, T b)                                                      \
    {                                                                                                      \
        (void)cmb;                                                                                         \
        return hr_##KEY##_merge(a, b);                                                                     \
    }                                                                                                      \
    HR_ALWAYS_INLINE T ident_##K(T x) { return x; }                                                        \
    HR_DEFINE_ACCESS(K, T)                                                                                 \
    HR_ALWAYS_INLINE T val_##K(const unsigned char* p) { return load_##K(p); }
HR_MM_KIND(MM32, hr_mm32, mm32)
HR_MM_KIND(MM64, hr_mm64, mm64)
#define pack_MM32(v) hr_mm32_lift(_Generic((v), float: hr_mm_key_f32, uint32_t: hr_mm_key_u32, default: hr_mm_key_i32)(v))
#define pack_MM64(v) hr_mm64_lift(_Generic((v), double: hr_mm_key_f64, uint64_t: hr_mm_key_u64, default: hr_mm_key_i64)(v))
#define HR_FAMILY_MM32 INT
#define HR_FAMILY_MM64 INT
#define HR_COL_FAM_MM32 NONE
#define HR_COL_FAM_MM64 NONE

/* C64 / C128 (complex sums, products, dot and dotc; device/complex.h): ADD per component from
 * (-0.0, -0.0), MUL complex.h's product from 1 + 0i. Elements enter as the accumulator's type (a c64
 * widened exactly into C128). Their tiles keep the canonical order (the STRUCT family); tensor
 * columns are gathered. */
HR_ALWAYS_INLINE hr_c128 hr_cpu_c128_same(hr_c128 z) { return z; }
#define hr_cpu_to_c128(v) _Generic((v), hr_c64: hr_c128_of_c64, default: hr_cpu_c128_same)(v)
#define HR_COMPLEX_KIND(K, T, NAME)                                                                        \
    typedef T acc_##K;                                                                                     \
    typedef T st_##K;                                                                                      \
    HR_ALWAYS_INLINE T identity_##K(int cmb)                                                               \
    {                                                                                                      \
        return cmb == HR_CB_MUL ? hr_##NAME##_prod_identity() : hr_##NAME##_sum_identity();                \
    }                                                                                                      \
    HR_ALWAYS_INLINE T combine_##K(int cmb, T a, T b)                                                      \
    {                                                                                                      \
        return cmb == HR_CB_MUL ? hr_##NAME##_mul(a, b) : hr_##NAME##_add(a, b);                           \
    }                                                                                                      \
    HR_DEFINE_ACCESS(K, T)                                                                                 \
    HR_ALWAYS_INLINE T val_##K(const unsigned char* p) { return load_##K(p); }
HR_COMPLEX_KIND(C64, hr_c64, c64)
HR_COMPLEX_KIND(C128, hr_c128, c128)
#define ident_C64(v) (v)
#define ident_C128(v) hr_cpu_to_c128(v)
#define product_C64(x, y) hr_c64_mul((x), (y))
#define product_C128(x, y) hr_c128_mul(hr_cpu_to_c128(x), hr_cpu_to_c128(y))
#define conj_C64(x, y) hr_c64_conj_mul((x), (y))
#define conj_C128(x, y) hr_c128_conj_mul(hr_cpu_to_c128(x), hr_cpu_to_c128(y))
#define HR_FAMILY_C64 STRUCT
#define HR_FAMILY_C128 STRUCT
#define HR_COL_FAM_C64 NONE
#define HR_COL_FAM_C128 NONE

/* KEY32 / KEY64 (argmin/argmax): an order key (integers: the value, unsigned ones with the top
 * bit flipped; floats: hr_order_key of the input's own bits; NaN: the key type's extreme that
 * beats every other) and the element's int64 index. Better key wins; equal keys: smaller index.
 * The identity is (worst key, INT64_MAX), which every element beats or ties and wins. Stored as
 * key, zero padding to 8 bytes, index: 16 bytes, the same bits whoever writes them. */
#define HR_KEY_KIND(K, SK, AT)                                                                             \
    typedef struct acc_##K {                                                                               \
        SK key;                                                                                            \
        int64_t index;                                                                                     \
    } acc_##K;                                                                                             \
    typedef acc_##K st_##K;                                                                                \
    typedef SK key_##K;                                                                                    \
    typedef AT at_##K; /* an index inside one tile */                                                      \
    HR_ALWAYS_INLINE acc_##K identity_##K(int cmb)                                                         \
    {                                                                                                      \
        const SK top = (SK)((~(uint64_t)0) >> (65 - 8 * sizeof(SK)));                                      \
        const acc_##K r = {hr_combine_arg_max(cmb) ? (SK)(-top - 1) : top, INT64_MAX};                       \
        return r;                                                                                          \
    }                                                                                                      \
    /* A NaN's key: the best (argmin, argmax: the first NaN wins) or the worst (nan-: skipped). */         \
    HR_ALWAYS_INLINE SK nan_key_##K(int cmb)                                                               \
    {                                                                                                      \
        const SK worst = identity_##K(cmb).key; /* the best is its complement: the key type's other end */ \
        return hr_combine_nan_last(cmb) ? worst : (SK)~worst;                                              \
    }                                                                                                      \
    HR_ALWAYS_INLINE int better_##K(int cmb, SK a, int64_t ia, SK b, int64_t ib)                           \
    {                                                                                                      \
        return (hr_combine_arg_max(cmb) ? a > b : a < b) || (a == b && ia < ib);                             \
    }                                                                                                      \
    HR_ALWAYS_INLINE acc_##K combine_##K(int cmb, acc_##K a, acc_##K b)                                    \
    {                                                                                                      \
        return better_##K(cmb, b.key, b.index, a.key, a.index) ? b : a;                                    \
    }                                                                                                      \
    HR_ALWAYS_INLINE acc_##K load_##K(const unsigned char* p)                                              \
    {                                                                                                      \
        acc_##K v;                                                                                         \
        memcpy(&v.key, p, sizeof v.key);                                                                   \
        memcpy(&v.index, p + 8, 8);                                                                        \
        return v;                                                                                          \
    }                                                                                                      \
    HR_ALWAYS_INLINE void store_##K(unsigned char* p, acc_##K v)                                           \
    {                                                                                                      \
        memset(p, 0, 8);                                                                                   \
        memcpy(p, &v.key, sizeof v.key);                                                                   \
        memcpy(p + 8, &v.index, 8);                                                                        \
    }                                                                                                      \
    HR_ALWAYS_INLINE acc_##K val_##K(const unsigned char* p) { return load_##K(p); }                       \
    HR_ALWAYS_INLINE acc_##K ident_##K(acc_##K x) { return x; }
HR_KEY_KIND(KEY32, int32_t, uint32_t)
HR_KEY_KIND(KEY64, int64_t, uint64_t)

/* Order keys of argmin/argmax per source dtype (argkey_<name>: the key of a non-NaN element;
 * argnan_<name>: whether it is a NaN). */
#define HR_INT_ARGKEY(NAME, SK, FLIP)                                                                      \
    HR_ALWAYS_INLINE SK argkey_##NAME(const unsigned char* p) { return (SK)(val_##NAME(p) ^ (FLIP)); }     \
    HR_ALWAYS_INLINE int argnan_##NAME(const unsigned char* p)                                             \
    {                                                                                                      \
        (void)p;                                                                                           \
        return 0;                                                                                          \
    }
#define HR_FLOAT_ARGKEY(NAME)                                                                              \
    HR_ALWAYS_INLINE sk_##NAME argkey_##NAME(const unsigned char* p)                                       \
    {                                                                                                      \
        return hr_order_key(sk_##NAME, sb_##NAME, bits_##NAME(p));                                         \
    }                                                                                                      \
    HR_ALWAYS_INLINE int argnan_##NAME(const unsigned char* p)                                             \
    {                                                                                                      \
        return hr_is_nan_bits(sb_##NAME, bits_##NAME(p), inf_##NAME());                                   \
    }


/* Integer order keys: int32 up to 32 bits, int64 beyond; unsigned 32/64-bit values flip their
 * top bit (narrower ones fit an int32 as they are). One unit per dtype row. */
#define HR_KEY_T_1 int32_t
#define HR_KEY_T_2 int32_t
#define HR_KEY_T_4 int32_t
#define HR_KEY_T_8 int64_t
#define HR_UFLIP_1 0
#define HR_UFLIP_2 0
#define HR_UFLIP_4 UINT32_C(0x80000000)
#define HR_UFLIP_8 UINT64_C(0x8000000000000000)
#define HR_ARGKEY_SIGNED(NAME, BYTES) HR_INT_ARGKEY(NAME, HR_KEY_T_##BYTES, 0)
#define HR_ARGKEY_UNSIGNED(NAME, BYTES) HR_INT_ARGKEY(NAME, HR_KEY_T_##BYTES, HR_UFLIP_##BYTES)
#define HR_ARGKEY_HALF(NAME, BYTES) HR_FLOAT_ARGKEY(NAME)
#define HR_ARGKEY_FLOAT(NAME, BYTES) HR_FLOAT_ARGKEY(NAME)
#define HR_ARGKEY_COMPLEX(NAME, BYTES) /* no argmin/argmax of complex inputs */
#define HR_ARGKEY_ROW(E, NAME, CLASS, BYTES) HR_ARGKEY_##CLASS(NAME, BYTES)
HR_DTYPE_ROWS(HR_ARGKEY_ROW)
#undef HR_ARGKEY_ROW

/* ---- transforms: the element at byte offset OFF of x (and of y, dot's), of source SN, lifted
 * into kind K (op_table.h's transform column) ---- */
#define HR_LIFT_IDENT(SN, K, x, y, off) ident_##K(val_##SN((x) + (off)))
#define HR_LIFT_ABS(SN, K, x, y, off) ident_##K(mag_##SN(val_##SN((x) + (off))))
#define HR_LIFT_SQUARE(SN, K, x, y, off) square_##K(val_##SN((x) + (off)))
#define HR_LIFT_PRODUCT(SN, K, x, y, off) product_##K(val_##SN((x) + (off)), val_##SN((y) + (off)))
#define HR_LIFT_CONJ(SN, K, x, y, off) conj_##K(val_##SN((x) + (off)), val_##SN((y) + (off)))
#define HR_LIFT_NANZERO(SN, K, x, y, off) nanzero_##K(val_##SN((x) + (off)))
#define HR_LIFT_NONZERO(SN, K, x, y, off) ((acc_##K)(val_##SN((x) + (off)) != 0))
#define HR_LIFT_PACK(SN, K, x, y, off) pack_##K(val_##SN((x) + (off)))
/* KEY (argmin/argmax): the order key of the element at p, a NaN as `extreme` (nan_key_<K>: the
 * key that beats every other, or for nanargmin/nanargmax the worst); the index travels beside it. */
#define HR_LIFT_KEY(SN, K, p, extreme) (argnan_##SN(p) ? (extreme) : (key_##K)argkey_##SN(p))

#endif
