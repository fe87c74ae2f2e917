/* gpu suite: the api matrix on GPU 0 for every algorithm, results to host and to device memory.
 * AUTO must give the cpu device's bits for every op/dtype/size (the reproducibility contract);
 * the other algorithms are exact for integers, min/max, signed zeros and exactly-representable
 * data, and within any order's error bound for float sums/products. Also: an input pointer offset
 * by one element, large sizes, the input left unchanged, set_stream(NULL), caller workspace.
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

static const hipreduce_algorithm algorithms[3] = {HIPREDUCE_ALGORITHM_AUTO, HIPREDUCE_ALGORITHM_MULTIPASS,
                                                  HIPREDUCE_ALGORITHM_TWO_PASS};
static const char* const algorithm_names[3] = {"auto", "multipass", "two_pass"};

typedef struct gpu_ctx {
    hipreduce_handle gpu, cpu;
    unsigned char* d_x;      /* device input: an aligned copy, then a copy one element off */
    unsigned char* d_result; /* device result slot, 16 bytes */
    unsigned char* back;     /* host copy of the device input, to check it is unchanged */
} gpu_ctx;

static int untouched_from(const unsigned char* r, size_t from)
{
    for (size_t i = from; i < 16; ++i)
        if (r[i] != SENTINEL) return 0;
    return 1;
}

/* Runs one reduction on the GPU handle; got receives 16 bytes (result, then the sentinel). */
static hipreduce_status run(gpu_ctx* g, const ref_case* c, const void* d_in, hipreduce_location loc,
                            unsigned char got[16])
{
    memset(got, SENTINEL, 16);
    if (loc == HIPREDUCE_RESULT_HOST) return hipreduce_reduce(g->gpu, c->op, c->dtype, d_in, c->n, c->dtype, got, loc);
    if (gm_memset(g->d_result, SENTINEL, 16) != 0) return HIPREDUCE_STATUS_RUNTIME_ERROR;
    const hipreduce_status st = hipreduce_reduce(g->gpu, c->op, c->dtype, d_in, c->n, c->dtype, g->d_result, loc);
    if (gm_sync() != 0 || gm_to_host(got, g->d_result, 16) != 0) return HIPREDUCE_STATUS_RUNTIME_ERROR;
    return st;
}

/* A GPU result against the cpu device's (already checked) result. */
static int check(gpu_ctx* g, const ref_case* c, int alg, const char* where, hipreduce_status st,
                 const unsigned char* got, const unsigned char* cpu)
{
    char what[96];
    snprintf(what, sizeof what, "gpu %s %s", algorithm_names[alg], where);
    if (st != HIPREDUCE_STATUS_SUCCESS) {
        ref_report("FAIL %s: %s %s n=%llu: status %s (%s)", what, ref_op_name(c->op), ref_dtype_name(c->dtype),
                   (unsigned long long)c->n, hipreduce_status_string(st), hipreduce_last_error_message(g->gpu));
        return 1;
    }
    if (!untouched_from(got, ref_size(c->dtype))) {
        ref_report("FAIL %s: %s %s n=%llu wrote past one element", what, ref_op_name(c->op),
                   ref_dtype_name(c->dtype), (unsigned long long)c->n);
        return 1;
    }
    const int float_arith = ref_is_float(c->dtype) && (c->op == HIPREDUCE_OP_SUM || c->op == HIPREDUCE_OP_PROD);
    if (alg == 0 || !float_arith || c->data != REF_DATA_RANDOM) { /* one right answer: the cpu's bits */
        if (ref_same_bits(c->dtype, got, cpu)) return 0;
        ref_check(what, c->op, c->dtype, c->data, c->x, c->n, got, alg == 0 ? REF_CANONICAL : REF_ANY_ORDER);
        ref_report("FAIL %s: %s %s data=%s n=%llu differs from the cpu device", what, ref_op_name(c->op),
                   ref_dtype_name(c->dtype), ref_data_name(c->data), (unsigned long long)c->n);
        return 1;
    }
    return ref_check(what, c->op, c->dtype, c->data, c->x, c->n, got, REF_ANY_ORDER);
}

