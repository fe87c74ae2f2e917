/* The tests' own f16 / bf16 converter, written from IEEE 754 and the bfloat16 definition, not from
 * the library: decoding is exact; encoding rounds to nearest, ties to even, overflows to infinity,
 * and gives the canonical NaN (f16 0x7e00, bf16 0x7fc0). Checked against known bit patterns in the
 * unit suite. */
#ifndef HIPREDUCE_TEST_HALF_REF_H
#define HIPREDUCE_TEST_HALF_REF_H

#include <stdint.h>

typedef enum half_kind { HALF_F16, HALF_BF16 } half_kind;

/* The exact value of a 16-bit pattern (NaN keeps NaN-ness, not the payload). */
double half_to_double(half_kind kind, uint16_t bits);
/* The nearest 16-bit value of v (RNE; |v| rounding beyond the largest finite: inf; NaN: canonical). */
uint16_t half_from_double(half_kind kind, double v);
uint16_t half_canonical_nan(half_kind kind);
int half_is_nan(half_kind kind, uint16_t bits);

#endif
