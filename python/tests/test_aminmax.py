"""hipreduce.aminmax on numpy arrays: (min, max) from one plan run with the bits of hr.min and hr.max
run separately, for every dtype, shape and axis set of data.CASES; NaN (canonical, in both results) and
-0.0 below +0.0; exact agreement with numpy where numpy's result is unique; views of every layout; out=;
the errors. The torch operator and its gradient: test_torch_aminmax.py."""
import math

import numpy as np
import pytest

import hipreduce as hr
from data import BF16, CASES, DTYPES, FLOATS, INTS, bits, random_array


def special(x, seed):
    """x with some NaN (about 5%, floats), -0.0 and +0.0 elements."""
    x = x.copy()
    if x.dtype in FLOATS:
        rng = np.random.default_rng(seed)
        x[rng.random(x.shape) < 0.05] = np.nan
        x[rng.random(x.shape) < 0.1] = -0.0
        x[rng.random(x.shape) < 0.1] = 0.0
    return x


def extent(shape, axis):
    return math.prod(shape) if axis is None else math.prod(shape[a] for a in np.atleast_1d(axis))


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and bits(a) == bits(b)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_bits_equal_min_and_max_alone(dtype):
    checked = 0
    for shape, axes in CASES:
        for x in (random_array(shape, dtype, seed=len(shape) + 3), special(random_array(shape, dtype, seed=5), 6)):
            for axis in axes:
                where = f"{dtype} {shape} axis={axis}"
                if extent(shape, axis) == 0:
                    for fn in (hr.aminmax, hr.min):
                        with pytest.raises(ValueError, match="no identity"):
                            fn(x, axis)
                    continue
                lo, hi = hr.aminmax(x, axis)
                assert same(lo, hr.min(x, axis)) and same(hi, hr.max(x, axis)), where
                assert np.asarray(lo).dtype == dtype and np.asarray(hi).dtype == dtype, where
                if axis is None:
                    assert isinstance(lo, np.generic) and isinstance(hi, np.generic), where
                klo, khi = hr.aminmax(x, axis, keepdims=True)
                assert klo.shape == np.min(np.empty(shape), axis=axis, keepdims=True).shape, where
                assert same(klo, hr.min(x, axis, keepdims=True)) and same(khi, hr.max(x, axis, keepdims=True))
                if dtype in INTS or not np.isnan(x.astype(np.float64)).any():
                    # numpy's value (its -0.0/+0.0 choice depends on the order: compared as values)
                    assert np.array_equal(np.asarray(lo), np.min(x, axis=axis)), where
                    assert np.array_equal(np.asarray(hi), np.max(x, axis=axis)), where
                checked += 1
    assert checked > 60


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_nan_and_signed_zeros(dtype):
    nan_bits = bits(np.asarray(hr.min(np.array([1.0, np.nan], dtype))))
    for row in ([np.nan, 1.0, 2.0], [3.0, -np.nan, -4.0], [np.nan, np.nan], [np.inf, np.nan, -np.inf]):
        lo, hi = hr.aminmax(np.array(row, dtype))
        assert np.isnan(float(lo)) and np.isnan(float(hi)), row
        assert bits(np.asarray(lo)) == nan_bits and bits(np.asarray(hi)) == nan_bits, row  # the canonical NaN
    zeros = np.array([[0.0, -0.0], [-0.0, 0.0], [-0.0, -0.0], [0.0, 0.0]], dtype)
    lo, hi = hr.aminmax(zeros, 1)
    assert np.signbit(lo.astype(np.float64)).tolist() == [True, True, True, False]
    assert np.signbit(hi.astype(np.float64)).tolist() == [False, False, True, False]
    lo, hi = hr.aminmax(np.array([np.inf, -np.inf, 5.0], dtype))
    assert float(lo) == -np.inf and float(hi) == np.inf


def test_integer_extremes():
    for dtype in INTS:
        info = np.iinfo(dtype)
        x = np.array([[info.min, info.max, 0], [info.max, info.max, info.max]], dtype)
        lo, hi = hr.aminmax(x, 1)
        assert lo.tolist() == [info.min, info.max] and hi.tolist() == [info.max, info.max], dtype


