// hipreduce._core: the thin layer between the Python package and the C API. It resolves arrays to
// pointers, picks the calling thread's handle for the device, sets the stream, calls one C function
// and turns a status into an exception. It decides nothing about dtypes, shapes or defaults (the
// Python layer and the library do); hipreduce/__init__.py is the public API.
//
// An array argument is either an object with the buffer protocol (numpy: host memory, for the cpu
// device only; checked to be C-contiguous and at least the bytes the call reads or writes) or a
// tuple (pointer, device, bytes) that the Python layer made from a C-contiguous torch/cupy array it
// keeps alive for the call: checked to be on the call's device (-1: the host) and at least the bytes
// the call needs. Nothing else reaches the library as a pointer.
#include <nanobind/nanobind.h>

#include <pthread.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <hipreduce/hipreduce.h>

namespace nb = nanobind;

namespace {

constexpr int cpu_device = -1;  // the device argument of a host-memory call

// Fork drops the cached handles in the child: a cpu handle's worker threads do not exist there (a
// call would wait for them) and a GPU context does not survive a fork. The child abandons them.
unsigned fork_generation = 0;
void on_fork_child() { ++fork_generation; }

struct cached_handle {
    int device;
    hipreduce_handle handle;
    uintptr_t stream;  // the stream the handle is set to (see handle_for)
};

// The calling thread's handles, one per device, created on first use and destroyed when the thread
// ends (a handle must not be used by two threads at once, and each keeps its own workspace).
struct thread_handles {
    std::vector<cached_handle> handles;
    unsigned generation = fork_generation;

    ~thread_handles()
    {
        if (generation != fork_generation) return;
        for (cached_handle& c : handles) hipreduce_destroy(c.handle);
    }

    cached_handle& get(int device)
    {
        if (generation != fork_generation) {
            handles.clear();  // created before a fork: abandoned, see on_fork_child
            generation = fork_generation;
        }
        for (cached_handle& c : handles)
            if (c.device == device) return c;
        hipreduce_handle h = nullptr;
        hipreduce_status s = device == cpu_device ? hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0)
                                                  : hipreduce_create(&h, HIPREDUCE_DEVICE_GPU, device);
        if (s != HIPREDUCE_STATUS_SUCCESS) {
            std::string what = std::string("hipreduce: cannot use ") +
                               (device == cpu_device ? std::string("the cpu device")
                                                     : "GPU " + std::to_string(device)) +
                               " (library backend '" + hipreduce_backend_name() + "'): " +
                               hipreduce_status_string(s);
            const char* detail = hipreduce_create_error_message();
            if (detail && *detail) what += std::string(": ") + detail;
            throw std::runtime_error(what);
        }
        handles.push_back({device, h, 0});
        return handles.back();
    }
};

thread_local thread_handles this_thread;

// The status's exception: the caller's arguments (TypeError, ValueError) or the run (RuntimeError).
[[noreturn]] void raise_status(hipreduce_status s, const char* call, hipreduce_handle h)
{
    std::string what = std::string(call) + ": " + hipreduce_status_string(s);
    if (s == HIPREDUCE_STATUS_RUNTIME_ERROR) {
        const char* detail = hipreduce_last_error_message(h);
        if (detail && *detail) what += std::string(": ") + detail;
    }
    switch (s) {
    case HIPREDUCE_STATUS_INVALID_OP:
    case HIPREDUCE_STATUS_INVALID_DTYPE:
    case HIPREDUCE_STATUS_OP_DTYPE_MISMATCH:
    case HIPREDUCE_STATUS_NOT_SUPPORTED:
        throw nb::type_error(what.c_str());
    case HIPREDUCE_STATUS_INVALID_POINTER:
    case HIPREDUCE_STATUS_SIZE_OVERFLOW:
    case HIPREDUCE_STATUS_INVALID_OFFSETS:
    case HIPREDUCE_STATUS_INVALID_LOCATION:
        throw nb::value_error(what.c_str());
    default:
        throw std::runtime_error(what);
    }
}

std::string where(int device)
{
    return device == cpu_device ? std::string("host memory") : "the memory of GPU " + std::to_string(device);
}

// A refused array argument: "hipreduce: <name> <why>" as a ValueError (or a TypeError).
[[noreturn]] void refuse(const char* name, const std::string& why, bool type_error = false)
{
    const std::string what = std::string("hipreduce: ") + name + " " + why;
    if (type_error) throw nb::type_error(what.c_str());
    throw nb::value_error(what.c_str());
}

