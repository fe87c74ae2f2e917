/* sum_exact and dot_exact against the tests' own exact reference (exact_ref.h): the header's
 * rules (NaN and infinities, one rounding to nearest even, overflow, subnormal results, signed
 * zeros, n = 0), random data over narrow and full exponent ranges, exact ties of both parities,
 * cancellation (1e308 + 1 - 1e308), and bits that depend on the multiset only: permuted inputs,
 * other thread counts, rows, columns and segments equal to the full call on their slice.
 * Validation and messages of the new ops too.
 * `hipreduce_test_exact` runs the cpu device (label api); `hipreduce_test_exact gpu` the same
 * cases on GPU 0 (label gpu; 77 without one; the emulated GPU's label emu), each result also
 * equal to the cpu device's bits. HIPREDUCE_TEST_PROFILE=emu or emu-smoke keeps the sizes to
 * what the emulator runs in seconds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exact_ref.h"
#include "gpu_memory.h"
#include "hipreduce/hipreduce.h"
#include "test_run.h"

static int fails, checks;
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

#define FAIL(...) (++fails, fprintf(stderr, "FAIL " __VA_ARGS__), fputc('\n', stderr))

static const hipreduce_dtype floats[4] = {HIPREDUCE_F16, HIPREDUCE_BF16, HIPREDUCE_F32, HIPREDUCE_F64};
static int bytes_of(hipreduce_dtype d) { return (int)hipreduce_dtype_size(d); }
static int ebits_of(hipreduce_dtype d) { return d == HIPREDUCE_F16 ? 5 : d == HIPREDUCE_F64 ? 11 : 8; }
static int frac_of(hipreduce_dtype d) { return d == HIPREDUCE_F16 ? 10 : d == HIPREDUCE_BF16 ? 7 : d == HIPREDUCE_F32 ? 23 : 52; }
/* The result dtype of the cases that take one: f64 for f64 input, else f32. */
static hipreduce_dtype float_out(hipreduce_dtype in) { return in == HIPREDUCE_F64 ? HIPREDUCE_F64 : HIPREDUCE_F32; }
/* sum's float results of an input dtype */
static int allowed(hipreduce_dtype in, hipreduce_dtype out)
{
    if (in == HIPREDUCE_F16 || in == HIPREDUCE_BF16) return out == in || out == HIPREDUCE_F32 || out == HIPREDUCE_F64;
    return out == HIPREDUCE_F64 || out == in;
}

/* A float of dtype: its exponent field from [elo, ehi], a random fraction and sign. */
static uint64_t random_float(hipreduce_dtype d, int elo, int ehi)
{
    const int frac = frac_of(d);
    const uint64_t e = (uint64_t)(elo + (int)(next() % (uint64_t)(ehi - elo + 1)));
    const uint64_t f = next() & ((1ull << frac) - 1), s = next() & 1;
    return (s << (ebits_of(d) + frac)) | (e << frac) | f;
}

static hipreduce_handle cpu; /* the cpu device, always */
static hipreduce_handle gpu; /* GPU 0 in gpu mode, else NULL */
static enum test_profile profile;

/* Where a handle reads host data: itself on the cpu device; on the GPU a device copy (slot 0:
 * x, 1: y, 2: offsets), kept and grown between calls, the data at the buffer's last 256-byte
 * boundary that holds it, so that a read past its end (a load, a prefetch) leaves the allocation
 * by less than 256 bytes: the emulator's AddressSanitizer sees it. */
static const void* on(hipreduce_handle h, const void* host, size_t bytes, int slot)
{
    static void* buffers[3];
    static size_t sizes[3];
    if (h != gpu || host == NULL) return host;
    if (bytes > sizes[slot]) {
        gm_free(buffers[slot]);
        buffers[slot] = gm_alloc(bytes);
        sizes[slot] = buffers[slot] ? bytes : 0;
        if (!buffers[slot]) {
            fprintf(stderr, "FAIL device allocation of %zu bytes\n", bytes);
            exit(1);
        }
    }
    unsigned char* at = (unsigned char*)buffers[slot] + ((sizes[slot] - bytes) & ~(size_t)255);
    if (bytes && gm_to_device(at, host, bytes) != 0) {
        fprintf(stderr, "FAIL copy to the device\n");
        exit(1);
    }
    return at;
}

static uint64_t call_on(hipreduce_handle h, hipreduce_dtype in, hipreduce_dtype out, const void* x, const void* y,
                        uint64_t n)
{
    uint64_t r = 0;
    const size_t bytes = (size_t)n * hipreduce_dtype_size(in);
    x = on(h, x, bytes, 0), y = on(h, y, bytes, 1);
    const hipreduce_status st = y ? hipreduce_dot_op(h, HIPREDUCE_OP_DOT_EXACT, in, x, y, n, out, &r, HIPREDUCE_RESULT_HOST)
                                  : hipreduce_reduce(h, HIPREDUCE_OP_SUM_EXACT, in, x, n, out, &r, HIPREDUCE_RESULT_HOST);
    if (st != HIPREDUCE_STATUS_SUCCESS)
        FAIL("%s %s %s -> %s n %llu: %s: %s", h == gpu ? "GPU" : "cpu", y ? "dot_exact" : "sum_exact", hipreduce_dtype_name(in),
             hipreduce_dtype_name(out), (unsigned long long)n, hipreduce_status_string(st), hipreduce_last_error_message(h));
    return r;
}

