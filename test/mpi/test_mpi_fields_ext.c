/* The fields call with weights and ranges (label mpi): hipreduce_mpi_reduce_fields_ext's weighted
 * sums (dot, dot_exact) and owned ranges against each field's own call (hipreduce_mpi_dot_op or
 * hipreduce_mpi_reduce on the rank's range) and against the single process on the concatenation
 * of the ranks' ranges (a cpu-device handle), bit for bit, for random field counts, lengths,
 * ranges (empty ones and empty ranks included; cells outside a range hold other values) and
 * results in host or device memory; its MPI calls against one field's. Then the statuses: a bad
 * range, weights with another op, a NULL weight, ranges of different lengths under the float
 * tree: that status on the rank, MPI_MISMATCH elsewhere, a message everywhere, nothing written.
 *
 *   test_mpi_fields_ext [cpu|gpu|mixed] [quick]
 * gpu: every rank's fields in device memory; mixed: the odd ranks'. Without a GPU both exit 77. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hipreduce/hipreduce_mpi.h"
#include "mpi_fields_data.h"

/* The non-blocking call's rounds, counted as the other MPI calls (mpi_fields_data.h). */
static long n_iallreduce;
int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                   MPI_Request* request)
{
    ++n_iallreduce;
    return PMPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm, request);
}

/* The exact cases started, then waited on (after the blocking call of the same case): results
 * written at the wait only, with the blocking call's bits, whatever happens to the data and on
 * the communicator in between; the exchange and one MPI_Iallreduce a 4096 fields. */
static void started_case(const triple* t, uint64_t nfields, const void* const* ptrs, const void* const* weights,
                         const uint64_t* ranges, uint64_t nl, unsigned char* host_data, size_t data_bytes,
                         fields_results* r, const char* what)
{
    const size_t bytes = (size_t)(nfields * r->os);
    unsigned char* blocking = (unsigned char*)malloc(bytes + 1);
    memcpy(blocking, r->got, bytes);
    memset(r->got, 0xa5, bytes);
    if (r->device && gm_to_device(r->dres, r->got, bytes) != 0) FAIL("device result fill failed");
    hipreduce_mpi_request q = NULL;
    long c0[4], c1[4];
    counts_now(c0);
    const long i0 = n_iallreduce;
    hipreduce_status s = hipreduce_mpi_reduce_fields_start(mine, MPI_COMM_WORLD, t->op, t->in, nfields, ptrs, weights,
                                                           ranges, nl, t->out, r->dres, results_location(r), &q);
    counts_now(c1);
    ++checks;
    if (s != HIPREDUCE_STATUS_SUCCESS || q == NULL)
        FAIL("%s started: status %d: %s", what, s, hipreduce_mpi_last_error_message());
    if (c1[0] != c0[0] || c1[1] != c0[1] + 1 || n_iallreduce - i0 != (long)((nfields + 4095) / 4096))
        FAIL("%s started: %ld MPI_Allreduce, %ld MPI_Allgather, %ld MPI_Iallreduce", what, c1[0] - c0[0], c1[1] - c0[1],
             n_iallreduce - i0);
    if (!on_gpu) memset(host_data, 0x5a, data_bytes); /* the accumulators were taken at the start */
    ++checks;
    for (uint64_t i = 0; i < bytes && !r->device; ++i)
        if (r->got[i] != 0xa5) {
            FAIL("%s: a result written before the wait", what);
            break;
        }
    int done = 0;
    for (int k = 0; k < 100 && !done && q != NULL; ++k)
        if ((s = hipreduce_mpi_test(q, &done)) != HIPREDUCE_STATUS_SUCCESS) FAIL("%s: test gave status %d", what, s);
    double other = 0; /* another call on the communicator between the start and the wait */
    if (hipreduce_mpi_reduce(mine, MPI_COMM_WORLD, HIPREDUCE_OP_MAX, HIPREDUCE_F64, NULL, 0, HIPREDUCE_F64, &other,
                             HIPREDUCE_RESULT_HOST) != HIPREDUCE_STATUS_SUCCESS)
        FAIL("a call between the start and the wait failed");
    s = q ? hipreduce_mpi_wait(q) : HIPREDUCE_STATUS_INVALID_POINTER;
    if (r->device && gm_to_host(r->got, r->dres, bytes) != 0) FAIL("device result copy failed");
    ++checks;
    if (s != HIPREDUCE_STATUS_SUCCESS || memcmp(r->got, blocking, bytes) != 0 || memcmp(r->got, r->want, bytes) != 0)
        FAIL("%s waited on: status %d (%s) or bits other than the blocking call's", what, s,
             hipreduce_mpi_last_error_message());
    free(blocking);
}

