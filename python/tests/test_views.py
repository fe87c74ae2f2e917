"""numpy views of any layout (transposes, slices with steps, negative strides, broadcasts), reduced
over random sets of axes where they lie: every function's results have the bits of the same call on
np.ascontiguousarray(view) and of the C API's simple call over each result's elements alone
(capi.reduce), and numpy's values (integers, min/max and indices exactly, floats within the default
order's bound), with keepdims and out=."""
import numpy as np
import pytest

import capi
import hipreduce as hr
from data import BF16, as_f64, bits, expected_dtype, float_bound, numpy_reference, random_array

DTYPES = [np.dtype(n) for n in ("int8", "uint16", "int32", "int64", "float16", "float32", "float64")] + \
    ([BF16] if BF16 is not None else [])
REDUCTIONS = ["sum", "prod", "min", "max", "sum_abs", "sum_squares", "max_abs", "norm", "sum_exact"]


def random_view(rng, dtype, op, seed, tied=False):
    """A view of rank 0-6 of a random base array: a slice of each axis with a step of -3..3 (never 0),
    a random transpose, and sometimes a broadcast (a new leading axis, or an extent-1 axis widened).
    tied: few distinct values (ties, for argmin/argmax), no -0.0 (which numpy ties with +0.0)."""
    rank = int(rng.integers(0, 7))
    extents = [int(e) for e in rng.choice([0, 1, 2, 3, 4, 5], size=rank, p=[0.04, 0.2, 0.24, 0.24, 0.16, 0.12])]
    steps = [int(rng.choice([-3, -2, -1, 1, 2, 3])) for _ in range(rank)]
    base_shape = tuple(max(1, e * abs(s) + int(rng.integers(0, 2))) for e, s in zip(extents, steps))
    base = random_array(base_shape, dtype, seed=seed, op=op)
    if tied:
        base = (as_f64(base).round(-1).clip(-100, 100) + 0.0 if dtype.kind == "f" or dtype == BF16
                else base.astype(np.int64) % 5).astype(dtype)
    index = []
    for e, s, b in zip(extents, steps, base_shape):
        start = (b - 1 - int(rng.integers(0, b - (e - 1) * abs(s)))) if s < 0 else \
            int(rng.integers(0, b - (e - 1) * abs(s))) if e > 0 else 0
        stop = start + e * s
        index.append(slice(start, stop if stop >= 0 else None, s) if e > 0 else slice(0, 0))
    view = base[tuple(index)]
    assert view.shape == tuple(extents)
    view = view.transpose(rng.permutation(rank)) if rank > 1 else view
    if rank < 6 and rng.random() < 0.25:
        view = np.broadcast_to(view, (int(rng.integers(1, 4)),) + view.shape)  # stride 0
    elif rank > 0 and rng.random() < 0.2 and 1 in view.shape:
        shape = list(view.shape)
        shape[shape.index(1)] = int(rng.integers(2, 5))
        view = np.broadcast_to(view, tuple(shape))
    return view


def random_axis(rng, ndim, arg=False):
    """None, an int, or (not for argmin/argmax) a tuple of distinct axes in any order, some negative."""
    r = rng.random()
    if r < 0.2 or ndim == 0:
        return None if ndim == 0 or r < 0.15 or arg else ()
    if r < 0.45 or arg:
        return int(rng.integers(-ndim, ndim))
    k = int(rng.integers(1, ndim + 1))
    return tuple(int(a) - (ndim if rng.random() < 0.3 else 0) for a in rng.permutation(ndim)[:k])


def reduced_count(shape, axis):
    return int(np.prod(shape)) if axis is None else int(np.prod([shape[a] for a in np.atleast_1d(axis).astype(int)]))


def call(op, x, axis, keepdims, out=None, dtype=None):
    if op == "sum_exact":
        return hr.sum(x, axis=axis, keepdims=keepdims, out=out, dtype=dtype, exact=True)
    return getattr(hr, op)(x, axis=axis, keepdims=keepdims, out=out, dtype=dtype)


