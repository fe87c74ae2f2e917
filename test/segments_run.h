/* The segments suite: hipreduce_reduce_axis, hipreduce_argreduce_axis,
 * hipreduce_reduce_segments, hipreduce_argreduce_segments and their size queries.
 * One case = one call over a shape. On the cpu device every contiguous result (a row with
 * inner == 1, every segment) must have the bits of hipreduce_reduce / hipreduce_argreduce of
 * the same handle over that slice alone; every strided result (inner > 1) the bits of the
 * test's own model of the strided order (segments_model.c); nothing may be written past the
 * results. On GPU 0 (real or emulated) the same call must give the cpu device's bits, with the
 * results in host and in device memory. */
#ifndef HIPREDUCE_TEST_SEGMENTS_RUN_H
#define HIPREDUCE_TEST_SEGMENTS_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "hipreduce/hipreduce.h"
#include "test_run.h"
#include "typed_ref.h"

#define SG_SENTINEL 0xA5
#define SG_INDEX_SENTINEL ((int64_t)0x5a5a5a5a5a5a5a5aLL)
#define SG_GUARD 64 /* sentinel bytes (and indices) after the results, checked untouched */

typedef struct sg_shape {
    int segments;                   /* 0: axis [outer][extent][inner]; 1: CSR segments */
    uint64_t outer, extent, inner;  /* axis */
    uint64_t num_segments;          /* segments */
    const uint64_t* offsets;        /* segments: num_segments + 1 host offsets */
    uint64_t shift;                 /* the input starts this many elements into the buffer */
} sg_shape;

typedef struct sg_ctx {
    hipreduce_handle cpu, gpu;  /* gpu: NULL in the cpu-only mode */
    unsigned char* d_x;         /* device input buffer, room bytes */
    size_t room;
    uint64_t* d_offsets;        /* device offsets, offsets_room entries */
    size_t offsets_room;
    unsigned char* d_out;       /* device results: results_room * 8 + SG_GUARD bytes */
    int64_t* d_index;           /* device indices: results_room + SG_GUARD entries */
    size_t results_room;
    enum test_profile profile;  /* test_run.h's */
    long calls, results, elements; /* of the matrix so far (the cpu device's calls) */
} sg_ctx;

/* Results of a shape (axis: outer * inner; segments: num_segments) and input elements it reads. */
uint64_t sg_results(const sg_shape* s);
uint64_t sg_inputs(const sg_shape* s);

/* One call of the shape on handle h: reduce_axis/_segments or, for argmin/argmax, the argreduce
 * form (out must then be in; indices receives the indices). x, offsets, results and indices are
 * in the memory the handle and location say. */
hipreduce_status sg_call(hipreduce_handle h, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out,
                         const void* x, const sg_shape* s, const uint64_t* offsets, void* results,
                         int64_t* indices, hipreduce_location location);
/* The size query of the shape's call. */
hipreduce_status sg_query(hipreduce_handle h, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out,
                          const sg_shape* s, size_t* bytes);

/* One checked case over the buffer base (the input starts s->shift elements in): the cpu
 * device against the references, then GPU 0 against the cpu device. Returns failures. */
int sg_case(sg_ctx* c, const char* what, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out,
            const unsigned char* base, const sg_shape* s);

/* The expected result of the strided order over the extent elements of s (a gathered column):
 * the model's bits for float sum, prod, sum_abs, sum_squares and nrm2, typed_ref's exact
 * references otherwise (segments_model.c). */
tr_expect sg_strided_expected(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, const void* s,
                              uint64_t extent);

/* Rule sections (segments_rules.c, segments_workspace.c, segments_model.c); each returns its
 * failures. */
int sg_arguments(sg_ctx* c);   /* the validation order; refused calls write nothing */
int sg_empty_shapes(sg_ctx* c);/* outer * inner == 0, extent 0, num_segments 0 (NULL pointers) */
int sg_workspace(sg_ctx* c);   /* size queries; caller workspace of exactly that size and one less */
int sg_model_examples(void);   /* the strided model against hand-computed orders */
int sg_gpu_offsets(sg_ctx* c); /* device offsets that decrease or pass the end: the documented clamp */

#endif
