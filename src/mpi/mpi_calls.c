/* libhipreduce_mpi's calls (include/hipreduce/hipreduce_mpi.h): each rank validates its own
 * arguments as the core call would and allocates its buffers, then one MPI_Allgather of a 32-byte
 * record per rank (its status, the call's kind, op, dtypes, outer, inner and its length) lets every
 * rank see the same facts (a refused rank, a rank without its buffers, ranks that disagree, the
 * lengths and so every rank's offset), so every rank returns the same verdict before any data
 * moves; then the associative mechanism (mpi_associative.c), the exact sums (mpi_exact_sums.c) or
 * the tree (mpi_tree.c) runs, each ending in a round that carries every rank's status, and the
 * outputs are written only when every rank succeeded. */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"
#include "order.h"
#include "partials.h"
#include "rules.h"

typedef enum call_kind { KIND_REDUCE = 1, KIND_ARGREDUCE, KIND_DOT, KIND_AXIS, KIND_ARGAXIS, KIND_FIELDS } call_kind;

/* What a rank passes to one call. */
typedef struct args {
    call_kind kind;
    hipreduce_handle handle;
    hipreduce_op op;
    hipreduce_dtype in, out;
    const void *x, *y;
    uint64_t outer, extent, inner; /* full calls: 1, n, 1 */
    void* result;                  /* results or values */
    int64_t* index;
    hipreduce_location location;
    const void* const* fields; /* KIND_FIELDS: outer pointers of extent elements each */
} args;

/* The core's validation of these arguments (handle .. triple, overflow) through its size query. */
static hipreduce_status core_check(const args* a, size_t* bytes)
{
    switch (a->kind) {
    case KIND_REDUCE: return hipreduce_workspace_size(a->handle, a->op, a->in, a->extent, a->out, bytes);
    case KIND_ARGREDUCE: return hipreduce_argreduce_workspace_size(a->handle, a->op, a->in, a->extent, bytes);
    case KIND_DOT: return hipreduce_dot_op_workspace_size(a->handle, a->op, a->in, a->extent, a->out, bytes);
    case KIND_AXIS:
    case KIND_FIELDS: /* the same validation as rows [outer][extent] */
        return hipreduce_reduce_axis_workspace_size(a->handle, a->op, a->in, a->outer, a->extent, a->inner, a->out, bytes);
    default:
        return hipreduce_argreduce_axis_workspace_size(a->handle, a->op, a->in, a->outer, a->extent, a->inner, bytes);
    }
}

static int is_cpu(hipreduce_handle h)
{
    unsigned threads = 0;
    return hipreduce_get_threads(h, &threads) == HIPREDUCE_STATUS_SUCCESS && threads > 0;
}

/* This rank's verdict on its own arguments, in the core's order. */
static hipreduce_status local_check(const args* a)
{
    size_t bytes;
    const hipreduce_status s = core_check(a, &bytes);
    if (s != HIPREDUCE_STATUS_SUCCESS) return s;
    /* The statistics with a final step or a struct accumulator (mean, nanmean, all, any, var/std,
     * logsumexp, nanmin, nanmax) have no cross-rank combine yet: refused, not combined wrongly. */
    if (hr_op_finish((int)a->op) != HR_FN_NONE || hr_op_combine((int)a->op) > HR_CB_EXACT) {
        mpi_set_message("%s has no MPI form yet (the statistics with a final step or a struct accumulator)",
                        hipreduce_op_name(a->op));
        return HIPREDUCE_STATUS_NOT_SUPPORTED;
    }
    if (a->location != HIPREDUCE_RESULT_HOST && a->location != HIPREDUCE_RESULT_DEVICE)
        return HIPREDUCE_STATUS_INVALID_LOCATION;
    if (a->location == HIPREDUCE_RESULT_DEVICE && is_cpu(a->handle)) return HIPREDUCE_STATUS_INVALID_LOCATION;
    const int args_call = a->kind == KIND_ARGREDUCE || a->kind == KIND_ARGAXIS;
    const uint64_t elements = a->outer * a->extent * a->inner; /* no overflow: checked above */
    if (a->result == NULL || (args_call && a->index == NULL)) return HIPREDUCE_STATUS_INVALID_POINTER;
    if (a->kind == KIND_FIELDS) {
        if (a->outer > 0 && a->fields == NULL) return HIPREDUCE_STATUS_INVALID_POINTER;
        for (uint64_t f = 0; f < a->outer && a->extent > 0; ++f)
            if (a->fields[f] == NULL) return HIPREDUCE_STATUS_INVALID_POINTER;
        return HIPREDUCE_STATUS_SUCCESS;
    }
    if (elements > 0 && (a->x == NULL || (a->kind == KIND_DOT && a->y == NULL))) return HIPREDUCE_STATUS_INVALID_POINTER;
    return HIPREDUCE_STATUS_SUCCESS;
}

