"""hipreduce.torch: the reductions as torch operators (torch.ops.hipreduce.*). Forward values against the
package's functions bit for bit, through the operator and the direct eager path; fake (meta) results
against the real ones for every axis/keepdims/dtype case, and the same errors; torch.library.opcheck.
Gradients, torch.compile and CUDA graphs: test_torch_grad.py. Skipped without torch."""
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")

import hipreduce as hr  # noqa: E402
import hipreduce.torch as hrt  # noqa: E402
from torch._subclasses.fake_tensor import FakeTensorMode  # noqa: E402

OPS = torch.ops.hipreduce
REDUCTIONS = ["sum", "prod", "min", "max", "sum_abs", "sum_squares", "max_abs", "norm"]
SHAPES = [((), [None]), ((7,), [None, 0, -1]), ((3, 0, 4), [None, 0, 2]),
          ((4, 9, 5), [None, 0, 1, 2, (0, 1), (1, 2), (0, 2), (2, 0), (0, 1, 2), (-2, -1), (), (1, 1), (1, -2)])]
DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int8, torch.uint8, torch.int32,
          torch.int64]


def same(a, b):
    """Same shape, dtype, device and bits (NaNs included)."""
    if a.shape != b.shape or a.dtype != b.dtype or a.device != b.device:
        return False
    return torch.equal(a.contiguous().reshape(-1).view(torch.uint8), b.contiguous().reshape(-1).view(torch.uint8))


def tensor(shape, dtype, seed=0):
    g = torch.Generator().manual_seed(seed)
    if dtype.is_floating_point:
        return (torch.randn(shape, generator=g, dtype=torch.float64) * 3).to(dtype)
    lo = 0 if dtype == torch.uint8 else -3
    return torch.randint(lo, 4, shape, generator=g, dtype=torch.int64).to(dtype)


def outcome(call):
    """(result, None) or (None, the exception's type)."""
    try:
        return call(), None
    except (TypeError, ValueError) as e:
        return None, type(e)


def axes_arg(axis):
    return None if axis is None else list(axis) if isinstance(axis, tuple) else [axis]


def test_the_package_does_not_import_torch():
    code = "import sys, hipreduce; assert 'torch' not in sys.modules; import hipreduce.torch; print('ok')"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr


@pytest.mark.parametrize("name", REDUCTIONS)
def test_reductions_equal_the_package_and_their_fake(name):
    fn, op = getattr(hr, name), getattr(OPS, name)
    checked = 0
    for shape, axes in SHAPES:
        for dtype in DTYPES:
            x = tensor(shape, dtype, seed=len(shape))
            for axis in axes:
                for keepdims in (False, True):
                    for rdtype in (None, torch.float64, torch.int64):
                        want, err = outcome(lambda: fn(x, axis, rdtype, keepdims))
                        got, got_err = outcome(lambda: op(x, axes_arg(axis), keepdims, rdtype))
                        assert got_err is err, (name, shape, dtype, axis, keepdims, rdtype)
                        with FakeTensorMode() as mode:
                            fake, fake_err = outcome(lambda: op(mode.from_tensor(x), axes_arg(axis), keepdims, rdtype))
                        assert fake_err is err, (name, shape, dtype, axis, keepdims, rdtype)
                        if err is not None:
                            continue
                        assert same(got, want), (name, shape, dtype, axis, keepdims, rdtype)
                        assert (fake.shape, fake.dtype, fake.device) == (want.shape, want.dtype, want.device)
                        direct = getattr(hrt, name)(x, axis, rdtype, keepdims)  # the eager path
                        assert same(direct, want)
                        checked += 1
    assert checked > 100


def test_exact_sums_and_their_errors():
    x = tensor((6, 50), torch.float32, seed=3)
    for axis in (None, 0, 1):
        want = hr.sum(x, axis, exact=True)
        assert same(OPS.sum(x, axes_arg(axis), False, None, True), want)
        assert same(hrt.sum(x.clone().requires_grad_(), axis, exact=True).detach(), want)
    for op_call in (lambda t: OPS.sum(t, None, False, None, True), lambda t: OPS.dot(t, t, None, False, None, True)):
        with pytest.raises(TypeError, match="exact=True sums float inputs only"):
            op_call(torch.arange(4))
        with FakeTensorMode() as mode, pytest.raises(TypeError, match="exact=True sums float inputs only"):
            op_call(mode.from_tensor(torch.arange(4)))


