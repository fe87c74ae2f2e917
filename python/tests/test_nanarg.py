"""hipreduce.nanargmin and nanargmax: numpy's indices for every float dtype, shape and single axis of
data.CASES with NaNs mixed in (the value from the same pass with return_value=True); integers give
argmin's and argmax's result; numpy's ValueError for an all-NaN slice and an empty axis; torch tensors
(on the CPU here; on a GPU in test_gpu_stats' run) give index -1 for an all-NaN slice instead, as cupy
does; strided views; out=."""
import numpy as np
import pytest

import hipreduce as hr
from data import CASES, FLOATS, INTS, bits, random_array


def with_nans(x, seed, share):
    x = x.copy()
    rng = np.random.default_rng(seed)
    x[rng.random(x.shape) < share] = np.nan
    return x


def single_axes(axes):
    return [a for a in axes if not isinstance(a, tuple)]


@pytest.mark.parametrize("name", ["nanargmin", "nanargmax"])
@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_numpy_indices_and_values(name, dtype):
    checked = 0
    for shape, axes in CASES:
        for share in (0.0, 0.3):
            x = with_nans(random_array(shape, dtype, seed=len(shape) + 7), seed=8, share=share)
            x64 = x.astype(np.float64)  # numpy's nanargmin of float16/bfloat16 through float64: same order
            for axis in single_axes(axes):
                extent = x.size if axis is None else shape[axis]
                where = f"{name} {dtype} {shape} axis={axis} nan share {share}"
                if extent == 0:
                    with pytest.raises(ValueError):
                        getattr(hr, name)(x, axis)
                    continue
                try:
                    want = getattr(np, name)(x64, axis=axis)
                except ValueError:  # an all-NaN slice: numpy's error, and ours
                    with pytest.raises(ValueError, match="All-NaN"):
                        getattr(hr, name)(x, axis)
                    continue
                got = getattr(hr, name)(x, axis)
                assert np.asarray(got).dtype == np.int64 and np.array_equal(got, want), where
                values, indices = getattr(hr, name)(x, axis, return_value=True)
                assert np.array_equal(indices, want), where
                taken = x.reshape(-1)[want] if axis is None else np.take_along_axis(
                    x, np.expand_dims(want, axis), axis).squeeze(axis)
                assert np.asarray(values).dtype == dtype and bits(np.asarray(values)) == bits(np.asarray(taken)), where
                checked += 1
    assert checked > 20


def test_ties_signed_zeros_and_infinities():
    x = np.array([np.nan, 2.0, -0.0, 0.0, -0.0, np.inf, np.nan, -np.inf, -np.inf, 5.0])
    assert hr.nanargmin(x) == 7 and hr.nanargmax(x) == 5
    z = np.array([np.nan, 0.0, -0.0, 0.0, -0.0])  # -0.0 below +0.0, the first of equals
    assert hr.nanargmin(z) == 2 and hr.nanargmax(z) == 1
    assert hr.nanargmin(np.array([np.nan, np.inf])) == 1 and hr.nanargmax(np.array([-np.inf, np.nan])) == 0


@pytest.mark.parametrize("dtype", INTS, ids=str)
def test_integers_are_argmin_argmax(dtype):
    x = random_array((6, 50), dtype, seed=3)
    for axis in (None, 0, 1):
        assert np.array_equal(hr.nanargmin(x, axis), hr.argmin(x, axis))
        assert np.array_equal(hr.nanargmax(x, axis), hr.argmax(x, axis))


def test_views_out_and_errors():
    x = with_nans(random_array((40, 60), np.dtype(np.float32), seed=5), seed=6, share=0.2)
    for view in (x.T, x[:, ::3], x[::-2, 5:]):
        for axis in (0, 1):
            assert np.array_equal(hr.nanargmin(view, axis), np.nanargmin(view, axis=axis))
            assert np.array_equal(hr.nanargmax(view, axis, keepdims=True), np.nanargmax(view, axis=axis, keepdims=True))
    out = np.empty(60, np.int64)
    assert hr.nanargmax(x, 0, out=out) is out and np.array_equal(out, np.nanargmax(x, axis=0))
    with pytest.raises(TypeError, match="not a tuple"):
        hr.nanargmin(x, (0, 1))
    with pytest.raises(ValueError, match="All-NaN"):
        hr.nanargmin(np.full((3, 4), np.nan, np.float32), 1)


def test_torch_all_nan_slice_is_minus_one():
    torch = pytest.importorskip("torch")
    x = torch.tensor([[1.0, float("nan"), -2.0], [float("nan")] * 3, [float("nan"), 4.0, 4.0]])
    assert hr.nanargmin(x, 1).tolist() == [2, -1, 1]
    values, indices = hr.nanargmax(x, 1, return_value=True)
    assert indices.tolist() == [0, -1, 1] and torch.isnan(values[1]) and values[2] == 4.0
    assert hr.nanargmin(x).item() == 2  # the flattened row-major index
