/* The rules derived from the tables (op_table.h, algorithm_table.h, order.h), in one place for the
 * whole library: plain C `static inline` functions that C (src/: validation, the cpu device) reads
 * as C and C++ (host/: the instance table; device/: the operators) reads as constexpr, usable in
 * templates' arguments and in device code. Nothing here knows about a device or a call.
 *   dtypes      class, bytes, name;
 *   ops         columns, name, the call that takes an op;
 *   triples     which (op, input, result) triples are allowed, and the accumulator each reduces in;
 *   tiles       elements per chunk and per tile of an input element size (order.h's geometry);
 *   algorithms  name and implementation of a hipreduce_algorithm value.
 * Every function answers for any int (an unknown value gets NULL, 0, -1 or "not allowed"), so the
 * C API validates with them directly. */
#ifndef HIPREDUCE_RULES_H
#define HIPREDUCE_RULES_H

#include <stdint.h>

#include "algorithm_table.h"
#include "hipreduce/hipreduce_study.h"
#include "op_table.h"
#include "order.h"

#ifdef __cplusplus
#define HR_RULE static constexpr inline
#else
#define HR_RULE static inline
#endif

/* The algorithm table covers the public enum exactly (its last value; the unit test checks every
 * name). op_table.h checks its rows the same way, beside them. */
HR_STATIC_ASSERT(HR_ALGORITHM_SLOTS == HIPREDUCE_ALGORITHM_TUTORIAL_V10 + 1,
                 "an algorithm of the public enum has no row in algorithm_table.h");

/* ---- dtypes ---- */

HR_RULE int hr_dtype_class(int dtype)
{
    switch (dtype) {
#define HR_RULE_CASE(E, NAME, CLASS, BYTES) \
    case E: return HR_CLASS_##CLASS;
        HR_DTYPE_ROWS(HR_RULE_CASE)
#undef HR_RULE_CASE
    default: return HR_CLASS_NONE;
    }
}

/* Bytes of one element; 0 for an unknown dtype. */
HR_RULE int hr_dtype_bytes(int dtype)
{
    switch (dtype) {
#define HR_RULE_CASE(E, NAME, CLASS, BYTES) \
    case E: return BYTES;
        HR_DTYPE_ROWS(HR_RULE_CASE)
#undef HR_RULE_CASE
    default: return 0;
    }
}

HR_RULE const char* hr_dtype_name(int dtype)
{
    switch (dtype) {
#define HR_RULE_CASE(E, NAME, CLASS, BYTES) \
    case E: return #NAME;
        HR_DTYPE_ROWS(HR_RULE_CASE)
#undef HR_RULE_CASE
    default: return 0;
    }
}

HR_RULE int hr_dtype_is_int(int dtype)
{
    return hr_dtype_class(dtype) == HR_CLASS_SIGNED || hr_dtype_class(dtype) == HR_CLASS_UNSIGNED;
}
HR_RULE int hr_dtype_is_float(int dtype)
{
    return hr_dtype_class(dtype) == HR_CLASS_HALF || hr_dtype_class(dtype) == HR_CLASS_FLOAT;
}
HR_RULE int hr_dtype_is_complex(int dtype) { return hr_dtype_class(dtype) == HR_CLASS_COMPLEX; }

/* ---- ops ---- */

/* The op row's columns; -1 for an unknown op. */
HR_RULE int hr_op_transform(int op)
{
    switch (op) {
#define HR_RULE_CASE(E, NAME, T, C, R, F) \
    case E: return HR_TF_##T;
        HR_OP_ROWS(HR_RULE_CASE)
#undef HR_RULE_CASE
    default: return -1;
    }
}
HR_RULE int hr_op_combine(int op)
{
    switch (op) {
#define HR_RULE_CASE(E, NAME, T, C, R, F) \
    case E: return HR_CB_##C;
        HR_OP_ROWS(HR_RULE_CASE)
#undef HR_RULE_CASE
    default: return -1;
    }
}
HR_RULE int hr_op_results(int op)
{
    switch (op) {
#define HR_RULE_CASE(E, NAME, T, C, R, F) \
    case E: return HR_RS_##R;
        HR_OP_ROWS(HR_RULE_CASE)
#undef HR_RULE_CASE
    default: return -1;
    }
}