@pytest.mark.parametrize("name", ["argmin", "argmax", "nanargmin", "nanargmax"])
def test_arg_reductions(name):
    fn, op = getattr(hr, name), getattr(OPS, name)
    x = tensor((4, 9, 5), torch.float32)
    x[1, 2, :] = x[1, 3, :]  # ties: the first index
    if name.startswith("nan"):
        x[0, 3, :] = float("nan")  # skipped
        x[2, :, 1] = float("nan")  # a slice of NaNs only along axis 1: index -1
    for axis in (None, 0, 1, 2, -1):
        for keepdims in (False, True):
            want = fn(x, axis, keepdims)
            assert same(op(x, axis, keepdims), want) and same(getattr(hrt, name)(x, axis, keepdims), want)
            with FakeTensorMode() as mode:
                fake = op(mode.from_tensor(x), axis, keepdims)
            assert (fake.shape, fake.dtype) == (want.shape, torch.int64)
    g = x.clone().requires_grad_()
    r = getattr(hrt, name)(g, 1)
    assert not r.requires_grad and same(r, fn(x, 1))
    for bad, err in ((lambda t: op(t, 3, False), ValueError), (lambda t: op(t[:, :0], 1, False), ValueError)):
        with pytest.raises(err):
            bad(x)
        with FakeTensorMode() as mode, pytest.raises(err):
            bad(mode.from_tensor(x))


def test_dot():
    for dtype in (torch.float32, torch.float16, torch.int8, torch.float64):
        x, y = tensor((3, 40, 2), dtype, 1), tensor((3, 40, 2), dtype, 2)
        for rdtype in (None, torch.float64):
            for axis, keepdims in ((None, False), (1, False), ((0, 2), True), ((), False), (None, True)):
                want, err = outcome(lambda: hr.dot(x, y, rdtype, axis=axis, keepdims=keepdims))
                got, got_err = outcome(lambda: OPS.dot(x, y, axes_arg(axis), keepdims, rdtype))
                with FakeTensorMode() as mode:
                    fake, fake_err = outcome(lambda: OPS.dot(mode.from_tensor(x), mode.from_tensor(y), axes_arg(axis),
                                                             keepdims, rdtype))
                assert got_err is err and fake_err is err, (dtype, rdtype, axis)
                if err is None:
                    assert same(got, want) and same(hrt.dot(x, y, rdtype, axis=axis, keepdims=keepdims), want)
                    assert (fake.shape, fake.dtype) == (want.shape, want.dtype)
    x = tensor((5,), torch.float32)
    for bad, err in (((x, tensor((6,), torch.float32)), ValueError), ((x, x.double()), TypeError)):
        with pytest.raises(err):
            OPS.dot(*bad)
        with FakeTensorMode() as mode, pytest.raises(err):
            OPS.dot(*(mode.from_tensor(t) for t in bad))


SEGMENT_OPS = ["sum", "prod", "min", "max", "sum_abs", "sum_squares", "max_abs", "norm", "argmin", "argmax",
               "sum_exact", "mean", "and"]


def test_segment_reduce():
    offsets = torch.tensor([0, 3, 3, 10, 27, 30])
    for dtype in (torch.float32, torch.float16, torch.int16):
        x = tensor((30,), dtype, seed=5)
        for name in SEGMENT_OPS:
            for rdtype in (None, torch.float64):
                got, err = outcome(lambda: OPS.segment_reduce(x, offsets, name, rdtype))
                with FakeTensorMode() as mode:
                    fake, fake_err = outcome(lambda: OPS.segment_reduce(mode.from_tensor(x), mode.from_tensor(offsets),
                                                                        name, rdtype))
                assert fake_err is err, (dtype, name, rdtype)
                if name != "mean":
                    want, want_err = outcome(lambda: hr.segment_reduce(x, offsets, name, rdtype))
                    assert want_err is err, (dtype, name, rdtype)
                    if err is None:
                        assert same(got, want)
                if err is None:
                    assert (fake.shape, fake.dtype) == (got.shape, got.dtype)
                    assert same(hrt.segment_reduce(x, offsets, name, rdtype), got)
                    assert same(hrt.segment_reduce(x, offsets.tolist(), name, rdtype), got)