/* The library's result bits for the terms of x (and y: dot_exact), n of them, on the handle
 * under test; on the GPU also the cpu device's bits, which must be the same. */
static uint64_t library(hipreduce_dtype in, hipreduce_dtype out, const void* x, const void* y, uint64_t n)
{
    if (!gpu) return call_on(cpu, in, out, x, y, n);
    const uint64_t r = call_on(gpu, in, out, x, y, n), c = call_on(cpu, in, out, x, y, n);
    ++checks;
    if (r != c)
        FAIL("%s %s -> %s n %llu: GPU 0x%llx, cpu device 0x%llx", y ? "dot_exact" : "sum_exact", hipreduce_dtype_name(in),
             hipreduce_dtype_name(out), (unsigned long long)n, (unsigned long long)r, (unsigned long long)c);
    return r;
}

static void reference(xr_sum* s, hipreduce_dtype in, const void* x, const void* y, uint64_t n)
{
    xr_init(s);
    for (uint64_t i = 0; i < n; ++i) {
        if (y) xr_add_product(s, in, xr_bits(in, x, i), xr_bits(in, y, i));
        else xr_add(s, in, xr_bits(in, x, i));
    }
}

/* Checks every allowed result dtype of x (and y) against the reference, and that a permutation
 * of the terms gives the same bits. */
static void check(const char* what, hipreduce_dtype in, void* x, void* y, uint64_t n)
{
    xr_sum s;
    reference(&s, in, x, y, n);
    uint64_t before[4];
    for (int o = 0; o < 4; ++o) {
        const hipreduce_dtype out = floats[o];
        if (!allowed(in, out)) continue;
        char why[200];
        before[o] = library(in, out, x, y, n);
        ++checks;
        if (!xr_check(&s, out, before[o], why, sizeof why))
            FAIL("%s: %s %s -> %s n %llu: %s", what, y ? "dot_exact" : "sum_exact", hipreduce_dtype_name(in),
                 hipreduce_dtype_name(out), (unsigned long long)n, why);
    }
    /* shuffle the terms (x and y together) */
    for (uint64_t i = n; i > 1; --i) {
        const uint64_t j = next() % i;
        const uint64_t xi = xr_bits(in, x, i - 1), xj = xr_bits(in, x, j);
        xr_set_bits(in, x, i - 1, xj), xr_set_bits(in, x, j, xi);
        if (y) {
            const uint64_t yi = xr_bits(in, y, i - 1), yj = xr_bits(in, y, j);
            xr_set_bits(in, y, i - 1, yj), xr_set_bits(in, y, j, yi);
        }
    }
    for (int o = 0; o < 4; ++o) {
        if (!allowed(in, floats[o])) continue;
        const uint64_t after = library(in, floats[o], x, y, n);
        ++checks;
        if (after != before[o])
            FAIL("%s: %s -> %s n %llu permuted: 0x%llx, before 0x%llx", what, hipreduce_dtype_name(in),
                 hipreduce_dtype_name(floats[o]), (unsigned long long)n, (unsigned long long)after,
                 (unsigned long long)before[o]);
    }
}

/* ---- cases ---- */

static void random_cases(void)
{
    static const uint64_t sizes[] = {0, 1, 2, 3, 7, 1023, 1024, 1025, 4101, 70001, 200003};
    const size_t count = profile == TEST_EMU_SMOKE ? 6 : profile == TEST_EMU ? 10 : sizeof sizes / sizeof sizes[0];
    for (int d = 0; d < 4; ++d) {
        const hipreduce_dtype in = floats[d];
        const int emax = (1 << ebits_of(in)) - 2, bias = (1 << (ebits_of(in) - 1)) - 1;
        for (size_t k = 0; k < count; ++k) {
            const uint64_t n = sizes[k];
            unsigned char* x = malloc(n * 8 + 8);
            unsigned char* y = malloc(n * 8 + 8);
            static const char* const names[] = {"narrow", "full range", "mixed", "top 40 binades", "bottom 40 binades",
                                                     "top 2 binades"};
            for (int range = 0; range < 6; ++range) {
                for (uint64_t i = 0; i < n; ++i) {
                    /* narrow: [1, 4); full: every finite exponent, subnormals and zeros; mixed:
                     * the narrow range with a term in every binade now and then; the top and
                     * the bottom of the range (the fast paths' windows at their edges); the top 2
                     * binades (narrow, but too large for an f32 sum of a lane's bf16 terms) */
                    const int wide = range == 1 || (range == 2 && next() % 16 == 0);
                    const int lo = range == 3 ? emax - 40 : range == 4 ? 0 : range == 5 ? emax - 1 : wide ? 0 : bias;
                    const int hi = range == 3 || range == 5 ? emax : range == 4 ? 40 : wide ? emax : bias + 1;
                    xr_set_bits(in, x, i, random_float(in, lo < 0 ? 0 : lo, hi > emax ? emax : hi));
                    xr_set_bits(in, y, i, wide || range > 2 ? random_float(in, 0, emax) : random_float(in, bias - 3, bias + 3));
                }
                check(names[range], in, x, NULL, n);
                check(names[range], in, x, y, n);
            }
            free(x), free(y);
        }
    }
}

