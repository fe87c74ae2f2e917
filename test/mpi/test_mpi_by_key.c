/* hipreduce_mpi_reduce_by_key (label mpi): every rank builds the whole input (rows and keys from a
 * seeded hash), reduces it alone with the single-process by-key plan on a cpu-device handle (the
 * reference), and passes its own slice of the rows, cut by mpi_split (even, all on one rank, random
 * cuts with empty ranks, ...); the results, argmin/argmax indices and counts must equal the
 * reference bit for bit for every op (rounded sums, products, norms included), on every rank. Then
 * the statuses: a rank's key out of range, a rank's NULL values, differing num_bins, dot: that
 * rank's own status, MPI_MISMATCH on the others, nothing written, every rank returns.
 *
 *   test_mpi_by_key [quick]
 * HIPREDUCE_MPI_TEST_STAGE=1 takes a GPU rank's path on the cpu device (its rows copied to the host
 * through the handle, its bins reduced by a cpu-device handle of its own). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hipreduce/hipreduce_mpi.h"
#include "mpi_check.h"

static int rank, ranks, quick, failures, checks;
static hipreduce_handle cpu;

typedef struct by_key_case {
    hipreduce_op op;
    hipreduce_dtype in, out;
} by_key_case;

static const by_key_case cases[] = {
    {HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F32},        {HIPREDUCE_OP_SUM, HIPREDUCE_F64, HIPREDUCE_F64},
    {HIPREDUCE_OP_SUM, HIPREDUCE_F16, HIPREDUCE_F32},        {HIPREDUCE_OP_SUM, HIPREDUCE_BF16, HIPREDUCE_BF16},
    {HIPREDUCE_OP_PROD, HIPREDUCE_F32, HIPREDUCE_F32},       {HIPREDUCE_OP_SUM_SQUARES, HIPREDUCE_F64, HIPREDUCE_F64},
    {HIPREDUCE_OP_SUM_ABS, HIPREDUCE_F32, HIPREDUCE_F64},    {HIPREDUCE_OP_NRM2, HIPREDUCE_F32, HIPREDUCE_F32},
    {HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F64, HIPREDUCE_F64},  {HIPREDUCE_OP_MIN, HIPREDUCE_F32, HIPREDUCE_F32},
    {HIPREDUCE_OP_MAX, HIPREDUCE_I64, HIPREDUCE_I64},        {HIPREDUCE_OP_SUM, HIPREDUCE_I32, HIPREDUCE_I64},
    {HIPREDUCE_OP_XOR, HIPREDUCE_U8, HIPREDUCE_U8},          {HIPREDUCE_OP_MAX_ABS, HIPREDUCE_F64, HIPREDUCE_F64},
    {HIPREDUCE_OP_ARGMIN, HIPREDUCE_F32, HIPREDUCE_F32},     {HIPREDUCE_OP_ARGMAX, HIPREDUCE_F64, HIPREDUCE_F64},
};
enum { NCASES = sizeof cases / sizeof cases[0] };

/* Value i of the whole input: floats over a spread of exponents (sums depend on the order) with
 * small ties, -0.0 and +0.0; integers from all their bits. */
static void element(hipreduce_dtype d, uint64_t seed, uint64_t i, unsigned char* out)
{
    const uint64_t h = mix(seed * 0x100000001b3ull ^ i);
    const int small = (int)((h >> 8) % 5) - 2;
    double v = ((double)(h >> 11) / 9007199254740992.0 - 0.5) * (double)(1ull << (h >> 5) % 30) / 1024.0;
    if (h % 11 == 0) v = small == 0 && (h >> 12 & 1) ? -0.0 : (double)small;
    switch (d) {
    case HIPREDUCE_F32: { const float x = (float)v; memcpy(out, &x, 4); return; }
    case HIPREDUCE_F64: memcpy(out, &v, 8); return;
    case HIPREDUCE_F16: { const uint16_t b = hipreduce_f32_to_f16((float)v / 64.0f); memcpy(out, &b, 2); return; }
    case HIPREDUCE_BF16: { const uint16_t b = hipreduce_f32_to_bf16((float)v); memcpy(out, &b, 2); return; }
    default: memcpy(out, &h, hipreduce_dtype_size(d));
    }
}

/* Key i: pattern 0 uniform, 1 one key, 2 skewed (most rows in the first bins), 3 sorted runs. */
static int64_t key(uint64_t seed, uint64_t i, uint64_t bins, int pattern)
{
    const uint64_t h = mix(seed ^ 0x5bd1e995ull ^ i * 31u);
    switch (pattern) {
    case 0: return (int64_t)(h % bins);
    case 1: return (int64_t)(bins / 2);
    case 2: return (int64_t)((h % bins) * (h >> 40 & 7) / 8 * (h >> 44 & 3) / 4 % bins);
    default: return (int64_t)(i * bins / (i + 977u) % bins);
    }
}

