/* hipreduce-demo: sums a large random f32 array with the default algorithm on GPU 0 (on the cpu
 * device where there is no GPU), prints the result and the median time, and checks that the result
 * has the same bits as the cpu device's: the reproducibility contract of the default algorithm.
 *
 *   usage: hipreduce-demo [n]      n elements, default 2^26
 *
 * Exit status: 0 when the check passes, 1 on a mismatch or an error, 2 on bad usage. */
#define _POSIX_C_SOURCE 199309L

#include <hipreduce/hipreduce.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu_memory.h"

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

/* Uniform in [0, 1) from splitmix64, 24 random bits: exact in f32. */
static float next_value(uint64_t* state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (float)(z >> 40) * (1.0f / 16777216.0f);
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
    uint64_t seed = 2024;
    double f64_sum = 0.0;
    for (uint64_t i = 0; i < n; ++i) {
        x[i] = next_value(&seed);
        f64_sum += x[i];
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
        snprintf(device, sizeof device, "cpu device (no GPU found)");
        s = hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0);
    }
    if (s != HIPREDUCE_STATUS_SUCCESS) return failed("create", s, NULL);

    /* One untimed run (it sizes the workspace), then the median of TIMED_RUNS. The call with a host
     * result returns once the value is there, so the host clock brackets the whole reduction. */
    float result = 0.0f, again = 0.0f;
    s = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, input, n, &result, HIPREDUCE_RESULT_HOST);
    if (s != HIPREDUCE_STATUS_SUCCESS) return failed("reduce", s, h);
    double times[TIMED_RUNS];
    for (int r = 0; r < TIMED_RUNS; ++r) {
        double t0 = now_seconds();
        s = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, input, n, &again, HIPREDUCE_RESULT_HOST);
        times[r] = now_seconds() - t0;
        if (s != HIPREDUCE_STATUS_SUCCESS) return failed("reduce", s, h);
        if (float_bits(again) != float_bits(result)) {
            fprintf(stderr, "hipreduce-demo: run %d gave %.9g (0x%08x), the first run %.9g (0x%08x)\n", r + 1,
                    (double)again, (unsigned)float_bits(again), (double)result, (unsigned)float_bits(result));
            return 1;
        }
    }
    qsort(times, TIMED_RUNS, sizeof times[0], compare_double);
    double median = times[TIMED_RUNS / 2];
    hipreduce_destroy(h);
    if (d_x) gm_free(d_x);

    /* The cpu device computes the default algorithm's order too: same bits expected. */
    float cpu_result = 0.0f;
    hipreduce_handle cpu = NULL;
    s = hipreduce_create(&cpu, HIPREDUCE_DEVICE_CPU, 0);
    if (s == HIPREDUCE_STATUS_SUCCESS)
        s = hipreduce_reduce(cpu, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, n, &cpu_result, HIPREDUCE_RESULT_HOST);
    if (s != HIPREDUCE_STATUS_SUCCESS) return failed("cpu device", s, cpu);
    hipreduce_destroy(cpu);
    free(x);

    printf("hipreduce %s demo: sum of %llu random f32 in [0, 1), default algorithm\n", HIPREDUCE_VERSION_STRING,
           (unsigned long long)n);
    printf("device: %s\n", device);
    printf("result: %.9g (0x%08x); f64 sum of the same data: %.17g\n", (double)result,
           (unsigned)float_bits(result), f64_sum);
    printf("time: %.3f ms, median of %d (host clock around the synchronous call), %.1f GB/s\n", median * 1e3,
           TIMED_RUNS, median > 0 ? (double)bytes / median * 1e-9 : 0.0);
    if (float_bits(cpu_result) != float_bits(result)) {
        printf("check: MISMATCH: the cpu device gives %.9g (0x%08x)\n", (double)cpu_result,
               (unsigned)float_bits(cpu_result));
        return 1;
    }
    printf("check: bit-identical to the cpu device\n");
    return 0;
}
