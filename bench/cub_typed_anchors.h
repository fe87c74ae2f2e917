/* The typed calls through CUB (cub_typed_anchors.cu): what cub_comparator.cu hands on. Hidden in
 * the second CUB's shared library, so each CUB build calls its own. */
#ifndef HIPREDUCE_BENCH_CUB_TYPED_ANCHORS_H
#define HIPREDUCE_BENCH_CUB_TYPED_ANCHORS_H

#include "comparator.h"

/* hipErrorInvalidValue for a call it does not cover. */
hipError_t cub_typed_run(const anchor_call* call, void* temp, size_t* temp_bytes, hipStream_t stream);

#endif
