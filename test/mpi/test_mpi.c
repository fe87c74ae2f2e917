/* The mpi suite (label mpi): run under mpiexec with any rank count. Every case builds, on every
 * rank, the whole concatenation from a seeded generator, reduces it with the core library on a
 * cpu-device handle (the single-process reference), and compares the bits with what the
 * collective call gives this rank for its slice, under many slicings: even, all on one rank,
 * random cuts with empty ranks, cuts at tile and level boundaries +-1, one element a rank. Then the
 * axis calls with the extent split, caller workspaces, and the misuse statuses.
 *
 *   test_mpi [cpu|gpu|mixed] [quick]
 * gpu: every rank reduces with a GPU handle (device memory); mixed: the odd ranks do. Without a
 * GPU both exit 77. quick: fewer, smaller cases (the 64-rank run). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hipreduce/hipreduce_mpi.h"
#include "mpi_suite.h"

/* Data kinds: values whose float sums depend on the order, values near 1 (products), small
 * integers with ties, -0.0 and +0.0 (arg and min/max rules), finite values over the dtype's
 * whole exponent range (exact sums: cancellation, carries), plus an optional NaN. */
enum { DATA_SPREAD, DATA_NEAR_ONE, DATA_TIES, DATA_WIDE };

static uint16_t f16_small(int v) /* -3..3 exactly, 0 as -0.0 half the time */
{
    static const uint16_t mag[4] = {0x0000, 0x3c00, 0x4000, 0x4200};
    return (uint16_t)((v < 0 ? 0x8000 : 0) | mag[v < 0 ? -v : v]);
}

static void element(hipreduce_dtype d, int kind, uint64_t seed, uint64_t i, unsigned char* out)
{
    const uint64_t h = mix(seed * 0x100000001b3ull ^ i);
    const uint64_t m = h >> 11;
    const int e = (int)(h % 31);
    if (kind == DATA_TIES) {
        int v = (int)(h % 7) - 3;
        const int negzero = v == 0 && (h >> 8 & 1);
        switch (d) {
        case HIPREDUCE_F16: { uint16_t b = negzero ? 0x8000 : f16_small(v); memcpy(out, &b, 2); return; }
        case HIPREDUCE_BF16: { float f = negzero ? -0.0f : (float)v; uint32_t u; memcpy(&u, &f, 4); uint16_t b = (uint16_t)(u >> 16); memcpy(out, &b, 2); return; }
        case HIPREDUCE_F32: { float f = negzero ? -0.0f : (float)v; memcpy(out, &f, 4); return; }
        case HIPREDUCE_F64: { double f = negzero ? -0.0 : (double)v; memcpy(out, &f, 8); return; }
        default: { int64_t w = v; memcpy(out, &w, hipreduce_dtype_size(d)); return; } /* little-endian low bytes */
        }
    }
    const uint64_t sign = h >> 63;
    if (kind == DATA_WIDE && hipreduce_dtype_size(d) > 1) { /* random bits with a finite exponent */
        const int bits = 8 * (int)hipreduce_dtype_size(d), ebits = d == HIPREDUCE_F16 ? 5 : d == HIPREDUCE_F64 ? 11 : 8;
        const uint64_t emax = (1ull << ebits) - 2, fbits = (uint64_t)(bits - 1 - ebits);
        const uint64_t b = sign << (bits - 1) | (h % (emax + 1)) << fbits | (m & ((1ull << fbits) - 1));
        memcpy(out, &b, hipreduce_dtype_size(d)); /* little-endian low bytes */
        return;
    }
    switch (d) {
    case HIPREDUCE_F16: {
        uint16_t b = kind == DATA_NEAR_ONE ? (uint16_t)((h & 1) ? 0x3c00 | (m & 0x3) : 0x3bfc | (m & 0x3))
                                           : (uint16_t)(sign << 15 | (uint64_t)(10 + e % 10) << 10 | (m & 0x3ff));
        memcpy(out, &b, 2);
        return;
    }
    case HIPREDUCE_BF16: {
        uint16_t b = kind == DATA_NEAR_ONE ? (uint16_t)((h & 1) ? 0x3f80 : 0x3f7f)
                                           : (uint16_t)(sign << 15 | (uint64_t)(120 + e % 14) << 7 | (m & 0x7f));
        memcpy(out, &b, 2);
        return;
    }
    case HIPREDUCE_F32: {
        uint32_t b = kind == DATA_NEAR_ONE ? (uint32_t)((h & 1) ? 0x3f800000u | (m & 0x3ff) : 0x3f7ffc00u | (m & 0x3ff))
                                           : (uint32_t)(sign << 31 | (uint64_t)(112 + e) << 23 | (m & 0x7fffff));
        memcpy(out, &b, 4);
        return;
    }
    case HIPREDUCE_F64: {
        uint64_t b = kind == DATA_NEAR_ONE ? ((h & 1) ? 0x3ff0000000000000ull | (m & 0xffffff) : 0x3feffffffff00000ull | (m & 0xfffff))
                                           : sign << 63 | (uint64_t)(1008 + e) << 52 | (m & 0xfffffffffffffull);
        memcpy(out, &b, 8);
        return;
    }
    default:
        memcpy(out, &h, hipreduce_dtype_size(d));
    }
}

