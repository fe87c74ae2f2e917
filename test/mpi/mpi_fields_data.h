/* What the fields suites share (test_mpi_fields.c, test_mpi_fields_ext.c): the MPI calls the
 * library makes, counted (the executable's MPI_Allreduce, MPI_Allgather, MPI_Isend and MPI_Recv
 * pass through to PMPI), the fields' data and a case's triple. Included by one source a suite. */
#ifndef HIPREDUCE_TEST_MPI_FIELDS_DATA_H
#define HIPREDUCE_TEST_MPI_FIELDS_DATA_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hipreduce/hipreduce_mpi.h"
#include "mpi_suite.h"

static long n_allreduce, n_allgather, n_isend, n_recv;

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    ++n_allreduce;
    return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}
int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm)
{
    ++n_allgather;
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request)
{
    ++n_isend;
    return PMPI_Isend(buf, count, type, dest, tag, comm, request);
}
int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status)
{
    ++n_recv;
    return PMPI_Recv(buf, count, type, source, tag, comm, status);
}
static void counts_now(long* c) { c[0] = n_allreduce, c[1] = n_allgather, c[2] = n_isend, c[3] = n_recv; }

/* suite_start, then the first call on the communicator, which makes its cache (one round more):
 * before the counting. */
static int fields_suite_start(int* argc, char*** argv)
{
    const int rc = suite_start(argc, argv);
    double nothing = 0;
    if (rc < 0)
        hipreduce_mpi_reduce(mine, MPI_COMM_WORLD, HIPREDUCE_OP_SUM, HIPREDUCE_F64, NULL, 0, HIPREDUCE_F64, &nothing,
                             HIPREDUCE_RESULT_HOST);
    return rc;
}

/* Element i of field f: floats over a spread of exponents (sums depend on the order), a few -0.0,
 * +0.0 and small ties; integers from all their bits. */
static void element(hipreduce_dtype d, uint64_t seed, uint64_t f, uint64_t i, unsigned char* out)
{
    const uint64_t h = mix(seed * 0x100000001b3ull ^ f << 40 ^ i);
    const int small = (int)((h >> 8) % 5) - 2;
    double v = ((double)(h >> 11) / 9007199254740992.0 - 0.5) * (double)(1ull << (h >> 5) % 40) / 1048576.0;
    if (h % 13 == 0) v = small == 0 && (h >> 12 & 1) ? -0.0 : (double)small; /* ties, -0.0 and +0.0 */
    switch (d) {
    case HIPREDUCE_F32: { const float x = (float)v; memcpy(out, &x, 4); return; }
    case HIPREDUCE_F64: memcpy(out, &v, 8); return;
    case HIPREDUCE_F16: { const float x = (float)v / 64.0f; const uint16_t b = hipreduce_f32_to_f16(x); memcpy(out, &b, 2); return; }
    case HIPREDUCE_BF16: { const uint16_t b = hipreduce_f32_to_bf16((float)v); memcpy(out, &b, 2); return; }
    case HIPREDUCE_C64:
    case HIPREDUCE_C128: { /* (re, im): two of the float's elements */
        const hipreduce_dtype part = d == HIPREDUCE_C64 ? HIPREDUCE_F32 : HIPREDUCE_F64;
        element(part, seed, f, i, out);
        element(part, seed ^ 0x51ed27u, f, i, out + hipreduce_dtype_size(part));
        return;
    }
    default: memcpy(out, &h, hipreduce_dtype_size(d)); /* little-endian low bytes */
    }
}

/* The statuses' fixture: three fields of 40 f64 on every rank (at dx, where the handle reads),
 * their pointers, and the pointers with a NULL for field 1. unplace(dx) ends it. */
typedef struct misuse_fields {
    double x[3][40];
    unsigned char* dx;
    const void* ptrs[3];
    const void* holes[3];
} misuse_fields;

static void misuse_fields_make(misuse_fields* m)
{
    for (int f = 0; f < 3; ++f)
        for (int i = 0; i < 40; ++i) m->x[f][i] = f * 100.0 + i * 0.25 + rank;
    m->dx = (unsigned char*)place((const unsigned char*)m->x, sizeof m->x);
    for (int f = 0; f < 3; ++f) m->holes[f] = m->ptrs[f] = m->dx + f * sizeof m->x[0];
    m->holes[1] = NULL;
}

/* A case's results: the call's (got; first at dres, in device memory where `device`), each
 * field's own call's (alone), the single process's (want), and the MPI calls counted around the
 * call (calls: before, after) and around field 0's own (one). */
typedef struct fields_results {
    unsigned char *got, *alone, *want, *dres;
    uint64_t nfields;
    size_t os;
    int device;
    long calls[2][4], one[2][4];
} fields_results;

/* Results in device memory on a GPU rank for a third of the seeds. */
static void results_make(fields_results* r, uint64_t nfields, size_t os, uint64_t seed)
{
    r->nfields = nfields;
    r->os = os;
    r->got = (unsigned char*)calloc((size_t)nfields + 1, os);
    r->alone = (unsigned char*)calloc((size_t)nfields + 1, os);
    r->want = (unsigned char*)calloc((size_t)nfields + 1, os);
    r->device = on_gpu && seed % 3 == 0;
    r->dres = r->device ? (unsigned char*)gm_alloc((size_t)(nfields * os) + 1) : r->got;
}

static hipreduce_location results_location(const fields_results* r)
{
    return r->device ? HIPREDUCE_RESULT_DEVICE : HIPREDUCE_RESULT_HOST;
}

/* After the call: its status, and the results copied to got. */
static void results_fetch(fields_results* r, hipreduce_status s, const char* what)
{
    if (r->device && gm_to_host(r->got, r->dres, (size_t)(r->nfields * r->os)) != 0) FAIL("device result copy failed");
    ++checks;
    if (s != HIPREDUCE_STATUS_SUCCESS) FAIL("%s: status %d: %s", what, s, hipreduce_mpi_last_error_message());
}

/* The bits against the fields alone and the single process, and one field's MPI calls whatever
 * nfields (up to the 1024 values of an associative round). */
static void results_judge(const fields_results* r, hipreduce_status s, const char* what)
{
    const size_t bytes = (size_t)(r->nfields * r->os);
    ++checks;
    if (s == HIPREDUCE_STATUS_SUCCESS && (memcmp(r->got, r->alone, bytes) != 0 || memcmp(r->got, r->want, bytes) != 0))
        FAIL("%s: bits differ from the fields alone or the single process", what);
    ++checks;
    for (int k = 0; k < 4 && r->nfields > 0 && r->nfields <= 1024; ++k)
        if (r->calls[1][k] - r->calls[0][k] != r->one[1][k] - r->one[0][k]) {
            FAIL("%s: %ld MPI calls of kind %d, one field alone %ld", what, r->calls[1][k] - r->calls[0][k], k,
                 r->one[1][k] - r->one[0][k]);
            break;
        }
}

static void results_free(fields_results* r)
{
    if (r->device) gm_free(r->dres);
    free(r->got), free(r->alone), free(r->want);
}

typedef struct triple {
    hipreduce_op op;
    hipreduce_dtype in, out;
} triple;

#endif
