/* The segments suite's workspace and device-offsets sections (segments_run.h):
 *  - on each device, the size query of each call; a caller workspace of exactly that size gives
 *    the handle-owned workspace's results, one byte less WORKSPACE_TOO_SMALL with nothing
 *    written; a segments query (a function of num_segments only) suffices for any lengths;
 *  - on the GPU, device offsets that decrease or pass offsets[num_segments]: segment s is
 *    [min(o[s], e), e) with e = min(o[s+1], o[num_segments]), empty where e lies below its start,
 *    and nothing outside the input (allocated to exactly o[num_segments] elements) is read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_memory.h"
#include "reference.h"
#include "segments_run.h"

enum { RESULTS = 300 };

typedef struct ws_case {
    hipreduce_op op;
    hipreduce_dtype in, out;
    int segments;
    uint64_t outer, extent, inner;
} ws_case;

/* Offsets of count segments: all of length 3, or (giant) one of 3 tiles + 1 among them. */
static void ws_offsets(uint64_t* o, uint64_t count, uint64_t tile, int giant)
{
    o[0] = 0;
    for (uint64_t s = 0; s < count; ++s) o[s + 1] = o[s] + (giant && s == count / 2 ? 3 * tile + 1 : 3);
}

/* Results (and indices) of one call with the handle's own workspace, then exactly the queried
 * size, then one byte less. Input, offsets in h's memory; results on the host. */
static int ws_run(hipreduce_handle h, int gpu, const ws_case* w, const void* x, const sg_shape* s,
                  size_t bytes)
{
    unsigned char own[RESULTS * 8 + SG_GUARD], with[RESULTS * 8 + SG_GUARD], small[RESULTS * 8 + SG_GUARD];
    int64_t own_i[RESULTS + SG_GUARD], with_i[RESULTS + SG_GUARD], small_i[RESULTS + SG_GUARD];
    const int arg = tr_call(w->op) == 1;
    memset(own, SG_SENTINEL, sizeof own), memset(with, SG_SENTINEL, sizeof with), memset(small, SG_SENTINEL, sizeof small);
    for (int i = 0; i < RESULTS + SG_GUARD; ++i) own_i[i] = with_i[i] = small_i[i] = SG_INDEX_SENTINEL;
    const hipreduce_location host = HIPREDUCE_RESULT_HOST;
    const hipreduce_status st_own = sg_call(h, w->op, w->in, w->out, x, s, s->offsets, own, arg ? own_i : NULL, host);
    /* A non-NULL workspace even of 0 bytes: NULL would return to the handle's own. */
    void* ws = gpu ? gm_alloc(bytes) : malloc(bytes ? bytes : 1);
    hipreduce_status st_with = HIPREDUCE_STATUS_RUNTIME_ERROR, st_small = HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL;
    if (ws) {
        if (bytes && hipreduce_set_workspace(h, ws, bytes - 1) == HIPREDUCE_STATUS_SUCCESS)
            st_small = sg_call(h, w->op, w->in, w->out, x, s, s->offsets, small, arg ? small_i : NULL, host);
        if (hipreduce_set_workspace(h, ws, bytes) == HIPREDUCE_STATUS_SUCCESS)
            st_with = sg_call(h, w->op, w->in, w->out, x, s, s->offsets, with, arg ? with_i : NULL, host);
        hipreduce_set_workspace(h, NULL, 0);
    }
    if (gpu) gm_sync(), gm_free(ws);
    else free(ws);
    int untouched = 1;
    for (size_t i = 0; i < sizeof small; ++i) untouched &= small[i] == SG_SENTINEL;
    for (int i = 0; i < RESULTS + SG_GUARD; ++i) untouched &= small_i[i] == SG_INDEX_SENTINEL;
    const int same = memcmp(own, with, sizeof own) == 0 && memcmp(own_i, with_i, sizeof own_i) == 0;
    if (st_own == HIPREDUCE_STATUS_SUCCESS && st_with == HIPREDUCE_STATUS_SUCCESS &&
        st_small == HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL && untouched && same)
        return 0;
    ref_report("FAIL workspace (%s): %s %s->%s %s results=%llu: query %zu bytes, own %s, caller's %s, one byte short %s%s, "
               "results %s", gpu ? "gpu" : "cpu", tr_op_name(w->op), tr_dtype_name(w->in), tr_dtype_name(w->out),
               s->segments ? "segments" : "axis", (unsigned long long)sg_results(s), bytes,
               hipreduce_status_string(st_own), hipreduce_status_string(st_with), hipreduce_status_string(st_small),
               untouched ? "" : " (and wrote)", same ? "agree" : "differ");
    return 1;
}

