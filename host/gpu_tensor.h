/* The GPU executor's tensor shape for dot and the exact sums (host/gpu_tensor.cpp): the gather into
 * the workspace and the row call that reduces the gathered copy. */
#ifndef HIPREDUCE_GPU_TENSOR_H
#define HIPREDUCE_GPU_TENSOR_H

#include "drivers.h"

namespace hr {

/* Workspace bytes of a call's gathered copy (x, then y for dot, each 16-byte aligned); 0 for any
 * shape but the tensor's, and for the tensors the tensor kernels read in place (not dot, not exact). */
uint64_t tensor_gather_bytes(const hr_call* call);
/* The axis call (results, reduced, 1) over the copy at `gathered`. */
hr_call tensor_rows_call(const hr_call* call, const unsigned char* gathered);
/* Launches the gather of the call's inputs into `gathered`, stream-ordered. */
hipError_t tensor_gather(const hr_call* call, unsigned char* gathered, hipStream_t stream, const device_info& dev);

}  // namespace hr

#endif
