"""hipreduce.torch's statistics' gradients: gradcheck in float64 over axes, keepdims and corrections;
torch's own gradients (mean, var, std, var_mean, std_mean, logsumexp, nansum, nanmean, and amax over
the non-NaN elements for nanmax); NaN elements; double backward; torch.compile(fullgraph=True) against
eager bit for bit; CUDA-graph capture (GPU only). Skipped without torch."""
import pytest

torch = pytest.importorskip("torch")

import hipreduce as hr  # noqa: E402
import hipreduce.torch as hrt  # noqa: E402
from torch.autograd import gradcheck, gradgradcheck  # noqa: E402
from test_torch_grad import AXES, f64, grad_of  # noqa: E402

FLOAT_STATS = ["mean", "nansum", "nanmean", "logsumexp", "nanmin", "nanmax"]
MOMENTS = ["var", "std", "var_mean", "std_mean"]


def nans(x):
    """x (float64, requires grad) with some NaN elements, never a whole slice of 3 x 4 x 5's axes."""
    y = x.detach().clone()
    y.view(-1)[::7] = float("nan")
    return y.requires_grad_()


def summed(r):
    """One output to differentiate: var_mean's and std_mean's two summed (both gradients at work)."""
    return r[0] + 2 * r[1] if isinstance(r, tuple) else r


@pytest.mark.parametrize("name", FLOAT_STATS)
def test_gradcheck(name):
    fn = getattr(hrt, name)
    clean = f64((3, 4, 5), seed=1, low=0.1)
    for axis in AXES:
        # axis=(): each NaN element is its own all-NaN slice, whose NaN result has no derivative
        x = nans(clean) if name.startswith("nan") and axis != () else clean
        for keepdims in (False, True):
            assert gradcheck(lambda t: fn(t, axis, keepdims=keepdims), (x,)), (axis, keepdims)
    assert gradcheck(lambda t: fn(t), (f64((), seed=2, low=0.5),))  # 0-d
    # a wider result dtype: the gradient in the input's
    x32 = (nans(clean) if name.startswith("nan") else clean).detach().float().requires_grad_()
    r = fn(x32, 1, dtype=torch.float64) if name == "mean" else fn(x32, 1)
    r.nan_to_num().sum().backward()
    assert x32.grad.dtype == torch.float32 and torch.isfinite(x32.grad).all()


@pytest.mark.parametrize("name", MOMENTS)
def test_gradcheck_moments(name):
    fn = getattr(hrt, name)
    x = f64((3, 4, 5), seed=3)
    for axis in (None, 0, 1, (0, 2), (2, 0), -1):
        for keepdims in (False, True):
            for c in (0, 1, 2.5):
                assert gradcheck(lambda t: summed(fn(t, axis, keepdims=keepdims, correction=c)), (x,)), (axis, c)
    if name in ("var_mean", "std_mean"):  # one output used: the other's gradient is absent
        assert gradcheck(lambda t: fn(t, 1)[0], (x,)) and gradcheck(lambda t: fn(t, 1)[1], (x,))


def test_gradients_equal_torch():
    x = f64((4, 6, 5), 5)
    n = nans(x)
    finite = torch.where(n.isnan(), -torch.inf, n.detach())
    pairs = [(lambda t: hrt.mean(t, 1), lambda t: t.mean(1)), (lambda t: hrt.mean(t), lambda t: t.mean()),
             (lambda t: hrt.logsumexp(t, (0, 2)), lambda t: torch.logsumexp(t, (0, 2))),
             (lambda t: hrt.var(t, 1), lambda t: torch.var(t, 1)),
             (lambda t: hrt.std(t, (1, 2), correction=0), lambda t: torch.std(t, (1, 2), correction=0)),
             (lambda t: hrt.var(t, 0, correction=2.5), lambda t: torch.var(t, 0, correction=2.5)),
             (lambda t: summed(hrt.var_mean(t, 2)), lambda t: summed(torch.var_mean(t, 2))),
             (lambda t: summed(hrt.std_mean(t, 0, keepdims=True)),
              lambda t: summed(torch.std_mean(t, 0, keepdim=True)))]
    for ours, theirs in pairs:
        assert torch.allclose(grad_of(ours, x)[0], grad_of(theirs, x)[0], rtol=1e-10, atol=1e-14)
    for ours, theirs in ((lambda t: hrt.nansum(t, 1), lambda t: torch.nansum(t, 1)),
                         (lambda t: hrt.nanmean(t, 2), lambda t: torch.nanmean(t, 2)),
                         (lambda t: hrt.nanmean(t), lambda t: torch.nanmean(t))):
        g_ours, g_theirs = grad_of(ours, n)[0], grad_of(theirs, n)[0]
        assert torch.allclose(g_ours, g_theirs, rtol=1e-12, atol=0) and (g_ours[n.isnan()] == 0).all()
    g_max, = grad_of(lambda t: hrt.nanmax(t, 1), n)
    assert torch.equal(g_max, grad_of(lambda t: t.amax(1), finite)[0])


