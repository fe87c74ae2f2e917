/* Operators of the device code: red<Transform, Combine, InDtype, AccKind> composes, for one
 * op_table.h row (its transform and combine columns), an input dtype and the accumulator kind
 * hr_acc_of picks for the call, three small units (kernels are instantiated per these four,
 * never per result dtype: the result dtype is a run-time argument of store()):
 *   a transform (transforms.h)  value_t, widen, lift, lift2 (dot); KEY: key_t, key_of, key_value;
 *   a combine (combines.h)      apply, and with the transform's domain identity and empty;
 *   a store policy (stores.h)   the accumulator written once in the result dtype.
 * Kernels read the composition only: value_t, acc, identity(), apply(a, b), lift(x),
 * lift2(x, y), empty(), store(v, count, out, finish, correction, result, result2, index), key_of(x), and the flags
 * below. A new transform or combine is one unit beside the others; red changes only for a
 * combine with a finish of its own (its store policy, as NRM2's).
 * op_sum<T> .. op_xor<T>: the original 7 operators with in == out over a C++ type, which
 * the study algorithms, multipass and two-pass run (they store T(acc)). */
#ifndef HIPREDUCE_OPS_H
#define HIPREDUCE_OPS_H

#include "combines.h"
#include "stores.h"
#include "transforms.h"

namespace hr {

template <int Transform, int Combine, int D, int A>
struct red : combine_unit<Combine, A>, transform_unit<Transform, D, A, combine_unit<Combine, A>> {
    using combine_t = combine_unit<Combine, A>;
    using transform_t = transform_unit<Transform, D, A, combine_t>;
    static constexpr int transform = Transform, combine = Combine, dtype = D, acc_kind = A;
    static constexpr int in_class = hr_dtype_class(D);
    using value_t = storage_t<D>;
    using acc = acc_t<A>;
    static constexpr int inputs = transform_t::inputs;
    static constexpr bool bitwise = combine_t::bitwise;
    static constexpr bool float_acc = std::is_floating_point<acc>::value;
    static constexpr bool keyed = is_key_acc<acc>::value;
    static constexpr bool float_in = hr_dtype_is_float(D);

    static HR_HD acc identity() { return combine_t::template identity<transform_t>(); }
    static HR_HD acc empty() { return combine_t::template empty<transform_t>(); }

    /* Writes the result of accumulator v, the reduction of a slice of `count` elements (0: the
     * empty result), in result dtype `out`, with the op row's finish (op_table.h) and, for var
     * and std, the correction; result2: the second output of VAR_MEAN / STD_MEAN / AMINMAX, else null. */
    static HR_HD void store(acc v, uint64_t count, int out, int finish, double correction, void* result, void* result2,
                            int64_t* index)
    {
        if constexpr (keyed) {
            store_arg<transform_t>::store(v, count == 0, result, index);
        } else {
            if (count == 0) v = empty();
            if constexpr (Combine == HR_CB_NRM2) {
                store_norm<A>::store(v, out, result);
            } else if constexpr (is_minmax_acc<A>()) {
                store_minmax<D, A>::store(v, result, result2);
            } else if constexpr (is_stats_acc<A>()) {
                store_stats<D, A>::store(v, out, finish, correction, result, result2);
            } else if constexpr (Transform == HR_TF_NONZERO) {
                store_count::store(v, count, finish, result);
            } else {
                if constexpr (float_acc)
                    if (finish == HR_FN_MEAN) v = v / acc(count); /* count 0: 0 / 0, NaN */
                store_round<D, A>::store(v, out, result);
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

/* An original operator knows its op, so that whether it applies to its type is rules.h's answer. */
template <int Op, class T>
struct same_red : red<hr_op_transform(Op), hr_op_combine(Op), dtype_id<T>::value, same_acc<T, Op>()> {
    static constexpr int op = Op;
};
template <class T> struct op_sum : same_red<HIPREDUCE_OP_SUM, T> {};
template <class T> struct op_prod : same_red<HIPREDUCE_OP_PROD, T> {};
template <class T, bool Min> struct op_order : same_red<Min ? HIPREDUCE_OP_MIN : HIPREDUCE_OP_MAX, T> {};
template <class T> using op_min = op_order<T, true>;
template <class T> using op_max = op_order<T, false>;
template <class T> struct op_and : same_red<HIPREDUCE_OP_AND, T> {};
template <class T> struct op_or : same_red<HIPREDUCE_OP_OR, T> {};
template <class T> struct op_xor : same_red<HIPREDUCE_OP_XOR, T> {};

/* Whether original operator Op applies to its element type with the result in the same type
 * (bitwise ops: integers only). */
template <class Op> constexpr bool op_applies() { return hr_result_allowed(Op::op, Op::dtype, Op::dtype); }

}  // namespace hr

#endif
