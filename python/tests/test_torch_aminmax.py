"""hipreduce.torch.aminmax (torch.ops.hipreduce.aminmax): forward (min, max) against the package's function
bit for bit through the operator, the fake function and the direct eager path, for every dtype, shape,
axis set and keepdims; the values of torch.aminmax; the same errors in fake and real; opcheck; the
gradient (min's and max's rule: spread evenly over ties, NaN slices to their NaNs) against torch's amin and
amax, gradcheck and gradgradcheck; torch.compile(fullgraph=True) against eager. Skipped without torch."""
import pytest

torch = pytest.importorskip("torch")

import hipreduce as hr  # noqa: E402
import hipreduce.torch as hrt  # noqa: E402
from torch._subclasses.fake_tensor import FakeTensorMode  # noqa: E402
from torch.autograd import gradcheck, gradgradcheck  # noqa: E402
from test_torch_grad import f64, grad_of  # noqa: E402
from test_torch_ops import DTYPES, SHAPES, axes_arg, profiled, same, tensor  # noqa: E402
from test_torch_stats import check, with_nans  # noqa: E402

OP = torch.ops.hipreduce.aminmax


def test_equals_the_package_and_its_fake():
    checked = 0
    for shape, axes in SHAPES:
        for dtype in DTYPES + [torch.bool]:
            x = tensor(shape, torch.uint8 if dtype == torch.bool else dtype, seed=len(shape) + 2)
            x = x.to(torch.bool) if dtype == torch.bool else with_nans(x)
            for axis in axes:
                for keepdims in (False, True):
                    checked += check("aminmax", x, axis, keepdims, None, lambda t: hr.aminmax(t, axis, keepdims),
                                     lambda t: OP(t, axes_arg(axis), keepdims),
                                     lambda t: hrt.aminmax(t, axis, keepdims))
    assert checked > 100


def test_values_of_torch_aminmax_and_min_max():
    g = torch.Generator().manual_seed(4)
    for dtype in (torch.float32, torch.float64, torch.bfloat16, torch.int16, torch.uint8, torch.int64):
        x = (torch.randn(6, 30, 7, generator=g, dtype=torch.float64) * 50).to(dtype)
        for dim in (0, 1, 2, -1):
            lo, hi = hrt.aminmax(x, dim=dim, keepdim=dim == 1)
            want = torch.aminmax(x, dim=dim, keepdim=dim == 1)
            assert torch.equal(lo, want.min) and torch.equal(hi, want.max), (dtype, dim)
            assert same(lo, hr.min(x, dim, keepdims=dim == 1)) and same(hi, hr.max(x, dim, keepdims=dim == 1))
        lo, hi = hrt.aminmax(x)
        assert lo.dim() == 0 and torch.equal(lo, x.amin()) and torch.equal(hi, x.amax()), dtype
    z = torch.tensor([[0.0, -0.0], [-0.0, 0.0]])
    lo, hi = hrt.aminmax(z, 1)
    assert torch.signbit(lo).tolist() == [True, True] and torch.signbit(hi).tolist() == [False, False]
    n = torch.tensor([[1.0, float("nan"), 2.0], [3.0, 4.0, 5.0]])
    lo, hi = hrt.aminmax(n, 1)
    assert lo.isnan().tolist() == [True, False] and hi.isnan().tolist() == [True, False]


def test_errors_in_fake_and_real():
    x = tensor((4, 5, 6), torch.float32)
    bad = [(lambda t: OP(t, [3]), ValueError), (lambda t: OP(t, [1, -2]), ValueError),
           (lambda t: OP(t[:, :0], [1]), ValueError), (lambda t: OP(t[:0]), ValueError),
           (lambda t: OP(t > 0), TypeError), (lambda t: OP(t.to(torch.complex64)), TypeError)]
    for call, err in bad:
        with pytest.raises(err):
            call(x)
        with FakeTensorMode() as mode, pytest.raises(err):
            call(mode.from_tensor(x))
    with pytest.raises(TypeError):
        hrt.aminmax(x, 1, dim=1)


