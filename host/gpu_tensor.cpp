/* The GPU executor's tensor shape (device/call.h, HR_SHAPE_TENSOR) for the calls the tensor kernels
 * (device/tensor.h) do not take, dot and the exact sums: the tensor is gathered into the workspace
 * as its (kept..., reduced...) contiguous copy (device/gather.h), which the row kernels then reduce
 * as the axis call (results, reduced, 1): each result the bits of the simple call on its elements. */
#include "gpu_tensor.h"

#include "complex.h"
#include "gather.h"

namespace hr {

uint64_t tensor_gather_bytes(const hr_call* call)
{
    if (call->shape != HR_SHAPE_TENSOR) return 0;
    if (hr_op_call(call->op) != HR_CALL_DOT && hr_op_combine(call->op) != HR_CB_EXACT) return 0; /* no copy */
    const uint64_t one = round16(call->n * (uint64_t)hr_dtype_bytes(call->in_dtype));
    return hr_op_call(call->op) == HR_CALL_DOT ? 2 * one : one;
}

hr_call tensor_rows_call(const hr_call* call, const unsigned char* gathered)
{
    hr_call rows = *call;
    rows.shape = HR_SHAPE_AXIS;
    rows.inner = 1;
    rows.x = gathered;
    rows.y = call->y && gathered ? gathered + tensor_gather_bytes(call) / 2 : nullptr;
    return rows;
}

template <class T> static hipError_t launch(const gather_args& a, hipStream_t stream, const device_info& dev)
{
    const uint64_t threads = 256, blocks = (a.count + threads - 1) / threads, cap = resident_blocks(dev) * 4;
    hipLaunchKernelGGL(gather_kernel<T>, dim3((unsigned)(blocks < cap ? blocks : cap)), dim3((unsigned)threads), 0, stream, a);
    return hipGetLastError();
}

static hipError_t gather_one(const hr_call* call, const void* src, void* dst, bool second, hipStream_t stream,
                             const device_info& dev)
{
    gather_args a = {call->tensor, src, dst, call->n, second};
    switch (hr_dtype_bytes(call->in_dtype)) {
    case 1: return launch<uint8_t>(a, stream, dev);
    case 2: return launch<uint16_t>(a, stream, dev);
    case 4: return launch<uint32_t>(a, stream, dev);
    case 8: return launch<uint64_t>(a, stream, dev);
    default: return launch<hr_c128>(a, stream, dev); /* 16 bytes: c128 */
    }
}

hipError_t tensor_gather(const hr_call* call, unsigned char* gathered, hipStream_t stream, const device_info& dev)
{
    if (call->n == 0) return hipSuccess;
    hipError_t err = gather_one(call, call->x, gathered, false, stream, dev);
    if (err == hipSuccess && call->y)
        err = gather_one(call, call->y, gathered + tensor_gather_bytes(call) / 2, true, stream, dev);
    return err;
}

}  // namespace hr
