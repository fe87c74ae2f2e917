/* hipreduce-bench's --shape modes, shared by the cpu device and GPU paths: the geometry of each
 * --dims entry (rows and columns of a matrix, contiguous or a strided view of a larger array, a
 * general [outer][extent][inner] axis, ragged CSR segments with seeded random lengths of several
 * distributions), and the axis, segment and plan calls behind one signature. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t bench_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* a * b into *out; 0, or -1 when it does not fit in 64 bits. */
static int mul_u64(uint64_t a, uint64_t b, uint64_t* out)
{
    if (a != 0 && b > UINT64_MAX / a) return -1;
    *out = a * b;
    return 0;
}

/* The ragged shape's length distributions (HIPREDUCE_BENCH_LENGTHS; default uniform), each segment
 * s's length from (seed, s, max) alone, so that bench/torch_axis_anchors.py draws the same lengths
 * (it restates these formulas):
 *   uniform    uniform in 0..max;
 *   powerlawK  Pareto, tail exponent 1.2, scale K (an integer >= 1; "powerlaw" is K = 1), capped:
 *              min(max, floor(K u^(-1/1.2)) - 1) for u uniform in (0, 1] (K = 1: P(length >= k) ~
 *              (k + 1)^-1.2, mean about 5 below the cap: graph degrees; the mean grows about as 6K);
 *   giants     8 segments of max elements (every S/8-th), the others uniform in 0..7;
 *   empty      every segment empty;
 *   fixed      every segment max elements (1xM: one segment);
 *   nonempty   uniform in 1..max (CUB's segmented benchmarks: no empty segment; max >= 1). */
typedef enum { LEN_UNIFORM, LEN_POWERLAW, LEN_GIANTS, LEN_EMPTY, LEN_FIXED, LEN_NONEMPTY, LEN_KINDS } length_kind;
static const char* const length_names[LEN_KINDS] = {"uniform", "powerlaw", "giants", "empty", "fixed", "nonempty"};
#define POWERLAW_EXPONENT 1.2

#define POWERLAW_SCALE_MAX 1048576u

static uint64_t ragged_length(length_kind kind, unsigned scale, uint64_t seed, uint64_t s, uint64_t segments,
                              uint64_t max)
{
    const uint64_t h = bench_mix64(seed ^ (s * 0xd1b54a32d192ed03ull)) >> 11; /* 53 random bits */
    switch (kind) {
    case LEN_POWERLAW: {
        const double u = (double)(h + 1) * 0x1p-53, x = floor((double)scale * pow(u, -1.0 / POWERLAW_EXPONENT));
        return x >= (double)max + 1 ? max : (uint64_t)x - 1;
    }
    case LEN_GIANTS: {
        const uint64_t every = segments / 8 ? segments / 8 : 1;
        return s % every == every / 2 ? max : h % 8;
    }
    case LEN_EMPTY: return 0;
    case LEN_FIXED: return max;
    case LEN_NONEMPTY: return 1 + h % max;
    default: return h % (max + 1);
    }
}

/* HIPREDUCE_BENCH_LENGTHS: a kind's name; powerlaw may carry its scale K (powerlaw16). */
static int length_kind_of(length_kind* kind, unsigned* scale)
{
    const char* v = getenv("HIPREDUCE_BENCH_LENGTHS");
    *kind = LEN_UNIFORM, *scale = 1;
    if (!v || !*v) return 0;
    for (int k = 0; k < LEN_KINDS; ++k) {
        const size_t len = strlen(length_names[k]);
        if (strncmp(v, length_names[k], len) != 0) continue;
        *kind = (length_kind)k;
        if (v[len] == 0) return 0;
        char* end = NULL;
        const unsigned long K = k == LEN_POWERLAW && v[len] >= '1' && v[len] <= '9' ? strtoul(v + len, &end, 10) : 0;
        if (K && !*end && K <= POWERLAW_SCALE_MAX) {
            *scale = (unsigned)K;
            return 0;
        }
    }
    fprintf(stderr, "hipreduce-bench: HIPREDUCE_BENCH_LENGTHS=%s: expected uniform, powerlaw (or powerlawK, K in 1..%u), "
            "giants, empty, fixed or nonempty\n", v, POWERLAW_SCALE_MAX);
    return -1;
}