static int gpu_case(void* vctx, const ref_case* c)
{
    gpu_ctx* g = (gpu_ctx*)vctx;
    const size_t size = ref_size(c->dtype), bytes = (size_t)c->n * size;
    unsigned char cpu[16], got[16];
    int fails = 0;
    memset(cpu, SENTINEL, sizeof cpu);
    if (hipreduce_reduce(g->cpu, c->op, c->dtype, c->x, c->n, c->dtype, cpu, HIPREDUCE_RESULT_HOST) != 0) return 1;
    fails += ref_check("cpu", c->op, c->dtype, c->data, c->x, c->n, cpu, REF_CANONICAL);
    /* The input at d_x (allocation-aligned) and again one element past a 16-byte boundary, so
     * that the loaders' unaligned path is taken for every dtype. */
    unsigned char* const offset = g->d_x + (bytes + 15) / 16 * 16 + 16 + size;
    if (gm_to_device(g->d_x, c->x, bytes) != 0 || gm_to_device(offset, c->x, bytes) != 0) {
        ref_report("FAIL: upload of %zu bytes", bytes);
        return fails + 1;
    }
    for (int a = 0; a < 3; ++a) {
        fails += REF_EXPECT(hipreduce_set_algorithm(g->gpu, algorithms[a]) == HIPREDUCE_STATUS_SUCCESS);
        hipreduce_status st = run(g, c, g->d_x, HIPREDUCE_RESULT_HOST, got);
        fails += check(g, c, a, "host result", st, got, cpu);
        st = run(g, c, g->d_x, HIPREDUCE_RESULT_DEVICE, got);
        fails += check(g, c, a, "device result", st, got, cpu);
        st = run(g, c, offset, HIPREDUCE_RESULT_HOST, got);
        fails += check(g, c, a, "offset input", st, got, cpu);
    }
    if (gm_to_host(g->back, g->d_x, bytes) != 0 || memcmp(g->back, c->x, bytes) != 0 ||
        gm_to_host(g->back, offset, bytes) != 0 || memcmp(g->back, c->x, bytes) != 0) {
        ref_report("FAIL gpu: %s %s n=%llu: device input changed", ref_op_name(c->op), ref_dtype_name(c->dtype),
                   (unsigned long long)c->n);
        ++fails;
    }
    return fails;
}

/* Caller workspace: sized by the query, garbage-filled, used twice (it must be left reusable);
 * one byte short is WORKSPACE_TOO_SMALL and writes nothing. */
static int caller_workspace(gpu_ctx* g, hipreduce_op op, hipreduce_dtype dtype, uint64_t n, void* x)
{
    int fails = 0;
    ref_case c = {op, dtype, REF_DATA_RANDOM, n, 7, x};
    unsigned char cpu[16], got[16];
    ref_fill(op, dtype, c.data, n, c.seed, x);
    fails += REF_EXPECT(hipreduce_reduce(g->cpu, op, dtype, x, n, dtype, cpu, HIPREDUCE_RESULT_HOST) == 0);
    fails += REF_EXPECT(gm_to_device(g->d_x, x, (size_t)n * ref_size(dtype)) == 0);
    for (int a = 0; a < 3; ++a) {
        size_t need = 0;
        fails += REF_EXPECT(hipreduce_set_algorithm(g->gpu, algorithms[a]) == 0);
        fails += REF_EXPECT(hipreduce_workspace_size(g->gpu, op, dtype, n, dtype, &need) == 0);
        unsigned char* ws = (unsigned char*)gm_alloc(need);
        if (!ws) return fails + REF_EXPECT(ws != NULL);
        fails += REF_EXPECT(gm_memset(ws, 0xA7, need ? need : 1) == 0); /* garbage: it needs no initialisation */
        fails += REF_EXPECT(hipreduce_set_workspace(g->gpu, ws, need) == 0);
        for (int k = 0; k < 2; ++k) {
            fails += check(g, &c, a, "caller workspace", run(g, &c, g->d_x, HIPREDUCE_RESULT_HOST, got), got, cpu);
            fails += check(g, &c, a, "caller workspace", run(g, &c, g->d_x, HIPREDUCE_RESULT_DEVICE, got), got, cpu);
        }
        if (need > 0) {
            fails += REF_EXPECT(hipreduce_set_workspace(g->gpu, ws, need - 1) == 0);
            fails += REF_EXPECT(run(g, &c, g->d_x, HIPREDUCE_RESULT_HOST, got) == HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL);
            fails += REF_EXPECT(untouched_from(got, 0));
        }
        fails += REF_EXPECT(hipreduce_set_workspace(g->gpu, NULL, 0) == 0);
        gm_free(ws);
        fails += check(g, &c, a, "own workspace again", run(g, &c, g->d_x, HIPREDUCE_RESULT_HOST, got), got, cpu);
    }
    fails += REF_EXPECT(hipreduce_set_algorithm(g->gpu, HIPREDUCE_ALGORITHM_AUTO) == 0);
    return fails;
}

