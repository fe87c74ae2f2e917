/* Plans of layout BY_KEY (hipreduce.h, "Descriptors and plans"): the descriptor's checks into the
 * by-key call (device/call.h, HR_SHAPE_BY_KEY), and the range check of host keys before a run on
 * the cpu device (api_by_key.c). Each returns a status and leaves the handle's message on failure. */
#ifndef HIPREDUCE_API_BY_KEY_H
#define HIPREDUCE_API_BY_KEY_H

#include "api_call.h"

/* After the op and dtypes: dot has no by-key form (OP_DTYPE_MISMATCH); key_dtype I32 or I64
 * (INVALID_DTYPE); row >= 1 (INVALID_AXES); the values', keys', results' and offsets' byte
 * counts fit (SIZE_OVERFLOW). Fills the call's shape: n = length * row, length, num_bins, row,
 * key_dtype. */
hipreduce_status hr_by_key_shape(hipreduce_handle handle, const hipreduce_reduction_desc* d, hr_call* call);

/* Host keys (a CPU handle's run): every key in [0, num_bins), else INVALID_OFFSETS naming the
 * first one outside. */
hipreduce_status hr_by_key_check_keys(hipreduce_handle handle, const hr_call* call);

#endif
