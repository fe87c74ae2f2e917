/* A call's phases (mpi_internal.h, mpi_run_call): each rank validates its own arguments as the core
 * call would and allocates its buffers, then one MPI_Allgather of a 40-byte record per rank
 * (mpi_args.c) lets every rank see the same facts, so every rank returns the same verdict before
 * any data moves; then the associative mechanism (mpi_associative.c), the exact sums
 * (mpi_exact_sums.c) or the tree (mpi_tree.c) runs, each ending in a round that carries every
 * rank's status, and the outputs are written only when every rank succeeded. */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"
#include "order.h"
#include "partials.h"
#include "rules.h"

/* The local call on this rank's slice, into host outputs (the associative mechanism, and n == 0;
 * the two-output ops' second results at values2). */
static hipreduce_status local_call(const mpi_args* a, uint64_t extent, void* values, void* values2, int64_t* indices)
{
    switch (a->kind) {
    case KIND_STATS:
        return mpi_axis_call(a->handle, a->op, a->in, a->x, a->outer, extent, a->inner, a->correction, a->out, values,
                             values2);
    case KIND_REDUCE: return hipreduce_reduce(a->handle, a->op, a->in, a->x, extent, a->out, values, HIPREDUCE_RESULT_HOST);
    case KIND_ARGREDUCE:
        return hipreduce_argreduce(a->handle, a->op, a->in, a->x, extent, values, indices, HIPREDUCE_RESULT_HOST);
    case KIND_DOT: return hipreduce_dot_op(a->handle, a->op, a->in, a->x, a->y, extent, a->out, values, HIPREDUCE_RESULT_HOST);
    case KIND_AXIS:
        return hipreduce_reduce_axis(a->handle, a->op, a->in, a->x, a->outer, extent, a->inner, a->out, values,
                                     HIPREDUCE_RESULT_HOST);
    case KIND_FIELDS: { /* each field from its range's first element (extent 0: every field empty) */
        const size_t vbytes = (size_t)hr_dtype_bytes((int)a->out), elem = (size_t)hr_dtype_bytes((int)a->in);
        hipreduce_status s = HIPREDUCE_STATUS_SUCCESS;
        for (uint64_t f = 0; f < a->outer && s == HIPREDUCE_STATUS_SUCCESS; ++f) {
            const uint64_t n = extent == 0 ? 0 : a->ranges ? a->ranges[2 * f + 1] - a->ranges[2 * f] : extent;
            const void* x = mpi_field_at(a->fields[f], a->ranges, f, elem);
            unsigned char* v = (unsigned char*)values + f * vbytes;
            s = a->weights ? hipreduce_dot_op(a->handle, a->op, a->in, x, mpi_field_at(a->weights[f], a->ranges, f, elem), n,
                                              a->out, v, HIPREDUCE_RESULT_HOST)
                           : hipreduce_reduce(a->handle, a->op, a->in, x, n, a->out, v, HIPREDUCE_RESULT_HOST);
        }
        return s;
    }
    default:
        return hipreduce_argreduce_axis(a->handle, a->op, a->in, a->x, a->outer, extent, a->inner, values, indices,
                                        HIPREDUCE_RESULT_HOST);
    }
}

/* The local call's failure: its status, with the handle's message. */
static hipreduce_status local_failure(const mpi_args* a, hipreduce_status s)
{
    if (s != HIPREDUCE_STATUS_SUCCESS)
        mpi_set_message("this rank's local call: %s (%s)", hipreduce_status_string(s), hipreduce_last_error_message(a->handle));
    return s;
}

/* n bytes, or NULL (a product past size_t is a failed allocation too). */
static void* allocate(uint64_t count, size_t size)
{
    return count > (uint64_t)SIZE_MAX / size ? NULL : malloc((size_t)(count * size) + 1);
}

/* Every buffer a rank needs is allocated before the argument exchange (the tree's, where its
 * bound is large, just after it, followed by a status round): a rank that cannot allocate says so
 * in its record, and every rank returns. */
