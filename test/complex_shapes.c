/* The complex suite's shapes: axis rows, segments, tensor plans (a transposed view, dotc with two
 * strided inputs) and by-key plans, each result bit for bit the simple call over its elements
 * gathered by the test (on the cpu device: so a GPU's results are compared with it too); axis
 * columns (the strided order) against the long double reference and, on a GPU, the cpu device's
 * bits. */
#include <stdlib.h>
#include <string.h>

#include "complex_test.h"

int cx_shape_failures(void) { return failures; }

static int is_dot(hipreduce_op op) { return op == HIPREDUCE_OP_DOT || op == HIPREDUCE_OP_DOTC; }

/* Result `got` of c must have the bits of the simple call over the elements idx[0 .. count) of x
 * (and y) on the cpu device. */
static void check_slice(const cx_env* e, const op_case* c, const unsigned char* x, const unsigned char* y,
                        const uint64_t* idx, uint64_t count, const unsigned char* got, const char* what)
{
    const size_t elem = hipreduce_dtype_size(c->in), out = hipreduce_dtype_size(c->out);
    unsigned char* sx = malloc(count * elem + 1);
    unsigned char* sy = malloc(count * elem + 1);
    for (uint64_t k = 0; k < count; ++k) {
        memcpy(sx + k * elem, x + idx[k] * elem, elem);
        if (y) memcpy(sy + k * elem, y + idx[k] * elem, elem);
    }
    unsigned char want[16];
    const hipreduce_status st = cx_call(e->cpu, c, sx, y ? sy : NULL, count, want);
    CHECK(st == HIPREDUCE_STATUS_SUCCESS && memcmp(got, want, out) == 0, "%s: %s of %s into %s over %llu elements differs",
          what, hipreduce_op_name(c->op), hipreduce_dtype_name(c->in), hipreduce_dtype_name(c->out),
          (unsigned long long)count);
    free(sx), free(sy);
}

/* Rows [outer][extent] and columns [outer][extent][inner] of hipreduce_reduce_axis. */
static void axis(const cx_env* e, const op_case* c, uint64_t outer, uint64_t extent, uint64_t inner,
                 const unsigned char* x, uint64_t* idx)
{
    const size_t elem = hipreduce_dtype_size(c->in), out = hipreduce_dtype_size(c->out);
    const uint64_t n = outer * extent * inner, results = outer * inner;
    void* dx = cx_place(e, x, n * elem);
    unsigned char* got = malloc(results * out), *want = malloc(results * out);
    void* dr = cx_place(e, got, results * out);
    hipreduce_status st = hipreduce_reduce_axis(e->run, c->op, c->in, dx, outer, extent, inner, c->out, dr,
                                                e->gpu ? HIPREDUCE_RESULT_DEVICE : HIPREDUCE_RESULT_HOST);
    CHECK(st == HIPREDUCE_STATUS_SUCCESS, "axis: %s", hipreduce_last_error_message(e->run));
    cx_fetch(e, got, dr, results * out);
    unsigned char* column = malloc(extent * elem + 1);
    for (uint64_t o = 0; o < outer; ++o)
        for (uint64_t i = 0; i < inner; ++i) {
            for (uint64_t k = 0; k < extent; ++k) idx[k] = (o * extent + k) * inner + i;
            const unsigned char* r = got + (o * inner + i) * out;
            if (inner == 1) {
                check_slice(e, c, x, NULL, idx, extent, r, "axis row");
                continue;
            }
            for (uint64_t k = 0; k < extent; ++k) memcpy(column + k * elem, x + idx[k] * elem, elem);
            cx_check_value(c, column, NULL, extent, r, "axis column");
        }
    if (e->gpu && inner > 1) {
        st = hipreduce_reduce_axis(e->cpu, c->op, c->in, x, outer, extent, inner, c->out, want, HIPREDUCE_RESULT_HOST);
        CHECK(st == HIPREDUCE_STATUS_SUCCESS && memcmp(got, want, results * out) == 0, "axis columns: gpu bits differ");
    }
    cx_release(e, dx), cx_release(e, dr);
    free(got), free(want), free(column);
}