/* Record word 0: the status (bits 0-7), the call's kind, op and dtypes (bits 8-39, equal on every
 * rank), and bit 40: this rank's tree scratch comes after the exchange (mpi_tree_early). */
static const uint64_t CALL_BITS = 0xffffffff00ull, LATE_BIT = 1ull << 40;

/* The ranks' agreement: every rank gets the same verdict. records: the cached receive buffer
 * (mpi_private_comm); on success its last `ranks` words are every rank's extent (counts), and
 * offset, total and *late (whether any rank's tree scratch comes late) are set. A failing rank's
 * own message was recorded before. */
static hipreduce_status agree(const args* a, hipreduce_status own, int late_here, MPI_Comm comm, int ranks, int rank,
                              uint64_t* records, uint64_t* offset, uint64_t* total, int* late)
{
    const uint64_t mine[MPI_RECORD_WORDS] = {(uint64_t)own | (uint64_t)a->kind << 8 | (uint64_t)(a->op & 0xff) << 16 |
                                                 (uint64_t)(a->in & 0xff) << 24 | (uint64_t)(a->out & 0xff) << 32 |
                                                 (late_here ? LATE_BIT : 0),
                                             a->outer, a->inner, a->extent};
    uint64_t* all = records;
    uint64_t* counts = records + (size_t)ranks * MPI_RECORD_WORDS;
    const int rc = MPI_Allgather(mine, MPI_RECORD_WORDS, MPI_UINT64_T, all, MPI_RECORD_WORDS, MPI_UINT64_T, comm);
    if (rc != MPI_SUCCESS) return mpi_error(rc, "MPI_Allgather");
    hipreduce_status verdict = own;
    *late = 0;
    for (int r = 0; r < ranks && verdict == HIPREDUCE_STATUS_SUCCESS; ++r) {
        const uint64_t* rec = all + (size_t)r * MPI_RECORD_WORDS;
        const hipreduce_status theirs = (hipreduce_status)(rec[0] & 0xff);
        *late |= (rec[0] & LATE_BIT) != 0;
        if (theirs == HIPREDUCE_STATUS_ALLOCATION_FAILED) {
            mpi_set_message("another rank failed: rank %d could not allocate its buffers for the call", r);
            verdict = HIPREDUCE_STATUS_MPI_MISMATCH;
        } else if (theirs != HIPREDUCE_STATUS_SUCCESS) {
            mpi_set_message("rank %d refused its arguments: %s", r, hipreduce_status_string(theirs));
            verdict = HIPREDUCE_STATUS_MPI_MISMATCH;
        } else if ((rec[0] & CALL_BITS) != (all[0] & CALL_BITS) || rec[1] != all[1] || rec[2] != all[2]) {
            mpi_set_message("rank %d passed another call, op, dtype, outer or inner than rank 0", r);
            verdict = HIPREDUCE_STATUS_MPI_MISMATCH;
        }
    }
    uint64_t sum = 0;
    for (int r = 0; r < ranks && verdict == HIPREDUCE_STATUS_SUCCESS; ++r) {
        const uint64_t n = all[(size_t)r * MPI_RECORD_WORDS + 3];
        if (r == rank) *offset = sum;
        counts[r] = n;
        if (sum + n < sum) {
            mpi_set_message("the ranks' lengths add up past 2^64 elements (at rank %d)", r);
            verdict = HIPREDUCE_STATUS_SIZE_OVERFLOW;
        }
        sum += n;
    }
    if (verdict != HIPREDUCE_STATUS_SUCCESS) return verdict;
    /* the concatenation must be a valid single-process call (its bytes, argmin's int64 index) */
    const uint64_t elem = (uint64_t)hr_dtype_bytes((int)a->in), rows = a->outer * a->inner;
    if (sum > INT64_MAX || (rows > 0 && sum > UINT64_MAX / rows / elem)) {
        mpi_set_message("the ranks' slices together overflow 64-bit byte counts or indices");
        return HIPREDUCE_STATUS_SIZE_OVERFLOW;
    }
    *total = sum;
    return HIPREDUCE_STATUS_SUCCESS;
}

