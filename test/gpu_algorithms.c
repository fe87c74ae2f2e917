/* gpu suite, study algorithms: every algorithm from HIPREDUCE_ALGORITHM_PMPP_SIMPLE to TUTORIAL_V10
 * over the whole api matrix (every op x dtype x data pattern x edge size) on GPU 0, checked against
 * reference.c's independent references: integers, min/max, NaN and signed zeros exact, float sums and
 * products within the error bound of any summation order (n and the dtype's epsilon). Also:
 *  - block sizes 32..1024 for every algorithm on a subset of dtypes, ops and sizes;
 *  - the device input unchanged after the calls (PMPP simple/convergent reduce in place, on a copy);
 *  - the unsupported cells of the atomic algorithm return NOT_SUPPORTED and write nothing;
 *  - results to device memory, an unaligned input for the vector-load kernel (tutorial v9);
 *  - the workspace: the size query suffices (guard bytes after it stay untouched), it needs no
 *    initialisation, and AUTO on the same handle still gives the cpu device's bits afterwards;
 *  - passes of more blocks than one launch takes (n = 2^25 + 3 with 32-thread blocks).
 * `hipreduce_test_gpu_algorithms sanitize` runs only a few cells (every algorithm and block size),
 * short enough for compute-sanitizer's racecheck and synccheck.
 * Exits 77 (CTest: skipped) where there is no GPU, including cpu-only builds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_memory.h"
#include "hipreduce/hipreduce_study.h"
#include "reference.h"
#include "test_run.h"

#define SKIP 77
#define SENTINEL 0xA5

enum {
    FIRST = HIPREDUCE_ALGORITHM_PMPP_SIMPLE,
    LAST = HIPREDUCE_ALGORITHM_TUTORIAL_V10,
    GUARD = 256 /* bytes checked after a caller workspace */
};
static const unsigned blocks[] = {32, 64, 128, 256, 512, 1024};
#define NBLOCKS (sizeof blocks / sizeof blocks[0])

typedef struct study_ctx {
    hipreduce_handle gpu, cpu;
    int sanitize;            /* only the cells of sanitize_case */
    unsigned char* d_x;      /* device input; an unaligned copy after it */
    unsigned char* d_result; /* 16 bytes */
    unsigned char* back;     /* host copy of device memory */
} study_ctx;

/* The cells the atomic algorithm has no hardware atomic for. */
static int supported(int alg, hipreduce_op op, hipreduce_dtype dtype)
{
    if (alg != HIPREDUCE_ALGORITHM_PMPP_SEGMENTED_ATOMIC) return 1;
    return op != HIPREDUCE_OP_PROD && !(ref_is_float(dtype) && (op == HIPREDUCE_OP_MIN || op == HIPREDUCE_OP_MAX));
}

/* Runs the handle's algorithm on d_in and checks the result; got is sentinel-filled first. */
static int run_checked(study_ctx* s, const ref_case* c, int alg, unsigned block, const void* d_in,
                       hipreduce_location loc, const char* where)
{
    unsigned char got[16];
    char what[128];
    snprintf(what, sizeof what, "algorithm %d block %u %s", alg, block, where);
    memset(got, SENTINEL, sizeof got);
    hipreduce_status st;
    if (loc == HIPREDUCE_RESULT_HOST) {
        st = hipreduce_reduce(s->gpu, c->op, c->dtype, d_in, c->n, c->dtype, got, loc);
    } else {
        if (gm_memset(s->d_result, SENTINEL, 16) != 0) return REF_EXPECT(!"device memset");
        st = hipreduce_reduce(s->gpu, c->op, c->dtype, d_in, c->n, c->dtype, s->d_result, loc);
        if (gm_sync() != 0 || gm_to_host(got, s->d_result, 16) != 0) return REF_EXPECT(!"device result copy");
    }
    const size_t size = ref_size(c->dtype);
    const int expect_ok = supported(alg, c->op, c->dtype);
    for (size_t i = expect_ok ? size : 0; i < 16; ++i)
        if (got[i] != SENTINEL) {
            ref_report("FAIL %s: %s %s n=%llu wrote bytes it must not", what, ref_op_name(c->op),
                       ref_dtype_name(c->dtype), (unsigned long long)c->n);
            return 1;
        }
    if (st != (expect_ok ? HIPREDUCE_STATUS_SUCCESS : HIPREDUCE_STATUS_NOT_SUPPORTED)) {
        ref_report("FAIL %s: %s %s n=%llu: status %s (%s)", what, ref_op_name(c->op), ref_dtype_name(c->dtype),
                   (unsigned long long)c->n, hipreduce_status_string(st), hipreduce_last_error_message(s->gpu));
        return 1;
    }
    return expect_ok ? ref_check(what, c->op, c->dtype, c->data, c->x, c->n, got, REF_ANY_ORDER) : 0;
}

