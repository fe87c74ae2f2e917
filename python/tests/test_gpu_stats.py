"""The statistics on GPU arrays (torch CUDA tensors, cupy arrays), in CTest's python_gpu with test_gpu.py
(whose functions these are: skipped where a framework or a GPU is missing, failed under
HIPREDUCE_REQUIRE_GPU=1): results of the input's framework on its device with the bits of the cpu device
for the same function of the same numpy array, over every shape and axis set, strided views included
(aminmax: every dtype, both results); nanargmin and nanargmax against numpy's indices (-1 for an all-NaN
slice); hipreduce.torch's operators and gradients on the GPU against the CPU's."""
import numpy as np
import pytest

import hipreduce as hr
from data import FLOATS, bits, random_array
from test_gpu import FRAMEWORKS, GPU_CASES, check_framework_result, gpu_dtypes, gpu_views, need, to_gpu, to_host

FLOAT_STATS = ["mean", "nansum", "nanmean", "logsumexp", "nanmin", "nanmax"]
COUNTS = ["count_nonzero", "all", "any"]
MOMENTS = ["var", "std", "var_mean", "std_mean"]


def with_nans(x, seed):
    if x.dtype in FLOATS:
        x = x.copy()
        rng = np.random.default_rng(seed)
        x[rng.random(x.shape) < 0.05] = np.nan
    return x


def call(op, x, axis, dtype=None):
    """op's results as a tuple; the moments with correction=1 stated (the default differs: torch's 1,
    numpy's 0)."""
    kw = {} if op in COUNTS or op == "aminmax" else {"dtype": dtype}
    if op in MOMENTS:
        kw["correction"] = 1
    r = getattr(hr, op)(x, axis, **kw)
    return r if isinstance(r, tuple) else (r,)


@pytest.mark.parametrize("framework", FRAMEWORKS)
@pytest.mark.parametrize("op", FLOAT_STATS + COUNTS + MOMENTS + ["aminmax"])
def test_bits_equal_cpu_device(framework, op):
    need(framework)
    for dtype in gpu_dtypes(framework):
        for shape, axes in GPU_CASES:
            x = with_nans(random_array(shape, dtype, seed=21), seed=22)
            xg = to_gpu(framework, x)
            for axis in axes:
                where = f"{framework} {op} {dtype} {shape} axis={axis}"
                extent = x.size if axis is None else int(np.prod([shape[a] for a in np.atleast_1d(axis)]))
                if op in ("nanmin", "nanmax", "aminmax") and extent == 0:
                    with pytest.raises(ValueError):
                        call(op, xg, axis)
                    continue
                got = call(op, xg, axis)
                host = [to_host(framework, r) for r in got]
                for r in got:
                    check_framework_result(framework, r, xg, np.sum(np.empty(shape), axis=axis).shape)
                ref = call(op, x, axis, None if op in COUNTS else host[0].dtype)
                for h, c in zip(host, ref):
                    assert h.dtype == np.asarray(c).dtype and bits(h) == bits(np.asarray(c)), where


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_views_and_bool(framework):
    need(framework)
    for dtype in [d for d in gpu_dtypes(framework) if d in FLOATS]:
        x = with_nans(random_array((5, 4, 6, 3), dtype, seed=23), seed=24)
        for g, v in gpu_views(framework, x):
            for axis in (None, 0, (0, 2, 3), (v.ndim - 1, 1), ()):
                for op in ("mean", "var_mean", "logsumexp", "nanmax", "count_nonzero", "aminmax"):
                    got = [to_host(framework, r) for r in call(op, g, axis)]
                    ref = call(op, v, axis, None if op in COUNTS else got[0].dtype)
                    assert all(bits(a) == bits(np.asarray(b)) for a, b in zip(got, ref)), (op, v.strides, axis)
    b = random_array((7, 300), np.dtype(np.int8), seed=25) > 0
    bg = to_gpu(framework, b)
    for op in ("all", "any", "count_nonzero", "mean"):
        for axis in (None, 0, 1):
            assert bits(to_host(framework, call(op, bg, axis)[0])) == bits(np.asarray(call(op, b, axis)[0]))


def test_torch_operators_and_gradients_on_the_gpu():
    torch = need("torch")
    import hipreduce.torch as hrt  # noqa: PLC0415 (torch is there)
    x = torch.randn(6, 40, 5, dtype=torch.float64, generator=torch.Generator().manual_seed(26))
    for name in FLOAT_STATS + COUNTS + MOMENTS + ["aminmax"]:
        fn = getattr(hrt, name)
        for axis in (None, 1, (0, 2)):
            cpu, gpu = x.clone().requires_grad_(), x.cuda().requires_grad_()
            outs = [fn(t > 0 if name in COUNTS else t, axis) for t in (cpu, gpu)]
            outs = [o if isinstance(o, tuple) else (o,) for o in outs]
            for a, b in zip(*outs):
                assert b.device.type == "cuda" and torch.equal(a, b.cpu()), (name, axis)
            if name in COUNTS:
                continue
            for t, o in zip((cpu, gpu), outs):
                sum(r.sum() for r in o).backward()
            assert torch.allclose(cpu.grad, gpu.grad.cpu(), rtol=1e-12, atol=1e-15), (name, axis)


@pytest.mark.parametrize("framework", FRAMEWORKS)
@pytest.mark.parametrize("name", ["nanargmin", "nanargmax"])
def test_nanarg_on_the_gpu(framework, name):
    """nanargmin/nanargmax of GPU arrays: numpy's indices where a slice has a value, -1 (cupy's rule)
    where it has NaNs only, with the value from the same pass."""
    need(framework)
    for dtype in [d for d in gpu_dtypes(framework) if d in FLOATS]:
        x = with_nans(random_array((37, 3001), dtype, seed=31), seed=32)
        x[5] = np.nan
        x[:, 7] = np.nan
        xg = to_gpu(framework, x)
        x64 = x.astype(np.float64)
        for axis in (None, 0, 1):
            nans = np.isnan(x64)
            filled = np.where(nans, np.inf if name == "nanargmin" else -np.inf, x64)
            want = np.asarray(np.argmin(filled, axis) if name == "nanargmin" else np.argmax(filled, axis))
            if axis is not None:
                want[np.all(nans, axis=axis)] = -1
            values, indices = getattr(hr, name)(xg, axis, return_value=True)
            got = to_host(framework, indices)
            assert got.dtype == np.int64 and np.array_equal(got, want), (framework, name, dtype, axis)
            v = to_host(framework, values).astype(np.float64)
            assert np.array_equal(np.isnan(v), want < 0) if axis is not None else not np.isnan(v)
