"""The statistics' arguments on numpy arrays: any layout gives the bits of the contiguous copy (views,
negative and zero strides, more than 8 dimensions), out= (one array, var_mean's pair, bool or uint8
for all/any, an out that shares memory with the input), the correction's spellings, and every refusal
with its exception and message."""
import numpy as np
import pytest

import hipreduce as hr
from data import bits

ALL_STATS = ["mean", "nansum", "nanmean", "count_nonzero", "all", "any", "var", "std", "var_mean", "std_mean",
             "logsumexp", "nanmin", "nanmax"]


def results(op, x, axis, **kw):
    r = getattr(hr, op)(x, axis, **kw)
    return r if isinstance(r, tuple) else (r,)


def data(shape, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape).astype(np.float32) * 4
    x[rng.random(shape) < 0.1] = np.nan
    x[rng.random(shape) < 0.1] = 0
    return x


@pytest.mark.parametrize("op", ALL_STATS)
def test_layouts_give_the_contiguous_bits(op):
    base = data((6, 20, 9), seed=1)
    views = [base.transpose(2, 0, 1), base[::-1, ::3, 1:], base[:, 5, :], np.broadcast_to(base[:1], (4, 20, 9)),
             np.asfortranarray(base)]
    for v in views:
        c = np.ascontiguousarray(v)
        for axis in (None, 0, 1, (0, 2), (2, 0), -1, ()):
            if isinstance(axis, tuple) and max(axis, default=0) >= v.ndim:
                continue
            for got, want in zip(results(op, v, axis), results(op, c, axis)):
                assert bits(got) == bits(want), (op, v.shape, v.strides, axis)
    deep = data((2,) * 10, seed=2)  # past 8 dimensions: a [kept, reduced] copy, the same bits
    for axis in (None, (0, 9), (1, 3, 5), 4):
        for got, want in zip(results(op, deep, axis), results(op, np.moveaxis(deep, 0, 0).copy(), axis)):
            assert bits(got) == bits(want)
        reduced = np.atleast_1d(range(10) if axis is None else axis)
        kept = [a for a in range(10) if a not in reduced]
        rows = np.ascontiguousarray(deep.transpose(kept + list(reduced))).reshape(2 ** len(kept), -1)
        for got, want in zip(results(op, deep, axis), results(op, rows, 1)):
            assert bits(np.asarray(got).reshape(-1)) == bits(want), (op, axis)


def test_out():
    x = data((5, 30), seed=3)
    out = np.empty(5, np.float32)
    assert hr.mean(x, 1, out=out) is out and bits(out) == bits(hr.mean(x, 1))
    wide = np.empty(5, np.float64)  # out's dtype is the result's: the float32 input summed in float64
    hr.mean(x, 1, out=wide)
    assert bits(wide) == bits(hr.mean(x, 1, dtype=np.float64))
    pair = (np.empty(30, np.float32), np.empty(30, np.float32))
    assert hr.var_mean(x, 0, out=pair, ddof=1) is pair
    assert all(bits(o) == bits(r) for o, r in zip(pair, hr.var_mean(x, 0, ddof=1)))
    hr.std_mean(x, 0, out=pair)
    assert all(bits(o) == bits(r) for o, r in zip(pair, hr.std_mean(x, 0)))
    for dtype in (bool, np.uint8):
        o = np.empty(5, dtype)
        assert hr.any(x, 1, out=o) is o
        assert np.array_equal(o.astype(bool), np.any(x, axis=1)) and o.dtype == dtype
        hr.all(x, 1, out=o)
        assert np.array_equal(o.astype(bool), np.all(x, axis=1))
    counts = np.empty(30, np.int64)
    hr.count_nonzero(x, 0, out=counts)
    assert np.array_equal(counts, np.count_nonzero(x, axis=0))
    y = np.ascontiguousarray(np.abs(data((30, 30), seed=4)))  # out inside the input: computed apart
    want = hr.logsumexp(y, 0)
    hr.logsumexp(y, 0, out=y[0])
    assert bits(y[0]) == bits(want)
    z = data((8, 8), seed=5)
    want = hr.var_mean(z, 1)
    hr.var_mean(z, 1, out=(z[0], z[1]))
    assert bits(z[0]) == bits(want[0]) and bits(z[1]) == bits(want[1])


