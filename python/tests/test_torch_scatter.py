"""index_add, scatter_reduce, bincount and unsorted_segment_reduce on CPU torch tensors: torch's own calls
give the values (integers exactly, floats closely), reduce_by_key the bits, hipreduce.torch the gradients
(torch's where torch has one), and the plain functions refuse tensors that autograd tracks. Skipped
without torch."""
import pytest

torch = pytest.importorskip("torch")

import hipreduce as hr  # noqa: E402
import hipreduce.torch as hrt  # noqa: E402


def same(a, b):
    return a.shape == b.shape and a.dtype == b.dtype and torch.equal(
        a.contiguous().reshape(-1).view(torch.uint8), b.contiguous().reshape(-1).view(torch.uint8))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.bfloat16])
@pytest.mark.parametrize("shape, dim", [((9,), 0), ((5, 6), 1), ((4, 7, 3), 0)])
def test_index_add_against_torch(dtype, shape, dim):
    g = torch.Generator().manual_seed(0)
    out = (torch.randn(shape, generator=g) * 20).to(dtype)
    n = 13
    src = (torch.randn(shape[:dim] + (n,) + shape[dim + 1:], generator=g) * 20).to(dtype)
    index = torch.randint(0, shape[dim], (n,), generator=g)
    for f in (hr.index_add, hrt.index_add):
        got = f(out, index, src, dim=dim)
        ref = out.index_add(dim, index, src)
        assert got.dtype == dtype and got.shape == out.shape
        if dtype.is_floating_point:
            tol = 0.5 if dtype == torch.bfloat16 else 1e-4
            torch.testing.assert_close(got.double(), ref.double(), rtol=tol, atol=tol)
        else:
            assert torch.equal(got, ref)
    rows = src.movedim(dim, 0).reshape(n, -1)
    acc = torch.float32 if dtype == torch.bfloat16 else dtype
    sums, counts = hr.reduce_by_key(rows, index, shape[dim], "sum", dtype=acc, counts=True)
    moved = out.movedim(dim, 0)
    added = (moved.to(acc) + sums.reshape(moved.shape)).to(dtype)
    mask = (counts > 0).reshape((-1,) + (1,) * (len(shape) - 1))
    assert same(hr.index_add(out, index, src, dim=dim), torch.where(mask, added, moved).movedim(0, dim).contiguous())


def test_index_add_gradients():
    g = torch.Generator().manual_seed(1)
    out = torch.randn(6, 4, dtype=torch.float64, generator=g, requires_grad=True)
    src = torch.randn(9, 4, dtype=torch.float64, generator=g, requires_grad=True)
    index = torch.randint(0, 6, (9,), generator=g)
    r = hrt.index_add(out, index, src, alpha=2.0)
    w = torch.randn(6, 4, dtype=torch.float64, generator=g)
    gout, gsrc = torch.autograd.grad((r * w).sum(), (out, src))
    assert torch.equal(gout, w)  # out passes through
    assert torch.equal(gsrc, 2.0 * w[index])  # src: the output gradient gathered along index, times alpha
    assert torch.autograd.gradcheck(lambda o, s: hrt.index_add(o, index, s, alpha=2.0), (out, src))
    with pytest.raises(NotImplementedError, match="requires grad"):
        hr.index_add(out, index, src.detach())
    with pytest.raises(NotImplementedError, match="requires grad"):
        hr.index_add(out.detach(), index, src)


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int32])
def test_scatter_reduce_against_torch(reduce, dtype):
    g = torch.Generator().manual_seed(2)
    bins = 12
    src = (torch.randn(200, generator=g) * 3).to(dtype) if dtype.is_floating_point else \
        torch.randint(-3, 4, (200,), generator=g, dtype=dtype)
    index = torch.randint(0, bins - 2, (200,), generator=g)  # two empty bins
    if reduce == "mean" and not dtype.is_floating_point:
        with pytest.raises(TypeError):
            hrt.scatter_reduce(src, index, bins, reduce)
        return
    ref = torch.zeros(bins, dtype=dtype).scatter_reduce(0, index, src, reduce, include_self=False)
    for f in (hr.scatter_reduce, hrt.scatter_reduce):
        got = f(src, index, bins, reduce)
        assert got.dtype == dtype
        if dtype.is_floating_point:
            torch.testing.assert_close(got, ref, rtol=1e-4 if reduce != "prod" else 1e-3, atol=1e-5)
        else:
            assert torch.equal(got, ref)
    if reduce in ("amax", "amin"):
        assert same(hr.scatter_reduce(src, index, bins, reduce)[:-2],
                    hr.reduce_by_key(src, index, bins, reduce[1:])[:-2])