static void put_nan(hipreduce_dtype d, unsigned char* p)
{
    const uint64_t nan = d == HIPREDUCE_F16 ? 0x7e01 : d == HIPREDUCE_BF16 ? 0xffc1 : d == HIPREDUCE_F32 ? 0x7fc00011u : 0xfff0000000000005ull;
    memcpy(p, &nan, hipreduce_dtype_size(d));
}

/* hipreduce_argreduce's ops: a value and an index a result. */
static int is_arg(hipreduce_op op)
{
    return op == HIPREDUCE_OP_ARGMIN || op == HIPREDUCE_OP_ARGMAX || op == HIPREDUCE_OP_NANARGMIN ||
           op == HIPREDUCE_OP_NANARGMAX;
}

/* Whether got has want's bits (a NaN result included: the canonical one on every device). */
static int same_result(hipreduce_dtype out, const unsigned char* want, const unsigned char* got)
{
    return memcmp(want, got, hipreduce_dtype_size(out)) == 0;
}

/* One full-reduction case: reduce, dot or argreduce. */
static void full_case(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, int kind, uint64_t n, int pattern,
                      uint64_t seed, int with_nan)
{
    const size_t es = hipreduce_dtype_size(in), os = hipreduce_dtype_size(out);
    uint64_t nl = 0;
    const uint64_t offset = mpi_slice(n, pattern, seed, tile_of(in), rank, ranks, &nl);
    const int dot = op == HIPREDUCE_OP_DOT || op == HIPREDUCE_OP_DOT_EXACT;
    const int arg = is_arg(op);
    unsigned char* x = (unsigned char*)malloc((size_t)(n * es) + 1);
    unsigned char* y = dot ? (unsigned char*)malloc((size_t)(n * es) + 1) : NULL;
    for (uint64_t i = 0; i < n; ++i) {
        element(in, kind, seed, i, x + i * es);
        if (y) element(in, kind, seed ^ 0x5555, i, y + i * es);
    }
    if (with_nan && n > 0) {
        put_nan(in, x + (seed % n) * es);
        put_nan(in, x + (seed / 3 % n) * es);
        const int nan_aware = op == HIPREDUCE_OP_NANARGMIN || op == HIPREDUCE_OP_NANARGMAX;
        for (uint64_t i = 0; nan_aware && i < n / 2 + seed % 2; ++i) put_nan(in, x + i * es); /* whole ranks of NaNs */
    }
    unsigned char want[8] = {0}, got[8];
    int64_t want_i = -7, got_i = -9;
    hipreduce_status ws, gs;
    void* px = place(x + offset * es, (size_t)(nl * es));
    void* py = y ? place(y + offset * es, (size_t)(nl * es)) : NULL;
    memset(got, 0xa5, sizeof got);
    if (dot) {
        ws = hipreduce_dot_op(cpu, op, in, x, y, n, out, want, HIPREDUCE_RESULT_HOST);
        gs = op == HIPREDUCE_OP_DOT
                 ? hipreduce_mpi_dot(mine, MPI_COMM_WORLD, in, px, py, nl, out, got, HIPREDUCE_RESULT_HOST)
                 : hipreduce_mpi_dot_op(mine, MPI_COMM_WORLD, op, in, px, py, nl, out, got, HIPREDUCE_RESULT_HOST);
    } else if (arg) {
        ws = hipreduce_argreduce(cpu, op, in, x, n, want, &want_i, HIPREDUCE_RESULT_HOST);
        gs = hipreduce_mpi_argreduce(mine, MPI_COMM_WORLD, op, in, px, nl, got, &got_i, HIPREDUCE_RESULT_HOST);
    } else {
        ws = hipreduce_reduce(cpu, op, in, x, n, out, want, HIPREDUCE_RESULT_HOST);
        gs = hipreduce_mpi_reduce(mine, MPI_COMM_WORLD, op, in, px, nl, out, got, HIPREDUCE_RESULT_HOST);
    }
    ++checks;
    if (ws != HIPREDUCE_STATUS_SUCCESS || gs != HIPREDUCE_STATUS_SUCCESS)
        FAIL("%s %s->%s n=%llu pattern %d: status %d (reference %d): %s", hipreduce_op_name(op), hipreduce_dtype_name(in),
             hipreduce_dtype_name(out), (unsigned long long)n, pattern, gs, ws, hipreduce_mpi_last_error_message());
    else if (!same_result(out, want, got) || (arg && want_i != got_i)) {
        uint64_t w = 0, g = 0;
        memcpy(&w, want, os);
        memcpy(&g, got, os);
        FAIL("%s %s->%s n=%llu pattern %d seed %llu: bits %llx (index %lld), single process %llx (index %lld)",
             hipreduce_op_name(op), hipreduce_dtype_name(in), hipreduce_dtype_name(out), (unsigned long long)n, pattern,
             (unsigned long long)seed, (unsigned long long)g, (long long)got_i, (unsigned long long)w, (long long)want_i);
    }
    if (seed % 4 == 0 && ws == HIPREDUCE_STATUS_SUCCESS) {
        /* results in device memory on GPU ranks (host memory on the others, in the same call) */
        const hipreduce_location loc = on_gpu ? HIPREDUCE_RESULT_DEVICE : HIPREDUCE_RESULT_HOST;
        unsigned char* dv = on_gpu ? (unsigned char*)gm_alloc(16) : got;
        int64_t* di = on_gpu ? (int64_t*)(void*)(dv + 8) : &got_i;
        memset(got, 0xa5, sizeof got);
        got_i = -9;
        if (dot) gs = hipreduce_mpi_dot_op(mine, MPI_COMM_WORLD, op, in, px, py, nl, out, dv, loc);
        else if (arg) gs = hipreduce_mpi_argreduce(mine, MPI_COMM_WORLD, op, in, px, nl, dv, di, loc);
        else gs = hipreduce_mpi_reduce(mine, MPI_COMM_WORLD, op, in, px, nl, out, dv, loc);
        if (on_gpu && (gm_to_host(got, dv, 8) != 0 || gm_to_host(&got_i, di, 8) != 0)) FAIL("device result copy failed");
        ++checks;
        if (gs != HIPREDUCE_STATUS_SUCCESS || !same_result(out, want, got) || (arg && want_i != got_i))
            FAIL("%s %s->%s n=%llu pattern %d, %s results: status %d or other bits", hipreduce_op_name(op),
                 hipreduce_dtype_name(in), hipreduce_dtype_name(out), (unsigned long long)n, pattern,
                 on_gpu ? "device" : "host", gs);
        if (on_gpu) gm_free(dv);
    }
    unplace(px);
    unplace(py);
    free(x);
    free(y);
}

