/* cpu_threads: the cpu device's thread pool through the public API.
 *  - hipreduce_set_threads / get_threads: arguments, default, clamping, GPU-handle rule;
 *  - the same bits for every thread count: each op x dtype on inputs of many tiles (and f32/f64
 *    sums over three levels), against threads = 1, which itself is checked against the
 *    canonical-order model of reference.c;
 *  - pool restarts (thread count changed between calls), handles destroyed right after
 *    parallel calls, and several handles used at once from several host threads.
 * Also the threaded subset that CI runs under ThreadSanitizer: HIPREDUCE_TEST_QUICK=1 keeps
 * the inputs small enough for it (still several tiles per thread). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hipreduce/hipreduce.h"
#include "reference.h"

static const unsigned thread_counts[] = {2, 3, 5, 8};
enum { N_COUNTS = sizeof thread_counts / sizeof thread_counts[0] };

static int quick;

static int thread_calls(void)
{
    int fails = 0;
    hipreduce_handle h = NULL;
    unsigned t = 12345;
    fails += REF_EXPECT(hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0) == HIPREDUCE_STATUS_SUCCESS);
    if (h == NULL) return fails;
    fails += REF_EXPECT(hipreduce_get_threads(h, &t) == 0 && t >= 1); /* the default: available cores */
    const unsigned cores = t;
    fails += REF_EXPECT(hipreduce_set_threads(NULL, 2) == HIPREDUCE_STATUS_INVALID_HANDLE);
    fails += REF_EXPECT(hipreduce_get_threads(NULL, &t) == HIPREDUCE_STATUS_INVALID_HANDLE);
    fails += REF_EXPECT(hipreduce_get_threads(h, NULL) == HIPREDUCE_STATUS_INVALID_POINTER);
    fails += REF_EXPECT(hipreduce_set_threads(h, 3) == 0 && hipreduce_get_threads(h, &t) == 0 && t == 3);
    fails += REF_EXPECT(hipreduce_set_threads(h, 1) == 0 && hipreduce_get_threads(h, &t) == 0 && t == 1);
    fails += REF_EXPECT(hipreduce_set_threads(h, 100000) == 0 && hipreduce_get_threads(h, &t) == 0 && t == 256);
    fails += REF_EXPECT(hipreduce_set_threads(h, 0) == 0 && hipreduce_get_threads(h, &t) == 0 && t == cores);
    fails += REF_EXPECT(hipreduce_destroy(h) == HIPREDUCE_STATUS_SUCCESS);
    return fails;
}

/* Elements for dtype's many-tile case: enough tiles for 8 threads to share, ending mid-tile. */
static uint64_t many_tiles(hipreduce_dtype d) { return ref_tile_items(d) * (quick ? 70 : 300) + 17; }

/* Every applicable op x dtype (x the float patterns) on each thread count: the bits of
 * threads = 1, which must also pass ref_check. */
static int same_bits_every_count(hipreduce_handle one, hipreduce_handle* many, unsigned char* x)
{
    int fails = 0, cases = 0;
    for (int di = 0; di < REF_NDTYPES; ++di) {
        const hipreduce_dtype d = ref_dtypes[di];
        const uint64_t n = many_tiles(d);
        for (int oi = 0; oi < REF_NOPS; ++oi) {
            const hipreduce_op op = ref_ops[oi];
            if (!ref_op_applies(op, d)) continue;
            for (int data = REF_DATA_RANDOM; data < REF_DATA_KINDS; ++data) {
                if (data != REF_DATA_RANDOM && (!ref_is_float(d) || data == REF_DATA_EXACT)) continue;
                if (data == REF_DATA_NAN && op != HIPREDUCE_OP_MIN && op != HIPREDUCE_OP_MAX) continue;
                ref_fill(op, d, (ref_data)data, n, 99 + (uint64_t)di * 7 + (uint64_t)oi, x);
                unsigned char want[16], got[16];
                fails += REF_EXPECT(hipreduce_reduce(one, op, d, x, n, d, want, HIPREDUCE_RESULT_HOST) == 0);
                fails += ref_check("cpu threads=1", op, d, (ref_data)data, x, n, want, REF_CANONICAL);
                for (int k = 0; k < N_COUNTS; ++k) {
                    memset(got, 0xA5, sizeof got);
                    const hipreduce_status st = hipreduce_reduce(many[k], op, d, x, n, d, got, HIPREDUCE_RESULT_HOST);
                    if (st != HIPREDUCE_STATUS_SUCCESS || !ref_same_bits(d, want, got)) {
                        ref_report("FAIL %s %s %s n=%llu: threads=%u differs from threads=1 (%s)",
                                   ref_op_name(op), ref_dtype_name(d), ref_data_name((ref_data)data),
                                   (unsigned long long)n, thread_counts[k], hipreduce_status_string(st));
                        ++fails;
                    }
                }
                ++cases;
            }
        }
    }
    printf("cpu_threads: %d op/dtype/pattern cases x %d thread counts\n", cases, N_COUNTS);
    return fails;
}