hipreduce_status mpi_run_prepare(const mpi_args* a, MPI_Comm user_comm, mpi_run* r)
{
    mpi_set_message("");
    memset(r, 0, sizeof *r);
    r->a = *a;
    MPI_Comm comm;
    uint64_t* records;
    hipreduce_status s = mpi_private_comm(user_comm, &comm, &records);
    if (s != HIPREDUCE_STATUS_SUCCESS) return s;
    int ranks = 0, rank = 0, rc;
    if ((rc = MPI_Comm_size(comm, &ranks)) != MPI_SUCCESS || (rc = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS)
        return mpi_error(rc, "MPI_Comm_size/rank");
    r->args_call = a->kind == KIND_ARGREDUCE || a->kind == KIND_ARGAXIS;
    r->exact = hr_op_combine((int)a->op) == HR_CB_EXACT;
    r->tree = !r->args_call && !r->exact && mpi_needs_tree(a->op, a->in, a->out);
    const uint64_t results = r->results = a->outer * a->inner;
    const size_t vbytes = (size_t)hr_dtype_bytes((int)a->out);
    const int nout = hr_op_outputs((int)a->op); /* var_mean, std_mean, aminmax: the second results after the first */
    const int fields = a->kind == KIND_FIELDS;
    mpi_call* call = &r->call;
    *call = (mpi_call){.handle = a->handle, .comm = comm, .rank = rank, .ranks = ranks, .op = a->op, .in = a->in,
                       .out = a->out, .x = (const unsigned char*)a->x, .y = (const unsigned char*)a->y, .n = a->extent,
                       .outer = a->outer, .inner = a->inner, .correction = a->correction,
                       .fields = fields ? a->fields : NULL, .weights = fields ? a->weights : NULL,
                       .ranges = fields ? a->ranges : NULL};
    int early = 1;
    mpi_args record = *a; /* the exchange's view: a fields call's length is its ranges' (mpi_fields_extent) */
    hipreduce_status own = mpi_local_check(a);
    if (own == HIPREDUCE_STATUS_SUCCESS && fields) call->n = record.extent = mpi_fields_extent(a, NULL);
    if (own != HIPREDUCE_STATUS_SUCCESS) {
        const char* why = hipreduce_last_error_message(a->handle);
        if (!mpi_has_message())
            mpi_set_message("this rank's arguments: %s%s%s%s", hipreduce_status_string(own), why[0] ? " (" : "", why,
                            why[0] ? ")" : "");
    } else {
        r->values = (unsigned char*)allocate(results * (uint64_t)nout, vbytes);
        if (r->args_call) r->indices = (int64_t*)allocate(results, sizeof *r->indices);
        if (r->exact) {
            const size_t bytes = mpi_exact_bytes(call, results);
            r->words = bytes > 0 || results == 0 ? (int64_t*)malloc(bytes + 1) : NULL;
        }
        if (r->tree && results > 0) early = mpi_tree_early(call, a->outer, &r->scratch);
        if (a->started) {
            r->requests = (MPI_Request*)allocate(mpi_exact_rounds(results), sizeof *r->requests);
            r->request = (hipreduce_mpi_request)malloc(sizeof *r->request);
        }
        if (r->values == NULL || (r->args_call && r->indices == NULL) || (r->exact && r->words == NULL) || early < 0 ||
            (a->started && (r->requests == NULL || r->request == NULL))) {
            mpi_set_message("allocation of this rank's buffers for %llu results failed", (unsigned long long)results);
            own = HIPREDUCE_STATUS_ALLOCATION_FAILED;
        }
    }
    s = mpi_agree(&record, own, early == 0, comm, ranks, rank, records, &call->offset, &call->total, &r->late);
    call->counts = records + (size_t)ranks * MPI_RECORD_WORDS;
    return s;
}

hipreduce_status mpi_run_deliver(mpi_run* r, hipreduce_status s)
{
    const mpi_args* a = &r->a;
    const uint64_t results = r->results;
    const size_t vbytes = (size_t)hr_dtype_bytes((int)a->out);
    const int nout = hr_op_outputs((int)a->op);
    if (s == HIPREDUCE_STATUS_SUCCESS && results > 0 && a->location == HIPREDUCE_RESULT_DEVICE) {
        /* after the last round: a failing copy fails this rank alone */
        s = hr_internal_partials_copy(a->handle, a->result, r->values, (size_t)results * vbytes, 1);
        if (s == HIPREDUCE_STATUS_SUCCESS && nout > 1)
            s = hr_internal_partials_copy(a->handle, a->result2, r->values + results * vbytes, (size_t)results * vbytes, 1);
        if (s == HIPREDUCE_STATUS_SUCCESS && r->args_call)
            s = hr_internal_partials_copy(a->handle, a->index, r->indices, (size_t)results * sizeof *r->indices, 1);
        if (s != HIPREDUCE_STATUS_SUCCESS)
            mpi_set_message("copying the result to device memory: %s", hipreduce_last_error_message(a->handle));
    } else if (s == HIPREDUCE_STATUS_SUCCESS && results > 0) {
        memcpy(a->result, r->values, (size_t)results * vbytes);
        if (nout > 1) memcpy(a->result2, r->values + results * vbytes, (size_t)results * vbytes);
        if (r->args_call) memcpy(a->index, r->indices, (size_t)results * sizeof *r->indices);
    }
    free(r->scratch.block);
    free(r->values);
    free(r->indices);
    free(r->words);
    free(r->requests);
    free(r->request);
    r->scratch.block = r->values = NULL;
    r->indices = r->words = NULL;
    r->requests = NULL;
    r->request = NULL;
    return s;
}

/* After the exchange a rank's failing local work still takes part in every round, its status bit
 * in the last one. */
hipreduce_status mpi_run_call(const mpi_args* a, MPI_Comm comm)
{
    mpi_run r;
    hipreduce_status s = mpi_run_prepare(a, comm, &r);
    const uint64_t results = r.results;
    unsigned char* values = r.values;
    unsigned char* values2 = values ? values + results * (size_t)hr_dtype_bytes((int)a->out) : NULL;
    if (s != HIPREDUCE_STATUS_SUCCESS || results == 0) {
        /* refused, or nothing to write (as the core call) */
    } else if (r.exact) {
        s = mpi_exact_sums(&r.call, results, r.words, values);
    } else if (r.tree && r.call.total > 0) {
        s = mpi_tree_reduce(&r.call, a->outer, r.late, &r.scratch, values);
    } else if (r.tree) {
        /* every rank empty: the identity, locally, and a round on the statuses */
        s = mpi_status_round(r.call.comm, local_failure(a, local_call(a, 0, values, values2, NULL)));
    } else {
        const hipreduce_status local = local_failure(a, local_call(a, a->extent, values, values2, r.indices));
        s = mpi_associative_combine(&r.call, local, results, values, r.indices, (int64_t)r.call.offset);
    }
    return mpi_run_deliver(&r, s);
}
