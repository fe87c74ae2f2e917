"""Every bad input raises its documented exception with a message, and writes nothing."""
import numpy as np
import pytest

import hipreduce as hr
from hipreduce import _core

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


@pytest.mark.parametrize("bad", [np.ones(3, bool), np.ones(3, np.complex256), np.array(["a"]),
                                 np.array([object()]), np.ones(3, "datetime64[s]")], ids=str)
def test_unsupported_input_dtype(bad):
    with pytest.raises(TypeError, match="not supported"):
        hr.sum(bad)


@pytest.mark.parametrize("fn, x, dtype", [
    (hr.sum, np.ones(3, np.int32), np.int16),     # narrower integer
    (hr.sum, np.ones(3, np.int32), np.uint32),    # other signedness
    (hr.sum, np.ones(3, np.float64), np.float32),
    (hr.min, np.ones(3, np.float32), np.float64),  # min/max keep the input dtype
    (hr.max_abs, np.ones(3, np.int8), np.int8),
    (hr.norm, np.ones(3, np.int32), None),         # nrm2 is for floats
    (hr.norm, np.ones(3, np.float32), np.float16),
])
def test_disallowed_result_dtype(fn, x, dtype):
    with pytest.raises(TypeError, match="hipreduce"):
        fn(x, dtype=dtype)


def test_bad_dtype_argument():
    with pytest.raises(TypeError):
        hr.sum(X, dtype="not a dtype")
    with pytest.raises(TypeError):
        hr.sum(X, dtype=np.complex128)


@pytest.mark.parametrize("axis, exc", [(3, ValueError), (-4, ValueError), (1.0, TypeError), ("0", TypeError),
                                       ((1, 1), ValueError), ((0, -3), ValueError), ((0, 3), ValueError),
                                       ((0, None), TypeError)])
def test_bad_axis(axis, exc):
    with pytest.raises(exc):
        hr.sum(X, axis=axis)
    with pytest.raises(exc):  # numpy raises the same kind
        np.sum(X, axis=axis)


def test_torch_spellings_are_for_torch():
    with pytest.raises(TypeError, match="torch"):
        hr.sum(X, dim=0)
    with pytest.raises(TypeError, match="torch"):
        hr.argmax(X, keepdim=True)


def test_axis_of_a_0d_array():
    with pytest.raises(ValueError):  # numpy: AxisError, a ValueError
        hr.sum(np.float32(1.0), axis=0)
    assert hr.sum(np.float32(2.5)) == 2.5 and hr.argmax(np.float32(2.5)) == 0


def test_bad_axis_arg_reductions():
    with pytest.raises(TypeError):
        hr.argmax(X, axis=(0, 1))
    with pytest.raises(ValueError):
        hr.argmin(X, axis=5)
    with pytest.raises(ValueError):
        hr.argmax(np.zeros((2, 0)), axis=1)
    with pytest.raises(ValueError):
        hr.min(np.zeros((0, 3)), axis=0)
    assert hr.min(np.zeros((0, 3)), axis=1).shape == (0,)  # no empty reduction: nothing to raise


def test_bad_out():
    good = np.empty(4, np.float32)
    with pytest.raises(ValueError, match="shape"):
        hr.sum(X, axis=(0, 1), out=np.empty(5, np.float32))
    with pytest.raises(TypeError, match="dtype"):
        hr.sum(X, axis=(0, 1), dtype=np.float64, out=good)
    with pytest.raises(ValueError, match="contiguous"):
        hr.sum(X, axis=(0, 1), out=np.empty(8, np.float32)[::2])
    ro = np.empty(4, np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="writable"):
        hr.sum(X, axis=(0, 1), out=ro)
    with pytest.raises(TypeError):
        hr.sum(X, axis=(0, 1), out=[0.0] * 4)
    with pytest.raises(TypeError, match="dtype"):
        hr.argmax(X, axis=0, out=np.empty((3, 4), np.int32))