/* The single-process plan over all n rows into results/indices/counts (host). */
static hipreduce_status reference(const by_key_case* c, const void* values, const void* keys, hipreduce_dtype kd,
                                  uint64_t n, uint64_t row, uint64_t bins, void* results, int64_t* indices,
                                  int64_t* counts)
{
    hipreduce_reduction_desc d;
    memset(&d, 0, sizeof d);
    d.op = c->op, d.in_dtype = c->in, d.out_dtype = c->out, d.layout = HIPREDUCE_LAYOUT_BY_KEY;
    d.length = n, d.num_bins = bins, d.row = row, d.key_dtype = kd;
    hipreduce_plan plan = NULL;
    hipreduce_status s = hipreduce_plan_create(cpu, &d, &plan);
    hipreduce_operands o;
    memset(&o, 0, sizeof o);
    o.x = values, o.keys = keys, o.values = results, o.indices = indices, o.counts = counts;
    if (s == HIPREDUCE_STATUS_SUCCESS) s = hipreduce_plan_run(cpu, plan, &o, HIPREDUCE_RESULT_HOST);
    hipreduce_plan_destroy(plan);
    return s;
}

static void by_key_case_run(const by_key_case* c, uint64_t n, uint64_t row, uint64_t bins, int split, int pattern,
                            hipreduce_dtype kd, uint64_t seed)
{
    const int arg = c->op == HIPREDUCE_OP_ARGMIN || c->op == HIPREDUCE_OP_ARGMAX;
    const size_t ib = hipreduce_dtype_size(c->in), ob = hipreduce_dtype_size(arg ? c->in : c->out);
    const size_t kb = hipreduce_dtype_size(kd), results = (size_t)(bins * row);
    unsigned char* values = (unsigned char*)malloc((size_t)(n * row) * ib + 1);
    unsigned char* keys = (unsigned char*)malloc((size_t)n * kb + 1);
    unsigned char *want = (unsigned char*)malloc(results * ob + 1), *got = (unsigned char*)malloc(results * ob + 1);
    int64_t* ints = (int64_t*)malloc((2 * results + 2 * bins + 1) * sizeof *ints);
    int64_t *want_idx = ints, *got_idx = ints + results, *want_cnt = got_idx + results, *got_cnt = want_cnt + bins;
    for (uint64_t i = 0; i < n * row; ++i) element(c->in, seed, i, values + i * ib);
    for (uint64_t i = 0; i < n; ++i) {
        const int64_t k = key(seed, i, bins, pattern);
        if (kd == HIPREDUCE_I32) ((int32_t*)keys)[i] = (int32_t)k;
        else ((int64_t*)keys)[i] = k;
    }
    const hipreduce_status ref = reference(c, values, keys, kd, n, row, bins, want, arg ? want_idx : NULL, want_cnt);
    uint64_t* counts = (uint64_t*)malloc((size_t)ranks * sizeof *counts);
    mpi_split(n, split, seed, 257, ranks, counts);
    uint64_t first = 0;
    for (int r = 0; r < rank; ++r) first += counts[r];
    const hipreduce_status s = hipreduce_mpi_reduce_by_key(
        cpu, MPI_COMM_WORLD, c->op, c->in, values + first * row * ib, keys + first * kb, kd, counts[rank], row, bins,
        c->out, got, arg ? got_idx : NULL, got_cnt, HIPREDUCE_RESULT_HOST);
    ++checks;
    if (ref != HIPREDUCE_STATUS_SUCCESS || s != HIPREDUCE_STATUS_SUCCESS) {
        FAIL("op %d in %d: n %llu row %llu bins %llu: statuses %d (single process) and %d: %s", (int)c->op, (int)c->in,
             (unsigned long long)n, (unsigned long long)row, (unsigned long long)bins, (int)ref, (int)s,
             hipreduce_mpi_last_error_message());
    } else if (memcmp(want, got, results * ob) != 0 || memcmp(want_cnt, got_cnt, bins * sizeof *got_cnt) != 0 ||
               (arg && memcmp(want_idx, got_idx, results * sizeof *got_idx) != 0)) {
        FAIL("op %d in %d out %d: n %llu row %llu bins %llu split %d keys %d seed %llu: not the single-process bits",
             (int)c->op, (int)c->in, (int)c->out, (unsigned long long)n, (unsigned long long)row,
             (unsigned long long)bins, split, pattern, (unsigned long long)seed);
    }
    free(values), free(keys), free(want), free(got), free(ints), free(counts);
}

/* A status case: this rank's expected status (want), the outputs untouched (7.0; refilled after). */
static void status_case(const char* what, hipreduce_status s, hipreduce_status want, float* out, size_t count)
{
    ++checks;
    const size_t written = want == HIPREDUCE_STATUS_SUCCESS ? 0 : count; /* one rank: a case that fails across ranks */
    if (s != want) FAIL("%s: status %d, expected %d (%s)", what, (int)s, (int)want, hipreduce_mpi_last_error_message());
    if (s != HIPREDUCE_STATUS_SUCCESS && hipreduce_mpi_last_error_message()[0] == '\0') FAIL("%s: no message", what);
    for (size_t i = 0; i < written; ++i)
        if (out[i] != 7.0f) {
            FAIL("%s: result %zu written on a failing call", what, i);
            break;
        }
    for (size_t i = 0; i < count; ++i) out[i] = 7.0f;
}

