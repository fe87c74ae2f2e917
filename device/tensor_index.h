/* Element offsets of a strided tensor's positions (device/call.h's hr_tensor) for the tensor
 * kernels (device/tensor.h): a group of dimensions in row-major order (the last varies fastest),
 * position i of the group -> the element offset sum((digit d of i) * stride d). Division by an
 * extent is a multiply-high by a constant the host computes once (hr_divisor): positions and
 * extents below 2^32, which every slice and kept index of fewer than 2^32 elements has; a group
 * with more takes 64-bit division (wide). Plain C, so the host fills the same struct. */
#ifndef HIPREDUCE_TENSOR_INDEX_H
#define HIPREDUCE_TENSOR_INDEX_H

#include <stdint.h>

#include "hipreduce/hipreduce.h"
#include "rules.h"

/* q = n / d for 32-bit n and d >= 1 (Granlund and Montgomery's round-up method): with l the
 * smallest shift where 2^l >= d, m = floor(2^32 (2^l - d) / d) + 1, t = mulhi(m, n),
 * q = (t + ((n - t) >> 1)) >> (l - 1); d = 1: m 0, l 0, q = n. */
typedef struct hr_divisor {
    uint32_t d, m, l;
} hr_divisor;

HR_RULE hr_divisor hr_divisor_of(uint32_t d)
{
    hr_divisor r = {d, 0, 0};
    while (r.l < 32 && (UINT64_C(1) << r.l) < d) ++r.l;
    if (r.l > 0) r.m = (uint32_t)(((UINT64_C(1) << 32) * ((UINT64_C(1) << r.l) - d)) / d + 1);
    return r;
}

HR_RULE uint32_t hr_divide(uint32_t n, hr_divisor v)
{
    if (v.l == 0) return n;
    const uint32_t t = (uint32_t)(((uint64_t)v.m * n) >> 32);
    return (t + ((n - t) >> 1)) >> (v.l - 1);
}

/* A group of dimensions: extents, strides in elements, and each extent's divisor. */
typedef struct hr_dims {
    int rank;
    int wide; /* some position or extent reaches 2^32: 64-bit division */
    uint64_t extent[HIPREDUCE_MAX_RANK];
    int64_t stride[HIPREDUCE_MAX_RANK];
    hr_divisor div[HIPREDUCE_MAX_RANK];
} hr_dims;

/* Dimensions [first, first + count) of t with strides s; positions up to `positions`. */
HR_RULE hr_dims hr_dims_of(const uint64_t* extent, const int64_t* s, int first, int count, uint64_t positions)
{
    hr_dims g = {0, 0, {0}, {0}, {{0, 0, 0}}};
    g.rank = count;
    g.wide = positions > UINT32_MAX;
    for (int d = 0; d < HIPREDUCE_MAX_RANK; ++d) {
        g.extent[d] = d < count ? extent[first + d] : 1;
        g.stride[d] = d < count ? s[first + d] : 0;
        if (g.extent[d] > UINT32_MAX) g.wide = 1;
        g.div[d] = hr_divisor_of(g.extent[d] > UINT32_MAX ? 1u : (uint32_t)g.extent[d]);
    }
    return g;
}

/* Offset of position i of group g. */
HR_RULE int64_t hr_dims_offset(const hr_dims* g, uint64_t i)
{
    int64_t offset = 0;
    if (g->wide) {
        for (int d = g->rank - 1; d > 0; --d) {
            offset += (int64_t)(i % g->extent[d]) * g->stride[d];
            i /= g->extent[d];
        }
    } else {
        uint32_t n = (uint32_t)i;
        for (int d = g->rank - 1; d > 0; --d) {
            const uint32_t q = hr_divide(n, g->div[d]);
            offset += (int64_t)(n - q * (uint32_t)g->extent[d]) * g->stride[d];
            n = q;
        }
        i = n;
    }
    return g->rank > 0 ? offset + (int64_t)i * g->stride[0] : 0;
}

#endif
