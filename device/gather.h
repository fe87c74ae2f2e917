/* The tensor shape's gather (device/call.h, HR_SHAPE_TENSOR): element i of the (kept...,
 * reduced...) contiguous copy of a strided tensor is the tensor's element at hr_tensor_offset(i),
 * so the copy's row r is result r's elements in row-major order of the reduced axes; the row
 * kernels then give each result the bits of the simple call on that row. One thread an element,
 * the grid striding over the copy: its stores are coalesced, its loads follow the strides. */
#ifndef HIPREDUCE_GATHER_H
#define HIPREDUCE_GATHER_H

#include "call.h"
#include "hip_compat.h"

namespace hr {

/* A gather launch: count elements of T from src (strides s) to dst. */
struct gather_args {
    hr_tensor tensor;
    const void* src;
    void* dst;
    uint64_t count;
    bool second; /* the second input's strides (dot) */
};

template <class T> __global__ void gather_kernel(gather_args a)
{
    const int dims = a.tensor.kept + a.tensor.reduced;
    const int64_t* s = a.second ? a.tensor.ystride : a.tensor.xstride;
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < a.count; i += step)
        ((T*)a.dst)[i] = ((const T*)a.src)[hr_tensor_offset(&a.tensor, s, 0, dims, i)];
}

}  // namespace hr

#endif