/* Terms given as values (exact in every dtype they are used with). */
static void values_case(const char* what, hipreduce_dtype in, const double* v, int n, int dot)
{
    unsigned char x[64 * 8], y[64 * 8];
    for (int i = 0; i < n; ++i) {
        uint64_t b;
        const float f = (float)v[i];
        uint32_t fb;
        memcpy(&fb, &f, 4);
        if (in == HIPREDUCE_F64) memcpy(&b, &v[i], 8);
        else if (in == HIPREDUCE_F32) b = fb;
        else if (in == HIPREDUCE_BF16) b = fb >> 16; /* truncated: the reference reads the same bits */
        else b = hipreduce_f32_to_f16(f);
        xr_set_bits(in, x, (uint64_t)i, b);
        xr_set_bits(in, y, (uint64_t)i, in == HIPREDUCE_F64 ? 0x3ff0000000000000ull : in == HIPREDUCE_F32 ? 0x3f800000u : in == HIPREDUCE_BF16 ? 0x3f80 : 0x3c00);
    }
    check(what, in, x, dot ? y : NULL, (uint64_t)n);
}

static void rule_cases(void)
{
    const double inf = 1.0 / 0.0, nan = 0.0 / 0.0, big = 1e308, fmax = 3.4028234663852886e38;
    struct { const char* what; double v[8]; int n; } cases[] = {
        {"1e308 + 1 - 1e308", {big, 1, -big}, 3},
        {"3e38 + 1 - 3e38", {fmax, 1, -fmax}, 3},
        {"overflow", {big, big, big}, 3},
        {"overflow then back", {big, big, -big, -big, 0.5}, 5},
        {"f32 max twice", {fmax, fmax}, 2},
        {"NaN", {1, nan, 2}, 3},
        {"+inf -inf", {inf, 1, -inf}, 3},
        {"+inf", {inf, -big, -big}, 3},
        {"-inf", {-inf, big}, 2},
        {"all -0.0", {-0.0, -0.0, -0.0}, 3},
        {"-0.0 and +0.0", {-0.0, 0.0}, 2},
        {"x - x", {1.5, -1.5}, 2},
        {"tie to even below", {1, 0x1p-24}, 2},
        {"tie to even above", {1 + 0x1p-23, 0x1p-24}, 2},
        {"tie, sticky", {1, 0x1p-24, 0x1p-60}, 3},
        {"negative tie", {-1, -0x1p-24}, 2},
        {"f16 tie", {1, 0x1p-11}, 2},
        {"f16 tie above", {1 + 0x1p-10, 0x1p-11}, 2},
        {"subnormal result", {0x1.000002p-126, -0x1p-126}, 2},
        {"f16 subnormal result", {0x1.004p-14, -0x1p-14}, 2},
        {"rounds to zero", {0x1p-149, -0x1p-100, 0x1p-100}, 3},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c)
        for (int d = 0; d < 4; ++d)
            for (int dot = 0; dot < 2; ++dot) values_case(cases[c].what, floats[d], cases[c].v, cases[c].n, dot);
    /* f64 products beyond f64's range, cancelling exactly; inf * 0; -0.0 products */
    const double px[] = {1e200, -1e200, 3, 0x1p-1074, 0x1p-1074};
    const double py[] = {1e200, 1e200, 0.5, 0x1p-1074, -0x1p-1074};
    check("huge products", HIPREDUCE_F64, (void*)px, (void*)py, 5);
    const double ix[] = {inf, 1}, iy[] = {0, 2}, zx[] = {-0.0, 3}, zy[] = {5, -0.0};
    check("inf * 0", HIPREDUCE_F64, (void*)ix, (void*)iy, 2);
    check("-0.0 products", HIPREDUCE_F64, (void*)zx, (void*)zy, 2);
    const float fx[] = {-0.0f, 3}, fy[] = {5, -0.0f};
    check("-0.0 products", HIPREDUCE_F32, (void*)fx, (void*)fy, 2);
}

/* Cancellation at scale: pairs x, -x of every magnitude, shuffled, and one tiny term (or one tie
 * pair) left: the exact result, whatever the rest. */
static void cancel_cases(void)
{
    for (int d = 0; d < 4; ++d) {
        const hipreduce_dtype in = floats[d];
        const uint64_t n = profile ? 10001 : 100001;
        const uint64_t sign = 1ull << (ebits_of(in) + frac_of(in));
        unsigned char* x = malloc(n * 8);
        for (uint64_t i = 0; i + 1 < n; i += 2) {
            const uint64_t v = random_float(in, 1, (1 << ebits_of(in)) - 2);
            xr_set_bits(in, x, i, v), xr_set_bits(in, x, i + 1, v ^ sign);
        }
        xr_set_bits(in, x, n - 1, 1); /* the least subnormal */
        check("cancel to the least subnormal", in, x, NULL, n);
        xr_set_bits(in, x, n - 1, sign | 3);
        check("cancel to -3 subnormal units", in, x, NULL, n);
        free(x);
    }
    /* 2^20 copies of the largest f64, then the same less one: carries through the top digits */
    const uint64_t n = profile ? 1u << 14 : 1u << 21;
    double* x = malloc(n * sizeof *x);
    for (uint64_t i = 0; i < n; ++i) x[i] = i < n / 2 ? 1.7976931348623157e308 : -1.7976931348623157e308;
    x[n - 1] = 1.0;
    check("n/2 maxima less n/2 - 1 maxima, and 1", HIPREDUCE_F64, x, NULL, n);
    for (uint64_t i = 0; i < n; ++i) x[i] = 1.7976931348623157e308;
    check("n maxima", HIPREDUCE_F64, x, NULL, n);
    free(x);
}

