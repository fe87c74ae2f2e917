/* The test matrix: edge sizes, input patterns, and the loop over op x dtype x pattern x size
 * (see reference.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

static const char* const data_names[REF_DATA_KINDS] = {"random", "exact", "nan", "negzero", "mixzero"};
const char* ref_data_name(ref_data data) { return (unsigned)data < REF_DATA_KINDS ? data_names[data] : "?"; }

static uint64_t mix(uint64_t z) /* splitmix64's finalizer */
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}
static uint64_t hash(uint64_t seed, uint64_t i) { return mix(seed + (i + 1) * UINT64_C(0x9e3779b97f4a7c15)); }

static void store_int(hipreduce_dtype d, void* p, uint64_t i, uint64_t v)
{
    switch (ref_size(d)) {
    case 1: ((uint8_t*)p)[i] = (uint8_t)v; break;
    case 2: ((uint16_t*)p)[i] = (uint16_t)v; break;
    case 4: ((uint32_t*)p)[i] = (uint32_t)v; break;
    default: ((uint64_t*)p)[i] = v; break;
    }
}
static void store_float(hipreduce_dtype d, void* p, uint64_t i, double v)
{
    if (d == HIPREDUCE_F32) ((float*)p)[i] = (float)v;
    else ((double*)p)[i] = v;
}

/* +-(1 + m) * 2^e with a random 52-bit m and e in [-6, 6]: every rounding matters in a sum. */
static double spread(uint64_t h) { return ((h >> 4) & 1 ? -1 : 1) * ldexp(1 + ldexp((double)(h >> 12), -52), (int)(h % 13) - 6); }

static void fill_int(hipreduce_op op, hipreduce_dtype d, uint64_t n, uint64_t seed, void* x)
{
    const unsigned b = (unsigned)(8 * ref_size(d));
    const int sgn = d == HIPREDUCE_I8 || d == HIPREDUCE_I16 || d == HIPREDUCE_I32 || d == HIPREDUCE_I64;
    const uint64_t lo = sgn ? ~UINT64_C(0) << (b - 1) : 0;             /* sign-extended type min */
    const uint64_t hi = sgn ? ~lo : b == 64 ? ~UINT64_C(0) : (UINT64_C(1) << b) - 1;
    const uint64_t planted = n ? ((seed & 1) ? n - 1 : (seed >> 1) % n) : 0;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t h = hash(seed, i);
        const int rare = (h >> 20) % (n / 8 + 1) == 0;
        uint64_t v = h;
        switch (op) {
        case HIPREDUCE_OP_PROD: v = h | 1; break; /* odd: the product does not collapse to 0 */
        case HIPREDUCE_OP_MIN:
        case HIPREDUCE_OP_MAX: /* the middle half of the range, one extreme planted */
            v = sgn ? (uint64_t)((int64_t)h >> (64 - b + 1)) : (h >> (64 - b + 1)) + (UINT64_C(1) << (b - 2));
            if (i == planted) v = op == HIPREDUCE_OP_MIN ? lo + 1 + h % 3 : hi - 1 - h % 3;
            break;
        case HIPREDUCE_OP_AND: v = rare ? ~(UINT64_C(1) << (h % b)) : ~UINT64_C(0); break;
        case HIPREDUCE_OP_OR: v = rare ? UINT64_C(1) << (h % b) : 0; break;
        default: break;
        }
        store_int(d, x, i, v);
    }
}

static void fill_float(hipreduce_op op, hipreduce_dtype d, ref_data data, uint64_t n, uint64_t seed, void* x)
{
    static const uint64_t nan32[4] = {0x7fc00000, 0x7fc00123, 0xffc00000, 0x7f800001};
    static const uint64_t nan64[4] = {UINT64_C(0x7ff8000000000000), UINT64_C(0x7ff8000000000123),
                                      UINT64_C(0xfff8000000000000), UINT64_C(0x7ff0000000000001)};
    const uint64_t planted = n ? ((seed & 1) ? n - 1 : (seed >> 1) % n) : 0;
    const double amplitude = fmin(1.0 / 128, 1 / sqrt((double)(n ? n : 1))); /* keeps products finite */
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t h = hash(seed, i);
        const double u = ldexp((double)(h >> 11), -52) - 1; /* [-1, 1) */
        double v = spread(h);
        if (data == REF_DATA_NEGZERO) v = -0.0;
        else if (data == REF_DATA_MIXZERO) v = (h >> 7) & 1 ? -0.0 : 0.0;
        else if (data == REF_DATA_EXACT && op == HIPREDUCE_OP_SUM) v = (double)((int)(h % 17) - 8) / 16;
        else if (data == REF_DATA_EXACT) /* +-1, with a few +-2 and +-0.5: exact in any order */
            v = ((h >> 3) & 1 ? -1.0 : 1.0) * ((h >> 8) % (n / 16 + 1) ? 1.0 : (h >> 40) & 1 ? 2.0 : 0.5);
        else if (op == HIPREDUCE_OP_PROD) v = 1 + amplitude * u;
        else if (op != HIPREDUCE_OP_SUM && i == planted) /* beyond every other value */
            v = (op == HIPREDUCE_OP_MIN ? -1 : 1) * ldexp(1 + ldexp((double)(h >> 12), -52), 9);
        store_float(d, x, i, v);
    }
    if (data == REF_DATA_NAN && n > 0) { /* one NaN, sometimes two, in various encodings */
        const uint64_t* nans = d == HIPREDUCE_F32 ? nan32 : nan64;
        for (int k = 0; k < 1 + (seed % 3 == 0); ++k) {
            const uint64_t at = k ? (planted * 7 + 3) % n : planted, bits = nans[(seed >> (2 + k)) % 4];
            if (d == HIPREDUCE_F32) {
                const uint32_t b32 = (uint32_t)bits;
                memcpy((float*)x + at, &b32, 4);
            } else {
                memcpy((double*)x + at, &bits, 8);
            }
        }
    }
}