// One array argument's memory for a call on device, held for the call (a buffer is released when
// this ends).
class memory {
public:
    memory(nb::handle obj, int device, uint64_t bytes, bool writable, const char* name)
    {
        if (obj.is_none()) return;  // NULL: the library's INVALID_POINTER where it needs one
        if (PyTuple_Check(obj.ptr())) {
            from_tuple(obj, device, bytes, name);
            return;
        }
        if (PyLong_Check(obj.ptr())) refuse(name, "is a bare pointer (pass (pointer, device, bytes) or a buffer)", true);
        if (device != cpu_device) refuse(name, "is host memory, the call runs on GPU " + std::to_string(device));
        int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
        if (PyObject_GetBuffer(obj.ptr(), &view_, flags) != 0) {
            PyErr_Clear();
            refuse(name, std::string("must be a C-contiguous") + (writable ? ", writable" : "") + " array");
        }
        if (static_cast<uint64_t>(view_.len) < bytes) {
            const uint64_t len = static_cast<uint64_t>(view_.len);
            PyBuffer_Release(&view_);  // a throwing constructor runs no destructor
            refuse(name, "holds " + std::to_string(len) + " bytes, the call needs " + std::to_string(bytes));
        }
        held_ = true;
        ptr_ = view_.buf;
    }
    ~memory()
    {
        if (held_) PyBuffer_Release(&view_);
    }
    memory(const memory&) = delete;
    memory& operator=(const memory&) = delete;
    void* get() const { return ptr_; }

private:
    void from_tuple(nb::handle obj, int device, uint64_t bytes, const char* name)
    {
        uintptr_t ptr = 0;
        int on = 0;
        uint64_t size = 0;
        PyObject* t = obj.ptr();
        if (PyTuple_GET_SIZE(t) != 3 || !nb::try_cast(nb::handle(PyTuple_GET_ITEM(t, 0)), ptr) ||
            !nb::try_cast(nb::handle(PyTuple_GET_ITEM(t, 1)), on) || !nb::try_cast(nb::handle(PyTuple_GET_ITEM(t, 2)), size))
            refuse(name, "must be (pointer, device, bytes) as ints", true);
        if (on != device)
            refuse(name, "is in " + where(on) + ", the call runs on " +
                             (device == cpu_device ? std::string("the cpu device") : where(device)));
        if (size < bytes) refuse(name, "holds " + std::to_string(size) + " bytes, the call needs " + std::to_string(bytes));
        if (ptr == 0 && bytes > 0) refuse(name, "is a NULL pointer");
        // An empty torch tensor has no storage (data_ptr() == 0); the library wants a pointer even
        // where it reads or writes nothing.
        ptr_ = ptr == 0 ? &empty_ : reinterpret_cast<void*>(ptr);
    }

    Py_buffer view_{};
    static inline char empty_ = 0;
    bool held_ = false;
    void* ptr_ = nullptr;
};

// A threading.local whose `streams` dict holds, per GPU, the stream object the calling thread's
// handle is set to. Python owns these references (they go with the thread's state, under the GIL);
// the object itself lives as long as the process (never released: no decref after finalization).
PyObject* held_streams = nullptr;

// Keeps owner (None: nothing to keep) alive while it is the thread's stream for device, dropping
// the one before (which set_stream has just used for the last time).
void hold_stream(int device, nb::handle owner)
{
    nb::handle local(held_streams);
    nb::object streams = nb::getattr(local, "streams", nb::none());
    if (streams.is_none()) {
        streams = nb::dict();
        nb::setattr(local, "streams", streams);
    }
    nb::borrow<nb::dict>(streams)[nb::int_(device)] = owner;
}

// The thread's handle for device, on the given stream (GPU): an int (a stream that lives as long as
// the process: the default streams, torch's pooled streams) or an object with a .ptr (a cupy
// Stream, which destroys its stream when it is collected). hipreduce_set_stream records an event on
// the handle's current stream when the stream changes, so that stream must still exist then: an
// object is held until the handle moves to another stream (a freed cupy stream reached the runtime
// there and crashed the interpreter). set_stream runs only when the stream changes.
hipreduce_handle handle_for(int device, nb::handle stream)
{
    cached_handle& c = this_thread.get(device);
    if (device == cpu_device) return c.handle;  // the cpu device has no stream
    const bool object = !PyLong_Check(stream.ptr());
    const auto ptr = object ? nb::cast<uintptr_t>(stream.attr("ptr")) : nb::cast<uintptr_t>(stream);
    if (c.stream != ptr) {
        hipreduce_status s = hipreduce_set_stream(c.handle, reinterpret_cast<void*>(ptr));
        if (s != HIPREDUCE_STATUS_SUCCESS) raise_status(s, "hipreduce_set_stream", c.handle);
        c.stream = ptr;
        hold_stream(device, object ? stream : nb::none());
    }
    return c.handle;
}