int bench_geometry_make(bench_shape shape, const bench_dims* dims, uint64_t seed, uint64_t step, bench_geometry* g)
{
    memset(g, 0, sizeof *g);
    const uint64_t a = dims->d[0], b = dims->d[1], c = dims->d[2];
    int bad = 0;
    g->step = 1;
    if (step > 1 && shape != BENCH_SHAPE_ROWS && shape != BENCH_SHAPE_COLS) {
        fprintf(stderr, "hipreduce-bench: --step applies to --shape=rows and cols only\n");
        return -1;
    }
    switch (shape) {
    case BENCH_SHAPE_ROWS: /* R x C, each row reduced */
    case BENCH_SHAPE_COLS: /* R x C, each column reduced */
        if (shape == BENCH_SHAPE_ROWS) g->outer = a, g->extent = b, g->inner = 1, g->results = a;
        else g->outer = 1, g->extent = a, g->inner = b, g->results = b;
        snprintf(g->label, sizeof g->label, "%s:%llux%llu", shape == BENCH_SHAPE_ROWS ? "rows" : "cols",
                 (unsigned long long)a, (unsigned long long)b);
        if (step > 1) { /* the view x[::step, ::step] of a (step R) x (step C) array */
            g->step = step;
            const size_t len = strlen(g->label);
            snprintf(g->label + len, sizeof g->label - len, ":step%llu", (unsigned long long)step);
            uint64_t rows = 0, cols = 0;
            bad |= mul_u64(a, step, &rows) || mul_u64(b, step, &cols) || mul_u64(rows, cols, &g->span);
            g->slot = calloc(1, sizeof *g->slot);
            if (!g->slot) {
                fprintf(stderr, "hipreduce-bench: %s: out of memory\n", g->label);
                return -1;
            }
        }
        break;
    case BENCH_SHAPE_AXIS:
        g->outer = a, g->extent = b, g->inner = c;
        bad |= mul_u64(a, c, &g->results);
        snprintf(g->label, sizeof g->label, "axis:%llux%llux%llu", (unsigned long long)a, (unsigned long long)b,
                 (unsigned long long)c);
        break;
    case BENCH_SHAPE_RAGGED: {
        length_kind kind;
        unsigned scale;
        if (length_kind_of(&kind, &scale) != 0) return -1;
        g->num_segments = a, g->results = a;
        if (kind == LEN_UNIFORM) /* the label the earlier tables used */
            snprintf(g->label, sizeof g->label, "ragged:%llux0..%llu:seed%llu", (unsigned long long)a,
                     (unsigned long long)b, (unsigned long long)seed);
        else if (scale > 1)
            snprintf(g->label, sizeof g->label, "ragged:%llux%s%u..%llu:seed%llu", (unsigned long long)a,
                     length_names[kind], scale, (unsigned long long)b, (unsigned long long)seed);
        else
            snprintf(g->label, sizeof g->label, "ragged:%llux%s..%llu:seed%llu", (unsigned long long)a,
                     length_names[kind], (unsigned long long)b, (unsigned long long)seed);
        if (a >= SIZE_MAX / sizeof *g->offsets || b == UINT64_MAX) {
            fprintf(stderr, "hipreduce-bench: %s: too many segments\n", g->label);
            return -1;
        }
        if (kind == LEN_NONEMPTY && b == 0) {
            fprintf(stderr, "hipreduce-bench: %s: nonempty lengths need a maximum of at least 1\n", g->label);
            return -1;
        }
        g->offsets = malloc((size_t)(a + 1) * sizeof *g->offsets);
        if (!g->offsets) {
            fprintf(stderr, "hipreduce-bench: %s: out of memory for the offsets\n", g->label);
            return -1;
        }
        uint64_t at = 0;
        g->offsets[0] = 0;
        for (uint64_t s = 0; s < a && !bad; ++s) {
            const uint64_t len = ragged_length(kind, scale, seed, s, a, b);
            bad |= at > UINT64_MAX - len;
            at += len;
            g->offsets[s + 1] = at;
        }
        g->n = at;
        break;
    }
    default: return -1;
    }
    if (shape != BENCH_SHAPE_RAGGED) {
        uint64_t oe = 0;
        bad |= mul_u64(g->outer, g->extent, &oe) || mul_u64(oe, g->inner, &g->n);
    }
    if (g->step == 1) g->span = g->n;
    /* The bench's copies of the input: 64 at most, 8 bytes an element at most. */
    if (bad || g->span > UINT64_MAX / 8 / 128 || g->results > UINT64_MAX / 16 / 2) {
        fprintf(stderr, "hipreduce-bench: %s: too many elements\n", g->label);
        bench_geometry_free(g);
        return -1;
    }
    return 0;
}

void bench_geometry_free(bench_geometry* g)
{
    free(g->offsets);
    g->offsets = NULL;
    if (g->slot) hipreduce_plan_destroy(g->slot->plan);
    free(g->slot);
    g->slot = NULL;
}

uint64_t bench_geometry_position(const bench_geometry* g, uint64_t r, uint64_t e)
{
    if (g->offsets) return g->offsets[r] + e;
    if (g->step > 1) { /* view element (i, j) of R x C lies at (step i, step j) of the array */
        const int rows = g->inner == 1;
        const uint64_t i = rows ? r : e, j = rows ? e : r, cols = rows ? g->extent : g->inner;
        return g->step * i * (g->step * cols) + g->step * j;
    }
    return ((r / g->inner) * g->extent + e) * g->inner + r % g->inner;
}

