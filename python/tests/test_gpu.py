"""GPU arrays (torch CUDA tensors, cupy arrays).

Each case is skipped where its framework or a GPU is missing (and the package's backend is cpu);
with HIPREDUCE_REQUIRE_GPU=1 (the GPU machine's command) a missing GPU framework fails instead, and
with HIPREDUCE_NO_GPU_EXIT=77 (CTest's python_gpu) the whole module exits 77 (CTest: skipped) when
neither torch nor cupy has a GPU the library sees. On
the GPU: results of the input's framework on its device, bits equal to the cpu device's, ordered on
the framework's current stream (a non-default stream whose work the default stream would not wait
for), and no host synchronisation on the call.
"""
import gc
import os
import threading
import time

import numpy as np
import pytest

import hipreduce as hr
from data import BF16, CASES, DTYPES, bits, random_array

REQUIRE_GPU = os.environ.get("HIPREDUCE_REQUIRE_GPU") == "1"


def _torch():
    try:
        import torch
    except ImportError:
        return None
    return torch


def _cupy():
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() < 1:
            return None
    except Exception:  # noqa: BLE001 (cupy without a driver raises several kinds)
        return None
    return cupy


def need(framework):
    """The framework module for a GPU test, or skip (fail under HIPREDUCE_REQUIRE_GPU=1)."""
    mod = _torch() if framework == "torch" else _cupy()
    if framework == "torch" and mod is not None and not mod.cuda.is_available():
        mod = None
    why = None
    if mod is None:
        why = f"{framework} with a GPU is not available"
    elif hr.backend() == "cpu":
        why = "hipreduce was built with the cpu backend"
    elif hr.device_count() < 1:
        why = "libhipreduce sees no GPU"
    if why is not None:
        if REQUIRE_GPU:
            pytest.fail(f"HIPREDUCE_REQUIRE_GPU=1: {why}")
        pytest.skip(why)
    return mod


def to_gpu(framework, a, device=0):
    if framework == "torch":
        torch = _torch()
        if a.dtype == BF16:
            return torch.from_numpy(a.view(np.int16).copy()).view(torch.bfloat16).to(f"cuda:{device}")
        return torch.from_numpy(a.copy()).to(f"cuda:{device}")
    cupy = _cupy()
    with cupy.cuda.Device(device):
        return cupy.asarray(a)


def to_host(framework, r):
    if framework == "torch":
        torch = _torch()
        r = r.cpu()
        if r.dtype == torch.bfloat16:
            return r.view(torch.int16).numpy().view(BF16)
        return r.numpy()
    return _cupy().asnumpy(r)


def gpu_dtypes(framework):
    if framework == "cupy":
        return [d for d in DTYPES if d != BF16]  # cupy has no bfloat16
    return DTYPES


def check_framework_result(framework, r, x, shape):
    if framework == "torch":
        torch = _torch()
        assert isinstance(r, torch.Tensor) and r.device == x.device, (type(r), getattr(r, "device", None))
        assert tuple(r.shape) == tuple(shape)
    else:
        cupy = _cupy()
        assert isinstance(r, cupy.ndarray) and r.device.id == x.device.id
        assert r.shape == tuple(shape)


FRAMEWORKS = ["torch", "cupy"]
REDUCTIONS = ["sum", "prod", "min", "max", "sum_abs", "sum_squares", "max_abs", "norm"]
# Plus sizes of several tiles and blocks, where the GPU's grid shape differs most from the cpu's.
GPU_CASES = CASES + [(((1 << 20) + 3,), [None, 0]), ((3, 70001), [None, 0, 1])]