def test_bad_dot():
    with pytest.raises(ValueError, match="shapes"):
        hr.dot(np.ones(3), np.ones(4))
    with pytest.raises(TypeError, match="float32"):
        hr.dot(np.ones(3, np.float32), np.ones(3, np.float64))
    with pytest.raises(TypeError):
        hr.dot(np.ones(3, np.float32), np.ones(3, np.float32), dtype=np.int64)


@pytest.mark.parametrize("offsets, exc, match", [
    ([0, 2, 1, 3], ValueError, "decrease"),
    ([0, -1, 3], ValueError, "negative"),
    ([0, 2, 4], ValueError, "past"),
    ([[0, 1], [2, 3]], ValueError, "1-d"),
    ([], ValueError, "1-d"),
    ([0.0, 1.0], TypeError, "integers"),
])
def test_bad_offsets(offsets, exc, match):
    with pytest.raises(exc, match=match):
        hr.segment_reduce(np.ones(3, np.float32), offsets)


def test_bad_segment_arguments():
    with pytest.raises(ValueError, match="unknown op"):
        hr.segment_reduce(np.ones(3), [0, 3], op="mean")
    with pytest.raises(ValueError, match="1-d"):
        hr.segment_reduce(np.ones((3, 1)), [0, 3])
    with pytest.raises(TypeError):
        hr.segment_reduce(np.ones(3, np.float32), [0, 3], op="xor")  # bitwise ops are for integers
    with pytest.raises(TypeError):
        hr.segment_reduce(np.ones(3, np.float32), [0, 3], op="argmax", dtype=np.int64)


def test_private_binding_checks_buffers():
    # _core is private, but a wrong call through it must still raise, not crash. reduce_plan(device,
    # stream, op, in_dtype, out_dtype, x, y, reduced axes, values, indices).
    f32 = 10
    x = np.ones((2, 3), np.float32)
    with pytest.raises(ValueError, match="bytes"):  # 2 results, room for 1
        _core.reduce_plan(-1, 0, 0, f32, f32, x, None, 2, np.empty(1, np.float32), None)
    with pytest.raises(ValueError, match="contiguous"):
        _core.reduce_plan(-1, 0, 0, f32, f32, x, None, 2, np.empty(4, np.float32)[::2], None)
    with pytest.raises(TypeError, match="dtype code"):
        _core.reduce_plan(-1, 0, 0, 99, f32, x, None, -1, np.empty(1, np.float32), None)
    with pytest.raises(TypeError, match="4-byte elements"):  # x's elements are not the dtype's
        _core.reduce_plan(-1, 0, 0, 11, 11, x, None, -1, np.empty(1, np.float64), None)
    with pytest.raises(TypeError, match="hipreduce_plan_create"):  # not an operator
        _core.reduce_plan(-1, 0, 77, f32, f32, x, None, -1, np.empty(1, np.float32), None)
    with pytest.raises(ValueError, match="axes outside"):
        _core.reduce_plan(-1, 0, 0, f32, f32, x, None, 4, np.empty(1, np.float32), None)
    with pytest.raises(ValueError, match="shapes"):  # dot of two shapes
        _core.reduce_plan(-1, 0, 13, f32, f32, x, x.T, -1, np.empty(1, np.float32), None)
    with pytest.raises(ValueError, match="indices"):  # argmax without indices
        _core.reduce_plan(-1, 0, 12, f32, f32, x, None, -1, np.empty(1, np.float32), None)
    # Layouts without a descriptor: False, nothing done (the package then reduces a copy).
    out = np.full(1, 7.0, np.float32)
    assert _core.reduce_plan(-1, 0, 0, f32, f32, np.ones((1,) * 9, np.float32), None, -1, out, None) is False
    odd = np.ndarray((3,), np.float32, buffer=np.ones(32, np.uint8), strides=(6,))  # 6-byte steps
    assert _core.reduce_plan(-1, 0, 0, f32, f32, odd, None, -1, out, None) is False
    assert out[0] == 7.0
    with pytest.raises(ValueError):  # the library's own check: no valid offsets pointer
        _core.reduce_segments(-1, 0, 0, f32, np.ones(4, np.float32), 4, 1, None, f32, np.empty(1, np.float32))


