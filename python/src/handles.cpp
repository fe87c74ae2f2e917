// The calling thread's handles (one per device, each on the stream of its last call) and the
// exceptions that statuses become.
#include "binding.h"

#include <pthread.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace hrpy {
namespace {

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

}  // namespace

void init_handles()
{
    pthread_atfork(nullptr, nullptr, on_fork_child);
    held_streams = nb::module_::import_("threading").attr("local")().release().ptr();
}

// set_stream runs only when the stream changes (it records an event on the stream it leaves, so
// that stream must still exist then: a freed cupy stream reached the runtime there and crashed the
// interpreter). A stream without an owner lives as long as the process (the default streams,
// torch's pooled streams) or as long as its creator keeps it (ExternalStream: documented).
hipreduce_handle handle_for(int device, uintptr_t stream, nb::handle owner)
{
    cached_handle& c = this_thread.get(device);
    if (device == cpu_device) return c.handle;  // the cpu device has no stream
    if (c.stream != stream) {
        hipreduce_status s = hipreduce_set_stream(c.handle, reinterpret_cast<void*>(stream));
        if (s != HIPREDUCE_STATUS_SUCCESS) raise_status(s, "hipreduce_set_stream", c.handle);
        c.stream = stream;
        hold_stream(device, owner);
    }
    return c.handle;
}

hipreduce_handle handle_for(int device, nb::handle stream)
{
    if (device == cpu_device) return handle_for(device, 0, nb::none());
    if (PyLong_Check(stream.ptr())) return handle_for(device, nb::cast<uintptr_t>(stream), nb::none());
    return handle_for(device, nb::cast<uintptr_t>(stream.attr("ptr")), stream);
}

void raise_status(hipreduce_status s, const char* call, hipreduce_handle h)
{
    std::string what = std::string(call) + ": " + hipreduce_status_string(s);
    // Every failure leaves the handle a sentence naming the argument (HANDLE_BUSY leaves the one
    // before, which is not this call's).
    const char* detail = s == HIPREDUCE_STATUS_HANDLE_BUSY ? nullptr : hipreduce_last_error_message(h);
    if (detail && *detail) what += std::string(": ") + detail;
    switch (s) {
    case HIPREDUCE_STATUS_INVALID_OP:
    case HIPREDUCE_STATUS_INVALID_DTYPE:
    case HIPREDUCE_STATUS_OP_DTYPE_MISMATCH:
        throw nb::type_error(what.c_str());
    case HIPREDUCE_STATUS_INVALID_POINTER:
    case HIPREDUCE_STATUS_SIZE_OVERFLOW:
    case HIPREDUCE_STATUS_INVALID_OFFSETS:
    case HIPREDUCE_STATUS_INVALID_LOCATION:
        throw nb::value_error(what.c_str());
    case HIPREDUCE_STATUS_NOT_SUPPORTED:  // valid arguments this device cannot run (exact sums on a GPU)
        PyErr_SetString(PyExc_NotImplementedError, what.c_str());
        throw nb::python_error();
    default:
        throw std::runtime_error(what);
    }
}

}  // namespace hrpy
