/* The segments suite's rule sections (segments_run.h): the validation order of the axis and
 * segment calls and their size queries (header: handle, op, input dtype, result dtype, triple,
 * location, pointers, SIZE_OVERFLOW, then INVALID_OFFSETS on a CPU handle), refused calls writing
 * nothing; and the empty shapes: outer * inner == 0 and num_segments == 0 write nothing (NULL
 * input and offsets allowed), extent 0 and empty segments write the n == 0 result. */
#include <stdio.h>
#include <string.h>

#include "gpu_memory.h"
#include "reference.h"
#include "segments_run.h"

enum { RA, AA, RS, AS, QRA, QAA, QRS, QAS }; /* reduce/argreduce axis/segments; Q: their size queries */
enum { O_GOOD, O_DOWN, O_HUGE_END };          /* offsets: 0, 1, 3, 4; decreasing; ending at 2^62 */

typedef struct arg_case {
    const char* what;
    int call, bad_handle, op, in, out;
    int null_x, null_offsets, null_result, null_index; /* pass NULL for these */
    uint64_t outer, extent, inner, segments;
    int offsets, location;
    hipreduce_status want;
} arg_case;

static hipreduce_status run(hipreduce_handle h, const arg_case* a, unsigned char* r, int64_t* index)
{
    static const double x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    static const uint64_t good[4] = {0, 1, 3, 4}, down[4] = {0, 3, 1, 4};
    static const uint64_t huge_end[4] = {0, 1, 3, UINT64_C(1) << 62};
    const void* px = a->null_x ? NULL : x;
    const uint64_t* po = a->null_offsets ? NULL : a->offsets == O_DOWN ? down : a->offsets == O_HUGE_END ? huge_end : good;
    void* result = a->null_result ? NULL : r;
    int64_t* pi = a->null_index ? NULL : index;
    const hipreduce_op op = (hipreduce_op)a->op;
    const hipreduce_dtype in = (hipreduce_dtype)a->in, out = (hipreduce_dtype)a->out;
    const hipreduce_location loc = (hipreduce_location)a->location;
    if (a->bad_handle) h = NULL;
    switch (a->call) {
    case RA: return hipreduce_reduce_axis(h, op, in, px, a->outer, a->extent, a->inner, out, result, loc);
    case AA: return hipreduce_argreduce_axis(h, op, in, px, a->outer, a->extent, a->inner, result, pi, loc);
    case RS: return hipreduce_reduce_segments(h, op, in, px, a->segments, po, out, result, loc);
    case AS: return hipreduce_argreduce_segments(h, op, in, px, a->segments, po, result, pi, loc);
    case QRA: return hipreduce_reduce_axis_workspace_size(h, op, in, a->outer, a->extent, a->inner, out, (size_t*)result);
    case QAA: return hipreduce_argreduce_axis_workspace_size(h, op, in, a->outer, a->extent, a->inner, (size_t*)result);
    case QRS: return hipreduce_reduce_segments_workspace_size(h, op, in, a->segments, out, (size_t*)result);
    default: return hipreduce_argreduce_segments_workspace_size(h, op, in, a->segments, (size_t*)result);
    }
}