def test_segment_mean():
    x = tensor((30,), torch.float32, seed=6)
    offsets = torch.tensor([0, 3, 3, 10, 30])
    got = hrt.segment_reduce(x, offsets, "mean")
    sums = hr.segment_reduce(x, offsets, "sum")
    lengths = torch.tensor([3.0, 0.0, 7.0, 20.0])
    assert same(got, sums / lengths) and torch.isnan(got[1])  # 0/0, as torch.segment_reduce
    ref = torch.segment_reduce(x, "mean", lengths=lengths.to(torch.int64))
    assert torch.allclose(got[[0, 2, 3]], ref[[0, 2, 3]]) and torch.isnan(ref[1])
    half = x.to(torch.float16)
    h = hrt.segment_reduce(half, offsets, "mean")  # summed in float32, rounded once
    assert same(h, (hr.segment_reduce(half, offsets, "sum", torch.float32) / lengths).to(torch.float16))
    with pytest.raises(TypeError, match="float inputs"):
        hrt.segment_reduce(torch.arange(4), [0, 4], "mean")


def test_torch_spellings():
    x = tensor((4, 9, 5), torch.float32)
    assert same(hrt.sum(x, dim=(0, 2), keepdim=True), hr.sum(x, (0, 2), keepdims=True))
    assert same(hrt.max(x, dim=1), hr.max(x, 1)) and same(hrt.argmax(x, dim=2, keepdim=True), hr.argmax(x, 2, True))
    assert same(hrt.dot(x, x, dim=1), hr.dot(x, x, axis=1))
    with pytest.raises(TypeError, match="same argument"):
        hrt.sum(x, 1, dim=1)


BY_KEY_OPS = ["sum", "prod", "min", "max", "sum_abs", "sum_squares", "max_abs", "norm", "argmin", "argmax",
              "sum_exact", "mean", "or"]


def test_reduce_by_key():
    keys = torch.tensor([3, 0, 2, 2, 0, 3, 1, 0, 2, 3, 0, 0], dtype=torch.int32)
    for shape in ((12,), (12, 3)):
        for dtype in (torch.float32, torch.bfloat16, torch.int16):
            v = tensor(shape, dtype, seed=7)
            for name in BY_KEY_OPS:
                for rdtype in (None, torch.float64):
                    got, err = outcome(lambda: OPS.reduce_by_key(v, keys, 5, name, rdtype))
                    with FakeTensorMode() as mode:
                        fake, fake_err = outcome(lambda: OPS.reduce_by_key(mode.from_tensor(v), mode.from_tensor(keys),
                                                                           5, name, rdtype))
                    assert fake_err is err, (shape, dtype, name, rdtype)
                    if name != "mean":
                        want, want_err = outcome(lambda: hr.reduce_by_key(v, keys, 5, name, rdtype, counts=True))
                        assert want_err is err, (shape, dtype, name, rdtype)
                        if err is None:
                            assert same(got[0], want[0]) and same(got[1], want[1])
                    if err is None:
                        assert [(f.shape, f.dtype) for f in fake] == [(g.shape, g.dtype) for g in got]
                        direct = hrt.reduce_by_key(v, keys, 5, name, rdtype, counts=True)
                        assert same(direct[0], got[0]) and same(direct[1], got[1])
                        assert same(hrt.reduce_by_key(v, keys, 5, name, rdtype), got[0])
    v = tensor((12, 3), torch.float32, seed=8)
    mean = hrt.reduce_by_key(v, keys, 5, "mean")
    sums, counts = hr.reduce_by_key(v, keys, 5, "sum", counts=True)
    assert same(mean, sums / counts[:, None].float()) and torch.isnan(mean[4]).all()  # bin 4 is empty
    bad = [((v, keys, -1), ValueError), ((v, keys.float(), 5), TypeError), ((v, keys[:5], 5), ValueError),
           ((v[:, :0], keys, 5), ValueError), ((v[None], keys, 5), ValueError), ((v, keys, 5, "median"), ValueError)]
    for args, err in bad:
        with pytest.raises(err):
            OPS.reduce_by_key(*args)
        with FakeTensorMode() as mode, pytest.raises(err):
            OPS.reduce_by_key(*(mode.from_tensor(a) if isinstance(a, torch.Tensor) else a for a in args))
    with pytest.raises(ValueError):  # a key out of range: the cpu device refuses it (the fake cannot read keys)
        OPS.reduce_by_key(v, keys, 3)


def test_segment_errors_in_fake_and_real():
    x, off = tensor((10,), torch.float32), torch.tensor([0, 4, 10])
    bad = [((x.reshape(2, 5), off, "sum"), ValueError), ((x, off, "median"), ValueError),
           ((x, off.float(), "sum"), TypeError), ((x, off[:0], "sum"), ValueError),
           ((x, off, "argmax", torch.float32), TypeError), ((x, off, "xor"), TypeError)]
    for args, err in bad:
        with pytest.raises(err):
            OPS.segment_reduce(*args)
        with FakeTensorMode() as mode, pytest.raises(err):
            OPS.segment_reduce(*(mode.from_tensor(a) if isinstance(a, torch.Tensor) else a for a in args))
    with pytest.raises(ValueError, match="past"):  # host offsets are checked (the fake cannot read them)
        OPS.segment_reduce(x, torch.tensor([0, 11]))


