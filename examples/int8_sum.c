/* Sums of int8 data without overflow: into i64 (exact), and into i8 (wraps modulo 256, as C's
 * unsigned arithmetic would). Runs on GPU 0 where there is one, else on the cpu device
 * (argv[1] = "cpu" or "gpu" chooses). */
#include "example.h"

int main(int argc, char** argv)
{
    hipreduce_handle h = example_open(argc, argv);
    enum { N = 1000000 };
    int8_t* b = (int8_t*)malloc(N);
    int64_t expect = 0;
    for (int i = 0; i < N; ++i) {
        b[i] = (int8_t)(i % 201 - 100); /* -100 .. 100 */
        expect += b[i];
    }
    void* d_b = example_upload(h, b, N);

    int64_t total = 0;
    CHECK(h, hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_I8, d_b, N, HIPREDUCE_I64, &total, HIPREDUCE_RESULT_HOST));
    int8_t wrapped = 0;
    CHECK(h, hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_I8, d_b, N, HIPREDUCE_I8, &wrapped, HIPREDUCE_RESULT_HOST));
    printf("i8 -> i64 sum: %lld (expected %lld); i8 -> i8 sum: %d (the low 8 bits)\n", (long long)total,
           (long long)expect, wrapped);

    example_free(h, d_b);
    free(b);
    CHECK(h, hipreduce_destroy(h));
    const int ok = total == expect && (uint8_t)wrapped == (uint8_t)(uint64_t)expect;
    printf("%s\n", ok ? "ok" : "MISMATCH");
    return ok ? 0 : 1;
}
