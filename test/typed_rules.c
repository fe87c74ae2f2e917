/* The typed suite's rule sections (typed_run.h): refused triples, the spec's worked examples, the
 * argmin/argmax rules. Every call goes through tt_case (reference check, GPU == cpu) and, where the
 * spec fixes the answer, is also compared with the value written out here by hand. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "typed_ref.h"
#include "typed_run.h"

#define SENTINEL 0xA5

/* ---- refused triples ---- */

static int refused(hipreduce_status st, const unsigned char* r, size_t bytes, const char* call, int op, int in, int out)
{
    for (size_t i = 0; i < bytes; ++i)
        if (r[i] != SENTINEL) {
            ref_report("FAIL mismatch: %s op %d in %d out %d wrote its output", call, op, in, out);
            return 1;
        }
    if (st == HIPREDUCE_STATUS_OP_DTYPE_MISMATCH) return 0;
    ref_report("FAIL mismatch: %s op %d in %d out %d: %s, want OP_DTYPE_MISMATCH", call, op, in, out,
               hipreduce_status_string(st));
    return 1;
}

static int mismatch_on(hipreduce_handle h, const void* x, const void* y, int* checked)
{
    int fails = 0;
    unsigned char r[24];
    for (int op = 0; op < TR_NOPS; ++op)
        for (int in = 0; in < TR_NDTYPES; ++in)
            for (int out = 0; out < TR_NDTYPES; ++out) {
                const hipreduce_op o = (hipreduce_op)op;
                const hipreduce_dtype i = (hipreduce_dtype)in, u = (hipreduce_dtype)out;
                const int call = tr_call(o), ok = tr_allowed(o, i, u);
                if (!(call == 0 && ok)) { /* hipreduce_reduce: also argmin/argmax/dot */
                    memset(r, SENTINEL, sizeof r);
                    fails += refused(hipreduce_reduce(h, o, i, x, 4, u, r, HIPREDUCE_RESULT_HOST), r, 24, "reduce", op, in, out);
                    fails += refused(hipreduce_reduce(h, o, i, x, 4, u, NULL, HIPREDUCE_RESULT_HOST), r, 24, "reduce(NULL result)", op, in, out);
                    fails += refused(hipreduce_reduce(h, o, i, NULL, 4, u, r, (hipreduce_location)9), r, 24, "reduce(NULL input, bad location)", op, in, out);
                    fails += refused(hipreduce_workspace_size(h, o, i, 4, u, (size_t*)(void*)r), r, 24, "workspace_size", op, in, out);
                    ++*checked;
                }
                if (out == in && call != 1) { /* hipreduce_argreduce: every op but argmin/argmax */
                    memset(r, SENTINEL, sizeof r);
                    int64_t* index = (int64_t*)(void*)(r + 16);
                    fails += refused(hipreduce_argreduce(h, o, i, x, 4, r, index, HIPREDUCE_RESULT_HOST), r, 24, "argreduce", op, in, out);
                    fails += refused(hipreduce_argreduce(h, o, i, x, 4, NULL, NULL, HIPREDUCE_RESULT_HOST), r, 24, "argreduce(NULL)", op, in, out);
                    fails += refused(hipreduce_argreduce_workspace_size(h, o, i, 4, (size_t*)(void*)r), r, 24, "argreduce_workspace_size", op, in, out);
                    ++*checked;
                }
                if (op == HIPREDUCE_OP_DOT && !ok) {
                    memset(r, SENTINEL, sizeof r);
                    fails += refused(hipreduce_dot(h, i, x, y, 4, u, r, HIPREDUCE_RESULT_HOST), r, 24, "dot", op, in, out);
                    fails += refused(hipreduce_dot(h, i, x, NULL, 4, u, r, HIPREDUCE_RESULT_HOST), r, 24, "dot(NULL y)", op, in, out);
                    fails += refused(hipreduce_dot_workspace_size(h, i, 4, u, (size_t*)(void*)r), r, 24, "dot_workspace_size", op, in, out);
                    ++*checked;
                }
                /* Allowed triples: the size query answers (with the handle's default algorithm). */
                size_t bytes = 0;
                hipreduce_status st = HIPREDUCE_STATUS_SUCCESS;
                if (ok && call == 0) st = hipreduce_workspace_size(h, o, i, 100000, u, &bytes);
                if (ok && call == 1 && out == in) st = hipreduce_argreduce_workspace_size(h, o, i, 100000, &bytes);
                if (ok && call == 2) st = hipreduce_dot_workspace_size(h, i, 100000, u, &bytes);
                if (st != HIPREDUCE_STATUS_SUCCESS) {
                    ref_report("FAIL size query: %s %s->%s: %s", tr_op_name(o), tr_dtype_name(i), tr_dtype_name(u),
                               hipreduce_status_string(st));
                    ++fails;
                }
            }
    return fails;
}

