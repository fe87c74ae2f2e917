/* nanargmin and nanargmax (f16, bf16, f32, f64) against the suite's own reference, written from
 * the header: the first index of the least (greatest) element that is not NaN, -0.0 below +0.0,
 * infinities as values; a slice of NaNs only: the canonical NaN and index 0; n == 0: index -1 and
 * +inf (-inf). Every shape a user reaches them by: the full call, rows and strided slices
 * (hipreduce_argreduce_axis), CSR segments, and plans over a rank-3 tensor reducing two axes,
 * on data with no NaN, a few, most and only NaNs, ties and signed zeros. The reference is exact,
 * so passing on every device is the same bits on every device. Then bad inputs: integer dtypes
 * and the wrong call, each a status and a message with nothing written.
 * Usage: hipreduce_test_nanarg cpu|gpu (gpu: GPU 0, exits 77 without one).
 * HIPREDUCE_TEST_PROFILE=emu/emu-smoke: fewer, smaller cases. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_env.h"
#include "hipreduce/hipreduce.h"
#include "test_check.h"
#include "test_run.h"


static const hipreduce_dtype dtypes[] = {HIPREDUCE_F16, HIPREDUCE_BF16, HIPREDUCE_F32, HIPREDUCE_F64};
static const hipreduce_op ops[] = {HIPREDUCE_OP_NANARGMIN, HIPREDUCE_OP_NANARGMAX};

/* ---- elements as doubles and bits ---- */

static double value_of(hipreduce_dtype d, const unsigned char* p)
{
    uint16_t h;
    float f;
    double v;
    switch (d) {
    case HIPREDUCE_F16: memcpy(&h, p, 2); return hipreduce_f16_to_f32(h);
    case HIPREDUCE_BF16: memcpy(&h, p, 2); return hipreduce_bf16_to_f32(h);
    case HIPREDUCE_F32: memcpy(&f, p, 4); return f;
    default: memcpy(&v, p, 8); return v;
    }
}

static void put(hipreduce_dtype d, unsigned char* p, double v)
{
    const uint16_t h = d == HIPREDUCE_F16 ? hipreduce_f32_to_f16((float)v) : hipreduce_f32_to_bf16((float)v);
    const float f = (float)v;
    if (d == HIPREDUCE_F16 || d == HIPREDUCE_BF16) memcpy(p, &h, 2);
    else if (d == HIPREDUCE_F32) memcpy(p, &f, 4);
    else memcpy(p, &v, 8);
}

/* The canonical NaN's and +-infinity's bits (hipreduce.h), in the dtype's width. */
static uint64_t nan_bits(hipreduce_dtype d)
{
    return d == HIPREDUCE_F16 ? 0x7e00u : d == HIPREDUCE_BF16 ? 0x7fc0u : d == HIPREDUCE_F32 ? 0x7fc00000u : 0x7ff8000000000000ull;
}
static uint64_t inf_bits(hipreduce_dtype d, int negative)
{
    const uint64_t inf = d == HIPREDUCE_F16 ? 0x7c00u : d == HIPREDUCE_BF16 ? 0x7f80u : d == HIPREDUCE_F32 ? 0x7f800000u : 0x7ff0000000000000ull;
    const int bits = 8 * (int)hipreduce_dtype_size(d);
    return negative ? inf | 1ull << (bits - 1) : inf;
}
static uint64_t bits_at(hipreduce_dtype d, const unsigned char* p)
{
    uint64_t b = 0;
    memcpy(&b, p, hipreduce_dtype_size(d)); /* little-endian hosts */
    return b;
}

/* n elements of values from a short list (ties, signed zeros, infinities), each a NaN with
 * probability nan_percent (a quiet NaN of either sign, or a signalling one's payload). */
static void fill(hipreduce_dtype d, unsigned char* x, uint64_t n, unsigned nan_percent)
{
    static const double pool[] = {-INFINITY, -3.5, -1.0, -0.0, 0.0, 0.25, 1.0, 2.0, 7.0, INFINITY};
    const size_t e = hipreduce_dtype_size(d);
    for (uint64_t i = 0; i < n; ++i) {
        if (below(100) < nan_percent) {
            put(d, x + i * e, below(2) ? NAN : -NAN);
            continue;
        }
        /* mostly the middle of the pool, so that the extremes are rare and tied now and then */
        const size_t k = below(8) ? 1 + below(8) : below(10);
        put(d, x + i * e, pool[k] + (below(4) == 0 ? (double)below(64) / 16.0 : 0.0));
    }
}

