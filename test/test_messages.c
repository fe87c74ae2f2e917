/* Errors that explain (label api, cpu device): every status a call can return has its own status
 * string, every failure on a handle leaves a sentence that names the argument and what would be
 * accepted, a success clears it, and a second host thread meeting a handle in use gets
 * HANDLE_BUSY at once with nothing written. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hipreduce/hipreduce_study.h>

static int fails;

#define EXPECT(cond)                                                          \
    do {                                                                      \
        if (!(cond)) {                                                        \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);            \
            ++fails;                                                          \
        }                                                                     \
    } while (0)

/* The call's status is want, its message contains every word of `words` ('|'-separated), and the
 * result bytes are untouched. */
static void expect_message(hipreduce_handle h, hipreduce_status got, hipreduce_status want, const char* words,
                           const char* what)
{
    const char* m = hipreduce_last_error_message(h);
    int ok = got == want && m[0] != '\0';
    char list[256];
    snprintf(list, sizeof list, "%s", words);
    for (char* w = strtok(list, "|"); ok && w; w = strtok(NULL, "|")) ok = strstr(m, w) != NULL;
    if (!ok) {
        printf("FAIL %s: status %s (want %s), message \"%s\", want the words \"%s\"\n", what,
               hipreduce_status_string(got), hipreduce_status_string(want), m, words);
        ++fails;
    } else {
        printf("ok   %-34s %s\n", what, m);
    }
}

typedef struct busy_run {
    hipreduce_handle h;
    const float* x;
    uint64_t n;
    atomic_int started, stop;
} busy_run;

static void* long_calls(void* arg)
{
    busy_run* r = (busy_run*)arg;
    float sum;
    while (!atomic_load(&r->stop)) {
        const hipreduce_status st =
            hipreduce_reduce(r->h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, r->x, r->n, HIPREDUCE_F32, &sum, HIPREDUCE_RESULT_HOST);
        if (st == HIPREDUCE_STATUS_SUCCESS) atomic_store(&r->started, 1);
    }
    return NULL;
}

