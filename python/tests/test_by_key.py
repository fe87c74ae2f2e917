"""reduce_by_key on the cpu device: each bin has the bits of the same function over its values gathered
in input order (values[keys == b]); numpy's np.add.at / np.minimum.at / bincount give the values
(integers and min/max exactly, floats within the default order's bound); sum_exact does not depend on
the rows' order; identities for empty bins; counts; out=, dtype=; bad arguments raise and write nothing."""
import numpy as np
import pytest

import hipreduce as hr
from data import BF16, as_f64, bits, random_array

OPS = ["sum", "prod", "min", "max", "sum_abs", "sum_squares", "max_abs", "norm", "sum_exact", "argmin", "argmax"]
DTYPES = [np.dtype(n) for n in ("int8", "int32", "uint64", "float16", "float32", "float64")] + \
    ([BF16] if BF16 is not None else [])


def key_patterns(rng, n, bins):
    return {"uniform": rng.integers(0, bins, n), "one key": np.full(n, bins // 2),
            "sorted": np.sort(rng.integers(0, bins, n)), "reversed": np.sort(rng.integers(0, bins, n))[::-1],
            "zipf": np.minimum(rng.zipf(1.5, n) - 1, bins - 1)}


def per_bin(op, values, keys, bins, dtype):
    """The function of the same name over each bin's values in input order (an empty bin: None)."""
    out = []
    for b in range(bins):
        rows = values[keys == b]
        if rows.shape[0] == 0:
            out.append(None)
        elif op == "sum_exact":
            out.append(hr.sum(rows, axis=0, exact=True, dtype=dtype))
        elif op in ("argmin", "argmax"):
            out.append(np.flatnonzero(keys == b)[getattr(hr, op)(rows, axis=0)])  # row indices
        else:
            out.append(getattr(hr, op)(rows, axis=0, dtype=dtype))
    return out


def identity(op, got_dtype):
    if op in ("argmin", "argmax"):
        return -1
    if op == "prod":
        return 1
    if op not in ("min", "max"):
        return 0
    if got_dtype.kind in "iu":
        info = np.iinfo(got_dtype)
        return info.max if op == "min" else info.min
    return np.inf if op == "min" else -np.inf


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_bins_equal_the_function_over_their_values(op, dtype):
    rng = np.random.default_rng(5)
    if (op in ("norm", "sum_exact")) and dtype.kind in "iu":
        with pytest.raises(TypeError):
            hr.reduce_by_key(np.ones(3, dtype), [0, 1, 0], 2, op=op)
        return
    for shape in ((0,), (1,), (300,), (257, 3)):
        values = random_array(shape, dtype, seed=shape[0], op=op)
        if op in ("argmin", "argmax") and (dtype.kind == "f" or dtype == BF16):  # ties, no -0.0
            values = (as_f64(values).round(-1) + 0.0).astype(dtype)
        for bins in (1, 9, 400):
            for name, keys in key_patterns(rng, shape[0], bins).items():
                where = f"{op} {dtype} {shape} bins={bins} keys={name}"
                got, counts = hr.reduce_by_key(values, keys, bins, op=op, counts=True)
                assert got.shape == (bins,) + shape[1:], where
                assert np.array_equal(counts, np.bincount(keys, minlength=bins)), where
                for b, expect in enumerate(per_bin(op, values, keys, bins, None if op[:3] == "arg" else got.dtype)):
                    if expect is None:
                        cell = as_f64(got[b]) if got.dtype.kind == "f" or got.dtype == BF16 else got[b]
                        assert np.all(cell == identity(op, got.dtype)), (where, b)
                    else:
                        assert bits(got[b]) == bits(np.asarray(expect)), (where, b)


@pytest.mark.parametrize("dtype", [np.dtype(np.int32), np.dtype(np.float32), np.dtype(np.float64)], ids=str)
def test_against_numpy_scatter(dtype):
    rng = np.random.default_rng(9)
    values = random_array((1000, 4), dtype, seed=2)
    keys = rng.integers(0, 37, 1000).astype(np.int32)
    got = hr.reduce_by_key(values, keys, 37)
    rdt = got.dtype
    ref = np.zeros((37, 4), np.float64 if dtype.kind == "f" else rdt)
    np.add.at(ref, keys, values.astype(ref.dtype))
    if dtype.kind in "iu":
        assert np.array_equal(got, ref)
    else:  # the default order's bound: (count + 2) eps of each bin's sum of |x|
        abs_sum = np.zeros((37, 4))
        np.add.at(abs_sum, keys, np.abs(values.astype(np.float64)))
        count = np.bincount(keys, minlength=37)[:, None]
        assert np.all(np.abs(got - ref) <= (count + 2) * np.finfo(dtype).eps * abs_sum + 1e-300)
    for op, ufunc in (("min", np.minimum), ("max", np.maximum)):
        lo, hi = (np.iinfo(dtype).min, np.iinfo(dtype).max) if dtype.kind == "i" else (-np.inf, np.inf)
        ref = np.full((37, 4), hi if op == "min" else lo, dtype)
        ufunc.at(ref, keys, values)
        assert np.array_equal(hr.reduce_by_key(values, keys, 37, op=op), ref)


def test_exact_sum_ignores_the_order():
    rng = np.random.default_rng(3)
    values = (rng.standard_normal(5000) * 10.0 ** rng.integers(-20, 20, 5000)).astype(np.float64)
    keys = rng.integers(0, 50, 5000)
    got = hr.reduce_by_key(values, keys, 50, op="sum_exact")
    perm = rng.permutation(5000)
    assert bits(got) == bits(hr.reduce_by_key(values[perm], keys[perm], 50, op="sum_exact"))
    assert bits(got) == bits(hr.reduce_by_key(values, keys.astype(np.int32), 50, op="sum_exact"))


def test_special_values_follow_the_simple_calls():
    values = np.array([1.0, np.nan, -0.0, 0.0, np.inf, -0.0, 5.0, -np.inf], np.float32)
    keys = np.array([0, 0, 1, 1, 2, 3, 2, 2])
    for op in ("sum", "min", "max", "argmax", "sum_exact"):
        got = hr.reduce_by_key(values, keys, 4, op=op)
        for b, expect in enumerate(per_bin(op, values, keys, 4, None if op == "argmax" else got.dtype)):
            assert bits(got[b]) == bits(np.asarray(expect)), (op, b)


def test_layouts_out_and_dtype():
    rng = np.random.default_rng(4)
    big = random_array((200, 6), np.dtype(np.float32), seed=1)
    keys = rng.integers(0, 10, 100)
    strided = big[::2, ::2]  # rows apart, features apart: copied to contiguous rows
    expect = hr.reduce_by_key(np.ascontiguousarray(strided), keys, 10)
    assert bits(hr.reduce_by_key(strided, keys, 10)) == bits(expect)
    assert bits(hr.reduce_by_key(strided, keys[::-1].copy()[::-1], 10)) == bits(expect)  # strided keys
    out = np.empty((10, 3), np.float64)
    assert hr.reduce_by_key(strided, keys, 10, out=out) is out  # out's dtype is the result dtype
    assert bits(out) == bits(hr.reduce_by_key(strided, keys, 10, dtype=np.float64))
    idx = np.empty((10, 3), np.int64)
    assert hr.reduce_by_key(strided, keys, 10, op="argmin", out=idx) is idx
    # An out inside the values: the result of an out apart from them.
    values = np.ascontiguousarray(big[:100, :3])
    apart = hr.reduce_by_key(values, keys, 10)
    inside = values[:10]
    assert hr.reduce_by_key(values, keys, 10, out=inside) is inside and bits(values[:10]) == bits(apart)
    assert hr.reduce_by_key(np.ones(5), [0, 1, 2, 3, 4], 0 + 5).tolist() == [1.0] * 5
    assert hr.reduce_by_key(np.ones((0, 2)), np.zeros(0, np.int64), 0).shape == (0, 2)
    assert hr.reduce_by_key(np.arange(4, dtype=np.int8), [1, 1, 0, 1], 2).dtype == np.int64  # sum's default


def test_bad_arguments_raise_and_write_nothing():
    values = np.ones((4, 2), np.float32)
    out = np.full((3, 2), 7.0, np.float32)
    with pytest.raises(ValueError, match="key"):  # a key past num_bins: named by the library
        hr.reduce_by_key(values, [0, 1, 3, 2], 3, out=out)
    with pytest.raises(ValueError, match="key"):
        hr.reduce_by_key(values, [0, -1, 1, 2], 3, out=out)
    assert np.all(out == 7.0)
    cases = [
        ((values, np.zeros(4, np.float32), 3), TypeError),   # keys must be int32/int64
        ((values, np.zeros(4, np.int16), 3), TypeError),
        ((values, np.zeros(5, np.int64), 3), ValueError),    # one key per row
        ((values, np.zeros((4, 1), np.int64), 3), ValueError),
        ((np.ones((2, 2, 2)), np.zeros(2, np.int64), 3), ValueError),  # [n] or [n, d]
        ((np.ones(()), np.zeros(1, np.int64), 3), ValueError),
        ((np.ones((3, 0)), np.zeros(3, np.int64), 3), ValueError),     # no feature
        ((values, np.zeros(4, np.int64), -1), ValueError),
        ((values, np.zeros(4, np.int64), 2.0), TypeError),
    ]
    for args, exc in cases:
        with pytest.raises(exc):
            hr.reduce_by_key(*args)
    with pytest.raises(ValueError, match="unknown op"):
        hr.reduce_by_key(values, np.zeros(4, np.int64), 3, op="mean")
    with pytest.raises(TypeError):
        hr.reduce_by_key(values, np.zeros(4, np.int64), 3, op="xor")  # bitwise ops are for integers
    with pytest.raises(TypeError):
        hr.reduce_by_key(values, np.zeros(4, np.int64), 3, op="argmax", dtype=np.int64)
    with pytest.raises(ValueError, match="shape"):
        hr.reduce_by_key(values, np.zeros(4, np.int64), 3, out=np.empty((3,), np.float32))