@pytest.mark.parametrize("framework", FRAMEWORKS)
@pytest.mark.parametrize("op", REDUCTIONS + ["argmin", "argmax"])
def test_bits_equal_cpu_device(framework, op):
    need(framework)
    fn = getattr(hr, op)
    for dtype in gpu_dtypes(framework):
        if op == "norm" and dtype.kind in "iu":
            continue
        for shape, axes in GPU_CASES:
            x = random_array(shape, dtype, seed=13, op=op)
            xg = to_gpu(framework, x)
            for axis in axes:
                where = f"{framework} {op} {dtype} {shape} axis={axis}"
                extent = x.size if axis is None else int(np.prod([shape[a] for a in np.atleast_1d(axis)]))
                if op in ("min", "max", "argmin", "argmax") and extent == 0:
                    with pytest.raises(ValueError):
                        fn(xg, axis=axis)
                    continue
                if op in ("argmin", "argmax") and isinstance(axis, tuple):
                    continue
                r = fn(xg, axis=axis)
                expect_shape = np.sum(np.empty(shape), axis=axis).shape
                check_framework_result(framework, r, xg, expect_shape)
                host = to_host(framework, r)
                # The cpu device in the same result dtype (torch's integer sums are int64).
                ref = fn(x, axis=axis) if op in ("argmin", "argmax") else fn(x, axis=axis, dtype=host.dtype)
                assert bits(host) == bits(np.asarray(ref)), where


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_dot_and_segments_bits(framework):
    need(framework)
    rng = np.random.default_rng(3)
    for dtype in gpu_dtypes(framework):
        x = random_array((100003,), dtype, seed=4)
        y = random_array((100003,), dtype, seed=5)
        r = hr.dot(to_gpu(framework, x), to_gpu(framework, y))
        assert bits(to_host(framework, r)) == bits(np.asarray(hr.dot(x, y, dtype=to_host(framework, r).dtype)))
        cuts = np.sort(rng.integers(0, x.size + 1, size=300))
        offsets = np.concatenate([[0], cuts, cuts[:7], [x.size]]).astype(np.int64)
        offsets.sort()
        xg = to_gpu(framework, x)
        for op in ("sum", "max", "argmax", "sum_squares"):
            ref = hr.segment_reduce(x, offsets, op)
            for off in (offsets, to_gpu(framework, offsets)):  # host offsets, and offsets on the GPU
                r = hr.segment_reduce(xg, off, op)
                check_framework_result(framework, r, xg, (offsets.size - 1,))
                host = to_host(framework, r)
                if op in ("argmin", "argmax"):
                    assert np.array_equal(host, ref), (framework, dtype, op)
                else:
                    assert bits(host) == bits(hr.segment_reduce(x, offsets, op, dtype=host.dtype)), (dtype, op)


def gpu_views(framework, x):
    """Views of the GPU copy of x (4-d) and the same views of x: transposed, strided, channels-last,
    broadcast (stride 0), and for cupy negative strides."""
    g = to_gpu(framework, x)
    views = [((3, 1, 0, 2), None), (None, (slice(None), slice(None, None, 2), slice(1, None, 3))),
             (None, (slice(None, 1),))]
    out = []
    for perm, index in views:
        if perm is not None:
            out.append((g.permute(perm) if framework == "torch" else g.transpose(perm), x.transpose(perm)))
        else:
            out.append((g[index], x[index]))
    b = (6,) + x.shape[1:]
    out.append((g[:1].expand(b) if framework == "torch" else _cupy().broadcast_to(g[:1], b),
                np.broadcast_to(x[:1], b)))
    if framework == "torch":
        out.append((g.contiguous(memory_format=_torch().channels_last), x))
    else:
        out.append((g[::-1, :, ::-2], x[::-1, :, ::-2]))
    return out


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_views_reduced_in_place(framework):
    # Each result has the cpu device's bits for the same view of a numpy array (both: the bits of the
    # contiguous copy), over any axes; argmin/argmax and dot too.
    need(framework)
    for dtype in gpu_dtypes(framework):
        x = random_array((5, 4, 6, 3), dtype, seed=17)
        for g, v in gpu_views(framework, x):
            n = v.ndim
            for axis in (None, 0, -1, (0, 2, 3), (n - 1, 1), ()):
                for op in ("sum", "max", "sum_squares"):
                    r = getattr(hr, op)(g, axis=axis)
                    host = to_host(framework, r)
                    ref = getattr(hr, op)(v, axis=axis, dtype=host.dtype)
                    assert bits(host) == bits(np.asarray(ref)), (framework, dtype, op, v.strides, axis)
            idx = to_host(framework, hr.argmax(g, axis=1))
            assert np.array_equal(idx, hr.argmax(v, axis=1)), (framework, dtype, v.strides)
            d = to_host(framework, hr.dot(g, g, axis=(0, 2)))
            assert bits(d) == bits(np.asarray(hr.dot(v, v, axis=(0, 2), dtype=d.dtype))), (framework, dtype)


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_reduce_by_key_bits(framework):
    need(framework)
    rng = np.random.default_rng(6)
    for dtype in gpu_dtypes(framework):
        values = random_array((3001, 5), dtype, seed=3)
        keys = rng.integers(0, 300, 3001)
        vg, kg = to_gpu(framework, values), to_gpu(framework, keys)
        for op in ("sum", "max", "argmin", "sum_exact"):
            if op == "sum_exact" and dtype.kind in "iu":
                continue
            r, counts = hr.reduce_by_key(vg, kg, 300, op=op, counts=True)
            check_framework_result(framework, r, vg, (300, 5))
            host = to_host(framework, r)
            ref = hr.reduce_by_key(values, keys, 300, op=op, dtype=None if op == "argmin" else host.dtype)
            assert bits(host) == bits(ref), (framework, dtype, op)
            assert np.array_equal(to_host(framework, counts), np.bincount(keys, minlength=300))
    # A GPU reads the keys in its kernels only: a key out of range skips its row (not reduced, not counted).
    keys = np.array([0, 5, 1, -1, 1])
    r, counts = hr.reduce_by_key(to_gpu(framework, np.ones(5, np.float32)), to_gpu(framework, keys), 2, counts=True)
    assert to_host(framework, r).tolist() == [1.0, 2.0] and to_host(framework, counts).tolist() == [1, 2]