typedef struct triple {
    hipreduce_op op;
    hipreduce_dtype in, out;
    int kind;
} triple;

static void full_matrix(void)
{
    static const triple cases[] = {
        /* the tree: float accumulation */
        {HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F32, DATA_SPREAD},
        {HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F64, DATA_SPREAD},
        {HIPREDUCE_OP_SUM, HIPREDUCE_F16, HIPREDUCE_F16, DATA_SPREAD},
        {HIPREDUCE_OP_SUM, HIPREDUCE_BF16, HIPREDUCE_F32, DATA_SPREAD},
        {HIPREDUCE_OP_SUM, HIPREDUCE_F64, HIPREDUCE_F64, DATA_SPREAD},
        {HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F32, DATA_TIES}, /* -0.0 and +0.0 sums */
        {HIPREDUCE_OP_PROD, HIPREDUCE_F32, HIPREDUCE_F32, DATA_NEAR_ONE},
        {HIPREDUCE_OP_PROD, HIPREDUCE_F16, HIPREDUCE_F64, DATA_NEAR_ONE},
        {HIPREDUCE_OP_PROD, HIPREDUCE_F64, HIPREDUCE_F64, DATA_NEAR_ONE},
        {HIPREDUCE_OP_SUM_ABS, HIPREDUCE_F32, HIPREDUCE_F32, DATA_SPREAD},
        {HIPREDUCE_OP_SUM_ABS, HIPREDUCE_BF16, HIPREDUCE_BF16, DATA_SPREAD},
        {HIPREDUCE_OP_SUM_SQUARES, HIPREDUCE_F16, HIPREDUCE_F32, DATA_SPREAD},
        {HIPREDUCE_OP_SUM_SQUARES, HIPREDUCE_F64, HIPREDUCE_F64, DATA_SPREAD},
        {HIPREDUCE_OP_NRM2, HIPREDUCE_F32, HIPREDUCE_F32, DATA_SPREAD},
        {HIPREDUCE_OP_NRM2, HIPREDUCE_F16, HIPREDUCE_F64, DATA_SPREAD},
        {HIPREDUCE_OP_NRM2, HIPREDUCE_F64, HIPREDUCE_F64, DATA_SPREAD},
        {HIPREDUCE_OP_DOT, HIPREDUCE_F32, HIPREDUCE_F32, DATA_SPREAD},
        {HIPREDUCE_OP_DOT, HIPREDUCE_BF16, HIPREDUCE_F32, DATA_SPREAD},
        {HIPREDUCE_OP_DOT, HIPREDUCE_F64, HIPREDUCE_F64, DATA_SPREAD},
        /* exact: one allreduce */
        {HIPREDUCE_OP_SUM, HIPREDUCE_I8, HIPREDUCE_I64, DATA_SPREAD},
        {HIPREDUCE_OP_SUM, HIPREDUCE_I32, HIPREDUCE_I32, DATA_SPREAD},
        {HIPREDUCE_OP_SUM, HIPREDUCE_U16, HIPREDUCE_U32, DATA_SPREAD},
        {HIPREDUCE_OP_PROD, HIPREDUCE_I32, HIPREDUCE_I32, DATA_SPREAD},
        {HIPREDUCE_OP_SUM_SQUARES, HIPREDUCE_I16, HIPREDUCE_I64, DATA_SPREAD},
        {HIPREDUCE_OP_DOT, HIPREDUCE_I32, HIPREDUCE_I64, DATA_SPREAD},
        {HIPREDUCE_OP_MIN, HIPREDUCE_F32, HIPREDUCE_F32, DATA_TIES},
        {HIPREDUCE_OP_MAX, HIPREDUCE_F16, HIPREDUCE_F16, DATA_TIES},
        {HIPREDUCE_OP_MAX, HIPREDUCE_I16, HIPREDUCE_I16, DATA_SPREAD},
        {HIPREDUCE_OP_MIN, HIPREDUCE_U64, HIPREDUCE_U64, DATA_SPREAD},
        {HIPREDUCE_OP_MAX_ABS, HIPREDUCE_I8, HIPREDUCE_U8, DATA_SPREAD},
        {HIPREDUCE_OP_MAX_ABS, HIPREDUCE_F64, HIPREDUCE_F64, DATA_SPREAD},
        {HIPREDUCE_OP_AND, HIPREDUCE_U32, HIPREDUCE_U32, DATA_TIES},
        {HIPREDUCE_OP_OR, HIPREDUCE_I64, HIPREDUCE_I64, DATA_SPREAD},
        {HIPREDUCE_OP_XOR, HIPREDUCE_U8, HIPREDUCE_U8, DATA_SPREAD},
        {HIPREDUCE_OP_ARGMIN, HIPREDUCE_F32, HIPREDUCE_F32, DATA_TIES},
        {HIPREDUCE_OP_ARGMAX, HIPREDUCE_BF16, HIPREDUCE_BF16, DATA_TIES},
        {HIPREDUCE_OP_ARGMAX, HIPREDUCE_I8, HIPREDUCE_I8, DATA_TIES},
        {HIPREDUCE_OP_ARGMIN, HIPREDUCE_F64, HIPREDUCE_F64, DATA_SPREAD},
        {HIPREDUCE_OP_NANARGMIN, HIPREDUCE_F32, HIPREDUCE_F32, DATA_TIES}, /* a rank's NaNs lose to another's values */
        {HIPREDUCE_OP_NANARGMAX, HIPREDUCE_F16, HIPREDUCE_F16, DATA_TIES},
        {HIPREDUCE_OP_NANARGMAX, HIPREDUCE_F64, HIPREDUCE_F64, DATA_SPREAD},
        /* exact sums: one allreduce of the accumulators */
        {HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F32, HIPREDUCE_F32, DATA_WIDE},
        {HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F32, HIPREDUCE_F64, DATA_SPREAD},
        {HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F64, HIPREDUCE_F64, DATA_WIDE},
        {HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F16, HIPREDUCE_F16, DATA_WIDE},
        {HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_BF16, HIPREDUCE_F32, DATA_TIES}, /* -0.0, +0.0, NaN */
        {HIPREDUCE_OP_DOT_EXACT, HIPREDUCE_F32, HIPREDUCE_F32, DATA_WIDE},
        {HIPREDUCE_OP_DOT_EXACT, HIPREDUCE_F64, HIPREDUCE_F64, DATA_WIDE},
    };
    const int count = (int)(sizeof cases / sizeof cases[0]);
    for (int c = 0; c < count; ++c) {
        const triple t = cases[c];
        const uint64_t tile = tile_of(t.in);
        const uint64_t sizes[] = {0, 1, 2, 5, tile - 1, tile, tile + 1, 3 * tile + 17, 11 * tile - 3};
        static const int quick_sizes[] = {0, 3, 6, 7}; /* 0, 5, tile + 1, 3 tile + 17 */
        const int nsizes = quick ? 4 : (int)(sizeof sizes / sizeof sizes[0]);
        for (int q = 0; q < nsizes; ++q) {
            const int s = quick ? quick_sizes[q] : q;
            for (int p = 0; p < PATTERNS; ++p) {
                const uint64_t seed = (uint64_t)c * 1000003u + (uint64_t)s * 101u + (uint64_t)p;
                const int nan = (t.kind == DATA_TIES && (seed % 3 == 0)) || (t.op == HIPREDUCE_OP_SUM && s == 6 && p == 2);
                full_case(t.op, t.in, t.out, t.kind, sizes[s], p, seed, nan);
            }
        }
    }
    if (quick) return;
    /* several levels: tile^2 + a few elements (3 levels), cut at the level-2 boundary and elsewhere */
    static const triple deep[] = {
        {HIPREDUCE_OP_SUM, HIPREDUCE_F64, HIPREDUCE_F64, DATA_SPREAD},
        {HIPREDUCE_OP_NRM2, HIPREDUCE_F64, HIPREDUCE_F64, DATA_SPREAD},
        {HIPREDUCE_OP_DOT, HIPREDUCE_F64, HIPREDUCE_F64, DATA_SPREAD},
    };
    for (int c = 0; c < 3; ++c) {
        const uint64_t tile = tile_of(deep[c].in);
        for (int p = 0; p < PATTERNS; p += (c == 0 ? 1 : 2))
            full_case(deep[c].op, deep[c].in, deep[c].out, deep[c].kind, tile * tile + 2 * tile + 3, p, 77u + (uint64_t)p, 0);
    }
}