HR_RULE int hr_op_finish(int op)
{
    switch (op) {
#define HR_RULE_CASE(E, NAME, T, C, R, F) \
    case E: return HR_FN_##F;
        HR_OP_ROWS(HR_RULE_CASE)
#undef HR_RULE_CASE
    default: return -1;
    }
}

/* The argument combines (an order key and an index): whether c is one, whether its greatest
 * key wins (ARGMAX, NANARGMAX) and whether a NaN's key is its worst (NANARGMIN, NANARGMAX: NaNs
 * skipped) rather than its best. */
HR_RULE int hr_combine_is_arg(int c)
{
    return c == HR_CB_ARGMIN || c == HR_CB_ARGMAX || c == HR_CB_NANARGMIN || c == HR_CB_NANARGMAX;
}
HR_RULE int hr_combine_arg_max(int c) { return c == HR_CB_ARGMAX || c == HR_CB_NANARGMAX; }
HR_RULE int hr_combine_nan_last(int c) { return c == HR_CB_NANARGMIN || c == HR_CB_NANARGMAX; }

/* Results an op writes per reduced slice: 2 for the finishes with a second output (values2). */
HR_RULE int hr_finish_outputs(int finish)
{
    return finish == HR_FN_VAR_MEAN || finish == HR_FN_STD_MEAN || finish == HR_FN_MINMAX ? 2 : 1;
}
HR_RULE int hr_op_outputs(int op) { return hr_finish_outputs(hr_op_finish(op)); }
/* Whether an op reads the plan's correction (var, std and their means). */
HR_RULE int hr_finish_corrected(int finish) { return finish >= HR_FN_VAR && finish <= HR_FN_STD_MEAN; }
HR_RULE int hr_op_corrected(int op) { return hr_finish_corrected(hr_op_finish(op)); }

HR_RULE const char* hr_op_name(int op)
{
    switch (op) {
#define HR_RULE_CASE(E, NAME, T, C, R, F) \
    case E: return #NAME;
        HR_OP_ROWS(HR_RULE_CASE)
#undef HR_RULE_CASE
    default: return 0;
    }
}

/* Which public call takes an op: PRODUCT and CONJ are hipreduce_dot's, ARG hipreduce_argreduce's, an op
 * with a correction or a second output only a plan's (hipreduce_plan_create), every other row
 * hipreduce_reduce's (and the axis and segment calls of the same kind). */
typedef enum hr_call_kind { HR_CALL_REDUCE, HR_CALL_ARGREDUCE, HR_CALL_DOT, HR_CALL_PLAN } hr_call_kind;

HR_RULE int hr_op_call(int op)
{
    return hr_op_transform(op) == HR_TF_PRODUCT || hr_op_transform(op) == HR_TF_CONJ ? HR_CALL_DOT
           : hr_op_results(op) == HR_RS_ARG || hr_op_results(op) == HR_RS_NANARG ? HR_CALL_ARGREDUCE
           : hr_op_corrected(op) || hr_op_outputs(op) > 1       ? HR_CALL_PLAN
                                                                : HR_CALL_REDUCE;
}

/* ---- triples ---- */

/* The triples of a complex input (c64, c128; never a complex result of a real input): sum, prod,
 * dot, dotc and sum_exact into the input's or a wider complex dtype (c64 into c64 or c128, c128 into
 * c128); sum_squares (of |z|^2) into f32 or f64 from c64, into f64 from c128; nrm2 into f32 or
 * f64. No other op takes complex inputs. */
HR_RULE int hr_complex_allowed(int op, int in, int out)
{
    const int t = hr_op_transform(op), c = hr_op_combine(op);
    const int complex_out = out == HIPREDUCE_C128 || out == in;
    if (!hr_dtype_is_complex(in) || hr_op_finish(op) != HR_FN_NONE) return 0;
    if (c == HR_CB_NRM2) return out == HIPREDUCE_F32 || out == HIPREDUCE_F64;
    if (t == HR_TF_SQUARE && c == HR_CB_ADD) return out == HIPREDUCE_F64 || (in == HIPREDUCE_C64 && out == HIPREDUCE_F32);
    if (t == HR_TF_IDENT && (c == HR_CB_ADD || c == HR_CB_MUL || c == HR_CB_EXACT)) return complex_out;
    if ((t == HR_TF_PRODUCT || t == HR_TF_CONJ) && c == HR_CB_ADD) return complex_out;
    return 0;
}