/* The plan of op over the strided view g, in g's slot: kept while (op, in, out) stay the same. */
static hipreduce_status strided_plan(hipreduce_handle h, hipreduce_op op, hipreduce_dtype in, const bench_geometry* g,
                                     hipreduce_dtype out, hipreduce_plan* plan)
{
    bench_plan_slot* slot = g->slot;
    if (slot->plan && slot->op == op && slot->in == in && slot->out == out) {
        *plan = slot->plan;
        return HIPREDUCE_STATUS_SUCCESS;
    }
    hipreduce_plan_destroy(slot->plan);
    slot->plan = NULL;
    const int rows = g->inner == 1;
    const uint64_t extents[2] = {rows ? g->outer : g->extent, rows ? g->extent : g->inner};
    hipreduce_reduction_desc desc;
    hipreduce_status s = hipreduce_desc_init(&desc, op, in, out, 2, extents);
    if (s != HIPREDUCE_STATUS_SUCCESS) return s;
    desc.x_strides[0] = (int64_t)(g->step * g->step * extents[1]);
    desc.x_strides[1] = (int64_t)g->step;
    desc.num_axes = 1;
    desc.axes[0] = rows ? 1 : 0;
    s = hipreduce_plan_create(h, &desc, &slot->plan);
    if (s != HIPREDUCE_STATUS_SUCCESS) {
        slot->plan = NULL;
        return s;
    }
    slot->op = op, slot->in = in, slot->out = out;
    *plan = slot->plan;
    return s;
}

hipreduce_status bench_shape_workspace_size(hipreduce_handle h, hipreduce_op op, hipreduce_dtype in,
                                            const bench_geometry* g, hipreduce_dtype out, size_t* bytes)
{
    if (bench_op_call(op) == BENCH_CALL_DOT) return HIPREDUCE_STATUS_OP_DTYPE_MISMATCH; /* one input only */
    if (bench_op_call(op) == BENCH_CALL_ARGREDUCE && out != in)
        return HIPREDUCE_STATUS_OP_DTYPE_MISMATCH; /* the value is in the input dtype */
    if (g->slot) {
        hipreduce_plan plan = NULL;
        const hipreduce_status s = strided_plan(h, op, in, g, out, &plan);
        if (s != HIPREDUCE_STATUS_SUCCESS) return s;
        /* device results: a GPU handle's only (the cpu device refuses the location) */
        size_t host = 0, device = 0;
        const hipreduce_status sh = hipreduce_plan_workspace_size(h, plan, HIPREDUCE_RESULT_HOST, &host);
        const hipreduce_status sd = hipreduce_plan_workspace_size(h, plan, HIPREDUCE_RESULT_DEVICE, &device);
        *bytes = host > device ? host : device;
        if (sh != HIPREDUCE_STATUS_SUCCESS) return sh;
        return sd == HIPREDUCE_STATUS_INVALID_LOCATION ? HIPREDUCE_STATUS_SUCCESS : sd;
    }
    switch (bench_op_call(op)) {
    case BENCH_CALL_ARGREDUCE:
        if (g->offsets) return hipreduce_argreduce_segments_workspace_size(h, op, in, g->num_segments, bytes);
        return hipreduce_argreduce_axis_workspace_size(h, op, in, g->outer, g->extent, g->inner, bytes);
    default:
        if (g->offsets) return hipreduce_reduce_segments_workspace_size(h, op, in, g->num_segments, out, bytes);
        return hipreduce_reduce_axis_workspace_size(h, op, in, g->outer, g->extent, g->inner, out, bytes);
    }
}

hipreduce_status bench_shape_call(hipreduce_handle h, hipreduce_op op, hipreduce_dtype in, const void* x,
                                  const bench_geometry* g, const uint64_t* offsets, hipreduce_dtype out,
                                  void* values, int64_t* indices, hipreduce_location location)
{
    if (bench_op_call(op) == BENCH_CALL_DOT) return HIPREDUCE_STATUS_OP_DTYPE_MISMATCH;
    if (g->slot) {
        hipreduce_plan plan = NULL;
        const hipreduce_status s = strided_plan(h, op, in, g, out, &plan);
        if (s != HIPREDUCE_STATUS_SUCCESS) return s;
        hipreduce_operands ops;
        memset(&ops, 0, sizeof ops);
        ops.x = x, ops.values = values;
        if (bench_op_call(op) == BENCH_CALL_ARGREDUCE) ops.indices = indices;
        return hipreduce_plan_run(h, plan, &ops, location);
    }
    switch (bench_op_call(op)) {
    case BENCH_CALL_ARGREDUCE:
        if (g->offsets)
            return hipreduce_argreduce_segments(h, op, in, x, g->num_segments, offsets, values, indices, location);
        return hipreduce_argreduce_axis(h, op, in, x, g->outer, g->extent, g->inner, values, indices, location);
    default:
        if (g->offsets) return hipreduce_reduce_segments(h, op, in, x, g->num_segments, offsets, out, values, location);
        return hipreduce_reduce_axis(h, op, in, x, g->outer, g->extent, g->inner, out, values, location);
    }
}
