/* The statistics across ranks (label mpi): mean, nansum, nanmean, count_nonzero, all, any, nanmin,
 * nanmax, logsumexp through hipreduce_mpi_reduce, and every one of them with var, std, var_mean,
 * std_mean and aminmax through hipreduce_mpi_reduce_stats (full, rows, the strided columns), the
 * fields call for some, each against the single process on the concatenation (a cpu-device
 * handle: hipreduce_reduce, hipreduce_reduce_axis or the plan), bit for bit on every rank, both
 * outputs, for splits that are even, all on one rank, random with empty ranks, at tile boundaries
 * +-1 and one element a rank; data with NaN, infinities, all NaN (nanmin/nanmax with empty ranks),
 * -0.0. Then the statuses: a plan op through hipreduce_mpi_reduce, a NULL results2, ranks that
 * disagree on the correction, argmin through the statistics call.
 *
 *   test_mpi_stats [cpu|gpu|mixed] [quick]
 * gpu: every rank's slice in device memory; mixed: the odd ranks'. Without a GPU both exit 77.
 * HIPREDUCE_MPI_TEST_STAGE=1 runs the GPU's staged path on cpu-device handles. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hipreduce/hipreduce_mpi.h"
#include "mpi_suite.h"

static int is_float(hipreduce_dtype d) { return d >= HIPREDUCE_F16; }

/* Data kinds: values over a spread of exponents (sums depend on the order) with ties, zeros of both
 * signs; the same with NaN and infinities now and then; every element NaN. Integers: random bits,
 * a third zeros. */
enum { DATA_SPREAD, DATA_SPECIALS, DATA_ALL_NAN };

static void element(hipreduce_dtype d, int kind, uint64_t seed, uint64_t i, unsigned char* out)
{
    const uint64_t h = mix(seed * 0x100000001b3ull ^ i);
    double v = ((double)(h >> 11) / 9007199254740992.0 - 0.3) * (double)(1ull << (h >> 5) % 24) / 4096.0;
    if (h % 11 == 0) v = (h >> 12 & 1) ? -0.0 : (double)((int)(h >> 13) % 5 - 2);
    if (kind == DATA_SPECIALS && h % 97 == 1) v = (h >> 20 & 1) ? -1.0 / 0.0 : 1.0 / 0.0;
    if ((kind == DATA_SPECIALS && h % 89 == 3) || kind == DATA_ALL_NAN) v = 0.0 / 0.0;
    switch (d) {
    case HIPREDUCE_F16: { const uint16_t b = hipreduce_f32_to_f16((float)v); memcpy(out, &b, 2); return; }
    case HIPREDUCE_BF16: { const uint16_t b = hipreduce_f32_to_bf16((float)v); memcpy(out, &b, 2); return; }
    case HIPREDUCE_F32: { const float f = (float)v; memcpy(out, &f, 4); return; }
    case HIPREDUCE_F64: memcpy(out, &v, 8); return;
    default: { const uint64_t b = h % 3 == 0 ? 0 : mix(h); memcpy(out, &b, hipreduce_dtype_size(d)); return; }
    }
}

/* The single process: the plan of [outer][n][inner] over axis 1 on the cpu device (LOGICAL rows,
 * or STRIDED columns), as hipreduce_mpi_reduce_stats promises. */
static hipreduce_status reference(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, const void* x, uint64_t outer,
                                  uint64_t n, uint64_t inner, double correction, void* values, void* values2)
{
    const uint64_t ext[3] = {outer, n, inner};
    hipreduce_reduction_desc d;
    hipreduce_plan plan = NULL;
    hipreduce_status s = hipreduce_desc_init(&d, op, in, out, 3, ext);
    d.num_axes = 1;
    d.axes[0] = 1;
    d.order = inner > 1 ? HIPREDUCE_ORDER_STRIDED : HIPREDUCE_ORDER_LOGICAL;
    d.correction = correction;
    if (s == HIPREDUCE_STATUS_SUCCESS) s = hipreduce_plan_create(cpu, &d, &plan);
    const int two = op == HIPREDUCE_OP_VAR_MEAN || op == HIPREDUCE_OP_STD_MEAN || op == HIPREDUCE_OP_AMINMAX;
    const hipreduce_operands o = {.x = x, .values = values, .values2 = two ? values2 : NULL};
    if (s == HIPREDUCE_STATUS_SUCCESS) s = hipreduce_plan_run(cpu, plan, &o, HIPREDUCE_RESULT_HOST);
    hipreduce_plan_destroy(plan);
    return s;
}

