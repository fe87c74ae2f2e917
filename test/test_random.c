/* random suite (label api): seeded random cases over op x dtype x size x input byte offset x
 * values (special floats included), for a fixed wall-clock budget; ~40% of them typed:
 * any allowed (op, input, result) triple of hipreduce_reduce, hipreduce_argreduce or hipreduce_dot
 * (random_case.c), checked by typed_ref.c. Each case runs on the cpu
 * device against the independent references of reference.c and, where the build has a GPU
 * backend and a GPU is present, on GPU 0 with the default algorithm (input element-aligned there),
 * which must give the cpu device's bits. The input must be left exactly as the caller wrote it.
 *   HIPREDUCE_RANDOM_SECONDS  wall-clock budget in seconds (default 30)
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
#include "random_case.h"
#include "reference.h"
#include "typed_ref.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define HR_DEATH_CALLBACK 1
#endif

#define DEFAULT_SEED UINT64_C(20250801)
#define SENTINEL 0xA5
#define PREFIX 0x5A
/* The largest case: 4-byte t * (t + 1) + 1 elements (three levels), plus a 15-byte offset. */
#define MAX_BYTES ((size_t)68 << 20)

/* ---- one case ---- */

typedef struct ctx {
    hipreduce_handle cpu, gpu;
    unsigned char *ref, *ref_y;    /* aligned input (and dot's y) for the references */
    unsigned char *d_buf, *d_buf_y; /* device buffers */
    unsigned char* back;           /* host copy of the device buffer */
    uint64_t misaligned, special, on_gpu, typed;
} ctx;

static const rcase* current; /* for the sanitizer's death report */
#ifdef HR_DEATH_CALLBACK
static void on_death(void)
{
    if (current) fprintf(stderr, "test_random: died in case %s\n", rc_describe(current));
}
#endif

static int arith_float(const rcase* c) { return ref_is_float(c->dtype) && c->op <= HIPREDUCE_OP_PROD; }
static int result_ok(const rcase* c, const unsigned char* got, int64_t index, const char* where,
                     hipreduce_status st, const char* message)
{
    if (st != HIPREDUCE_STATUS_SUCCESS) {
        ref_report("FAIL %s: status %s %s: %s", where, hipreduce_status_string(st), message, rc_describe(c));
        return 0;
    }
    int past = tr_call(c->op) != 1 && index != -7;
    for (size_t i = tr_size(c->out); i < 16; ++i) past |= got[i] != SENTINEL;
    if (past) ref_report("FAIL %s: wrote past its result: %s", where, rc_describe(c));
    return !past;
}
/* The case's call: hipreduce_reduce, hipreduce_argreduce or hipreduce_dot. */
static hipreduce_status call(hipreduce_handle h, const rcase* c, const void* x, const void* y, void* result,
                             int64_t* index)
{
    *index = -7;
    memset(result, SENTINEL, 16);
    switch (tr_call(c->op)) {
    case 1: return hipreduce_argreduce(h, c->op, c->dtype, x, c->n, result, index, HIPREDUCE_RESULT_HOST);
    case 2: return hipreduce_dot(h, c->dtype, x, y, c->n, c->out, result, HIPREDUCE_RESULT_HOST);
    default: return hipreduce_reduce(h, c->op, c->dtype, x, c->n, c->out, result, HIPREDUCE_RESULT_HOST);
    }
}

