/* The statistics suite's runner (stats_run.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_memory.h"
#include "stats_ref.h"
#include "stats_run.h"
#include "test_check.h"

int stats_run_failures(void) { return failures; }

static double uniform(void) { return (double)(next_random() >> 11) * 0x1p-53; }

const char* const stats_data_names[STATS_DATA_KINDS] = {"normal", "offset", "specials", "nan-heavy", "constant", "cancel"};

/* Element i of a float dtype set to v (rounded once). */
static void put_value(hipreduce_dtype d, unsigned char* p, uint64_t i, double v)
{
    const size_t size = hipreduce_dtype_size(d);
    if (d == HIPREDUCE_F16 || d == HIPREDUCE_BF16) {
        const uint16_t h = d == HIPREDUCE_F16 ? hipreduce_f32_to_f16((float)v) : hipreduce_f32_to_bf16((float)v);
        memcpy(p + i * size, &h, 2);
    } else if (d == HIPREDUCE_F32) {
        const float f = (float)v;
        memcpy(p + i * size, &f, 4);
    } else if (d == HIPREDUCE_F64) {
        memcpy(p + i * size, &v, 8);
    } else { /* integers: small values, many zeros */
        const uint64_t r = below(3) == 0 ? 0 : next_random() % 7;
        memcpy(p + i * size, &r, size);
    }
}

void stats_fill(unsigned char* p, uint64_t count, hipreduce_dtype d, int kind)
{
    /* near 1e20 (bf16: 1e15, f16: 1000), a few hundred ulps either way */
    const double big = d == HIPREDUCE_F16 ? 1000.0 : d == HIPREDUCE_BF16 ? 1e15 : 1e20;
    const double rel = d == HIPREDUCE_F16 ? 0x1p-8 : d == HIPREDUCE_BF16 ? 0x1p-6 : d == HIPREDUCE_F32 ? 0x1p-19 : 0x1p-45;
    const double specials[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1e-42, -1e-310, 65504.0};
    const int integer = !(d == HIPREDUCE_F16 || d == HIPREDUCE_BF16 || d == HIPREDUCE_F32 || d == HIPREDUCE_F64);
    for (uint64_t i = 0; i < count; ++i) {
        if (integer && kind == 1) { /* every bit random: the dtype's extremes and signs */
            const uint64_t r = next_random();
            memcpy(p + i * hipreduce_dtype_size(d), &r, hipreduce_dtype_size(d));
            continue;
        }
        double v = (uniform() * 2 - 1) * 3 + 0.7;
        switch (kind) {
        case 1: v = big * (1 + rel * (double)((int)below(33) - 16)); break;
        case 2: if (below(25) == 0) v = specials[below(sizeof specials / sizeof specials[0])]; break;
        case 3: if (below(2)) v = NAN; break;
        case 4: v = 0.1; break;
        case 5: v = (d == HIPREDUCE_F16 ? 512.0 : 0x1p24) + (below(2) ? 1.0 : -1.0) * (d == HIPREDUCE_F64 ? 1.0 : 2.0); break;
        default: break;
        }
        put_value(d, p, i, v);
    }
}

uint64_t stats_gather(const problem* p, uint64_t r, unsigned char* slice)
{
    const hipreduce_reduction_desc* d = &p->d;
    const size_t elem = hipreduce_dtype_size(d->in_dtype);
    uint64_t n = 0;
    if (d->layout == HIPREDUCE_LAYOUT_SEGMENTS) {
        n = p->offsets[r + 1] - p->offsets[r];
        memcpy(slice, p->x + p->offsets[r] * elem, n * elem);
    } else if (d->layout == HIPREDUCE_LAYOUT_BY_KEY) {
        for (uint64_t i = 0; i < d->length; ++i)
            if (p->keys[i] == (int64_t)(r / d->row)) memcpy(slice + n++ * elem, p->x + (i * d->row + r % d->row) * elem, elem);
    } else {
        uint64_t reduced = 1;
        for (int a = 0; a < d->rank; ++a)
            if ((p->mask >> a) & 1) reduced *= d->extents[a];
        for (uint64_t j = 0; j < reduced; ++j, ++n) {
            int64_t off = 0;
            uint64_t k = r, jj = j;
            for (int a = d->rank - 1; a >= 0; --a) {
                uint64_t* i = (p->mask >> a) & 1 ? &jj : &k;
                off += (int64_t)(*i % d->extents[a]) * d->x_strides[a];
                *i /= d->extents[a];
            }
            memcpy(slice + j * elem, p->x + (uint64_t)((int64_t)p->base + off) * elem, elem);
        }
    }
    return n;
}

