/* The cpu device's exact sums (cpu_exact.h): each result's terms into one superaccumulator
 * (device/exact.h), rounded once. The order does not matter (integer adds), so threads split a
 * slice anywhere and merge their accumulators. A slice's terms go in by blocks
 * (cpu_exact_blocks.h); this file gathers, widens and multiplies them into blocks, and runs the
 * calls' shapes on the executor's threads. */
#include "cpu_exact.h"

#include <stdatomic.h>
#include <string.h>

#include "cpu_exact_blocks.h"
#include "exact.h"
#include "half.h"
#include "rules.h"

enum {
    HR_EXACT_GRAIN = 1 << 16,   /* elements a thread takes at a time */
    HR_EXACT_GROUP = 16         /* results a thread takes at a time */
};

/* ---- terms into a contiguous buffer: gathered (strided), widened (f16, bf16) or products ---- */

HR_EXACT_INLINE double load_f64(const unsigned char* p)
{
    double v;
    memcpy(&v, p, sizeof v);
    return v;
}
HR_EXACT_INLINE double load_f32(const unsigned char* p)
{
    float v;
    memcpy(&v, p, sizeof v);
    return (double)v;
}
HR_EXACT_INLINE float load_f16(const unsigned char* p)
{
    uint16_t h;
    memcpy(&h, p, sizeof h);
    return hr_f16_to_f32(h);
}
HR_EXACT_INLINE float load_bf16(const unsigned char* p)
{
    uint16_t h;
    memcpy(&h, p, sizeof h);
    return hr_bf16_to_f32(h);
}

/* k terms of elements `step` bytes apart into buf as T: the values, or with y the products
 * (exact in f64). */
#define HR_EXACT_LOADER(NAME, T, LOAD)                                                                      \
    HR_EXACT_INLINE void NAME(T* buf, const unsigned char* x, const unsigned char* y, size_t step, size_t k) \
    {                                                                                                       \
        if (y)                                                                                              \
            for (size_t j = 0; j < k; ++j) buf[j] = (T)((double)LOAD(x + j * step) * (double)LOAD(y + j * step)); \
        else                                                                                                \
            for (size_t j = 0; j < k; ++j) buf[j] = (T)LOAD(x + j * step);                                  \
    }
HR_EXACT_LOADER(gather_f64, double, load_f64)
HR_EXACT_LOADER(gather_f32, float, load_f32)
HR_EXACT_LOADER(gather_f16, float, load_f16)
HR_EXACT_LOADER(gather_bf16, float, load_bf16)
HR_EXACT_LOADER(products_f32, double, load_f32)
HR_EXACT_LOADER(products_f16, double, load_f16)
HR_EXACT_LOADER(products_bf16, double, load_bf16)

