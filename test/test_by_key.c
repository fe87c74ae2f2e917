/* Plans of layout BY_KEY: `length` rows of `row` values reduced into bins by unsorted keys. Every
 * result must have the bits of the simple call (hipreduce_reduce / hipreduce_argreduce) over its
 * bin's values of its feature, gathered here in input order by the test's own loop; argmin/argmax
 * indices must be the row index of the first extreme; counts the keys of each bin. Random shapes
 * (1 to 65536 bins, empty bins, rows of 1 to 70 values, lengths across a tile), key patterns
 * (uniform, one key, sorted, reversed, a few hot bins, a few bins used), every op of the two simple
 * calls, i32 and i64 keys, host and device results, an exact caller workspace; keys out of range
 * (INVALID_OFFSETS with nothing written on the cpu device, skipped and not counted on a GPU); bad
 * descriptors and operands, each a status and a message.
 * Usage: hipreduce_test_by_key cpu|gpu (gpu: the plans on GPU 0, references on the cpu device;
 * exits 77 without a GPU). HIPREDUCE_TEST_PROFILE=emu/emu-smoke: fewer, smaller cases. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_env.h"
#include "hipreduce/hipreduce.h"
#include "test_check.h"
#include "test_run.h"

static uint64_t compared_results, compared_rows; /* what the runs compared, for the summary */
static const op_case cases[] = {
    {HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F32},         {HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F64},
    {HIPREDUCE_OP_SUM, HIPREDUCE_F64, HIPREDUCE_F64},         {HIPREDUCE_OP_SUM, HIPREDUCE_I32, HIPREDUCE_I64},
    {HIPREDUCE_OP_SUM, HIPREDUCE_BF16, HIPREDUCE_F32},        {HIPREDUCE_OP_PROD, HIPREDUCE_F64, HIPREDUCE_F64},
    {HIPREDUCE_OP_MIN, HIPREDUCE_I16, HIPREDUCE_I16},         {HIPREDUCE_OP_MIN, HIPREDUCE_F32, HIPREDUCE_F32},
    {HIPREDUCE_OP_MAX, HIPREDUCE_U8, HIPREDUCE_U8},           {HIPREDUCE_OP_MAX, HIPREDUCE_F64, HIPREDUCE_F64},
    {HIPREDUCE_OP_AND, HIPREDUCE_U32, HIPREDUCE_U32},         {HIPREDUCE_OP_OR, HIPREDUCE_U16, HIPREDUCE_U16},
    {HIPREDUCE_OP_XOR, HIPREDUCE_I64, HIPREDUCE_I64},         {HIPREDUCE_OP_SUM_ABS, HIPREDUCE_F32, HIPREDUCE_F32},
    {HIPREDUCE_OP_SUM_SQUARES, HIPREDUCE_F16, HIPREDUCE_F32}, {HIPREDUCE_OP_MAX_ABS, HIPREDUCE_F64, HIPREDUCE_F64},
    {HIPREDUCE_OP_NRM2, HIPREDUCE_F32, HIPREDUCE_F32},        {HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F32, HIPREDUCE_F32},
    {HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F64, HIPREDUCE_F64},   {HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_BF16, HIPREDUCE_F64},
    {HIPREDUCE_OP_ARGMIN, HIPREDUCE_I8, HIPREDUCE_I8},        {HIPREDUCE_OP_ARGMAX, HIPREDUCE_F32, HIPREDUCE_F32},
    {HIPREDUCE_OP_ARGMIN, HIPREDUCE_F64, HIPREDUCE_F64},
};
enum { CASES = sizeof cases / sizeof cases[0] };

static int is_arg(hipreduce_op op) { return op == HIPREDUCE_OP_ARGMIN || op == HIPREDUCE_OP_ARGMAX; }

/* Random values of dtype: floats of both signs and spread magnitudes, with NaN, infinities and
 * -0.0 now and then when `specials`. */