/* ---- the reference ---- */

typedef struct expect {
    uint64_t bits;
    int64_t index;
} expect;

/* Whether a (not NaN) orders before b for op: value order, -0.0 below +0.0. */
static int before(hipreduce_op op, double a, double b)
{
    if (a == b && a == 0 && signbit(a) != signbit(b)) return (signbit(a) != 0) == (op == HIPREDUCE_OP_NANARGMIN);
    return op == HIPREDUCE_OP_NANARGMIN ? a < b : a > b;
}

/* The slice of n elements at x + start * stride (in elements). */
static expect reference(hipreduce_op op, hipreduce_dtype d, const unsigned char* x, uint64_t n, uint64_t stride)
{
    const size_t e = hipreduce_dtype_size(d);
    expect r = {inf_bits(d, op == HIPREDUCE_OP_NANARGMAX), -1};
    if (n == 0) return r;
    r.index = 0, r.bits = nan_bits(d);
    int found = 0;
    double best = 0;
    for (uint64_t i = 0; i < n; ++i) {
        const unsigned char* p = x + i * stride * e;
        const double v = value_of(d, p);
        if (v != v) continue;
        if (!found || before(op, v, best)) found = 1, best = v, r.index = (int64_t)i, r.bits = bits_at(d, p);
    }
    return r;
}

/* ---- the calls ---- */


/* Checks `results` results (values, indices) against the reference of each slice. */
static void check(hipreduce_op op, hipreduce_dtype d, const char* shape, const unsigned char* values,
                  const int64_t* indices, const expect* want, uint64_t results)
{
    const size_t e = hipreduce_dtype_size(d);
    for (uint64_t k = 0; k < results; ++k) {
        const uint64_t got = bits_at(d, values + k * e);
        CHECK(got == want[k].bits && indices[k] == want[k].index,
              "%s %s %s: result %" PRIu64 " is (0x%" PRIx64 ", %" PRId64 "), want (0x%" PRIx64 ", %" PRId64 ")",
              hipreduce_op_name(op), hipreduce_dtype_name(d), shape, k, got, indices[k], want[k].bits, want[k].index);
    }
}

static void full(const env* e, hipreduce_op op, hipreduce_dtype d, uint64_t n, unsigned nan_percent)
{
    const size_t es = hipreduce_dtype_size(d);
    unsigned char* x = malloc(n ? n * es : 1);
    fill(d, x, n, nan_percent);
    const expect want = reference(op, d, x, n, 1);
    unsigned char value[8] = {0};
    int64_t index = -2;
    void* dx = place(e, x, n ? n * es : 1);
    const hipreduce_status st = hipreduce_argreduce(e->run, op, d, dx, n, value, &index, HIPREDUCE_RESULT_HOST);
    char shape[64];
    snprintf(shape, sizeof shape, "full %" PRIu64 " (%u%% NaN)", n, nan_percent);
    CHECK(st == HIPREDUCE_STATUS_SUCCESS, "%s: %s", shape, hipreduce_last_error_message(e->run));
    if (st == HIPREDUCE_STATUS_SUCCESS) check(op, d, shape, value, &index, &want, 1);
    release(e, dx);
    free(x);
}

