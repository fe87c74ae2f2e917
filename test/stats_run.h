/* The statistics suite's runner (stats_run.c): its data, its problems (a descriptor and its
 * input), plan runs on the device under test and on the cpu device, and the checks of every result
 * (test_stats.c builds the problems). */
#ifndef HIPREDUCE_TEST_STATS_RUN_H
#define HIPREDUCE_TEST_STATS_RUN_H

#include <stdint.h>
#include <stdio.h>

#include "hipreduce/hipreduce.h"

/* The failures this file's checks counted (test_check.h's count is per file). */
int stats_run_failures(void);

/* Data kinds: normal values; offsets near 1e20 (bf16: 1e15, f16: 1000) with a relative spread of a few
 * hundred ulps; normal with NaN, infinities, zeros, subnormals sprinkled; half NaN; a constant;
 * a large offset with +-1 (or 2) steps (cancellation). Integers: small values, a third zeros; for
 * the offset kind every bit random (the dtype's extremes and signs). */
enum { STATS_DATA_KINDS = 6 };
extern const char* const stats_data_names[STATS_DATA_KINDS];
void stats_fill(unsigned char* p, uint64_t count, hipreduce_dtype d, int kind);

typedef struct env {
    hipreduce_handle cpu, run; /* references on cpu; the device under test (cpu or GPU 0) */
    int gpu;
    double worst; /* the largest error / bound of the moments seen */
    int checked;  /* results checked against a reference */
} env;

/* A problem: a descriptor, its input (element (0..0) at x + base), segments' offsets or by-key
 * keys, the reduced axes of a tensor, and its result count. */
typedef struct problem {
    hipreduce_reduction_desc d;
    unsigned char* x;
    uint64_t base, count;
    uint64_t* offsets;
    int64_t* keys;     /* BY_KEY: as int64 ... */
    void* stored_keys; /* ... and as key_dtype */
    unsigned mask;
    uint64_t results;
} problem;

/* Result r's elements, in its logical order, into slice; returns their count. */
uint64_t stats_gather(const problem* p, uint64_t r, unsigned char* slice);
/* Runs p's plan on handle h into host values (and values2); on a GPU every other run's results
 * go through device memory. */
hipreduce_status stats_run_plan(const env* e, hipreduce_handle h, const problem* p, unsigned char* values,
                                unsigned char* values2);
/* Runs p on the device under test and on the cpu device: the same bits; a LOGICAL result the cpu
 * device's full plan over its slice; the cpu device's results the references' (aminmax: MIN's and
 * MAX's bits, of each slice on the cpu device and of p's MIN and MAX plans on the device under
 * test). */
void stats_solve(env* e, problem* p, const char* shape, int kind);

#endif