/* Arguments that only a GPU handle can get right or wrong. */
static int gpu_arguments(gpu_ctx* g)
{
    int fails = 0;
    hipreduce_handle other = NULL;
    unsigned char r[16];
    fails += REF_EXPECT(hipreduce_create(&other, HIPREDUCE_DEVICE_GPU, gm_count()) == HIPREDUCE_STATUS_INVALID_DEVICE);
    fails += REF_EXPECT(hipreduce_set_stream(g->gpu, NULL) == HIPREDUCE_STATUS_SUCCESS);
    memset(r, SENTINEL, sizeof r);
    fails += REF_EXPECT(hipreduce_reduce(g->gpu, HIPREDUCE_OP_SUM, HIPREDUCE_F32, g->d_x, 4, HIPREDUCE_F32, r, (hipreduce_location)2) ==
                        HIPREDUCE_STATUS_INVALID_LOCATION);
    fails += REF_EXPECT(hipreduce_reduce(g->gpu, HIPREDUCE_OP_XOR, HIPREDUCE_F64, g->d_x, 4, HIPREDUCE_F64, r, HIPREDUCE_RESULT_DEVICE) ==
                        HIPREDUCE_STATUS_OP_DTYPE_MISMATCH);
    fails += REF_EXPECT(hipreduce_reduce(g->gpu, HIPREDUCE_OP_SUM, HIPREDUCE_F32, NULL, 4, HIPREDUCE_F32, r, HIPREDUCE_RESULT_HOST) ==
                        HIPREDUCE_STATUS_INVALID_POINTER);
    fails += REF_EXPECT(hipreduce_reduce(g->gpu, HIPREDUCE_OP_SUM, HIPREDUCE_F32, g->d_x, UINT64_MAX, HIPREDUCE_F32, r,
                                         HIPREDUCE_RESULT_DEVICE) == HIPREDUCE_STATUS_SIZE_OVERFLOW);
    fails += REF_EXPECT(untouched_from(r, 0));
    size_t bytes = 99;
    fails += REF_EXPECT(hipreduce_workspace_size(g->gpu, HIPREDUCE_OP_AND, HIPREDUCE_F32, 10, HIPREDUCE_F32, &bytes) ==
                        HIPREDUCE_STATUS_OP_DTYPE_MISMATCH && bytes == 99);
    fails += REF_EXPECT(hipreduce_set_workspace(g->gpu, NULL, 64) == HIPREDUCE_STATUS_INVALID_POINTER);
    float zero = 1;
    fails += REF_EXPECT(hipreduce_reduce(g->gpu, HIPREDUCE_OP_SUM, HIPREDUCE_F32, NULL, 0, HIPREDUCE_F32, &zero, 0) == 0 && zero == 0);
    fails += REF_EXPECT(strcmp(hipreduce_last_error_message(g->gpu), "") == 0);
    return fails;
}

