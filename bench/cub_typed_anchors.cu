/* The typed reductions through CUB, written as a careful CUB user would write them:
 *   widening sums, sum_abs, sum_squares (and nrm2, whose square root the bench takes on the host),
 *   max_abs: DeviceReduce::TransformReduce over the input pointer, the transform converting to the
 *     result dtype (f16/bf16 through __half2float / __bfloat162float) before |x| or x*x;
 *   dot: TransformReduce over a counting iterator, the transform reading x[i] and y[i];
 *   argmin/argmax: DeviceReduce::ArgMin/ArgMax, CUB 3's overloads writing value and index apart.
 * Covered: floats f16/bf16 -> f32, f32 -> f32/f64, f64 -> f64 for the transform ops and dot;
 * integer sums i8/i16/i32 -> i64 and u8/u16/u32 -> u64; argmin/argmax of f16, bf16, f32, f64,
 * i8, i16, i32, i64 (the dtypes of CUB's own argmin benchmark and the narrow argmax rows). The rest returns cudaErrorInvalidValue (no anchor for that row). Each pair is one set
 * of CUB instances: the list is short to keep the build time in bounds. */
#include <cub/device/device_reduce.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <thrust/iterator/counting_iterator.h>

#include "cub_typed_anchors.h"

namespace {

template <class Acc, class T> __device__ __forceinline__ Acc to_acc(T x)
{
    if constexpr (std::is_same<T, __half>::value) return Acc(__half2float(x));
    else if constexpr (std::is_same<T, __nv_bfloat16>::value) return Acc(__bfloat162float(x));
    else return Acc(x);
}

template <class Acc> __device__ __forceinline__ Acc magnitude(Acc a)
{
    if constexpr (std::is_floating_point<Acc>::value) return a < Acc(0) ? -a : a; /* fabs; -0.0 -> -0.0 is fine */
    else return a;
}

template <class Acc> struct cast_op { template <class T> __device__ Acc operator()(T x) const { return to_acc<Acc>(x); } };
template <class Acc> struct abs_op { template <class T> __device__ Acc operator()(T x) const { return magnitude(to_acc<Acc>(x)); } };
template <class Acc> struct square_op {
    template <class T> __device__ Acc operator()(T x) const
    {
        const Acc a = to_acc<Acc>(x);
        return a * a;
    }
};
template <class Acc, class T> struct product_op {
    const T* x;
    const T* y;
    __device__ Acc operator()(int64_t i) const { return to_acc<Acc>(x[i]) * to_acc<Acc>(y[i]); }
};
struct max_op { template <class A> __device__ A operator()(A a, A b) const { return a < b ? b : a; } };

/* sum-likes, max_abs and dot of In into Acc (the result dtype). */
template <class In, class Acc>
cudaError_t transform_reduce(const anchor_call* c, void* temp, size_t* bytes, cudaStream_t s)
{
    const In* x = static_cast<const In*>(c->x);
    Acc* out = static_cast<Acc*>(c->value);
    const int64_t n = (int64_t)c->n;
    const cuda::std::plus<Acc> plus{};
    switch (c->op) {
    case HIPREDUCE_OP_SUM: return cub::DeviceReduce::TransformReduce(temp, *bytes, x, out, n, plus, cast_op<Acc>{}, Acc(0), s);
    case HIPREDUCE_OP_SUM_ABS:
        if constexpr (std::is_floating_point<Acc>::value)
            return cub::DeviceReduce::TransformReduce(temp, *bytes, x, out, n, plus, abs_op<Acc>{}, Acc(0), s);
        break;
    case HIPREDUCE_OP_SUM_SQUARES:
    case HIPREDUCE_OP_NRM2:
        if constexpr (std::is_floating_point<Acc>::value)
            return cub::DeviceReduce::TransformReduce(temp, *bytes, x, out, n, plus, square_op<Acc>{}, Acc(0), s);
        break;
    case HIPREDUCE_OP_MAX_ABS:
        if constexpr (std::is_same<In, Acc>::value)
            return cub::DeviceReduce::TransformReduce(temp, *bytes, x, out, n, max_op{}, abs_op<Acc>{}, Acc(0), s);
        break;
    case HIPREDUCE_OP_DOT:
        if constexpr (std::is_floating_point<Acc>::value)
            return cub::DeviceReduce::TransformReduce(temp, *bytes, thrust::counting_iterator<int64_t>(0), out, n, plus,
                                                      product_op<Acc, In>{x, static_cast<const In*>(c->y)}, Acc(0), s);
        break;
    default: break;
    }
    return cudaErrorInvalidValue;
}

template <class T> cudaError_t arg_reduce(const anchor_call* c, void* temp, size_t* bytes, cudaStream_t s)
{
    const T* x = static_cast<const T*>(c->x);
    T* value = static_cast<T*>(c->value);
    if (c->op == HIPREDUCE_OP_ARGMIN)
        return cub::DeviceReduce::ArgMin(temp, *bytes, x, value, c->index, (int64_t)c->n, s);
    return cub::DeviceReduce::ArgMax(temp, *bytes, x, value, c->index, (int64_t)c->n, s);
}

/* (in, out) as one number for the switch below. */
constexpr int pair(int in, int out) { return in * 16 + out; }

}  // namespace

