/* The cpu device's executor: the default algorithm's exact order (plan.h), its tiles reduced in
 * parallel on a pool of threads the executor owns, with vector code, into a host workspace. */
#ifndef HIPREDUCE_CPU_REDUCE_H
#define HIPREDUCE_CPU_REDUCE_H

#include "cpu_levels.h"
#include "cpu_pool.h"
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

/* Bytes of host workspace a validated call needs: the tile partials of level 1, one accumulator
 * of call->acc (hr_acc_size: 4, 8, 16 for argmin/argmax keys, 24 for f64 nrm2) per tile; 0 when
 * one tile covers n. Arguments already validated (an allowed triple, n * size fits). */
size_t hr_cpu_workspace_size(const hr_call* call);

/* Caller host memory for later calls' partials (any alignment, no initialisation), or NULL, 0
 * to return to the executor's own workspace, which grows on a call that needs more and is
 * kept. Setting a caller workspace frees the executor's own. */
void hr_cpu_set_workspace(hr_cpu* cpu, void* workspace, size_t bytes);

/* Runs a validated call: any allowed (op, in, out) triple, argmin/argmax (value and index) and
 * dot. SUCCESS, WORKSPACE_TOO_SMALL (caller workspace), ALLOCATION_FAILED (own workspace), or
 * NOT_SUPPORTED should a triple have no kernel (test_cpu_levels checks that none lacks one);
 * writes the outputs only on SUCCESS. The bits depend only on (op, in, out, n, data): not on
 * the thread count, the vector width or any alignment. */
hipreduce_status hr_cpu_run(hr_cpu* cpu, const hr_call* call);

/* Axis and segment calls (src/cpu_segments.c): the orders of device/order.h. Workspace: a row
 * (inner == 1) of n elements needs, for each level k strictly between the input and the top,
 * min(count_k, tile) accumulators (0 for one tile; 4097 f32 need 2); segments the same for the
 * longest segment the API allows, a function of (op, dtypes) only (0 for no segments); strided
 * results (inner > 1) 8 accumulators per block level for each output of a group of up to 256
 * (cpu_segments_strided.h); 0 when nothing is written. */
hipreduce_status hr_cpu_run_shaped(hr_cpu* cpu, const hr_call* call);
size_t hr_cpu_shaped_workspace_size(const hr_call* call);

/* ---- the pieces of hr_cpu_run that the axis and segment executor shares ---- */

/* What reduces a call's input: the op row's transform and combine (cpu_ops.h's TR_*, CMB_*),
 * the input element's bytes, the tile (hr_tile_items of it) and the level kernels. */
typedef struct hr_cpu_kernels {
    int transform, combine;
    size_t elem;
    uint64_t tile;
    hr_cpu_level_fn in, up;
} hr_cpu_kernels;

/* The kernels of a validated call (its op, in dtype and acc): SUCCESS, or NOT_SUPPORTED. */
hipreduce_status hr_cpu_kernels_of(const hr_cpu* cpu, const hr_call* call, hr_cpu_kernels* k);

/* The host workspace for need > 0 bytes: the caller's (WORKSPACE_TOO_SMALL when smaller) or
 * the executor's own, grown (ALLOCATION_FAILED). NULL with *status set on failure. */
unsigned char* hr_cpu_workspace(hr_cpu* cpu, size_t need, hipreduce_status* status);

/* Level 0's tiles [0, tiles) of the count elements at x (and y, dot's), partial t stored at
 * dst + t * acc size; on the pool's threads when there are enough tiles for more than one. */
void hr_cpu_level0(hr_cpu* cpu, const hr_cpu_kernels* k, const void* x, const void* y, uint64_t count,
                   uint64_t tiles, void* dst);

/* Runs fn(ctx, worker) on the calling thread and, when `tiles` tiles of work are enough for
 * more than one thread, on pool workers too (hr_cpu_pool_run's contract: fn claims its work from
 * ctx, and any subset of the participants finishes it). */
void hr_cpu_parallel(hr_cpu* cpu, uint64_t tiles, hr_cpu_pool_fn fn, void* ctx);

#ifdef __cplusplus
}
#endif

#endif
