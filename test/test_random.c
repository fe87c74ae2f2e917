/* random suite (label api): seeded random cases over op x dtype x size x input byte offset x
 * values (special floats included), for a fixed wall-clock budget. Each case runs on the cpu
 * device against the independent references of reference.c and, where the build has a GPU
 * backend and a GPU is present, on GPU 0 with the default algorithm (input element-aligned there),
 * which must give the cpu device's bits. The input must be left exactly as the caller wrote it.
 *   HIPREDUCE_RANDOM_SECONDS  wall-clock budget in seconds (default 60)
 *   HIPREDUCE_RANDOM_SEED     seed (default below; always printed)
 *   HIPREDUCE_RANDOM_CASE     run only this case of the seed (to reproduce a failure)
 *   HIPREDUCE_RANDOM_VERBOSE  1: print each case before it runs (finds the case of a UBSan abort
 *                             under GCC, whose UBSan runtime skips ASan's death callback below)
 * A case is a function of (seed, case index) only, so a failure printed as "seed=S case=I"
 * reproduces with HIPREDUCE_RANDOM_SEED=S HIPREDUCE_RANDOM_CASE=I. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu_memory.h"
#include "hipreduce/hipreduce.h"
#include "reference.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define HR_DEATH_CALLBACK 1
#endif

#define DEFAULT_SEED UINT64_C(20250801)
#define SENTINEL 0xA5
#define PREFIX 0x5A
/* The largest case: 4-byte t * (t + 1) + 1 elements (three levels), plus a 15-byte offset. */
#define MAX_BYTES ((size_t)68 << 20)

static uint64_t mix64(uint64_t z) /* splitmix64's finalizer */
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}
typedef struct rng { uint64_t s; } rng;
static uint64_t next(rng* r) { return mix64(r->s += UINT64_C(0x9e3779b97f4a7c15)); }
static uint64_t below(rng* r, uint64_t k) { return k ? next(r) % k : 0; }

/* Float values: the case's mode, and the special classes mixed into the base values. */
enum { F_FILL, F_MIX, F_WIDE, F_SUBNORMAL, F_MODES };
static const char* const f_mode_names[F_MODES] = {"fill", "mix", "wide", "subnormal"};
enum { I_FILL, I_BITS, I_EXTREME, I_SMALL, I_MODES };
static const char* const i_mode_names[I_MODES] = {"fill", "bits", "extreme", "small"};
enum { S_NAN = 1, S_PINF = 2, S_NINF = 4, S_ZERO = 8, S_SUB = 16, S_HUGE = 32, S_TINY = 64, S_ALL = 127 };

typedef struct rcase {
    uint64_t seed, index, vseed, n;
    hipreduce_op op;
    hipreduce_dtype dtype;
    unsigned offset;  /* bytes past a 16-byte-aligned address */
    int mode;
    ref_data data;    /* F_FILL / I_FILL: ref_fill's pattern */
    unsigned special; /* S_* classes mixed in (float F_MIX) */
    uint64_t density; /* F_MIX: 0 one special element, 1 all, k one in k */
} rcase;

static const char* describe(const rcase* c)
{
    static char text[256];
    const int fl = ref_is_float(c->dtype);
    snprintf(text, sizeof text, "seed=%llu case=%llu op=%s dtype=%s n=%llu offset=%u values=%s/%s special=0x%x/%llu",
             (unsigned long long)c->seed, (unsigned long long)c->index, ref_op_name(c->op), ref_dtype_name(c->dtype),
             (unsigned long long)c->n, c->offset, fl ? f_mode_names[c->mode] : i_mode_names[c->mode],
             ref_data_name(c->data), c->special, (unsigned long long)c->density);
    return text;
}

/* Sizes biased to the edges: tiny, 2^k +- 1, whole tiles +- 1, warp and lane multiples +- 1,
 * three-level sizes (t * t + 1 elements), and log-uniform ones. */
static uint64_t pick_n(rng* r, hipreduce_dtype d)
{
    const uint64_t t = ref_tile_items(d), delta = below(r, 3); /* -1, 0, +1 as delta - 1 */
    switch (below(r, 20)) {
    case 0: case 1: return below(r, 5);
    case 2: case 3: case 4: case 5: return (UINT64_C(1) << (1 + below(r, 20))) + delta - 1;
    case 6: case 7: case 8: case 9: return (1 + below(r, 16)) * t + delta - 1;
    case 10: /* three levels (t * t + 1 elements) for 8-byte and, rarely (the largest), 4-byte dtypes */
        if (t * t > (UINT64_C(1) << 24) || (t * t > (UINT64_C(1) << 22) && below(r, 4)))
            return (17 + below(r, 240)) * t + delta - 1;
        return below(r, 4) ? t * t + delta - 1 : t * (t + 1) + 1;
    case 11: case 12: case 13: return (1 + below(r, 64)) * 32 + delta - 1;
    case 14: case 15: case 16: return below(r, 2100);
    default: return below(r, UINT64_C(1) << below(r, 21));
    }
}

