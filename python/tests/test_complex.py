"""complex64 and complex128 numpy arrays on the cpu device: sum, prod, dot, vdot, sum_squares, norm and
sum(exact=True), against numpy (within the library's error bounds) and exact references per
component; the default result dtypes; axis results with the bits of the whole reduction over their
elements; the ops that do not take complex inputs, each a TypeError carrying the library's message.
"""
import math

import numpy as np
import pytest

import hipreduce as hr

RNG = np.random.default_rng(20261207)
DTYPES = ("complex64", "complex128")


def random_complex(dtype, shape, near_one=False):
    re = RNG.uniform(-4, 4, shape)
    im = RNG.uniform(-4, 4, shape)
    if near_one:
        re, im = 1 + RNG.uniform(-0.2, 0.2, shape), RNG.uniform(-0.2, 0.2, shape)
    return (re + 1j * im).astype(dtype)


def unit(dtype):
    return 2.0 ** -24 if dtype == "complex64" else 2.0 ** -53


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 5, 2048, 2049, 30001])
def test_sums_and_dots(dtype, n):
    x, y = random_complex(dtype, n), random_complex(dtype, n)
    xl, yl = x.astype(np.clongdouble), y.astype(np.clongdouble)
    size = 40 * unit(dtype)
    s = hr.sum(x)
    assert s.dtype == np.dtype(dtype)
    assert abs(s.real - xl.real.sum()) <= size * np.abs(xl.real).sum() + 1e-300
    assert abs(s.imag - xl.imag.sum()) <= size * np.abs(xl.imag).sum() + 1e-300
    d, v = hr.dot(x, y), hr.vdot(x, y)
    terms = (np.abs(xl.real * yl.real) + np.abs(xl.imag * yl.imag)).sum() + (
        np.abs(xl.real * yl.imag) + np.abs(xl.imag * yl.real)).sum()
    assert abs(complex(d) - complex((xl * yl).sum())) <= 2 * size * terms + 1e-300
    assert abs(complex(v) - complex((np.conj(xl) * yl).sum())) <= 2 * size * terms + 1e-300
    squares = hr.sum_squares(x)
    assert squares.dtype == (np.float32 if dtype == "complex64" else np.float64)
    want = (np.abs(xl) ** 2).sum()
    assert abs(squares - want) <= 2 * size * want + 1e-300
    norm = hr.norm(x)
    root = math.sqrt(float(want))
    assert norm.dtype == squares.dtype and abs(norm - root) <= 4 * unit(dtype) * root + 1e-300
    if n == 0:
        assert s == 0 and d == 0 and v == 0 and hr.prod(x) == 1 and norm == 0


@pytest.mark.parametrize("dtype", DTYPES)
def test_prod_and_wider_result(dtype):
    x = random_complex(dtype, 300, near_one=True)
    p = hr.prod(x)
    want = complex(np.prod(x.astype(np.clongdouble)))
    assert abs(complex(p) - want) <= 300 * 4 * unit(dtype) * abs(want)
    if dtype == "complex64":
        wide = hr.sum(x, dtype="complex128")
        assert wide.dtype == np.complex128
        assert abs(wide - complex(x.astype(np.clongdouble).sum())) <= 40 * 2.0 ** -53 * np.abs(x).sum() * 2


@pytest.mark.parametrize("dtype", DTYPES)
def test_exact_sum_per_component(dtype):
    x = random_complex(dtype, 5000)
    x[::7] *= 1e30 if dtype == "complex128" else 1e15
    x[1::7] = -x[::7][: len(x[1::7])]  # cancellation: only an exact sum keeps the small terms
    s = hr.sum(x, exact=True)
    real = np.float32 if dtype == "complex64" else np.float64
    assert s.real == real(math.fsum(float(t) for t in x.real))
    assert s.imag == real(math.fsum(float(t) for t in x.imag))
    assert hr.sum(x[::-1], exact=True) == s  # the multiset only


@pytest.mark.parametrize("dtype", DTYPES)
def test_conjugation(dtype):
    x, y = random_complex(dtype, 3001), random_complex(dtype, 3001)
    xx = hr.vdot(x, x)
    assert xx.imag == 0 and math.copysign(1, xx.imag) == 1
    assert hr.vdot(x, y) == np.conj(hr.vdot(y, x))
    assert hr.dot(x, y).tobytes() == hr.vdot(np.conj(x), y).tobytes()
    r = RNG.uniform(-1, 1, 100)
    assert hr.vdot(r, r) == hr.dot(r, r)  # real inputs: vdot is dot


@pytest.mark.parametrize("dtype", DTYPES)
def test_axis_results_have_the_whole_reductions_bits(dtype):
    x = random_complex(dtype, (7, 2600))
    for f in (hr.sum, hr.prod, hr.norm, hr.sum_squares):
        rows, cols = f(x, axis=1), f(x, axis=0)
        for i in range(7):
            assert rows[i].tobytes() == f(np.ascontiguousarray(x[i])).tobytes()
        for j in (0, 1, 1299, 2599):
            assert cols[j].tobytes() == f(np.ascontiguousarray(x[:, j])).tobytes()
    assert hr.vdot(x, x, axis=0)[5].tobytes() == hr.vdot(x[:, 5].copy(), x[:, 5].copy()).tobytes()
    assert hr.sum(x, axis=0, exact=True)[3] == hr.sum(x[:, 3].copy(), exact=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["sum", "prod", "sum_exact", "norm"])
def test_segments(dtype, op):
    x = random_complex(dtype, 9000, near_one=op == "prod")
    offsets = np.array([0, 0, 17, 4000, 4000, 9000], dtype=np.int64)
    r = hr.segment_reduce(x, offsets, op=op)
    for s in range(5):
        part = np.ascontiguousarray(x[offsets[s]:offsets[s + 1]])
        want = hr.sum(part, exact=True) if op == "sum_exact" else getattr(hr, op)(part)
        assert r[s].tobytes() == np.asarray(want).tobytes()


def test_nan_per_component():
    x = np.array([1 + 1j, complex(2, np.nan), complex(np.inf, 3)], dtype=np.complex128)
    s = hr.sum(x)
    assert s.real == np.inf and np.isnan(s.imag)


@pytest.mark.parametrize("f", [hr.min, hr.max, hr.sum_abs, hr.max_abs, hr.argmax])
def test_ops_without_complex_inputs(f):
    with pytest.raises(TypeError, match="does not apply to c64 input"):
        f(np.ones(4, dtype=np.complex64))
    with pytest.raises(TypeError):  # the statistics convert to a float dtype first: numpy refuses
        hr.mean(np.ones(4, dtype=np.complex64))


def test_complex_result_of_a_real_input():
    with pytest.raises(TypeError, match="result dtype c64 not allowed"):
        hr.sum(np.ones(4, dtype=np.float32), dtype="complex64")
