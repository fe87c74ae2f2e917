/* The complex dtypes c64 and c128: sum, prod, dot, dotc, sum_squares (of |z|^2), nrm2 and
 * sum_exact. Every op at sizes across a tile against the suite's long double reference per
 * component (sum_exact: bit for bit against the tests' exact reference per component), on the
 * handle under test and, on a GPU, bit for bit against the cpu device; the rules: empty inputs,
 * signed zeros, infinities and canonical NaNs per component, the product's exact identity, and
 * conjugation (dotc(x, x) has imaginary part +0.0, dotc(x, y) = conj(dotc(y, x)), dot(x, y) has the
 * bits of dotc(conj(x), y)); every shape (complex_shapes.c); bad inputs, each a status, a message
 * and nothing written.
 * Usage: hipreduce_test_complex cpu|gpu (gpu: GPU 0, references on the cpu device; exits 77
 * without a GPU). HIPREDUCE_TEST_PROFILE=emu/emu-smoke: fewer, smaller cases. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "complex_test.h"
#include "test_run.h"

static int is_dot(hipreduce_op op) { return op == HIPREDUCE_OP_DOT || op == HIPREDUCE_OP_DOTC; }

/* Case c over n random elements on e->run: its reference check, and on a GPU the cpu device's bits. */
static void one_size(const cx_env* e, const op_case* c, uint64_t n)
{
    const size_t elem = hipreduce_dtype_size(c->in), out = hipreduce_dtype_size(c->out);
    unsigned char* x = malloc(n * elem + 1);
    unsigned char* y = malloc(n * elem + 1);
    cx_fill(x, c->in, n, c->op == HIPREDUCE_OP_PROD);
    cx_fill(y, c->in, n, 0);
    void* dx = cx_place(e, x, n * elem);
    void* dy = cx_place(e, y, n * elem);
    unsigned char got[16], want[16];
    memset(got, 0xa5, sizeof got);
    hipreduce_status st = cx_call(e->run, c, dx, is_dot(c->op) ? dy : NULL, n, got);
    CHECK(st == HIPREDUCE_STATUS_SUCCESS, "%s of %s into %s, n %llu: %s", hipreduce_op_name(c->op),
          hipreduce_dtype_name(c->in), hipreduce_dtype_name(c->out), (unsigned long long)n,
          hipreduce_last_error_message(e->run));
    cx_check_value(c, x, is_dot(c->op) ? y : NULL, n, got, e->gpu ? "gpu" : "cpu");
    if (e->gpu) {
        st = cx_call(e->cpu, c, x, is_dot(c->op) ? y : NULL, n, want);
        CHECK(st == HIPREDUCE_STATUS_SUCCESS && memcmp(got, want, out) == 0, "%s of %s into %s, n %llu: gpu bits differ",
              hipreduce_op_name(c->op), hipreduce_dtype_name(c->in), hipreduce_dtype_name(c->out), (unsigned long long)n);
    }
    cx_release(e, dx), cx_release(e, dy);
    free(x), free(y);
}

/* Runs c over the given host elements on e->run (copied to the GPU there) into got. */
static hipreduce_status run_on(const cx_env* e, const op_case* c, const void* x, const void* y, uint64_t n, void* got)
{
    const size_t bytes = n * hipreduce_dtype_size(c->in);
    void* dx = cx_place(e, x, bytes);
    void* dy = y ? cx_place(e, y, bytes) : NULL;
    const hipreduce_status st = cx_call(e->run, c, dx, dy, n, got);
    cx_release(e, dx);
    if (y) cx_release(e, dy);
    return st;
}

static uint64_t bits64(const void* p, int k)
{
    uint64_t b;
    memcpy(&b, (const unsigned char*)p + 8 * k, 8);
    return b;
}
static uint32_t bits32(const void* p, int k)
{
    uint32_t b;
    memcpy(&b, (const unsigned char*)p + 4 * k, 4);
    return b;
}

