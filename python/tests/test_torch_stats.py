"""hipreduce.torch's statistics as torch operators (torch.ops.hipreduce.mean, ...): forward values against
the package's functions bit for bit, through the operator and the direct eager path; fake (meta) results
against the real ones for every axis/keepdims/dtype/correction case, and the same errors; torch's own
reductions within tolerance; torch.library.opcheck. Gradients and torch.compile: test_torch_stats_grad.py.
Skipped without torch."""
import pytest

torch = pytest.importorskip("torch")

import hipreduce as hr  # noqa: E402
import hipreduce.torch as hrt  # noqa: E402
from torch._subclasses.fake_tensor import FakeTensorMode  # noqa: E402
from test_torch_ops import DTYPES, OPS, SHAPES, axes_arg, outcome, profiled, same, tensor  # noqa: E402

FLOAT_STATS = ["mean", "nansum", "nanmean", "logsumexp", "nanmin", "nanmax"]
COUNT_STATS = ["count_nonzero", "all", "any"]
MOMENTS = ["var", "std", "var_mean", "std_mean"]


def same_results(a, b):
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and all(map(same, a, b))
    return same(a, b)


def metas(r):
    return [(t.shape, t.dtype, t.device) for t in (r if isinstance(r, tuple) else (r,))]


def with_nans(x):
    if x.dtype.is_floating_point and x.numel():
        x = x.clone()
        x.view(-1)[::5] = float("nan")
    return x


def check(name, x, axis, keepdims, extra, package, operator, direct):
    """The package's result (or exception), the operator's, the fake's and the direct path's agree."""
    want, err = outcome(lambda: package(x))
    got, got_err = outcome(lambda: operator(x))
    with FakeTensorMode() as mode:
        fake, fake_err = outcome(lambda: operator(mode.from_tensor(x)))
    where = (name, tuple(x.shape), x.dtype, axis, keepdims, extra)
    assert got_err is err and fake_err is err, where
    if err is None:
        assert same_results(got, want), where
        assert metas(fake) == metas(want), where
        assert same_results(direct(x), want), where
    return err is None


@pytest.mark.parametrize("name", FLOAT_STATS + COUNT_STATS)
def test_statistics_equal_the_package_and_their_fake(name):
    fn, op, wrapper = getattr(hr, name), getattr(OPS, name), getattr(hrt, name)
    counts = name in COUNT_STATS
    checked = 0
    for shape, axes in SHAPES:
        for dtype in DTYPES + [torch.bool]:
            x = tensor(shape, torch.uint8 if dtype == torch.bool else dtype, seed=len(shape))
            x = x.to(torch.bool) if dtype == torch.bool else with_nans(x)
            for axis in axes:
                for keepdims in (False, True):
                    for rdtype in (None,) if counts else (None, torch.float64, torch.float32, torch.int64):
                        if counts:
                            checked += check(name, x, axis, keepdims, None, lambda t: fn(t, axis, keepdims),
                                             lambda t: op(t, axes_arg(axis), keepdims),
                                             lambda t: wrapper(t, axis, keepdims))
                        else:
                            checked += check(name, x, axis, keepdims, rdtype, lambda t: fn(t, axis, rdtype, keepdims),
                                             lambda t: op(t, axes_arg(axis), keepdims, rdtype),
                                             lambda t: wrapper(t, axis, rdtype, keepdims))
    assert checked > 100


@pytest.mark.parametrize("name", MOMENTS)
def test_moments_equal_the_package_and_their_fake(name):
    fn, op, wrapper = getattr(hr, name), getattr(OPS, name), getattr(hrt, name)
    checked = 0
    for shape, axes in SHAPES:
        for dtype in DTYPES + [torch.bool]:
            x = tensor(shape, torch.uint8 if dtype == torch.bool else dtype, seed=len(shape) + 1)
            x = x.to(torch.bool) if dtype == torch.bool else x
            for axis in axes:
                for keepdims in (False, True):
                    for rdtype, c in ((None, 1.0), (None, 0.0), (torch.float64, 2.5), (torch.float32, 1.0)):
                        checked += check(name, x, axis, keepdims, (rdtype, c),
                                         lambda t: fn(t, axis, rdtype, keepdims, correction=c),
                                         lambda t: op(t, axes_arg(axis), keepdims, rdtype, c),
                                         lambda t: wrapper(t, axis, rdtype, keepdims, correction=c))
    assert checked > 100


def test_spellings_and_defaults():
    x = tensor((4, 9, 5), torch.float32)
    assert same(hrt.var(x, dim=1), hr.var(x, 1, correction=1))  # torch's default correction
    assert same(hr.var(x, 1), hr.var(x, 1, correction=1))  # ... the package's too, for torch tensors
    assert same(hrt.std(x, 1, unbiased=False), hr.std(x, 1, correction=0))
    assert same(hr.std(x, 1, unbiased=True, keepdims=True), hr.std(x, 1, ddof=1, keepdims=True))
    assert same_results(hrt.var_mean(x, dim=(0, 2), keepdim=True, ddof=0), hr.var_mean(x, (0, 2), keepdims=True,
                                                                                          correction=0))
    assert same(hrt.mean(x, dim=-1, keepdim=True), hr.mean(x, dim=-1, keepdim=True))
    assert same(hrt.all(x > 0, dim=(0, 1)), hr.all(x > 0, (0, 1)))
    for bad in (lambda: hrt.var(x, 1, correction=1, unbiased=True), lambda: hrt.mean(x, 1, dim=1),
                lambda: hrt.std(x, correction="1")):
        with pytest.raises(TypeError):
            bad()


