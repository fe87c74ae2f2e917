/* typed suite: every allowed (op, input dtype, result dtype) triple of hipreduce_reduce,
 * hipreduce_argreduce and hipreduce_dot over the edge sizes and several value patterns, on the cpu
 * device against typed_ref.c (exact integers; floats bit for bit against the canonical-order model
 * and within a long double bound), and on GPU 0 (real or emulated) bit for bit against the cpu
 * device, result in host and device memory; dot(x, x) == sum_squares(x); then the rule sections
 * of typed_rules.c.
 *   hipreduce_test_typed cpu   the cpu device only (label api)
 *   hipreduce_test_typed gpu   also GPU 0; exits 77 (skipped) where there is none (labels gpu, emu)
 *   HIPREDUCE_TEST_PROFILE=emu | emu-smoke: the emulator's smaller matrices
 *   HIPREDUCE_TYPED_MAX_N=k: the largest size of the matrix (default 2^17 + 1, emu 2^14 + 1) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_memory.h"
#include "reference.h"
#include "test_run.h"
#include "typed_ref.h"
#include "typed_run.h"

#define SKIP 77
#define SENTINEL 0xA5
#define INDEX_SENTINEL ((int64_t)0x5a5a5a5a5a5a5a5aLL)

hipreduce_status tt_call(hipreduce_handle h, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out,
                         const void* x, const void* y, uint64_t n, void* result, int64_t* index,
                         hipreduce_location location)
{
    switch (tr_call(op)) {
    case 1: return hipreduce_argreduce(h, op, in, x, n, result, index, location);
    case 2: return hipreduce_dot(h, in, x, y, n, out, result, location);
    default: return hipreduce_reduce(h, op, in, x, n, out, result, location);
    }
}

int tt_upload(tt_ctx* c, hipreduce_dtype in, const void* x, const void* y, uint64_t n)
{
    const size_t bytes = (size_t)n * tr_size(in);
    if (!c->gpu) return 0;
    if (bytes > c->room || gm_to_device(c->d_x, x, bytes) != 0 || (y && gm_to_device(c->d_y, y, bytes) != 0)) {
        ref_report("FAIL: cannot copy %zu bytes to the GPU (room %zu)", bytes, c->room);
        return 1;
    }
    return 0;
}

static int untouched(const unsigned char* r, size_t from)
{
    for (size_t i = from; i < 16; ++i)
        if (r[i] != SENTINEL) return 0;
    return 1;
}

static int gpu_run(tt_ctx* c, const char* what, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out,
                   uint64_t n, hipreduce_location loc, const unsigned char* want, int64_t want_index)
{
    unsigned char got[24];
    int64_t index = INDEX_SENTINEL;
    memset(got, SENTINEL, sizeof got);
    hipreduce_status st;
    if (loc == HIPREDUCE_RESULT_HOST) {
        st = tt_call(c->gpu, op, in, out, c->d_x, c->d_y, n, got, &index, loc);
    } else {
        if (gm_memset(c->d_result, SENTINEL, 24) != 0) return 1;
        st = tt_call(c->gpu, op, in, out, c->d_x, c->d_y, n, c->d_result, (int64_t*)(c->d_result + 16), loc);
        if (gm_sync() != 0 || gm_to_host(got, c->d_result, 24) != 0) st = HIPREDUCE_STATUS_RUNTIME_ERROR;
        memcpy(&index, got + 16, 8);
        if (tr_call(op) != 1) { /* the index slot must stay untouched */
            int clean = 1;
            for (int i = 16; i < 24; ++i) clean &= got[i] == SENTINEL;
            index = clean ? want_index : -2;
        }
    }
    const char* where = loc == HIPREDUCE_RESULT_HOST ? "host" : "device";
    if (st != HIPREDUCE_STATUS_SUCCESS) {
        ref_report("FAIL gpu %s %s: %s %s->%s n=%llu: status %s (%s)", where, what, tr_op_name(op), tr_dtype_name(in),
                   tr_dtype_name(out), (unsigned long long)n, hipreduce_status_string(st),
                   hipreduce_last_error_message(c->gpu));
        return 1;
    }
    const size_t size = tr_size(out);
    if (memcmp(got, want, size) != 0 || !untouched(got, size) || index != want_index) {
        ref_report("FAIL gpu %s %s: %s %s->%s n=%llu: got 0x%llx index %lld, the cpu device 0x%llx index %lld%s", where,
                   what, tr_op_name(op), tr_dtype_name(in), tr_dtype_name(out), (unsigned long long)n,
                   (unsigned long long)tr_bits(out, got, 0), (long long)index, (unsigned long long)tr_bits(out, want, 0),
                   (long long)want_index, untouched(got, size) ? "" : " (wrote past one element)");
        return 1;
    }
    return 0;
}

