/* The internal C interface between the C API (src/) and the GPU executor (host/).
 * Arguments reaching these functions are already validated by src/api.c. In a
 * build without a GPU backend, src/gpu_absent.c implements them. */
#ifndef HIPREDUCE_GPU_EXECUTOR_H
#define HIPREDUCE_GPU_EXECUTOR_H

#include <stddef.h>
#include <stdint.h>

#include "hipreduce/hipreduce_study.h"
#include "call.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hr_gpu hr_gpu;

/* "cuda", "amd" or "cpu" (no GPU backend). */
const char* hr_gpu_backend_name(void);

/* Binds to device `ordinal` (reading its properties once); on failure writes why. */
hipreduce_status hr_gpu_create(int ordinal, hr_gpu** out, char* why, size_t why_size);
void hr_gpu_destroy(hr_gpu* gpu);

/* Orders the new stream after the old one's work (no host synchronisation). */
hipreduce_status hr_gpu_set_stream(hr_gpu* gpu, void* stream);

/* Threads per block of the study algorithms (validated by src/api.c; 0 = their default). */
void hr_gpu_set_block_size(hr_gpu* gpu, unsigned threads);

/* Workspace bytes of a validated call (call->x, y, result, index unused). */
hipreduce_status hr_gpu_workspace_size(hr_gpu* gpu, hipreduce_algorithm algorithm, const hr_call* call,
                                       size_t* bytes);

/* Caller workspace (NULL, 0: back to the handle's own). */
hipreduce_status hr_gpu_set_workspace(hr_gpu* gpu, void* workspace, size_t bytes);

/* Runs a validated call (types.h): reduce, argreduce or dot. NOT_SUPPORTED where the algorithm
 * cannot run it (only AUTO runs the typed reductions). */
hipreduce_status hr_gpu_run(hr_gpu* gpu, hipreduce_algorithm algorithm, const hr_call* call);

/* Copies bytes between host memory and the device's memory on the handle's stream, after its
 * earlier work, and waits (to_device: src is host memory, dst device memory; else the reverse).
 * For libhipreduce_mpi's boundary elements and device results (src/partials.c). */
hipreduce_status hr_gpu_copy(hr_gpu* gpu, void* dst, const void* src, size_t bytes, int to_device);

/* Message of the last runtime error on this executor ("" if none). */
const char* hr_gpu_error_message(const hr_gpu* gpu);

/* Number of GPUs visible, 0 when there are none or the runtime cannot start (then writes why). */
int hr_gpu_count(char* why, size_t why_size);

#ifdef __cplusplus
}
#endif

#endif
