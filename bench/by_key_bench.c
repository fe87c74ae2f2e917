/* hipreduce-by-key-bench: times plans of layout BY_KEY (reductions by unsorted key) on GPU 0, or on
 * the cpu device, over the cases of a reduction-by-key benchmark: f32 values into 2^10, 2^16 and
 * 2^20 bins with uniform and Zipf keys (weights 1/(k+1): a few hot bins), [2^20][128] rows into
 * 2^17 bins (an embedding gradient), and 2^28 weighted keys into 256 bins (bincount); sum and
 * sum_exact of f32 into f32. Each case: the plan's workspace set once (so runs allocate nothing),
 * one warm-up run, then `runs` timed runs with the results in device memory, each closed by a
 * one-element host-bound call on the same stream (which returns once the stream's work is done);
 * the median and the fastest, and the input read (values and keys) per second. Two more runs
 * with host-bound results are compared bit for bit.
 *   hipreduce-by-key-bench [gpu|cpu] [--runs N] [--scale S]   (S: sizes divided by 2^S; cpu: 4 by default) */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "device_memory.h"
#include "hipreduce/hipreduce.h"

typedef struct bench_case {
    const char* name;
    uint64_t length, row, bins;
    int zipf;
} bench_case;

static const bench_case cases[] = {
    {"2^26 -> 2^10 uniform", UINT64_C(1) << 26, 1, UINT64_C(1) << 10, 0},
    {"2^26 -> 2^10 zipf", UINT64_C(1) << 26, 1, UINT64_C(1) << 10, 1},
    {"2^26 -> 2^16 uniform", UINT64_C(1) << 26, 1, UINT64_C(1) << 16, 0},
    {"2^26 -> 2^16 zipf", UINT64_C(1) << 26, 1, UINT64_C(1) << 16, 1},
    {"2^26 -> 2^20 uniform", UINT64_C(1) << 26, 1, UINT64_C(1) << 20, 0},
    {"2^26 -> 2^20 zipf", UINT64_C(1) << 26, 1, UINT64_C(1) << 20, 1},
    {"[2^20][128] -> 2^17", UINT64_C(1) << 20, 128, UINT64_C(1) << 17, 0},
    {"bincount 2^28 -> 256", UINT64_C(1) << 28, 1, 256, 0},
};

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int compare_double(const void* a, const void* b)
{
    const double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

/* Keys: uniform, or Zipf by the inverse of the cumulative weights 1/(k+1). */
static void make_keys(int32_t* keys, uint64_t n, uint64_t bins, int zipf)
{
    double* cdf = NULL;
    if (zipf) {
        cdf = malloc(bins * sizeof *cdf);
        double run = 0;
        for (uint64_t k = 0; k < bins; ++k) cdf[k] = run += 1.0 / (double)(k + 1);
        for (uint64_t k = 0; k < bins; ++k) cdf[k] /= run;
    }
    for (uint64_t i = 0; i < n; ++i) {
        if (!zipf) {
            keys[i] = (int32_t)(next_random() % bins);
            continue;
        }
        const double u = (double)(next_random() >> 11) / 9007199254740992.0;
        uint64_t lo = 0, hi = bins - 1;
        while (lo < hi) {
            const uint64_t mid = (lo + hi) / 2;
            if (cdf[mid] < u) lo = mid + 1;
            else hi = mid;
        }
        keys[i] = (int32_t)lo;
    }
    free(cdf);
}

typedef struct bench_env {
    hipreduce_handle h;
    int gpu, runs;
} bench_env;

static void* to_run(const bench_env* b, void* host, size_t bytes)
{
    if (!b->gpu) return host;
    void* d = gm_alloc(bytes);
    if (d == NULL || gm_to_device(d, host, bytes) != 0) {
        fprintf(stderr, "device copy of %zu bytes failed\n", bytes);
        exit(1);
    }
    return d;
}

/* Waits for the handle's stream: a one-element host-bound call after the work. */
static void wait_stream(const bench_env* b, const float* x)
{
    float one;
    if (b->gpu) (void)hipreduce_reduce(b->h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, 1, HIPREDUCE_F32, &one, HIPREDUCE_RESULT_HOST);
}

static void run_case(const bench_env* b, const bench_case* c, unsigned scale, hipreduce_op op)
{
    const uint64_t length = c->length >> scale > 0 ? c->length >> scale : 1, results = c->bins * c->row;
    const uint64_t values = length * c->row;
    float* x = malloc(values * sizeof *x);
    int32_t* keys = malloc(length * sizeof *keys);
    if (!x || !keys) {
        fprintf(stderr, "%s: host allocation failed\n", c->name);
        exit(1);
    }
    for (uint64_t i = 0; i < values; ++i) x[i] = (float)((int64_t)(next_random() % 2000001) - 1000000) / 1024.0f;
    make_keys(keys, length, c->bins, c->zipf);
    float* dx = to_run(b, x, values * sizeof *x);
    int32_t* dk = to_run(b, keys, length * sizeof *keys);
    float* out = b->gpu ? gm_alloc(results * sizeof(float)) : malloc(results * sizeof(float));

    hipreduce_reduction_desc d;
    memset(&d, 0, sizeof d);
    d.op = op;
    d.in_dtype = d.out_dtype = HIPREDUCE_F32;
    d.layout = HIPREDUCE_LAYOUT_BY_KEY;
    d.key_dtype = HIPREDUCE_I32;
    d.length = length;
    d.row = c->row;
    d.num_bins = c->bins;
    hipreduce_plan plan = NULL;
    size_t bytes = 0;
    const hipreduce_location where = b->gpu ? HIPREDUCE_RESULT_DEVICE : HIPREDUCE_RESULT_HOST;
    if (hipreduce_plan_create(b->h, &d, &plan) != HIPREDUCE_STATUS_SUCCESS ||
        hipreduce_plan_workspace_size(b->h, plan, where, &bytes) != HIPREDUCE_STATUS_SUCCESS) {
        fprintf(stderr, "%s: %s\n", c->name, hipreduce_last_error_message(b->h));
        exit(1);
    }
    void* ws = b->gpu ? gm_alloc(bytes) : malloc(bytes ? bytes : 1);
    if (ws == NULL || hipreduce_set_workspace(b->h, ws, bytes) != HIPREDUCE_STATUS_SUCCESS) {
        fprintf(stderr, "%s: workspace of %zu bytes: %s\n", c->name, bytes, hipreduce_last_error_message(b->h));
        exit(1);
    }
    double* ms = malloc((size_t)b->runs * sizeof *ms);
    for (int r = -1; r < b->runs; ++r) {
        hipreduce_operands ops = {.x = dx, .keys = dk, .values = out};
        const double t0 = now_ms();
        const hipreduce_status st = hipreduce_plan_run(b->h, plan, &ops, where);
        wait_stream(b, dx);
        if (st != HIPREDUCE_STATUS_SUCCESS) {
            fprintf(stderr, "%s: run: %s\n", c->name, hipreduce_last_error_message(b->h));
            exit(1);
        }
        if (r >= 0) ms[r] = now_ms() - t0;
    }
    /* Two more runs into host memory, compared bit for bit. */
    float* h[2] = {malloc(results * sizeof(float)), malloc(results * sizeof(float))};
    int same = h[0] && h[1];
    for (int k = 0; k < 2 && same; ++k) {
        hipreduce_operands ops = {.x = dx, .keys = dk, .values = h[k]};
        same = hipreduce_plan_run(b->h, plan, &ops, HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_SUCCESS;
    }
    same = same && memcmp(h[0], h[1], results * sizeof(float)) == 0;
    free(h[0]), free(h[1]);
    qsort(ms, (size_t)b->runs, sizeof *ms, compare_double);
    const double median = ms[b->runs / 2], read = (double)values * 4 + (double)length * 4;
    printf("%-22s %-9s %12" PRIu64 " %5" PRIu64 " %8" PRIu64 " %10.3f %10.3f %8.1f %10.1f  %s\n", c->name,
           op == HIPREDUCE_OP_SUM ? "sum" : "sum_exact", length, c->row, c->bins, median, ms[0], read / median / 1e6,
           (double)bytes / 1048576.0, same ? "same bits" : "RESULTS DIFFER");
    (void)hipreduce_set_workspace(b->h, NULL, 0);
    hipreduce_plan_destroy(plan);
    if (b->gpu) {
        gm_free(dx), gm_free(dk), gm_free(out), gm_free(ws);
    } else {
        free(out), free(ws);
    }
    free(x), free(keys), free(ms);
}

int main(int argc, char** argv)
{
    bench_env b = {.gpu = 1, .runs = 10};
    int scale = -1;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "cpu") == 0) b.gpu = 0;
        else if (strcmp(argv[i], "gpu") == 0) b.gpu = 1;
        else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) b.runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--scale") == 0 && i + 1 < argc) scale = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [gpu|cpu] [--runs N] [--scale S]\n", argv[0]);
            return 2;
        }
    }
    if (b.runs < 1) b.runs = 1;
    if (scale < 0) scale = b.gpu ? 0 : 4;
    if (b.gpu && gm_count() == 0) {
        fprintf(stderr, "no GPU (run with the argument cpu for the cpu device)\n");
        return 1;
    }
    if (hipreduce_create(&b.h, b.gpu ? HIPREDUCE_DEVICE_GPU : HIPREDUCE_DEVICE_CPU, 0) != HIPREDUCE_STATUS_SUCCESS) {
        fprintf(stderr, "hipreduce_create failed\n");
        return 1;
    }
    printf("# %s, sizes / 2^%d, median and fastest of %d runs; GB/s: values and keys read\n",
           b.gpu ? gm_device_name(0) : "cpu device", scale, b.runs);
    printf("%-22s %-9s %12s %5s %8s %10s %10s %8s %10s\n", "case", "op", "length", "row", "bins", "median ms", "min ms",
           "GB/s", "ws MiB");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        run_case(&b, &cases[c], (unsigned)scale, HIPREDUCE_OP_SUM);
        run_case(&b, &cases[c], (unsigned)scale, HIPREDUCE_OP_SUM_EXACT);
    }
    hipreduce_destroy(b.h);
    return 0;
}