int sg_arguments(sg_ctx* c)
{
    const int F32 = HIPREDUCE_F32, F64 = HIPREDUCE_F64, I8 = HIPREDUCE_I8, I64 = HIPREDUCE_I64, BAD = 14;
    const int SUM = HIPREDUCE_OP_SUM, AMIN = HIPREDUCE_OP_ARGMIN, AMAX = HIPREDUCE_OP_ARGMAX, DOT = HIPREDUCE_OP_DOT;
    const int XOR = HIPREDUCE_OP_XOR, HOST = HIPREDUCE_RESULT_HOST, DEV = HIPREDUCE_RESULT_DEVICE;
    const uint64_t big = UINT64_C(1) << 32, e61 = UINT64_C(1) << 61, e63 = UINT64_C(1) << 63;
    const hipreduce_status INV_H = HIPREDUCE_STATUS_INVALID_HANDLE, INV_OP = HIPREDUCE_STATUS_INVALID_OP,
                           INV_D = HIPREDUCE_STATUS_INVALID_DTYPE, MISM = HIPREDUCE_STATUS_OP_DTYPE_MISMATCH,
                           INV_L = HIPREDUCE_STATUS_INVALID_LOCATION, INV_P = HIPREDUCE_STATUS_INVALID_POINTER,
                           OVER = HIPREDUCE_STATUS_SIZE_OVERFLOW, OFFS = HIPREDUCE_STATUS_INVALID_OFFSETS,
                           OK = HIPREDUCE_STATUS_SUCCESS;
    /* what, call, bad handle, op, in, out, NULL x, offsets, result, index, outer, extent, inner,
     * segments, offsets, location, status. Each case has every later check failing too. */
    const arg_case cases[] = {
        {"axis: NULL handle first", RA, 1, 14, BAD, BAD, 1, 0, 1, 0, big, big, 2, 0, 0, 9, INV_H},
        {"axis: op 99 before dtypes", RA, 0, 99, BAD, BAD, 1, 0, 1, 0, big, big, 2, 0, 0, 9, INV_OP},
        {"axis: op -1", RA, 0, -1, F32, F32, 0, 0, 0, 0, 2, 2, 2, 0, 0, HOST, INV_OP},
        {"axis: in dtype before out", RA, 0, SUM, BAD, F32, 1, 0, 1, 0, big, big, 2, 0, 0, 9, INV_D},
        {"axis: out dtype before triple", RA, 0, XOR, F32, -1, 1, 0, 1, 0, big, big, 2, 0, 0, 9, INV_D},
        {"axis: xor f32 before location", RA, 0, XOR, F32, F32, 1, 0, 1, 0, big, big, 2, 0, 0, 9, MISM},
        {"axis: i64 sum into i8", RA, 0, SUM, I64, I8, 0, 0, 0, 0, 2, 2, 2, 0, 0, HOST, MISM},
        {"axis: dot", RA, 0, DOT, F32, F32, 0, 0, 0, 0, 2, 2, 2, 0, 0, HOST, MISM},
        {"axis: argmin to reduce", RA, 0, AMIN, F32, F32, 1, 0, 1, 0, 2, 2, 2, 0, 0, 9, MISM},
        {"axis: location 9 before pointers", RA, 0, SUM, F32, F64, 1, 0, 1, 0, big, big, 2, 0, 0, 9, INV_L},
        {"axis: device location on cpu", RA, 0, SUM, F32, F64, 0, 0, 0, 0, 2, 2, 2, 0, 0, DEV, INV_L},
        {"axis: NULL results before size", RA, 0, SUM, F32, F64, 0, 0, 1, 0, big, big, 2, 0, 0, HOST, INV_P},
        {"axis: NULL input", RA, 0, SUM, F32, F64, 1, 0, 0, 0, 2, 2, 2, 0, 0, HOST, INV_P},
        {"axis: NULL input, product overflows", RA, 0, SUM, F32, F32, 1, 0, 0, 0, big, big, 2, 0, 0, HOST, INV_P},
        {"axis: NULL input, extent 0", RA, 0, SUM, F32, F32, 1, 0, 0, 0, 2, 0, 2, 0, 0, HOST, OK},
        {"axis: outer*extent*inner overflows", RA, 0, SUM, F32, F32, 0, 0, 0, 0, big, big, 2, 0, 0, HOST, OVER},
        {"axis: bytes overflow", RA, 0, SUM, F64, F64, 0, 0, 0, 0, 1, e61, 1, 0, 0, HOST, OVER},
        {"axis: result bytes overflow", RA, 0, SUM, F32, F32, 0, 0, 0, 0, e61, 0, 1, 0, 0, HOST, OVER},
        {"argaxis: NULL handle", AA, 1, SUM, F32, F32, 1, 0, 1, 1, 2, 2, 2, 0, 0, 9, INV_H},
        {"argaxis: op 99", AA, 0, 99, F32, F32, 0, 0, 0, 0, 2, 2, 2, 0, 0, HOST, INV_OP},
        {"argaxis: bad dtype", AA, 0, AMIN, BAD, BAD, 1, 0, 1, 1, 2, 2, 2, 0, 0, 9, INV_D},
        {"argaxis: sum", AA, 0, SUM, F32, F32, 1, 0, 1, 1, 2, 2, 2, 0, 0, 9, MISM},
        {"argaxis: dot", AA, 0, DOT, F64, F64, 0, 0, 0, 0, 2, 2, 2, 0, 0, HOST, MISM},
        {"argaxis: location 2", AA, 0, AMAX, F32, F32, 1, 0, 1, 1, 2, 2, 2, 0, 0, 2, INV_L},
        {"argaxis: device location on cpu", AA, 0, AMAX, F32, F32, 0, 0, 0, 0, 2, 2, 2, 0, 0, DEV, INV_L},
        {"argaxis: NULL values", AA, 0, AMAX, F32, F32, 0, 0, 1, 0, 2, 2, 2, 0, 0, HOST, INV_P},
        {"argaxis: NULL indices", AA, 0, AMIN, F32, F32, 0, 0, 0, 1, 2, 2, 2, 0, 0, HOST, INV_P},
        {"argaxis: NULL indices, extent 0", AA, 0, AMIN, F32, F32, 1, 0, 0, 1, 2, 0, 2, 0, 0, HOST, INV_P},
        {"argaxis: NULL input", AA, 0, AMIN, F64, F64, 1, 0, 0, 0, 2, 2, 2, 0, 0, HOST, INV_P},
        {"argaxis: overflow", AA, 0, AMIN, F64, F64, 0, 0, 0, 0, 2, e61, 1, 0, 0, HOST, OVER},
        {"segments: NULL handle", RS, 1, 14, F32, F32, 1, 1, 1, 0, 0, 0, 0, 3, O_DOWN, 9, INV_H},
        {"segments: op 99", RS, 0, 99, BAD, F32, 1, 1, 1, 0, 0, 0, 0, 3, O_DOWN, 9, INV_OP},
        {"segments: bad in", RS, 0, SUM, BAD, F32, 1, 1, 1, 0, 0, 0, 0, 3, O_DOWN, 9, INV_D},
        {"segments: and on f64", RS, 0, HIPREDUCE_OP_AND, F64, F64, 1, 1, 1, 0, 0, 0, 0, 3, O_DOWN, 9, MISM},
        {"segments: dot", RS, 0, DOT, F32, F32, 0, 0, 0, 0, 0, 0, 0, 3, O_GOOD, HOST, MISM},
        {"segments: argmax to reduce", RS, 0, AMAX, F32, F32, 0, 0, 0, 0, 0, 0, 0, 3, O_GOOD, HOST, MISM},
        {"segments: location", RS, 0, SUM, F32, F32, 1, 1, 1, 0, 0, 0, 0, 3, O_DOWN, 5, INV_L},
        {"segments: device location on cpu", RS, 0, SUM, F32, F32, 0, 0, 0, 0, 0, 0, 0, 3, O_GOOD, DEV, INV_L},
        {"segments: NULL results", RS, 0, SUM, F32, F32, 0, 0, 1, 0, 0, 0, 0, 3, O_DOWN, HOST, INV_P},
        {"segments: NULL input", RS, 0, SUM, F32, F32, 1, 0, 0, 0, 0, 0, 0, 3, O_DOWN, HOST, INV_P},
        {"segments: NULL offsets", RS, 0, SUM, F32, F32, 0, 1, 0, 0, 0, 0, 0, 3, O_GOOD, HOST, INV_P},
        {"segments: NULL pointer before size", RS, 0, SUM, F32, F32, 0, 1, 0, 0, 0, 0, 0, UINT64_MAX, O_GOOD, HOST, INV_P},
        {"segments: none, NULL input and offsets", RS, 0, SUM, F32, F32, 1, 1, 0, 0, 0, 0, 0, 0, O_GOOD, HOST, OK},
        {"segments: num_segments + 1 overflows", RS, 0, SUM, F32, F32, 0, 0, 0, 0, 0, 0, 0, UINT64_MAX, O_DOWN, HOST, OVER},
        {"segments: offset bytes overflow", RS, 0, SUM, F32, F32, 0, 0, 0, 0, 0, 0, 0, e61, O_DOWN, HOST, OVER},
        {"segments: decreasing", RS, 0, SUM, F32, F64, 0, 0, 0, 0, 0, 0, 0, 3, O_DOWN, HOST, OFFS},
        {"segments: decreasing, i8", RS, 0, SUM, I8, I64, 0, 0, 0, 0, 0, 0, 0, 2, O_DOWN, HOST, OFFS},
        {"segments: the end's bytes overflow", RS, 0, SUM, F32, F32, 0, 0, 0, 0, 0, 0, 0, 3, O_HUGE_END, HOST, OVER},
        {"segments: decreasing before the end", RS, 0, SUM, F32, F32, 0, 0, 0, 0, 0, 0, 0, 1, O_DOWN, HOST, OK},
        {"argsegments: sum", AS, 0, SUM, F32, F32, 1, 1, 1, 1, 0, 0, 0, 3, O_DOWN, 9, MISM},
        {"argsegments: dot", AS, 0, DOT, F32, F32, 0, 0, 0, 0, 0, 0, 0, 3, O_GOOD, HOST, MISM},
        {"argsegments: bad location", AS, 0, AMIN, F32, F32, 1, 1, 1, 1, 0, 0, 0, 3, O_DOWN, -1, INV_L},
        {"argsegments: NULL values", AS, 0, AMIN, F32, F32, 0, 0, 1, 0, 0, 0, 0, 3, O_DOWN, HOST, INV_P},
        {"argsegments: NULL indices", AS, 0, AMIN, F32, F32, 0, 0, 0, 1, 0, 0, 0, 0, O_DOWN, HOST, INV_P},
        {"argsegments: overflow", AS, 0, AMAX, F32, F32, 0, 0, 0, 0, 0, 0, 0, UINT64_MAX, O_DOWN, HOST, OVER},
        {"argsegments: decreasing", AS, 0, AMAX, F64, F64, 0, 0, 0, 0, 0, 0, 0, 3, O_DOWN, HOST, OFFS},
        {"query axis: NULL handle", QRA, 1, 14, F32, F32, 0, 0, 1, 0, big, big, 2, 0, 0, 0, INV_H},
        {"query axis: op", QRA, 0, 99, F32, F32, 0, 0, 1, 0, big, big, 2, 0, 0, 0, INV_OP},
        {"query axis: argmin", QRA, 0, AMIN, F32, F32, 0, 0, 1, 0, big, big, 2, 0, 0, 0, MISM},
        {"query axis: NULL bytes before size", QRA, 0, SUM, F32, F32, 0, 0, 1, 0, big, big, 2, 0, 0, 0, INV_P},
        {"query axis: overflow", QRA, 0, SUM, F32, F32, 0, 0, 0, 0, big, big, 2, 0, 0, 0, OVER},
        {"query axis: bytes overflow", QRA, 0, SUM, F64, F64, 0, 0, 0, 0, 1, e61, 1, 0, 0, 0, OVER},
        {"query axis: i8 2^63 fits", QRA, 0, SUM, I8, I64, 0, 0, 0, 0, 1, e63, 1, 0, 0, 0, OK},
        {"query argaxis: dot", QAA, 0, DOT, F32, F32, 0, 0, 1, 0, 2, 2, 2, 0, 0, 0, MISM},
        {"query argaxis: NULL bytes", QAA, 0, AMAX, F32, F32, 0, 0, 1, 0, 2, 2, 2, 0, 0, 0, INV_P},
        {"query argaxis: overflow", QAA, 0, AMAX, I8, I8, 0, 0, 0, 0, big, big, big, 0, 0, 0, OVER},
        {"query segments: bad out", QRS, 0, SUM, F32, BAD, 0, 0, 1, 0, 0, 0, 0, 3, 0, 0, INV_D},
        {"query segments: argmax", QRS, 0, AMAX, F32, F32, 0, 0, 1, 0, 0, 0, 0, 3, 0, 0, MISM},
        {"query segments: NULL bytes", QRS, 0, SUM, F32, F32, 0, 0, 1, 0, 0, 0, 0, UINT64_MAX, 0, 0, INV_P},
        {"query segments: overflow", QRS, 0, SUM, F32, F32, 0, 0, 0, 0, 0, 0, 0, UINT64_MAX, 0, 0, OVER},
        {"query segments: 2^32 + 1 segments", QRS, 0, SUM, F32, F32, 0, 0, 0, 0, 0, 0, 0, big + 1, 0, 0, OK},
        {"query argsegments: sum", QAS, 0, SUM, F32, F32, 0, 0, 1, 0, 0, 0, 0, 3, 0, 0, MISM},
        {"query argsegments: overflow", QAS, 0, AMIN, F32, F32, 0, 0, 0, 0, 0, 0, 0, e61, 0, 0, OVER},
    };
    int fails = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        const arg_case* a = &cases[k];
        _Alignas(16) unsigned char r[64]; /* also a query's size_t */
        int64_t index[8];
        memset(r, SG_SENTINEL, sizeof r);
        for (int i = 0; i < 8; ++i) index[i] = SG_INDEX_SENTINEL;
        const hipreduce_status st = run(c->cpu, a, r, index);
        int untouched = 1;
        for (size_t i = 0; i < sizeof r; ++i) untouched &= r[i] == SG_SENTINEL;
        for (int i = 0; i < 8; ++i) untouched &= index[i] == SG_INDEX_SENTINEL;
        /* A successful call with results writes them (the empty results); a query its size. */
        const int writes = st == OK && (a->call >= QRA || (a->call <= AA ? a->outer * a->inner > 0 : a->segments > 0));
        if (st != a->want || (st != OK && !untouched) || (!writes && !untouched)) {
            ref_report("FAIL arguments: %s: %s, want %s%s", a->what, hipreduce_status_string(st),
                       hipreduce_status_string(a->want), untouched ? "" : " (and it wrote)");
            ++fails;
        }
    }
    printf("arguments: %zu cases, %d failures\n", sizeof cases / sizeof cases[0], fails);
    return fails;
}