/* The rules of the header's complex block, on c128 and c64. */
static void rules(const cx_env* e)
{
    const op_case sum = {HIPREDUCE_OP_SUM, HIPREDUCE_C128, HIPREDUCE_C128};
    const op_case prod = {HIPREDUCE_OP_PROD, HIPREDUCE_C128, HIPREDUCE_C128};
    const op_case nrm2 = {HIPREDUCE_OP_NRM2, HIPREDUCE_C128, HIPREDUCE_F64};
    const op_case sum32 = {HIPREDUCE_OP_SUM, HIPREDUCE_C64, HIPREDUCE_C64};
    const op_case exact = {HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_C128, HIPREDUCE_C128};
    double z[8], r[2];
    float f[8], g[2];
    /* empty: sums +0.0 + 0i, the product 1 + 0i, nrm2 +0.0 */
    CHECK(run_on(e, &sum, z, NULL, 0, r) == 0 && bits64(r, 0) == 0 && bits64(r, 1) == 0, "empty sum");
    CHECK(run_on(e, &exact, z, NULL, 0, r) == 0 && bits64(r, 0) == 0 && bits64(r, 1) == 0, "empty sum_exact");
    CHECK(run_on(e, &prod, z, NULL, 0, r) == 0 && r[0] == 1.0 && bits64(r, 1) == 0, "empty prod");
    CHECK(run_on(e, &nrm2, z, NULL, 0, r) == 0 && bits64(r, 0) == 0, "empty nrm2");
    /* signed zeros: a sum of -0.0 stays -0.0 per component; the product's identity is exact */
    z[0] = -0.0, z[1] = -0.0, z[2] = -0.0, z[3] = 0.0;
    CHECK(run_on(e, &sum, z, NULL, 2, r) == 0 && bits64(r, 0) == UINT64_C(0x8000000000000000) && bits64(r, 1) == 0,
          "sum of (-0, -0) and (-0, +0)");
    z[0] = INFINITY, z[1] = -0.0;
    CHECK(run_on(e, &prod, z, NULL, 1, r) == 0 && r[0] == INFINITY && bits64(r, 1) == UINT64_C(0x8000000000000000),
          "prod of (inf, -0): got (%g, %g)", r[0], r[1]);
    /* NaN per component, canonical; an infinity in one component leaves the other finite */
    z[0] = 1.0, z[1] = NAN, z[2] = 2.0, z[3] = INFINITY;
    CHECK(run_on(e, &sum, z, NULL, 2, r) == 0 && r[0] == 3.0 && bits64(r, 1) == UINT64_C(0x7ff8000000000000),
          "sum of (1, nan), (2, inf)");
    CHECK(run_on(e, &exact, z, NULL, 2, r) == 0 && r[0] == 3.0 && bits64(r, 1) == UINT64_C(0x7ff8000000000000),
          "sum_exact of (1, nan), (2, inf)");
    f[0] = -NAN, f[1] = 1.0f, f[2] = 1.0f, f[3] = -INFINITY, f[4] = 0.5f, f[5] = -INFINITY;
    CHECK(run_on(e, &sum32, f, NULL, 3, g) == 0 && bits32(g, 0) == 0x7fc00000u && g[1] == -INFINITY,
          "c64 sum of (-nan, 1), (1, -inf), (0.5, -inf)");
    z[0] = INFINITY, z[1] = 0.0, z[2] = 3.0, z[3] = 4.0;
    CHECK(run_on(e, &nrm2, z, NULL, 2, r) == 0 && r[0] == INFINITY, "nrm2 with an infinity");
    z[0] = 3e300, z[1] = 4e300, z[2] = 3e-300, z[3] = 4e-300;
    CHECK(run_on(e, &nrm2, z, NULL, 1, r) == 0 && fabs(r[0] - 5e300) <= 2e285, "nrm2 of 3e300 + 4e300i: %g", r[0]);
    CHECK(run_on(e, &nrm2, z + 2, NULL, 1, r) == 0 && fabs(r[0] - 5e-300) <= 2e-315, "nrm2 of 3e-300 + 4e-300i: %g", r[0]);
}

/* Conjugation: dotc(x, x) = (sum |x|^2, +0.0); dotc(x, y) = conj(dotc(y, x)); dot(x, y) has the
 * bits of dotc(conj(x), y). */
