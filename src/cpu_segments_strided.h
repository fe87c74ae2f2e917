/* Strided results (an axis call with inner > 1) on the cpu device: device/order.h's blocks of
 * HR_STRIDED_BLOCK elements folded by HR_STRIDED_LANES lanes, level by level. */
#ifndef HIPREDUCE_CPU_SEGMENTS_STRIDED_H
#define HIPREDUCE_CPU_SEGMENTS_STRIDED_H

#include <stddef.h>

#include "hipreduce/hipreduce.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of host workspace an axis call with inner > 1 needs: the lanes of every block level
 * for one group of up to HR_CPU_STRIDED_GROUP outputs; 0 when extent <= 1 or nothing is
 * written. */
size_t hr_cpu_strided_workspace_size(const hr_call* call);

/* Whether the cpu device has the strided kernels of the call's (in dtype, transform, acc). */
int hr_cpu_strided_supported(const hr_call* call, int transform);

/* Writes the outer * inner results of a supported, validated axis call with inner > 1 into
 * call->result (and call->index), with hr_cpu_strided_workspace_size(call) bytes at
 * workspace (any alignment; NULL when that is 0). transform, combine: the op row's. */
void hr_cpu_run_strided(const hr_call* call, int transform, int combine, unsigned char* workspace);

/* Blocks [0, blocks) of one level of strided columns, for src/partials.c: level 0 holds count
 * x inner input elements at x ([count][inner]; each lifted by the call's transform), a higher
 * level count x inner accumulators; block b's inner partials (the level above, [blocks][inner])
 * go to dst + b * inner * accumulator bytes. A block is 256 elements of a column, or the rest. */
void hr_cpu_strided_blocks(const hr_call* call, int transform, int combine, int level, const unsigned char* x,
                           uint64_t count, uint64_t inner, uint64_t blocks, unsigned char* dst);

#ifdef __cplusplus
}
#endif

#endif
