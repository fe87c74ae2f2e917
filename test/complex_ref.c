/* What the complex suite's files share, and its own reference (complex_test.h): every op recomputed in long
 * double from the components, sum_exact per component through the tests' exact reference. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "complex_test.h"
#include "exact_ref.h"
#include "gpu_memory.h"

const op_case cx_cases[] = {
    {HIPREDUCE_OP_SUM, HIPREDUCE_C64, HIPREDUCE_C64},          {HIPREDUCE_OP_SUM, HIPREDUCE_C64, HIPREDUCE_C128},
    {HIPREDUCE_OP_SUM, HIPREDUCE_C128, HIPREDUCE_C128},        {HIPREDUCE_OP_PROD, HIPREDUCE_C64, HIPREDUCE_C64},
    {HIPREDUCE_OP_PROD, HIPREDUCE_C64, HIPREDUCE_C128},        {HIPREDUCE_OP_PROD, HIPREDUCE_C128, HIPREDUCE_C128},
    {HIPREDUCE_OP_DOT, HIPREDUCE_C64, HIPREDUCE_C64},          {HIPREDUCE_OP_DOT, HIPREDUCE_C64, HIPREDUCE_C128},
    {HIPREDUCE_OP_DOT, HIPREDUCE_C128, HIPREDUCE_C128},        {HIPREDUCE_OP_DOTC, HIPREDUCE_C64, HIPREDUCE_C64},
    {HIPREDUCE_OP_DOTC, HIPREDUCE_C64, HIPREDUCE_C128},        {HIPREDUCE_OP_DOTC, HIPREDUCE_C128, HIPREDUCE_C128},
    {HIPREDUCE_OP_SUM_SQUARES, HIPREDUCE_C64, HIPREDUCE_F32},  {HIPREDUCE_OP_SUM_SQUARES, HIPREDUCE_C64, HIPREDUCE_F64},
    {HIPREDUCE_OP_SUM_SQUARES, HIPREDUCE_C128, HIPREDUCE_F64}, {HIPREDUCE_OP_NRM2, HIPREDUCE_C64, HIPREDUCE_F32},
    {HIPREDUCE_OP_NRM2, HIPREDUCE_C64, HIPREDUCE_F64},         {HIPREDUCE_OP_NRM2, HIPREDUCE_C128, HIPREDUCE_F64},
    {HIPREDUCE_OP_NRM2, HIPREDUCE_C128, HIPREDUCE_F32},        {HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_C64, HIPREDUCE_C64},
    {HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_C64, HIPREDUCE_C128},   {HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_C128, HIPREDUCE_C128},
};
const int cx_case_count = sizeof cx_cases / sizeof cx_cases[0];

int cx_ref_failures(void) { return failures; }

void* cx_place(const cx_env* e, const void* host, size_t bytes)
{
    if (!e->gpu) return (void*)host;
    void* d = gm_alloc(bytes ? bytes : 1);
    CHECK(d && gm_to_device(d, host, bytes) == 0, "device copy of %zu bytes", bytes);
    return d;
}
void cx_release(const cx_env* e, void* p)
{
    if (e->gpu) gm_free(p);
}
void cx_fetch(const cx_env* e, void* host, const void* p, size_t bytes)
{
    if (e->gpu) CHECK(gm_to_host(host, p, bytes) == 0, "copy of %zu result bytes", bytes);
    else memcpy(host, p, bytes);
}

void cx_fill(void* p, hipreduce_dtype dtype, uint64_t n, int near_one)
{
    for (uint64_t i = 0; i < 2 * n; ++i) {
        double v = ((double)(int64_t)below(20001) / 10000.0 - 1.0) * (double)(1u << below(9)) / 16.0;
        if (near_one) v = (i % 2 ? 0.05 : 0.1) * ((double)(int64_t)below(20001) / 20000.0 - 0.5) + (i % 2 ? 0.0 : 1.0);
        if (dtype == HIPREDUCE_C64) ((float*)p)[i] = (float)v;
        else ((double*)p)[i] = v;
    }
}

long double cx_part(hipreduce_dtype dtype, const void* p, uint64_t i, int c)
{
    return dtype == HIPREDUCE_C64 ? (long double)((const float*)p)[2 * i + c] : (long double)((const double*)p)[2 * i + c];
}

hipreduce_status cx_call(hipreduce_handle h, const op_case* c, const void* x, const void* y, uint64_t n, void* result)
{
    if (c->op == HIPREDUCE_OP_DOT || c->op == HIPREDUCE_OP_DOTC)
        return hipreduce_dot_op(h, c->op, c->in, x, y, n, c->out, result, HIPREDUCE_RESULT_HOST);
    return hipreduce_reduce(h, c->op, c->in, x, n, c->out, result, HIPREDUCE_RESULT_HOST);
}

/* The reference value and the size of its terms, per component (real results: component 0). */
static void reference(const op_case* c, const void* x, const void* y, uint64_t n, long double v[2], long double size[2])
{
    const hipreduce_dtype d = c->in;
    v[0] = v[1] = size[0] = size[1] = 0;
    if (c->op == HIPREDUCE_OP_PROD) v[0] = size[0] = size[1] = 1;
    for (uint64_t i = 0; i < n; ++i) {
        const long double a = cx_part(d, x, i, 0), b = cx_part(d, x, i, 1);
        const long double p = y ? cx_part(d, y, i, 0) : 0, q = y ? cx_part(d, y, i, 1) : 0;
        switch (c->op) {
        case HIPREDUCE_OP_SUM:
            v[0] += a, v[1] += b, size[0] += fabsl(a), size[1] += fabsl(b);
            break;
        case HIPREDUCE_OP_PROD: {
            const long double re = v[0] * a - v[1] * b, im = v[0] * b + v[1] * a;
            v[0] = re, v[1] = im;
            size[0] = size[1] = size[0] * sqrtl(a * a + b * b); /* times 4 (n + 1) below */
            break;
        }
        case HIPREDUCE_OP_DOT: /* (a + bi)(p + qi) */
            v[0] += a * p - b * q, v[1] += a * q + b * p;
            size[0] += fabsl(a * p) + fabsl(b * q), size[1] += fabsl(a * q) + fabsl(b * p);
            break;
        case HIPREDUCE_OP_DOTC: /* (a - bi)(p + qi) */
            v[0] += a * p + b * q, v[1] += a * q - b * p;
            size[0] += fabsl(a * p) + fabsl(b * q), size[1] += fabsl(a * q) + fabsl(b * p);
            break;
        default: /* sum_squares, nrm2: |z|^2 */
            v[0] += a * a + b * b, size[0] += a * a + b * b;
            break;
        }
    }
    if (c->op == HIPREDUCE_OP_NRM2) v[0] = sqrtl(v[0]), size[0] = v[0];
    if (c->op == HIPREDUCE_OP_PROD) size[0] = size[1] = size[0] * 4 * (long double)(n + 1);
}