int tt_mismatch(tt_ctx* c)
{
    unsigned char x[64], y[64];
    memset(x, 1, sizeof x);
    memset(y, 1, sizeof y);
    int checked = 0, fails = mismatch_on(c->cpu, x, y, &checked);
    if (c->gpu) {
        if (tt_upload(c, HIPREDUCE_U64, x, y, 8)) return fails + 1;
        fails += mismatch_on(c->gpu, c->d_x, c->d_y, &checked);
    }
    printf("mismatch: %d refused (op, in, out) calls checked, %d failures\n", checked, fails);
    return fails;
}

/* ---- worked examples ---- */

/* tt_case, then the result compared with want (and the index, for argreduce). */
static int expect(tt_ctx* c, const char* what, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out,
                  const void* x, const void* y, uint64_t n, uint64_t want, int64_t want_index)
{
    uint64_t got = 0;
    int64_t index = -1;
    if (tt_upload(c, in, x, y, n)) return 1;
    int fails = tt_case(c, what, op, in, out, x, y, n, &got, &index);
    if (got != want || (tr_call(op) == 1 && index != want_index)) {
        ref_report("FAIL %s: %s %s->%s n=%llu: got 0x%llx index %lld, the spec says 0x%llx index %lld", what,
                   tr_op_name(op), tr_dtype_name(in), tr_dtype_name(out), (unsigned long long)n,
                   (unsigned long long)got, (long long)index, (unsigned long long)want, (long long)want_index);
        ++fails;
    }
    return fails;
}

