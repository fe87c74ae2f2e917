/* hipreduce-bench on the cpu device: the host's monotonic clock around each call (reduce, argreduce
 * or dot: bench_calls.c; synchronous on the calling thread), timed in turn with a plain read of the
 * same input (a sum of its 64-bit words on the same thread; dot: both inputs), which is the row's
 * read ceiling. A call the library refuses is an error row. Warm-up rounds, then the
 * median of --reps; inputs rotated over copies that together exceed ROTATION_BYTES, so that sizes
 * from a few MiB up are read from memory rather than from the last-level cache. The --shape modes
 * time the axis and segment calls the same way (bench_shapes.c), results in host memory. */
#define _POSIX_C_SOURCE 200809L

#include "bench.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hipreduce/hipreduce.h>

enum { MAX_COPIES = 64 };
#define ROTATION_BYTES ((uint64_t)256 << 20)

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* f16 and bf16 bits of a float in [0.5, 1.5), truncated (exact in that range: no rounding, no
 * NaN pattern): bf16 is the top half of the f32; f16 rebiases the exponent (127 - 15) and keeps the
 * top 10 mantissa bits. */
static uint16_t bf16_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return (uint16_t)(b >> 16);
}
static uint16_t f16_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return (uint16_t)(((((b >> 23) & 0xff) - 112) << 10) | ((b >> 13) & 0x3ff));
}

/* Integers: random bits. Floats: uniform in [0.5, 1.5), so every op stays finite. */
static void fill(int dtype, unsigned char* p, uint64_t n, uint64_t seed)
{
#define FILL(T, VALUE)                                            \
    for (uint64_t i = 0; i < n; ++i) {                            \
        const uint64_t r = bench_mix64(seed ^ (i * 0xd1b54a32d192ed03ull)); \
        const T v = (VALUE);                                      \
        memcpy(p + i * sizeof(T), &v, sizeof v);                  \
    }                                                             \
    break;
    switch (dtype) {
    case HIPREDUCE_I8: FILL(int8_t, (int8_t)(uint8_t)r)
    case HIPREDUCE_U8: FILL(uint8_t, (uint8_t)r)
    case HIPREDUCE_I16: FILL(int16_t, (int16_t)(uint16_t)r)
    case HIPREDUCE_U16: FILL(uint16_t, (uint16_t)r)
    case HIPREDUCE_I32: FILL(int32_t, (int32_t)(uint32_t)r)
    case HIPREDUCE_U32: FILL(uint32_t, (uint32_t)r)
    case HIPREDUCE_I64: FILL(int64_t, (int64_t)r)
    case HIPREDUCE_U64: FILL(uint64_t, r)
    case HIPREDUCE_F16: FILL(uint16_t, f16_bits(0.5f + (float)(r >> 40) * (float)(1.0 / 16777216.0)))
    case HIPREDUCE_BF16: FILL(uint16_t, bf16_bits(0.5f + (float)(r >> 40) * (float)(1.0 / 16777216.0)))
    case HIPREDUCE_F32: FILL(float, 0.5f + (float)(r >> 11) * (float)(1.0 / 9007199254740992.0))
    case HIPREDUCE_F64: FILL(double, 0.5 + (double)(r >> 11) * (1.0 / 9007199254740992.0))
    default: break;
    }
#undef FILL
}

/* The ceiling: every byte read once, summed as 64-bit words in four chains; the sum goes to a
 * volatile so that the loads stay. */
static volatile uint64_t sink;

static void read_all(const unsigned char* p, uint64_t bytes)
{
    const uint64_t words = bytes / 8;
    uint64_t a = 0, b = 0, c = 0, d = 0, i = 0;
    for (; i + 4 <= words; i += 4) {
        uint64_t w[4];
        memcpy(w, p + 8 * i, sizeof w);
        a += w[0];
        b += w[1];
        c += w[2];
        d += w[3];
    }
    for (; i < words; ++i) {
        uint64_t w;
        memcpy(&w, p + 8 * i, sizeof w);
        a += w;
    }
    for (uint64_t j = 8 * words; j < bytes; ++j) a += p[j];
    sink = a + b + c + d;
}

/* The read ceiling with as many threads as the library's call uses (hipreduce_set_threads: a call
 * gives each thread at least 256 KiB of input): the same pool shape, threads waiting at a barrier,
 * each summing its contiguous share. */
enum { READERS_MAX = 256, READER_MIN_BYTES = 256 * 1024 };
static struct readers {
    pthread_t thread[READERS_MAX];
    pthread_barrier_t start, end;
    unsigned count; /* threads, the caller included */
    const unsigned char* p;
    uint64_t bytes;
    unsigned active; /* threads reading this round */
    int quit;
} readers;

