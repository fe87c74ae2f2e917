/* libhipreduce_mpi: reductions over the ranks of an MPI communicator with the single-process bits.
 *
 * Every call is collective over comm (every rank of it calls it, with the same op, dtypes and
 * shape; each rank passes its own slice) and has allreduce semantics: every rank gets the result.
 * The result's bits equal those of the single-process call (hipreduce.h) on the concatenation of
 * the ranks' slices in rank order, for every op and triple each call takes, any rank count, any
 * split (empty ranks included) and any mix of cpu-device and GPU handles. Two mechanisms give it:
 * - exactly associative ops combine the ranks' local results with one MPI_Allreduce: integer sums
 *   and products modulo 2^bits, min/max/max_abs, and/or/xor, argmin/argmax, count_nonzero (the
 *   counts added), all and any (and, or of the ranks' 0 or 1), nanmin/nanmax (a NaN loses to any
 *   value, and a rank without elements to anything, so all-NaN data still gives NaN), aminmax
 *   (its minima as min's, its maxima as max's); the result depends on the multiset of elements
 *   only;
 * - float accumulations complete the canonical tree (device/order.h) across rank boundaries,
 *   exchanging only the nodes that straddle one: sum, prod, sum_abs, sum_squares, nrm2 and dot,
 *   and the statistics mean and nansum (sum's tree; mean divides the top by the whole length),
 *   nanmean (a sum and its count), var, std, var_mean and std_mean (Chan's merges of the moments,
 *   the correction applied once at the top), logsumexp (a maximum and its rescaled sum): every
 *   merge the single process makes, in its order, so the same bits, NaN and infinity rules and
 *   error bounds (hipreduce.h's "Statistics").
 * argmin/argmax indices are global (the rank's offset plus the local index), first index wins.
 * The ops that take a correction or write a second output (var, std, var_mean, std_mean,
 * aminmax) are hipreduce_mpi_reduce_stats's, as they are plans' in the single process.
 *
 *   hipreduce_mpi_reduce(h, MPI_COMM_WORLD, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, n_local,
 *                        HIPREDUCE_F32, &sum, HIPREDUCE_RESULT_HOST);
 *
 * Statuses: a rank's own bad argument gives that rank the core call's status (the same checks in
 * the same order) and every other rank HIPREDUCE_STATUS_MPI_MISMATCH; ranks that pass different
 * calls, ops, dtypes, shapes (outer, inner) or corrections all get HIPREDUCE_STATUS_MPI_MISMATCH,
 * as do the others when one rank fails on its own (its buffers cannot be allocated, a runtime error, a caller
 * workspace too small: that rank returns its own status, ALLOCATION_FAILED, RUNTIME_ERROR, ...,
 * and the others MPI_MISMATCH, "another rank failed"); a failing MPI call gives
 * HIPREDUCE_STATUS_MPI_ERROR. Every rank returns: a rank's local failure still takes part in every
 * round, with its status bit in the round that decides. What the library cannot see: a rank that
 * passes another communicator than the others (or skips the call) leaves the others waiting in MPI
 * itself, as any collective would.
 * sum_exact and dot_exact (hipreduce_mpi_dot_op) add the ranks' exact accumulators as integers in
 * one MPI_Allreduce (5 to 136 int64 words per result, by the input dtype) and round once: the bits
 * depend on the multiset of the global inputs only. They need a device with exact kernels on every
 * rank (NOT_SUPPORTED where one lacks them).
 * hipreduce_mpi_last_error_message gives a sentence for every failing status: which rank and why
 * (MPI's message for MPI errors). Nothing is written unless every rank succeeds. The checks cost no
 * extra round: they ride on the one MPI_Allgather (40 bytes a rank) that also tells every rank the
 * others' lengths, and each rank allocates what it needs before it, so that a failed allocation
 * rides on it too. The exception is an axis call of the tree whose boundary buffers (fewer than a
 * tile of rows x columns items) would be larger than 1 MiB and than the rank's own input: those
 * are allocated once the lengths are known, and one more MPI_Allreduce of a word agrees on them.
 * The caller's communicator and its error handler are not changed: the calls run on a duplicate
 * (MPI_Comm_dup, collective, made by the first call on a communicator with the allgather's receive
 * buffer, 40 bytes a rank, after which one MPI_Allreduce agrees that every rank has them; cached as
 * an attribute of the communicator and freed with it) whose errors return.
 *
 * Results go to host memory (HIPREDUCE_RESULT_HOST) or, on a GPU handle, to device memory
 * (HIPREDUCE_RESULT_DEVICE: copied on the handle's stream, and the call returns once they are
 * there; ranks may pick either). Should that copy fail (after the last round), that rank alone
 * returns RUNTIME_ERROR.
 * GPU data is read by the handle's own calls; only fewer than a tile of elements and a tile of
 * partials per level cross host memory and the network, except for dot, f64 nrm2, nanmean and
 * logsumexp, whose tile partials no public call gives: a GPU rank copies its slice to host
 * memory in chunks (64 tiles) and reduces it there, with the cpu device's kernels on the calling
 * thread. Cost per call, per rank:
 * the allgather, one point-to-point round per level of the tree (log_T of the whole length: 3 for
 * 2^36 f32 elements) sending at most one message of fewer than T items (T = 2048..16384, 256 for
 * columns), and one MPI_Allreduce of the result; exact ops: the allgather and one MPI_Allreduce.
 * Thread safety: one thread at a time per handle and per communicator; the first call of the
 * process must not race another (it creates the cache's keyval). This is the only public header
 * that includes mpi.h. */