/* The axis calls: [outer][extent][inner], the extent split over the ranks. */
static void axis_case(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, int kind, uint64_t outer, uint64_t extent,
                      uint64_t inner, int pattern, uint64_t seed, hipreduce_status expect)
{
    const size_t es = hipreduce_dtype_size(in), os = hipreduce_dtype_size(out);
    uint64_t e = 0; /* cuts at the order's tiles */
    const uint64_t offset = mpi_slice(extent, pattern, seed, inner > 1 ? 256 : tile_of(in), rank, ranks, &e);
    const int arg = is_arg(op);
    unsigned char* x = (unsigned char*)malloc((size_t)(outer * extent * inner * es) + 1);
    unsigned char* local = (unsigned char*)malloc((size_t)(outer * e * inner * es) + 1);
    for (uint64_t i = 0; i < outer * extent * inner; ++i) element(in, kind, seed, i, x + i * es);
    for (uint64_t o = 0; o < outer; ++o)
        memcpy(local + o * e * inner * es, x + (o * extent + offset) * inner * es, (size_t)(e * inner * es));
    const uint64_t results = outer * inner;
    unsigned char* want = (unsigned char*)calloc((size_t)results + 1, os);
    unsigned char* got = (unsigned char*)calloc((size_t)results + 1, os);
    int64_t* want_i = (int64_t*)calloc((size_t)results + 1, 8);
    int64_t* got_i = (int64_t*)calloc((size_t)results + 1, 8);
    void* px = place(local, (size_t)(outer * e * inner * es));
    hipreduce_status ws, gs;
    if (arg) {
        ws = hipreduce_argreduce_axis(cpu, op, in, x, outer, extent, inner, want, want_i, HIPREDUCE_RESULT_HOST);
        gs = hipreduce_mpi_argreduce_axis(mine, MPI_COMM_WORLD, op, in, px, outer, e, inner, got, got_i, HIPREDUCE_RESULT_HOST);
    } else {
        ws = hipreduce_reduce_axis(cpu, op, in, x, outer, extent, inner, out, want, HIPREDUCE_RESULT_HOST);
        gs = hipreduce_mpi_reduce_axis(mine, MPI_COMM_WORLD, op, in, px, outer, e, inner, out, got, HIPREDUCE_RESULT_HOST);
    }
    ++checks;
    if (gs != expect || ws != HIPREDUCE_STATUS_SUCCESS)
        FAIL("axis %s %s [%llu][%llu][%llu] pattern %d: status %d, expected %d: %s", hipreduce_op_name(op),
             hipreduce_dtype_name(in), (unsigned long long)outer, (unsigned long long)extent, (unsigned long long)inner,
             pattern, gs, expect, hipreduce_mpi_last_error_message());
    else if (expect == HIPREDUCE_STATUS_SUCCESS &&
             (memcmp(want, got, (size_t)results * os) != 0 || (arg && memcmp(want_i, got_i, (size_t)results * 8) != 0)))
        FAIL("axis %s %s [%llu][%llu][%llu] pattern %d: results differ from the single process", hipreduce_op_name(op),
             hipreduce_dtype_name(in), (unsigned long long)outer, (unsigned long long)extent, (unsigned long long)inner,
             pattern);
    unplace(px);
    free(x), free(local), free(want), free(got), free(want_i), free(got_i);
}

