/* The vendor library hipreduce-bench races against in the same process: CUB's
 * DeviceReduce on the cuda backend, rocPRIM's reduce on the amd backend. */
#ifndef HIPREDUCE_BENCH_COMPARATOR_H
#define HIPREDUCE_BENCH_COMPARATOR_H

#include "hip_compat.h"
#include "hipreduce/hipreduce.h"

/* Runs one reduction into device memory `out` on `stream`. With temp == NULL it
 * only sets *temp_bytes (the two-phase protocol both libraries use). Returns
 * hipErrorInvalidValue for an (op, dtype) it does not cover. */
hipError_t vendor_reduce(hipreduce_op op, hipreduce_dtype dtype, const void* in, uint64_t n, void* out, void* temp,
                         size_t* temp_bytes, hipStream_t stream);

/* "CUB DeviceReduce", "rocPRIM reduce", or NULL when the build has no comparator. */
const char* vendor_name(void);

#endif