def test_nan_extremes_and_ties():
    nan = float("nan")
    x = torch.tensor([[nan, 1.0, 3.0, 3.0], [nan, nan, nan, nan], [2.0, -0.0, 0.0, nan]], dtype=torch.float64)
    g, = grad_of(lambda t: hrt.nanmax(t, 1), x)
    assert g.tolist()[0] == [0.0, 0.0, 0.5, 0.5] and g.tolist()[2] == [1.0, 0.0, 0.0, 0.0]
    assert g[1].tolist() == [0.25] * 4  # an all-NaN slice: the NaNs share it (max's rule)
    g, = grad_of(lambda t: hrt.nanmin(t, 1), x)
    assert g.tolist()[0] == [0.0, 1.0, 0.0, 0.0] and g.tolist()[2] == [0.0, 0.5, 0.5, 0.0]  # -0.0 ties +0.0
    s, = grad_of(lambda t: hrt.std(t, 1), torch.ones(2, 3, dtype=torch.float64))
    assert torch.equal(s, torch.zeros(2, 3, dtype=torch.float64))  # std 0: gradient 0, as torch


def test_gradgradcheck():
    x = f64((3, 4, 5), 4, low=0.1)
    for fn in (lambda t: hrt.mean(t, 1), lambda t: hrt.mean(t), lambda t: hrt.var(t, (0, 2)),
               lambda t: hrt.std(t, 1, correction=0), lambda t: hrt.logsumexp(t, 2),
               lambda t: summed(hrt.var_mean(t, 1)), lambda t: hrt.nanmean(t, 0)):
        assert gradgradcheck(fn, (x,))


def _model(w, x, r, mask):
    """LayerNorm's row statistics, a log-softmax's normaliser (logsumexp), a masked mean (NaN off the
    mask) and the counts, joined by elementwise torch operations of equal shapes (torch's own reductions,
    and the sums that autograd makes for broadcasting, are inductor's code under torch.compile and need
    not keep eager's bits: only hipreduce's are the same). So is torch.exp, which logsumexp's gradient
    (the softmax) takes: its input is detached here (test_logsumexp_gradient_compiled has the gradient)."""
    h = x * w
    var, mean = hrt.var_mean(h, 1, correction=0)
    masked = torch.where(mask, h, torch.nan)
    loss = (hrt.sum(var * r[:, 0]) + hrt.dot(mean, r[:, 1]) + hrt.sum(hrt.logsumexp(h.detach(), 1) * r[:, 2])
            + hrt.sum(hrt.nanmean(masked, 0) * hrt.std(h, 0)) + hrt.nansum(masked) * 1e-3
            + hrt.sum((hrt.nanmax(masked, 1) - hrt.nanmin(masked, 1)) * r[:, 3]) + hrt.mean(h * h)
            + hrt.dot(hrt.std_mean(h, 0, correction=1)[0], r[0]))
    return loss, hrt.count_nonzero(mask, 1), hrt.any(h > 3, 0), hrt.all(h > -30)