int tt_case(tt_ctx* c, const char* what, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, const void* x,
            const void* y, uint64_t n, uint64_t* bits, int64_t* index)
{
    unsigned char got[16];
    int64_t got_index = INDEX_SENTINEL;
    memset(got, SENTINEL, sizeof got);
    ++c->calls;
    const int arg = tr_call(op) == 1;
    const hipreduce_status st = tt_call(c->cpu, op, in, out, x, y, n, got, &got_index, HIPREDUCE_RESULT_HOST);
    if (st != HIPREDUCE_STATUS_SUCCESS) {
        ref_report("FAIL cpu %s: %s %s->%s n=%llu: status %s", what, tr_op_name(op), tr_dtype_name(in),
                   tr_dtype_name(out), (unsigned long long)n, hipreduce_status_string(st));
        return 1;
    }
    int fails = 0;
    if (!untouched(got, tr_size(out)) || (!arg && got_index != INDEX_SENTINEL)) {
        ref_report("FAIL cpu %s: %s %s->%s n=%llu wrote past its result", what, tr_op_name(op), tr_dtype_name(in),
                   tr_dtype_name(out), (unsigned long long)n);
        ++fails;
    }
    const uint64_t b = tr_bits(out, got, 0);
    char label[64];
    snprintf(label, sizeof label, "cpu %s", what);
    fails += tr_check(label, op, in, out, x, y, n, b, arg ? got_index : -1);
    if (bits) *bits = b;
    if (index) *index = got_index;
    if (c->gpu) {
        fails += gpu_run(c, what, op, in, out, n, HIPREDUCE_RESULT_HOST, got, got_index);
        if (c->device_location) fails += gpu_run(c, what, op, in, out, n, HIPREDUCE_RESULT_DEVICE, got, got_index);
    }
    return fails;
}

/* ---- the matrix ---- */

static uint64_t mix(uint64_t z) /* splitmix64's finalizer */
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}
static uint64_t hash(uint64_t seed, uint64_t i) { return mix(seed + (i + 1) * UINT64_C(0x9e3779b97f4a7c15)); }

/* Value patterns. RANDOM: full-range integers, floats +-(1 + m) 2^e with e in [-6, 6]; PROD:
 * odd integers, floats near 1 (products stay finite); EXTREME: the type's limits (integers) or
 * huge, tiny and subnormal floats; SPECIAL: floats with NaNs (several payloads), infinities and
 * signed zeros; small integers in [-3, 3] (ties); ZEROS: floats -0.0 and +0.0 only. */
enum { P_RANDOM, P_PROD, P_EXTREME, P_SPECIAL, P_ZEROS, P_KINDS };
static const char* const pattern_names[P_KINDS] = {"random", "prod", "extreme", "special", "zeros"};

static double big_of(hipreduce_dtype d)
{
    return d == HIPREDUCE_F16 ? 60000.0 : d == HIPREDUCE_F64 ? 1e300 : 3e38;
}
static double tiny_of(hipreduce_dtype d)
{
    return d == HIPREDUCE_F16 ? 0x1p-20 : d == HIPREDUCE_BF16 ? 0x1p-130 : d == HIPREDUCE_F32 ? 0x1p-140 : 0x1p-1060;
}

