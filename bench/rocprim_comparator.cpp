/* rocPRIM's reduce as hipreduce-bench's comparator (amd backend, where Debian's
 * librocprim-dev or ROCm's rocprim is installed). */
#include <iostream> /* Debian's rocPRIM 5.2 device_reduce.hpp uses std::cout without including it */

#include <rocprim/device/device_reduce.hpp>

#include "comparator.h"
#include "ops.h"

namespace {

struct bit_and { template <class T> __device__ T operator()(T a, T b) const { return a & b; } };
struct bit_or { template <class T> __device__ T operator()(T a, T b) const { return a | b; } };
struct bit_xor { template <class T> __device__ T operator()(T a, T b) const { return a ^ b; } };

template <class T>
hipError_t reduce_typed(hipreduce_op op, const T* in, size_t n, T* out, void* temp, size_t* bytes, hipStream_t s)
{
    switch (op) {
    case HIPREDUCE_OP_SUM: return rocprim::reduce(temp, *bytes, in, out, T(0), n, rocprim::plus<T>(), s);
    case HIPREDUCE_OP_PROD: return rocprim::reduce(temp, *bytes, in, out, T(1), n, rocprim::multiplies<T>(), s);
    case HIPREDUCE_OP_MIN:
        return rocprim::reduce(temp, *bytes, in, out, hr::max_value<T>(), n, rocprim::minimum<T>(), s);
    case HIPREDUCE_OP_MAX:
        return rocprim::reduce(temp, *bytes, in, out, hr::min_value<T>(), n, rocprim::maximum<T>(), s);
    default: break;
    }
    if constexpr (!std::is_floating_point<T>::value) {
        switch (op) {
        case HIPREDUCE_OP_AND: return rocprim::reduce(temp, *bytes, in, out, T(~T(0)), n, bit_and{}, s);
        case HIPREDUCE_OP_OR: return rocprim::reduce(temp, *bytes, in, out, T(0), n, bit_or{}, s);
        case HIPREDUCE_OP_XOR: return rocprim::reduce(temp, *bytes, in, out, T(0), n, bit_xor{}, s);
        default: break;
        }
    }
    return hipErrorInvalidValue;
}

}  // namespace

const char* vendor_name(void) { return "rocPRIM reduce"; }

hipError_t vendor_reduce(hipreduce_op op, hipreduce_dtype dtype, const void* in, uint64_t n, void* out, void* temp,
                         size_t* temp_bytes, hipStream_t stream)
{
#define HR_CASE(code, T) \
    case code: return reduce_typed<T>(op, (const T*)in, (size_t)n, (T*)out, temp, temp_bytes, stream);
    switch (dtype) { HR_FOR_EACH_DTYPE(HR_CASE) }
#undef HR_CASE
    return hipErrorInvalidValue;
}
