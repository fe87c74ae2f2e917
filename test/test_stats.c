/* The statistics ops (mean, nansum, nanmean, count_nonzero, all, any, var, std, var_mean,
 * std_mean, logsumexp, nanmin, nanmax, aminmax) through plans of every shape: a full reduction (to three tile levels), rows (short,
 * one tile, longer than a tile), columns (gathered; and in the strided order), rank-3 tensors over
 * two axes with permuted, padded and reversed strides, CSR segments and by key; and the simple
 * calls where the op has one. Each result: the same bits on the device under test and the cpu
 * device; a LOGICAL result the bits of the full plan over its slice alone; the cpu device's result
 * the references' (stats_ref.h: exact bits for mean, nansum, nanmean, the counts, nanmin and
 * nanmax, the header's error bounds for the moments and logsumexp; aminmax the bits of MIN and MAX
 * called alone, on the cpu device and on the device under test), on data near 1e20, with NaN,
 * infinities, constants, cancellation. STATS_WORST=1 names each case that raises the largest
 * error / bound seen.
 * Then the header's special cases and bad inputs (a status, a message, nothing written).
 * Usage: hipreduce_test_stats cpu|gpu (gpu: the plans on GPU 0, exits 77 without one).
 * HIPREDUCE_TEST_PROFILE=emu/emu-smoke: fewer, smaller cases. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_memory.h"
#include "stats_ref.h"
#include "stats_run.h"
#include "test_check.h"
#include "test_run.h"

static const hipreduce_op ops[] = {HIPREDUCE_OP_MEAN,    HIPREDUCE_OP_NANSUM, HIPREDUCE_OP_NANMEAN,  HIPREDUCE_OP_COUNT_NONZERO,
                                   HIPREDUCE_OP_ALL,     HIPREDUCE_OP_ANY,    HIPREDUCE_OP_VAR,      HIPREDUCE_OP_STD,
                                   HIPREDUCE_OP_VAR_MEAN, HIPREDUCE_OP_STD_MEAN, HIPREDUCE_OP_LOGSUMEXP, HIPREDUCE_OP_NANMIN,
                                   HIPREDUCE_OP_NANMAX, HIPREDUCE_OP_AMINMAX};
enum { OPS = sizeof ops / sizeof ops[0] };
static const hipreduce_dtype dtypes[] = {HIPREDUCE_I8,  HIPREDUCE_U8,  HIPREDUCE_I16, HIPREDUCE_U16,
                                         HIPREDUCE_I32, HIPREDUCE_U32, HIPREDUCE_I64, HIPREDUCE_U64,
                                         HIPREDUCE_F16, HIPREDUCE_BF16, HIPREDUCE_F32, HIPREDUCE_F64};

static uint64_t tile_of(hipreduce_dtype d) { return 256u * 4u * (16u / (unsigned)hipreduce_dtype_size(d)); }

/* A problem's input of `count` elements (base 0) for op's dtypes, a fresh descriptor. */
static void start(problem* p, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, uint64_t count, int kind)
{
    memset(p, 0, sizeof *p);
    p->d.op = op;
    p->d.in_dtype = in;
    p->d.out_dtype = out;
    p->d.correction = sr_corrected(op) ? (double)below(3) * (below(4) ? 1.0 : 0.5) : 0.0;
    p->count = count;
    p->x = malloc((count ? count : 1) * hipreduce_dtype_size(in));
    stats_fill(p->x, count, in, kind);
}

static void finish(problem* p)
{
    free(p->x), free(p->offsets), free(p->keys), free(p->stored_keys);
}

/* A contiguous tensor of `rank` extents reduced over `mask`; order as given. */
static void tensor(problem* p, int rank, const uint64_t* ext, unsigned mask, hipreduce_order order)
{
    const hipreduce_reduction_desc keep = p->d;
    CHECK(hipreduce_desc_init(&p->d, keep.op, keep.in_dtype, keep.out_dtype, rank, ext) == HIPREDUCE_STATUS_SUCCESS, "init");
    p->d.correction = keep.correction;
    p->d.order = order;
    p->d.num_axes = 0;
    p->mask = mask;
    p->results = 1;
    for (int a = 0; a < rank; ++a) {
        if ((mask >> a) & 1) p->d.axes[p->d.num_axes++] = a;
        else p->results *= ext[a];
    }
}