static void* place(const env* e, hipreduce_handle h, const void* host, size_t bytes)
{
    if (!e->gpu || h != e->run) return (void*)host;
    void* dev = gm_alloc(bytes);
    CHECK(dev && gm_to_device(dev, host, bytes) == 0, "device copy of %zu bytes", bytes);
    return dev;
}
static void release(const env* e, hipreduce_handle h, void* p)
{
    if (e->gpu && h == e->run) gm_free(p);
}

hipreduce_status stats_run_plan(const env* e, hipreduce_handle h, const problem* p, unsigned char* values,
                                 unsigned char* values2)
{
    static int turn;
    const size_t elem = hipreduce_dtype_size(p->d.in_dtype), out = hipreduce_dtype_size(p->d.out_dtype);
    const size_t bytes = (p->results ? p->results : 1) * out;
    const int device = e->gpu && h == e->run && (++turn % 2);
    hipreduce_plan plan = NULL;
    hipreduce_status st = hipreduce_plan_create(h, &p->d, &plan);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    unsigned char* x = place(e, h, p->x, (p->count ? p->count : 1) * elem);
    uint64_t* offsets = p->offsets ? place(e, h, p->offsets, (p->d.num_segments + 1) * 8) : NULL;
    void* keys = p->stored_keys ? place(e, h, p->stored_keys, (p->d.length ? p->d.length : 1) * 8) : NULL;
    void* v = device ? gm_alloc(bytes) : values;
    void* v2 = device ? gm_alloc(bytes) : values2;
    hipreduce_operands o = {.x = x + p->base * elem, .offsets = offsets, .values = v, .keys = keys,
                            .values2 = sr_two_outputs(p->d.op) ? v2 : NULL};
    st = hipreduce_plan_run(h, plan, &o, device ? HIPREDUCE_RESULT_DEVICE : HIPREDUCE_RESULT_HOST);
    if (device) {
        if (st == HIPREDUCE_STATUS_SUCCESS) {
            CHECK(gm_sync() == 0 && gm_to_host(values, v, bytes) == 0, "device results back");
            if (sr_two_outputs(p->d.op)) CHECK(gm_to_host(values2, v2, bytes) == 0, "device values2 back");
        }
        gm_free(v), gm_free(v2);
    }
    release(e, h, x);
    if (offsets) release(e, h, offsets);
    if (keys) release(e, h, keys);
    hipreduce_plan_destroy(plan);
    return st;
}

/* The full plan of a slice on the cpu device: the bits every result of a slice must have. */
static void full_on_cpu(const env* e, const hipreduce_reduction_desc* like, const unsigned char* slice, uint64_t n,
                        unsigned char* want, unsigned char* want2)
{
    problem f;
    memset(&f, 0, sizeof f);
    CHECK(hipreduce_desc_init(&f.d, like->op, like->in_dtype, like->out_dtype, 1, &n) == HIPREDUCE_STATUS_SUCCESS, "init");
    f.d.correction = like->correction;
    f.x = (unsigned char*)slice;
    f.count = n;
    f.results = 1;
    CHECK(stats_run_plan(e, e->cpu, &f, want, want2) == HIPREDUCE_STATUS_SUCCESS, "full plan: %s", hipreduce_last_error_message(e->cpu));
}

/* The cpu device's result of one slice (n elements) against the references; order_strided: the
 * slice's result is in the strided order, whose sums are given (sum_acc) instead of computed. */