/* [outer][extent][inner] over the middle axis: rows (inner 1) and strided slices. */
static void axis(const env* e, hipreduce_op op, hipreduce_dtype d, uint64_t outer, uint64_t extent, uint64_t inner,
                 unsigned nan_percent)
{
    const size_t es = hipreduce_dtype_size(d);
    const uint64_t n = outer * extent * inner, results = outer * inner;
    unsigned char* x = malloc(n ? n * es : 1);
    fill(d, x, n, nan_percent);
    expect* want = malloc((results ? results : 1) * sizeof *want);
    for (uint64_t o = 0; o < outer; ++o)
        for (uint64_t i = 0; i < inner; ++i) want[o * inner + i] = reference(op, d, x + (o * extent * inner + i) * es, extent, inner);
    unsigned char* values = malloc((results ? results : 1) * es);
    int64_t* indices = malloc((results ? results : 1) * sizeof *indices);
    void* dx = place(e, x, n ? n * es : 1);
    const hipreduce_status st = hipreduce_argreduce_axis(e->run, op, d, dx, outer, extent, inner, values, indices, HIPREDUCE_RESULT_HOST);
    char shape[96];
    snprintf(shape, sizeof shape, "axis [%" PRIu64 "][%" PRIu64 "][%" PRIu64 "] (%u%% NaN)", outer, extent, inner, nan_percent);
    CHECK(st == HIPREDUCE_STATUS_SUCCESS, "%s: %s", shape, hipreduce_last_error_message(e->run));
    if (st == HIPREDUCE_STATUS_SUCCESS) check(op, d, shape, values, indices, want, results);
    release(e, dx);
    free(x), free(want), free(values), free(indices);
}

static void segments(const env* e, hipreduce_op op, hipreduce_dtype d, uint64_t count, uint64_t longest, unsigned nan_percent)
{
    const size_t es = hipreduce_dtype_size(d);
    uint64_t* offsets = malloc((count + 1) * sizeof *offsets);
    offsets[0] = 0;
    for (uint64_t s = 0; s < count; ++s) offsets[s + 1] = offsets[s] + (below(6) == 0 ? 0 : below(longest + 1));
    const uint64_t n = offsets[count];
    unsigned char* x = malloc(n ? n * es : 1);
    fill(d, x, n, nan_percent);
    expect* want = malloc((count ? count : 1) * sizeof *want);
    for (uint64_t s = 0; s < count; ++s) want[s] = reference(op, d, x + offsets[s] * es, offsets[s + 1] - offsets[s], 1);
    unsigned char* values = malloc((count ? count : 1) * es);
    int64_t* indices = malloc((count ? count : 1) * sizeof *indices);
    void* dx = place(e, x, n ? n * es : 1);
    uint64_t* doff = place(e, offsets, (count + 1) * sizeof *offsets);
    const hipreduce_status st = hipreduce_argreduce_segments(e->run, op, d, dx, count, doff, values, indices, HIPREDUCE_RESULT_HOST);
    char shape[96];
    snprintf(shape, sizeof shape, "%" PRIu64 " segments up to %" PRIu64 " (%u%% NaN)", count, longest, nan_percent);
    CHECK(st == HIPREDUCE_STATUS_SUCCESS, "%s: %s", shape, hipreduce_last_error_message(e->run));
    if (st == HIPREDUCE_STATUS_SUCCESS) check(op, d, shape, values, indices, want, count);
    release(e, dx), release(e, doff);
    free(offsets), free(x), free(want), free(values), free(indices);
}

/* A contiguous [a][b][c] tensor reduced over axes 0 and 2 by a plan: b results, each over the
 * a * c elements (i, j, k) in logical order (i outer, k inner). */
static void tensor(const env* e, hipreduce_op op, hipreduce_dtype d, uint64_t a, uint64_t b, uint64_t c, unsigned nan_percent)
{
    const size_t es = hipreduce_dtype_size(d);
    const uint64_t ext[3] = {a, b, c}, n = a * b * c, reduced = a * c;
    unsigned char* x = malloc(n ? n * es : 1);
    unsigned char* slice = malloc(reduced ? reduced * es : 1);
    fill(d, x, n, nan_percent);
    expect* want = malloc((b ? b : 1) * sizeof *want);
    for (uint64_t j = 0; j < b; ++j) {
        for (uint64_t i = 0; i < a; ++i)
            for (uint64_t k = 0; k < c; ++k) memcpy(slice + (i * c + k) * es, x + ((i * b + j) * c + k) * es, es);
        want[j] = reference(op, d, slice, reduced, 1);
    }
    hipreduce_reduction_desc desc;
    CHECK(hipreduce_desc_init(&desc, op, d, d, 3, ext) == HIPREDUCE_STATUS_SUCCESS, "desc_init");
    desc.num_axes = 2, desc.axes[0] = 2, desc.axes[1] = 0;
    hipreduce_plan plan = NULL;
    hipreduce_status st = hipreduce_plan_create(e->run, &desc, &plan);
    char shape[96];
    snprintf(shape, sizeof shape, "plan [%" PRIu64 "][%" PRIu64 "][%" PRIu64 "] over (0, 2) (%u%% NaN)", a, b, c, nan_percent);
    CHECK(st == HIPREDUCE_STATUS_SUCCESS, "%s: %s", shape, hipreduce_last_error_message(e->run));
    unsigned char* values = malloc((b ? b : 1) * es);
    int64_t* indices = malloc((b ? b : 1) * sizeof *indices);
    void* dx = place(e, x, n ? n * es : 1);
    if (plan) {
        const hipreduce_operands operands = {.x = dx, .values = values, .indices = indices};
        st = hipreduce_plan_run(e->run, plan, &operands, HIPREDUCE_RESULT_HOST);
        CHECK(st == HIPREDUCE_STATUS_SUCCESS, "%s: %s", shape, hipreduce_last_error_message(e->run));
        if (st == HIPREDUCE_STATUS_SUCCESS) check(op, d, shape, values, indices, want, b);
    }
    hipreduce_plan_destroy(plan);
    release(e, dx);
    free(x), free(slice), free(want), free(values), free(indices);
}

