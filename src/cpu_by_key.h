/* The cpu device's by-key shape (device/call.h, HR_SHAPE_BY_KEY; cpu_by_key.c): the rows sorted
 * by key, stably, into a workspace copy whose bins are CSR segments, reduced by the segment path. */
#ifndef HIPREDUCE_CPU_BY_KEY_H
#define HIPREDUCE_CPU_BY_KEY_H

#include <stddef.h>

#include "cpu_reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs a validated by-key call whose keys are all in [0, num_bins) (the C API checks host keys
 * first). Writes the results, the indices (argmin/argmax) and the counts only on SUCCESS. */
hipreduce_status hr_cpu_run_by_key(hr_cpu* cpu, const hr_call* call);
/* Its workspace: the segment call's own, then the bin starts, the cursors, the row order
 * (argmin/argmax), the offsets (row > 1) and the sorted copy of the values. */
size_t hr_cpu_by_key_workspace_size(const hr_call* call);

#ifdef __cplusplus
}
#endif

#endif