/* The local call on this rank's slice, into host outputs (the associative mechanism, and n == 0). */
static hipreduce_status local_call(const args* a, uint64_t extent, void* values, int64_t* indices)
{
    switch (a->kind) {
    case KIND_REDUCE: return hipreduce_reduce(a->handle, a->op, a->in, a->x, extent, a->out, values, HIPREDUCE_RESULT_HOST);
    case KIND_ARGREDUCE:
        return hipreduce_argreduce(a->handle, a->op, a->in, a->x, extent, values, indices, HIPREDUCE_RESULT_HOST);
    case KIND_DOT: return hipreduce_dot_op(a->handle, a->op, a->in, a->x, a->y, extent, a->out, values, HIPREDUCE_RESULT_HOST);
    case KIND_AXIS:
        return hipreduce_reduce_axis(a->handle, a->op, a->in, a->x, a->outer, extent, a->inner, a->out, values,
                                     HIPREDUCE_RESULT_HOST);
    case KIND_FIELDS: {
        const size_t vbytes = (size_t)hr_dtype_bytes((int)a->out);
        hipreduce_status s = HIPREDUCE_STATUS_SUCCESS;
        for (uint64_t f = 0; f < a->outer && s == HIPREDUCE_STATUS_SUCCESS; ++f)
            s = hipreduce_reduce(a->handle, a->op, a->in, a->fields[f], extent, a->out, (unsigned char*)values + f * vbytes,
                                 HIPREDUCE_RESULT_HOST);
        return s;
    }
    default:
        return hipreduce_argreduce_axis(a->handle, a->op, a->in, a->x, a->outer, extent, a->inner, values, indices,
                                        HIPREDUCE_RESULT_HOST);
    }
}

/* The local call's failure: its status, with the handle's message. */
static hipreduce_status local_failure(const args* a, hipreduce_status s)
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
static hipreduce_status run(const args* a, MPI_Comm user_comm)
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
    mpi_call call = {.handle = a->handle, .comm = comm, .rank = rank, .ranks = ranks, .op = a->op, .in = a->in,
                     .out = a->out, .x = (const unsigned char*)a->x, .y = (const unsigned char*)a->y, .n = a->extent,
                     .outer = a->outer, .inner = a->inner,
                     .fields = a->kind == KIND_FIELDS ? a->fields : NULL};
    unsigned char* values = NULL;
    int64_t *indices = NULL, *words = NULL;
    mpi_tree_scratch scratch = {0};
    int early = 1;
    hipreduce_status own = local_check(a);
    if (own != HIPREDUCE_STATUS_SUCCESS) {
        mpi_set_message("this rank's arguments: %s", hipreduce_status_string(own));
    } else {
        values = (unsigned char*)allocate(results, vbytes);
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
    s = agree(a, own, early == 0, comm, ranks, rank, records, &offset, &total, &late);
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
        s = mpi_status_round(comm, local_failure(a, local_call(a, 0, values, NULL)));
    } else {
        const hipreduce_status local = local_failure(a, local_call(a, a->extent, values, indices));
        s = mpi_associative_combine(&call, local, results, values, indices, (int64_t)offset);
    }
    if (s == HIPREDUCE_STATUS_SUCCESS && results > 0 && a->location == HIPREDUCE_RESULT_DEVICE) {
        /* after the last round: a failing copy fails this rank alone */
        s = hr_internal_partials_copy(a->handle, a->result, values, (size_t)results * vbytes, 1);
        if (s == HIPREDUCE_STATUS_SUCCESS && args_call)
            s = hr_internal_partials_copy(a->handle, a->index, indices, (size_t)results * sizeof *indices, 1);
        if (s != HIPREDUCE_STATUS_SUCCESS)
            mpi_set_message("copying the result to device memory: %s", hipreduce_last_error_message(a->handle));
    } else if (s == HIPREDUCE_STATUS_SUCCESS && results > 0) {
        memcpy(a->result, values, (size_t)results * vbytes);
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
    const args a = {KIND_REDUCE, handle, op, in_dtype, out_dtype, input, NULL, 1, n, 1, result, NULL, location};
    return run(&a, comm);
}

hipreduce_status hipreduce_mpi_argreduce(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op, hipreduce_dtype dtype,
                                         const void* input, uint64_t n, void* value, int64_t* index,
                                         hipreduce_location location)
{
    const args a = {KIND_ARGREDUCE, handle, op, dtype, dtype, input, NULL, 1, n, 1, value, index, location};
    return run(&a, comm);
}

