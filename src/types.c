/* The op and dtype tables of the C side (types.h), expanded from device/op_table.h's rows. */
#include "types.h"

#include <stdint.h>

enum { R_WIDE, R_SAME, R_INT_SAME, R_MAGNITUDE, R_NORM, R_ARG };
enum { T_IDENT, T_ABS, T_SQUARE, T_PRODUCT, T_KEY };
enum { C_ADD, C_MUL, C_MIN, C_MAX, C_AND, C_OR, C_XOR, C_NRM2, C_ARGMIN, C_ARGMAX };

static const hr_dtype_info dtype_table[HR_DTYPE_SLOTS] = {
#define HR_DTYPE_ROW(E, NAME, CLASS, BYTES) [E] = {#NAME, BYTES, HR_CLASS_##CLASS},
    HR_DTYPE_ROWS(HR_DTYPE_ROW)
#undef HR_DTYPE_ROW
};

static const struct op_row {
    const char* name;
    int transform, combine, results;
} op_table[HR_OP_SLOTS] = {
#define HR_OP_ROW(E, NAME, TRANSFORM, COMBINE, RESULTS) [E] = {#NAME, T_##TRANSFORM, C_##COMBINE, R_##RESULTS},
    HR_OP_ROWS(HR_OP_ROW)
#undef HR_OP_ROW
};

static const char* const algorithm_table[] = {
    [HIPREDUCE_ALGORITHM_AUTO] = "auto",
    [HIPREDUCE_ALGORITHM_MULTIPASS] = "multipass",
    [HIPREDUCE_ALGORITHM_TWO_PASS] = "two_pass",
    [HIPREDUCE_ALGORITHM_PMPP_SIMPLE] = "pmpp_simple",
    [HIPREDUCE_ALGORITHM_PMPP_CONVERGENT] = "pmpp_convergent",
    [HIPREDUCE_ALGORITHM_PMPP_SHARED_MEMORY] = "pmpp_shared_memory",
    [HIPREDUCE_ALGORITHM_PMPP_SEGMENTED_ATOMIC] = "pmpp_segmented_atomic",
    [HIPREDUCE_ALGORITHM_PMPP_COARSENED] = "pmpp_coarsened",
    [HIPREDUCE_ALGORITHM_HARRIS_REDUCE0] = "harris_reduce0",
    [HIPREDUCE_ALGORITHM_HARRIS_REDUCE1] = "harris_reduce1",
    [HIPREDUCE_ALGORITHM_HARRIS_REDUCE2] = "harris_reduce2",
    [HIPREDUCE_ALGORITHM_HARRIS_REDUCE3] = "harris_reduce3",
    [HIPREDUCE_ALGORITHM_HARRIS_REDUCE4] = "harris_reduce4",
    [HIPREDUCE_ALGORITHM_HARRIS_REDUCE5] = "harris_reduce5",
    [HIPREDUCE_ALGORITHM_HARRIS_REDUCE6] = "harris_reduce6",
    [HIPREDUCE_ALGORITHM_TUTORIAL_V1] = "tutorial_v1",
    [HIPREDUCE_ALGORITHM_TUTORIAL_V2] = "tutorial_v2",
    [HIPREDUCE_ALGORITHM_TUTORIAL_V3] = "tutorial_v3",
    [HIPREDUCE_ALGORITHM_TUTORIAL_V4] = "tutorial_v4",
    [HIPREDUCE_ALGORITHM_TUTORIAL_V5] = "tutorial_v5",
    [HIPREDUCE_ALGORITHM_TUTORIAL_V6] = "tutorial_v6",
    [HIPREDUCE_ALGORITHM_TUTORIAL_V7] = "tutorial_v7",
    [HIPREDUCE_ALGORITHM_TUTORIAL_V8] = "tutorial_v8",
    [HIPREDUCE_ALGORITHM_TUTORIAL_V9] = "tutorial_v9",
    [HIPREDUCE_ALGORITHM_TUTORIAL_V10] = "tutorial_v10",
};

#define HR_COUNT(table) ((int)(sizeof(table) / sizeof((table)[0])))

const hr_dtype_info* hr_dtype_lookup(int dtype)
{
    if (dtype < 0 || dtype >= HR_DTYPE_SLOTS || dtype_table[dtype].name == NULL) return NULL;
    return &dtype_table[dtype];
}

int hr_dtype_is_float(int dtype)
{
    const hr_dtype_info* info = hr_dtype_lookup(dtype);
    return info != NULL && (info->cls == HR_CLASS_HALF || info->cls == HR_CLASS_FLOAT);
}

const char* hr_op_name(int op) { return op < 0 || op >= HR_OP_SLOTS ? NULL : op_table[op].name; }

hr_call_kind hr_op_call(int op)
{
    return op_table[op].transform == T_PRODUCT ? HR_CALL_DOT
           : op_table[op].results == R_ARG     ? HR_CALL_ARGREDUCE
                                               : HR_CALL_REDUCE;
}

