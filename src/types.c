/* The public names of the tables' values, and the status of a triple (device/rules.h). */
#include "types.h"

#include <stdint.h>

hipreduce_status hr_check_triple(hr_call_kind kind, int op, int in_dtype, int out_dtype)
{
    if (hr_op_name(op) == NULL) return HIPREDUCE_STATUS_INVALID_OP;
    if (hr_dtype_name(in_dtype) == NULL || hr_dtype_name(out_dtype) == NULL) return HIPREDUCE_STATUS_INVALID_DTYPE;
    if (hr_op_call(op) != (int)kind || !hr_result_allowed(op, in_dtype, out_dtype))
        return HIPREDUCE_STATUS_OP_DTYPE_MISMATCH;
    return HIPREDUCE_STATUS_SUCCESS;
}

size_t hipreduce_dtype_size(hipreduce_dtype dtype) { return (size_t)hr_dtype_bytes((int)dtype); }

const char* hipreduce_op_name(hipreduce_op op) { return hr_op_name((int)op); }

const char* hipreduce_dtype_name(hipreduce_dtype dtype) { return hr_dtype_name((int)dtype); }

const char* hipreduce_algorithm_name(hipreduce_algorithm algorithm) { return hr_algorithm_name((int)algorithm); }