/* ---- bad inputs ---- */

static void bad_inputs(hipreduce_handle h)
{
    const int32_t xi[3] = {3, 1, 2};
    const float xf[3] = {3, 1, 2};
    int32_t value = 77;
    int64_t index = 77;
    hipreduce_status st = hipreduce_argreduce(h, HIPREDUCE_OP_NANARGMIN, HIPREDUCE_I32, xi, 3, &value, &index, HIPREDUCE_RESULT_HOST);
    CHECK(st == HIPREDUCE_STATUS_OP_DTYPE_MISMATCH && value == 77 && index == 77 && *hipreduce_last_error_message(h),
          "nanargmin of i32: OP_DTYPE_MISMATCH with a message, nothing written (got %s)", hipreduce_status_string(st));
    float out = 77;
    st = hipreduce_reduce(h, HIPREDUCE_OP_NANARGMAX, HIPREDUCE_F32, xf, 3, HIPREDUCE_F32, &out, HIPREDUCE_RESULT_HOST);
    CHECK(st == HIPREDUCE_STATUS_OP_DTYPE_MISMATCH && out == 77 && strstr(hipreduce_last_error_message(h), "argreduce"),
          "nanargmax through hipreduce_reduce: OP_DTYPE_MISMATCH naming argreduce (got %s: %s)", hipreduce_status_string(st),
          hipreduce_last_error_message(h));
}

int main(int argc, char** argv)
{
    env e;
    const int opened = env_open(argc, argv, &e);
    if (opened) return opened;
    const int gpu = e.gpu;
    const enum test_profile profile = test_profile();
    const uint64_t big = profile == TEST_FULL ? 3000001 : profile == TEST_EMU ? 70001 : 20001;
    const uint64_t sizes[] = {0, 1, 2, 17, 255, 4097, 16385, 3 * 16384 + 5, big};
    static const unsigned nan_percents[] = {0, 3, 60, 100};
    int cases = 0;
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; ++o)
        for (size_t t = 0; t < sizeof dtypes / sizeof dtypes[0]; ++t)
            for (size_t p = 0; p < sizeof nan_percents / sizeof nan_percents[0]; ++p) {
                const hipreduce_op op = ops[o];
                const hipreduce_dtype d = dtypes[t];
                const unsigned q = nan_percents[p];
                for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
                    if (profile != TEST_EMU_SMOKE || s % 3 == 0) full(&e, op, d, sizes[s], q), ++cases;
                axis(&e, op, d, 37, 1000, 1, q);
                axis(&e, op, d, 5, 3000, 7, q);
                axis(&e, op, d, 2, 300, 640, q);
                axis(&e, op, d, 3, 0, 4, q);
                segments(&e, op, d, 300, 50, q);
                segments(&e, op, d, 4, profile == TEST_FULL ? 200000 : 20000, q);
                tensor(&e, op, d, 9, 6, 130, q);
                tensor(&e, op, d, 3, 1, 5000, q);
                cases += 8;
            }
    bad_inputs(e.run);
    env_close(&e);
    printf("nanarg (%s): %d cases, %d failures\n", gpu ? "gpu" : "cpu", cases, failures);
    return failures ? 1 : 0;
}