/* The device copy of the input at d against the host's. */
static int input_unchanged(study_ctx* s, const ref_case* c, const unsigned char* d, int alg)
{
    const size_t bytes = (size_t)c->n * ref_size(c->dtype);
    if (gm_to_host(s->back, d, bytes) == 0 && memcmp(s->back, c->x, bytes) == 0) return 0;
    ref_report("FAIL algorithm %d: %s %s n=%llu: the device input changed", alg, ref_op_name(c->op),
               ref_dtype_name(c->dtype), (unsigned long long)c->n);
    return 1;
}

/* The block-size sweep runs on these cells only, to keep the suite's time reasonable. */
static int sweep_case(const ref_case* c)
{
    static const uint64_t sizes[] = {0, 1, 2, 31, 33, 63, 65, 255, 257, 1023, 1025, 2047, 4097, 7919, 65521, 104729};
    const int dtype_ok = c->dtype == HIPREDUCE_U8 || c->dtype == HIPREDUCE_I32 || c->dtype == HIPREDUCE_I64 ||
                         c->dtype == HIPREDUCE_F32 || c->dtype == HIPREDUCE_F64;
    const int op_ok = c->op == HIPREDUCE_OP_SUM || c->op == HIPREDUCE_OP_MAX ||
                      (c->op == HIPREDUCE_OP_XOR && c->dtype == HIPREDUCE_U8);
    if (c->data != REF_DATA_RANDOM || !dtype_ok || !op_ok) return 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
        if (sizes[i] == c->n) return 1;
    return 0;
}

/* The few cells of a compute-sanitizer run: two sizes past a block, three op/dtype pairs. */
static int sanitize_case(const ref_case* c)
{
    return c->data == REF_DATA_RANDOM && (c->n == 1025 || c->n == 4097) &&
           ((c->op == HIPREDUCE_OP_SUM && c->dtype == HIPREDUCE_F32) ||
            (c->op == HIPREDUCE_OP_MAX && c->dtype == HIPREDUCE_I64) ||
            (c->op == HIPREDUCE_OP_XOR && c->dtype == HIPREDUCE_U8));
}

