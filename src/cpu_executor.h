/* The executor's pieces that its call path (cpu_reduce.c) runs on (cpu_executor.c): the level
 * kernels of a call, the host workspace, and level 0 and other tile work on the pool. */
#ifndef HIPREDUCE_CPU_EXECUTOR_H
#define HIPREDUCE_CPU_EXECUTOR_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu_levels.h"
#include "cpu_pool.h"
#include "cpu_reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What reduces a call's input: the op row's transform and combine (HR_TF_*, HR_CB_*), the input
 * element's and the accumulator's bytes, the tile (hr_tile_items of the element) and the level
 * kernels. */
typedef struct hr_cpu_kernels {
    int transform, combine;
    size_t elem, acc;
    uint64_t tile;
    hr_cpu_level_fn in, up;
} hr_cpu_kernels;

/* The kernels of a validated call (its op, in dtype and acc): SUCCESS, or NOT_SUPPORTED. */
hipreduce_status hr_cpu_kernels_of(const hr_cpu* cpu, const hr_call* call, hr_cpu_kernels* k);
/* The executor's kernel variant (the widest this CPU runs). */
const hr_cpu_levels* hr_cpu_levels_of(const hr_cpu* cpu);
/* The same from a kernel variant (src/partials.c's entry, which has no executor). */
hipreduce_status hr_cpu_kernels_from(const hr_cpu_levels* levels, const hr_call* call, hr_cpu_kernels* k);

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

/* Claims the next block of up to `grain` items of [0, total) from the shared counter `next`
 * (a job's work, taken by the pool's threads in blocks): [*first, *end), or 0 when none is left. */
static inline int hr_cpu_claim(atomic_uint_fast64_t* next, uint64_t total, uint64_t grain, uint64_t* first,
                               uint64_t* end)
{
    const uint64_t f = (uint64_t)atomic_fetch_add_explicit(next, grain, memory_order_relaxed);
    if (f >= total) return 0;
    *first = f;
    *end = total - f < grain ? total : f + grain;
    return 1;
}

#ifdef __cplusplus
}
#endif

#endif
