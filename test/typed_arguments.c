/* The typed suite's argument section (typed_run.h): the header's validation order for
 * hipreduce_reduce's result dtype, hipreduce_argreduce, hipreduce_dot and their size queries, on
 * the cpu handle: handle, op, input dtype, result dtype, triple, location, pointers (result, value
 * and index; input, x and y when n > 0), byte-count overflow. A refused call writes nothing. */
#include <stdio.h>
#include <string.h>

#include "reference.h"
#include "typed_run.h"

#define SENTINEL 0xA5

enum { REDUCE, ARGREDUCE, DOT, SIZE_REDUCE, SIZE_ARGREDUCE, SIZE_DOT };

typedef struct arg_case {
    const char* what;
    int call, op, in, out;
    int null_x, null_y, null_result, null_index; /* pass NULL for these */
    uint64_t n;
    int location;
    hipreduce_status want;
} arg_case;

static hipreduce_status run(hipreduce_handle h, const arg_case* a, unsigned char* r, int64_t* index)
{
    static const double x[4] = {1, 2, 3, 4}, y[4] = {4, 3, 2, 1};
    const void* px = a->null_x ? NULL : x;
    const void* py = a->null_y ? NULL : y;
    void* result = a->null_result ? NULL : r;
    int64_t* pi = a->null_index ? NULL : index;
    const hipreduce_op op = (hipreduce_op)a->op;
    const hipreduce_dtype in = (hipreduce_dtype)a->in, out = (hipreduce_dtype)a->out;
    const hipreduce_location loc = (hipreduce_location)a->location;
    switch (a->call) {
    case REDUCE: return hipreduce_reduce(h, op, in, px, a->n, out, result, loc);
    case ARGREDUCE: return hipreduce_argreduce(h, op, in, px, a->n, result, pi, loc);
    case DOT: return hipreduce_dot(h, in, px, py, a->n, out, result, loc);
    case SIZE_REDUCE: return hipreduce_workspace_size(h, op, in, a->n, out, (size_t*)result);
    case SIZE_ARGREDUCE: return hipreduce_argreduce_workspace_size(h, op, in, a->n, (size_t*)result);
    default: return hipreduce_dot_workspace_size(h, in, a->n, out, (size_t*)result);
    }
}