static void conjugation(const cx_env* e, hipreduce_dtype d, uint64_t n)
{
    const hipreduce_dtype out = d;
    const op_case dotc = {HIPREDUCE_OP_DOTC, d, out}, dot = {HIPREDUCE_OP_DOT, d, out};
    const size_t elem = hipreduce_dtype_size(d);
    unsigned char* x = malloc(n * elem), *y = malloc(n * elem), *cx = malloc(n * elem);
    cx_fill(x, d, n, 0);
    cx_fill(y, d, n, 0);
    memcpy(cx, x, n * elem);
    for (uint64_t i = 0; i < n; ++i) { /* conj: flip the imaginary part's sign bit */
        cx[i * elem + elem - 1] ^= 0x80;
    }
    unsigned char a[16], b[16];
    CHECK(run_on(e, &dotc, x, x, n, a) == 0, "dotc(x, x)");
    const double im = d == HIPREDUCE_C64 ? ((float*)a)[1] : ((double*)a)[1];
    CHECK(im == 0.0 && !signbit(im), "%s dotc(x, x): imaginary part %g", hipreduce_dtype_name(d), im);
    CHECK(run_on(e, &dotc, x, y, n, a) == 0 && run_on(e, &dotc, y, x, n, b) == 0, "dotc(x, y), dotc(y, x)");
    for (int k = 0; k < 2; ++k) {
        const double p = d == HIPREDUCE_C64 ? ((float*)a)[k] : ((double*)a)[k];
        const double q = d == HIPREDUCE_C64 ? ((float*)b)[k] : ((double*)b)[k];
        CHECK(p == (k ? -q : q), "%s n %llu: dotc(x, y) component %d = %.17g, dotc(y, x)'s %.17g", hipreduce_dtype_name(d),
              (unsigned long long)n, k, p, q);
    }
    CHECK(run_on(e, &dot, x, y, n, a) == 0 && run_on(e, &dotc, cx, y, n, b) == 0 && memcmp(a, b, elem) == 0,
          "%s n %llu: dot(x, y) differs from dotc(conj(x), y)", hipreduce_dtype_name(d), (unsigned long long)n);
    free(x), free(y), free(cx);
}

/* Each bad input: its status, a message naming it, and the result left as it was. */
static void bad_input(hipreduce_handle h, hipreduce_status want, hipreduce_status got, const unsigned char* result,
                      const char* needle, const char* what)
{
    const char* m = hipreduce_last_error_message(h);
    int untouched = 1;
    for (int i = 0; i < 16; ++i) untouched &= result[i] == 0x5a;
    CHECK(got == want && strstr(m, needle) != NULL && untouched, "%s: status %d (want %d), message \"%s\" (want \"%s\")%s",
          what, (int)got, (int)want, m, needle, untouched ? "" : ", result written");
}

