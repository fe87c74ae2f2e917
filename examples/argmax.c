/* Where is the largest |error|? argmax returns the value and its first index; max_abs the
 * magnitude alone. Runs on GPU 0 where there is one, else on the cpu device. */
#include "example.h"

int main(int argc, char** argv)
{
    hipreduce_handle h = example_open(argc, argv);
    enum { N = 300000 };
    double* err = (double*)malloc(N * sizeof *err);
    for (int i = 0; i < N; ++i) err[i] = 1e-9 * (double)(((int64_t)i * 7919) % 1000);
    err[123456] = 0.5; /* the outlier */
    err[200000] = 0.5; /* a tie: the first index wins */
    void* d_err = example_upload(h, err, N * sizeof *err);

    double top = 0;
    int64_t at = -1;
    CHECK(h, hipreduce_argreduce(h, HIPREDUCE_OP_ARGMAX, HIPREDUCE_F64, d_err, N, &top, &at, HIPREDUCE_RESULT_HOST));
    double biggest = 0;
    CHECK(h, hipreduce_reduce(h, HIPREDUCE_OP_MAX_ABS, HIPREDUCE_F64, d_err, N, HIPREDUCE_F64, &biggest, HIPREDUCE_RESULT_HOST));
    printf("argmax: %g at index %lld; max_abs: %g\n", top, (long long)at, biggest);

    example_free(h, d_err);
    free(err);
    CHECK(h, hipreduce_destroy(h));
    const int ok = top == 0.5 && at == 123456 && biggest == 0.5;
    printf("%s\n", ok ? "ok" : "MISMATCH");
    return ok ? 0 : 1;
}
