/* Failures on one rank (label mpi): every allocation that libhipreduce_mpi and libhipreduce make
 * during a collective call fails in turn on one rank, and every rank must return: the failing rank
 * its own status with a message, the others HIPREDUCE_STATUS_MPI_MISMATCH with a message, nothing
 * written anywhere; or, where the library has a fallback, every rank succeeds with the right bits.
 * The calls: reduce, argreduce, dot, axis, the fields call, weighted and ranged (_ext) and started
 * then waited on (_start, hipreduce_mpi_wait). A rank that hangs fails the test by its CTest
 * timeout. Then the statuses whose messages were once empty: ranks' lengths that add up past 64
 * bits, a rank's own local work failing after the ranks agreed.
 *
 * The failures are injected by this executable's own malloc and calloc, which take the place of
 * libc's in the whole process (ELF symbol interposition, no LD_PRELOAD) and pass every call to
 * glibc's allocator, except, while armed, the k-th call made from the text of libhipreduce_mpi or
 * libhipreduce: that one returns NULL. The sweep arms k = 1, 2, ... on the failing rank until a
 * call makes fewer than k allocations. Needs glibc and the plain allocator: exits 77 under a
 * sanitizer (which owns malloc) or another libc.
 *
 *   test_mpi_failures [quick] */
#define _GNU_SOURCE
#include <link.h>
#include <mpi.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hipreduce/hipreduce_mpi.h"
#include "mpi_check.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NO_INJECTION 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define NO_INJECTION 1
#endif
#endif
#if !defined(__GLIBC__)
#define NO_INJECTION 1
#endif

static int rank, ranks, failures, checks;

/* ---- the injection ------------------------------------------------------------------------- */

static atomic_long armed_at; /* 0: off; k: the k-th counted allocation fails */
static atomic_long counted;
static atomic_int fired;

#ifndef NO_INJECTION
enum { MAX_RANGES = 32 };
static uintptr_t range_lo[MAX_RANGES], range_hi[MAX_RANGES]; /* the libraries' loaded segments */
static int nranges;

extern void* __libc_malloc(size_t);
extern void* __libc_calloc(size_t, size_t);

static int from_libraries(uintptr_t caller)
{
    for (int i = 0; i < nranges; ++i)
        if (caller >= range_lo[i] && caller < range_hi[i]) return 1;
    return 0;
}

static int fail_this(void* caller)
{
    const long k = atomic_load(&armed_at);
    if (k == 0 || !from_libraries((uintptr_t)caller)) return 0;
    if (atomic_fetch_add(&counted, 1) + 1 != k) return 0;
    atomic_store(&fired, 1);
    return 1;
}

void* malloc(size_t bytes)
{
    if (fail_this(__builtin_return_address(0))) return NULL;
    return __libc_malloc(bytes);
}

void* calloc(size_t count, size_t bytes)
{
    if (fail_this(__builtin_return_address(0))) return NULL;
    return __libc_calloc(count, bytes);
}

/* The loaded segments of every object whose file name names one of the libraries. */
static int add_ranges(struct dl_phdr_info* info, size_t size, void* data)
{
    (void)size, (void)data;
    const char* name = info->dlpi_name ? info->dlpi_name : "";
    if (!strstr(name, "libhipreduce_mpi.") && !strstr(name, "libhipreduce.")) return 0;
    for (int i = 0; i < info->dlpi_phnum && nranges < MAX_RANGES; ++i)
        if (info->dlpi_phdr[i].p_type == PT_LOAD) {
            range_lo[nranges] = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
            range_hi[nranges] = range_lo[nranges] + info->dlpi_phdr[i].p_memsz;
            ++nranges;
        }
    return 0;
}
#endif

static void arm(long k)
{
    atomic_store(&counted, 0);
    atomic_store(&fired, 0);
    atomic_store(&armed_at, k);
}

static int disarm(void)
{
    atomic_store(&armed_at, 0);
    return atomic_load(&fired);
}

/* ---- the calls ------------------------------------------------------------------------------ */

