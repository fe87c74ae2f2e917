/* References for the statistics ops (hipreduce.h's "Statistics"), written from the header's text:
 *  - mean, nansum, nanmean: the bits follow from the sum's (its accumulator, from the cpu device's
 *    hipreduce_reduce, which the typed suite checks against its own model), divided here;
 *  - count_nonzero, all, any, nanmin, nanmax: exact, by the test's own loop;
 *  - var, std and their means: a two-pass long double reference with compensated sums, and the
 *    header's error bound; the special values (empty, NaN, infinities, n <= correction) exactly;
 *  - logsumexp: a long double reference (compensated) and the header's bound. */
#ifndef HIPREDUCE_TEST_STATS_REF_H
#define HIPREDUCE_TEST_STATS_REF_H

#include <stdint.h>

#include "hipreduce/hipreduce.h"

/* The result dtypes of a stats op for an input dtype, in the header's list. */
int sr_allowed(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out);
/* Whether op takes a correction (var, std, var_mean, std_mean) / writes values2 (var_mean,
 * std_mean, aminmax). */
int sr_corrected(hipreduce_op op);
int sr_two_outputs(hipreduce_op op);

/* Element i of x as its exact value (f16/bf16 through the library's exact converters). */
long double sr_value(hipreduce_dtype d, const void* x, uint64_t i);
/* Raw bits of element i / of a stored result, zero-extended. */
uint64_t sr_bits(hipreduce_dtype d, const void* x, uint64_t i);

/* The longest merge chain of the header's bound: `order_strided` the strided order's blocks,
 * else the default order's tiles of the input dtype. */
int sr_chain(hipreduce_dtype in, uint64_t n, int order_strided);

/* Whether op's expected bits follow from the sum's accumulator (mean, nansum, nanmean). */
int sr_needs_sum(hipreduce_op op);
/* The expected bits of mean, nansum, nanmean, count_nonzero, all, any, nanmin or nanmax of x[0..n)
 * (contiguous): `sum_acc` is the sum's accumulator of the slice as the cpu device gives it (the
 * bits of a sum into the accumulator's dtype: f64 when in or out is f64, else f32; for nansum and
 * nanmean of the slice with its NaNs set to +0.0), read only where sr_needs_sum. */
uint64_t sr_expect(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, const void* x, uint64_t n,
                   uint64_t sum_acc);
/* The dtype that accumulator is read in. */
hipreduce_dtype sr_acc_dtype(hipreduce_dtype in, hipreduce_dtype out);

/* Checks var/std (got) and, for the two-output ops, the mean (got2) of x[0..n) with `correction`
 * against the reference: 0 when right, else 1 with why written. *ratio receives the largest
 * |error| / bound seen where the result dtype is the accumulator's, not rounded further (for the
 * report). */
int sr_check_moments(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, const void* x, uint64_t n,
                     double correction, int chain, uint64_t got, uint64_t got2, double* ratio, char* why, int size);

/* Checks logsumexp's result (got) of x[0..n) against the long double reference and the header's
 * bound (chain: sr_chain's), as sr_check_moments. */
int sr_check_logsumexp(hipreduce_dtype in, hipreduce_dtype out, const void* x, uint64_t n, int chain, uint64_t got,
                       double* ratio, char* why, int size);

#endif