def _calibrated_sleep_cycles(torch, seconds):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    torch.cuda._sleep(50_000_000)
    torch.cuda.synchronize()
    per_cycle = (time.perf_counter() - t0) / 50_000_000
    return int(seconds / per_cycle)


def test_torch_non_default_stream():
    torch = need("torch")
    n = 1 << 24
    x = torch.zeros(n, device="cuda")
    s = torch.cuda.Stream()  # torch's streams do not synchronise with the default stream
    with torch.cuda.stream(s):
        hr.sum(x)  # the workspace exists before the timed part
        s.synchronize()
        torch.cuda._sleep(_calibrated_sleep_cycles(torch, 0.2))
        x.fill_(1.0)  # runs on s after the sleep
        r = hr.sum(x)
        idx = hr.argmax(x.view(1024, -1), axis=1)
    s.synchronize()
    # On the default stream the sum would have read the zeros before the fill.
    assert r.item() == n
    assert torch.equal(idx.cpu(), torch.zeros(1024, dtype=torch.int64))


def test_torch_no_host_sync():
    torch = need("torch")
    x = torch.randn(1 << 22, device="cuda")
    off = torch.tensor([0, 5, 5, 1 << 20, 1 << 22], device="cuda")
    calls = [lambda: hr.sum(x), lambda: hr.argmax(x.view(64, -1), axis=1), lambda: hr.norm(x.view(64, -1), axis=0),
             lambda: hr.dot(x, x), lambda: hr.segment_reduce(x, off, "max")]
    for c in calls:
        c()  # workspaces grown
    cycles = _calibrated_sleep_cycles(torch, 0.5)
    for c in calls:
        torch.cuda._sleep(cycles)  # the current stream is busy for 0.5 s
        t0 = time.perf_counter()
        c()
        took = time.perf_counter() - t0
        torch.cuda.synchronize()
        assert took < 0.1, f"the call waited {took:.3f} s for the GPU"


def test_cupy_non_default_stream():
    cupy = need("cupy")
    spin = cupy.RawKernel(r'''
extern "C" __global__ void spin(long long cycles) {
    long long start = clock64();
    while (clock64() - start < cycles) {}
}''', "spin")
    n = 1 << 24
    x = cupy.zeros(n, dtype=cupy.float32)
    s = cupy.cuda.Stream(non_blocking=True)
    with s:
        hr.sum(x)
        s.synchronize()
        spin((1,), (1,), (np.int64(400_000_000),))
        x.fill(1.0)
        r = hr.sum(x)
    s.synchronize()
    assert float(r) == n