static int study_case(void* vctx, const ref_case* c)
{
    study_ctx* s = (study_ctx*)vctx;
    if (s->sanitize && !sanitize_case(c)) return 0;
    const size_t size = ref_size(c->dtype), bytes = (size_t)c->n * size;
    unsigned char* const unaligned = s->d_x + (bytes + 15) / 16 * 16 + 16 + size;
    int fails = 0;
    if (gm_to_device(s->d_x, c->x, bytes) != 0 || gm_to_device(unaligned, c->x, bytes) != 0)
        return REF_EXPECT(!"input upload");
    for (int alg = FIRST; alg <= LAST; ++alg) {
        fails += REF_EXPECT(hipreduce_set_algorithm(s->gpu, (hipreduce_algorithm)alg) == 0);
        fails += run_checked(s, c, alg, 0, s->d_x, HIPREDUCE_RESULT_HOST, "host result");
        if (c->n <= 1025) fails += run_checked(s, c, alg, 0, s->d_x, HIPREDUCE_RESULT_DEVICE, "device result");
        if (alg == HIPREDUCE_ALGORITHM_TUTORIAL_V9)
            fails += run_checked(s, c, alg, 0, unaligned, HIPREDUCE_RESULT_HOST, "unaligned input");
        if (sweep_case(c)) {
            for (size_t b = 0; b < NBLOCKS; ++b) {
                fails += REF_EXPECT(hipreduce_set_block_size(s->gpu, blocks[b]) == 0);
                fails += run_checked(s, c, alg, blocks[b], s->d_x, HIPREDUCE_RESULT_HOST, "sweep");
            }
            fails += REF_EXPECT(hipreduce_set_block_size(s->gpu, 0) == 0);
        }
        /* After every call for the in-place kernels; for the rest, at the end (large n costs). */
        if (alg == HIPREDUCE_ALGORITHM_PMPP_SIMPLE || alg == HIPREDUCE_ALGORITHM_PMPP_CONVERGENT || c->n <= 65536)
            fails += input_unchanged(s, c, s->d_x, alg);
    }
    fails += input_unchanged(s, c, s->d_x, LAST) + input_unchanged(s, c, unaligned, LAST);
    /* After the study calls, AUTO on the same handle (and workspace) keeps the cpu's bits. */
    unsigned char cpu[16], got[16];
    fails += REF_EXPECT(hipreduce_set_algorithm(s->gpu, HIPREDUCE_ALGORITHM_AUTO) == 0);
    fails += REF_EXPECT(hipreduce_reduce(s->cpu, c->op, c->dtype, c->x, c->n, c->dtype, cpu, HIPREDUCE_RESULT_HOST) == 0);
    fails += REF_EXPECT(hipreduce_reduce(s->gpu, c->op, c->dtype, s->d_x, c->n, c->dtype, got, HIPREDUCE_RESULT_HOST) == 0);
    if (!ref_same_bits(c->dtype, cpu, got)) {
        ref_report("FAIL auto after the study algorithms: %s %s data=%s n=%llu differs from the cpu device",
                   ref_op_name(c->op), ref_dtype_name(c->dtype), ref_data_name(c->data), (unsigned long long)c->n);
        ++fails;
    }
    return fails;
}

/* Caller workspace of exactly the queried size, filled with garbage (it needs no initialisation),
 * followed by guard bytes: two calls must be right and leave the guard untouched. */
static int workspace_contract(study_ctx* s, hipreduce_op op, hipreduce_dtype dtype, uint64_t n, void* x)
{
    static const unsigned sizes[] = {0, 32, 1024};
    ref_case c = {op, dtype, REF_DATA_RANDOM, n, 99 + n, x};
    int fails = 0;
    ref_fill(op, dtype, c.data, n, c.seed, x);
    if (gm_to_device(s->d_x, x, (size_t)n * ref_size(dtype)) != 0) return REF_EXPECT(!"input upload");
    for (int alg = FIRST; alg <= LAST; ++alg) {
        for (size_t b = 0; b < sizeof sizes / sizeof sizes[0]; ++b) {
            size_t need = 0;
            fails += REF_EXPECT(hipreduce_set_algorithm(s->gpu, (hipreduce_algorithm)alg) == 0);
            fails += REF_EXPECT(hipreduce_set_block_size(s->gpu, sizes[b]) == 0);
            fails += REF_EXPECT(hipreduce_workspace_size(s->gpu, op, dtype, n, dtype, &need) == 0);
            unsigned char* ws = (unsigned char*)gm_alloc(need + GUARD);
            if (!ws) return fails + REF_EXPECT(ws != NULL);
            fails += REF_EXPECT(gm_memset(ws, 0x5A, need) == 0 && gm_memset(ws + need, SENTINEL, GUARD) == 0);
            fails += REF_EXPECT(hipreduce_set_workspace(s->gpu, ws, need) == 0);
            for (int k = 0; k < 2; ++k) {
                fails += run_checked(s, &c, alg, sizes[b], s->d_x, HIPREDUCE_RESULT_HOST, "caller workspace");
                fails += run_checked(s, &c, alg, sizes[b], s->d_x, HIPREDUCE_RESULT_DEVICE, "caller workspace");
            }
            fails += REF_EXPECT(gm_sync() == 0 && gm_to_host(s->back, ws + need, GUARD) == 0);
            for (size_t i = 0; i < GUARD; ++i)
                if (s->back[i] != SENTINEL) {
                    ref_report("FAIL algorithm %d block %u: %s %s n=%llu: wrote past the %zu-byte workspace", alg,
                               sizes[b], ref_op_name(op), ref_dtype_name(dtype), (unsigned long long)n, need);
                    ++fails;
                    break;
                }
            fails += REF_EXPECT(hipreduce_set_workspace(s->gpu, NULL, 0) == 0);
            gm_free(ws);
        }
    }
    fails += REF_EXPECT(hipreduce_set_block_size(s->gpu, 0) == 0);
    return fails;
}

