// hipreduce._core: the thin layer between the Python package and the C API. It resolves arrays to
// pointers, picks the calling thread's handle for the device, sets the stream, calls one C function
// and turns a status into an exception. It decides nothing about dtypes, shapes or defaults (the
// Python layer and the library do); hipreduce/__init__.py is the public API. The parts: this file
// binds the C calls; handles.cpp holds the threads' handles and the statuses' exceptions,
// memory.cpp the checks of array arguments, plan_path.cpp the reductions over axes and by key
// (plans), tensor_path.cpp the fast path of whole-tensor reductions of torch tensors.
//
// An array argument is either an object with the buffer protocol (numpy: host memory, for the cpu
// device only) or a tuple (pointer, device, bytes) from a C-contiguous torch/cupy array that the
// Python layer keeps alive for the call (binding.h's memory); device -1 is the host.
#include "binding.h"

#include <string>

namespace hrpy {

size_t size_of(int d)
{
    const size_t s = hipreduce_dtype_size(static_cast<hipreduce_dtype>(d));
    if (s == 0) throw nb::type_error(("hipreduce: unknown dtype code " + std::to_string(d)).c_str());
    return s;
}

namespace {

// Segments: x must hold offsets[num_segments] elements; the Python layer checks that for host
// offsets and clamps device offsets to x's length (the library reads input[0 .. offsets[last])).
void reduce_segments(int device, nb::handle stream, int op, int in_dt, nb::handle x, uint64_t x_size,
                     uint64_t num_segments, nb::handle offsets, int out_dt, nb::handle out)
{
    memory in(x, device, mul(x_size, size_of(in_dt)), false, "x");
    memory off(offsets, device, num_segments == 0 ? 0 : mul(num_segments + 1, sizeof(uint64_t)), false, "offsets");
    memory res(out, device, mul(num_segments, size_of(out_dt)), true, "out");
    hipreduce_handle h = handle_for(device, stream);
    const hipreduce_location loc = location_of(device);
    hipreduce_status s = run(device, mul(x_size, size_of(in_dt)), [&] {
        return hipreduce_reduce_segments(h, static_cast<hipreduce_op>(op), static_cast<hipreduce_dtype>(in_dt),
                                         in.get(), num_segments, static_cast<const uint64_t*>(off.get()),
                                         static_cast<hipreduce_dtype>(out_dt), res.get(), loc);
    });
    if (s != HIPREDUCE_STATUS_SUCCESS) raise_status(s, "hipreduce_reduce_segments", h);
}

void argreduce_segments(int device, nb::handle stream, int op, int dt, nb::handle x, uint64_t x_size,
                        uint64_t num_segments, nb::handle offsets, nb::handle values, nb::handle indices)
{
    memory in(x, device, mul(x_size, size_of(dt)), false, "x");
    memory off(offsets, device, num_segments == 0 ? 0 : mul(num_segments + 1, sizeof(uint64_t)), false, "offsets");
    memory val(values, device, mul(num_segments, size_of(dt)), true, "values");
    memory idx(indices, device, mul(num_segments, sizeof(int64_t)), true, "indices");
    hipreduce_handle h = handle_for(device, stream);
    const hipreduce_location loc = location_of(device);
    hipreduce_status s = run(device, mul(x_size, size_of(dt)), [&] {
        return hipreduce_argreduce_segments(h, static_cast<hipreduce_op>(op), static_cast<hipreduce_dtype>(dt),
                                            in.get(), num_segments, static_cast<const uint64_t*>(off.get()),
                                            val.get(), static_cast<int64_t*>(idx.get()), loc);
    });
    if (s != HIPREDUCE_STATUS_SUCCESS) raise_status(s, "hipreduce_argreduce_segments", h);
}

// For bench/python_overhead.py: `calls` hipreduce_reduce calls of one row of n elements in a C loop,
// no Python between them: the C API's own cost per call, against which the package's is measured.
void reduce_loop(int device, nb::handle stream, int op, int in_dt, nb::handle x, uint64_t n, int out_dt,
                 nb::handle out, uint64_t calls)
{
    memory in(x, device, mul(n, size_of(in_dt)), false, "x");
    memory res(out, device, size_of(out_dt), true, "out");
    hipreduce_handle h = handle_for(device, stream);
    const hipreduce_location loc = location_of(device);
    hipreduce_status s = HIPREDUCE_STATUS_SUCCESS;
    {
        nb::gil_scoped_release unlocked;
        for (uint64_t i = 0; i < calls && s == HIPREDUCE_STATUS_SUCCESS; ++i)
            s = hipreduce_reduce(h, static_cast<hipreduce_op>(op), static_cast<hipreduce_dtype>(in_dt), in.get(), n,
                                 static_cast<hipreduce_dtype>(out_dt), res.get(), loc);
    }
    if (s != HIPREDUCE_STATUS_SUCCESS) raise_status(s, "hipreduce_reduce", h);
}

int device_count()
{
    int n = 0;
    if (hipreduce_get_device_count(&n) != HIPREDUCE_STATUS_SUCCESS) return 0;
    return n;
}

void set_cpu_threads(unsigned threads)
{
    hipreduce_handle h = handle_for(cpu_device, 0, nb::none());
    hipreduce_status s = hipreduce_set_threads(h, threads);
    if (s != HIPREDUCE_STATUS_SUCCESS) raise_status(s, "hipreduce_set_threads", h);
}

}  // namespace
}  // namespace hrpy

NB_MODULE(_core, m)
{
    using namespace hrpy;
    m.doc() = "hipreduce's binding of the C API (private: use the hipreduce package's functions)";
    init_handles();
    bind_tensor_path(m);
    bind_plan_path(m);

    m.def("reduce_segments", &reduce_segments, nb::arg("device"), nb::arg("stream"), nb::arg("op"),
          nb::arg("in_dtype"), nb::arg("x").none(), nb::arg("x_size"), nb::arg("num_segments"), nb::arg("offsets").none(),
          nb::arg("out_dtype"), nb::arg("out").none(), "hipreduce_reduce_segments.");
    m.def("argreduce_segments", &argreduce_segments, nb::arg("device"), nb::arg("stream"), nb::arg("op"),
          nb::arg("dtype"), nb::arg("x").none(), nb::arg("x_size"), nb::arg("num_segments"), nb::arg("offsets").none(),
          nb::arg("values").none(), nb::arg("indices").none(), "hipreduce_argreduce_segments.");
    m.def("_reduce_loop", &reduce_loop, nb::arg("device"), nb::arg("stream"), nb::arg("op"), nb::arg("in_dtype"),
          nb::arg("x").none(), nb::arg("n"), nb::arg("out_dtype"), nb::arg("out").none(), nb::arg("calls"),
          "calls x hipreduce_reduce of x's n elements into out in a C loop (bench/python_overhead.py's floor).");
    m.def("backend", [] { return hipreduce_backend_name(); },
          "The GPU backend libhipreduce was built with: 'cuda', 'amd' or 'cpu'.");
    m.def("version", [] { return hipreduce_get_version(); }, "hipreduce_get_version(): MAJOR*10000+MINOR*100+PATCH.");
    m.def("device_count", &device_count, "GPUs the library's runtime sees (0 on the cpu backend).");
    m.def("set_cpu_threads", &set_cpu_threads, nb::arg("threads"),
          "hipreduce_set_threads on the calling thread's cpu-device handle (0: every core).");
}
