/* Transform units of the device operators: op_table.h's transform column, one unit per value,
 * over an input dtype D and the accumulator kind A the call reduces in.
 *   value_t              the input's storage type (f16/bf16: raw uint16_t);
 *   widen(x)             x in the accumulator's arithmetic type (exact);
 *   lift(x), lift2(x, y) the element (dot: the pair) as it enters the combine (level 0 only);
 *   lowest(), highest()  the least and greatest value lift can give, in the accumulator: where
 *                        a MIN combine starts (highest) and a MAX one (lowest; |x|: 0).
 * KEY lifts to an order key and an index, which the lane folds build from key_of; its unit has
 * key_of, key_value, nan_key, worst_key and empty_value instead. NANZERO, NONZERO and PACK serve
 * the statistics (their accumulators: stats.h). The order those keys are ranked
 * in is the combine's (Order: combines.h's arg_unit), so KEY takes it as a parameter. */
#ifndef HIPREDUCE_TRANSFORMS_H
#define HIPREDUCE_TRANSFORMS_H

#include "op_types.h"

namespace hr {

/* What every transform shares: the element, its widening, and by default the accumulator's
 * whole range as the domain. */
template <int D, int A> struct element_unit {
    static constexpr int in_class = hr_dtype_class(D);
    using value_t = storage_t<D>;
    using acc = acc_t<A>;
    static constexpr int inputs = 1;

    /* Floats exact; integers sign- or zero-extended by their own signedness (C++ conversion
     * to the unsigned accumulator). */
    static HR_HD acc widen(value_t x)
    {
        if constexpr (in_class == HR_CLASS_HALF) return acc(half_to_f32<D>(x));
        else if constexpr (in_class == HR_CLASS_COMPLEX) return widen_complex<acc>(x);
        else return acc(x);
    }
    static HR_HD acc lowest() { return min_value<acc>(); }
    static HR_HD acc highest() { return max_value<acc>(); }
};

template <int Transform, int D, int A, class Order> struct transform_unit;

/* The base's names, which a template does not see unqualified in a dependent base. */
#define HR_ELEMENT_NAMES(D, A)       \
    using base = element_unit<D, A>; \
    using typename base::acc;        \
    using typename base::value_t;    \
    using base::widen

/* x: its domain is the input dtype's range (f16/bf16: -inf .. +inf in f32). */
template <int D, int A, class Order> struct transform_unit<HR_TF_IDENT, D, A, Order> : element_unit<D, A> {
    HR_ELEMENT_NAMES(D, A);
    static HR_HD acc lift(value_t x) { return widen(x); }
    static HR_HD acc lowest()
    {
        if constexpr (base::in_class == HR_CLASS_HALF) return acc(-infinity<float>());
        else return acc(min_value<value_t>());
    }
    static HR_HD acc highest()
    {
        if constexpr (base::in_class == HR_CLASS_HALF) return acc(infinity<float>());
        else return acc(max_value<value_t>());
    }
};

/* |x|: floats clear the sign bit (NaN stays NaN); integers negate the sign-extended value in
 * the unsigned accumulator, so |INT8_MIN| = 128. Bounded below by 0 (+0.0). */
template <int D, int A, class Order> struct transform_unit<HR_TF_ABS, D, A, Order> : element_unit<D, A> {
    HR_ELEMENT_NAMES(D, A);
    static HR_HD acc lift(value_t x)
    {
        if constexpr (std::is_floating_point<acc>::value) return fabs_bits(widen(x));
        else if constexpr (std::is_signed<value_t>::value) return x < 0 ? acc(acc(0) - widen(x)) : widen(x);
        else return widen(x);
    }
    static HR_HD acc lowest() { return acc(0); }
};

/* x * x, one rounding. Into NRM2_F64 (f64 nrm2) it is Blue's split instead: the square of x
 * scaled into one of three sums by its magnitude; the other two get +0.0, which leaves them
 * unchanged. Squares are >= 0 (integers: in the unsigned accumulator anyway). A complex z gives
 * |z|^2 (complex.h's abs2; into NRM2_F64 the split of re plus the split of im). */
template <int D, int A, class Order> struct transform_unit<HR_TF_SQUARE, D, A, Order> : element_unit<D, A> {
    HR_ELEMENT_NAMES(D, A);
    static HR_HD nrm2_acc blue_split(double x)
    {
        const double a = fabs_bits(x);
        if (a > NRM2_T_BIG) {
            const double s = a * NRM2_S_BIG;
            return nrm2_acc{0.0, 0.0, s * s};
        }
        if (a < NRM2_T_SML) {
            const double s = a * NRM2_S_SML;
            return nrm2_acc{s * s, 0.0, 0.0};
        }
        return nrm2_acc{0.0, a * a, 0.0};
    }
    static HR_HD acc lift(value_t x)
    {
        if constexpr (base::in_class == HR_CLASS_COMPLEX && A == HR_ACC_NRM2_F64) {
            const nrm2_acc r = blue_split(x.re), i = blue_split(x.im);
            return acc{r.sml + i.sml, r.med + i.med, r.big + i.big};
        } else if constexpr (base::in_class == HR_CLASS_COMPLEX) {
            if constexpr (std::is_same<value_t, hr_c128>::value) return hr_c128_abs2(x);
            else if constexpr (std::is_same<acc, double>::value) return hr_c64_abs2_f64(x);
            else return hr_c64_abs2(x);
        } else if constexpr (A == HR_ACC_NRM2_F64) {
            return blue_split(x);
        } else {
            const acc e = widen(x);
            return acc(e * e);
        }
    }
    static HR_HD acc lowest() { return acc(0); }
};

/* x * y (dot: two inputs), one rounding (complex: complex.h's mul); the whole accumulator range. */
template <int D, int A, class Order> struct transform_unit<HR_TF_PRODUCT, D, A, Order> : element_unit<D, A> {
    HR_ELEMENT_NAMES(D, A);
    static constexpr int inputs = 2;
    static HR_HD acc lift(value_t x) { return widen(x); }
    static HR_HD acc lift2(value_t x, value_t y)
    {
        if constexpr (base::in_class == HR_CLASS_COMPLEX) return complex_mul(widen(x), widen(y));
        else return acc(widen(x) * widen(y));
    }
};

/* conj(x) * y (dotc: two complex inputs), complex.h's conj_mul. */
template <int D, int A, class Order> struct transform_unit<HR_TF_CONJ, D, A, Order> : element_unit<D, A> {
    HR_ELEMENT_NAMES(D, A);
    static constexpr int inputs = 2;
    static HR_HD acc lift(value_t x) { return widen(x); }
    static HR_HD acc lift2(value_t x, value_t y) { return complex_conj_mul(widen(x), widen(y)); }
};

/* argmin/argmax: order-preserving maps of the input's bits to keys (Order ranks them); any
 * NaN gets the key that beats every other (no non-NaN key reaches it), so the first NaN wins;
 * nanargmin/nanargmax (Order::nan_last) the worst key instead, which every non-NaN beats. */
template <int D, int A, class Order> struct transform_unit<HR_TF_KEY, D, A, Order> : element_unit<D, A> {
    using typename element_unit<D, A>::value_t;
    static constexpr int in_class = element_unit<D, A>::in_class;
    using key_t = typename acc_t<A>::key_t;
    /* Unsigned inputs as wide as the key: the top bit flipped, so that the signed order is theirs
     * (narrower ones fit the key as they are). */
    static constexpr bool flip_top = std::is_unsigned<value_t>::value && sizeof(value_t) == sizeof(key_t);

    static HR_HD key_t worst_key() { return Order::worst(); }
    static HR_HD key_t nan_key() { return Order::nan_last ? Order::worst() : Order::best(); }
    static HR_HD key_t key_of(value_t x)
    {
        if constexpr (in_class == HR_CLASS_HALF) {
            const key_t k = half_key(x);
            return (x & 0x7fffu) > half_inf<D>() ? nan_key() : k;
        } else if constexpr (in_class == HR_CLASS_FLOAT) {
            return is_nan(x) ? nan_key() : float_key<value_t>::key(x);
        } else if constexpr (flip_top) {
            return (key_t)(x ^ (value_t)((value_t)1 << (sizeof(value_t) * 8 - 1)));
        } else {
            return (key_t)x;
        }
    }
    /* The element of a key (exact); NaN keys give the canonical NaN. */
    static HR_HD value_t key_value(key_t k)
    {
        if constexpr (in_class == HR_CLASS_HALF) {
            return k == nan_key() ? half_nan<D>() : half_of_key(k);
        } else if constexpr (in_class == HR_CLASS_FLOAT) {
            return k == nan_key() ? canonical_nan<value_t>() : float_key<value_t>::value(k);
        } else if constexpr (flip_top) {
            return (value_t)k ^ (value_t)((value_t)1 << (sizeof(value_t) * 8 - 1));
        } else {
            return (value_t)k;
        }
    }
    /* The value of n == 0: the far end of the order, +inf / the type's max (argmin), -inf /
     * its min (argmax). */
    static HR_HD value_t empty_value()
    {
        if constexpr (in_class == HR_CLASS_HALF) return (uint16_t)(half_inf<D>() | (Order::is_min ? 0 : 0x8000));
        else return Order::is_min ? max_value<value_t>() : min_value<value_t>();
    }
};

/* The element's value in float type F (f16/bf16: exact in f32; f32/f64 as they are). */
template <int D, class F> HR_HD F element_value(storage_t<D> x)
{
    if constexpr (hr_dtype_class(D) == HR_CLASS_HALF) return F(half_to_f32<D>(x));
    else return F(x);
}

/* x with a NaN as +0.0 (nansum, into F32/F64); into SUMN (nanmean) also its count, 0 for a NaN
 * (stats.h). The other elements are exact. */
template <int D, int A, class Order> struct transform_unit<HR_TF_NANZERO, D, A, Order> : element_unit<D, A> {
    using typename element_unit<D, A>::acc;
    using typename element_unit<D, A>::value_t;
    static HR_HD acc lift(value_t x)
    {
        if constexpr (A == HR_ACC_SUMN_F32) return hr_sumn_lift_f32(element_value<D, float>(x));
        else if constexpr (A == HR_ACC_SUMN_F64) return hr_sumn_lift_f64(element_value<D, double>(x));
        else {
            const acc v = element_value<D, acc>(x);
            return is_nan(v) ? acc(0) : v;
        }
    }
};

/* 1 when x != 0 (a NaN is; -0.0 is not), else 0, in an integer count. f16/bf16 by their bits. */
template <int D, int A, class Order> struct transform_unit<HR_TF_NONZERO, D, A, Order> : element_unit<D, A> {
    using typename element_unit<D, A>::acc;
    using typename element_unit<D, A>::value_t;
    static HR_HD acc lift(value_t x)
    {
        if constexpr (hr_dtype_class(D) == HR_CLASS_HALF) return acc((x & 0x7fffu) != 0);
        else return acc(x != value_t(0));
    }
    static HR_HD acc lowest() { return acc(0); }
    static HR_HD acc highest() { return acc(1); }
};

/* aminmax's order key of an element (minmax.h), by the dtype's class and width: f16/bf16 through
 * their f32 value, floats by their bits, unsigned 32/64-bit integers with the top bit flipped,
 * the other integers as they are. */
template <int D> HR_HD auto minmax_key(storage_t<D> x)
{
    constexpr int cls = hr_dtype_class(D), bytes = hr_dtype_bytes(D);
    if constexpr (cls == HR_CLASS_HALF) return hr_mm_key_f32(half_to_f32<D>(x));
    else if constexpr (cls == HR_CLASS_FLOAT && bytes == 4) return hr_mm_key_f32(x);
    else if constexpr (cls == HR_CLASS_FLOAT) return hr_mm_key_f64(x);
    else if constexpr (cls == HR_CLASS_UNSIGNED && bytes == 4) return hr_mm_key_u32(x);
    else if constexpr (cls == HR_CLASS_UNSIGNED && bytes == 8) return hr_mm_key_u64(x);
    else if constexpr (bytes == 8) return hr_mm_key_i64(x);
    else return hr_mm_key_i32((int32_t)x);
}

/* The element as a struct accumulator of one element (MOM: count 1, mean x, m x - x; LSE: maximum
 * x, sum 1; stats.h; MM: its order key as both ends, minmax.h). */
template <int D, int A, class Order> struct transform_unit<HR_TF_PACK, D, A, Order> : element_unit<D, A> {
    using typename element_unit<D, A>::acc;
    using typename element_unit<D, A>::value_t;
    static HR_HD acc lift(value_t x)
    {
        static_assert(is_mom_acc<A>() || is_lse_acc<A>() || is_minmax_acc<A>(),
                      "PACK: the moments', logsumexp's or aminmax's accumulators");
        if constexpr (A == HR_ACC_MM32) return hr_mm32_lift(minmax_key<D>(x));
        else if constexpr (A == HR_ACC_MM64) return hr_mm64_lift(minmax_key<D>(x));
        else if constexpr (A == HR_ACC_MOM_F32) return hr_mom_lift_f32(element_value<D, float>(x));
        else if constexpr (A == HR_ACC_MOM_F64) return hr_mom_lift_f64(element_value<D, double>(x));
        else if constexpr (A == HR_ACC_LSE_F32) return hr_lse_lift_f32(element_value<D, float>(x));
        else return hr_lse_lift_f64(element_value<D, double>(x));
    }
};

#undef HR_ELEMENT_NAMES

}  // namespace hr

#endif