/* Float sums over three levels (tile^2 + tile + 1 elements): the partials of level 1 span
 * several level-2 tiles. */
static int three_levels_every_count(hipreduce_handle one, hipreduce_handle* many, unsigned char* x)
{
    int fails = 0;
    const hipreduce_dtype dtypes[2] = {HIPREDUCE_F32, HIPREDUCE_F64};
    for (int i = 0; i < 2; ++i) {
        const uint64_t t = ref_tile_items(dtypes[i]), n = t * t + t + 1;
        ref_fill(HIPREDUCE_OP_SUM, dtypes[i], REF_DATA_RANDOM, n, 5 + (uint64_t)i, x);
        unsigned char want[16], got[16];
        fails += REF_EXPECT(hipreduce_reduce(one, HIPREDUCE_OP_SUM, dtypes[i], x, n, dtypes[i], want, 0) == 0);
        fails += ref_check("cpu 3 levels", HIPREDUCE_OP_SUM, dtypes[i], REF_DATA_RANDOM, x, n, want, REF_CANONICAL);
        for (int k = 0; k < N_COUNTS; ++k)
            fails += REF_EXPECT(hipreduce_reduce(many[k], HIPREDUCE_OP_SUM, dtypes[i], x, n, dtypes[i], got, 0) == 0 &&
                                ref_same_bits(dtypes[i], want, got));
    }
    return fails;
}

/* The pool stopped and restarted between calls, and a handle destroyed right after its pool ran. */
static int restarts(unsigned char* x)
{
    int fails = 0;
    const uint64_t n = many_tiles(HIPREDUCE_F32);
    float want = 0, got = 0;
    ref_fill(HIPREDUCE_OP_SUM, HIPREDUCE_F32, REF_DATA_RANDOM, n, 31, x);
    hipreduce_handle h = NULL;
    fails += REF_EXPECT(hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0) == 0);
    if (h == NULL) return fails;
    fails += REF_EXPECT(hipreduce_set_threads(h, 1) == 0 && hipreduce_reduce(h, 0, HIPREDUCE_F32, x, n, HIPREDUCE_F32, &want, 0) == 0);
    for (int round = 0; round < (quick ? 6 : 20); ++round) {
        fails += REF_EXPECT(hipreduce_set_threads(h, 2 + (unsigned)round % 4) == 0);
        fails += REF_EXPECT(hipreduce_reduce(h, 0, HIPREDUCE_F32, x, n, HIPREDUCE_F32, &got, 0) == 0 && memcmp(&want, &got, 4) == 0);
        hipreduce_handle brief = NULL;
        fails += REF_EXPECT(hipreduce_create(&brief, HIPREDUCE_DEVICE_CPU, 0) == 0);
        fails += REF_EXPECT(hipreduce_set_threads(brief, 3) == 0);
        fails += REF_EXPECT(hipreduce_reduce(brief, 0, HIPREDUCE_F32, x, n, HIPREDUCE_F32, &got, 0) == 0 &&
                            memcmp(&want, &got, 4) == 0);
        fails += REF_EXPECT(hipreduce_destroy(brief) == 0);
    }
    fails += REF_EXPECT(hipreduce_destroy(h) == 0);
    return fails;
}

