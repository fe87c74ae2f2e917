/* Operators of the device code: one template, red<Transform, Combine, InDtype, AccKind>,
 * expanded from op_table.h's row (its transform and combine columns), the input dtype and
 * the accumulator kind hr_acc_of picks for the call (kernels are instantiated per these
 * four, never per result dtype: the result dtype is a run-time argument of store()).
 *   value_t           the input's storage type (f16/bf16: raw uint16_t);
 *   acc               the accumulator (op_types.h's acc_t);
 *   identity()        what lanes start from and out-of-range lanes are fed (exact);
 *   apply(a, b)       the combine, commutative, so a tree may combine either way round;
 *   lift(x), lift2(x, y)  the element transform into acc (level 0 only; KEY: key_of);
 *   empty()           the accumulator of n == 0 (+0.0 for float sums; identity otherwise);
 *   store(...)        rounds acc once to the result dtype and writes it (thread 0, top).
 * Float sums start lanes from -0.0, the exact identity, so a sum of -0.0 stays -0.0.
 * Float min/max return the canonical quiet NaN if either side is NaN and order -0.0
 * below +0.0, so their result has the same bits in any order.
 * op_sum<T> .. op_xor<T>: the original 7 operators with in == out over a C++ type, which
 * the study algorithms, multipass and two-pass run (they store T(acc)). */
#ifndef HIPREDUCE_OPS_H
#define HIPREDUCE_OPS_H

#include <math.h>

#include "op_types.h"