typedef struct stat_case {
    hipreduce_op op;
    hipreduce_dtype in, out;
    double correction;
} stat_case;

/* One case: [outer][n][inner] split along n; the statistics call, and for the reduce ops the
 * reduce (outer = inner = 1) or axis call too, against the single process. */
static void one(const stat_case* c, int kind, uint64_t outer, uint64_t n, uint64_t inner, int pattern, uint64_t seed)
{
    const size_t es = hipreduce_dtype_size(c->in), os = hipreduce_dtype_size(c->out);
    const uint64_t results = outer * inner;
    uint64_t e = 0;
    const uint64_t offset = mpi_slice(n, pattern, seed, inner > 1 ? 256 : tile_of(c->in), rank, ranks, &e);
    unsigned char* x = malloc((size_t)(outer * n * inner * es) + 1);
    unsigned char* local = malloc((size_t)(outer * e * inner * es) + 1);
    for (uint64_t i = 0; i < outer * n * inner; ++i) element(c->in, kind, seed, i, x + i * es);
    for (uint64_t o = 0; o < outer; ++o)
        memcpy(local + o * e * inner * es, x + (o * n + offset) * inner * es, (size_t)(e * inner * es));
    unsigned char *want = calloc(2 * results + 1, os), *got = calloc(2 * results + 1, os);
    const int two = c->op == HIPREDUCE_OP_VAR_MEAN || c->op == HIPREDUCE_OP_STD_MEAN || c->op == HIPREDUCE_OP_AMINMAX;
    const size_t bytes = (size_t)(results * os) * (two ? 2 : 1);
    void* px = place(local, (size_t)(outer * e * inner * es));
    const hipreduce_status ws = reference(c->op, c->in, c->out, x, outer, n, inner, c->correction, want, want + results * os);
    for (int call = 0; call < 2; ++call) {
        const int plan_op = c->correction != 0 || two || c->op == HIPREDUCE_OP_VAR || c->op == HIPREDUCE_OP_STD;
        if (call == 1 && plan_op) break;
        memset(got, 0xa5, 2 * results * os);
        hipreduce_status gs;
        if (call == 0)
            gs = hipreduce_mpi_reduce_stats(mine, MPI_COMM_WORLD, c->op, c->in, px, outer, e, inner, c->correction, c->out,
                                            got, two ? got + results * os : NULL, HIPREDUCE_RESULT_HOST);
        else if (outer == 1 && inner == 1)
            gs = hipreduce_mpi_reduce(mine, MPI_COMM_WORLD, c->op, c->in, px, e, c->out, got, HIPREDUCE_RESULT_HOST);
        else
            gs = hipreduce_mpi_reduce_axis(mine, MPI_COMM_WORLD, c->op, c->in, px, outer, e, inner, c->out, got,
                                           HIPREDUCE_RESULT_HOST);
        ++checks;
        if (ws != HIPREDUCE_STATUS_SUCCESS || gs != HIPREDUCE_STATUS_SUCCESS)
            FAIL("%s %s->%s [%llu][%llu][%llu] pattern %d call %d: status %d (reference %d): %s", hipreduce_op_name(c->op),
                 hipreduce_dtype_name(c->in), hipreduce_dtype_name(c->out), (unsigned long long)outer,
                 (unsigned long long)n, (unsigned long long)inner, pattern, call, gs, ws, hipreduce_mpi_last_error_message());
        else if (memcmp(want, got, bytes) != 0) {
            uint64_t w = 0, g = 0;
            memcpy(&w, want, os);
            memcpy(&g, got, os);
            FAIL("%s %s->%s [%llu][%llu][%llu] kind %d pattern %d seed %llu call %d: bits differ from the single process "
                 "(first result %llx, single process %llx)", hipreduce_op_name(c->op), hipreduce_dtype_name(c->in),
                 hipreduce_dtype_name(c->out), (unsigned long long)outer, (unsigned long long)n, (unsigned long long)inner,
                 kind, pattern, (unsigned long long)seed, call, (unsigned long long)g, (unsigned long long)w);
        }
    }
    unplace(px);
    free(x), free(local), free(want), free(got);
}

