/* The segments suite's runner (segments_run.h): one call on the cpu device checked result by
 * result, then the same call on GPU 0 with host and device results against the cpu's bits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_memory.h"
#include "reference.h" /* ref_report */
#include "segments_run.h"

uint64_t sg_results(const sg_shape* s) { return s->segments ? s->num_segments : s->outer * s->inner; }
uint64_t sg_inputs(const sg_shape* s)
{
    if (s->segments) return s->num_segments ? s->offsets[s->num_segments] : 0;
    return s->outer * s->extent * s->inner;
}

hipreduce_status sg_call(hipreduce_handle h, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out,
                         const void* x, const sg_shape* s, const uint64_t* offsets, void* results,
                         int64_t* indices, hipreduce_location location)
{
    if (tr_call(op) == 1)
        return s->segments ? hipreduce_argreduce_segments(h, op, in, x, s->num_segments, offsets, results, indices, location)
                           : hipreduce_argreduce_axis(h, op, in, x, s->outer, s->extent, s->inner, results, indices,
                                                      location);
    return s->segments ? hipreduce_reduce_segments(h, op, in, x, s->num_segments, offsets, out, results, location)
                       : hipreduce_reduce_axis(h, op, in, x, s->outer, s->extent, s->inner, out, results, location);
}

hipreduce_status sg_query(hipreduce_handle h, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out,
                          const sg_shape* s, size_t* bytes)
{
    if (tr_call(op) == 1)
        return s->segments ? hipreduce_argreduce_segments_workspace_size(h, op, in, s->num_segments, bytes)
                           : hipreduce_argreduce_axis_workspace_size(h, op, in, s->outer, s->extent, s->inner, bytes);
    return s->segments ? hipreduce_reduce_segments_workspace_size(h, op, in, s->num_segments, out, bytes)
                       : hipreduce_reduce_axis_workspace_size(h, op, in, s->outer, s->extent, s->inner, out, bytes);
}

static const char* shape_name(const sg_shape* s)
{
    static char name[96];
    if (s->segments)
        snprintf(name, sizeof name, "segments=%llu n=%llu shift=%llu", (unsigned long long)s->num_segments,
                 (unsigned long long)sg_inputs(s), (unsigned long long)s->shift);
    else
        snprintf(name, sizeof name, "outer=%llu extent=%llu inner=%llu shift=%llu", (unsigned long long)s->outer,
                 (unsigned long long)s->extent, (unsigned long long)s->inner, (unsigned long long)s->shift);
    return name;
}

static int guard_intact(const unsigned char* r, const int64_t* index, size_t from, uint64_t results, int arg)
{
    for (size_t i = 0; i < SG_GUARD; ++i)
        if (r[from + i] != SG_SENTINEL || index[results + i] != SG_INDEX_SENTINEL) return 0;
    for (uint64_t i = 0; !arg && i < results; ++i)
        if (index[i] != SG_INDEX_SENTINEL) return 0;
    return 1;
}

