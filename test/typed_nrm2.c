/* The typed suite's nrm2 range section (typed_run.h): f64 norms of 1e200 and 1e-200 (each of the
 * three scaled sums alone and mixed), f32, f16 and bf16 at their ranges' ends, into f32 and f64:
 * through tt_case, and within a stated relative error of the long double norm. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "typed_ref.h"
#include "typed_run.h"

/* ---- nrm2 at the range limits ---- */

static int nrm2_case(tt_ctx* c, const char* what, hipreduce_dtype in, hipreduce_dtype out, const void* x, uint64_t n,
                     long double want, long double rel)
{
    uint64_t bits;
    if (tt_upload(c, in, x, NULL, n)) return 1;
    int fails = tt_case(c, what, HIPREDUCE_OP_NRM2, in, out, x, NULL, n, &bits, NULL);
    long double got;
    if (out == HIPREDUCE_F32) {
        float f;
        const uint32_t b = (uint32_t)bits;
        memcpy(&f, &b, 4);
        got = f;
    } else {
        double v;
        memcpy(&v, &bits, 8);
        got = v;
    }
    const int ok = isinf(want) ? isinf(got) && got > 0 : isfinite(got) && fabsl(got - want) <= rel * want;
    if (!ok) {
        ref_report("FAIL nrm2 range %s: %s->%s n=%llu: %.21Lg, want %.21Lg (relative error %Lg allowed)", what,
                   tr_dtype_name(in), tr_dtype_name(out), (unsigned long long)n, got, want, rel);
        ++fails;
    }
    return fails;
}

int tt_nrm2_range(tt_ctx* c)
{
    enum { N = 1000 };
    int fails = 0;
    static double d[2 * 2048 + 3];
    static float f[N];
    static uint16_t h[N];
    const long double root = sqrtl(N);
    const double values[4] = {1e200, 1e-200, 1e300, 1e-300};
    for (int k = 0; k < 4; ++k) { /* each of Blue's ranges alone, 1000 and 2 tiles + 3 elements */
        for (int i = 0; i < 2 * 2048 + 3; ++i) d[i] = i % 2 ? values[k] : -values[k];
        fails += nrm2_case(c, "f64 range", HIPREDUCE_F64, HIPREDUCE_F64, d, N, root * values[k], 1e-15L);
        fails += nrm2_case(c, "f64 range", HIPREDUCE_F64, HIPREDUCE_F64, d, 2 * 2048 + 3, sqrtl(2 * 2048 + 3) * values[k], 1e-15L);
    }
    /* Mixed ranges: big with medium, small with medium, all three. */
    for (int i = 0; i < N; ++i) d[i] = i % 3 == 0 ? 1e200 : i % 3 == 1 ? 1.0 : 1e-200;
    fails += nrm2_case(c, "f64 big+med+sml", HIPREDUCE_F64, HIPREDUCE_F64, d, N, sqrtl(334) * 1e200L, 1e-15L);
    for (int i = 0; i < N; ++i) d[i] = i % 2 ? 3e-200 : 4e-200;
    d[N / 2] = 1e-100;
    fails += nrm2_case(c, "f64 sml+med", HIPREDUCE_F64, HIPREDUCE_F64, d, N,
                       sqrtl(500 * 9e-400L + 499 * 16e-400L + 1e-200L), 1e-15L);
    for (int i = 0; i < N; ++i) d[i] = 4.9e-324; /* subnormal: the result is subnormal too, within its spacing */
    fails += nrm2_case(c, "f64 subnormal", HIPREDUCE_F64, HIPREDUCE_F64, d, N, root * 4.9406564584124654e-324L, 0.05L);
    d[0] = INFINITY;
    fails += nrm2_case(c, "f64 inf", HIPREDUCE_F64, HIPREDUCE_F64, d, N, INFINITY, 0);
    /* f32 through the f64 sum of squares: its own range, and beyond it into f64. */
    for (int i = 0; i < N; ++i) f[i] = i % 2 ? 1e30f : -1e30f;
    fails += nrm2_case(c, "f32 1e30", HIPREDUCE_F32, HIPREDUCE_F32, f, N, root * (long double)1e30f, 0x1p-23L);
    fails += nrm2_case(c, "f32 1e30", HIPREDUCE_F32, HIPREDUCE_F64, f, N, root * (long double)1e30f, 1e-15L);
    for (int i = 0; i < N; ++i) f[i] = 1e-30f;
    fails += nrm2_case(c, "f32 1e-30", HIPREDUCE_F32, HIPREDUCE_F32, f, N, root * (long double)1e-30f, 0x1p-23L);
    for (int i = 0; i < N; ++i) f[i] = FLT_MAX;
    fails += nrm2_case(c, "f32 FLT_MAX", HIPREDUCE_F32, HIPREDUCE_F64, f, N, root * (long double)FLT_MAX, 1e-15L);
    fails += nrm2_case(c, "f32 FLT_MAX", HIPREDUCE_F32, HIPREDUCE_F32, f, N, INFINITY, 0);
    for (int i = 0; i < N; ++i) f[i] = 0x1p-149f; /* the norm is subnormal in f32 too: within its spacing */
    fails += nrm2_case(c, "f32 subnormal", HIPREDUCE_F32, HIPREDUCE_F32, f, N, root * 0x1p-149L, 0.05L);
    fails += nrm2_case(c, "f32 subnormal", HIPREDUCE_F32, HIPREDUCE_F64, f, N, root * 0x1p-149L, 1e-15L);
    for (int i = 0; i < N; ++i) h[i] = 0x7bff; /* 65504 */
    fails += nrm2_case(c, "f16 65504", HIPREDUCE_F16, HIPREDUCE_F32, h, N, root * 65504, 0x1p-23L);
    for (int i = 0; i < N; ++i) h[i] = 0x0001; /* 2^-24 */
    fails += nrm2_case(c, "f16 2^-24", HIPREDUCE_F16, HIPREDUCE_F32, h, N, root * 0x1p-24L, 0x1p-23L);
    for (int i = 0; i < N; ++i) h[i] = 0x7f7f; /* bf16's largest, 0x1.fep127 */
    fails += nrm2_case(c, "bf16 max", HIPREDUCE_BF16, HIPREDUCE_F64, h, N, root * 0x1.fep127L, 1e-15L);
    fails += nrm2_case(c, "bf16 max", HIPREDUCE_BF16, HIPREDUCE_F32, h, N, INFINITY, 0);
    for (int i = 0; i < N; ++i) h[i] = 0x0001; /* 2^-133 */
    fails += nrm2_case(c, "bf16 2^-133", HIPREDUCE_BF16, HIPREDUCE_F64, h, N, root * 0x1p-133L, 1e-15L);
    printf("nrm2 range: %d failures\n", fails);
    return fails;
}
