/* The cpu device's results (cpu_result.h): the top accumulator rounded once to the result
 * dtype, and the empty results, as the public header (hipreduce.h) specifies them. */
#include "cpu_result.h"

#include <math.h>
#include <string.h>

#include "cpu_ops.h"

/* Stores an integer result: the low bits of v, read as the out dtype (wrap-around arithmetic
 * modulo 2^k commutes with truncation). */
static void store_int(int out_dtype, uint64_t v, void* result)
{
    switch (hipreduce_dtype_size((hipreduce_dtype)out_dtype)) {
    case 1: {
        const uint8_t r = (uint8_t)v;
        memcpy(result, &r, 1);
        break;
    }
    case 2: {
        const uint16_t r = (uint16_t)v;
        memcpy(result, &r, 2);
        break;
    }
    case 4: {
        const uint32_t r = (uint32_t)v;
        memcpy(result, &r, 4);
        break;
    }
    default: memcpy(result, &v, 8); break;
    }
}

/* Stores a float result: f32 accumulators (f == d exactly) round to f16/bf16 once; f64 ones to
 * f32 by C's cast (nrm2 into f32). A NaN is written as the dtype's canonical NaN, whatever the
 * sign and payload the arithmetic left (x86's sums keep an operand's, GPUs make their own). */
static void store_float(int out_dtype, double d, void* result)
{
    const int nan = d != d;
    switch (out_dtype) {
#define HR_HALF_STORE(E, NAME, CLASS, BYTES)                 \
    HR_IF_HALF(CLASS, case E: {                              \
        const uint16_t r = hr_f32_to_##NAME((float)d);       \
        memcpy(result, &r, 2);                               \
        break;                                               \
    })
        HR_DTYPE_ROWS(HR_HALF_STORE)
#undef HR_HALF_STORE
    case HIPREDUCE_F32: {
        const float r = nan ? canonical_nan_F32() : (float)d;
        memcpy(result, &r, 4);
        break;
    }
    default: {
        const double r = nan ? canonical_nan_F64() : d;
        memcpy(result, &r, 8);
        break;
    }
    }
}

/* nrm2 of f64 input from its three scaled sums (as LAPACK 3.10's dnrm2; hipreduce.h's nrm2 rule). */
static double nrm2_finish(acc_NRM2_F64 a)
{
    double big = a.big, med = a.med;
    const double sml = a.sml;
    if (med != med) return med;
    if (big > 0 || big != big) {
        if (med > 0) big += (med * HR_NRM2_SBIG) * HR_NRM2_SBIG;
        return sqrt(big) / HR_NRM2_SBIG;
    }
    if (sml > 0) {
        if (med > 0) {
            const double s = sqrt(med), t = sqrt(sml) / HR_NRM2_SSML;
            const double ymin = s < t ? s : t, ymax = s < t ? t : s;
            const double q = ymin / ymax;
            return ymax * sqrt(1.0 + q * q);
        }
        return sqrt(sml) / HR_NRM2_SSML;
    }
    return sqrt(med);
}

