/* Plans of layout BY_KEY: the descriptor's checks (api_by_key.h) and the host keys' range. */
#include "api_by_key.h"

#include <inttypes.h>

hipreduce_status hr_by_key_shape(hipreduce_handle handle, const hipreduce_reduction_desc* d, hr_call* call)
{
    if (hr_op_call(call->op) == HR_CALL_DOT)
        return hr_fail(handle, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, "%s has no by-key form", hr_op_name(call->op));
    if (d->key_dtype != HIPREDUCE_I32 && d->key_dtype != HIPREDUCE_I64) {
        const char* name = hr_dtype_name((int)d->key_dtype);
        if (name == NULL)
            return hr_fail(handle, HIPREDUCE_STATUS_INVALID_DTYPE, "key_dtype %d is not a dtype: keys are i32 or i64",
                           (int)d->key_dtype);
        return hr_fail(handle, HIPREDUCE_STATUS_INVALID_DTYPE, "key_dtype %s is not a key dtype: keys are i32 or i64", name);
    }
    if (d->row == 0)
        return hr_fail(handle, HIPREDUCE_STATUS_INVALID_AXES, "row = 0: a by-key row holds at least one value");
    int overflow = 0;
    const uint64_t n = hr_mul_checked(d->length, d->row, &overflow);
    if (overflow || hr_bytes_overflow(n, (size_t)hr_dtype_bytes(call->in_dtype)))
        return hr_fail(handle, HIPREDUCE_STATUS_SIZE_OVERFLOW,
                       "length %" PRIu64 " x row %" PRIu64 " values of %s overflow the byte count", d->length, d->row,
                       hr_dtype_name(call->in_dtype));
    if (hr_bytes_overflow(d->length, 8)) /* the keys, and the row indices the executors sort */
        return hr_fail(handle, HIPREDUCE_STATUS_SIZE_OVERFLOW, "length %" PRIu64 " keys overflow the byte count", d->length);
    const uint64_t results = hr_mul_checked(d->num_bins, d->row, &overflow);
    /* Results: values and int64 indices; one CSR offset more than results (the executors'). */
    if (overflow || results == UINT64_MAX || hr_bytes_overflow(results + 1, 8) ||
        hr_bytes_overflow(results, (size_t)hr_dtype_bytes(call->out_dtype)))
        return hr_fail(handle, HIPREDUCE_STATUS_SIZE_OVERFLOW,
                       "num_bins %" PRIu64 " x row %" PRIu64 " results overflow the byte count", d->num_bins, d->row);
    call->shape = HR_SHAPE_BY_KEY;
    call->n = n;
    call->length = d->length;
    call->num_bins = d->num_bins;
    call->row = d->row;
    call->key_dtype = (int)d->key_dtype;
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hr_by_key_check_keys(hipreduce_handle handle, const hr_call* call)
{
    const int32_t* k32 = (const int32_t*)call->keys;
    const int64_t* k64 = (const int64_t*)call->keys;
    for (uint64_t i = 0; i < call->length; ++i) {
        const int64_t k = call->key_dtype == HIPREDUCE_I32 ? (int64_t)k32[i] : k64[i];
        if (k < 0 || (uint64_t)k >= call->num_bins) {
            if (call->num_bins == 0)
                return hr_fail(handle, HIPREDUCE_STATUS_INVALID_OFFSETS, "keys[%" PRIu64 "] = %" PRId64 " with num_bins = 0 (no bin)",
                               i, k);
            return hr_fail(handle, HIPREDUCE_STATUS_INVALID_OFFSETS, "keys[%" PRIu64 "] = %" PRId64 " lies outside 0 .. %" PRIu64
                           " (num_bins - 1)", i, k, call->num_bins - 1);
        }
    }
    return HIPREDUCE_STATUS_SUCCESS;
}
