/* The op and dtype tables of the C side (types.h): one row per dtype, one rule per op. */
#include "types.h"

#include <stdint.h>

/* Indexed by the hipreduce_dtype value; 8 and 9 are reserved for f16 and bf16. */
static const hr_dtype_info dtype_table[] = {
    [HIPREDUCE_I8] = {"i8", sizeof(int8_t), HR_CLASS_SIGNED},
    [HIPREDUCE_U8] = {"u8", sizeof(uint8_t), HR_CLASS_UNSIGNED},
    [HIPREDUCE_I16] = {"i16", sizeof(int16_t), HR_CLASS_SIGNED},
    [HIPREDUCE_U16] = {"u16", sizeof(uint16_t), HR_CLASS_UNSIGNED},
    [HIPREDUCE_I32] = {"i32", sizeof(int32_t), HR_CLASS_SIGNED},
    [HIPREDUCE_U32] = {"u32", sizeof(uint32_t), HR_CLASS_UNSIGNED},
    [HIPREDUCE_I64] = {"i64", sizeof(int64_t), HR_CLASS_SIGNED},
    [HIPREDUCE_U64] = {"u64", sizeof(uint64_t), HR_CLASS_UNSIGNED},
    [HIPREDUCE_F32] = {"f32", sizeof(float), HR_CLASS_FLOAT},
    [HIPREDUCE_F64] = {"f64", sizeof(double), HR_CLASS_FLOAT},
};

/* Indexed by the hipreduce_op value: its name and whether it needs an integer dtype. */
static const struct {
    const char* name;
    int integers_only;
} op_table[] = {
    [HIPREDUCE_OP_SUM] = {"sum", 0}, [HIPREDUCE_OP_PROD] = {"prod", 0}, [HIPREDUCE_OP_MIN] = {"min", 0},
    [HIPREDUCE_OP_MAX] = {"max", 0}, [HIPREDUCE_OP_AND] = {"and", 1},   [HIPREDUCE_OP_OR] = {"or", 1},
    [HIPREDUCE_OP_XOR] = {"xor", 1},
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
    if (dtype < 0 || dtype >= HR_COUNT(dtype_table) || dtype_table[dtype].name == NULL) return NULL;
    return &dtype_table[dtype];
}

const char* hr_op_name(int op)
{
    return op < 0 || op >= HR_COUNT(op_table) ? NULL : op_table[op].name;
}

hipreduce_status hr_check_op_dtype(int op, int dtype)
{
    if (hr_op_name(op) == NULL) return HIPREDUCE_STATUS_INVALID_OP;
    const hr_dtype_info* info = hr_dtype_lookup(dtype);
    if (info == NULL) return HIPREDUCE_STATUS_INVALID_DTYPE;
    if (op_table[op].integers_only && info->cls == HR_CLASS_FLOAT) return HIPREDUCE_STATUS_OP_DTYPE_MISMATCH;
    return HIPREDUCE_STATUS_SUCCESS;
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