/* The value of the input element at `index` (argmin/argmax), canonical NaN for a NaN. */
static void store_element(int dtype, const unsigned char* x, int64_t index, void* result)
{
    const size_t size = hipreduce_dtype_size((hipreduce_dtype)dtype);
    const unsigned char* p = x + (size_t)index * size;
    switch (dtype) {
#define HR_NAN_ELEMENT(E, NAME, CLASS, BYTES) \
    HR_IF_FLOATING(CLASS, case E: if (argnan_##NAME(p)) return store_float(dtype, NAN, result); break;)
        HR_DTYPE_ROWS(HR_NAN_ELEMENT)
#undef HR_NAN_ELEMENT
    default: break;
    }
    memcpy(result, p, size);
}

/* count_nonzero's count as an i64; all's count == n and any's count != 0 as a u8 0 or 1. */
static void store_count(const hr_call* call, int finish, uint64_t v, uint64_t count)
{
    if (finish == HR_FN_ALL) v = v == count;
    else if (finish == HR_FN_ANY) v = v != 0;
    store_int(call->out_dtype, v, call->result);
}

/* var/std's finish (device/stats.h): the variance with the correction, or its root; the mean at
 * result2 for var_mean and std_mean. */
#define HR_MOM_FINISH(F, T, call, finish, top)                                                              \
    do {                                                                                                   \
        const hr_mom_##F a = load_MOM_##T(top);                                                            \
        const int root = (finish) == HR_FN_STD || (finish) == HR_FN_STD_MEAN;                              \
        const double var = hr_mom_var_##F(a, (call)->correction);                                          \
        store_float((call)->out_dtype, root ? hr_stats_sqrt_##F(var) : var, (call)->result);               \
        if (hr_finish_outputs(finish) > 1) store_float((call)->out_dtype, hr_mom_mean_##F(a), (call)->result2); \
    } while (0)

/* The out dtype's highest (or lowest) value: +-inf for floats. */
static void store_extreme(int dtype, int highest, void* result)
{
    if (hr_dtype_is_float(dtype)) return store_float(dtype, highest ? HUGE_VAL : -HUGE_VAL, result);
    const unsigned bits = 8u * (unsigned)hr_dtype_bytes(dtype);
    const uint64_t all = bits == 64 ? ~(uint64_t)0 : (UINT64_C(1) << bits) - 1;
    uint64_t v;
    if (hr_dtype_class(dtype) == HR_CLASS_UNSIGNED) v = highest ? all : 0;
    else v = highest ? all >> 1 : ~(all >> 1); /* INT_MAX, or INT_MIN sign-extended */
    store_int(dtype, v, result);
}

/* aminmax (device/minmax.h): the elements of the least and greatest keys, min at result and max
 * at result2, in the input dtype (its only result); a float slice with a NaN: the canonical NaN
 * in both; an empty one (lo > hi): MIN's and MAX's n == 0 results. */
static void store_minmax(const hr_call* call, const unsigned char* top)
{
    const int d = call->in_dtype, cls = hr_dtype_class(d), wide = call->acc == HR_ACC_MM64;
    const hr_mm32 a = wide ? hr_mm32_identity() : load_MM32(top);
    const hr_mm64 b = wide ? load_MM64(top) : hr_mm64_identity();
    if (wide ? hr_mm64_empty(b) : hr_mm32_empty(a)) {
        store_extreme(d, 1, call->result);
        store_extreme(d, 0, call->result2);
        return;
    }
    const int64_t key[2] = {wide ? b.lo : a.lo, wide ? b.hi : a.hi};
    void* const out[2] = {call->result, call->result2};
    if (hr_dtype_is_float(d)) {
        const int nan = wide ? hr_mm64_nan(b) : hr_mm32_nan(a);
        for (int i = 0; i < 2; ++i)
            store_float(d, nan ? NAN : wide ? hr_mm_f64_of_key(key[i]) : (double)hr_mm_f32_of_key((int32_t)key[i]), out[i]);
        return;
    }
    for (int i = 0; i < 2; ++i) {
        uint64_t v = (uint64_t)key[i]; /* signed keys are the values, sign-extended */
        if (cls == HR_CLASS_UNSIGNED && hr_dtype_bytes(d) == 4) v = hr_mm_u32_of_key((int32_t)key[i]);
        if (cls == HR_CLASS_UNSIGNED && hr_dtype_bytes(d) == 8) v = hr_mm_u64_of_key(key[i]);
        store_int(d, v, out[i]);
    }
}

/* Writes the result from the top partial (one accumulator of call->acc), the reduction of a slice
 * of `count` elements. */
void hr_cpu_finish(const hr_call* call, int combine, const unsigned char* top, uint64_t count)
{
    const int finish = hr_op_finish(call->op);
    switch (call->acc) {
    case HR_ACC_I32: store_int(call->out_dtype, (uint64_t)(int64_t)load_I32(top), call->result); break;
    case HR_ACC_U32: store_int(call->out_dtype, load_U32(top), call->result); break;
    case HR_ACC_I64: store_int(call->out_dtype, (uint64_t)load_I64(top), call->result); break;
    case HR_ACC_U64: store_count(call, finish, load_U64(top), count); break;
    case HR_ACC_F32: {
        float f = load_F32(top);
        if (finish == HR_FN_MEAN) f = f / (float)count; /* count 0: 0 / 0, NaN */
        store_float(call->out_dtype, f, call->result);
        break;
    }
    case HR_ACC_F64: {
        double d = load_F64(top);
        if (finish == HR_FN_MEAN) d = d / (double)count;
        store_float(call->out_dtype, combine == HR_CB_NRM2 ? sqrt(d) : d, call->result);
        break;
    }
    case HR_ACC_SUMN_F32: store_float(call->out_dtype, hr_sumn_mean_f32(load_SUMN_F32(top)), call->result); break;
    case HR_ACC_SUMN_F64: store_float(call->out_dtype, hr_sumn_mean_f64(load_SUMN_F64(top)), call->result); break;
    case HR_ACC_MOM_F32: HR_MOM_FINISH(f32, F32, call, finish, top); break;
    case HR_ACC_MOM_F64: HR_MOM_FINISH(f64, F64, call, finish, top); break;
    case HR_ACC_LSE_F32: store_float(call->out_dtype, hr_lse_value_f32(load_LSE_F32(top)), call->result); break;
    case HR_ACC_LSE_F64: store_float(call->out_dtype, hr_lse_value_f64(load_LSE_F64(top)), call->result); break;
    case HR_ACC_NRM2_F64: store_float(call->out_dtype, nrm2_finish(load_NRM2_F64(top)), call->result); break;
    case HR_ACC_C64: { /* each component as a real result of its type */
        const hr_c64 z = load_C64(top);
        store_float(HIPREDUCE_F32, z.re, call->result);
        store_float(HIPREDUCE_F32, z.im, (unsigned char*)call->result + 4);
        break;
    }
    case HR_ACC_C128: {
        const hr_c128 z = load_C128(top);
        store_float(HIPREDUCE_F64, z.re, call->result);
        store_float(HIPREDUCE_F64, z.im, (unsigned char*)call->result + 8);
        break;
    }
    case HR_ACC_MM32:
    case HR_ACC_MM64: store_minmax(call, top); break;
    case HR_ACC_KEY32:
    case HR_ACC_KEY64: {
        const int64_t index = call->acc == HR_ACC_KEY32 ? load_KEY32(top).index : load_KEY64(top).index;
        store_element(call->in_dtype, (const unsigned char*)call->x, index, call->result);
        memcpy(call->index, &index, sizeof index);
        break;
    }
    default: break;
    }
}

/* n == 0 (hipreduce.h): min/max the dtype's extremes (max_abs 0; aminmax both), argmin/argmax
 * index -1 and the min/max identity, sums and nrm2 +0.0, every other combine its identity. */
void hr_cpu_finish_empty(const hr_call* call, int transform, int combine)
{
    unsigned char top[32];
    switch (combine) {
    case HR_CB_NANMIN:
    case HR_CB_NANMAX: return store_extreme(call->out_dtype, combine == HR_CB_NANMIN, call->result);
    case HR_CB_MINMAX:
        store_extreme(call->out_dtype, 1, call->result);
        return store_extreme(call->out_dtype, 0, call->result2);
    case HR_CB_MIN:
    case HR_CB_MAX:
        if (transform != HR_TF_IDENT && combine == HR_CB_MAX) { /* max_abs: 0 */
            if (hr_dtype_is_float(call->out_dtype)) return store_float(call->out_dtype, 0.0, call->result);
            return store_int(call->out_dtype, 0, call->result);
        }
        return store_extreme(call->out_dtype, combine == HR_CB_MIN, call->result);
    case HR_CB_ARGMIN:
    case HR_CB_ARGMAX:
    case HR_CB_NANARGMIN:
    case HR_CB_NANARGMAX: {
        const int64_t none = -1;
        store_extreme(call->out_dtype, !hr_combine_arg_max(combine), call->result);
        memcpy(call->index, &none, sizeof none);
        return;
    }
    default: break;
    }
    switch (call->acc) {
    case HR_ACC_I32: store_I32(top, identity_I32(combine)); break;
    case HR_ACC_U32: store_U32(top, identity_U32(combine)); break;
    case HR_ACC_I64: store_I64(top, identity_I64(combine)); break;
    case HR_ACC_U64: store_U64(top, identity_U64(combine)); break;
    case HR_ACC_F32: store_F32(top, combine == HR_CB_ADD ? 0.0f : identity_F32(combine)); break;
    case HR_ACC_F64: store_F64(top, combine == HR_CB_ADD ? 0.0 : identity_F64(combine)); break;
    case HR_ACC_NRM2_F64: store_NRM2_F64(top, identity_NRM2_F64(combine)); break;
    case HR_ACC_SUMN_F32: store_SUMN_F32(top, identity_SUMN_F32(combine)); break;
    case HR_ACC_SUMN_F64: store_SUMN_F64(top, identity_SUMN_F64(combine)); break;
    case HR_ACC_MOM_F32: store_MOM_F32(top, identity_MOM_F32(combine)); break;
    case HR_ACC_MOM_F64: store_MOM_F64(top, identity_MOM_F64(combine)); break;
    case HR_ACC_LSE_F32: store_LSE_F32(top, identity_LSE_F32(combine)); break;
    case HR_ACC_LSE_F64: store_LSE_F64(top, identity_LSE_F64(combine)); break;
    case HR_ACC_C64: store_C64(top, combine == HR_CB_ADD ? hr_c64_make(0.0f, 0.0f) : identity_C64(combine)); break;
    case HR_ACC_C128: store_C128(top, combine == HR_CB_ADD ? hr_c128_make(0.0, 0.0) : identity_C128(combine)); break;
    default: return;
    }
    hr_cpu_finish(call, combine, top, 0);
}
