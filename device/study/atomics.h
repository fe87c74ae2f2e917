/* The atomic finish of PMPP's segmented multiblock reduction (PMPP 10.8): which
 * operators have a hardware atomic, in what slot type, and how a value maps to it.
 *  - integer sum, and, or, xor: atomicAdd/And/Or/Xor on the unsigned 32/64-bit
 *    accumulator (wrap-around is the operator's own);
 *  - integer min/max: atomicMin/Max on the value with its sign bit flipped (an
 *    order-preserving map to unsigned, since HIP has no signed 64-bit atomicMin);
 *  - float sum: atomicAdd on float/double. The order in which blocks arrive varies
 *    from run to run, so the result may differ in the last bits between runs.
 *  - prod (no atomic multiply) and float min/max: not supported, the call returns
 *    HIPREDUCE_STATUS_NOT_SUPPORTED. */
#ifndef HIPREDUCE_STUDY_ATOMICS_H
#define HIPREDUCE_STUDY_ATOMICS_H

#include "hip_compat.h"
#include "ops.h"

namespace hr {

enum class atomic_op { none, add, min, max, bit_and, bit_or, bit_xor };

template <class Op> struct atomic_of { static constexpr atomic_op value = atomic_op::none; };
template <class T> struct atomic_of<op_sum<T>> { static constexpr atomic_op value = atomic_op::add; };
template <class T, bool Min> struct atomic_of<op_order<T, Min>> {
    static constexpr atomic_op value = is_float_t<T>::value ? atomic_op::none : Min ? atomic_op::min : atomic_op::max;
};
template <class T> struct atomic_of<op_and<T>> { static constexpr atomic_op value = atomic_op::bit_and; };
template <class T> struct atomic_of<op_or<T>> { static constexpr atomic_op value = atomic_op::bit_or; };
template <class T> struct atomic_of<op_xor<T>> { static constexpr atomic_op value = atomic_op::bit_xor; };

/* A variable, not a function: nvcc refuses host constexpr functions in device code. */
template <class Op> constexpr bool atomic_supported = atomic_of<Op>::value != atomic_op::none;

template <class Op> struct atomic_slot {
    using acc = typename Op::acc;
    /* The type the runtimes' atomics take (unsigned long long, not uint64_t's long). */
    using type = typename std::conditional<
        is_float_t<acc>::value, acc,
        typename std::conditional<sizeof(acc) == 8, unsigned long long, unsigned>::type>::type;
    /* Flipping the sign bit maps signed order onto unsigned order (min/max only). */
    static constexpr bool biased = std::is_signed<acc>::value && !is_float_t<acc>::value;
    static constexpr type bias = biased ? type(1) << (8 * sizeof(type) - 1) : type(0);

    static __device__ __forceinline__ type to_slot(acc v)
    {
        if constexpr (biased) return type(v) ^ bias;
        else return type(v);
    }
    static __device__ __forceinline__ acc from_slot(type s)
    {
        if constexpr (biased) return acc(s ^ bias);
        else return acc(s);
    }

    static __device__ __forceinline__ void combine(type* slot, acc v)
    {
        constexpr atomic_op a = atomic_of<Op>::value;
        const type s = to_slot(v);
        if constexpr (a == atomic_op::add) atomicAdd(slot, s);
        else if constexpr (a == atomic_op::min) atomicMin(slot, s);
        else if constexpr (a == atomic_op::max) atomicMax(slot, s);
        else if constexpr (a == atomic_op::bit_and) atomicAnd(slot, s);
        else if constexpr (a == atomic_op::bit_or) atomicOr(slot, s);
        else if constexpr (a == atomic_op::bit_xor) atomicXor(slot, s);
    }
};

}  // namespace hr

#endif
