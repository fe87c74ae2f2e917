/* cpu_levels (unit): every variant of the cpu device's level kernels that this CPU can run
 * (baseline, and on x86 AVX2 and AVX-512) gives the partials of the baseline variant bit for
 * bit: every dtype and op, full and partial tiles, tile ranges split as the pool splits them,
 * input and output at every misalignment. The api suite checks the variant the library picks
 * against the canonical-order model; this makes the others count too. Compiles the kernels
 * (src/cpu_levels_*.c) into the test. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_levels.h"
#include "hipreduce/hipreduce.h"
#include "plan.h"

static int fails;

static uint64_t mix(uint64_t z)
{
    z += UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Random elements; floats finite for sum/prod (NaN payloads of sums are outside the bit
 * contract) and any bits, NaNs and signed zeros included, for min/max. */
static void fill(hipreduce_dtype d, int op, unsigned char* x, uint64_t n, uint64_t seed, size_t size)
{
    for (uint64_t i = 0; i < n; ++i) {
        uint64_t r = mix(seed * 1000003 + i);
        if (d == HIPREDUCE_F32 && op <= HIPREDUCE_OP_PROD) {
            const float v = op == HIPREDUCE_OP_PROD ? 1.0f + (float)((int)(r % 2001) - 1000) * 1e-6f
                                                    : ldexpf((float)(int32_t)(r >> 32), (int)(r % 40) - 50);
            memcpy(x + i * 4, &v, 4);
        } else if (d == HIPREDUCE_F64 && op <= HIPREDUCE_OP_PROD) {
            const double v = op == HIPREDUCE_OP_PROD ? 1.0 + (double)((int)(r % 2001) - 1000) * 1e-9
                                                     : ldexp((double)(int64_t)r, (int)(r % 80) - 100);
            memcpy(x + i * 8, &v, 8);
        } else {
            if ((d == HIPREDUCE_F32 || d == HIPREDUCE_F64) && r % 5 == 0) r = (r & 1) << 63; /* +-0.0 */
            if (d == HIPREDUCE_F32 && r % 7 == 1) r = (r & 1) << 31;
            memcpy(x + i * size, &r, size);
        }
    }
}

static int applies(hipreduce_dtype d, int op)
{
    return !((d == HIPREDUCE_F32 || d == HIPREDUCE_F64) && op >= HIPREDUCE_OP_AND);
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

/* One level of n elements with every variant, source at +src_off and partials at +dst_off,
 * its tiles in one range and in two; compares all partials with the baseline's. */
static void compare_level(int up, hipreduce_dtype d, size_t size, size_t acc, int op, uint64_t n, uint64_t seed)
{
    const uint64_t tile = hr_tile_items(hipreduce_dtype_size(d));
    const uint64_t tiles = hr_tiles(n, tile);
    const size_t elem = up ? acc : size;
    unsigned char* src = (unsigned char*)malloc((size_t)n * elem + 16);
    unsigned char* want = (unsigned char*)malloc((size_t)tiles * acc + 16);
    unsigned char* got = (unsigned char*)malloc((size_t)tiles * acc + 16);
    if (!src || !want || !got) {
        ++fails;
        free(src), free(want), free(got);
        return;
    }
    const size_t src_off = (size_t)(seed % 8), dst_off = (size_t)(seed / 8 % 8);
    /* Upper levels of integer dtypes read 32- or 64-bit accumulators. */
    const hipreduce_dtype kind = !up || d == HIPREDUCE_F32 || d == HIPREDUCE_F64 ? d
                                 : acc == 4                                      ? HIPREDUCE_I32
                                                                                 : HIPREDUCE_I64;
    fill(kind, op, src + src_off, n, seed, elem);
    const hr_cpu_levels* base = variants[0];
    (up ? base->up : base->in)[d](op, src + src_off, n, tile, 0, tiles, want);
    for (int v = 0; v < n_variants; ++v) {
        const hr_cpu_level_fn level = (up ? variants[v]->up : variants[v]->in)[d];
        const uint64_t split = tiles * (seed % 5) / 4;
        memset(got, 0x5A, (size_t)tiles * acc + 16);
        level(op, src + src_off, n, tile, 0, split, got + dst_off);
        level(op, src + src_off, n, tile, split, tiles, got + dst_off);
        if (memcmp(want, got + dst_off, (size_t)tiles * acc) != 0) {
            fprintf(stderr, "FAIL %s %s level, dtype %s, op %s, n=%llu (src +%zu, dst +%zu, split at tile %llu): "
                    "partials differ from the baseline variant's\n", variants[v]->isa, up ? "upper" : "input",
                    hipreduce_dtype_name(d), hipreduce_op_name((hipreduce_op)op), (unsigned long long)n, src_off,
                    dst_off, (unsigned long long)split);
            ++fails;
        }
    }
    free(src), free(want), free(got);
}

int main(void)
{
    find_variants();
    printf("cpu_levels: variants on this CPU:");
    for (int v = 0; v < n_variants; ++v) printf(" %s", variants[v]->isa);
    printf(" (the library uses %s)\n", hr_cpu_levels_best()->isa);
    static const hipreduce_dtype dtypes[] = {HIPREDUCE_I8,  HIPREDUCE_U8,  HIPREDUCE_I16, HIPREDUCE_U16,
                                             HIPREDUCE_I32, HIPREDUCE_U32, HIPREDUCE_I64, HIPREDUCE_U64,
                                             HIPREDUCE_F32, HIPREDUCE_F64};
    int cases = 0;
    for (size_t di = 0; di < sizeof dtypes / sizeof dtypes[0]; ++di) {
        const hipreduce_dtype d = dtypes[di];
        const size_t size = hipreduce_dtype_size(d), acc = size < 4 ? 4 : size;
        const uint64_t t = hr_tile_items(size);
        const uint64_t sizes[] = {1, 2, 31, 1000, t - 1, t, t + 1, 2 * t, 5 * t + 77};
        for (int op = HIPREDUCE_OP_SUM; op <= HIPREDUCE_OP_XOR; ++op) {
            if (!applies(d, op)) continue;
            for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si)
                for (int up = 0; up < 2; ++up, ++cases)
                    compare_level(up, d, size, acc, op, sizes[si], (uint64_t)(cases * 13 + 5));
        }
    }
    printf("cpu_levels: %d level cases x %d variants, %d failures\n", cases, n_variants, fails);
    return fails ? 1 : 0;
}