typedef enum { CALL_REDUCE, CALL_ARGREDUCE, CALL_DOT, CALL_AXIS, CALL_FIELDS, CALL_FIELDS_EXT, CALL_STARTED } call_type;

typedef struct call_case {
    const char* name;
    call_type type;
    hipreduce_op op;
    hipreduce_dtype in, out;
    uint64_t outer, inner;
    uint64_t n[4]; /* the extents of ranks 0, 1, 2 and every later rank */
} call_case;

enum { SENTINEL = 0x5a };

static uint64_t extent_of(const call_case* c, int r) { return c->n[r < 3 ? r : 3]; }

/* This rank's input: doubles or floats with a spread of exponents, the same on every run. */
static void fill(const call_case* c, unsigned char* x, uint64_t count, uint64_t seed)
{
    for (uint64_t i = 0; i < count; ++i) {
        const double v = (double)((i * 2654435761u + seed * 40503u) % 20011) * 0.37 - 3700.0;
        if (c->in == HIPREDUCE_F64) memcpy(x + 8 * i, &v, 8);
        else {
            const float f = (float)v;
            memcpy(x + 4 * i, &f, 4);
        }
    }
}

/* One collective call of the case on handle h into values/indices. */
static hipreduce_status call(const call_case* c, hipreduce_handle h, const unsigned char* x, const unsigned char* y,
                             void* values, int64_t* indices)
{
    const uint64_t n = extent_of(c, rank);
    switch (c->type) {
    case CALL_REDUCE: return hipreduce_mpi_reduce(h, MPI_COMM_WORLD, c->op, c->in, x, n, c->out, values, HIPREDUCE_RESULT_HOST);
    case CALL_ARGREDUCE:
        return hipreduce_mpi_argreduce(h, MPI_COMM_WORLD, c->op, c->in, x, n, values, indices, HIPREDUCE_RESULT_HOST);
    case CALL_DOT: return hipreduce_mpi_dot_op(h, MPI_COMM_WORLD, c->op, c->in, x, y, n, c->out, values, HIPREDUCE_RESULT_HOST);
    case CALL_FIELDS: { /* outer fields at rows of x, backwards: pointers, not a block */
        const void* fields[8];
        const size_t es = hipreduce_dtype_size(c->in);
        for (uint64_t f = 0; f < c->outer && f < 8; ++f) fields[f] = x + (c->outer - 1 - f) * n * es;
        return hipreduce_mpi_reduce_fields(h, MPI_COMM_WORLD, c->op, c->in, c->outer, fields, n, c->out, values,
                                           HIPREDUCE_RESULT_HOST);
    }
    case CALL_FIELDS_EXT:
    case CALL_STARTED: { /* weights (the dot ops) at rows of y, ranges of one length, n - 1, at 0 or 1 */
        const void *fields[8], *weights[8];
        uint64_t ranges[16];
        const size_t es = hipreduce_dtype_size(c->in);
        for (uint64_t f = 0; f < c->outer && f < 8; ++f) {
            fields[f] = x + (c->outer - 1 - f) * n * es;
            weights[f] = y + f * n * es;
            ranges[2 * f] = n > 1 ? f % 2 : 0;
            ranges[2 * f + 1] = ranges[2 * f] + (n > 1 ? n - 1 : n);
        }
        const int dot = c->op == HIPREDUCE_OP_DOT || c->op == HIPREDUCE_OP_DOT_EXACT;
        if (c->type == CALL_FIELDS_EXT)
            return hipreduce_mpi_reduce_fields_ext(h, MPI_COMM_WORLD, c->op, c->in, c->outer, fields, dot ? weights : NULL,
                                                   ranges, n, c->out, values, HIPREDUCE_RESULT_HOST);
        hipreduce_mpi_request q = NULL;
        const hipreduce_status s = hipreduce_mpi_reduce_fields_start(h, MPI_COMM_WORLD, c->op, c->in, c->outer, fields,
                                                                     dot ? weights : NULL, ranges, n, c->out, values,
                                                                     HIPREDUCE_RESULT_HOST, &q);
        return s == HIPREDUCE_STATUS_SUCCESS ? hipreduce_mpi_wait(q) : s;
    }
    default:
        return hipreduce_mpi_reduce_axis(h, MPI_COMM_WORLD, c->op, c->in, x, c->outer, n, c->inner, c->out, values,
                                         HIPREDUCE_RESULT_HOST);
    }
}