static void status_checks(void)
{
    float v[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[4];
    int64_t idx[4];
    int32_t k[8] = {0, 1, 2, 3, 0, 1, 2, 3};
    const int bad = ranks - 1; /* the failing rank */
    const hipreduce_status other = ranks > 1 ? HIPREDUCE_STATUS_MPI_MISMATCH : HIPREDUCE_STATUS_SUCCESS;
    for (int i = 0; i < 4; ++i) out[i] = 7.0f;
    int32_t kb[8];
    memcpy(kb, k, sizeof k);
    if (rank == bad) kb[5] = 4;
    hipreduce_status s = hipreduce_mpi_reduce_by_key(cpu, MPI_COMM_WORLD, HIPREDUCE_OP_SUM, HIPREDUCE_F32, v, kb,
                                                     HIPREDUCE_I32, 8, 1, 4, HIPREDUCE_F32, out, NULL, NULL,
                                                     HIPREDUCE_RESULT_HOST);
    status_case("a key out of range", s, rank == bad ? HIPREDUCE_STATUS_INVALID_OFFSETS : other, out, 4);
    s = hipreduce_mpi_reduce_by_key(cpu, MPI_COMM_WORLD, HIPREDUCE_OP_SUM, HIPREDUCE_F32, rank == bad ? NULL : v, k,
                                    HIPREDUCE_I32, 8, 1, 4, HIPREDUCE_F32, out, NULL, NULL, HIPREDUCE_RESULT_HOST);
    status_case("NULL values", s, rank == bad ? HIPREDUCE_STATUS_INVALID_POINTER : other, out, 4);
    for (int i = 0; i < 8; ++i) kb[i] = i % 3; /* valid for 3 bins and for 4 */
    s = hipreduce_mpi_reduce_by_key(cpu, MPI_COMM_WORLD, HIPREDUCE_OP_SUM, HIPREDUCE_F32, v, kb, HIPREDUCE_I32, 8, 1,
                                    rank == bad ? 3 : 4, HIPREDUCE_F32, out, NULL, NULL, HIPREDUCE_RESULT_HOST);
    status_case("differing num_bins", s, other, out, 4);
    s = hipreduce_mpi_reduce_by_key(cpu, MPI_COMM_WORLD, HIPREDUCE_OP_DOT, HIPREDUCE_F32, v, k, HIPREDUCE_I32, 8, 1, 4,
                                    HIPREDUCE_F32, out, NULL, NULL, HIPREDUCE_RESULT_HOST);
    status_case("dot", s, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, out, 4);
    s = hipreduce_mpi_reduce_by_key(cpu, MPI_COMM_WORLD, HIPREDUCE_OP_ARGMIN, HIPREDUCE_F32, v, k, HIPREDUCE_I32, 8,
                                    1, 4, HIPREDUCE_F32, out, rank == bad ? NULL : idx, NULL,
                                    HIPREDUCE_RESULT_HOST);
    status_case("argmin without indices", s, rank == bad ? HIPREDUCE_STATUS_INVALID_POINTER : other, out, 4);
}

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    if (hipreduce_create(&cpu, HIPREDUCE_DEVICE_CPU, 0) != HIPREDUCE_STATUS_SUCCESS) {
        fprintf(stderr, "no cpu-device handle: %s\n", hipreduce_create_error_message());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    const uint64_t sizes[] = {0, 1, 7, 300, 2500, 9000};
    const uint64_t bins[] = {1, 5, 64, 1000};
    for (int c = 0; c < NCASES; ++c)
        for (int it = 0; it < (quick ? 4 : 12); ++it) {
            const uint64_t seed = (uint64_t)c * 1000u + (uint64_t)it, h = mix(seed);
            const uint64_t n = sizes[(h >> 3) % 6], row = (h >> 7) % 3 == 0 ? 3 : 1, nb = bins[(h >> 11) % 4];
            by_key_case_run(&cases[c], n, row, nb, (int)(h % PATTERNS), (int)((h >> 17) % 4),
                            (h >> 21) & 1 ? HIPREDUCE_I64 : HIPREDUCE_I32, seed);
        }
    by_key_case_run(&cases[0], 0, 2, 0, 0, 0, HIPREDUCE_I32, 78); /* no bins (and so no rows) */
    if (!quick) by_key_case_run(&cases[0], 200000, 1, 3, 2, 2, HIPREDUCE_I64, 79); /* deep trees per bin */
    status_checks();
    hipreduce_destroy(cpu);
    int mine[2] = {failures, checks}, all[2] = {0, 0};
    MPI_Allreduce(mine, all, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("mpi by key%s, %d ranks: %d checks, %d failures\n", quick ? " quick" : "", ranks, all[1], all[0]);
    MPI_Finalize();
    return all[0] != 0;
}