def test_collected_cupy_streams():
    # A handle keeps the stream of its last call: a cupy stream collected after that call was used by
    # the next call's stream switch (an event recorded on it) and crashed the interpreter there.
    cupy = need("cupy")
    x = cupy.ones(1000, dtype=cupy.float32)
    for _ in range(20):
        s = cupy.cuda.Stream(non_blocking=True)
        with s:
            r = hr.sum(x)
        s.synchronize()
        assert float(r) == 1000
        del s
        gc.collect()
    assert float(hr.sum(x)) == 1000  # the default stream, after the last stream object is gone
    torch = _torch()
    if torch is not None and torch.cuda.is_available():  # torch's stream on the same thread's handle
        with cupy.cuda.Stream(non_blocking=True):
            hr.sum(x)
        gc.collect()
        assert hr.sum(torch.ones(10, device="cuda")).item() == 10


def test_torch_second_gpu_and_current_device():
    torch = need("torch")
    if torch.cuda.device_count() < 2:
        if REQUIRE_GPU and os.environ.get("HIPREDUCE_REQUIRE_TWO_GPUS") == "1":
            pytest.fail("two GPUs required")
        pytest.skip("one GPU")
    x = random_array((1000, 37), np.dtype(np.float32), seed=21)
    torch.cuda.set_device(0)
    xg = to_gpu("torch", x, device=1)
    r = hr.sum(xg, axis=0)
    assert r.device == xg.device and torch.cuda.current_device() == 0
    assert bits(to_host("torch", r)) == bits(hr.sum(x, axis=0))


def test_torch_out_and_errors():
    torch = need("torch")
    x = torch.arange(12, dtype=torch.float32, device="cuda").view(3, 4)
    out = torch.empty(4, device="cuda")
    assert hr.sum(x, axis=0, out=out) is out
    assert torch.equal(out.cpu(), torch.tensor([12.0, 15.0, 18.0, 21.0]))
    with pytest.raises(ValueError, match="device"):
        hr.sum(x, axis=0, out=torch.empty(4))
    with pytest.raises(TypeError):
        hr.sum(x, axis=0, out=np.empty(4, np.float32))
    with pytest.raises(ValueError, match="shape"):
        hr.sum(x, axis=0, out=torch.empty(5, device="cuda"))
    with pytest.raises(TypeError, match="dtype"):
        hr.sum(x, axis=0, out=torch.empty(4, dtype=torch.float16, device="cuda"))
    with pytest.raises(ValueError, match="contiguous"):
        hr.sum(x, axis=0, out=torch.empty(8, device="cuda")[::2])
    with pytest.raises(ValueError, match="device"):  # a GPU out for a host input
        hr.sum(x.cpu(), axis=0, out=out)
    with pytest.raises(TypeError):  # argmax's indices are int64
        hr.argmax(x, axis=0, out=torch.empty(4, dtype=torch.int32, device="cuda"))
    assert torch.equal(out.cpu(), torch.tensor([12.0, 15.0, 18.0, 21.0]))  # refused calls wrote nothing
    assert hr.sum(torch.empty(0, 3, device="cuda"), axis=0).tolist() == [0.0, 0.0, 0.0]
    assert hr.sum(torch.empty(0, 3, device="cuda"), axis=1).shape == (0,)
    with pytest.raises(ValueError):
        hr.sum(x.T.contiguous(), axis=2)
    # A non-contiguous tensor is reduced where it lies, with the values of its contiguous copy.
    assert hr.sum(x.T, axis=1).cpu().tolist() == [12.0, 15.0, 18.0, 21.0]


def test_torch_threads_with_own_streams():
    torch = need("torch")
    x = torch.randn(8, 1 << 18, device="cuda")
    expected = [bits(to_host("torch", hr.sum(x[i]))) for i in range(8)]
    got = [None] * 8

    def work(i):
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            for _ in range(50):
                r = hr.sum(x[i])
            s.synchronize()
        got[i] = bits(to_host("torch", r))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert got == expected


