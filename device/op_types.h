/* The types of the device code: each dtype's storage type, each accumulator kind's type
 * (op_table.h's HR_ACC_ROWS), and the float functions the operator units share. The rules
 * (classes, columns, allowed triples, accumulators) are rules.h's, read from there. */
#ifndef HIPREDUCE_OP_TYPES_H
#define HIPREDUCE_OP_TYPES_H

#include <stdint.h>

#include <type_traits>

#include "complex.h"
#include "half.h"
#include "hipreduce/hipreduce.h"
#include "rules.h"
#include "stats.h"

namespace hr {

/* Storage type of a dtype. */
template <int D> struct storage {
    static constexpr int cls = hr_dtype_class(D), bytes = hr_dtype_bytes(D);
    using sint = typename std::conditional<
        bytes == 1, int8_t,
        typename std::conditional<bytes == 2, int16_t, typename std::conditional<bytes == 4, int32_t, int64_t>::type>::type>::type;
    using real = typename std::conditional<
        cls == HR_CLASS_SIGNED, sint,
        typename std::conditional<
            cls == HR_CLASS_UNSIGNED, typename std::make_unsigned<sint>::type,
            typename std::conditional<cls == HR_CLASS_HALF, uint16_t,
                                      typename std::conditional<bytes == 4, float, double>::type>::type>::type>::type;
    using type = typename std::conditional<cls != HR_CLASS_COMPLEX, real,
                                           typename std::conditional<bytes == 8, hr_c64, hr_c128>::type>::type;
};
template <int D> using storage_t = typename storage<D>::type;

/* The two-sided accumulators. */
struct nrm2_acc {
    double sml, med, big; /* Blue's scaled sums of squares: small, medium and big magnitudes */
};
template <class K> struct key_acc {
    using key_t = K;
    K key;         /* the element's order key (see transforms.h's key_of) */
    int64_t index; /* its index */
};
template <class T> struct is_key_acc : std::false_type {};
template <class K> struct is_key_acc<key_acc<K>> : std::true_type {};

template <int A> struct acc_type;
template <> struct acc_type<HR_ACC_I32> { using type = int32_t; };
template <> struct acc_type<HR_ACC_U32> { using type = uint32_t; };
template <> struct acc_type<HR_ACC_I64> { using type = int64_t; };
template <> struct acc_type<HR_ACC_U64> { using type = uint64_t; };
template <> struct acc_type<HR_ACC_F32> { using type = float; };
template <> struct acc_type<HR_ACC_F64> { using type = double; };
template <> struct acc_type<HR_ACC_NRM2_F64> { using type = nrm2_acc; };
template <> struct acc_type<HR_ACC_KEY32> { using type = key_acc<int32_t>; };
template <> struct acc_type<HR_ACC_KEY64> { using type = key_acc<int64_t>; };
template <> struct acc_type<HR_ACC_SUMN_F32> { using type = hr_sumn_f32; };
template <> struct acc_type<HR_ACC_SUMN_F64> { using type = hr_sumn_f64; };
template <> struct acc_type<HR_ACC_MOM_F32> { using type = hr_mom_f32; };
template <> struct acc_type<HR_ACC_MOM_F64> { using type = hr_mom_f64; };
template <> struct acc_type<HR_ACC_LSE_F32> { using type = hr_lse_f32; };
template <> struct acc_type<HR_ACC_LSE_F64> { using type = hr_lse_f64; };
template <> struct acc_type<HR_ACC_MM32> { using type = hr_mm32; };
template <> struct acc_type<HR_ACC_MM64> { using type = hr_mm64; };
template <> struct acc_type<HR_ACC_C64> { using type = hr_c64; };
template <> struct acc_type<HR_ACC_C128> { using type = hr_c128; };
template <int A> using acc_t = typename acc_type<A>::type;

/* The statistics' accumulators (stats.h): SUMN, MOM and LSE kinds, and the float type they compute in. */
template <int A> constexpr bool is_sumn_acc() { return A == HR_ACC_SUMN_F32 || A == HR_ACC_SUMN_F64; }
template <int A> constexpr bool is_mom_acc() { return A == HR_ACC_MOM_F32 || A == HR_ACC_MOM_F64; }
template <int A> constexpr bool is_lse_acc() { return A == HR_ACC_LSE_F32 || A == HR_ACC_LSE_F64; }
template <int A> constexpr bool is_stats_acc() { return is_sumn_acc<A>() || is_mom_acc<A>() || is_lse_acc<A>(); }
/* The complex accumulators (complex.h). */
template <int A> constexpr bool is_complex_acc() { return A == HR_ACC_C64 || A == HR_ACC_C128; }
/* complex.h's arithmetic by type, so that C64 and C128 units share one body; widen_complex<C>(z)
 * is z in the accumulator's complex type C (exact). */
HR_HD hr_c64 complex_add(hr_c64 a, hr_c64 b) { return hr_c64_add(a, b); }
HR_HD hr_c128 complex_add(hr_c128 a, hr_c128 b) { return hr_c128_add(a, b); }
HR_HD hr_c64 complex_mul(hr_c64 a, hr_c64 b) { return hr_c64_mul(a, b); }
HR_HD hr_c128 complex_mul(hr_c128 a, hr_c128 b) { return hr_c128_mul(a, b); }
HR_HD hr_c64 complex_conj_mul(hr_c64 a, hr_c64 b) { return hr_c64_conj_mul(a, b); }
HR_HD hr_c128 complex_conj_mul(hr_c128 a, hr_c128 b) { return hr_c128_conj_mul(a, b); }
template <class C> HR_HD C widen_complex(hr_c64 z)
{
    if constexpr (std::is_same<C, hr_c64>::value) return z;
    else return hr_c128_of_c64(z);
}
template <class C> HR_HD C widen_complex(hr_c128 z) { return z; }
/* aminmax's order keys (minmax.h). */
template <int A> constexpr bool is_minmax_acc() { return A == HR_ACC_MM32 || A == HR_ACC_MM64; }
template <int A>
using stats_float_t =
    typename std::conditional<A == HR_ACC_SUMN_F64 || A == HR_ACC_MOM_F64 || A == HR_ACC_LSE_F64, double, float>::type;

template <class T> struct is_float_t : std::is_floating_point<T> {};

template <class T> HR_HD T canonical_nan();
template <> HR_HD float canonical_nan<float>() { return __builtin_bit_cast(float, 0x7fc00000u); }
template <> HR_HD double canonical_nan<double>() { return __builtin_bit_cast(double, 0x7ff8000000000000ull); }

template <class T> HR_HD T infinity();
template <> HR_HD float infinity<float>() { return __builtin_bit_cast(float, 0x7f800000u); }
template <> HR_HD double infinity<double>() { return __builtin_bit_cast(double, 0x7ff0000000000000ull); }

/* Largest and smallest values of T (numeric_limits is host-only under nvcc). */
template <class T> HR_HD T max_value()
{
    if constexpr (std::is_floating_point<T>::value) return infinity<T>();
    else if constexpr (std::is_signed<T>::value) return T(typename std::make_unsigned<T>::type(~0ull) >> 1);
    else return T(~0ull);
}
template <class T> HR_HD T min_value()
{
    if constexpr (std::is_floating_point<T>::value) return -infinity<T>();
    else if constexpr (std::is_signed<T>::value) return T(-max_value<T>() - 1);
    else return T(0);
}

template <class T> HR_HD bool is_nan(T x) { return x != x; }
/* x, or the canonical NaN when x is a NaN (every NaN a result holds is this one). */
template <class F> HR_HD F canonical(F x) { return is_nan(x) ? canonical_nan<F>() : x; }

template <class F> HR_HD F fabs_bits(F x)
{
    using U = typename std::conditional<sizeof(F) == 4, uint32_t, uint64_t>::type;
    return __builtin_bit_cast(F, (U)(__builtin_bit_cast(U, x) & (~U(0) >> 1)));
}

/* Float min (Min = true) or max without branches: the canonical NaN if either side is
 * NaN; between equal values (only +0.0 and -0.0 differ in bits) the OR of the bits is
 * the one with the sign set (-0.0, the min) and the AND the one without (the max). */
template <class F, bool Min> HR_HD F float_pick(F a, F b)
{
    using U = typename std::conditional<sizeof(F) == 4, uint32_t, uint64_t>::type;
    const U ua = __builtin_bit_cast(U, a), ub = __builtin_bit_cast(U, b);
    const F tie = __builtin_bit_cast(F, Min ? (U)(ua | ub) : (U)(ua & ub));
    const F picked = Min ? (a < b ? a : b < a ? b : tie) : (a > b ? a : b > a ? b : tie);
    return is_nan(a) || is_nan(b) ? canonical_nan<F>() : picked;
}

/* The order key of a float: its bits as a signed integer with the magnitude bits flipped
 * when negative. It orders every non-NaN value the same way (-0.0 below +0.0), and the
 * map is its own inverse. I is the key type: int16/32/64 for 16/32/64-bit floats. */
template <class I> HR_HD I flip_key(I bits)
{
    return bits ^ (I)((bits >> (sizeof(I) * 8 - 1)) & (I)max_value<I>());
}
template <class F> struct float_key {
    using I = typename std::conditional<sizeof(F) == 4, int32_t, int64_t>::type;
    static HR_HD I key(F x) { return flip_key(__builtin_bit_cast(I, x)); }
    static HR_HD F value(I key) { return __builtin_bit_cast(F, flip_key(key)); }
};

/* Half dtypes (the HALF rows of op_table.h): raw bits -> f32, f32 -> raw bits (rounded), the
 * infinity's and the canonical NaN's bits, from half.h's functions named after the row. */
template <int D> struct half_format;
#define HR_HALF_FORMAT(E, NAME, CLASS, BYTES)                                     \
    HR_IF_HALF(CLASS, template <> struct half_format<E> {                        \
        static HR_HD float to_f32(uint16_t h) { return hr_##NAME##_to_f32(h); }  \
        static HR_HD uint16_t of_f32(float f) { return hr_f32_to_##NAME(f); }    \
        static constexpr uint16_t inf = hr_##NAME##_inf, nan = hr_##NAME##_nan; \
    };)
HR_DTYPE_ROWS(HR_HALF_FORMAT)
#undef HR_HALF_FORMAT
template <int D> HR_HD float half_to_f32(uint16_t h) { return half_format<D>::to_f32(h); }
template <int D> HR_HD uint16_t f32_to_half(float f) { return half_format<D>::of_f32(f); }
template <int D> constexpr uint16_t half_inf() { return half_format<D>::inf; }
template <int D> constexpr uint16_t half_nan() { return half_format<D>::nan; }
/* The order key of f16/bf16 raw bits: as a float's (flip_key), on the sign-extended 16 bits. */
HR_HD int32_t half_key(uint16_t h) { return flip_key<int32_t>((int32_t)(int16_t)h); }
HR_HD uint16_t half_of_key(int32_t k) { return (uint16_t)flip_key<int32_t>(k); }

/* Blue's thresholds and scales (LAPACK 3.10's dnrm2 for f64). */
constexpr double NRM2_T_SML = 0x1p-511, NRM2_T_BIG = 0x1p486, NRM2_S_SML = 0x1p537, NRM2_S_BIG = 0x1p-538;

}  // namespace hr

#endif