/* CSR segments of random lengths (some empty). */
static void segments(const cx_env* e, const op_case* c, uint64_t n, const unsigned char* x, uint64_t* idx)
{
    enum { SEGS = 6 };
    const size_t elem = hipreduce_dtype_size(c->in), out = hipreduce_dtype_size(c->out);
    uint64_t offsets[SEGS + 1] = {0};
    for (int s = 1; s < SEGS; ++s) offsets[s] = offsets[s - 1] + (below(4) ? below(n / 3 + 1) : 0);
    offsets[SEGS] = n;
    for (int s = 1; s < SEGS; ++s)
        if (offsets[s] > n) offsets[s] = n;
    void* dx = cx_place(e, x, n * elem);
    void* doff = cx_place(e, offsets, sizeof offsets);
    unsigned char got[SEGS * 16];
    void* dr = cx_place(e, got, sizeof got);
    hipreduce_status st = hipreduce_reduce_segments(e->run, c->op, c->in, dx, SEGS, doff, c->out, dr,
                                                    e->gpu ? HIPREDUCE_RESULT_DEVICE : HIPREDUCE_RESULT_HOST);
    CHECK(st == HIPREDUCE_STATUS_SUCCESS, "segments: %s", hipreduce_last_error_message(e->run));
    cx_fetch(e, got, dr, SEGS * out);
    for (int s = 0; s < SEGS; ++s) {
        for (uint64_t k = offsets[s]; k < offsets[s + 1]; ++k) idx[k - offsets[s]] = k;
        check_slice(e, c, x, NULL, idx, offsets[s + 1] - offsets[s], got + s * out, "segment");
    }
    cx_release(e, dx), cx_release(e, doff), cx_release(e, dr);
}

/* A plan: the columns of a row-major [a][b] array reduced (axis 0 of the transposed view), and for
 * dot/dotc both inputs so; each result the simple call over the column. */
static void tensor(const cx_env* e, const op_case* c, uint64_t a, uint64_t b, const unsigned char* x,
                   const unsigned char* y, uint64_t* idx)
{
    const size_t elem = hipreduce_dtype_size(c->in), out = hipreduce_dtype_size(c->out);
    const uint64_t ext[2] = {b, a};
    hipreduce_reduction_desc d;
    CHECK(hipreduce_desc_init(&d, c->op, c->in, c->out, 2, ext) == HIPREDUCE_STATUS_SUCCESS, "desc_init");
    d.x_strides[0] = d.y_strides[0] = 1, d.x_strides[1] = d.y_strides[1] = (int64_t)b;
    d.num_axes = 1, d.axes[0] = 1;
    hipreduce_plan plan;
    hipreduce_status st = hipreduce_plan_create(e->run, &d, &plan);
    CHECK(st == HIPREDUCE_STATUS_SUCCESS, "plan_create: %s", hipreduce_last_error_message(e->run));
    if (st != HIPREDUCE_STATUS_SUCCESS) return;
    unsigned char* got = malloc(b * out);
    void* dx = cx_place(e, x, a * b * elem);
    void* dy = cx_place(e, y, a * b * elem);
    void* dr = cx_place(e, got, b * out);
    hipreduce_operands ops = {.x = dx, .y = is_dot(c->op) ? dy : NULL, .values = dr};
    st = hipreduce_plan_run(e->run, plan, &ops, e->gpu ? HIPREDUCE_RESULT_DEVICE : HIPREDUCE_RESULT_HOST);
    CHECK(st == HIPREDUCE_STATUS_SUCCESS, "plan_run: %s", hipreduce_last_error_message(e->run));
    cx_fetch(e, got, dr, b * out);
    for (uint64_t j = 0; j < b; ++j) {
        for (uint64_t k = 0; k < a; ++k) idx[k] = k * b + j;
        check_slice(e, c, x, is_dot(c->op) ? y : NULL, idx, a, got + j * out, "tensor");
    }
    hipreduce_plan_destroy(plan);
    cx_release(e, dx), cx_release(e, dy), cx_release(e, dr);
    free(got);
}

