/* The multipass and two-pass instances (pass_drivers.h) of one input dtype: the original 7
 * operators with in == out, no f16/bf16 and no complex dtype. host/instances.h's HR_DEFINE_INSTANCES defines them
 * beside the dtype's tree instances, so each dtype's file compiles both. */
#ifndef HIPREDUCE_STUDY_PASS_INSTANCES_H
#define HIPREDUCE_STUDY_PASS_INSTANCES_H

#include <utility>

#include "pass_drivers.h"

namespace hr {

/* The original operators by enumerator. */
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
    if constexpr (hr_dtype_class(D) == HR_CLASS_HALF || hr_dtype_class(D) == HR_CLASS_COMPLEX) {
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

template <int D, size_t... Op> constexpr pass_table make_pass_instances(std::index_sequence<Op...>)
{
    return {{pass_cell<(int)Op, D>()...}};
}

/* A function-local table, as host/instances.h's (HIP-Clang would make a namespace-scope
 * const array a device constant). */
#define HR_DEFINE_PASS_INSTANCES(E, NAME)                                                                   \
    const pass_table& pass_instances_##NAME()                                                              \
    {                                                                                                      \
        static const pass_table table = make_pass_instances<E>(std::make_index_sequence<HR_PASS_OPS>()); \
        return table;                                                                                      \
    }

}  // namespace hr

#endif
