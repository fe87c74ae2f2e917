/* Which kernel instances exist, derived from device/op_table.h's rows: the default
 * algorithm's tree kernel per (op row, input dtype, accumulator kind) that some allowed
 * result dtype needs (never per result dtype: that is a run-time kernel argument). Each
 * host/tree_<dtype>.cpp instantiates one input dtype's cells, and the same dtype's multipass
 * and two-pass cells (host/study/pass_instances.h), so the files compile in parallel; a new op
 * row gets its instances there without further edits.
 * The triples and their accumulators are device/rules.h's, the same functions the C API
 * validates with. */
#ifndef HIPREDUCE_INSTANCES_H
#define HIPREDUCE_INSTANCES_H

#include <utility>

#include "default_driver.h"
#include "tensor_driver.h"
#include "study/pass_instances.h"

namespace hr {

/* Whether some allowed result dtype of (op, in) reduces in accumulator `acc`. */
constexpr bool tree_cell_used(int op, int in, int acc)
{
    if (hr_op_combine(op) < 0 || !hr_acc_tiled(acc)) return false; /* EXACT: not a tree's */
    for (int out = 0; out < HR_DTYPE_SLOTS; ++out)
        if (hr_acc_of(op, in, out) == acc) return true;
    return false;
}

template <int Op, int D, int A> constexpr tree_entry tree_cell()
{
    if constexpr (tree_cell_used(Op, D, A)) {
        using R = red<hr_op_transform(Op), hr_op_combine(Op), D, A>;
        return {{run_call<R, 32>, run_call<R, 64>}, sizeof(typename R::acc), sizeof(typename R::value_t)};
    } else {
        return {};
    }
}

template <int Op, int D, size_t... A>
constexpr std::array<tree_entry, HR_ACC_KINDS> tree_row(std::index_sequence<A...>)
{
    return {{tree_cell<Op, D, (int)A>()...}};
}

template <int D, size_t... Op> constexpr dtype_instances make_instances(std::index_sequence<Op...>)
{
    return {{{tree_row<(int)Op, D>(std::make_index_sequence<HR_ACC_KINDS>())...}}};
}

/* A function-local table: a namespace-scope const array would also become a device
 * constant under HIP-Clang and drag the host launchers into the device pass. */
#define HR_DEFINE_INSTANCES(E, NAME)                                                                  \
    const dtype_instances& instances_##NAME()                                                         \
    {                                                                                                 \
        static const dtype_instances table = make_instances<E>(std::make_index_sequence<HR_OP_SLOTS>()); \
        return table;                                                                                 \
    }                                                                                                 \
    HR_DEFINE_PASS_INSTANCES(E, NAME)

}  // namespace hr

#endif