/* The cpu device's result r: the full reduction of the slice (contiguous) or the strided model. */
static int check_result(sg_ctx* c, const char* what, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out,
                        const unsigned char* x, const sg_shape* s, uint64_t r, const unsigned char* got,
                        int64_t got_index, unsigned char* column)
{
    const size_t size = tr_size(in);
    const int arg = tr_call(op) == 1;
    uint64_t want = 0, got_bits = tr_bits(out, got, 0);
    int64_t want_index = -1;
    const char* rule;
    if (s->segments || s->inner == 1) {
        const uint64_t start = s->segments ? s->offsets[r] : r * s->extent;
        const uint64_t len = s->segments ? s->offsets[r + 1] - start : s->extent;
        unsigned char value[16];
        memset(value, SG_SENTINEL, sizeof value);
        const void* slice = len ? (const void*)(x + start * size) : NULL;
        const hipreduce_status st =
            arg ? hipreduce_argreduce(c->cpu, op, in, slice, len, value, &want_index, HIPREDUCE_RESULT_HOST)
                : hipreduce_reduce(c->cpu, op, in, slice, len, out, value, HIPREDUCE_RESULT_HOST);
        if (st != HIPREDUCE_STATUS_SUCCESS) {
            ref_report("FAIL %s: the reference hipreduce_%s of %llu elements: %s", what, arg ? "argreduce" : "reduce",
                       (unsigned long long)len, hipreduce_status_string(st));
            return 1;
        }
        want = tr_bits(out, value, 0);
        rule = arg ? "hipreduce_argreduce of the slice" : "hipreduce_reduce of the slice";
    } else {
        const uint64_t o = r / s->inner, i = r % s->inner;
        for (uint64_t e = 0; e < s->extent; ++e)
            memcpy(column + e * size, x + ((o * s->extent + e) * s->inner + i) * size, size);
        const tr_expect e = sg_strided_expected(op, in, out, column, s->extent);
        want = e.bits;
        want_index = e.index;
        rule = "the strided model";
    }
    if (got_bits == want && (!arg || got_index == want_index)) return 0;
    ref_report("FAIL cpu %s: %s %s->%s %s: result %llu: got 0x%llx index %lld, want 0x%llx index %lld (%s)", what,
               tr_op_name(op), tr_dtype_name(in), tr_dtype_name(out), shape_name(s), (unsigned long long)r,
               (unsigned long long)got_bits, (long long)got_index, (unsigned long long)want, (long long)want_index,
               rule);
    return 1;
}

/* GPU 0, results at loc, against the cpu device's want/want_index (results + guard compared). */
static int gpu_run(sg_ctx* c, const char* what, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out,
                   const sg_shape* s, hipreduce_location loc, const unsigned char* want, const int64_t* want_index,
                   unsigned char* got, int64_t* got_index)
{
    const uint64_t results = sg_results(s);
    const size_t osize = tr_size(out), rbytes = (size_t)results * osize;
    const int arg = tr_call(op) == 1;
    memset(got, SG_SENTINEL, rbytes + SG_GUARD);
    for (uint64_t i = 0; i < results + SG_GUARD; ++i) got_index[i] = SG_INDEX_SENTINEL;
    const void* dx = c->d_x + s->shift * tr_size(in);
    hipreduce_status st;
    if (loc == HIPREDUCE_RESULT_HOST) {
        st = sg_call(c->gpu, op, in, out, dx, s, c->d_offsets, got, arg ? got_index : NULL, loc);
    } else {
        if (gm_memset(c->d_out, SG_SENTINEL, rbytes + SG_GUARD) != 0 ||
            gm_memset(c->d_index, 0x5a, (size_t)(results + SG_GUARD) * 8) != 0)
            return 1;
        st = sg_call(c->gpu, op, in, out, dx, s, c->d_offsets, c->d_out, arg ? c->d_index : NULL, loc);
        if (gm_sync() != 0 || gm_to_host(got, c->d_out, rbytes + SG_GUARD) != 0 ||
            gm_to_host(got_index, c->d_index, (size_t)(results + SG_GUARD) * 8) != 0)
            st = HIPREDUCE_STATUS_RUNTIME_ERROR;
    }
    const char* where = loc == HIPREDUCE_RESULT_HOST ? "host" : "device";
    if (st != HIPREDUCE_STATUS_SUCCESS) {
        ref_report("FAIL gpu %s %s: %s %s->%s %s: status %s (%s)", where, what, tr_op_name(op), tr_dtype_name(in),
                   tr_dtype_name(out), shape_name(s), hipreduce_status_string(st), hipreduce_last_error_message(c->gpu));
        return 1;
    }
    if (!guard_intact(got, got_index, rbytes, results, arg)) {
        ref_report("FAIL gpu %s %s: %s %s->%s %s: wrote past its results", where, what, tr_op_name(op),
                   tr_dtype_name(in), tr_dtype_name(out), shape_name(s));
        return 1;
    }
    for (uint64_t r = 0; r < results; ++r) {
        const uint64_t g = tr_bits(out, got, r), w = tr_bits(out, want, r);
        if (g == w && (!arg || got_index[r] == want_index[r]))
            continue;
        ref_report("FAIL gpu %s %s: %s %s->%s %s: result %llu: got 0x%llx index %lld, the cpu device 0x%llx index %lld",
                   where, what, tr_op_name(op), tr_dtype_name(in), tr_dtype_name(out), shape_name(s),
                   (unsigned long long)r, (unsigned long long)g, (long long)got_index[r], (unsigned long long)w,
                   (long long)want_index[r]);
        return 1;
    }
    return 0;
}