/* Every allocation of one call failing in turn on rank `victim`. */
static void sweep(const call_case* c, int victim, long* calls)
{
    const size_t es = hipreduce_dtype_size(c->in), os = hipreduce_dtype_size(c->out);
    const uint64_t n = extent_of(c, rank), rows = c->outer * c->inner;
    const uint64_t results = c->type == CALL_AXIS || c->type >= CALL_FIELDS ? rows : 1;
    const uint64_t elements = results * n;
    unsigned char* x = (unsigned char*)malloc((size_t)(elements * es) + 1);
    unsigned char* y = (unsigned char*)malloc((size_t)(elements * es) + 1);
    fill(c, x, elements, (uint64_t)rank);
    fill(c, y, elements, (uint64_t)rank + 100);
    const size_t vbytes = (size_t)results * os;
    unsigned char* want = (unsigned char*)malloc(vbytes);
    unsigned char* got = (unsigned char*)malloc(vbytes);
    int64_t want_index = -2, got_index;
    hipreduce_handle h;
    if (hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0) != HIPREDUCE_STATUS_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 2);
    hipreduce_status s = call(c, h, x, y, want, &want_index);
    hipreduce_destroy(h);
    if (s != HIPREDUCE_STATUS_SUCCESS) {
        FAIL("%s: the call without injection failed: status %d (%s)", c->name, s, hipreduce_mpi_last_error_message());
        free(x), free(y), free(want), free(got);
        return;
    }
    for (long k = 1;; ++k) {
        /* a fresh handle, so that the core's first-call allocations (its workspace) count too */
        if (hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0) != HIPREDUCE_STATUS_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 2);
        memset(got, SENTINEL, vbytes);
        got_index = -7;
        if (rank == victim) arm(k);
        s = call(c, h, x, y, got, &got_index);
        const int hit = rank == victim ? disarm() : 0;
        char message[512];
        snprintf(message, sizeof message, "%s", hipreduce_mpi_last_error_message());
        hipreduce_destroy(h);
        ++*calls;
        /* every rank's status and the victim's injection, through MPI_COMM_WORLD (not injected) */
        int mine[2] = {(int)s, hit}, all[2 * 256];
        MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD);
        const hipreduce_status victim_status = (hipreduce_status)all[2 * victim];
        const int victim_hit = all[2 * victim + 1];
        ++checks;
        int unwritten = 1;
        for (size_t i = 0; i < vbytes; ++i) unwritten &= got[i] == SENTINEL;
        if (victim_status == HIPREDUCE_STATUS_SUCCESS) {
            /* no injection, or one the library falls back from: every rank has the bits */
            if (s != HIPREDUCE_STATUS_SUCCESS || memcmp(got, want, vbytes) != 0 ||
                (c->type == CALL_ARGREDUCE && got_index != want_index))
                FAIL("%s, allocation %ld on rank %d: the victim succeeded, this rank: status %d or other bits (%s)",
                     c->name, k, victim, s, message);
        } else {
            const hipreduce_status expect = rank == victim ? HIPREDUCE_STATUS_ALLOCATION_FAILED : HIPREDUCE_STATUS_MPI_MISMATCH;
            if (!victim_hit) FAIL("%s, allocation %ld on rank %d: status %d without an injection", c->name, k, victim, s);
            else if (s != expect || !unwritten || (c->type == CALL_ARGREDUCE && got_index != -7))
                FAIL("%s, allocation %ld on rank %d: status %d (expected %d) or a result written (%s)", c->name, k,
                     victim, s, expect, message);
            if (message[0] == '\0') FAIL("%s, allocation %ld on rank %d: status %d without a message", c->name, k, victim, s);
        }
        if (!victim_hit) { /* the call made fewer than k allocations on the victim */
            if (rank == 0 && victim == 0) printf("%s: %ld allocations on rank 0, each failed in turn\n", c->name, k - 1);
            break;
        }
    }
    free(x), free(y), free(want), free(got);
}

