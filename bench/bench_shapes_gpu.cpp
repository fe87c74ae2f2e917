/* hipreduce-bench's --shape modes on GPU 0: hipreduce_reduce_axis / _argreduce_axis (rows, cols,
 * axis), hipreduce_reduce_segments / _argreduce_segments (ragged) and the plans of strided views
 * (--step: no anchor, CUB takes no strides) timed with device events,
 * results in device memory, inputs rotated over copies (bench_gpu.h), interleaved call by call
 * with CUB's DeviceSegmentedReduce (axis_comparator.h: the toolkit's and the second CUB) on the
 * same data. Then every result is compared: each anchor's against ours (sums to a relative
 * tolerance, integers exactly, argmax's value exactly and its index exactly unless the input
 * holds the same value at both indices, a tie), so that a broken anchor shows, and ours is
 * flagged when it disagrees with every anchor. A call of ours that fails (NOT_SUPPORTED until
 * the executor has it) is an error row; the anchors are still timed, "unchecked". */
#include <algorithm>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <vector>

#include "axis_comparator.h"
#include "bench.h"
#include "bench_gpu.h"

namespace benchgpu {
namespace {

struct axis_anchor {
    const char* name;
    axis_anchor_run_fn run;
    axis_anchor_unpack_fn unpack;
};

/* One row group: (op, in, out) over one geometry, `buffers` copies of the input. */
struct shape_group {
    hipreduce_op op;
    hipreduce_dtype in, out;
    const bench_geometry* g;
    const unsigned char* data;
    size_t stride;
    int buffers;
    const uint64_t* offsets; /* ragged: device copy of g->offsets */
    void* values;            /* device: g->results values (8 bytes each at most) */
    int64_t* indices;        /* device: g->results indices */
    void* anchor_result;     /* device: AXIS_ANCHOR_RESULT_BYTES per result */
    const void* x(int b) const { return data + (size_t)b * stride; }
    bool arg() const { return bench_op_call(op) == BENCH_CALL_ARGREDUCE; }
    size_t value_size() const { return hipreduce_dtype_size(out); }
    hipreduce_status ours(hipreduce_handle h, int alg, int b) const
    {
        hipreduce_set_algorithm(h, (hipreduce_algorithm)alg);
        return bench_shape_call(h, op, in, x(b), g, offsets, out, values, indices, HIPREDUCE_RESULT_DEVICE);
    }
    axis_anchor_call anchor_call(int b) const
    {
        return {op, in, out, x(b), g->outer, g->extent, g->inner, g->num_segments, offsets, anchor_result};
    }
};

/* A synchronous copy. */
void copy(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, const char* what)
{
    check(hipMemcpyAsync(dst, src, bytes, kind, 0), what);
    check(hipStreamSynchronize(0), what);
}

struct host_results {
    std::vector<unsigned char> values;
    std::vector<int64_t> indices;
};

host_results read_results(const shape_group& grp)
{
    host_results h;
    h.values.resize(grp.g->results * grp.value_size());
    if (!h.values.empty())
        copy(h.values.data(), grp.values, h.values.size(), hipMemcpyDeviceToHost, "hipMemcpy (results)");
    if (grp.arg()) {
        h.indices.resize(grp.g->results);
        if (!h.indices.empty())
            copy(h.indices.data(), grp.indices, h.indices.size() * sizeof(int64_t), hipMemcpyDeviceToHost,
                 "hipMemcpy (indices)");
    }
    return h;
}

/* Does input copy 0 hold `value` (in bits) at position e of result r's slice? */
bool holds(const shape_group& grp, uint64_t r, int64_t e, const unsigned char* value)
{
    const bench_geometry& g = *grp.g;
    const uint64_t len = g.offsets ? g.offsets[r + 1] - g.offsets[r] : g.extent;
    if (e < 0 || (uint64_t)e >= len) return false;
    const uint64_t pos = bench_geometry_position(&g, r, (uint64_t)e);
    const size_t size = hipreduce_dtype_size(grp.in);
    unsigned char bits[16];
    const unsigned char* at = static_cast<const unsigned char*>(grp.x(0)) + pos * size;
    copy(bits, at, size, hipMemcpyDeviceToHost, "hipMemcpy (tie)");
    return memcmp(bits, value, size) == 0;
}

/* How many of `got`'s results differ from `ref`'s; prints the first. */
uint64_t differences(const shape_group& grp, const host_results& got, const host_results& ref, const char* got_name,
                     const char* ref_name)
{
    const size_t size = grp.value_size();
    const bool is_float = grp.out == HIPREDUCE_F32 || grp.out == HIPREDUCE_F64 || grp.out == HIPREDUCE_F16 ||
                          grp.out == HIPREDUCE_BF16;
    const double tol = grp.out == HIPREDUCE_F64 ? 1e-9 : grp.out == HIPREDUCE_F32 ? 1e-4 : 1e-2;
    uint64_t count = 0, ties_looked_up = 0;
    for (uint64_t r = 0; r < grp.g->results; ++r) {
        const unsigned char* a = &got.values[r * size];
        const unsigned char* b = &ref.values[r * size];
        bool same;
        if (grp.arg()) {
            /* The value exactly; the index too, or a tie: the input holds that value at both. */
            same = memcmp(a, b, size) == 0 &&
                   (got.indices[r] == ref.indices[r] ||
                    (++ties_looked_up <= 1000 && holds(grp, r, got.indices[r], b) && holds(grp, r, ref.indices[r], b)));
        } else if (is_float) {
            const double x = bench_value_as_double(grp.out, a), y = bench_value_as_double(grp.out, b);
            same = fabs(x - y) <= tol * fabs(y) || x == y;
        } else {
            same = memcmp(a, b, size) == 0;
        }
        if (!same && count++ == 0)
            fprintf(stderr, "\nhipreduce-bench: %s %s->%s %s: result %llu: %s gives %.17g (index %lld), %s %.17g "
                    "(index %lld)\n", hipreduce_op_name(grp.op), hipreduce_dtype_name(grp.in),
                    hipreduce_dtype_name(grp.out), grp.g->label, (unsigned long long)r, got_name,
                    bench_value_as_double(grp.out, a), grp.arg() ? (long long)got.indices[r] : 0LL, ref_name,
                    bench_value_as_double(grp.out, b), grp.arg() ? (long long)ref.indices[r] : 0LL);
    }
    if (count > 1)
        fprintf(stderr, "hipreduce-bench: %s %s: %llu of %llu results of %s differ from %s\n",
                hipreduce_op_name(grp.op), grp.g->label, (unsigned long long)count,
                (unsigned long long)grp.g->results, got_name, ref_name);
    return count;
}

/* Times one group and appends its rows: ours (each algorithm that takes the call; auto's
 * failure is an error row), then one per anchor that covers the call. */
void run_group(const session& s, const shape_group& grp, const std::vector<axis_anchor>& anchors, bench_result* r,
               size_t* done, size_t total)
{
    const bench_options& o = *s.o;
    size_t ws_bytes = 0;
    if (bench_shape_workspace_size(s.h, grp.op, grp.in, grp.g, grp.out, &ws_bytes) ==
        HIPREDUCE_STATUS_OP_DTYPE_MISMATCH) {
        *done += o.n_algorithms; /* a triple the library does not allow, or dot */
        return;
    }
    void* ws = nullptr;
    if (o.workspace == BENCH_WORKSPACE_CALLER) { /* the largest size among the algorithms */
        size_t most = 0;
        for (int a = 0; a < o.n_algorithms; ++a) {
            size_t bytes = 0;
            hipreduce_set_algorithm(s.h, (hipreduce_algorithm)o.algorithms[a]);
            if (bench_shape_workspace_size(s.h, grp.op, grp.in, grp.g, grp.out, &bytes) == HIPREDUCE_STATUS_SUCCESS)
                most = std::max(most, bytes);
        }
        check(hipMalloc(&ws, most ? most : 1), "hipMalloc (caller workspace)");
        const hipreduce_status st = hipreduce_set_workspace(s.h, ws, most);
        if (st != HIPREDUCE_STATUS_SUCCESS) die("hipreduce_set_workspace", hipreduce_status_string(st));
    }
    std::vector<std::function<void(int)>> calls;
    std::vector<size_t> timed; /* anchors that cover the call */
    std::vector<size_t> temp_bytes(anchors.size(), 0);
    std::vector<void*> temps(anchors.size(), nullptr);
    for (size_t a = 0; a < anchors.size(); ++a) {
        const axis_anchor_call probe = grp.anchor_call(0);
        if (anchors[a].run(&probe, nullptr, &temp_bytes[a], 0) != hipSuccess) continue;
        check(hipMalloc(&temps[a], temp_bytes[a] ? temp_bytes[a] : 1), "hipMalloc (anchor temp)");
        timed.push_back(a);
        calls.push_back([&, a](int b) {
            const axis_anchor_call c = grp.anchor_call(b);
            size_t bytes = temp_bytes[a];
            check(anchors[a].run(&c, temps[a], &bytes, 0), anchors[a].name);
        });
    }
    std::vector<int> algs;
    std::vector<hipreduce_status> first;
    for (int a = 0; a < o.n_algorithms; ++a) {
        const int alg = o.algorithms[a];
        fprintf(stderr, "\r[%zu/%zu] %s %s %s->%s %s        ", ++*done, total,
                hipreduce_algorithm_name((hipreduce_algorithm)alg), hipreduce_op_name(grp.op),
                hipreduce_dtype_name(grp.in), hipreduce_dtype_name(grp.out), grp.g->label);
        const hipreduce_status st = grp.ours(s.h, alg, 0); /* also grows the handle's workspace */
        if (st == HIPREDUCE_STATUS_NOT_SUPPORTED && alg != HIPREDUCE_ALGORITHM_AUTO) continue;
        algs.push_back(alg);
        first.push_back(st);
        if (st != HIPREDUCE_STATUS_SUCCESS) {
            fprintf(stderr, "\nhipreduce-bench: %s %s %s->%s %s: %s (an error row; the anchors still run)\n",
                    hipreduce_algorithm_name((hipreduce_algorithm)alg), hipreduce_op_name(grp.op),
                    hipreduce_dtype_name(grp.in), hipreduce_dtype_name(grp.out), grp.g->label,
                    hipreduce_status_string(st));
            continue;
        }
        calls.push_back([&, alg](int b) {
            if (grp.ours(s.h, alg, b) != HIPREDUCE_STATUS_SUCCESS)
                die("a call failed while timing", hipreduce_algorithm_name((hipreduce_algorithm)alg));
        });
    }
    check(hipDeviceSynchronize(), "the first calls");
    const std::vector<double> ms =
        calls.empty() ? std::vector<double>() : time_medians(calls, grp.buffers, o, s.start, s.stop);

    /* The checks, on copy 0: the anchors' results (unpacked into our arrays, read back), then ours. */
    std::vector<host_results> theirs;
    for (size_t a : timed) {
        const axis_anchor_call c = grp.anchor_call(0);
        size_t bytes = temp_bytes[a];
        check(anchors[a].run(&c, temps[a], &bytes, 0), anchors[a].name);
        check(anchors[a].unpack(&c, grp.values, grp.indices, 0), anchors[a].name);
        check(hipDeviceSynchronize(), anchors[a].name);
        theirs.push_back(read_results(grp));
    }
    const bool vendor = r->vendor && !timed.empty() && timed[0] == 0;
    const double vendor_ms = vendor ? ms[0] : 0.0;
    const double bytes_read = (double)grp.g->n * (double)hipreduce_dtype_size(grp.in);
    auto add = [&](const char* name, double t, const char* status, bool error) {
        bench_row row = {name, hipreduce_op_name(grp.op), hipreduce_dtype_name(grp.in), grp.g->n, error ? 0.0 : t,
                         error ? 0.0 : bytes_read / t / 1e6, s.ceiling_for(bytes_read), vendor_ms,
                         hipreduce_dtype_name(grp.out), status, error, ""};
        snprintf(row.shape, sizeof row.shape, "%s", grp.g->label);
        if (bench_add_row(r, &row) != 0) die("out of memory", nullptr);
    };
    std::vector<bool> anchor_differs(timed.size(), false);
    bool anchors_checked = false;
    size_t at = timed.size(); /* ms index of the next algorithm */
    for (size_t k = 0; k < algs.size(); ++k) {
        if (first[k] != HIPREDUCE_STATUS_SUCCESS) {
            add(hipreduce_algorithm_name((hipreduce_algorithm)algs[k]), 0, hipreduce_status_string(first[k]), true);
            continue;
        }
        /* Poison the arrays first (the anchors' results are still there): a call that writes
         * nothing must not pass the check. */
        const size_t results = std::max<uint64_t>(1, grp.g->results);
        check(hipMemsetAsync(grp.values, 0xa5, results * grp.value_size(), 0), "hipMemsetAsync (results)");
        if (grp.arg()) check(hipMemsetAsync(grp.indices, 0xa5, results * sizeof(int64_t), 0), "hipMemsetAsync (indices)");
        if (grp.ours(s.h, algs[k], 0) != HIPREDUCE_STATUS_SUCCESS) die("a call failed in the check", nullptr);
        const host_results mine = read_results(grp);
        const char* name = hipreduce_algorithm_name((hipreduce_algorithm)algs[k]);
        size_t agree = 0;
        for (size_t t = 0; t < timed.size(); ++t) {
            const bool differs = differences(grp, theirs[t], mine, anchors[timed[t]].name, name) != 0;
            agree += !differs;
            if (!anchors_checked) anchor_differs[t] = differs; /* anchors against the first of ours */
        }
        anchors_checked = true;
        add(name, ms[at++], !timed.empty() && agree == 0 ? "differs" : "ok", false);
    }
    for (size_t t = 0; t < timed.size(); ++t) {
        const char* status = !anchors_checked ? "unchecked" : anchor_differs[t] ? "differs" : "ok";
        add(anchors[timed[t]].name, ms[t], status, false);
    }
    for (void* t : temps)
        if (t) check(hipFree(t), "hipFree");
    if (ws) {
        hipreduce_set_workspace(s.h, nullptr, 0); /* every call is done: the checks synchronised */
        check(hipFree(ws), "hipFree");
    }
}

}  // namespace

void run_shapes(const session& s, bench_result* r)
{
    const bench_options& o = *s.o;
    std::vector<axis_anchor> anchors;
#if defined(HIPREDUCE_BENCH_AXIS_CUB)
    if (o.vendor) anchors.push_back({vendor_axis_name(), vendor_axis_run, vendor_axis_unpack});
#if defined(HIPREDUCE_BENCH_SECOND_CUB)
    if (o.vendor) anchors.push_back({second_cub_axis_name(), second_cub_axis_run, second_cub_axis_unpack});
#endif
    r->vendor = o.vendor ? vendor_axis_name() : nullptr;
#else
    r->vendor = nullptr; /* no segmented anchor on this backend */
#endif
    const std::vector<axis_anchor> no_anchors;
    const size_t total = (size_t)o.n_dtypes * o.n_dims * o.n_ops * o.n_outs * o.n_algorithms;
    size_t done = 0;
    for (int t = 0; t < o.n_dtypes; ++t) {
        const hipreduce_dtype in = (hipreduce_dtype)o.dtypes[t];
        const size_t elem = hipreduce_dtype_size(in);
        for (size_t k = 0; k < o.n_dims; ++k) {
            bench_geometry g;
            if (bench_geometry_make(o.shape, &o.dims[k], o.seed, o.step, &g) != 0) die("cannot run --dims", nullptr);
            /* A strided view's copies hold its whole array (span); the rotation counts what a call reads. */
            const size_t bytes = std::max<size_t>(256, (g.span * elem + 255) / 256 * 256);
            const int buffers = copies_for(std::max<size_t>(256, (g.n * elem + 255) / 256 * 256), s.l2);
            unsigned char* data = nullptr;
            check(hipMalloc((void**)&data, bytes * buffers), "hipMalloc (input)");
            for (int b = 0; b < buffers; ++b) fill(in, data + b * bytes, g.span, 1234 + b, s.sms);
            uint64_t* offsets = nullptr;
            if (g.offsets) {
                check(hipMalloc((void**)&offsets, (g.num_segments + 1) * sizeof(uint64_t)), "hipMalloc (offsets)");
                copy(offsets, g.offsets, (g.num_segments + 1) * sizeof(uint64_t), hipMemcpyHostToDevice,
                     "hipMemcpy (offsets)");
            }
            const size_t results = std::max<uint64_t>(1, g.results);
            void *values = nullptr, *anchor_result = nullptr;
            int64_t* indices = nullptr;
            check(hipMalloc(&values, results * 8), "hipMalloc (results)");
            check(hipMalloc((void**)&indices, results * sizeof(int64_t)), "hipMalloc (indices)");
            check(hipMalloc(&anchor_result, results * AXIS_ANCHOR_RESULT_BYTES), "hipMalloc (anchor results)");
            for (int i = 0; i < o.n_ops; ++i) {
                for (int u = 0; u < o.n_outs; ++u) {
                    const hipreduce_dtype out = bench_out_dtype(in, o.outs[u]);
                    bool dup = false; /* "same" and the input dtype's own name both given */
                    for (int v = 0; v < u; ++v) dup |= bench_out_dtype(in, o.outs[v]) == out;
                    const shape_group grp = {(hipreduce_op)o.ops[i], in, out, &g, data, bytes, buffers, offsets,
                                             values, indices, anchor_result};
                    if (dup) done += o.n_algorithms;
                    else run_group(s, grp, g.step > 1 ? no_anchors : anchors, r, &done, total); /* CUB: no strides */
                }
            }
            check(hipFree(data), "hipFree");
            check(hipFree(values), "hipFree");
            check(hipFree(indices), "hipFree");
            check(hipFree(anchor_result), "hipFree");
            if (offsets) check(hipFree(offsets), "hipFree");
            bench_geometry_free(&g);
        }
    }
    fprintf(stderr, "\n");
}

}  // namespace benchgpu