/* Passes of more blocks than one launch takes (2^20): 32-thread blocks over 2^25 + 3 bytes. */
static int many_blocks(study_ctx* s, void* x)
{
    ref_case c = {HIPREDUCE_OP_SUM, HIPREDUCE_U8, REF_DATA_RANDOM, (UINT64_C(1) << 25) + 3, 4242, x};
    int fails = 0;
    ref_fill(c.op, c.dtype, c.data, c.n, c.seed, x);
    if (gm_to_device(s->d_x, x, (size_t)c.n) != 0) return REF_EXPECT(!"input upload");
    fails += REF_EXPECT(hipreduce_set_block_size(s->gpu, 32) == 0);
    for (int alg = FIRST; alg <= LAST; ++alg) {
        fails += REF_EXPECT(hipreduce_set_algorithm(s->gpu, (hipreduce_algorithm)alg) == 0);
        fails += run_checked(s, &c, alg, 32, s->d_x, HIPREDUCE_RESULT_HOST, "many blocks");
    }
    fails += input_unchanged(s, &c, s->d_x, LAST);
    fails += REF_EXPECT(hipreduce_set_block_size(s->gpu, 0) == 0);
    return fails;
}

/* The block-size call and the algorithm values, on both devices. */
static int arguments(study_ctx* s)
{
    static const unsigned bad[] = {1, 16, 31, 33, 48, 100, 2048, 4096, 0x80000000u, 0xffffffffu};
    int fails = 0;
    hipreduce_handle handles[2] = {s->gpu, s->cpu};
    for (int h = 0; h < 2; ++h) {
        fails += REF_EXPECT(hipreduce_set_block_size(handles[h], 0) == HIPREDUCE_STATUS_SUCCESS);
        for (size_t b = 0; b < NBLOCKS; ++b)
            fails += REF_EXPECT(hipreduce_set_block_size(handles[h], blocks[b]) == HIPREDUCE_STATUS_SUCCESS);
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; ++b)
            fails += REF_EXPECT(hipreduce_set_block_size(handles[h], bad[b]) == HIPREDUCE_STATUS_INVALID_BLOCK_SIZE);
        fails += REF_EXPECT(hipreduce_set_block_size(handles[h], 0) == HIPREDUCE_STATUS_SUCCESS);
        for (int alg = FIRST; alg <= LAST; ++alg) {
            hipreduce_algorithm got = HIPREDUCE_ALGORITHM_AUTO;
            fails += REF_EXPECT(hipreduce_set_algorithm(handles[h], (hipreduce_algorithm)alg) == 0);
            fails += REF_EXPECT(hipreduce_get_algorithm(handles[h], &got) == 0 && (int)got == alg);
        }
        fails += REF_EXPECT(hipreduce_set_algorithm(handles[h], (hipreduce_algorithm)(LAST + 1)) ==
                            HIPREDUCE_STATUS_INVALID_ALGORITHM);
        fails += REF_EXPECT(hipreduce_set_algorithm(handles[h], HIPREDUCE_ALGORITHM_AUTO) == 0);
    }
    fails += REF_EXPECT(hipreduce_set_block_size(NULL, 0) == HIPREDUCE_STATUS_INVALID_HANDLE);
    fails += REF_EXPECT(strcmp(hipreduce_status_string(HIPREDUCE_STATUS_INVALID_BLOCK_SIZE), "unknown status") != 0);
    return fails;
}