/* Byte offset from a 16-byte boundary: aligned, element-aligned, or inside an element. */
static unsigned pick_offset(rng* r, size_t size)
{
    const unsigned k = (unsigned)below(r, 16 / size);
    switch (below(r, 4)) {
    case 0: return 0;
    case 1: return (unsigned)size * k;
    default: return size == 1 ? (unsigned)below(r, 16) : (unsigned)(size * k + 1 + below(r, size - 1));
    }
}

static rcase make_case(uint64_t seed, uint64_t index)
{
    rng r = {mix64(seed) ^ mix64(index + 1)};
    rcase c;
    memset(&c, 0, sizeof c);
    c.seed = seed, c.index = index, c.vseed = next(&r);
    do { /* floats in ~45% of the cases: they carry the special values */
        c.dtype = below(&r, 20) < 9 ? (below(&r, 2) ? HIPREDUCE_F32 : HIPREDUCE_F64) : ref_dtypes[below(&r, 8)];
        c.op = ref_ops[below(&r, REF_NOPS)];
    } while (!ref_op_applies(c.op, c.dtype));
    c.n = pick_n(&r, c.dtype);
    c.offset = pick_offset(&r, ref_size(c.dtype));
    c.data = REF_DATA_RANDOM;
    if (!ref_is_float(c.dtype)) {
        c.mode = (int)below(&r, I_MODES);
        return c;
    }
    c.mode = (int)below(&r, F_MODES + 2) % F_MODES; /* F_FILL and F_MIX twice as often */
    if (c.mode == F_FILL) { /* the patterns ref_check knows for (op, float) */
        const int order_op = c.op == HIPREDUCE_OP_MIN || c.op == HIPREDUCE_OP_MAX;
        static const ref_data kinds[4] = {REF_DATA_RANDOM, REF_DATA_NEGZERO, REF_DATA_MIXZERO, REF_DATA_EXACT};
        c.data = kinds[below(&r, 4)];
        if (c.data == REF_DATA_EXACT && order_op) c.data = REF_DATA_NAN;
    }
    static const uint64_t densities[6] = {0, 0, 1, 2, 16, 256};
    c.density = densities[below(&r, 6)];
    c.special = below(&r, 3) ? (unsigned)(1 + below(&r, S_ALL)) : (unsigned)(1u << below(&r, 7));
    return c;
}

/* ---- values ---- */

static void put(void* x, uint64_t i, size_t size, uint64_t bits) /* low `size` bytes, host order */
{
    const uint8_t b8 = (uint8_t)bits;
    const uint16_t b16 = (uint16_t)bits;
    const uint32_t b32 = (uint32_t)bits;
    const void* from = size == 1 ? (const void*)&b8 : size == 2 ? (const void*)&b16 : size == 4 ? (const void*)&b32
                                                                                                : (const void*)&bits;
    memcpy((unsigned char*)x + i * size, from, size);
}

static uint64_t int_value(rng* r, const rcase* c)
{
    const unsigned bits = (unsigned)(8 * ref_size(c->dtype));
    const int sgn = c->dtype % 2 == 0; /* the signed integer dtypes have the even values */
    const uint64_t ones = bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
    const uint64_t lo = sgn ? UINT64_C(1) << (bits - 1) : 0, hi = sgn ? ones >> 1 : ones;
    const uint64_t extremes[7] = {lo, hi, 0, ones, 1, lo + 1, hi - 1};
    if (c->mode == I_BITS) return next(r);
    if (c->mode == I_EXTREME) return extremes[below(r, 7)];
    return below(r, 5) - 2; /* I_SMALL: -2 .. 2 */
}

