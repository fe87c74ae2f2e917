/* hipreduce-demo: sums a large random f32 array with the default algorithm on GPU 0 (on the cpu
 * device where there is no GPU), prints the result and the median time, and says what it checked:
 *   1. every timed run gave the first run's bits;
 *   2. the result is within the rounding-error bound of the default algorithm's order (docs/DESIGN.md)
 *      of the exact sum, which the demo computes independently: the inputs are k / 2^24 with
 *      integer k < 2^24, so the sum of the k in 64-bit integers is exact;
 *   3. with a GPU only: the GPU's result has the same bits as the cpu device's, the
 *      reproducibility contract of the default algorithm (without a GPU it says this was not run).
 *
 *   usage: hipreduce-demo [n]      n elements, default 2^26
 *
 * Exit status: 0 when every check that ran passes, 1 on a failed check or an error, 2 on bad usage. */
#define _POSIX_C_SOURCE 199309L

#include <hipreduce/hipreduce.h>

#include <errno.h>
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "device_memory.h"

enum { TIMED_RUNS = 7 };

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int compare_double(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/* A uniform 24-bit integer from splitmix64; the demo's values are it / 2^24, in [0, 1), exact in f32. */
static uint32_t next_numerator(uint64_t* state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (uint32_t)(z >> 40);
}

/* The default order's tile (docs/DESIGN.md, "The default order"): 256 lanes of 4 chunks of 16 bytes,
 * combined by a tree over 32-lane segments. */
enum { TILE_LANES = 256, TILE_CHUNKS = 4, CHUNK_BYTES = 16, SEGMENT = 32 };

/* Rounded additions on any one element's way to the result in the default algorithm's f32 order:
 * per level, the lane's sequential sum of its chunk items from the identity, then
 * log2(SEGMENT) + log2(TILE_LANES / SEGMENT) tree steps; one level per tile reduction. */
static unsigned f32_depth(uint64_t n, unsigned* levels)
{
    const uint64_t lane_items = TILE_CHUNKS * (CHUNK_BYTES / sizeof(float));
    const uint64_t tile_items = TILE_LANES * lane_items;
    unsigned tree = 0;
    for (unsigned w = SEGMENT; w > 1; w /= 2) ++tree;
    for (unsigned w = TILE_LANES / SEGMENT; w > 1; w /= 2) ++tree;
    *levels = 0;
    do {
        n = (n + tile_items - 1) / tile_items;
        ++*levels;
    } while (n > 1);
    return *levels * (unsigned)(lane_items + tree);
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static int parse_count(const char* s, uint64_t* n)
{
    char* end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno != 0 || end == s || *end != '\0' || s[0] == '-' || v > SIZE_MAX / sizeof(float)) return -1;
    *n = (uint64_t)v;
    return 0;
}

static int failed(const char* what, hipreduce_status s, hipreduce_handle h)
{
    fprintf(stderr, "hipreduce-demo: %s: %s%s%s\n", what, hipreduce_status_string(s), h ? " " : "",
            h ? hipreduce_last_error_message(h) : "");
    return 1;
}

int main(int argc, char** argv)
{
    uint64_t n = (uint64_t)1 << 26;
    if (argc > 2 || (argc == 2 && parse_count(argv[1], &n) != 0)) {
        fprintf(stderr, "usage: %s [n]   (n elements, default 2^26 = 67108864)\n", argv[0]);
        return 2;
    }
    size_t bytes = (size_t)n * sizeof(float);
    float* x = malloc(bytes ? bytes : 1);
    if (!x) {
        fprintf(stderr, "hipreduce-demo: cannot allocate %zu bytes of host memory\n", bytes);
        return 1;
    }
    uint64_t seed = 2024, numerators = 0;
    for (uint64_t i = 0; i < n; ++i) {
        const uint32_t k = next_numerator(&seed);
        numerators += k; /* below 2^40 elements no overflow: exact */
        x[i] = (float)k * (1.0f / 16777216.0f);
    }

    /* GPU 0 where the library's backend runtime sees one, else the cpu device. */
    int on_gpu = gm_count() > 0;
    char device[300];
    const void* input = x;
    void* d_x = NULL;
    hipreduce_handle h = NULL;
    hipreduce_status s;
    if (on_gpu) {
        if (gm_set_device(0) != 0 || !(d_x = gm_alloc(bytes)) || gm_to_device(d_x, x, bytes) != 0) {
            fprintf(stderr, "hipreduce-demo: cannot put %zu bytes on GPU 0\n", bytes);
            return 1;
        }
        input = d_x;
        snprintf(device, sizeof device, "GPU 0, %s", gm_device_name(0));
        s = hipreduce_create(&h, HIPREDUCE_DEVICE_GPU, 0);
    } else {
#if defined(HR_RUNTIME_CUDA) || defined(HR_RUNTIME_HIP)
        snprintf(device, sizeof device, "cpu device (the GPU runtime sees no GPU)");
#else
        snprintf(device, sizeof device, "cpu device (this build has the cpu backend only)");
#endif
        s = hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0);
    }
    if (s != HIPREDUCE_STATUS_SUCCESS) return failed("create", s, NULL);

    /* One untimed run (it sizes the workspace), then the median of TIMED_RUNS. The call with a host
     * result returns once the value is there, so the host clock brackets the whole reduction. */
    float result = 0.0f, again = 0.0f;
    s = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, input, n, HIPREDUCE_F32, &result, HIPREDUCE_RESULT_HOST);
    if (s != HIPREDUCE_STATUS_SUCCESS) return failed("reduce", s, h);
    double times[TIMED_RUNS];
    int same_bits = 1;
    for (int r = 0; r < TIMED_RUNS; ++r) {
        double t0 = now_seconds();
        s = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, input, n, HIPREDUCE_F32, &again, HIPREDUCE_RESULT_HOST);
        times[r] = now_seconds() - t0;
        if (s != HIPREDUCE_STATUS_SUCCESS) return failed("reduce", s, h);
        if (float_bits(again) != float_bits(result)) {
            fprintf(stderr, "hipreduce-demo: run %d gave %.9g (0x%08x), the first run %.9g (0x%08x)\n", r + 1,
                    (double)again, (unsigned)float_bits(again), (double)result, (unsigned)float_bits(result));
            same_bits = 0;
        }
    }
    qsort(times, TIMED_RUNS, sizeof times[0], compare_double);
    double median = times[TIMED_RUNS / 2];
    hipreduce_destroy(h);
    if (d_x) gm_free(d_x);

    /* With a GPU: the cpu device computes the default algorithm's order too, same bits expected. */
    float cpu_result = 0.0f;
    if (on_gpu) {
        hipreduce_handle cpu = NULL;
        s = hipreduce_create(&cpu, HIPREDUCE_DEVICE_CPU, 0);
        if (s == HIPREDUCE_STATUS_SUCCESS)
            s = hipreduce_reduce(cpu, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, n, HIPREDUCE_F32, &cpu_result, HIPREDUCE_RESULT_HOST);
        if (s != HIPREDUCE_STATUS_SUCCESS) return failed("cpu device", s, cpu);
        hipreduce_destroy(cpu);
    }
    free(x);

    /* The bound: every element passes through at most h rounded f32 additions, so (Higham, Accuracy
     * and Stability of Numerical Algorithms, 4.2) |result - exact| <= gamma_h * sum|x|, with
     * gamma_h = h u / (1 - h u), u = 2^-24, and sum|x| = exact here (no negative input). The exact
     * sum, numerators / 2^24, is exact in long double while numerators < 2^LDBL_MANT_DIG; beyond,
     * the bound also takes the reference's own rounding. */
    unsigned levels = 0;
    const unsigned depth = f32_depth(n, &levels);
    const long double u = 1.0L / 16777216.0L;
    const long double exact = (long double)numerators * u;
    const long double gamma = depth * u / (1.0L - depth * u);
    long double bound = gamma * exact;
    if (LDBL_MANT_DIG < 64 && numerators >> LDBL_MANT_DIG) bound += exact * LDBL_EPSILON;
    const long double error = (long double)result > exact ? (long double)result - exact : exact - (long double)result;
    const int within = error <= bound;
    const int identical = !on_gpu || float_bits(cpu_result) == float_bits(result);

    printf("hipreduce %s demo: sum of %llu random f32 k/2^24 in [0, 1), default algorithm\n",
           HIPREDUCE_VERSION_STRING, (unsigned long long)n);
    printf("device: %s\n", device);
    printf("result: %.9g (0x%08x)\n", (double)result, (unsigned)float_bits(result));
    printf("exact:  %.6Lf (the integer sum of the k, divided by 2^24)\n", exact);
    printf("time: %.3f ms, median of %d (host clock around the synchronous call), %.1f GB/s\n", median * 1e3,
           TIMED_RUNS, median > 0 ? (double)bytes / median * 1e-9 : 0.0);
    printf("check: %d more runs on this device gave the same bits: %s\n", TIMED_RUNS, same_bits ? "pass" : "FAIL");
    printf("check: within the error bound of the default algorithm's order: |result - exact| = %.3Lg <= %.3Lg\n"
           "       (gamma_%u * exact; %u rounded additions per element: %u level(s) x %u): %s\n",
           error, bound, depth, depth, levels, levels ? depth / levels : 0, within ? "pass" : "FAIL");
    if (on_gpu)
        printf("check: bit-identical to the cpu device (%.9g, 0x%08x): %s\n", (double)cpu_result,
               (unsigned)float_bits(cpu_result), identical ? "pass" : "FAIL");
    else
        printf("check: GPU result bit-identical to the cpu device: not run, no GPU\n");
    return same_bits && within && identical ? 0 : 1;
}