/* A case: the triple, whether weighted, whether its ranges may differ in length on a rank (the
 * exactly associative ops and exact sums). */
typedef struct ext_case {
    triple t;
    int weighted, any_ranges;
} ext_case;

static const ext_case cases[] = {
    {{HIPREDUCE_OP_DOT, HIPREDUCE_F32, HIPREDUCE_F32}, 1, 0},       {{HIPREDUCE_OP_DOT, HIPREDUCE_F64, HIPREDUCE_F64}, 1, 0},
    {{HIPREDUCE_OP_DOT, HIPREDUCE_F16, HIPREDUCE_F32}, 1, 0},       {{HIPREDUCE_OP_DOT, HIPREDUCE_BF16, HIPREDUCE_F32}, 1, 0},
    {{HIPREDUCE_OP_DOT_EXACT, HIPREDUCE_F64, HIPREDUCE_F64}, 1, 1}, {{HIPREDUCE_OP_DOT_EXACT, HIPREDUCE_F32, HIPREDUCE_F32}, 1, 1},
    {{HIPREDUCE_OP_DOT_EXACT, HIPREDUCE_F16, HIPREDUCE_F64}, 1, 1}, {{HIPREDUCE_OP_DOT, HIPREDUCE_I32, HIPREDUCE_I64}, 1, 1},
    {{HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F32}, 0, 0},       {{HIPREDUCE_OP_SUM, HIPREDUCE_F64, HIPREDUCE_F64}, 0, 0},
    {{HIPREDUCE_OP_NRM2, HIPREDUCE_F64, HIPREDUCE_F64}, 0, 0},      {{HIPREDUCE_OP_MEAN, HIPREDUCE_F32, HIPREDUCE_F32}, 0, 0},
    {{HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F64, HIPREDUCE_F64}, 0, 1}, {{HIPREDUCE_OP_SUM, HIPREDUCE_I32, HIPREDUCE_I64}, 0, 1},
    {{HIPREDUCE_OP_MAX, HIPREDUCE_F32, HIPREDUCE_F32}, 0, 1},       {{HIPREDUCE_OP_NANMIN, HIPREDUCE_F64, HIPREDUCE_F64}, 0, 1},
    {{HIPREDUCE_OP_XOR, HIPREDUCE_U8, HIPREDUCE_U8}, 0, 1},       {{HIPREDUCE_OP_DOTC, HIPREDUCE_C64, HIPREDUCE_C64}, 1, 0},
    {{HIPREDUCE_OP_DOTC, HIPREDUCE_C128, HIPREDUCE_C128}, 1, 0},   {{HIPREDUCE_OP_DOT, HIPREDUCE_C64, HIPREDUCE_C64}, 1, 0},
    {{HIPREDUCE_OP_SUM, HIPREDUCE_C128, HIPREDUCE_C128}, 0, 0},
};
enum { NCASES = sizeof cases / sizeof cases[0] };

/* Rank r's cells and field f's range there, the same on every rank (from the seed). mode 0: no
 * ranges (every field [0, n_local)); 1: ranges of one length on the rank, anywhere; 2: any ranges
 * (empty ones included); 3: `most` cells on every rank and ranges of one length, most - 4 to most.
 * Modes 0 to 2: empty ranks and empty ranges come often. */