static void bad_inputs(hipreduce_handle h, int e_gpu)
{
    const hipreduce_status MISMATCH = HIPREDUCE_STATUS_OP_DTYPE_MISMATCH;
    unsigned char r[16];
    double x[4] = {1, 2, 3, 4};
    int64_t index;
    memset(r, 0x5a, sizeof r);
#define BAD(want, call, needle) bad_input(h, want, call, r, needle, #call)
    BAD(MISMATCH, hipreduce_reduce(h, HIPREDUCE_OP_MIN, HIPREDUCE_C64, x, 2, HIPREDUCE_C64, r, 0),
        "min does not apply to c64 input");
    BAD(MISMATCH, hipreduce_reduce(h, HIPREDUCE_OP_SUM_ABS, HIPREDUCE_C128, x, 2, HIPREDUCE_F64, r, 0),
        "sum_abs does not apply to c128 input");
    BAD(MISMATCH, hipreduce_reduce(h, HIPREDUCE_OP_MEAN, HIPREDUCE_C128, x, 2, HIPREDUCE_C128, r, 0),
        "mean does not apply to c128 input");
    BAD(MISMATCH, hipreduce_argreduce(h, HIPREDUCE_OP_ARGMAX, HIPREDUCE_C64, x, 2, r, &index, 0),
        "argmax does not apply to c64 input");
    BAD(MISMATCH, hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_C64, x, 2, HIPREDUCE_F32, r, 0),
        "sum of c64: result dtype f32 not allowed, use c64 or c128");
    BAD(MISMATCH, hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_C128, x, 2, HIPREDUCE_C64, r, 0),
        "sum of c128: result dtype c64 not allowed, use c128");
    BAD(MISMATCH, hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F64, x, 2, HIPREDUCE_C128, r, 0),
        "sum of f64: result dtype c128 not allowed, use f64");
    BAD(MISMATCH, hipreduce_reduce(h, HIPREDUCE_OP_SUM_SQUARES, HIPREDUCE_C128, x, 2, HIPREDUCE_F32, r, 0),
        "sum_squares of c128: result dtype f32 not allowed, use f64");
    BAD(MISMATCH, hipreduce_dot_op(h, HIPREDUCE_OP_DOTC, HIPREDUCE_F64, x, x, 2, HIPREDUCE_F64, r, 0),
        "dotc does not apply to f64 input: dotc takes c64 or c128");
    BAD(MISMATCH, hipreduce_dot_op(h, HIPREDUCE_OP_DOT_EXACT, HIPREDUCE_C64, x, x, 2, HIPREDUCE_C64, r, 0),
        "dot_exact does not apply to c64 input");
    BAD(MISMATCH, hipreduce_reduce(h, HIPREDUCE_OP_DOTC, HIPREDUCE_C64, x, 2, HIPREDUCE_C64, r, 0),
        "dotc is the op of its own call: call hipreduce_dot_op");
    BAD(HIPREDUCE_STATUS_INVALID_DTYPE, hipreduce_reduce(h, HIPREDUCE_OP_SUM, (hipreduce_dtype)14, x, 2, HIPREDUCE_C64, r, 0),
        "in_dtype 14 is not a hipreduce_dtype (0 to 13)");
    BAD(HIPREDUCE_STATUS_INVALID_POINTER, hipreduce_dot_op(h, HIPREDUCE_OP_DOTC, HIPREDUCE_C64, x, NULL, 2, HIPREDUCE_C64, r, 0),
        "is NULL");
    const uint64_t offsets[3] = {0, 2, 1};
    if (!e_gpu) /* host offsets are checked on a CPU handle only */
        BAD(HIPREDUCE_STATUS_INVALID_OFFSETS,
            hipreduce_reduce_segments(h, HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_C64, x, 2, offsets, HIPREDUCE_C64, r, 0),
            "offsets");
#undef BAD
}

int main(int argc, char** argv)
{
    rng = UINT64_C(0x6a09e667f3bcc909);
    const int gpu = test_wants_gpu(argc, argv);
    if (gpu < 0) return 2;
    cx_env e = {.gpu = gpu};
    const int opened = open_handles(gpu, &e.cpu, &e.run);
    if (opened) return opened;
    const enum test_profile profile = test_profile();
    const uint64_t sizes[] = {0, 1, 2, 3, 7, 64, 255, 1024, 2047, 2048, 2049, 5000, 70001, 300000};
    const int count = profile == TEST_EMU_SMOKE ? 10 : profile == TEST_EMU ? 12 : 14;
    for (int c = 0; c < cx_case_count; ++c)
        for (int s = 0; s < count; ++s) {
            if (cx_cases[c].op == HIPREDUCE_OP_PROD && sizes[s] > 2049) continue; /* |product| stays in range */
            one_size(&e, &cx_cases[c], sizes[s]);
        }
    rules(&e);
    conjugation(&e, HIPREDUCE_C64, 3001);
    conjugation(&e, HIPREDUCE_C128, 5000);
    cx_shapes(&e, profile == TEST_FULL ? 4 : 1);
    bad_inputs(e.run, gpu);
    hipreduce_destroy(e.run);
    if (gpu) hipreduce_destroy(e.cpu);
    failures += cx_ref_failures() + cx_shape_failures();
    printf("complex (%s): %d cases, %d sizes each, %d failures\n", gpu ? "gpu" : "cpu", cx_case_count, count, failures);
    return failures ? 1 : 0;
}
