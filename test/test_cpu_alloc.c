/* cpu_alloc: the cpu device allocates nothing per call once its workspace is large enough, and
 * uses the caller's host workspace when one is set.
 *
 * This executable defines malloc, calloc, realloc and free (glibc's own functions underneath),
 * so every allocation the library makes is counted while `counting` is set. Skipped (77) where
 * that cannot work: not glibc, or under ASan/TSan, which replace the allocator themselves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hipreduce/hipreduce.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define HR_ALLOCATOR_REPLACED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define HR_ALLOCATOR_REPLACED 1
#endif

#if defined(__GLIBC__) && !defined(HR_ALLOCATOR_REPLACED)
#include <stdatomic.h>

extern void* __libc_malloc(size_t size);
extern void* __libc_calloc(size_t count, size_t size);
extern void* __libc_realloc(void* p, size_t size);
extern void __libc_free(void* p);

static atomic_int counting;
static atomic_long allocations;

void* malloc(size_t size)
{
    if (atomic_load(&counting)) atomic_fetch_add(&allocations, 1);
    return __libc_malloc(size);
}
void* calloc(size_t count, size_t size)
{
    if (atomic_load(&counting)) atomic_fetch_add(&allocations, 1);
    return __libc_calloc(count, size);
}
void* realloc(void* p, size_t size)
{
    if (atomic_load(&counting)) atomic_fetch_add(&allocations, 1);
    return __libc_realloc(p, size);
}
void free(void* p) { __libc_free(p); }

static int fails;
#define EXPECT(cond)                                                                              \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);                   \
            ++fails;                                                                              \
        }                                                                                         \
    } while (0)

/* The calls each pass makes: single elements, one tile, a few tiles, and enough tiles that
 * the default thread count (the available cores) shares them. */
typedef struct call {
    hipreduce_op op;
    hipreduce_dtype dtype;
    uint64_t n;
} call;
static const call calls[] = {
    {HIPREDUCE_OP_SUM, HIPREDUCE_F32, 1},          {HIPREDUCE_OP_SUM, HIPREDUCE_F32, 4096},
    {HIPREDUCE_OP_SUM, HIPREDUCE_F32, 4097},       {HIPREDUCE_OP_MAX, HIPREDUCE_I8, 1},
    {HIPREDUCE_OP_PROD, HIPREDUCE_F64, 10003},     {HIPREDUCE_OP_XOR, HIPREDUCE_I8, 1000003},
    {HIPREDUCE_OP_MIN, HIPREDUCE_F32, 1 << 21},    {HIPREDUCE_OP_SUM, HIPREDUCE_F64, 3000001},
    {HIPREDUCE_OP_SUM, HIPREDUCE_U16, 7},
};
enum { N_CALLS = sizeof calls / sizeof calls[0] };

static unsigned char* input;

/* Runs calls [first, last) with allocations counted; returns how many there were. */
static long counted_calls(hipreduce_handle h, int first, int last, int* failed)
{
    unsigned char result[16];
    atomic_store(&allocations, 0);
    atomic_store(&counting, 1);
    for (int i = first; i < last; ++i)
        *failed += hipreduce_reduce(h, calls[i].op, calls[i].dtype, input, calls[i].n, calls[i].dtype, result,
                                    HIPREDUCE_RESULT_HOST) != HIPREDUCE_STATUS_SUCCESS;
    atomic_store(&counting, 0);
    return atomic_load(&allocations);
}

