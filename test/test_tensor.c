/* Descriptors and plans over strided tensors: random rank 0-8 tensors (extents 0, 1 and longer
 * than a tile; permuted, padded, reversed and broadcast strides; any set of reduced axes) whose
 * every result must have the bits of the simple call over the contiguous copy of its elements,
 * gathered here by the test's own indexing; the strided order against hipreduce_reduce_axis; and
 * bad descriptors, each a status and a message with nothing written.
 * Usage: hipreduce_test_tensor cpu|gpu (gpu: the plans on GPU 0, references on the cpu device;
 * exits 77 without a GPU). HIPREDUCE_TEST_PROFILE=emu/emu-smoke: fewer, smaller cases. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_env.h"
#include "hipreduce/hipreduce.h"
#include "test_check.h"
#include "test_run.h"

static const op_case cases[] = {
    {HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F32},        {HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F64},
    {HIPREDUCE_OP_SUM, HIPREDUCE_F64, HIPREDUCE_F64},        {HIPREDUCE_OP_SUM, HIPREDUCE_I32, HIPREDUCE_I64},
    {HIPREDUCE_OP_SUM, HIPREDUCE_BF16, HIPREDUCE_F32},       {HIPREDUCE_OP_SUM_SQUARES, HIPREDUCE_F16, HIPREDUCE_F32},
    {HIPREDUCE_OP_MAX, HIPREDUCE_U8, HIPREDUCE_U8},          {HIPREDUCE_OP_MIN, HIPREDUCE_I16, HIPREDUCE_I16},
    {HIPREDUCE_OP_PROD, HIPREDUCE_F64, HIPREDUCE_F64},       {HIPREDUCE_OP_NRM2, HIPREDUCE_F32, HIPREDUCE_F32},
    {HIPREDUCE_OP_ARGMAX, HIPREDUCE_F32, HIPREDUCE_F32},     {HIPREDUCE_OP_ARGMIN, HIPREDUCE_I8, HIPREDUCE_I8},
    {HIPREDUCE_OP_DOT, HIPREDUCE_F32, HIPREDUCE_F32},        {HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F32, HIPREDUCE_F32},
    {HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F64, HIPREDUCE_F64},  {HIPREDUCE_OP_DOT_EXACT, HIPREDUCE_F64, HIPREDUCE_F64},
};
enum { CASES = sizeof cases / sizeof cases[0] };

static int is_arg(hipreduce_op op) { return op == HIPREDUCE_OP_ARGMIN || op == HIPREDUCE_OP_ARGMAX; }
static int is_dot(hipreduce_op op) { return op == HIPREDUCE_OP_DOT || op == HIPREDUCE_OP_DOT_EXACT; }

/* Random bytes that are a valid, finite value of dtype (floats: small magnitudes, both signs). */
static void fill(unsigned char* p, uint64_t count, hipreduce_dtype dtype)
{
    const size_t elem = hipreduce_dtype_size(dtype);
    for (uint64_t i = 0; i < count; ++i, p += elem) {
        const double v = (double)(int64_t)below(2001) / 100.0 - 10.0;
        if (dtype == HIPREDUCE_F32) { const float f = (float)v * 1.1f; memcpy(p, &f, 4); }
        else if (dtype == HIPREDUCE_F64) { const double d = v * 1.3; memcpy(p, &d, 8); }
        else if (dtype == HIPREDUCE_F16) { const uint16_t h = hipreduce_f32_to_f16((float)v / 4); memcpy(p, &h, 2); }
        else if (dtype == HIPREDUCE_BF16) { const uint16_t h = hipreduce_f32_to_bf16((float)v); memcpy(p, &h, 2); }
        else { const uint64_t r = next_random(); memcpy(p, &r, elem); }
    }
}

/* One random strided layout of `rank` extents over a fresh buffer: strides, the element (0..0)'s
 * offset in the buffer, and the buffer's element count. */
