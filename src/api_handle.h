/* The C API's handle, shared by its settings (api_handle.c) and its calls (api_calls.c). */
#ifndef HIPREDUCE_API_HANDLE_H
#define HIPREDUCE_API_HANDLE_H

#include <stdatomic.h>
#include <stdint.h>

#include "cpu_reduce.h"
#include "gpu_executor.h"
#include "hipreduce/hipreduce.h"

/* Every live handle carries this tag; destroy clears it before freeing, so a destroyed or
 * foreign pointer passed by mistake is INVALID_HANDLE wherever its memory no longer holds it. */
#define HR_HANDLE_TAG UINT64_C(0x68697072656475ce) /* "hipredu" + 0xce */

struct hipreduce_handle_s {
    uint64_t tag;
    atomic_int busy; /* a call is running on the handle (hipreduce.h: one at a time) */
    hipreduce_algorithm algorithm;
    hr_gpu* gpu;       /* NULL on the CPU device */
    hr_cpu* cpu;       /* NULL on a GPU device */
    char message[256]; /* why the most recent call failed; "" after a success */
};

static inline int bad_handle(hipreduce_handle handle) { return handle == NULL || handle->tag != HR_HANDLE_TAG; }

/* Takes the handle for one call: 0 when another thread holds it (HANDLE_BUSY: the caller
 * returns at once, touching nothing). One atomic exchange; never waits. */
static inline int hr_enter(hipreduce_handle handle)
{
    return atomic_exchange_explicit(&handle->busy, 1, memory_order_acquire) == 0;
}
static inline void hr_leave(hipreduce_handle handle) { atomic_store_explicit(&handle->busy, 0, memory_order_release); }

/* Writes the handle's message (printf format) and returns st. */
hipreduce_status hr_fail(hipreduce_handle handle, hipreduce_status st, const char* format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* After an executor's call: the message a failure left (the GPU runtime's), or the status's
 * sentence with what was asked. */
hipreduce_status hr_executor_status(hipreduce_handle handle, hipreduce_status st);

/* The body of every entry point that uses a handle: the tag, the in-use flag, the message
 * reset, then `call`, whose status is returned. */
#define HR_GUARDED(handle, call)                                                            \
    do {                                                                                    \
        if (bad_handle(handle)) return HIPREDUCE_STATUS_INVALID_HANDLE;                     \
        if (!hr_enter(handle)) return HIPREDUCE_STATUS_HANDLE_BUSY;                         \
        (handle)->message[0] = '\0';                                                        \
        const hipreduce_status guarded_status_ = (call);                                    \
        hr_leave(handle);                                                                   \
        return guarded_status_;                                                             \
    } while (0)

#endif