// The byte counts of the buffer checks, saturating: an overflow is a size the library rejects anyway.
uint64_t mul(uint64_t a, uint64_t b, uint64_t c = 1, uint64_t d = 1)
{
    if (a == 0 || b == 0 || c == 0 || d == 0) return 0;
    unsigned __int128 p = 1;
    for (uint64_t f : {a, b, c, d}) {
        p *= f;
        if (p > UINT64_MAX) return UINT64_MAX;
    }
    return static_cast<uint64_t>(p);
}

// Runs the C call without the GIL when it may take a while (a GPU call can synchronise; a large
// host reduction takes milliseconds); small host calls keep it, releasing costs more than they do.
template <class F>
hipreduce_status run(int device, uint64_t bytes, F&& f)
{
    if (device == cpu_device && bytes < (64u << 10)) return f();
    nb::gil_scoped_release unlocked;
    return f();
}

hipreduce_dtype dtype_arg(int d)
{
    if (hipreduce_dtype_size(static_cast<hipreduce_dtype>(d)) == 0)
        throw nb::type_error(("hipreduce: unknown dtype code " + std::to_string(d)).c_str());
    return static_cast<hipreduce_dtype>(d);
}

size_t size_of(int d) { return hipreduce_dtype_size(dtype_arg(d)); }

void reduce_axis(int device, nb::handle stream, int op, int in_dt, nb::handle x, uint64_t outer, uint64_t extent,
                 uint64_t inner, int out_dt, nb::handle out)
{
    const uint64_t in_bytes = mul(outer, extent, inner, size_of(in_dt));
    memory in(x, device, in_bytes, false, "x");
    memory res(out, device, mul(outer, inner, size_of(out_dt)), true, "out");
    hipreduce_handle h = handle_for(device, stream);
    const hipreduce_location loc = device == cpu_device ? HIPREDUCE_RESULT_HOST : HIPREDUCE_RESULT_DEVICE;
    const auto o = static_cast<hipreduce_op>(op);
    const auto id = static_cast<hipreduce_dtype>(in_dt);
    const auto od = static_cast<hipreduce_dtype>(out_dt);
    // A single row is hipreduce_reduce (the same bits as the axis call's row, by the contract).
    hipreduce_status s = run(device, in_bytes, [&] {
        return outer == 1 && inner == 1
                   ? hipreduce_reduce(h, o, id, in.get(), extent, od, res.get(), loc)
                   : hipreduce_reduce_axis(h, o, id, in.get(), outer, extent, inner, od, res.get(), loc);
    });
    if (s != HIPREDUCE_STATUS_SUCCESS)
        raise_status(s, outer == 1 && inner == 1 ? "hipreduce_reduce" : "hipreduce_reduce_axis", h);
}

void argreduce_axis(int device, nb::handle stream, int op, int dt, nb::handle x, uint64_t outer, uint64_t extent,
                    uint64_t inner, nb::handle values, nb::handle indices)
{
    const uint64_t in_bytes = mul(outer, extent, inner, size_of(dt));
    memory in(x, device, in_bytes, false, "x");
    memory val(values, device, mul(outer, inner, size_of(dt)), true, "values");
    memory idx(indices, device, mul(outer, inner, sizeof(int64_t)), true, "indices");
    hipreduce_handle h = handle_for(device, stream);
    const hipreduce_location loc = device == cpu_device ? HIPREDUCE_RESULT_HOST : HIPREDUCE_RESULT_DEVICE;
    const auto o = static_cast<hipreduce_op>(op);
    const auto d = static_cast<hipreduce_dtype>(dt);
    auto* index = static_cast<int64_t*>(idx.get());
    hipreduce_status s = run(device, in_bytes, [&] {
        return outer == 1 && inner == 1
                   ? hipreduce_argreduce(h, o, d, in.get(), extent, val.get(), index, loc)
                   : hipreduce_argreduce_axis(h, o, d, in.get(), outer, extent, inner, val.get(), index, loc);
    });
    if (s != HIPREDUCE_STATUS_SUCCESS)
        raise_status(s, outer == 1 && inner == 1 ? "hipreduce_argreduce" : "hipreduce_argreduce_axis", h);
}

