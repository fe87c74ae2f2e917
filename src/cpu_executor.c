/* The cpu device's executor (cpu_reduce.h, cpu_executor.h): its threads, its workspace, and the
 * parallel level 0 that the one call path (cpu_reduce.c) runs every contiguous slice's tiles on.
 *
 * Level 0 is nearly all the work (the levels above it hold 3/256 of its bytes or less) and its
 * tiles are independent: the calling thread and the pool's workers take blocks of consecutive
 * tiles from a shared counter until none is left. Each partial is the same bits whichever
 * thread computes it, so the result does not depend on the thread count or on the schedule. A
 * call with less level-0 work than HR_CPU_MIN_TILES tiles per extra thread does not wake the
 * pool (small n costs what it did on one thread). The tile kernels (cpu_levels.h) are the widest
 * vector variant the CPU runs. */
#include "cpu_executor.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_pool.h"
#include "rules.h"
enum {
    HR_CPU_MIN_TILES = 16, /* level-0 tiles (16 KiB of input each) per participating thread */
    HR_CPU_MAX_GRAIN = 64  /* tiles a thread takes at a time, at most (1 MiB of input) */
};

struct hr_cpu {
    unsigned threads;             /* >= 1 */
    const hr_cpu_levels* levels;  /* the kernel variant for this CPU */
    hr_cpu_pool* pool;            /* NULL until a call needs it */
    int pool_failed;              /* no thread could be started: stay on the calling thread */
    unsigned char* own;           /* the executor's workspace */
    size_t own_bytes;
    unsigned char* user;          /* the caller's workspace, when user_set */
    size_t user_bytes;
    int user_set;
};

/* ---- the executor ---- */

hipreduce_status hr_cpu_create(hr_cpu** out)
{
    hr_cpu* cpu = (hr_cpu*)calloc(1, sizeof *cpu);
    if (cpu == NULL) return HIPREDUCE_STATUS_ALLOCATION_FAILED;
    cpu->levels = hr_cpu_levels_best();
    hr_cpu_set_threads(cpu, 0);
    *out = cpu;
    return HIPREDUCE_STATUS_SUCCESS;
}

void hr_cpu_destroy(hr_cpu* cpu)
{
    if (cpu == NULL) return;
    hr_cpu_pool_destroy(cpu->pool);
    free(cpu->own);
    free(cpu);
}

hipreduce_status hr_cpu_set_threads(hr_cpu* cpu, unsigned threads)
{
    if (threads == 0) threads = hr_cpu_available_cores();
    if (threads > HR_CPU_MAX_THREADS) threads = HR_CPU_MAX_THREADS;
    if (threads != cpu->threads) {
        hr_cpu_pool_destroy(cpu->pool);
        cpu->pool = NULL;
        cpu->pool_failed = 0;
        cpu->threads = threads;
    }
    return HIPREDUCE_STATUS_SUCCESS;
}

unsigned hr_cpu_threads(const hr_cpu* cpu) { return cpu->threads; }

void hr_cpu_set_workspace(hr_cpu* cpu, void* workspace, size_t bytes)
{
    cpu->user = (unsigned char*)workspace;
    cpu->user_bytes = workspace ? bytes : 0;
    cpu->user_set = workspace != NULL;
    if (cpu->user_set) {
        free(cpu->own);
        cpu->own = NULL;
        cpu->own_bytes = 0;
    }
}

unsigned char* hr_cpu_workspace(hr_cpu* cpu, size_t need, hipreduce_status* status)
{
    if (cpu->user_set) {
        if (cpu->user_bytes >= need) return cpu->user;
        *status = HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL;
        return NULL;
    }
    if (cpu->own_bytes < need) {
        free(cpu->own);
        cpu->own_bytes = 0;
        cpu->own = (unsigned char*)malloc(need);
        if (cpu->own == NULL) {
            *status = HIPREDUCE_STATUS_ALLOCATION_FAILED;
            return NULL;
        }
        cpu->own_bytes = need;
    }
    return cpu->own;
}

