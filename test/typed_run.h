/* The typed suite's runner (test_typed.c), shared with its rule sections (typed_rules.c): one call
 * of hipreduce_reduce / hipreduce_argreduce / hipreduce_dot on the cpu device, checked against
 * typed_ref.c, and the same call on GPU 0 (real or emulated) where there is one, which must give the
 * cpu device's bits and index, with the result in host and in device memory. */
#ifndef HIPREDUCE_TEST_TYPED_RUN_H
#define HIPREDUCE_TEST_TYPED_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "hipreduce/hipreduce.h"

typedef struct tt_ctx {
    hipreduce_handle cpu, gpu; /* gpu: NULL in the cpu-only mode */
    unsigned char *d_x, *d_y;  /* GPU copies of the current input (tt_upload) */
    unsigned char* d_result;   /* 16 bytes of value, then the int64 index */
    size_t room;               /* bytes of d_x and of d_y */
    int device_location;       /* also run the GPU call with HIPREDUCE_RESULT_DEVICE */
    int smoke;                 /* the emu-smoke profile: the rule sections' small sizes only */
    long calls;
} tt_ctx;

/* Copies n elements of in from x (and y, if not NULL) to the GPU. 0, or 1 after a report. */
int tt_upload(tt_ctx* c, hipreduce_dtype in, const void* x, const void* y, uint64_t n);

/* One call (op's kind: reduce, argreduce or dot) on the cpu device with host x, y, and on the
 * GPU with the uploaded copies. The cpu result must pass tr_check and write exactly one element
 * (and the index only for argreduce); the GPU's must equal it. *bits / *index receive the cpu's
 * result (may be NULL). Returns the number of failures. */
int tt_case(tt_ctx* c, const char* what, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, const void* x,
            const void* y, uint64_t n, uint64_t* bits, int64_t* index);

/* One call on handle h without checks: the status, and the result's bits and index. x and y are
 * in h's memory; the result goes to host memory. */
hipreduce_status tt_call(hipreduce_handle h, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out,
                         const void* x, const void* y, uint64_t n, void* result, int64_t* index,
                         hipreduce_location location);

/* The rule sections (typed_rules.c); each returns its failures. */
int tt_mismatch(tt_ctx* c);        /* every refused triple and op of another call writes nothing */
int tt_arguments(tt_ctx* c);       /* the validation order of the typed calls (cpu handle) */
int tt_arg_rules(tt_ctx* c);       /* argmin/argmax: ties, NaN, signed zeros, extremes, n = 0 */
int tt_semantics(tt_ctx* c);       /* the spec's worked examples */
int tt_nrm2_range(tt_ctx* c);      /* nrm2 at the range limits */
int tt_workspace(tt_ctx* c);       /* size queries and a caller workspace of exactly that size */

#endif
