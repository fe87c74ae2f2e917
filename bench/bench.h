/* hipreduce-bench's parts and what they share:
 *   bench_options.c  the command line
 *   bench_help.c     --help, built from the option table and the library's name functions
 *   bench_calls.c    the three public calls (reduce, argreduce, dot) behind one pair of functions
 *   bench_shapes.c   --shape: rows, columns, axis and ragged segments (the axis and segment calls)
 *   bench_cpu.c      timing on the cpu device (host clock), every backend
 *   bench_gpu.cpp    timing on GPU 0 (device events, anchors in the same process), GPU backends only
 *   bench_shapes_gpu.cpp  the --shape modes on GPU 0 (CUB's segmented reductions as anchors)
 *   bench_report.c   the rows and their table / CSV / JSON output
 *   bench_main.c     picks the device and runs one of the two
 * The cpu-backend build is C only, so everything but bench_gpu.cpp and the anchors is C. */
#ifndef HIPREDUCE_BENCH_H
#define HIPREDUCE_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <hipreduce/hipreduce.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { BENCH_MAX_NAMES = 64 }; /* name functions are asked for the values 0..63 */
/* --out's "same": the input dtype (argmin/argmax: the value's dtype, always the input's). */
enum { BENCH_OUT_SAME = BENCH_MAX_NAMES - 1 };

typedef enum { BENCH_DEVICE_AUTO, BENCH_DEVICE_GPU, BENCH_DEVICE_CPU } bench_device;
typedef enum { BENCH_FORMAT_TABLE, BENCH_FORMAT_CSV, BENCH_FORMAT_JSON } bench_format;
typedef enum { BENCH_WORKSPACE_OWN, BENCH_WORKSPACE_CALLER } bench_workspace;
typedef enum { BENCH_CEILING_1GIB, BENCH_CEILING_SAME } bench_ceiling;
/* flat: hipreduce_reduce and its kin over --sizes; the others time the axis and segment calls over
 * --dims: rows and cols of an R x C matrix (inner == 1 / outer == 1), axis OxExI, ragged
 * segments (S segments of lengths uniform in 0..M, drawn from --seed). */
typedef enum { BENCH_SHAPE_FLAT, BENCH_SHAPE_ROWS, BENCH_SHAPE_COLS, BENCH_SHAPE_AXIS, BENCH_SHAPE_RAGGED } bench_shape;
/* One --dims entry: R x C (rows, cols), O x E x I (axis), S x M (ragged); count terms. */
typedef struct bench_dims {
    uint64_t d[3];
    int count;
} bench_dims;

typedef struct bench_options {
    int algorithms[BENCH_MAX_NAMES];
    int n_algorithms;
    int algorithms_all; /* "all" was given: on the cpu device it means auto */
    int ops[BENCH_MAX_NAMES];
    int n_ops;
    int dtypes[BENCH_MAX_NAMES];
    int n_dtypes;
    int outs[BENCH_MAX_NAMES]; /* result dtypes, or BENCH_OUT_SAME */
    int n_outs;
    uint64_t* sizes; /* owned; bench_free_options */
    size_t n_sizes;
    int reps, warmup;
    bench_format format;
    const char* output; /* NULL: standard output */
    int vendor;
    bench_device device;
    bench_workspace workspace;
    bench_ceiling ceiling; /* GPU: the read ceiling over 1 GiB, or over each row's own input bytes */
    unsigned threads; /* cpu device: hipreduce_set_threads' count, 0 = the library's default */
    bench_shape shape;
    bench_dims* dims; /* owned; bench_free_options */
    size_t n_dims;
    uint64_t seed; /* ragged lengths */
    uint64_t step; /* rows, cols: > 1 reads every step-th row and column of a larger array (a plan) */
} bench_options;

typedef enum { BENCH_PARSE_OK = 0, BENCH_PARSE_HELP = 1, BENCH_PARSE_ERROR = 2 } bench_parse_status;

