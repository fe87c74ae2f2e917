/* hipreduce-bench's parts and what they share:
 *   bench_options.c  the command line and --help
 *   bench_cpu.c      timing on the cpu device (host clock), every backend
 *   bench_gpu.cpp    timing on GPU 0 (device events, vendor comparator), GPU backends only
 *   bench_report.c   the rows and their table / CSV / JSON output
 *   bench_main.c     picks the device and runs one of the two
 * The cpu-backend build is C only, so everything but bench_gpu.cpp is C. */
#ifndef HIPREDUCE_BENCH_H
#define HIPREDUCE_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { BENCH_MAX_NAMES = 64 }; /* name functions are asked for the values 0..63 */

typedef enum { BENCH_DEVICE_AUTO, BENCH_DEVICE_GPU, BENCH_DEVICE_CPU } bench_device;
typedef enum { BENCH_FORMAT_TABLE, BENCH_FORMAT_CSV, BENCH_FORMAT_JSON } bench_format;
typedef enum { BENCH_WORKSPACE_OWN, BENCH_WORKSPACE_CALLER } bench_workspace;

typedef struct bench_options {
    int algorithms[BENCH_MAX_NAMES];
    int n_algorithms;
    int algorithms_all; /* "all" was given: on the cpu device it means auto */
    int ops[BENCH_MAX_NAMES];
    int n_ops;
    int dtypes[BENCH_MAX_NAMES];
    int n_dtypes;
    uint64_t* sizes; /* owned; bench_free_options */
    size_t n_sizes;
    int reps, warmup;
    bench_format format;
    const char* output; /* NULL: standard output */
    int vendor;
    bench_device device;
    bench_workspace workspace;
    unsigned threads; /* cpu device: hipreduce_set_threads' count, 0 = the library's default */
} bench_options;

typedef enum { BENCH_PARSE_OK = 0, BENCH_PARSE_HELP = 1, BENCH_PARSE_ERROR = 2 } bench_parse_status;

/* Fills *o from argv. On an error prints one line naming the culprit to stderr; on --help prints
 * the help to stdout. */
bench_parse_status bench_parse(int argc, char** argv, bench_options* o);
void bench_free_options(bench_options* o);

typedef struct bench_row {
    const char* algorithm; /* the library's constant names */
    const char* op;
    const char* dtype;
    uint64_t n;
    double ms;           /* median time of one call */
    double gbps;         /* n * element size / ms */
    double ceiling_gbps; /* the read ceiling this row is compared with */
    double vendor_ms;    /* the vendor library's median on the same data; 0: not timed */
} bench_row;

typedef struct bench_result {
    bench_row* rows;
    size_t count, capacity;
    char device[256];
    const char* vendor;        /* "CUB DeviceReduce", ...; NULL: no comparator */
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
