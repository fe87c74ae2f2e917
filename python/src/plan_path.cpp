// The one path of the package's reductions over axes (every op, dot included) and by key: a
// descriptor of the library's plan API built from the array's own shape and strides, a plan from
// the calling thread's cache, one hipreduce_plan_run. A strided view (a transpose, a slice with
// steps, negative strides, a broadcast's zero strides) is reduced where it lies, without a copy, and
// each result has the bits of the simple call over the contiguous copy of its elements (the plan's
// logical order).
//
// An input is either an object with the buffer protocol (numpy: host memory; its shape and byte
// strides are read from the buffer) or a tuple (pointer of element (0, .., 0), device, shape,
// strides in elements) that the Python layer made from a torch/cupy array it keeps alive for the
// call. Results, indices, keys and counts are binding.h's memory (C-contiguous).
#include "binding.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace hrpy {
namespace {

// An input tensor as the descriptor takes it.
class strided {
public:
    strided() = default;
    strided(const strided&) = delete;
    strided& operator=(const strided&) = delete;
    ~strided()
    {
        if (held_) PyBuffer_Release(&view_);
    }

    // False where the layout has no descriptor: more than HIPREDUCE_MAX_RANK dimensions, or a byte
    // stride that is not a whole number of elements (the Python layer then reduces a copy).
    bool read(nb::handle obj, int device, size_t elem, const char* name);

    int rank = 0;
    uint64_t extents[HIPREDUCE_MAX_RANK] = {};
    int64_t strides[HIPREDUCE_MAX_RANK] = {};
    uint64_t elements = 1;
    const void* ptr = nullptr;

private:
    bool from_tuple(nb::handle obj, int device, const char* name);

    Py_buffer view_{};
    bool held_ = false;
};

bool strided::read(nb::handle obj, int device, size_t elem, const char* name)
{
    if (PyTuple_Check(obj.ptr())) return from_tuple(obj, device, name);
    if (obj.is_none()) return false;  // the Python layer found no descriptor for it (cupy's odd strides)
    if (device != cpu_device) refuse(name, "is host memory, the call runs on GPU " + std::to_string(device));
    if (PyObject_GetBuffer(obj.ptr(), &view_, PyBUF_STRIDES) != 0) {
        PyErr_Clear();
        refuse(name, "must be an array (buffer protocol) or (pointer, device, shape, strides)", true);
    }
    held_ = true;
    if (static_cast<size_t>(view_.itemsize) != elem)
        refuse(name, "has " + std::to_string(view_.itemsize) + "-byte elements, the dtype " + std::to_string(elem),
               true);
    if (view_.ndim > HIPREDUCE_MAX_RANK) return false;
    rank = view_.ndim;
    const auto size = static_cast<Py_ssize_t>(elem);
    for (int a = 0; a < rank; ++a) {
        if (view_.strides[a] % size != 0) return false;
        extents[a] = static_cast<uint64_t>(view_.shape[a]);
        strides[a] = view_.strides[a] / size;
        elements = mul(elements, extents[a]);
    }
    ptr = elements == 0 ? nonnull(0) : view_.buf;
    return true;
}

bool strided::from_tuple(nb::handle obj, int device, const char* name)
{
    PyObject* t = obj.ptr();
    uintptr_t p = 0;
    int on = 0;
    if (PyTuple_GET_SIZE(t) != 4 || !nb::try_cast(nb::handle(PyTuple_GET_ITEM(t, 0)), p) ||
        !nb::try_cast(nb::handle(PyTuple_GET_ITEM(t, 1)), on))
        refuse(name, "must be (pointer, device, shape, strides)", true);
    if (on != device)
        refuse(name, "is in " + where(on) + ", the call runs on " +
                         (device == cpu_device ? std::string("the cpu device") : where(device)));
    nb::handle shape(PyTuple_GET_ITEM(t, 2)), steps(PyTuple_GET_ITEM(t, 3));
    const Py_ssize_t n = PySequence_Size(shape.ptr());
    if (n < 0 || PySequence_Size(steps.ptr()) != n) {
        PyErr_Clear();
        refuse(name, "must have a shape and strides of one length", true);
    }
    if (n > HIPREDUCE_MAX_RANK) return false;
    rank = static_cast<int>(n);
    for (int a = 0; a < rank; ++a) {
        nb::object e = nb::steal(PySequence_GetItem(shape.ptr(), a));
        nb::object s = nb::steal(PySequence_GetItem(steps.ptr(), a));
        int64_t extent = -1;
        if (!e.is_valid() || !s.is_valid() || !nb::try_cast(e, extent) || extent < 0 || !nb::try_cast(s, strides[a])) {
            PyErr_Clear();
            refuse(name, "must have non-negative int extents and int strides", true);
        }
        extents[a] = static_cast<uint64_t>(extent);
        elements = mul(elements, extents[a]);
    }
    if (p == 0 && elements > 0) refuse(name, "is a NULL pointer");
    ptr = nonnull(p);
    return true;
}

// The calling thread's plans, most recently used first, keyed by their whole descriptor (zeroed
// before it is filled, so equal descriptors compare equal byte for byte). A plan holds no device
// memory and no pointer into a handle (hipreduce.h), so one plan serves every device. A hit costs a
// comparison of the descriptor; creating and destroying a plan per call instead made reduce_plan
// 0.13-0.17 us slower (0.39 against 0.26 us for a 1-element sum, 0.8 against 0.63 for a
// transposed 3-d tensor; bench/python_overhead.py --cpu's host).
struct plan_cache {
    static constexpr size_t capacity = 32;
    struct entry {
        hipreduce_reduction_desc desc;
        hipreduce_plan plan;
    };
    std::vector<entry> entries;