/* Threads that reduce `tiles` level-0 tiles: enough work for each, and no more than started. */
static unsigned participants_for(hr_cpu* cpu, uint64_t tiles)
{
    const uint64_t useful = tiles / HR_CPU_MIN_TILES;
    if (useful <= 1 || cpu->threads <= 1) return 1;
    if (cpu->pool == NULL && !cpu->pool_failed) {
        cpu->pool = hr_cpu_pool_create(cpu->threads - 1);
        cpu->pool_failed = cpu->pool == NULL;
    }
    const uint64_t started = (uint64_t)hr_cpu_pool_workers(cpu->pool) + 1;
    const uint64_t k = useful < cpu->threads ? useful : cpu->threads;
    return (unsigned)(k < started ? k : started);
}

typedef struct level_job {
    hr_cpu_level_fn level;
    int combine;
    const void* x;
    const void* y;
    uint64_t count, tile, tiles, grain;
    void* dst;
    atomic_uint_fast64_t next; /* the first tile no thread has taken yet */
} level_job;

static void run_level_job(void* ctx, unsigned worker)
{
    level_job* job = (level_job*)ctx;
    (void)worker;
    uint64_t t0, t1;
    while (hr_cpu_claim(&job->next, job->tiles, job->grain, &t0, &t1))
        job->level(job->combine, job->x, job->y, job->count, job->tile, t0, t1, job->dst);
}

hipreduce_status hr_cpu_kernels_of(const hr_cpu* cpu, const hr_call* call, hr_cpu_kernels* k)
{
    return hr_cpu_kernels_from(cpu->levels, call, k);
}

const hr_cpu_levels* hr_cpu_levels_of(const hr_cpu* cpu) { return cpu->levels; }

hipreduce_status hr_cpu_kernels_from(const hr_cpu_levels* levels, const hr_call* call, hr_cpu_kernels* k)
{
    if ((unsigned)call->op >= HR_OP_SLOTS || (unsigned)call->in_dtype >= HR_DTYPE_SLOTS ||
        (unsigned)call->acc >= HR_ACC_KINDS)
        return HIPREDUCE_STATUS_NOT_SUPPORTED;
    k->transform = hr_op_transform(call->op);
    k->combine = hr_op_combine(call->op);
    k->elem = (size_t)hr_dtype_bytes(call->in_dtype);
    k->acc = (size_t)hr_acc_bytes(call->acc);
    k->in = levels->in[call->in_dtype][k->transform][call->acc];
    k->up = levels->up[call->acc][hr_cpu_chunk_slot(k->elem)];
    if (k->elem == 0 || k->in == NULL || k->up == NULL) return HIPREDUCE_STATUS_NOT_SUPPORTED;
    k->tile = hr_tile_items(k->elem);
    return HIPREDUCE_STATUS_SUCCESS;
}

void hr_cpu_level0(hr_cpu* cpu, const hr_cpu_kernels* k, const void* x, const void* y, uint64_t count,
                   uint64_t tiles, void* dst)
{
    const unsigned participants = participants_for(cpu, tiles);
    if (participants <= 1) {
        k->in(k->combine, x, y, count, k->tile, 0, tiles, dst);
        return;
    }
    level_job job = {.level = k->in, .combine = k->combine, .x = x, .y = y, .count = count, .tile = k->tile,
                     .tiles = tiles, .dst = dst};
    job.grain = tiles / (8u * participants); /* several blocks per thread: a slow one is covered */
    if (job.grain < 1) job.grain = 1;
    if (job.grain > HR_CPU_MAX_GRAIN) job.grain = HR_CPU_MAX_GRAIN;
    atomic_init(&job.next, 0);
    hr_cpu_pool_run(cpu->pool, participants, run_level_job, &job);
}

void hr_cpu_parallel(hr_cpu* cpu, uint64_t tiles, hr_cpu_pool_fn fn, void* ctx)
{
    const unsigned participants = participants_for(cpu, tiles);
    if (participants <= 1) fn(ctx, 0);
    else hr_cpu_pool_run(cpu->pool, participants, fn, ctx);
}
