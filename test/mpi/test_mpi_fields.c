/* The fields call (label mpi): hipreduce_mpi_reduce_fields against each field's own
 * hipreduce_mpi_reduce and against hipreduce_reduce on the field's concatenation (a cpu-device
 * handle: the single process), bit for bit, for random field counts, lengths and splits over the
 * ranks (empty ranks included), fields at separate arrays or at the strided columns of one block,
 * results in host or device memory; a contiguous block against hipreduce_mpi_reduce_axis. The
 * rounds are counted (this executable's MPI_Allreduce, MPI_Allgather, MPI_Isend and MPI_Recv pass
 * through to PMPI): the fields call makes exactly the MPI calls of one field's call. Then the
 * statuses: a rank's bad argument, ranks that disagree on nfields, a rank's own work failing after
 * the ranks agreed: its status there, MPI_MISMATCH elsewhere, nothing written, every rank returns.
 *
 *   test_mpi_fields [cpu|gpu|mixed] [quick]
 * gpu: every rank's fields in device memory; mixed: the odd ranks'. Without a GPU both exit 77. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hipreduce/hipreduce_mpi.h"
#include "mpi_fields_data.h"

static const triple cases[] = {
    {HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F32},        {HIPREDUCE_OP_SUM, HIPREDUCE_F64, HIPREDUCE_F64},
    {HIPREDUCE_OP_SUM, HIPREDUCE_F16, HIPREDUCE_F32},        {HIPREDUCE_OP_PROD, HIPREDUCE_F64, HIPREDUCE_F64},
    {HIPREDUCE_OP_SUM_ABS, HIPREDUCE_BF16, HIPREDUCE_BF16},  {HIPREDUCE_OP_SUM_SQUARES, HIPREDUCE_F32, HIPREDUCE_F64},
    {HIPREDUCE_OP_NRM2, HIPREDUCE_F64, HIPREDUCE_F64},       {HIPREDUCE_OP_NRM2, HIPREDUCE_F32, HIPREDUCE_F32},
    {HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F64, HIPREDUCE_F64},  {HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F32, HIPREDUCE_F32},
    {HIPREDUCE_OP_SUM, HIPREDUCE_I32, HIPREDUCE_I64},        {HIPREDUCE_OP_MIN, HIPREDUCE_F32, HIPREDUCE_F32},
    {HIPREDUCE_OP_MAX, HIPREDUCE_F64, HIPREDUCE_F64},        {HIPREDUCE_OP_MAX_ABS, HIPREDUCE_I16, HIPREDUCE_U16},
    {HIPREDUCE_OP_XOR, HIPREDUCE_U8, HIPREDUCE_U8},
};
enum { NCASES = sizeof cases / sizeof cases[0] };

/* One case: nfields fields of n elements in all, split over the ranks. layout 0: a contiguous
 * block (also checked against the axis call); 1: columns ld > n_local apart; 2: separate arrays. */