int tt_semantics(tt_ctx* c)
{
    int fails = 0;
    int8_t b[1000];
    uint8_t u[1000];
    uint16_t h[4100];
    memset(b, 100, sizeof b);
    memset(u, 255, sizeof u);
    const hipreduce_op SUM = HIPREDUCE_OP_SUM;
    /* 1000 int8 values of 100: 100000 exactly in i64/i32/u64; modulo 2^8 (-96) and 2^16 (-31072). */
    fails += expect(c, "i8 x 1000", SUM, HIPREDUCE_I8, HIPREDUCE_I64, b, NULL, 1000, 100000, -1);
    fails += expect(c, "i8 x 1000", SUM, HIPREDUCE_I8, HIPREDUCE_I32, b, NULL, 1000, 100000, -1);
    fails += expect(c, "i8 x 1000", SUM, HIPREDUCE_I8, HIPREDUCE_U64, b, NULL, 1000, 100000, -1);
    fails += expect(c, "i8 x 1000", SUM, HIPREDUCE_I8, HIPREDUCE_I8, b, NULL, 1000, 0xa0, -1);
    fails += expect(c, "i8 x 1000", SUM, HIPREDUCE_I8, HIPREDUCE_I16, b, NULL, 1000, 0x86a0, -1);
    fails += expect(c, "u8 255 x 1000", SUM, HIPREDUCE_U8, HIPREDUCE_U8, u, NULL, 1000, 24, -1);
    fails += expect(c, "u8 255 x 1000", SUM, HIPREDUCE_U8, HIPREDUCE_U16, u, NULL, 1000, 58392, -1);
    fails += expect(c, "u8 255 x 1000", SUM, HIPREDUCE_U8, HIPREDUCE_I64, u, NULL, 1000, 255000, -1);
    /* Sign extension by the input's signedness, then read in the result's type. */
    const int8_t m1[3] = {-1, -1, -1}, mins[2] = {-128, -128}, dx[2] = {-128, 127}, dy[2] = {-128, -1};
    const int8_t sixteen[2] = {16, 16}, mabs[3] = {5, -128, 127};
    const int64_t i64min[2] = {3, INT64_MIN};
    fails += expect(c, "i8 -1 x 3", SUM, HIPREDUCE_I8, HIPREDUCE_U64, m1, NULL, 3, UINT64_MAX - 2, -1);
    fails += expect(c, "|-128| as u8", HIPREDUCE_OP_MAX_ABS, HIPREDUCE_I8, HIPREDUCE_U8, mabs, NULL, 3, 128, -1);
    fails += expect(c, "|INT64_MIN| as u64", HIPREDUCE_OP_MAX_ABS, HIPREDUCE_I64, HIPREDUCE_U64, i64min, NULL, 2,
                    UINT64_C(1) << 63, -1);
    fails += expect(c, "sum_abs -128 -128", HIPREDUCE_OP_SUM_ABS, HIPREDUCE_I8, HIPREDUCE_I16, mins, NULL, 2, 256, -1);
    fails += expect(c, "sum_abs -128 -128", HIPREDUCE_OP_SUM_ABS, HIPREDUCE_I8, HIPREDUCE_I8, mins, NULL, 2, 0, -1);
    fails += expect(c, "sum_abs -128", HIPREDUCE_OP_SUM_ABS, HIPREDUCE_I8, HIPREDUCE_I8, mins, NULL, 1, 0x80, -1);
    fails += expect(c, "sum_squares -128 -128", HIPREDUCE_OP_SUM_SQUARES, HIPREDUCE_I8, HIPREDUCE_I32, mins, NULL, 2,
                    32768, -1);
    fails += expect(c, "sum_squares -128 -128", HIPREDUCE_OP_SUM_SQUARES, HIPREDUCE_I8, HIPREDUCE_I16, mins, NULL, 2,
                    0x8000, -1);
    fails += expect(c, "dot", HIPREDUCE_OP_DOT, HIPREDUCE_I8, HIPREDUCE_I16, dx, dy, 2, 16257, -1);
    fails += expect(c, "dot", HIPREDUCE_OP_DOT, HIPREDUCE_I8, HIPREDUCE_U64, dx, dy, 2, 16257, -1);
    fails += expect(c, "prod 16 16", HIPREDUCE_OP_PROD, HIPREDUCE_I8, HIPREDUCE_I16, sixteen, NULL, 2, 256, -1);
    fails += expect(c, "prod 16 16", HIPREDUCE_OP_PROD, HIPREDUCE_I8, HIPREDUCE_I8, sixteen, NULL, 2, 0, -1);
    /* f16/bf16: accumulated in f32, rounded once (4097 -> 4096 in f16; 257 -> 256 in bf16, ties to even). */
    for (int i = 0; i < 4097; ++i) h[i] = 0x3c00; /* 1.0 */
    fails += expect(c, "f16 1.0 x 4097", SUM, HIPREDUCE_F16, HIPREDUCE_F16, h, NULL, 4097, 0x6c00, -1);
    fails += expect(c, "f16 1.0 x 4097", SUM, HIPREDUCE_F16, HIPREDUCE_F32, h, NULL, 4097, 0x45800800, -1);
    fails += expect(c, "f16 1.0 x 4097", SUM, HIPREDUCE_F16, HIPREDUCE_F64, h, NULL, 4097, UINT64_C(0x40b0010000000000), -1);
    const uint16_t bf[2] = {0x4380, 0x3f80}, top[2] = {0x7bff, 0x7bff}, three_four[2] = {0x4200, 0x4400};
    const uint16_t nan_in[3] = {0x3c00, 0x7d01, 0x3c00}; /* a NaN with a payload, not the canonical one */
    fails += expect(c, "bf16 256 + 1", SUM, HIPREDUCE_BF16, HIPREDUCE_BF16, bf, NULL, 2, 0x4380, -1);
    fails += expect(c, "bf16 256 + 1", SUM, HIPREDUCE_BF16, HIPREDUCE_F32, bf, NULL, 2, 0x43808000, -1);
    fails += expect(c, "f16 65504 x 2", SUM, HIPREDUCE_F16, HIPREDUCE_F16, top, NULL, 2, 0x7c00, -1);
    fails += expect(c, "f16 65504 x 2", SUM, HIPREDUCE_F16, HIPREDUCE_F32, top, NULL, 2, 0x47ffe000, -1);
    fails += expect(c, "f16 NaN", SUM, HIPREDUCE_F16, HIPREDUCE_F16, nan_in, NULL, 3, 0x7e00, -1);
    fails += expect(c, "f16 NaN", HIPREDUCE_OP_MAX, HIPREDUCE_F16, HIPREDUCE_F16, nan_in, NULL, 3, 0x7e00, -1);
    fails += expect(c, "f16 NaN", HIPREDUCE_OP_NRM2, HIPREDUCE_F16, HIPREDUCE_F32, nan_in, NULL, 3, 0x7fc00000, -1);
    fails += expect(c, "f16 3, 4", HIPREDUCE_OP_NRM2, HIPREDUCE_F16, HIPREDUCE_F32, three_four, NULL, 2, 0x40a00000, -1);
    fails += expect(c, "f16 3, 4", HIPREDUCE_OP_DOT, HIPREDUCE_F16, HIPREDUCE_F16, three_four, three_four, 2,
                    0x4e40 /* 25 */, -1);
    /* n = 0: sum-likes, nrm2 and max_abs +0, prod 1, min +inf, max -inf. */
    fails += expect(c, "empty", SUM, HIPREDUCE_F16, HIPREDUCE_F16, NULL, NULL, 0, 0, -1);
    fails += expect(c, "empty", HIPREDUCE_OP_PROD, HIPREDUCE_BF16, HIPREDUCE_BF16, NULL, NULL, 0, 0x3f80, -1);
    fails += expect(c, "empty", HIPREDUCE_OP_PROD, HIPREDUCE_F16, HIPREDUCE_F64, NULL, NULL, 0, UINT64_C(0x3ff0000000000000), -1);
    fails += expect(c, "empty", HIPREDUCE_OP_MIN, HIPREDUCE_F16, HIPREDUCE_F16, NULL, NULL, 0, 0x7c00, -1);
    fails += expect(c, "empty", HIPREDUCE_OP_MAX, HIPREDUCE_BF16, HIPREDUCE_BF16, NULL, NULL, 0, 0xff80, -1);
    fails += expect(c, "empty", HIPREDUCE_OP_MAX_ABS, HIPREDUCE_F64, HIPREDUCE_F64, NULL, NULL, 0, 0, -1);
    fails += expect(c, "empty", HIPREDUCE_OP_MAX_ABS, HIPREDUCE_I32, HIPREDUCE_U32, NULL, NULL, 0, 0, -1);
    fails += expect(c, "empty", HIPREDUCE_OP_NRM2, HIPREDUCE_F64, HIPREDUCE_F64, NULL, NULL, 0, 0, -1);
    fails += expect(c, "empty", HIPREDUCE_OP_SUM_SQUARES, HIPREDUCE_F32, HIPREDUCE_F64, NULL, NULL, 0, 0, -1);
    fails += expect(c, "empty", HIPREDUCE_OP_DOT, HIPREDUCE_BF16, HIPREDUCE_F32, NULL, NULL, 0, 0, -1);
    fails += expect(c, "empty", HIPREDUCE_OP_SUM_ABS, HIPREDUCE_I8, HIPREDUCE_U64, NULL, NULL, 0, 0, -1);
    fails += expect(c, "empty", HIPREDUCE_OP_PROD, HIPREDUCE_U8, HIPREDUCE_U32, NULL, NULL, 0, 1, -1);
    /* -0.0 sums: lanes start from -0.0, so a sum of -0.0 alone is -0.0; max_abs of -0.0 is +0.0. */
    const uint16_t nz[3] = {0x8000, 0x8000, 0x8000};
    fails += expect(c, "-0.0 x 3", SUM, HIPREDUCE_F16, HIPREDUCE_F16, nz, NULL, 3, 0x8000, -1);
    fails += expect(c, "-0.0 x 3", SUM, HIPREDUCE_BF16, HIPREDUCE_F32, nz, NULL, 3, 0x80000000, -1);
    fails += expect(c, "-0.0 x 3", HIPREDUCE_OP_MAX_ABS, HIPREDUCE_F16, HIPREDUCE_F16, nz, NULL, 3, 0, -1);
    fails += expect(c, "-0.0 x 3", HIPREDUCE_OP_SUM_ABS, HIPREDUCE_F16, HIPREDUCE_F16, nz, NULL, 3, 0, -1);
    printf("semantics: %d failures\n", fails);
    return fails;
}

