/* References for the typed reductions: every (op, input dtype, result dtype) triple of
 * hipreduce_reduce, hipreduce_argreduce and hipreduce_dot, written from the public header's
 * text independently of src/ and device/:
 *  - the allowed triples;
 *  - exact references: integers modulo 2^64 truncated to the result, min/max/max_abs and
 *    argmin/argmax by the NaN and signed-zero rules, long double sums with an error bound;
 *  - a model of the default algorithm's canonical order (device/order.h's text) for every float
 *    accumulation (f32, f64, the f64 sum of squares of nrm2 and f64's three scaled sums), so float
 *    results are also checked bit for bit.
 * f16/bf16 go through the tests' own converter (half_ref.h). */
#ifndef HIPREDUCE_TEST_TYPED_REF_H
#define HIPREDUCE_TEST_TYPED_REF_H

#include <stddef.h>
#include <stdint.h>

#include "hipreduce/hipreduce.h"

enum { TR_NDTYPES = 12, TR_NOPS = 14 };

size_t tr_size(hipreduce_dtype d);
int tr_is_float(hipreduce_dtype d); /* f16, bf16, f32, f64 */
int tr_is_signed(hipreduce_dtype d); /* signed integers */
const char* tr_dtype_name(hipreduce_dtype d);
const char* tr_op_name(hipreduce_op op);
uint64_t tr_tile_items(hipreduce_dtype in); /* 256 lanes x 4 chunks x 16 bytes / element size */

/* Which call takes op: 0 hipreduce_reduce, 1 hipreduce_argreduce, 2 hipreduce_dot. */
int tr_call(hipreduce_op op);
/* Whether (op, in, out) is an allowed triple of op's call (argreduce: out must be in). */
int tr_allowed(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out);

/* Element i as its exact value (integers: their value; NaN stays NaN). */
long double tr_value(hipreduce_dtype d, const void* p, uint64_t i);
/* Integer element i, sign- or zero-extended to 64 bits by its own signedness. */
uint64_t tr_int(hipreduce_dtype d, const void* p, uint64_t i);
/* The raw bits of element i, zero-extended. */
uint64_t tr_bits(hipreduce_dtype d, const void* p, uint64_t i);
/* Stores v rounded to nearest even into float element i (f16/bf16 via half_ref). */
void tr_store_float(hipreduce_dtype d, void* p, uint64_t i, double v);
/* Stores the low bits of v into element i. */
void tr_store_bits(hipreduce_dtype d, void* p, uint64_t i, uint64_t v);
int tr_is_nan_bits(hipreduce_dtype d, uint64_t bits);
uint64_t tr_canonical_nan(hipreduce_dtype d);

/* The expected outcome of one call. bits: the result (argreduce: the value; a NaN: the canonical
 * one); index: argreduce's. */
typedef struct tr_expect {
    uint64_t bits;
    int64_t index;
} tr_expect;

/* The expected result of op on x (and y for dot) of n elements: exact for integers, min/max,
 * max_abs and argmin/argmax, the canonical-order model's bits for float sums, products and nrm2. */
tr_expect tr_expected(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, const void* x, const void* y,
                      uint64_t n);
/* The canonical-order model (float sum, prod, sum_abs, sum_squares, dot, nrm2): out's bits. */
uint64_t tr_model(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, const void* x, const void* y,
                  uint64_t n);

/* The models' accumulators (typed_model.c; segments_model.c's strided order combines the same ones
 * in its own order): f32 (f16, bf16, f32 into 16/32-bit floats), f64 (into f64), nrm2's f64 sum of
 * squares (f16/bf16/f32) and f64 nrm2's three scaled sums (LAPACK 3.10's dnrm2). f32 arithmetic is
 * double arithmetic rounded once to float: exact for one + or * of floats (53 >= 2 * 24 + 2). */
typedef enum tm_kind { TM_F32, TM_F64, TM_SQUARES, TM_BLUE } tm_kind;
typedef struct tm_acc {
    double v[3]; /* v[0] alone, or (sml, med, big) for TM_BLUE */
} tm_acc;
tm_kind tm_kind_of(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out);
tm_acc tm_identity(hipreduce_op op, tm_kind k); /* -0.0 for float sums, +0 for the squares, 1 for prod */
tm_acc tm_combine(hipreduce_op op, tm_kind k, tm_acc a, tm_acc b);
/* Element i transformed (dot: x[i] * y[i]), its value exact in double. */
tm_acc tm_transform(hipreduce_op op, hipreduce_dtype in, tm_kind k, const void* x, const void* y, uint64_t i);
/* The top accumulator rounded once into out (nrm2: its root; a NaN: the canonical one); `empty`:
 * n == 0's result (+0.0, prod 1). */
uint64_t tm_result_bits(hipreduce_op op, hipreduce_dtype out, tm_kind k, tm_acc top, int empty);

/* 0 when got (bits, and index for argreduce) is right for the input, else reports why and returns 1.
 * Besides the exact/model bits, float sums and nrm2 of finite data are checked against a long
 * double reference within the canonical order's error bound. */
int tr_check(const char* what, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, const void* x,
             const void* y, uint64_t n, uint64_t got, int64_t got_index);

#endif
