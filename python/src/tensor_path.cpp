// The fast path of a reduction of a whole tensor (axis=None, keepdims=False) of a tensor type the
// Python layer registered (torch.Tensor): the tensor's attributes are read here, through the C API
// in one native call, instead of a dozen reads in Python, and the 0-d result comes from the
// framework's empty_like of a cached 0-d template (the cheapest allocation of a tensor with its own
// storage that bench/python_overhead.py found). It takes the common case only: for anything else
// (another type, a non-contiguous tensor, a dtype without a code, a device that is neither the host
// nor a GPU, an empty min/max/nanmin/nanmax, an out that is not a 0-d tensor of the input's kind and
// device or that shares memory with the input, a tensor that requires grad) it returns None, and the
// Python layer's general path (a plan over the tensor's strides, plan_path.cpp) converts, computes
// into a temporary, or raises the error the argument deserves.
#include "binding.h"

#include <vector>

namespace hrpy {
namespace {

constexpr int num_codes = 14;  // hipreduce_dtype values 0..13

struct tensor_kind {
    PyObject* type;                    // the exact type (a subclass takes the general path)
    PyObject* codes;                   // dict: the framework's dtype object -> code
    PyObject* dtypes;                  // sequence: code -> the framework's dtype object, or None
    PyObject* empty_like;              // callable(t): a new uninitialised tensor like t
    PyObject* raw_stream;              // callable(device): the device's current stream as an int
    std::vector<int> defaults;         // [op * num_codes + code]: the default result code, -1: none
    std::vector<PyObject*> templates;  // [(device + 1) * num_codes + code]: a 0-d tensor, or null
};

// The registered kinds. Their references (and the templates) live as long as the process: no
// decref after finalization.
std::vector<tensor_kind> kinds;

struct interned {
    PyObject *is_contiguous, *dtype, *is_cuda, *is_cpu, *get_device, *numel, *data_ptr, *new_empty, *dim;
    PyObject* requires_grad;
    PyObject* dtype_kw;  // ("dtype",): the keyword names of new_empty's call
    PyObject* no_shape;  // ()
} names;

tensor_kind* kind_of(PyObject* x)
{
    for (tensor_kind& k : kinds)
        if (reinterpret_cast<PyObject*>(Py_TYPE(x)) == k.type) return &k;
    return nullptr;
}

PyObject* call_method(PyObject* self, PyObject* name) { return PyObject_VectorcallMethod(name, &self, 1, nullptr); }

// What the fast path needs of a tensor; read() is false where the fast path does not apply (a
// failing attribute read included: the general path reads it again and raises).
struct tensor_view {
    int code;
    int device;
    uint64_t n;
    uintptr_t ptr;
};

// zero_d: t must be 0-d (an out), which is contiguous and holds one element (two reads fewer).
bool read(const tensor_kind& k, PyObject* t, tensor_view& v, bool zero_d = false)
{
    nb::object shape = nb::steal(call_method(t, zero_d ? names.dim : names.is_contiguous));
    nb::object dtype = nb::steal(PyObject_GetAttr(t, names.dtype));
    nb::object grad = nb::steal(PyObject_GetAttr(t, names.requires_grad));
    if (!shape.is_valid() || !dtype.is_valid() || !grad.is_valid()) {
        PyErr_Clear();
        return false;
    }
    // A tensor that autograd tracks goes the general path, which refuses it where grad mode is on.
    const bool fits = (zero_d ? PyLong_Check(shape.ptr()) && PyLong_AsLong(shape.ptr()) == 0 : shape.ptr() == Py_True) &&
                      grad.ptr() == Py_False;
    PyObject* code = PyDict_GetItemWithError(k.codes, dtype.ptr());  // borrowed
    if (!fits || code == nullptr) {
        PyErr_Clear();
        return false;
    }
    v.code = static_cast<int>(PyLong_AsLong(code));
    nb::object cuda = nb::steal(PyObject_GetAttr(t, names.is_cuda));
    if (cuda.ptr() == Py_True) {  // torch's CUDA and ROCm tensors: get_device() is the ordinal
        nb::object d = nb::steal(call_method(t, names.get_device));
        v.device = d.is_valid() ? static_cast<int>(PyLong_AsLong(d.ptr())) : -2;
    } else {
        nb::object cpu = nb::steal(PyObject_GetAttr(t, names.is_cpu));
        v.device = cpu.ptr() == Py_True ? cpu_device : -2;  // -2: another device (meta, mps, ...)
    }
    nb::object n = zero_d ? nb::int_(1) : nb::steal(call_method(t, names.numel));
    nb::object ptr = nb::steal(call_method(t, names.data_ptr));
    if (v.device < cpu_device || !n.is_valid() || !ptr.is_valid()) {
        PyErr_Clear();
        return false;
    }
    v.n = PyLong_AsUnsignedLongLong(n.ptr());
    v.ptr = reinterpret_cast<uintptr_t>(PyLong_AsVoidPtr(ptr.ptr()));
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return false;
    }
    return true;
}

// The 0-d template of code on device (made from like, a tensor there), or null where the framework
// has no such dtype.
PyObject* template_for(tensor_kind& k, int code, int device, PyObject* like)
{
    const size_t i = static_cast<size_t>(device + 1) * num_codes + static_cast<size_t>(code);
    if (i >= k.templates.size()) k.templates.resize(i + 1, nullptr);
    if (k.templates[i] == nullptr) {
        nb::object dtype = nb::steal(PySequence_GetItem(k.dtypes, code));
        if (!dtype.is_valid()) throw nb::python_error();
        if (dtype.is_none()) return nullptr;
        PyObject* args[] = {like, names.no_shape, dtype.ptr()};  // like.new_empty((), dtype=dtype)
        PyObject* t = PyObject_VectorcallMethod(names.new_empty, args, 2, names.dtype_kw);
        if (t == nullptr) throw nb::python_error();
        k.templates[i] = t;
    }
    return k.templates[i];
}

nb::object new_scalar(tensor_kind& k, int code, int device, PyObject* like)
{
    PyObject* t = template_for(k, code, device, like);
    if (t == nullptr) return nb::none();
    nb::object r = nb::steal(PyObject_CallOneArg(k.empty_like, t));
    if (!r.is_valid()) throw nb::python_error();
    return r;
}

// op over every element of x into a new 0-d tensor (out None) or into out; out_code -1: the
// default result dtype (out's, with an out). None: not a case of the fast path.
nb::object reduce_whole(int op, nb::handle x, int out_code, nb::handle out)
{
    tensor_kind* k = kind_of(x.ptr());
    tensor_view in{};
    if (k == nullptr || op < 0 || static_cast<size_t>(op) * num_codes >= k->defaults.size() || !read(*k, x.ptr(), in))
        return nb::none();
    if (in.n == 0 && (op == HIPREDUCE_OP_MIN || op == HIPREDUCE_OP_MAX || op == HIPREDUCE_OP_NANMIN ||
                      op == HIPREDUCE_OP_NANMAX))
        return nb::none();  // no identity
    nb::object res;
    tensor_view r{};
    if (out.is_none()) {
        if (out_code < 0) out_code = k->defaults[static_cast<size_t>(op) * num_codes + in.code];
        if (out_code < 0 || out_code >= num_codes) return nb::none();
        res = new_scalar(*k, out_code, in.device, x.ptr());
        if (res.is_none()) return nb::none();
        nb::object ptr = nb::steal(call_method(res.ptr(), names.data_ptr));
        if (!ptr.is_valid()) throw nb::python_error();
        r.ptr = reinterpret_cast<uintptr_t>(PyLong_AsVoidPtr(ptr.ptr()));
    } else {
        if (kind_of(out.ptr()) != k || !read(*k, out.ptr(), r, true) || r.device != in.device ||
            (out_code >= 0 && r.code != out_code))
            return nb::none();
        out_code = r.code;
        // an out inside the input: the general path computes into a temporary (numpy's rule)
        const uint64_t in_bytes = mul(in.n, hipreduce_dtype_size(static_cast<hipreduce_dtype>(in.code)));
        const uint64_t out_bytes = hipreduce_dtype_size(static_cast<hipreduce_dtype>(out_code));
        if (in_bytes > 0 && r.ptr < in.ptr + in_bytes && in.ptr < r.ptr + out_bytes) return nb::none();
        res = nb::borrow(out);
    }
    uintptr_t stream = 0;
    if (in.device != cpu_device) {
        nb::object s = nb::steal(PyObject_CallOneArg(k->raw_stream, nb::int_(in.device).ptr()));
        if (!s.is_valid()) throw nb::python_error();
        stream = reinterpret_cast<uintptr_t>(PyLong_AsVoidPtr(s.ptr()));
        if (PyErr_Occurred()) throw nb::python_error();
    }
    hipreduce_handle h = handle_for(in.device, stream, nb::none());  // the framework keeps its streams
    const auto o = static_cast<hipreduce_op>(op);
    const auto id = static_cast<hipreduce_dtype>(in.code);
    const auto od = static_cast<hipreduce_dtype>(out_code);
    void* src = nonnull(in.ptr);
    void* dst = nonnull(r.ptr);
    const hipreduce_location loc = location_of(in.device);
    hipreduce_status s = run(in.device, mul(in.n, hipreduce_dtype_size(id)),
                             [&] { return hipreduce_reduce(h, o, id, src, in.n, od, dst, loc); });
    if (s != HIPREDUCE_STATUS_SUCCESS) raise_status(s, "hipreduce_reduce", h);
    return res;
}

void register_tensor_type(nb::handle type, nb::dict codes, nb::handle dtypes, nb::handle empty_like,
                          nb::handle raw_stream, nb::handle defaults)
{
    std::vector<int> rows;
    for (auto item : codes) {
        const int c = nb::cast<int>(item.second);
        if (c < 0 || c >= num_codes) throw nb::value_error("hipreduce: a dtype code out of range");
    }
    if (nb::len(dtypes) != num_codes) throw nb::value_error("hipreduce: dtypes must have one entry per code");
    for (nb::handle row : defaults) {
        if (nb::len(row) != num_codes) throw nb::value_error("hipreduce: a defaults row must have one entry per code");
        for (nb::handle c : row) {
            const int v = nb::cast<int>(c);
            rows.push_back(v >= 0 && v < num_codes ? v : -1);
        }
    }
    tensor_kind k{type.inc_ref().ptr(), codes.inc_ref().ptr(), dtypes.inc_ref().ptr(), empty_like.inc_ref().ptr(),
                  raw_stream.inc_ref().ptr(), std::move(rows), {}};
    for (tensor_kind& old : kinds)
        if (old.type == k.type) {
            old = std::move(k);  // the old references and templates are left alive (see kinds)
            return;
        }
    kinds.push_back(std::move(k));
}

}  // namespace