int main(int argc, char** argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* a test killed at its time limit still shows how far it got */
    const int count = gm_count();
    if (count == 0) {
        printf("gpu_algorithms: skipped: no GPU visible to the runtime (or a cpu-only build)\n");
        return SKIP;
    }
    study_ctx s = {0};
    s.sanitize = argc > 1 && strcmp(argv[1], "sanitize") == 0;
    const hipreduce_status st = hipreduce_create(&s.gpu, HIPREDUCE_DEVICE_GPU, 0);
    /* A GPU is visible: failing to open it is a failure, not a skip. */
    if (st != HIPREDUCE_STATUS_SUCCESS || hipreduce_create(&s.cpu, HIPREDUCE_DEVICE_CPU, 0) != 0) {
        fprintf(stderr, "FAIL: %d GPU(s) visible, but hipreduce_create(GPU 0): %s (%s)\n", count,
                hipreduce_status_string(st), hipreduce_create_error_message());
        return 1;
    }
    printf("gpu_algorithms: device 0: %s, algorithms %d..%d\n", gm_device_name(0), FIRST, LAST);
    /* The emu profile: the matrix up to 2^12 + 1 (several passes at every block size of the sweep),
     * smaller caller workspaces, no pass of 2^20 blocks; emu-smoke: the matrix to 2^10 + 1. */
    const enum test_profile emu = test_profile();
    const uint64_t matrix_max = emu == TEST_EMU_SMOKE ? (UINT64_C(1) << 10) + 1
                                : emu == TEST_EMU ? (UINT64_C(1) << 12) + 1
                                                  : (UINT64_C(1) << 20) + 1;
    const uint64_t large = emu ? 0 : (UINT64_C(1) << 25) + 3; /* bytes of many_blocks' input */
    const size_t room = (size_t)(matrix_max + 2) * 8 * 2 + 64 > large ? (size_t)(matrix_max + 2) * 8 * 2 + 64
                                                                       : (size_t)large;
    s.d_x = (unsigned char*)gm_alloc(room);
    s.d_result = (unsigned char*)gm_alloc(16);
    s.back = (unsigned char*)malloc(room + 4096);
    void* x = malloc(room);
    if (!s.d_x || !s.d_result || !s.back || !x) {
        fprintf(stderr, "FAIL: cannot allocate %zu bytes of test buffers\n", room);
        return 1;
    }
    int fails = arguments(&s);
    fails += ref_for_each_case(matrix_max, study_case, &s);
    if (!s.sanitize && emu != 1) {
        fails += workspace_contract(&s, HIPREDUCE_OP_SUM, HIPREDUCE_F32, emu ? 10007 : 100003, x);
        fails += workspace_contract(&s, HIPREDUCE_OP_MIN, HIPREDUCE_I8, emu ? 7001 : 70001, x);
        fails += workspace_contract(&s, HIPREDUCE_OP_SUM, HIPREDUCE_F64, 0, x);
        if (emu) printf("many blocks: not in the emu profile (2^20 blocks of 32 threads per pass)\n");
        else fails += many_blocks(&s, x);
    }
    gm_free(s.d_x);
    gm_free(s.d_result);
    free(s.back);
    free(x);
    hipreduce_destroy(s.gpu);
    hipreduce_destroy(s.cpu);
    printf("gpu_algorithms: %d failures\n", fails);
    return fails ? 1 : 0;
}