    ~plan_cache()
    {
        for (entry& e : entries) hipreduce_plan_destroy(e.plan);
    }

    hipreduce_plan get(hipreduce_handle h, const hipreduce_reduction_desc& d)
    {
        for (size_t i = 0; i < entries.size(); ++i)
            if (std::memcmp(&entries[i].desc, &d, sizeof d) == 0) {
                std::rotate(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(i),
                            entries.begin() + static_cast<std::ptrdiff_t>(i) + 1);
                return entries.front().plan;
            }
        hipreduce_plan p = nullptr;
        const hipreduce_status s = hipreduce_plan_create(h, &d, &p);
        if (s != HIPREDUCE_STATUS_SUCCESS) raise_status(s, "hipreduce_plan_create", h);
        if (entries.size() == capacity) {
            hipreduce_plan_destroy(entries.back().plan);
            entries.pop_back();
        }
        entries.insert(entries.begin(), entry{d, p});
        return p;
    }
};

thread_local plan_cache plans;

bool is_arg(int op)
{
    return op == HIPREDUCE_OP_ARGMIN || op == HIPREDUCE_OP_ARGMAX || op == HIPREDUCE_OP_NANARGMIN ||
           op == HIPREDUCE_OP_NANARGMAX;
}
bool is_dot(int op) { return op == HIPREDUCE_OP_DOT || op == HIPREDUCE_OP_DOT_EXACT || op == HIPREDUCE_OP_DOTC; }
bool has_values2(int op)
{
    return op == HIPREDUCE_OP_VAR_MEAN || op == HIPREDUCE_OP_STD_MEAN || op == HIPREDUCE_OP_AMINMAX;
}

void zero_desc(hipreduce_reduction_desc& d, int op, int in_dt, int out_dt)
{
    std::memset(&d, 0, sizeof d);
    d.op = static_cast<hipreduce_op>(op);
    d.in_dtype = static_cast<hipreduce_dtype>(in_dt);
    d.out_dtype = static_cast<hipreduce_dtype>(is_arg(op) ? in_dt : out_dt);
}

// op over the axes of x in `reduced` (bit a: axis a; -1: every axis) into values (and indices for
// argmin/argmax; y: dot's second input, of x's extents; values2: the means of var_mean/std_mean, the
// maxima of aminmax; correction: var's and std's), results in the row-major order of the kept axes.
// False: x's (or y's) layout has no descriptor (strided::read), nothing done.
bool reduce_plan(int device, nb::handle stream, int op, int in_dt, int out_dt, nb::handle x, nb::handle y,
                 nb::handle reduced, nb::handle values, nb::handle indices, nb::handle values2, double correction)
{
    const size_t elem = size_of(in_dt);
    const size_t out_elem = is_arg(op) ? elem : size_of(out_dt);
    strided in, in_y;
    if (!in.read(x, device, elem, "x")) return false;
    if (is_dot(op)) {
        if (!in_y.read(y, device, elem, "y")) return false;
        if (in_y.rank != in.rank || !std::equal(in.extents, in.extents + in.rank, in_y.extents))
            throw nb::value_error("hipreduce: x and y have different shapes");
    }
    // An int of any size (an array past 8 dimensions, whose mask may not fit 64 bits, returned above).
    int64_t bits = 0;
    if (!nb::try_cast(reduced, bits)) throw nb::type_error("hipreduce: reduced must be an int (a bit mask)");
    const uint64_t all = in.rank == 0 ? 0 : (uint64_t{1} << in.rank) - 1;
    const uint64_t mask = bits < 0 ? all : static_cast<uint64_t>(bits);
    if ((mask & ~all) != 0)
        throw nb::value_error(("hipreduce: reduced axes outside the " + std::to_string(in.rank) + " of x").c_str());
    hipreduce_reduction_desc d;
    zero_desc(d, op, in_dt, out_dt);
    d.layout = HIPREDUCE_LAYOUT_TENSOR;
    d.order = HIPREDUCE_ORDER_LOGICAL;
    d.correction = correction;
    d.rank = in.rank;
    uint64_t results = 1;
    for (int a = 0; a < in.rank; ++a) {
        d.extents[a] = in.extents[a];
        d.x_strides[a] = in.strides[a];
        if (is_dot(op)) d.y_strides[a] = in_y.strides[a];
        if (mask & (uint64_t{1} << a))
            d.axes[d.num_axes++] = a;
        else
            results = mul(results, in.extents[a]);
    }
    memory val(values, device, mul(results, out_elem), true, "values");
    memory idx(indices, device, is_arg(op) ? mul(results, sizeof(int64_t)) : 0, true, "indices");
    memory val2(values2, device, has_values2(op) ? mul(results, out_elem) : 0, true, "values2");
    hipreduce_handle h = handle_for(device, stream);
    hipreduce_plan plan = plans.get(h, d);
    hipreduce_operands ops{};
    ops.x = in.ptr;
    ops.y = is_dot(op) ? in_y.ptr : nullptr;
    ops.values = val.get();
    ops.indices = is_arg(op) ? static_cast<int64_t*>(idx.get()) : nullptr;
    ops.values2 = has_values2(op) ? val2.get() : nullptr;
    const hipreduce_location loc = location_of(device);
    const hipreduce_status s =
        run(device, mul(in.elements, elem, is_dot(op) ? 2 : 1), [&] { return hipreduce_plan_run(h, plan, &ops, loc); });
    if (s != HIPREDUCE_STATUS_SUCCESS) raise_status(s, "hipreduce_plan_run", h);
    return true;
}

// Reduction by key (layout BY_KEY): values [length][row] (contiguous), keys[length] of key_dt
// (I32/I64) into values_out [num_bins][row] (indices too for argmin/argmax; counts optional).
void reduce_by_key(int device, nb::handle stream, int op, int in_dt, int out_dt, nb::handle x, uint64_t length,
                   uint64_t row, nb::handle keys, int key_dt, uint64_t num_bins, nb::handle values, nb::handle indices,
                   nb::handle counts)
{
    const size_t elem = size_of(in_dt);
    const uint64_t results = mul(num_bins, row);
    memory in(x, device, mul(length, row, elem), false, "values");
    memory k(keys, device, mul(length, size_of(key_dt)), false, "keys");
    memory val(values, device, mul(results, is_arg(op) ? elem : size_of(out_dt)), true, "out");
    memory idx(indices, device, is_arg(op) ? mul(results, sizeof(int64_t)) : 0, true, "indices");
    memory cnt(counts, device, counts.is_none() ? 0 : mul(num_bins, sizeof(int64_t)), true, "counts");
    hipreduce_reduction_desc d;
    zero_desc(d, op, in_dt, out_dt);
    d.layout = HIPREDUCE_LAYOUT_BY_KEY;
    d.order = HIPREDUCE_ORDER_LOGICAL;
    d.length = length;
    d.row = row;
    d.num_bins = num_bins;
    d.key_dtype = static_cast<hipreduce_dtype>(key_dt);
    hipreduce_handle h = handle_for(device, stream);
    hipreduce_plan plan = plans.get(h, d);
    hipreduce_operands ops{};
    ops.x = in.get();
    ops.keys = k.get();
    ops.values = val.get();
    ops.indices = is_arg(op) ? static_cast<int64_t*>(idx.get()) : nullptr;
    ops.counts = static_cast<int64_t*>(cnt.get());
    const hipreduce_location loc = location_of(device);
    const hipreduce_status s =
        run(device, mul(length, row, elem), [&] { return hipreduce_plan_run(h, plan, &ops, loc); });
    if (s != HIPREDUCE_STATUS_SUCCESS) raise_status(s, "hipreduce_plan_run", h);
}

}  // namespace

