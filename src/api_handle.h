/* The C API's handle, shared by its settings (api_handle.c) and its calls (api_calls.c). */
#ifndef HIPREDUCE_API_HANDLE_H
#define HIPREDUCE_API_HANDLE_H

#include <stdint.h>

#include "cpu_reduce.h"
#include "gpu_executor.h"
#include "hipreduce/hipreduce.h"

/* Every live handle carries this tag; destroy clears it before freeing, so a destroyed or
 * foreign pointer passed by mistake is INVALID_HANDLE wherever its memory no longer holds it. */
#define HR_HANDLE_TAG UINT64_C(0x68697072656475ce) /* "hipredu" + 0xce */

struct hipreduce_handle_s {
    uint64_t tag;
    hipreduce_algorithm algorithm;
    hr_gpu* gpu; /* NULL on the CPU device */
    hr_cpu* cpu; /* NULL on a GPU device */
};

static inline int bad_handle(hipreduce_handle handle) { return handle == NULL || handle->tag != HR_HANDLE_TAG; }

#endif