/* The bench's adversarial data (bench/bench_kernels.h's fill_adversarial): every element in another
 * binade, and huge and tiny alternating. No tile fits the GPU's windows, so every term goes the
 * term-by-term way (f16/bf16/f32 sums: the lanes' bins of device/exact_bins.h), as a full call
 * and as one segment long enough (> 256 lanes x 2^9 terms) that each lane flushes its bins
 * before its block's end. */
static void adversarial_cases(void)
{
    for (int d = 0; d < 4; ++d) {
        const hipreduce_dtype in = floats[d];
        const hipreduce_dtype out = float_out(in);
        const int b = bytes_of(in), emax = (1 << ebits_of(in)) - 2, bias = emax / 2, apart = bias < 100 ? 12 : 100;
        const uint64_t n = profile == TEST_EMU_SMOKE ? 20001 : profile ? 140001 : 1000003;
        unsigned char* x = malloc(n * (uint64_t)b);
        for (int kind = 0; kind < 2; ++kind) {
            for (uint64_t i = 0; i < n; ++i) {
                const int e = kind == 0 ? (int)(i % (uint64_t)emax) + 1 : i & 1 ? bias - apart : bias + apart;
                xr_set_bits(in, x, i, random_float(in, e, e));
            }
            const char* what = kind == 0 ? "every element in another binade" : "huge and tiny alternating";
            check(what, in, x, NULL, n);
            hipreduce_handle h = gpu ? gpu : cpu;
            uint64_t off[3] = {0, 7, n}, r[2];
            const hipreduce_status st = hipreduce_reduce_segments(h, HIPREDUCE_OP_SUM_EXACT, in, on(h, x, n * (uint64_t)b, 0), 2,
                                                                  (const uint64_t*)on(h, off, sizeof off, 2), out, r,
                                                                  HIPREDUCE_RESULT_HOST);
            if (st != HIPREDUCE_STATUS_SUCCESS) FAIL("%s segments: %s", what, hipreduce_status_string(st));
            for (int s = 0; s < 2; ++s) {
                ++checks;
                if (xr_bits(out, r, (uint64_t)s) != library(in, out, x + off[s] * (uint64_t)b, NULL, off[s + 1] - off[s]))
                    FAIL("%s, %s: segment %d differs from its full call", what, hipreduce_dtype_name(in), s);
            }
        }
        free(x);
    }
}

/* Rows of at most one tile, which a warp rounds itself where the tile takes the direct, narrow or
 * split path: f32 rows of 1, 2^-24 and +-2^-60 (the split path; 1 + 2^-24 is halfway between two
 * f32 values, so the f64 sum of the split's two values, 1 + 2^-24, would round to the even one
 * both ways), and f64 rows of 3 to 513 elements over 1 and over 30 binades (the split path up to
 * one tile, 512 at width 32), each against the full call on the row. */
static void short_row_cases(void)
{
    hipreduce_handle h = gpu ? gpu : cpu;
    float t[6 * 3];
    uint32_t tr[6];
    for (int q = 0; q < 6; ++q) {
        const float v[3] = {1.0f, 0x1p-24f, q & 1 ? -0x1p-60f : 0x1p-60f};
        for (int k = 0; k < 3; ++k) t[q * 3 + k] = v[(k + q / 2) % 3];
    }
    hipreduce_status st = hipreduce_reduce_axis(h, HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F32, on(h, t, sizeof t, 0), 6, 3, 1,
                                                HIPREDUCE_F32, tr, HIPREDUCE_RESULT_HOST);
    if (st != HIPREDUCE_STATUS_SUCCESS) FAIL("f32 tie rows: %s", hipreduce_status_string(st));
    for (int q = 0; q < 6; ++q) {
        ++checks;
        if (tr[q] != (q & 1 ? 0x3f800000u : 0x3f800001u))
            FAIL("f32 row %d of 1, 2^-24, %s2^-60: 0x%08x, want 0x%08x", q, q & 1 ? "-" : "", tr[q], q & 1 ? 0x3f800000u : 0x3f800001u);
    }
    const uint64_t n = 1 << 16;
    unsigned char* x = malloc(n * 8);
    for (int spread = 0; spread < 2; ++spread) {
        for (uint64_t i = 0; i < n; ++i) xr_set_bits(HIPREDUCE_F64, x, i, random_float(HIPREDUCE_F64, 1000, spread ? 1029 : 1023));
        static const uint64_t lens[] = {3, 100, 512, 513};
        for (int k = 0; k < 4; ++k) {
            const uint64_t len = lens[k], m = n / len;
            uint64_t* r = malloc(m * 8);
            st = hipreduce_reduce_axis(h, HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F64, on(h, x, n * 8, 0), m, len, 1, HIPREDUCE_F64, r,
                                       HIPREDUCE_RESULT_HOST);
            if (st != HIPREDUCE_STATUS_SUCCESS) FAIL("f64 rows of %llu: %s", (unsigned long long)len, hipreduce_status_string(st));
            for (uint64_t q = 0; q < m; q += m / 64 + 1) {
                ++checks;
                if (r[q] != library(HIPREDUCE_F64, HIPREDUCE_F64, x + q * len * 8, NULL, len))
                    FAIL("f64 row %llu of %llu (%s): differs from its full call", (unsigned long long)q, (unsigned long long)len,
                         spread ? "30 binades" : "1 binade");
            }
            free(r);
        }
    }
    free(x);
}

