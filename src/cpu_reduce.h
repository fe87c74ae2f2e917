/* The CPU executor: the default algorithm's exact order (plan.h) in C. */
#ifndef HIPREDUCE_CPU_REDUCE_H
#define HIPREDUCE_CPU_REDUCE_H

#include "hipreduce/hipreduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Arguments already validated. Returns SUCCESS or ALLOCATION_FAILED (partials
 * are kept on the heap); writes result only on SUCCESS. */
hipreduce_status hr_cpu_reduce(hipreduce_op op, hipreduce_dtype dtype, const void* input, uint64_t n,
                               void* result);

#ifdef __cplusplus
}
#endif

#endif