/* Whether result dtype `out` is allowed for input `in` under rule `results`. */
static int result_allowed(int results, const hr_dtype_info* in, int in_dtype, const hr_dtype_info* out, int out_dtype)
{
    const int in_int = in->cls == HR_CLASS_SIGNED || in->cls == HR_CLASS_UNSIGNED;
    switch (results) {
    case R_WIDE:
        if (in_int)
            return (out->cls == in->cls && out->size >= in->size) || out_dtype == HIPREDUCE_I64 ||
                   out_dtype == HIPREDUCE_U64;
        if (in->cls == HR_CLASS_HALF)
            return out_dtype == in_dtype || out_dtype == HIPREDUCE_F32 || out_dtype == HIPREDUCE_F64;
        return out->cls == HR_CLASS_FLOAT && out->size >= in->size;
    case R_SAME:
    case R_ARG: return out_dtype == in_dtype;
    case R_INT_SAME: return in_int && out_dtype == in_dtype;
    case R_MAGNITUDE:
        if (!in_int) return out_dtype == in_dtype;
        return out->cls == HR_CLASS_UNSIGNED && out->size == in->size;
    case R_NORM: return !in_int && (out_dtype == HIPREDUCE_F32 || out_dtype == HIPREDUCE_F64);
    default: return 0;
    }
}

hipreduce_status hr_check_triple(hr_call_kind kind, int op, int in_dtype, int out_dtype)
{
    if (hr_op_name(op) == NULL) return HIPREDUCE_STATUS_INVALID_OP;
    const hr_dtype_info* in = hr_dtype_lookup(in_dtype);
    if (in == NULL) return HIPREDUCE_STATUS_INVALID_DTYPE;
    const hr_dtype_info* out = hr_dtype_lookup(out_dtype);
    if (out == NULL) return HIPREDUCE_STATUS_INVALID_DTYPE;
    if (hr_op_call(op) != kind || !result_allowed(op_table[op].results, in, in_dtype, out, out_dtype))
        return HIPREDUCE_STATUS_OP_DTYPE_MISMATCH;
    return HIPREDUCE_STATUS_SUCCESS;
}

hr_acc_kind hr_acc_of(int op, int in_dtype, int out_dtype)
{
    const hr_dtype_info* in = hr_dtype_lookup(in_dtype);
    const hr_dtype_info* out = hr_dtype_lookup(out_dtype);
    const struct op_row* row = &op_table[op];
    const int wide = in->size == 8 || out->size == 8;
    switch (row->combine) {
    case C_NRM2: return in_dtype == HIPREDUCE_F64 ? HR_ACC_NRM2_F64 : HR_ACC_F64;
    case C_ARGMIN:
    case C_ARGMAX: return in->size == 8 ? HR_ACC_KEY64 : HR_ACC_KEY32;
    default: break;
    }
    if (in->cls == HR_CLASS_HALF || in->cls == HR_CLASS_FLOAT) return wide ? HR_ACC_F64 : HR_ACC_F32;
    if ((row->combine == C_MIN || row->combine == C_MAX) && row->transform == T_IDENT) {
        if (in->cls == HR_CLASS_SIGNED) return wide ? HR_ACC_I64 : HR_ACC_I32;
        return wide ? HR_ACC_U64 : HR_ACC_U32;
    }
    return wide ? HR_ACC_U64 : HR_ACC_U32;
}

size_t hr_acc_size(hr_acc_kind acc)
{
    switch (acc) {
    case HR_ACC_I32:
    case HR_ACC_U32:
    case HR_ACC_F32: return 4;
    case HR_ACC_I64:
    case HR_ACC_U64:
    case HR_ACC_F64: return 8;
    case HR_ACC_NRM2_F64: return 24;
    case HR_ACC_KEY32: return 16; /* int32 key, padding, int64 index */
    case HR_ACC_KEY64: return 16;
    default: return 0;
    }
}

const char* hr_algorithm_name(int algorithm)
{
    return algorithm < 0 || algorithm >= HR_COUNT(algorithm_table) ? NULL : algorithm_table[algorithm];
}

size_t hipreduce_dtype_size(hipreduce_dtype dtype)
{
    const hr_dtype_info* info = hr_dtype_lookup((int)dtype);
    return info ? info->size : 0;
}

const char* hipreduce_op_name(hipreduce_op op) { return hr_op_name((int)op); }

const char* hipreduce_dtype_name(hipreduce_dtype dtype)
{
    const hr_dtype_info* info = hr_dtype_lookup((int)dtype);
    return info ? info->name : NULL;
}

const char* hipreduce_algorithm_name(hipreduce_algorithm algorithm) { return hr_algorithm_name((int)algorithm); }

uint64_t hr_call_results(const hr_call* call)
{
    if (call->shape == HR_SHAPE_AXIS) return call->outer * call->inner;
    if (call->shape == HR_SHAPE_SEGMENTS) return call->num_segments;
    return 1;
}