/* Tiles of narrow windows (each at the direct or narrow path's edge) at scales that drift from
 * tile to tile (kind 0: a scale drawn for each tile) or stay (kind 1, f32: positive, most terms in
 * the tile's top binade, so that a warp's tiles together need more than f64's 53 bits). The last
 * half is the first negated, its tiles shuffled, so the exact sum is +0.0 and a rounding anywhere
 * shows; between the halves, 8 tiles far above (4 and their negations). The full call and one
 * segment over it (a block's warps, many tiles each). Tiles of 128 bytes a lane at width 32, as
 * the GPU's. */
static void cancelling_tile_cases(void)
{
    hipreduce_handle h = gpu ? gpu : cpu;
    for (int d = 0; d < 3; ++d) {
        const hipreduce_dtype in = floats[d];
        const int b = bytes_of(in), bias = (1 << (ebits_of(in) - 1)) - 1, emax = (1 << ebits_of(in)) - 2;
        const int range = in == HIPREDUCE_F16 ? 7 : in == HIPREDUCE_BF16 ? 10 : 19; /* the narrow and direct edges */
        const uint64_t tile = 32 * 128 / (uint64_t)b, half = (profile == TEST_EMU_SMOKE ? 128 : profile ? 512 : 1024) * (4 / (uint64_t)b), n = (2 * half + 8) * tile;
        const uint64_t sign = 1ull << (8 * b - 1);
        unsigned char* x = malloc(n * (uint64_t)b);
        uint64_t* order = malloc(half * 8);
        for (int kind = 0; kind < (in == HIPREDUCE_F32 ? 2 : 1); ++kind) {
            for (uint64_t t = 0; t < half + 4; ++t) { /* the first half, then 4 tiles far above */
                const int span = emax - range - 1, at = !kind ? 1 + (int)(next() % (uint64_t)span) : t < half ? bias - 40 : bias + 20;
                for (uint64_t i = t * tile; i < (t + 1) * tile; ++i) {
                    const int e = kind ? at + (next() % 16 ? range : 0) : at + (int)(next() % (uint64_t)(range + 1));
                    const uint64_t v = random_float(in, e, e);
                    xr_set_bits(in, x, i, kind ? v & ~sign : v);
                }
                if (t < half) order[t] = t;
            }
            for (uint64_t i = 0; i < 4 * tile; ++i) xr_set_bits(in, x, (half + 4) * tile + i, xr_bits(in, x, half * tile + i) ^ sign);
            for (uint64_t t = half; t > 1; --t) {
                const uint64_t k = next() % t, o = order[t - 1];
                order[t - 1] = order[k], order[k] = o;
            }
            for (uint64_t t = 0; t < half; ++t)
                for (uint64_t i = 0; i < tile; ++i)
                    xr_set_bits(in, x, (half + 8 + t) * tile + i, xr_bits(in, x, order[t] * tile + i) ^ sign);
            const char* what = kind ? "tiles at one scale, cancelling" : "tiles at drifting scales, cancelling";
            uint64_t off[2] = {0, n}, r = 1;
            const hipreduce_status st = hipreduce_reduce_segments(h, HIPREDUCE_OP_SUM_EXACT, in, on(h, x, n * (uint64_t)b, 0), 1,
                                                                  (const uint64_t*)on(h, off, sizeof off, 2), HIPREDUCE_F64, &r,
                                                                  HIPREDUCE_RESULT_HOST);
            ++checks;
            if (st != HIPREDUCE_STATUS_SUCCESS || r != 0)
                FAIL("%s, %s: one segment: %s, 0x%llx, not +0.0", what, hipreduce_dtype_name(in), hipreduce_status_string(st),
                     (unsigned long long)r);
            check(what, in, x, NULL, n);
        }
        free(x), free(order);
    }
}