static void fill(hipreduce_dtype d, int pattern, uint64_t n, uint64_t seed, void* x)
{
    const int fl = tr_is_float(d);
    const unsigned bits = (unsigned)(8 * tr_size(d));
    const uint64_t top = bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
    const uint64_t smin = tr_is_signed(d) ? UINT64_C(1) << (bits - 1) : 0, smax = tr_is_signed(d) ? top >> 1 : top;
    const double amplitude = fmin(1.0 / 64, 1 / sqrt((double)(n ? n : 1)));
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t h = hash(seed, i);
        const double sign = (h >> 4) & 1 ? -1.0 : 1.0;
        const double spread = sign * ldexp(1 + ldexp((double)(h >> 12), -52), (int)(h % 13) - 6);
        if (!fl) {
            const uint64_t limits[6] = {smin, smin + 1, smax, smax - 1, 0, top};
            const uint64_t v = pattern == P_PROD      ? h | 1
                             : pattern == P_EXTREME   ? limits[(h >> 8) % 6]
                             : pattern == P_SPECIAL   ? (uint64_t)((int64_t)((h >> 8) % 7) - 3)
                                                      : h;
            tr_store_bits(d, x, i, v);
            continue;
        }
        double v = spread;
        switch (pattern) {
        case P_PROD: v = 1 + amplitude * (ldexp((double)(h >> 11), -52) - 1); break;
        case P_EXTREME: {
            const int k = (int)((h >> 8) % 4);
            v = sign * (k == 0 ? big_of(d) * (0.5 + ldexp((double)(h >> 40), -25)) : k == 1 ? tiny_of(d) * (double)(h >> 60)
                        : k == 2 ? spread * tiny_of(d) * 1024 : spread);
            break;
        }
        case P_SPECIAL: {
            static const double specials[6] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.5};
            if ((h >> 20) % 8 == 0) v = specials[(h >> 24) % 6];
            break;
        }
        case P_ZEROS: v = (seed & 1) || ((h >> 7) & 1) ? -0.0 : 0.0; break; /* all -0.0 for odd seeds */
        default: break;
        }
        tr_store_float(d, x, i, v);
        if (pattern == P_SPECIAL && isnan(v)) { /* NaN payloads and signs other than the canonical one */
            const uint64_t payload = tr_canonical_nan(d) | (h >> 30 & 1 ? 1 : 0) | (h >> 31 & 1 ? UINT64_C(1) << (bits - 1) : 0);
            tr_store_bits(d, x, i, payload);
        }
    }
}

static size_t sizes_of(hipreduce_dtype d, uint64_t max_n, uint64_t* out)
{
    const uint64_t t = tr_tile_items(d);
    uint64_t all[64] = {0, 1, 2, 31, 32, 33, 255, 256, 257, t - 1, t, t + 1, 2 * t + 1, 3 * t + 5};
    size_t count = 14;
    for (int k = 10; k <= 22; ++k) {
        all[count++] = (UINT64_C(1) << k) - 1;
        all[count++] = (UINT64_C(1) << k) + 1;
    }
    size_t kept = 0;
    for (size_t i = 0; i < count; ++i) {
        int dup = 0;
        for (size_t j = 0; j < kept; ++j) dup |= out[j] == all[i];
        if (all[i] <= max_n && !dup) out[kept++] = all[i];
    }
    return kept;
}

/* Whether the pattern applies to the dtype, and at which sizes (the special patterns at every
 * third size, the smallest ones always). */
static int pattern_applies(hipreduce_dtype d, int pattern, size_t size_index)
{
    if (pattern == P_ZEROS && !tr_is_float(d)) return 0;
    return pattern == P_RANDOM || size_index < 6 || size_index % 3 == (size_t)pattern % 3;
}