/* Large inputs: f32 at 2^24 + 1 (three tile levels) and 2^27 + 3, u8 and i32 sums at 2^27 + 3. */
static int large(gpu_ctx* g, void* x)
{
    const struct { hipreduce_op op; hipreduce_dtype dtype; ref_data data; uint64_t n; } cases[] = {
        {HIPREDUCE_OP_SUM, HIPREDUCE_F32, REF_DATA_RANDOM, (1u << 24) + 1},
        {HIPREDUCE_OP_SUM, HIPREDUCE_F32, REF_DATA_EXACT, (1u << 24) + 1},
        {HIPREDUCE_OP_PROD, HIPREDUCE_F32, REF_DATA_RANDOM, (1u << 24) + 1},
        {HIPREDUCE_OP_SUM, HIPREDUCE_F32, REF_DATA_RANDOM, (1u << 27) + 3},
        {HIPREDUCE_OP_SUM, HIPREDUCE_F32, REF_DATA_EXACT, (1u << 27) + 3},
        {HIPREDUCE_OP_PROD, HIPREDUCE_F32, REF_DATA_RANDOM, (1u << 27) + 3},
        {HIPREDUCE_OP_MIN, HIPREDUCE_F32, REF_DATA_RANDOM, (1u << 27) + 3},
        {HIPREDUCE_OP_MAX, HIPREDUCE_F32, REF_DATA_RANDOM, (1u << 27) + 3},
        {HIPREDUCE_OP_SUM, HIPREDUCE_U8, REF_DATA_RANDOM, (1u << 27) + 3},
        {HIPREDUCE_OP_SUM, HIPREDUCE_I32, REF_DATA_RANDOM, (1u << 27) + 3},
    };
    int fails = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        ref_case c = {cases[i].op, cases[i].dtype, cases[i].data, cases[i].n, 1000 + i, x};
        ref_fill(c.op, c.dtype, c.data, c.n, c.seed, x);
        fails += gpu_case(g, &c);
    }
    return fails;
}

/* Uploads case c's input to d_in and returns the cpu device's result in cpu[16]. */
static int prepare(gpu_ctx* g, ref_case* c, void* d_in, unsigned char cpu[16])
{
    int fails = 0;
    ref_fill(c->op, c->dtype, c->data, c->n, c->seed, (void*)c->x);
    memset(cpu, SENTINEL, 16);
    fails += REF_EXPECT(hipreduce_reduce(g->cpu, c->op, c->dtype, c->x, c->n, c->dtype, cpu, HIPREDUCE_RESULT_HOST) == 0);
    fails += REF_EXPECT(gm_to_device(d_in, c->x, (size_t)c->n * ref_size(c->dtype)) == 0);
    return fails;
}

/* A caller workspace at byte offsets 1..15 from an aligned address, filled with garbage before
 * hipreduce_set_workspace, for every dtype at n = tile^2 + 1: level 1 then has a full group, which
 * the finishing block reads with 16-byte loads. Then many calls of different sizes on one garbage-
 * filled workspace. The default algorithm must give the cpu device's bits every time. */
