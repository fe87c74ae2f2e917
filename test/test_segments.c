/* segments suite: hipreduce_reduce_axis, hipreduce_argreduce_axis,
 * hipreduce_reduce_segments, hipreduce_argreduce_segments and their size queries, every op over
 * f32, f64, f16, bf16, i8, i32, u8, u64 with the input, widest and f32 result dtypes:
 *  - rows (inner 1) of extents 0, 1, 2, 8, 12, 16, 31..33, 255..257, 260, 1024, one tile +-1 and several tiles, outer
 *    up to 300 (every row start differently aligned where the extent is odd, and the input
 *    itself 0..2 elements off its buffer's alignment);
 *  - ragged segments (runs of empty ones), one giant segment among tiny ones, the extents as
 *    consecutive segments; one segment over 4096^2 f32 elements (HIPREDUCE_SEGMENTS_MAX_N);
 *  - length distributions: all empty, uniform short, power-law, giants among tiny,
 *    one segment of several tiles, for a few ops and dtypes;
 *  - columns (inner 2, 3, 64, 1000) of extents 0, 1, 2, 255..257 and 256^2 + 1, long columns
 *    side by side (64 x 16385, 1000 x 1025) for f32/bf16 sum, nrm2 and argmax;
 * value patterns with NaNs, infinities, signed zeros and ties; inputs of -0.0 only. Contiguous results are checked
 * against hipreduce_reduce / hipreduce_argreduce of the slice, strided ones against
 * segments_model.c, the GPU against the cpu device (segments_run.c); then the rule sections.
 *   hipreduce_test_segments cpu   the cpu device only (label api)
 *   hipreduce_test_segments gpu   also GPU 0; exits 77 (skipped) where there is none (gpu, emu)
 *   HIPREDUCE_TEST_PROFILE=emu: one value pattern per triple, rows of 19, fewer columns, 256^2 + 1
 *   columns for f32 sum and argmax only, no giant segment; emu-smoke: every fourth triple, small
 *   shapes only
 *   HIPREDUCE_TEST_THREADS=k: the cpu handle with k threads
 *   HIPREDUCE_SEGMENTS_MAX_N=k: the giant segment's section only where k >= 4096^2 + 21 (default
 *   4096^2 + 64; 0 in the emu profiles) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_memory.h"
#include "reference.h"
#include "segments_run.h"

#define SKIP 77

static uint64_t mix(uint64_t z) /* splitmix64's finalizer */
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}
static uint64_t hash(uint64_t seed, uint64_t i) { return mix(seed + (i + 1) * UINT64_C(0x9e3779b97f4a7c15)); }

/* RANDOM: full-range integers, floats +-(1 + m) 2^e, e in [-6, 6]; NEAR1 (prod): odd integers,
 * floats within 1/64 of 1; SPECIAL: floats mostly ties (+-0.5, 1, 2) and signed zeros with rare
 * NaNs (several payloads), infinities and subnormals; integers in [-3, 3] and the limits. */
enum { P_RANDOM, P_NEAR1, P_SPECIAL, P_KINDS };
static const char* const pattern_names[P_KINDS] = {"random", "near1", "special"};

static void fill(hipreduce_dtype d, int pattern, uint64_t n, uint64_t seed, void* x)
{
    const unsigned bits = (unsigned)(8 * tr_size(d));
    const uint64_t top = bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
    const uint64_t smin = tr_is_signed(d) ? UINT64_C(1) << (bits - 1) : 0, smax = tr_is_signed(d) ? top >> 1 : top;
    static const double ties[6] = {0.5, -0.5, 1, -1, 2, -2};
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t h = hash(seed, i);
        if (!tr_is_float(d)) {
            const uint64_t limits[4] = {smin, smax, 0, top};
            const uint64_t v = pattern == P_NEAR1 ? h | 1
                             : pattern == P_SPECIAL ? ((h >> 8) % 16 == 0 ? limits[(h >> 12) % 4]
                                                                          : (uint64_t)((int64_t)((h >> 16) % 7) - 3))
                                                    : h;
            tr_store_bits(d, x, i, v);
            continue;
        }
        const double sign = (h >> 4) & 1 ? -1.0 : 1.0;
        double v = sign * ldexp(1 + ldexp((double)(h >> 12), -52), (int)(h % 13) - 6);
        if (pattern == P_NEAR1) v = 1 + ldexp((double)(h >> 12), -52) / 32 - 1.0 / 64;
        if (pattern == P_SPECIAL) {
            const unsigned k = (unsigned)((h >> 20) % 512);
            v = k == 0 ? NAN : k == 1 ? INFINITY : k == 2 ? -INFINITY : k < 8 ? sign * 0x1p-140 * (double)(h >> 60)
              : k < 72 ? sign * 0.0 : ties[(h >> 30) % 6];
            if (d == HIPREDUCE_F16 && k >= 3 && k < 8) v = sign * 0x1p-24 * (double)((h >> 60) | 1); /* its subnormals */
        }
        tr_store_float(d, x, i, v);
        if (isnan(v)) /* payloads and signs other than the canonical NaN's */
            tr_store_bits(d, x, i, tr_canonical_nan(d) | (h >> 40 & 1) | (h >> 41 & 1 ? UINT64_C(1) << (bits - 1) : 0));
    }
}