/* Fills *o from argv. On an error prints one line naming the culprit to stderr; on --help prints
 * the help to stdout. */
bench_parse_status bench_parse(int argc, char** argv, bench_options* o);
void bench_free_options(bench_options* o);

/* One command-line option: name, value form in --help (NULL: a flag), help lines ('\n'-separated,
 * the last says the default), setter. */
typedef struct bench_option_spec {
    const char* name;
    const char* value;
    const char* help;
    int (*set)(bench_options*, const char* option, const char* value);
} bench_option_spec;
void bench_print_help(const bench_option_spec* options, int count);

/* Value forms (bench_values.c); each returns 0 or -1. bench_parse_u64: decimal digits in
 * [s, end), no overflow; bench_parse_size: 1048576, 2^20, 1e9, each optionally followed by +D or
 * -D, at least 1; bench_parse_dims: --dims (prints what is wrong; *dims is malloc'd). */
int bench_parse_u64(const char* s, const char* end, uint64_t* out);
int bench_parse_size(const char* s, uint64_t* out);
int bench_parse_dims(const char* option, const char* text, bench_dims** dims, size_t* count);

/* ---- the public calls (bench_calls.c) ---- */
typedef enum { BENCH_CALL_REDUCE, BENCH_CALL_ARGREDUCE, BENCH_CALL_DOT } bench_call_kind;
/* Which call takes op (the public header's rule). */
bench_call_kind bench_op_call(hipreduce_op op);
/* The result dtype a --out entry (a dtype or BENCH_OUT_SAME) means for the input dtype. */
hipreduce_dtype bench_out_dtype(hipreduce_dtype in, int out_entry);
/* The workspace size query of op's call: OP_DTYPE_MISMATCH for a triple the library does not
 * allow (argreduce: also out != in), which the bench leaves out. */
/* How many (dtype, op, result dtype, algorithm) rows a run will time per size (per --dims entry):
 * the allowed triples, each result dtype once, and on a GPU handle (gpu != 0) each algorithm
 * that runs the call; the progress count. Leaves h's algorithm at AUTO. */
size_t bench_rows_per_size(hipreduce_handle h, const bench_options* o, int gpu);
hipreduce_status bench_workspace_size(hipreduce_handle h, hipreduce_op op, hipreduce_dtype in, uint64_t n,
                                      hipreduce_dtype out, size_t* bytes);
/* Runs op's call on x (and y for dot), n elements each; result gets one out element (argreduce:
 * the value) and index argreduce's index (unused by the other calls). */
hipreduce_status bench_call(hipreduce_handle h, hipreduce_op op, hipreduce_dtype in, const void* x, const void* y,
                            uint64_t n, hipreduce_dtype out, void* result, int64_t* index,
                            hipreduce_location location);
/* Bytes one call reads: n elements of in, twice that for dot (two inputs). */
uint64_t bench_bytes_read(hipreduce_op op, hipreduce_dtype in, uint64_t n);
/* One element of dtype (f16 and bf16 included) as a double, for the result checks. */
double bench_value_as_double(hipreduce_dtype dtype, const void* p);

typedef struct bench_row {
    const char* algorithm; /* the library's constant names, or an anchor's ("cub-3.5.0") */
    const char* op;
    const char* dtype;     /* the input dtype */
    uint64_t n;            /* elements (dot: of each input) */
    double ms;           /* median time of one call */
    double gbps;         /* bytes read (bench_bytes_read) / ms */
    double ceiling_gbps; /* the read ceiling this row is compared with */
    double vendor_ms;    /* the vendor library's median on the same data; 0: not timed */
    const char* out_dtype; /* the result dtype (argmin/argmax: the value's) */
    const char* status;    /* "ok"; "differs" (checked against an anchor: not the same result);
                            * or the library's status string of a call that failed: an error
                            * row, whose figures are 0 and are printed empty */
    int error;             /* 1: an error row */
    char shape[64];        /* --shape modes: "rows:RxC", "cols:RxC", "axis:OxExI",
                            * "ragged:Sx0..M:seedK"; "" for flat rows */
} bench_row;

