"""index_add, scatter_reduce, bincount and unsorted_segment_reduce on numpy arrays (the cpu device): the
values of numpy's own calls (np.add.at, np.bincount, ufunc.at), the bits of reduce_by_key for every bin
with rows, the element-wise steps around it as documented, and bad arguments as the package's errors."""
import numpy as np
import pytest

import hipreduce as hr
from data import BF16, bits


def keys_of(rng, n, bins):
    return rng.integers(0, bins, n)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int8, np.uint8, np.float16])
@pytest.mark.parametrize("shape, dim", [((7,), 0), ((6, 5), 0), ((6, 5), 1), ((4, 6, 3), -2), ((3, 4, 5), 2)])
def test_index_add_is_out_plus_the_by_key_sum(dtype, shape, dim):
    rng = np.random.default_rng(3)
    out = (rng.standard_normal(shape) * 50).astype(dtype)
    d = dim % len(shape)
    n = 11
    src_shape = shape[:d] + (n,) + shape[d + 1:]
    src = (rng.standard_normal(src_shape) * 50).astype(dtype)
    index = keys_of(rng, n, shape[d] - 1)  # the last slice of out gets nothing: keeps its bits
    got = hr.index_add(out, index, src, dim=dim)
    assert got.shape == out.shape and got.dtype == out.dtype and got.flags.c_contiguous
    # The documented computation: reduce_by_key's sums (float32 for float16), one add, one rounding.
    acc = np.float32 if dtype == np.float16 else dtype
    rows = np.moveaxis(src, d, 0).reshape(n, -1)
    sums, counts = hr.reduce_by_key(rows, index, shape[d], "sum", dtype=acc, counts=True)
    moved = np.moveaxis(out, d, 0)
    added = (moved.astype(acc) + sums.reshape(moved.shape)).astype(dtype)
    expect = np.moveaxis(np.where((counts > 0).reshape((-1,) + (1,) * (len(shape) - 1)), added, moved), 0, d)
    assert bits(got) == bits(np.ascontiguousarray(expect))
    assert np.array_equal(got[(slice(None),) * d + (-1,)], out[(slice(None),) * d + (-1,)])
    # numpy's np.add.at (in input order, one rounding per add): equal for integers, close for floats.
    ref = out.copy()
    np.add.at(ref, (slice(None),) * d + (index,), src)
    if np.dtype(dtype).kind in "iu":
        assert np.array_equal(got, ref)
    else:
        tol = 5e-2 if dtype == np.float16 else 1e-4
        np.testing.assert_allclose(got.astype(np.float64), ref.astype(np.float64), rtol=tol, atol=tol * 50)


def test_index_add_alpha_scales_the_sum_once_and_keeps_untouched_bits():
    out = np.array([-0.0, 1.5, -0.0, 2.0], np.float32)
    src = np.array([0.1, 0.2, 0.3], np.float32)
    index = np.array([1, 3, 1])
    got = hr.index_add(out, index, src, alpha=0.5)
    s = hr.reduce_by_key(src, index, 4, "sum")
    assert bits(got[[1, 3]]) == bits(out[[1, 3]] + s[[1, 3]] * np.float32(0.5))
    assert bits(got[[0, 2]]) == bits(out[[0, 2]])  # -0.0 stays -0.0
    assert np.array_equal(hr.index_add(np.arange(4, dtype=np.int64), index, np.array([1, 2, 3]), alpha=3),
                          [0, 1 + 12, 2, 3 + 6])
    empty = hr.index_add(out, np.zeros(0, np.int64), np.zeros(0, np.float32))
    assert bits(empty) == bits(out)


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.float16] + ([BF16] if BF16 else []), ids=str)
def test_scatter_reduce_bins_with_rows_have_reduce_by_key_bits(reduce, dtype):
    rng = np.random.default_rng(7)
    bins = 40
    for shape in ((500,), (300, 3)):
        src = (rng.standard_normal(shape) * 4).astype(dtype)
        index = np.minimum(rng.zipf(1.6, shape[0]) - 1, bins - 6)  # the last bins stay empty
        if reduce == "mean" and np.dtype(dtype).kind == "i":
            with pytest.raises(TypeError):
                hr.scatter_reduce(src, index, bins, reduce)
            continue
        got = hr.scatter_reduce(src, index, bins, reduce)
        assert got.shape == (bins,) + shape[1:] and got.dtype == src.dtype
        counts = np.bincount(index, minlength=bins)
        assert not np.any(got[counts == 0].astype(np.float64))  # include_self=False over a zero self
        if reduce == "mean":
            acc = np.float32 if np.dtype(dtype).itemsize == 2 else dtype
            s = hr.reduce_by_key(src, index, bins, "sum", dtype=acc)
            n = np.maximum(counts, 1).astype(acc)
            expect = (s / (n if s.ndim == 1 else n[:, None])).astype(dtype)
        else:
            expect = hr.reduce_by_key(src, index, bins, {"amax": "max", "amin": "min"}.get(reduce, reduce),
                                      dtype=dtype)
        assert bits(got[counts > 0]) == bits(expect[counts > 0]), (reduce, shape)
        if dtype in (np.float64, np.int32):  # against numpy's ufunc.at, in input order
            ufunc = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum}
            ref = np.zeros((bins,) + shape[1:], np.float64 if reduce == "mean" else dtype)
            first = np.zeros(bins, bool)
            for i, k in enumerate(index):  # the first row sets the bin (include_self=False)
                ref[k] = src[i] if not first[k] else ufunc[reduce](ref[k], src[i])
                first[k] = True
            if reduce == "mean":
                ref = ref / np.maximum(counts, 1).reshape((-1,) + (1,) * (len(shape) - 1))
            np.testing.assert_allclose(got, ref, rtol=1e-12 if dtype == np.float64 else 0)


