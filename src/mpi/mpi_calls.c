/* libhipreduce_mpi's blocking calls (include/hipreduce/hipreduce_mpi.h): each an mpi_args for
 * mpi_run_call (mpi_run.c), and the workspace query. */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"
#include "order.h"
#include "partials.h"
#include "rules.h"

hipreduce_status hipreduce_mpi_reduce(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op, hipreduce_dtype in_dtype,
                                      const void* input, uint64_t n, hipreduce_dtype out_dtype, void* result,
                                      hipreduce_location location)
{
    const mpi_args a = {KIND_REDUCE, handle, op, in_dtype, out_dtype, input, NULL, 1, n, 1, result, NULL, location};
    return mpi_run_call(&a, comm);
}

hipreduce_status hipreduce_mpi_argreduce(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op, hipreduce_dtype dtype,
                                         const void* input, uint64_t n, void* value, int64_t* index,
                                         hipreduce_location location)
{
    const mpi_args a = {KIND_ARGREDUCE, handle, op, dtype, dtype, input, NULL, 1, n, 1, value, index, location};
    return mpi_run_call(&a, comm);
}

hipreduce_status hipreduce_mpi_dot_op(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op, hipreduce_dtype in_dtype,
                                      const void* x, const void* y, uint64_t n, hipreduce_dtype out_dtype, void* result,
                                      hipreduce_location location)
{
    const mpi_args a = {KIND_DOT, handle, op, in_dtype, out_dtype, x, y, 1, n, 1, result, NULL, location};
    return mpi_run_call(&a, comm);
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
    return mpi_run_call(&a, comm);
}

hipreduce_status hipreduce_mpi_argreduce_axis(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op,
                                              hipreduce_dtype dtype, const void* input, uint64_t outer,
                                              uint64_t extent, uint64_t inner, void* values, int64_t* indices,
                                              hipreduce_location location)
{
    const mpi_args a = {KIND_ARGAXIS, handle, op, dtype, dtype, input, NULL, outer, extent, inner, values, indices, location};
    return mpi_run_call(&a, comm);
}

hipreduce_status hipreduce_mpi_reduce_fields_ext(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op,
                                                hipreduce_dtype in_dtype, uint64_t nfields, const void* const* fields,
                                                const void* const* weights, const uint64_t* ranges, uint64_t n_local,
                                                hipreduce_dtype out_dtype, void* results, hipreduce_location location)
{
    const mpi_args a = {KIND_FIELDS, handle, op, in_dtype, out_dtype, NULL, NULL, nfields, n_local, 1, results, NULL,
                        location, fields, 0.0, NULL, weights, ranges};
    return mpi_run_call(&a, comm);
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
    return mpi_run_call(&a, comm);
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
