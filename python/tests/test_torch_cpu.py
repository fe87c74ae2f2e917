"""torch CPU tensors: reduced by the cpu device, results as torch tensors with torch's default dtypes
(needs torch only; skipped without it)."""
import numpy as np
import pytest

import hipreduce as hr
from data import BF16, bits, random_array


def test_torch_cpu_tensors():
    torch = pytest.importorskip("torch")
    x = torch.arange(-50, 50, dtype=torch.int8)
    r = hr.sum(x)
    assert isinstance(r, torch.Tensor) and r.dim() == 0 and r.dtype == torch.int64 and r.item() == -50
    assert hr.sum(x.to(torch.uint8)).dtype == torch.int64  # torch's rule for integer sums
    if BF16 is not None:  # torch bfloat16 against ml_dtypes' bfloat16 numpy arrays
        b = random_array((257, 3), BF16, seed=2)
        tb = torch.from_numpy(b.view(np.int16).copy()).view(torch.bfloat16)
        for axis in (None, 0, 1):
            rt = hr.sum(tb, axis=axis)
            assert rt.dtype == torch.bfloat16
            assert bits(rt.view(torch.int16).numpy()) == bits(np.asarray(hr.sum(b, axis=axis)))
    tb = torch.ones(300, dtype=torch.bfloat16)
    assert hr.sum(tb).dtype == torch.bfloat16 and hr.sum(tb).item() == 300.0  # accumulated in float32
    idx = hr.argmax(torch.tensor([[1.0, 3.0, 3.0], [2.0, 0.0, 2.0]]), axis=1)
    assert idx.tolist() == [1, 0]
    assert hr.segment_reduce(torch.arange(6.0), torch.tensor([0, 2, 2, 6])).tolist() == [1.0, 0.0, 14.0]
    with pytest.raises(TypeError):
        hr.sum(torch.ones(3, dtype=torch.complex64))


def test_torch_views_reduced_in_place(monkeypatch):
    # Transposed, strided, channels-last and expanded (stride 0) CPU tensors: reduced through their
    # strides (Tensor.contiguous is never called), with the bits of their contiguous copies and of
    # the same views as numpy arrays.
    torch = pytest.importorskip("torch")
    base = torch.from_numpy(random_array((6, 5, 8, 4), np.dtype(np.float32), seed=3))
    views = [base.permute(3, 1, 0, 2), base[:, ::2, 1::3], base.contiguous(memory_format=torch.channels_last),
             base[:1, :, :1].expand(6, 5, 8, 4), base[2:, 1]]
    copies = [v.contiguous() for v in views]

    def refuse(*args, **kwargs):
        raise AssertionError("a copy")

    monkeypatch.setattr(torch.Tensor, "contiguous", refuse)
    for v, c in zip(views, copies):
        n = v.dim()
        for axis in (None, 0, -1, (0, n - 1), tuple(range(1, n)), ()):
            r = hr.sum(v, axis=axis)
            assert bits(r.numpy()) == bits(hr.sum(c, axis=axis).numpy()) == bits(np.asarray(hr.sum(v.numpy(), axis=axis)))
            assert torch.allclose(r, v.sum(dim=axis) if axis != () else v, rtol=1e-5, atol=1e-4)
        assert torch.equal(hr.argmax(v, axis=1), torch.from_numpy(np.argmax(v.numpy(), axis=1)))
        assert torch.equal(hr.max(v, dim=0, keepdim=True), v.amax(dim=0, keepdim=True))
        assert bits(hr.dot(v, v, axis=0).numpy()) == bits(hr.dot(c, c, axis=0).numpy())


def test_torch_spellings_dim_and_keepdim():
    torch = pytest.importorskip("torch")
    x = torch.arange(24, dtype=torch.float64).reshape(2, 3, 4)
    assert torch.equal(hr.sum(x, dim=(0, 2)), x.sum(dim=(0, 2)))
    assert torch.equal(hr.sum(x, dim=1, keepdim=True), x.sum(dim=1, keepdim=True))
    assert hr.norm(x, keepdim=True).shape == (1, 1, 1)
    assert torch.equal(hr.argmin(x, dim=2, keepdim=True), x.argmin(dim=2, keepdim=True))
    assert torch.equal(hr.prod(x + 1, dim=-1), (x + 1).prod(dim=-1))
    with pytest.raises(TypeError):
        hr.sum(x, axis=0, dim=1)
    with pytest.raises(TypeError):
        hr.sum(x, keepdims=True, keepdim=True)
    with pytest.raises(ValueError):  # numpy's rule for a repeated axis
        hr.sum(x, dim=(1, -2))


def test_torch_reduce_by_key():
    torch = pytest.importorskip("torch")
    values = torch.from_numpy(random_array((50, 3), np.dtype(np.float32), seed=6))
    keys = torch.from_numpy(np.random.default_rng(1).integers(0, 7, 50))
    got, counts = hr.reduce_by_key(values, keys, 7, counts=True)
    assert isinstance(got, torch.Tensor) and got.shape == (7, 3) and counts.dtype == torch.int64
    expect = hr.reduce_by_key(values.numpy(), keys.numpy(), 7)
    assert bits(got.numpy()) == bits(expect)
    assert torch.equal(counts, torch.bincount(keys, minlength=7))
    assert torch.equal(hr.reduce_by_key(values.T.contiguous().T, keys.to(torch.int32), 7), got)  # column-major rows: copied
    with pytest.raises(TypeError, match="torch|framework"):
        hr.reduce_by_key(values, keys.numpy(), 7)