static void axis_matrix(void)
{
    static const triple rows[] = {
        {HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F32, DATA_SPREAD},
        {HIPREDUCE_OP_NRM2, HIPREDUCE_F64, HIPREDUCE_F64, DATA_SPREAD},
        {HIPREDUCE_OP_PROD, HIPREDUCE_BF16, HIPREDUCE_F32, DATA_NEAR_ONE},
        {HIPREDUCE_OP_SUM, HIPREDUCE_I32, HIPREDUCE_I64, DATA_SPREAD},
        {HIPREDUCE_OP_MIN, HIPREDUCE_F32, HIPREDUCE_F32, DATA_TIES},
        {HIPREDUCE_OP_ARGMAX, HIPREDUCE_F16, HIPREDUCE_F16, DATA_TIES},
        {HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F32, HIPREDUCE_F64, DATA_WIDE},
    };
    for (int c = 0; c < 7; ++c) {
        const uint64_t tile = tile_of(rows[c].in);
        const uint64_t extents[] = {0, 3, tile + 5, 2 * tile - 1};
        for (int s = quick ? 1 : 0; s < (quick ? 3 : 4); ++s)
            for (int p = 0; p < PATTERNS; ++p) {
                const uint64_t seed = 500u + (uint64_t)c * 31u + (uint64_t)s * 7u + (uint64_t)p;
                axis_case(rows[c].op, rows[c].in, rows[c].out, rows[c].kind, 3, extents[s], 1, p, seed, HIPREDUCE_STATUS_SUCCESS);
                /* columns: the strided order's blocks of 256 cut across ranks */
                const uint64_t column_extents[] = {1, 2, 257, 256 * 256 + 3};
                if (s < 3 || !quick)
                    axis_case(rows[c].op, rows[c].in, rows[c].out, rows[c].kind, 2, column_extents[s], 5, p, seed,
                              HIPREDUCE_STATUS_SUCCESS);
            }
    }
}

