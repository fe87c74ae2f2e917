/* The typed suite's workspace section (typed_run.h): on each device, the size query of reduce,
 * argreduce and dot, a caller workspace of exactly that size (same result as the handle's own) and
 * of one byte less (WORKSPACE_TOO_SMALL, nothing written). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_memory.h"
#include "reference.h"
#include "typed_ref.h"
#include "typed_run.h"

#define SENTINEL 0xA5

/* ---- size queries and caller workspaces ---- */

static int workspace_on(tt_ctx* c, hipreduce_handle h, int gpu, unsigned char* x, unsigned char* y)
{
    static const struct { hipreduce_op op; hipreduce_dtype in, out; } calls[] = {
        {HIPREDUCE_OP_SUM, HIPREDUCE_F16, HIPREDUCE_F32},        {HIPREDUCE_OP_SUM, HIPREDUCE_I8, HIPREDUCE_I64},
        {HIPREDUCE_OP_NRM2, HIPREDUCE_F64, HIPREDUCE_F64},      {HIPREDUCE_OP_NRM2, HIPREDUCE_BF16, HIPREDUCE_F32},
        {HIPREDUCE_OP_ARGMAX, HIPREDUCE_F32, HIPREDUCE_F32},    {HIPREDUCE_OP_ARGMIN, HIPREDUCE_U64, HIPREDUCE_U64},
        {HIPREDUCE_OP_DOT, HIPREDUCE_BF16, HIPREDUCE_F64},      {HIPREDUCE_OP_MAX_ABS, HIPREDUCE_I16, HIPREDUCE_U16},
        {HIPREDUCE_OP_SUM_SQUARES, HIPREDUCE_U32, HIPREDUCE_U64}, {HIPREDUCE_OP_SUM_ABS, HIPREDUCE_F32, HIPREDUCE_F64},
    };
    int fails = 0;
    for (size_t k = 0; k < sizeof calls / sizeof calls[0]; ++k) {
        const hipreduce_op op = calls[k].op;
        const hipreduce_dtype in = calls[k].in, out = calls[k].out;
        const uint64_t n = 3 * tr_tile_items(in) + 5;
        for (uint64_t i = 0; i < n; ++i) {
            tr_store_bits(in, x, i, (i * 2654435761u) >> 3);
            tr_store_bits(in, y, i, (i * 40503u) >> 2);
            if (tr_is_float(in)) tr_store_float(in, x, i, (double)(i % 101) / 16 - 3), tr_store_float(in, y, i, 1.0 / (1 + i % 9));
        }
        if (tt_upload(c, in, x, y, n)) return fails + 1;
        const void* dx = gpu ? (const void*)c->d_x : x;
        const void* dy = gpu ? (const void*)c->d_y : y;
        size_t bytes = 0;
        const int call = tr_call(op);
        const hipreduce_status st = call == 1 ? hipreduce_argreduce_workspace_size(h, op, in, n, &bytes)
                                  : call == 2 ? hipreduce_dot_workspace_size(h, in, n, out, &bytes)
                                              : hipreduce_workspace_size(h, op, in, n, out, &bytes);
        unsigned char own[16], with[16], small[16];
        int64_t own_index = -7, with_index = -7, small_index = -7;
        memset(own, SENTINEL, 16), memset(with, SENTINEL, 16), memset(small, SENTINEL, 16);
        const hipreduce_status st_own = tt_call(h, op, in, out, dx, dy, n, own, &own_index, HIPREDUCE_RESULT_HOST);
        void* ws = bytes ? (gpu ? gm_alloc(bytes) : malloc(bytes)) : NULL;
        hipreduce_status st_with = HIPREDUCE_STATUS_RUNTIME_ERROR, st_small = HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL;
        if (st == HIPREDUCE_STATUS_SUCCESS && (ws || !bytes)) {
            if (bytes && hipreduce_set_workspace(h, ws, bytes - 1) == HIPREDUCE_STATUS_SUCCESS)
                st_small = tt_call(h, op, in, out, dx, dy, n, small, &small_index, HIPREDUCE_RESULT_HOST);
            if (hipreduce_set_workspace(h, ws, bytes) == HIPREDUCE_STATUS_SUCCESS)
                st_with = tt_call(h, op, in, out, dx, dy, n, with, &with_index, HIPREDUCE_RESULT_HOST);
            hipreduce_set_workspace(h, NULL, 0);
        }
        if (gpu) gm_sync(), gm_free(ws);
        else free(ws);
        int untouched = small_index == -7;
        for (int i = 0; i < 16; ++i) untouched &= small[i] == SENTINEL;
        if (st != HIPREDUCE_STATUS_SUCCESS || st_own != HIPREDUCE_STATUS_SUCCESS || st_with != HIPREDUCE_STATUS_SUCCESS ||
            st_small != HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL || !untouched || memcmp(own, with, 16) != 0 ||
            own_index != with_index) {
            ref_report("FAIL workspace (%s): %s %s->%s n=%llu: query %s (%zu bytes), own %s, caller's %s, one byte short %s%s, "
                       "results %s", gpu ? "gpu" : "cpu", tr_op_name(op), tr_dtype_name(in), tr_dtype_name(out),
                       (unsigned long long)n, hipreduce_status_string(st), bytes, hipreduce_status_string(st_own),
                       hipreduce_status_string(st_with), hipreduce_status_string(st_small),
                       untouched ? "" : " (and wrote)", memcmp(own, with, 16) || own_index != with_index ? "differ" : "agree");
            ++fails;
        }
        if (!gpu) fails += tt_case(c, "workspace data", op, in, out, x, y, n, NULL, NULL);
    }
    return fails;
}

int tt_workspace(tt_ctx* c)
{
    const size_t room = (3 * 16384 + 64) * 8;
    unsigned char* x = (unsigned char*)malloc(room);
    unsigned char* y = (unsigned char*)malloc(room);
    int fails = x && y ? 0 : 1;
    if (!fails) fails += workspace_on(c, c->cpu, 0, x, y);
    if (!fails && c->gpu) fails += workspace_on(c, c->gpu, 1, x, y);
    free(x);
    free(y);
    printf("workspace: %d failures\n", fails);
    return fails;
}
