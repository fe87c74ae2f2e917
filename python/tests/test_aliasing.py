"""Arguments that alias or that carry more than their values: out= sharing memory with an input (the
result is numpy's, as if out were apart), 0-d byte-swapped inputs (stay 0-d), torch tensors that
autograd tracks (refused, not silently detached). numpy on the cpu device; the torch cases need torch
(skipped without it); test_tensor_path.py drives the native fast path's share of both with its
stand-in tensor type."""
import numpy as np
import pytest

import hipreduce as hr


# ---- out= sharing memory with an input -----------------------------------------------------------

def test_segment_reduce_out_inside_the_input():
    x = np.arange(10.0)
    r = hr.segment_reduce(x, np.arange(10), "sum", out=x[1:10])  # segment s: x[s] alone, into x[s + 1]
    assert np.shares_memory(r, x)
    assert x.tolist() == [0.0] + np.arange(9.0).tolist()  # each segment's sum of x as it was before the call
    y = np.arange(10.0)
    hr.segment_reduce(y, np.arange(0, 11, 2), "sum", out=y[:5])
    assert y[:5].tolist() == [1.0, 5.0, 9.0, 13.0, 17.0]


def test_axis_reduction_out_inside_the_input():
    a = np.arange(12.0).reshape(3, 4)
    want = a.sum(axis=1).copy()
    r = hr.sum(a, axis=1, out=a[1, :3])
    assert np.shares_memory(r, a)
    assert a[1, :3].tolist() == want.tolist()
    for fn, ref in ((hr.max, np.max), (hr.min, np.min), (hr.prod, np.prod)):
        b = np.arange(1.0, 13.0).reshape(4, 3)
        want = ref(b, axis=0)
        fn(b, axis=0, out=b[1])
        assert b[1].tolist() == want.tolist(), fn.__name__
    c = np.arange(20.0).reshape(4, 5)
    want = np.sum(c, axis=0)
    hr.sum(c, axis=0, out=c[0])  # the first row: read by every column before it is written
    assert c[0].tolist() == want.tolist()


def test_whole_and_dot_out_inside_an_input():
    x = np.arange(1.0, 9.0)
    hr.sum(x, out=x[3:4].reshape(()))
    assert x[3] == 36.0
    y = np.arange(1.0, 5.0)
    z = np.full(4, 2.0)
    hr.dot(y, z, out=z[0:1].reshape(()))
    assert z[0] == 20.0
    hr.dot(y, np.ones(4), out=y[2:3].reshape(()))
    assert y[2] == 10.0


def test_argmax_out_inside_the_input():
    a = np.array([[5, 1, 7], [2, 9, 0], [3, 3, 8]], np.int64)
    want = np.argmax(a, axis=0)
    hr.argmax(a, axis=0, out=a[0])
    assert a[0].tolist() == want.tolist()
    s = np.array([4, 0, 2, 9, 9, 1], np.int64)
    want = [0, 0]  # the first maximum of [4, 0, 2] and of [9, 9, 1], from each segment's start
    hr.segment_reduce(s, [0, 3, 6], "argmax", out=s[1:3])
    assert s[1:3].tolist() == want


def test_out_apart_from_the_input_is_written_in_place():
    a = np.arange(12.0).reshape(3, 4)
    out = np.empty(3)
    assert hr.sum(a, axis=1, out=out) is out
    assert out.tolist() == a.sum(axis=1).tolist()
    buf = np.zeros(20)
    x, o = buf[:10], buf[10:13]  # one buffer, apart: no temporary needed, and the bits are the same
    x[:] = np.arange(10.0)
    hr.segment_reduce(x, [0, 3, 6, 10], "sum", out=o)
    assert o.tolist() == [3.0, 12.0, 30.0]


# ---- 0-d byte-swapped inputs --------------------------------------------------------------------

def test_zero_d_byte_swapped_stays_zero_d():
    x = np.array(3.5, ">f4")
    r = hr.sum(x, keepdims=True)
    assert r.shape == () and r == 3.5
    with pytest.raises(ValueError):
        hr.sum(x, axis=0)  # a 0-d array has no axis 0, as in numpy
    assert hr.dot(np.array(2.0, "<f8"), np.array(4.0, ">f8")) == 8.0
    assert hr.max(np.array(-7, ">i2")) == -7
    assert hr.argmax(np.array(1.5, ">f8"), keepdims=True).shape == ()
    assert hr.sum(np.arange(6, dtype=">i4").reshape(2, 3), axis=1).tolist() == [3, 12]  # n-d as before


# ---- torch tensors that autograd tracks ---------------------------------------------------------

def test_requires_grad_is_refused():
    torch = pytest.importorskip("torch")
    w = torch.arange(6.0).reshape(2, 3).requires_grad_()
    for call in (lambda: hr.sum(w), lambda: hr.sum(w, axis=1), lambda: hr.norm(w), lambda: hr.max(w, axis=0),
                 lambda: hr.dot(w.reshape(-1), torch.ones(6)), lambda: hr.dot(torch.ones(6), w.reshape(-1)),
                 lambda: hr.segment_reduce(w.reshape(-1), [0, 2, 6]),
                 lambda: hr.argmax(w, axis=1, return_value=True)):
        with pytest.raises(NotImplementedError, match="requires grad.*detach"):
            call()
    assert hr.sum(w.detach()).item() == 15.0
    with torch.no_grad():
        assert hr.sum(w).item() == 15.0 and hr.sum(w, axis=1).tolist() == [3.0, 12.0]
    assert hr.argmax(w, axis=1).tolist() == [2, 2]  # indices carry no gradient (as torch.argmax)
    assert hr.segment_reduce(w.reshape(-1), [0, 2, 6], "argmin").tolist() == [0, 0]
    out = torch.zeros(()).requires_grad_()
    with pytest.raises(NotImplementedError, match="out requires grad"):
        hr.sum(torch.ones(3), out=out)


def test_torch_out_inside_the_input():
    torch = pytest.importorskip("torch")
    t = torch.arange(12.0).reshape(3, 4)
    want = t.sum(dim=1).clone()
    hr.sum(t, axis=1, out=t[1, :3])
    assert t[1, :3].tolist() == want.tolist()
    v = torch.arange(1.0, 9.0)
    hr.sum(v, out=v[3])  # the whole-tensor fast path declines; the general path takes a temporary
    assert v[3].item() == 36.0
    s = torch.arange(10.0)
    hr.segment_reduce(s, torch.arange(10), "sum", out=s[1:10])
    assert s.tolist() == [0.0] + list(range(9))


def test_torch_out_with_list_offsets():
    """Offsets given as a list (a numpy array inside) beside a torch out=: the overlap check reads
    both spans."""
    torch = pytest.importorskip("torch")
    x = torch.arange(6.0)
    got = hr.segment_reduce(x, [0, 2, 6], out=torch.empty(2))
    assert got.tolist() == [1.0, 14.0]