/* ---- argmin / argmax ---- */

/* A neutral value (never an extreme) for element i, and the planted low / high values. */
static void neutral(hipreduce_dtype d, void* x, uint64_t n)
{
    for (uint64_t i = 0; i < n; ++i) {
        if (tr_is_float(d)) tr_store_float(d, x, i, 1.0 + (double)(i % 7) / 8);
        else tr_store_bits(d, x, i, 10 + i % 5);
    }
}
static void put(hipreduce_dtype d, void* x, uint64_t i, int high, int type_limit)
{
    if (tr_is_float(d)) {
        tr_store_float(d, x, i, type_limit ? (high ? INFINITY : -INFINITY) : high ? 9.5 : -5.5);
        return;
    }
    const unsigned bits = (unsigned)(8 * tr_size(d));
    const uint64_t all = bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
    const uint64_t lo = tr_is_signed(d) ? UINT64_C(1) << (bits - 1) : 0, hi = tr_is_signed(d) ? all >> 1 : all;
    tr_store_bits(d, x, i, type_limit ? (high ? hi : lo) : high ? 100 : tr_is_signed(d) ? (uint64_t)-100 : 0);
}

static int arg_pair(tt_ctx* c, const char* what, hipreduce_dtype d, const void* x, uint64_t n, int64_t want_min,
                    int64_t want_max)
{
    int fails = 0;
    uint64_t bits;
    int64_t index;
    if (tt_upload(c, d, x, NULL, n)) return 1;
    const hipreduce_op ops[2] = {HIPREDUCE_OP_ARGMIN, HIPREDUCE_OP_ARGMAX};
    const int64_t want[2] = {want_min, want_max};
    for (int k = 0; k < 2; ++k) {
        fails += tt_case(c, what, ops[k], d, d, x, NULL, n, &bits, &index);
        if (want[k] != -2 && index != want[k]) { /* -2: not stated by hand */
            ref_report("FAIL %s: %s %s n=%llu: index %lld, the rule says %lld", what, tr_op_name(ops[k]),
                       tr_dtype_name(d), (unsigned long long)n, (long long)index, (long long)want[k]);
            ++fails;
        }
    }
    return fails;
}