/* Other thread counts (cpu), rows, columns and segments: the bits of the full call on each slice. */
static void shape_cases(void)
{
    hipreduce_handle h = gpu ? gpu : cpu;
    for (int d = 0; d < 4; ++d) {
        const hipreduce_dtype in = floats[d];
        const hipreduce_dtype out = float_out(in);
        const int b = bytes_of(in), emax = (1 << ebits_of(in)) - 2;
        const uint64_t outer = 3, extent = profile ? 3001 : 70001, inner = 5, n = outer * extent * inner;
        unsigned char* x = malloc(n * (uint64_t)b);
        unsigned char* col = malloc(extent * (uint64_t)b);
        for (uint64_t i = 0; i < n; ++i) xr_set_bits(in, x, i, random_float(in, next() % 8 ? emax / 2 : 0, emax));
        const uint64_t full = library(in, out, x, NULL, n);
        for (unsigned t = 1; t <= 5 && !gpu; t += 2) {
            hipreduce_set_threads(cpu, t);
            ++checks;
            if (library(in, out, x, NULL, n) != full) FAIL("%s: %u threads change the bits", hipreduce_dtype_name(in), t);
        }
        hipreduce_set_threads(cpu, 0);
        uint64_t r[15];
        hipreduce_status st = hipreduce_reduce_axis(h, HIPREDUCE_OP_SUM_EXACT, in, on(h, x, n * (uint64_t)b, 0), outer,
                                                    extent, inner, out, r, HIPREDUCE_RESULT_HOST);
        if (st != HIPREDUCE_STATUS_SUCCESS) FAIL("axis: %s", hipreduce_status_string(st));
        for (uint64_t o = 0; o < outer; ++o)
            for (uint64_t i = 0; i < inner; ++i) {
                for (uint64_t e = 0; e < extent; ++e) xr_set_bits(in, col, e, xr_bits(in, x, (o * extent + e) * inner + i));
                ++checks;
                if (xr_bits(out, r, o * inner + i) != library(in, out, col, NULL, extent))
                    FAIL("%s: column (%llu, %llu) differs from its full call", hipreduce_dtype_name(in),
                         (unsigned long long)o, (unsigned long long)i);
            }
        /* rows shorter than a tile, 16-byte aligned or every other one (258: a last partial chunk) */
        for (uint64_t len = 256; len <= 258; len += 2) {
            const uint64_t m = n / len;
            uint64_t* mr = malloc(m * 8);
            st = hipreduce_reduce_axis(h, HIPREDUCE_OP_SUM_EXACT, in, on(h, x, n * (uint64_t)b, 0), m, len, 1, out, mr,
                                       HIPREDUCE_RESULT_HOST);
            if (st != HIPREDUCE_STATUS_SUCCESS) FAIL("rows of %llu: %s", (unsigned long long)len, hipreduce_status_string(st));
            for (uint64_t q = 0; q < m; q += 7) {
                ++checks;
                if (xr_bits(out, mr, q) != library(in, out, x + q * len * (uint64_t)b, NULL, len))
                    FAIL("%s: row %llu of %llu differs from its full call", hipreduce_dtype_name(in), (unsigned long long)q,
                         (unsigned long long)len);
            }
            free(mr);
        }
        /* rows: [n / 701][701] */
        const uint64_t rows = n / 701;
        uint64_t* rr = malloc(rows * 8);
        st = hipreduce_reduce_axis(h, HIPREDUCE_OP_SUM_EXACT, in, on(h, x, n * (uint64_t)b, 0), rows, 701, 1, out, rr,
                                   HIPREDUCE_RESULT_HOST);
        if (st != HIPREDUCE_STATUS_SUCCESS) FAIL("rows: %s", hipreduce_status_string(st));
        for (uint64_t q = 0; q < rows; q += 37) {
            ++checks;
            if (xr_bits(out, rr, q) != library(in, out, x + q * 701 * (uint64_t)b, NULL, 701))
                FAIL("%s: row %llu differs from its full call", hipreduce_dtype_name(in), (unsigned long long)q);
        }
        free(rr);
        /* segments: empty ones, short ones, one longer than a thread's share */
        uint64_t off[9] = {0, 0, 1, 1, 300, 5000, 5000, n / 5 * 4, n};
        uint64_t sr[8];
        st = hipreduce_reduce_segments(h, HIPREDUCE_OP_SUM_EXACT, in, on(h, x, n * (uint64_t)b, 0), 8,
                                       (const uint64_t*)on(h, off, sizeof off, 2), out, sr, HIPREDUCE_RESULT_HOST);
        if (st != HIPREDUCE_STATUS_SUCCESS) FAIL("segments: %s", hipreduce_status_string(st));
        for (int s = 0; s < 8; ++s) {
            ++checks;
            if (xr_bits(out, sr, (uint64_t)s) != library(in, out, x + off[s] * (uint64_t)b, NULL, off[s + 1] - off[s]))
                FAIL("%s: segment %d differs from its full call", hipreduce_dtype_name(in), s);
        }
        free(x), free(col);
    }
}

/* Slices that start off a 16-byte boundary: the GPU's tiles then start at the boundary before
 * (device/exact_kernels.h's exact_grid) and blank the elements before the slice. Those elements
 * here: +0.0 before a slice of -0.0 (whose sum stays -0.0), NaN and inf before finite ones. Each
 * segment and row equals the full call on its slice. */
