/* The steps every entry point of the C API shares (api_calls.c), for the simple calls and the
 * plans (api_plan.c): validation into one hr_call, the shape checks, and the run on the handle's
 * executor. Each returns a status and leaves the handle's message on failure. */
#ifndef HIPREDUCE_API_CALL_H
#define HIPREDUCE_API_CALL_H

#include <stddef.h>
#include <stdint.h>

#include "api_handle.h"
#include "call.h"

#define HR_ANY UINT64_MAX /* hr_null_pointer: a pointer that must never be NULL */

/* Whether n elements of elem_size bytes overflow a 64-bit or size_t byte count. */
int hr_bytes_overflow(uint64_t n, size_t elem_size);
/* a * b, or 0 with *overflow set when it does not fit in 64 bits. */
uint64_t hr_mul_checked(uint64_t a, uint64_t b, int* overflow);

/* The checks every call and size query shares, in the header's order, up to the pointers; fills
 * *call's triple, accumulator and n (a FULL shape). A size query passes query = 1. */
hipreduce_status hr_api_validate(hipreduce_handle handle, hr_call_kind kind, int op, int in_dtype, int out_dtype,
                                 uint64_t n, int query, int location, hr_call* call);
/* The message of a shape's overflow: its sizes. */
hipreduce_status hr_shape_overflow(hipreduce_handle handle, const hr_call* call);
/* A SEGMENTS shape of num_segments; SIZE_OVERFLOW when its offsets' bytes overflow. */
hipreduce_status hr_segments_shape(hr_call* call, uint64_t num_segments);
/* A NULL pointer argument (n: elements it should have held, or HR_ANY). */
hipreduce_status hr_null_pointer(hipreduce_handle handle, const char* name, uint64_t n);

/* sum_exact of a complex input as the real exact sum over its (re, im) view (api_complex.c): fills
 * *real and returns 1, or 0 for a shape without that view. */
int hr_complex_exact_view(const hr_call* call, hr_call* real);

/* After the pointers: the byte count, host offsets on a CPU handle, then the executor. */
hipreduce_status hr_api_run(hipreduce_handle handle, const hr_call* call);
/* The workspace size of a validated call on the handle's executor. */
hipreduce_status hr_api_size_query(hipreduce_handle handle, const hr_call* call, size_t* bytes);

#endif
