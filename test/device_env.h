/* What a suite run on "cpu" or "gpu" holds: the cpu device's handle (references) and the handle of
 * the device under test (the cpu device itself, or GPU 0), and the copy of host data to where the
 * device under test reads it. */
#ifndef HIPREDUCE_TEST_DEVICE_ENV_H
#define HIPREDUCE_TEST_DEVICE_ENV_H

#include "gpu_memory.h"
#include "hipreduce/hipreduce.h"
#include "test_check.h"
#include "test_run.h"

typedef struct env {
    hipreduce_handle cpu, run; /* references on cpu; calls and plans on run (cpu or gpu) */
    int gpu;
} env;

/* Host bytes where `run` reads them: the host copy itself, or a device copy (gm_free by release). */
static inline void* place(const env* e, const void* host, size_t bytes)
{
    if (!e->gpu) return (void*)host;
    void* d = gm_alloc(bytes ? bytes : 1);
    CHECK(d && gm_to_device(d, host, bytes) == 0, "device copy of %zu bytes", bytes);
    return d;
}
static inline void release(const env* e, void* p)
{
    if (e->gpu) gm_free(p);
}

/* Opens e's handles from the suite's argument ("cpu" or "gpu"): 0 to go on, else the exit code
 * (2: usage; 77: no GPU, skipped; 1: the cpu device failed to open). */
static inline int env_open(int argc, char** argv, env* e)
{
    const int gpu = test_wants_gpu(argc, argv);
    if (gpu < 0) return 2;
    e->gpu = gpu;
    return open_handles(gpu, &e->cpu, &e->run);
}
static inline void env_close(env* e)
{
    hipreduce_destroy(e->run);
    if (e->gpu) hipreduce_destroy(e->cpu);
}

#endif