void dot(int device, nb::handle stream, int in_dt, nb::handle x, nb::handle y, uint64_t n, int out_dt,
         nb::handle out)
{
    const uint64_t in_bytes = mul(n, size_of(in_dt));
    memory a(x, device, in_bytes, false, "x");
    memory b(y, device, in_bytes, false, "y");
    memory res(out, device, size_of(out_dt), true, "out");
    hipreduce_handle h = handle_for(device, stream);
    const hipreduce_location loc = device == cpu_device ? HIPREDUCE_RESULT_HOST : HIPREDUCE_RESULT_DEVICE;
    hipreduce_status s = run(device, 2 * in_bytes, [&] {
        return hipreduce_dot(h, static_cast<hipreduce_dtype>(in_dt), a.get(), b.get(), n,
                             static_cast<hipreduce_dtype>(out_dt), res.get(), loc);
    });
    if (s != HIPREDUCE_STATUS_SUCCESS) raise_status(s, "hipreduce_dot", h);
}

// Segments: x must hold offsets[num_segments] elements; the Python layer checks that for host
// offsets and clamps device offsets to x's length (the library reads input[0 .. offsets[last])).
void reduce_segments(int device, nb::handle stream, int op, int in_dt, nb::handle x, uint64_t x_size,
                     uint64_t num_segments, nb::handle offsets, int out_dt, nb::handle out)
{
    memory in(x, device, mul(x_size, size_of(in_dt)), false, "x");
    memory off(offsets, device, num_segments == 0 ? 0 : mul(num_segments + 1, sizeof(uint64_t)), false, "offsets");
    memory res(out, device, mul(num_segments, size_of(out_dt)), true, "out");
    hipreduce_handle h = handle_for(device, stream);
    const hipreduce_location loc = device == cpu_device ? HIPREDUCE_RESULT_HOST : HIPREDUCE_RESULT_DEVICE;
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
    const hipreduce_location loc = device == cpu_device ? HIPREDUCE_RESULT_HOST : HIPREDUCE_RESULT_DEVICE;
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
    const hipreduce_location loc = device == cpu_device ? HIPREDUCE_RESULT_HOST : HIPREDUCE_RESULT_DEVICE;
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
    hipreduce_handle h = this_thread.get(cpu_device).handle;
    hipreduce_status s = hipreduce_set_threads(h, threads);
    if (s != HIPREDUCE_STATUS_SUCCESS) raise_status(s, "hipreduce_set_threads", h);
}

}  // namespace

NB_MODULE(_core, m)
{
    m.doc() = "hipreduce's binding of the C API (private: use the hipreduce package's functions)";
    pthread_atfork(nullptr, nullptr, on_fork_child);
    held_streams = nb::module_::import_("threading").attr("local")().release().ptr();

    m.def("reduce_axis", &reduce_axis, nb::arg("device"), nb::arg("stream"), nb::arg("op"), nb::arg("in_dtype"),
          nb::arg("x").none(), nb::arg("outer"), nb::arg("extent"), nb::arg("inner"), nb::arg("out_dtype"),
          nb::arg("out").none(),
          "hipreduce_reduce_axis (hipreduce_reduce when outer == inner == 1) into out's outer * inner "
          "elements; device -1 is the cpu device. stream: an int, or an object with .ptr held while the "
          "thread's handle uses it. Arrays: a buffer (host) or (pointer, device, bytes).");
    m.def("argreduce_axis", &argreduce_axis, nb::arg("device"), nb::arg("stream"), nb::arg("op"),
          nb::arg("dtype"), nb::arg("x").none(), nb::arg("outer"), nb::arg("extent"), nb::arg("inner"),
          nb::arg("values").none(), nb::arg("indices").none(), "hipreduce_argreduce_axis (hipreduce_argreduce for one row).");
    m.def("dot", &dot, nb::arg("device"), nb::arg("stream"), nb::arg("in_dtype"), nb::arg("x").none(), nb::arg("y").none(),
          nb::arg("n"), nb::arg("out_dtype"), nb::arg("out").none(), "hipreduce_dot.");
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
