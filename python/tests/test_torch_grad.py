"""hipreduce.torch's gradients (gradcheck in float64 and torch's own reductions' gradients, ties, zeros,
NaN), double backward, torch.compile(fullgraph=True) against eager bit for bit, and CUDA-graph capture
(GPU only). Skipped without torch."""
import pytest

torch = pytest.importorskip("torch")

import hipreduce as hr  # noqa: E402
import hipreduce.torch as hrt  # noqa: E402
from torch.autograd import gradcheck, gradgradcheck  # noqa: E402

DIFFERENTIABLE = ["sum", "prod", "min", "max", "sum_abs", "sum_squares", "max_abs", "norm"]
AXES = [None, 0, 1, 2, -1, (0, 1), (1, 2), (0, 2), (2, 0), ()]


def f64(shape, seed=0, low=None):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(shape, generator=g, dtype=torch.float64)
    if low is not None:  # magnitudes away from 0 (sign, abs) and from each other (min, max)
        x = x.sign() * (low + x.abs())
    return x.requires_grad_()


def grad_of(f, x, *more):
    x = x.detach().clone().requires_grad_()
    more = [m.detach().clone().requires_grad_() for m in more]
    out = f(x, *more)
    out.backward(torch.ones_like(out) if out.dim() else None)
    return [x.grad] + [m.grad for m in more]


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_gradcheck(name):
    fn = getattr(hrt, name)
    x = f64((3, 4, 5), seed=1, low=0.1 if name in ("sum_abs", "max_abs") else None)
    for axis in AXES:
        for keepdims in (False, True):
            assert gradcheck(lambda t: fn(t, axis, keepdims=keepdims), (x,))
    assert gradcheck(lambda t: fn(t), (f64((), seed=2, low=0.5),))  # 0-d
    if name not in ("min", "max", "max_abs"):  # a wider result dtype: the gradient in the input's
        x32 = x.detach().float().requires_grad_()
        r = fn(x32, 1, dtype=torch.float64)
        r.sum().backward()
        assert r.dtype == torch.float64 and x32.grad.dtype == torch.float32


def test_gradcheck_dot_and_exact_sums():
    x, y = f64((4, 6), 1), f64((4, 6), 2)
    assert gradcheck(lambda a, b: hrt.dot(a, b), (x, y))
    assert gradcheck(lambda a, b: hrt.dot(a, b, exact=True), (x, y))
    assert gradcheck(lambda a: hrt.sum(a, 1, exact=True), (x,))
    for axis, keepdims in ((1, False), (0, True), ((), False)):
        assert gradcheck(lambda a, b: hrt.dot(a, b, axis=axis, keepdims=keepdims), (x, y))
    gx, = grad_of(lambda a: hrt.dot(a, y.detach()), x)  # y without grad: only x's
    assert torch.equal(gx, y.detach())


@pytest.mark.parametrize("op", ["sum", "sum_exact", "mean", "sum_squares", "sum_abs", "norm", "min", "max", "max_abs"])
def test_gradcheck_segments(op):
    x = f64((30,), 3, low=0.1)
    for offsets in ([0, 4, 5, 12, 30], [2, 2, 9, 20], [0, 30], [3, 3]):  # empty, partial cover
        if op in ("mean", "min", "max") and any(a == b for a, b in zip(offsets, offsets[1:])):
            continue  # an empty segment gives NaN (mean: 0/0) or an infinity (the identity)
        assert gradcheck(lambda t: hrt.segment_reduce(t, torch.tensor(offsets), op), (x,))


def test_gradgradcheck():
    x = f64((3, 4, 5), 4, low=0.1)
    for fn in (lambda t: hrt.sum(t, 1), lambda t: hrt.sum(t), lambda t: hrt.sum(t, (0, 1), keepdims=True),
               lambda t: hrt.prod(t, 2), lambda t: hrt.norm(t, 0), lambda t: hrt.sum_squares(t),
               lambda t: hrt.segment_reduce(t.reshape(-1), torch.tensor([0, 10, 60]), "mean")):
        assert gradgradcheck(fn, (x,))


