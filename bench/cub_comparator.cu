/* CUB's DeviceReduce as hipreduce-bench's comparator (cuda backend). Sum, Min and
 * Max use CUB's named entry points, the other operators DeviceReduce::Reduce. */
#include <cub/device/device_reduce.cuh>

#include "comparator.h"
#include "ops.h"

namespace {

struct bit_and { template <class T> __device__ T operator()(T a, T b) const { return a & b; } };
struct bit_or { template <class T> __device__ T operator()(T a, T b) const { return a | b; } };
struct bit_xor { template <class T> __device__ T operator()(T a, T b) const { return a ^ b; } };
struct multiply { template <class T> __device__ T operator()(T a, T b) const { return a * b; } };

template <class T>
cudaError_t reduce_typed(hipreduce_op op, const T* in, int64_t n, T* out, void* temp, size_t* bytes, cudaStream_t s)
{
    switch (op) {
    case HIPREDUCE_OP_SUM: return cub::DeviceReduce::Sum(temp, *bytes, in, out, n, s);
    case HIPREDUCE_OP_MIN: return cub::DeviceReduce::Min(temp, *bytes, in, out, n, s);
    case HIPREDUCE_OP_MAX: return cub::DeviceReduce::Max(temp, *bytes, in, out, n, s);
    case HIPREDUCE_OP_PROD: return cub::DeviceReduce::Reduce(temp, *bytes, in, out, n, multiply{}, T(1), s);
    default: break;
    }
    if constexpr (!std::is_floating_point<T>::value) {
        switch (op) {
        case HIPREDUCE_OP_AND: return cub::DeviceReduce::Reduce(temp, *bytes, in, out, n, bit_and{}, T(~T(0)), s);
        case HIPREDUCE_OP_OR: return cub::DeviceReduce::Reduce(temp, *bytes, in, out, n, bit_or{}, T(0), s);
        case HIPREDUCE_OP_XOR: return cub::DeviceReduce::Reduce(temp, *bytes, in, out, n, bit_xor{}, T(0), s);
        default: break;
        }
    }
    return cudaErrorInvalidValue;
}

}  // namespace

const char* vendor_name(void) { return "CUB DeviceReduce"; }

hipError_t vendor_reduce(hipreduce_op op, hipreduce_dtype dtype, const void* in, uint64_t n, void* out, void* temp,
                         size_t* temp_bytes, hipStream_t stream)
{
#define HR_CASE(code, T) \
    case code: return reduce_typed<T>(op, (const T*)in, (int64_t)n, (T*)out, temp, temp_bytes, stream);
    switch (dtype) { HR_FOR_EACH_DTYPE(HR_CASE) }
#undef HR_CASE
    return cudaErrorInvalidValue;
}