static void check_reference(env* e, const hipreduce_reduction_desc* d, const unsigned char* slice, uint64_t n,
                            const unsigned char* got, const unsigned char* got2, int order_strided, uint64_t sum_acc,
                            const char* what)
{
    const hipreduce_op op = d->op;
    const size_t elem = hipreduce_dtype_size(d->in_dtype), out = hipreduce_dtype_size(d->out_dtype);
    char why[320];
    ++e->checked;
    if (op == HIPREDUCE_OP_AMINMAX) { /* MIN's and MAX's bits, each called alone on the slice */
        unsigned char lo[8], hi[8];
        CHECK(hipreduce_reduce(e->cpu, HIPREDUCE_OP_MIN, d->in_dtype, slice, n, d->in_dtype, lo, HIPREDUCE_RESULT_HOST) ==
                  HIPREDUCE_STATUS_SUCCESS &&
                  hipreduce_reduce(e->cpu, HIPREDUCE_OP_MAX, d->in_dtype, slice, n, d->in_dtype, hi, HIPREDUCE_RESULT_HOST) ==
                  HIPREDUCE_STATUS_SUCCESS,
              "min and max of the slice");
        CHECK(memcmp(got, lo, out) == 0 && memcmp(got2, hi, out) == 0,
              "%s: got 0x%" PRIx64 " and 0x%" PRIx64 ", min and max 0x%" PRIx64 " and 0x%" PRIx64 " (n %" PRIu64 ")", what,
              sr_bits(d->out_dtype, got, 0), sr_bits(d->out_dtype, got2, 0), sr_bits(d->out_dtype, lo, 0),
              sr_bits(d->out_dtype, hi, 0), n);
        return;
    }
    if (op == HIPREDUCE_OP_LOGSUMEXP) {
        const double before = e->worst;
        CHECK(!sr_check_logsumexp(d->in_dtype, d->out_dtype, slice, n, sr_chain(d->in_dtype, n, order_strided),
                                  sr_bits(d->out_dtype, got, 0), &e->worst, why, sizeof why),
              "%s: %s", what, why);
        if (getenv("STATS_WORST") && e->worst > before) fprintf(stderr, "worst %.3g: %s n %llu\n", e->worst, what, (unsigned long long)n);
        return;
    }
    if (sr_corrected(op)) {
        const uint64_t g = sr_bits(d->out_dtype, got, 0), g2 = sr_two_outputs(op) ? sr_bits(d->out_dtype, got2, 0) : 0;
        const double before = e->worst;
        CHECK(!sr_check_moments(op, d->in_dtype, d->out_dtype, slice, n, d->correction,
                                sr_chain(d->in_dtype, n, order_strided), g, g2, &e->worst, why, sizeof why),
              "%s: %s", what, why);
        if (getenv("STATS_WORST") && e->worst > before) fprintf(stderr, "worst %.3g: %s n %llu\n", e->worst, what, (unsigned long long)n);
        return;
    }
    if (sr_needs_sum(op) && !order_strided) { /* the sum's accumulator of the slice (NaNs +0.0 for the nan ops) */
        unsigned char* copy = malloc(n ? n * elem : 1);
        memcpy(copy, slice, n * elem);
        if (op != HIPREDUCE_OP_MEAN)
            for (uint64_t i = 0; i < n; ++i)
                if (sr_value(d->in_dtype, copy, i) != sr_value(d->in_dtype, copy, i)) memset(copy + i * elem, 0, elem);
        sum_acc = 0;
        CHECK(hipreduce_reduce(e->cpu, HIPREDUCE_OP_SUM, d->in_dtype, copy, n, sr_acc_dtype(d->in_dtype, d->out_dtype),
                               &sum_acc, HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_SUCCESS, "sum reference");
        free(copy);
    }
    const uint64_t want = sr_expect(op, d->in_dtype, d->out_dtype, slice, n, sum_acc);
    CHECK(sr_bits(d->out_dtype, got, 0) == want, "%s: got 0x%" PRIx64 ", want 0x%" PRIx64 " (n %" PRIu64 ")", what,
          sr_bits(d->out_dtype, got, 0), want, n);
    (void)out;
}

void stats_solve(env* e, problem* p, const char* shape, int kind)
{
    const hipreduce_reduction_desc* d = &p->d;
    const size_t elem = hipreduce_dtype_size(d->in_dtype), out = hipreduce_dtype_size(d->out_dtype);
    const uint64_t rs = p->results ? p->results : 1;
    unsigned char *got = malloc(rs * out), *got2 = malloc(rs * out), *cpu = malloc(rs * out), *cpu2 = malloc(rs * out);
    memset(got2, 0, rs * out), memset(cpu2, 0, rs * out);
    char what[200];
    snprintf(what, sizeof what, "%s %s->%s %s (%s data, correction %g)", hipreduce_op_name(d->op),
             hipreduce_dtype_name(d->in_dtype), hipreduce_dtype_name(d->out_dtype), shape, stats_data_names[kind], d->correction);
    hipreduce_status st = stats_run_plan(e, e->run, p, got, got2);
    CHECK(st == HIPREDUCE_STATUS_SUCCESS, "%s: run %s", what, hipreduce_last_error_message(e->run));
    st = stats_run_plan(e, e->cpu, p, cpu, cpu2);
    CHECK(st == HIPREDUCE_STATUS_SUCCESS, "%s: cpu run %s", what, hipreduce_last_error_message(e->cpu));
    const int strided = d->order == HIPREDUCE_ORDER_STRIDED;
    unsigned char* slice = malloc((p->count ? p->count : 1) * elem);
    /* The strided order's sums (mean, nansum, nanmean) for its references: the same plan's sum. */
    uint64_t* sums = NULL;
    if (strided && sr_needs_sum(d->op)) {
        problem s = *p;
        s.d.op = HIPREDUCE_OP_SUM;
        s.d.out_dtype = sr_acc_dtype(d->in_dtype, d->out_dtype);
        s.x = malloc(p->count * elem);
        memcpy(s.x, p->x, p->count * elem);
        if (d->op != HIPREDUCE_OP_MEAN)
            for (uint64_t i = 0; i < p->count; ++i)
                if (sr_value(d->in_dtype, s.x, i) != sr_value(d->in_dtype, s.x, i)) memset(s.x + i * elem, 0, elem);
        unsigned char* sb = calloc(rs, 8);
        sums = calloc(rs, 8);
        CHECK(stats_run_plan(e, e->cpu, &s, sb, NULL) == HIPREDUCE_STATUS_SUCCESS, "strided sums");
        for (uint64_t r = 0; r < p->results; ++r) sums[r] = sr_bits(s.d.out_dtype, sb, r);
        free(sb), free(s.x);
    }
    if (d->op == HIPREDUCE_OP_AMINMAX) { /* the device under test's MIN and MAX plans of the same shape */
        unsigned char* alone = malloc(rs * out);
        for (int k = 0; k < 2; ++k) {
            problem q = *p;
            q.d.op = k == 0 ? HIPREDUCE_OP_MIN : HIPREDUCE_OP_MAX;
            CHECK(stats_run_plan(e, e->run, &q, alone, NULL) == HIPREDUCE_STATUS_SUCCESS &&
                      memcmp(alone, k == 0 ? got : got2, p->results * out) == 0,
                  "%s: the %s differ from %s's plan on the device under test", what, k == 0 ? "minima" : "maxima",
                  hipreduce_op_name(q.d.op));
        }
        free(alone);
    }
    unsigned char want[8], want2[8];
    for (uint64_t r = 0; r < p->results && failures < 20; ++r) {
        const uint64_t n = stats_gather(p, r, slice);
        CHECK(memcmp(got + r * out, cpu + r * out, out) == 0 && memcmp(got2 + r * out, cpu2 + r * out, out) == 0,
              "%s: result %" PRIu64 " differs from the cpu device's", what, r);
        if (!strided) {
            full_on_cpu(e, d, slice, n, want, want2);
            CHECK(memcmp(cpu + r * out, want, out) == 0 && (!sr_two_outputs(d->op) || memcmp(cpu2 + r * out, want2, out) == 0),
                  "%s: result %" PRIu64 " (%" PRIu64 " elements) differs from the full call on its slice", what, r, n);
        }
        if (strided || r < 40 || r % 97 == 0)
            check_reference(e, d, slice, n, cpu + r * out, cpu2 + r * out, strided, sums ? sums[r] : 0, what);
    }
    free(slice), free(sums), free(got), free(got2), free(cpu), free(cpu2);
}