def test_gradients_equal_torch():
    x = f64((4, 6, 5), 5)
    pairs = [(lambda t: hrt.sum(t, 1), lambda t: t.sum(1)),
             (lambda t: hrt.sum_squares(t, (1, 2)), lambda t: (t * t).sum((1, 2))),
             (lambda t: hrt.sum_abs(t, 0), lambda t: t.abs().sum(0)),
             (lambda t: hrt.norm(t, 2), lambda t: torch.linalg.vector_norm(t, dim=2)),
             (lambda t: hrt.prod(t, 1), lambda t: t.prod(1)),
             (lambda t: hrt.max(t, 1), lambda t: t.amax(1)), (lambda t: hrt.min(t), lambda t: t.amin()),
             (lambda t: hrt.max_abs(t, -1), lambda t: t.abs().amax(-1))]
    for ours, theirs in pairs:
        assert torch.allclose(grad_of(ours, x)[0], grad_of(theirs, x)[0], rtol=1e-12, atol=0)
    y = f64((4, 6, 5), 6)
    for a, b in zip(grad_of(hrt.dot, x, y), grad_of(lambda s, t: (s * t).sum(), x, y)):
        assert torch.equal(a, b)


def test_prod_with_zeros_as_torch():
    rows = torch.tensor([[2.0, 3.0, 4.0], [2.0, 0.0, 4.0], [0.0, 5.0, 0.0], [0.0, 0.0, 0.0]], dtype=torch.float64)
    for axis in (None, 1, 0):
        ours, = grad_of(lambda t: hrt.prod(t, axis), rows)
        theirs, = grad_of(lambda t: t.prod() if axis is None else t.prod(axis), rows)
        assert torch.equal(ours, theirs), axis
    one_zero, = grad_of(lambda t: hrt.prod(t, 1), rows)
    assert one_zero[1].tolist() == [0.0, 8.0, 0.0] and one_zero[2].tolist() == [0.0, 0.0, 0.0]


def test_ties_spread_as_torch_amax():
    x = torch.tensor([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, 2.0, 2.0], [-0.0, 0.0, -1.0, -1.0]], dtype=torch.float64)
    for ours, theirs in ((lambda t: hrt.max(t, 1), lambda t: t.amax(1)), (lambda t: hrt.min(t, 1), lambda t: t.amin(1)),
                         (lambda t: hrt.max(t), lambda t: t.amax()), (lambda t: hrt.min(t, 0), lambda t: t.amin(0)),
                         (lambda t: hrt.max_abs(t, 1), lambda t: t.abs().amax(1))):
        assert torch.equal(grad_of(ours, x)[0], grad_of(theirs, x)[0])
    g, = grad_of(lambda t: hrt.max(t, 1), x)
    assert g[0].tolist() == [0.0, 0.5, 0.5, 0.0] and g[1].tolist() == [0.25] * 4
    assert g[2].tolist() == [0.5, 0.5, 0.0, 0.0]  # -0.0 and +0.0 tie (their values compare equal)


def test_nan_extremes_send_the_gradient_to_the_nans():
    nan = float("nan")
    x = torch.tensor([[nan, 1.0, nan], [1.0, 2.0, 0.5]], dtype=torch.float64)
    g, = grad_of(lambda t: hrt.max(t, 1), x)
    assert g.tolist() == [[0.5, 0.0, 0.5], [0.0, 1.0, 0.0]]
    whole, = grad_of(lambda t: hrt.max(t), x)
    assert torch.equal(whole, grad_of(lambda t: t.max(), x)[0])  # torch.max()'s rule


def test_norm_and_sum_abs_at_zero():
    z = torch.zeros(2, 3, dtype=torch.float64)
    z[1, 0] = 3.0
    theirs, = grad_of(lambda t: torch.linalg.vector_norm(t, dim=1), z)
    assert torch.equal(grad_of(lambda t: hrt.norm(t, 1), z)[0], theirs)
    assert torch.equal(grad_of(lambda t: hrt.sum_abs(t), z)[0], grad_of(lambda t: t.abs().sum(), z)[0])


def test_segment_gradients_equal_torch():
    x = f64((20,), 7)
    x.data[5] = x.data[4]  # a tie inside a segment
    lengths = torch.tensor([3, 5, 12])
    offsets = torch.tensor([0, 3, 8, 20])
    for op in ("sum", "max", "min", "mean"):
        ours, = grad_of(lambda t: hrt.segment_reduce(t, offsets, op), x)
        theirs, = grad_of(lambda t: torch.segment_reduce(t, op, lengths=lengths), x)
        assert torch.allclose(ours, theirs, rtol=1e-14, atol=0), op
    with_empty, = grad_of(lambda t: hrt.segment_reduce(t, torch.tensor([0, 3, 3, 8, 20]), "sum"), x)
    theirs, = grad_of(lambda t: torch.segment_reduce(t, "sum", lengths=torch.tensor([3, 0, 5, 12])), x)
    assert torch.equal(with_empty, theirs)


