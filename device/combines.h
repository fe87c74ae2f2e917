/* Combine units of the device operators: op_table.h's combine column, one unit per value, over
 * the accumulator kind A the call reduces in.
 *   apply(a, b)          the combine, commutative, so a tree may combine either way round;
 *   identity<Domain>()   what lanes start from and out-of-range lanes are fed (exact). MIN and
 *                        MAX start from the far end of what the transform gives (Domain: the
 *                        transform unit's lowest/highest), so only MAX over |x| starts at 0;
 *   empty<Domain>()      the accumulator of n == 0 (+0.0 for float sums; identity otherwise).
 * Float sums start lanes from -0.0, the exact identity, so a sum of -0.0 stays -0.0. Float
 * MIN/MAX give the canonical NaN if either side is NaN and order -0.0 below +0.0, so their
 * result has the same bits in any order. */
#ifndef HIPREDUCE_COMBINES_H
#define HIPREDUCE_COMBINES_H

#include "op_types.h"

namespace hr {

template <int Combine, int A> struct combine_unit;

/* What the units that are their own empty result share. */
template <int A> struct combine_base {
    using acc = acc_t<A>;
    static constexpr bool bitwise = false;
    static constexpr bool nan_last = false; /* arg_unit's */
};

template <int A> struct combine_unit<HR_CB_ADD, A> : combine_base<A> {
    using acc = acc_t<A>;
    template <class Domain> static HR_HD acc identity() { return std::is_floating_point<acc>::value ? acc(-0.0) : acc(0); }
    template <class Domain> static HR_HD acc empty() { return acc(0); }
    static HR_HD acc apply(acc a, acc b) { return a + b; }
};

/* Integer products wrap in the unsigned accumulator. */
template <int A> struct combine_unit<HR_CB_MUL, A> : combine_base<A> {
    using acc = acc_t<A>;
    template <class Domain> static HR_HD acc identity() { return acc(1); }
    template <class Domain> static HR_HD acc empty() { return identity<Domain>(); }
    static HR_HD acc apply(acc a, acc b) { return a * b; }
};

template <bool Min, int A> struct order_unit : combine_base<A> {
    using acc = acc_t<A>;
    template <class Domain> static HR_HD acc identity()
    {
        if constexpr (Min) return Domain::highest();
        else return Domain::lowest();
    }
    template <class Domain> static HR_HD acc empty() { return identity<Domain>(); }
    static HR_HD acc apply(acc a, acc b)
    {
        if constexpr (std::is_floating_point<acc>::value) return float_pick<acc, Min>(a, b);
        else return (Min ? b < a : a < b) ? b : a;
    }
};
template <int A> struct combine_unit<HR_CB_MIN, A> : order_unit<true, A> {};
template <int A> struct combine_unit<HR_CB_MAX, A> : order_unit<false, A> {};

/* Bitwise combines (integers only: op_table.h's INT_SAME results). */
template <int A> struct bitwise_base : combine_base<A> {
    static constexpr bool bitwise = true;
};
template <int A> struct combine_unit<HR_CB_AND, A> : bitwise_base<A> {
    using acc = acc_t<A>;
    template <class Domain> static HR_HD acc identity() { return ~acc(0); }
    template <class Domain> static HR_HD acc empty() { return identity<Domain>(); }
    static HR_HD acc apply(acc a, acc b) { return a & b; }
};
template <int A> struct combine_unit<HR_CB_OR, A> : bitwise_base<A> {
    using acc = acc_t<A>;
    template <class Domain> static HR_HD acc identity() { return acc(0); }
    template <class Domain> static HR_HD acc empty() { return identity<Domain>(); }
    static HR_HD acc apply(acc a, acc b) { return a | b; }
};
template <int A> struct combine_unit<HR_CB_XOR, A> : bitwise_base<A> {
    using acc = acc_t<A>;
    template <class Domain> static HR_HD acc identity() { return acc(0); }
    template <class Domain> static HR_HD acc empty() { return identity<Domain>(); }
    static HR_HD acc apply(acc a, acc b) { return a ^ b; }
};

/* nrm2's sum of squares: in F64 (from f16/bf16/f32: x*x is exact there) a plain sum from +0.0;
 * in NRM2_F64 (from f64) Blue's three sums, each its own. The root is the store's (stores.h). */
template <int A> struct combine_unit<HR_CB_NRM2, A> : combine_base<A> {
    using acc = acc_t<A>;
    template <class Domain> static HR_HD acc identity() { return acc(0.0); }
    template <class Domain> static HR_HD acc empty() { return acc(0.0); }
    static HR_HD acc apply(acc a, acc b) { return a + b; }
};
template <> struct combine_unit<HR_CB_NRM2, HR_ACC_NRM2_F64> : combine_base<HR_ACC_NRM2_F64> {
    using acc = nrm2_acc;
    template <class Domain> static HR_HD acc identity() { return acc{0.0, 0.0, 0.0}; }
    template <class Domain> static HR_HD acc empty() { return identity<Domain>(); }
    static HR_HD acc apply(acc a, acc b) { return acc{a.sml + b.sml, a.med + b.med, a.big + b.big}; }
};

/* nanmean's sum and count (stats.h): the sum from -0.0 as a float sum's, the counts added. */
template <> struct combine_unit<HR_CB_ADD, HR_ACC_SUMN_F32> : combine_base<HR_ACC_SUMN_F32> {
    using acc = hr_sumn_f32;
    template <class Domain> static HR_HD acc identity() { return hr_sumn_identity_f32(); }
    template <class Domain> static HR_HD acc empty() { return hr_sumn_identity_f32(); }
    static HR_HD acc apply(acc a, acc b) { return hr_sumn_add_f32(a, b); }
};
template <> struct combine_unit<HR_CB_ADD, HR_ACC_SUMN_F64> : combine_base<HR_ACC_SUMN_F64> {
    using acc = hr_sumn_f64;
    template <class Domain> static HR_HD acc identity() { return hr_sumn_identity_f64(); }
    template <class Domain> static HR_HD acc empty() { return hr_sumn_identity_f64(); }
    static HR_HD acc apply(acc a, acc b) { return hr_sumn_add_f64(a, b); }
};

/* Complex sums and products (complex.h): per-component sums from (-0.0, -0.0), and the product from
 * 1 + 0i, both exact identities; the empty results +0.0 + 0i and 1 + 0i. */
template <int A> struct complex_unit : combine_base<A> {
    using acc = acc_t<A>;
    using F = decltype(acc{}.re);
    static HR_HD acc make(F re, F im) { return acc{re, im}; }
};
template <> struct combine_unit<HR_CB_ADD, HR_ACC_C64> : complex_unit<HR_ACC_C64> {
    template <class Domain> static HR_HD acc identity() { return make(-0.0f, -0.0f); }
    template <class Domain> static HR_HD acc empty() { return make(0.0f, 0.0f); }
    static HR_HD acc apply(acc a, acc b) { return complex_add(a, b); }
};
template <> struct combine_unit<HR_CB_ADD, HR_ACC_C128> : complex_unit<HR_ACC_C128> {
    template <class Domain> static HR_HD acc identity() { return make(-0.0, -0.0); }
    template <class Domain> static HR_HD acc empty() { return make(0.0, 0.0); }
    static HR_HD acc apply(acc a, acc b) { return complex_add(a, b); }
};
template <int A> struct complex_mul_unit : complex_unit<A> {
    using typename complex_unit<A>::acc;
    template <class Domain> static HR_HD acc identity() { return complex_unit<A>::make(1, 0); }
    template <class Domain> static HR_HD acc empty() { return identity<Domain>(); }
    static HR_HD acc apply(acc a, acc b) { return complex_mul(a, b); }
};
template <> struct combine_unit<HR_CB_MUL, HR_ACC_C64> : complex_mul_unit<HR_ACC_C64> {};
template <> struct combine_unit<HR_CB_MUL, HR_ACC_C128> : complex_mul_unit<HR_ACC_C128> {};

/* var/std's moments: Chan's merge (stats.h), commutative bit for bit; the identity has count 0. */
template <int A> struct combine_unit<HR_CB_WELFORD, A> : combine_base<A> {
    using acc = acc_t<A>;
    static_assert(is_mom_acc<A>(), "WELFORD: the moments' accumulators");
    template <class Domain> static HR_HD acc identity()
    {
        if constexpr (A == HR_ACC_MOM_F32) return hr_mom_identity_f32();
        else return hr_mom_identity_f64();
    }
    template <class Domain> static HR_HD acc empty() { return identity<Domain>(); }
    static HR_HD acc apply(acc a, acc b)
    {
        if constexpr (A == HR_ACC_MOM_F32) return hr_mom_merge_f32(a, b);
        else return hr_mom_merge_f64(a, b);
    }
};

/* logsumexp's maximum and rescaled sum (stats.h), commutative bit for bit; the identity (-inf, 0). */
template <int A> struct combine_unit<HR_CB_LSE, A> : combine_base<A> {
    using acc = acc_t<A>;
    static_assert(is_lse_acc<A>(), "LSE: logsumexp's accumulators");
    template <class Domain> static HR_HD acc identity()
    {
        if constexpr (A == HR_ACC_LSE_F32) return hr_lse_identity_f32();
        else return hr_lse_identity_f64();
    }
    template <class Domain> static HR_HD acc empty() { return identity<Domain>(); }
    static HR_HD acc apply(acc a, acc b)
    {
        if constexpr (A == HR_ACC_LSE_F32) return hr_lse_merge_f32(a, b);
        else return hr_lse_merge_f64(a, b);
    }
};

/* nanmin/nanmax (floats): MIN/MAX with a NaN ranked past every value (a NaN operand gives the
 * other), -0.0 below +0.0. The identity is the canonical NaN, which every element beats, so a
 * slice of NaNs only gives NaN; the empty result is MIN/MAX's (+inf, -inf). Commutative bit for
 * bit but for which NaN two NaNs give (a result's NaN is canonical). */
template <bool Min, int A> struct nan_order_unit : combine_base<A> {
    using acc = acc_t<A>;
    template <class Domain> static HR_HD acc identity() { return canonical_nan<acc>(); }
    template <class Domain> static HR_HD acc empty() { return Min ? infinity<acc>() : -infinity<acc>(); }
    static HR_HD acc apply(acc a, acc b)
    {
        if (is_nan(a)) return b;
        if (is_nan(b)) return a;
        return float_pick<acc, Min>(a, b);
    }
};
template <int A> struct combine_unit<HR_CB_NANMIN, A> : nan_order_unit<true, A> {};
template <int A> struct combine_unit<HR_CB_NANMAX, A> : nan_order_unit<false, A> {};

/* aminmax's least and greatest order keys (minmax.h): exact, so commutative and order-free; the
 * identity (lo > hi) is also the empty slice's, which the store recognises. */
template <int A> struct combine_unit<HR_CB_MINMAX, A> : combine_base<A> {
    using acc = acc_t<A>;
    static_assert(is_minmax_acc<A>(), "MINMAX: aminmax's accumulators");
    template <class Domain> static HR_HD acc identity()
    {
        if constexpr (A == HR_ACC_MM32) return hr_mm32_identity();
        else return hr_mm64_identity();
    }
    template <class Domain> static HR_HD acc empty() { return identity<Domain>(); }
    static HR_HD acc apply(acc a, acc b)
    {
        if constexpr (A == HR_ACC_MM32) return hr_mm32_merge(a, b);
        else return hr_mm64_merge(a, b);
    }
};

/* argmin/argmax over (key, index): the better key wins, equal keys the smaller index. The
 * identity has the worst key and an index past every element, so it loses every tie. NanLast
 * (nanargmin/nanargmax): the KEY transform gives a NaN the worst key instead of the best. */
template <bool Min, int A, bool NanLast = false> struct arg_unit : combine_base<A> {
    using acc = acc_t<A>;
    using K = typename acc::key_t;
    static constexpr bool is_min = Min, nan_last = NanLast;
    static HR_HD bool better(K a, K b) { return Min ? a < b : a > b; }
    static HR_HD K worst() { return Min ? (K)max_value<K>() : (K)min_value<K>(); }
    static HR_HD K best() { return Min ? (K)min_value<K>() : (K)max_value<K>(); }
    template <class Domain> static HR_HD acc identity() { return acc{worst(), INT64_MAX}; }
    template <class Domain> static HR_HD acc empty() { return identity<Domain>(); }
    static HR_HD acc apply(acc a, acc b) { return better(b.key, a.key) || (b.key == a.key && b.index < a.index) ? b : a; }
};
template <int A> struct combine_unit<HR_CB_ARGMIN, A> : arg_unit<true, A> {};
template <int A> struct combine_unit<HR_CB_ARGMAX, A> : arg_unit<false, A> {};
template <int A> struct combine_unit<HR_CB_NANARGMIN, A> : arg_unit<true, A, true> {};
template <int A> struct combine_unit<HR_CB_NANARGMAX, A> : arg_unit<false, A, true> {};

}  // namespace hr

#endif
