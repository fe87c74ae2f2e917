// What the parts of hipreduce._core share: the calling thread's handles (handles.cpp), statuses as
// exceptions (handles.cpp), array arguments as checked memory (memory.cpp), and the small functions of
// every call. core.cpp binds the C calls, tensor_path.cpp the whole-tensor fast path.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <string>

#include <hipreduce/hipreduce.h>

namespace nb = nanobind;

namespace hrpy {

constexpr int cpu_device = -1;  // the device argument of a host-memory call

// Module initialisation of handles.cpp (fork handler, the held streams' thread-local).
void init_handles();

// The calling thread's handle for device (cpu_device: the cpu device), set to the stream (GPU).
// owner (None: nothing) is held while the handle uses the stream: a cupy Stream destroys its stream
// when collected, and hipreduce_set_stream records an event on the stream it leaves.
hipreduce_handle handle_for(int device, uintptr_t stream, nb::handle owner);
// stream as the Python layer passes it: an int, or an object with .ptr (held as above).
hipreduce_handle handle_for(int device, nb::handle stream);

// The status's exception, with the handle's message: TypeError (dtypes, ops), ValueError (pointers,
// sizes, offsets), NotImplementedError (a RuntimeError: valid values this device cannot run),
// RuntimeError (the run).
[[noreturn]] void raise_status(hipreduce_status s, const char* call, hipreduce_handle h);

// The size of dtype code d; TypeError for a code the library does not know.
size_t size_of(int d);

// A refused array argument: "hipreduce: <name> <why>" as a ValueError (or a TypeError).
[[noreturn]] void refuse(const char* name, const std::string& why, bool type_error = false);
// "host memory" or "the memory of GPU <device>".
std::string where(int device);

inline hipreduce_location location_of(int device)
{
    return device == cpu_device ? HIPREDUCE_RESULT_HOST : HIPREDUCE_RESULT_DEVICE;
}

// The byte counts of the buffer checks, saturating: an overflow is a size the library rejects anyway.
inline uint64_t mul(uint64_t a, uint64_t b, uint64_t c = 1, uint64_t d = 1)
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

// The library wants a pointer even where it reads or writes nothing; an empty torch tensor has none
// (data_ptr() == 0).
inline void* nonnull(uintptr_t ptr)
{
    static char empty = 0;
    return ptr == 0 ? &empty : reinterpret_cast<void*>(ptr);
}

// One array argument's memory for a call on device, held for the call (a buffer is released when
// this ends): None (NULL: the library's INVALID_POINTER where it needs one), an object with the
// buffer protocol (host memory, C-contiguous, writable if asked) or a tuple (pointer, device, bytes)
// that the Python layer made from a C-contiguous torch/cupy array it keeps alive for the call;
// checked to be on the call's device and to hold at least `bytes`.
class memory {
public:
    memory(nb::handle obj, int device, uint64_t bytes, bool writable, const char* name);
    ~memory();
    memory(const memory&) = delete;
    memory& operator=(const memory&) = delete;
    void* get() const { return ptr_; }

private:
    void from_tuple(nb::handle obj, int device, uint64_t bytes, const char* name);

    Py_buffer view_{};
    bool held_ = false;
    void* ptr_ = nullptr;
};

// tensor_path.cpp's and plan_path.cpp's functions, added to the module.
void bind_tensor_path(nb::module_& m);
void bind_plan_path(nb::module_& m);

}  // namespace hrpy
