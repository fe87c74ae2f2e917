/* hipreduce-bench on GPU 0: times the library's calls for each algorithm, op, input dtype, result
 * dtype and size with device events (warm-up, median of many runs, inputs rotated so that they do
 * not sit in L2), interleaved call by call with the anchors (comparator.h) on the same data in
 * the same process, and the device's plain streaming-read ceiling. Each result is then checked
 * against the vendor anchor's (or the second CUB's where only it covers the call). */
#include <algorithm>
#include <functional>
#include <map>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "bench.h"
#include "bench_gpu.h"
#include "bench_kernels.h"
#include "comparator.h"

namespace benchgpu {

[[noreturn]] void die(const char* what, const char* detail)
{
    fprintf(stderr, "\nhipreduce-bench: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

void check(hipError_t err, const char* what)
{
    if (err != hipSuccess) die(what, hipGetErrorString(err));
}

namespace {
const char* algorithm_name(int v) { return hipreduce_algorithm_name((hipreduce_algorithm)v); }
const char* op_name(int v) { return hipreduce_op_name((hipreduce_op)v); }
const char* dtype_name(int v) { return hipreduce_dtype_name((hipreduce_dtype)v); }

double median(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}
}  // namespace

/* Interleaved so that clock drift and what the previous call left in L2 favour none of them. */
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

int copies_for(uint64_t bytes, int l2)
{
    return (int)std::min<uint64_t>(64, std::max<uint64_t>(2, (4ull * l2 + bytes - 1) / bytes));
}

}  // namespace benchgpu

namespace {
using namespace benchgpu;

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

}  // namespace

namespace benchgpu {
/* A fill kernel of bench_kernels.h launched over p; T comes from the kernel. */
template <class T> void launch_fill(void (*kernel)(T*, uint64_t, uint64_t), void* p, uint64_t n, uint64_t seed, int sms)
{
    hipLaunchKernelGGL(kernel, dim3(sms * 8), dim3(256), 0, 0, (T*)p, n, seed);
}

void fill(int dtype, void* p, uint64_t n, uint64_t seed, int sms)
{
    /* HIPREDUCE_BENCH_VALUES=binades|alternating|cancel: f32/f64 inputs that the exact sums'
     * fast paths cannot take (bench_kernels.h's fill_adversarial) */
    const char* values = getenv("HIPREDUCE_BENCH_VALUES");
    const int kind = !values ? 0 : !strcmp(values, "binades") ? 1 : !strcmp(values, "alternating") ? 2 : !strcmp(values, "cancel") ? 3 : -1;
    if (kind < 0) die("HIPREDUCE_BENCH_VALUES is not binades, alternating or cancel", values);
    if (kind && (dtype == HIPREDUCE_F32 || dtype == HIPREDUCE_F64)) {
        if (dtype == HIPREDUCE_F32)
            hipLaunchKernelGGL(fill_adversarial<uint32_t>, dim3(sms * 8), dim3(256), 0, 0, (uint32_t*)p, n, seed, kind);
        else
            hipLaunchKernelGGL(fill_adversarial<uint64_t>, dim3(sms * 8), dim3(256), 0, 0, (uint64_t*)p, n, seed, kind);
        check(hipGetLastError(), "fill_adversarial");
        return;
    }
#define HR_CASE(code, kernel) \
    case code: launch_fill(kernel, p, n, seed, sms); break;
    switch (dtype) { BENCH_FILL_KERNELS(HR_CASE) default: die("no fill for dtype", dtype_name(dtype)); }
#undef HR_CASE
    check(hipGetLastError(), "fill_random");
}
}  // namespace benchgpu

namespace {

/* --workspace=caller: one device workspace for every algorithm of the row, as large as the largest
 * size query among them, given to the handle before any call of the row. */
void* set_caller_workspace(hipreduce_handle h, const bench_options& o, hipreduce_op op, hipreduce_dtype in,
                           uint64_t n, hipreduce_dtype out)
{
    size_t most = 0;
    for (int a = 0; a < o.n_algorithms; ++a) {
        size_t bytes = 0;
        hipreduce_set_algorithm(h, (hipreduce_algorithm)o.algorithms[a]);
        if (bench_workspace_size(h, op, in, n, out, &bytes) == HIPREDUCE_STATUS_SUCCESS) most = std::max(most, bytes);
    }
    void* ws = nullptr;
    check(hipMalloc(&ws, most ? most : 1), "hipMalloc (caller workspace)");
    const hipreduce_status s = hipreduce_set_workspace(h, ws, most);
    if (s != HIPREDUCE_STATUS_SUCCESS) die("hipreduce_set_workspace", hipreduce_status_string(s));
    return ws;
}

struct anchor {
    const char* name;
    anchor_run_fn run;
};

/* One row group: (op, in, out, n) over `buffers` copies of the input, then as many of y (dot). */
struct group {
    hipreduce_op op;
    hipreduce_dtype in, out;
    uint64_t n;
    const unsigned char* data;
    size_t stride; /* bytes from one copy to the next */
    int buffers;
    bool two_inputs;
    void* value;    /* device memory: one out element */
    int64_t* index; /* device memory: argmin/argmax's index */
    const void* x(int b) const { return data + (size_t)b * stride; }
    const void* y(int b) const { return two_inputs ? data + (size_t)(buffers + b) * stride : nullptr; }
    anchor_call call(int b) const { return {op, in, out, x(b), y(b), n, value, index}; }
    hipreduce_status ours(hipreduce_handle h, int alg, int b) const
    {
        hipreduce_set_algorithm(h, (hipreduce_algorithm)alg);
        return bench_call(h, op, in, x(b), y(b), n, out, value, index, HIPREDUCE_RESULT_DEVICE);
    }
};

/* A result read back for the checks: nrm2 from an anchor is its sum of squares, rooted here. */
struct outcome {
    unsigned char bits[16];
    double value;
    int64_t index;
};

outcome read_outcome(const group& g, bool from_anchor)
{
    outcome r;
    memset(&r, 0, sizeof r);
    check(hipMemcpyAsync(r.bits, g.value, hipreduce_dtype_size(g.out), hipMemcpyDeviceToHost, 0), "hipMemcpyAsync");
    check(hipMemcpyAsync(&r.index, g.index, sizeof r.index, hipMemcpyDeviceToHost, 0), "hipMemcpyAsync");
    check(hipStreamSynchronize(0), "hipStreamSynchronize (result)");
    r.value = bench_value_as_double(g.out, r.bits);
    if (from_anchor && g.op == HIPREDUCE_OP_NRM2) r.value = sqrt(r.value);
    return r;
}

/* Integers and argmin/argmax exactly; floats to a few units of the result's precision times the
 * rounding of a long sum in another order (positive data: no cancellation). */
bool same_result(const group& g, const outcome& a, const outcome& ref)
{
    if (bench_op_call(g.op) == BENCH_CALL_ARGREDUCE)
        return a.index == ref.index && memcmp(a.bits, ref.bits, hipreduce_dtype_size(g.in)) == 0;
    const bool half = g.out == HIPREDUCE_F16 || g.out == HIPREDUCE_BF16;
    if (!half && g.out != HIPREDUCE_F32 && g.out != HIPREDUCE_F64)
        return memcmp(a.bits, ref.bits, hipreduce_dtype_size(g.out)) == 0;
    const double tol = half ? 1e-2 : g.out == HIPREDUCE_F32 ? 1e-4 : 1e-9;
    return fabs(a.value - ref.value) <= tol * fabs(ref.value) || a.value == ref.value;
}

/* Times one row group and appends its rows: ours (one per algorithm that takes the call, an
 * error row where auto's call fails), then one per anchor other than the vendor. */
void run_group(hipreduce_handle h, const group& g, const bench_options& o, const std::vector<anchor>& anchors,
               bench_result* r, hipEvent_t start, hipEvent_t stop, size_t* done, size_t total,
               const std::function<double(double)>& ceiling_for)
{
    size_t ws_bytes = 0;
    if (bench_workspace_size(h, g.op, g.in, g.n, g.out, &ws_bytes) == HIPREDUCE_STATUS_OP_DTYPE_MISMATCH) return;
    void* ws = o.workspace == BENCH_WORKSPACE_CALLER ? set_caller_workspace(h, o, g.op, g.in, g.n, g.out) : nullptr;
    std::vector<std::function<void(int)>> calls;
    std::vector<size_t> timed_anchors, temp_bytes(anchors.size(), 0);
    std::vector<void*> temps(anchors.size(), nullptr);
    for (size_t a = 0; a < anchors.size(); ++a) {
        const anchor_call probe = g.call(0);
        if (anchors[a].run(&probe, nullptr, &temp_bytes[a], 0) != hipSuccess) continue; /* not covered */
        check(hipMalloc(&temps[a], temp_bytes[a] ? temp_bytes[a] : 1), "hipMalloc (anchor temp)");
        timed_anchors.push_back(a);
        calls.push_back([&, a](int b) {
            const anchor_call c = g.call(b);
            size_t bytes = temp_bytes[a];
            check(anchors[a].run(&c, temps[a], &bytes, 0), anchors[a].name);
        });
    }
    std::vector<int> algs;
    std::vector<hipreduce_status> first;
    for (int a = 0; a < o.n_algorithms; ++a) {
        const int alg = o.algorithms[a];
        /* The first call also grows the handle's own workspace outside the timed runs. */
        const hipreduce_status s = g.ours(h, alg, 0);
        if (s == HIPREDUCE_STATUS_NOT_SUPPORTED && alg != HIPREDUCE_ALGORITHM_AUTO) continue; /* does not apply */
        fprintf(stderr, "\r[%zu/%zu] %s %s %s->%s n=%llu        ", ++*done, total, algorithm_name(alg), op_name(g.op),
                dtype_name(g.in), dtype_name(g.out), (unsigned long long)g.n);
        algs.push_back(alg);
        first.push_back(s);
        if (s == HIPREDUCE_STATUS_SUCCESS)
            calls.push_back([&, alg](int b) {
                if (g.ours(h, alg, b) != HIPREDUCE_STATUS_SUCCESS) die("a call failed while timing", algorithm_name(alg));
            });
    }
    const std::vector<double> ms = calls.empty() ? std::vector<double>() : time_medians(calls, g.buffers, o, start, stop);

    /* The reference result: the first anchor that covers the call, on buffer 0. */
    outcome ref{};
    const bool checked = !timed_anchors.empty();
    if (checked) {
        const anchor_call c = g.call(0);
        size_t bytes = temp_bytes[timed_anchors[0]];
        check(anchors[timed_anchors[0]].run(&c, temps[timed_anchors[0]], &bytes, 0), anchors[timed_anchors[0]].name);
        ref = read_outcome(g, true);
    }
    const bool vendor_first = r->vendor && !timed_anchors.empty() && timed_anchors[0] == 0;
    const double vendor_ms = vendor_first ? ms[0] : 0.0;
    const double bytes_read = (double)bench_bytes_read(g.op, g.in, g.n);
    auto add = [&](const char* name, double t, const char* status, bool error) {
        const bench_row row = {name, op_name(g.op), dtype_name(g.in), g.n, error ? 0.0 : t,
                               error ? 0.0 : bytes_read / t / 1e6, ceiling_for(bytes_read), vendor_ms, dtype_name(g.out),
                               status, error, ""};
        if (bench_add_row(r, &row) != 0) die("out of memory", nullptr);
    };
    size_t at = timed_anchors.size(); /* ms index of the next algorithm */
    for (size_t k = 0; k < algs.size(); ++k) {
        if (first[k] != HIPREDUCE_STATUS_SUCCESS) {
            add(algorithm_name(algs[k]), 0, hipreduce_status_string(first[k]), true);
            continue;
        }
        const char* status = "ok";
        if (checked) {
            if (g.ours(h, algs[k], 0) != HIPREDUCE_STATUS_SUCCESS) die("a call failed in the check", algorithm_name(algs[k]));
            const outcome got = read_outcome(g, false);
            if (!same_result(g, got, ref)) {
                status = "differs";
                fprintf(stderr, "\nhipreduce-bench: %s %s %s->%s n=%llu: %.17g (index %lld), %s gives %.17g (index %lld)\n",
                        algorithm_name(algs[k]), op_name(g.op), dtype_name(g.in), dtype_name(g.out),
                        (unsigned long long)g.n, got.value, (long long)got.index, anchors[timed_anchors[0]].name,
                        ref.value, (long long)ref.index);
            }
        }
        add(algorithm_name(algs[k]), ms[at++], status, false);
    }
    for (size_t k = vendor_first ? 1 : 0; k < timed_anchors.size(); ++k) {
        const char* status = "ok";
        if (k > 0) { /* the first is the reference itself */
            const anchor_call c = g.call(0);
            size_t bytes = temp_bytes[timed_anchors[k]];
            check(anchors[timed_anchors[k]].run(&c, temps[timed_anchors[k]], &bytes, 0), anchors[timed_anchors[k]].name);
            if (!same_result(g, read_outcome(g, true), ref)) status = "differs";
        }
        add(anchors[timed_anchors[k]].name, ms[k], status, false);
    }
    for (void* t : temps)
        if (t) check(hipFree(t), "hipFree");
    if (ws) {
        hipreduce_set_workspace(h, nullptr, 0); /* every call is done: the checks synchronised */
        check(hipFree(ws), "hipFree");
    }
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
    std::vector<anchor> anchors;
    if (o.vendor) {
        if (vendor_name()) anchors.push_back({vendor_name(), vendor_run});
#if defined(HIPREDUCE_BENCH_SECOND_CUB)
        anchors.push_back({second_cub_name(), second_cub_run});
        anchors.push_back({second_cub_gpu_to_gpu_name(), second_cub_gpu_to_gpu_run});
#endif
    }
    r->vendor = o.vendor ? vendor_name() : nullptr;
    /* --ceiling=same: each row against the streaming read of its own input bytes (measured once per
     * byte count), so that small inputs are not held to a ceiling only large reads reach. */
    std::map<uint64_t, double> ceilings;
    const auto ceiling_for = [&](double bytes) {
        if (o.ceiling != BENCH_CEILING_SAME) return r->device_ceiling;
        const uint64_t b = ((uint64_t)bytes + 15) / 16 * 16;
        auto it = ceilings.find(b);
        if (it == ceilings.end()) it = ceilings.emplace(b, read_ceiling(b, sms, o, start, stop)).first;
        return it->second;
    };
    r->ceiling_kind = o.ceiling == BENCH_CEILING_SAME ? "streaming-read kernel over each row's input bytes"
                                                      : "streaming-read kernel over 1 GiB";
    r->device_ceiling = o.ceiling == BENCH_CEILING_SAME ? 0.0 : read_ceiling(1ull << 30, sms, o, start, stop);
    if (o.shape != BENCH_SHAPE_FLAT) { /* the axis and segment calls, their own anchors */
        run_shapes({&o, h, start, stop, sms, l2, ceiling_for}, r);
        hipreduce_destroy(h);
        return 0;
    }

    bool two_inputs = false; /* some op is dot: y copies beside the x copies */
    for (int i = 0; i < o.n_ops; ++i) two_inputs |= bench_op_call((hipreduce_op)o.ops[i]) == BENCH_CALL_DOT;
    const size_t total = bench_rows_per_size(h, &o, 1) * o.n_sizes;
    size_t done = 0;
    unsigned char* results = nullptr;
    check(hipMalloc((void**)&results, 64), "hipMalloc");
    for (int t = 0; t < o.n_dtypes; ++t) {
        const hipreduce_dtype in = (hipreduce_dtype)o.dtypes[t];
        const size_t elem = hipreduce_dtype_size(in);
        for (size_t k = 0; k < o.n_sizes; ++k) {
            const uint64_t n = o.sizes[k];
            /* Enough copies that the inputs of consecutive runs together exceed 4x L2, and at least
             * two, so that no run finds the tail of its own input left in L2 by the run before it
             * (which favours one access order over another). */
            const size_t bytes = ((n * elem + 255) / 256) * 256;
            const size_t per_call = two_inputs ? 2 * bytes : bytes;
            const int buffers = copies_for(per_call, l2);
            const int slabs = two_inputs ? 2 * buffers : buffers;
            unsigned char* data = nullptr;
            check(hipMalloc((void**)&data, bytes * slabs), "hipMalloc (input)");
            for (int b = 0; b < slabs; ++b) fill(in, data + b * bytes, n, 1234 + b, sms);
            for (int i = 0; i < o.n_ops; ++i) {
                for (int u = 0; u < o.n_outs; ++u) {
                    const hipreduce_dtype out = bench_out_dtype(in, o.outs[u]);
                    bool dup = false; /* "same" and the input dtype's own name both given */
                    for (int v = 0; v < u; ++v) dup |= bench_out_dtype(in, o.outs[v]) == out;
                    const group g = {(hipreduce_op)o.ops[i], in, out, n, data, bytes, buffers, two_inputs,
                                     results, (int64_t*)(results + 32)};
                    if (!dup) run_group(h, g, o, anchors, r, start, stop, &done, total, ceiling_for);
                }
            }
            check(hipFree(data), "hipFree");
        }
    }
    fprintf(stderr, "\n");
    check(hipFree(results), "hipFree");
    hipreduce_destroy(h);
    return 0;
}