void bind_tensor_path(nb::module_& m)
{
    names = {PyUnicode_InternFromString("is_contiguous"), PyUnicode_InternFromString("dtype"),
             PyUnicode_InternFromString("is_cuda"), PyUnicode_InternFromString("is_cpu"),
             PyUnicode_InternFromString("get_device"), PyUnicode_InternFromString("numel"),
             PyUnicode_InternFromString("data_ptr"), PyUnicode_InternFromString("new_empty"),
             PyUnicode_InternFromString("dim"), PyUnicode_InternFromString("requires_grad"), nullptr,
             PyTuple_New(0)};
    names.dtype_kw = PyTuple_Pack(1, names.dtype);
    m.def("register_tensor_type", &register_tensor_type, nb::arg("type"), nb::arg("codes"), nb::arg("dtypes"),
          nb::arg("empty_like"), nb::arg("raw_stream"), nb::arg("defaults"),
          "Registers a tensor type for reduce_whole and new_scalar: its dtype -> code dict, code -> dtype "
          "list, empty_like, raw_stream(device) -> int, and the default result codes [op][code] (-1: none).");
    m.def("reduce_whole", &reduce_whole, nb::arg("op"), nb::arg("x"), nb::arg("out_code"), nb::arg("out").none(),
          "hipreduce_reduce of every element of a C-contiguous tensor of a registered type into a new 0-d "
          "tensor (out None; out_code -1: the default dtype) or into out, a 0-d tensor on x's device; "
          "None where this fast path does not apply.");
    m.def(
        "new_scalar", [](nb::handle like, int code, int device) -> nb::object {
            tensor_kind* k = kind_of(like.ptr());
            if (k == nullptr || code < 0 || code >= num_codes || device < cpu_device) return nb::none();
            return new_scalar(*k, code, device, like.ptr());
        },
        nb::arg("like"), nb::arg("code"), nb::arg("device"),
        "A new 0-d tensor of code on device (like: a tensor of a registered type there), empty_like of "
        "a cached template; None where the framework has no such dtype.");
}

}  // namespace hrpy