/* ---- empty shapes ---- */

/* One call with n == 0 results or empty extents on handle h (input NULL where allowed), results at
 * loc: results [0, count) must hold the n == 0 result, nothing else written. */
static int empty_case(sg_ctx* c, hipreduce_handle h, hipreduce_location loc, const char* what, hipreduce_op op,
                      hipreduce_dtype in, hipreduce_dtype out, const void* x, const sg_shape* s, uint64_t count)
{
    unsigned char got[16 * 8 + SG_GUARD];
    int64_t index[16 + SG_GUARD];
    const int arg = tr_call(op) == 1, dev = loc == HIPREDUCE_RESULT_DEVICE;
    memset(got, SG_SENTINEL, sizeof got);
    for (size_t i = 0; i < 16 + SG_GUARD; ++i) index[i] = SG_INDEX_SENTINEL;
    if (dev && (gm_memset(c->d_out, SG_SENTINEL, sizeof got) != 0 || gm_memset(c->d_index, 0x5a, sizeof index) != 0))
        return 1;
    hipreduce_status st = sg_call(h, op, in, out, x, s, s->offsets, dev ? (void*)c->d_out : got,
                                  arg ? (dev ? c->d_index : index) : NULL, loc);
    if (dev && (gm_sync() != 0 || gm_to_host(got, c->d_out, sizeof got) != 0 || gm_to_host(index, c->d_index, sizeof index) != 0))
        st = HIPREDUCE_STATUS_RUNTIME_ERROR;
    const tr_expect e = tr_expected(op, in, out, NULL, NULL, 0);
    int bad = st != HIPREDUCE_STATUS_SUCCESS;
    for (uint64_t r = 0; r < count && !bad; ++r)
        bad = tr_bits(out, got, r) != e.bits || (arg && index[r] != -1);
    for (size_t i = (size_t)count * tr_size(out); i < sizeof got && !bad; ++i) bad = got[i] != SG_SENTINEL;
    for (size_t i = arg ? (size_t)count : 0; i < 16 + SG_GUARD && !bad; ++i) bad = index[i] != SG_INDEX_SENTINEL;
    if (!bad) return 0;
    ref_report("FAIL empty shapes (%s, %s results): %s: %s %s->%s: %s; result 0 0x%llx index %lld, want 0x%llx index -1 "
               "in %llu results and nothing else written", h == c->cpu ? "cpu" : "gpu", dev ? "device" : "host", what,
               tr_op_name(op), tr_dtype_name(in), tr_dtype_name(out), hipreduce_status_string(st),
               (unsigned long long)tr_bits(out, got, 0), (long long)index[0], (unsigned long long)e.bits,
               (unsigned long long)count);
    return 1;
}