#ifndef HIPREDUCE_HIPREDUCE_MPI_H
#define HIPREDUCE_HIPREDUCE_MPI_H

#include <mpi.h>

#include "hipreduce/hipreduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* hipreduce_reduce over the ranks' n elements each (n may differ and be 0 on any rank). */
HIPREDUCE_EXPORT hipreduce_status hipreduce_mpi_reduce(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op,
                                                       hipreduce_dtype in_dtype, const void* input, uint64_t n,
                                                       hipreduce_dtype out_dtype, void* result,
                                                       hipreduce_location location);

/* hipreduce_argreduce over the ranks' slices: the global first index (int64) of the extreme. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_mpi_argreduce(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op,
                                                          hipreduce_dtype dtype, const void* input, uint64_t n,
                                                          void* value, int64_t* index, hipreduce_location location);

/* hipreduce_dot over the ranks' slices of x and y (n elements each on this rank). */
HIPREDUCE_EXPORT hipreduce_status hipreduce_mpi_dot(hipreduce_handle handle, MPI_Comm comm, hipreduce_dtype in_dtype,
                                                    const void* x, const void* y, uint64_t n,
                                                    hipreduce_dtype out_dtype, void* result,
                                                    hipreduce_location location);

/* hipreduce_dot_op over the ranks' slices: op HIPREDUCE_OP_DOT (as hipreduce_mpi_dot) or
 * HIPREDUCE_OP_DOT_EXACT. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_mpi_dot_op(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op,
                                                       hipreduce_dtype in_dtype, const void* x, const void* y,
                                                       uint64_t n, hipreduce_dtype out_dtype, void* result,
                                                       hipreduce_location location);

/* hipreduce_reduce_axis with the reduced extent split over the ranks: each rank holds
 * [outer][extent][inner] (its own extent, any value, 0 included; outer and inner equal on every
 * rank) and every rank gets the [outer][inner] results of the tensor concatenated along the
 * extent in rank order (column sums of a row-distributed matrix: outer 1, inner the columns),
 * in the single-process orders: a row (inner == 1) as a full reduction, columns (inner > 1) in
 * the strided order's blocks of 256. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_mpi_reduce_axis(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op,
                                                            hipreduce_dtype in_dtype, const void* input,
                                                            uint64_t outer, uint64_t extent, uint64_t inner,
                                                            hipreduce_dtype out_dtype, void* results,
                                                            hipreduce_location location);

/* hipreduce_argreduce_axis likewise: indices are positions along the whole (global) extent. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_mpi_argreduce_axis(hipreduce_handle handle, MPI_Comm comm,
                                                               hipreduce_op op, hipreduce_dtype dtype,
                                                               const void* input, uint64_t outer, uint64_t extent,
                                                               uint64_t inner, void* values, int64_t* indices,
                                                               hipreduce_location location);

/* The axis call with a plan's arguments, for the ops only plans take in the single process and
 * every op of hipreduce_mpi_reduce_axis: each rank holds [outer][extent][inner] (its own extent, 0
 * included; outer and inner equal on every rank) and every rank gets the results of the plan of
 * [outer][extent_total][inner] over axis 1 on the concatenation along the extent in rank order
 * (order LOGICAL where inner == 1, a row each: for outer = inner = 1 the full reduction; order
 * STRIDED where inner > 1): outer * inner values of out_dtype at results and, for var_mean,
 * std_mean (the means) and aminmax (the maxima), as many at results2 (NULL for the other ops: not
 * read; the same location). correction: var's, std's and their means' (the descriptor's field),
 * 0 for every other op, equal on every rank. argmin/argmax and dot are OP_DTYPE_MISMATCH here. The
 * statuses and messages of the other calls; a NULL results2 of a two-output op is
 * INVALID_POINTER. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_mpi_reduce_stats(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op,
                                                            hipreduce_dtype in_dtype, const void* input,
                                                            uint64_t outer, uint64_t extent, uint64_t inner,
                                                            double correction, hipreduce_dtype out_dtype,
                                                            void* results, void* results2,
                                                            hipreduce_location location);

/* Many fields in one collective (a model's global sums of nfields fields a time step): field f of
 * this rank is fields[f][0 .. n_local), nfields pointers in host memory to data in the handle's
 * memory (a contiguous block, a strided set of columns or separate arrays alike); nfields, op and
 * the dtypes equal on every rank, n_local any value on each (0 included). results[f] (nfields
 * values of out_dtype, at `location`) gets the bits that hipreduce_mpi_reduce gives field f alone,
 * so those of hipreduce_reduce on the concatenation of the ranks' slices of field f. Every op and
 * triple of hipreduce_reduce (argmin/argmax and dot are OP_DTYPE_MISMATCH). The rounds are those of
 * one field: the exactly associative ops (integer sums, min, max, ...) combine all fields' values
 * in one MPI_Allreduce, exact sums all fields' accumulator words in one (a round per 1024 fields,
 * resp. 4096, the chunks that bound their buffers); the float tree sends every field's boundary
 * nodes in the same messages (at most one per rank and level) and ends in one MPI_Allreduce, its
 * local work per field as the single call's. A NULL fields (nfields > 0) or a NULL
 * fields[f] (n_local > 0) is INVALID_POINTER on that rank (MPI_MISMATCH on the others), as every
 * failure above. A [nfields][n_local] block with rows n_local apart is also
 * hipreduce_mpi_reduce_axis(outer = nfields, extent = n_local, inner = 1), with the same bits. The
 * workspace of hipreduce_mpi_workspace_size(op, in_dtype, 1, n_local, 1, out_dtype) serves it. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_mpi_reduce_fields(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op,
                                                              hipreduce_dtype in_dtype, uint64_t nfields,
                                                              const void* const* fields, uint64_t n_local,
                                                              hipreduce_dtype out_dtype, void* results,
                                                              hipreduce_location location);

/* Workspace: the handle's workspace (hipreduce_set_workspace) serves the local calls these make;
 * this many bytes are enough for the call with these local arguments (not collective; the same
 * validation as the core size queries; the plan ops as hipreduce_mpi_reduce_stats's, whatever
 * the correction). Host scratch of a few tiles is the component's own. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_mpi_workspace_size(hipreduce_handle handle, hipreduce_op op,
                                                               hipreduce_dtype in_dtype, uint64_t outer,
                                                               uint64_t extent, uint64_t inner,
                                                               hipreduce_dtype out_dtype, size_t* bytes);

/* Why the last call on this host thread failed (which rank, MPI's message), "" after a success.
 * Thread-local, valid until the thread's next call. */