def test_against_torch():
    g = torch.Generator().manual_seed(3)
    for dtype, rtol in ((torch.float64, 1e-12), (torch.float32, 2e-5)):
        x = (torch.randn(6, 50, 7, generator=g, dtype=torch.float64) * 3 + 1).to(dtype)
        n = x.clone()
        n[n > 2] = float("nan")
        for dim in (1, (0, 2), None):
            d = tuple(range(x.dim())) if dim is None else dim
            kw = {} if dim is None else {"dim": dim}
            pairs = [(hrt.mean(x, dim), x.mean(**kw)), (hrt.logsumexp(x, dim), torch.logsumexp(x, d)),
                     (hrt.nansum(n, dim), torch.nansum(n, **kw)), (hrt.nanmean(n, dim), torch.nanmean(n, **kw))]
            for c in (0, 1, 2):
                pairs += [(hrt.var(x, dim, correction=c), torch.var(x, **kw, correction=c)),
                          (hrt.std(x, dim, correction=c), torch.std(x, **kw, correction=c))]
                pairs += list(zip(hrt.var_mean(x, dim, correction=c), torch.var_mean(x, **kw, correction=c)))
                pairs += list(zip(hrt.std_mean(x, dim, correction=c), torch.std_mean(x, **kw, correction=c)))
            for ours, theirs in pairs:
                assert ours.dtype == theirs.dtype and torch.allclose(ours, theirs, rtol=rtol, atol=1e-6), dim
            assert torch.equal(hrt.count_nonzero(n, dim), torch.count_nonzero(n, **kw))
            if dim is not None:
                assert torch.equal(hrt.all(x > -5, dim), torch.all(x > -5, dim))
                assert torch.equal(hrt.any(x > 5, dim), torch.any(x > 5, dim))
                big = torch.where(n.isnan(), -torch.inf, n)
                assert torch.equal(hrt.nanmax(n, dim), big.amax(dim))
    huge = (1e20 + torch.randn(4096, generator=g, dtype=torch.float64) * 1e15).float()  # a sum of squares overflows
    v, m = hrt.var_mean(huge)
    ref = huge.double()
    assert torch.isfinite(v) and abs(v.item() / ref.var().item() - 1) < 1e-3
    assert abs(m.item() / ref.mean().item() - 1) < 1e-6


def test_errors_in_fake_and_real():
    x = tensor((4, 5, 6), torch.float32)
    bad = [(lambda t: OPS.mean(t, [3]), ValueError), (lambda t: OPS.var(t, [1, 1]), ValueError),
           (lambda t: OPS.var(t, None, False, torch.float64), TypeError),
           (lambda t: OPS.logsumexp(t, [0], False, torch.float16), TypeError),
           (lambda t: OPS.mean(t.to(torch.int32), None, False, torch.int64), TypeError),
           (lambda t: OPS.nanmin(t[:0], [0]), ValueError), (lambda t: OPS.nanmax(t[:, :0]), ValueError),
           (lambda t: OPS.nansum(t > 0), TypeError), (lambda t: OPS.count_nonzero(t.to(torch.complex64)), TypeError),
           (lambda t: OPS.std_mean(t, [5]), ValueError)]
    for call, err in bad:
        with pytest.raises(err):
            call(x)
        with FakeTensorMode() as mode, pytest.raises(err):
            call(mode.from_tensor(x))


def test_the_direct_path_and_the_operator_path():
    x = tensor((8, 3), torch.float32)
    w = x.clone().requires_grad_()
    assert "hipreduce::var_mean" not in profiled(lambda: hrt.var_mean(x, 1))
    assert "hipreduce::var_mean" in profiled(lambda: hrt.var_mean(w, 1))
    assert "hipreduce::count_nonzero" not in profiled(lambda: hrt.count_nonzero(w, 1))  # no gradient: direct
    assert hrt.mean(w, 1).grad_fn is not None and hrt.mean(x, 1).grad_fn is None
    assert not hrt.any(w, 1).requires_grad
    with pytest.raises(NotImplementedError, match="hipreduce.torch"):
        hr.var(w)
    assert same(hr.count_nonzero(w), hr.count_nonzero(x))  # counts carry no gradient: accepted


def test_opcheck():
    x = tensor((4, 5, 6), torch.float64).requires_grad_()
    n = with_nans(x.detach()).requires_grad_()
    calls = []
    for name in FLOAT_STATS:
        op = getattr(OPS, name).default
        arg = n if name.startswith("nan") else x
        calls += [(op, (arg, None, False, None)), (op, (arg, [1], True, None)), (op, (arg, [0, 2], False, None))]
    calls += [(OPS.mean.default, (x.detach().float().requires_grad_(), [2], False, torch.float64))]
    for name in COUNT_STATS:
        op = getattr(OPS, name).default
        calls += [(op, (x, None, False)), (op, (x > 0, [1], True)), (op, (n, [0, 2], False))]
    for name in MOMENTS:
        op = getattr(OPS, name).default
        calls += [(op, (x, None, False, None, 1.0)), (op, (x, [1], True, None, 0.0)),
                  (op, (x, [0, 2], False, None, 2.5))]
    for op, args in calls:
        report = torch.library.opcheck(op, args)
        assert set(report.values()) == {"SUCCESS"}, (op, args, report)
