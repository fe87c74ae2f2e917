/* CUB's DeviceSegmentedReduce as the anchor of hipreduce-bench's rows and ragged segments
 * (axis_comparator.h), written as a careful CUB user would:
 *   rows, CUB >= 3.2: the fixed-size overloads (Sum, ArgMax taking a segment size);
 *   rows, older CUB (the toolkit's 3.0): begin/end offsets as a transform of a counting
 *     iterator (row r starts at r * extent), nothing materialised;
 *   ragged: Sum over the CSR offsets themselves (begin = offsets, end = offsets + 1);
 *   f16/bf16 -> f32 and i8 -> i64 sums: the input through a transform iterator that converts each
 *     element to the result type, so CUB accumulates in it; sum_squares bf16 -> f32 (RMSNorm's
 *     row statistic) the same way, the transform squaring the converted element.
 * Covered: sum f32->f32, f16->f32, bf16->f32, i8->i64, sum_squares bf16->f32 (rows), sum
 * f32->f32 (ragged); argmax f32
 * (rows; CUB writes (index, value) pairs, unpacked for the checks outside the timing). The rest,
 * columns included, returns cudaErrorInvalidValue. Built into the bench against the toolkit's CCCL
 * (vendor_axis_*) and into the second CUB's shared library (HR_SECOND_CUB: second_cub_axis_*). */
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/version.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "axis_comparator.h"

namespace {

template <class Acc> struct cast_to {
    __device__ Acc operator()(__half x) const { return Acc(__half2float(x)); }
    __device__ Acc operator()(__nv_bfloat16 x) const { return Acc(__bfloat162float(x)); }
    __device__ Acc operator()(int8_t x) const { return Acc(x); }
};

template <class Acc> struct square_to {
    __device__ Acc operator()(__nv_bfloat16 x) const
    {
        const Acc a = Acc(__bfloat162float(x));
        return a * a;
    }
};

#if CUB_VERSION < 300200
/* Row r's first element (the offsets of the overloads without a segment size). */
struct row_start {
    int64_t extent;
    __host__ __device__ int64_t operator()(int64_t r) const { return r * extent; }
};

auto row_starts(const axis_anchor_call* c)
{
    return thrust::make_transform_iterator(thrust::counting_iterator<int64_t>(0), row_start{(int64_t)c->extent});
}
#endif

template <class Acc, class InputIt>
cudaError_t sum_segments(const axis_anchor_call* c, InputIt in, void* temp, size_t* bytes, cudaStream_t s)
{
    Acc* out = static_cast<Acc*>(c->result);
    if (c->offsets)
        return cub::DeviceSegmentedReduce::Sum(temp, *bytes, in, out, (int64_t)c->num_segments, c->offsets,
                                               c->offsets + 1, s);
#if CUB_VERSION >= 300200
    if (c->extent > INT_MAX) return cudaErrorInvalidValue; /* the segment size is an int */
    return cub::DeviceSegmentedReduce::Sum(temp, *bytes, in, out, (int64_t)c->outer, (int)c->extent, s);
#else
    const auto begin = row_starts(c);
    return cub::DeviceSegmentedReduce::Sum(temp, *bytes, in, out, (int64_t)c->outer, begin, begin + 1, s);
#endif
}

/* CUB's argmax pair: cuda::std::pair<int, T> for the fixed-size overload, KeyValuePair<int, T>
 * before it. */
#if CUB_VERSION >= 300200
template <class T> using arg_pair = ::cuda::std::pair<int, T>;
template <class T> __device__ int key_of(const arg_pair<T>& p) { return p.first; }
template <class T> __device__ T value_of(const arg_pair<T>& p) { return p.second; }
#else
template <class T> using arg_pair = cub::KeyValuePair<int, T>;
template <class T> __device__ int key_of(const arg_pair<T>& p) { return p.key; }
template <class T> __device__ T value_of(const arg_pair<T>& p) { return p.value; }
#endif
static_assert(sizeof(arg_pair<double>) <= AXIS_ANCHOR_RESULT_BYTES, "the result buffer holds one pair");

template <class T> cudaError_t argmax_rows(const axis_anchor_call* c, void* temp, size_t* bytes, cudaStream_t s)
{
    const T* x = static_cast<const T*>(c->x);
    arg_pair<T>* out = static_cast<arg_pair<T>*>(c->result);
    if (c->extent > INT_MAX) return cudaErrorInvalidValue; /* the index is an int */
#if CUB_VERSION >= 300200
    return cub::DeviceSegmentedReduce::ArgMax(temp, *bytes, x, out, (int64_t)c->outer, (int)c->extent, s);
#else
    /* Its global offsets are ints too. */
    if (c->outer > (uint64_t)INT_MAX / c->extent) return cudaErrorInvalidValue;
    const auto begin = row_starts(c);
    return cub::DeviceSegmentedReduce::ArgMax(temp, *bytes, x, out, (int64_t)c->outer, begin, begin + 1, s);
#endif
}

template <class T> __global__ void unpack_pairs(const arg_pair<T>* p, uint64_t n, T* values, int64_t* indices)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        values[i] = value_of(p[i]);
        indices[i] = key_of(p[i]);
    }
}