def test_bincount_as_numpy():
    rng = np.random.default_rng(1)
    x = rng.integers(0, 300, 5000)
    w = rng.standard_normal(5000)
    for keys in (x, x.astype(np.int32), x.astype(np.uint16), x.astype(np.uint64), [3, 1, 1, 0]):
        assert np.array_equal(hr.bincount(keys), np.bincount(keys))
        assert hr.bincount(keys).dtype == np.int64
    assert np.array_equal(hr.bincount(x, minlength=400), np.bincount(x, minlength=400))
    assert np.array_equal(hr.bincount(np.array([True, False, True])), [1, 2])
    assert np.array_equal(hr.bincount(np.zeros(0, np.int64), minlength=3), np.zeros(3))
    assert hr.bincount(np.zeros(0, np.int64)).shape == (0,)
    got = hr.bincount(x, weights=w)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, np.bincount(x, weights=w), rtol=1e-12, atol=1e-12)
    assert bits(got) == bits(hr.reduce_by_key(w, x, 300, "sum"))
    for wd in (np.float32, np.int32, np.float16):  # numpy's result: float64
        got = hr.bincount(x, weights=w.astype(wd) if wd != np.int32 else (w * 10).astype(wd))
        assert got.dtype == np.float64
    f32 = w.astype(np.float32)
    assert bits(hr.bincount(x, f32)) == bits(hr.reduce_by_key(f32, x, 300, "sum", dtype=np.float64))


@pytest.mark.parametrize("op", ["sum", "prod", "min", "max", "mean", "sum_exact", "argmax"])
def test_unsorted_segment_reduce_is_reduce_by_key_over_rows(op):
    rng = np.random.default_rng(2)
    x = rng.standard_normal((200, 3, 2)).astype(np.float32)
    ids = rng.integers(0, 30, 200)
    got = hr.unsorted_segment_reduce(x, ids, 32, op)
    assert got.shape == (32, 3, 2)
    if op == "mean":
        s, c = hr.reduce_by_key(x.reshape(200, 6), ids, 32, "sum", counts=True)
        expect = s / np.maximum(c, 1).astype(np.float32)[:, None]
        assert not np.any(got[30:])  # an empty segment's mean is 0 (TensorFlow's)
    else:
        expect = hr.reduce_by_key(x.reshape(200, 6), ids, 32, op)
    assert bits(got.reshape(32, 6)) == bits(expect)
    one = hr.unsorted_segment_reduce(x[:, 0, 0], ids, 32, op)
    assert bits(one) == bits(expect[:, 0])


def test_sum_exact_does_not_depend_on_the_order():
    rng = np.random.default_rng(4)
    x = (rng.standard_normal(3000) * 10.0 ** rng.integers(-8, 8, 3000)).astype(np.float64)
    ids = rng.integers(0, 17, 3000)
    perm = rng.permutation(3000)
    a = hr.unsorted_segment_reduce(x, ids, 17, "sum_exact")
    assert bits(a) == bits(hr.unsorted_segment_reduce(x[perm], ids[perm], 17, "sum_exact"))


def test_bad_arguments():
    x = np.ones((4, 3), np.float32)
    with pytest.raises(ValueError, match="extents"):
        hr.index_add(x, [0, 1], np.ones((2, 4), np.float32))
    with pytest.raises(TypeError, match="dtype"):
        hr.index_add(x, [0, 1], np.ones((2, 3), np.float64))
    with pytest.raises(TypeError, match="alpha"):
        hr.index_add(np.ones(3, np.int32), [0], np.ones(1, np.int32), alpha=0.5)
    with pytest.raises(ValueError, match="out of bounds"):
        hr.index_add(x, [0, 1], np.ones((2, 3), np.float32), dim=2)
    with pytest.raises(ValueError):  # a key past out's extent: the cpu device names it
        hr.index_add(x, [0, 4], np.ones((2, 3), np.float32))
    with pytest.raises(ValueError):
        hr.index_add(np.float32(1), [0], np.ones(1, np.float32))
    with pytest.raises(ValueError, match="unknown reduce"):
        hr.scatter_reduce(x, [0, 1, 0, 1], 2, "max")
    with pytest.raises(ValueError):
        hr.scatter_reduce(x, [0, 1, 0], 2)  # keys of another length
    with pytest.raises(TypeError):
        hr.scatter_reduce(x, np.array([0.0, 1, 0, 1]), 2)  # float keys
    with pytest.raises(ValueError, match="negative"):
        hr.bincount(np.array([1, -1, 2]))
    with pytest.raises(ValueError, match="negative"):
        hr.bincount(np.array([1, 2]), minlength=-1)
    with pytest.raises(TypeError, match="integer keys"):
        hr.bincount(np.array([1.0, 2.0]))
    with pytest.raises(ValueError, match="1-d"):
        hr.bincount(np.ones((2, 2), np.int64))
    with pytest.raises(ValueError, match="weights"):
        hr.bincount(np.array([1, 2]), weights=np.ones(3))
    with pytest.raises(ValueError):
        hr.unsorted_segment_reduce(x, [0, 1, 5, 1], 3)  # id past num_segments
    with pytest.raises(ValueError, match="unknown op"):
        hr.unsorted_segment_reduce(x, [0, 1, 0, 1], 3, "median")
    with pytest.raises(TypeError, match="mean"):
        hr.unsorted_segment_reduce(np.ones(4, np.int32), [0, 1, 0, 1], 3, "mean")