def test_refusals():
    x = data((4, 6), seed=6)
    bad = [
        (lambda: hr.var(x, dtype=np.float64), TypeError, "var of f32: result dtype f64 not allowed, use f32"),
        (lambda: hr.logsumexp(x, dtype=np.float16), TypeError, "logsumexp of f32: result dtype f16 not allowed"),
        (lambda: hr.mean(x, dtype=np.int32), TypeError, "mean of f32: result dtype i32 not allowed"),
        (lambda: hr.nanmin(x[:, :0], 1), ValueError, "nanmin of an empty axis"),
        (lambda: hr.mean(x, 2), ValueError, "out of bounds"),
        (lambda: hr.var(x, (0, 0)), ValueError, "duplicate"),
        (lambda: hr.var(x, ddof=1, correction=1), TypeError, "correction and ddof name the same argument"),
        (lambda: hr.std(x, unbiased=True), TypeError, "unbiased= is torch's spelling"),
        (lambda: hr.var(x, correction="1"), TypeError, "must be a real number"),
        (lambda: hr.var(x, correction=True), TypeError, "must be a real number"),
        (lambda: hr.mean(x, dim=1), TypeError, "torch's spellings"),
        (lambda: hr.var_mean(x, 0, out=np.empty(6, np.float32)), TypeError, "tuple of two arrays"),
        (lambda: hr.var_mean(x, 0, out=(np.empty(6, np.float32),) * 2), ValueError, "share memory"),
        (lambda: hr.var_mean(x, 0, out=(np.empty(6, np.float32), np.empty(6, np.float64))), TypeError,
         "out has dtype float64, the result is float32"),
        (lambda: hr.mean(x, 0, out=np.empty(4, np.float32)), ValueError, "out has shape"),
        (lambda: hr.all(x, 0, out=np.empty(6, np.int64)), TypeError, "out has dtype int64"),
        (lambda: hr.count_nonzero(x, 0, out=np.empty(6, np.int32)), TypeError, "out has dtype int32"),
        (lambda: hr.nansum(x.astype(np.complex64)), TypeError, "not supported"),
        (lambda: hr.count_nonzero(np.array(["a"])), TypeError, "not supported"),
    ]
    for call, err, match in bad:
        with pytest.raises(err, match=match):
            call()


def test_correction_spellings_and_defaults():
    x = data((3, 40), seed=7)
    x = np.nan_to_num(x)
    for c in (0, 1, 2, 0.5, np.int64(1), np.float32(1.5)):
        want = hr.var(x, 1, correction=c)
        assert bits(hr.var(x, 1, ddof=c)) == bits(want)
        assert np.allclose(want, np.var(x.astype(np.float64), axis=1, ddof=float(c)), rtol=1e-5)
    assert bits(hr.var(x)) == bits(hr.var(x, correction=0))  # numpy's default
    assert np.allclose(hr.std(x, 0, ddof=1), np.std(x, axis=0, ddof=1), rtol=1e-5)


def test_results_dtypes_and_kinds():
    x16 = data((4, 5), seed=8).astype(np.float16)
    assert hr.mean(x16).dtype == np.float16 and hr.mean(x16, dtype=np.float64).dtype == np.float64
    assert hr.var(x16, 0, dtype=np.float32).dtype == np.float32 and hr.nanmax(x16, 1).dtype == np.float16
    assert type(hr.count_nonzero(x16)) is np.int64 and type(hr.any(x16)) is np.bool_
    v, m = hr.std_mean(x16)
    assert type(v) is np.float16 and type(m) is np.float16
    kept = hr.var_mean(x16, keepdims=True)
    assert kept[0].shape == (1, 1) and kept[1].shape == (1, 1)
    assert hr.mean([1, 2, 3, 4]) == 2.5 and hr.all([[1, 0], [2, 3]], 1).tolist() == [False, True]