static void fill(unsigned char* p, uint64_t count, hipreduce_dtype dtype, int specials)
{
    const size_t elem = hipreduce_dtype_size(dtype);
    for (uint64_t i = 0; i < count; ++i, p += elem) {
        double v = ((double)(int64_t)below(20001) / 1000.0 - 10.0) * (double)(1u << below(9)) / 16.0;
        if (specials && below(97) == 0) {
            const double s[4] = {NAN, INFINITY, -INFINITY, -0.0};
            v = s[below(4)];
        }
        if (dtype == HIPREDUCE_F32) { const float f = (float)v; memcpy(p, &f, 4); }
        else if (dtype == HIPREDUCE_F64) { memcpy(p, &v, 8); }
        else if (dtype == HIPREDUCE_F16) { const uint16_t h = hipreduce_f32_to_f16((float)v); memcpy(p, &h, 2); }
        else if (dtype == HIPREDUCE_BF16) { const uint16_t h = hipreduce_f32_to_bf16((float)v); memcpy(p, &h, 2); }
        else { const uint64_t r = next_random(); memcpy(p, &r, elem); }
    }
}



/* A by-key problem: its descriptor, values, keys (as int64; stored as key_dtype) and the plan's
 * outputs. */
typedef struct problem {
    hipreduce_reduction_desc d;
    unsigned char* x;
    int64_t* keys;
    void* stored_keys; /* keys as key_dtype */
} problem;

static void set_keys(problem* p)
{
    const uint64_t n = p->d.length;
    p->stored_keys = malloc(n ? n * 8 : 1);
    for (uint64_t i = 0; i < n; ++i) {
        if (p->d.key_dtype == HIPREDUCE_I32) ((int32_t*)p->stored_keys)[i] = (int32_t)p->keys[i];
        else ((int64_t*)p->stored_keys)[i] = p->keys[i];
    }
}

/* The references: for bin b and feature j the simple call over the values of the rows with key b
 * (in range: 0 .. num_bins - 1), in input order; counts per bin. */
static void reference(const env* e, const problem* p, unsigned char* want, int64_t* want_index, int64_t* want_counts)
{
    const hipreduce_reduction_desc* d = &p->d;
    const size_t elem = hipreduce_dtype_size(d->in_dtype), out = hipreduce_dtype_size(d->out_dtype);
    uint64_t* first = calloc(d->num_bins + 1, 8); /* the test's own bucket lists */
    uint64_t* rows = malloc((d->length ? d->length : 1) * 8);
    for (uint64_t i = 0; i < d->length; ++i)
        if (p->keys[i] >= 0 && (uint64_t)p->keys[i] < d->num_bins) ++first[p->keys[i] + 1];
    for (uint64_t b = 0; b < d->num_bins; ++b) first[b + 1] += first[b];
    uint64_t* fill_at = malloc((d->num_bins ? d->num_bins : 1) * 8);
    memcpy(fill_at, first, d->num_bins * 8);
    for (uint64_t i = 0; i < d->length; ++i)
        if (p->keys[i] >= 0 && (uint64_t)p->keys[i] < d->num_bins) rows[fill_at[p->keys[i]]++] = i;
    unsigned char* slice = malloc((d->length ? d->length : 1) * elem);
    for (uint64_t b = 0; b < d->num_bins; ++b) {
        const uint64_t count = first[b + 1] - first[b];
        want_counts[b] = (int64_t)count;
        for (uint64_t j = 0; j < d->row; ++j) {
            for (uint64_t k = 0; k < count; ++k) memcpy(slice + k * elem, p->x + (rows[first[b] + k] * d->row + j) * elem, elem);
            const uint64_t r = b * d->row + j;
            hipreduce_status st;
            if (is_arg(d->op)) {
                st = hipreduce_argreduce(e->cpu, d->op, d->in_dtype, slice, count, want + r * out, want_index + r,
                                         HIPREDUCE_RESULT_HOST);
                if (want_index[r] >= 0) want_index[r] = (int64_t)rows[first[b] + (uint64_t)want_index[r]];
            } else {
                st = hipreduce_reduce(e->cpu, d->op, d->in_dtype, slice, count, d->out_dtype, want + r * out,
                                      HIPREDUCE_RESULT_HOST);
            }
            CHECK(st == HIPREDUCE_STATUS_SUCCESS, "reference: %s", hipreduce_last_error_message(e->cpu));
        }
    }
    free(first), free(rows), free(fill_at), free(slice);
}