static int misaligned_workspace(gpu_ctx* g, void* x, int quick)
{
    int fails = 0;
    unsigned char cpu[16], got[16];
    fails += REF_EXPECT(hipreduce_set_algorithm(g->gpu, HIPREDUCE_ALGORITHM_AUTO) == 0);
    for (size_t d = 0; d < REF_NDTYPES; ++d) {
        const uint64_t t = ref_tile_items(ref_dtypes[d]);
        if (quick && t > 4096) continue; /* under the sanitizers: the dtypes whose groups are 16-byte loads */
        ref_case c = {ref_is_float(ref_dtypes[d]) ? HIPREDUCE_OP_SUM : HIPREDUCE_OP_XOR, ref_dtypes[d],
                      REF_DATA_RANDOM, t * t + 1, 300 + d, x};
        fails += prepare(g, &c, g->d_x, cpu);
        size_t need = 0;
        fails += REF_EXPECT(hipreduce_workspace_size(g->gpu, c.op, c.dtype, c.n, c.dtype, &need) == 0);
        unsigned char* ws = (unsigned char*)gm_alloc(need + 16);
        if (!ws) return fails + REF_EXPECT(ws != NULL);
        for (int offset = 1; offset < 16; ++offset) {
            fails += REF_EXPECT(gm_memset(ws, 0x40 + offset, need + 16) == 0);
            fails += REF_EXPECT(hipreduce_set_workspace(g->gpu, ws + offset, need) == 0);
            char where[64];
            snprintf(where, sizeof where, "caller workspace at +%d", offset);
            fails += check(g, &c, 0, where, run(g, &c, g->d_x, HIPREDUCE_RESULT_HOST, got), got, cpu);
            fails += check(g, &c, 0, where, run(g, &c, g->d_x, HIPREDUCE_RESULT_DEVICE, got), got, cpu);
        }
        fails += REF_EXPECT(hipreduce_set_workspace(g->gpu, NULL, 0) == 0);
        gm_free(ws);
    }
    /* One garbage-filled workspace, sizes falling then rising: counters must stay zero between calls. */
    const hipreduce_dtype dtypes[2] = {HIPREDUCE_F32, HIPREDUCE_I8};
    for (int d = 0; d < 2; ++d) {
        uint64_t sizes[128];
        const size_t count = ref_sizes(dtypes[d], quick ? (UINT64_C(1) << 16) + 1 : (UINT64_C(1) << 22) + 1, sizes, 128);
        size_t need = 0;
        fails += REF_EXPECT(hipreduce_workspace_size(g->gpu, HIPREDUCE_OP_SUM, dtypes[d], sizes[count - 1], dtypes[d], &need) == 0);
        unsigned char* ws = (unsigned char*)gm_alloc(need + 8);
        if (!ws) return fails + REF_EXPECT(ws != NULL);
        fails += REF_EXPECT(gm_memset(ws, 0xff, need + 8) == 0);
        fails += REF_EXPECT(hipreduce_set_workspace(g->gpu, ws + 8, need) == 0);
        for (size_t k = 0; k < 2 * count; ++k) {
            const uint64_t n = sizes[k < count ? count - 1 - k : k - count];
            ref_case c = {HIPREDUCE_OP_SUM, dtypes[d], REF_DATA_RANDOM, n, 400 + k, x};
            fails += prepare(g, &c, g->d_x, cpu);
            fails += check(g, &c, 0, "garbage workspace, many sizes", run(g, &c, g->d_x, HIPREDUCE_RESULT_DEVICE, got),
                           got, cpu);
        }
        fails += REF_EXPECT(hipreduce_set_workspace(g->gpu, NULL, 0) == 0);
        gm_free(ws);
    }
    return fails;
}

typedef struct capture_arg {
    gpu_ctx* g;
    const ref_case* c;
} capture_arg;

static int capture_call(void* arg)
{
    const capture_arg* a = (const capture_arg*)arg;
    return hipreduce_reduce(a->g->gpu, a->c->op, a->c->dtype, a->g->d_x, a->c->n, a->c->dtype, a->g->d_result,
                            HIPREDUCE_RESULT_DEVICE) != HIPREDUCE_STATUS_SUCCESS;
}

/* A call captured into a graph on a non-default stream is one kernel node, with a caller
 * workspace (set before the capture) and with the handle's own (after a first call grew it). */