static void read_share(unsigned k)
{
    const uint64_t share = (readers.bytes / readers.active + 63) / 64 * 64;
    const uint64_t from = share * k < readers.bytes ? share * k : readers.bytes;
    const uint64_t to = from + share < readers.bytes ? from + share : readers.bytes;
    if (k < readers.active) read_all(readers.p + from, to - from);
}

static void* reader_main(void* arg)
{
    const unsigned k = (unsigned)(uintptr_t)arg;
    for (;;) {
        pthread_barrier_wait(&readers.start);
        if (readers.quit) return NULL;
        read_share(k);
        pthread_barrier_wait(&readers.end);
    }
}

static void readers_start(unsigned threads)
{
    readers.count = threads < 1 ? 1 : threads > READERS_MAX ? READERS_MAX : threads;
    if (readers.count == 1) return;
    pthread_barrier_init(&readers.start, NULL, readers.count);
    pthread_barrier_init(&readers.end, NULL, readers.count);
    for (unsigned k = 1; k < readers.count; ++k)
        if (pthread_create(&readers.thread[k], NULL, reader_main, (void*)(uintptr_t)k) != 0) exit(1);
}

static void readers_stop(void)
{
    if (readers.count <= 1) return;
    readers.quit = 1;
    pthread_barrier_wait(&readers.start);
    for (unsigned k = 1; k < readers.count; ++k) pthread_join(readers.thread[k], NULL);
    pthread_barrier_destroy(&readers.start);
    pthread_barrier_destroy(&readers.end);
}

/* Reads bytes at p with the threads a call of that size would use. */
static void read_threads(const unsigned char* p, uint64_t bytes)
{
    const uint64_t fit = bytes / READER_MIN_BYTES;
    const unsigned active = fit < 1 ? 1 : fit < readers.count ? (unsigned)fit : readers.count;
    if (active == 1 || readers.count == 1) {
        read_all(p, bytes);
        return;
    }
    readers.p = p;
    readers.bytes = bytes;
    readers.active = active;
    pthread_barrier_wait(&readers.start);
    read_share(0);
    pthread_barrier_wait(&readers.end);
}

typedef struct row_data {
    hipreduce_handle h;
    hipreduce_op op;
    hipreduce_dtype dtype, out;
    uint64_t n, bytes, stride; /* bytes of one input; stride: bytes from one copy to the next */
    const unsigned char* data; /* copies of x, then (two_inputs: some op is dot) as many of y */
    int copies, two_inputs;
    const bench_geometry* geom; /* --shape modes; NULL: flat */
    void* values;               /* geom: its results (8 bytes each at most) */
    int64_t* indices;           /* geom: argmin/argmax's indices */
} row_data;

static const unsigned char* x_of(const row_data* d, int copy) { return d->data + (size_t)copy * d->stride; }
static const unsigned char* y_of(const row_data* d, int copy) { return x_of(d, d->copies + copy); }

static hipreduce_status reduce_copy(const row_data* d, int copy)
{
    if (d->geom)
        return bench_shape_call(d->h, d->op, d->dtype, x_of(d, copy), d->geom, d->geom->offsets, d->out, d->values,
                                d->indices, HIPREDUCE_RESULT_HOST);
    unsigned char result[16];
    int64_t index;
    return bench_call(d->h, d->op, d->dtype, x_of(d, copy), d->two_inputs ? y_of(d, copy) : NULL, d->n, d->out,
                      result, &index, HIPREDUCE_RESULT_HOST);
}

/* The plain read of what one call reads. */
static void read_copy(const row_data* d, int copy)
{
    read_threads(x_of(d, copy), d->bytes);
    if (d->two_inputs && bench_op_call(d->op) == BENCH_CALL_DOT) read_threads(y_of(d, copy), d->bytes);
}

static int compare_double(const void* x, const void* y)
{
    const double a = *(const double*)x, b = *(const double*)y;
    return (a > b) - (a < b);
}

static double median(double* v, int count)
{
    qsort(v, (size_t)count, sizeof *v, compare_double);
    return count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]);
}

/* Median ms of the reduction (ms[0]) and of the plain read (ms[1]), timed in turn, the first
 * of each round alternating, consecutive calls on different copies. */