def test_compile_fullgraph_trains_a_step_as_eager():
    """torch.compile with the default (inductor) backend: no graph break, and the loss, the counts, the
    gradient and the updated weights have eager's bits."""
    g = torch.Generator().manual_seed(9)
    x, r = torch.randn(24, 16, generator=g), torch.randn(24, 16, generator=g)
    mask = torch.rand(24, 16, generator=g) < 0.7
    results = []
    for fn in (_model, torch.compile(_model, fullgraph=True)):
        w = (torch.randn(24, 16, generator=torch.Generator().manual_seed(10)) * 0.3 + 1).requires_grad_()
        loss, counts, some, every = fn(w, x, r, mask)
        loss.backward()
        with torch.no_grad():
            w -= 0.01 * w.grad
        results.append((loss.detach(), counts, some, every, w.grad, w.detach()))
    assert torch.isfinite(results[0][0])
    for eager, compiled in zip(*results):
        assert torch.equal(eager, compiled)


def test_logsumexp_gradient_compiled():
    """Under inductor the softmax of logsumexp's gradient is inductor's exp (on the CPU a vectorised one
    of other last bits than eager's): the value keeps eager's bits, the gradient is within a few units
    in the last place."""
    g = torch.Generator().manual_seed(11)
    x, r = torch.randn(24, 16, generator=g), torch.randn(24, generator=g)

    def fn(w):
        return hrt.sum(hrt.logsumexp(x * w, 1) * r)

    results = []
    for f in (fn, torch.compile(fn, fullgraph=True)):
        w = torch.ones(24, 16, requires_grad=True)
        loss = f(w)
        loss.backward()
        results.append((loss.detach(), w.grad))
    assert torch.equal(results[0][0], results[1][0])
    assert torch.allclose(results[0][1], results[1][1], rtol=1e-6, atol=1e-7)


def test_compile_every_statistic_and_dynamic_shapes():
    def fn(x):
        parts = [getattr(hrt, n)(x, a, keepdims=k)
                 for n in FLOAT_STATS for a in (None, 1, (0, 2)) for k in (False, True)]
        parts += [p for n in MOMENTS for c in (0, 1) for a in (None, (1, 2))
                  for p in (lambda r: r if isinstance(r, tuple) else (r,))(getattr(hrt, n)(x, a, correction=c))]
        parts += [getattr(hrt, n)(x > 0, a).float() for n in ("count_nonzero", "all", "any") for a in (None, 0)]
        parts += [hrt.mean(x.to(torch.int32), 1).float(), hrt.mean(x, 0, dtype=torch.float64).float()]
        return torch.cat([p.reshape(-1) for p in parts])

    compiled = torch.compile(fn, fullgraph=True, backend="aot_eager", dynamic=True)
    for rows in (5, 8):
        x = f64((rows, 3, 4), rows).float()
        want, got = fn(x), compiled(x)
        assert torch.equal(want.nan_to_num(), got.nan_to_num()) and torch.equal(want.isnan(), got.isnan())
        gw, = grad_of(lambda t: fn(t).nan_to_num().sum(), x)
        gc, = grad_of(lambda t: compiled(t).nan_to_num().sum(), x)
        assert torch.equal(gw, gc)


def _gpu():
    return torch.cuda.is_available() and hr.backend() != "cpu" and hr.device_count() > 0


@pytest.mark.skipif(not _gpu(), reason="no GPU that both libhipreduce and torch can use")
def test_cuda_graph_capture_replays_as_eager():
    """A step with the statistics captured in a CUDA graph: 20 replays over new inputs equal eager calls."""
    x = torch.randn(512, 64, device="cuda")
    w = torch.randn(64, device="cuda", requires_grad=True)

    def step():
        h = x * w
        var, mean = hrt.var_mean(h, 1)
        loss = hrt.sum(var) + hrt.mean(mean) + hrt.sum(hrt.logsumexp(h, 1)) + hrt.nansum(hrt.std(h, 0))
        grad, = torch.autograd.grad(loss, w)
        return loss.detach(), grad, hrt.count_nonzero(x > 0, 1), hrt.nanmax(x, 0), torch.ops.hipreduce.std_mean(x)

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            step()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=side):
        captured = step()
    for i in range(20):
        x.copy_(torch.randn(512, 64, device="cuda", generator=torch.Generator("cuda").manual_seed(i)))
        graph.replay()
        for got, want in zip(captured, step()):
            for a, b in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
                assert torch.equal(a, b), i
