/* sum_exact of a complex input (c64, c128): the exact sums of its real and imaginary parts, run as
 * the real exact sum over the interleaved (re, im) view of the same memory, whose components are a
 * kept axis of extent 2 and stride 1, innermost: the real call's results, laid out (result,
 * component), are the complex results in place (CSR segments: the same offsets with 2 components a
 * segment, which the exact sums' slices read with a step of 2). Exact sums do not depend on the
 * order of their terms, so this view gives the bits of two exact sums of the components on every
 * device and needs no kernel of its own (hipreduce.h's complex rules). */
#include "api_call.h"


int hr_complex_exact_view(const hr_call* call, hr_call* real)
{
    *real = *call;
    real->in_dtype = call->in_dtype == HIPREDUCE_C64 ? HIPREDUCE_F32 : HIPREDUCE_F64;
    real->out_dtype = call->out_dtype == HIPREDUCE_C64 ? HIPREDUCE_F32 : HIPREDUCE_F64;
    real->n = call->n * 2; /* the same bytes */
    switch (call->shape) {
    case HR_SHAPE_FULL: /* n elements: the columns of [1][n][2] */
        real->shape = HR_SHAPE_AXIS;
        real->outer = 1;
        real->extent = call->n;
        real->inner = 2;
        return 1;
    case HR_SHAPE_AXIS: /* [outer][extent][inner] complex: [outer][extent][inner * 2] real */
        real->inner = call->inner * 2;
        return 1;
    case HR_SHAPE_BY_KEY: /* rows of `row` complex values: rows of 2 * row reals */
        real->row = call->row * 2;
        return 1;
    case HR_SHAPE_TENSOR: {
        hr_tensor* t = &real->tensor;
        const int rank = t->kept + t->reduced;
        if (rank >= HIPREDUCE_MAX_RANK) return 0;
        for (int d = rank; d > t->kept; --d) {
            t->extent[d] = t->extent[d - 1];
            t->xstride[d] = t->xstride[d - 1] * 2;
        }
        for (int d = 0; d < t->kept; ++d) t->xstride[d] *= 2;
        t->extent[t->kept] = 2;
        t->xstride[t->kept] = 1;
        ++t->kept;
        real->outer = call->outer * 2;
        return 1;
    }
    case HR_SHAPE_SEGMENTS: /* the same offsets, 2 components a segment (device/call.h) */
        real->inner = 2;
        return 1;
    default: return 0;
    }
}
