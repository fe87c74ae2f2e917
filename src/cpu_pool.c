/* The cpu device's thread pool (cpu_pool.h): POSIX threads, one mutex and two condition
 * variables. A job is published under the mutex with a new generation number and stays open
 * while the caller runs its own share; a worker it names joins it only while it is open. The
 * caller then closes it and waits for the workers that joined, never for one that has not
 * woken yet: a late worker costs nothing (the jobs share their work through a counter, so the
 * participants that do run finish it).
 * Waking a sleeping thread is a system call that can cost the waker tens of microseconds (45 us
 * measured on the 2-core CI VM: more than the work of a 1 MiB call), so a worker polls for the
 * next job for HR_POOL_SPIN_NS after each one before it sleeps, and the caller polls for the
 * workers' last blocks before it sleeps: back-to-back calls wake nobody.
 * Its own pool rather than OpenMP: the threads belong to the handle (created lazily, joined
 * by hipreduce_destroy), they spin only that briefly, and ThreadSanitizer sees every
 * synchronisation (libgomp's is invisible to it). */
#if defined(__linux__)
#define _GNU_SOURCE /* sched_getaffinity */
#else
#define _POSIX_C_SOURCE 200809L
#endif

#include "cpu_pool.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sched.h>
#endif

#define HR_POOL_SPIN_NS 100000 /* 100 us */

typedef struct worker_arg {
    hr_cpu_pool* pool;
    unsigned index; /* 1 .. workers: worker 0 is the caller */
} worker_arg;

struct hr_cpu_pool {
    pthread_mutex_t lock;
    pthread_cond_t start; /* sleeping workers wait for a new generation or for stopping */
    pthread_cond_t done;  /* a sleeping caller waits for active == 0 once the job is closed */
    atomic_ulong generation; /* changed under the lock; also polled without it */
    int stopping;
    hr_cpu_pool_fn fn;
    void* ctx;
    unsigned participants;
    int open;             /* the current job still takes workers */
    atomic_uint active;   /* workers inside the current job's fn; changed under the lock */
    unsigned workers;     /* threads started */
    pthread_t* threads;
    worker_arg* args;
};

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Polls until the generation differs from `seen` (1) or HR_POOL_SPIN_NS have passed (0). */
static int spin_for_job(hr_cpu_pool* pool, unsigned long seen)
{
    const long long deadline = now_ns() + HR_POOL_SPIN_NS;
    for (unsigned i = 1;; ++i) {
        if (atomic_load_explicit(&pool->generation, memory_order_acquire) != seen) return 1;
        cpu_relax();
        if (i % 64 == 0 && now_ns() > deadline) return 0;
    }
}

/* Polls until no worker is inside the job (1) or HR_POOL_SPIN_NS have passed (0). */
static int spin_for_workers(hr_cpu_pool* pool)
{
    const long long deadline = now_ns() + HR_POOL_SPIN_NS;
    for (unsigned i = 1;; ++i) {
        if (atomic_load_explicit(&pool->active, memory_order_acquire) == 0) return 1;
        cpu_relax();
        if (i % 64 == 0 && now_ns() > deadline) return 0;
    }
}

static void* worker_main(void* p)
{
    const worker_arg* arg = (const worker_arg*)p;
    hr_cpu_pool* pool = arg->pool;
    unsigned long seen = 0;
    for (;;) {
        spin_for_job(pool, seen);
        pthread_mutex_lock(&pool->lock);
        while (atomic_load_explicit(&pool->generation, memory_order_relaxed) == seen && !pool->stopping)
            pthread_cond_wait(&pool->start, &pool->lock);
        if (pool->stopping) break;
        /* A job that closed before this worker woke is skipped: it is finished. */
        seen = atomic_load_explicit(&pool->generation, memory_order_relaxed);
        if (pool->open && arg->index < pool->participants) {
            const hr_cpu_pool_fn fn = pool->fn;
            void* ctx = pool->ctx;
            atomic_fetch_add_explicit(&pool->active, 1, memory_order_relaxed);
            pthread_mutex_unlock(&pool->lock);
            fn(ctx, arg->index);
            pthread_mutex_lock(&pool->lock);
            /* release: what fn wrote is visible to a caller that polls active */
            if (atomic_fetch_sub_explicit(&pool->active, 1, memory_order_release) == 1 && !pool->open)
                pthread_cond_signal(&pool->done);
        }
        pthread_mutex_unlock(&pool->lock);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

hr_cpu_pool* hr_cpu_pool_create(unsigned workers)
{
    if (workers == 0) return NULL;
    hr_cpu_pool* pool = (hr_cpu_pool*)calloc(1, sizeof *pool);
    if (pool == NULL) return NULL;
    atomic_init(&pool->generation, 0);
    atomic_init(&pool->active, 0);
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
    atomic_fetch_add_explicit(&pool->generation, 1, memory_order_release); /* ends the polling */
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
    atomic_fetch_add_explicit(&pool->generation, 1, memory_order_release);
    pthread_mutex_unlock(&pool->lock);
    pthread_cond_broadcast(&pool->start); /* no system call when every worker is polling */
    fn(ctx, 0);
    pthread_mutex_lock(&pool->lock);
    pool->open = 0;
    if (atomic_load_explicit(&pool->active, memory_order_relaxed) > 0) {
        /* The workers' last blocks take microseconds: poll before sleeping. */
        pthread_mutex_unlock(&pool->lock);
        spin_for_workers(pool);
        pthread_mutex_lock(&pool->lock);
        while (atomic_load_explicit(&pool->active, memory_order_relaxed) > 0)
            pthread_cond_wait(&pool->done, &pool->lock);
    }
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