static int graph_capture(gpu_ctx* g, void* x)
{
    int fails = 0;
    unsigned char cpu[16], got[16];
    ref_case c = {HIPREDUCE_OP_SUM, HIPREDUCE_F32, REF_DATA_RANDOM, (UINT64_C(1) << 20) + 1, 500, x};
    fails += prepare(g, &c, g->d_x, cpu);
    void* stream = gm_stream_create();
    if (!stream) return fails + REF_EXPECT(stream != NULL);
    fails += REF_EXPECT(hipreduce_set_algorithm(g->gpu, HIPREDUCE_ALGORITHM_AUTO) == 0);
    fails += REF_EXPECT(hipreduce_set_stream(g->gpu, stream) == 0);
    size_t need = 0;
    fails += REF_EXPECT(hipreduce_workspace_size(g->gpu, c.op, c.dtype, c.n, c.dtype, &need) == 0);
    unsigned char* ws = (unsigned char*)gm_alloc(need);
    fails += REF_EXPECT(ws != NULL && gm_memset(ws, 0x77, need) == 0);
    for (int own = 0; own < 2 && ws; ++own) {
        if (own) { /* the handle's workspace, grown by an ordinary call first */
            fails += REF_EXPECT(hipreduce_set_workspace(g->gpu, NULL, 0) == 0);
            fails += check(g, &c, 0, "before capture", run(g, &c, g->d_x, HIPREDUCE_RESULT_HOST, got), got, cpu);
        } else {
            fails += REF_EXPECT(hipreduce_set_workspace(g->gpu, ws, need) == 0);
        }
        fails += REF_EXPECT(gm_memset(g->d_result, SENTINEL, 16) == 0 && gm_sync() == 0);
        capture_arg arg = {g, &c};
        int kernels = -1;
        const int nodes = gm_capture(stream, capture_call, &arg, &kernels);
        if (nodes == -2) {
            printf("graph capture: not available with this runtime, not checked\n");
            break;
        }
        if (nodes != 1 || kernels != 1) {
            ref_report("FAIL graph capture (%s workspace): %d nodes, %d kernels; want 1 kernel node",
                       own ? "own" : "caller", nodes, kernels);
            ++fails;
        }
        memset(got, SENTINEL, sizeof got);
        fails += REF_EXPECT(gm_to_host(got, g->d_result, 16) == 0);
        fails += check(g, &c, 0, own ? "captured graph, own workspace" : "captured graph, caller workspace",
                       HIPREDUCE_STATUS_SUCCESS, got, cpu);
    }
    fails += REF_EXPECT(hipreduce_set_workspace(g->gpu, NULL, 0) == 0);
    fails += REF_EXPECT(hipreduce_set_stream(g->gpu, NULL) == 0 && gm_sync() == 0);
    gm_free(ws);
    gm_stream_destroy(stream);
    return fails;
}

/* Two streams alternating on one handle with work in flight (device results, no synchronisation
 * between calls), two inputs so that shared partials would show: every result exact. Both the
 * handle's own workspace and a garbage-filled caller workspace. */
