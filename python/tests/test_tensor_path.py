"""_core's fast path of whole-tensor reductions (reduce_whole, new_scalar), on the cpu device with a
stand-in tensor type that has torch's attribute names over a numpy array: its results against the
general path's bits, and each case it must decline (None, so that the general path copies, converts
or raises). torch's own tensors take the path in test_torch_cpu.py and, on a GPU, test_gpu.py.
"""
import numpy as np
import pytest

import hipreduce as hr
from data import FLOATS, INTS, bits, random_array
from hipreduce import _core
from hipreduce import _dtypes as dt


class Stand:
    """A tensor of the stand-in kind (host memory: is_cpu)."""

    is_cuda = False

    def __init__(self, a, is_cpu=True, requires_grad=False):
        self.a = a
        self.is_cpu = is_cpu
        self.requires_grad = requires_grad

    def is_contiguous(self):
        return self.a.flags.c_contiguous

    @property
    def dtype(self):
        return self.a.dtype

    def get_device(self):
        return -1

    def numel(self):
        return self.a.size

    def data_ptr(self):
        return self.a.ctypes.data if self.a.size else 0

    def dim(self):
        return self.a.ndim

    def new_empty(self, shape, dtype):
        return Stand(np.empty(shape, dtype))


class SubStand(Stand):
    pass


def _no_stream(device):
    raise AssertionError("a host tensor needs no stream")


_core.register_tensor_type(Stand, {d: c for c, d in enumerate(dt.NUMPY) if d is not None},
                           [d for d in dt.NUMPY[:dt.BF16]] + [None] + dt.NUMPY[dt.BF16 + 1:],
                           lambda t: Stand(np.empty_like(t.a)), _no_stream, dt.DEFAULTS[True])
DTYPES = INTS + [d for d in FLOATS if d.name != "bfloat16"]  # the stand-in has no bfloat16


@pytest.mark.parametrize("op", ["sum", "prod", "min", "max", "sum_abs", "sum_squares", "max_abs", "norm",
                                "sum_exact"])
def test_bits_equal_general_path(op):
    code_op = dt.OPS[op]
    for dtype in DTYPES:
        for shape in ((), (1,), (7,), (33, 65)):
            x = random_array(shape, dtype, seed=5, op=op)
            code = dt.code_of(dtype)
            out_code = dt.DEFAULTS[True][code_op][code]  # torch's default result dtypes
            if op == "norm" and dtype.kind in "iu":
                with pytest.raises(TypeError):  # the library refuses integer norms
                    _core.reduce_whole(code_op, Stand(x), -1, None)
                continue
            if out_code < 0:  # exact sums of integers: no default, the general path says why
                assert _core.reduce_whole(code_op, Stand(x), -1, None) is None
                continue
            ref = np.asarray(hr.sum(x, exact=True, dtype=dt.NUMPY[out_code]) if op == "sum_exact"
                             else getattr(hr, op)(x, dtype=dt.NUMPY[out_code]))
            r = _core.reduce_whole(code_op, Stand(x), -1, None)
            assert type(r) is Stand and r.a.shape == () and r.a.dtype == dt.NUMPY[out_code]
            assert bits(r.a) == bits(ref), (op, dtype, shape)
            out = Stand(np.empty((), dt.NUMPY[out_code]))
            assert _core.reduce_whole(code_op, Stand(x), -1, out) is out and bits(out.a) == bits(ref)
            assert _core.reduce_whole(code_op, Stand(x), out_code, None).a.dtype == ref.dtype


def test_public_functions_take_it():
    x = np.arange(10, dtype=np.int8)
    r = hr.sum(Stand(x))
    assert type(r) is Stand and r.a.dtype == np.int64 and r.a == 45  # torch's rule: int64
    assert hr.max(Stand(x)).a == 9
    out = Stand(np.empty((), np.int32))
    assert hr.sum(Stand(x), out=out) is out and out.a == 45
    f = np.array([1e30, 1.0, -1e30], np.float32)
    assert hr.sum(Stand(f)).a == 0 and hr.sum(Stand(f), exact=True).a == 1
    # Two results have their own storage.
    a, b = hr.sum(Stand(x)), hr.sum(Stand(x))
    assert a.a.ctypes.data != b.a.ctypes.data


