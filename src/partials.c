/* The library-internal partials entry (partials.h): the cpu device's level kernels and its
 * result rounding, reached without a handle, and copies to and from a handle's memory. */
#include "partials.h"

#include <string.h>

#include "api_handle.h"
#include "cpu_executor.h"
#include "cpu_result.h"
#include "cpu_segments_strided.h"
#include "rules.h"

/* The validated call of a triple (no data) and its kernels. */
static hipreduce_status kernels(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, hr_call* call,
                                hr_cpu_kernels* k)
{
    const int combine = hr_op_combine((int)op);
    if (hr_op_transform((int)op) == HR_TF_KEY || hr_combine_is_arg(combine) ||
        !hr_result_allowed((int)op, (int)in, (int)out))
        return HIPREDUCE_STATUS_OP_DTYPE_MISMATCH;
    const hr_call c = {.op = (int)op, .in_dtype = (int)in, .out_dtype = (int)out,
                       .acc = (hr_acc_kind)hr_acc_of((int)op, (int)in, (int)out), .shape = HR_SHAPE_FULL,
                       .outer = 1, .inner = 1};
    *call = c;
    return hr_cpu_kernels_from(hr_cpu_levels_best(), call, k);
}

hipreduce_status hr_internal_partials_geometry(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out,
                                             uint64_t* tile, size_t* acc_bytes)
{
    hr_call call;
    hr_cpu_kernels k;
    const hipreduce_status s = kernels(op, in, out, &call, &k);
    if (s != HIPREDUCE_STATUS_SUCCESS) return s;
    *tile = k.tile;
    *acc_bytes = k.acc;
    return s;
}

hipreduce_status hr_internal_partials_tiles(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, int level,
                                          const void* x, const void* y, uint64_t count, uint64_t tiles,
                                          void* dst)
{
    hr_call call;
    hr_cpu_kernels k;
    const hipreduce_status s = kernels(op, in, out, &call, &k);
    if (s != HIPREDUCE_STATUS_SUCCESS) return s;
    if (tiles > 0) (level == 0 ? k.in : k.up)(k.combine, x, level == 0 ? y : NULL, count, k.tile, 0, tiles, dst);
    return s;
}

hipreduce_status hr_internal_partials_strided(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, int level,
                                            const void* x, uint64_t count, uint64_t inner, uint64_t blocks, void* dst)
{
    hr_call call;
    hr_cpu_kernels k;
    hipreduce_status s = kernels(op, in, out, &call, &k);
    if (s == HIPREDUCE_STATUS_SUCCESS && (op == HIPREDUCE_OP_DOT || !hr_cpu_strided_supported(&call, k.transform)))
        s = HIPREDUCE_STATUS_NOT_SUPPORTED;
    if (s != HIPREDUCE_STATUS_SUCCESS) return s;
    hr_cpu_strided_blocks(&call, k.transform, k.combine, level, (const unsigned char*)x, count, inner, blocks,
                          (unsigned char*)dst);
    return s;
}

hipreduce_status hr_internal_partials_finish(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out,
                                           const void* top, uint64_t count, double correction, void* result,
                                           void* result2)
{
    hr_call call;
    hr_cpu_kernels k;
    const hipreduce_status s = kernels(op, in, out, &call, &k);
    if (s != HIPREDUCE_STATUS_SUCCESS) return s;
    call.result = result;
    call.result2 = result2;
    call.correction = correction;
    hr_cpu_finish(&call, k.combine, (const unsigned char*)top, count);
    return s;
}

hipreduce_status hr_internal_partials_copy(hipreduce_handle handle, void* dst, const void* src, size_t bytes,
                                         int to_device)
{
    if (bad_handle(handle)) return HIPREDUCE_STATUS_INVALID_HANDLE;
    if (bytes == 0) return HIPREDUCE_STATUS_SUCCESS;
    if (handle->gpu == NULL) {
        memcpy(dst, src, bytes);
        return HIPREDUCE_STATUS_SUCCESS;
    }
    return hr_gpu_copy(handle->gpu, dst, src, bytes, to_device);
}