/* Runs the plan of p on e->run (results at `location`) and compares with the references. */
static void run_and_compare(const env* e, const problem* p, hipreduce_location location, const char* what)
{
    const hipreduce_reduction_desc* d = &p->d;
    const size_t elem = hipreduce_dtype_size(d->in_dtype), out = hipreduce_dtype_size(d->out_dtype);
    const uint64_t results = d->num_bins * d->row, rs = results ? results : 1, bins = d->num_bins ? d->num_bins : 1;
    unsigned char* want = malloc(rs * out);
    int64_t* want_index = malloc(rs * 8);
    int64_t* want_counts = malloc(bins * 8);
    reference(e, p, want, want_index, want_counts);

    hipreduce_plan plan = NULL;
    hipreduce_status st = hipreduce_plan_create(e->run, d, &plan);
    CHECK(st == HIPREDUCE_STATUS_SUCCESS, "%s: plan_create: %s", what, hipreduce_last_error_message(e->run));
    uint64_t planned = 0;
    CHECK(plan && hipreduce_plan_results(plan, &planned) == HIPREDUCE_STATUS_SUCCESS && planned == results,
          "%s: plan_results %" PRIu64 " for %" PRIu64, what, planned, results);
    unsigned char* dx = place(e, p->x, d->length * d->row * elem);
    void* dkeys = place(e, p->stored_keys, d->length * hipreduce_dtype_size(d->key_dtype));
    unsigned char* got = malloc(rs * out);
    int64_t* got_index = malloc(rs * 8);
    int64_t* got_counts = malloc(bins * 8);
    memset(got, 0xa5, rs * out);
    memset(got_index, 0xa5, rs * 8);
    memset(got_counts, 0xa5, bins * 8);
    const int on_device = e->gpu && location == HIPREDUCE_RESULT_DEVICE;
    void* rv = on_device ? place(e, got, rs * out) : got;
    int64_t* ri = on_device ? place(e, got_index, rs * 8) : got_index;
    int64_t* rc = on_device ? place(e, got_counts, bins * 8) : got_counts;
    hipreduce_operands ops = {.x = dx, .keys = dkeys, .values = rv, .indices = is_arg(d->op) ? ri : NULL, .counts = rc};
    if (plan) {
        st = hipreduce_plan_run(e->run, plan, &ops, location);
        CHECK(st == HIPREDUCE_STATUS_SUCCESS, "%s: plan_run: %s", what, hipreduce_last_error_message(e->run));
        if (on_device) {
            CHECK(gm_to_host(got, rv, rs * out) == 0 && gm_to_host(got_index, ri, rs * 8) == 0 &&
                      gm_to_host(got_counts, rc, bins * 8) == 0, "%s: copies back", what);
        }
        if (st == HIPREDUCE_STATUS_SUCCESS) {
            compared_results += results;
            compared_rows += d->length;
            for (uint64_t r = 0; r < results; ++r) {
                CHECK(memcmp(got + r * out, want + r * out, out) == 0, "%s: bin %" PRIu64 " feature %" PRIu64 " differs",
                      what, r / d->row, r % d->row);
                if (is_arg(d->op))
                    CHECK(got_index[r] == want_index[r], "%s: bin %" PRIu64 " feature %" PRIu64 ": index %" PRId64
                          ", want %" PRId64, what, r / d->row, r % d->row, got_index[r], want_index[r]);
            }
            for (uint64_t b = 0; b < d->num_bins; ++b)
                CHECK(got_counts[b] == want_counts[b], "%s: count of bin %" PRIu64 ": %" PRId64 ", want %" PRId64, what, b,
                      got_counts[b], want_counts[b]);
        }
    }
    hipreduce_plan_destroy(plan);
    if (on_device) release(e, rv), release(e, ri), release(e, rc);
    release(e, dx);
    release(e, dkeys);
    free(want), free(want_index), free(want_counts), free(got), free(got_index), free(got_counts);
}

/* Keys of one of the patterns (all in range). */
static void random_keys(int64_t* keys, uint64_t n, uint64_t bins, int pattern)
{
    const uint64_t one = below(bins), few[4] = {below(bins), below(bins), below(bins), below(bins)};
    for (uint64_t i = 0; i < n; ++i) {
        const double u = (double)below(1u << 30) / (double)(1u << 30);
        switch (pattern) {
        case 0: keys[i] = (int64_t)below(bins); break;                      /* uniform */
        case 1: keys[i] = (int64_t)one; break;                              /* one key */
        case 2: keys[i] = (int64_t)(n ? i * bins / n : 0); break;           /* sorted */
        case 3: keys[i] = (int64_t)(bins - 1 - (n ? i * bins / n : 0)); break; /* reversed */
        case 4: keys[i] = (int64_t)((double)bins * u * u * u * u); break;   /* a few hot bins */
        default: keys[i] = (int64_t)few[below(4)]; break;                   /* a few bins used */
        }
        if ((uint64_t)keys[i] >= bins) keys[i] = (int64_t)bins - 1;
    }
}