static const hipreduce_dtype dtypes[] = {HIPREDUCE_F32, HIPREDUCE_F64, HIPREDUCE_F16, HIPREDUCE_BF16,
                                         HIPREDUCE_I8,  HIPREDUCE_I32, HIPREDUCE_U8,  HIPREDUCE_U64};

/* The result dtypes tried for (op, in): in itself, the widest of its class, f32 for halves, and
 * the unsigned result of an integer max_abs. */
static int tried(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out)
{
    if (op == HIPREDUCE_OP_DOT || !tr_allowed(op, in, out)) return 0;
    const hipreduce_dtype widest = tr_is_float(in) ? HIPREDUCE_F64 : tr_is_signed(in) ? HIPREDUCE_I64 : HIPREDUCE_U64;
    return out == in || out == widest || out == HIPREDUCE_F32 || op == HIPREDUCE_OP_MAX_ABS;
}

/* ---- shapes ---- */

/* Elements of each pattern's buffer: at least what any shape reads plus its shift (checked). */
#define SHAPES_ROOM (UINT64_C(1) << 21)

typedef struct layout { uint64_t count, offsets[512]; } layout;

static void push(layout* l, uint64_t length)
{
    if (l->count == 0) l->offsets[0] = 0;
    l->offsets[l->count + 1] = l->offsets[l->count] + length;
    ++l->count;
}

/* Ragged lengths 0..299, empty ones in runs (an empty segment is followed by another 70% of the
 * time). */
static void ragged(layout* l, uint64_t segments, uint64_t seed)
{
    int empty = 0;
    for (uint64_t s = 0; s < segments; ++s) {
        const uint64_t h = hash(seed, s);
        empty = empty ? h % 10 < 7 : h % 10 < 3;
        push(l, empty ? 0 : 1 + (h >> 8) % 299);
    }
}

/* Tiny and empty segments around one longer than two tiles and one of a tile + 1. */
static void giant(layout* l, uint64_t tile)
{
    static const uint64_t before[] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 3};
    for (size_t i = 0; i < sizeof before / sizeof before[0]; ++i) push(l, before[i]);
    push(l, 2 * tile + 7);
    push(l, 1), push(l, 0), push(l, 0), push(l, 0);
    push(l, tile + 1);
    push(l, 5), push(l, 0);
}

typedef struct matrix_ctx {
    sg_ctx* c;
    unsigned char* x[P_KINDS]; /* each pattern's values of the current dtype */
    uint64_t tile, cases;
    int fails;
} matrix_ctx;

static void axis(matrix_ctx* m, const char* what, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, int p,
                 uint64_t outer, uint64_t extent, uint64_t inner)
{
    const sg_shape s = {0, outer, extent, inner, 0, NULL, m->cases++ % 3};
    if (s.shift + sg_inputs(&s) > SHAPES_ROOM) {
        ref_report("FAIL: the suite's shape %llu x %llu x %llu needs a larger SHAPES_ROOM", (unsigned long long)outer,
                   (unsigned long long)extent, (unsigned long long)inner);
        ++m->fails;
        return;
    }
    m->fails += sg_case(m->c, what, op, in, out, m->x[p], &s);
}

static void segments(matrix_ctx* m, const char* what, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, int p,
                     const layout* l)
{
    const sg_shape s = {1, 0, 0, 0, l->count, l->offsets, m->cases++ % 3};
    if (s.shift + sg_inputs(&s) > SHAPES_ROOM) {
        ref_report("FAIL: the suite's segments need a larger SHAPES_ROOM");
        ++m->fails;
        return;
    }
    m->fails += sg_case(m->c, what, op, in, out, m->x[p], &s);
}

