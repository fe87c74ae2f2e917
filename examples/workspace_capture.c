/* A caller-owned workspace, sized by the call's query, so that calls allocate nothing; on a GPU
 * the call is then captured into a graph (CUDA/HIP spellings) and replayed. On the cpu device the
 * workspace is host memory and there is no graph. Runs on GPU 0 where there is one, else on the
 * cpu device. */
#include "example.h"

int main(int argc, char** argv)
{
    hipreduce_handle h = example_open(argc, argv);
    enum { N = 1 << 22 };
    double* x = (double*)malloc(N * sizeof *x);
    for (int i = 0; i < N; ++i) x[i] = (double)(i % 64); /* exact sum: 65536 * 2016 */
    void* d_x = example_upload(h, x, N * sizeof *x);

    size_t need = 0;
    CHECK(h, hipreduce_workspace_size(h, HIPREDUCE_OP_SUM, HIPREDUCE_F64, N, HIPREDUCE_F64, &need));
    unsigned char* host_scratch = (unsigned char*)calloc(need ? need : 1, 1);
    void* workspace = need ? example_upload(h, host_scratch, need) : NULL; /* any contents, any address */
    CHECK(h, hipreduce_set_workspace(h, workspace, need));
    printf("workspace: %zu bytes\n", need);

    double sum = 0, replayed = 0;
    CHECK(h, hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F64, d_x, N, HIPREDUCE_F64, &sum, HIPREDUCE_RESULT_HOST));
    replayed = sum;
#if defined(EXAMPLE_CUDA) || defined(EXAMPLE_HIP)
    if (example_on_gpu(h)) {
        double* d_sum = NULL;
#if defined(EXAMPLE_CUDA)
        cudaStream_t stream;
        cudaGraph_t graph;
        cudaGraphExec_t exec;
        if (cudaMalloc((void**)&d_sum, sizeof *d_sum) != cudaSuccess || cudaStreamCreate(&stream) != cudaSuccess) return 1;
        CHECK(h, hipreduce_set_stream(h, stream));
        if (cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal) != cudaSuccess) return 1;
        CHECK(h, hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F64, d_x, N, HIPREDUCE_F64, d_sum, HIPREDUCE_RESULT_DEVICE));
        if (cudaStreamEndCapture(stream, &graph) != cudaSuccess || cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess) return 1;
        for (int replay = 0; replay < 3; ++replay)
            if (cudaGraphLaunch(exec, stream) != cudaSuccess) return 1;
        if (cudaStreamSynchronize(stream) != cudaSuccess ||
            cudaMemcpy(&replayed, d_sum, sizeof replayed, cudaMemcpyDeviceToHost) != cudaSuccess)
            return 1;
        cudaGraphExecDestroy(exec);
        cudaGraphDestroy(graph);
        CHECK(h, hipreduce_set_stream(h, NULL));
        cudaStreamDestroy(stream);
        cudaFree(d_sum);
#else
        hipStream_t stream;
        hipGraph_t graph;
        hipGraphExec_t exec;
        if (hipMalloc((void**)&d_sum, sizeof *d_sum) != hipSuccess || hipStreamCreate(&stream) != hipSuccess) return 1;
        CHECK(h, hipreduce_set_stream(h, stream));
        if (hipStreamBeginCapture(stream, hipStreamCaptureModeThreadLocal) != hipSuccess) return 1;
        CHECK(h, hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F64, d_x, N, HIPREDUCE_F64, d_sum, HIPREDUCE_RESULT_DEVICE));
        if (hipStreamEndCapture(stream, &graph) != hipSuccess || hipGraphInstantiate(&exec, graph, NULL, NULL, 0) != hipSuccess)
            return 1;
        for (int replay = 0; replay < 3; ++replay)
            if (hipGraphLaunch(exec, stream) != hipSuccess) return 1;
        if (hipStreamSynchronize(stream) != hipSuccess ||
            hipMemcpy(&replayed, d_sum, sizeof replayed, hipMemcpyDeviceToHost) != hipSuccess)
            return 1;
        (void)hipGraphExecDestroy(exec);
        (void)hipGraphDestroy(graph);
        CHECK(h, hipreduce_set_stream(h, NULL));
        (void)hipStreamDestroy(stream);
        (void)hipFree(d_sum);
#endif
        printf("graph replayed 3 times\n");
    }
#endif
    printf("sum: %.0f, replayed: %.0f\n", sum, replayed);

    CHECK(h, hipreduce_set_workspace(h, NULL, 0)); /* back to the handle's own workspace */
    example_free(h, workspace);
    example_free(h, d_x);
    free(host_scratch);
    free(x);
    CHECK(h, hipreduce_destroy(h));
    const int ok = sum == 65536.0 * 2016.0 && replayed == sum;
    printf("%s\n", ok ? "ok" : "MISMATCH");
    return ok ? 0 : 1;
}