static int matrix(tt_ctx* c, uint64_t max_n, unsigned char* x, unsigned char* y)
{
    int fails = 0;
    long triples = 0, before = c->calls;
    for (int d = 0; d < TR_NDTYPES; ++d) {
        const hipreduce_dtype in = (hipreduce_dtype)d;
        uint64_t sizes[64];
        const size_t nsizes = sizes_of(in, max_n, sizes);
        for (size_t si = 0; si < nsizes; ++si) {
            const uint64_t n = sizes[si];
            for (int p = 0; p < P_KINDS; ++p) {
                if (!pattern_applies(in, p, si)) continue;
                const uint64_t seed = mix((uint64_t)d * 1000003 + (uint64_t)p * 7919 + n);
                fill(in, p, n, seed, x);
                fill(in, p == P_PROD ? P_PROD : P_RANDOM, n, seed ^ 0xabcdef, y); /* mixed signs */
                if (tt_upload(c, in, x, y, n)) return fails + 1;
                char what[48];
                snprintf(what, sizeof what, "%s", pattern_names[p]);
                for (int op = 0; op < TR_NOPS; ++op)
                    for (int o = 0; o < TR_NDTYPES; ++o) {
                        const hipreduce_dtype out = (hipreduce_dtype)o;
                        if (!tr_allowed((hipreduce_op)op, in, out)) continue;
                        triples += si == 0 && p == 0;
                        fails += tt_case(c, what, (hipreduce_op)op, in, out, x, y, n, NULL, NULL);
                    }
                if (p != P_RANDOM && p != P_SPECIAL) continue;
                /* dot(x, x) is sum_squares(x), bit for bit: the same transform x * x in the same order. */
                memcpy(y, x, (size_t)n * tr_size(in));
                if (tt_upload(c, in, x, y, n)) return fails + 1;
                for (int o = 0; o < TR_NDTYPES; ++o) {
                    const hipreduce_dtype out = (hipreduce_dtype)o;
                    if (!tr_allowed(HIPREDUCE_OP_DOT, in, out)) continue;
                    uint64_t dot = 0, squares = 0;
                    fails += tt_case(c, "x=y", HIPREDUCE_OP_DOT, in, out, x, y, n, &dot, NULL);
                    fails += tt_case(c, "x=y", HIPREDUCE_OP_SUM_SQUARES, in, out, x, NULL, n, &squares, NULL);
                    const int nan_both = tr_is_nan_bits(out, dot) && tr_is_nan_bits(out, squares);
                    if (dot != squares && !nan_both) {
                        ref_report("FAIL: dot(x, x) 0x%llx != sum_squares(x) 0x%llx: %s->%s n=%llu %s",
                                   (unsigned long long)dot, (unsigned long long)squares, tr_dtype_name(in),
                                   tr_dtype_name(out), (unsigned long long)n, pattern_names[p]);
                        ++fails;
                    }
                }
            }
        }
    }
    printf("matrix: %ld triples, %ld calls, %d failures\n", triples, c->calls - before, fails);
    return fails;
}

/* Three and four levels: the accumulator partials (f64, nrm2's three sums, the 64-bit keys) at
 * levels >= 2, with two groups of tiles at level 1 (8-byte inputs at 2048^2 + 1 elements; f32 into
 * f64 at 4096 * 4097 + 1 outside the emu profiles). */
static int levels(tt_ctx* c, int emu, unsigned char* x, unsigned char* y)
{
    static const struct { hipreduce_op op; hipreduce_dtype in, out; uint64_t n; int big; } cases[] = {
        {HIPREDUCE_OP_NRM2, HIPREDUCE_F64, HIPREDUCE_F64, 2048 * 2048 + 1, 0},
        {HIPREDUCE_OP_SUM_SQUARES, HIPREDUCE_F64, HIPREDUCE_F64, 2048 * 2048 + 1, 0},
        {HIPREDUCE_OP_ARGMAX, HIPREDUCE_F64, HIPREDUCE_F64, 2048 * 2048 + 1, 0},
        {HIPREDUCE_OP_ARGMIN, HIPREDUCE_I64, HIPREDUCE_I64, 2048 * 2048 + 1, 0},
        {HIPREDUCE_OP_DOT, HIPREDUCE_U64, HIPREDUCE_I64, 2048 * 2048 + 1, 0},
        {HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F64, 4096 * 4097 + 1, 1},
        {HIPREDUCE_OP_ARGMIN, HIPREDUCE_F32, HIPREDUCE_F32, 4096 * 4097 + 1, 1},
    };
    int fails = 0, ran = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        if ((cases[i].big && emu) || (size_t)cases[i].n * tr_size(cases[i].in) > c->room) continue;
        const uint64_t seed = 4000 + i;
        fill(cases[i].in, P_RANDOM, cases[i].n, seed, x);
        fill(cases[i].in, P_RANDOM, cases[i].n, seed + 1, y);
        if (cases[i].in == HIPREDUCE_F64 && cases[i].op == HIPREDUCE_OP_NRM2) /* all three scaled sums */
            for (uint64_t k = 0; k < cases[i].n; k += 1001) tr_store_float(HIPREDUCE_F64, x, k, k % 2 ? 1e-200 : 1e200);
        if (tt_upload(c, cases[i].in, x, y, cases[i].n)) return fails + 1;
        fails += tt_case(c, "levels", cases[i].op, cases[i].in, cases[i].out, x, y, cases[i].n, NULL, NULL);
        ++ran;
    }
    printf("levels: %d cases, %d failures\n", ran, fails);
    return fails;
}

