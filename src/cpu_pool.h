/* A small pool of POSIX threads that the cpu device's handle owns: one job at a time, run by
 * the calling thread and some of the pool's workers, returning when all of them are done. */
#ifndef HIPREDUCE_CPU_POOL_H
#define HIPREDUCE_CPU_POOL_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hr_cpu_pool hr_cpu_pool;

/* fn(ctx, worker) runs once per participant; worker 0 is the calling thread. */
typedef void (*hr_cpu_pool_fn)(void* ctx, unsigned worker);

/* Starts up to `workers` threads (all signals blocked in them). Returns NULL when none could
 * be started; otherwise the pool, whose hr_cpu_pool_workers may be fewer than asked. */
hr_cpu_pool* hr_cpu_pool_create(unsigned workers);

/* Stops and joins the workers; the pool must be idle. NULL is accepted. */
void hr_cpu_pool_destroy(hr_cpu_pool* pool);

unsigned hr_cpu_pool_workers(const hr_cpu_pool* pool);

/* Runs fn on the calling thread (worker 0) and on those of workers 1 .. participants-1
 * (participants <= hr_cpu_pool_workers + 1) that wake before the caller's own run returns;
 * returns when every run has returned, and what they wrote is then visible to the caller. So
 * fn must claim its work from ctx (any subset of the participants finishes the job, the
 * caller alone included). One caller at a time. */
void hr_cpu_pool_run(hr_cpu_pool* pool, unsigned participants, hr_cpu_pool_fn fn, void* ctx);

/* Cores this process may run on (at least 1). */
unsigned hr_cpu_available_cores(void);

#ifdef __cplusplus
}
#endif

#endif
