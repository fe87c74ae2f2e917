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