static int gpu_case(sg_ctx* c, const char* what, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out,
                    const unsigned char* base, const sg_shape* s, const unsigned char* want, const int64_t* want_index)
{
    const uint64_t results = sg_results(s);
    const size_t in_bytes = (size_t)(s->shift + sg_inputs(s)) * tr_size(in);
    const size_t offsets = s->segments ? (size_t)s->num_segments + 1 : 0;
    if (in_bytes > c->room || offsets > c->offsets_room || results > c->results_room) {
        ref_report("FAIL %s: %s needs more device room than the suite allocated", what, shape_name(s));
        return 1;
    }
    if (gm_to_device(c->d_x, base, in_bytes) != 0 ||
        (offsets && gm_to_device(c->d_offsets, s->offsets, offsets * 8) != 0)) {
        ref_report("FAIL: cannot copy %zu bytes to the GPU", in_bytes);
        return 1;
    }
    unsigned char* got = (unsigned char*)malloc((size_t)results * 8 + SG_GUARD);
    int64_t* got_index = (int64_t*)malloc((size_t)(results + SG_GUARD) * 8);
    int fails = got && got_index ? 0 : 1;
    if (!fails) fails += gpu_run(c, what, op, in, out, s, HIPREDUCE_RESULT_HOST, want, want_index, got, got_index);
    if (!fails) fails += gpu_run(c, what, op, in, out, s, HIPREDUCE_RESULT_DEVICE, want, want_index, got, got_index);
    free(got);
    free(got_index);
    return fails;
}

int sg_case(sg_ctx* c, const char* what, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out,
            const unsigned char* base, const sg_shape* s)
{
    const uint64_t results = sg_results(s);
    const size_t size = tr_size(in), osize = tr_size(out), rbytes = (size_t)results * osize;
    const int arg = tr_call(op) == 1;
    const unsigned char* x = base + s->shift * size;
    unsigned char* got = (unsigned char*)malloc(rbytes + SG_GUARD);
    int64_t* index = (int64_t*)malloc((size_t)(results + SG_GUARD) * 8);
    unsigned char* column = (unsigned char*)malloc(s->segments ? 1 : (size_t)s->extent * size + 1);
    if (!got || !index || !column) {
        free(got), free(index), free(column);
        ref_report("FAIL %s: out of host memory", what);
        return 1;
    }
    memset(got, SG_SENTINEL, rbytes + SG_GUARD);
    for (uint64_t i = 0; i < results + SG_GUARD; ++i) index[i] = SG_INDEX_SENTINEL;
    ++c->calls;
    c->results += (long)results;
    c->elements += (long)sg_inputs(s);
    const hipreduce_status st = sg_call(c->cpu, op, in, out, x, s, s->offsets, got, arg ? index : NULL,
                                        HIPREDUCE_RESULT_HOST);
    int fails = 0;
    if (st != HIPREDUCE_STATUS_SUCCESS) {
        ref_report("FAIL cpu %s: %s %s->%s %s: status %s", what, tr_op_name(op), tr_dtype_name(in), tr_dtype_name(out),
                   shape_name(s), hipreduce_status_string(st));
        fails = 1;
    } else if (!guard_intact(got, index, rbytes, results, arg)) {
        ref_report("FAIL cpu %s: %s %s->%s %s: wrote past its results", what, tr_op_name(op), tr_dtype_name(in),
                   tr_dtype_name(out), shape_name(s));
        fails = 1;
    } else {
        int bad = 0; /* at most 3 results reported per case */
        for (uint64_t r = 0; r < results && bad < 3; ++r)
            bad += check_result(c, what, op, in, out, x, s, r, got + r * osize, index[r], column);
        fails += bad;
    }
    if (!fails && c->gpu) fails += gpu_case(c, what, op, in, out, base, s, got, index);
    free(got), free(index), free(column);
    return fails;
}