static uint64_t cells_of(uint64_t seed, int r, uint64_t nfields, int mode, uint64_t most, uint64_t* ranges)
{
    const uint64_t h = mix(seed ^ (uint64_t)r * 0x9e37u);
    const uint64_t n = mode == 3 ? most : h % 4 == 0 ? 0 : (h >> 8) % (most + 1);
    const uint64_t len = mode == 3 ? most - (h >> 24) % 5 : n ? (h >> 24) % (n + 1) : 0;
    for (uint64_t f = 0; f < nfields; ++f) {
        const uint64_t g = mix(h ^ f << 20);
        uint64_t lo = 0, hi = n;
        if (mode & 1) lo = g % (n - len + 1), hi = lo + len;
        if (mode == 2) lo = g % (n + 1), hi = g % 5 == 0 ? lo : lo + (g >> 16) % (n - lo + 1);
        ranges[2 * f] = lo;
        ranges[2 * f + 1] = hi;
    }
    return n;
}

/* One case: this rank's fields (and weights) in one block, field f at f * (nl + 1); the in-range
 * cells hold the concatenation's elements, the others another stream's. */
static void ext_fields_case(const ext_case* c, uint64_t nfields, uint64_t most, int mode, uint64_t seed)
{
    const triple* t = &c->t;
    const size_t es = hipreduce_dtype_size(t->in), os = hipreduce_dtype_size(t->out);
    uint64_t* ranges = (uint64_t*)malloc((size_t)(2 * nfields + 1) * sizeof *ranges);
    uint64_t* before = (uint64_t*)calloc((size_t)nfields + 1, sizeof *before); /* the ranks' earlier elements */
    uint64_t* total = (uint64_t*)calloc((size_t)nfields + 1, sizeof *total);
    uint64_t nl = 0;
    for (int r = 0; r < ranks; ++r) {
        const uint64_t n = cells_of(seed, r, nfields, mode, most, ranges);
        if (r == rank) nl = n;
        for (uint64_t f = 0; f < nfields; ++f) {
            if (r == rank) before[f] = total[f];
            total[f] += ranges[2 * f + 1] - ranges[2 * f];
        }
    }
    cells_of(seed, rank, nfields, mode, most, ranges); /* this rank's again */
    const uint64_t ld = nl + 1;
    unsigned char* block = (unsigned char*)malloc((size_t)(2 * nfields * ld * es) + 1);
    for (uint64_t f = 0; f < 2 * nfields; ++f) /* fields, then weights (streams f + 4096) */
        for (uint64_t i = 0; i < nl; ++i) {
            const uint64_t k = f % nfields, lo = ranges[2 * k], hi = ranges[2 * k + 1];
            const uint64_t stream = f < nfields ? f : k + 4096;
            if (i >= lo && i < hi) element(t->in, seed, stream, before[k] + i - lo, block + (f * ld + i) * es);
            else element(t->in, seed ^ 0x5bd1e995u, stream, i + (uint64_t)rank * 1000003u, block + (f * ld + i) * es);
        }
    unsigned char* dblock = place(block, (size_t)(2 * nfields * ld * es) + 1);
    const void** ptrs = (const void**)calloc((size_t)(2 * nfields) + 1, sizeof *ptrs);
    for (uint64_t f = 0; f < 2 * nfields; ++f) ptrs[f] = dblock + f * ld * es;
    const void* const* weights = c->weighted ? ptrs + nfields : NULL;
    fields_results r;
    char what[160];
    snprintf(what, sizeof what, "fields_ext %s %s->%s x%llu mode %d seed %llu", hipreduce_op_name(t->op),
             hipreduce_dtype_name(t->in), hipreduce_dtype_name(t->out), (unsigned long long)nfields, mode,
             (unsigned long long)seed);
    results_make(&r, nfields, os, seed);
    counts_now(r.calls[0]);
    const hipreduce_status s = hipreduce_mpi_reduce_fields_ext(mine, MPI_COMM_WORLD, t->op, t->in, nfields, ptrs, weights,
                                                               mode ? ranges : NULL, nl, t->out, r.dres,
                                                               results_location(&r));
    counts_now(r.calls[1]);
    results_fetch(&r, s, what);
    for (uint64_t f = 0; f < nfields; ++f) {
        unsigned char* x = (unsigned char*)malloc((size_t)(2 * total[f] * es) + 1);
        for (uint64_t i = 0; i < total[f]; ++i) {
            element(t->in, seed, f, i, x + i * es);
            element(t->in, seed, f + 4096, i, x + (total[f] + i) * es);
        }
        const hipreduce_status s0 =
            c->weighted ? hipreduce_dot_op(cpu, t->op, t->in, x, x + total[f] * es, total[f], t->out, r.want + f * os,
                                           HIPREDUCE_RESULT_HOST)
                        : hipreduce_reduce(cpu, t->op, t->in, x, total[f], t->out, r.want + f * os, HIPREDUCE_RESULT_HOST);
        if (s0 != HIPREDUCE_STATUS_SUCCESS) FAIL("the single-process reference failed: status %d", s0);
        free(x);
        const uint64_t lo = ranges[2 * f], n = ranges[2 * f + 1] - lo;
        const unsigned char* xf = (const unsigned char*)ptrs[f] + lo * es;
        if (f == 0) counts_now(r.one[0]);
        const hipreduce_status s1 =
            c->weighted ? hipreduce_mpi_dot_op(mine, MPI_COMM_WORLD, t->op, t->in, xf,
                                               (const unsigned char*)ptrs[nfields + f] + lo * es, n, t->out,
                                               r.alone + f * os, HIPREDUCE_RESULT_HOST)
                        : hipreduce_mpi_reduce(mine, MPI_COMM_WORLD, t->op, t->in, xf, n, t->out, r.alone + f * os,
                                               HIPREDUCE_RESULT_HOST);
        if (f == 0) counts_now(r.one[1]);
        if (s1 != HIPREDUCE_STATUS_SUCCESS) FAIL("field %llu alone: status %d", (unsigned long long)f, s1);
    }
    results_judge(&r, s, what);
    if (t->op == HIPREDUCE_OP_SUM_EXACT || t->op == HIPREDUCE_OP_DOT_EXACT)
        started_case(t, nfields, ptrs, weights, mode ? ranges : NULL, nl, block, (size_t)(2 * nfields * ld * es), &r, what);
    results_free(&r);
    unplace(dblock);
    free(ranges), free(before), free(total), free(block), free(ptrs);
}