static void random_layout(int rank, const uint64_t* ext, int64_t* strides, uint64_t* base, uint64_t* count)
{
    int order[HIPREDUCE_MAX_RANK];
    for (int a = 0; a < rank; ++a) order[a] = a;
    for (int a = rank - 1; a > 0; --a) { const int j = (int)below((uint64_t)a + 1), t = order[a]; order[a] = order[j]; order[j] = t; }
    int64_t stride = 1 + (int64_t)below(2) * (below(4) == 0); /* sometimes every other element */
    for (int i = rank - 1; i >= 0; --i) {
        const int a = order[i];
        strides[a] = below(10) == 0 ? 0 : stride; /* a broadcast now and then */
        if (strides[a] != 0) stride *= (int64_t)(ext[a] ? ext[a] : 1) + (below(5) == 0); /* padding */
    }
    int64_t low = 0, high = 0;
    for (int a = 0; a < rank; ++a) {
        if (below(4) == 0) strides[a] = -strides[a]; /* reversed */
        const int64_t reach = ext[a] ? strides[a] * (int64_t)(ext[a] - 1) : 0;
        if (reach < 0) low += reach; else high += reach;
    }
    *base = (uint64_t)-low;
    *count = (uint64_t)(high - low) + 1;
}

/* Offset of element (kept index k, reduced index j) in the test's own row-major walk. */
static int64_t element_offset(int rank, const uint64_t* ext, const int64_t* s, unsigned mask, uint64_t k, uint64_t j)
{
    int64_t offset = 0;
    for (int a = rank - 1; a >= 0; --a) {
        uint64_t* i = (mask >> a) & 1 ? &j : &k;
        offset += (int64_t)(*i % ext[a]) * s[a];
        *i /= ext[a];
    }
    return offset;
}



/* Runs the plan of d (reduced axes `mask`; x's element (0..0) at xbase of xcount elements, y's
 * likewise) and checks every result against the simple call over its gathered elements. */
