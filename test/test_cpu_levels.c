/* cpu_levels (unit): every variant of the cpu device's level kernels that this CPU can run
 * (baseline, and on x86 AVX2 and AVX-512) gives the partials of the baseline variant bit for
 * bit: every allowed (op, in, out) triple (device/rules.h) has its kernels, and each runs over
 * full and partial tiles, tile ranges split as the pool splits them, input and output at every
 * misalignment. The api suite checks the variant the library picks
 * against the canonical-order model; this makes the others count too. Compiles the kernels
 * (src/cpu_levels_*.c) into the test. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_levels.h"
#include "hipreduce/hipreduce.h"
#include "plan.h"

#include "cpu_ops.h"
#include "types.h"

static int fails;

static uint64_t mix(uint64_t z)
{
    z += UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* What a level reads: an input dtype (level 0) or an accumulator kind (the levels above). */
typedef struct source {
    int up;       /* 0: input elements of dtype; 1: partials of kind acc */
    int dtype;    /* level 0 */
    int acc;      /* the kind of the partials */
    int combine;
    size_t size;  /* bytes of one element */
} source;

/* Random elements. Sums and products of floats and complex values get finite values (NaN payloads
 * of sums are outside the bit contract; products near 1); f64 nrm2 values across the three scaled ranges; the
 * statistics' struct partials finite values and counts; everything else any bits, with extra
 * signed zeros and NaNs for the order-free float folds. */