/* Caller workspace on the handle: the size the query gives is enough; less fails on that rank
 * (WORKSPACE_TOO_SMALL) and every other rank says MPI_MISMATCH, nothing written. */
static void workspace_checks(void)
{
    const uint64_t n = 40000; /* an exact op's local call with levels: its stack is > 0 bytes */
    size_t bytes = 0;
    if (hipreduce_mpi_workspace_size(mine, HIPREDUCE_OP_SUM, HIPREDUCE_I32, 1, n, 1, HIPREDUCE_I64, &bytes) !=
        HIPREDUCE_STATUS_SUCCESS)
        FAIL("workspace query failed");
    size_t tree_bytes = 0;
    if (hipreduce_mpi_workspace_size(mine, HIPREDUCE_OP_SUM, HIPREDUCE_F32, 1, n, 1, HIPREDUCE_F32, &tree_bytes) !=
        HIPREDUCE_STATUS_SUCCESS)
        FAIL("workspace query (tree) failed");
    const size_t exact_bytes = bytes; /* the exact op's own size: one byte less must fail */
    if (bytes < tree_bytes) bytes = tree_bytes;
    unsigned char* x = (unsigned char*)malloc(n * 4 * (size_t)ranks);
    for (uint64_t i = 0; i < n * (uint64_t)ranks; ++i) element(HIPREDUCE_I32, DATA_SPREAD, 9, i, x + i * 4);
    void* px = place(x + (size_t)rank * n * 4, n * 4);
    void* ws = on_gpu ? gm_alloc(bytes + 1) : malloc(bytes + 1);
    int64_t want, got;
    float fwant, fgot;
    hipreduce_reduce(cpu, HIPREDUCE_OP_SUM, HIPREDUCE_I32, x, n * (uint64_t)ranks, HIPREDUCE_I64, &want, HIPREDUCE_RESULT_HOST);
    hipreduce_reduce(cpu, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, n * (uint64_t)ranks, HIPREDUCE_F32, &fwant, HIPREDUCE_RESULT_HOST);
    hipreduce_set_workspace(mine, ws, bytes);
    hipreduce_status s = hipreduce_mpi_reduce(mine, MPI_COMM_WORLD, HIPREDUCE_OP_SUM, HIPREDUCE_I32, px, n, HIPREDUCE_I64, &got,
                                              HIPREDUCE_RESULT_HOST);
    ++checks;
    if (s != HIPREDUCE_STATUS_SUCCESS || got != want) FAIL("caller workspace of %zu bytes: status %d", bytes, s);
    s = hipreduce_mpi_reduce(mine, MPI_COMM_WORLD, HIPREDUCE_OP_SUM, HIPREDUCE_F32, px, n, HIPREDUCE_F32, &fgot,
                             HIPREDUCE_RESULT_HOST);
    ++checks;
    if (s != HIPREDUCE_STATUS_SUCCESS ||
        !same_result(HIPREDUCE_F32, (const unsigned char*)&fwant, (const unsigned char*)&fgot))
        FAIL("caller workspace (tree): status %d", s);
    if (exact_bytes > 0) {
        const int small = rank == ranks - 1;
        hipreduce_set_workspace(mine, ws, small ? exact_bytes - 1 : bytes);
        got = 12345;
        s = hipreduce_mpi_reduce(mine, MPI_COMM_WORLD, HIPREDUCE_OP_SUM, HIPREDUCE_I32, px, n, HIPREDUCE_I64, &got,
                                 HIPREDUCE_RESULT_HOST);
        ++checks;
        const hipreduce_status expect = small ? HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL : HIPREDUCE_STATUS_MPI_MISMATCH;
        if (s != expect || got != 12345) FAIL("workspace one byte short on rank %d: status %d, expected %d", ranks - 1, s, expect);
    }
    hipreduce_set_workspace(mine, NULL, 0);
    if (on_gpu) gm_free(ws);
    else free(ws);
    unplace(px);
    free(x);
}