static void head_cases(void)
{
    hipreduce_handle h = gpu ? gpu : cpu;
    for (int d = 0; d < 4; ++d) {
        const hipreduce_dtype in = floats[d];
        const hipreduce_dtype out = float_out(in);
        const int b = bytes_of(in), emax = (1 << ebits_of(in)) - 2;
        const uint64_t n = 4096;
        const uint64_t sign = 1ull << (8 * b - 1), inf = (uint64_t)(emax + 1) << frac_of(in), nan = inf | 1;
        unsigned char* x = malloc(n * (uint64_t)b);
        for (int kind = 0; kind < 2; ++kind) {
            for (uint64_t i = 0; i < n; ++i) {
                const uint64_t before = kind == 0 ? 0 : i % 3 ? nan : inf; /* the elements before each start */
                const uint64_t mine = kind == 0 ? sign : random_float(in, emax / 2 - 2, emax / 2 + 2);
                xr_set_bits(in, x, i, i % 61 < 7 ? before : mine);
            }
            /* segments that start after 7 "before" ones (at 61 k + 7: in several places of a
             * 16-byte chunk, by dtype), segments of "before" ones, and segments holding both */
            uint64_t off[10] = {7, 61, 68, 122, 129 + 61, 183 + 61, 251, 305, 1105, 3000};
            uint64_t sr[9];
            hipreduce_status st = hipreduce_reduce_segments(h, HIPREDUCE_OP_SUM_EXACT, in, on(h, x, n * (uint64_t)b, 0), 9,
                                                            (const uint64_t*)on(h, off, sizeof off, 2), out, sr,
                                                            HIPREDUCE_RESULT_HOST);
            if (st != HIPREDUCE_STATUS_SUCCESS) FAIL("head segments: %s", hipreduce_status_string(st));
            for (int q = 0; q < 9; ++q) {
                ++checks;
                if (xr_bits(out, sr, (uint64_t)q) != library(in, out, x + off[q] * (uint64_t)b, NULL, off[q + 1] - off[q]))
                    FAIL("%s, kind %d: segment [%llu, %llu) differs from its full call", hipreduce_dtype_name(in), kind,
                         (unsigned long long)off[q], (unsigned long long)off[q + 1]);
            }
            /* rows of 61 from element 7 on: an odd row's last 7 are "before" ones, so an even
             * row's start has them before it (and element 7, row 0's start, the first 7) */
            for (uint64_t i = 0; i < n; ++i) {
                const uint64_t p = (i + 61 - 7) % 61, q = (i + 61 - 7) / 61; /* row q - 1 (q = 0: the lead) */
                if (q == 0 || (q % 2 == 0 && p >= 54)) xr_set_bits(in, x, i, kind == 0 ? 0 : p % 3 ? nan : inf);
                else xr_set_bits(in, x, i, kind == 0 ? sign : random_float(in, emax / 2 - 2, emax / 2 + 2));
            }
            uint64_t rr[66];
            const unsigned char* rows = (const unsigned char*)on(h, x, n * (uint64_t)b, 0) + 7 * b;
            st = hipreduce_reduce_axis(h, HIPREDUCE_OP_SUM_EXACT, in, rows, 66, 61, 1, out, rr, HIPREDUCE_RESULT_HOST);
            if (st != HIPREDUCE_STATUS_SUCCESS) FAIL("head rows: %s", hipreduce_status_string(st));
            for (uint64_t q = 0; q < 66; ++q) {
                ++checks;
                if (xr_bits(out, rr, q) != library(in, out, x + (7 + q * 61) * (uint64_t)b, NULL, 61))
                    FAIL("%s, kind %d: row %llu of 61 differs from its full call", hipreduce_dtype_name(in), kind,
                         (unsigned long long)q);
            }
        }
        free(x);
    }
}

/* Short slices whose terms' f64 sum is exact or not by a few bits: a term 2^e (1 + ulp), one
 * -2^e and c - 2 terms 1 + ulp, for e from 0 to 80 binades apart (the GPU sums a short slice's
 * terms in f64 where their exponent window allows it: an f64 sum past 53 bits would round).
 * Segments of 3 and 64 terms, each equal to the full call on its slice, f64 results (f32 ones
 * would hide most of such an error); f16 spans too few binades to need it. */
static void window_edge_cases(void)
{
    hipreduce_handle h = gpu ? gpu : cpu;
    for (int d = 1; d < 4; ++d) {
        const hipreduce_dtype in = floats[d];
        const hipreduce_dtype out = HIPREDUCE_F64;
        const int b = bytes_of(in), frac = frac_of(in), bias = (1 << (ebits_of(in) - 1)) - 1;
        /* `reps` copies of the 2 x `spans` segments: so many short segments that the GPU sums them a
         * lane each (exact_kernels.h's exact_slices_per: more than 8 a block per round; the emulated
         * GPU has 3 multiprocessors) */
        enum { spans = 81 };
        const int reps = profile ? 12 : 480, segs = 2 * spans * reps;
        const int counts[2] = {3, 64};
        uint64_t* off = malloc((segs + 1) * sizeof(uint64_t));
        uint64_t* r = malloc(segs * sizeof(uint64_t));
        unsigned char* x = malloc((uint64_t)reps * spans * (3 + 64) * (uint64_t)b);
        uint64_t n = 0;
        for (int q = 0; q < segs; ++q) {
            const int k = q / spans % 2, e = q % spans, big = bias + e > 2 * bias ? 2 * bias : bias + e;
            off[q] = n;
            xr_set_bits(in, x, n++, (uint64_t)big << frac | 1);
            xr_set_bits(in, x, n++, 1ull << (8 * b - 1) | (uint64_t)big << frac); /* not beside the big one in a chain */
            for (int i = 0; i < counts[k] - 2; ++i) xr_set_bits(in, x, n++, (uint64_t)bias << frac | 1);
        }
        off[segs] = n;
        const hipreduce_status st = hipreduce_reduce_segments(h, HIPREDUCE_OP_SUM_EXACT, in, on(h, x, n * (uint64_t)b, 0), segs,
                                                              (const uint64_t*)on(h, off, (segs + 1) * sizeof(uint64_t), 2),
                                                              out, r, HIPREDUCE_RESULT_HOST);
        if (st != HIPREDUCE_STATUS_SUCCESS) FAIL("lane segments: %s", hipreduce_status_string(st));
        for (int q = 0; q < segs; ++q) {
            ++checks;
            if (xr_bits(out, r, (uint64_t)q) != library(in, out, x + off[q] * (uint64_t)b, NULL, off[q + 1] - off[q]))
                FAIL("%s: segment %d, %d terms %d binades apart: differs from the full call", hipreduce_dtype_name(in), q,
                     counts[q / spans % 2], q % spans);
        }
        free(x);
        free(off);
        free(r);
    }
}

