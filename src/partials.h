/* The canonical order's partials, one tile level at a time, on host memory: the library-internal
 * entry that libhipreduce_mpi (src/mpi/) completes the tree across ranks with. Not part of the
 * public API (this header is not installed) and not stable; exported from libhipreduce, under the
 * internal prefix hr_internal_ rather than the public one, only so
 * that the component, a separate library of the same package, can call it.
 *
 * A partial is one accumulator of the (op, in, out) triple's kind (device/op_table.h), in the
 * cpu device's layout (src/cpu_ops.h), which the GPU's partials share bit for bit: level k + 1
 * holds one partial per tile of level k (device/order.h), tiles of the INPUT's geometry at
 * every level. */
#ifndef HIPREDUCE_PARTIALS_H
#define HIPREDUCE_PARTIALS_H

#include <stddef.h>
#include <stdint.h>

#include "hipreduce/hipreduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The tile (elements or partials per tile, every level) and the accumulator's bytes of an
 * allowed (op, in, out) triple of hipreduce_reduce, hipreduce_dot or the plans (var, std, their
 * means: the moments); OP_DTYPE_MISMATCH for any other triple (argmin/argmax included). An op
 * with a finish (mean, nanmean, the moments) has the partials of its accumulator: mean's are
 * sum's. */
HIPREDUCE_EXPORT hipreduce_status hr_internal_partials_geometry(hipreduce_op op, hipreduce_dtype in,
                                                              hipreduce_dtype out, uint64_t* tile,
                                                              size_t* acc_bytes);

/* Tiles [0, tiles) of a level of `count` items at x, partial t stored at dst + t * acc_bytes:
 * level 0 reads input elements of `in` (and y, dot's second input), transformed; a higher
 * level reads partials. Host memory, any alignment; the calling thread only. */
HIPREDUCE_EXPORT hipreduce_status hr_internal_partials_tiles(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out,
                                                           int level, const void* x, const void* y,
                                                           uint64_t count, uint64_t tiles, void* dst);

/* The same for the strided order of an axis call with inner > 1 (device/order.h): level-0 items
 * ([count][inner] input elements, transformed) or partials ([count][inner]) in blocks of
 * HR_STRIDED_BLOCK along count, block b's inner partials at dst + b * inner * acc_bytes. Any
 * triple of hipreduce_reduce_axis except argmin/argmax. */
HIPREDUCE_EXPORT hipreduce_status hr_internal_partials_strided(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out,
                                                             int level, const void* x, uint64_t count,
                                                             uint64_t inner, uint64_t blocks, void* dst);

/* Copies bytes between host memory and the handle's memory (to_device: host src to the handle's
 * dst; else the handle's src to host dst): a memcpy on a cpu-device handle, on a GPU handle a
 * copy on its stream after its earlier work, waited for. INVALID_HANDLE, RUNTIME_ERROR (the
 * message in hipreduce_last_error_message) or SUCCESS. */
HIPREDUCE_EXPORT hipreduce_status hr_internal_partials_copy(hipreduce_handle handle, void* dst, const void* src,
                                                          size_t bytes, int to_device);

/* The result of a top partial, the reduction of a slice of `count` elements, rounded once to
 * `out` as the full call rounds it, with the op row's finish (mean's division by count, var's
 * correction; var_mean's and std_mean's means at result2, NULL for the other ops). */
HIPREDUCE_EXPORT hipreduce_status hr_internal_partials_finish(hipreduce_op op, hipreduce_dtype in,
                                                            hipreduce_dtype out, const void* top, uint64_t count,
                                                            double correction, void* result, void* result2);

/* Exact sums (SUM_EXACT over the axis call [outer][extent][inner], a full call being (1, n, 1);
 * DOT_EXACT of x and y, outer = inner = 1): each result's accumulator, not rounded, as
 * device/exact.h's words (hr_exact_words(op, in) int64 per result, host memory): words of several
 * calls add (digits) and OR (the last word) into the words of the concatenated call, which
 * hr_exact_from_words and hr_exact_round turn into its result. The handle's usual statuses and
 * message; on a handle whose device has no exact kernels, NOT_SUPPORTED. */
HIPREDUCE_EXPORT hipreduce_status hr_internal_partials_exact(hipreduce_handle handle, hipreduce_op op,
                                                           hipreduce_dtype in_dtype, const void* x, const void* y,
                                                           uint64_t outer, uint64_t extent, uint64_t inner,
                                                           int64_t* words);

#ifdef __cplusplus
}
#endif

#endif
