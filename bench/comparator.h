/* The anchors hipreduce-bench races against in the same process: the vendor library (CUB's
 * DeviceReduce from the toolkit on the cuda backend, rocPRIM's reduce on the amd backend) and,
 * where the build has one, a second CUB from newer CCCL headers (bench/CMakeLists.txt).
 * Every anchor has the same two functions, over one call description. */
#ifndef HIPREDUCE_BENCH_COMPARATOR_H
#define HIPREDUCE_BENCH_COMPARATOR_H

#include "bench_hip.h"
#include "hipreduce/hipreduce.h"

/* One reduction as the bench runs it: x (and y for dot) of n elements of in in device memory;
 * value: one element of out in device memory (argmin/argmax: of in); index: argmin/argmax's
 * index (int64, device memory). nrm2: an anchor writes the sum of squares; the bench takes its
 * square root on the host. */
typedef struct anchor_call {
    hipreduce_op op;
    hipreduce_dtype in, out;
    const void* x;
    const void* y;
    uint64_t n;
    void* value;
    int64_t* index;
} anchor_call;

/* Runs the call on `stream`; with temp == NULL only sets *temp_bytes (the two-phase protocol of
 * CUB and rocPRIM). Returns hipErrorInvalidValue for a call the anchor does not cover. */
typedef hipError_t (*anchor_run_fn)(const anchor_call* call, void* temp, size_t* temp_bytes, hipStream_t stream);

#ifdef __cplusplus
extern "C" {
#endif

/* The vendor library: "CUB DeviceReduce 3.0.1 (toolkit)", "rocPRIM reduce", or NULL when the
 * build has no comparator. */
hipError_t vendor_run(const anchor_call* call, void* temp, size_t* temp_bytes, hipStream_t stream);
const char* vendor_name(void);

#if defined(HIPREDUCE_BENCH_SECOND_CUB)
/* The second CUB, in its own shared library (hidden symbols but these two, so that its inline
 * functions never mix with the toolkit CUB's of the same name): "cub-3.5.0". */
__attribute__((visibility("default"))) hipError_t second_cub_run(const anchor_call* call, void* temp,
                                                                  size_t* temp_bytes, hipStream_t stream);
__attribute__((visibility("default"))) const char* second_cub_name(void);
/* The same CUB in its deterministic mode (cuda::execution::determinism::gpu_to_gpu: the RFA, a
 * reproducible but rounded float sum): SUM and SUM_EXACT of f32/f64 into the input dtype, the
 * anchor of the exact sums. Its env API has no two-phase form: temp_bytes is 0 and CUB takes its
 * temporary storage from the stream-ordered default pool on every call. "cub-3.5.0 gpu_to_gpu". */
__attribute__((visibility("default"))) hipError_t second_cub_gpu_to_gpu_run(const anchor_call* call, void* temp,
                                                                             size_t* temp_bytes, hipStream_t stream);
__attribute__((visibility("default"))) const char* second_cub_gpu_to_gpu_name(void);
#endif

#ifdef __cplusplus
}
#endif

#endif