HIPREDUCE_EXPORT const char* hipreduce_mpi_last_error_message(void);

/* By key over the ranks (hipreduce.h's HIPREDUCE_LAYOUT_BY_KEY): each rank holds `length` rows of
 * `row` values of in_dtype (values, contiguous) and their keys (key_dtype HIPREDUCE_I32 or I64, in
 * [0, num_bins)), all in the handle's memory, length any value on each rank (0 included); op,
 * dtypes, row and num_bins equal on every rank. Every rank gets the [num_bins][row] results of
 * the single-process by-key plan over the ranks' rows concatenated in rank order, bit for bit, for
 * every op of that plan, any rank count and any split: result [b][j] reduces the rows with key b in
 * that global input order. argmin/argmax: results gets the extremes (in_dtype) and indices
 * (num_bins x row int64) the global row index of the first extreme (-1 for an empty bin), as the
 * plan's; indices is NULL for the other ops. counts (optional, NULL: not written): each bin's
 * number of rows over all ranks. Outputs in host memory or, on a GPU handle, device memory
 * (location). Mechanism: bins are dealt to the ranks in contiguous blocks; every row travels, in
 * input order, to its bin's owner (one MPI_Alltoallv), which reduces its bins on the host with the
 * single-process plan (on a GPU rank through a cpu-device handle of its own, after copying its
 * rows and keys to the host), and one MPI_Allgatherv gives every rank all bins: each rank sends and
 * receives about its share of the rows once, whatever the op, and holds num_bins x row results.
 * Statuses as the other calls; the plan's validation on each rank's own arguments, then the keys,
 * read on the host on every device: a key outside [0, num_bins) is INVALID_OFFSETS (a GPU's
 * single-process plan skips such rows instead). MPI's int counts bound a rank's rows sent and
 * received, num_bins, a row's bytes and, for argmin/argmax, num_bins x row at INT_MAX
 * (SIZE_OVERFLOW). Nothing is written unless every rank succeeds. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_mpi_reduce_by_key(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op,
                                                              hipreduce_dtype in_dtype, const void* values,
                                                              const void* keys, hipreduce_dtype key_dtype,
                                                              uint64_t length, uint64_t row, uint64_t num_bins,
                                                              hipreduce_dtype out_dtype, void* results,
                                                              int64_t* indices, int64_t* counts,
                                                              hipreduce_location location);

/* The fields call with weights and owned ranges (hipreduce_mpi_reduce_fields is this call with
 * weights and ranges NULL). weights: NULL, or nfields pointers in host memory to data in the
 * handle's memory, field f's second input, and op HIPREDUCE_OP_DOT, HIPREDUCE_OP_DOT_EXACT or
 * HIPREDUCE_OP_DOTC with hipreduce_dot_op's triples: results[f] gets the bits of
 * hipreduce_mpi_dot_op(op, fields[f], weights[f]) alone, so those of hipreduce_dot_op on the
 * concatenations (a weighted sum a field; the dot ops without weights, and weights with another
 * op, are OP_DTYPE_MISMATCH). ranges: NULL
 * (every field [0, n_local)), or 2 * nfields uint64 in host memory, field f's [begin, end) within
 * [0, n_local) on this rank (a rank's owned cells; each rank its own, empty ones included): field
 * f of this rank is fields[f][begin, end) (and weights[f][begin, end)), and results[f] gets the
 * bits of the single-process call on the concatenation over the ranks of each rank's range of
 * field f. A range outside [0, n_local) or with end < begin is INVALID_OFFSETS on that rank; a
 * NULL fields[f] or weights[f] is INVALID_POINTER where its range holds elements. The ops the
 * float tree completes (sum, nrm2, dot, mean, ... of floats: everything but the exactly
 * associative ops and the exact sums) take ranges of one length on each rank (begin anywhere;
 * ranks may differ), since every field shares the tree's messages; ranges of different lengths
 * there are NOT_SUPPORTED on that rank, and the exactly associative ops, sum_exact and dot_exact
 * take any. The rounds, statuses (MPI_MISMATCH on the other ranks, nothing written anywhere) and
 * workspace are those of hipreduce_mpi_reduce_fields (dot's: hipreduce_mpi_workspace_size(op,
 * in_dtype, 1, n_local, 1, out_dtype)); the exchange carries a rank's common range length, or
 * its largest where they differ. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_mpi_reduce_fields_ext(hipreduce_handle handle, MPI_Comm comm,
                                                                  hipreduce_op op, hipreduce_dtype in_dtype,
                                                                  uint64_t nfields, const void* const* fields,
                                                                  const void* const* weights, const uint64_t* ranges,
                                                                  uint64_t n_local, hipreduce_dtype out_dtype,
                                                                  void* results, hipreduce_location location);

/* The exact fields call without blocking: hipreduce_mpi_reduce_fields_ext's arguments for op
 * HIPREDUCE_OP_SUM_EXACT or HIPREDUCE_OP_DOT_EXACT (any other op is NOT_SUPPORTED, with a message)
 * and *request. The start is collective (every rank of comm starts, in the same order as its other
 * calls on comm): it makes the argument exchange (the MPI_Allgather of every call) and this rank's
 * accumulators, then starts the MPI_Iallreduce of every field's accumulator words (one per 4096
 * fields) and returns; hipreduce_mpi_wait(*request) completes them and writes results, the same
 * bits as the blocking call (rounded once, on every rank). Between the two, the fields' data may
 * change and other calls may run on comm and on the handle; results, the handle (for device
 * results) and comm must stay alive. Statuses: every check of the blocking call, and a NULL request
 * INVALID_POINTER, are the start's (as the blocking call's, on every rank: then *request is NULL,
 * where request is not NULL, and nothing is written), as is an MPI error starting the rounds; a
 * rank's own work failing after the exchange (its local sums), an MPI error completing the rounds,
 * or a failing copy to device memory is the wait's (MPI_MISMATCH on the other ranks' waits for the
 * first). A request is freed by its wait, whatever the status, and is not used
 * after. */