static const stat_case cases[] = {
    {HIPREDUCE_OP_MEAN, HIPREDUCE_F32, HIPREDUCE_F32, 0},       {HIPREDUCE_OP_MEAN, HIPREDUCE_F16, HIPREDUCE_F16, 0},
    {HIPREDUCE_OP_MEAN, HIPREDUCE_BF16, HIPREDUCE_F64, 0},      {HIPREDUCE_OP_MEAN, HIPREDUCE_F64, HIPREDUCE_F64, 0},
    {HIPREDUCE_OP_NANSUM, HIPREDUCE_F32, HIPREDUCE_F32, 0},     {HIPREDUCE_OP_NANSUM, HIPREDUCE_F16, HIPREDUCE_F32, 0},
    {HIPREDUCE_OP_NANMEAN, HIPREDUCE_F32, HIPREDUCE_F32, 0},    {HIPREDUCE_OP_NANMEAN, HIPREDUCE_BF16, HIPREDUCE_BF16, 0},
    {HIPREDUCE_OP_NANMEAN, HIPREDUCE_F64, HIPREDUCE_F64, 0},    {HIPREDUCE_OP_COUNT_NONZERO, HIPREDUCE_F32, HIPREDUCE_I64, 0},
    {HIPREDUCE_OP_COUNT_NONZERO, HIPREDUCE_I16, HIPREDUCE_I64, 0}, {HIPREDUCE_OP_ALL, HIPREDUCE_F32, HIPREDUCE_U8, 0},
    {HIPREDUCE_OP_ALL, HIPREDUCE_U8, HIPREDUCE_U8, 0},          {HIPREDUCE_OP_ANY, HIPREDUCE_F64, HIPREDUCE_U8, 0},
    {HIPREDUCE_OP_ANY, HIPREDUCE_I32, HIPREDUCE_U8, 0},         {HIPREDUCE_OP_NANMIN, HIPREDUCE_F32, HIPREDUCE_F32, 0},
    {HIPREDUCE_OP_NANMIN, HIPREDUCE_F16, HIPREDUCE_F32, 0},     {HIPREDUCE_OP_NANMAX, HIPREDUCE_F64, HIPREDUCE_F64, 0},
    {HIPREDUCE_OP_NANMAX, HIPREDUCE_BF16, HIPREDUCE_BF16, 0},   {HIPREDUCE_OP_LOGSUMEXP, HIPREDUCE_F32, HIPREDUCE_F32, 0},
    {HIPREDUCE_OP_LOGSUMEXP, HIPREDUCE_F16, HIPREDUCE_F16, 0},  {HIPREDUCE_OP_LOGSUMEXP, HIPREDUCE_F64, HIPREDUCE_F64, 0},
    {HIPREDUCE_OP_AMINMAX, HIPREDUCE_F32, HIPREDUCE_F32, 0},    {HIPREDUCE_OP_AMINMAX, HIPREDUCE_F16, HIPREDUCE_F16, 0},
    {HIPREDUCE_OP_AMINMAX, HIPREDUCE_I8, HIPREDUCE_I8, 0},      {HIPREDUCE_OP_AMINMAX, HIPREDUCE_U64, HIPREDUCE_U64, 0},
    {HIPREDUCE_OP_VAR, HIPREDUCE_F32, HIPREDUCE_F32, 1},        {HIPREDUCE_OP_STD, HIPREDUCE_F64, HIPREDUCE_F64, 0},
    {HIPREDUCE_OP_VAR_MEAN, HIPREDUCE_F32, HIPREDUCE_F32, 1},   {HIPREDUCE_OP_VAR_MEAN, HIPREDUCE_F16, HIPREDUCE_F32, 0.5},
    {HIPREDUCE_OP_STD_MEAN, HIPREDUCE_F64, HIPREDUCE_F64, 2},   {HIPREDUCE_OP_STD_MEAN, HIPREDUCE_BF16, HIPREDUCE_BF16, 1},
};
enum { CASES = sizeof cases / sizeof cases[0] };