static void one_case(const env* e, const op_case* c, uint64_t value_limit, uint64_t result_limit)
{
    static const uint64_t bin_choices[] = {1, 2, 3, 17, 256, 257, 1000, 4096, 65536};
    static const uint64_t row_choices[] = {1, 1, 1, 2, 3, 5, 16, 33, 70};
    static const uint64_t length_choices[] = {0, 1, 2, 255, 256, 257, 1023, 2047, 2048, 2049, 4097, 5000};
    problem p;
    memset(&p, 0, sizeof p);
    hipreduce_reduction_desc* d = &p.d;
    d->op = c->op;
    d->in_dtype = c->in;
    d->out_dtype = c->out;
    d->layout = HIPREDUCE_LAYOUT_BY_KEY;
    d->key_dtype = below(2) ? HIPREDUCE_I32 : HIPREDUCE_I64;
    d->row = row_choices[below(sizeof row_choices / 8)];
    d->num_bins = below(4) == 0 ? 1 + below(3000) : bin_choices[below(sizeof bin_choices / 8)];
    while (d->num_bins * d->row > result_limit) d->num_bins = 1 + d->num_bins / 4;
    d->length = below(3) == 0 ? below(6000) : length_choices[below(sizeof length_choices / 8)];
    while (d->length * d->row > value_limit) d->length /= 2;
    const size_t elem = hipreduce_dtype_size(c->in);
    p.x = malloc(d->length * d->row * elem + 1);
    fill(p.x, d->length * d->row, c->in, (int)below(2));
    p.keys = malloc(d->length * 8 + 8);
    const int pattern = (int)below(6);
    random_keys(p.keys, d->length, d->num_bins, pattern);
    set_keys(&p);
    char what[160];
    snprintf(what, sizeof what, "%s %s->%s length %" PRIu64 " row %" PRIu64 " bins %" PRIu64 " keys %s pattern %d",
             hipreduce_op_name(c->op), hipreduce_dtype_name(c->in), hipreduce_dtype_name(c->out), d->length, d->row,
             d->num_bins, hipreduce_dtype_name(d->key_dtype), pattern);
    run_and_compare(e, &p, e->gpu && below(4) == 0 ? HIPREDUCE_RESULT_DEVICE : HIPREDUCE_RESULT_HOST, what);
    free(p.x), free(p.keys), free(p.stored_keys);
}

/* Keys outside [0, num_bins): INVALID_OFFSETS with nothing written on the cpu device; on a GPU
 * the rows are skipped and not counted (the references leave them out too). */