typedef struct ffmt { int mant, expo; } ffmt; /* mantissa bits, exponent bits */
static uint64_t fbits(ffmt f, uint64_t sign, uint64_t e, uint64_t m)
{
    return (sign & 1) << (f.mant + f.expo) | e << f.mant | (m & ((UINT64_C(1) << f.mant) - 1));
}
static uint64_t special_value(rng* r, ffmt f, unsigned classes)
{
    const uint64_t emax = (UINT64_C(1) << f.expo) - 1, quiet = UINT64_C(1) << (f.mant - 1), h = next(r);
    unsigned pick;
    do pick = 1u << below(r, 7);
    while (!(classes & pick));
    switch (pick) {
    case S_NAN: { /* quiet or signalling, either sign, payload or none */
        const uint64_t payload = (h >> 8) & 1 ? (h >> 16) & (quiet - 1) : 0;
        const uint64_t m = (h >> 2) & 1 ? quiet | payload : (payload ? payload : 1);
        return fbits(f, h >> 1, emax, m);
    }
    case S_PINF: return fbits(f, 0, emax, 0);
    case S_NINF: return fbits(f, 1, emax, 0);
    case S_ZERO: return fbits(f, h, 0, 0);
    case S_SUB: return fbits(f, h, 0, (h >> 3) % 4 == 0 ? 1 : (h >> 3) % 4 == 1 ? ~UINT64_C(0) : (h >> 8) | 1);
    case S_HUGE: return fbits(f, h, emax - 1 - (h >> 1) % 2, (h >> 2) & 1 ? ~UINT64_C(0) : h >> 8);
    default: return fbits(f, h, 1, (h >> 1) & 1 ? 0 : h >> 8); /* S_TINY: the smallest normals */
    }
}
/* The base values of F_MIX: around 1 for sums (every rounding matters), near 1 for products
 * (kept finite), any finite value for min/max. */
static uint64_t base_value(rng* r, ffmt f, const rcase* c)
{
    const uint64_t bias = (UINT64_C(1) << (f.expo - 1)) - 1, emax = (UINT64_C(1) << f.expo) - 1, h = next(r);
    if (c->op == HIPREDUCE_OP_SUM) return fbits(f, h, bias - 6 + (h >> 1) % 13, h >> 8);
    if (c->op != HIPREDUCE_OP_PROD) return fbits(f, h, 1 + (h >> 1) % (emax - 1), h >> 8);
    /* 1 - 2^-k .. 1 + 2^-k with 2^-k <= 1 / sqrt(n): products of the whole input stay finite */
    int k = 7;
    while ((UINT64_C(1) << (2 * k)) < c->n) ++k;
    const uint64_t low = (UINT64_C(1) << (f.mant - k)) - 1, mant = (UINT64_C(1) << f.mant) - 1;
    return (h >> 1) & 1 ? fbits(f, 0, bias, (h >> 8) & low) : fbits(f, 0, bias - 1, mant - ((h >> 8) & (2 * low + 1)));
}

static void fill(const rcase* c, void* x)
{
    const size_t size = ref_size(c->dtype);
    rng r = {c->vseed};
    if (c->mode == 0) { /* F_FILL / I_FILL */
        ref_fill(c->op, c->dtype, c->data, c->n, c->vseed, x);
        return;
    }
    if (!ref_is_float(c->dtype)) {
        for (uint64_t i = 0; i < c->n; ++i) put(x, i, size, int_value(&r, c));
        return;
    }
    const ffmt f = c->dtype == HIPREDUCE_F32 ? (ffmt){23, 8} : (ffmt){52, 11};
    if (c->mode == F_WIDE) { /* huge values of one sign or both: sums overflow; products over/underflow */
        const uint64_t signs = below(&r, 3), bias = (UINT64_C(1) << (f.expo - 1)) - 1;
        for (uint64_t i = 0; i < c->n; ++i) {
            const uint64_t h = next(&r), sign = signs == 2 ? h : signs;
            uint64_t v = special_value(&r, f, S_HUGE) & ~fbits(f, 1, 0, 0);
            if (c->op == HIPREDUCE_OP_PROD) v = fbits(f, 0, bias - 12 + (h >> 1) % 25, h >> 8);
            put(x, i, size, v | fbits(f, sign, 0, 0));
        }
        return;
    }
    if (c->mode == F_SUBNORMAL) {
        for (uint64_t i = 0; i < c->n; ++i) put(x, i, size, special_value(&r, f, S_SUB | S_ZERO));
        return;
    }
    for (uint64_t i = 0; i < c->n; ++i) { /* F_MIX */
        const int special = c->density == 1 || (c->density > 1 && below(&r, c->density) == 0);
        put(x, i, size, special ? special_value(&r, f, c->special) : base_value(&r, f, c));
    }
    if (c->density == 0 && c->n > 0) put(x, below(&r, c->n), size, special_value(&r, f, c->special));
}

/* ---- one case ---- */

