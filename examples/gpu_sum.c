/* Sum of 2^20 floats on GPU 0: device memory, the result in host memory, then in device memory on
 * a stream; every status checked. The same program in HIP and CUDA spellings (one #if apart).
 * Exits 77 where there is no GPU. */
#include "example.h"

#if defined(EXAMPLE_CUDA)
#define gpuMalloc cudaMalloc
#define gpuMemcpy cudaMemcpy
#define gpuFree cudaFree
#define gpuStream_t cudaStream_t
#define gpuStreamCreate cudaStreamCreate
#define gpuStreamSynchronize cudaStreamSynchronize
#define gpuStreamDestroy cudaStreamDestroy
#define gpuMemcpyHostToDevice cudaMemcpyHostToDevice
#define gpuMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define gpuSuccess cudaSuccess
#elif defined(EXAMPLE_HIP)
#define gpuMalloc hipMalloc
#define gpuMemcpy hipMemcpy
#define gpuFree hipFree
#define gpuStream_t hipStream_t
#define gpuStreamCreate hipStreamCreate
#define gpuStreamSynchronize hipStreamSynchronize
#define gpuStreamDestroy hipStreamDestroy
#define gpuMemcpyHostToDevice hipMemcpyHostToDevice
#define gpuMemcpyDeviceToHost hipMemcpyDeviceToHost
#define gpuSuccess hipSuccess
#endif

int main(void)
{
#if !defined(EXAMPLE_CUDA) && !defined(EXAMPLE_HIP)
    printf("built for the cpu backend: no GPU runtime\n");
    return 77;
#else
    enum { N = 1 << 20 };
    hipreduce_handle h;
    hipreduce_status st = hipreduce_create(&h, HIPREDUCE_DEVICE_GPU, 0);
    if (st != HIPREDUCE_STATUS_SUCCESS) {
        printf("no GPU handle: %s (%s)\n", hipreduce_status_string(st), hipreduce_create_error_message());
        return st == HIPREDUCE_STATUS_INVALID_DEVICE ? 77 : 1;
    }
    float* x = (float*)malloc(N * sizeof *x);
    for (int i = 0; i < N; ++i) x[i] = (float)(i % 16) * 0.5f; /* every partial sum exact: 3932160 */
    float* d_x = NULL;
    float* d_sum = NULL;
    if (gpuMalloc((void**)&d_x, N * sizeof *x) != gpuSuccess || gpuMalloc((void**)&d_sum, sizeof *d_sum) != gpuSuccess ||
        gpuMemcpy(d_x, x, N * sizeof *x, gpuMemcpyHostToDevice) != gpuSuccess) {
        fprintf(stderr, "GPU allocation or copy failed\n");
        return 1;
    }

    float sum = 0;
    CHECK(h, hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, d_x, N, HIPREDUCE_F32, &sum, HIPREDUCE_RESULT_HOST));
    printf("sum (result in host memory): %.1f\n", sum);

    /* Result in device memory, ordered on our stream: the call returns at once. */
    gpuStream_t stream;
    if (gpuStreamCreate(&stream) != gpuSuccess) return 1;
    CHECK(h, hipreduce_set_stream(h, stream));
    CHECK(h, hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, d_x, N, HIPREDUCE_F32, d_sum, HIPREDUCE_RESULT_DEVICE));
    float again = 0;
    if (gpuStreamSynchronize(stream) != gpuSuccess || gpuMemcpy(&again, d_sum, sizeof again, gpuMemcpyDeviceToHost) != gpuSuccess)
        return 1;
    printf("sum (result in device memory): %.1f\n", again);

    /* A mistake gets a status and a sentence, and changes nothing. */
    st = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, d_x, N, HIPREDUCE_I64, &sum, HIPREDUCE_RESULT_HOST);
    printf("f32 sum into i64: %s: %s\n", hipreduce_status_string(st), hipreduce_last_error_message(h));

    CHECK(h, hipreduce_set_stream(h, NULL));
    CHECK(h, hipreduce_destroy(h));
    gpuStreamDestroy(stream);
    gpuFree(d_x);
    gpuFree(d_sum);
    free(x);
    const int ok = sum == again && sum == 3932160.0f && st == HIPREDUCE_STATUS_OP_DTYPE_MISMATCH;
    printf("%s\n", ok ? "ok" : "MISMATCH");
    return ok ? 0 : 1;
#endif
}