int tt_arguments(tt_ctx* c)
{
    const int F32 = HIPREDUCE_F32, F64 = HIPREDUCE_F64, I8 = HIPREDUCE_I8, U8 = HIPREDUCE_U8, BAD = 14;
    const int SUM = HIPREDUCE_OP_SUM, AMIN = HIPREDUCE_OP_ARGMIN, AMAX = HIPREDUCE_OP_ARGMAX, DOTOP = HIPREDUCE_OP_DOT;
    const uint64_t huge = (UINT64_MAX >> 3) + 1; /* n * 8 overflows */
    const arg_case cases[] = {
        /* hipreduce_reduce's result dtype */
        {"reduce: bad out", REDUCE, SUM, F32, BAD, 0, 0, 0, 0, 4, 0, HIPREDUCE_STATUS_INVALID_DTYPE},
        {"reduce: bad out -1", REDUCE, SUM, F32, -1, 0, 0, 0, 0, 4, 0, HIPREDUCE_STATUS_INVALID_DTYPE},
        {"reduce: out before triple", REDUCE, HIPREDUCE_OP_XOR, F32, BAD, 0, 0, 0, 0, 4, 0, HIPREDUCE_STATUS_INVALID_DTYPE},
        {"reduce: op before out", REDUCE, 99, F32, BAD, 0, 0, 0, 0, 4, 0, HIPREDUCE_STATUS_INVALID_OP},
        {"reduce: narrower out", REDUCE, SUM, HIPREDUCE_I32, HIPREDUCE_I16, 0, 0, 0, 0, 4, 0, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH},
        {"reduce: argmax", REDUCE, AMAX, F32, F32, 0, 0, 0, 0, 4, 0, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH},
        {"reduce: triple before location", REDUCE, SUM, F64, F32, 0, 0, 0, 0, 4, 9, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH},
        {"reduce: NULL result, wide", REDUCE, SUM, I8, HIPREDUCE_I64, 0, 0, 1, 0, 4, 0, HIPREDUCE_STATUS_INVALID_POINTER},
        {"reduce: overflow by the input's size", REDUCE, SUM, F64, F64, 0, 0, 0, 0, huge, 0, HIPREDUCE_STATUS_SIZE_OVERFLOW},
        {"reduce: i8 n = 2^63 into i64 fits", SIZE_REDUCE, SUM, I8, HIPREDUCE_I64, 0, 0, 0, 0, UINT64_C(1) << 63, 0,
         HIPREDUCE_STATUS_SUCCESS},
        /* hipreduce_argreduce */
        {"argreduce: NULL handle", ARGREDUCE, AMIN, F32, F32, 1, 0, 1, 1, 4, 9, HIPREDUCE_STATUS_INVALID_HANDLE},
        {"argreduce: op 99", ARGREDUCE, 99, F32, F32, 0, 0, 0, 0, 4, 0, HIPREDUCE_STATUS_INVALID_OP},
        {"argreduce: bad dtype", ARGREDUCE, AMIN, BAD, BAD, 0, 0, 0, 0, 4, 0, HIPREDUCE_STATUS_INVALID_DTYPE},
        {"argreduce: sum", ARGREDUCE, SUM, F32, F32, 0, 0, 0, 0, 4, 0, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH},
        {"argreduce: dot", ARGREDUCE, DOTOP, F32, F32, 0, 0, 0, 0, 4, 0, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH},
        {"argreduce: mismatch before location", ARGREDUCE, SUM, F32, F32, 0, 0, 0, 0, 4, 9, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH},
        {"argreduce: bad location", ARGREDUCE, AMIN, F32, F32, 0, 0, 0, 0, 4, 2, HIPREDUCE_STATUS_INVALID_LOCATION},
        {"argreduce: device location on cpu", ARGREDUCE, AMIN, F32, F32, 0, 0, 0, 0, 4, 1, HIPREDUCE_STATUS_INVALID_LOCATION},
        {"argreduce: location before pointers", ARGREDUCE, AMAX, F32, F32, 1, 0, 1, 1, 4, 2, HIPREDUCE_STATUS_INVALID_LOCATION},
        {"argreduce: NULL value", ARGREDUCE, AMIN, F32, F32, 0, 0, 1, 0, 4, 0, HIPREDUCE_STATUS_INVALID_POINTER},
        {"argreduce: NULL index", ARGREDUCE, AMIN, F32, F32, 0, 0, 0, 1, 4, 0, HIPREDUCE_STATUS_INVALID_POINTER},
        {"argreduce: NULL index, n 0", ARGREDUCE, AMAX, F32, F32, 1, 0, 0, 1, 0, 0, HIPREDUCE_STATUS_INVALID_POINTER},
        {"argreduce: NULL input", ARGREDUCE, AMIN, F32, F32, 1, 0, 0, 0, 4, 0, HIPREDUCE_STATUS_INVALID_POINTER},
        {"argreduce: pointer before size", ARGREDUCE, AMIN, F64, F64, 1, 0, 0, 0, huge, 0, HIPREDUCE_STATUS_INVALID_POINTER},
        {"argreduce: overflow", ARGREDUCE, AMAX, F64, F64, 0, 0, 0, 0, huge, 0, HIPREDUCE_STATUS_SIZE_OVERFLOW},
        /* hipreduce_dot */
        {"dot: NULL handle", DOT, DOTOP, F32, F32, 0, 0, 0, 0, 4, 0, HIPREDUCE_STATUS_INVALID_HANDLE},
        {"dot: bad in", DOT, DOTOP, BAD, F32, 0, 0, 0, 0, 4, 0, HIPREDUCE_STATUS_INVALID_DTYPE},
        {"dot: bad out", DOT, DOTOP, F32, BAD, 0, 0, 0, 0, 4, 0, HIPREDUCE_STATUS_INVALID_DTYPE},
        {"dot: i8 into u8", DOT, DOTOP, I8, U8, 0, 0, 0, 0, 4, 0, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH},
        {"dot: f64 into f32", DOT, DOTOP, F64, F32, 0, 0, 0, 0, 4, 0, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH},
        {"dot: mismatch before pointers", DOT, DOTOP, F64, F32, 1, 1, 1, 0, 4, 9, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH},
        {"dot: bad location", DOT, DOTOP, F64, F64, 0, 0, 0, 0, 4, 3, HIPREDUCE_STATUS_INVALID_LOCATION},
        {"dot: NULL result", DOT, DOTOP, F64, F64, 0, 0, 1, 0, 4, 0, HIPREDUCE_STATUS_INVALID_POINTER},
        {"dot: NULL x", DOT, DOTOP, F64, F64, 1, 0, 0, 0, 4, 0, HIPREDUCE_STATUS_INVALID_POINTER},
        {"dot: NULL y", DOT, DOTOP, F64, F64, 0, 1, 0, 0, 4, 0, HIPREDUCE_STATUS_INVALID_POINTER},
        {"dot: overflow", DOT, DOTOP, F64, F64, 0, 0, 0, 0, huge, 0, HIPREDUCE_STATUS_SIZE_OVERFLOW},
        /* size queries */
        {"size: argmin NULL bytes", SIZE_ARGREDUCE, AMIN, F32, F32, 0, 0, 1, 0, 4, 0, HIPREDUCE_STATUS_INVALID_POINTER},
        {"size: argreduce sum", SIZE_ARGREDUCE, SUM, F32, F32, 0, 0, 0, 0, 4, 0, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH},
        {"size: argreduce overflow", SIZE_ARGREDUCE, AMAX, F64, F64, 0, 0, 0, 0, huge, 0, HIPREDUCE_STATUS_SIZE_OVERFLOW},
        {"size: dot NULL bytes", SIZE_DOT, DOTOP, F32, F64, 0, 0, 1, 0, 4, 0, HIPREDUCE_STATUS_INVALID_POINTER},
        {"size: dot mismatch", SIZE_DOT, DOTOP, HIPREDUCE_U16, HIPREDUCE_I16, 0, 0, 0, 0, 4, 0, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH},
        {"size: dot overflow", SIZE_DOT, DOTOP, F64, F64, 0, 0, 0, 0, huge, 0, HIPREDUCE_STATUS_SIZE_OVERFLOW},
        {"size: reduce bad out", SIZE_REDUCE, SUM, F32, BAD, 0, 0, 0, 0, 4, 0, HIPREDUCE_STATUS_INVALID_DTYPE},
        /* n = 0 takes NULL inputs */
        {"argreduce: n 0, NULL input", ARGREDUCE, AMIN, HIPREDUCE_BF16, HIPREDUCE_BF16, 1, 0, 0, 0, 0, 0, HIPREDUCE_STATUS_SUCCESS},
        {"dot: n 0, NULL x and y", DOT, DOTOP, HIPREDUCE_F16, F32, 1, 1, 0, 0, 0, 0, HIPREDUCE_STATUS_SUCCESS},
        {"reduce: n 0, NULL input", REDUCE, HIPREDUCE_OP_NRM2, HIPREDUCE_F16, F64, 1, 0, 0, 0, 0, 0, HIPREDUCE_STATUS_SUCCESS},
    };
    int fails = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const arg_case* a = &cases[i];
        unsigned char r[16];
        int64_t index = -7;
        memset(r, SENTINEL, sizeof r);
        const int null_handle = strstr(a->what, "NULL handle") != NULL;
        const hipreduce_status st = run(null_handle ? NULL : c->cpu, a, r, &index);
        int written = index != -7;
        for (int k = 0; k < 16; ++k) written |= r[k] != SENTINEL;
        if (st != a->want || (st != HIPREDUCE_STATUS_SUCCESS && written)) {
            ref_report("FAIL arguments '%s': %s, want %s%s", a->what, hipreduce_status_string(st),
                       hipreduce_status_string(a->want), st != HIPREDUCE_STATUS_SUCCESS && written ? " (and wrote)" : "");
            ++fails;
        }
    }
    printf("arguments: %zu cases, %d failures\n", sizeof cases / sizeof cases[0], fails);
    return fails;
}