static void fill(const source* s, unsigned char* x, uint64_t n, uint64_t seed)
{
    const int sum_like = s->combine == HR_CB_ADD || s->combine == HR_CB_MUL || s->combine == HR_CB_NRM2;
    const int mul = s->combine == HR_CB_MUL;
    for (uint64_t i = 0; i < n; ++i) {
        uint64_t r = mix(seed * 1000003 + i);
        unsigned char* p = x + i * s->size;
        const int e = (int)(r % 40) - 50;
        if (!s->up && sum_like && (s->dtype == HIPREDUCE_F16 || s->dtype == HIPREDUCE_BF16)) {
            const uint16_t h = mul ? (uint16_t)((s->dtype == HIPREDUCE_F16 ? 0x3c00 : 0x3f80) + (r & 7) - 3)
                                   : (uint16_t)(r & 0xbfff); /* |x| < 2: finite */
            memcpy(p, &h, 2);
        } else if ((!s->up && s->dtype == HIPREDUCE_F32 && sum_like) || (s->up && s->acc == HR_ACC_F32 && sum_like)) {
            const float v = mul ? 1.0f + (float)((int)(r % 2001) - 1000) * 1e-6f : ldexpf((float)(int32_t)(r >> 32), e);
            memcpy(p, &v, 4);
        } else if (!s->up && s->dtype == HIPREDUCE_F64 && s->combine == HR_CB_NRM2) {
            const double v = ldexp((double)(int64_t)r, (int)(r % 1300) - 650 - 63);
            memcpy(p, &v, 8);
        } else if ((!s->up && s->dtype == HIPREDUCE_F64 && sum_like) || (s->up && s->acc == HR_ACC_F64 && sum_like)) {
            const double v = mul ? 1.0 + (double)((int)(r % 2001) - 1000) * 1e-9 : ldexp((double)(int64_t)r, e - 50);
            memcpy(p, &v, 8);
        } else if (s->up && s->acc == HR_ACC_NRM2_F64) {
            for (int k = 0; k < 3; ++k) {
                const double v = ldexp((double)(mix(r + (uint64_t)k) >> 11), (int)(r % 200) - 100);
                memcpy(p + 8 * k, &v, 8);
            }
        } else if (s->up && (s->acc == HR_ACC_LSE_F32 || s->acc == HR_ACC_LSE_F64)) {
            /* logsumexp's partials: a maximum (now and then -inf: an empty side) and a sum >= 1 */
            const double max = r % 7 == 0 ? -HUGE_VAL : ldexp((double)(int32_t)(r >> 32), e + 20);
            const double sum = 1 + ldexp((double)(mix(r + 1) >> 40), -12);
            if (s->acc == HR_ACC_LSE_F64) {
                memcpy(p, &max, 8);
                memcpy(p + 8, &sum, 8);
            } else {
                const float fm = (float)max, fs = (float)sum;
                memcpy(p, &fm, 4);
                memcpy(p + 4, &fs, 4);
            }
        } else if (s->up && (s->acc == HR_ACC_SUMN_F32 || s->acc == HR_ACC_SUMN_F64 || s->acc == HR_ACC_MOM_F32 ||
                             s->acc == HR_ACC_MOM_F64)) {
            /* the statistics' partials: finite values (a sum, or a mean and a mean square deviation
             * >= 0) and a count, 0 now and then (an empty side) */
            const int f64 = s->acc == HR_ACC_SUMN_F64 || s->acc == HR_ACC_MOM_F64;
            const int mom = s->acc == HR_ACC_MOM_F32 || s->acc == HR_ACC_MOM_F64;
            const uint64_t count = r % 7 == 0 ? 0 : 1 + (mix(r) >> 40);
            const double v = ldexp((double)(int32_t)(r >> 32), e), m = ldexp((double)(mix(r + 1) >> 40), e);
            memset(p, 0, s->size);
            if (f64) {
                memcpy(p, &v, 8);
                if (mom) memcpy(p + 8, &m, 8);
            } else {
                const float fv = (float)v, fm = (float)m;
                memcpy(p, &fv, 4);
                if (mom) memcpy(p + 4, &fm, 4);
            }
            memcpy(p + (f64 && mom ? 16 : 8), &count, 8);
        } else if (s->up ? s->acc == HR_ACC_C64 || s->acc == HR_ACC_C128 : hr_dtype_is_complex(s->dtype)) {
            /* complex elements and partials: finite components (products near 1) */
            const int f32 = s->up ? s->acc == HR_ACC_C64 : s->dtype == HIPREDUCE_C64;
            for (int k = 0; k < 2; ++k) {
                const uint64_t q = mix(r + (uint64_t)k);
                const double v = mul ? (k ? 0.0 : 1.0) + (double)((int)(q % 2001) - 1000) * 1e-6
                                     : ldexp((double)(int32_t)(q >> 32), e);
                const float vf = (float)v;
                if (f32) memcpy(p + 4 * k, &vf, 4);
                else memcpy(p + 8 * k, &v, 8);
            }
        } else if (s->up && (s->acc == HR_ACC_KEY32 || s->acc == HR_ACC_KEY64)) {
            const int64_t index = (int64_t)(mix(r) >> 1);
            memset(p, 0, 16);
            memcpy(p, &r, s->acc == HR_ACC_KEY32 ? 4 : 8);
            if (r % 3 == 0) memset(p, 0, 8); /* equal keys: the smaller index wins */
            memcpy(p + 8, &index, 8);
        } else {
            const int is_float = s->up ? s->acc == HR_ACC_F32 || s->acc == HR_ACC_F64 : hr_dtype_is_float(s->dtype);
            if (is_float && r % 5 == 0) r = (r & 1) << 63 | (r & 1) << 31 | (r & 1) << 15; /* +-0.0 */
            if (is_float && r % 11 == 1) r = ~(uint64_t)0;                                  /* NaN */
            memcpy(p, &r, s->size < 8 ? s->size : 8);
            for (size_t k = 8; k < s->size; k += 8) { /* wider accumulators (aminmax's two keys): more words */
                const uint64_t w = mix(r + k);
                memcpy(p + k, &w, s->size - k < 8 ? s->size - k : 8);
            }
        }
    }
}

static const hr_cpu_levels* variants[3];
static int n_variants;

static void find_variants(void)
{
    variants[n_variants++] = &hr_cpu_levels_baseline;
#if HR_CPU_X86_VARIANTS
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) variants[n_variants++] = &hr_cpu_levels_avx2;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
        variants[n_variants++] = &hr_cpu_levels_avx512;
#endif
}

static hr_cpu_level_fn level_of(const hr_cpu_levels* v, int up, int dtype, int transform, int acc)
{
    return up ? v->up[acc][hr_cpu_chunk_slot(hipreduce_dtype_size((hipreduce_dtype)dtype))]
              : v->in[dtype][transform][acc];
}

/* One level of n elements with every variant, sources at +src_off and partials at +dst_off,
 * its tiles in one range and in two; compares all partials with the baseline's. */