/* Several host threads, each with its own handle and pool, at once. */
typedef struct host_job {
    const unsigned char* x;
    uint64_t n;
    double want;
    int fails;
} host_job;

static void* host_thread(void* p)
{
    host_job* job = (host_job*)p;
    hipreduce_handle h = NULL;
    if (hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0) != 0 || hipreduce_set_threads(h, 3) != 0) {
        job->fails = 1;
        hipreduce_destroy(h);
        return NULL;
    }
    for (int i = 0; i < (quick ? 4 : 16); ++i) {
        double got = 0;
        if (hipreduce_reduce(h, 0, HIPREDUCE_F64, job->x, job->n, HIPREDUCE_F64, &got, 0) != 0 || memcmp(&got, &job->want, 8) != 0)
            ++job->fails;
    }
    hipreduce_destroy(h);
    return NULL;
}

static int concurrent_handles(unsigned char* x)
{
    enum { HOSTS = 3 };
    const uint64_t n = many_tiles(HIPREDUCE_F64);
    ref_fill(HIPREDUCE_OP_SUM, HIPREDUCE_F64, REF_DATA_RANDOM, n, 4242, x);
    hipreduce_handle h = NULL;
    host_job jobs[HOSTS];
    int fails = REF_EXPECT(hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0) == 0 && hipreduce_set_threads(h, 1) == 0);
    fails += REF_EXPECT(hipreduce_reduce(h, 0, HIPREDUCE_F64, x, n, HIPREDUCE_F64, &jobs[0].want, 0) == 0);
    hipreduce_destroy(h);
    pthread_t threads[HOSTS];
    int started[HOSTS] = {0};
    for (int i = 0; i < HOSTS; ++i) {
        jobs[i] = jobs[0];
        jobs[i].x = x;
        jobs[i].n = n;
        jobs[i].fails = 0;
        started[i] = pthread_create(&threads[i], NULL, host_thread, &jobs[i]) == 0;
        fails += REF_EXPECT(started[i]);
    }
    for (int i = 0; i < HOSTS; ++i) {
        if (started[i]) pthread_join(threads[i], NULL);
        if (jobs[i].fails) ref_report("FAIL: host thread %d: %d wrong or failed calls", i, jobs[i].fails);
        fails += jobs[i].fails;
    }
    return fails;
}

int main(void)
{
    quick = getenv("HIPREDUCE_TEST_QUICK") && strcmp(getenv("HIPREDUCE_TEST_QUICK"), "0") != 0;
    int fails = thread_calls();
    hipreduce_handle one = NULL, many[N_COUNTS] = {NULL};
    fails += REF_EXPECT(hipreduce_create(&one, HIPREDUCE_DEVICE_CPU, 0) == 0 && hipreduce_set_threads(one, 1) == 0);
    for (int k = 0; k < N_COUNTS; ++k)
        fails += REF_EXPECT(hipreduce_create(&many[k], HIPREDUCE_DEVICE_CPU, 0) == 0 &&
                            hipreduce_set_threads(many[k], thread_counts[k]) == 0);
    /* The largest input: f32's three levels (tile^2 + tile + 1 elements of 4 bytes). */
    const uint64_t t32 = ref_tile_items(HIPREDUCE_F32);
    const size_t bytes = (size_t)(t32 * t32 + t32 + 1) * 4;
    unsigned char* x = (unsigned char*)malloc(bytes);
    fails += REF_EXPECT(x != NULL);
    if (fails == 0) {
        fails += same_bits_every_count(one, many, x);
        if (!quick) fails += three_levels_every_count(one, many, x);
        fails += restarts(x);
        fails += concurrent_handles(x);
    }
    free(x);
    hipreduce_destroy(one);
    for (int k = 0; k < N_COUNTS; ++k) hipreduce_destroy(many[k]);
    printf("cpu_threads: %d failures\n", fails);
    return fails ? 1 : 0;
}
