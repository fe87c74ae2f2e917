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

#ifdef __cplusplus
}
#endif

#endif