/* Misuse: a documented status on every rank, nothing written. */
static void misuse_checks(void)
{
    float x[64], r = 42.0f;
    for (int i = 0; i < 64; ++i) x[i] = (float)i;
    void* px = place(x, sizeof x);
    const hipreduce_status M = HIPREDUCE_STATUS_MPI_MISMATCH;
    struct {
        const char* what;
        int odd_rank_differs; /* the last rank passes something else */
        hipreduce_op op;
        hipreduce_dtype out;
        int null_result;
        hipreduce_location location;
        hipreduce_status own, others;
    } cases[] = {
        {"another op", 1, HIPREDUCE_OP_MAX, HIPREDUCE_F32, 0, HIPREDUCE_RESULT_HOST, M, M},
        {"another result dtype", 1, HIPREDUCE_OP_SUM, HIPREDUCE_F64, 0, HIPREDUCE_RESULT_HOST, M, M},
        {"a NULL result", 1, HIPREDUCE_OP_SUM, HIPREDUCE_F32, 1, HIPREDUCE_RESULT_HOST, HIPREDUCE_STATUS_INVALID_POINTER, M},
        {"a bad triple", 1, HIPREDUCE_OP_XOR, HIPREDUCE_F32, 0, HIPREDUCE_RESULT_HOST, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, M},
        {"a bad location", 1, HIPREDUCE_OP_SUM, HIPREDUCE_F32, 0, (hipreduce_location)7, HIPREDUCE_STATUS_INVALID_LOCATION, M},
    };
    for (int c = 0; c < 5; ++c) {
        if (ranks == 1 && cases[c].own == M) continue; /* one rank cannot disagree with itself */
        const int me = rank == ranks - 1;
        double big = 42.0;
        void* result = me && cases[c].null_result ? NULL : (me && cases[c].out == HIPREDUCE_F64 ? (void*)&big : (void*)&r);
        const hipreduce_status s = hipreduce_mpi_reduce(mine, MPI_COMM_WORLD, me ? cases[c].op : HIPREDUCE_OP_SUM,
                                                        HIPREDUCE_F32, px, 64, me ? cases[c].out : HIPREDUCE_F32, result,
                                                        me ? cases[c].location : HIPREDUCE_RESULT_HOST);
        const hipreduce_status expect = me ? cases[c].own : cases[c].others;
        ++checks;
        if (s != expect || r != 42.0f || big != 42.0)
            FAIL("misuse (%s on rank %d): status %d, expected %d, or a result written (%s)", cases[c].what, ranks - 1, s,
                 expect, hipreduce_mpi_last_error_message());
        if (s != HIPREDUCE_STATUS_SUCCESS && hipreduce_mpi_last_error_message()[0] == '\0')
            FAIL("misuse (%s): no message", cases[c].what);
    }
    /* an axis call whose outer differs */
    if (ranks > 1) {
        float out[4] = {42, 42, 42, 42};
        const hipreduce_status s = hipreduce_mpi_reduce_axis(mine, MPI_COMM_WORLD, HIPREDUCE_OP_SUM, HIPREDUCE_F32, px,
                                                             rank == 0 ? 2 : 4, 8, 1, HIPREDUCE_F32, out, HIPREDUCE_RESULT_HOST);
        ++checks;
        if (s != M || out[0] != 42) FAIL("axis with differing outer: status %d", s);
    }
    /* MPI_COMM_NULL: MPI_ERROR with a message, nothing collective */
    const hipreduce_status s = hipreduce_mpi_reduce(mine, MPI_COMM_NULL, HIPREDUCE_OP_SUM, HIPREDUCE_F32, px, 64,
                                                    HIPREDUCE_F32, &r, HIPREDUCE_RESULT_HOST);
    ++checks;
    if (s != HIPREDUCE_STATUS_MPI_ERROR || r != 42.0f || strstr(hipreduce_mpi_last_error_message(), "MPI_COMM_NULL") == NULL)
        FAIL("MPI_COMM_NULL: status %d (%s)", s, hipreduce_mpi_last_error_message());
    unplace(px);
}

