/* Which kernel instances exist, derived from device/op_table.h's rows: the default
 * algorithm's tree kernel per (op row, input dtype, accumulator kind) that some allowed
 * result dtype needs (never per result dtype: that is a run-time kernel argument), and
 * multipass / two-pass for the original 7 operators with in == out. Each
 * host/tree_<dtype>.cpp instantiates one input dtype's cells (the files compile in
 * parallel); a new op row gets its instances there without further edits.
 *
 * result_allowed and acc_of restate src/types.c's hr_check_triple and hr_acc_of as
 * constant expressions (the device side does not include src/). The executor looks a call
 * up by the accumulator hr_acc_of gave it, so a disagreement shows as NOT_SUPPORTED for
 * that triple, which the typed tests (every triple, GPU == cpu) report. */
#ifndef HIPREDUCE_INSTANCES_H
#define HIPREDUCE_INSTANCES_H

#include <utility>

#include "segment_drivers.h"

namespace hr {

constexpr bool result_allowed(int results, int in, int out)
{
    const dtype_columns i = dtype_row(in), o = dtype_row(out);
    if (i.cls == DC_NONE || o.cls == DC_NONE) return false;
    const bool in_int = i.cls == DC_SIGNED || i.cls == DC_UNSIGNED;
    switch (results) {
    case RS_WIDE:
        if (in_int) return (o.cls == i.cls && o.bytes >= i.bytes) || out == HIPREDUCE_I64 || out == HIPREDUCE_U64;
        if (i.cls == DC_HALF) return out == in || out == HIPREDUCE_F32 || out == HIPREDUCE_F64;
        return o.cls == DC_FLOAT && o.bytes >= i.bytes;
    case RS_SAME:
    case RS_ARG: return out == in;
    case RS_INT_SAME: return in_int && out == in;
    case RS_MAGNITUDE: return in_int ? o.cls == DC_UNSIGNED && o.bytes == i.bytes : out == in;
    case RS_NORM: return !in_int && (out == HIPREDUCE_F32 || out == HIPREDUCE_F64);
    default: return false;
    }
}

constexpr int acc_of(int op, int in, int out)
{
    const op_columns r = op_row(op);
    const dtype_columns i = dtype_row(in), o = dtype_row(out);
    const bool wide = i.bytes == 8 || o.bytes == 8;
    if (r.combine == CB_NRM2) return in == HIPREDUCE_F64 ? HR_ACC_NRM2_F64 : HR_ACC_F64;
    if (r.combine == CB_ARGMIN || r.combine == CB_ARGMAX) return i.bytes == 8 ? HR_ACC_KEY64 : HR_ACC_KEY32;
    if (i.cls == DC_HALF || i.cls == DC_FLOAT) return wide ? HR_ACC_F64 : HR_ACC_F32;
    if ((r.combine == CB_MIN || r.combine == CB_MAX) && r.transform == TF_IDENT) {
        if (i.cls == DC_SIGNED) return wide ? HR_ACC_I64 : HR_ACC_I32;
        return wide ? HR_ACC_U64 : HR_ACC_U32;
    }
    return wide ? HR_ACC_U64 : HR_ACC_U32;
}

/* Whether some allowed result dtype of (op, in) reduces in accumulator `acc`. */
constexpr bool tree_cell_used(int op, int in, int acc)
{
    if (op_row(op).combine < 0) return false;
    for (int out = 0; out < HR_DTYPE_SLOTS; ++out)
        if (result_allowed(op_row(op).results, in, out) && acc_of(op, in, out) == acc) return true;
    return false;
}

template <int Op, int D, int A> constexpr tree_entry tree_cell()
{
    if constexpr (tree_cell_used(Op, D, A)) {
        using R = red<op_row(Op).transform, op_row(Op).combine, D, A>;
        return {{run_tree<R, 32>, run_tree<R, 64>},
                {run_shaped<R, 32>, run_shaped<R, 64>},
                sizeof(typename R::acc),
                sizeof(typename R::value_t)};
    } else {
        return {};
    }
}

template <int Op, int D, size_t... A>
constexpr std::array<tree_entry, HR_ACC_KINDS> tree_row(std::index_sequence<A...>)
{
    return {{tree_cell<Op, D, (int)A>()...}};
}

/* The original operators by enumerator (multipass, two-pass). */
template <int Op, class T> struct pass_op;
template <class T> struct pass_op<HIPREDUCE_OP_SUM, T> { using type = op_sum<T>; };
template <class T> struct pass_op<HIPREDUCE_OP_PROD, T> { using type = op_prod<T>; };
template <class T> struct pass_op<HIPREDUCE_OP_MIN, T> { using type = op_min<T>; };
template <class T> struct pass_op<HIPREDUCE_OP_MAX, T> { using type = op_max<T>; };
template <class T> struct pass_op<HIPREDUCE_OP_AND, T> { using type = op_and<T>; };
template <class T> struct pass_op<HIPREDUCE_OP_OR, T> { using type = op_or<T>; };
template <class T> struct pass_op<HIPREDUCE_OP_XOR, T> { using type = op_xor<T>; };

template <int Op, int D> constexpr pass_entry pass_cell()
{
    if constexpr (dtype_row(D).cls == DC_HALF) {
        return {};
    } else {
        using O = typename pass_op<Op, storage_t<D>>::type;
        if constexpr (op_applies<O>())
            return {{{run_multipass<O, 32>, run_multipass<O, 64>}, {run_two_pass<O, 32>, run_two_pass<O, 64>}},
                    sizeof(typename O::acc),
                    sizeof(typename O::value_t)};
        else
            return {};
    }
}

template <int D, size_t... Op, size_t... P>
constexpr dtype_instances make_instances(std::index_sequence<Op...>, std::index_sequence<P...>)
{
    return {{{tree_row<(int)Op, D>(std::make_index_sequence<HR_ACC_KINDS>())...}}, {{pass_cell<(int)P, D>()...}}};
}

/* A function-local table: a namespace-scope const array would also become a device
 * constant under HIP-Clang and drag the host launchers into the device pass. */
#define HR_DEFINE_INSTANCES(E, NAME)                                                                              \
    const dtype_instances& instances_##NAME()                                                                     \
    {                                                                                                             \
        static const dtype_instances table =                                                                      \
            make_instances<E>(std::make_index_sequence<HR_OP_SLOTS>(), std::make_index_sequence<HR_PASS_OPS>()); \
        return table;                                                                                             \
    }

}  // namespace hr

#endif
