/* The exact fields call without blocking (include/hipreduce/hipreduce_mpi.h): the blocking call's
 * preparation (mpi_run_prepare: checks, buffers and the request, the argument exchange) and this
 * rank's accumulators, then an MPI_Iallreduce a chunk of fields (mpi_exact_start); the request
 * keeps the call's state, and its wait completes the rounds, rounds the sums and writes the
 * results (mpi_exact_finish, mpi_run_deliver): the blocking call's code in the same order, with
 * the rounds' completion in between. */
#include <stdio.h>
#include <stdlib.h>

#include "mpi_internal.h"

hipreduce_status hipreduce_mpi_reduce_fields_start(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op,
                                                   hipreduce_dtype in_dtype, uint64_t nfields,
                                                   const void* const* fields, const void* const* weights,
                                                   const uint64_t* ranges, uint64_t n_local, hipreduce_dtype out_dtype,
                                                   void* results, hipreduce_location location,
                                                   hipreduce_mpi_request* request)
{
    const mpi_args a = {KIND_FIELDS, handle, op, in_dtype, out_dtype, NULL, NULL, nfields, n_local, 1, results, NULL,
                        location, fields, 0.0, NULL, weights, ranges, 1, request};
    if (request != NULL) *request = NULL;
    mpi_run r;
    mpi_exact_state exact;
    hipreduce_status s = mpi_run_prepare(&a, comm, &r);
    if (s == HIPREDUCE_STATUS_SUCCESS && (s = mpi_exact_start(&r.call, r.results, r.words, r.requests, &exact)) !=
                                             HIPREDUCE_STATUS_SUCCESS)
        mpi_exact_finish(&r.call, &exact, s, NULL); /* frees its MPI objects */
    if (s != HIPREDUCE_STATUS_SUCCESS) return mpi_run_deliver(&r, s);
    hipreduce_mpi_request q = r.request;
    r.request = NULL; /* the run now lives in q, which its wait frees */
    q->run = r;
    q->exact = exact;
    snprintf(q->message, sizeof q->message, "%s", hipreduce_mpi_last_error_message());
    mpi_set_message(""); /* the start succeeded; a failure of the local sums is the wait's */
    *request = q;
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hipreduce_mpi_wait(hipreduce_mpi_request q)
{
    mpi_set_message("");
    if (q == NULL) {
        mpi_set_message("request is NULL");
        return HIPREDUCE_STATUS_INVALID_POINTER;
    }
    mpi_set_message("%s", q->message);
    const int count = (int)mpi_exact_rounds(q->run.results);
    const int rc = count > 0 ? MPI_Waitall(count, q->run.requests, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
    const hipreduce_status rounds = rc == MPI_SUCCESS ? HIPREDUCE_STATUS_SUCCESS : mpi_error(rc, "MPI_Waitall");
    const hipreduce_status s = mpi_run_deliver(&q->run, mpi_exact_finish(&q->run.call, &q->exact, rounds, q->run.values));
    free(q);
    return s;
}

hipreduce_status hipreduce_mpi_test(hipreduce_mpi_request q, int* done)
{
    mpi_set_message("");
    if (q == NULL || done == NULL) {
        mpi_set_message("%s is NULL", q == NULL ? "request" : "done");
        return HIPREDUCE_STATUS_INVALID_POINTER;
    }
    const int count = (int)mpi_exact_rounds(q->run.results);
    int flag = 1;
    const int rc = count > 0 ? MPI_Testall(count, q->run.requests, &flag, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
    if (rc != MPI_SUCCESS) return mpi_error(rc, "MPI_Testall");
    *done = flag != 0;
    return HIPREDUCE_STATUS_SUCCESS;
}
