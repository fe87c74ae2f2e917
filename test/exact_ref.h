/* The tests' own exact reference for sum_exact and dot_exact (exact_ref.c), written apart from
 * the library's: a two's-complement big integer of 32-bit limbs that every term enters bit by
 * bit with its carry run to the end, and a check of a result by its neighbours (the result must
 * be the float nearest the exact sum, ties to the even one) rather than a rounding of its own. */
#ifndef HIPREDUCE_TEST_EXACT_REF_H
#define HIPREDUCE_TEST_EXACT_REF_H

#include <stdint.h>

#include "hipreduce/hipreduce.h"

enum { XR_LIMBS = 146 }; /* bit weights 2^-2272 .. 2^2400 */

typedef struct xr_sum {
    uint32_t limb[XR_LIMBS];
    int nan, pinf, ninf, all_neg_zero, terms;
} xr_sum;

void xr_init(xr_sum* s);
/* Adds the element (bits of dtype). */
void xr_add(xr_sum* s, hipreduce_dtype dtype, uint64_t bits);
/* Adds the product of two elements of dtype, taken exactly. */
void xr_add_product(xr_sum* s, hipreduce_dtype dtype, uint64_t x, uint64_t y);
/* Whether `got` (bits of out) is the header's result for s; on failure writes why. */
int xr_check(const xr_sum* s, hipreduce_dtype out, uint64_t got, char* why, int size);

/* Element i of an array of dtype, as bits. */
uint64_t xr_bits(hipreduce_dtype dtype, const void* p, uint64_t i);
void xr_set_bits(hipreduce_dtype dtype, void* p, uint64_t i, uint64_t bits);

#endif