/* Whether (op, in, out) is allowed: op_table.h's results column, for known values only. */
HR_RULE int hr_result_allowed(int op, int in, int out)
{
    const int ic = hr_dtype_class(in), oc = hr_dtype_class(out);
    const int ib = hr_dtype_bytes(in), ob = hr_dtype_bytes(out);
    const int in_int = hr_dtype_is_int(in);
    if (ic == HR_CLASS_NONE || oc == HR_CLASS_NONE) return 0;
    if (ic == HR_CLASS_COMPLEX || oc == HR_CLASS_COMPLEX) return hr_complex_allowed(op, in, out);
    if (hr_op_transform(op) == HR_TF_CONJ) return 0; /* dotc: complex inputs only */
    switch (hr_op_results(op)) {
    case HR_RS_WIDE:
        if (in_int) return (oc == ic && ob >= ib) || out == HIPREDUCE_I64 || out == HIPREDUCE_U64;
        if (ic == HR_CLASS_HALF) return out == in || out == HIPREDUCE_F32 || out == HIPREDUCE_F64;
        return oc == HR_CLASS_FLOAT && ob >= ib;
    case HR_RS_SAME:
    case HR_RS_ARG: return out == in;
    case HR_RS_NANARG: return !in_int && out == in;
    case HR_RS_INT_SAME: return in_int && out == in;
    case HR_RS_MAGNITUDE: return in_int ? oc == HR_CLASS_UNSIGNED && ob == ib : out == in;
    case HR_RS_NORM: return !in_int && (out == HIPREDUCE_F32 || out == HIPREDUCE_F64);
    case HR_RS_FLOAT: return !in_int && hr_result_allowed(HIPREDUCE_OP_SUM, in, out);
    case HR_RS_STAT: return !in_int && (out == in || (ic == HR_CLASS_HALF && out == HIPREDUCE_F32));
    case HR_RS_COUNT: return out == HIPREDUCE_I64;
    case HR_RS_TRUTH: return out == HIPREDUCE_U8;
    default: return 0;
    }
}

/* The accumulator an allowed triple reduces in (op_table.h's HR_ACC_ROWS):
 *   integer ADD/MUL/AND/OR/XOR and integer ABS+MAX: U32 when input and result have <= 32 bits,
 *     else U64 (the input sign- or zero-extended by its own signedness; exact modulo 2^bits);
 *   integer MIN/MAX of x: I32/U32 for <= 32-bit inputs, else I64/U64 (the input's signedness);
 *   float ADD/MUL/MIN/MAX: F64 when the input or the result is f64, else F32 (f16/bf16 in f32);
 *   NRM2: F64 from f16/bf16/f32 (x*x is exact in f64: no scaling), NRM2_F64 from f64;
 *   ARGMIN/ARGMAX, NANARGMIN/NANARGMAX: KEY32 for <= 32-bit inputs, else KEY64;
 *   EXACT: EXACT (a superaccumulator, whatever the dtypes);
 *   NONZERO (count_nonzero, all, any): U64, a count of any length, whatever the result;
 *   WELFORD: MOM_F64 from or into f64, else MOM_F32; LSE: LSE_F64 / LSE_F32 likewise;
 *   NANMIN/NANMAX: F64 / F32, as float MIN/MAX;
 *   MINMAX (aminmax): MM64 from 8-byte inputs, else MM32 (order keys, device/minmax.h);
 *   NANZERO with the MEAN finish (nanmean): SUMN_F64 / SUMN_F32 (the sum and its own count);
 *     nansum: F64 / F32 as a sum;
 *   complex inputs: C128 from or into c128, else C64 (sums, products, dots); nrm2 as a real
 *     input's of the component type (F64 from c64, NRM2_F64 from c128); sum_squares F64 into
 *     f64, F32 into f32.
 * HR_ACC_NONE for a triple that is not allowed. */