hipreduce_status hipreduce_mpi_dot_op(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op, hipreduce_dtype in_dtype,
                                      const void* x, const void* y, uint64_t n, hipreduce_dtype out_dtype, void* result,
                                      hipreduce_location location)
{
    const args a = {KIND_DOT, handle, op, in_dtype, out_dtype, x, y, 1, n, 1, result, NULL, location};
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
    const args a = {KIND_AXIS, handle, op, in_dtype, out_dtype, input, NULL, outer, extent, inner, results, NULL, location};
    return run(&a, comm);
}

hipreduce_status hipreduce_mpi_argreduce_axis(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op,
                                              hipreduce_dtype dtype, const void* input, uint64_t outer,
                                              uint64_t extent, uint64_t inner, void* values, int64_t* indices,
                                              hipreduce_location location)
{
    const args a = {KIND_ARGAXIS, handle, op, dtype, dtype, input, NULL, outer, extent, inner, values, indices, location};
    return run(&a, comm);
}

hipreduce_status hipreduce_mpi_reduce_fields(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op,
                                            hipreduce_dtype in_dtype, uint64_t nfields, const void* const* fields,
                                            uint64_t n_local, hipreduce_dtype out_dtype, void* results,
                                            hipreduce_location location)
{
    const args a = {KIND_FIELDS, handle, op, in_dtype, out_dtype, NULL, NULL, nfields, n_local, 1, results, NULL,
                    location, fields};
    return run(&a, comm);
}

static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

hipreduce_status hipreduce_mpi_workspace_size(hipreduce_handle handle, hipreduce_op op, hipreduce_dtype in_dtype,
                                              uint64_t outer, uint64_t extent, uint64_t inner,
                                              hipreduce_dtype out_dtype, size_t* bytes)
{
    const int combine = hr_op_combine((int)op);
    const int arg = combine == HR_CB_ARGMIN || combine == HR_CB_ARGMAX;
    args a = {KIND_AXIS, handle, op, in_dtype, out_dtype, NULL, NULL, outer, extent, inner, NULL, NULL,
              HIPREDUCE_RESULT_HOST};
    if (hr_op_call((int)op) == HR_CALL_DOT) a.kind = KIND_DOT; /* dot: a full call (outer, inner ignored) */
    else if (arg) a.kind = KIND_ARGAXIS;
    if (bytes == NULL) return HIPREDUCE_STATUS_INVALID_POINTER;
    size_t need = 0, b = 0;
    const hipreduce_status s = core_check(&a, &need); /* the local call of the associative mechanism and of exact sums */
    if (s != HIPREDUCE_STATUS_SUCCESS || arg || !mpi_needs_tree(op, in_dtype, out_dtype)) {
        if (s == HIPREDUCE_STATUS_SUCCESS) *bytes = need;
        return s;
    }
    /* the tree's local calls: rows of tiles (or of tile^2) and one short tile */
    uint64_t tile;
    size_t acc;
    hr_internal_partials_geometry(op, in_dtype, out_dtype, &tile, &acc);
    const hipreduce_dtype out0 = acc == 4 ? HIPREDUCE_F32 : HIPREDUCE_F64;
    const hipreduce_op op0 = op == HIPREDUCE_OP_NRM2 ? HIPREDUCE_OP_SUM_SQUARES : op;
    if (inner > 1) tile = HR_STRIDED_BLOCK; /* the strided order's blocks */
    if (op != HIPREDUCE_OP_DOT && acc != 24) {
        if (hipreduce_reduce_axis_workspace_size(handle, op0, in_dtype, extent / tile + 1, tile, inner, out0, &b) ==
            HIPREDUCE_STATUS_SUCCESS)
            need = max_size(need, b);
        if (hipreduce_reduce_axis_workspace_size(handle, op0, in_dtype, extent / tile / tile + 1, tile * tile, inner,
                                                 out0, &b) == HIPREDUCE_STATUS_SUCCESS)
            need = max_size(need, b);
        if (hipreduce_reduce_axis_workspace_size(handle, op0, in_dtype, 1, tile, inner, out0, &b) == HIPREDUCE_STATUS_SUCCESS)
            need = max_size(need, b);
    }
    *bytes = need;
    return HIPREDUCE_STATUS_SUCCESS;
}