@pytest.mark.parametrize("seed", range(6))
def test_random_views_reduce_in_place(seed):
    rng = np.random.default_rng(1000 + seed)
    for case in range(80):
        dtype = DTYPES[int(rng.integers(len(DTYPES)))]
        op = REDUCTIONS[int(rng.integers(len(REDUCTIONS)))]
        view = random_view(rng, dtype, "prod" if op == "prod" else None, seed * 1000 + case)
        axis = random_axis(rng, view.ndim)
        keepdims = bool(rng.random() < 0.3)
        copy = np.ascontiguousarray(view).reshape(view.shape)  # (at least 1-d otherwise)
        where = f"{op} {dtype} shape={view.shape} strides={view.strides} axis={axis} keepdims={keepdims}"
        if (op in ("norm", "sum_exact")) and dtype.kind in "iu":
            with pytest.raises(TypeError):
                call(op, view, axis, keepdims)
            continue
        if op in ("min", "max") and reduced_count(view.shape, axis) == 0:
            with pytest.raises(ValueError):
                call(op, view, axis, keepdims)
            with pytest.raises(ValueError):
                getattr(np, op)(copy, axis=axis)
            continue
        got = call(op, view, axis, keepdims)
        assert bits(got) == bits(call(op, copy, axis, keepdims)), where
        rdt = expected_dtype("sum" if op == "sum_exact" else op, dtype)
        assert np.asarray(got).dtype == rdt and np.shape(got) == np.sum(copy, axis=axis, keepdims=keepdims).shape, where
        if op != "sum_exact":  # each result: the simple call over its elements alone
            assert bits(got) == bits(capi.reduce(op, copy, axis, rdt)), where
        if rng.random() < 0.4:  # out=, of the result's shape and dtype
            out = np.empty(np.shape(got), rdt)
            assert call(op, view, axis, keepdims, out=out) is out and bits(out) == bits(got), where
        ref = numpy_reference("sum" if op == "sum_exact" else op, copy, axis, rdt)
        ref = ref.reshape(np.shape(got)) if keepdims else ref
        if dtype.kind in "iu":
            assert np.array_equal(np.asarray(got), ref.astype(rdt)), where
        elif op in ("min", "max", "max_abs"):
            assert np.array_equal(as_f64(got), ref), where
        else:
            bound = float_bound("sum" if op == "sum_exact" else op, copy, axis, rdt)
            bound = bound.reshape(np.shape(got)) if keepdims else bound
            err = np.where(np.isinf(as_f64(got)), 0.0, np.abs(as_f64(got) - ref))
            assert np.all(err <= bound), (where, err.max())


@pytest.mark.parametrize("seed", range(3))
def test_random_views_argreduce_and_dot(seed):
    rng = np.random.default_rng(2000 + seed)
    for case in range(80):
        dtype = DTYPES[int(rng.integers(len(DTYPES)))]
        view = random_view(rng, dtype, None, seed * 1000 + case, tied=True)
        copy = np.ascontiguousarray(view).reshape(view.shape)  # (at least 1-d otherwise)
        for op in ("argmin", "argmax"):
            axis = random_axis(rng, view.ndim, arg=True)
            keepdims = bool(rng.random() < 0.3)
            where = (op, dtype, view.shape, view.strides, axis)
            if reduced_count(view.shape, axis) == 0:
                with pytest.raises(ValueError):
                    getattr(hr, op)(view, axis=axis)
                continue
            got = getattr(hr, op)(view, axis=axis, keepdims=keepdims)
            assert np.array_equal(got, getattr(np, op)(as_f64(copy), axis=axis, keepdims=keepdims)), where
            values, indices = getattr(hr, op)(view, axis=axis, return_value=True)
            assert np.array_equal(indices, getattr(hr, op)(copy, axis=axis)), where
            assert bits(values) == bits(getattr(hr, op[3:])(copy, axis=axis)), where
        # dot: y with the same shape in another layout (negative strides on every axis).
        y = random_array(view.shape, dtype, seed=seed * 1000 + case + 1)
        flip = (slice(None, None, -1),) * y.ndim
        y_view = np.ascontiguousarray(y[flip]).reshape(y.shape)[flip]
        axis = random_axis(rng, view.ndim)
        keepdims = bool(rng.random() < 0.3)
        got = hr.dot(view, y_view, axis=axis, keepdims=keepdims)
        assert bits(got) == bits(hr.dot(copy, y, axis=axis, keepdims=keepdims)), (dtype, view.shape, axis)
        rdt = expected_dtype("sum", dtype)
        if dtype.kind in "iu":
            wide = np.int64 if rdt.kind == "i" else np.uint64
            ref = np.sum(copy.astype(wide) * y.astype(wide), axis=axis, keepdims=keepdims, dtype=rdt)
            assert np.array_equal(np.asarray(got), ref), (dtype, view.shape, axis)
        else:
            p = as_f64(copy) * as_f64(y)
            ref = p.sum(axis=axis, keepdims=keepdims)
            acc = np.finfo(np.float64 if dtype == np.float64 else np.float32).eps
            out_eps = float(np.finfo(np.float32).eps * 2 ** 16) if rdt == BF16 else np.finfo(rdt).eps
            n = reduced_count(view.shape, axis)
            bound = (n + 2) * acc * np.abs(p).sum(axis=axis, keepdims=keepdims) + out_eps * np.abs(ref) * 1.01
            assert np.all(np.abs(as_f64(got) - ref) <= bound + 1e-300), (dtype, view.shape, axis)