hipError_t cub_typed_run(const anchor_call* c, void* temp, size_t* temp_bytes, hipStream_t stream)
{
    if (c->op == HIPREDUCE_OP_ARGMIN || c->op == HIPREDUCE_OP_ARGMAX) {
        switch (c->in) {
        case HIPREDUCE_F16: return arg_reduce<__half>(c, temp, temp_bytes, stream);
        case HIPREDUCE_BF16: return arg_reduce<__nv_bfloat16>(c, temp, temp_bytes, stream);
        case HIPREDUCE_F32: return arg_reduce<float>(c, temp, temp_bytes, stream);
        case HIPREDUCE_F64: return arg_reduce<double>(c, temp, temp_bytes, stream);
        case HIPREDUCE_I8: return arg_reduce<int8_t>(c, temp, temp_bytes, stream);
        case HIPREDUCE_I16: return arg_reduce<int16_t>(c, temp, temp_bytes, stream);
        case HIPREDUCE_I32: return arg_reduce<int32_t>(c, temp, temp_bytes, stream);
        case HIPREDUCE_I64: return arg_reduce<int64_t>(c, temp, temp_bytes, stream);
        default: return cudaErrorInvalidValue;
        }
    }
    switch (pair(c->in, c->out)) {
    case pair(HIPREDUCE_F16, HIPREDUCE_F32): return transform_reduce<__half, float>(c, temp, temp_bytes, stream);
    case pair(HIPREDUCE_BF16, HIPREDUCE_F32): return transform_reduce<__nv_bfloat16, float>(c, temp, temp_bytes, stream);
    case pair(HIPREDUCE_F32, HIPREDUCE_F32): return transform_reduce<float, float>(c, temp, temp_bytes, stream);
    case pair(HIPREDUCE_F32, HIPREDUCE_F64): return transform_reduce<float, double>(c, temp, temp_bytes, stream);
    case pair(HIPREDUCE_F64, HIPREDUCE_F64): return transform_reduce<double, double>(c, temp, temp_bytes, stream);
    default: break;
    }
    if (c->op != HIPREDUCE_OP_SUM) return cudaErrorInvalidValue;
    switch (pair(c->in, c->out)) {
    case pair(HIPREDUCE_I8, HIPREDUCE_I64): return transform_reduce<int8_t, int64_t>(c, temp, temp_bytes, stream);
    case pair(HIPREDUCE_I16, HIPREDUCE_I64): return transform_reduce<int16_t, int64_t>(c, temp, temp_bytes, stream);
    case pair(HIPREDUCE_I32, HIPREDUCE_I64): return transform_reduce<int32_t, int64_t>(c, temp, temp_bytes, stream);
    case pair(HIPREDUCE_U8, HIPREDUCE_U64): return transform_reduce<uint8_t, uint64_t>(c, temp, temp_bytes, stream);
    case pair(HIPREDUCE_U16, HIPREDUCE_U64): return transform_reduce<uint16_t, uint64_t>(c, temp, temp_bytes, stream);
    case pair(HIPREDUCE_U32, HIPREDUCE_U64): return transform_reduce<uint32_t, uint64_t>(c, temp, temp_bytes, stream);
    default: return cudaErrorInvalidValue;
    }
}