/* f64 x f64: the 106-bit product of the significands, exactly. */
HR_EXACT_INLINE void mul_64(uint64_t a, uint64_t b, uint64_t* hi, uint64_t* lo)
{
#ifdef __SIZEOF_INT128__
    const unsigned __int128 p = (unsigned __int128)a * b;
    *hi = (uint64_t)(p >> 64);
    *lo = (uint64_t)p;
#else
    const uint64_t a0 = a & 0xffffffff, a1 = a >> 32, b0 = b & 0xffffffff, b1 = b >> 32;
    const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const uint64_t mid = (p00 >> 32) + (p01 & 0xffffffff) + (p10 & 0xffffffff);
    *lo = (mid << 32) | (p00 & 0xffffffff);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

/* One f64 product x * y, taken exactly (the header's rules for dot_exact's terms). */
static void add_f64_product(hr_exact* a, uint64_t bx, uint64_t by)
{
    const int ex = (int)((bx >> 52) & 0x7ff), ey = (int)((by >> 52) & 0x7ff);
    const uint64_t fx = bx & 0xfffffffffffffull, fy = by & 0xfffffffffffffull;
    const int neg = (int)((bx ^ by) >> 63);
    const int zx = ex == 0 && fx == 0, zy = ey == 0 && fy == 0;
    if (ex == 0x7ff || ey == 0x7ff) {
        a->flags |= HR_EXACT_NONNEG;
        if ((ex == 0x7ff && fx) || (ey == 0x7ff && fy) || zx || zy) a->flags |= HR_EXACT_NAN; /* NaN, inf * 0 */
        else a->flags |= neg ? HR_EXACT_NINF : HR_EXACT_PINF;
        return;
    }
    if (zx || zy) { /* a zero product: -0.0 when the signs differ */
        a->flags |= neg ? HR_EXACT_NEGZERO : HR_EXACT_NONNEG;
        return;
    }
    a->flags |= HR_EXACT_NONNEG;
    uint64_t hi, lo;
    mul_64(ex ? fx | (1ull << 52) : fx, ey ? fy | (1ull << 52) : fy, &hi, &lo);
    const int q = (ex ? ex : 1) + (ey ? ey : 1) - 2150; /* 2^(ex - 1075) * 2^(ey - 1075) */
    hr_exact_add(a, neg, lo, q);
    hr_exact_add(a, neg, hi, q + 64);
}

/* Adds count elements of dtype at x, `step` bytes apart (and dot's y, or NULL), into a. */
HR_EXACT_INLINE void add_range_body(hr_exact* a, int dtype, const unsigned char* x, const unsigned char* y,
                                    size_t step, uint64_t count)
{
    if (y && dtype == HIPREDUCE_F64) {
        for (uint64_t j = 0; j < count; ++j) {
            uint64_t bx, by;
            memcpy(&bx, x + j * step, sizeof bx);
            memcpy(&by, y + j * step, sizeof by);
            add_f64_product(a, bx, by);
        }
        return;
    }
    const size_t elem = (size_t)hr_dtype_bytes(dtype);
    const int direct = !y && step == elem && (dtype == HIPREDUCE_F32 || dtype == HIPREDUCE_F64);
    double buf[HR_EXACT_BLOCK]; /* f64 terms, or f32 ones in its first half */
    uint32_t guess = 0;         /* block_f32's or block_f64's window, from block to block */
    for (uint64_t j = 0; j < count; j += HR_EXACT_BLOCK) {
        const size_t k = (size_t)(count - j < HR_EXACT_BLOCK ? count - j : HR_EXACT_BLOCK);
        const unsigned char* xb = x + j * step;
        const unsigned char* yb = y ? y + j * step : NULL;
        if (direct && dtype == HIPREDUCE_F32) block_f32(a, xb, k, &guess);
        else if (direct) block_f64(a, xb, k, &guess);
        else if (y) { /* products: exact in f64; dot's inputs are contiguous (a constant step vectorises) */
            if (dtype == HIPREDUCE_F32) products_f32(buf, xb, yb, 4, k);
            else if (dtype == HIPREDUCE_F16) products_f16(buf, xb, yb, 2, k);
            else products_bf16(buf, xb, yb, 2, k);
            block_f64(a, (const unsigned char*)buf, k, &guess);
        } else if (dtype == HIPREDUCE_F64) {
            gather_f64(buf, xb, NULL, step, k);
            block_f64(a, (const unsigned char*)buf, k, &guess);
        } else {
            float* f = (float*)(void*)buf;
            if (dtype == HIPREDUCE_F32) gather_f32(f, xb, NULL, step, k);
            else if (dtype == HIPREDUCE_F16 && step == 2) gather_f16(f, xb, NULL, 2, k);
            else if (dtype == HIPREDUCE_F16) gather_f16(f, xb, NULL, step, k);
            else if (step == 2) gather_bf16(f, xb, NULL, 2, k);
            else gather_bf16(f, xb, NULL, step, k);
            block_f32(a, (const unsigned char*)f, k, &guess);
        }
    }
}

/* The same code twice: for the build's baseline and, chosen at run time, for AVX2. */
static void add_range_baseline(hr_exact* a, int dtype, const unsigned char* x, const unsigned char* y, size_t step,
                               uint64_t count)
{
    add_range_body(a, dtype, x, y, step, count);
}
#if HR_CPU_X86_VARIANTS
__attribute__((target("avx2"))) static void add_range_avx2(hr_exact* a, int dtype, const unsigned char* x,
                                                           const unsigned char* y, size_t step, uint64_t count)
{
    add_range_body(a, dtype, x, y, step, count);
}
#endif

typedef void (*add_range_fn)(hr_exact*, int, const unsigned char*, const unsigned char*, size_t, uint64_t);

static add_range_fn add_range_best(void)
{
#if HR_CPU_X86_VARIANTS
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) return add_range_avx2;
#endif
    return add_range_baseline;
}

/* ---- calls ---- */

int hr_cpu_is_exact(const hr_call* call) { return hr_op_combine(call->op) == HR_CB_EXACT; }

typedef struct exact_call {
    const hr_call* call;
    add_range_fn add;
    size_t elem, out_bytes;
} exact_call;

/* Rounds a (normalised or not) into result r of the call, or stores it as words. */
static void store(const exact_call* c, hr_exact* a, uint64_t r)
{
    const hr_call* call = c->call;
    if (call->accumulators) {
        const int words = hr_exact_words(call->op, call->in_dtype);
        hr_exact_to_words(a, call->op, call->in_dtype, (int64_t*)call->result + r * (uint64_t)words);
        return;
    }
    hr_exact_store(hr_exact_round(a, call->out_dtype), call->out_dtype, (unsigned char*)call->result + r * c->out_bytes);
}

/* Result r's elements: the first one, their count, and the bytes between two of them. */
static void slice_of(const hr_call* call, uint64_t r, size_t elem, uint64_t* first, uint64_t* count, size_t* step)
{
    *step = elem;
    if (call->shape == HR_SHAPE_SEGMENTS) { /* inner components a segment (device/call.h) */
        const uint64_t s = r / call->inner;
        *first = call->offsets[s] * call->inner + r % call->inner;
        *count = call->offsets[s + 1] - call->offsets[s];
        *step = elem * (size_t)call->inner;
    } else if (call->inner == 1) { /* a full call is the row of (1, n, 1) */
        *first = r * call->extent;
        *count = call->extent;
    } else { /* result (o, i) of [outer][extent][inner] */
        const uint64_t o = r / call->inner, i = r % call->inner;
        *first = o * call->extent * call->inner + i;
        *count = call->extent;
        *step = elem * (size_t)call->inner;
    }
}

