/* A call's arguments (mpi_internal.h): each rank's own validation, as the core call's, and the
 * one MPI_Allgather of a 40-byte record per rank (its status, the call's kind, op, dtypes, outer,
 * inner, its length and the correction) through which every rank sees the same facts: a refused
 * rank, a rank without its buffers, ranks that disagree, the lengths and so every rank's offset. */
#include <string.h>

#include "mpi_internal.h"
#include "rules.h"

/* The plan of [outer][extent][inner] over axis 1 (mpi_axis_plan): its validation and workspace. */
static hipreduce_status plan_check(const mpi_args* a, size_t* bytes)
{
    hipreduce_plan plan = NULL;
    hipreduce_status s = mpi_axis_plan(a->handle, a->op, a->in, a->outer, a->extent, a->inner, a->correction, a->out, &plan);
    if (s == HIPREDUCE_STATUS_SUCCESS) s = hipreduce_plan_workspace_size(a->handle, plan, HIPREDUCE_RESULT_HOST, bytes);
    hipreduce_plan_destroy(plan);
    return s;
}

hipreduce_status mpi_core_check(const mpi_args* a, size_t* bytes)
{
    switch (a->kind) {
    case KIND_REDUCE: return hipreduce_workspace_size(a->handle, a->op, a->in, a->extent, a->out, bytes);
    case KIND_ARGREDUCE: return hipreduce_argreduce_workspace_size(a->handle, a->op, a->in, a->extent, bytes);
    case KIND_DOT: return hipreduce_dot_op_workspace_size(a->handle, a->op, a->in, a->extent, a->out, bytes);
    case KIND_STATS: /* the local call's (mpi_axis_call): the axis call, or a plan where it takes arguments */
        if (hr_op_call((int)a->op) == HR_CALL_PLAN || a->correction != 0) return plan_check(a, bytes);
        /* fall through */
    case KIND_FIELDS: /* weighted: the dot call's (per field), else the same validation as rows [outer][extent] */
        if (a->weights != NULL) return hipreduce_dot_op_workspace_size(a->handle, a->op, a->in, a->extent, a->out, bytes);
        /* fall through */
    case KIND_AXIS:
        return hipreduce_reduce_axis_workspace_size(a->handle, a->op, a->in, a->outer, a->extent, a->inner, a->out, bytes);
    default:
        return hipreduce_argreduce_axis_workspace_size(a->handle, a->op, a->in, a->outer, a->extent, a->inner, bytes);
    }
}

uint64_t mpi_fields_extent(const mpi_args* a, int* uniform)
{
    uint64_t n = a->ranges == NULL || a->outer == 0 ? a->extent : a->ranges[1] - a->ranges[0], most = n;
    int same = 1;
    for (uint64_t f = 1; a->ranges != NULL && f < a->outer; ++f) {
        const uint64_t k = a->ranges[2 * f + 1] - a->ranges[2 * f];
        same &= k == n;
        most = k > most ? k : most;
    }
    if (uniform) *uniform = same;
    return same ? n : most;
}

/* The fields call's own checks, after the core's: the pointers, the ranges, and the tree's one
 * length a rank. */
static hipreduce_status fields_check(const mpi_args* a)
{
    if (a->outer > 0 && a->fields == NULL) {
        mpi_set_message("fields is NULL with %llu fields", (unsigned long long)a->outer);
        return HIPREDUCE_STATUS_INVALID_POINTER;
    }
    for (uint64_t f = 0; a->ranges != NULL && f < a->outer; ++f)
        if (a->ranges[2 * f] > a->ranges[2 * f + 1] || a->ranges[2 * f + 1] > a->extent) {
            mpi_set_message("field %llu's range [%llu, %llu) is not within [0, n_local = %llu)", (unsigned long long)f,
                            (unsigned long long)a->ranges[2 * f], (unsigned long long)a->ranges[2 * f + 1],
                            (unsigned long long)a->extent);
            return HIPREDUCE_STATUS_INVALID_OFFSETS;
        }
    for (uint64_t f = 0; f < a->outer; ++f) {
        const uint64_t n = a->ranges ? a->ranges[2 * f + 1] - a->ranges[2 * f] : a->extent;
        if (n > 0 && (a->fields[f] == NULL || (a->weights != NULL && a->weights[f] == NULL))) {
            mpi_set_message("%s[%llu] is NULL (its range holds %llu elements)", a->fields[f] == NULL ? "fields" : "weights",
                            (unsigned long long)f, (unsigned long long)n);
            return HIPREDUCE_STATUS_INVALID_POINTER;
        }
    }
    int uniform = 1;
    mpi_fields_extent(a, &uniform);
    if (!uniform && mpi_needs_tree(a->op, a->in, a->out)) {
        mpi_set_message("%s completes the float tree over the ranks: its fields' ranges must have one length on a rank "
                        "(the exactly associative ops and exact sums take any)", hipreduce_op_name(a->op));
        return HIPREDUCE_STATUS_NOT_SUPPORTED;
    }
    return HIPREDUCE_STATUS_SUCCESS;
}