namespace hr {

template <class T> HR_HD void put(void* p, T v) { *(T*)p = v; }

template <int Transform, int Combine, int D, int A> struct red {
    static constexpr int transform = Transform, combine = Combine, dtype = D, acc_kind = A;
    static constexpr int in_class = dtype_row(D).cls;
    using value_t = storage_t<D>;
    using acc = acc_t<A>;
    static constexpr int inputs = Transform == HR_TF_PRODUCT ? 2 : 1;
    static constexpr bool bitwise = Combine == HR_CB_AND || Combine == HR_CB_OR || Combine == HR_CB_XOR;
    static constexpr bool float_acc = A == HR_ACC_F32 || A == HR_ACC_F64;
    static constexpr bool keyed = A == HR_ACC_KEY32 || A == HR_ACC_KEY64;
    static constexpr bool float_in = in_class == HR_CLASS_HALF || in_class == HR_CLASS_FLOAT;

    /* x in the accumulator's arithmetic type: exact for floats; integers sign- or
     * zero-extended by their own signedness (C++ conversion to the unsigned acc). */
    static HR_HD acc widen(value_t x)
    {
        if constexpr (in_class == HR_CLASS_HALF) return acc(half_to_f32<D>(x));
        else return acc(x);
    }

    static HR_HD acc identity()
    {
        if constexpr (A == HR_ACC_NRM2_F64) return acc{0.0, 0.0, 0.0};
        else if constexpr (keyed) return acc{worst_key(), INT64_MAX};
        else if constexpr (Combine == HR_CB_NRM2) return acc(0.0);
        else if constexpr (Combine == HR_CB_ADD) return float_acc ? acc(-0.0) : acc(0);
        else if constexpr (Combine == HR_CB_MUL) return acc(1);
        else if constexpr (Combine == HR_CB_MIN || Combine == HR_CB_MAX) {
            if constexpr (Transform == HR_TF_ABS) return acc(0); /* max_abs: +0.0 or 0 */
            else if constexpr (in_class == HR_CLASS_HALF) return Combine == HR_CB_MIN ? infinity<float>() : -infinity<float>();
            else return acc(Combine == HR_CB_MIN ? max_value<value_t>() : min_value<value_t>());
        } else if constexpr (Combine == HR_CB_AND) return ~acc(0);
        else return acc(0);
    }

    static HR_HD acc empty()
    {
        if constexpr (Combine == HR_CB_ADD && !keyed) return acc(0);
        else if constexpr (Combine == HR_CB_NRM2 && A != HR_ACC_NRM2_F64) return acc(0.0);
        else return identity();
    }

    static HR_HD acc apply(acc a, acc b)
    {
        if constexpr (A == HR_ACC_NRM2_F64) return acc{a.sml + b.sml, a.med + b.med, a.big + b.big};
        else if constexpr (keyed) {
            const bool better = Combine == HR_CB_ARGMIN ? b.key < a.key : b.key > a.key;
            return better || (b.key == a.key && b.index < a.index) ? b : a;
        } else if constexpr (Combine == HR_CB_ADD || Combine == HR_CB_NRM2) return a + b;
        else if constexpr (Combine == HR_CB_MUL) return a * b;
        else if constexpr (Combine == HR_CB_MIN || Combine == HR_CB_MAX) {
            if constexpr (float_acc) return float_pick<acc, Combine == HR_CB_MIN>(a, b);
            else return (Combine == HR_CB_MIN ? b < a : a < b) ? b : a;
        } else if constexpr (Combine == HR_CB_AND) return a & b;
        else if constexpr (Combine == HR_CB_OR) return a | b;
        else return a ^ b;
    }

    static HR_HD acc lift(value_t x)
    {
        if constexpr (Transform == HR_TF_ABS) {
            if constexpr (float_acc) return fabs_bits(widen(x));
            else if constexpr (std::is_signed<value_t>::value) return x < 0 ? acc(acc(0) - widen(x)) : widen(x);
            else return widen(x);
        } else if constexpr (Transform == HR_TF_SQUARE) {
            if constexpr (A == HR_ACC_NRM2_F64) {
                /* Blue's three sums; the other two get +0.0, which leaves them unchanged. */
                const double a = fabs_bits(x);
                if (a > NRM2_T_BIG) {
                    const double s = a * NRM2_S_BIG;
                    return acc{0.0, 0.0, s * s};
                }
                if (a < NRM2_T_SML) {
                    const double s = a * NRM2_S_SML;
                    return acc{s * s, 0.0, 0.0};
                }
                return acc{0.0, a * a, 0.0};
            } else {
                const acc e = widen(x);
                return acc(e * e);
            }
        } else {
            return widen(x);
        }
    }
    static HR_HD acc lift2(value_t x, value_t y) { return acc(widen(x) * widen(y)); }

    /* argmin/argmax keys: order-preserving maps of the input's bits; any NaN gets the key
     * that beats every other (no non-NaN key reaches it), so the first NaN wins. */
    using key_t = typename std::conditional<A == HR_ACC_KEY64, int64_t, int32_t>::type;
    static HR_HD key_t worst_key()
    {
        return Combine == HR_CB_ARGMIN ? (key_t)max_value<key_t>() : (key_t)min_value<key_t>();
    }
    static HR_HD key_t nan_key()
    {
        return Combine == HR_CB_ARGMIN ? (key_t)min_value<key_t>() : (key_t)max_value<key_t>();
    }
    static HR_HD key_t key_of(value_t x)
    {
        if constexpr (in_class == HR_CLASS_HALF) {
            const key_t k = flip_key<int32_t>((int32_t)(int16_t)x);
            return (x & 0x7fffu) > half_inf<D>() ? nan_key() : k;
        } else if constexpr (in_class == HR_CLASS_FLOAT) {
            return is_nan(x) ? nan_key() : float_key<value_t>::key(x);
        } else if constexpr (std::is_unsigned<value_t>::value && sizeof(value_t) == sizeof(key_t)) {
            return (key_t)(x ^ (value_t)((value_t)1 << (sizeof(value_t) * 8 - 1)));
        } else {
            return (key_t)x;
        }
    }
    /* The element of a key (exact); NaN keys give the canonical NaN. */
    static HR_HD value_t key_value(key_t k)
    {
        if constexpr (in_class == HR_CLASS_HALF) {
            return k == nan_key() ? half_nan<D>() : (uint16_t)flip_key<int32_t>(k);
        } else if constexpr (in_class == HR_CLASS_FLOAT) {
            return k == nan_key() ? canonical_nan<value_t>() : float_key<value_t>::value(k);
        } else if constexpr (std::is_unsigned<value_t>::value && sizeof(value_t) == sizeof(key_t)) {
            return (value_t)k ^ (value_t)((value_t)1 << (sizeof(value_t) * 8 - 1));
        } else {
            return (value_t)k;
        }
    }
    /* argmin/argmax of n == 0: +inf / the type's max (argmin), -inf / its min (argmax). */
    static HR_HD value_t empty_value()
    {
        if constexpr (in_class == HR_CLASS_HALF) return (uint16_t)(half_inf<D>() | (Combine == HR_CB_ARGMIN ? 0 : 0x8000));
        else return Combine == HR_CB_ARGMIN ? max_value<value_t>() : min_value<value_t>();
    }

    /* A float result r (nrm2): NaN -> the canonical NaN of the result dtype. */
    static HR_HD void put_norm(double r, int out, void* result)
    {
        if (out == HIPREDUCE_F32) put<float>(result, is_nan(r) ? canonical_nan<float>() : (float)r);
        else put<double>(result, is_nan(r) ? canonical_nan<double>() : r);
    }
    static HR_HD double blue_finish(const nrm2_acc& s)
    {
        double big = s.big, r;
        const bool med_counts = s.med > 0.0 || is_nan(s.med);
        if (big > 0.0 || is_nan(big)) {
            if (med_counts) big += (s.med * NRM2_S_BIG) * NRM2_S_BIG;
            r = sqrt(big) / NRM2_S_BIG;
        } else if (s.sml > 0.0) {
            if (med_counts) {
                const double a = sqrt(s.med), b = sqrt(s.sml) / NRM2_S_SML;
                const double ymin = a < b ? a : b, ymax = a < b ? b : a;
                const double q = ymin / ymax;
                r = ymax * sqrt(1.0 + q * q);
            } else {
                r = sqrt(s.sml) / NRM2_S_SML;
            }
        } else {
            r = sqrt(s.med);
        }
        return is_nan(s.med) ? canonical_nan<double>() : r;
    }

    /* Writes the result of accumulator v (empty: n == 0) in result dtype `out`. */
    static HR_HD void store(acc v, bool is_empty, int out, void* result, int64_t* index)
    {
        if constexpr (keyed) {
            *index = is_empty ? -1 : v.index;
            put<value_t>(result, is_empty ? empty_value() : key_value(v.key));
            return;
        } else {
            if (is_empty) v = empty();
            if constexpr (A == HR_ACC_NRM2_F64) put_norm(blue_finish(v), out, result);
            else if constexpr (Combine == HR_CB_NRM2) put_norm(sqrt(v), out, result);
            else if constexpr (A == HR_ACC_F32 && in_class == HR_CLASS_HALF) {
                if (out == D) put<uint16_t>(result, f32_to_half<D>(v));
                else put<float>(result, v);
            } else if constexpr (float_acc) {
                put<acc>(result, v); /* f32 from f32, f64 from anything */
            } else {
                /* Integers: the accumulator's low bytes, read as the result type. */
                using U = typename std::make_unsigned<acc>::type;
                if constexpr (sizeof(acc) == 8 || dtype_row(D).bytes == 4) {
                    put<U>(result, (U)v);
                } else {
                    switch (dtype_row(out).bytes) {
                    case 1: put<uint8_t>(result, (uint8_t)v); break;
                    case 2: put<uint16_t>(result, (uint16_t)v); break;
                    default: put<uint32_t>(result, (uint32_t)v); break;
                    }
                }
            }
        }
    }
};

/* The original 7 operators over a C++ element type with the result in the same type. */
template <class T> struct dtype_id;
template <> struct dtype_id<int8_t> { static constexpr int value = HIPREDUCE_I8; };
template <> struct dtype_id<uint8_t> { static constexpr int value = HIPREDUCE_U8; };
template <> struct dtype_id<int16_t> { static constexpr int value = HIPREDUCE_I16; };
template <> struct dtype_id<uint16_t> { static constexpr int value = HIPREDUCE_U16; };
template <> struct dtype_id<int32_t> { static constexpr int value = HIPREDUCE_I32; };
template <> struct dtype_id<uint32_t> { static constexpr int value = HIPREDUCE_U32; };
template <> struct dtype_id<int64_t> { static constexpr int value = HIPREDUCE_I64; };
template <> struct dtype_id<uint64_t> { static constexpr int value = HIPREDUCE_U64; };
template <> struct dtype_id<float> { static constexpr int value = HIPREDUCE_F32; };
template <> struct dtype_id<double> { static constexpr int value = HIPREDUCE_F64; };

/* The accumulator of original operator Op with the result in the input dtype: rules.h's hr_acc_of;
 * for a pair it does not allow (bitwise ops on floats) the input's float accumulator, so that the
 * type exists and op_applies says no. */
template <class T, int Op> constexpr int same_acc()
{
    constexpr int D = dtype_id<T>::value;
    return hr_acc_of(Op, D, D) != HR_ACC_NONE ? hr_acc_of(Op, D, D) : sizeof(T) == 8 ? HR_ACC_F64 : HR_ACC_F32;
}

/* Integers widen to at least 32 bits, unsigned: defined wrap-around (the sum's accumulator). */
template <class T> using wrap_acc_t = acc_t<same_acc<T, HIPREDUCE_OP_SUM>()>;

template <int Op, class T>
using same_red = red<hr_op_transform(Op), hr_op_combine(Op), dtype_id<T>::value, same_acc<T, Op>()>;
template <class T> struct op_sum : same_red<HIPREDUCE_OP_SUM, T> {};
template <class T> struct op_prod : same_red<HIPREDUCE_OP_PROD, T> {};
template <class T, bool Min> struct op_order : same_red<Min ? HIPREDUCE_OP_MIN : HIPREDUCE_OP_MAX, T> {};
template <class T> using op_min = op_order<T, true>;
template <class T> using op_max = op_order<T, false>;
template <class T> struct op_and : same_red<HIPREDUCE_OP_AND, T> {};
template <class T> struct op_or : same_red<HIPREDUCE_OP_OR, T> {};
template <class T> struct op_xor : same_red<HIPREDUCE_OP_XOR, T> {};

/* Whether operator Op applies to its element type (bitwise ops: integers only). */
template <class Op> constexpr bool op_applies() { return !(Op::bitwise && is_float_t<typename Op::value_t>::value); }

}  // namespace hr

#endif