static void matrix(void)
{
    for (int c = 0; c < CASES; ++c) {
        const uint64_t tile = tile_of(cases[c].in);
        const uint64_t fulls[] = {0, 1, 3, tile + 5, 3 * tile + 7};
        const int nan_ops = cases[c].op == HIPREDUCE_OP_NANMIN || cases[c].op == HIPREDUCE_OP_NANMAX ||
                            cases[c].op == HIPREDUCE_OP_NANMEAN || cases[c].op == HIPREDUCE_OP_NANSUM;
        for (int s = quick ? 1 : 0; s < 5; ++s)
            for (int p = 0; p < PATTERNS; ++p) {
                const uint64_t seed = 1000u + (uint64_t)c * 53u + (uint64_t)s * 7u + (uint64_t)p;
                const int kind = !is_float(cases[c].in) ? DATA_SPREAD : nan_ops && p == 1 ? DATA_ALL_NAN : (int)(seed % 2);
                one(&cases[c], kind, 1, fulls[s], 1, p, seed);
                if (s == 0 || s == 4) continue;
                /* rows, and columns in the strided order's blocks of 256 cut across ranks */
                const uint64_t column_extents[] = {0, 1, 257, 600, 0};
                one(&cases[c], kind, 3, fulls[s], 1, p, seed ^ 0x77);
                if (!quick) one(&cases[c], kind, 2, column_extents[s], 5, p, seed ^ 0x99);
            }
    }
    if (quick) return;
    /* a rank holding whole level-1 tiles: their level-2 nodes from rows of tile^2 (the moments
     * through var_mean's results, sums through the sum's) */
    const stat_case deep[] = {{HIPREDUCE_OP_VAR_MEAN, HIPREDUCE_F64, HIPREDUCE_F64, 1},
                              {HIPREDUCE_OP_MEAN, HIPREDUCE_F64, HIPREDUCE_F64, 0},
                              {HIPREDUCE_OP_LOGSUMEXP, HIPREDUCE_F64, HIPREDUCE_F64, 0}};
    for (int c = 0; c < 3; ++c)
        for (int p = 0; p < 2; ++p) one(&deep[c], DATA_SPREAD, 1, 2048 * 2048 * 2 + 5, 1, p, 4242u + (uint64_t)p);
}

/* The fields call: each field's bits against hipreduce_reduce on its concatenation. */
static void fields(void)
{
    const stat_case fc[] = {{HIPREDUCE_OP_MEAN, HIPREDUCE_F32, HIPREDUCE_F32, 0}, {HIPREDUCE_OP_NANMEAN, HIPREDUCE_F64, HIPREDUCE_F64, 0},
                            {HIPREDUCE_OP_LOGSUMEXP, HIPREDUCE_F32, HIPREDUCE_F32, 0}, {HIPREDUCE_OP_ALL, HIPREDUCE_I32, HIPREDUCE_U8, 0}};
    enum { F = 4, PER = 3000 };
    for (int c = 0; c < 4; ++c) {
        const size_t es = hipreduce_dtype_size(fc[c].in), os = hipreduce_dtype_size(fc[c].out);
        const uint64_t n = PER * (uint64_t)ranks;
        unsigned char* x = malloc(F * n * es);
        for (uint64_t i = 0; i < F * n; ++i) element(fc[c].in, DATA_SPECIALS, 77u + (uint64_t)c, i, x + i * es);
        const void* ptrs[F];
        void* dev[F];
        unsigned char want[F * 8], got[F * 8];
        for (int f = 0; f < F; ++f) {
            dev[f] = place(x + ((uint64_t)f * n + (uint64_t)rank * PER) * es, PER * es);
            ptrs[f] = dev[f];
            hipreduce_reduce(cpu, fc[c].op, fc[c].in, x + (uint64_t)f * n * es, n, fc[c].out, want + f * os, HIPREDUCE_RESULT_HOST);
        }
        const hipreduce_status s = hipreduce_mpi_reduce_fields(mine, MPI_COMM_WORLD, fc[c].op, fc[c].in, F, ptrs, PER, fc[c].out,
                                                               got, HIPREDUCE_RESULT_HOST);
        ++checks;
        if (s != HIPREDUCE_STATUS_SUCCESS || memcmp(want, got, F * os) != 0)
            FAIL("fields %s: status %d (%s) or other bits", hipreduce_op_name(fc[c].op), s, hipreduce_mpi_last_error_message());
        for (int f = 0; f < F; ++f) unplace(dev[f]);
        free(x);
    }
}