/* The simple call of a REDUCE-kind op over p's shape on the device under test: the plan's bits. */
static void simple_call(const env* e, const problem* p, const char* shape)
{
    const hipreduce_reduction_desc* d = &p->d;
    if (sr_corrected(d->op) || sr_two_outputs(d->op) || p->results == 0) return; /* plan-only ops */
    const size_t elem = hipreduce_dtype_size(d->in_dtype), out = hipreduce_dtype_size(d->out_dtype);
    unsigned char *want = malloc(p->results * out), *got = malloc(p->results * out);
    CHECK(stats_run_plan(e, e->cpu, p, want, NULL) == HIPREDUCE_STATUS_SUCCESS, "plan for the simple call");
    void* x = p->x;
    uint64_t* offsets = p->offsets;
    if (e->gpu) {
        x = gm_alloc(p->count * elem);
        CHECK(x && gm_to_device(x, p->x, p->count * elem) == 0, "device input");
        if (p->offsets) {
            offsets = gm_alloc((d->num_segments + 1) * 8);
            CHECK(offsets && gm_to_device(offsets, p->offsets, (d->num_segments + 1) * 8) == 0, "device offsets");
        }
    }
    hipreduce_status st;
    if (d->layout == HIPREDUCE_LAYOUT_SEGMENTS)
        st = hipreduce_reduce_segments(e->run, d->op, d->in_dtype, x, d->num_segments, offsets, d->out_dtype, got,
                                       HIPREDUCE_RESULT_HOST);
    else if (d->rank == 1)
        st = hipreduce_reduce(e->run, d->op, d->in_dtype, x, d->extents[0], d->out_dtype, got, HIPREDUCE_RESULT_HOST);
    else /* rows [R][E] (axis 1 of 2), or the strided [O][E][I] (axis 1 of 3) */
        st = hipreduce_reduce_axis(e->run, d->op, d->in_dtype, x, d->extents[0], d->extents[1], d->rank == 3 ? d->extents[2] : 1,
                                   d->out_dtype, got, HIPREDUCE_RESULT_HOST);
    CHECK(st == HIPREDUCE_STATUS_SUCCESS && memcmp(got, want, p->results * out) == 0, "%s %s: the simple call %s",
          hipreduce_op_name(d->op), shape, st == HIPREDUCE_STATUS_SUCCESS ? "differs from the plan" : hipreduce_last_error_message(e->run));
    if (e->gpu) {
        gm_free(x);
        if (offsets) gm_free(offsets);
    }
    free(want), free(got);
}

