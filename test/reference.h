/* The test matrix and its references, shared by the api (cpu device) and gpu suites.
 *
 * Everything here is written independently of src/: its own dtype table, its own exact integer
 * and long double references, and its own model of the default algorithm's canonical order
 * (plan.h), so that a bug in the library cannot hide behind the same bug in the test. */
#ifndef HIPREDUCE_TEST_REFERENCE_H
#define HIPREDUCE_TEST_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "hipreduce/hipreduce.h"

enum { REF_NDTYPES = 10, REF_NOPS = 7 };
extern const hipreduce_dtype ref_dtypes[REF_NDTYPES];
extern const hipreduce_op ref_ops[REF_NOPS];

size_t ref_size(hipreduce_dtype dtype); /* bytes, 0 if unknown */
int ref_is_float(hipreduce_dtype dtype);
int ref_op_applies(hipreduce_op op, hipreduce_dtype dtype);
const char* ref_dtype_name(hipreduce_dtype dtype);
const char* ref_op_name(hipreduce_op op);
uint64_t ref_tile_items(hipreduce_dtype dtype); /* the default algorithm's tile, per plan.h's text */

/* Input patterns. RANDOM is op-aware (odd factors for prod, a planted extreme for min/max, rare
 * cleared/set bits for and/or) so that a wrong answer does not coincide with the right one. EXACT
 * (float sum/prod) is exactly summable/multipliable in any order. NAN, NEGZERO and MIXZERO are
 * the special float cases (NaN payloads, signed zeros). */
typedef enum ref_data {
    REF_DATA_RANDOM, REF_DATA_EXACT, REF_DATA_NAN, REF_DATA_NEGZERO, REF_DATA_MIXZERO, REF_DATA_KINDS
} ref_data;
const char* ref_data_name(ref_data data);
void ref_fill(hipreduce_op op, hipreduce_dtype dtype, ref_data data, uint64_t n, uint64_t seed, void* x);

/* Which orders a checked result may come from: REF_CANONICAL (the default algorithm: float
 * sum/prod bit-exact against the model, sums within the canonical order's error bound) or
 * REF_ANY_ORDER (other algorithms: float sums within the bound of any order). Integers, float
 * min/max, signed zeros and NaN are exact in both. */
typedef enum ref_order { REF_CANONICAL, REF_ANY_ORDER } ref_order;

/* 0 when got (one element of dtype) is right for x[0 .. n), else prints why and returns 1. */
int ref_check(const char* what, hipreduce_op op, hipreduce_dtype dtype, ref_data data, const void* x, uint64_t n,
              const void* got, ref_order order);

/* Float sum/prod on any data (NaN payloads, infinities, signed zeros, subnormals, sums and
 * products that overflow or underflow): got must be of a class the IEEE rules allow for this
 * input in some order (NaN from NaN, inf - inf or 0 * inf; infinities and zeros with their IEEE
 * signs), carry the canonical-order model's bits (the canonical NaN where the model gives NaN), and, where
 * no partial result can overflow or underflow, pass ref_check (REF_CANONICAL). 0 when right, else
 * prints why and returns 1. */
int ref_check_ieee(const char* what, hipreduce_op op, hipreduce_dtype dtype, ref_data data, const void* x,
                   uint64_t n, const void* got);

/* The canonical-order model (float sum/prod only): writes one element of dtype to out. */
void ref_model(hipreduce_op op, hipreduce_dtype dtype, const void* x, uint64_t n, void* out);

/* The edge sizes for dtype up to max_n, sorted, distinct; returns how many (<= cap). */
size_t ref_sizes(hipreduce_dtype dtype, uint64_t max_n, uint64_t* out, size_t cap);

typedef struct ref_case {
    hipreduce_op op;
    hipreduce_dtype dtype;
    ref_data data;
    uint64_t n;
    uint64_t seed;
    const void* x; /* host memory, n elements */
} ref_case;
/* Returns the number of failures it found. */
typedef int (*ref_case_fn)(void* ctx, const ref_case* c);

/* Calls fn for every op x dtype x data pattern x size (n <= max_n), and checks after each call
 * that the host input is unchanged. Returns the total number of failures. */
int ref_for_each_case(uint64_t max_n, ref_case_fn fn, void* ctx);

/* Bit-exact equality of two results of dtype. */
int ref_same_bits(hipreduce_dtype dtype, const void* a, const void* b);
/* Whether one element of dtype at p is a NaN (0 for integer dtypes). */
int ref_is_nan(hipreduce_dtype dtype, const void* p);

/* Test utilities. */
#define REF_EXPECT(cond)                                                                          \
    ((cond) ? 0 : (ref_report("%s:%d: expected %s", __FILE__, __LINE__, #cond), 1))
void ref_report(const char* format, ...);
int ref_reports(void); /* reports so far */

#endif