/* ---- the messages of statuses once left empty ------------------------------------------------- */

static void message_checks(void)
{
    /* lengths that are each valid but add up past 2^64 bytes: SIZE_OVERFLOW with a sentence */
    hipreduce_handle h;
    if (hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0) != HIPREDUCE_STATUS_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 2);
    unsigned char byte = 1, r = 42;
    if (ranks > 1) {
        const hipreduce_status s = hipreduce_mpi_reduce(h, MPI_COMM_WORLD, HIPREDUCE_OP_XOR, HIPREDUCE_U8, &byte,
                                                        1ull << 63, HIPREDUCE_U8, &r, HIPREDUCE_RESULT_HOST);
        ++checks;
        if (s != HIPREDUCE_STATUS_SIZE_OVERFLOW || r != 42 || hipreduce_mpi_last_error_message()[0] == '\0')
            FAIL("lengths past 2^64: status %d, message \"%s\"", s, hipreduce_mpi_last_error_message());
    }
    /* a rank's own local work failing after the agreement (a caller workspace of 8 bytes on the last
     * rank), in the associative mechanism and the tree: its status with a sentence there,
     * MPI_MISMATCH elsewhere. The tree's local calls need a workspace on the cpu device only where a
     * rank holds tile^2 elements of a level-1 tile (f64: 2048^2): its level-2 nodes come from rows
     * of tile^2. (The
     * exact sums take no workspace there; their local failures are the sweep's.) */
    static const struct {
        hipreduce_op op;
        hipreduce_dtype in;
        uint64_t n;
    } ops[] = {{HIPREDUCE_OP_SUM, HIPREDUCE_F64, 2048u * 2048u + 5},
               {HIPREDUCE_OP_MAX, HIPREDUCE_F64, 300000}};
    double* x = (double*)malloc(ops[0].n * sizeof *x);
    for (uint64_t i = 0; i < ops[0].n; ++i) x[i] = (double)(i % 1000) * 0.25;
    for (int o = 0; o < 2; ++o) {
        size_t bytes = 0;
        if (hipreduce_mpi_workspace_size(h, ops[o].op, ops[o].in, 1, ops[o].n, 1, ops[o].in, &bytes) !=
                HIPREDUCE_STATUS_SUCCESS || bytes <= 8) {
            FAIL("%s: workspace query failed or gave %zu bytes (nothing to shorten)", hipreduce_op_name(ops[o].op), bytes);
            continue;
        }
        void* ws = malloc(bytes);
        const int short_rank = rank == ranks - 1;
        const uint64_t n = short_rank ? ops[o].n : 0; /* the others empty: the last rank's slice starts at 0 */
        hipreduce_set_workspace(h, ws, short_rank ? 8 : bytes);
        double got = 42.0;
        const hipreduce_status s = hipreduce_mpi_reduce(h, MPI_COMM_WORLD, ops[o].op, ops[o].in, x, n, ops[o].in, &got,
                                                        HIPREDUCE_RESULT_HOST);
        hipreduce_set_workspace(h, NULL, 0);
        free(ws);
        ++checks;
        const hipreduce_status expect = short_rank ? HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL : HIPREDUCE_STATUS_MPI_MISMATCH;
        if (s != expect || got != 42.0 || hipreduce_mpi_last_error_message()[0] == '\0')
            FAIL("%s with a short workspace on rank %d: status %d (expected %d), message \"%s\"",
                 hipreduce_op_name(ops[o].op), ranks - 1, s, expect, hipreduce_mpi_last_error_message());
    }
    free(x);
    hipreduce_destroy(h);
}

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    const int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
#ifdef NO_INJECTION
    const char* why = "allocation injection needs glibc's plain allocator (no sanitizer)";
