/* The public names of the tables' values, and the status of a triple (device/rules.h) with the
 * sentence that explains it. */
#include "types.h"

#include "half.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The call each kind of op belongs to, and the word for that kind. */
static const char* const call_function[] = {"hipreduce_reduce", "hipreduce_argreduce", "hipreduce_dot",
                                            "hipreduce_plan_create"};
static const char* const call_word[] = {"a reduce op", "an argreduce op", "the op of its own call",
                                        "a plan op (a correction or a second output)"};

/* Whether op takes input dtype in at all (some result dtype is allowed). */
static int hr_op_has_result(int op, int in)
{
    for (int out = 0; out < HR_DTYPE_SLOTS; ++out)
        if (hr_result_allowed(op, in, out)) return 1;
    return 0;
}

/* Writes to list the names of the dtypes for which accept(op, d, other) holds, "a, b or c". */
static void dtype_list(char* list, size_t size, int op, int other, int as_result)
{
    int found = 0, total = 0;
    for (int d = 0; d < HR_DTYPE_SLOTS; ++d)
        total += as_result ? hr_result_allowed(op, other, d) : hr_op_has_result(op, d);
    list[0] = '\0';
    for (int d = 0; d < HR_DTYPE_SLOTS; ++d) {
        if (!(as_result ? hr_result_allowed(op, other, d) : hr_op_has_result(op, d))) continue;
        const size_t used = strlen(list);
        snprintf(list + used, size - used, "%s%s", found == 0 ? "" : found == total - 1 ? " or " : ", ",
                 hr_dtype_name(d));
        ++found;
    }
}

hipreduce_status hr_explain_triple(hr_call_kind kind, int op, int in_dtype, int out_dtype, char* why, size_t size)
{
    const char* in_arg = kind == HR_CALL_ARGREDUCE ? "dtype" : "in_dtype";
    char list[160];
    if (hr_op_name(op) == NULL) {
        snprintf(why, size, "op %d is not a hipreduce_op (0 to %d)", op, HR_OP_SLOTS - 1);
        return HIPREDUCE_STATUS_INVALID_OP;
    }
    if (hr_dtype_name(in_dtype) == NULL || hr_dtype_name(out_dtype) == NULL) {
        const int bad_in = hr_dtype_name(in_dtype) == NULL;
        snprintf(why, size, "%s %d is not a hipreduce_dtype (0 to %d)", bad_in ? in_arg : "out_dtype",
                 bad_in ? in_dtype : out_dtype, HR_DTYPE_SLOTS - 1);
        return HIPREDUCE_STATUS_INVALID_DTYPE;
    }
    const int owner = hr_op_call(op);
    if (owner != (int)kind) {
        /* dot's other ops take the call that names its op */
        const char* function = owner == HR_CALL_DOT && op != HIPREDUCE_OP_DOT ? "hipreduce_dot_op" : call_function[owner];
        if (kind == HR_CALL_ARGREDUCE)
            snprintf(why, size, "%s is not an argreduce op (argmin or argmax): call %s", hr_op_name(op), function);
        else if (kind == HR_CALL_DOT)
            snprintf(why, size, "%s is not a dot op (dot, dot_exact or dotc): call %s", hr_op_name(op), function);
        else
            snprintf(why, size, "%s is %s: call %s", hr_op_name(op), call_word[owner], function);
        return HIPREDUCE_STATUS_OP_DTYPE_MISMATCH;
    }
    if (!hr_result_allowed(op, in_dtype, out_dtype)) {
        if (!hr_op_has_result(op, in_dtype)) {
            dtype_list(list, sizeof list, op, 0, 0);
            snprintf(why, size, "%s does not apply to %s input: %s takes %s", hr_op_name(op), hr_dtype_name(in_dtype),
                     hr_op_name(op), list);
        } else {
            dtype_list(list, sizeof list, op, in_dtype, 1);
            snprintf(why, size, "%s of %s: result dtype %s not allowed, use %s", hr_op_name(op),
                     hr_dtype_name(in_dtype), hr_dtype_name(out_dtype), list);
        }
        return HIPREDUCE_STATUS_OP_DTYPE_MISMATCH;
    }
    if (size) why[0] = '\0';
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hr_check_triple(hr_call_kind kind, int op, int in_dtype, int out_dtype)
{
    char why[1];
    return hr_explain_triple(kind, op, in_dtype, out_dtype, why, 0);
}

size_t hipreduce_dtype_size(hipreduce_dtype dtype) { return (size_t)hr_dtype_bytes((int)dtype); }

const char* hipreduce_op_name(hipreduce_op op) { return hr_op_name((int)op); }

const char* hipreduce_dtype_name(hipreduce_dtype dtype) { return hr_dtype_name((int)dtype); }

const char* hipreduce_algorithm_name(hipreduce_algorithm algorithm) { return hr_algorithm_name((int)algorithm); }

float hipreduce_f16_to_f32(uint16_t h) { return hr_f16_to_f32(h); }
uint16_t hipreduce_f32_to_f16(float f) { return hr_f32_to_f16(f); }
float hipreduce_bf16_to_f32(uint16_t h) { return hr_bf16_to_f32(h); }
uint16_t hipreduce_f32_to_bf16(float f) { return hr_f32_to_bf16(f); }
