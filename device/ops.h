/* Operators and type traits of the device code.
 *
 * Each operator is a struct template over the element type T with
 *   acc               the type lanes accumulate in (small and signed integers widen
 *                     to an unsigned 32/64-bit type for sum/prod/bitwise, so wrapping
 *                     is defined and equals wrapping in T; min/max keep the sign),
 *   identity()        the value out-of-range lanes are fed,
 *   apply(a, b)       commutative, so a tree may combine either way round,
 *   empty()           the result for n == 0 (+0.0 for float sums; identity otherwise).
 * Float sums start lanes from -0.0, the exact identity, so a sum of -0.0 stays -0.0.
 * Float min/max return the canonical quiet NaN if either side is NaN and order
 * -0.0 below +0.0, so their result has the same bits in any order.
 */
#ifndef HIPREDUCE_OPS_H
#define HIPREDUCE_OPS_H

#include <stdint.h>

#include <type_traits>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define HR_HD __host__ __device__ __forceinline__
#else
#define HR_HD inline
#endif

namespace hr {

template <class T> struct is_float_t : std::is_floating_point<T> {};

/* Integers widen to at least 32 bits, unsigned: defined wrap-around. */
template <class T>
using wrap_acc_t = typename std::conditional<
    std::is_floating_point<T>::value, T,
    typename std::conditional<(sizeof(T) > 4), uint64_t, uint32_t>::type>::type;

/* Ordered accumulators keep the sign; small integers widen to 32 bits. */
template <class T>
using order_acc_t = typename std::conditional<
    std::is_floating_point<T>::value || sizeof(T) >= 4, T,
    typename std::conditional<std::is_signed<T>::value, int32_t, uint32_t>::type>::type;

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

/* Float min/max of many values, as float_pick orders them, through integer keys: the
 * key of a float is its bits as a signed integer with the magnitude bits flipped
 * when negative. It orders every non-NaN value the same way (-0.0 below +0.0), and
 * the map is its own inverse, so a lane can fold keys with an integer min/max beside
 * a NaN flag and convert once at the end: the same result as float_pick in sequence,
 * with one dependent instruction per element instead of three or four. */
template <class F> struct float_key {
    using I = typename std::conditional<sizeof(F) == 4, int32_t, int64_t>::type;
    static HR_HD I key(F x)
    {
        const I bits = __builtin_bit_cast(I, x);
        return bits ^ ((bits >> (sizeof(I) * 8 - 1)) & max_value<I>());
    }
    static HR_HD F value(I key) { return __builtin_bit_cast(F, key ^ ((key >> (sizeof(I) * 8 - 1)) & max_value<I>())); }
};

template <class T> struct op_sum {
    using value_t = T;
    using acc = wrap_acc_t<T>;
    static constexpr bool bitwise = false;
    static HR_HD acc identity() { return is_float_t<T>::value ? acc(-0.0) : acc(0); }
    static HR_HD acc empty() { return acc(0); }
    static HR_HD acc apply(acc a, acc b) { return a + b; }
};

template <class T> struct op_prod {
    using value_t = T;
    using acc = wrap_acc_t<T>;
    static constexpr bool bitwise = false;
    static HR_HD acc identity() { return acc(1); }
    static HR_HD acc empty() { return acc(1); }
    static HR_HD acc apply(acc a, acc b) { return a * b; }
};

/* min (Min = true) and max. Integers keep their sign (order_acc_t); floats go through
 * float_pick, so NaN and signed zeros give the same bits in any order. */
template <class T, bool Min> struct op_order {
    using value_t = T;
    using acc = order_acc_t<T>;
    static constexpr bool bitwise = false;
    static HR_HD acc identity() { return acc(Min ? max_value<T>() : min_value<T>()); }
    static HR_HD acc empty() { return identity(); }
    static HR_HD acc apply(acc a, acc b)
    {
        if constexpr (is_float_t<T>::value) return float_pick<acc, Min>(a, b);
        else return (Min ? b < a : a < b) ? b : a;
    }
};
template <class T> using op_min = op_order<T, true>;
template <class T> using op_max = op_order<T, false>;

template <class T> struct op_and {
    using value_t = T;
    using acc = wrap_acc_t<T>;
    static constexpr bool bitwise = true;
    static HR_HD acc identity() { return ~acc(0); }
    static HR_HD acc empty() { return identity(); }
    static HR_HD acc apply(acc a, acc b) { return a & b; }
};

template <class T> struct op_or {
    using value_t = T;
    using acc = wrap_acc_t<T>;
    static constexpr bool bitwise = true;
    static HR_HD acc identity() { return acc(0); }
    static HR_HD acc empty() { return acc(0); }
    static HR_HD acc apply(acc a, acc b) { return a | b; }
};

template <class T> struct op_xor {
    using value_t = T;
    using acc = wrap_acc_t<T>;
    static constexpr bool bitwise = true;
    static HR_HD acc identity() { return acc(0); }
    static HR_HD acc empty() { return acc(0); }
    static HR_HD acc apply(acc a, acc b) { return a ^ b; }
};

/* Every hipreduce_dtype with its C++ type: X(enumerator, type). */
#define HR_FOR_EACH_DTYPE(X)                                                                                     \
    X(HIPREDUCE_I8, int8_t) X(HIPREDUCE_U8, uint8_t) X(HIPREDUCE_I16, int16_t) X(HIPREDUCE_U16, uint16_t)        \
    X(HIPREDUCE_I32, int32_t) X(HIPREDUCE_U32, uint32_t) X(HIPREDUCE_I64, int64_t) X(HIPREDUCE_U64, uint64_t)    \
    X(HIPREDUCE_F32, float) X(HIPREDUCE_F64, double)

/* One lane folding many elements in sequence, as Op::apply step by step would. */
template <class Op, class = void> struct lane_fold {
    typename Op::acc value;
    HR_HD explicit lane_fold(typename Op::acc start) : value(start) {}
    HR_HD void add(typename Op::acc x) { value = Op::apply(value, x); }
    HR_HD typename Op::acc result() const { return value; }
};

/* Float min/max fold keys (float_key) beside a NaN flag, and convert once. */
template <class F, bool Min> struct lane_fold<op_order<F, Min>, typename std::enable_if<is_float_t<F>::value>::type> {
    using key_t = float_key<F>;
    typename key_t::I key;
    bool nan;
    HR_HD explicit lane_fold(F start) : key(key_t::key(start)), nan(is_nan(start)) {}
    HR_HD void add(F x)
    {
        const typename key_t::I k = key_t::key(x);
        key = Min ? (k < key ? k : key) : (k > key ? k : key);
        nan |= is_nan(x);
    }
    HR_HD F result() const { return nan ? canonical_nan<F>() : key_t::value(key); }
};

/* Whether operator Op applies to its element type (bitwise ops: integers only). */
template <class Op> constexpr bool op_applies() { return !(Op::bitwise && is_float_t<typename Op::value_t>::value); }

}  // namespace hr

#endif