constexpr int pair_of(int in, int out) { return in * 16 + out; }

uint64_t results_of(const axis_anchor_call* c) { return c->offsets ? c->num_segments : c->outer; }

}  // namespace

#if defined(HR_SECOND_CUB)
#define HR_AXIS_RUN second_cub_axis_run
#define HR_AXIS_UNPACK second_cub_axis_unpack
#define HR_AXIS_NAME second_cub_axis_name
#define HR_AXIS_FORMAT "cub-%d.%d.%d"
#else
#define HR_AXIS_RUN vendor_axis_run
#define HR_AXIS_UNPACK vendor_axis_unpack
#define HR_AXIS_NAME vendor_axis_name
#define HR_AXIS_FORMAT "cub-%d.%d.%d-toolkit"
#endif

const char* HR_AXIS_NAME(void)
{
    static char name[64];
    snprintf(name, sizeof name, HR_AXIS_FORMAT, CUB_MAJOR_VERSION, CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION);
    return name;
}

hipError_t HR_AXIS_RUN(const axis_anchor_call* c, void* temp, size_t* temp_bytes, hipStream_t stream)
{
    if (!c->offsets && c->inner != 1) return cudaErrorInvalidValue; /* columns: no CUB anchor */
    if (c->op == HIPREDUCE_OP_ARGMAX) {
        if (c->offsets || c->in != HIPREDUCE_F32) return cudaErrorInvalidValue;
        return argmax_rows<float>(c, temp, temp_bytes, stream);
    }
    const int pair = pair_of(c->in, c->out);
    if (c->op == HIPREDUCE_OP_SUM_SQUARES) {
        if (c->offsets || pair != pair_of(HIPREDUCE_BF16, HIPREDUCE_F32)) return cudaErrorInvalidValue;
        return sum_segments<float>(
            c, thrust::make_transform_iterator(static_cast<const __nv_bfloat16*>(c->x), square_to<float>{}), temp,
            temp_bytes, stream);
    }
    if (c->op != HIPREDUCE_OP_SUM) return cudaErrorInvalidValue;
    if (pair == pair_of(HIPREDUCE_F32, HIPREDUCE_F32))
        return sum_segments<float>(c, static_cast<const float*>(c->x), temp, temp_bytes, stream);
    if (c->offsets) return cudaErrorInvalidValue; /* ragged: f32 only (build time) */
    switch (pair) {
    case pair_of(HIPREDUCE_F16, HIPREDUCE_F32):
        return sum_segments<float>(
            c, thrust::make_transform_iterator(static_cast<const __half*>(c->x), cast_to<float>{}), temp,
            temp_bytes, stream);
    case pair_of(HIPREDUCE_BF16, HIPREDUCE_F32):
        return sum_segments<float>(
            c, thrust::make_transform_iterator(static_cast<const __nv_bfloat16*>(c->x), cast_to<float>{}), temp,
            temp_bytes, stream);
    case pair_of(HIPREDUCE_I8, HIPREDUCE_I64):
        return sum_segments<int64_t>(
            c, thrust::make_transform_iterator(static_cast<const int8_t*>(c->x), cast_to<int64_t>{}), temp,
            temp_bytes, stream);
    default: return cudaErrorInvalidValue;
    }
}

hipError_t HR_AXIS_UNPACK(const axis_anchor_call* c, void* values, int64_t* indices, hipStream_t stream)
{
    const uint64_t n = results_of(c);
    if (n == 0) return cudaSuccess;
    if (c->op == HIPREDUCE_OP_ARGMAX && c->in == HIPREDUCE_F32) {
        const unsigned blocks = (unsigned)(n / 256 + 1 < 4096 ? n / 256 + 1 : 4096);
        unpack_pairs<float><<<blocks, 256, 0, stream>>>(static_cast<const arg_pair<float>*>(c->result), n,
                                                        static_cast<float*>(values), indices);
        return cudaGetLastError();
    }
    /* Sums and sums of squares: the results are already the library's layout (f32 or i64, as
     * run() covers). */
    const size_t size = c->out == HIPREDUCE_I64 ? 8 : 4;
    return cudaMemcpyAsync(values, c->result, n * size, cudaMemcpyDeviceToDevice, stream);
}