HR_RULE int hr_acc_of(int op, int in, int out)
{
    const int combine = hr_op_combine(op);
    const int wide = hr_dtype_bytes(in) == 8 || hr_dtype_bytes(out) == 8;
    if (!hr_result_allowed(op, in, out)) return HR_ACC_NONE;
    if (combine == HR_CB_EXACT) return HR_ACC_EXACT;
    if (hr_dtype_is_complex(in)) {
        if (hr_dtype_is_complex(out)) return in == HIPREDUCE_C128 || out == HIPREDUCE_C128 ? HR_ACC_C128 : HR_ACC_C64;
        if (combine == HR_CB_NRM2) return in == HIPREDUCE_C128 ? HR_ACC_NRM2_F64 : HR_ACC_F64;
        return out == HIPREDUCE_F64 ? HR_ACC_F64 : HR_ACC_F32;
    }
    if (hr_op_transform(op) == HR_TF_NONZERO) return HR_ACC_U64;
    if (combine == HR_CB_WELFORD) return wide ? HR_ACC_MOM_F64 : HR_ACC_MOM_F32;
    if (combine == HR_CB_LSE) return wide ? HR_ACC_LSE_F64 : HR_ACC_LSE_F32;
    if (combine == HR_CB_MINMAX) return hr_dtype_bytes(in) == 8 ? HR_ACC_MM64 : HR_ACC_MM32;
    if (hr_op_transform(op) == HR_TF_NANZERO && hr_op_finish(op) == HR_FN_MEAN) return wide ? HR_ACC_SUMN_F64 : HR_ACC_SUMN_F32;
    if (combine == HR_CB_NRM2) return in == HIPREDUCE_F64 ? HR_ACC_NRM2_F64 : HR_ACC_F64;
    if (hr_combine_is_arg(combine)) return hr_dtype_bytes(in) == 8 ? HR_ACC_KEY64 : HR_ACC_KEY32;
    if (hr_dtype_is_float(in)) return wide ? HR_ACC_F64 : HR_ACC_F32;
    if ((combine == HR_CB_MIN || combine == HR_CB_MAX) && hr_op_transform(op) == HR_TF_IDENT &&
        hr_dtype_class(in) == HR_CLASS_SIGNED)
        return wide ? HR_ACC_I64 : HR_ACC_I32;
    return wide ? HR_ACC_U64 : HR_ACC_U32;
}

/* Bytes of one accumulator of a kind (a partial in a workspace); 0 for HR_ACC_NONE. */
HR_RULE int hr_acc_bytes(int acc)
{
    switch (acc) {
#define HR_RULE_CASE(K, BYTES) \
    case HR_ACC_##K: return BYTES;
        HR_ACC_ROWS(HR_RULE_CASE)
#undef HR_RULE_CASE
    default: return 0;
    }
}

/* Whether an accumulator kind is reduced by the tile levels (device/order.h's tree: the cpu
 * device's level kernels, the GPU's tree instances): every kind but EXACT, whose sums are
 * order-free and run their own path (device/exact.h, src/cpu_exact.c). */
HR_RULE int hr_acc_tiled(int acc) { return acc != HR_ACC_NONE && acc != HR_ACC_EXACT; }

/* ---- tiles (order.h) ---- */

/* Elements of one 16-byte chunk and of one tile, for an input element of elem_bytes bytes (the
 * input dtype's; every level of a call uses the input's tile). */
HR_RULE uint32_t hr_chunk_items(uint64_t elem_bytes)
{
    return elem_bytes == 0 || elem_bytes > HR_CHUNK_BYTES ? 1u : (uint32_t)(HR_CHUNK_BYTES / elem_bytes);
}
HR_RULE uint64_t hr_tile_items(uint64_t elem_bytes)
{
    return (uint64_t)HR_TILE_LANES * HR_TILE_CHUNKS * hr_chunk_items(elem_bytes);
}
/* Tiles of count elements (the last one possibly partial). */
HR_RULE uint64_t hr_tiles(uint64_t count, uint64_t tile_items)
{
    return count / tile_items + (count % tile_items != 0);
}

/* ---- algorithms ---- */

HR_RULE const char* hr_algorithm_name(int algorithm)
{
    switch (algorithm) {
#define HR_RULE_CASE(E, NAME, IMPL) \
    case E: return #NAME;
        HR_ALGORITHM_ROWS(HR_RULE_CASE)
#undef HR_RULE_CASE
    default: return 0;
    }
}

/* The implementation (hr_impl) of an algorithm value; -1 for an unknown one. */
HR_RULE int hr_algorithm_impl(int algorithm)
{
    switch (algorithm) {
#define HR_RULE_CASE(E, NAME, IMPL) \
    case E: return HR_IMPL_##IMPL;
        HR_ALGORITHM_ROWS(HR_RULE_CASE)
#undef HR_RULE_CASE
    default: return -1;
    }
}

#endif
