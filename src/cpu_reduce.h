/* The cpu device's executor: the default algorithm's exact orders (device/order.h) for every
 * shape of call, its tiles reduced in parallel on a pool of threads the executor owns, with
 * vector code, into a host workspace. One entry runs a validated call (cpu_reduce.c); the
 * executor's threads and workspace are cpu_executor.c's. */
#ifndef HIPREDUCE_CPU_REDUCE_H
#define HIPREDUCE_CPU_REDUCE_H

#include <stddef.h>

#include "hipreduce/hipreduce.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hr_cpu hr_cpu;

enum { HR_CPU_MAX_THREADS = 256 }; /* larger thread counts are clamped to this */

/* A new executor with the default thread count (the available cores). No thread is started
 * until a call has enough work for more than one. ALLOCATION_FAILED or SUCCESS. */
hipreduce_status hr_cpu_create(hr_cpu** out);

/* Joins the pool's threads and frees the handle-owned workspace. Idle only. NULL accepted. */
void hr_cpu_destroy(hr_cpu* cpu);

/* Threads for later calls, the calling thread included: 0 = the available cores, 1 = the
 * calling thread only; clamped to HR_CPU_MAX_THREADS. A changed count stops the pool (its
 * threads are started again, in the new number, by the next call that needs them). */
hipreduce_status hr_cpu_set_threads(hr_cpu* cpu, unsigned threads);
unsigned hr_cpu_threads(const hr_cpu* cpu);

/* Caller host memory for later calls' partials (any alignment, no initialisation), or NULL, 0
 * to return to the executor's own workspace, which grows on a call that needs more and is
 * kept. Setting a caller workspace frees the executor's own. */
void hr_cpu_set_workspace(hr_cpu* cpu, void* workspace, size_t bytes);

/* Runs a validated call of any shape (device/call.h; a full reduction as api_calls.c fills it:
 * outer 1, extent n, inner 1, so it is the one row of an axis call): any allowed (op, in, out) triple,
 * argmin/argmax (values and indices) and dot. SUCCESS, WORKSPACE_TOO_SMALL (caller workspace),
 * ALLOCATION_FAILED (own workspace), or NOT_SUPPORTED should a triple have no kernel
 * (test_cpu_levels checks that none lacks one); writes the outputs only on SUCCESS. The bits
 * depend only on the call's (op, in, out, shape, data): not on the thread count, the vector
 * width or any alignment; a contiguous result (a full reduction, a row, a segment) has the bits
 * of the full reduction of its slice. */
hipreduce_status hr_cpu_run(hr_cpu* cpu, const hr_call* call);

/* Bytes of host workspace hr_cpu_run needs for a validated call. A contiguous result of count
 * elements needs, for each tile level k strictly between the input and the top, min(count_k,
 * tile) accumulators (0 for one tile; 4097 f32 need 2; 2^20 f32 need 256); rows the same for
 * their extent; segments the same for the longest segment the API allows, a function of (op,
 * dtypes) only (0 for no segments); strided results (inner > 1) 8 accumulators per block level
 * for each output of a group of up to 256 (cpu_segments_strided.h); 0 when nothing is written,
 * and for exact sums (cpu_exact.h). */
size_t hr_cpu_workspace_size(const hr_call* call);

/* The tensor shape (cpu_tensor.c): rows of the (kept..., reduced...) copy gathered a block at a
 * time and reduced by the row path; its workspace is the row call's plus one block. */
hipreduce_status hr_cpu_run_tensor(hr_cpu* cpu, const hr_call* call);
size_t hr_cpu_tensor_workspace_size(const hr_call* call);

#ifdef __cplusplus
}
#endif

#endif
