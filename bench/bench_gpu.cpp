/* hipreduce-bench on GPU 0: times hipreduce_reduce for each algorithm, op, dtype and size with
 * device events (warm-up, median of many runs, inputs rotated so that they do not sit in L2),
 * interleaved call by call with CUB's DeviceReduce (cuda) or rocPRIM's reduce (amd) on the same
 * data in the same process, and the device's plain streaming-read ceiling. */
#include <algorithm>
#include <functional>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

#include "bench.h"
#include "bench_kernels.h"
#include "comparator.h"
#include "hipreduce/hipreduce.h"

namespace {

/* A runtime failure: the run cannot go on (exit status 1; 2 is for usage errors). */
[[noreturn]] void die(const char* what, const char* detail)
{
    fprintf(stderr, "\nhipreduce-bench: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

void check(hipError_t err, const char* what)
{
    if (err != hipSuccess) die(what, hipGetErrorString(err));
}

const char* algorithm_name(int v) { return hipreduce_algorithm_name((hipreduce_algorithm)v); }
const char* op_name(int v) { return hipreduce_op_name((hipreduce_op)v); }
const char* dtype_name(int v) { return hipreduce_dtype_name((hipreduce_dtype)v); }

double median(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

/* Median milliseconds of each calls[k](buffer index) over `reps` rounds, after `warmup`
 * rounds. The calls are interleaved one by one, starting each round with the next one,
 * so that clock drift and what the previous call left in L2 favour none of them; with
 * two or more buffers consecutive calls never read the same one. */
std::vector<double> time_medians(const std::vector<std::function<void(int)>>& calls, int buffers,
                                 const bench_options& o, hipEvent_t start, hipEvent_t stop)
{
    const size_t k = calls.size();
    uint64_t next = 0;
    for (int i = 0; i < o.warmup; ++i)
        for (const auto& call : calls) call((int)(next++ % buffers));
    std::vector<std::vector<float>> ms(k, std::vector<float>(o.reps));
    for (int i = 0; i < o.reps; ++i) {
        for (size_t j = 0; j < k; ++j) {
            const size_t c = (i + j) % k;
            check(hipEventRecord(start, 0), "hipEventRecord");
            calls[c]((int)(next++ % buffers));
            check(hipEventRecord(stop, 0), "hipEventRecord");
            check(hipEventSynchronize(stop), "hipEventSynchronize");
            check(hipEventElapsedTime(&ms[c][i], start, stop), "hipEventElapsedTime");
        }
    }
    std::vector<double> medians;
    for (const auto& m : ms) medians.push_back(median(m));
    return medians;
}

/* The plain streaming-read ceiling in GB/s over a buffer of `bytes`. */
double read_ceiling(size_t bytes, int sms, const bench_options& o, hipEvent_t start, hipEvent_t stop)
{
    void* buf = nullptr;
    unsigned* sink = nullptr;
    check(hipMalloc(&buf, bytes), "hipMalloc (read ceiling)");
    check(hipMalloc((void**)&sink, sizeof(unsigned)), "hipMalloc");
    const uint64_t words = bytes / 16;
    hipLaunchKernelGGL(fill_random<uint32_t>, dim3(sms * 8), dim3(256), 0, 0, (uint32_t*)buf, words * 4, 7ull);
    const double ms = time_medians(
        {[&](int) { hipLaunchKernelGGL(stream_read, dim3(sms * 8), dim3(256), 0, 0, (const uint4*)buf, words, sink); }},
        1, o, start, stop)[0];
    check(hipGetLastError(), "stream_read");
    check(hipFree(buf), "hipFree");
    check(hipFree(sink), "hipFree");
    return bytes / ms / 1e6;
}

void fill(int dtype, void* p, uint64_t n, uint64_t seed, int sms)
{
#define HR_CASE(code, T) \
    case code: hipLaunchKernelGGL(fill_random<T>, dim3(sms * 8), dim3(256), 0, 0, (T*)p, n, seed); break;
    switch (dtype) { HR_FOR_EACH_DTYPE(HR_CASE) }
#undef HR_CASE
    check(hipGetLastError(), "fill_random");
}

/* --workspace=caller: one device workspace for every algorithm of the row, as large as the largest
 * hipreduce_workspace_size among them, given to the handle before any call of the row. */
void* set_caller_workspace(hipreduce_handle h, const bench_options& o, int op, int dtype, uint64_t n)
{
    size_t most = 0;
    for (int a = 0; a < o.n_algorithms; ++a) {
        size_t bytes = 0;
        hipreduce_set_algorithm(h, (hipreduce_algorithm)o.algorithms[a]);
        if (hipreduce_workspace_size(h, (hipreduce_op)op, (hipreduce_dtype)dtype, n, (hipreduce_dtype)dtype, &bytes) ==
            HIPREDUCE_STATUS_SUCCESS)
            most = std::max(most, bytes);
    }
    void* ws = nullptr;
    check(hipMalloc(&ws, most ? most : 1), "hipMalloc (caller workspace)");
    const hipreduce_status s = hipreduce_set_workspace(h, ws, most);
    if (s != HIPREDUCE_STATUS_SUCCESS) die("hipreduce_set_workspace", hipreduce_status_string(s));
    return ws;
}

}  // namespace

int bench_gpu_count(void)
{
    int n = 0;
    return hipGetDeviceCount(&n) == hipSuccess ? n : 0;
}

int bench_run_gpu(const bench_options* options, bench_result* r)
{
    const bench_options& o = *options;
    int sms = 0, l2 = 0;
    hipDeviceProp_t prop;
    check(hipGetDeviceProperties(&prop, 0), "no GPU");
    check(hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, 0), "attribute");
    check(hipDeviceGetAttribute(&l2, hipDeviceAttributeL2CacheSize, 0), "attribute");
    hipEvent_t start, stop;
    check(hipEventCreate(&start), "hipEventCreate");
    check(hipEventCreate(&stop), "hipEventCreate");
    hipreduce_handle h;
    if (hipreduce_create(&h, HIPREDUCE_DEVICE_GPU, 0) != HIPREDUCE_STATUS_SUCCESS) die("hipreduce_create failed", nullptr);
    snprintf(r->device, sizeof r->device, "%s", prop.name);
    r->vendor = o.vendor ? vendor_name() : nullptr;
    r->ceiling_kind = "streaming-read kernel over 1 GiB";
    r->device_ceiling = read_ceiling(1ull << 30, sms, o, start, stop);
    const char* vendor = r->vendor;

    const size_t total = (size_t)o.n_dtypes * o.n_sizes * o.n_ops * o.n_algorithms;
    size_t done = 0;
    void* result = nullptr;
    check(hipMalloc(&result, 16), "hipMalloc");
    for (int t = 0; t < o.n_dtypes; ++t) {
        const int dtype = o.dtypes[t];
        const size_t elem = hipreduce_dtype_size((hipreduce_dtype)dtype);
        for (size_t k = 0; k < o.n_sizes; ++k) {
            const uint64_t n = o.sizes[k];
            /* Enough copies that the inputs of consecutive runs together exceed 4x L2, and
             * at least two, so that no run finds the tail of its own input left in L2 by
             * the run before it (which favours one access order over another). */
            const size_t bytes = ((n * elem + 255) / 256) * 256;
            const int buffers = (int)std::min<uint64_t>(64, std::max<uint64_t>(2, (4ull * l2 + bytes - 1) / bytes));
            unsigned char* data = nullptr;
            check(hipMalloc((void**)&data, bytes * buffers), "hipMalloc (input)");
            for (int b = 0; b < buffers; ++b) fill(dtype, data + b * bytes, n, 1234 + b, sms);
            for (int i = 0; i < o.n_ops; ++i) {
                const int op = o.ops[i];
                size_t ws_bytes;
                if (hipreduce_workspace_size(h, (hipreduce_op)op, (hipreduce_dtype)dtype, n, (hipreduce_dtype)dtype, &ws_bytes) ==
                    HIPREDUCE_STATUS_OP_DTYPE_MISMATCH)
                    continue;
                void* ws = o.workspace == BENCH_WORKSPACE_CALLER ? set_caller_workspace(h, o, op, dtype, n) : nullptr;
                /* The vendor library and every algorithm, timed interleaved (time_medians). An
                 * algorithm that does not take this dtype fails its first call and is left out;
                 * with the handle's own workspace that call also grows it outside the timed runs. */
                std::vector<std::function<void(int)>> calls;
                void* temp = nullptr;
                size_t temp_bytes = 0;
                const bool with_vendor = vendor && vendor_reduce((hipreduce_op)op, (hipreduce_dtype)dtype, data, n,
                                                                 result, nullptr, &temp_bytes, 0) == hipSuccess;
                if (with_vendor) {
                    check(hipMalloc(&temp, temp_bytes ? temp_bytes : 1), "hipMalloc (vendor temp)");
                    calls.push_back([&](int b) {
                        check(vendor_reduce((hipreduce_op)op, (hipreduce_dtype)dtype, data + b * bytes, n, result, temp,
                                            &temp_bytes, 0),
                              "vendor reduce");
                    });
                }
                std::vector<int> timed;
                for (int a = 0; a < o.n_algorithms; ++a) {
                    const int alg = o.algorithms[a];
                    fprintf(stderr, "\r[%zu/%zu] %s %s %s n=%llu        ", ++done, total, algorithm_name(alg),
                            op_name(op), dtype_name(dtype), (unsigned long long)n);
                    auto call = [&, alg](int b) {
                        hipreduce_set_algorithm(h, (hipreduce_algorithm)alg);
                        return hipreduce_reduce(h, (hipreduce_op)op, (hipreduce_dtype)dtype, data + b * bytes, n, (hipreduce_dtype)dtype,
                                                result, HIPREDUCE_RESULT_DEVICE);
                    };
                    if (call(0) != HIPREDUCE_STATUS_SUCCESS) continue; /* e.g. a study algorithm without this dtype */
                    timed.push_back(alg);
                    calls.push_back([call](int b) {
                        if (call(b) != HIPREDUCE_STATUS_SUCCESS) die("hipreduce_reduce failed while timing", nullptr);
                    });
                }
                const std::vector<double> ms = time_medians(calls, buffers, o, start, stop);
                if (temp) check(hipFree(temp), "hipFree");
                if (ws) {
                    hipreduce_set_workspace(h, nullptr, 0); /* every call is done: time_medians synchronised */
                    check(hipFree(ws), "hipFree");
                }
                const double vendor_ms = with_vendor ? ms[0] : 0;
                for (size_t a = 0; a < timed.size(); ++a) {
                    const double t = ms[a + with_vendor];
                    const bench_row row = {algorithm_name(timed[a]), op_name(op), dtype_name(dtype), n, t,
                                           n * elem / t / 1e6, r->device_ceiling, vendor_ms};
                    if (bench_add_row(r, &row) != 0) die("out of memory", nullptr);
                }
            }
            check(hipFree(data), "hipFree");
        }
    }
    fprintf(stderr, "\n");
    check(hipFree(result), "hipFree");
    hipreduce_destroy(h);
    return 0;
}
