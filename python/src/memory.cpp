// Array arguments as checked memory (binding.h's memory): nothing else reaches the library as a
// pointer.
#include "binding.h"

#include <string>

namespace hrpy {

std::string where(int device)
{
    return device == cpu_device ? std::string("host memory") : "the memory of GPU " + std::to_string(device);
}

void refuse(const char* name, const std::string& why, bool type_error)
{
    const std::string what = std::string("hipreduce: ") + name + " " + why;
    if (type_error) throw nb::type_error(what.c_str());
    throw nb::value_error(what.c_str());
}

memory::memory(nb::handle obj, int device, uint64_t bytes, bool writable, const char* name)
{
    if (obj.is_none()) return;
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

memory::~memory()
{
    if (held_) PyBuffer_Release(&view_);
}

void memory::from_tuple(nb::handle obj, int device, uint64_t bytes, const char* name)
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
    ptr_ = nonnull(ptr);
}

}  // namespace hrpy