int tt_arg_rules(tt_ctx* c)
{
    int fails = 0;
    const size_t room = (3 * 16384 + 64) * 8;
    unsigned char* x = (unsigned char*)malloc(room);
    if (!x) return 1;
    for (int di = 0; di < TR_NDTYPES; ++di) {
        const hipreduce_dtype d = (hipreduce_dtype)di;
        const int fl = tr_is_float(d);
        const uint64_t t = tr_tile_items(d);
        const uint64_t sizes[7] = {1, 2, 3, 33, 257, t + 1, 2 * t + 3};
        fails += arg_pair(c, "empty", d, x, 0, -1, -1);
        for (int si = 0; si < (c->smoke ? 5 : 7); ++si) {
            const uint64_t n = sizes[si];
            const uint64_t at[3] = {0, n / 2, n - 1};
            for (int pi = 0; pi < 3; ++pi) {
                const uint64_t p = at[pi];
                if (pi > 0 && p == at[pi - 1]) continue;
                const int64_t ip = (int64_t)p;
                neutral(d, x, n); /* one low and one high value at p (argmin/argmax both there when n == 1) */
                put(d, x, p, 0, 0);
                if (n > 1) put(d, x, (p + 1) % n, 1, 0);
                fails += arg_pair(c, "unique", d, x, n, ip, n > 1 ? (ip + 1) % (int64_t)n : 0);
                neutral(d, x, n); /* ties: the extreme at p and at every later listed position */
                for (uint64_t q = p; q < n; q += (n - p + 2) / 3) put(d, x, q, 0, 1), put(d, x, n - 1, 0, 1);
                fails += arg_pair(c, "ties", d, x, n, ip, -2);
                for (uint64_t q = 0; q < n; ++q) put(d, x, q, 1, 1); /* every element the type's maximum */
                fails += arg_pair(c, "all max", d, x, n, 0, 0);
                if (!fl) continue;
                /* NaN at p (then another later, and infinities before it): the first NaN wins both. */
                neutral(d, x, n);
                if (p > 0) put(d, x, 0, 0, 1);
                if (p > 1) put(d, x, 1, 1, 1);
                tr_store_bits(d, x, p, tr_canonical_nan(d) | 1 | (pi == 1 ? UINT64_C(1) << (8 * tr_size(d) - 1) : 0));
                if (p + 1 < n) tr_store_float(d, x, n - 1, NAN);
                fails += arg_pair(c, "NaN", d, x, n, ip, ip);
                /* Signed zeros: -0.0 orders below +0.0. */
                for (uint64_t q = 0; q < n; ++q) tr_store_float(d, x, q, 0.0);
                tr_store_float(d, x, p, -0.0);
                fails += arg_pair(c, "-0.0 among +0.0", d, x, n, ip, n == 1 ? 0 : p == 0 ? 1 : 0);
                for (uint64_t q = 0; q < n; ++q) tr_store_float(d, x, q, -0.0);
                tr_store_float(d, x, p, 0.0);
                fails += arg_pair(c, "+0.0 among -0.0", d, x, n, n == 1 ? 0 : p == 0 ? 1 : 0, ip);
            }
        }
    }
    free(x);
    printf("argmin/argmax rules: %d failures\n", fails);
    return fails;
}