static int time_row(const row_data* d, const bench_options* o, double ms[2])
{
    double* t = malloc(2 * (size_t)o->reps * sizeof *t);
    if (!t) return -1;
    uint64_t next = 0;
    for (int i = 0; i < o->warmup; ++i) {
        if (reduce_copy(d, (int)(next++ % (uint64_t)d->copies)) != HIPREDUCE_STATUS_SUCCESS) goto failed;
        read_copy(d, (int)(next++ % (uint64_t)d->copies));
    }
    for (int i = 0; i < o->reps; ++i) {
        for (int j = 0; j < 2; ++j) {
            const int which = (i + j) % 2, copy = (int)(next++ % (uint64_t)d->copies);
            const double t0 = now_ms();
            if (which == 0) {
                if (reduce_copy(d, copy) != HIPREDUCE_STATUS_SUCCESS) goto failed;
            } else {
                read_copy(d, copy);
            }
            t[which * o->reps + i] = now_ms() - t0;
        }
    }
    ms[0] = median(t, o->reps);
    ms[1] = median(t + o->reps, o->reps);
    free(t);
    return 0;
failed:
    free(t);
    return -1;
}

/* "cpu device (<model name>, N threads)" from /proc/cpuinfo where there is one. */
static void cpu_name(char* out, size_t size, unsigned threads)
{
    char line[512], model[256] = "";
    FILE* f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f)) {
        const char* colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            snprintf(model, sizeof model, "%s", colon + 2);
            model[strcspn(model, "\n")] = '\0';
            break;
        }
    }
    if (f) fclose(f);
    if (model[0]) snprintf(out, size, "cpu device (%s, %u thread%s)", model, threads, threads == 1 ? "" : "s");
    else snprintf(out, size, "cpu device (%u thread%s)", threads, threads == 1 ? "" : "s");
}

/* Times one (op, dtype, n) on the copies in d and appends its row; 1: skipped, -1: failed. */
static int run_op(row_data* d, const bench_options* o, bench_result* r)
{
    size_t ws_bytes = 0;
    hipreduce_status s = d->geom ? bench_shape_workspace_size(d->h, d->op, d->dtype, d->geom, d->out, &ws_bytes)
                                 : bench_workspace_size(d->h, d->op, d->dtype, d->n, d->out, &ws_bytes);
    if (s == HIPREDUCE_STATUS_OP_DTYPE_MISMATCH) return 1;
    void* ws = NULL;
    if (s == HIPREDUCE_STATUS_SUCCESS && o->workspace == BENCH_WORKSPACE_CALLER) {
        ws = malloc(ws_bytes ? ws_bytes : 1);
        if (!ws) s = HIPREDUCE_STATUS_ALLOCATION_FAILED;
        else s = hipreduce_set_workspace(d->h, ws, ws_bytes);
    }
    if (s == HIPREDUCE_STATUS_SUCCESS) s = reduce_copy(d, 0);
    double ms[2] = {0, 0};
    const int timed = s == HIPREDUCE_STATUS_SUCCESS && time_row(d, o, ms) == 0;
    if (ws) hipreduce_set_workspace(d->h, NULL, 0);
    free(ws);
    if (s == HIPREDUCE_STATUS_SUCCESS && !timed) {
        fprintf(stderr, "\nhipreduce-bench: %s %s n=%llu %s on the cpu device: failed while timing\n",
                hipreduce_op_name(d->op), hipreduce_dtype_name(d->dtype), (unsigned long long)d->n,
                d->geom ? d->geom->label : "");
        return -1;
    }
    /* A call the library refuses (a triple its executor does not run yet) is an error row. */
    const double bytes = (double)bench_bytes_read(d->op, d->dtype, d->n);
    bench_row row = {hipreduce_algorithm_name(HIPREDUCE_ALGORITHM_AUTO),
                           hipreduce_op_name(d->op),
                           hipreduce_dtype_name(d->dtype),
                           d->n,
                           ms[0],
                           timed ? bytes / ms[0] * 1e-6 : 0.0,
                           timed ? bytes / ms[1] * 1e-6 : 0.0,
                           0.0,
                           hipreduce_dtype_name(d->out),
                           timed ? "ok" : hipreduce_status_string(s),
                           !timed,
                           ""};
    if (d->geom) snprintf(row.shape, sizeof row.shape, "%s", d->geom->label);
    if (bench_add_row(r, &row) != 0) {
        fprintf(stderr, "\nhipreduce-bench: out of memory\n");
        return -1;
    }
    return 0;
}

