/* The GPU executor's by-key shape (host/gpu_by_key.cpp): the rows sorted by key into the
 * workspace as a copy whose bins are CSR segments, the segment call that reduces it, and what
 * follows the segment kernels (row indices for argmin/argmax, the counts). */
#ifndef HIPREDUCE_GPU_BY_KEY_H
#define HIPREDUCE_GPU_BY_KEY_H

#include "drivers.h"

namespace hr {

/* Workspace bytes of a by-key call's sort and sorted copy, which come first in the driver's
 * region (the segment call's region after them); 0 for any other shape. False on overflow. */
bool by_key_bytes(const hr_call* call, const device_info& dev, uint64_t* bytes);
/* The segment call (num_bins * row segments) over the sorted copy in `region` (null: a size query). */
hr_call by_key_segments_call(const hr_call* call, unsigned char* region, const device_info& dev);
/* Launches the sort, the bins' offsets and counts and the sorted copy into `region`, stream-ordered. */
hipError_t by_key_prepare(const hr_call* call, unsigned char* region, hipStream_t stream, const device_info& dev);
/* After the segment kernels: argmin/argmax's positions at `index` (device memory: the caller's
 * or the staging) become row indices, and the counts go to call->counts (an asynchronous copy
 * to the host for a host-bound call: the caller waits for the stream before it returns). */
hipError_t by_key_finish(const hr_call* call, unsigned char* region, int64_t* index, hipStream_t stream,
                         const device_info& dev);

}  // namespace hr

#endif