/* Statuses: the misuse gets a documented status on every rank, a message, nothing written. */
static void statuses(void)
{
    float x[64], r[2] = {42, 42}, r2[2] = {42, 42};
    for (int i = 0; i < 64; ++i) x[i] = (float)i;
    void* px = place(x, sizeof x);
    const hipreduce_status M = HIPREDUCE_STATUS_MPI_MISMATCH;
    const int last = rank == ranks - 1;
    hipreduce_status s = hipreduce_mpi_reduce(mine, MPI_COMM_WORLD, HIPREDUCE_OP_VAR, HIPREDUCE_F32, px, 64, HIPREDUCE_F32, r,
                                              HIPREDUCE_RESULT_HOST);
    ++checks;
    if (s != HIPREDUCE_STATUS_OP_DTYPE_MISMATCH || r[0] != 42 || !strstr(hipreduce_mpi_last_error_message(), "hipreduce_mpi_reduce_stats"))
        FAIL("var through hipreduce_mpi_reduce: status %d (%s)", s, hipreduce_mpi_last_error_message());
    s = hipreduce_mpi_reduce_stats(mine, MPI_COMM_WORLD, HIPREDUCE_OP_AMINMAX, HIPREDUCE_F32, px, 1, 64, 1, 0, HIPREDUCE_F32, r,
                                   last ? NULL : r2, HIPREDUCE_RESULT_HOST);
    ++checks;
    if (s != (last ? HIPREDUCE_STATUS_INVALID_POINTER : ranks > 1 ? M : HIPREDUCE_STATUS_INVALID_POINTER) || r[0] != 42 ||
        r2[0] != 42 || hipreduce_mpi_last_error_message()[0] == '\0')
        FAIL("aminmax with a NULL results2 on rank %d: status %d (%s)", ranks - 1, s, hipreduce_mpi_last_error_message());
    if (ranks > 1) {
        s = hipreduce_mpi_reduce_stats(mine, MPI_COMM_WORLD, HIPREDUCE_OP_VAR, HIPREDUCE_F32, px, 1, 64, 1, last ? 1.0 : 0.0,
                                       HIPREDUCE_F32, r, NULL, HIPREDUCE_RESULT_HOST);
        ++checks;
        if (s != M || r[0] != 42) FAIL("ranks with different corrections: status %d", s);
    }
    int64_t index = 7;
    s = hipreduce_mpi_reduce_stats(mine, MPI_COMM_WORLD, HIPREDUCE_OP_ARGMIN, HIPREDUCE_F32, px, 1, 64, 1, 0, HIPREDUCE_F32, r,
                                   &index, HIPREDUCE_RESULT_HOST);
    ++checks;
    if (s != HIPREDUCE_STATUS_OP_DTYPE_MISMATCH || r[0] != 42) FAIL("argmin through the statistics call: status %d", s);
    s = hipreduce_mpi_reduce_stats(mine, MPI_COMM_WORLD, HIPREDUCE_OP_MEAN, HIPREDUCE_F32, px, 1, 64, 1, 1.0, HIPREDUCE_F32, r,
                                   NULL, HIPREDUCE_RESULT_HOST);
    ++checks;
    if (s != HIPREDUCE_STATUS_NOT_SUPPORTED || r[0] != 42) FAIL("a correction for mean: status %d", s);
    unplace(px);
}

int main(int argc, char** argv)
{
    const int rc = suite_start(&argc, &argv);
    if (rc >= 0) return rc;
    matrix();
    fields();
    statuses();
    return suite_end("mpi stats");
}