static int run_case(ctx* g, const rcase* c)
{
    const size_t size = tr_size(c->dtype), bytes = (size_t)c->n * size, total = c->offset + bytes;
    const int dot = tr_call(c->op) == 2;
    char what[320];
    unsigned char cpu[16], got[16];
    int64_t cpu_index, got_index;
    int fails = 0;
    current = c;
    rc_fill(c, c->vseed, g->ref);
    if (dot) rc_fill(c, c->vseed ^ UINT64_C(0x5eed), g->ref_y);
    /* Exactly offset + n elements, so that ASan sees a read past the input's end. */
    unsigned char* buf = (unsigned char*)malloc(total ? total : 1);
    unsigned char* buf_y = dot ? (unsigned char*)malloc(total ? total : 1) : NULL;
    if (!buf || (dot && !buf_y)) {
        ref_report("FAIL: out of host memory for %s", rc_describe(c));
        free(buf);
        free(buf_y);
        return 1;
    }
    memset(buf, PREFIX, c->offset);
    memcpy(buf + c->offset, g->ref, bytes);
    if (dot) memset(buf_y, PREFIX, c->offset), memcpy(buf_y + c->offset, g->ref_y, bytes);
    hipreduce_status st = call(g->cpu, c, buf + c->offset, dot ? buf_y + c->offset : NULL, cpu, &cpu_index);
    snprintf(what, sizeof what, "cpu %s", rc_describe(c));
    if (!result_ok(c, cpu, cpu_index, "cpu", st, "")) ++fails;
    else if (c->typed)
        fails += tr_check(what, c->op, c->dtype, c->out, g->ref, dot ? g->ref_y : NULL, c->n, tr_bits(c->out, cpu, 0),
                          tr_call(c->op) == 1 ? cpu_index : -1);
    else if (arith_float(c)) fails += ref_check_ieee(what, c->op, c->dtype, c->data, g->ref, c->n, cpu);
    else fails += ref_check(what, c->op, c->dtype, c->data, g->ref, c->n, cpu, REF_CANONICAL);
    int changed = memcmp(buf + c->offset, g->ref, bytes) != 0 || (dot && memcmp(buf_y + c->offset, g->ref_y, bytes));
    for (size_t i = 0; i < c->offset; ++i) changed |= buf[i] != PREFIX || (dot && buf_y[i] != PREFIX);
    if (changed) {
        ref_report("FAIL cpu: the caller's bytes changed: %s", rc_describe(c));
        ++fails;
    }
    /* On the GPU the same bytes, at the offset rounded down to whole elements: the header
     * promises any alignment for host input only (a GPU faults on a misaligned scalar load). */
    unsigned char* const d_in = g->d_buf + (c->offset - c->offset % size);
    unsigned char* const d_y = g->d_buf_y + (c->offset - c->offset % size);
    if (g->gpu) {
        ++g->on_gpu;
        if (gm_to_device(d_in, g->ref, bytes) != 0 || (dot && gm_to_device(d_y, g->ref_y, bytes) != 0)) {
            ref_report("FAIL gpu: upload: %s", rc_describe(c));
            free(buf);
            free(buf_y);
            return fails + 1;
        }
        st = call(g->gpu, c, d_in, dot ? d_y : NULL, got, &got_index);
        const uint64_t gb = tr_bits(c->out, got, 0), cb = tr_bits(c->out, cpu, 0);
        if (!result_ok(c, got, got_index, "gpu", st, hipreduce_last_error_message(g->gpu))) {
            ++fails;
        } else if (gb != cb || got_index != cpu_index) {
            ref_report("FAIL gpu: default algorithm differs from the cpu device: %s", rc_describe(c));
            ++fails;
        }
        if (gm_to_host(g->back, d_in, bytes) != 0 || memcmp(g->back, g->ref, bytes) != 0) {
            ref_report("FAIL gpu: device input changed: %s", rc_describe(c));
            ++fails;
        }
    }
    g->misaligned += c->offset % size != 0;
    g->special += tr_is_float(c->dtype) && c->mode != F_FILL;
    g->typed += c->typed;
    free(buf);
    free(buf_y);
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
    const double budget = env_seconds && *env_seconds ? strtod(env_seconds, NULL) : 30.0;
    const uint64_t seed = env_seed && *env_seed ? strtoull(env_seed, NULL, 0) : DEFAULT_SEED;
    ctx g;
    memset(&g, 0, sizeof g);
#ifdef HR_DEATH_CALLBACK
    __sanitizer_set_death_callback(on_death);
#endif
    g.ref = (unsigned char*)malloc(MAX_BYTES);
    g.ref_y = (unsigned char*)malloc(MAX_BYTES);
    if (!g.ref || !g.ref_y || hipreduce_create(&g.cpu, HIPREDUCE_DEVICE_CPU, 0) != HIPREDUCE_STATUS_SUCCESS) {
        fprintf(stderr, "test_random: no host memory or no cpu handle\n");
        return 1;
    }
    int fails = 0;
    if (gm_count() > 0) { /* a GPU is present: failing to use it is a failure, not a skip */
        const hipreduce_status st = hipreduce_create(&g.gpu, HIPREDUCE_DEVICE_GPU, 0);
        g.d_buf = (unsigned char*)gm_alloc(MAX_BYTES);
        g.d_buf_y = (unsigned char*)gm_alloc(MAX_BYTES);
        g.back = (unsigned char*)malloc(MAX_BYTES);
        if (st != HIPREDUCE_STATUS_SUCCESS || !g.d_buf || !g.d_buf_y || !g.back) {
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
        const rcase c = rc_make(seed, strtoull(env_case, NULL, 0));
        printf("case %s\n", rc_describe(&c));
        fails = run_case(&g, &c);
        cases = 1, failing = fails > 0;
    } else {
        /* Stop at the budget (checked after each case: the largest takes well under a second,
         * a few under sanitizers) or after 10 failing cases. */
        double slowest = 0;
        char slowest_case[256] = "";
        double per_element = 0; /* the slowest seconds per element seen on sizes >= 2^16 */
        while (now() - start < budget && failing < 10) {
            const rcase c = rc_make(seed, cases++);
            /* The budget is wall time, sanitized builds included: near its end, a case that
             * would not finish in time is skipped (not run, counted). */
            if ((double)c.n * per_element > budget - (now() - start)) {
                ++skipped;
                continue;
            }
            if (verbose) fprintf(stderr, "case %s\n", rc_describe(&c));
            const double t0 = now();
            const int f = run_case(&g, &c);
            const double took = now() - t0;
            if (took > slowest) slowest = took, snprintf(slowest_case, sizeof slowest_case, "%s", rc_describe(&c));
            if (c.n >= 65536 && took / (double)c.n > per_element) per_element = took / (double)c.n;
            fails += f;
            failing += f > 0;
        }
        printf("test_random: slowest case %.2f s: %s\n", slowest, slowest_case);
    }
    printf("test_random: seed=%llu cases=%llu (typed %llu, misaligned input %llu, float specials %llu, on GPU %llu, "
           "skipped at the budget's end %llu) failing cases=%llu in %.1f s\n",
           (unsigned long long)seed, (unsigned long long)(cases - skipped), (unsigned long long)g.typed,
           (unsigned long long)g.misaligned,
           (unsigned long long)g.special, (unsigned long long)g.on_gpu, (unsigned long long)skipped,
           (unsigned long long)failing, now() - start);
    if (failing)
        printf("reproduce one: HIPREDUCE_RANDOM_SEED=%llu HIPREDUCE_RANDOM_CASE=<case> %s\n",
               (unsigned long long)seed, "hipreduce_test_random");
    hipreduce_destroy(g.cpu);
    hipreduce_destroy(g.gpu);
    gm_free(g.d_buf);
    gm_free(g.d_buf_y);
    free(g.back);
    free(g.ref);
    free(g.ref_y);
    return fails ? 1 : 0;
}