/* A by-key plan: `length` rows of 2 values into 3 bins by random keys. */
static void by_key(const cx_env* e, const op_case* c, uint64_t length, const unsigned char* x, uint64_t* idx)
{
    enum { ROW = 2, BINS = 3 };
    const size_t elem = hipreduce_dtype_size(c->in), out = hipreduce_dtype_size(c->out);
    int64_t* keys = malloc(length * 8 + 8);
    for (uint64_t i = 0; i < length; ++i) keys[i] = (int64_t)below(BINS);
    hipreduce_reduction_desc d;
    memset(&d, 0, sizeof d);
    d.op = c->op, d.in_dtype = c->in, d.out_dtype = c->out, d.layout = HIPREDUCE_LAYOUT_BY_KEY;
    d.length = length, d.row = ROW, d.num_bins = BINS, d.key_dtype = HIPREDUCE_I64;
    hipreduce_plan plan;
    hipreduce_status st = hipreduce_plan_create(e->run, &d, &plan);
    CHECK(st == HIPREDUCE_STATUS_SUCCESS, "by-key plan_create: %s", hipreduce_last_error_message(e->run));
    unsigned char got[BINS * ROW * 16];
    void* dx = cx_place(e, x, length * ROW * elem);
    void* dk = cx_place(e, keys, length * 8);
    void* dr = cx_place(e, got, sizeof got);
    hipreduce_operands ops = {.x = dx, .keys = dk, .values = dr};
    if (st == HIPREDUCE_STATUS_SUCCESS) {
        st = hipreduce_plan_run(e->run, plan, &ops, e->gpu ? HIPREDUCE_RESULT_DEVICE : HIPREDUCE_RESULT_HOST);
        CHECK(st == HIPREDUCE_STATUS_SUCCESS, "by-key plan_run: %s", hipreduce_last_error_message(e->run));
        cx_fetch(e, got, dr, BINS * ROW * out);
        for (uint64_t bin = 0; bin < BINS; ++bin)
            for (uint64_t j = 0; j < ROW; ++j) {
                uint64_t count = 0;
                for (uint64_t i = 0; i < length; ++i)
                    if ((uint64_t)keys[i] == bin) idx[count++] = i * ROW + j;
                check_slice(e, c, x, NULL, idx, count, got + (bin * ROW + j) * out, "by key");
            }
        hipreduce_plan_destroy(plan);
    }
    cx_release(e, dx), cx_release(e, dk), cx_release(e, dr);
    free(keys);
}

void cx_shapes(const cx_env* e, int rounds)
{
    enum { MAX_N = 30000 };
    unsigned char* x = malloc(MAX_N * 16);
    unsigned char* y = malloc(MAX_N * 16);
    uint64_t* idx = malloc(MAX_N * sizeof(uint64_t));
    for (int r = 0; r < rounds; ++r)
        for (int k = 0; k < cx_case_count; ++k) {
            const op_case* c = &cx_cases[k];
            const int prod = c->op == HIPREDUCE_OP_PROD;
            cx_fill(x, c->in, MAX_N, prod);
            cx_fill(y, c->in, MAX_N, 0);
            if (!is_dot(c->op)) {
                const uint64_t extent = 1 + below(prod ? 600 : 5000);
                axis(e, c, 3, extent, 1, x, idx);
                axis(e, c, 2, extent % 2900 + 1, 1 + below(5), x, idx);
                segments(e, c, 1 + below(prod ? 600 : 9000), x, idx);
                by_key(e, c, below(prod ? 300 : 4000), x, idx);
            }
            tensor(e, c, 1 + below(prod ? 300 : 2500), 1 + below(7), x, y, idx);
        }
    free(x), free(y), free(idx);
}