typedef struct ctx {
    hipreduce_handle cpu, gpu;
    unsigned char *ref, *d_buf; /* aligned input for the references; device buffer */
    unsigned char* back;        /* host copy of the device buffer */
    uint64_t misaligned, special, on_gpu;
} ctx;

static const rcase* current; /* for the sanitizer's death report */
#ifdef HR_DEATH_CALLBACK
static void on_death(void)
{
    if (current) fprintf(stderr, "test_random: died in case %s\n", describe(current));
}
#endif

static int arith_float(const rcase* c) { return ref_is_float(c->dtype) && c->op <= HIPREDUCE_OP_PROD; }
static int result_ok(const rcase* c, const unsigned char* got, const char* where, hipreduce_status st,
                     const char* message)
{
    if (st != HIPREDUCE_STATUS_SUCCESS) {
        ref_report("FAIL %s: status %s %s: %s", where, hipreduce_status_string(st), message, describe(c));
        return 0;
    }
    for (size_t i = ref_size(c->dtype); i < 16; ++i)
        if (got[i] != SENTINEL) {
            ref_report("FAIL %s: wrote past one result element: %s", where, describe(c));
            return 0;
        }
    return 1;
}

static int run_case(ctx* g, const rcase* c)
{
    const size_t size = ref_size(c->dtype), bytes = (size_t)c->n * size, total = c->offset + bytes;
    char what[320];
    unsigned char cpu[16], got[16];
    int fails = 0;
    current = c;
    fill(c, g->ref);
    /* Exactly offset + n elements, so that ASan sees a read past the input's end. */
    unsigned char* buf = (unsigned char*)malloc(total ? total : 1);
    if (!buf) {
        ref_report("FAIL: out of host memory for %s", describe(c));
        return 1;
    }
    memset(buf, PREFIX, c->offset);
    memcpy(buf + c->offset, g->ref, bytes);
    memset(cpu, SENTINEL, sizeof cpu);
    hipreduce_status st = hipreduce_reduce(g->cpu, c->op, c->dtype, buf + c->offset, c->n, c->dtype, cpu, HIPREDUCE_RESULT_HOST);
    snprintf(what, sizeof what, "cpu %s", describe(c));
    if (!result_ok(c, cpu, "cpu", st, "")) ++fails;
    else if (arith_float(c)) fails += ref_check_ieee(what, c->op, c->dtype, c->data, g->ref, c->n, cpu);
    else fails += ref_check(what, c->op, c->dtype, c->data, g->ref, c->n, cpu, REF_CANONICAL);
    int changed = memcmp(buf + c->offset, g->ref, bytes) != 0;
    for (size_t i = 0; i < c->offset; ++i) changed |= buf[i] != PREFIX;
    if (changed) {
        ref_report("FAIL cpu: the caller's bytes changed: %s", describe(c));
        ++fails;
    }
    /* On the GPU the same bytes, at the offset rounded down to whole elements: the header
     * promises any alignment for host input only (a GPU faults on a misaligned scalar load). */
    unsigned char* const d_in = g->d_buf + (c->offset - c->offset % size);
    if (g->gpu) {
        ++g->on_gpu;
        memset(got, SENTINEL, sizeof got);
        if (gm_to_device(d_in, g->ref, bytes) != 0) {
            ref_report("FAIL gpu: upload: %s", describe(c));
            free(buf);
            return fails + 1;
        }
        st = hipreduce_reduce(g->gpu, c->op, c->dtype, d_in, c->n, c->dtype, got, HIPREDUCE_RESULT_HOST);
        if (!result_ok(c, got, "gpu", st, hipreduce_last_error_message(g->gpu))) {
            ++fails;
        } else if (!ref_same_bits(c->dtype, got, cpu) && /* a NaN a sum/prod makes: any payload (header) */
                   !(arith_float(c) && ref_is_nan(c->dtype, got) && ref_is_nan(c->dtype, cpu))) {
            ref_report("FAIL gpu: default algorithm differs from the cpu device: %s", describe(c));
            ++fails;
        }
        if (gm_to_host(g->back, d_in, bytes) != 0 || memcmp(g->back, g->ref, bytes) != 0) {
            ref_report("FAIL gpu: device input changed: %s", describe(c));
            ++fails;
        }
    }
    g->misaligned += c->offset % size != 0;
    g->special += ref_is_float(c->dtype) && c->mode != F_FILL;
    free(buf);
    current = NULL;
    return fails;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(void)
{
    const char* env_seconds = getenv("HIPREDUCE_RANDOM_SECONDS");
    const char* env_seed = getenv("HIPREDUCE_RANDOM_SEED");
    const char* env_case = getenv("HIPREDUCE_RANDOM_CASE");
    const int verbose = getenv("HIPREDUCE_RANDOM_VERBOSE") && *getenv("HIPREDUCE_RANDOM_VERBOSE") == '1';
    const double budget = env_seconds && *env_seconds ? strtod(env_seconds, NULL) : 60.0;
    const uint64_t seed = env_seed && *env_seed ? strtoull(env_seed, NULL, 0) : DEFAULT_SEED;
    ctx g;
    memset(&g, 0, sizeof g);
#ifdef HR_DEATH_CALLBACK
    __sanitizer_set_death_callback(on_death);
#endif
    g.ref = (unsigned char*)malloc(MAX_BYTES);
    if (!g.ref || hipreduce_create(&g.cpu, HIPREDUCE_DEVICE_CPU, 0) != HIPREDUCE_STATUS_SUCCESS) {
        fprintf(stderr, "test_random: no host memory or no cpu handle\n");
        return 1;
    }
    int fails = 0;
    if (gm_count() > 0) { /* a GPU is present: failing to use it is a failure, not a skip */
        const hipreduce_status st = hipreduce_create(&g.gpu, HIPREDUCE_DEVICE_GPU, 0);
        g.d_buf = (unsigned char*)gm_alloc(MAX_BYTES);
        g.back = (unsigned char*)malloc(MAX_BYTES);
        if (st != HIPREDUCE_STATUS_SUCCESS || !g.d_buf || !g.back) {
            fprintf(stderr, "FAIL: GPU 0 present but unusable: %s\n", hipreduce_status_string(st));
            return 1;
        }
        printf("test_random: also on GPU 0 (%s), default algorithm, against the cpu device's bits\n",
               gm_device_name(0));
    }
    printf("test_random: seed=%llu budget=%.0f s (HIPREDUCE_RANDOM_SEED, HIPREDUCE_RANDOM_SECONDS; after a "
           "sanitizer abort, HIPREDUCE_RANDOM_VERBOSE=1 prints each case before it runs)\n",
           (unsigned long long)seed, budget);
    fflush(stdout);
    const double start = now();
    uint64_t cases = 0, failing = 0, skipped = 0;
    if (env_case && *env_case) {
        const rcase c = make_case(seed, strtoull(env_case, NULL, 0));
        printf("case %s\n", describe(&c));
        fails = run_case(&g, &c);
        cases = 1, failing = fails > 0;
    } else {
        /* Stop at the budget (checked after each case: the largest takes well under a second,
         * a few under sanitizers) or after 10 failing cases. */
        double slowest = 0;
        char slowest_case[256] = "";
        double per_element = 0; /* the slowest seconds per element seen on sizes >= 2^16 */
        while (now() - start < budget && failing < 10) {
            const rcase c = make_case(seed, cases++);
            /* The budget is wall time, sanitized builds included: near its end, a case that
             * would not finish in time is skipped (not run, counted). */
            if ((double)c.n * per_element > budget - (now() - start)) {
                ++skipped;
                continue;
            }
            if (verbose) fprintf(stderr, "case %s\n", describe(&c));
            const double t0 = now();
            const int f = run_case(&g, &c);
            const double took = now() - t0;
            if (took > slowest) slowest = took, snprintf(slowest_case, sizeof slowest_case, "%s", describe(&c));
            if (c.n >= 65536 && took / (double)c.n > per_element) per_element = took / (double)c.n;
            fails += f;
            failing += f > 0;
        }
        printf("test_random: slowest case %.2f s: %s\n", slowest, slowest_case);
    }
    printf("test_random: seed=%llu cases=%llu (misaligned input %llu, float specials %llu, on GPU %llu, skipped "
           "at the budget's end %llu) failing cases=%llu in %.1f s\n",
           (unsigned long long)seed, (unsigned long long)(cases - skipped), (unsigned long long)g.misaligned,
           (unsigned long long)g.special, (unsigned long long)g.on_gpu, (unsigned long long)skipped,
           (unsigned long long)failing, now() - start);
    if (failing)
        printf("reproduce one: HIPREDUCE_RANDOM_SEED=%llu HIPREDUCE_RANDOM_CASE=<case> %s\n",
               (unsigned long long)seed, "hipreduce_test_random");
    hipreduce_destroy(g.cpu);
    hipreduce_destroy(g.gpu);
    gm_free(g.d_buf);
    free(g.back);
    free(g.ref);
    return fails ? 1 : 0;
}