/* The exact per-component check of sum_exact. */
static void check_exact(const op_case* c, const void* x, uint64_t n, const void* got, const char* what)
{
    const hipreduce_dtype part = c->in == HIPREDUCE_C64 ? HIPREDUCE_F32 : HIPREDUCE_F64;
    const hipreduce_dtype out = c->out == HIPREDUCE_C64 ? HIPREDUCE_F32 : HIPREDUCE_F64;
    for (int k = 0; k < 2; ++k) {
        xr_sum s;
        xr_init(&s);
        for (uint64_t i = 0; i < n; ++i) xr_add(&s, part, xr_bits(part, x, 2 * i + (uint64_t)k));
        char why[200];
        const int ok = xr_check(&s, out, xr_bits(out, got, (uint64_t)k), why, sizeof why);
        CHECK(ok, "%s: sum_exact of %s, n %llu, component %d: %s", what, hipreduce_dtype_name(c->in),
              (unsigned long long)n, k, why);
    }
}

void cx_check_value(const op_case* c, const void* x, const void* y, uint64_t n, const void* got, const char* what)
{
    if (c->op == HIPREDUCE_OP_SUM_EXACT) return check_exact(c, x, n, got, what);
    long double v[2], size[2];
    reference(c, x, y, n, v, size);
    const int parts = c->out == HIPREDUCE_C64 || c->out == HIPREDUCE_C128 ? 2 : 1;
    const int wide = c->in == HIPREDUCE_C128 || c->out == HIPREDUCE_C128 || c->out == HIPREDUCE_F64 ||
                     c->op == HIPREDUCE_OP_NRM2;
    const long double u = wide ? ldexpl(1, -53) : ldexpl(1, -24);
    const long double rounding = c->out == HIPREDUCE_F32 || c->out == HIPREDUCE_C64 ? ldexpl(1, -24) : ldexpl(1, -53);
    for (int k = 0; k < parts; ++k) {
        const long double g = c->out == HIPREDUCE_F32 || c->out == HIPREDUCE_C64 ? (long double)((const float*)got)[k]
                                                                                 : (long double)((const double*)got)[k];
        const long double bound = 64 * u * size[k] + rounding * fabsl(v[k]);
        CHECK(fabsl(g - v[k]) <= bound, "%s: %s of %s into %s, n %llu, component %d: %.17Lg, reference %.17Lg (bound %Lg)",
              what, hipreduce_op_name(c->op), hipreduce_dtype_name(c->in), hipreduce_dtype_name(c->out),
              (unsigned long long)n, k, g, v[k], bound);
    }
}
