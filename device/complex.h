/* The complex dtypes' element and accumulator types and their arithmetic (hipreduce.h's complex
 * rules): plain C that the cpu device (src/cpu_ops.h, cpu_result.c) reads as C and the device code
 * (device/transforms.h, combines.h, stores.h) as __host__ __device__ C++, so every device runs one
 * definition and gets the same bits (built without contraction, as every float accumulation).
 *
 *  - hr_c64 / hr_c128: (re, im) of f32 / f64, the layout of C99 float/double complex, Fortran
 *    complex and numpy complex64/complex128; 8-byte aligned (the GPUs' coherent loads of a
 *    partial take 64-bit words). A c64 is also the C64 accumulator, a c128 the C128 one.
 *  - add: per component. Its identity is (-0.0, -0.0), exact for every operand.
 *  - mul: the textbook product (a.re*b.re - a.im*b.im, a.re*b.im + a.im*b.re), each product and
 *    each sum rounded once, no fused multiply-add and no C99 Annex G recovery of infinities; a
 *    factor whose bits are exactly 1 + 0i (+0.0 imaginary part) gives the other factor unchanged,
 *    so the product's identity is exact as every identity of the library (the textbook formula
 *    would turn an infinite component into a NaN through 0 * inf and a -0.0 into +0.0). The
 *    formula and the rule are symmetric, so mul is commutative bit for bit (NaNs aside: a result's
 *    NaN is canonical).
 *  - conj_mul: conj(a) * b = (a.re*b.re + a.im*b.im, a.re*b.im - a.im*b.re), rounded as mul (dotc's
 *    products).
 *  - abs2: |z|^2 = re*re + im*im in the component type, or from a c64 in f64 (exact squares, one
 *    rounding of their sum: nrm2's and sum_squares' f64 terms). */
#ifndef HIPREDUCE_COMPLEX_H
#define HIPREDUCE_COMPLEX_H

#include <stdint.h>
#include <string.h>

#include "half.h" /* HR_HALF_FN: static inline, __host__ __device__ in device code */

#define HR_COMPLEX_FN HR_HALF_FN

/* A product kept as its own rounded value: GCC's vectoriser (12, at least) turns the textbook
 * complex product into fused multiply-adds (vfmaddsub) even under -ffp-contract=off, which would
 * round a product less often than the other devices do. An empty asm on the product's register
 * hides it from that pattern; other compilers honour the contraction setting. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__) && \
    (defined(__x86_64__) || defined(__i386__))
#define HR_COMPLEX_KEEP(v) __asm__("" : "+x"(v))
#elif defined(__GNUC__) && !defined(__clang__) && !defined(__CUDA_ARCH__) && defined(__aarch64__)
#define HR_COMPLEX_KEEP(v) __asm__("" : "+w"(v))
#else
#define HR_COMPLEX_KEEP(v) (void)0
#endif

#ifdef __cplusplus
#define HR_COMPLEX_ALIGN8 alignas(8)
#else
#define HR_COMPLEX_ALIGN8 _Alignas(8)
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hr_c64 {
    HR_COMPLEX_ALIGN8 float re;
    float im;
} hr_c64;
typedef struct hr_c128 {
    double re, im;
} hr_c128;

/* The functions of one complex type C over component type F whose bits are B (ONE: the bits of
 * F 1.0). */
#define HR_COMPLEX_OPS(NAME, C, F, B, ONE)                                                              \
    HR_COMPLEX_FN C hr_##NAME##_make(F re, F im)                                                         \
    {                                                                                                    \
        C r;                                                                                             \
        r.re = re;                                                                                       \
        r.im = im;                                                                                       \
        return r;                                                                                        \
    }                                                                                                    \
    HR_COMPLEX_FN C hr_##NAME##_add(C a, C b) { return hr_##NAME##_make(a.re + b.re, a.im + b.im); }    \
    HR_COMPLEX_FN int hr_##NAME##_is_one(C a)                                                            \
    {                                                                                                    \
        B re, im;                                                                                        \
        memcpy(&re, &a.re, sizeof re);                                                                   \
        memcpy(&im, &a.im, sizeof im);                                                                   \
        return re == (B)(ONE) && im == 0;                                                                \
    }                                                                                                    \
    HR_COMPLEX_FN C hr_##NAME##_products(C a, C b, int conj)                                             \
    {                                                                                                    \
        F rr = a.re * b.re, ii = a.im * b.im, ri = a.re * b.im, ir = a.im * b.re;                        \
        HR_COMPLEX_KEEP(rr);                                                                             \
        HR_COMPLEX_KEEP(ii);                                                                             \
        HR_COMPLEX_KEEP(ri);                                                                             \
        HR_COMPLEX_KEEP(ir);                                                                             \
        return conj ? hr_##NAME##_make(rr + ii, ri - ir) : hr_##NAME##_make(rr - ii, ri + ir);           \
    }                                                                                                    \
    HR_COMPLEX_FN C hr_##NAME##_mul(C a, C b)                                                            \
    {                                                                                                    \
        if (hr_##NAME##_is_one(a)) return b;                                                             \
        if (hr_##NAME##_is_one(b)) return a;                                                             \
        return hr_##NAME##_products(a, b, 0);                                                            \
    }                                                                                                    \
    HR_COMPLEX_FN C hr_##NAME##_conj_mul(C a, C b) { return hr_##NAME##_products(a, b, 1); }            \
    HR_COMPLEX_FN F hr_##NAME##_abs2(C z)                                                                \
    {                                                                                                    \
        const F rr = z.re * z.re, ii = z.im * z.im;                                                      \
        return rr + ii;                                                                                  \
    }                                                                                                    \
    HR_COMPLEX_FN C hr_##NAME##_sum_identity(void) { return hr_##NAME##_make(-(F)0, -(F)0); }           \
    HR_COMPLEX_FN C hr_##NAME##_prod_identity(void) { return hr_##NAME##_make((F)1, (F)0); }
HR_COMPLEX_OPS(c64, hr_c64, float, uint32_t, UINT32_C(0x3f800000))
HR_COMPLEX_OPS(c128, hr_c128, double, uint64_t, UINT64_C(0x3ff0000000000000))
#undef HR_COMPLEX_OPS

/* A c64 as a c128 (exact). */
HR_COMPLEX_FN hr_c128 hr_c128_of_c64(hr_c64 z) { return hr_c128_make((double)z.re, (double)z.im); }
/* |z|^2 of a c64 in f64: the squares are exact there, their sum rounded once. */
HR_COMPLEX_FN double hr_c64_abs2_f64(hr_c64 z) { return hr_c128_abs2(hr_c128_of_c64(z)); }

#ifdef __cplusplus
}
#endif

#endif