def test_reduction_errors_in_fake_and_real():
    x = tensor((4, 5, 6), torch.float32)
    bad = [(lambda t: OPS.sum(t, [3]), ValueError), (lambda t: OPS.sum(t, [1, 1]), ValueError),
           (lambda t: OPS.sum(t, [0, -3]), ValueError), (lambda t: OPS.sum(t, None, False, torch.int64), TypeError),
           (lambda t: OPS.min(t, [0], False, torch.float64), TypeError), (lambda t: OPS.max(t[:0], [0]), ValueError),
           (lambda t: OPS.norm(t.to(torch.int32)), TypeError), (lambda t: OPS.sum(t.to(torch.complex64)), TypeError)]
    for call, err in bad:
        with pytest.raises(err):
            call(x)
        with FakeTensorMode() as mode, pytest.raises(err):
            call(mode.from_tensor(x))


def profiled(call):
    """The names of the operators the profiler records during call()."""
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        call()
    return {e.name for e in prof.events()}


def test_the_direct_path_and_the_operator_path():
    """An eager call on a plain tensor that autograd does not track skips the dispatcher (the profiler
    records no hipreduce operator); one that autograd tracks, or under a dispatch mode, is the operator."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class Seen(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.ops = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            self.ops.append(str(func))
            return func(*args, **(kwargs or {}))

    x = tensor((8, 3), torch.float32)
    w = x.clone().requires_grad_()
    assert "hipreduce::sum" not in profiled(lambda: hrt.sum(x, 1))
    assert "hipreduce::sum" in profiled(lambda: hrt.sum(w, 1))
    assert "hipreduce::argmax" not in profiled(lambda: hrt.argmax(w, 1))  # indices: no autograd
    with Seen() as seen:
        r = hrt.sum(x, 1)
    assert "hipreduce.sum.default" in seen.ops and same(r, hr.sum(x, 1))
    assert hrt.sum(w, 1).grad_fn is not None and hrt.sum(x, 1).grad_fn is None
    with torch.no_grad():
        assert hrt.sum(w, 1).grad_fn is None


def test_the_package_points_to_the_operators():
    w = torch.ones(3, requires_grad=True)
    with pytest.raises(NotImplementedError, match="hipreduce.torch"):
        hr.sum(w)


def test_opcheck():
    x = tensor((4, 5, 6), torch.float32).requires_grad_()
    y = tensor((4, 5, 6), torch.float32, seed=1).requires_grad_()
    calls = []
    for name in REDUCTIONS:
        op = getattr(OPS, name).default
        calls += [(op, (x, None, False, None)), (op, (x, [1], True, None)), (op, (x, [0, 1], False, None))]
        if name not in ("min", "max", "max_abs"):
            calls.append((op, (x, [2], False, torch.float64)))
    calls += [(OPS.sum.default, (x, [2], False, None, True)), (OPS.sum.default, (x, [2, 0], True, None)),
              (OPS.sum.default, (x, [], False, None)), (OPS.argmin.default, (x, 1, True)),
              (OPS.argmax.default, (x, None, False)), (OPS.nanargmin.default, (x, 2, False)),
              (OPS.nanargmax.default, (x, None, True)), (OPS.dot.default, (x, y, None, False, None, False)),
              (OPS.dot.default, (x, y, [0, 2], True, torch.float64, True))]
    v, off = tensor((40,), torch.float64).requires_grad_(), torch.tensor([0, 7, 8, 20, 40])  # no empty mean: NaN
    calls += [(OPS.segment_reduce.default, (v, off, name, None))
              for name in ("sum", "sum_exact", "mean", "max", "max_abs", "norm", "sum_abs", "argmin")]
    values, keys = tensor((9, 2), torch.float64).requires_grad_(), torch.tensor([1, 0, 2, 1, 1, 0, 2, 2, 0])
    calls += [(OPS.reduce_by_key.default, (values, keys, 3, name, None)) for name in ("sum", "mean", "min", "argmax")]
    calls.append((OPS.reduce_by_key.default, (values[:, 0], keys, 3, "norm", None)))
    for op, args in calls:
        report = torch.library.opcheck(op, args)
        assert set(report.values()) == {"SUCCESS"}, (op, args, report)