/* One op x dtypes case over every shape; `big`: element budget of the longer shapes. */
static void one_case(env* e, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, uint64_t big)
{
    const uint64_t tile = tile_of(in);
    problem p;
    char shape[96];
    const uint64_t fulls[] = {0, 1, 2, 17, tile - 1, tile + 1, 3 * tile + 5, big};
    for (size_t i = 0; i < sizeof fulls / sizeof fulls[0]; ++i) { /* full reductions */
        const int kind = (int)below(STATS_DATA_KINDS);
        start(&p, op, in, out, fulls[i], kind);
        tensor(&p, 1, &fulls[i], 1, HIPREDUCE_ORDER_LOGICAL);
        snprintf(shape, sizeof shape, "full %" PRIu64, fulls[i]);
        stats_solve(e, &p, shape, kind);
        if (i % 3 == 0) simple_call(e, &p, shape);
        finish(&p);
    }
    const uint64_t rows[][2] = {{33, 3}, {70, 16}, {9, 100}, {5, 1000}, {3, tile + 7}, {2, 0}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) { /* rows: axis 1 of [R][E] */
        const int kind = (int)below(STATS_DATA_KINDS);
        start(&p, op, in, out, rows[i][0] * rows[i][1], kind);
        tensor(&p, 2, rows[i], 2, HIPREDUCE_ORDER_LOGICAL);
        snprintf(shape, sizeof shape, "rows %" PRIu64 " x %" PRIu64, rows[i][0], rows[i][1]);
        stats_solve(e, &p, shape, kind);
        simple_call(e, &p, shape);
        finish(&p);
    }
    { /* columns, gathered: axis 0 of [E][C] */
        const uint64_t ext[2] = {300 + below(600), 1 + below(9)};
        const int kind = (int)below(STATS_DATA_KINDS);
        start(&p, op, in, out, ext[0] * ext[1], kind);
        tensor(&p, 2, ext, 1, HIPREDUCE_ORDER_LOGICAL);
        stats_solve(e, &p, "columns", kind);
        finish(&p);
    }
    const uint64_t strided[][3] = {{2, 700, 5}, {1, 70000, 3}, {3, 1, 4}, {4, 2, 7}, {1, 257, 16}, {2, 0, 5}};
    for (size_t i = 0; i < sizeof strided / sizeof strided[0]; ++i) { /* the strided order: axis 1 of [O][E][I] */
        if (strided[i][1] > big) continue;
        const int kind = (int)below(STATS_DATA_KINDS);
        start(&p, op, in, out, strided[i][0] * strided[i][1] * strided[i][2], kind);
        tensor(&p, 3, strided[i], 2, HIPREDUCE_ORDER_STRIDED);
        snprintf(shape, sizeof shape, "strided %" PRIu64 " x %" PRIu64 " x %" PRIu64, strided[i][0], strided[i][1], strided[i][2]);
        stats_solve(e, &p, shape, kind);
        simple_call(e, &p, shape);
        finish(&p);
    }
    { /* a rank-3 tensor over axes 0 and 2, permuted, padded and reversed strides */
        const uint64_t ext[3] = {2 + below(30), 1 + below(6), 2 + below(40)};
        const int kind = (int)below(STATS_DATA_KINDS);
        start(&p, op, in, out, 0, kind);
        tensor(&p, 3, ext, 5, HIPREDUCE_ORDER_LOGICAL);
        p.d.x_strides[1] = 1;
        p.d.x_strides[0] = -(int64_t)ext[1] - 1;                 /* reversed, with a gap */
        p.d.x_strides[2] = (int64_t)((ext[1] + 1) * ext[0] + 2); /* outermost in memory */
        p.base = (ext[0] - 1) * (ext[1] + 1);
        p.count = p.base + 1 + (ext[2] - 1) * (uint64_t)p.d.x_strides[2] + ext[1];
        free(p.x);
        p.x = malloc(p.count * hipreduce_dtype_size(in));
        stats_fill(p.x, p.count, in, kind);
        stats_solve(e, &p, "tensor (0, 2)", kind);
        finish(&p);
    }
    { /* CSR segments: empty, short, a tile and longer */
        const int kind = (int)below(STATS_DATA_KINDS);
        const uint64_t segments = 1 + below(60);
        uint64_t* offsets = malloc((segments + 1) * 8);
        offsets[0] = 0;
        for (uint64_t s = 0; s < segments; ++s) {
            const uint64_t pick = below(10);
            offsets[s + 1] = offsets[s] + (pick < 2 ? 0 : pick < 7 ? below(40) : pick < 9 ? below(tile) : tile + below(big / 4));
        }
        start(&p, op, in, out, offsets[segments], kind);
        p.offsets = offsets;
        p.d.layout = HIPREDUCE_LAYOUT_SEGMENTS;
        p.d.num_segments = segments;
        p.d.length = offsets[segments];
        p.results = segments;
        stats_solve(e, &p, "segments", kind);
        simple_call(e, &p, "segments");
        finish(&p);
    }
    { /* by key: rows of `row` values into bins */
        const int kind = (int)below(STATS_DATA_KINDS);
        const uint64_t length = 1 + below(300), row = 1 + below(5), bins = 1 + below(9);
        start(&p, op, in, out, length * row, kind);
        p.d.layout = HIPREDUCE_LAYOUT_BY_KEY;
        p.d.length = length;
        p.d.row = row;
        p.d.num_bins = bins;
        p.d.key_dtype = HIPREDUCE_I64;
        p.keys = malloc(length * 8);
        p.stored_keys = malloc(length * 8);
        for (uint64_t i = 0; i < length; ++i) p.keys[i] = (int64_t)below(bins);
        memcpy(p.stored_keys, p.keys, length * 8);
        p.results = bins * row;
        stats_solve(e, &p, "by key", kind);
        finish(&p);
    }
}

