/* The exact sums' driver on a GPU (host/exact_driver.cpp; kernels: device/exact_kernels.h):
 * the executor's run-time switch asks it for the driver of an exact call. */
#ifndef HIPREDUCE_EXACT_DRIVER_H
#define HIPREDUCE_EXACT_DRIVER_H

#include "drivers.h"
#include "exact.h"

namespace hr {

/* The driver (sizes or runs any shape of the call) of sum_exact (dot false) or dot_exact over
 * in_dtype (f16, bf16, f32, f64) at warp width 32 or 64 (wide); null for any other dtype. */
call_fn exact_driver(int in_dtype, bool dot, bool wide);

}  // namespace hr

#endif