static void check_layout(const env* e, const op_case* c, hipreduce_reduction_desc* dp, unsigned mask, uint64_t xbase,
                         uint64_t xcount, uint64_t ybase, uint64_t ycount)
{
    hipreduce_reduction_desc d = *dp;
    const int rank = d.rank;
    const uint64_t* ext = d.extents;
    const size_t elem = hipreduce_dtype_size(c->in), out = hipreduce_dtype_size(c->out);
    uint64_t results = 1, reduced = 1;
    for (int a = 0; a < rank; ++a) *((mask >> a) & 1 ? &reduced : &results) *= ext[a];
    unsigned char* x = malloc(xcount * elem);
    unsigned char* y = malloc((ycount ? ycount : 1) * elem);
    fill(x, xcount, c->in);
    fill(y, ycount, c->in);
    /* References: each result by the simple call over the gathered row. */
    unsigned char* row = malloc((reduced ? reduced : 1) * elem);
    unsigned char* row_y = malloc((reduced ? reduced : 1) * elem);
    unsigned char* want = malloc((results ? results : 1) * out);
    int64_t* want_index = malloc((results ? results : 1) * sizeof(int64_t));
    for (uint64_t k = 0; k < results; ++k) {
        for (uint64_t j = 0; j < reduced; ++j) {
            memcpy(row + j * elem, x + (xbase + element_offset(rank, ext, d.x_strides, mask, k, j)) * elem, elem);
            if (is_dot(c->op))
                memcpy(row_y + j * elem, y + (ybase + element_offset(rank, ext, d.y_strides, mask, k, j)) * elem, elem);
        }
        hipreduce_status st;
        if (is_arg(c->op)) st = hipreduce_argreduce(e->cpu, c->op, c->in, row, reduced, want + k * out, want_index + k, HIPREDUCE_RESULT_HOST);
        else if (is_dot(c->op)) st = hipreduce_dot_op(e->cpu, c->op, c->in, row, row_y, reduced, c->out, want + k * out, HIPREDUCE_RESULT_HOST);
        else st = hipreduce_reduce(e->cpu, c->op, c->in, row, reduced, c->out, want + k * out, HIPREDUCE_RESULT_HOST);
        CHECK(st == HIPREDUCE_STATUS_SUCCESS, "reference %s: %s", hipreduce_op_name(c->op), hipreduce_last_error_message(e->cpu));
    }

    hipreduce_plan plan = NULL;
    hipreduce_status st = hipreduce_plan_create(e->run, &d, &plan);
    CHECK(st == HIPREDUCE_STATUS_SUCCESS, "plan_create: %s", hipreduce_last_error_message(e->run));
    uint64_t planned = 0;
    CHECK(plan && hipreduce_plan_results(plan, &planned) == HIPREDUCE_STATUS_SUCCESS && planned == results,
          "plan_results %" PRIu64 " for %" PRIu64, planned, results);
    unsigned char* dx = place(e, x, xcount * elem);
    unsigned char* dy = place(e, y, (ycount ? ycount : 1) * elem);
    unsigned char* got = malloc((results ? results : 1) * out);
    int64_t* got_index = malloc((results ? results : 1) * sizeof(int64_t));
    memset(got, 0xa5, (results ? results : 1) * out);
    hipreduce_operands ops = {.x = dx + xbase * elem, .y = is_dot(c->op) ? dy + ybase * elem : NULL,
                              .values = got, .indices = is_arg(c->op) ? got_index : NULL};
    if (plan) {
        st = hipreduce_plan_run(e->run, plan, &ops, HIPREDUCE_RESULT_HOST);
        CHECK(st == HIPREDUCE_STATUS_SUCCESS, "plan_run: %s", hipreduce_last_error_message(e->run));
        if (st == HIPREDUCE_STATUS_SUCCESS) {
            char shape[256];
            int at = snprintf(shape, sizeof shape, "%s %s->%s rank %d reduced 0x%x extents", hipreduce_op_name(c->op),
                              hipreduce_dtype_name(c->in), hipreduce_dtype_name(c->out), rank, mask);
            for (int a = 0; a < rank && at < 200; ++a)
                at += snprintf(shape + at, sizeof shape - (size_t)at, " %" PRIu64 "/%" PRId64, ext[a], d.x_strides[a]);
            for (uint64_t k = 0; k < results; ++k) {
                CHECK(memcmp(got + k * out, want + k * out, out) == 0, "%s: result %" PRIu64 " differs", shape, k);
                if (is_arg(c->op)) CHECK(got_index[k] == want_index[k], "%s: index %" PRIu64 " differs", shape, k);
            }
        }
    }
    hipreduce_plan_destroy(plan);
    release(e, dx);
    release(e, dy);
    free(x), free(y), free(row), free(row_y), free(want), free(want_index), free(got), free(got_index);
}

static void one_case(const env* e, const op_case* c, uint64_t limit)
{
    hipreduce_reduction_desc d;
    const int rank = (int)below(HIPREDUCE_MAX_RANK + 1);
    uint64_t ext[HIPREDUCE_MAX_RANK], total = 1;
    for (int a = 0; a < rank; ++a) {
        const uint64_t pick = below(20);
        ext[a] = pick == 0 ? 0 : pick < 5 ? 1 : pick < 17 ? 1 + below(5) : 1 + below(limit);
        if (ext[a] && total * ext[a] > limit) ext[a] = 1;
        total *= ext[a] ? ext[a] : 1;
    }
    CHECK(hipreduce_desc_init(&d, c->op, c->in, c->out, rank, ext) == HIPREDUCE_STATUS_SUCCESS, "desc_init");
    uint64_t xbase, xcount, ybase = 0, ycount = 0;
    random_layout(rank, ext, d.x_strides, &xbase, &xcount);
    if (is_dot(c->op)) random_layout(rank, ext, d.y_strides, &ybase, &ycount);
    unsigned mask = 0;
    d.num_axes = 0;
    for (int a = 0; a < rank; ++a)
        if (below(2)) mask |= 1u << a;
    for (int a = 0; a < rank; ++a) /* listed in a random order: the list's order does not matter */
        if ((mask >> ((a * 5 + 3) % rank)) & 1) d.axes[d.num_axes++] = (a * 5 + 3) % rank;
    if (rank && (rank % 5 == 0)) { /* (a*5+3) % 5 is not a permutation: list them plainly */
        d.num_axes = 0;
        for (int a = 0; a < rank; ++a) if ((mask >> a) & 1) d.axes[d.num_axes++] = a;
    }
    check_layout(e, c, &d, mask, xbase, xcount, ybase, ycount);
}

