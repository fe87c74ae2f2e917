/* The status of a triple for the C API's validation (the rules are device/rules.h's, from
 * device/op_table.h's rows; the validated call is device/call.h's hr_call). */
#ifndef HIPREDUCE_TYPES_H
#define HIPREDUCE_TYPES_H

#include <stddef.h>

#include "hipreduce/hipreduce.h"
#include "call.h"
#include "rules.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Validates (op, in, out) for the call `kind`: INVALID_OP, INVALID_DTYPE (in, then out),
 * OP_DTYPE_MISMATCH (the triple, or an op of another call) or SUCCESS. The rules themselves are
 * device/rules.h's. */
hipreduce_status hr_check_triple(hr_call_kind kind, int op, int in_dtype, int out_dtype);
/* The same status, with the sentence that explains a failure written to why (size bytes; "" on
 * success), naming the argument and what would be accepted: "sum of f32: result dtype i64 not
 * allowed, use f32 or f64", "argmax is an argreduce op: call hipreduce_argreduce". */
hipreduce_status hr_explain_triple(hr_call_kind kind, int op, int in_dtype, int out_dtype, char* why, size_t size);

#ifdef __cplusplus
}
#endif

#endif