static int empty_on(sg_ctx* c, hipreduce_handle h, hipreduce_location loc, const void* x, const uint64_t* zeros)
{
    static const struct { hipreduce_op op; hipreduce_dtype in, out; } calls[] = {
        {HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F32},     {HIPREDUCE_OP_SUM, HIPREDUCE_I8, HIPREDUCE_I64},
        {HIPREDUCE_OP_PROD, HIPREDUCE_F16, HIPREDUCE_F16},    {HIPREDUCE_OP_PROD, HIPREDUCE_U8, HIPREDUCE_U64},
        {HIPREDUCE_OP_MIN, HIPREDUCE_BF16, HIPREDUCE_BF16},   {HIPREDUCE_OP_MAX, HIPREDUCE_I32, HIPREDUCE_I32},
        {HIPREDUCE_OP_AND, HIPREDUCE_U64, HIPREDUCE_U64},     {HIPREDUCE_OP_XOR, HIPREDUCE_I8, HIPREDUCE_I8},
        {HIPREDUCE_OP_NRM2, HIPREDUCE_F64, HIPREDUCE_F64},    {HIPREDUCE_OP_NRM2, HIPREDUCE_F16, HIPREDUCE_F32},
        {HIPREDUCE_OP_MAX_ABS, HIPREDUCE_F32, HIPREDUCE_F32}, {HIPREDUCE_OP_SUM_SQUARES, HIPREDUCE_BF16, HIPREDUCE_F64},
        {HIPREDUCE_OP_ARGMIN, HIPREDUCE_F32, HIPREDUCE_F32},  {HIPREDUCE_OP_ARGMAX, HIPREDUCE_I8, HIPREDUCE_I8},
        {HIPREDUCE_OP_ARGMAX, HIPREDUCE_F16, HIPREDUCE_F16},  {HIPREDUCE_OP_ARGMIN, HIPREDUCE_U64, HIPREDUCE_U64},
    };
    int fails = 0;
    for (size_t k = 0; k < sizeof calls / sizeof calls[0]; ++k) {
        const hipreduce_op op = calls[k].op;
        const hipreduce_dtype in = calls[k].in, out = calls[k].out;
        const sg_shape outer0 = {0, 0, 5, 3, 0, NULL, 0}, inner0 = {0, 7, 5, 0, 0, NULL, 0};
        const sg_shape huge0 = {0, 0, UINT64_MAX, UINT64_MAX, 0, NULL, 0}; /* outer 0: n = 0, no overflow */
        const sg_shape extent0 = {0, 3, 0, 4, 0, NULL, 0}, row0 = {0, 16, 0, 1, 0, NULL, 0};
        const sg_shape none = {1, 0, 0, 0, 0, NULL, 0}, empties = {1, 0, 0, 0, 16, zeros, 0};
        fails += empty_case(c, h, loc, "outer 0, NULL input", op, in, out, NULL, &outer0, 0);
        fails += empty_case(c, h, loc, "inner 0, NULL input", op, in, out, NULL, &inner0, 0);
        fails += empty_case(c, h, loc, "outer 0, extent and inner 2^64 - 1", op, in, out, NULL, &huge0, 0);
        fails += empty_case(c, h, loc, "extent 0, inner 4, NULL input", op, in, out, NULL, &extent0, 12);
        fails += empty_case(c, h, loc, "extent 0 rows, NULL input", op, in, out, NULL, &row0, 16);
        fails += empty_case(c, h, loc, "no segments, NULL input and offsets", op, in, out, NULL, &none, 0);
        fails += empty_case(c, h, loc, "16 empty segments", op, in, out, x, &empties, 16);
    }
    return fails;
}

int sg_empty_shapes(sg_ctx* c)
{
    static const uint64_t zeros[17] = {0};
    static const double host_x[2] = {1, 2};
    int fails = empty_on(c, c->cpu, HIPREDUCE_RESULT_HOST, host_x, zeros);
    if (c->gpu) {
        if (gm_to_device(c->d_offsets, zeros, sizeof zeros) != 0) return fails + 1;
        fails += empty_on(c, c->gpu, HIPREDUCE_RESULT_HOST, c->d_x, c->d_offsets);
        fails += empty_on(c, c->gpu, HIPREDUCE_RESULT_DEVICE, c->d_x, c->d_offsets);
    }
    printf("empty shapes: %d failures\n", fails);
    return fails;
}
