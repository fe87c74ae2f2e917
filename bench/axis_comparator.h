/* The anchors of hipreduce-bench's --shape modes (rows, ragged segments): CUB's
 * DeviceSegmentedReduce, from the toolkit (vendor_axis_*) and, where the build has it, from the
 * second, newer CCCL (second_cub_axis_*, in the hidden-symbol shared library of comparator.h).
 * Defined in cub_axis_anchors.cu; the cuda backend only (HIPREDUCE_BENCH_AXIS_CUB). Columns have
 * no CUB anchor: CUB has no strided segmented reduction, and a transposed view is not what a CUB
 * user would race; torch's sum(dim=0) (bench/torch_axis_anchors.py) is their anchor. */
#ifndef HIPREDUCE_BENCH_AXIS_COMPARATOR_H
#define HIPREDUCE_BENCH_AXIS_COMPARATOR_H

#include "bench_hip.h"
#include "hipreduce/hipreduce.h"

/* One call: rows (offsets == NULL: outer rows of extent elements, inner == 1) or ragged segments
 * (num_segments segments of the uint64 CSR offsets, device memory). result: device memory of
 * AXIS_ANCHOR_RESULT_BYTES per result, where the anchor writes in its own layout (a sum array,
 * or CUB's (index, value) pairs), so that the timed call is CUB's call and nothing else. */
typedef struct axis_anchor_call {
    hipreduce_op op;
    hipreduce_dtype in, out; /* argmin/argmax: out == in */
    const void* x;
    uint64_t outer, extent, inner;
    uint64_t num_segments;
    const uint64_t* offsets;
    void* result;
} axis_anchor_call;

enum { AXIS_ANCHOR_RESULT_BYTES = 16 };

/* Runs the call on `stream`; temp == NULL: only sets *temp_bytes. hipErrorInvalidValue for a
 * call the anchor does not cover. */
typedef hipError_t (*axis_anchor_run_fn)(const axis_anchor_call* call, void* temp, size_t* temp_bytes,
                                         hipStream_t stream);
/* After run: the results as the library writes them, values (out dtype) and, for argmin/argmax,
 * int64 indices (device memory), for the checks; not timed. */
typedef hipError_t (*axis_anchor_unpack_fn)(const axis_anchor_call* call, void* values, int64_t* indices,
                                            hipStream_t stream);

#ifdef __cplusplus
extern "C" {
#endif

hipError_t vendor_axis_run(const axis_anchor_call* call, void* temp, size_t* temp_bytes, hipStream_t stream);
hipError_t vendor_axis_unpack(const axis_anchor_call* call, void* values, int64_t* indices, hipStream_t stream);
const char* vendor_axis_name(void); /* "cub-3.0.1-toolkit" */

#if defined(HIPREDUCE_BENCH_SECOND_CUB)
__attribute__((visibility("default"))) hipError_t second_cub_axis_run(const axis_anchor_call* call, void* temp,
                                                                       size_t* temp_bytes, hipStream_t stream);
__attribute__((visibility("default"))) hipError_t second_cub_axis_unpack(const axis_anchor_call* call, void* values,
                                                                          int64_t* indices, hipStream_t stream);
__attribute__((visibility("default"))) const char* second_cub_axis_name(void); /* "cub-3.5.0" */
#endif

#ifdef __cplusplus
}
#endif

#endif