void bind_plan_path(nb::module_& m)
{
    m.def("reduce_plan", &reduce_plan, nb::arg("device"), nb::arg("stream"), nb::arg("op"), nb::arg("in_dtype"),
          nb::arg("out_dtype"), nb::arg("x").none(), nb::arg("y").none(), nb::arg("reduced"), nb::arg("values").none(),
          nb::arg("indices").none(), nb::arg("values2").none() = nb::none(), nb::arg("correction") = 0.0,
          "op (a reduce op, argmin/argmax with indices, DOT/DOT_EXACT with y, var/std with a correction, "
          "var_mean/std_mean with the means into values2, aminmax with the maxima there) over the axes of x "
          "in the bit mask `reduced` (-1: all) through a plan of layout TENSOR, order LOGICAL; x and y: a buffer (host, any strides) "
          "or (pointer of element 0, device, shape, strides in elements). False where the layout has no "
          "descriptor (rank above 8, strides not whole elements, x or y None): nothing done.");
    m.def("reduce_by_key", &reduce_by_key, nb::arg("device"), nb::arg("stream"), nb::arg("op"), nb::arg("in_dtype"),
          nb::arg("out_dtype"), nb::arg("x").none(), nb::arg("length"), nb::arg("row"), nb::arg("keys").none(),
          nb::arg("key_dtype"), nb::arg("num_bins"), nb::arg("values").none(), nb::arg("indices").none(),
          nb::arg("counts").none(),
          "A plan of layout BY_KEY: x [length][row] (C-contiguous) by keys[length] into values "
          "[num_bins][row] (indices for argmin/argmax; counts [num_bins] or None).");
}

}  // namespace hrpy