/* Layouts that reach each way the GPU reads a tensor (device/tensor.h), row-major strides with
 * the given order of axes in memory (perm: the axis of each memory position, outermost first),
 * every op case: by columns (a kept axis fastest: column sums, channels-last; partials over a
 * tile, and few or many slices above it), by tiles with 16-byte loads along contiguous runs (NCHW
 * over (0, 2, 3)), element by element (runs of an odd length, a stride of 2). Large: three
 * levels (more than 2^24 elements a slice), by tiles and by columns. */
typedef struct fixed_layout {
    int rank;
    uint64_t ext[4];
    int perm[4];
    int64_t step; /* the innermost memory position's stride */
    unsigned mask;
} fixed_layout;

static void fixed_shapes(const env* e, int large)
{
    static const fixed_layout layouts[] = {
        {2, {9000, 40}, {0, 1}, 1, 0x1},           /* column sums, 3 tiles, upper levels by columns */
        {2, {9000, 5}, {0, 1}, 1, 0x1},            /* 5 columns: by tiles, upper levels as rows */
        {2, {37, 4100}, {1, 0}, 1, 0x2},           /* a transposed view's row sums */
        {4, {3, 7, 40, 52}, {0, 1, 2, 3}, 1, 0xd}, /* NCHW over (0, 2, 3): runs of 2080 */
        {4, {3, 7, 9, 7}, {0, 1, 2, 3}, 1, 0xd},   /* runs of 63 */
        {4, {2, 30, 30, 48}, {0, 2, 3, 1}, 1, 0x7}, /* channels-last over (0, 1, 2) */
        {2, {300, 64}, {0, 1}, 2, 0x2},            /* every other element's row sums */
        {3, {5, 3000, 33}, {0, 1, 2}, 1, 0x2},     /* a middle axis */
    };
    static const fixed_layout big[] = {
        {1, {(UINT64_C(1) << 24) + 77}, {0}, 2, 0x1},   /* one slice, three levels by tiles */
        {2, {(UINT64_C(1) << 24) + 9, 16}, {0, 1}, 1, 0x1}, /* 16 columns, three levels by columns */
    };
    const fixed_layout* list = large ? big : layouts;
    const int count = large ? (int)(sizeof big / sizeof big[0]) : (int)(sizeof layouts / sizeof layouts[0]);
    for (int l = 0; l < count; ++l) {
        const fixed_layout* f = &list[l];
        for (int k = 0; k < CASES; ++k) {
            const op_case* c = &cases[k];
            if (large && (c->op != HIPREDUCE_OP_SUM || c->in != HIPREDUCE_F32 || c->out != HIPREDUCE_F32)) continue;
            hipreduce_reduction_desc d;
            CHECK(hipreduce_desc_init(&d, c->op, c->in, c->out, f->rank, f->ext) == HIPREDUCE_STATUS_SUCCESS, "desc_init");
            int64_t stride = f->step;
            for (int m = f->rank - 1; m >= 0; --m) {
                d.x_strides[f->perm[m]] = stride;
                d.y_strides[f->perm[m]] = stride;
                stride *= (int64_t)f->ext[f->perm[m]];
            }
            d.num_axes = 0;
            for (int a = 0; a < f->rank; ++a)
                if ((f->mask >> a) & 1) d.axes[d.num_axes++] = a;
            const uint64_t count_x = (uint64_t)stride / (uint64_t)f->step * (uint64_t)f->step;
            check_layout(e, c, &d, f->mask, 0, count_x, 0, is_dot(c->op) ? count_x : 0);
        }
    }
}

