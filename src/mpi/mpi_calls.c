/* libhipreduce_mpi's calls (include/hipreduce/hipreduce_mpi.h): each rank validates its own
 * arguments as the core call would and allocates its buffers, then one MPI_Allgather of a 40-byte
 * record per rank (mpi_args.c) lets every rank see the same facts, so every rank returns the same
 * verdict before any data moves; then the associative mechanism (mpi_associative.c), the exact
 * sums (mpi_exact_sums.c) or the tree (mpi_tree.c) runs, each ending in a round that carries every
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
 * in its record, and every rank returns. After the exchange a rank's failing local work still
 * takes part in every round, its status bit in the last one. */
static hipreduce_status run(const mpi_args* a, MPI_Comm user_comm)
{
    mpi_set_message("");
    MPI_Comm comm;
    uint64_t* records;
    hipreduce_status s = mpi_private_comm(user_comm, &comm, &records);
    if (s != HIPREDUCE_STATUS_SUCCESS) return s;
    int ranks = 0, rank = 0, rc;
    if ((rc = MPI_Comm_size(comm, &ranks)) != MPI_SUCCESS || (rc = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS)
        return mpi_error(rc, "MPI_Comm_size/rank");
    const int args_call = a->kind == KIND_ARGREDUCE || a->kind == KIND_ARGAXIS;
    const int exact = hr_op_combine((int)a->op) == HR_CB_EXACT;
    const int tree = !args_call && !exact && mpi_needs_tree(a->op, a->in, a->out);
    const uint64_t results = a->outer * a->inner;
    const size_t vbytes = (size_t)hr_dtype_bytes((int)a->out);
    const int nout = hr_op_outputs((int)a->op); /* var_mean, std_mean, aminmax: the second results after the first */
    const int fields = a->kind == KIND_FIELDS;
    mpi_call call = {.handle = a->handle, .comm = comm, .rank = rank, .ranks = ranks, .op = a->op, .in = a->in,
                     .out = a->out, .x = (const unsigned char*)a->x, .y = (const unsigned char*)a->y, .n = a->extent,
                     .outer = a->outer, .inner = a->inner, .correction = a->correction,
                     .fields = fields ? a->fields : NULL, .weights = fields ? a->weights : NULL,
                     .ranges = fields ? a->ranges : NULL};
    unsigned char* values = NULL;
    int64_t *indices = NULL, *words = NULL;
    mpi_tree_scratch scratch = {0};
    int early = 1;
    mpi_args record = *a; /* the exchange's view: a fields call's length is its ranges' (mpi_fields_extent) */
    hipreduce_status own = mpi_local_check(a);
    if (own == HIPREDUCE_STATUS_SUCCESS && fields) call.n = record.extent = mpi_fields_extent(a, NULL);
    if (own != HIPREDUCE_STATUS_SUCCESS) {
        const char* why = hipreduce_last_error_message(a->handle);
        if (!mpi_has_message())
            mpi_set_message("this rank's arguments: %s%s%s%s", hipreduce_status_string(own), why[0] ? " (" : "", why,
                            why[0] ? ")" : "");
    } else {
        values = (unsigned char*)allocate(results * (uint64_t)nout, vbytes);
        if (args_call) indices = (int64_t*)allocate(results, sizeof *indices);
        if (exact) {
            const size_t bytes = mpi_exact_bytes(&call, results);
            words = bytes > 0 || results == 0 ? (int64_t*)malloc(bytes + 1) : NULL;
        }
        if (tree && results > 0) early = mpi_tree_early(&call, a->outer, &scratch);
        if (values == NULL || (args_call && indices == NULL) || (exact && words == NULL) || early < 0) {
            mpi_set_message("allocation of this rank's buffers for %llu results failed", (unsigned long long)results);
            own = HIPREDUCE_STATUS_ALLOCATION_FAILED;
        }
    }
    uint64_t offset = 0, total = 0;
    int late = 0;
    s = mpi_agree(&record, own, early == 0, comm, ranks, rank, records, &offset, &total, &late);
    call.counts = records + (size_t)ranks * MPI_RECORD_WORDS;
    call.offset = offset;
    call.total = total;
    if (s != HIPREDUCE_STATUS_SUCCESS || results == 0) {
        /* refused, or nothing to write (as the core call) */
    } else if (exact) {
        s = mpi_exact_sums(&call, results, words, values);
    } else if (tree && total > 0) {
        s = mpi_tree_reduce(&call, a->outer, late, &scratch, values);
    } else if (tree) {
        /* every rank empty: the identity, locally, and a round on the statuses */
        s = mpi_status_round(comm, local_failure(a, local_call(a, 0, values, values + results * vbytes, NULL)));
    } else {
        const hipreduce_status local = local_failure(a, local_call(a, a->extent, values, values + results * vbytes, indices));
        s = mpi_associative_combine(&call, local, results, values, indices, (int64_t)offset);
    }
    if (s == HIPREDUCE_STATUS_SUCCESS && results > 0 && a->location == HIPREDUCE_RESULT_DEVICE) {
        /* after the last round: a failing copy fails this rank alone */
        s = hr_internal_partials_copy(a->handle, a->result, values, (size_t)results * vbytes, 1);
        if (s == HIPREDUCE_STATUS_SUCCESS && nout > 1)
            s = hr_internal_partials_copy(a->handle, a->result2, values + results * vbytes, (size_t)results * vbytes, 1);
        if (s == HIPREDUCE_STATUS_SUCCESS && args_call)
            s = hr_internal_partials_copy(a->handle, a->index, indices, (size_t)results * sizeof *indices, 1);
        if (s != HIPREDUCE_STATUS_SUCCESS)
            mpi_set_message("copying the result to device memory: %s", hipreduce_last_error_message(a->handle));
    } else if (s == HIPREDUCE_STATUS_SUCCESS && results > 0) {
        memcpy(a->result, values, (size_t)results * vbytes);
        if (nout > 1) memcpy(a->result2, values + results * vbytes, (size_t)results * vbytes);
        if (args_call) memcpy(a->index, indices, (size_t)results * sizeof *indices);
    }
    free(scratch.block);
    free(values);
    free(indices);
    free(words);
    return s;
}

hipreduce_status hipreduce_mpi_reduce(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op, hipreduce_dtype in_dtype,
                                      const void* input, uint64_t n, hipreduce_dtype out_dtype, void* result,
                                      hipreduce_location location)
{
    const mpi_args a = {KIND_REDUCE, handle, op, in_dtype, out_dtype, input, NULL, 1, n, 1, result, NULL, location};
    return run(&a, comm);
}

hipreduce_status hipreduce_mpi_argreduce(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op, hipreduce_dtype dtype,
                                         const void* input, uint64_t n, void* value, int64_t* index,
                                         hipreduce_location location)
{
    const mpi_args a = {KIND_ARGREDUCE, handle, op, dtype, dtype, input, NULL, 1, n, 1, value, index, location};
    return run(&a, comm);
}

hipreduce_status hipreduce_mpi_dot_op(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op, hipreduce_dtype in_dtype,
                                      const void* x, const void* y, uint64_t n, hipreduce_dtype out_dtype, void* result,
                                      hipreduce_location location)
{
    const mpi_args a = {KIND_DOT, handle, op, in_dtype, out_dtype, x, y, 1, n, 1, result, NULL, location};
    return run(&a, comm);
}

hipreduce_status hipreduce_mpi_dot(hipreduce_handle handle, MPI_Comm comm, hipreduce_dtype in_dtype, const void* x,
                                   const void* y, uint64_t n, hipreduce_dtype out_dtype, void* result,
                                   hipreduce_location location)
{
    return hipreduce_mpi_dot_op(handle, comm, HIPREDUCE_OP_DOT, in_dtype, x, y, n, out_dtype, result, location);
}

hipreduce_status hipreduce_mpi_reduce_axis(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op,
                                           hipreduce_dtype in_dtype, const void* input, uint64_t outer,
                                           uint64_t extent, uint64_t inner, hipreduce_dtype out_dtype, void* results,
                                           hipreduce_location location)
{
    const mpi_args a = {KIND_AXIS, handle, op, in_dtype, out_dtype, input, NULL, outer, extent, inner, results, NULL, location};
    return run(&a, comm);
}

hipreduce_status hipreduce_mpi_argreduce_axis(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op,
                                              hipreduce_dtype dtype, const void* input, uint64_t outer,
                                              uint64_t extent, uint64_t inner, void* values, int64_t* indices,
                                              hipreduce_location location)
{
    const mpi_args a = {KIND_ARGAXIS, handle, op, dtype, dtype, input, NULL, outer, extent, inner, values, indices, location};
    return run(&a, comm);
}

hipreduce_status hipreduce_mpi_reduce_fields_ext(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op,
                                                hipreduce_dtype in_dtype, uint64_t nfields, const void* const* fields,
                                                const void* const* weights, const uint64_t* ranges, uint64_t n_local,
                                                hipreduce_dtype out_dtype, void* results, hipreduce_location location)
{
    const mpi_args a = {KIND_FIELDS, handle, op, in_dtype, out_dtype, NULL, NULL, nfields, n_local, 1, results, NULL,
                        location, fields, 0.0, NULL, weights, ranges};
    return run(&a, comm);
}

hipreduce_status hipreduce_mpi_reduce_fields(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op,
                                            hipreduce_dtype in_dtype, uint64_t nfields, const void* const* fields,
                                            uint64_t n_local, hipreduce_dtype out_dtype, void* results,
                                            hipreduce_location location)
{
    return hipreduce_mpi_reduce_fields_ext(handle, comm, op, in_dtype, nfields, fields, NULL, NULL, n_local, out_dtype,
                                           results, location);
}

hipreduce_status hipreduce_mpi_reduce_stats(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op,
                                            hipreduce_dtype in_dtype, const void* input, uint64_t outer,
                                            uint64_t extent, uint64_t inner, double correction,
                                            hipreduce_dtype out_dtype, void* results, void* results2,
                                            hipreduce_location location)
{
    const mpi_args a = {KIND_STATS, handle, op, in_dtype, out_dtype, input, NULL, outer, extent, inner, results, NULL,
                        location, NULL, correction, results2};
    return run(&a, comm);
}

static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

/* The kind whose validation (and size query) an axis-shaped call of op takes. */
static mpi_kind axis_kind(hipreduce_op op)
{
    const int call = hr_op_call((int)op);
    return call == HR_CALL_DOT ? KIND_DOT : call == HR_CALL_ARGREDUCE ? KIND_ARGAXIS : call == HR_CALL_PLAN ? KIND_STATS : KIND_AXIS;
}

hipreduce_status hipreduce_mpi_workspace_size(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype in_dtype,
                                              uint64_t outer, uint64_t extent, uint64_t inner,
                                              hipreduce_dtype out_dtype, size_t* bytes)
{
    /* dot: a full call (outer, inner ignored); the plan ops: the statistics call's local plan */
    mpi_args a = {axis_kind(op), handle, op, in_dtype, out_dtype, NULL, NULL, outer, extent, inner, NULL, NULL,
                  HIPREDUCE_RESULT_HOST};
    if (bytes == NULL) return HIPREDUCE_STATUS_INVALID_POINTER;
    size_t need = 0, b = 0;
    const hipreduce_status s = mpi_core_check(&a, &need); /* the local call of the associative mechanism and of exact sums */
    if (s != HIPREDUCE_STATUS_SUCCESS || a.kind == KIND_ARGAXIS || !mpi_needs_tree(op, in_dtype, out_dtype)) {
        if (s == HIPREDUCE_STATUS_SUCCESS) *bytes = need;
        return s;
    }
    /* the tree's public level-0 calls: rows of tiles (or of tile^2) and one short tile */
    uint64_t tile;
    size_t acc;
    hipreduce_op op0;
    hipreduce_dtype out0;
    hr_internal_partials_geometry(op, in_dtype, out_dtype, &tile, &acc);
    if (inner > 1) tile = HR_STRIDED_BLOCK; /* the strided order's blocks */
    const uint64_t shapes[3][2] = {{extent / tile + 1, tile}, {extent / tile / tile + 1, tile * tile}, {1, tile}};
    for (int k = 0; k < 3 && mpi_public_level0(op, in_dtype, out_dtype, &op0, &out0); ++k) {
        const mpi_args rows = {axis_kind(op0), handle, op0, in_dtype, out0, NULL, NULL, shapes[k][0], shapes[k][1],
                               inner, NULL, NULL, HIPREDUCE_RESULT_HOST};
        if (mpi_core_check(&rows, &b) == HIPREDUCE_STATUS_SUCCESS) need = max_size(need, b);
    }
    *bytes = need;
    return HIPREDUCE_STATUS_SUCCESS;
}
