/* One lane folding its elements of a tile in the order's sequence (device/order.h).
 *
 * input_fold<R>: level 0, the input. input_fold(start, lane_first) starts a lane whose first
 * element is at position lane_first of the tile; add(x[, y], pos) takes the element (dot:
 * both) and its position counted from lane_first; result(tile_first) gives the accumulator. The generic fold is
 * acc = apply(acc, lift(x)) element by element; the others give the same bits faster:
 *  - float min/max: integer order keys beside a NaN flag (f16/bf16 on their own 16 bits),
 *    converted once: one dependent instruction per element instead of three or four;
 *  - float max_abs: an unsigned max of the magnitude bits (NaN magnitudes are above
 *    infinity's), the canonical NaN once at the end;
 *  - integer sums of 8/16-bit inputs (|x|, x != 0; x*x, x*y of 8-bit ones): 32 bits within the tile,
 *    widened once (a lane holds at most 64 elements of a tile, so the 32-bit sum is exact;
 *    integer results do not depend on the order), 8-bit ones four per instruction (dp4a);
 *  - integer products of 8/16-bit inputs into 64 bits: four (8-bit) or two (16-bit) elements
 *    multiplied in 32 bits, exactly (255^4 and 65535^2 are below 2^32, |-128|^4 and |-32768|^2
 *    below 2^31), then one 64-bit multiply: a quarter or half of them (gfx90a's launch 3 of i8
 *    products spilled 11 VGPRs with one 64-bit multiply an element);
 *  - argmin/argmax: the best key and its 32-bit position in the tile, the 64-bit index once.
 *    Positions rise along the lane, so a strictly better key is the only update; the
 *    position starts at the lane's first element, which is the answer when every element
 *    has the worst key (and a lane without elements loses every tie: its index is past
 *    the tile's valid ones).
 * partial_fold<R>: levels >= 1, accumulators combined by apply (float min/max by keys). */
#ifndef HIPREDUCE_LANE_FOLDS_H
#define HIPREDUCE_LANE_FOLDS_H

#include "ops.h"