static int alternating_streams(gpu_ctx* g, void* x)
{
    enum { CALLS = 48 };
    int fails = 0;
    const uint64_t n = (UINT64_C(1) << 24) + 1;
    const size_t stride = ((size_t)n * 4 + 255) / 256 * 256;
    unsigned char cpu[2][16], got[16];
    ref_case c[2] = {{HIPREDUCE_OP_SUM, HIPREDUCE_F32, REF_DATA_RANDOM, n, 600, x},
                     {HIPREDUCE_OP_SUM, HIPREDUCE_F32, REF_DATA_RANDOM, n, 601, x}};
    fails += prepare(g, &c[0], g->d_x, cpu[0]);
    fails += prepare(g, &c[1], g->d_x + stride, cpu[1]);
    void* streams[2] = {gm_stream_create(), gm_stream_create()};
    unsigned char* results = (unsigned char*)gm_alloc(CALLS * 16);
    size_t need = 0;
    fails += REF_EXPECT(hipreduce_workspace_size(g->gpu, HIPREDUCE_OP_SUM, HIPREDUCE_F32, n, HIPREDUCE_F32, &need) == 0);
    unsigned char* ws = (unsigned char*)gm_alloc(need);
    if (!streams[0] || !streams[1] || !results || !ws) return fails + REF_EXPECT(!"stream or buffer allocation");
    fails += REF_EXPECT(hipreduce_set_algorithm(g->gpu, HIPREDUCE_ALGORITHM_AUTO) == 0);
    for (int caller = 0; caller < 2; ++caller) {
        if (caller) {
            fails += REF_EXPECT(gm_memset(ws, 0x3c, need) == 0 && gm_sync() == 0);
            fails += REF_EXPECT(hipreduce_set_workspace(g->gpu, ws, need) == 0);
        }
        fails += REF_EXPECT(gm_memset(results, SENTINEL, CALLS * 16) == 0 && gm_sync() == 0);
        for (int i = 0; i < CALLS; ++i) {
            fails += REF_EXPECT(hipreduce_set_stream(g->gpu, streams[i % 2]) == 0);
            const int which = (i / 2) % 2;
            fails += REF_EXPECT(hipreduce_reduce(g->gpu, HIPREDUCE_OP_SUM, HIPREDUCE_F32, g->d_x + which * stride, n, HIPREDUCE_F32,
                                                 results + 16 * i, HIPREDUCE_RESULT_DEVICE) == 0);
        }
        fails += REF_EXPECT(gm_sync() == 0);
        for (int i = 0; i < CALLS; ++i) {
            fails += REF_EXPECT(gm_to_host(got, results + 16 * i, 16) == 0);
            const int which = (i / 2) % 2;
            if (!ref_same_bits(HIPREDUCE_F32, got, cpu[which]) || !untouched_from(got, 4)) {
                ref_report("FAIL alternating streams (%s workspace), call %d: not the cpu device's bits",
                           caller ? "caller" : "own", i);
                ++fails;
            }
        }
        fails += REF_EXPECT(hipreduce_set_stream(g->gpu, NULL) == 0);
    }
    fails += REF_EXPECT(hipreduce_set_workspace(g->gpu, NULL, 0) == 0 && gm_sync() == 0);
    gm_free(ws);
    gm_free(results);
    gm_stream_destroy(streams[0]);
    gm_stream_destroy(streams[1]);
    return fails;
}

/* For the emu profile, whose matrix stops near one tile: the smallest sizes at which the default
 * algorithm's tree has 4 levels and two groups of tiles at level 1 (f64 and i64 at 2048^2 + 1, the
 * 8-byte dtypes' tile squared plus one), and 3 levels with a partial group (f32: 257 tiles of 4096;
 * u8 and i16: 8 and 4 tiles). */
