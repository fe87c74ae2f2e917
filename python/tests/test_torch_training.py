"""The training snippet of docs/PYTHON.md (the README's in short), run as that page has it: a LayerNorm
written with hrt.var_mean, trained with loss.backward() (values and gradients against
torch.nn.functional.layer_norm within float32 rounding) and compiled with torch.compile(fullgraph=True)
(the output and the loss with eager's bits); then every operator of hipreduce.torch, forward and
backward, under torch.use_deterministic_algorithms(True): nothing raises and two runs give the same
bits. Skipped without torch."""
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

import hipreduce.torch as hrt  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs" / "PYTHON.md"


@pytest.fixture(scope="module")
def snippet():
    """The namespace after docs/PYTHON.md's training snippet ran (its asserts included)."""
    text = DOCS.read_text(encoding="utf-8")
    start = text.index("```python\n", text.index("A training step and its compiled form")) + len("```python\n")
    code = "\n" * text.count("\n", 0, start) + text[start:text.index("```", start)]  # the page's line numbers
    namespace = {}
    exec(compile(code, str(DOCS), "exec"), namespace)
    return namespace


def leaves(seed):
    g = torch.Generator().manual_seed(seed)
    x = (torch.randn(32, 64, generator=g) * 3 + 1).requires_grad_()
    weight = (torch.rand(64, generator=g) + 0.5).requires_grad_()
    bias = torch.randn(64, generator=g).requires_grad_()
    return x, weight, bias


def step(fn, x, weight, bias):
    """The snippet's loss and backward."""
    loss = hrt.mean(fn(x, weight, bias) ** 2)
    loss.backward()
    return loss


def test_snippet_runs(snippet):
    x, weight, bias = snippet["x"], snippet["weight"], snippet["bias"]
    assert torch.isfinite(snippet["loss"]) and all(t.grad is not None for t in (x, weight, bias))


def test_layer_norm_trains_as_torchs(snippet):
    """The snippet's LayerNorm, its loss and the gradients of x, weight and bias against torch's
    layer_norm and torch.mean (float32: within a few units in the last place)."""
    ours, theirs = leaves(1), leaves(1)
    loss = step(snippet["layer_norm"], *ours)
    x, weight, bias = theirs
    want = torch.mean(torch.nn.functional.layer_norm(x, (64,), weight, bias, eps=1e-5) ** 2)
    want.backward()
    torch.testing.assert_close(loss, want, rtol=1e-5, atol=1e-6)
    with torch.no_grad():
        torch.testing.assert_close(snippet["layer_norm"](*ours), torch.nn.functional.layer_norm(x, (64,), weight, bias),
                                   rtol=1e-5, atol=1e-5)
    for a, b in zip(ours, theirs):
        torch.testing.assert_close(a.grad, b.grad, rtol=1e-4, atol=1e-5)


def test_layer_norm_compiled_keeps_eagers_bits(snippet):
    """torch.compile(fullgraph=True) with the default (inductor) backend: no graph break, the output
    and the loss have eager's bits; the gradients are eager's within a few units in the last place
    (autograd's sums for the broadcast statistics and weights are torch's reductions, inductor's code
    under compile)."""
    layer_norm, compiled = snippet["layer_norm"], snippet["compiled"]
    eager_leaves, compiled_leaves = leaves(2), leaves(2)
    assert torch.equal(layer_norm(*eager_leaves), compiled(*compiled_leaves))
    eager_loss, compiled_loss = step(layer_norm, *eager_leaves), step(compiled, *compiled_leaves)
    assert torch.equal(eager_loss, compiled_loss)
    for a, b in zip(eager_leaves, compiled_leaves):
        torch.testing.assert_close(a.grad, b.grad, rtol=1e-5, atol=1e-6)


# ---- deterministic mode ----
def _every_operator(x, y):
    """Each operator of hipreduce.torch once (float results summed into one loss where they carry
    a gradient), and the results that carry none."""
    flat = x.reshape(-1)
    offsets = torch.tensor([0, 5, 5, 17, flat.numel()])
    keys = torch.arange(flat.numel()) % 3
    float_parts = [hrt.sum(x, 1), hrt.sum(x, exact=True), hrt.prod(x[:, :4] * 0.5 + 1, 0), hrt.min(x, 0),
                   hrt.max(x, 1), hrt.sum_abs(x), hrt.sum_squares(x, 0), hrt.max_abs(x), hrt.norm(x, 1),
                   hrt.dot(flat, y.reshape(-1)), hrt.segment_reduce(flat, offsets, "sum"),
                   hrt.segment_reduce(flat, offsets, "max"), hrt.reduce_by_key(flat, keys, 3, "mean"),
                   hrt.mean(x, 0), hrt.nansum(x), hrt.nanmean(x, 1), hrt.var(x, 0), hrt.std(x, 1),
                   *hrt.var_mean(x, 1), *hrt.std_mean(x, 0, correction=0), hrt.logsumexp(x, 1),
                   hrt.nanmin(x, 0), hrt.nanmax(x, 1), *hrt.aminmax(x, 1),
                   hrt.index_add(x[:2], keys[:9] % 2, x[2:4] * y[:2], dim=1), hrt.scatter_reduce(x, keys[:6], 3, "mean"),
                   hrt.bincount(keys, weights=flat), hrt.unsorted_segment_reduce(flat, keys, 3, "max")]
    others = [hrt.argmin(x, 1), hrt.argmax(x), hrt.nanargmin(x, 0), hrt.nanargmax(x, 1),
              hrt.count_nonzero(x > 0, 0), hrt.all(x > -9), hrt.any(x > 2, 1),
              hrt.bincount(keys)]
    return float_parts, others


def test_every_operator_under_deterministic_algorithms():
    """Forward and first-order backward of every operator (each name of hipreduce.torch.__all__)
    under torch.use_deterministic_algorithms(True) on CPU tensors: nothing raises, and a second run
    gives the same values and gradients, bit for bit."""
    names = {"sum", "prod", "min", "max", "argmin", "argmax", "sum_abs", "sum_squares", "max_abs", "norm", "dot",
             "segment_reduce", "reduce_by_key", "index_add", "scatter_reduce", "bincount", "unsorted_segment_reduce", "mean", "nansum", "nanmean", "count_nonzero", "all", "any", "var",
             "std", "var_mean", "std_mean", "logsumexp", "nanmin", "nanmax", "nanargmin", "nanargmax", "aminmax"}
    assert names >= set(hrt.__all__), "an operator this test does not run: add it to _every_operator"
    g = torch.Generator().manual_seed(3)
    base, y = torch.randn(6, 9, generator=g), torch.randn(6, 9, generator=g)
    base[2, 3] = base[2, 5]  # a tie for min/max's shared gradient
    was = torch.are_deterministic_algorithms_enabled()
    runs = []
    torch.use_deterministic_algorithms(True)
    try:
        for _ in range(2):
            x = base.clone().requires_grad_()
            float_parts, others = _every_operator(x, y)
            loss = sum((p * (i + 1)).sum() for i, p in enumerate(float_parts))
            loss.backward()
            runs.append([p.detach() for p in float_parts] + others + [x.grad])
    finally:
        torch.use_deterministic_algorithms(was)
    for a, b in zip(*runs):
        assert torch.equal(a, b) or (a.is_floating_point() and torch.equal(a.isnan(), b.isnan())
                                     and torch.equal(a.nan_to_num(), b.nan_to_num()))