static void compare_level(int up, int op, int dtype, int acc, uint64_t n, uint64_t seed)
{
    const int transform = hr_op_transform(op), combine = hr_op_combine(op);
    const size_t in_size = hipreduce_dtype_size((hipreduce_dtype)dtype), acc_size = (size_t)hr_acc_bytes((hr_acc_kind)acc);
    const source s = {up, dtype, acc, combine, up ? acc_size : in_size};
    const uint64_t tile = hr_tile_items(in_size);
    const uint64_t tiles = hr_tiles(n, tile);
    unsigned char* src = (unsigned char*)malloc((size_t)n * s.size + 16);
    unsigned char* src_y = (unsigned char*)malloc((size_t)n * s.size + 16);
    unsigned char* want = (unsigned char*)malloc((size_t)tiles * acc_size + 16);
    unsigned char* got = (unsigned char*)malloc((size_t)tiles * acc_size + 16);
    if (!src || !src_y || !want || !got) {
        ++fails;
        free(src), free(src_y), free(want), free(got);
        return;
    }
    const size_t src_off = (size_t)(seed % 8), dst_off = (size_t)(seed / 8 % 8);
    fill(&s, src + src_off, n, seed);
    fill(&s, src_y + src_off, n, seed + 77);
    const void* y = !up && (transform == HR_TF_PRODUCT || transform == HR_TF_CONJ) ? src_y + src_off : NULL;
    level_of(variants[0], up, dtype, transform, acc)(combine, src + src_off, y, n, tile, 0, tiles, want);
    for (int v = 0; v < n_variants; ++v) {
        const hr_cpu_level_fn level = level_of(variants[v], up, dtype, transform, acc);
        const uint64_t split = tiles * (seed % 5) / 4;
        memset(got, 0x5A, (size_t)tiles * acc_size + 16);
        level(combine, src + src_off, y, n, tile, 0, split, got + dst_off);
        level(combine, src + src_off, y, n, tile, split, tiles, got + dst_off);
        if (memcmp(want, got + dst_off, (size_t)tiles * acc_size) != 0) {
            fprintf(stderr, "FAIL %s %s level, op %s, input %s, acc kind %d, n=%llu (src +%zu, dst +%zu, split at "
                    "tile %llu): partials differ from the baseline variant's\n", variants[v]->isa,
                    up ? "upper" : "input", hipreduce_op_name((hipreduce_op)op),
                    hipreduce_dtype_name((hipreduce_dtype)dtype), acc, (unsigned long long)n, src_off, dst_off,
                    (unsigned long long)split);
            ++fails;
        }
    }
    free(src), free(src_y), free(want), free(got);
}

int main(void)
{
    find_variants();
    printf("cpu_levels: variants on this CPU:");
    for (int v = 0; v < n_variants; ++v) printf(" %s", variants[v]->isa);
    printf(" (the library uses %s)\n", hr_cpu_levels_best()->isa);
    /* Every allowed (op, in, out) triple; triples with the same (op, in, accumulator) run the
     * same kernels, so each of those runs once. */
    static unsigned char seen[HR_OP_SLOTS][HR_DTYPE_SLOTS][HR_ACC_KINDS];
    int cases = 0, triples = 0;
    for (int op = 0; op < HR_OP_SLOTS; ++op)
        for (int in = 0; in < HR_DTYPE_SLOTS; ++in)
            for (int out = 0; out < HR_DTYPE_SLOTS; ++out) {
                if (hr_check_triple(hr_op_call(op), op, in, out) != HIPREDUCE_STATUS_SUCCESS) continue;
                ++triples;
                const int acc = (int)hr_acc_of(op, in, out);
                if (!hr_acc_tiled(acc)) continue; /* exact sums: no level kernels (test_exact) */
                int missing = 0;
                for (int v = 0; v < n_variants; ++v)
                    for (int up = 0; up < 2; ++up)
                        missing |= level_of(variants[v], up, in, hr_op_transform(op), acc) == NULL;
                if (missing) {
                    fprintf(stderr, "FAIL no level kernel for %s %s -> %s (acc kind %d)\n",
                            hipreduce_op_name((hipreduce_op)op), hipreduce_dtype_name((hipreduce_dtype)in),
                            hipreduce_dtype_name((hipreduce_dtype)out), acc);
                    ++fails;
                    continue;
                }
                if (seen[op][in][acc]) continue;
                seen[op][in][acc] = 1;
                const uint64_t t = hr_tile_items(hipreduce_dtype_size((hipreduce_dtype)in));
                const uint64_t sizes[] = {1, 2, 31, 1000, t - 1, t, t + 1, 2 * t, 5 * t + 77};
                for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si)
                    for (int up = 0; up < 2; ++up, ++cases)
                        compare_level(up, op, in, acc, sizes[si], (uint64_t)(cases * 13 + 5));
            }
    printf("cpu_levels: %d allowed triples, %d level cases x %d variants, %d failures\n", triples, cases, n_variants,
           fails);
    return fails ? 1 : 0;
}