int main(int argc, char** argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const int want_gpu = test_wants_gpu(argc, argv);
    if (want_gpu < 0) return 2;
    tt_ctx c;
    memset(&c, 0, sizeof c);
    const enum test_profile emu = test_profile();
    c.smoke = emu == TEST_EMU_SMOKE;
    uint64_t max_n = emu == TEST_EMU_SMOKE ? 1025 : emu == TEST_EMU ? (UINT64_C(1) << 14) + 1 : (UINT64_C(1) << 17) + 1;
    if (getenv("HIPREDUCE_TYPED_MAX_N")) max_n = strtoull(getenv("HIPREDUCE_TYPED_MAX_N"), NULL, 10);
    if (want_gpu && gm_count() == 0) {
        printf("typed gpu: skipped: no GPU visible to the runtime (or a cpu-only build)\n");
        return SKIP;
    }
    if (hipreduce_create(&c.cpu, HIPREDUCE_DEVICE_CPU, 0) != HIPREDUCE_STATUS_SUCCESS) {
        fprintf(stderr, "FAIL: cannot create a cpu handle\n");
        return 1;
    }
    /* Room for the matrix, the rule sections' inputs (up to 3 tiles of 1-byte elements) and levels()
     * (2048^2 + 1 8-byte elements; 4096 * 4097 + 1 4-byte ones outside the emu profiles). */
    const uint64_t max_items = max_n > 3 * 16384 + 64 ? max_n : 3 * 16384 + 64;
    const size_t levels_bytes = emu ? (size_t)(2048 * 2048 + 1) * 8 : (size_t)(4096 * 4097 + 1) * 4;
    c.room = (size_t)max_items * 8 > levels_bytes ? (size_t)max_items * 8 : levels_bytes;
    if (want_gpu) {
        const hipreduce_status st = hipreduce_create(&c.gpu, HIPREDUCE_DEVICE_GPU, 0);
        c.d_x = (unsigned char*)gm_alloc(c.room);
        c.d_y = (unsigned char*)gm_alloc(c.room);
        c.d_result = (unsigned char*)gm_alloc(24);
        if (st != HIPREDUCE_STATUS_SUCCESS || !c.d_x || !c.d_y || !c.d_result) {
            fprintf(stderr, "FAIL: a GPU is visible, but hipreduce_create(GPU 0): %s (%s), or no device memory\n",
                    hipreduce_status_string(st), hipreduce_create_error_message());
            return 1;
        }
        c.device_location = 1;
        printf("typed gpu: device 0: %s\n", gm_device_name(0));
    }
    unsigned char* x = (unsigned char*)malloc(c.room);
    unsigned char* y = (unsigned char*)malloc(c.room);
    if (!x || !y) {
        fprintf(stderr, "FAIL: cannot allocate %zu bytes of host buffers\n", c.room);
        return 1;
    }
    printf("typed %s: matrix up to n = %llu\n", want_gpu ? "gpu" : "cpu", (unsigned long long)max_n);
    int fails = 0;
    fails += tt_mismatch(&c);
    fails += tt_arguments(&c);
    fails += tt_semantics(&c);
    fails += tt_arg_rules(&c);
    fails += tt_nrm2_range(&c);
    fails += tt_workspace(&c);
    fails += matrix(&c, max_n, x, y);
    if (emu != 1) fails += levels(&c, emu, x, y);
    free(x);
    free(y);
    if (c.gpu) {
        gm_free(c.d_x);
        gm_free(c.d_y);
        gm_free(c.d_result);
        hipreduce_destroy(c.gpu);
    }
    hipreduce_destroy(c.cpu);
    printf("typed: %ld calls, %d failures\n", c.calls, fails);
    return fails ? 1 : 0;
}