/* A bad argument on the last rank: its status there, MPI_MISMATCH on the others, nothing written
 * anywhere, a message everywhere. */
static void ext_misuse_checks(void)
{
    misuse_fields m;
    misuse_fields_make(&m);
    const void* const* ptrs = m.ptrs;
    const void* const* holes = m.holes;
    const uint64_t good[6] = {0, 40, 3, 3, 5, 9}, uneven[6] = {0, 40, 3, 4, 5, 9}, even[6] = {0, 4, 3, 7, 36, 40};
    const uint64_t past[6] = {0, 40, 3, 41, 5, 9}, reversed[6] = {0, 40, 4, 3, 5, 9}, hole_empty[6] = {0, 4, 7, 7, 1, 5};
    const hipreduce_status M = HIPREDUCE_STATUS_MPI_MISMATCH;
    const struct {
        const char* what;
        hipreduce_op op;
        const void* const* fields;
        const void* const* weights;
        const uint64_t* ranges;
        hipreduce_status own;
    } bad[] = {
        {"weights with sum", HIPREDUCE_OP_SUM, ptrs, ptrs, NULL, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH},
        {"dot without weights", HIPREDUCE_OP_DOT, ptrs, NULL, good, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH},
        {"a NULL weight", HIPREDUCE_OP_DOT, ptrs, holes, NULL, HIPREDUCE_STATUS_INVALID_POINTER},
        {"a NULL field in a range", HIPREDUCE_OP_SUM_EXACT, holes, NULL, even, HIPREDUCE_STATUS_INVALID_POINTER},
        {"a range past n_local", HIPREDUCE_OP_MAX, ptrs, NULL, past, HIPREDUCE_STATUS_INVALID_OFFSETS},
        {"a reversed range", HIPREDUCE_OP_DOT_EXACT, ptrs, ptrs, reversed, HIPREDUCE_STATUS_INVALID_OFFSETS},
        {"uneven ranges under the tree", HIPREDUCE_OP_SUM, ptrs, NULL, uneven, HIPREDUCE_STATUS_NOT_SUPPORTED},
        {"uneven ranges under weighted dot", HIPREDUCE_OP_DOT, ptrs, ptrs, uneven, HIPREDUCE_STATUS_NOT_SUPPORTED},
    };
    for (size_t c = 0; c < sizeof bad / sizeof bad[0]; ++c) {
        const int me = rank == ranks - 1;
        /* the others pass a good call of the same op */
        const int dot = bad[c].op == HIPREDUCE_OP_DOT || bad[c].op == HIPREDUCE_OP_DOT_EXACT;
        double r[3] = {42, 42, 42};
        const hipreduce_status s = hipreduce_mpi_reduce_fields_ext(
            mine, MPI_COMM_WORLD, bad[c].op, HIPREDUCE_F64, 3, me ? bad[c].fields : ptrs,
            me ? bad[c].weights : dot ? ptrs : NULL, me ? bad[c].ranges : even, 40, HIPREDUCE_F64, r, HIPREDUCE_RESULT_HOST);
        const hipreduce_status expect = me ? bad[c].own : M;
        ++checks;
        if (s != expect || r[0] != 42 || r[1] != 42 || r[2] != 42 || hipreduce_mpi_last_error_message()[0] == '\0')
            FAIL("fields_ext misuse (%s on rank %d): status %d, expected %d, a result written or no message (%s)",
                 bad[c].what, ranks - 1, s, expect, hipreduce_mpi_last_error_message());
    }
    /* a NULL field whose range is empty is no misuse; uneven ranges under max are none either */
    double r[3] = {42, 42, 42}, want[3] = {42, 42, 42};
    hipreduce_status s = hipreduce_mpi_reduce_fields_ext(mine, MPI_COMM_WORLD, HIPREDUCE_OP_MAX, HIPREDUCE_F64, 3, holes,
                                                         NULL, hole_empty, 40, HIPREDUCE_F64, r, HIPREDUCE_RESULT_HOST);
    for (int f = 0; f < 3; ++f) {
        const uint64_t lo = hole_empty[2 * f], n = hole_empty[2 * f + 1] - lo;
        if (hipreduce_mpi_reduce(mine, MPI_COMM_WORLD, HIPREDUCE_OP_MAX, HIPREDUCE_F64, n ? (const double*)ptrs[f] + lo : NULL,
                                 n, HIPREDUCE_F64, &want[f], HIPREDUCE_RESULT_HOST) != HIPREDUCE_STATUS_SUCCESS)
            FAIL("max of field %d alone failed", f);
    }
    ++checks;
    if (s != HIPREDUCE_STATUS_SUCCESS || memcmp(r, want, sizeof r) != 0)
        FAIL("an empty range at a NULL field: status %d (%s) or other bits", s, hipreduce_mpi_last_error_message());
    unplace(m.dx);
}

