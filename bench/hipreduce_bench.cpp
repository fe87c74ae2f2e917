/* hipreduce-bench: times hipreduce_reduce for each algorithm, op, dtype and size with
 * device events (warm-up, median of many runs, inputs rotated so that they do not
 * sit in L2), interleaved call by call with CUB's DeviceReduce (cuda) or rocPRIM's
 * reduce (amd) on the same data in the same process, and the device's plain
 * streaming-read ceiling. */
#include <algorithm>
#include <functional>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <vector>

#include "bench_kernels.h"
#include "comparator.h"
#include "hipreduce/hipreduce.h"

namespace {

struct options {
    std::vector<int> algorithms{HIPREDUCE_ALGORITHM_AUTO};
    std::vector<int> ops{HIPREDUCE_OP_SUM};
    std::vector<int> dtypes{HIPREDUCE_F32};
    std::vector<uint64_t> sizes;
    int reps = 50, warmup = 5;
    std::string format = "table", output;
    bool vendor = true;
};

struct row {
    std::string algorithm, op, dtype;
    uint64_t n;
    double ms, gbps, pct, vendor_ms;
};

[[noreturn]] void die(const char* what, const char* detail)
{
    fprintf(stderr, "hipreduce-bench: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(2);
}

void check(hipError_t err, const char* what)
{
    if (err != hipSuccess) die(what, hipGetErrorString(err));
}

/* "2^24+1", "1e9", "1000003": a size. */
uint64_t parse_size(const std::string& s)
{
    uint64_t value = 0;
    size_t plus = s.find_first_of("+-", 1);
    std::string head = s.substr(0, plus);
    if (head.rfind("2^", 0) == 0) value = 1ull << strtoul(head.c_str() + 2, nullptr, 10);
    else if (head.find('e') != std::string::npos) value = (uint64_t)strtod(head.c_str(), nullptr);
    else value = strtoull(head.c_str(), nullptr, 10);
    if (plus != std::string::npos) {
        const uint64_t delta = strtoull(s.c_str() + plus + 1, nullptr, 10);
        value = s[plus] == '+' ? value + delta : value - delta;
    }
    return value;
}

std::vector<std::string> split(const std::string& s)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= s.size()) {
        size_t comma = s.find(',', start);
        if (comma == std::string::npos) comma = s.size();
        if (comma > start) out.push_back(s.substr(start, comma - start));
        start = comma + 1;
    }
    return out;
}

/* Values whose name (from the library's own name functions) is listed; "all" takes every one. */
std::vector<int> parse_names(const std::string& list, const char* (*name_of)(int), int limit, const char* kind)
{
    std::vector<int> out;
    for (const std::string& want : split(list)) {
        bool found = false;
        for (int v = 0; v < limit; ++v) {
            const char* name = name_of(v);
            if (name && (want == "all" || want == name)) {
                out.push_back(v);
                found = true;
            }
        }
        if (!found) die(kind, want.c_str());
    }
    return out;
}

const char* algorithm_name(int v) { return hipreduce_algorithm_name((hipreduce_algorithm)v); }
const char* op_name(int v) { return hipreduce_op_name((hipreduce_op)v); }
const char* dtype_name(int v) { return hipreduce_dtype_name((hipreduce_dtype)v); }

std::vector<uint64_t> default_sweep()
{
    std::vector<uint64_t> sizes;
    for (int k = 10; k <= 28; ++k) sizes.push_back(1ull << k);
    for (uint64_t odd : {1000ull, 100003ull, (1ull << 20) + 7, (1ull << 24) + 1, 100000007ull}) sizes.push_back(odd);
    std::sort(sizes.begin(), sizes.end());
    return sizes;
}

options parse(int argc, char** argv)
{
    options o;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        const size_t eq = a.find('=');
        const std::string key = a.substr(0, eq), val = eq == std::string::npos ? "" : a.substr(eq + 1);
        if (key == "--algorithms") o.algorithms = parse_names(val, algorithm_name, 64, "unknown algorithm");
        else if (key == "--ops") o.ops = parse_names(val, op_name, 64, "unknown op");
        else if (key == "--dtypes") o.dtypes = parse_names(val, dtype_name, 64, "unknown dtype");
        else if (key == "--sizes") for (const std::string& s : split(val)) o.sizes.push_back(parse_size(s));
        else if (key == "--reps") o.reps = atoi(val.c_str());
        else if (key == "--warmup") o.warmup = atoi(val.c_str());
        else if (key == "--format") o.format = val;
        else if (key == "--output") o.output = val;
        else if (key == "--no-vendor") o.vendor = false;
        else {
            printf("usage: hipreduce-bench [--algorithms=auto,...|all] [--ops=sum,...|all] [--dtypes=f32,...|all]\n"
                   "       [--sizes=2^20,2^24+1,1e9,...] [--reps=50] [--warmup=5] [--format=table|csv|json]\n"
                   "       [--output=FILE] [--no-vendor]\n");
            exit(key == "--help" ? 0 : 2);
        }
    }
    if (o.sizes.empty()) o.sizes = default_sweep();
    if (o.reps < 1 || (o.format != "table" && o.format != "csv" && o.format != "json")) die("bad option", nullptr);
    return o;
}

