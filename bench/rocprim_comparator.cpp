/* rocPRIM's reduce as hipreduce-bench's vendor anchor (amd backend, where Debian's
 * librocprim-dev or ROCm's rocprim is installed): the original operators with the result in the
 * input dtype; the typed calls have no rocPRIM anchor (cudaErrorInvalidValue's HIP twin). */
#include <iostream> /* Debian's rocPRIM 5.2 device_reduce.hpp uses std::cout without including it */

#include <rocprim/device/device_reduce.hpp>

#include <limits>

#include "comparator.h"

namespace {

/* min's and max's identities: the infinities for floats, the extremes for integers. */
template <class T> T highest() { return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max(); }
template <class T> T lowest() { return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest(); }

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
        return rocprim::reduce(temp, *bytes, in, out, highest<T>(), n, rocprim::minimum<T>(), s);
    case HIPREDUCE_OP_MAX:
        return rocprim::reduce(temp, *bytes, in, out, lowest<T>(), n, rocprim::maximum<T>(), s);
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

hipError_t vendor_run(const anchor_call* c, void* temp, size_t* temp_bytes, hipStream_t stream)
{
    if (c->out != c->in || c->op > HIPREDUCE_OP_XOR) return hipErrorInvalidValue;
#define HR_CASE(code, T) \
    case code: return reduce_typed<T>(c->op, (const T*)c->x, (size_t)c->n, (T*)c->value, temp, temp_bytes, stream);
    switch (c->in) {
        HR_CASE(HIPREDUCE_I8, int8_t) HR_CASE(HIPREDUCE_U8, uint8_t) HR_CASE(HIPREDUCE_I16, int16_t)
        HR_CASE(HIPREDUCE_U16, uint16_t) HR_CASE(HIPREDUCE_I32, int32_t) HR_CASE(HIPREDUCE_U32, uint32_t)
        HR_CASE(HIPREDUCE_I64, int64_t) HR_CASE(HIPREDUCE_U64, uint64_t) HR_CASE(HIPREDUCE_F32, float)
        HR_CASE(HIPREDUCE_F64, double)
    default: break;
    }
#undef HR_CASE
    return hipErrorInvalidValue;
}
