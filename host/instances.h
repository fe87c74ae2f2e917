/* Which kernel instances exist, derived from device/op_table.h's rows: the default
 * algorithm's tree kernel per (op row, input dtype, accumulator kind) that some allowed
 * result dtype needs (never per result dtype: that is a run-time kernel argument), and
 * multipass / two-pass for the original 7 operators with in == out. Each
 * host/tree_<dtype>.cpp instantiates one input dtype's cells (the files compile in
 * parallel); a new op row gets its instances there without further edits.
 * The triples and their accumulators are device/rules.h's, the same functions the C API
 * validates with. */
#ifndef HIPREDUCE_INSTANCES_H
#define HIPREDUCE_INSTANCES_H

#include <utility>

#include "segment_drivers.h"

namespace hr {

/* Whether some allowed result dtype of (op, in) reduces in accumulator `acc`. */
constexpr bool tree_cell_used(int op, int in, int acc)
{
    if (op_row(op).combine < 0 || acc == HR_ACC_NONE) return false;
    for (int out = 0; out < HR_DTYPE_SLOTS; ++out)
        if (hr_acc_of(op, in, out) == acc) return true;
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
    if constexpr (dtype_row(D).cls == HR_CLASS_HALF) {
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