/* ---- the --shape modes (bench_shapes.c) ---- */
/* A strided shape's plan, made for the (op, in, out) of the last size query or call (owned). */
typedef struct bench_plan_slot {
    hipreduce_plan plan;
    hipreduce_op op;
    hipreduce_dtype in, out;
} bench_plan_slot;
typedef struct bench_geometry {
    uint64_t outer, extent, inner; /* rows, cols, axis */
    uint64_t num_segments;         /* ragged */
    uint64_t* offsets;             /* ragged: num_segments + 1 host offsets (owned); else NULL */
    uint64_t n;                    /* input elements the call reads */
    uint64_t span;                 /* elements the input occupies: n, or the strided view's whole array */
    uint64_t step;                 /* rows, cols: 1, or the view's step in both axes (--step) */
    bench_plan_slot* slot;         /* step > 1: the plan the calls run (owned); else NULL */
    uint64_t results;
    char label[64];                /* bench_row.shape */
} bench_geometry;
/* The geometry of one --dims entry (step: --step); 0, or prints why not (overflow, out of
 * memory) and -1. */
int bench_geometry_make(bench_shape shape, const bench_dims* dims, uint64_t seed, uint64_t step, bench_geometry* g);
void bench_geometry_free(bench_geometry* g);
/* The position in the input of element e (0 .. the slice's length - 1) of result r's slice. */
uint64_t bench_geometry_position(const bench_geometry* g, uint64_t r, uint64_t e);
/* The size query and the call of op over g: the axis calls, the segment calls with `offsets`
 * (g's host offsets, or their copy in device memory on a GPU handle), or for a strided view
 * (step > 1) the run of its plan (made by the first query or call of each (op, in, out); the
 * size query counts the larger of host and device results). values: g->results out
 * elements; indices: g->results int64 (argmin/argmax). dot does not apply: OP_DTYPE_MISMATCH
 * from the query, as for triples the library does not allow, which the bench leaves out. */
hipreduce_status bench_shape_workspace_size(hipreduce_handle h, hipreduce_op op, hipreduce_dtype in,
                                            const bench_geometry* g, hipreduce_dtype out, size_t* bytes);
hipreduce_status bench_shape_call(hipreduce_handle h, hipreduce_op op, hipreduce_dtype in, const void* x,
                                  const bench_geometry* g, const uint64_t* offsets, hipreduce_dtype out,
                                  void* values, int64_t* indices, hipreduce_location location);
/* splitmix64 (the inputs' and the ragged lengths' generator; the GPU fill kernels use the same). */
uint64_t bench_mix64(uint64_t x);

typedef struct bench_result {
    bench_row* rows;
    size_t count, capacity;
    char device[256];
    const char* vendor;        /* "CUB DeviceReduce 3.0.1 (toolkit)", ...; NULL: no comparator */
    const char* ceiling_kind;  /* how the ceiling was measured, one line */
    double device_ceiling;     /* one figure for the whole run; 0 when it is measured per row */
} bench_result;

/* Appends a row; returns 0, or -1 when out of memory. */
int bench_add_row(bench_result* r, const bench_row* row);
void bench_free_result(bench_result* r);
/* Writes the report in o->format; returns 0, or -1 on a write error. */
int bench_print(FILE* f, const bench_options* o, const bench_result* r);

/* The default size sweep: 2^10..2^28 and a few odd sizes. */
size_t bench_default_sizes(uint64_t* out, size_t capacity);

/* Each returns 0, or prints what failed and returns 1. */
int bench_run_cpu(const bench_options* o, bench_result* r);
#if defined(HIPREDUCE_BENCH_GPU)
int bench_run_gpu(const bench_options* o, bench_result* r);
int bench_gpu_count(void); /* GPUs the backend's runtime sees */
#endif

#ifdef __cplusplus
}
#endif

#endif