/* Every shape of one (op, in, out) over pattern p. */
static void shapes(matrix_ctx* m, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, int p)
{
    const int emu = m->c->profile != TEST_FULL, smoke = m->c->profile == TEST_EMU_SMOKE;
    const uint64_t t = m->tile;
    /* 260 and 1024: rows of 129-256 whole chunks for f64 and f32 (rows_prefetch_kernel); 2, 4, 8, 12,
     * 16: rows of 1-4 whole chunks for f64 and f32 (short_rows_kernel, groups of 1, 2 and 4 threads),
     * 1, 2 and 4 chunks of 8-bit types. */
    const uint64_t extents[] = {0, 1, 2, 31, 32, 33, 255, 256, 257, 260, 1024, t - 1, t, t + 1, 3 * t + 5, 8, 12, 16, 4};
    const size_t n_extents = smoke ? 9 : sizeof extents / sizeof extents[0];
    char what[64];
    snprintf(what, sizeof what, "rows %s", pattern_names[p]);
    for (size_t i = 0; i < n_extents; ++i) {
        const uint64_t e = extents[i];
        const uint64_t outer = e <= 1024 ? (emu ? 19 : 300) : e <= t + 1 ? 3 : 2;
        axis(m, what, op, in, out, p, outer, e, 1);
    }
    axis(m, what, op, in, out, p, 1, smoke ? 1000 : t + 1, 1);
    snprintf(what, sizeof what, "segments %s", pattern_names[p]);
    layout l;
    l.count = 0;
    ragged(&l, emu ? 48 : 300, (uint64_t)p * 31 + op);
    segments(m, what, op, in, out, p, &l);
    if (!smoke) {
        l.count = 0;
        giant(&l, t);
        segments(m, what, op, in, out, p, &l);
    }
    l.count = 0;
    for (size_t i = 0; i < n_extents; ++i) push(&l, extents[i]), push(&l, i % 3 == 0 ? 0 : 1);
    segments(m, what, op, in, out, p, &l);
    snprintf(what, sizeof what, "columns %s", pattern_names[p]);
    static const uint64_t inners[] = {2, 3, 64, 1000};
    static const uint64_t col_extents[] = {0, 1, 2, 255, 256, 257};
    for (size_t i = 0; i < 4; ++i)
        for (size_t j = 0; j < 6; ++j) {
            const uint64_t inner = inners[i], e = col_extents[j];
            if (emu && (inner == 1000 ? e > 2 : (e == 256 || (smoke && e > 2)))) continue;
            axis(m, what, op, in, out, p, inner == 1000 ? 1 + (e < 3) : 2, e, inner);
        }
    /* Three strided levels; on the emulator only f32 sum and argmax. */
    const int three_levels = !emu || (m->c->profile == TEST_EMU && in == HIPREDUCE_F32 &&
                                      (op == HIPREDUCE_OP_SUM || op == HIPREDUCE_OP_ARGMAX));
    if (three_levels) axis(m, what, op, in, out, p, 1, 256 * 256 + 1, 2);
    if (!emu) {
        axis(m, what, op, in, out, p, 1, 256 * 256 + 1, 3);
        axis(m, what, op, in, out, p, 3, 257, 1000);
    }
    /* Long columns side by side (a GPU may split the extent over blocks): f32 and bf16, a few ops. */
    const int long_columns = op == HIPREDUCE_OP_SUM || op == HIPREDUCE_OP_NRM2 || op == HIPREDUCE_OP_ARGMAX;
    if (!emu && p != P_SPECIAL && long_columns && (in == HIPREDUCE_F32 || in == HIPREDUCE_BF16)) {
        axis(m, what, op, in, out, p, 1, 256 * 64 + 1, 64);
        axis(m, what, op, in, out, p, 2, 1025, 1000);
    }
}