/* aminmax of n elements of d at x on the device under test (a full plan). */
static hipreduce_status aminmax_of(env* e, hipreduce_dtype d, const void* x, uint64_t n, void* lo, void* hi)
{
    problem p;
    memset(&p, 0, sizeof p);
    p.x = (unsigned char*)x;
    p.count = n;
    p.d.op = HIPREDUCE_OP_AMINMAX;
    p.d.in_dtype = p.d.out_dtype = d;
    tensor(&p, 1, &n, 1, HIPREDUCE_ORDER_LOGICAL);
    return stats_run_plan(e, e->run, &p, lo, hi);
}

/* aminmax's rules: -0.0 below +0.0, any NaN the canonical NaN in both, n == 0 the identities, the
 * integers' extremes (unsigned ones past the signed range). */
static void aminmax_cases(env* e)
{
    const float zeros[] = {0.0f, -0.0f, 0.0f}, with_nan[] = {1.0f, -NAN, 2.0f};
    float lo = 1, hi = 1;
    CHECK(aminmax_of(e, HIPREDUCE_F32, zeros, 3, &lo, &hi) == HIPREDUCE_STATUS_SUCCESS && lo == 0 && signbit(lo) &&
              hi == 0 && !signbit(hi), "aminmax: -0.0 below +0.0");
    CHECK(aminmax_of(e, HIPREDUCE_F32, with_nan, 3, &lo, &hi) == HIPREDUCE_STATUS_SUCCESS &&
              sr_bits(HIPREDUCE_F32, &lo, 0) == 0x7fc00000 && sr_bits(HIPREDUCE_F32, &hi, 0) == 0x7fc00000,
          "aminmax: a NaN (negative) gives the canonical NaN in both");
    CHECK(aminmax_of(e, HIPREDUCE_F32, zeros, 0, &lo, &hi) == HIPREDUCE_STATUS_SUCCESS && lo == INFINITY && hi == -INFINITY,
          "aminmax of nothing: +inf and -inf");
    const uint16_t halves[] = {0xfc00, 0x7bff, 0x8001}; /* f16 -inf, 65504, -2^-24 */
    uint16_t hlo = 0, hhi = 0;
    CHECK(aminmax_of(e, HIPREDUCE_F16, halves, 3, &hlo, &hhi) == HIPREDUCE_STATUS_SUCCESS && hlo == 0xfc00 && hhi == 0x7bff,
          "aminmax f16: -inf and 65504 (%#x %#x)", hlo, hhi);
    const uint64_t big[] = {UINT64_C(0x8000000000000000), 5, UINT64_MAX, 0x7fffffffffffffff};
    uint64_t ulo = 1, uhi = 1;
    CHECK(aminmax_of(e, HIPREDUCE_U64, big, 4, &ulo, &uhi) == HIPREDUCE_STATUS_SUCCESS && ulo == 5 && uhi == UINT64_MAX,
          "aminmax u64 past 2^63");
    CHECK(aminmax_of(e, HIPREDUCE_U64, big, 0, &ulo, &uhi) == HIPREDUCE_STATUS_SUCCESS && ulo == UINT64_MAX && uhi == 0,
          "aminmax u64 of nothing");
    const int8_t small[] = {-128, 127, 0, -1};
    int8_t blo = 0, bhi = 0;
    CHECK(aminmax_of(e, HIPREDUCE_I8, small, 4, &blo, &bhi) == HIPREDUCE_STATUS_SUCCESS && blo == -128 && bhi == 127,
          "aminmax i8 extremes");
    const uint32_t words[] = {0x80000000u, 0x7fffffffu, 3};
    uint32_t wlo = 1, whi = 1;
    CHECK(aminmax_of(e, HIPREDUCE_U32, words, 3, &wlo, &whi) == HIPREDUCE_STATUS_SUCCESS && wlo == 3 && whi == 0x80000000u,
          "aminmax u32 past 2^31");
}