@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.int16)] + ([BF16] if BF16 else []), ids=str)
def test_views_give_the_contiguous_bits(dtype):
    base = special(random_array((6, 5, 8, 3), dtype, seed=11), 12)
    views = [base.transpose(2, 0, 3, 1), base[::2, :, ::-3], base[:, 1:4, 2:7:2, :].swapaxes(0, 3),
             np.broadcast_to(base[:, :1, :, :], base.shape), base[..., 1]]
    if dtype.byteorder != "|":
        views.append(base.astype(dtype.newbyteorder()))  # byte-swapped: converted to the native order
    deep = random_array((2,) * 10, dtype, seed=13)  # more than 8 dimensions: the [kept, reduced] copy
    views.append(deep.transpose(9, 3, 0, 1, 2, 4, 5, 6, 7, 8))
    for v in views:
        c = np.ascontiguousarray(v)
        for axis in (None, 0, -1, (0, 2), (v.ndim - 1, 1), ()):
            got, want = hr.aminmax(v, axis), hr.aminmax(c, axis)
            assert same(got[0], want[0]) and same(got[1], want[1]), (v.shape, v.strides, axis)
            assert same(got[0], hr.min(v, axis)) and same(got[1], hr.max(v, axis)), (v.strides, axis)
    lo, hi = hr.aminmax(base, ())  # () reduces nothing: each element is its own min and max
    assert same(lo, base) and same(hi, base)


def test_out():
    x = special(random_array((4, 7, 5), np.dtype(np.float64), seed=14), 15)
    a, b = np.full((4, 5), 7.0), np.full((4, 5), 7.0)
    r = hr.aminmax(x, 1, out=(a, b))
    assert r[0] is a and r[1] is b
    assert same(a, hr.min(x, 1)) and same(b, hr.max(x, 1))
    a0, b0 = np.empty(()), np.empty(())
    hr.aminmax(x, out=(a0, b0))
    assert same(a0, np.asarray(hr.min(x))) and same(b0, np.asarray(hr.max(x)))
    buf = np.concatenate([x.reshape(-1), np.zeros(40)])  # out inside x's memory: computed apart, then copied
    xv = buf[:x.size].reshape(x.shape)
    o1, o2 = buf[x.size:x.size + 20].reshape(4, 5), buf[x.size + 20:].reshape(4, 5)
    want = hr.aminmax(x.copy(), 1)
    hr.aminmax(xv, 1, out=(o1, o2))
    assert same(o1, want[0]) and same(o2, want[1])
    xi = random_array((3, 9), np.dtype(np.uint16), seed=16)
    lo, hi = np.empty(3, np.uint16), np.empty(3, np.uint16)
    hr.aminmax(xi, 1, out=(lo, hi))
    assert lo.tolist() == xi.min(1).tolist() and hi.tolist() == xi.max(1).tolist()


def test_errors():
    x = random_array((4, 6), np.dtype(np.float32), seed=17)
    good = np.empty(4, np.float32)
    before = good.copy()
    cases = [(lambda: hr.aminmax(x, 1, out=good), TypeError, "tuple of two"),
             (lambda: hr.aminmax(x, 1, out=(good,)), TypeError, "tuple of two"),
             (lambda: hr.aminmax(x, 1, out=(good, np.empty(4, np.float64))), TypeError, "dtype"),
             (lambda: hr.aminmax(x, 1, out=(good, np.empty(6, np.float32))), ValueError, "shape"),
             (lambda: hr.aminmax(x, 1, out=(good, good)), ValueError, "share memory"),
             (lambda: hr.aminmax(x, 1, out=(good, np.empty(8, np.float32)[::2])), ValueError, "C-contiguous"),
             (lambda: hr.aminmax(x, 2), ValueError, "out of bounds"),
             (lambda: hr.aminmax(x, (1, -1)), ValueError, "duplicate"),
             (lambda: hr.aminmax(x > 0), TypeError, "bool"),
             (lambda: hr.aminmax(x.astype(np.complex64)), TypeError, "aminmax does not apply to c64"),
             (lambda: hr.aminmax(x, dim=1), TypeError, "torch"),
             (lambda: hr.aminmax(x, 1, keepdim=True), TypeError, "torch"),
             (lambda: hr.aminmax(x, 1, dtype=np.float64), TypeError, "dtype"),
             (lambda: hr.aminmax(np.zeros((0, 3), np.int8)), ValueError, "no identity")]
    for call, err, words in cases:
        with pytest.raises(err, match=words):
            call()
    assert same(good, before)  # nothing written


def test_exported():
    assert "aminmax" in hr.__all__ and hr.aminmax.__doc__ and "(min, max)" in hr.__doc__