def _exact_or_refused(call):
    """call()'s result, or None where the library refuses exact sums on this device: that must be
    NotImplementedError (a RuntimeError) carrying its NOT_SUPPORTED message."""
    try:
        return call()
    except NotImplementedError as e:
        assert isinstance(e, RuntimeError) and "not supported by the handle" in str(e) and "exact" in str(e), e
        return None


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_exact_sums_bits_or_not_supported(framework):
    # Bits equal to the cpu device's wherever the GPU runs the call. The library refuses exact sums on
    # GPU handles until it has their kernels; each (call, dtype) must then be refused at every shape
    # (a call that runs at one shape and is refused at another fails), and the test reports skipped
    # when nothing ran, so that it demands the bits as soon as the kernels exist.
    need(framework)
    ran = {}
    for dtype in [d for d in gpu_dtypes(framework) if d.kind == "f"]:
        for shape, axes in (((1,), [None]), ((100003,), [None]), ((37, 1001), [None, 0, 1])):
            x = random_array(shape, dtype, seed=31)
            xg = to_gpu(framework, x)
            for axis in axes:
                r = _exact_or_refused(lambda: hr.sum(xg, axis=axis, exact=True))
                ran.setdefault(("sum", dtype.name), set()).add(r is not None)
                if r is not None:
                    check_framework_result(framework, r, xg, np.sum(x, axis=axis).shape)
                    host = to_host(framework, r)
                    ref = hr.sum(x, axis=axis, exact=True, dtype=host.dtype)
                    assert bits(host) == bits(np.asarray(ref)), (framework, dtype, shape, axis)
        x, y = random_array((100003,), dtype, seed=32), random_array((100003,), dtype, seed=33)
        r = _exact_or_refused(lambda: hr.dot(to_gpu(framework, x), to_gpu(framework, y), exact=True))
        ran[("dot", dtype.name)] = {r is not None}
        if r is not None:
            host = to_host(framework, r)
            assert bits(host) == bits(np.asarray(hr.dot(x, y, exact=True, dtype=host.dtype))), (framework, dtype)
        offsets = np.array([0, 0, 3, 4000, 4000, 100003])
        r = _exact_or_refused(lambda: hr.segment_reduce(to_gpu(framework, x), offsets, "sum_exact"))
        ran[("segments", dtype.name)] = {r is not None}
        if r is not None:
            host = to_host(framework, r)
            assert bits(host) == bits(hr.segment_reduce(x, offsets, "sum_exact", dtype=host.dtype)), (framework, dtype)
    mixed = sorted(k for k, v in ran.items() if len(v) > 1)
    assert not mixed, f"exact sums ran at some shapes and were refused at others: {mixed}"
    refused = sorted(k for k, v in ran.items() if v == {False})
    if len(refused) == len(ran):
        pytest.skip("the library refuses exact sums on GPU handles (NOT_SUPPORTED): GPU bits not checked")
    assert not refused, f"exact sums refused on the GPU for {refused}, run for the others"


def test_torch_whole_tensor_path():
    # hr.sum(t) of a whole C-contiguous tensor takes _core.reduce_whole; what it declines takes the
    # general path, which must give the same results and errors.
    torch = need("torch")
    x = torch.arange(-50, 50, dtype=torch.int8, device="cuda")
    r = hr.sum(x)
    assert r.dim() == 0 and r.dtype == torch.int64 and r.device == x.device and r.item() == -50
    a, b = hr.sum(x), hr.sum(x)
    assert a.data_ptr() != b.data_ptr()  # each result its own storage
    out = torch.empty((), dtype=torch.int32, device="cuda")
    assert hr.sum(x, out=out) is out and out.item() == -50
    p = torch.nn.Parameter(torch.ones(10, device="cuda"), requires_grad=False)  # a subclass: the general path
    assert hr.sum(p).item() == 10 and hr.sum(x[::2]).item() == hr.sum(x[::2].contiguous()).item()
    with pytest.raises(ValueError, match="device"):
        hr.sum(x, out=torch.empty((), dtype=torch.int64))  # a host out for a GPU input
    with pytest.raises(ValueError, match="shape"):
        hr.sum(x, out=torch.empty(1, dtype=torch.int64, device="cuda"))
    f = torch.ones(10, device="cuda")
    out = torch.full((), 7, dtype=torch.int64, device="cuda")
    with pytest.raises(TypeError, match="hipreduce_reduce"):  # float32 into int64: the library refuses
        hr.sum(f, out=out)
    assert out.item() == 7
    with pytest.raises(ValueError, match="empty"):
        hr.max(torch.empty(0, device="cuda"))
    assert hr.sum(torch.empty(0, device="cuda")).item() == 0