#else
    dl_iterate_phdr(add_ranges, NULL);
    const char* why = ranks > 256 ? "more than 256 ranks" : nranges == 0 ? "the libraries are linked statically" : NULL;
#endif
    if (why != NULL) {
        if (rank == 0) printf("%s: skipped\n", why);
        MPI_Finalize();
        return 77;
    }
    /* f32 tile 4096, f64 2048: the tree's levels, straddling tiles and an empty rank */
    static const call_case cases[] = {
        {"max f32", CALL_REDUCE, HIPREDUCE_OP_MAX, HIPREDUCE_F32, HIPREDUCE_F32, 1, 1, {5000, 0, 3, 17}},
        {"argmax f64", CALL_ARGREDUCE, HIPREDUCE_OP_ARGMAX, HIPREDUCE_F64, HIPREDUCE_F64, 1, 1, {70, 9000, 0, 5}},
        {"sum f32", CALL_REDUCE, HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F32, 1, 1, {4096 * 5 + 7, 100, 0, 4000}},
        {"sum f64 (three levels)", CALL_REDUCE, HIPREDUCE_OP_SUM, HIPREDUCE_F64, HIPREDUCE_F64, 1, 1,
         {2048u * 2048u + 2048 * 3 + 5, 11, 2050, 300}},
        {"dot f64", CALL_DOT, HIPREDUCE_OP_DOT, HIPREDUCE_F64, HIPREDUCE_F64, 1, 1, {3000, 1, 0, 2500}},
        {"sum axis f32 (rows)", CALL_AXIS, HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F32, 3, 1, {4100, 5, 4090, 0}},
        {"sum axis f32 (columns)", CALL_AXIS, HIPREDUCE_OP_SUM, HIPREDUCE_F32, HIPREDUCE_F32, 2, 300, {300, 13, 0, 250}},
        {"sum_exact f32", CALL_REDUCE, HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F32, HIPREDUCE_F32, 1, 1, {5000, 0, 7, 100}},
        {"sum_exact axis f64", CALL_AXIS, HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F64, HIPREDUCE_F64, 4, 3, {50, 0, 9, 1}},
        {"fields sum f64", CALL_FIELDS, HIPREDUCE_OP_SUM, HIPREDUCE_F64, HIPREDUCE_F64, 5, 1, {2048 * 2 + 9, 3, 0, 2000}},
        {"fields max f32", CALL_FIELDS, HIPREDUCE_OP_MAX, HIPREDUCE_F32, HIPREDUCE_F32, 3, 1, {5000, 0, 70, 1}},
        {"fields sum_exact f32", CALL_FIELDS, HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F32, HIPREDUCE_F64, 4, 1, {300, 9, 0, 40}},
        {"weighted fields dot f64 (ranges)", CALL_FIELDS_EXT, HIPREDUCE_OP_DOT, HIPREDUCE_F64, HIPREDUCE_F64, 3, 1,
         {2048 * 2 + 9, 3, 0, 2000}},
        {"fields max f32 (ranges)", CALL_FIELDS_EXT, HIPREDUCE_OP_MAX, HIPREDUCE_F32, HIPREDUCE_F32, 3, 1, {5000, 0, 70, 1}},
        {"started fields dot_exact f64", CALL_STARTED, HIPREDUCE_OP_DOT_EXACT, HIPREDUCE_F64, HIPREDUCE_F64, 3, 1,
         {300, 9, 0, 40}},
    };
    const int count = (int)(sizeof cases / sizeof cases[0]);
    long calls = 0;
    for (int c = 0; c < count; ++c) {
        if (quick && c == 3) continue; /* the 32 MiB rank */
        for (int victim = 0; victim < ranks; ++victim) sweep(&cases[c], victim, &calls);
    }
    message_checks();
    char what[64];
    snprintf(what, sizeof what, "mpi failures, %ld calls", calls);
    const int rc = mpi_report(what, failures, checks);
    MPI_Finalize();
    return rc;
}
