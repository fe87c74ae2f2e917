/* hipreduce-bench's own kernels: random input made on the device (f16 and bf16 included), and
 * the plain streaming read that measures the device's read ceiling. */
#ifndef HIPREDUCE_BENCH_KERNELS_H
#define HIPREDUCE_BENCH_KERNELS_H

#include "bench_hip.h"
#include <stdint.h>

#include <type_traits>

/* splitmix64: a different well-mixed value for every (seed, index). */
__device__ __forceinline__ uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Integers: random bits. Floats: uniform in [0.5, 1.5), so sums, products, minima and
 * maxima all stay finite and non-trivial. */
template <class T> __global__ void fill_random(T* p, uint64_t n, uint64_t seed)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t r = mix64(seed ^ (i * 0xd1b54a32d192ed03ull));
        if constexpr (std::is_floating_point<T>::value) p[i] = T(0.5) + T(r >> 11) * T(1.0 / 9007199254740992.0);
        else p[i] = T(r);
    }
}

/* f16 (Bf16 = false) or bf16 bits of uniform values in [0.5, 1.5): the f32 value truncated, which
 * is exact in that range and never a NaN or infinity pattern. bf16 is the f32's top half; f16
 * rebiases the exponent (127 - 15) and keeps the top 10 mantissa bits. */
template <bool Bf16> __global__ void fill_random_half(uint16_t* p, uint64_t n, uint64_t seed)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t r = mix64(seed ^ (i * 0xd1b54a32d192ed03ull));
        const uint32_t b = __float_as_uint(0.5f + (float)(r >> 40) * (1.0f / 16777216.0f));
        p[i] = Bf16 ? (uint16_t)(b >> 16) : (uint16_t)(((((b >> 23) & 0xffu) - 112u) << 10) | ((b >> 13) & 0x3ffu));
    }
}

/* Adversarial floats for the exact sums (HIPREDUCE_BENCH_VALUES, bench_gpu.cpp), f32 and f64 bits:
 * 1 every element in another binade (the exponent field cycles over all finite ones); 2 huge and
 * tiny alternating (2^100 and 2^-100, random fractions and signs); 3 pairs x, -x of random
 * exponents, element 0 the least subnormal (the sum cancels to it). */
template <class U> __global__ void fill_adversarial(U* p, uint64_t n, uint64_t seed, int kind)
{
    constexpr int frac = sizeof(U) == 8 ? 52 : 23, emax = sizeof(U) == 8 ? 2046 : 254, bias = emax / 2;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t r = mix64(seed ^ ((kind == 3 ? i / 2 : i) * 0xd1b54a32d192ed03ull));
        uint64_t e = kind == 1 ? i % emax + 1 : kind == 2 ? (i & 1 ? bias - 100 : bias + 100) : (r >> 40) % emax + 1;
        uint64_t sign = kind == 3 ? i & 1 : (r >> 39) & 1;
        const uint64_t bits = sign << (sizeof(U) * 8 - 1) | e << frac | (r & ((1ull << frac) - 1));
        p[i] = kind == 3 && i == 0 ? U(1) : kind == 3 && i == 1 ? U(0) : U(bits);
    }
}

/* Every dtype's fill: X(enumerator, kernel). */
#define BENCH_FILL_KERNELS(X)                                                                                 \
    X(HIPREDUCE_I8, fill_random<int8_t>) X(HIPREDUCE_U8, fill_random<uint8_t>)                                \
    X(HIPREDUCE_I16, fill_random<int16_t>) X(HIPREDUCE_U16, fill_random<uint16_t>)                            \
    X(HIPREDUCE_I32, fill_random<int32_t>) X(HIPREDUCE_U32, fill_random<uint32_t>)                            \
    X(HIPREDUCE_I64, fill_random<int64_t>) X(HIPREDUCE_U64, fill_random<uint64_t>)                            \
    X(HIPREDUCE_F16, fill_random_half<false>) X(HIPREDUCE_BF16, fill_random_half<true>)                       \
    X(HIPREDUCE_F32, fill_random<float>) X(HIPREDUCE_F64, fill_random<double>)

/* Reads every 16-byte word once (grid-stride) and writes only if an impossible value
 * appears, so the loads cannot be removed: the plain read ceiling. */
__global__ void stream_read(const uint4* p, uint64_t words, unsigned* sink)
{
    uint4 acc = make_uint4(0, 0, 0, 0);
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    for (; i + 3 * stride < words; i += 4 * stride) {
        const uint4 a = p[i], b = p[i + stride], c = p[i + 2 * stride], d = p[i + 3 * stride];
        acc.x ^= a.x ^ b.x ^ c.x ^ d.x;
        acc.y ^= a.y ^ b.y ^ c.y ^ d.y;
        acc.z ^= a.z ^ b.z ^ c.z ^ d.z;
        acc.w ^= a.w ^ b.w ^ c.w ^ d.w;
    }
    for (; i < words; i += stride) {
        const uint4 a = p[i];
        acc.x ^= a.x;
        acc.y ^= a.y;
        acc.z ^= a.z;
        acc.w ^= a.w;
    }
    if ((acc.x & acc.y & acc.z & acc.w) == 0xdeadbeefu) *sink = acc.x;
}

#endif
