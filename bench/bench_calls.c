/* hipreduce-bench's view of the three public calls: which one an op belongs to (the public
 * header's rule), its size query and the call itself behind one signature each, the bytes a call
 * reads, and results decoded for the checks. */
#include "bench.h"

#include <math.h>
#include <string.h>

/* The header: ARGMIN and ARGMAX are hipreduce_argreduce's, DOT and DOT_EXACT hipreduce_dot's (and
 * hipreduce_dot_op's), every other op hipreduce_reduce's (an unknown value: its size query says
 * INVALID_OP). */
bench_call_kind bench_op_call(hipreduce_op op)
{
    switch (op) {
    case HIPREDUCE_OP_ARGMIN:
    case HIPREDUCE_OP_ARGMAX: return BENCH_CALL_ARGREDUCE;
    case HIPREDUCE_OP_DOT:
    case HIPREDUCE_OP_DOT_EXACT: return BENCH_CALL_DOT;
    default: return BENCH_CALL_REDUCE;
    }
}

hipreduce_dtype bench_out_dtype(hipreduce_dtype in, int out_entry)
{
    return out_entry == BENCH_OUT_SAME ? in : (hipreduce_dtype)out_entry;
}

hipreduce_status bench_workspace_size(hipreduce_handle h, hipreduce_op op, hipreduce_dtype in, uint64_t n,
                                      hipreduce_dtype out, size_t* bytes)
{
    switch (bench_op_call(op)) {
    case BENCH_CALL_ARGREDUCE:
        /* The value is in the input dtype: any other --out entry does not apply. */
        if (out != in) return HIPREDUCE_STATUS_OP_DTYPE_MISMATCH;
        return hipreduce_argreduce_workspace_size(h, op, in, n, bytes);
    case BENCH_CALL_DOT: return hipreduce_dot_op_workspace_size(h, op, in, n, out, bytes);
    default: return hipreduce_workspace_size(h, op, in, n, out, bytes);
    }
}

hipreduce_status bench_call(hipreduce_handle h, hipreduce_op op, hipreduce_dtype in, const void* x, const void* y,
                            uint64_t n, hipreduce_dtype out, void* result, int64_t* index,
                            hipreduce_location location)
{
    switch (bench_op_call(op)) {
    case BENCH_CALL_ARGREDUCE: return hipreduce_argreduce(h, op, in, x, n, result, index, location);
    case BENCH_CALL_DOT: return hipreduce_dot_op(h, op, in, x, y, n, out, result, location);
    default: return hipreduce_reduce(h, op, in, x, n, out, result, location);
    }
}

uint64_t bench_bytes_read(hipreduce_op op, hipreduce_dtype in, uint64_t n)
{
    const uint64_t one = n * hipreduce_dtype_size(in);
    return bench_op_call(op) == BENCH_CALL_DOT ? 2 * one : one;
}

/* IEEE binary16 bits as a double: subnormals, infinities and NaN included. */
static double f16_as_double(uint16_t h)
{
    const int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    const double sign = (h & 0x8000) ? -1.0 : 1.0;
    if (exp == 0x1f) return mant ? NAN : sign * INFINITY;
    if (exp == 0) return sign * ldexp((double)mant, -24);
    return sign * ldexp((double)(mant | 0x400), exp - 25);
}

double bench_value_as_double(hipreduce_dtype dtype, const void* p)
{
    switch (dtype) {
#define BENCH_AS(code, T) \
    case code: {          \
        T v;              \
        memcpy(&v, p, sizeof v); \
        return (double)v; \
    }
        BENCH_AS(HIPREDUCE_I8, int8_t)
        BENCH_AS(HIPREDUCE_U8, uint8_t)
        BENCH_AS(HIPREDUCE_I16, int16_t)
        BENCH_AS(HIPREDUCE_U16, uint16_t)
        BENCH_AS(HIPREDUCE_I32, int32_t)
        BENCH_AS(HIPREDUCE_U32, uint32_t)
        BENCH_AS(HIPREDUCE_I64, int64_t)
        BENCH_AS(HIPREDUCE_U64, uint64_t)
        BENCH_AS(HIPREDUCE_F32, float)
        BENCH_AS(HIPREDUCE_F64, double)
#undef BENCH_AS
    case HIPREDUCE_F16: {
        uint16_t h;
        memcpy(&h, p, sizeof h);
        return f16_as_double(h);
    }
    case HIPREDUCE_BF16: { /* the top half of an f32 */
        uint16_t b;
        memcpy(&b, p, sizeof b);
        const uint32_t bits = (uint32_t)b << 16;
        float f;
        memcpy(&f, &bits, sizeof f);
        return (double)f;
    }
    default: return NAN;
    }
}

size_t bench_rows_per_size(hipreduce_handle h, const bench_options* o, int gpu)
{
    size_t rows = 0;
    for (int t = 0; t < o->n_dtypes; ++t)
        for (int i = 0; i < o->n_ops; ++i)
            for (int u = 0; u < o->n_outs; ++u) {
                const hipreduce_dtype in = (hipreduce_dtype)o->dtypes[t], out = bench_out_dtype(in, o->outs[u]);
                int dup = 0;
                for (int v = 0; v < u; ++v) dup |= bench_out_dtype(in, o->outs[v]) == out;
                for (int a = 0; a < (gpu ? o->n_algorithms : 1) && !dup; ++a) {
                    size_t bytes = 0;
                    hipreduce_set_algorithm(h, gpu ? (hipreduce_algorithm)o->algorithms[a] : HIPREDUCE_ALGORITHM_AUTO);
                    const hipreduce_status s = bench_workspace_size(h, (hipreduce_op)o->ops[i], in, 1, out, &bytes);
                    rows += s != HIPREDUCE_STATUS_OP_DTYPE_MISMATCH &&
                            (s != HIPREDUCE_STATUS_NOT_SUPPORTED || o->algorithms[a] == HIPREDUCE_ALGORITHM_AUTO);
                }
            }
    hipreduce_set_algorithm(h, HIPREDUCE_ALGORITHM_AUTO);
    return rows;
}