/* The strided order: contiguous tensors with one block of reduced axes, against reduce_axis. */
static void strided_order(const env* e)
{
    const uint64_t ext[3] = {3, 700, 5};
    float x[3 * 700 * 5];
    fill((unsigned char*)x, 3 * 700 * 5, HIPREDUCE_F32);
    hipreduce_reduction_desc d;
    CHECK(hipreduce_desc_init(&d, HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F32, 3, ext) == HIPREDUCE_STATUS_SUCCESS, "init");
    d.num_axes = 1;
    d.axes[0] = 1;
    d.order = HIPREDUCE_ORDER_STRIDED;
    float want[15], got[15];
    CHECK(hipreduce_reduce_axis(e->cpu, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, 3, 700, 5, HIPREDUCE_F32, want,
                                HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_SUCCESS, "reduce_axis");
    hipreduce_plan plan = NULL;
    CHECK(hipreduce_plan_create(e->run, &d, &plan) == HIPREDUCE_STATUS_SUCCESS, "strided plan");
    void* dx = place(e, x, sizeof x);
    hipreduce_operands ops = {.x = dx, .values = got};
    CHECK(plan && hipreduce_plan_run(e->run, plan, &ops, HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_SUCCESS, "strided run");
    CHECK(memcmp(got, want, sizeof want) == 0, "strided order differs from reduce_axis");
    hipreduce_plan_destroy(plan);
    release(e, dx);
    d.x_strides[0] = -d.x_strides[0]; /* not contiguous row-major: NOT_SUPPORTED */
    plan = NULL;
    CHECK(hipreduce_plan_create(e->run, &d, &plan) == HIPREDUCE_STATUS_NOT_SUPPORTED && plan == NULL, "strided non-contiguous");
}

/* Bad descriptors: the status, a message, and the plan pointer untouched. */
static void bad_descriptors(hipreduce_handle h)
{
    const uint64_t ext[2] = {4, 5};
    hipreduce_reduction_desc good, d;
    CHECK(hipreduce_desc_init(&good, HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F32, 2, ext) == HIPREDUCE_STATUS_SUCCESS, "init");
    hipreduce_plan sentinel = (hipreduce_plan)&good, plan;
#define BAD(expect, edit)                                                                                  \
    do {                                                                                                   \
        d = good;                                                                                          \
        edit;                                                                                              \
        plan = sentinel;                                                                                   \
        const hipreduce_status st_ = hipreduce_plan_create(h, &d, &plan);                                  \
        CHECK(st_ == (expect) && plan == sentinel && hipreduce_last_error_message(h)[0] != '\0',           \
              "bad descriptor `%s`: status %d (%s), want %d", #edit, (int)st_, hipreduce_last_error_message(h), (int)(expect)); \
    } while (0)
    BAD(HIPREDUCE_STATUS_INVALID_AXES, d.rank = HIPREDUCE_MAX_RANK + 1);
    BAD(HIPREDUCE_STATUS_INVALID_AXES, d.rank = -1);
    BAD(HIPREDUCE_STATUS_INVALID_AXES, (d.num_axes = 2, d.axes[1] = 0));
    BAD(HIPREDUCE_STATUS_INVALID_AXES, d.axes[0] = 2);
    BAD(HIPREDUCE_STATUS_INVALID_AXES, d.axes[1] = -1);
    BAD(HIPREDUCE_STATUS_INVALID_AXES, d.num_axes = 3);
    BAD(HIPREDUCE_STATUS_SIZE_OVERFLOW, (d.extents[0] = UINT64_C(1) << 40, d.extents[1] = UINT64_C(1) << 40));
    BAD(HIPREDUCE_STATUS_SIZE_OVERFLOW, d.x_strides[0] = INT64_MAX / 2);
    BAD(HIPREDUCE_STATUS_SIZE_OVERFLOW, d.x_strides[1] = INT64_MIN);
    BAD(HIPREDUCE_STATUS_INVALID_OP, d.op = (hipreduce_op)99);
    BAD(HIPREDUCE_STATUS_INVALID_DTYPE, d.in_dtype = (hipreduce_dtype)99);
    BAD(HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, d.out_dtype = HIPREDUCE_I8);
    BAD(HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, (d.op = HIPREDUCE_OP_ARGMAX, d.out_dtype = HIPREDUCE_F64));
    BAD(HIPREDUCE_STATUS_NOT_SUPPORTED, d.layout = (hipreduce_layout)7);
    BAD(HIPREDUCE_STATUS_NOT_SUPPORTED, d.order = (hipreduce_order)7);
    BAD(HIPREDUCE_STATUS_NOT_SUPPORTED, d.reserved[3] = 1);
    plan = sentinel;
    CHECK(hipreduce_plan_create(h, NULL, &plan) == HIPREDUCE_STATUS_INVALID_POINTER && plan == sentinel, "NULL desc");
    CHECK(hipreduce_plan_create(h, &good, NULL) == HIPREDUCE_STATUS_INVALID_POINTER, "NULL plan");
#undef BAD
    CHECK(hipreduce_plan_create(NULL, &good, &plan) == HIPREDUCE_STATUS_INVALID_HANDLE, "NULL handle");
    /* Runs: NULL operands and pointers; segments past the input's length (cpu device). */
    CHECK(hipreduce_plan_create(h, &good, &plan) == HIPREDUCE_STATUS_SUCCESS, "good plan");
    float x[20] = {0}, v[4] = {1, 2, 3, 4};
    hipreduce_operands ops = {.x = x, .values = NULL};
    CHECK(hipreduce_plan_run(h, plan, NULL, HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_INVALID_POINTER, "NULL operands");
    CHECK(hipreduce_plan_run(h, plan, &ops, HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_INVALID_POINTER, "NULL values");
    ops.values = v;
    ops.x = NULL;
    CHECK(hipreduce_plan_run(h, plan, &ops, HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_INVALID_POINTER && v[0] == 1,
          "NULL x, nothing written");
    hipreduce_plan_destroy(plan);
    hipreduce_plan_destroy(NULL);
}

static void segments_length(hipreduce_handle h)
{
    hipreduce_reduction_desc d;
    memset(&d, 0, sizeof d);
    d.op = HIPREDUCE_OP_SUM;
    d.in_dtype = d.out_dtype = HIPREDUCE_F32;
    d.layout = HIPREDUCE_LAYOUT_SEGMENTS;
    d.num_segments = 2;
    d.length = 6;
    const float x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const uint64_t ok[3] = {0, 2, 6}, past[3] = {0, 2, 8};
    float got[2] = {-1, -1}, want[2];
    hipreduce_plan plan = NULL;
    CHECK(hipreduce_plan_create(h, &d, &plan) == HIPREDUCE_STATUS_SUCCESS, "segments plan");
    hipreduce_operands ops = {.x = x, .offsets = ok, .values = got};
    CHECK(hipreduce_plan_run(h, plan, &ops, HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_SUCCESS, "segments run");
    CHECK(hipreduce_reduce_segments(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, 2, ok, HIPREDUCE_F32, want,
                                    HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_SUCCESS, "segments simple");
    CHECK(memcmp(got, want, sizeof got) == 0, "segments plan differs from the simple call");
    got[0] = got[1] = -1;
    ops.offsets = past;
    CHECK(hipreduce_plan_run(h, plan, &ops, HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_INVALID_OFFSETS && got[0] == -1,
          "offsets past the length: INVALID_OFFSETS, nothing written");
    hipreduce_plan_destroy(plan);
}

int main(int argc, char** argv)
{
    env e;
    const int opened = env_open(argc, argv, &e);
    if (opened) return opened;
    const int gpu = e.gpu;
    const enum test_profile profile = test_profile();
    const int rounds = profile == TEST_EMU_SMOKE ? 2 : profile == TEST_EMU ? 6 : 40;
    const uint64_t limit = profile == TEST_FULL ? 20000 : 6000;
    for (int r = 0; r < rounds; ++r)
        for (int c = 0; c < CASES; ++c) one_case(&e, &cases[c], limit);
    fixed_shapes(&e, 0);
    if (profile == TEST_FULL && gpu) fixed_shapes(&e, 1);
    strided_order(&e);
    bad_descriptors(e.run);
    if (!gpu) segments_length(e.cpu);
    env_close(&e);
    printf("tensor (%s): %d rounds of %d op cases, %d failures\n", gpu ? "gpu" : "cpu", rounds, CASES, failures);
    return failures ? 1 : 0;
}