def test_declines():
    x = np.arange(12, dtype=np.float32)
    s = dt.OPS["sum"]
    declined = [
        (s, Stand(x[::2]), -1, None),                           # not contiguous
        (s, Stand(np.ones(3, bool)), -1, None),                 # a dtype without a code
        (s, Stand(x, is_cpu=False), -1, None),                  # neither the host nor a GPU
        (s, SubStand(x), -1, None),                             # a subclass
        (s, x, -1, None),                                       # not a registered type
        (dt.OPS["min"], Stand(x[:0]), -1, None),                # min/max of nothing: no identity
        (99, Stand(x), -1, None),                               # an op without a row
        (s, Stand(x), dt.BF16, None),                           # a dtype the framework lacks
        (s, Stand(x), -1, Stand(np.empty(1, np.float32))),     # out not 0-d
        (s, Stand(x), -1, np.empty((), np.float32)),            # out of another type
        (s, Stand(x), -1, Stand(np.empty((), np.float32), is_cpu=False)),  # out on another device
        (s, Stand(x), dt.F64, Stand(np.empty((), np.float32))),  # out's dtype is not dtype's
        (s, Stand(x, requires_grad=True), -1, None),            # autograd tracks it: the general path refuses
        (s, Stand(x), -1, Stand(np.empty((), np.float32), requires_grad=True)),  # out tracked likewise
    ]
    for args in declined:
        assert _core.reduce_whole(*args) is None, args
    # An out inside the input: the general path computes into a temporary (numpy's rule); nothing written.
    for at in (0, 5, 11):
        inside = Stand(x[at:at + 1].reshape(()))
        assert _core.reduce_whole(s, Stand(x), -1, inside) is None and x[at] == at
    y = np.zeros(13, np.float32)
    y[:12] = x
    apart = Stand(y[12:].reshape(()))  # the element just past the input: written in place
    assert _core.reduce_whole(s, Stand(y[:12]), -1, apart) is apart and y[12] == 66

    class Broken(Stand):
        def data_ptr(self):
            raise RuntimeError("no storage")

    _core.register_tensor_type(Broken, {np.dtype(np.float32): dt.F32}, [None] * len(dt.NAMES), np.empty_like,
                               _no_stream, dt.DEFAULTS[True])
    assert _core.reduce_whole(s, Broken(x), -1, None) is None  # the general path raises it
    assert _core.reduce_whole(s, Stand(x[:0]), -1, None).a == 0  # an empty sum: the identity


def test_library_errors_raise_and_write_nothing():
    out = Stand(np.full((), 7, np.int16))
    with pytest.raises(TypeError, match="hipreduce_reduce"):  # int32 into int16: the library refuses
        _core.reduce_whole(dt.OPS["sum"], Stand(np.ones(4, np.int32)), -1, out)
    assert out.a == 7


def test_new_scalar_and_registration_checks():
    like = Stand(np.ones(3, np.float32))
    r1, r2 = _core.new_scalar(like, dt.F64, -1), _core.new_scalar(like, dt.F64, -1)
    assert type(r1) is Stand and r1.a.shape == () and r1.a.dtype == np.float64 and r1.a is not r2.a
    assert _core.new_scalar(like, dt.BF16, -1) is None  # the framework has no such dtype
    assert _core.new_scalar(np.ones(3), dt.F64, -1) is None
    with pytest.raises(ValueError):
        _core.register_tensor_type(SubStand, {np.dtype(np.float32): len(dt.NAMES)}, [None] * len(dt.NAMES),
                                   np.empty_like, _no_stream, dt.DEFAULTS[True])
    with pytest.raises(ValueError):
        _core.register_tensor_type(SubStand, {}, [None] * 11, np.empty_like, _no_stream, dt.DEFAULTS[True])