static int workspace_on(sg_ctx* c, hipreduce_handle h, int gpu, unsigned char* x, uint64_t* offsets)
{
    static const ws_case cases[] = {
        {HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F32, 0, 300, 4097, 1},
        {HIPREDUCE_OP_SUM, HIPREDUCE_F16, HIPREDUCE_F32, 0, 3, 257, 64},
        {HIPREDUCE_OP_ARGMAX, HIPREDUCE_I8, HIPREDUCE_I8, 0, 5, 3 * 16384 + 5, 1},
        {HIPREDUCE_OP_NRM2, HIPREDUCE_F64, HIPREDUCE_F64, 0, 1, 256 * 256 + 1, 3},
        {HIPREDUCE_OP_ARGMIN, HIPREDUCE_BF16, HIPREDUCE_BF16, 0, 2, 300, 100},
        {HIPREDUCE_OP_SUM, HIPREDUCE_I8, HIPREDUCE_I64, 0, 1, 70000, 1},
        {HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F64, 1, 0, 0, 0},
        {HIPREDUCE_OP_NRM2, HIPREDUCE_F64, HIPREDUCE_F64, 1, 0, 0, 0},
        {HIPREDUCE_OP_ARGMIN, HIPREDUCE_U64, HIPREDUCE_U64, 1, 0, 0, 0},
        {HIPREDUCE_OP_MAX, HIPREDUCE_F16, HIPREDUCE_F16, 1, 0, 0, 0},
    };
    int fails = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        const ws_case* w = &cases[k];
        const uint64_t tile = tr_tile_items(w->in);
        for (int giant = 0; giant < 1 + w->segments; ++giant) {
            sg_shape s = {w->segments, w->outer, w->extent, w->inner, 257, offsets, 0};
            if (w->segments) ws_offsets(offsets, s.num_segments, tile, giant);
            const uint64_t n = sg_inputs(&s);
            for (uint64_t i = 0; i < n; ++i) { /* small values: every op's result stays finite */
                if (tr_is_float(w->in)) tr_store_float(w->in, x, i, (double)(i * 7 % 101) / 16 - 3);
                else tr_store_bits(w->in, x, i, (i * 2654435761u) >> 5);
            }
            const void* px = x;
            const uint64_t* po = offsets;
            if (gpu) {
                if (n * tr_size(w->in) > c->room || gm_to_device(c->d_x, x, (size_t)n * tr_size(w->in)) != 0 ||
                    gm_to_device(c->d_offsets, offsets, (size_t)(s.num_segments + 1) * 8) != 0)
                    return fails + 1;
                px = c->d_x;
                po = c->d_offsets;
            }
            size_t bytes = 0;
            const hipreduce_status st = sg_query(h, w->op, w->in, w->out, &s, &bytes);
            if (st != HIPREDUCE_STATUS_SUCCESS) {
                ref_report("FAIL workspace (%s): %s %s->%s: query %s", gpu ? "gpu" : "cpu", tr_op_name(w->op),
                           tr_dtype_name(w->in), tr_dtype_name(w->out), hipreduce_status_string(st));
                ++fails;
                continue;
            }
            s.offsets = po;
            fails += ws_run(h, gpu, w, px, &s, bytes);
            if (!gpu) { /* the data of this section, checked like the matrix's */
                s.offsets = offsets;
                fails += sg_case(c, "workspace data", w->op, w->in, w->out, x, &s);
            }
        }
    }
    return fails;
}

int sg_workspace(sg_ctx* c)
{
    const size_t room = (size_t)300 * 4097 * 4 + 64; /* the largest case: 300 rows of 4097 f32 */
    unsigned char* x = (unsigned char*)malloc(room);
    uint64_t* offsets = (uint64_t*)malloc(258 * sizeof *offsets);
    int fails = x && offsets ? 0 : 1;
    if (!fails) fails += workspace_on(c, c->cpu, 0, x, offsets);
    if (!fails && c->gpu) fails += workspace_on(c, c->gpu, 1, x, offsets);
    free(x);
    free(offsets);
    printf("workspace: %d failures\n", fails);
    return fails;
}

/* ---- device offsets outside the contract (GPU) ---- */