static int matrix(sg_ctx* c)
{
    matrix_ctx m;
    memset(&m, 0, sizeof m);
    m.c = c;
    const uint64_t room = SHAPES_ROOM;
    for (int p = 0; p < P_KINDS; ++p)
        if (!(m.x[p] = (unsigned char*)malloc((size_t)room * 8))) return 1;
    long triples = 0;
    for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; ++d) {
        const hipreduce_dtype in = dtypes[d];
        m.tile = tr_tile_items(in);
        for (int p = 0; p < P_KINDS; ++p) fill(in, p, room, mix(d * 1009 + (uint64_t)p), m.x[p]);
        for (int op = 0; op < TR_NOPS; ++op)
            for (int o = 0; o < TR_NDTYPES; ++o) {
                const hipreduce_dtype out = (hipreduce_dtype)o;
                if (!tried((hipreduce_op)op, in, out)) continue;
                /* The emu profile takes one pattern per triple, in turn; emu-smoke every fourth triple. */
                const long k = triples++;
                const int main_pattern = op == HIPREDUCE_OP_PROD ? P_NEAR1 : P_RANDOM;
                if (c->profile == TEST_EMU_SMOKE && k % 4 != 0) continue;
                if (c->profile != TEST_EMU || k % 2 == 0) shapes(&m, (hipreduce_op)op, in, out, main_pattern);
                if (c->profile == TEST_FULL || (c->profile == TEST_EMU && k % 2 == 1)) shapes(&m, (hipreduce_op)op, in, out, P_SPECIAL);
            }
    }
    for (int p = 0; p < P_KINDS; ++p) free(m.x[p]);
    printf("matrix: %ld triples, %llu cases, %d failures\n", triples, (unsigned long long)m.cases, m.fails);
    return m.fails;
}

/* One segment longer than 4096^2 f32 elements (three levels of tiles) among tiny ones, and a
 * column of 256^2 + 1 (three strided levels) in f32 and f64 nrm2, up to max_n input elements. */
static int giant_segments(sg_ctx* c, uint64_t max_n)
{
    const uint64_t big = 4096 * 4096 + 5, n = big + 16;
    if (n > max_n) {
        printf("giant segment: left out (HIPREDUCE_SEGMENTS_MAX_N=%llu < %llu)\n", (unsigned long long)max_n,
               (unsigned long long)n);
        return 0;
    }
    unsigned char* x = (unsigned char*)malloc((size_t)n * 4 + 64);
    if (!x) return 1;
    fill(HIPREDUCE_F32, P_RANDOM, n + 2, 77, x);
    layout l;
    l.count = 0;
    push(&l, 3), push(&l, 0), push(&l, 0), push(&l, big), push(&l, 0), push(&l, 1), push(&l, 10);
    const sg_shape s = {1, 0, 0, 0, l.count, l.offsets, 1};
    int fails = 0;
    fails += sg_case(c, "giant", HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F32, x, &s);
    fails += sg_case(c, "giant", HIPREDUCE_OP_ARGMAX, HIPREDUCE_F32, HIPREDUCE_F32, x, &s);
    fails += sg_case(c, "giant", HIPREDUCE_OP_NRM2, HIPREDUCE_F32, HIPREDUCE_F64, x, &s);
    const sg_shape rows = {0, 4, (big - 5) / 4, 1, 0, NULL, 2}; /* four rows of 2^22 */
    fails += sg_case(c, "giant rows", HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F64, x, &rows);
    free(x);
    printf("giant segment: %d failures\n", fails);
    return fails;
}

/* Length distributions, segments against hipreduce_reduce of each (the GPU against the
 * cpu device): all empty; uniform short (0..511); power-law (Zipf-like, length (3T + 17) / k for k
 * uniform in 1..1000, T a tile: mostly tiny, a few over a tile); a few giants (T + 1, 2T + 5,
 * 5T + 3) among tiny ones (0..3); one segment of 6T + 11; 48 segments of 1..4T (a few tiles each: launch 3
 * streams several of them a block, groups wholly its own and groups shared with other blocks); as many
 * segments of T + 1 .. T + 64 as the room and the layout hold (f32: 503, two tiles each: a block of the emulated GPU's
 * launch 3 walks past the HR_SEGMENT long segments its walk holds at once, segment_stream.h's rank_batch);
 * 48 segments of k KiB - 1 element, k KiB and k KiB + 1 element, k = 1..16 (whichever KiB launch 3 starts
 * at, host/tuning.h's segment_block_bytes, its boundary and a tile's are among them).
 * Several ops and dtypes, random values. */