/* A sub-communicator (ranks split in two halves), freed after use; the caller's error handler
 * stays as it was. */
static void communicator_checks(void)
{
    MPI_Errhandler before, after;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &before);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    int hr = 0, hn = 0;
    MPI_Comm_rank(half, &hr);
    MPI_Comm_size(half, &hn);
    double x[5000], want, got;
    for (int i = 0; i < 5000; ++i) element(HIPREDUCE_F64, DATA_SPREAD, 3, (uint64_t)i, (unsigned char*)&x[i]);
    const uint64_t per = 5000 / (uint64_t)hn, first = per * (uint64_t)hr, count = hr == hn - 1 ? 5000 - first : per;
    void* px = place(x + first, count * 8);
    hipreduce_reduce(cpu, HIPREDUCE_OP_SUM, HIPREDUCE_F64, x, 5000, HIPREDUCE_F64, &want, HIPREDUCE_RESULT_HOST);
    for (int twice = 0; twice < 2; ++twice) {
        const hipreduce_status s = hipreduce_mpi_reduce(mine, half, HIPREDUCE_OP_SUM, HIPREDUCE_F64, px, count,
                                                        HIPREDUCE_F64, &got, HIPREDUCE_RESULT_HOST);
        ++checks;
        if (s != HIPREDUCE_STATUS_SUCCESS || memcmp(&want, &got, 8) != 0) FAIL("sub-communicator: status %d", s);
    }
    MPI_Comm_free(&half);
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &after);
    ++checks;
    if (before != after) FAIL("the caller's error handler changed");
    MPI_Errhandler_free(&before);
    MPI_Errhandler_free(&after);
    unplace(px);
}

int main(int argc, char** argv)
{
    const int rc = suite_start(&argc, &argv);
    if (rc >= 0) return rc;
    full_matrix();
    axis_matrix();
    workspace_checks();
    misuse_checks();
    communicator_checks();
    return suite_end("mpi");
}