def test_the_direct_path_and_the_operator_path():
    x = tensor((8, 3), torch.float32)
    w = x.clone().requires_grad_()
    assert "hipreduce::aminmax" not in profiled(lambda: hrt.aminmax(x, 1))
    assert "hipreduce::aminmax" in profiled(lambda: hrt.aminmax(w, 1))
    lo, hi = hrt.aminmax(w, 1)
    assert lo.grad_fn is not None and hi.grad_fn is not None
    with pytest.raises(NotImplementedError, match="hipreduce.torch"):
        hr.aminmax(w)


def test_opcheck():
    x = tensor((4, 5, 6), torch.float64).requires_grad_()
    ties = x.detach().round().requires_grad_()  # (opcheck compares outputs without equal_nan: no NaN here)
    for args in ((x, None, False), (x, [1], True), (ties, [0, 2], False), (x.detach().to(torch.int32), [2], False)):
        report = torch.library.opcheck(OP.default, args)
        assert set(report.values()) == {"SUCCESS"}, (args[1:], report)


def both(r):
    """One output to differentiate: the minima and twice the maxima (both gradients at work)."""
    return r[0] + 2 * r[1]


def test_gradients_equal_torch_amin_amax():
    nan = float("nan")
    ties = torch.tensor([[1.0, 3.0, 3.0, 1.0], [2.0, 2.0, 2.0, 2.0], [nan, 1.0, 4.0, nan], [-0.0, 0.0, 5.0, 5.0]],
                        dtype=torch.float64)
    clean = ties[[0, 1, 3]]  # torch.amin/amax with dim give NaN gradients at a NaN slice: compared below
    for x in (f64((4, 6, 5), 5), clean.reshape(3, 2, 2), clean):
        for axis in (None, 0, -1, (0, x.dim() - 1)):
            kw = {} if axis is None else {"dim": axis}
            ours, = grad_of(lambda t: both(hrt.aminmax(t, axis)), x)
            theirs, = grad_of(lambda t: t.amin(**kw) + 2 * t.amax(**kw), x)
            assert torch.equal(ours.nan_to_num(), theirs.nan_to_num()) and torch.equal(ours.isnan(), theirs.isnan())
    g, = grad_of(lambda t: both(hrt.aminmax(t, 1)), ties)
    assert g.tolist()[0] == [0.5, 1.0, 1.0, 0.5]
    assert g.tolist()[1] == [0.75] * 4  # every element is both the min and the max: both shares
    assert g.tolist()[2] == [1.5, 0.0, 0.0, 1.5]  # a NaN slice: its NaNs share both (min's and max's rule)
    assert g.tolist()[3] == [0.5, 0.5, 1.0, 1.0]  # -0.0 ties +0.0
    g, = grad_of(lambda t: hrt.aminmax(t, 1)[1], ties)  # one output used: the other's gradient is absent
    assert g.tolist()[0] == [0.0, 0.5, 0.5, 0.0]
    x32 = tensor((3, 7), torch.float32).requires_grad_()
    both(hrt.aminmax(x32, 1)).sum().backward()
    assert x32.grad.dtype == torch.float32 and x32.grad.sum().item() == 9.0


def test_gradcheck_and_gradgradcheck():
    x = f64((3, 4, 5), seed=6)
    for axis in (None, 0, 1, (0, 2), (2, 0), ()):
        for keepdims in (False, True):
            assert gradcheck(lambda t: both(hrt.aminmax(t, axis, keepdims=keepdims)), (x,)), (axis, keepdims)
    assert gradgradcheck(lambda t: both(hrt.aminmax(t, 1)), (x,))


def test_compile_fullgraph_as_eager():
    def fn(x):
        lo, hi = hrt.aminmax(x, 1)
        klo, khi = hrt.aminmax(x, (0, 2), keepdims=True)
        return hrt.sum(hi - lo) + hrt.sum(x * (khi - klo)), lo

    x = f64((6, 9, 4), seed=7).detach().float()
    results = []
    for f in (fn, torch.compile(fn, fullgraph=True, backend="aot_eager")):
        w = x.clone().requires_grad_()
        loss, lo = f(w)
        loss.backward()
        results.append((loss.detach(), lo.detach(), w.grad))
    for eager, compiled in zip(*results):
        assert torch.equal(eager, compiled)