static void add_slice(const exact_call* c, hr_exact* a, uint64_t first, uint64_t count, size_t step)
{
    const unsigned char* x = (const unsigned char*)c->call->x + first * c->elem;
    const unsigned char* y = c->call->y ? (const unsigned char*)c->call->y + first * c->elem : NULL;
    c->add(a, c->call->in_dtype, x, y, step, count);
}

/* One long slice on several threads: each sums the pieces it claims into its own accumulator,
 * then adds that into the shared one under a lock (integer adds: the order cannot show). */
typedef struct long_job {
    const exact_call* c;
    uint64_t first, count;
    size_t step; /* bytes from one element to the next (a complex view's segments: 2 elements) */
    atomic_uint_fast64_t next; /* the first piece no thread has taken */
    atomic_flag lock;
    hr_exact* sum;
} long_job;

static void run_long(void* ctx, unsigned worker)
{
    long_job* job = (long_job*)ctx;
    (void)worker;
    hr_exact own;
    hr_exact_init(&own);
    const uint64_t pieces = job->count / HR_EXACT_GRAIN + (job->count % HR_EXACT_GRAIN != 0);
    uint64_t p0, p1;
    while (hr_cpu_claim(&job->next, pieces, 1, &p0, &p1)) {
        const uint64_t f = p0 * HR_EXACT_GRAIN, k = job->count - f < HR_EXACT_GRAIN ? job->count - f : HR_EXACT_GRAIN;
        add_slice(job->c, &own, job->first + f * (job->step / job->c->elem), k, job->step);
    }
    hr_exact_normalize(&own);
    while (atomic_flag_test_and_set_explicit(&job->lock, memory_order_acquire)) {
    }
    hr_exact_merge(job->sum, &own);
    atomic_flag_clear_explicit(&job->lock, memory_order_release);
}

/* Results one thread each, claimed in groups. */
typedef struct short_job {
    const exact_call* c;
    uint64_t results;
    int skip_long; /* leave contiguous slices longer than a grain to run_long */
    atomic_uint_fast64_t next;
} short_job;

static void run_short(void* ctx, unsigned worker)
{
    short_job* job = (short_job*)ctx;
    (void)worker;
    hr_exact a;
    uint64_t r0, r1;
    while (hr_cpu_claim(&job->next, job->results, HR_EXACT_GROUP, &r0, &r1))
        for (uint64_t r = r0; r < r1; ++r) {
            uint64_t first, count;
            size_t step;
            slice_of(job->c->call, r, job->c->elem, &first, &count, &step);
            if (job->skip_long && count > HR_EXACT_GRAIN) continue;
            hr_exact_init(&a);
            add_slice(job->c, &a, first, count, step);
            store(job->c, &a, r);
        }
}

hipreduce_status hr_cpu_run_exact(hr_cpu* cpu, const hr_call* call)
{
    static _Atomic(add_range_fn) best; /* the same answer on every thread: a benign race */
    add_range_fn add = atomic_load_explicit(&best, memory_order_relaxed);
    if (add == NULL) {
        add = add_range_best();
        atomic_store_explicit(&best, add, memory_order_relaxed);
    }
    const exact_call c = {call, add, (size_t)hr_dtype_bytes(call->in_dtype), (size_t)hr_dtype_bytes(call->out_dtype)};
    const uint64_t results = hr_call_results(call);
    if (results == 0) return HIPREDUCE_STATUS_SUCCESS;
    const int strided = call->shape == HR_SHAPE_AXIS && call->inner > 1;
    /* Every result of a grain or less (all of them when strided: their elements are far apart)
     * in groups on the pool; the work estimate counts 16 KiB tiles, as level 0 does. */
    const uint64_t work = strided ? call->n * c.elem / 16384 : results;
    short_job shorts = {&c, results, !strided, 0};
    atomic_init(&shorts.next, 0);
    if (results > 1 || strided) hr_cpu_parallel(cpu, work, run_short, &shorts);
    if (strided) return HIPREDUCE_STATUS_SUCCESS;
    for (uint64_t r = 0; r < results; ++r) {
        uint64_t first, count;
        size_t step;
        slice_of(call, r, c.elem, &first, &count, &step);
        if (results > 1 && count <= HR_EXACT_GRAIN) continue; /* done above */
        hr_exact sum;
        hr_exact_init(&sum);
        long_job job = {&c, first, count, step, 0, ATOMIC_FLAG_INIT, &sum};
        atomic_init(&job.next, 0);
        hr_cpu_parallel(cpu, count * c.elem / 16384, run_long, &job);
        store(&c, &sum, r);
    }
    return HIPREDUCE_STATUS_SUCCESS;
}