@pytest.mark.parametrize("op", ["sum", "sum_exact", "mean", "sum_squares", "sum_abs", "norm", "min", "max", "max_abs"])
def test_gradcheck_by_key(op):
    keys = torch.tensor([3, 0, 2, 2, 0, 3, 1, 0, 2, 3, 0, 0])
    for values in (f64((12,), 11, low=0.1), f64((12, 3), 12, low=0.1)):
        assert gradcheck(lambda t: hrt.reduce_by_key(t, keys, 4, op), (values,))
        if op not in ("mean", "min", "max"):  # an empty bin: NaN (mean) or an infinity (min, max)
            assert gradcheck(lambda t: hrt.reduce_by_key(t, keys.to(torch.int32), 6, op), (values,))


def test_by_key_gradients_equal_torch():
    keys = torch.tensor([3, 0, 2, 2, 0, 3, 1, 0, 2, 3, 0, 0])
    values = f64((12, 3), 13)
    values.data[10] = values.data[7]  # ties in bin 0
    zeros = torch.zeros(4, 3, dtype=torch.float64)
    index = keys[:, None].expand(12, 3)
    ours, = grad_of(lambda t: hrt.reduce_by_key(t, keys, 4), values)
    theirs, = grad_of(lambda t: zeros.index_add(0, keys, t), values)
    assert torch.equal(ours, theirs)
    for op, reduce in (("max", "amax"), ("min", "amin"), ("mean", "mean")):
        ours, = grad_of(lambda t: hrt.reduce_by_key(t, keys, 4, op), values)
        theirs, = grad_of(lambda t: zeros.scatter_reduce(0, index, t, reduce, include_self=False), values)
        assert torch.allclose(ours, theirs, rtol=1e-14, atol=0), op


def test_segments_without_a_gradient():
    x, offsets = f64((10,), 8), torch.tensor([0, 4, 10])
    with pytest.raises(NotImplementedError, match="'prod' has no gradient"):
        hrt.segment_reduce(x, offsets, "prod")
    with pytest.raises(NotImplementedError, match="'prod' has no gradient"):
        hrt.reduce_by_key(torch.ones(3, dtype=torch.float64, requires_grad=True), torch.tensor([0, 1, 0]), 2, "prod")
    assert hrt.segment_reduce(x.detach(), offsets, "prod").shape == (2,)
    idx = hrt.segment_reduce(x, offsets, "argmax")
    assert not idx.requires_grad and torch.equal(idx, hr.segment_reduce(x.detach(), offsets, "argmax"))