static void expect_status(const char* what, hipreduce_status st, hipreduce_status want, const char* text)
{
    ++checks;
    const char* msg = hipreduce_last_error_message(cpu);
    if (st != want || (text && strstr(msg, text) == NULL))
        FAIL("%s: %s \"%s\", want %s \"%s\"", what, hipreduce_status_string(st), msg, hipreduce_status_string(want),
             text ? text : "");
}

static void validation_cases(void)
{
    float x[2] = {1, 2}, r = 7;
    int32_t i[2] = {1, 2};
    size_t bytes = 1;
    const hipreduce_status MISMATCH = HIPREDUCE_STATUS_OP_DTYPE_MISMATCH;
    expect_status("i32", hipreduce_reduce(cpu, HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_I32, i, 2, HIPREDUCE_I64, &r, HIPREDUCE_RESULT_HOST),
                  MISMATCH, "sum_exact does not apply to i32 input: sum_exact takes f16, bf16, f32, f64, c64 or c128");
    expect_status("f32 -> f16", hipreduce_reduce(cpu, HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F32, x, 2, HIPREDUCE_F16, &r, HIPREDUCE_RESULT_HOST),
                  MISMATCH, "sum_exact of f32: result dtype f16 not allowed, use f32 or f64");
    expect_status("dot_exact to reduce", hipreduce_reduce(cpu, HIPREDUCE_OP_DOT_EXACT, HIPREDUCE_F32, x, 2, HIPREDUCE_F32, &r, HIPREDUCE_RESULT_HOST),
                  MISMATCH, "dot_exact is the op of its own call: call hipreduce_dot_op");
    expect_status("sum to dot_op", hipreduce_dot_op(cpu, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, x, 2, HIPREDUCE_F32, &r, HIPREDUCE_RESULT_HOST),
                  MISMATCH, "sum is not a dot op (dot, dot_exact or dotc): call hipreduce_reduce");
    expect_status("dot_exact i8", hipreduce_dot_op(cpu, HIPREDUCE_OP_DOT_EXACT, HIPREDUCE_I8, x, x, 2, HIPREDUCE_I64, &r, HIPREDUCE_RESULT_HOST),
                  MISMATCH, "dot_exact does not apply to i8 input");
    expect_status("argmax of sum_exact", hipreduce_argreduce(cpu, HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F32, x, 2, &r, NULL, HIPREDUCE_RESULT_HOST),
                  MISMATCH, "call hipreduce_reduce");
    expect_status("NULL y", hipreduce_dot_op(cpu, HIPREDUCE_OP_DOT_EXACT, HIPREDUCE_F32, x, NULL, 2, HIPREDUCE_F32, &r, HIPREDUCE_RESULT_HOST),
                  HIPREDUCE_STATUS_INVALID_POINTER, "y is NULL");
    expect_status("op 99", hipreduce_reduce(cpu, (hipreduce_op)99, HIPREDUCE_F32, x, 2, HIPREDUCE_F32, &r, HIPREDUCE_RESULT_HOST),
                  HIPREDUCE_STATUS_INVALID_OP, "op 99 is not a hipreduce_op (0 to 32)");
    ++checks;
    if (r != 7) FAIL("a failing call wrote its result");
    expect_status("size", hipreduce_workspace_size(cpu, HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F32, 1u << 30, HIPREDUCE_F64, &bytes),
                  HIPREDUCE_STATUS_SUCCESS, NULL);
    expect_status("dot size", hipreduce_dot_op_workspace_size(cpu, HIPREDUCE_OP_DOT_EXACT, HIPREDUCE_F64, 1u << 30, HIPREDUCE_F64, &bytes),
                  HIPREDUCE_STATUS_SUCCESS, NULL);
    ++checks;
    if (bytes != 0) FAIL("exact sums need no workspace on the cpu device, the query says %zu", bytes);
    ++checks;
    if (strcmp(hipreduce_op_name(HIPREDUCE_OP_SUM_EXACT), "sum_exact") || strcmp(hipreduce_op_name(HIPREDUCE_OP_DOT_EXACT), "dot_exact"))
        FAIL("op names");
}

int main(int argc, char** argv)
{
    profile = test_profile();
    hipreduce_status st = hipreduce_create(&cpu, HIPREDUCE_DEVICE_CPU, 0);
    if (st != HIPREDUCE_STATUS_SUCCESS) {
        fprintf(stderr, "FAIL create: %s\n", hipreduce_status_string(st));
        return 1;
    }
    if (argc > 1 && !strcmp(argv[1], "gpu")) {
        if (gm_count() == 0 || hipreduce_create(&gpu, HIPREDUCE_DEVICE_GPU, 0) != HIPREDUCE_STATUS_SUCCESS) {
            printf("exact gpu: no GPU (%s)\n", hipreduce_last_error_message(NULL));
            return 77;
        }
        printf("exact gpu: %s\n", gm_device_name(0));
    } else {
        validation_cases();
    }
    rule_cases();
    cancel_cases();
    adversarial_cases();
    shape_cases();
    short_row_cases();
    head_cases();
    window_edge_cases();
    cancelling_tile_cases();
    random_cases();
    if (gpu) hipreduce_destroy(gpu);
    hipreduce_destroy(cpu);
    printf("exact%s: %d checks, %d failures\n", gpu ? " gpu" : "", checks, fails);
    return fails != 0;
}