int bench_run_cpu(const bench_options* o, bench_result* r)
{
    r->vendor = NULL;
    r->ceiling_kind = "64-bit word sum of the same buffers, on the threads the call uses";
    r->device_ceiling = 0;
    row_data d;
    memset(&d, 0, sizeof d);
    hipreduce_status s = hipreduce_create(&d.h, HIPREDUCE_DEVICE_CPU, 0);
    if (s != HIPREDUCE_STATUS_SUCCESS) {
        fprintf(stderr, "hipreduce-bench: hipreduce_create (cpu device): %s\n", hipreduce_status_string(s));
        return 1;
    }
    unsigned threads = 1;
    hipreduce_set_threads(d.h, o->threads);
    hipreduce_get_threads(d.h, &threads);
    cpu_name(r->device, sizeof r->device, threads);
    readers_start(threads);
    const int flat = o->shape == BENCH_SHAPE_FLAT;
    const size_t cases = flat ? o->n_sizes : o->n_dims; /* sizes, or --dims entries */
    const size_t total = bench_rows_per_size(d.h, o, 0) * cases;
    size_t done = 0;
    int rc = 0;
    for (int i = 0; i < o->n_ops && flat; ++i) d.two_inputs |= bench_op_call((hipreduce_op)o->ops[i]) == BENCH_CALL_DOT;
    const int slabs = d.two_inputs ? 2 : 1; /* x, and y for dot */
    for (int t = 0; t < o->n_dtypes && rc == 0; ++t) {
        d.dtype = (hipreduce_dtype)o->dtypes[t];
        const size_t elem = hipreduce_dtype_size(d.dtype);
        for (size_t k = 0; k < cases && rc == 0; ++k) {
            bench_geometry geom;
            if (!flat) {
                if (bench_geometry_make(o->shape, &o->dims[k], o->seed, o->step, &geom) != 0) {
                    rc = 1;
                    break;
                }
                d.geom = &geom;
                d.values = malloc(geom.results ? (size_t)geom.results * 8 : 1);
                d.indices = malloc(geom.results ? (size_t)geom.results * sizeof *d.indices : 1);
                if (!d.values || !d.indices) {
                    fprintf(stderr, "hipreduce-bench: %s: out of memory for the results\n", geom.label);
                    rc = 1;
                }
            }
            d.n = flat ? o->sizes[k] : geom.n;
            const uint64_t span = flat ? d.n : geom.span; /* a strided view's array holds more than it reads */
            if (rc == 0 && span > (UINT64_MAX - 255) / elem / MAX_COPIES / 2) {
                fprintf(stderr, "hipreduce-bench: n=%llu is too large\n", (unsigned long long)span);
                rc = 1;
            }
            d.bytes = d.n * elem;
            const uint64_t span_bytes = span * elem;
            d.stride = span_bytes ? (span_bytes + 255) / 256 * 256 : 256; /* ragged: all segments may be empty */
            const uint64_t want = (ROTATION_BYTES + d.stride - 1) / d.stride;
            d.copies = (int)(want < 2 ? 2 : want > MAX_COPIES ? MAX_COPIES : want);
            const uint64_t all = d.stride * (uint64_t)d.copies * (uint64_t)slabs;
            unsigned char* data = rc == 0 && all <= SIZE_MAX ? aligned_alloc(256, (size_t)all) : NULL;
            if (!data && rc == 0) {
                fprintf(stderr, "hipreduce-bench: cannot allocate %llu bytes (%d copies of n=%llu %s)\n",
                        (unsigned long long)all, d.copies * slabs, (unsigned long long)d.n,
                        hipreduce_dtype_name(d.dtype));
                rc = 1;
            }
            for (int c = 0; c < d.copies * slabs && rc == 0; ++c) {
                fill(d.dtype, data + (size_t)c * d.stride, span, 1234 + (uint64_t)c);
                memset(data + (size_t)c * d.stride + span_bytes, 0, (size_t)(d.stride - span_bytes));
            }
            d.data = data;
            for (int i = 0; i < o->n_ops && rc == 0; ++i) {
                d.op = (hipreduce_op)o->ops[i];
                for (int u = 0; u < o->n_outs; ++u) {
                    d.out = bench_out_dtype(d.dtype, o->outs[u]);
                    int dup = 0; /* "same" and the input dtype's own name both given */
                    for (int v = 0; v < u; ++v) dup |= bench_out_dtype(d.dtype, o->outs[v]) == d.out;
                    size_t probe = 0;
                    if (dup || bench_workspace_size(d.h, d.op, d.dtype, 1, d.out, &probe) ==
                                   HIPREDUCE_STATUS_OP_DTYPE_MISMATCH)
                        continue; /* not counted in total either */
                    fprintf(stderr, "\r[%zu/%zu] auto %s %s->%s n=%llu %s        ", ++done, total,
                            hipreduce_op_name(d.op), hipreduce_dtype_name(d.dtype), hipreduce_dtype_name(d.out),
                            (unsigned long long)d.n, flat ? "" : geom.label);
                    if (run_op(&d, o, r) < 0) {
                        rc = 1;
                        break;
                    }
                }
            }
            free(data);
            if (!flat) {
                free(d.values);
                free(d.indices);
                bench_geometry_free(&geom);
                d.geom = NULL;
            }
        }
    }
    fprintf(stderr, "\n");
    readers_stop();
    hipreduce_destroy(d.h);
    return rc;
}
