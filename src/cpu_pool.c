/* The cpu device's thread pool (cpu_pool.h): POSIX threads, one mutex and two condition
 * variables. A job is published under the mutex with a new generation number and stays open
 * while the caller runs its own share; a worker it names joins it only while it is open. The
 * caller then closes it and waits for the workers that joined, never for one that has not
 * woken yet: on a busy machine a late worker costs nothing (the jobs share their work through
 * a counter, so the participants that do run finish it).
 * Its own pool rather than OpenMP: the threads belong to the handle (created lazily, joined
 * by hipreduce_destroy), nothing spins after a call, and ThreadSanitizer sees every
 * synchronisation (libgomp's is invisible to it). */
#if defined(__linux__)
#define _GNU_SOURCE /* sched_getaffinity */
#else
#define _POSIX_C_SOURCE 200809L
#endif

#include "cpu_pool.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#if defined(__linux__)
#include <sched.h>
#endif

typedef struct worker_arg {
    hr_cpu_pool* pool;
    unsigned index; /* 1 .. workers: worker 0 is the caller */
} worker_arg;

struct hr_cpu_pool {
    pthread_mutex_t lock;
    pthread_cond_t start; /* workers wait for a new generation or for stopping */
    pthread_cond_t done;  /* the caller waits for active == 0 once the job is closed */
    unsigned long generation;
    int stopping;
    hr_cpu_pool_fn fn;
    void* ctx;
    unsigned participants;
    int open;           /* the current job still takes workers */
    unsigned active;    /* workers inside the current job's fn */
    unsigned workers;   /* threads started */
    pthread_t* threads;
    worker_arg* args;
};

static void* worker_main(void* p)
{
    const worker_arg* arg = (const worker_arg*)p;
    hr_cpu_pool* pool = arg->pool;
    unsigned long seen = 0;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (pool->generation == seen && !pool->stopping) pthread_cond_wait(&pool->start, &pool->lock);
        if (pool->stopping) break;
        /* A job that closed before this worker woke is skipped: it is finished. */
        seen = pool->generation;
        if (pool->open && arg->index < pool->participants) {
            const hr_cpu_pool_fn fn = pool->fn;
            void* ctx = pool->ctx;
            ++pool->active;
            pthread_mutex_unlock(&pool->lock);
            fn(ctx, arg->index);
            pthread_mutex_lock(&pool->lock);
            if (--pool->active == 0 && !pool->open) pthread_cond_signal(&pool->done);
        }
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

hr_cpu_pool* hr_cpu_pool_create(unsigned workers)
{
    if (workers == 0) return NULL;
    hr_cpu_pool* pool = (hr_cpu_pool*)calloc(1, sizeof *pool);
    if (pool == NULL) return NULL;
    pool->threads = (pthread_t*)calloc(workers, sizeof *pool->threads);
    pool->args = (worker_arg*)calloc(workers, sizeof *pool->args);
    int mutex_ok = 0, start_ok = 0, done_ok = 0;
    if (pool->threads && pool->args) {
        mutex_ok = pthread_mutex_init(&pool->lock, NULL) == 0;
        start_ok = pthread_cond_init(&pool->start, NULL) == 0;
        done_ok = pthread_cond_init(&pool->done, NULL) == 0;
    }
    if (mutex_ok && start_ok && done_ok) {
        /* Library threads take no signals: they are the application's to handle. */
        sigset_t all, old;
        sigfillset(&all);
        const int masked = pthread_sigmask(SIG_SETMASK, &all, &old) == 0;
        for (unsigned i = 0; i < workers; ++i) {
            pool->args[i].pool = pool;
            pool->args[i].index = i + 1;
            if (pthread_create(&pool->threads[i], NULL, worker_main, &pool->args[i]) != 0) break;
            pool->workers = i + 1;
        }
        if (masked) pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (pool->workers > 0) return pool;
    }
    if (done_ok) pthread_cond_destroy(&pool->done);
    if (start_ok) pthread_cond_destroy(&pool->start);
    if (mutex_ok) pthread_mutex_destroy(&pool->lock);
    free(pool->args);
    free(pool->threads);
    free(pool);
    return NULL;
}

void hr_cpu_pool_destroy(hr_cpu_pool* pool)
{
    if (pool == NULL) return;
    pthread_mutex_lock(&pool->lock);
    pool->stopping = 1;
    pthread_cond_broadcast(&pool->start);
    pthread_mutex_unlock(&pool->lock);
    for (unsigned i = 0; i < pool->workers; ++i) pthread_join(pool->threads[i], NULL);
    pthread_cond_destroy(&pool->done);
    pthread_cond_destroy(&pool->start);
    pthread_mutex_destroy(&pool->lock);
    free(pool->args);
    free(pool->threads);
    free(pool);
}

unsigned hr_cpu_pool_workers(const hr_cpu_pool* pool) { return pool ? pool->workers : 0; }

void hr_cpu_pool_run(hr_cpu_pool* pool, unsigned participants, hr_cpu_pool_fn fn, void* ctx)
{
    if (pool == NULL || participants <= 1) {
        fn(ctx, 0);
        return;
    }
    if (participants > pool->workers + 1) participants = pool->workers + 1;
    pthread_mutex_lock(&pool->lock);
    pool->fn = fn;
    pool->ctx = ctx;
    pool->participants = participants;
    pool->open = 1;
    ++pool->generation;
    pthread_cond_broadcast(&pool->start);
    pthread_mutex_unlock(&pool->lock);
    fn(ctx, 0);
    pthread_mutex_lock(&pool->lock);
    pool->open = 0;
    while (pool->active > 0) pthread_cond_wait(&pool->done, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
}

unsigned hr_cpu_available_cores(void)
{
    long cores = 0;
#if defined(__linux__)
    /* The cores this process may run on (taskset, cgroup cpusets), not all the machine's. */
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) cores = CPU_COUNT(&set);
#endif
#if defined(_SC_NPROCESSORS_ONLN)
    if (cores <= 0) cores = sysconf(_SC_NPROCESSORS_ONLN);
#endif
    return cores > 0 ? (unsigned)cores : 1u;
}