void ref_fill(hipreduce_op op, hipreduce_dtype d, ref_data data, uint64_t n, uint64_t seed, void* x)
{
    if (ref_is_float(d)) fill_float(op, d, data, n, seed, x);
    else fill_int(op, d, n, seed, x);
}

static int compare_u64(const void* a, const void* b)
{
    const uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
    return x < y ? -1 : x > y;
}

static size_t sort_unique(uint64_t* v, size_t count)
{
    qsort(v, count, sizeof *v, compare_u64);
    size_t out = 0;
    for (size_t i = 0; i < count; ++i)
        if (out == 0 || v[out - 1] != v[i]) v[out++] = v[i];
    return out;
}

size_t ref_sizes(hipreduce_dtype d, uint64_t max_n, uint64_t* out, size_t cap)
{
    static const uint64_t fixed[] = {0,   1,   2,   3,   31,  32,  33,   63,   64,   65,    127,    128,
                                     129, 255, 256, 257, 511, 512, 513,  1023, 1024, 1025,  7919,  65521,
                                     104729, 999983};
    uint64_t all[128];
    size_t count = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; ++i) all[count++] = fixed[i];
    for (int k = 11; k <= 20; ++k) {
        all[count++] = (UINT64_C(1) << k) - 1;
        all[count++] = UINT64_C(1) << k;
        all[count++] = (UINT64_C(1) << k) + 1;
    }
    const uint64_t t = ref_tile_items(d);
    const uint64_t per_tile[] = {t - 1, t, t + 1, 2 * t - 1, 2 * t, 2 * t + 1, t * t, t * t + 1, t * (t + 1) + 1};
    for (size_t i = 0; i < sizeof per_tile / sizeof per_tile[0]; ++i) all[count++] = per_tile[i];
    count = sort_unique(all, count);
    size_t kept = 0;
    for (size_t i = 0; i < count && kept < cap; ++i)
        if (all[i] <= max_n) out[kept++] = all[i];
    return kept;
}

/* The patterns that apply to (op, dtype), and the sizes each runs over. */
static int data_applies(hipreduce_op op, hipreduce_dtype d, ref_data data)
{
    if (!ref_is_float(d)) return data == REF_DATA_RANDOM;
    const int order_op = op == HIPREDUCE_OP_MIN || op == HIPREDUCE_OP_MAX;
    return data == REF_DATA_RANDOM || data == REF_DATA_NEGZERO || data == REF_DATA_MIXZERO ||
           data == (order_op ? REF_DATA_NAN : REF_DATA_EXACT);
}
static size_t special_sizes(hipreduce_dtype d, uint64_t max_n, uint64_t* out)
{
    const uint64_t t = ref_tile_items(d);
    const uint64_t v[] = {1, 2, 3, 33, 257, t - 1, t + 1, 2 * t + 1};
    size_t count = 0;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; ++i)
        if (v[i] <= max_n) out[count++] = v[i];
    return count;
}

int ref_for_each_case(uint64_t max_n, ref_case_fn fn, void* ctx)
{
    const size_t bytes = (size_t)(max_n + 1) * 8;
    unsigned char* x = (unsigned char*)malloc(bytes);
    unsigned char* copy = (unsigned char*)malloc(bytes);
    if (!x || !copy) {
        ref_report("ref_for_each_case: out of host memory for %llu elements", (unsigned long long)max_n);
        free(x);
        free(copy);
        return 1;
    }
    int failures = 0, cases = 0;
    for (int di = 0; di < REF_NDTYPES; ++di) {
        const hipreduce_dtype d = ref_dtypes[di];
        uint64_t sizes[128], special[16];
        const size_t nsizes = ref_sizes(d, max_n, sizes, 128), nspecial = special_sizes(d, max_n, special);
        for (int oi = 0; oi < REF_NOPS; ++oi) {
            const hipreduce_op op = ref_ops[oi];
            if (!ref_op_applies(op, d)) continue;
            for (int data = 0; data < REF_DATA_KINDS; ++data) {
                if (!data_applies(op, d, (ref_data)data)) continue;
                const int is_special = data >= REF_DATA_NAN;
                for (size_t si = 0; si < (is_special ? nspecial : nsizes); ++si) {
                    ref_case c = {op, d, (ref_data)data, is_special ? special[si] : sizes[si], 0, x};
                    c.seed = mix((uint64_t)op * 1000003 + (uint64_t)d * 10007 + (uint64_t)data * 101 + c.n);
                    ref_fill(op, d, c.data, c.n, c.seed, x);
                    memcpy(copy, x, (size_t)c.n * ref_size(d));
                    failures += fn(ctx, &c);
                    if (memcmp(copy, x, (size_t)c.n * ref_size(d)) != 0) {
                        ref_report("FAIL: %s %s n=%llu changed the host input", ref_op_name(op), ref_dtype_name(d),
                                   (unsigned long long)c.n);
                        ++failures;
                    }
                    ++cases;
                }
            }
        }
    }
    printf("%d cases, %d failures\n", cases, failures);
    free(x);
    free(copy);
    return failures;
}