static void out_of_range(const env* e)
{
    /* Bins: more than one radix digit, one digit, one bin, and 256 (one digit, num_bins itself
     * needing two: the keys out of range must still sort after every bin). */
    static const uint64_t bins[6] = {300, 300, 200, 1, 256, 256};
    for (int c = 0; c < 6; ++c) {
        const int k = c & 1; /* i64 keys */
        problem p;
        memset(&p, 0, sizeof p);
        hipreduce_reduction_desc* d = &p.d;
        d->op = k ? HIPREDUCE_OP_ARGMAX : HIPREDUCE_OP_SUM;
        d->in_dtype = d->out_dtype = HIPREDUCE_F32;
        d->layout = HIPREDUCE_LAYOUT_BY_KEY;
        d->key_dtype = k ? HIPREDUCE_I64 : HIPREDUCE_I32;
        d->num_bins = bins[c];
        d->row = 3;
        d->length = 3000;
        p.x = malloc(d->length * d->row * 4);
        fill(p.x, d->length * d->row, HIPREDUCE_F32, 0);
        p.keys = malloc(d->length * 8);
        random_keys(p.keys, d->length, d->num_bins, 0);
        /* Past the end, negative, and (i64) past 2^32 by a bin's value, which a 32-bit key would wrap to. */
        const int64_t nb = (int64_t)d->num_bins;
        const int64_t bad32[4] = {-1, nb, INT32_MAX, INT32_MIN}, bad64[4] = {nb, -5, (INT64_C(1) << 32) + nb - 1, INT64_MIN};
        for (int i = 0; i < 40; ++i) p.keys[below(d->length)] = k ? bad64[i % 4] : bad32[i % 4];
        p.keys[d->length - 1] = k ? INT64_MAX : -1;
        set_keys(&p);
        if (e->gpu) {
            char what[96];
            snprintf(what, sizeof what, "keys out of range (skipped), %" PRIu64 " bins, %s keys", d->num_bins,
                     hipreduce_dtype_name(d->key_dtype));
            run_and_compare(e, &p, HIPREDUCE_RESULT_HOST, what);
        } else {
            hipreduce_plan plan = NULL;
            CHECK(hipreduce_plan_create(e->run, d, &plan) == HIPREDUCE_STATUS_SUCCESS, "out-of-range plan");
            float v[900];
            int64_t idx[900], counts[300];
            for (int i = 0; i < 900; ++i) v[i] = -7.0f, idx[i] = -7;
            for (int i = 0; i < 300; ++i) counts[i] = -7;
            hipreduce_operands ops = {.x = p.x, .keys = p.stored_keys, .values = v, .indices = k ? idx : NULL, .counts = counts};
            const hipreduce_status st = hipreduce_plan_run(e->run, plan, &ops, HIPREDUCE_RESULT_HOST);
            int untouched = 1;
            for (int i = 0; i < 900; ++i) untouched &= v[i] == -7.0f && idx[i] == -7;
            for (int i = 0; i < 300; ++i) untouched &= counts[i] == -7;
            CHECK(st == HIPREDUCE_STATUS_INVALID_OFFSETS && untouched && strstr(hipreduce_last_error_message(e->run), "keys["),
                  "keys out of range on the cpu device: status %d (%s), want INVALID_OFFSETS and nothing written", (int)st,
                  hipreduce_last_error_message(e->run));
            hipreduce_plan_destroy(plan);
        }
        free(p.x), free(p.keys), free(p.stored_keys);
    }
}

/* A caller workspace of exactly the plan's size runs; one byte less is WORKSPACE_TOO_SMALL with
 * nothing written. */
static void exact_workspace(const env* e)
{
    problem p;
    memset(&p, 0, sizeof p);
    hipreduce_reduction_desc* d = &p.d;
    d->op = HIPREDUCE_OP_ARGMIN;
    d->in_dtype = d->out_dtype = HIPREDUCE_F64;
    d->layout = HIPREDUCE_LAYOUT_BY_KEY;
    d->key_dtype = HIPREDUCE_I64;
    d->num_bins = 70000; /* three radix digits on a GPU */
    d->row = 1;
    d->length = 3000;
    p.x = malloc(d->length * 8);
    fill(p.x, d->length, HIPREDUCE_F64, 1);
    p.keys = malloc(d->length * 8);
    random_keys(p.keys, d->length, d->num_bins, 0);
    set_keys(&p);
    hipreduce_plan plan = NULL;
    size_t bytes = 0;
    CHECK(hipreduce_plan_create(e->run, d, &plan) == HIPREDUCE_STATUS_SUCCESS, "workspace plan");
    CHECK(hipreduce_plan_workspace_size(e->run, plan, HIPREDUCE_RESULT_HOST, &bytes) == HIPREDUCE_STATUS_SUCCESS && bytes > 0,
          "workspace size");
    unsigned char* ws = e->gpu ? gm_alloc(bytes + 1) : malloc(bytes + 1);
    void* dx = place(e, p.x, d->length * 8);
    void* dk = place(e, p.stored_keys, d->length * 8);
    double* v = malloc(d->num_bins * 8);
    int64_t* idx = malloc(d->num_bins * 8);
    v[0] = 5;
    idx[0] = 5;
    hipreduce_operands ops = {.x = dx, .keys = dk, .values = v, .indices = idx};
    CHECK(hipreduce_set_workspace(e->run, ws + 1, bytes - 1) == HIPREDUCE_STATUS_SUCCESS, "set workspace");
    const hipreduce_status st = hipreduce_plan_run(e->run, plan, &ops, HIPREDUCE_RESULT_HOST);
    CHECK(st == HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL && v[0] == 5 && idx[0] == 5,
          "a workspace one byte short: status %d, want WORKSPACE_TOO_SMALL and nothing written", (int)st);
    hipreduce_plan_destroy(plan);
    CHECK(hipreduce_set_workspace(e->run, ws + 1, bytes) == HIPREDUCE_STATUS_SUCCESS, "set workspace");
    run_and_compare(e, &p, HIPREDUCE_RESULT_HOST, "a caller workspace of the plan's size");
    CHECK(hipreduce_set_workspace(e->run, NULL, 0) == HIPREDUCE_STATUS_SUCCESS, "workspace back");
    release(e, dx);
    release(e, dk);
    if (e->gpu) gm_free(ws);
    else free(ws);
    free(v), free(idx), free(p.x), free(p.keys), free(p.stored_keys);
}