namespace hr {

enum { FOLD_GENERIC, FOLD_FLOAT_ORDER, FOLD_FLOAT_MAX_ABS, FOLD_NARROW_SUM, FOLD_NARROW_PRODUCT, FOLD_KEY };

template <class R> constexpr int fold_kind()
{
    if (R::keyed) return FOLD_KEY;
    const bool order = R::combine == HR_CB_MIN || R::combine == HR_CB_MAX;
    if (R::float_in && order && R::transform == HR_TF_IDENT) return FOLD_FLOAT_ORDER;
    if (R::float_in && R::combine == HR_CB_MAX && R::transform == HR_TF_ABS) return FOLD_FLOAT_MAX_ABS;
    const int bytes = hr_dtype_bytes(R::dtype);
    const bool narrow = R::transform == HR_TF_IDENT || R::transform == HR_TF_ABS || R::transform == HR_TF_NONZERO ? bytes <= 2
                                                                                                              : bytes == 1;
    if (!R::float_in && R::combine == HR_CB_ADD && narrow) return FOLD_NARROW_SUM;
    if (!R::float_in && R::combine == HR_CB_MUL && bytes <= 2 && sizeof(typename R::acc) == 8) return FOLD_NARROW_PRODUCT;
    return FOLD_GENERIC;
}

template <class R, int Kind = fold_kind<R>()> struct input_fold {
    using acc = typename R::acc;
    using T = typename R::value_t;
    static constexpr bool words = false; /* add_word: four 8-bit elements at once */
    acc value;
    HR_HD input_fold(acc start, uint32_t) : value(start) {}
    HR_HD void add(T x, uint32_t) { value = R::apply(value, R::lift(x)); }
    HR_HD void add(T x, T y, uint32_t) { value = R::apply(value, R::lift2(x, y)); }
    HR_HD acc result(uint64_t) const { return value; }
};

/* The bits of a float (or of f16/bf16's raw value) as an integer of its width. */
template <class T>
using bits_t = typename std::conditional<sizeof(T) == 2, uint16_t, typename std::conditional<sizeof(T) == 4, uint32_t, uint64_t>::type>::type;

template <class R> struct input_fold<R, FOLD_FLOAT_ORDER> {
    static constexpr bool words = false;
    using acc = typename R::acc;
    using T = typename R::value_t;
    static constexpr bool half = R::in_class == HR_CLASS_HALF, is_min = R::combine == HR_CB_MIN;
    using I = typename std::conditional<half, int32_t, typename float_key<T>::I>::type;
    I key;
    bool nan;
    static HR_HD I key_of(T x)
    {
        if constexpr (half) return half_key(x);
        else return float_key<T>::key(x);
    }
    static HR_HD bool nan_of(T x)
    {
        if constexpr (half) return (x & 0x7fffu) > half_inf<R::dtype>();
        else return is_nan(x);
    }
    HR_HD input_fold(acc start, uint32_t)
    {
        if constexpr (half) {
            const uint16_t h = f32_to_half<R::dtype>(start); /* exact: start is a half value or NaN */
            key = key_of(h);
            nan = nan_of(h);
        } else {
            key = key_of(start);
            nan = is_nan(start);
        }
    }
    HR_HD void add(T x, uint32_t)
    {
        const I k = key_of(x);
        key = is_min ? (k < key ? k : key) : (k > key ? k : key);
        nan |= nan_of(x);
    }
    HR_HD acc result(uint64_t) const
    {
        if constexpr (half) return nan ? canonical_nan<float>() : half_to_f32<R::dtype>(half_of_key(key));
        else return nan ? canonical_nan<T>() : float_key<T>::value(key);
    }
};

template <class R> struct input_fold<R, FOLD_FLOAT_MAX_ABS> {
    static constexpr bool words = false;
    using acc = typename R::acc;
    using T = typename R::value_t;
    static constexpr bool half = R::in_class == HR_CLASS_HALF;
    using U = bits_t<T>;
    static constexpr U mask = (U)((U)~U(0) >> 1);
    U best; /* largest magnitude bits so far */
    HR_HD input_fold(acc start, uint32_t)
    {
        if constexpr (half) best = (U)(f32_to_half<R::dtype>(start) & mask);
        else best = (U)(__builtin_bit_cast(U, start) & mask);
    }
    HR_HD void add(T x, uint32_t)
    {
        const U m = (U)(__builtin_bit_cast(U, x) & mask);
        best = m > best ? m : best;
    }
    HR_HD acc result(uint64_t) const
    {
        if constexpr (half) return best > half_inf<R::dtype>() ? canonical_nan<float>() : half_to_f32<R::dtype>(best);
        else return best > __builtin_bit_cast(U, infinity<T>()) ? canonical_nan<T>() : __builtin_bit_cast(T, best);
    }
};

template <class R> struct input_fold<R, FOLD_NARROW_SUM> {
    using acc = typename R::acc;
    using T = typename R::value_t;
    /* Products and plain values of signed inputs may be negative: sign-extend at the end. */
    static constexpr bool sign = std::is_signed<T>::value && (R::transform == HR_TF_IDENT || R::transform == HR_TF_PRODUCT);
    acc start;
    uint32_t sum;
    HR_HD input_fold(acc s, uint32_t) : start(s), sum(0) {}
    static HR_HD uint32_t lift32(T x)
    {
        const uint32_t e = (uint32_t)x;
        if constexpr (R::transform == HR_TF_ABS && std::is_signed<T>::value) return x < 0 ? 0u - e : e;
        else if constexpr (R::transform == HR_TF_NONZERO) return e != 0;
        else if constexpr (R::transform == HR_TF_SQUARE) return e * e;
        else return e;
    }
    HR_HD void add(T x, uint32_t) { sum += lift32(x); }
    HR_HD void add(T x, T y, uint32_t) { sum += (uint32_t)x * (uint32_t)y; }
    /* Four 8-bit elements of a 32-bit word at once (dp4a on NVIDIA: one instruction for
     * four products and their sum; x = x * 1 for plain sums). Not for |x|. */
    static constexpr bool words = sizeof(T) == 1 && R::transform != HR_TF_ABS && R::transform != HR_TF_NONZERO;
    static HR_HD uint32_t dot4(uint32_t a, uint32_t b)
    {
#if defined(__CUDA_ARCH__)
        if constexpr (std::is_signed<T>::value) return (uint32_t)__dp4a((int)a, (int)b, 0);
        else return __dp4a(a, b, 0u);
#else
        uint32_t s = 0;
        for (int i = 0; i < 4; ++i) s += (uint32_t)(T)(a >> (8 * i)) * (uint32_t)(T)(b >> (8 * i));
        return s;
#endif
    }
    HR_HD void add_word(uint32_t w)
    {
        sum += dot4(w, R::transform == HR_TF_SQUARE ? w : 0x01010101u);
    }
    HR_HD void add_word(uint32_t wx, uint32_t wy) { sum += dot4(wx, wy); }
    HR_HD acc result(uint64_t) const
    {
        if constexpr (sizeof(acc) == 8) return start + (sign ? (acc)(int64_t)(int32_t)sum : (acc)sum);
        else return start + sum;
    }
};

template <class R> struct input_fold<R, FOLD_NARROW_PRODUCT> {
    static constexpr bool words = false;
    using acc = typename R::acc;
    using T = typename R::value_t;
    static constexpr int per = 4 / (int)sizeof(T); /* elements an exact 32-bit product holds */
    acc value;
    uint32_t part; /* the product of the last n elements */
    int n;
    HR_HD input_fold(acc start, uint32_t) : value(start), part(1), n(0) {}
    static HR_HD acc widen(uint32_t p)
    {
        if constexpr (std::is_signed<T>::value) return (acc)(int64_t)(int32_t)p;
        else return (acc)p;
    }
    HR_HD void add(T x, uint32_t)
    {
        part *= (uint32_t)x; /* signed inputs sign-extended: the product is the int32 one */
        if (++n == per) value = R::apply(value, widen(part)), part = 1, n = 0;
    }
    HR_HD acc result(uint64_t) const { return R::apply(value, widen(part)); }
};

template <class R> struct input_fold<R, FOLD_KEY> {
    static constexpr bool words = false;
    using acc = typename R::acc;
    using T = typename R::value_t;
    using K = typename R::key_t;
    K key;
    uint32_t first, pos; /* pos: from the lane's first element (a constant in unrolled loops) */
    HR_HD input_fold(acc start, uint32_t lane_first) : key(start.key), first(lane_first), pos(0) {}
    HR_HD void add(T x, uint32_t p)
    {
        const K k = R::key_of(x);
        const bool better = R::is_min ? k < key : k > key;
        key = better ? k : key;
        pos = better ? p : pos;
    }
    HR_HD acc result(uint64_t tile_first) const { return acc{key, (int64_t)(tile_first + first + pos)}; }
};

/* Levels >= 1: accumulators. */
template <class R, bool Keys = R::float_acc && (R::combine == HR_CB_MIN || R::combine == HR_CB_MAX)> struct partial_fold {
    using acc = typename R::acc;
    acc value;
    HR_HD explicit partial_fold(acc start) : value(start) {}
    HR_HD void add(acc x) { value = R::apply(value, x); }
    HR_HD acc result() const { return value; }
};

template <class R> struct partial_fold<R, true> {
    using F = typename R::acc;
    using key_t = float_key<F>;
    static constexpr bool is_min = R::combine == HR_CB_MIN;
    typename key_t::I key;
    bool nan;
    HR_HD explicit partial_fold(F start) : key(key_t::key(start)), nan(is_nan(start)) {}
    HR_HD void add(F x)
    {
        const typename key_t::I k = key_t::key(x);
        key = is_min ? (k < key ? k : key) : (k > key ? k : key);
        nan |= is_nan(x);
    }
    HR_HD F result() const { return nan ? canonical_nan<F>() : key_t::value(key); }
};

}  // namespace hr

#endif