/* The start's statuses: a rank's bad argument (or another call: the blocking one) gives every
 * rank its status at the start, *request NULL, nothing written; and the NULL pointers. */
static void start_misuse_checks(void)
{
    misuse_fields m;
    misuse_fields_make(&m);
    const uint64_t even[6] = {0, 4, 3, 7, 36, 40}, past[6] = {0, 40, 3, 41, 5, 9};
    const hipreduce_status M = HIPREDUCE_STATUS_MPI_MISMATCH;
    const struct {
        const char* what;
        hipreduce_op op;
        const uint64_t* ranges;
        int null_request, blocking, everyone;
        hipreduce_status own;
    } bad[] = {
        {"sum (rounded)", HIPREDUCE_OP_SUM, even, 0, 0, 0, HIPREDUCE_STATUS_NOT_SUPPORTED},
        {"max on every rank", HIPREDUCE_OP_MAX, NULL, 0, 0, 1, HIPREDUCE_STATUS_NOT_SUPPORTED},
        {"a NULL request", HIPREDUCE_OP_SUM_EXACT, NULL, 1, 0, 0, HIPREDUCE_STATUS_INVALID_POINTER},
        {"a range past n_local", HIPREDUCE_OP_SUM_EXACT, past, 0, 0, 0, HIPREDUCE_STATUS_INVALID_OFFSETS},
        {"the blocking call", HIPREDUCE_OP_SUM_EXACT, even, 0, 1, 0, M},
    };
    for (size_t c = 0; c < sizeof bad / sizeof bad[0]; ++c) {
        if (ranks == 1 && bad[c].own == M) continue; /* one rank cannot disagree with itself */
        const int me = rank == ranks - 1 || bad[c].everyone;
        double r[3] = {42, 42, 42};
        hipreduce_mpi_request q = (hipreduce_mpi_request)&m, *out = me && bad[c].null_request ? NULL : &q;
        const hipreduce_op op = me ? bad[c].op : HIPREDUCE_OP_SUM_EXACT;
        const uint64_t* ranges = me ? bad[c].ranges : even;
        const hipreduce_status s =
            me && bad[c].blocking
                ? hipreduce_mpi_reduce_fields_ext(mine, MPI_COMM_WORLD, op, HIPREDUCE_F64, 3, m.ptrs, NULL, ranges, 40,
                                                  HIPREDUCE_F64, r, HIPREDUCE_RESULT_HOST)
                : hipreduce_mpi_reduce_fields_start(mine, MPI_COMM_WORLD, op, HIPREDUCE_F64, 3, m.ptrs, NULL, ranges, 40,
                                                    HIPREDUCE_F64, r, HIPREDUCE_RESULT_HOST, out);
        const hipreduce_status expect = me ? bad[c].own : M;
        ++checks;
        if (s != expect || (out == &q && q != NULL && !(me && bad[c].blocking)) || r[0] != 42 || r[1] != 42 ||
            r[2] != 42 || hipreduce_mpi_last_error_message()[0] == '\0')
            FAIL("start misuse (%s on rank %d): status %d, expected %d, a request, a result written or no message (%s)",
                 bad[c].what, ranks - 1, s, expect, hipreduce_mpi_last_error_message());
    }
    int done = 0;
    hipreduce_mpi_request q = NULL;
    double r[3] = {42, 42, 42};
    ++checks;
    if (hipreduce_mpi_wait(NULL) != HIPREDUCE_STATUS_INVALID_POINTER ||
        hipreduce_mpi_test(NULL, &done) != HIPREDUCE_STATUS_INVALID_POINTER || done != 0)
        FAIL("wait or test of a NULL request: not INVALID_POINTER");
    hipreduce_status s = hipreduce_mpi_reduce_fields_start(mine, MPI_COMM_WORLD, HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F64, 3,
                                                           m.ptrs, NULL, NULL, 40, HIPREDUCE_F64, r, HIPREDUCE_RESULT_HOST, &q);
    ++checks;
    if (s != HIPREDUCE_STATUS_SUCCESS || hipreduce_mpi_test(q, NULL) != HIPREDUCE_STATUS_INVALID_POINTER)
        FAIL("a started call: status %d, or test with a NULL done not INVALID_POINTER", s);
    s = hipreduce_mpi_wait(q);
    ++checks;
    if (s != HIPREDUCE_STATUS_SUCCESS || r[0] != ranks * 195.0 + 20.0 * ranks * (ranks - 1))
        FAIL("the started call after a refused test: status %d, result %g", s, r[0]);
    unplace(m.dx);
}

