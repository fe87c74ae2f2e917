/* CUB's DeviceReduce as hipreduce-bench's anchor (cuda backend): the original operators with the
 * result in the input dtype through CUB's named entry points (Sum, Min, Max) and Reduce; every
 * other call goes to cub_typed_anchors.cu. Built twice where the build has a second CUB
 * (bench/CMakeLists.txt): into the bench against the toolkit's CCCL as the vendor
 * (vendor_run / vendor_name), and into a shared library against newer CCCL headers
 * (HR_SECOND_CUB: second_cub_run / second_cub_name). */
#include <cub/device/device_reduce.cuh>
#include <cub/version.cuh>
#if defined(HR_SECOND_CUB)
#include <cuda/__execution/determinism.h>
#include <cuda/__execution/require.h>
#include <cuda/stream_ref>
#endif

#include <stdio.h>

#include "comparator.h"
#include "cub_typed_anchors.h"

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

/* The dtypes of the original operators, with their C++ types (f16/bf16 go to the typed anchors). */
#define HR_PLAIN_DTYPES(X)                                                                                   \
    X(HIPREDUCE_I8, int8_t) X(HIPREDUCE_U8, uint8_t) X(HIPREDUCE_I16, int16_t) X(HIPREDUCE_U16, uint16_t)    \
    X(HIPREDUCE_I32, int32_t) X(HIPREDUCE_U32, uint32_t) X(HIPREDUCE_I64, int64_t) X(HIPREDUCE_U64, uint64_t) \
    X(HIPREDUCE_F32, float) X(HIPREDUCE_F64, double)

/* The original seven operators, result in the input dtype (one input). */
bool is_plain(const anchor_call* c)
{
    return c->out == c->in && (c->op == HIPREDUCE_OP_SUM || c->op == HIPREDUCE_OP_PROD || c->op == HIPREDUCE_OP_MIN ||
                               c->op == HIPREDUCE_OP_MAX || c->op == HIPREDUCE_OP_AND || c->op == HIPREDUCE_OP_OR ||
                               c->op == HIPREDUCE_OP_XOR);
}

}  // namespace

#if defined(HR_SECOND_CUB)
#define HR_ANCHOR_RUN second_cub_run
#define HR_ANCHOR_NAME second_cub_name
#define HR_ANCHOR_FORMAT "cub-%d.%d.%d"
#else
#define HR_ANCHOR_RUN vendor_run
#define HR_ANCHOR_NAME vendor_name
#define HR_ANCHOR_FORMAT "CUB DeviceReduce %d.%d.%d (toolkit)"
#endif

const char* HR_ANCHOR_NAME(void)
{
    static char name[64];
    snprintf(name, sizeof name, HR_ANCHOR_FORMAT, CUB_MAJOR_VERSION, CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION);
    return name;
}

hipError_t HR_ANCHOR_RUN(const anchor_call* c, void* temp, size_t* temp_bytes, hipStream_t stream)
{
#define HR_CASE(code, T)                                                                                       \
    case code:                                                                                                 \
        return reduce_typed<T>(c->op, (const T*)c->x, (int64_t)c->n, (T*)c->value, temp, temp_bytes, stream);
    if (is_plain(c)) {
        switch (c->in) { HR_PLAIN_DTYPES(HR_CASE) default: break; }
    }
#undef HR_CASE
    return cub_typed_run(c, temp, temp_bytes, stream);
}

#if defined(HR_SECOND_CUB)
const char* second_cub_gpu_to_gpu_name(void)
{
    static char name[64];
    snprintf(name, sizeof name, "cub-%d.%d.%d gpu_to_gpu", CUB_MAJOR_VERSION, CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION);
    return name;
}

namespace {
template <class T> cudaError_t gpu_to_gpu_sum(const anchor_call* c, cudaStream_t stream)
{
    const auto env = cuda::std::execution::env{cuda::stream_ref{stream},
                                               cuda::execution::require(cuda::execution::determinism::gpu_to_gpu)};
    return cub::DeviceReduce::Sum((const T*)c->x, (T*)c->value, (int64_t)c->n, env);
}
}  // namespace

hipError_t second_cub_gpu_to_gpu_run(const anchor_call* c, void* temp, size_t* temp_bytes, hipStream_t stream)
{
    (void)temp;
    if ((c->op != HIPREDUCE_OP_SUM && c->op != HIPREDUCE_OP_SUM_EXACT) || c->out != c->in ||
        (c->in != HIPREDUCE_F32 && c->in != HIPREDUCE_F64))
        return cudaErrorInvalidValue;
    *temp_bytes = 0;
    if (!temp) return cudaSuccess; /* the size query */
    return c->in == HIPREDUCE_F32 ? gpu_to_gpu_sum<float>(c, stream) : gpu_to_gpu_sum<double>(c, stream);
}
#endif