static void fields_case(const triple* t, uint64_t nfields, uint64_t n, int layout, uint64_t seed)
{
    const size_t es = hipreduce_dtype_size(t->in), os = hipreduce_dtype_size(t->out);
    uint64_t nl = 0; /* seed % 3: an even split, all on one rank, random cuts (empty ranks among them) */
    const uint64_t offset = mpi_slice(n, (int)(seed % 3), seed, tile_of(t->in), rank, ranks, &nl);
    const uint64_t ld = layout == 1 ? nl + 1 + seed % 5 : nl; /* the block: ld elements a field (fields at its columns) */
    unsigned char* full = (unsigned char*)malloc((size_t)(n * es) + 1);
    unsigned char* block = (unsigned char*)malloc((size_t)(nfields * ld * es) + 1);
    for (uint64_t f = 0; f < nfields; ++f)
        for (uint64_t i = 0; i < nl; ++i) element(t->in, seed, f, offset + i, block + (f * ld + i) * es);
    unsigned char** separate = (unsigned char**)calloc((size_t)nfields + 1, sizeof *separate);
    const void** ptrs = (const void**)calloc((size_t)nfields + 1, sizeof *ptrs);
    unsigned char* dblock = layout == 2 ? NULL : place(block, (size_t)(nfields * ld * es) + 1);
    for (uint64_t f = 0; f < nfields; ++f) {
        if (layout == 2) { /* an allocation of its own a field */
            unsigned char* host = (unsigned char*)malloc((size_t)(nl * es) + 1);
            memcpy(host, block + f * ld * es, (size_t)(nl * es));
            separate[f] = place(host, (size_t)(nl * es) + 1);
            if (separate[f] != host) free(host);
            ptrs[f] = separate[f];
        } else {
            ptrs[f] = dblock + f * ld * es;
        }
    }
    fields_results r;
    char what[160];
    snprintf(what, sizeof what, "fields %s %s->%s x%llu n=%llu layout %d seed %llu", hipreduce_op_name(t->op),
             hipreduce_dtype_name(t->in), hipreduce_dtype_name(t->out), (unsigned long long)nfields,
             (unsigned long long)n, layout, (unsigned long long)seed);
    results_make(&r, nfields, os, seed);
    counts_now(r.calls[0]);
    hipreduce_status s = hipreduce_mpi_reduce_fields(mine, MPI_COMM_WORLD, t->op, t->in, nfields, ptrs, nl, t->out, r.dres,
                                                     results_location(&r));
    counts_now(r.calls[1]);
    results_fetch(&r, s, what);
    for (uint64_t f = 0; f < nfields; ++f) {
        for (uint64_t i = 0; i < n; ++i) element(t->in, seed, f, i, full + i * es);
        if (hipreduce_reduce(cpu, t->op, t->in, full, n, t->out, r.want + f * os, HIPREDUCE_RESULT_HOST) != HIPREDUCE_STATUS_SUCCESS)
            FAIL("the single-process reference failed");
        if (f == 0) counts_now(r.one[0]);
        const hipreduce_status s1 = hipreduce_mpi_reduce(mine, MPI_COMM_WORLD, t->op, t->in, ptrs[f], nl, t->out,
                                                         r.alone + f * os, HIPREDUCE_RESULT_HOST);
        if (f == 0) counts_now(r.one[1]);
        if (s1 != HIPREDUCE_STATUS_SUCCESS) FAIL("field %llu alone: status %d", (unsigned long long)f, s1);
    }
    results_judge(&r, s, what);
    if (layout == 0) { /* the block: the axis call's rows */
        memset(r.got, 0xa5, (size_t)(nfields * os));
        s = hipreduce_mpi_reduce_axis(mine, MPI_COMM_WORLD, t->op, t->in, dblock, nfields, nl, 1, t->out, r.got,
                                      HIPREDUCE_RESULT_HOST);
        ++checks;
        if (s != HIPREDUCE_STATUS_SUCCESS || memcmp(r.got, r.want, (size_t)(nfields * os)) != 0)
            FAIL("block x%llu as the axis call: status %d or other bits", (unsigned long long)nfields, s);
    }
    results_free(&r);
    for (uint64_t f = 0; layout == 2 && f < nfields; ++f) {
        if (on_gpu) gm_free(separate[f]);
        else free(separate[f]);
    }
    unplace(dblock);
    free(full), free(block), free(separate), free(ptrs);
}

/* A bad argument on the last rank, or ranks that disagree: its status there, MPI_MISMATCH on the
 * others, nothing written anywhere, a message everywhere. */