double median(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

/* Median milliseconds of each calls[k](buffer index) over `reps` rounds, after `warmup`
 * rounds. The calls are interleaved one by one, starting each round with the next one,
 * so that clock drift and what the previous call left in L2 favour none of them; with
 * two or more buffers consecutive calls never read the same one. */
std::vector<double> time_medians(const std::vector<std::function<void(int)>>& calls, int buffers, const options& o,
                                 hipEvent_t start, hipEvent_t stop)
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
double read_ceiling(size_t bytes, int sms, const options& o, hipEvent_t start, hipEvent_t stop)
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

void print_rows(FILE* f, const std::vector<row>& rows, const options& o, const char* device, double ceiling,
                const char* vendor)
{
    if (o.format == "json") {
        fprintf(f, "{\"device\": \"%s\", \"read_ceiling_gbps\": %.1f, \"vendor\": \"%s\", \"rows\": [\n", device,
                ceiling, vendor ? vendor : "");
        for (size_t i = 0; i < rows.size(); ++i) {
            const row& r = rows[i];
            fprintf(f,
                    "  {\"algorithm\": \"%s\", \"op\": \"%s\", \"dtype\": \"%s\", \"n\": %llu, \"ms\": %.6f, "
                    "\"gbps\": %.1f, \"pct_ceiling\": %.1f, \"vendor_ms\": %.6f, \"ratio\": %.3f}%s\n",
                    r.algorithm.c_str(), r.op.c_str(), r.dtype.c_str(), (unsigned long long)r.n, r.ms, r.gbps,
                    r.pct, r.vendor_ms, r.vendor_ms > 0 ? r.ms / r.vendor_ms : 0.0, i + 1 < rows.size() ? "," : "");
        }
        fprintf(f, "]}\n");
        return;
    }
    const bool csv = o.format == "csv";
    if (csv) fprintf(f, "# device: %s; read ceiling %.1f GB/s; vendor: %s\n", device, ceiling, vendor ? vendor : "none");
    else fprintf(f, "device: %s   read ceiling: %.1f GB/s   comparator: %s\n", device, ceiling, vendor ? vendor : "none");
    fprintf(f, csv ? "algorithm,op,dtype,n,ms,gbps,pct_ceiling,vendor_ms,ratio\n"
                   : "%-16s %-5s %-5s %12s %11s %9s %7s %11s %7s\n",
            "algorithm", "op", "dtype", "n", "ms", "GB/s", "%ceil", "vendor ms", "ratio");
    for (const row& r : rows) {
        const double ratio = r.vendor_ms > 0 ? r.ms / r.vendor_ms : 0.0;
        fprintf(f, csv ? "%s,%s,%s,%llu,%.6f,%.1f,%.1f,%.6f,%.3f\n" : "%-16s %-5s %-5s %12llu %11.4f %9.1f %7.1f %11.4f %7.3f\n",
                r.algorithm.c_str(), r.op.c_str(), r.dtype.c_str(), (unsigned long long)r.n, r.ms, r.gbps, r.pct,
                r.vendor_ms, ratio);
    }
}

}  // namespace

int main(int argc, char** argv)
{
    const options o = parse(argc, argv);
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
    const char* vendor = o.vendor ? vendor_name() : nullptr;
    const double ceiling = read_ceiling(1ull << 30, sms, o, start, stop);

    std::vector<row> rows;
    const size_t total = o.dtypes.size() * o.sizes.size() * o.ops.size() * o.algorithms.size();
    size_t done = 0;
    void* result = nullptr;
    check(hipMalloc(&result, 16), "hipMalloc");
    for (int dtype : o.dtypes) {
        const size_t elem = hipreduce_dtype_size((hipreduce_dtype)dtype);
        for (uint64_t n : o.sizes) {
            /* Enough copies that the inputs of consecutive runs together exceed 4x L2, and
             * at least two, so that no run finds the tail of its own input left in L2 by
             * the run before it (which favours one access order over another). */
            const size_t bytes = ((n * elem + 255) / 256) * 256;
            const int buffers = (int)std::min<uint64_t>(64, std::max<uint64_t>(2, (4ull * l2 + bytes - 1) / bytes));
            unsigned char* data = nullptr;
            check(hipMalloc((void**)&data, bytes * buffers), "hipMalloc (input)");
            for (int b = 0; b < buffers; ++b) fill(dtype, data + b * bytes, n, 1234 + b, sms);
            for (int op : o.ops) {
                size_t ws_bytes;
                if (hipreduce_workspace_size(h, (hipreduce_op)op, (hipreduce_dtype)dtype, n, &ws_bytes) ==
                    HIPREDUCE_STATUS_OP_DTYPE_MISMATCH)
                    continue;
                /* The vendor library and every algorithm, timed interleaved (time_medians). An
                 * algorithm that does not take this dtype fails its first call and is left out;
                 * that call also grows the handle's workspace outside the timed runs. */
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
                for (int alg : o.algorithms) {
                    fprintf(stderr, "\r[%zu/%zu] %s %s %s n=%llu        ", ++done, total, algorithm_name(alg),
                            op_name(op), dtype_name(dtype), (unsigned long long)n);
                    auto call = [&, alg](int b) {
                        hipreduce_set_algorithm(h, (hipreduce_algorithm)alg);
                        return hipreduce_reduce(h, (hipreduce_op)op, (hipreduce_dtype)dtype, data + b * bytes, n,
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
                const double vendor_ms = with_vendor ? ms[0] : 0;
                for (size_t a = 0; a < timed.size(); ++a) {
                    const double t = ms[a + with_vendor];
                    const double gbps = n * elem / t / 1e6;
                    rows.push_back({algorithm_name(timed[a]), op_name(op), dtype_name(dtype), n, t, gbps,
                                    100.0 * gbps / ceiling, vendor_ms});
                }
            }
            check(hipFree(data), "hipFree");
        }
    }
    fprintf(stderr, "\n");
    FILE* f = o.output.empty() ? stdout : fopen(o.output.c_str(), "w");
    if (!f) die("cannot write", o.output.c_str());
    print_rows(f, rows, o, prop.name, ceiling, vendor);
    if (f != stdout) fclose(f);
    hipreduce_destroy(h);
    return 0;
}