static int clamped(sg_ctx* c, const char* what, hipreduce_op op, hipreduce_dtype in, const uint64_t* o, uint64_t count)
{
    const uint64_t end = o[count], size = tr_size(in);
    const int arg = tr_call(op) == 1;
    unsigned char x[128 * 8], want[16 * 8], got[16 * 8 + SG_GUARD];
    int64_t want_i[16], got_i[16 + SG_GUARD];
    for (uint64_t i = 0; i < end; ++i) tr_store_float(in, x, i, (double)((i * 37) % 23) - 11);
    /* The documented segments, each reduced by hipreduce_reduce / _argreduce on the cpu device. */
    for (uint64_t s = 0; s < count; ++s) {
        const uint64_t e = o[s + 1] < end ? o[s + 1] : end, start = o[s] < e ? o[s] : e;
        const hipreduce_status st =
            arg ? hipreduce_argreduce(c->cpu, op, in, x + start * size, e - start, want + s * size, &want_i[s],
                                      HIPREDUCE_RESULT_HOST)
                : hipreduce_reduce(c->cpu, op, in, x + start * size, e - start, in, want + s * size, HIPREDUCE_RESULT_HOST);
        if (st != HIPREDUCE_STATUS_SUCCESS) return 1;
    }
    /* Input and offsets in allocations of exactly their size (the emulator's are checked by ASan). */
    unsigned char* d_x = (unsigned char*)gm_alloc((size_t)end * size);
    uint64_t* d_o = (uint64_t*)gm_alloc((size_t)(count + 1) * 8);
    int fails = 0;
    if (!d_x || !d_o || (end && gm_to_device(d_x, x, (size_t)end * size) != 0) ||
        gm_to_device(d_o, o, (size_t)(count + 1) * 8) != 0)
        fails = 1;
    const sg_shape shape = {1, 0, 0, 0, count, d_o, 0};
    for (int loc = 0; loc < 2 && !fails; ++loc) {
        const int dev = loc == HIPREDUCE_RESULT_DEVICE;
        memset(got, SG_SENTINEL, sizeof got);
        for (int i = 0; i < 16 + SG_GUARD; ++i) got_i[i] = SG_INDEX_SENTINEL;
        if (dev && (gm_memset(c->d_out, SG_SENTINEL, sizeof got) != 0 || gm_memset(c->d_index, 0x5a, sizeof got_i) != 0))
            return fails + 1;
        hipreduce_status st = sg_call(c->gpu, op, in, in, d_x, &shape, d_o, dev ? (void*)c->d_out : got,
                                      arg ? (dev ? c->d_index : got_i) : NULL, (hipreduce_location)loc);
        if (dev && (gm_sync() != 0 || gm_to_host(got, c->d_out, sizeof got) != 0 || gm_to_host(got_i, c->d_index, sizeof got_i) != 0))
            st = HIPREDUCE_STATUS_RUNTIME_ERROR;
        int bad = st != HIPREDUCE_STATUS_SUCCESS || memcmp(got, want, (size_t)count * size) != 0;
        for (uint64_t s = 0; s < count && arg; ++s) bad |= got_i[s] != want_i[s];
        for (size_t i = (size_t)count * size; i < sizeof got; ++i) bad |= got[i] != SG_SENTINEL;
        for (size_t i = arg ? (size_t)count : 0; i < 16 + SG_GUARD; ++i) bad |= got_i[i] != SG_INDEX_SENTINEL;
        if (bad) {
            ref_report("FAIL device offsets %s (%s results): %s %s: %s, or results other than the clamped segments'",
                       what, dev ? "device" : "host", tr_op_name(op), tr_dtype_name(in), hipreduce_status_string(st));
            ++fails;
        }
    }
    gm_free(d_x);
    gm_free(d_o);
    return fails;
}

int sg_gpu_offsets(sg_ctx* c)
{
    /* Segments: [0,10), 10..5 empty, [5,40), [40, 1000 -> 60), 60..20 empty, [20,60), two past the end. */
    static const uint64_t wild[9] = {0, 10, 5, 40, 1000, 20, 60, UINT64_MAX, 60};
    /* The last offset below the first: every segment clamps to [10, 10). */
    static const uint64_t low_end[3] = {50, 70, 10};
    static const uint64_t all_past[4] = {UINT64_MAX, 5, UINT64_MAX - 1, 7}; /* [5,5), [5,7), [7,7) */
    static const hipreduce_op ops[] = {HIPREDUCE_OP_SUM, HIPREDUCE_OP_ARGMAX, HIPREDUCE_OP_MIN, HIPREDUCE_OP_ARGMIN};
    static const hipreduce_dtype dtypes[] = {HIPREDUCE_F32, HIPREDUCE_F64, HIPREDUCE_F16};
    int fails = 0;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; ++k)
        for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; ++d) {
            fails += clamped(c, "decreasing and past the end", ops[k], dtypes[d], wild, 8);
            fails += clamped(c, "end below the start", ops[k], dtypes[d], low_end, 2);
            fails += clamped(c, "starts past the end", ops[k], dtypes[d], all_past, 3);
        }
    printf("device offsets: %d failures\n", fails);
    return fails;
}