/* Bad descriptors (the status, a message, the plan pointer untouched) and bad operands. */
static void bad_inputs(hipreduce_handle h, int gpu)
{
    hipreduce_reduction_desc good, d;
    memset(&good, 0, sizeof good);
    good.op = HIPREDUCE_OP_SUM;
    good.in_dtype = good.out_dtype = HIPREDUCE_F32;
    good.layout = HIPREDUCE_LAYOUT_BY_KEY;
    good.key_dtype = HIPREDUCE_I32;
    good.length = 4;
    good.row = 2;
    good.num_bins = 3;
    hipreduce_plan sentinel = (hipreduce_plan)&good, plan;
#define BAD(expect, edit)                                                                                             \
    do {                                                                                                              \
        d = good;                                                                                                     \
        edit;                                                                                                         \
        plan = sentinel;                                                                                              \
        const hipreduce_status st_ = hipreduce_plan_create(h, &d, &plan);                                             \
        CHECK(st_ == (expect) && plan == sentinel && hipreduce_last_error_message(h)[0] != '\0',                      \
              "bad descriptor `%s`: status %d (%s), want %d", #edit, (int)st_, hipreduce_last_error_message(h), (int)(expect)); \
    } while (0)
    BAD(HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, d.op = HIPREDUCE_OP_DOT);
    BAD(HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, d.op = HIPREDUCE_OP_DOT_EXACT);
    BAD(HIPREDUCE_STATUS_INVALID_DTYPE, d.key_dtype = HIPREDUCE_U32);
    BAD(HIPREDUCE_STATUS_INVALID_DTYPE, d.key_dtype = HIPREDUCE_F32);
    BAD(HIPREDUCE_STATUS_INVALID_DTYPE, d.key_dtype = (hipreduce_dtype)99);
    BAD(HIPREDUCE_STATUS_INVALID_AXES, d.row = 0);
    BAD(HIPREDUCE_STATUS_SIZE_OVERFLOW, (d.length = UINT64_C(1) << 40, d.row = UINT64_C(1) << 30));
    BAD(HIPREDUCE_STATUS_SIZE_OVERFLOW, d.length = UINT64_MAX / 2);
    BAD(HIPREDUCE_STATUS_SIZE_OVERFLOW, (d.num_bins = UINT64_C(1) << 40, d.row = UINT64_C(1) << 30));
    BAD(HIPREDUCE_STATUS_SIZE_OVERFLOW, (d.num_bins = UINT64_MAX, d.row = 1));
    BAD(HIPREDUCE_STATUS_NOT_SUPPORTED, d.order = HIPREDUCE_ORDER_STRIDED);
    BAD(HIPREDUCE_STATUS_NOT_SUPPORTED, d.layout = (hipreduce_layout)3);
    BAD(HIPREDUCE_STATUS_NOT_SUPPORTED, d.reserved[4] = 1);
    BAD(HIPREDUCE_STATUS_INVALID_OP, d.op = (hipreduce_op)99);
    BAD(HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, d.out_dtype = HIPREDUCE_I8);
    BAD(HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, (d.op = HIPREDUCE_OP_ARGMAX, d.out_dtype = HIPREDUCE_F64));
#undef BAD
    /* Operands: x, keys, values and (argmin/argmax) indices; counts optional. */
    CHECK(hipreduce_plan_create(h, &good, &plan) == HIPREDUCE_STATUS_SUCCESS, "good plan");
    const float xh[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const int32_t kh[4] = {2, 0, 2, 1};
    void* x = gpu ? gm_alloc(sizeof xh) : (void*)xh;
    void* k = gpu ? gm_alloc(sizeof kh) : (void*)kh;
    if (gpu) CHECK(gm_to_device(x, xh, sizeof xh) == 0 && gm_to_device(k, kh, sizeof kh) == 0, "copies");
    float v[6] = {-1, -1, -1, -1, -1, -1};
    hipreduce_operands ops = {.x = NULL, .keys = k, .values = v};
    CHECK(hipreduce_plan_run(h, plan, &ops, HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_INVALID_POINTER && v[0] == -1, "NULL x");
    ops.x = x;
    ops.keys = NULL;
    CHECK(hipreduce_plan_run(h, plan, &ops, HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_INVALID_POINTER && v[0] == -1 &&
              strstr(hipreduce_last_error_message(h), "keys"), "NULL keys");
    ops.keys = k;
    ops.values = NULL;
    CHECK(hipreduce_plan_run(h, plan, &ops, HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_INVALID_POINTER, "NULL values");
    ops.values = v;
    CHECK(hipreduce_plan_run(h, plan, &ops, HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_SUCCESS, "good run");
    const float want[6] = {3, 4, 7, 8, 1 + 5, 2 + 6};
    CHECK(memcmp(v, want, sizeof want) == 0, "the small case: %g %g %g %g %g %g", v[0], v[1], v[2], v[3], v[4], v[5]);
    hipreduce_plan_destroy(plan);
    d = good;
    d.op = HIPREDUCE_OP_ARGMAX;
    CHECK(hipreduce_plan_create(h, &d, &plan) == HIPREDUCE_STATUS_SUCCESS, "argmax plan");
    CHECK(hipreduce_plan_run(h, plan, &ops, HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_INVALID_POINTER, "NULL indices");
    hipreduce_plan_destroy(plan);
    /* num_bins 0: a valid plan of no result; on the cpu device every key is out of range. */
    d = good;
    d.num_bins = 0;
    CHECK(hipreduce_plan_create(h, &d, &plan) == HIPREDUCE_STATUS_SUCCESS, "num_bins 0 plan");
    const hipreduce_status none = hipreduce_plan_run(h, plan, &ops, HIPREDUCE_RESULT_HOST);
    CHECK(none == (gpu ? HIPREDUCE_STATUS_SUCCESS : HIPREDUCE_STATUS_INVALID_OFFSETS) && v[0] == 3,
          "num_bins 0 with 4 keys: status %d", (int)none);
    hipreduce_plan_destroy(plan);
    d.length = 0; /* no key, no bin: nothing to do, x and keys may be NULL */
    CHECK(hipreduce_plan_create(h, &d, &plan) == HIPREDUCE_STATUS_SUCCESS, "empty plan");
    ops.x = NULL;
    ops.keys = NULL;
    CHECK(hipreduce_plan_run(h, plan, &ops, HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_SUCCESS, "empty run");
    hipreduce_plan_destroy(plan);
    if (gpu) gm_free(x), gm_free(k);
}

int main(int argc, char** argv)
{
    rng = UINT64_C(0x2545f4914f6cdd1d);
    env e;
    const int opened = env_open(argc, argv, &e);
    if (opened) return opened;
    const int gpu = e.gpu;
    const enum test_profile profile = test_profile();
    const int rounds = profile == TEST_EMU_SMOKE ? 2 : profile == TEST_EMU ? 6 : 12;
    const uint64_t values = profile == TEST_FULL ? 200000 : 60000, results = profile == TEST_EMU_SMOKE ? 5000 : 70000;
    for (int r = 0; r < rounds; ++r)
        for (int c = 0; c < CASES; ++c) one_case(&e, &cases[c], values, results);
    out_of_range(&e);
    exact_workspace(&e);
    bad_inputs(e.run, gpu);
    env_close(&e);
    printf("by_key (%s): %d rounds of %d op cases, %" PRIu64 " results of %" PRIu64 " rows compared, %d failures\n",
           gpu ? "gpu" : "cpu", rounds, CASES, compared_results, compared_rows, failures);
    return failures ? 1 : 0;
}