def _model(w, x, r, offsets, keys):
    """A loss from every differentiable operator, joined by elementwise torch operations of equal shapes
    (torch's own reductions, and the sums that autograd makes for broadcasting, are inductor's code
    under torch.compile and need not keep eager's bits: only hipreduce's are the same)."""
    h = x * w
    pooled = hrt.segment_reduce(h.reshape(-1), offsets, "mean")
    rows = hrt.norm(h, 1) * r[:, 0]
    loss = (hrt.sum(pooled * pooled, exact=True) + hrt.dot(rows, r[:, 1]) + hrt.sum(hrt.max(h, 0) * r[0])
            - hrt.sum(hrt.min(h, 1) * r[:, 2]) + hrt.sum_abs(hrt.sum(w, 1) * r[:, 3]) + hrt.max_abs(h)
            + 0.5 * hrt.sum_squares(w) + hrt.sum(hrt.prod(w[:3] + 1, 0) * r[1])
            + hrt.sum(hrt.segment_reduce(h[:, 0], offsets[:3] // 16 + torch.tensor([0, 1, 2]), "max"))
            + hrt.dot(hrt.reduce_by_key(h, keys, 3, "mean"), r[:3]) + hrt.sum(hrt.sum(h, (0, 1)) * r[0, 0])
            + hrt.sum(hrt.reduce_by_key(h[:, 1], keys, 3, "max")))
    return loss, hrt.argmax(h, 1)


def test_compile_fullgraph_trains_a_step_as_eager():
    """torch.compile with the default (inductor) backend: no graph break, and the loss, the indices,
    the gradient and the updated weights have eager's bits."""
    g = torch.Generator().manual_seed(9)
    x, r = torch.randn(24, 16, generator=g), torch.randn(24, 16, generator=g)
    offsets = torch.tensor([0, 40, 41, 200, 384])
    keys = torch.arange(24) % 3
    results = []
    for fn in (_model, torch.compile(_model, fullgraph=True)):
        w = (torch.randn(24, 16, generator=torch.Generator().manual_seed(10)) * 0.3).requires_grad_()
        loss, idx = fn(w, x, r, offsets, keys)
        loss.backward()
        with torch.no_grad():
            w -= 0.01 * w.grad
        results.append((loss.detach(), idx, w.grad, w.detach()))
    assert torch.isfinite(results[0][0])
    for eager, compiled in zip(*results):
        assert torch.equal(eager, compiled)


def test_compile_every_operator_and_dynamic_shapes():
    """Every operator and option under fullgraph tracing (aot_eager: the graphs torch.compile builds,
    run without code generation), with shapes marked dynamic."""
    def fn(x, y, offsets):
        parts = [getattr(hrt, n)(x, a, keepdims=k)
                 for n in DIFFERENTIABLE for a in (None, 1, (0, 1)) for k in (False, True)]
        parts += [hrt.sum(x, 0, dtype=torch.float64).float(), hrt.dot(x, y)[None], hrt.dot(x, y, exact=True)[None],
                  hrt.argmin(x, 0).float(), hrt.argmax(x).float()[None]]
        parts += [hrt.segment_reduce(x.reshape(-1), offsets, op).float() for op in ("sum", "mean", "argmin", "norm")]
        parts += [hrt.reduce_by_key(x[:, 0], torch.arange(x.shape[0]) % 2, 2, op, counts=True)[0].float()
                  for op in ("sum", "max", "argmax")]
        parts += [hrt.sum(x, (0, 2)), hrt.sum(x, ()), hrt.dot(x, y, axis=(0, 2), keepdims=True)]
        return torch.cat([p.reshape(-1) for p in parts])

    compiled = torch.compile(fn, fullgraph=True, backend="aot_eager", dynamic=True)
    for rows in (5, 8):
        x = f64((rows, 3, 4), rows).float()
        y = f64((rows, 3, 4), rows + 1).float()
        offsets = torch.tensor([0, 7, 7, 12 * rows])
        want = fn(x, y, offsets)
        got = compiled(x, y, offsets)
        assert torch.equal(want.nan_to_num(), got.nan_to_num()) and torch.equal(want.isnan(), got.isnan())
        gw, = grad_of(lambda t: fn(t, y, offsets).nan_to_num().sum(), x)
        gc, = grad_of(lambda t: compiled(t, y, offsets).nan_to_num().sum(), x)
        assert torch.equal(gw, gc)


def _gpu():
    return torch.cuda.is_available() and hr.backend() != "cpu" and hr.device_count() > 0


@pytest.mark.skipif(not _gpu(), reason="no GPU that both libhipreduce and torch can use")
def test_cuda_graph_capture_replays_as_eager():
    """A step capturing the operators (and the direct path) in a CUDA graph: the results come from the
    graph's pool, on the capture stream; 20 replays over new inputs equal eager calls bit for bit."""
    x = torch.randn(512, 64, device="cuda")
    offsets = torch.tensor([0, 100, 101, 4000, 32768], device="cuda")  # on the GPU: nothing read back; no empty segment (its mean is NaN)
    w = torch.randn(64, device="cuda", requires_grad=True)

    def step():
        h = x * w
        loss = hrt.sum(hrt.norm(h, 1)) + hrt.max(h, 0).sum() + hrt.segment_reduce(h.reshape(-1), offsets, "mean").sum()
        grad, = torch.autograd.grad(loss, w)
        return loss.detach(), grad, hrt.sum(x, 1), hrt.argmax(x, 1), torch.ops.hipreduce.dot(x, x)

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up: the thread's handle, its workspace, torch's autograd state
        for _ in range(3):
            step()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=side):  # the warm-up's stream: the handle's stream stays
        captured = step()
    for i in range(20):
        x.copy_(torch.randn(512, 64, device="cuda", generator=torch.Generator("cuda").manual_seed(i)))
        graph.replay()
        for got, want in zip(captured, step()):
            assert torch.equal(got, want), i