def test_layouts_of_one_array_give_one_result():
    # The bits depend on the logical values and the reduced axes only: a tensor, its transposed and
    # channels-last copies and strided views of a larger array agree.
    x = random_array((6, 5, 4, 3), np.dtype(np.float32), seed=21)
    channels_last = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    fortran = np.asfortranarray(x)
    big = np.zeros((12, 5, 8, 3), np.float32)
    big[::2, :, ::2] = x
    strided = big[::2, :, ::2]
    reversed_twice = np.ascontiguousarray(x[::-1, :, ::-1])[::-1, :, ::-1]
    for axis in (None, 0, 1, (0, 2, 3), (1, 3), (3, 0), ()):
        expect = bits(hr.sum(x, axis=axis))
        for v in (channels_last, fortran, strided, reversed_twice):
            assert bits(hr.sum(v, axis=axis)) == expect, axis
            assert bits(hr.norm(v, axis=axis)) == bits(hr.norm(x, axis=axis)), axis


def test_huge_broadcast_view():
    # A view whose contiguous copy would take 4 TiB: its rows are reduced from the one element.
    b = np.broadcast_to(np.float32(1.5), (1 << 20, 1 << 20))
    assert np.array_equal(hr.sum(b[:3], axis=1), np.full(3, 1.5 * (1 << 20), np.float32))
    assert hr.max(b[:2, ::1024]) == 1.5 and hr.argmax(b[5]) == 0


def test_more_than_eight_dimensions():
    # The library's descriptor holds 8; a 10-d array whose axes do not merge is reduced from a copy
    # with its reduced axes last, with the same bits.
    x = random_array((2,) * 10, np.dtype(np.float32), seed=4)
    v = x.transpose(9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
    for axis in (None, 0, (1, 3, 5, 7, 9), (0, 2)):
        assert bits(hr.sum(v, axis=axis)) == bits(capi.reduce("sum", v, axis, np.float32)), axis
    assert np.array_equal(hr.argmax(v, axis=3), np.argmax(v, axis=3))
    w = np.ones((1,) * 62 + (2, 3), np.int16)  # numpy's most: 64, past a 64-bit mask of axes
    assert hr.sum(w, axis=(63, -2)).shape == (1,) * 62 and hr.sum(w, axis=(63, -2)).item() == 6


def test_out_overlapping_a_strided_input():
    x = random_array((5, 5), np.dtype(np.float64), seed=8)
    expect = hr.sum(x.T, axis=1)
    row = x[0]
    assert hr.sum(x.T, axis=1, out=row) is row and np.array_equal(x[0], expect)