def test_private_binding_checks_pointers():
    # A torch/cupy input reaches reduce_plan as (pointer, device, shape, strides), a result as (pointer,
    # device, bytes): checked against the call's device (and a result's size) before the library sees
    # the pointer; a host buffer is for the cpu device only, and a bare int is no array. Device -1 is
    # the host; the call checks memory before it needs a handle, so the GPU cases raise the same on
    # every backend.
    f32 = 10
    x = np.arange(8, dtype=np.float32)
    out = np.empty(1, np.float32)
    host_x = (x.ctypes.data, -1, (4,), (2,))  # x[::2]
    host_out = (out.ctypes.data, -1, out.nbytes)
    assert _core.reduce_plan(-1, 0, 0, f32, f32, host_x, None, -1, host_out, None)  # host memory, the cpu device
    assert out[0] == 12.0
    with pytest.raises(ValueError, match="memory of GPU 0"):
        _core.reduce_plan(-1, 0, 0, f32, f32, host_x, None, -1, (out.ctypes.data, 0, 4), None)
    with pytest.raises(ValueError, match="host memory"):
        _core.reduce_plan(0, 0, 0, f32, f32, host_x, None, -1, host_out, None)
    with pytest.raises(ValueError, match="memory of GPU 1"):
        _core.reduce_plan(0, 0, 0, f32, f32, (1 << 40, 0, (4,), (1,)), None, -1, (1 << 40, 1, 4), None)
    with pytest.raises(ValueError, match="host memory"):  # a numpy buffer for a GPU call
        _core.reduce_plan(0, 0, 0, f32, f32, (1 << 40, 0, (4,), (1,)), None, -1, out, None)
    with pytest.raises(ValueError, match="host memory"):
        _core.reduce_plan(0, 0, 0, f32, f32, x, None, -1, (1 << 40, 0, 4), None)
    with pytest.raises(ValueError, match="holds 0 bytes"):
        _core.reduce_plan(-1, 0, 13, f32, f32, host_x, host_x, -1, (out.ctypes.data, -1, 0), None)
    with pytest.raises(ValueError, match="NULL"):
        _core.reduce_plan(-1, 0, 0, f32, f32, (0, -1, (4,), (1,)), None, -1, host_out, None)
    for bad in (x.ctypes.data, (x.ctypes.data, -1), (x.ctypes.data, -1, (4,), "1"), (x.ctypes.data, -1, (4,), (1, 1)),
                (x.ctypes.data, -1, (-4,), (1,)), (-1, -1, (4,), (1,))):
        with pytest.raises(TypeError):
            _core.reduce_plan(-1, 0, 0, f32, f32, bad, None, -1, host_out, None)
    assert out[0] == 12.0  # every refused call wrote nothing


def test_refused_buffers_are_released():
    x = np.ones(3, np.float32)
    with pytest.raises(ValueError):
        _core.reduce_plan(-1, 0, 0, 10, 10, x, None, -1, np.empty(0, np.float32), None)
    x.resize(10, refcheck=True)  # raises while a buffer export of x is still held


def test_failed_call_writes_nothing():
    out = np.full(4, 7.0, np.float32)
    with pytest.raises(TypeError):
        hr.sum(np.ones((3, 4), np.int32), axis=0, dtype=np.float32, out=out)
    assert np.all(out == 7.0)


@pytest.mark.skipif(hr.backend() != "cpu", reason="checks the cpu backend's answer to a GPU request")
def test_gpu_request_on_cpu_backend():
    with pytest.raises(RuntimeError, match="backend 'cpu'"):
        _core.reduce_plan(0, 0, 0, 10, 10, (0, 0, (0,), (1,)), None, -1, (1 << 40, 0, 4), None)
