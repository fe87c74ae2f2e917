/* What test_complex.c and complex_shapes.c share: the handles, device copies, random complex data,
 * the long double reference of each op and the bound a result must meet against it. */
#ifndef HIPREDUCE_TEST_COMPLEX_TEST_H
#define HIPREDUCE_TEST_COMPLEX_TEST_H

#include <stdint.h>

#include "hipreduce/hipreduce.h"
#include "test_check.h"

typedef struct cx_env {
    hipreduce_handle cpu, run; /* references on cpu; the calls under test on run (cpu or GPU 0) */
    int gpu;
} cx_env;

/* The (op, in, out) cases of complex inputs. */
extern const op_case cx_cases[];
extern const int cx_case_count;

/* Device memory holding a copy of host bytes when e->gpu, else host itself; cx_release frees it. */
void* cx_place(const cx_env* e, const void* host, size_t bytes);
void cx_release(const cx_env* e, void* p);
/* Copies `bytes` of results that `run` wrote at p (host memory here). */
void cx_fetch(const cx_env* e, void* host, const void* p, size_t bytes);

/* n random elements of a complex dtype; magnitudes 2^-4 .. 2^4 of both signs, or near 1 when
 * `near_one` (products). */
void cx_fill(void* p, hipreduce_dtype dtype, uint64_t n, int near_one);
/* Component c (0: re, 1: im) of element i. */
long double cx_part(hipreduce_dtype dtype, const void* p, uint64_t i, int c);

/* Runs op over n elements (dot, dotc: x and y) on handle h: the status. */
hipreduce_status cx_call(hipreduce_handle h, const op_case* c, const void* x, const void* y, uint64_t n, void* result);
/* Checks a result of c over x (and y) on the host against the long double reference: each
 * component within 64 units of the accumulator's precision times the sum of the magnitudes of its
 * terms (products: times the product of the magnitudes and n). sum_exact: bit for bit against the
 * tests' exact reference per component (exact_ref.h). */
void cx_check_value(const op_case* c, const void* x, const void* y, uint64_t n, const void* got, const char* what);

/* The shapes (complex_shapes.c): axis rows and columns, segments, tensor plans and by key. */
void cx_shapes(const cx_env* e, int rounds);
/* The failures each file's CHECK counted (test_check.h's count is per file). */
int cx_ref_failures(void);
int cx_shape_failures(void);

#endif