static int tree_levels(gpu_ctx* g, void* x)
{
    const struct { hipreduce_op op; hipreduce_dtype dtype; ref_data data; uint64_t n; } cases[] = {
        {HIPREDUCE_OP_SUM, HIPREDUCE_F64, REF_DATA_RANDOM, 2048 * 2048 + 1},
        {HIPREDUCE_OP_MAX, HIPREDUCE_I64, REF_DATA_RANDOM, 2048 * 2048 + 1},
        {HIPREDUCE_OP_SUM, HIPREDUCE_F32, REF_DATA_RANDOM, 1024 * 1025 + 1},
        {HIPREDUCE_OP_MIN, HIPREDUCE_F32, REF_DATA_RANDOM, 1024 * 1025 + 1},
        {HIPREDUCE_OP_SUM, HIPREDUCE_U8, REF_DATA_RANDOM, 16384 * 7 + 5},
        {HIPREDUCE_OP_XOR, HIPREDUCE_I16, REF_DATA_RANDOM, 8192 * 3 + 1},
    };
    int fails = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        ref_case c = {cases[i].op, cases[i].dtype, cases[i].data, cases[i].n, 2000 + i, x};
        ref_fill(c.op, c.dtype, c.data, c.n, c.seed, x);
        fails += gpu_case(g, &c);
    }
    printf("tree levels: %zu cases, %d failures\n", sizeof cases / sizeof cases[0], fails);
    return fails;
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* a test killed at its time limit still shows how far it got */
    const int count = gm_count();
    if (count == 0) {
        printf("gpu: skipped: no GPU visible to the runtime (or a cpu-only build)\n");
        return SKIP;
    }
    gpu_ctx g = {0};
    hipreduce_status st = hipreduce_create(&g.gpu, HIPREDUCE_DEVICE_GPU, 0);
    /* A GPU is visible: failing to open it is a failure, not a skip. */
    if (st != HIPREDUCE_STATUS_SUCCESS || hipreduce_create(&g.cpu, HIPREDUCE_DEVICE_CPU, 0) != 0) {
        fprintf(stderr, "FAIL: %d GPU(s) visible, but hipreduce_create(GPU 0): %s (%s)\n", count,
                hipreduce_status_string(st), hipreduce_create_error_message());
        return 1;
    }
    printf("gpu: device 0: %s\n", gm_device_name(0));
    /* HIPREDUCE_SANITIZE_QUICK (test/sanitize.sh): a smaller matrix, no large inputs. The emu
     * profile: the same matrix, then tree_levels() instead of the large inputs; emu-smoke: the
     * matrix to 2^10 + 1 and tree_levels(). */
    const int quick = getenv("HIPREDUCE_SANITIZE_QUICK") != NULL;
    const enum test_profile emu = test_profile();
    const uint64_t matrix_max = emu == TEST_EMU_SMOKE ? (UINT64_C(1) << 10) + 1
                                : quick || emu ? (UINT64_C(1) << 14) + 1 : (UINT64_C(1) << 22) + 1;
    const uint64_t large_max = emu ? (UINT64_C(1) << 23) + 8 : (UINT64_C(1) << 27) + 3; /* 4-byte elements */
    const size_t room = (size_t)(large_max + 2) * 4 * 2 + 64; /* two copies of the largest input */
    g.d_x = (unsigned char*)gm_alloc(room);
    g.d_result = (unsigned char*)gm_alloc(16);
    g.back = (unsigned char*)malloc(room);
    void* x = malloc(room);
    if (!g.d_x || !g.d_result || !g.back || !x) {
        fprintf(stderr, "FAIL: cannot allocate %zu bytes of test buffers\n", room);
        return 1;
    }
    int fails = 0;
    /* HIPREDUCE_TEST_HARDENING_ONLY: only the argument, workspace and stream checks. */
    const int hardening_only = getenv("HIPREDUCE_TEST_HARDENING_ONLY") != NULL;
    fails += gpu_arguments(&g);
    if (!hardening_only) fails += ref_for_each_case(matrix_max, gpu_case, &g);
    fails += caller_workspace(&g, HIPREDUCE_OP_SUM, HIPREDUCE_F32, (1u << 20) + 1, x);
    fails += caller_workspace(&g, HIPREDUCE_OP_XOR, HIPREDUCE_U16, 100, x);
    if (emu == TEST_EMU_SMOKE) printf("misaligned workspaces: not in the emu-smoke profile\n");
    else fails += misaligned_workspace(&g, x, quick || emu);
    fails += graph_capture(&g, x);
    if (emu) printf("alternating streams: not in the emu profile (2 x 48 calls at 2^24 + 1)\n");
    else fails += alternating_streams(&g, x);
    if (emu) {
        if (emu == TEST_EMU) fails += caller_workspace(&g, HIPREDUCE_OP_SUM, HIPREDUCE_F64, (1u << 22) + 3, x);
        if (!hardening_only) fails += tree_levels(&g, x);
    } else if (!quick && !hardening_only) {
        fails += caller_workspace(&g, HIPREDUCE_OP_MAX, HIPREDUCE_I8, (1u << 24) + 5, x);
        fails += caller_workspace(&g, HIPREDUCE_OP_SUM, HIPREDUCE_F64, (1u << 22) + 3, x);
        fails += large(&g, x);
    }
    gm_free(g.d_x);
    gm_free(g.d_result);
    free(g.back);
    free(x);
    hipreduce_destroy(g.gpu);
    hipreduce_destroy(g.cpu);
    printf("gpu: %d failures\n", fails);
    return fails ? 1 : 0;
}