/* The header's special cases, exactly, on the device under test. */
static void special_cases(env* e)
{
    const float f[] = {1e20f, 1.00000006e20f, 0.99999994e20f, 1e20f}; /* near 1e20: their squares overflow f32 */
    problem p;
    memset(&p, 0, sizeof p);
    const uint64_t n = 4;
    float var = 0, mean = 0;
    p.x = (unsigned char*)f;
    p.count = n;
    p.d.op = HIPREDUCE_OP_VAR_MEAN;
    p.d.in_dtype = p.d.out_dtype = HIPREDUCE_F32;
    tensor(&p, 1, &n, 1, HIPREDUCE_ORDER_LOGICAL);
    p.d.correction = 1;
    CHECK(stats_run_plan(e, e->run, &p, (unsigned char*)&var, (unsigned char*)&mean) == HIPREDUCE_STATUS_SUCCESS, "1e20");
    CHECK(isfinite(var) && var > 0 && fabsf(mean - 1e20f) <= 1e13f, "f32 data near 1e20: var %g mean %g", var, mean);
    const double counts[] = {NAN, -0.0, 0.0, 1.0, INFINITY};
    int64_t count = -1;
    uint8_t all = 7, any = 7;
    CHECK(hipreduce_reduce(e->cpu, HIPREDUCE_OP_COUNT_NONZERO, HIPREDUCE_F64, counts, 5, HIPREDUCE_I64, &count,
                           HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_SUCCESS && count == 3, "count_nonzero: NaN counts, -0.0 not");
    CHECK(hipreduce_reduce(e->cpu, HIPREDUCE_OP_ALL, HIPREDUCE_F64, counts, 0, HIPREDUCE_U8, &all, HIPREDUCE_RESULT_HOST) ==
          HIPREDUCE_STATUS_SUCCESS && all == 1, "all of nothing is 1");
    CHECK(hipreduce_reduce(e->cpu, HIPREDUCE_OP_ANY, HIPREDUCE_F64, counts, 0, HIPREDUCE_U8, &any, HIPREDUCE_RESULT_HOST) ==
          HIPREDUCE_STATUS_SUCCESS && any == 0, "any of nothing is 0");
    const double nans[] = {NAN, NAN};
    double s = -1, m = -1;
    CHECK(hipreduce_reduce(e->cpu, HIPREDUCE_OP_NANSUM, HIPREDUCE_F64, nans, 2, HIPREDUCE_F64, &s, HIPREDUCE_RESULT_HOST) ==
          HIPREDUCE_STATUS_SUCCESS && s == 0 && !signbit(s), "nansum of NaNs: +0.0");
    CHECK(hipreduce_reduce(e->cpu, HIPREDUCE_OP_NANMEAN, HIPREDUCE_F64, nans, 2, HIPREDUCE_F64, &m, HIPREDUCE_RESULT_HOST) ==
          HIPREDUCE_STATUS_SUCCESS && m != m, "nanmean of NaNs: NaN");
    CHECK(hipreduce_reduce(e->cpu, HIPREDUCE_OP_MEAN, HIPREDUCE_F64, nans, 0, HIPREDUCE_F64, &m, HIPREDUCE_RESULT_HOST) ==
          HIPREDUCE_STATUS_SUCCESS && m != m, "mean of nothing: NaN");
    CHECK(hipreduce_reduce(e->cpu, HIPREDUCE_OP_NANMIN, HIPREDUCE_F64, nans, 2, HIPREDUCE_F64, &m, HIPREDUCE_RESULT_HOST) ==
          HIPREDUCE_STATUS_SUCCESS && m != m, "nanmin of NaNs: NaN");
    const double minus_inf[] = {-INFINITY, -INFINITY}, mixed[] = {NAN, 3.0, -0.0, 0.0, NAN};
    CHECK(hipreduce_reduce(e->cpu, HIPREDUCE_OP_LOGSUMEXP, HIPREDUCE_F64, minus_inf, 2, HIPREDUCE_F64, &m,
                           HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_SUCCESS && m == -INFINITY, "logsumexp of -inf: -inf");
    CHECK(hipreduce_reduce(e->cpu, HIPREDUCE_OP_NANMIN, HIPREDUCE_F64, mixed, 5, HIPREDUCE_F64, &m, HIPREDUCE_RESULT_HOST) ==
          HIPREDUCE_STATUS_SUCCESS && m == 0 && signbit(m), "nanmin: NaNs skipped, -0.0 below +0.0");
    aminmax_cases(e);
}

/* Bad inputs: the status, a message, nothing written. */
static void bad_inputs(hipreduce_handle h)
{
    float x[4] = {1, 2, 3, 4}, r = -1;
    int32_t xi[4] = {1, 2, 3, 4};
#define BAD_REDUCE(expect, op, in, data, out)                                                                  \
    do {                                                                                                       \
        const hipreduce_status st_ = hipreduce_reduce(h, op, in, data, 4, out, &r, HIPREDUCE_RESULT_HOST);      \
        CHECK(st_ == (expect) && r == -1 && hipreduce_last_error_message(h)[0] != '\0', "%s: status %d (%s)",   \
              #op " " #in " -> " #out, (int)st_, hipreduce_last_error_message(h));                             \
    } while (0)
    BAD_REDUCE(HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, HIPREDUCE_OP_VAR, HIPREDUCE_F32, x, HIPREDUCE_F32);
    BAD_REDUCE(HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, HIPREDUCE_OP_STD_MEAN, HIPREDUCE_F32, x, HIPREDUCE_F32);
    BAD_REDUCE(HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, HIPREDUCE_OP_MEAN, HIPREDUCE_I32, xi, HIPREDUCE_F32);
    BAD_REDUCE(HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, HIPREDUCE_OP_NANSUM, HIPREDUCE_F32, x, HIPREDUCE_F64);
    BAD_REDUCE(HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, HIPREDUCE_OP_COUNT_NONZERO, HIPREDUCE_F32, x, HIPREDUCE_F32);
    BAD_REDUCE(HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, HIPREDUCE_OP_ALL, HIPREDUCE_I32, xi, HIPREDUCE_I32);
    BAD_REDUCE(HIPREDUCE_STATUS_INVALID_OP, (hipreduce_op)99, HIPREDUCE_F32, x, HIPREDUCE_F32);
#undef BAD_REDUCE
    CHECK(strstr((hipreduce_reduce(h, HIPREDUCE_OP_VAR, HIPREDUCE_F32, x, 4, HIPREDUCE_F32, &r, HIPREDUCE_RESULT_HOST),
                  hipreduce_last_error_message(h)), "hipreduce_plan_create") != NULL, "var's message names the plan");
    int64_t index;
    CHECK(hipreduce_argreduce(h, HIPREDUCE_OP_MEAN, HIPREDUCE_F32, x, 4, &r, &index, HIPREDUCE_RESULT_HOST) ==
          HIPREDUCE_STATUS_OP_DTYPE_MISMATCH && r == -1, "mean through argreduce");
    const uint64_t n = 4;
    hipreduce_reduction_desc d;
    hipreduce_plan plan = NULL;
    CHECK(hipreduce_desc_init(&d, HIPREDUCE_OP_MEAN, HIPREDUCE_F32, HIPREDUCE_F32, 1, &n) == HIPREDUCE_STATUS_SUCCESS, "init");
    d.correction = 1;
    CHECK(hipreduce_plan_create(h, &d, &plan) == HIPREDUCE_STATUS_NOT_SUPPORTED && plan == NULL, "a correction for mean");
    d.op = HIPREDUCE_OP_VAR_MEAN;
    d.in_dtype = d.out_dtype = HIPREDUCE_I32;
    CHECK(hipreduce_plan_create(h, &d, &plan) == HIPREDUCE_STATUS_OP_DTYPE_MISMATCH && plan == NULL, "var_mean of i32");
    d.in_dtype = d.out_dtype = HIPREDUCE_F32;
    CHECK(hipreduce_plan_create(h, &d, &plan) == HIPREDUCE_STATUS_SUCCESS, "var_mean plan");
    float v = -1;
    hipreduce_operands o = {.x = x, .values = &v};
    CHECK(hipreduce_plan_run(h, plan, &o, HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_INVALID_POINTER && v == -1 &&
          strstr(hipreduce_last_error_message(h), "values2") != NULL, "var_mean without values2: nothing written");
    hipreduce_plan_destroy(plan);
    /* aminmax: a plan op of two outputs of the input dtype, no correction */
    r = -1;
    CHECK(hipreduce_reduce(h, HIPREDUCE_OP_AMINMAX, HIPREDUCE_F32, x, 4, HIPREDUCE_F32, &r, HIPREDUCE_RESULT_HOST) ==
              HIPREDUCE_STATUS_OP_DTYPE_MISMATCH && r == -1 &&
              strstr(hipreduce_last_error_message(h), "hipreduce_plan_create") != NULL,
          "aminmax through hipreduce_reduce: %s", hipreduce_last_error_message(h));
    d.op = HIPREDUCE_OP_AMINMAX;
    d.out_dtype = HIPREDUCE_F64;
    plan = NULL;
    CHECK(hipreduce_plan_create(h, &d, &plan) == HIPREDUCE_STATUS_OP_DTYPE_MISMATCH && plan == NULL, "aminmax f32 into f64");
    d.out_dtype = HIPREDUCE_F32;
    d.correction = 1;
    CHECK(hipreduce_plan_create(h, &d, &plan) == HIPREDUCE_STATUS_NOT_SUPPORTED && plan == NULL, "a correction for aminmax");
    d.correction = 0;
    CHECK(hipreduce_plan_create(h, &d, &plan) == HIPREDUCE_STATUS_SUCCESS, "aminmax plan");
    v = -1;
    CHECK(hipreduce_plan_run(h, plan, &o, HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_INVALID_POINTER && v == -1 &&
          strstr(hipreduce_last_error_message(h), "values2") != NULL, "aminmax without values2: nothing written");
    hipreduce_plan_destroy(plan);
}

int main(int argc, char** argv)
{
    const int gpu = test_wants_gpu(argc, argv);
    if (gpu < 0) return 2;
    env e = {.gpu = gpu};
    const int opened = open_handles(gpu, &e.cpu, &e.run);
    if (opened) return opened;
    const enum test_profile profile = test_profile();
    const int rounds = profile == TEST_EMU_SMOKE ? 1 : profile == TEST_EMU ? 2 : 3;
    int cases = 0;
    for (int round = 0; round < rounds; ++round)
        for (int o = 0; o < OPS; ++o)
            for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; ++i)
                for (size_t j = 0; j < sizeof dtypes / sizeof dtypes[0]; ++j) {
                    if (!sr_allowed(ops[o], dtypes[i], dtypes[j])) continue;
                    if (profile == TEST_EMU_SMOKE && below(4) != 0) continue;
                    /* three tile levels now and then (f64: 2048^2 + 1 elements) */
                    const uint64_t big = profile != TEST_EMU_SMOKE && round == 0 && dtypes[i] == HIPREDUCE_F64 && o % 3 == 0
                                             ? 2048 * 2048 + 1 : 5 * tile_of(dtypes[i]) + 3;
                    one_case(&e, ops[o], dtypes[i], dtypes[j], big);
                    ++cases;
                }
    special_cases(&e);
    bad_inputs(e.run);
    hipreduce_destroy(e.run);
    if (gpu) hipreduce_destroy(e.cpu);
    failures += stats_run_failures();
    printf("stats (%s): %d op x dtype cases, %d results checked against references, worst moments or logsumexp error "
           "%.3g of the bound, %d failures\n", gpu ? "gpu" : "cpu", cases, e.checked, e.worst, failures);
    return failures ? 1 : 0;
}
