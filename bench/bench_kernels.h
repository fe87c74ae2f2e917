/* hipreduce-bench's own kernels: random input made on the device, and the plain
 * streaming read that measures the device's read ceiling. */
#ifndef HIPREDUCE_BENCH_KERNELS_H
#define HIPREDUCE_BENCH_KERNELS_H

#include "hip_compat.h"
#include "ops.h"

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