int main(void)
{
    input = (unsigned char*)__libc_calloc(3000001, 8);
    if (!input) return 1;
    for (size_t i = 0; i < (size_t)3000001 * 8; ++i) input[i] = (unsigned char)(i * 37 + 11);

    /* The size query: 0 for one tile, one accumulator per tile beyond that. */
    hipreduce_handle h = NULL;
    EXPECT(hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0) == HIPREDUCE_STATUS_SUCCESS);
    if (!h) return 1;
    size_t bytes = 99, largest = 0;
    EXPECT(hipreduce_workspace_size(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, 4096, HIPREDUCE_F32, &bytes) == 0 && bytes == 0);
    EXPECT(hipreduce_workspace_size(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, 4097, HIPREDUCE_F32, &bytes) == 0 && bytes == 2 * 4);
    EXPECT(hipreduce_workspace_size(h, HIPREDUCE_OP_SUM, HIPREDUCE_I8, 16385, HIPREDUCE_I8, &bytes) == 0 && bytes == 2 * 4);
    EXPECT(hipreduce_workspace_size(h, HIPREDUCE_OP_MIN, HIPREDUCE_F64, 2049, HIPREDUCE_F64, &bytes) == 0 && bytes == 2 * 8);
    for (int i = 0; i < N_CALLS; ++i) {
        EXPECT(hipreduce_workspace_size(h, calls[i].op, calls[i].dtype, calls[i].n, calls[i].dtype, &bytes) == 0);
        if (bytes > largest) largest = bytes;
    }

    /* The handle's own workspace: the first pass may allocate (workspace growth, the pool's
     * threads), the second must not. */
    int failed = 0;
    const long first = counted_calls(h, 0, N_CALLS, &failed);
    const long second = counted_calls(h, 0, N_CALLS, &failed);
    const long third = counted_calls(h, 0, N_CALLS, &failed);
    printf("own workspace: %ld allocations in the first pass, %ld and %ld in the next two (%d calls each)\n", first,
           second, third, N_CALLS);
    EXPECT(failed == 0);
    EXPECT(second == 0 && third == 0);
    hipreduce_destroy(h);

    /* A caller workspace: no call allocates, not even the first ones; only the first call that
     * shares its tiles with other threads may (it starts them). Calls before it stay on the
     * calling thread. */
    h = NULL;
    EXPECT(hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0) == HIPREDUCE_STATUS_SUCCESS);
    if (!h) return 1;
    unsigned char* ws = (unsigned char*)__libc_malloc(largest + 1);
    EXPECT(hipreduce_set_workspace(h, ws + 1, largest) == HIPREDUCE_STATUS_SUCCESS); /* any alignment */
    failed = 0;
    const long before_pool = counted_calls(h, 0, 5, &failed);
    const long pool_start = counted_calls(h, 5, N_CALLS, &failed);
    const long after = counted_calls(h, 0, N_CALLS, &failed) + counted_calls(h, 0, N_CALLS, &failed);
    printf("caller workspace: %ld allocations in the first 5 calls, %ld in the next %d (threads start), %ld in "
           "two more passes\n", before_pool, pool_start, N_CALLS - 5, after);
    EXPECT(failed == 0);
    EXPECT(before_pool == 0 && after == 0);

    /* Too small: WORKSPACE_TOO_SMALL and nothing written; enough for calls that need less. */
    unsigned char result[8];
    memset(result, 0xA5, sizeof result);
    EXPECT(hipreduce_set_workspace(h, ws, 7) == HIPREDUCE_STATUS_SUCCESS);
    EXPECT(hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, input, 4097, HIPREDUCE_F32, result, 0) ==
           HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL);
    EXPECT(result[0] == 0xA5 && result[3] == 0xA5);
    EXPECT(hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, input, 4096, HIPREDUCE_F32, result, 0) == HIPREDUCE_STATUS_SUCCESS);
    EXPECT(hipreduce_set_workspace(h, ws, 0) == HIPREDUCE_STATUS_SUCCESS);
    EXPECT(hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_I8, input, 16385, HIPREDUCE_I8, result, 0) ==
           HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL);
    EXPECT(hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_I8, input, 1, HIPREDUCE_I8, result, 0) == HIPREDUCE_STATUS_SUCCESS);
    /* NULL, 0: back to the handle's own workspace, which grows again. */
    EXPECT(hipreduce_set_workspace(h, NULL, 0) == HIPREDUCE_STATUS_SUCCESS);
    EXPECT(hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, input, 4097, HIPREDUCE_F32, result, 0) == HIPREDUCE_STATUS_SUCCESS);
    hipreduce_destroy(h);
    __libc_free(ws);
    __libc_free(input);
    printf("cpu_alloc: %d failures\n", fails);
    return fails ? 1 : 0;
}

#else
int main(void)
{
    printf("cpu_alloc: skipped (needs glibc's allocator, not a sanitizer's)\n");
    return 77;
}
#endif