@pytest.mark.parametrize("reduce", ["sum", "mean", "amax"])
def test_scatter_reduce_gradients(reduce):
    g = torch.Generator().manual_seed(3)
    src = torch.randn(40, 3, dtype=torch.float64, generator=g, requires_grad=True)
    index = torch.randint(0, 7, (40,), generator=g)
    w = torch.randn(8, 3, dtype=torch.float64, generator=g)
    (got,) = torch.autograd.grad((hrt.scatter_reduce(src, index, 8, reduce) * w).sum(), src)
    ref_src = src.detach().clone().requires_grad_(True)
    ref = torch.zeros(8, 3, dtype=torch.float64).scatter_reduce(0, index[:, None].expand(40, 3), ref_src, reduce,
                                                                include_self=False)
    (expect,) = torch.autograd.grad((ref * w).sum(), ref_src)
    torch.testing.assert_close(got, expect)


def test_bincount_against_torch():
    g = torch.Generator().manual_seed(4)
    x = torch.randint(0, 50, (1000,), generator=g)
    assert torch.equal(hr.bincount(x), torch.bincount(x))
    assert torch.equal(hrt.bincount(x, minlength=60), torch.bincount(x, minlength=60))
    for w in (torch.randn(1000, generator=g), torch.randn(1000, generator=g, dtype=torch.float64),
              torch.randint(0, 9, (1000,), generator=g), torch.randn(1000, generator=g).half()):
        got, ref = hr.bincount(x, w), torch.bincount(x, w)
        assert got.dtype == ref.dtype  # torch's result dtypes
        torch.testing.assert_close(got, ref, rtol=1e-5, atol=1e-4)
    w = torch.randn(1000, dtype=torch.float64, generator=g, requires_grad=True)
    (gw,) = torch.autograd.grad((hrt.bincount(x, w) * torch.arange(50.0, dtype=torch.float64)).sum(), w)
    assert torch.equal(gw, x.double())
    with pytest.raises(ValueError, match="negative"):
        hrt.bincount(torch.tensor([0, -2]))


def test_unsorted_segment_reduce_bits_and_gradient():
    g = torch.Generator().manual_seed(5)
    x = torch.randn(30, 2, 2, generator=g, dtype=torch.float64, requires_grad=True)
    ids = torch.randint(0, 5, (30,), generator=g, dtype=torch.int32)
    got = hrt.unsorted_segment_reduce(x, ids, 6, "max")
    assert same(got.detach().reshape(6, 4), hr.reduce_by_key(x.detach().reshape(30, 4), ids, 6, "max"))
    assert torch.autograd.gradcheck(lambda v: hrt.unsorted_segment_reduce(v, ids, 6, "sum"), (x,))
    assert torch.autograd.gradcheck(lambda v: hrt.unsorted_segment_reduce(v, ids, 6, "mean"), (x,))


def test_compile_fullgraph_gives_eager_bits():
    g = torch.Generator().manual_seed(6)
    out, src = torch.randn(5, 3, generator=g), torch.randn(9, 3, generator=g)
    index = torch.randint(0, 5, (9,), generator=g)
    for f in (lambda o, s, i: hrt.index_add(o, i, s, alpha=3.0), lambda o, s, i: hrt.scatter_reduce(s, i, 6, "mean"),
              lambda o, s, i: hrt.unsorted_segment_reduce(s, i, 6, "max")):
        assert same(torch.compile(f, fullgraph=True)(out, src, index), f(out, src, index))
