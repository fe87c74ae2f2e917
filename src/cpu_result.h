/* The cpu device's results: writing a call's outputs from its top accumulator, or for n == 0. */
#ifndef HIPREDUCE_CPU_RESULT_H
#define HIPREDUCE_CPU_RESULT_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes call's outputs from `top`, one accumulator of call->acc (the level kernels' layout,
 * cpu_ops.h), the reduction of a slice of `count` elements, rounded once to call->out_dtype:
 * integers truncated to its width; f32 partials to f16/bf16 by round to nearest even, f64 ones to
 * f32 by C's cast; nrm2's square root (f64 input: its three scaled sums combined as LAPACK 3.10's
 * dnrm2); argmin/argmax the index and the input element there; the op row's finish (op_table.h:
 * mean's division by count, all/any, the statistics of device/stats.h, var_mean's second output at
 * call->result2; aminmax's min and max, device/minmax.h). Every NaN result is the dtype's canonical NaN. `combine` is the op row's (HR_CB_*). */
void hr_cpu_finish(const hr_call* call, int combine, const unsigned char* top, uint64_t count);

/* Writes the outputs of n == 0: min/max the dtype's extremes (max_abs 0), argmin/argmax
 * index -1 and the min/max extreme, sums and nrm2 +0.0, products 1, bitwise ops their
 * identity; the finishes of an empty slice (mean NaN, all 1, any 0, var NaN, logsumexp -inf,
 * nanmin +inf, nanmax -inf, aminmax +inf and -inf or the dtype's extremes). */
void hr_cpu_finish_empty(const hr_call* call, int transform, int combine);

#ifdef __cplusplus
}
#endif

#endif