static void misuse_checks(void)
{
    misuse_fields m;
    misuse_fields_make(&m);
    const void* const* ptrs = m.ptrs;
    const void* const* holes = m.holes;
    const hipreduce_status M = HIPREDUCE_STATUS_MPI_MISMATCH;
    const struct {
        const char* what;
        hipreduce_op op;
        uint64_t nfields;
        const void* const* fields;
        int null_results;
        hipreduce_status own;
    } bad[] = {
        {"NULL fields", HIPREDUCE_OP_SUM, 3, NULL, 0, HIPREDUCE_STATUS_INVALID_POINTER},
        {"a NULL field", HIPREDUCE_OP_SUM, 3, holes, 0, HIPREDUCE_STATUS_INVALID_POINTER},
        {"NULL results", HIPREDUCE_OP_SUM, 3, ptrs, 1, HIPREDUCE_STATUS_INVALID_POINTER},
        {"argmax", HIPREDUCE_OP_ARGMAX, 3, ptrs, 0, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH},
        {"dot", HIPREDUCE_OP_DOT, 3, ptrs, 0, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH},
        {"xor of f64", HIPREDUCE_OP_XOR, 3, ptrs, 0, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH},
        {"another nfields", HIPREDUCE_OP_SUM, 2, ptrs, 0, M},
        {"another op", HIPREDUCE_OP_MAX, 3, ptrs, 0, M},
    };
    for (size_t c = 0; c < sizeof bad / sizeof bad[0]; ++c) {
        if (ranks == 1 && bad[c].own == M) continue; /* one rank cannot disagree with itself */
        const int me = rank == ranks - 1;
        double r[3] = {42, 42, 42};
        const hipreduce_status s = hipreduce_mpi_reduce_fields(
            mine, MPI_COMM_WORLD, me ? bad[c].op : HIPREDUCE_OP_SUM, HIPREDUCE_F64, me ? bad[c].nfields : 3,
            me ? bad[c].fields : ptrs, 40, HIPREDUCE_F64, me && bad[c].null_results ? NULL : r, HIPREDUCE_RESULT_HOST);
        const hipreduce_status expect = me ? bad[c].own : M;
        ++checks;
        if (s != expect || r[0] != 42 || r[1] != 42 || r[2] != 42 || hipreduce_mpi_last_error_message()[0] == '\0')
            FAIL("fields misuse (%s on rank %d): status %d, expected %d, a result written or no message (%s)", bad[c].what,
                 ranks - 1, s, expect, hipreduce_mpi_last_error_message());
    }
    /* nfields 0 writes nothing; n_local 0 everywhere gives identities, NULL fields[f] allowed */
    double r[3] = {42, 42, 42};
    hipreduce_status s = hipreduce_mpi_reduce_fields(mine, MPI_COMM_WORLD, HIPREDUCE_OP_SUM, HIPREDUCE_F64, 0, NULL, 40,
                                                     HIPREDUCE_F64, r, HIPREDUCE_RESULT_HOST);
    ++checks;
    if (s != HIPREDUCE_STATUS_SUCCESS || r[0] != 42) FAIL("nfields 0: status %d or a result written", s);
    const void* none[3] = {NULL, NULL, NULL};
    s = hipreduce_mpi_reduce_fields(mine, MPI_COMM_WORLD, HIPREDUCE_OP_MAX, HIPREDUCE_F64, 3, none, 0, HIPREDUCE_F64, r,
                                    HIPREDUCE_RESULT_HOST);
    ++checks;
    if (s != HIPREDUCE_STATUS_SUCCESS || r[0] != -1.0 / 0.0 || r[2] != -1.0 / 0.0) FAIL("n_local 0: status %d or not -inf", s);
    unplace(m.dx);
}

/* A rank's own work failing after the ranks agreed (a caller workspace of 8 bytes on the last
 * rank, which holds every element): WORKSPACE_TOO_SMALL there with a message, MPI_MISMATCH on the
 * others, in the associative mechanism and the tree (whose local calls take workspace where a rank
 * holds a whole level-1 tile of tiles: f64, 2048^2 elements). */