static int is_cpu(hipreduce_handle h)
{
    unsigned threads = 0;
    return hipreduce_get_threads(h, &threads) == HIPREDUCE_STATUS_SUCCESS && threads > 0;
}

hipreduce_status mpi_local_check(const mpi_args* a)
{
    size_t bytes;
    const hipreduce_status s = mpi_core_check(a, &bytes);
    const int call = hr_op_call((int)a->op);
    if (s == HIPREDUCE_STATUS_OP_DTYPE_MISMATCH && a->kind == KIND_FIELDS && (call == HR_CALL_DOT) != (a->weights != NULL))
        mpi_set_message(a->weights ? "weights are dot's second inputs: %s is not dot or dot_exact"
                                   : "%s takes weights (dot's second inputs): call hipreduce_mpi_reduce_fields_ext",
                        hipreduce_op_name(a->op));
    if (s == HIPREDUCE_STATUS_OP_DTYPE_MISMATCH && a->kind != KIND_STATS && call == HR_CALL_PLAN)
        mpi_set_message("%s is a plan op (a correction or a second output): call hipreduce_mpi_reduce_stats",
                        hipreduce_op_name(a->op));
    if (s != HIPREDUCE_STATUS_SUCCESS) return s;
    if (a->started && hr_op_combine((int)a->op) != HR_CB_EXACT) {
        mpi_set_message("the non-blocking fields call takes sum_exact and dot_exact, not %s", hipreduce_op_name(a->op));
        return HIPREDUCE_STATUS_NOT_SUPPORTED;
    }
    if (a->started && a->request == NULL) {
        mpi_set_message("request is NULL");
        return HIPREDUCE_STATUS_INVALID_POINTER;
    }
    if (a->kind == KIND_STATS && call != HR_CALL_REDUCE && call != HR_CALL_PLAN) {
        mpi_set_message("%s is not an op of hipreduce_mpi_reduce_stats: call %s", hipreduce_op_name(a->op),
                        call == HR_CALL_ARGREDUCE ? "hipreduce_mpi_argreduce_axis" : "hipreduce_mpi_dot_op");
        return HIPREDUCE_STATUS_OP_DTYPE_MISMATCH;
    }
    if (a->location != HIPREDUCE_RESULT_HOST && a->location != HIPREDUCE_RESULT_DEVICE)
        return HIPREDUCE_STATUS_INVALID_LOCATION;
    if (a->location == HIPREDUCE_RESULT_DEVICE && is_cpu(a->handle)) return HIPREDUCE_STATUS_INVALID_LOCATION;
    const int args_call = a->kind == KIND_ARGREDUCE || a->kind == KIND_ARGAXIS;
    const uint64_t elements = a->outer * a->extent * a->inner; /* no overflow: checked above */
    if (a->result == NULL || (args_call && a->index == NULL)) return HIPREDUCE_STATUS_INVALID_POINTER;
    if (a->kind == KIND_STATS && hr_op_outputs((int)a->op) > 1 && a->result2 == NULL) {
        mpi_set_message("%s writes a second output: results2 is NULL", hipreduce_op_name(a->op));
        return HIPREDUCE_STATUS_INVALID_POINTER;
    }
    if (a->kind == KIND_FIELDS) return fields_check(a);
    if (elements > 0 && (a->x == NULL || (a->kind == KIND_DOT && a->y == NULL))) return HIPREDUCE_STATUS_INVALID_POINTER;
    return HIPREDUCE_STATUS_SUCCESS;
}

/* Record word 0: the status (bits 0-7), the call's kind (bit 15: the non-blocking start), op and
 * dtypes (bits 8-39, equal on every rank), and bit 40: this rank's tree scratch comes after the exchange (mpi_tree_early). Then
 * outer, inner, the extent and the correction's bits. */
static const uint64_t CALL_BITS = 0xffffffff00ull, LATE_BIT = 1ull << 40;

hipreduce_status mpi_agree(const mpi_args* a, hipreduce_status own, int late_here, MPI_Comm comm, int ranks, int rank,
                           uint64_t* records, uint64_t* offset, uint64_t* total, int* late)
{
    uint64_t correction;
    memcpy(&correction, &a->correction, sizeof correction);
    const uint64_t mine[MPI_RECORD_WORDS] = {(uint64_t)own | (uint64_t)a->kind << 8 | (uint64_t)(a->started != 0) << 15 |
                                                 (uint64_t)(a->op & 0xff) << 16 |
                                                 (uint64_t)(a->in & 0xff) << 24 | (uint64_t)(a->out & 0xff) << 32 |
                                                 (late_here ? LATE_BIT : 0),
                                             a->outer, a->inner, a->extent, correction};
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
        } else if ((rec[0] & CALL_BITS) != (all[0] & CALL_BITS) || rec[1] != all[1] || rec[2] != all[2] || rec[4] != all[4]) {
            mpi_set_message("rank %d passed another call, op, dtype, outer, inner or correction than rank 0", r);
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