int main(int argc, char** argv)
{
    const int rc = fields_suite_start(&argc, &argv);
    if (rc >= 0) return rc;
    for (int c = 0; c < NCASES; ++c) {
        const uint64_t tile = tile_of(cases[c].t.in);
        const uint64_t sizes[] = {0, 1, 7, tile - 1, tile + 1, 2 * tile + 17};
        for (int it = 0; it < (quick ? 4 : 12); ++it) {
            const uint64_t seed = (uint64_t)c * 1000u + (uint64_t)it + 77u, h = mix(seed);
            const int mode = it % 3 == 2 && !cases[c].any_ranges ? 1 : it % 3;
            ext_fields_case(&cases[c], 1 + (h >> 20) % 7, sizes[(it + c) % 6], mode, seed);
        }
    }
    if (!quick) /* more fields than an exact round (4096): two MPI_Iallreduce when started */
        ext_fields_case(&cases[4], 4100, 9, 2, 4243);
    if (!quick) /* ranges holding whole level-1 tiles of tiles (f64: 2048^2 elements), shifted by their begin */
        for (uint64_t seed = 1; seed <= 2; ++seed) ext_fields_case(&cases[9], 2, 2048u * 2048u + 3 * 2048u + 5, 3, seed);
    ext_misuse_checks();
    start_misuse_checks();
    return suite_end("mpi fields_ext");
}