int main(void)
{
    /* Every status value has a sentence of its own. */
    for (int s = 0; s <= HIPREDUCE_STATUS_INVALID_AXES; ++s) {
        const char* t = hipreduce_status_string((hipreduce_status)s);
        EXPECT(t != NULL && strcmp(t, "unknown status") != 0 && t[0] != '\0');
        for (int u = 0; u < s; ++u) EXPECT(strcmp(t, hipreduce_status_string((hipreduce_status)u)) != 0);
    }

    hipreduce_handle h;
    EXPECT(hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0) == HIPREDUCE_STATUS_SUCCESS);
    const float x[4] = {1, 2, 3, 4};
    unsigned char out[16];
    int64_t index = 7;
    memset(out, 0xab, sizeof out);
    const unsigned char* sentinel = out;

    /* The two sentences the first-hour report asked for, word for word. */
    hipreduce_status st = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, 4, HIPREDUCE_I64, out, HIPREDUCE_RESULT_HOST);
    EXPECT(strcmp(hipreduce_last_error_message(h), "sum of f32: result dtype i64 not allowed, use f32 or f64") == 0);
    expect_message(h, st, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, "i64|f32 or f64", "f32 sum into i64");
    st = hipreduce_reduce(h, HIPREDUCE_OP_ARGMAX, HIPREDUCE_F32, x, 4, HIPREDUCE_F32, out, HIPREDUCE_RESULT_HOST);
    EXPECT(strcmp(hipreduce_last_error_message(h), "argmax is an argreduce op: call hipreduce_argreduce") == 0);
    expect_message(h, st, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, "hipreduce_argreduce", "argmax to hipreduce_reduce");

    st = hipreduce_argreduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, 4, out, &index, HIPREDUCE_RESULT_HOST);
    expect_message(h, st, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, "argmin or argmax|hipreduce_reduce", "sum to argreduce");
    st = hipreduce_reduce(h, HIPREDUCE_OP_DOT, HIPREDUCE_F32, x, 4, HIPREDUCE_F32, out, HIPREDUCE_RESULT_HOST);
    expect_message(h, st, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, "hipreduce_dot", "dot to hipreduce_reduce");
    st = hipreduce_reduce(h, HIPREDUCE_OP_XOR, HIPREDUCE_F32, x, 4, HIPREDUCE_F32, out, HIPREDUCE_RESULT_HOST);
    expect_message(h, st, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, "xor|f32|i8", "xor of f32");
    st = hipreduce_reduce(h, (hipreduce_op)99, HIPREDUCE_F32, x, 4, HIPREDUCE_F32, out, HIPREDUCE_RESULT_HOST);
    expect_message(h, st, HIPREDUCE_STATUS_INVALID_OP, "op 99", "op 99");
    st = hipreduce_reduce(h, HIPREDUCE_OP_SUM, (hipreduce_dtype)42, x, 4, HIPREDUCE_F32, out, HIPREDUCE_RESULT_HOST);
    expect_message(h, st, HIPREDUCE_STATUS_INVALID_DTYPE, "in_dtype 42", "in_dtype 42");
    st = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, 4, (hipreduce_dtype)-1, out, HIPREDUCE_RESULT_HOST);
    expect_message(h, st, HIPREDUCE_STATUS_INVALID_DTYPE, "out_dtype -1", "out_dtype -1");
    st = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, 4, HIPREDUCE_F32, out, HIPREDUCE_RESULT_DEVICE);
    expect_message(h, st, HIPREDUCE_STATUS_INVALID_LOCATION, "GPU handle|HIPREDUCE_RESULT_HOST", "device result on cpu");
    st = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, 4, HIPREDUCE_F32, out, (hipreduce_location)5);
    expect_message(h, st, HIPREDUCE_STATUS_INVALID_LOCATION, "location 5", "location 5");
    st = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, NULL, 4, HIPREDUCE_F32, out, HIPREDUCE_RESULT_HOST);
    expect_message(h, st, HIPREDUCE_STATUS_INVALID_POINTER, "input is NULL|4", "NULL input");
    st = hipreduce_argreduce(h, HIPREDUCE_OP_ARGMAX, HIPREDUCE_F32, x, 4, out, NULL, HIPREDUCE_RESULT_HOST);
    expect_message(h, st, HIPREDUCE_STATUS_INVALID_POINTER, "index is NULL", "NULL index");
    st = hipreduce_dot(h, HIPREDUCE_F32, x, NULL, 4, HIPREDUCE_F32, out, HIPREDUCE_RESULT_HOST);
    expect_message(h, st, HIPREDUCE_STATUS_INVALID_POINTER, "y is NULL", "NULL y");
    st = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, UINT64_MAX / 2, HIPREDUCE_F32, out, HIPREDUCE_RESULT_HOST);
    expect_message(h, st, HIPREDUCE_STATUS_SIZE_OVERFLOW, "n = |f32|overflow", "n overflow");
    st = hipreduce_reduce_axis(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, UINT64_MAX, 2, 2, HIPREDUCE_F32, out, HIPREDUCE_RESULT_HOST);
    expect_message(h, st, HIPREDUCE_STATUS_SIZE_OVERFLOW, "outer|extent|inner", "axis overflow");
    const uint64_t bad_offsets[3] = {0, 3, 2};
    st = hipreduce_reduce_segments(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, 2, bad_offsets, HIPREDUCE_F32, out, HIPREDUCE_RESULT_HOST);
    expect_message(h, st, HIPREDUCE_STATUS_INVALID_OFFSETS, "segment 1|offsets[1] = 3|offsets[2] = 2", "decreasing offsets");
    size_t bytes = 0;
    st = hipreduce_workspace_size(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, 4, HIPREDUCE_F32, NULL);
    expect_message(h, st, HIPREDUCE_STATUS_INVALID_POINTER, "bytes is NULL", "NULL bytes");
    st = hipreduce_set_algorithm(h, (hipreduce_algorithm)77);
    expect_message(h, st, HIPREDUCE_STATUS_INVALID_ALGORITHM, "algorithm 77", "algorithm 77");
    st = hipreduce_set_block_size(h, 48);
    expect_message(h, st, HIPREDUCE_STATUS_INVALID_BLOCK_SIZE, "48|power of two", "block size 48");
    st = hipreduce_set_workspace(h, NULL, 64);
    expect_message(h, st, HIPREDUCE_STATUS_INVALID_POINTER, "workspace is NULL", "NULL workspace");

    /* A caller workspace too small for the call. */
    enum { BIG = 1 << 20 };
    float* big = (float*)calloc(BIG, sizeof *big);
    EXPECT(hipreduce_workspace_size(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, BIG, HIPREDUCE_F32, &bytes) == 0 && bytes > 1);
    unsigned char small[1];
    EXPECT(hipreduce_set_workspace(h, small, 1) == HIPREDUCE_STATUS_SUCCESS);
    st = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, big, BIG, HIPREDUCE_F32, out, HIPREDUCE_RESULT_HOST);
    expect_message(h, st, HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL, "workspace|smaller", "workspace too small");
    EXPECT(hipreduce_set_workspace(h, NULL, 0) == HIPREDUCE_STATUS_SUCCESS);
    for (size_t i = 0; i < sizeof out; ++i) EXPECT(out[i] == 0xab && sentinel == out); /* nothing written */
    EXPECT(index == 7);

    /* A success clears the message. */
    EXPECT(hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, 4, HIPREDUCE_F32, out, HIPREDUCE_RESULT_HOST) == 0);
    EXPECT(hipreduce_last_error_message(h)[0] == '\0');
    EXPECT(hipreduce_last_error_message(NULL)[0] == '\0');

    /* Creation: an unknown kind and, on any build, a GPU ordinal past the count name their cause. */
    hipreduce_handle other = NULL;
    EXPECT(hipreduce_create(&other, (hipreduce_device_kind)9, 0) == HIPREDUCE_STATUS_INVALID_DEVICE);
    EXPECT(strstr(hipreduce_create_error_message(), "kind 9") != NULL);
    EXPECT(hipreduce_create(&other, HIPREDUCE_DEVICE_GPU, 1000) == HIPREDUCE_STATUS_INVALID_DEVICE && other == NULL);
    printf("ok   %-34s %s\n", "GPU 1000", hipreduce_create_error_message());
    EXPECT(hipreduce_create_error_message()[0] != '\0');

    /* NOT_SUPPORTED: a study algorithm on a typed reduction, where there is a GPU. */
    int gpus = 0;
    hipreduce_get_device_count(&gpus);
    if (gpus > 0) {
        hipreduce_handle g;
        EXPECT(hipreduce_create(&g, HIPREDUCE_DEVICE_GPU, 0) == HIPREDUCE_STATUS_SUCCESS);
        EXPECT(hipreduce_set_algorithm(g, HIPREDUCE_ALGORITHM_HARRIS_REDUCE3) == HIPREDUCE_STATUS_SUCCESS);
        st = hipreduce_workspace_size(g, HIPREDUCE_OP_SUM, HIPREDUCE_I8, 4, HIPREDUCE_I64, &bytes);
        expect_message(g, st, HIPREDUCE_STATUS_NOT_SUPPORTED, "harris|HIPREDUCE_ALGORITHM_AUTO", "study algorithm, i8 -> i64");
        EXPECT(hipreduce_destroy(g) == HIPREDUCE_STATUS_SUCCESS);
    } else {
        printf("--   NOT_SUPPORTED (a GPU handle's): no GPU here, not checked\n");
    }

    /* HANDLE_BUSY: another thread runs long calls on h; this one keeps calling until it meets one
     * (at most 10^7 tries: each call either finds the handle free and succeeds, or is busy). */
    EXPECT(hipreduce_set_threads(h, 1) == HIPREDUCE_STATUS_SUCCESS);
    busy_run run = {h, big, BIG, 0, 0};
    pthread_t worker;
    EXPECT(pthread_create(&worker, NULL, long_calls, &run) == 0);
    while (!atomic_load(&run.started)) sched_yield();
    int busy = 0, tries = 0;
    while (!busy && tries < 10000000) {
        memset(out, 0xab, sizeof out);
        st = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, 4, HIPREDUCE_F32, out, HIPREDUCE_RESULT_HOST);
        if (st == HIPREDUCE_STATUS_HANDLE_BUSY) {
            busy = 1;
            for (size_t i = 0; i < sizeof out; ++i) EXPECT(out[i] == 0xab); /* nothing written */
        } else {
            EXPECT(st == HIPREDUCE_STATUS_SUCCESS);
        }
        ++tries;
    }
    atomic_store(&run.stop, 1);
    pthread_join(worker, NULL);
    printf("%s   HANDLE_BUSY met after %d calls\n", busy ? "ok" : "FAIL", tries);
    fails += !busy;
    EXPECT(hipreduce_destroy(h) == HIPREDUCE_STATUS_SUCCESS);
    free(big);
    printf("%s: %d failures\n", fails ? "FAILED" : "passed", fails);
    return fails != 0;
}