static int distributions(sg_ctx* c)
{
    static const struct { hipreduce_op op; hipreduce_dtype in, out; } cases[] = {
        {HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F32},     {HIPREDUCE_OP_SUM, HIPREDUCE_F16, HIPREDUCE_F32},
        {HIPREDUCE_OP_ARGMAX, HIPREDUCE_F32, HIPREDUCE_F32},  {HIPREDUCE_OP_NRM2, HIPREDUCE_F64, HIPREDUCE_F64},
        {HIPREDUCE_OP_SUM, HIPREDUCE_I8, HIPREDUCE_I64},      {HIPREDUCE_OP_MIN, HIPREDUCE_BF16, HIPREDUCE_BF16},
        {HIPREDUCE_OP_SUM_SQUARES, HIPREDUCE_F64, HIPREDUCE_F64}};
    static const char* const names[] = {"all empty",         "uniform short", "power-law",
                                        "giants among tiny", "one segment",   "few tiles", "many of two tiles", "KiB steps"};
    const int n_cases = c->profile == TEST_EMU_SMOKE ? 2 : (int)(sizeof cases / sizeof cases[0]);
    unsigned char* x = (unsigned char*)malloc((size_t)SHAPES_ROOM * 8);
    if (!x) return 1;
    int fails = 0;
    for (int k = 0; k < n_cases; ++k) {
        const uint64_t t = tr_tile_items(cases[k].in);
        fill(cases[k].in, P_RANDOM, SHAPES_ROOM, mix(4242 + (uint64_t)k), x);
        for (int d = 0; d < 8; ++d) {
            layout l;
            l.count = 0;
            const uint64_t room = SHAPES_ROOM / (t + 64) - 1, most = sizeof l.offsets / sizeof l.offsets[0] - 1;
            const uint64_t n = d == 4 ? 1 : d == 5 || d == 7 ? 48 : d == 6 ? (room < most ? room : most) : 500;
            for (uint64_t s = 0; s < n; ++s) {
                const uint64_t h = hash(77 + (uint64_t)d, s);
                switch (d) {
                case 0: push(&l, 0); break;
                case 1: push(&l, h % 512); break;
                case 2: push(&l, (3 * t + 17) / (1 + h % 1000)); break;
                case 3: push(&l, s == 40 ? t + 1 : s == 250 ? 2 * t + 5 : s == 251 ? 5 * t + 3 : h % 4); break;
                case 4: push(&l, 6 * t + 11); break;
                case 5: push(&l, 1 + h % (4 * t)); break;
                case 7: push(&l, (s / 3 + 1) * (t / 16) + s % 3 - 1); break;
                default: push(&l, t + 1 + h % 64); break;
                }
            }
            const sg_shape sh = {1, 0, 0, 0, l.count, l.offsets, (uint64_t)(k + d) % 3};
            if (sh.shift + sg_inputs(&sh) > SHAPES_ROOM) {
                ref_report("FAIL: the %s segments need a larger SHAPES_ROOM", names[d]);
                ++fails;
                continue;
            }
            fails += sg_case(c, names[d], cases[k].op, cases[k].in, cases[k].out, x, &sh);
        }
    }
    free(x);
    printf("length distributions: %d failures\n", fails);
    return fails;
}

/* Columns, rows and segments of -0.0 only: float sums keep -0.0 (the identity is -0.0), sum_abs
 * and the squares give +0.0, min/max/argmin/argmax see -0.0 everywhere. */
static int signed_zeros(sg_ctx* c)
{
    static const hipreduce_dtype floats[] = {HIPREDUCE_F32, HIPREDUCE_F64, HIPREDUCE_F16, HIPREDUCE_BF16};
    static const hipreduce_op ops[] = {HIPREDUCE_OP_SUM, HIPREDUCE_OP_SUM_ABS, HIPREDUCE_OP_SUM_SQUARES,
                                       HIPREDUCE_OP_MIN, HIPREDUCE_OP_ARGMAX};
    enum { ROOM = 3 * 257 + 5 * 300 + 8 };
    unsigned char x[ROOM * 8];
    layout l;
    l.count = 0;
    ragged(&l, 5, 99); /* at most 5 x 299 elements */
    push(&l, 257);
    int fails = 0;
    for (size_t d = 0; d < 4; ++d) {
        for (uint64_t i = 0; i < ROOM; ++i) tr_store_float(floats[d], x, i, -0.0);
        for (size_t k = 0; k < sizeof ops / sizeof ops[0]; ++k)
            for (int o = 0; o < TR_NDTYPES; ++o) {
                if (!tried(ops[k], floats[d], (hipreduce_dtype)o)) continue;
                const sg_shape shapes[3] = {{0, 1, 257, 3, 0, NULL, 1}, {0, 3, 257, 1, 0, NULL, 2},
                                            {1, 0, 0, 0, l.count, l.offsets, 1}};
                for (int s = 0; s < 3; ++s) fails += sg_case(c, "-0.0", ops[k], floats[d], (hipreduce_dtype)o, x, &shapes[s]);
            }
    }
    printf("signed zeros: %d failures\n", fails);
    return fails;
}