typedef struct hipreduce_mpi_request_s* hipreduce_mpi_request;
HIPREDUCE_EXPORT hipreduce_status hipreduce_mpi_reduce_fields_start(hipreduce_handle handle, MPI_Comm comm,
                                                                    hipreduce_op op, hipreduce_dtype in_dtype,
                                                                    uint64_t nfields, const void* const* fields,
                                                                    const void* const* weights,
                                                                    const uint64_t* ranges, uint64_t n_local,
                                                                    hipreduce_dtype out_dtype, void* results,
                                                                    hipreduce_location location,
                                                                    hipreduce_mpi_request* request);

/* Completes a started call (blocks until its rounds are done), writes its results where every
 * rank succeeded and frees the request: the call's status (a NULL request: INVALID_POINTER). */
HIPREDUCE_EXPORT hipreduce_status hipreduce_mpi_wait(hipreduce_mpi_request request);

/* Whether the started call's rounds are done (MPI_Testall: it also lets MPI progress them): *done
 * 1 when hipreduce_mpi_wait would not block, else 0. Writes nothing else; the request stays the
 * caller's to wait on. A NULL request or done: INVALID_POINTER; MPI's failure: MPI_ERROR. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_mpi_test(hipreduce_mpi_request request, int* done);

#ifdef __cplusplus
}
#endif

#endif