static void local_failure_checks(void)
{
    static const struct {
        hipreduce_op op;
        uint64_t n;
    } ops[] = {{HIPREDUCE_OP_MAX, 300000}, {HIPREDUCE_OP_SUM, 2048u * 2048u + 5}};
    for (int o = 0; o < (quick ? 1 : 2); ++o) {
        const int last = rank == ranks - 1;
        const uint64_t n = last ? ops[o].n : 0, nfields = 2;
        double* x = last ? (double*)malloc((size_t)(nfields * n) * sizeof *x) : NULL;
        for (uint64_t i = 0; i < nfields * n; ++i) x[i] = (double)(i % 1000) * 0.25;
        const void* ptrs[2] = {x, x ? x + n : NULL};
        size_t bytes = 0;
        if (hipreduce_mpi_workspace_size(cpu, ops[o].op, HIPREDUCE_F64, 1, ops[o].n, 1, HIPREDUCE_F64, &bytes) !=
                HIPREDUCE_STATUS_SUCCESS || bytes <= 8)
            FAIL("%s: workspace query gave %zu bytes (nothing to shorten)", hipreduce_op_name(ops[o].op), bytes);
        void* ws = malloc(bytes + 1);
        /* the size the query gives serves the fields call */
        double r[2] = {42, 42};
        hipreduce_set_workspace(cpu, ws, bytes);
        hipreduce_status s = hipreduce_mpi_reduce_fields(cpu, MPI_COMM_WORLD, ops[o].op, HIPREDUCE_F64, nfields, ptrs, n,
                                                         HIPREDUCE_F64, r, HIPREDUCE_RESULT_HOST);
        ++checks;
        if (s != HIPREDUCE_STATUS_SUCCESS) FAIL("fields %s with the queried workspace: status %d", hipreduce_op_name(ops[o].op), s);
        r[0] = r[1] = 42;
        hipreduce_set_workspace(cpu, ws, last ? 8 : bytes);
        s = hipreduce_mpi_reduce_fields(cpu, MPI_COMM_WORLD, ops[o].op, HIPREDUCE_F64, nfields, ptrs, n, HIPREDUCE_F64, r,
                                        HIPREDUCE_RESULT_HOST);
        hipreduce_set_workspace(cpu, NULL, 0);
        const hipreduce_status expect = last ? HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL : HIPREDUCE_STATUS_MPI_MISMATCH;
        ++checks;
        if (s != expect || r[0] != 42 || r[1] != 42 || hipreduce_mpi_last_error_message()[0] == '\0')
            FAIL("fields %s, a short workspace on rank %d: status %d (expected %d), message \"%s\"",
                 hipreduce_op_name(ops[o].op), ranks - 1, s, expect, hipreduce_mpi_last_error_message());
        free(ws);
        free(x);
    }
}

int main(int argc, char** argv)
{
    const int rc = fields_suite_start(&argc, &argv);
    if (rc >= 0) return rc;
    for (int c = 0; c < NCASES; ++c) {
        const uint64_t tile = tile_of(cases[c].in);
        const uint64_t sizes[] = {0, 1, 7, tile - 1, tile + 1, 3 * tile + 17};
        for (int it = 0; it < (quick ? 3 : 9); ++it) {
            const uint64_t seed = (uint64_t)c * 1000u + (uint64_t)it, h = mix(seed);
            const uint64_t n = it < 6 ? sizes[(it + c) % 6] : h % (3 * tile + 40);
            fields_case(&cases[c], 1 + (h >> 20) % 9, n, it % 3, seed);
        }
    }
    if (!quick) {
        /* more fields than a round of the associative and exact chunks; a deep tree */
        fields_case(&cases[10], 1100, 30, 2, 4242); /* i32 sum */
        fields_case(&cases[9], 4100, 5, 0, 4243);   /* f32 sum_exact */
        fields_case(&cases[0], 1100, 20, 1, 4244);  /* f32 sum */
        fields_case(&cases[1], 3, 2048u * 2048u + 2 * 2048u + 3, 1, 4245);
    }
    misuse_checks();
    local_failure_checks();
    return suite_end("mpi fields");
}