int main(int argc, char** argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const int want_gpu = test_wants_gpu(argc, argv);
    if (want_gpu < 0) return 2;
    sg_ctx c;
    memset(&c, 0, sizeof c);
    c.profile = test_profile();
    uint64_t max_n = c.profile ? 0 : 4096 * 4096 + 64;
    if (getenv("HIPREDUCE_SEGMENTS_MAX_N")) max_n = strtoull(getenv("HIPREDUCE_SEGMENTS_MAX_N"), NULL, 10);
    if (want_gpu && gm_count() == 0) {
        printf("segments gpu: skipped: no GPU visible to the runtime (or a cpu-only build)\n");
        return SKIP;
    }
    if (hipreduce_create(&c.cpu, HIPREDUCE_DEVICE_CPU, 0) != HIPREDUCE_STATUS_SUCCESS) {
        fprintf(stderr, "FAIL: cannot create a cpu handle\n");
        return 1;
    }
    /* HIPREDUCE_TEST_THREADS=k: the cpu device's pool of k threads (its bits must not change). */
    const char* threads = getenv("HIPREDUCE_TEST_THREADS");
    char* end = NULL;
    if (threads && *threads &&
        (strtoul(threads, &end, 10) > 256 || *end != '\0' ||
         hipreduce_set_threads(c.cpu, (unsigned)strtoul(threads, NULL, 10)) != HIPREDUCE_STATUS_SUCCESS)) {
        fprintf(stderr, "FAIL: HIPREDUCE_TEST_THREADS='%s' is not a thread count\n", threads);
        return 1;
    }
    const uint64_t room = SHAPES_ROOM;
    c.room = (size_t)(room > max_n ? room : max_n) * 8;
    c.offsets_room = 1024;
    c.results_room = 4096;
    if (want_gpu) {
        const hipreduce_status st = hipreduce_create(&c.gpu, HIPREDUCE_DEVICE_GPU, 0);
        c.d_x = (unsigned char*)gm_alloc(c.room);
        c.d_offsets = (uint64_t*)gm_alloc(c.offsets_room * 8);
        c.d_out = (unsigned char*)gm_alloc(c.results_room * 8 + SG_GUARD);
        c.d_index = (int64_t*)gm_alloc((c.results_room + SG_GUARD) * 8);
        if (st != HIPREDUCE_STATUS_SUCCESS || !c.d_x || !c.d_offsets || !c.d_out || !c.d_index) {
            fprintf(stderr, "FAIL: a GPU is visible, but hipreduce_create(GPU 0): %s (%s), or no device memory\n",
                    hipreduce_status_string(st), hipreduce_create_error_message());
            return 1;
        }
        printf("segments gpu: device 0: %s\n", gm_device_name(0));
    }
    printf("segments %s: profile %d, giant segment up to n = %llu\n", want_gpu ? "gpu" : "cpu", c.profile,
           (unsigned long long)max_n);
    int fails = 0;
    fails += sg_model_examples();
    fails += sg_arguments(&c);
    fails += sg_empty_shapes(&c);
    fails += sg_workspace(&c);
    if (c.gpu) fails += sg_gpu_offsets(&c);
    fails += signed_zeros(&c);
    fails += distributions(&c);
    fails += matrix(&c);
    fails += giant_segments(&c, max_n);
    if (c.gpu) {
        gm_free(c.d_x), gm_free(c.d_offsets), gm_free(c.d_out), gm_free(c.d_index);
        hipreduce_destroy(c.gpu);
    }
    hipreduce_destroy(c.cpu);
    printf("segments: %ld calls, %ld results, %ld input elements, %d failures (%d reports)\n", c.calls, c.results,
           c.elements, fails, ref_reports());
    return fails ? 1 : 0;
}
