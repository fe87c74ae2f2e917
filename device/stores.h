/* Store policies of the device operators: how the top of a reduction writes its result (thread
 * 0, once), the result dtype being a run-time argument (kernels are never instantiated per it).
 *   store_round<D, A>  the accumulator rounded once into the result dtype (a NaN: the canonical one;
 *                      complex: each component's);
 *   store_norm<A>      nrm2's finish: the root of the sum of squares (of Blue's three sums);
 *   store_stats<D, A>  nanmean's, logsumexp's, var's and std's finishes (stats.h; a second
 *                      result: the mean);
 *   store_count        count_nonzero's count, all's and any's 0 or 1;
 *   store_minmax<D, A> aminmax's min at result and max at result2 (minmax.h);
 *   store_arg<Key>     argmin/argmax: the element of the best key and its index.
 * The op row's finish (op_table.h) is a run-time argument too, so that mean shares sum's
 * kernels: MEAN divides a float accumulator by the slice's element count first. */
#ifndef HIPREDUCE_STORES_H
#define HIPREDUCE_STORES_H

#include <math.h>

#include "op_types.h"

namespace hr {

template <class T> HR_HD void put(void* p, T v) { *(T*)p = v; }

/* Input dtype D reduced in accumulator A, into result dtype `out` (an allowed one). */
template <int D, int A> struct store_round {
    using acc = acc_t<A>;
    static HR_HD void store(acc v, int out, void* result)
    {
        if constexpr (is_complex_acc<A>()) {
            put<acc>(result, acc{canonical(v.re), canonical(v.im)}); /* into its own complex dtype */
        } else if constexpr (A == HR_ACC_F32 && hr_dtype_class(D) == HR_CLASS_HALF) {
            if (out == D) put<uint16_t>(result, f32_to_half<D>(v));
            else put<float>(result, canonical(v));
        } else if constexpr (std::is_floating_point<acc>::value) {
            put<acc>(result, canonical(v)); /* f32 from f32, f64 from anything */
        } else {
            /* Integers: the accumulator's low bytes, read as the result type. */
            using U = typename std::make_unsigned<acc>::type;
            if constexpr (sizeof(acc) == 8 || hr_dtype_bytes(D) == 4) {
                put<U>(result, (U)v);
            } else {
                switch (hr_dtype_bytes(out)) { /* as store_result's address: nvcc shares the lookup */
                case 1: put<uint8_t>(result, (uint8_t)v); break;
                case 2: put<uint16_t>(result, (uint16_t)v); break;
                default: put<uint32_t>(result, (uint32_t)v); break;
                }
            }
        }
    }
};

/* nrm2 into f32 or f64: a NaN root gives the canonical NaN of the result dtype. */
template <int A> struct store_norm {
    using acc = acc_t<A>;
    static HR_HD void put_norm(double r, int out, void* result)
    {
        if (out == HIPREDUCE_F32) put<float>(result, canonical((float)r));
        else put<double>(result, canonical(r));
    }
    /* Blue's combination of the three scaled sums (LAPACK 3.10's dnrm2). */
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
    static HR_HD void store(acc v, int out, void* result)
    {
        if constexpr (A == HR_ACC_NRM2_F64) put_norm(blue_finish(v), out, result);
        else put_norm(sqrt(v), out, result);
    }
};

/* The statistics' finishes (stats.h), each value rounded once into the result dtype as a float
 * sum's accumulator of the same type is: SUMN (nanmean) the sum / its count; LSE maximum +
 * log(sum); MOM (var, std) the variance with the correction, or its root, and for VAR_MEAN /
 * STD_MEAN the mean at result2. */
template <int D, int A> struct store_stats {
    using F = stats_float_t<A>;
    using round = store_round<D, std::is_same<F, float>::value ? HR_ACC_F32 : HR_ACC_F64>;
    static HR_HD void store(acc_t<A> v, int out, int finish, double correction, void* result, void* result2)
    {
        if constexpr (A == HR_ACC_SUMN_F32) {
            round::store(hr_sumn_mean_f32(v), out, result);
        } else if constexpr (A == HR_ACC_SUMN_F64) {
            round::store(hr_sumn_mean_f64(v), out, result);
        } else if constexpr (A == HR_ACC_LSE_F32) {
            round::store(hr_lse_value_f32(v), out, result);
        } else if constexpr (A == HR_ACC_LSE_F64) {
            round::store(hr_lse_value_f64(v), out, result);
        } else {
            const bool root = finish == HR_FN_STD || finish == HR_FN_STD_MEAN;
            if constexpr (A == HR_ACC_MOM_F32) {
                const float var = hr_mom_var_f32(v, correction);
                round::store(root ? hr_stats_sqrt_f32(var) : var, out, result);
                if (hr_finish_outputs(finish) > 1) round::store(hr_mom_mean_f32(v), out, result2);
            } else {
                const double var = hr_mom_var_f64(v, correction);
                round::store(root ? hr_stats_sqrt_f64(var) : var, out, result);
                if (hr_finish_outputs(finish) > 1) round::store(hr_mom_mean_f64(v), out, result2);
            }
        }
    }
};

/* count_nonzero, all, any: the count of nonzero elements (U64) as an i64, or all's count == n
 * and any's count != 0 as a u8 0 or 1. */
struct store_count {
    static HR_HD void store(uint64_t v, uint64_t n, int finish, void* result)
    {
        if (finish == HR_FN_ALL) put<uint8_t>(result, (uint8_t)(v == n));
        else if (finish == HR_FN_ANY) put<uint8_t>(result, (uint8_t)(v != 0));
        else put<uint64_t>(result, v);
    }
};

/* aminmax: the elements of the least and greatest keys in the input dtype D (its only result
 * dtype), min at result and max at result2; a float slice with a NaN gives the canonical NaN in
 * both, an empty one (lo > hi) MIN's and MAX's n == 0 results (+inf / the type's maximum, and
 * -inf / its minimum). */
template <int D, int A> struct store_minmax {
    using T = storage_t<D>;
    using K = typename std::conditional<A == HR_ACC_MM32, int32_t, int64_t>::type; /* the key type */
    static constexpr int cls = hr_dtype_class(D);
    static HR_HD T value_of(K k)
    {
        if constexpr (cls == HR_CLASS_HALF) return f32_to_half<D>(hr_mm_f32_of_key(k));
        else if constexpr (cls == HR_CLASS_FLOAT && sizeof(T) == 4) return hr_mm_f32_of_key(k);
        else if constexpr (cls == HR_CLASS_FLOAT) return hr_mm_f64_of_key(k);
        else if constexpr (cls == HR_CLASS_UNSIGNED && sizeof(T) == 4) return hr_mm_u32_of_key(k);
        else if constexpr (cls == HR_CLASS_UNSIGNED && sizeof(T) == 8) return hr_mm_u64_of_key(k);
        else return (T)k;
    }
    static HR_HD T extreme(bool highest)
    {
        if constexpr (cls == HR_CLASS_HALF) return (uint16_t)(half_inf<D>() | (highest ? 0 : 0x8000));
        else return highest ? max_value<T>() : min_value<T>();
    }
    static HR_HD T nan()
    {
        if constexpr (cls == HR_CLASS_HALF) return half_nan<D>();
        else if constexpr (cls == HR_CLASS_FLOAT) return canonical_nan<T>();
        else return T(0);
    }
    static HR_HD void store(acc_t<A> v, void* result, void* result2)
    {
        bool empty, has_nan = false;
        if constexpr (A == HR_ACC_MM32) {
            empty = hr_mm32_empty(v);
            if constexpr (cls == HR_CLASS_HALF || cls == HR_CLASS_FLOAT) has_nan = hr_mm32_nan(v);
        } else {
            empty = hr_mm64_empty(v);
            if constexpr (cls == HR_CLASS_FLOAT) has_nan = hr_mm64_nan(v);
        }
        if (empty) {
            put<T>(result, extreme(true));
            put<T>(result2, extreme(false));
        } else if (has_nan) {
            put<T>(result, nan());
            put<T>(result2, nan());
        } else {
            put<T>(result, value_of(v.lo));
            put<T>(result2, value_of(v.hi));
        }
    }
};

/* Key: the KEY transform unit (transforms.h). n == 0 gives index -1 and its empty value. */
template <class Key> struct store_arg {
    template <class Acc> static HR_HD void store(Acc v, bool is_empty, void* result, int64_t* index)
    {
        *index = is_empty ? -1 : v.index;
        put<typename Key::value_t>(result, is_empty ? Key::empty_value() : Key::key_value(v.key));
    }
};

}  // namespace hr

#endif
