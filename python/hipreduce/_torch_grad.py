"""Backward formulas of the hipreduce torch operators (_torch_ops), registered with
torch.library.register_autograd. Each is written with torch operators only, so it is itself
differentiable (double backward) and traceable by torch.compile. Gradients come back in the input's
dtype; a result dtype wider than the input's (dtype=float64 on float32) is the dtype the formula is
evaluated in before that cast.

min, max, max_abs: torch.amax's rule, the gradient spread evenly over the elements equal to the
extreme (ties share it); where the extreme is NaN, over the NaN elements (torch.max()'s rule; torch.amax
with dim gives NaN gradients there). prod: the product of the other elements, so an element that is
the only zero gets the product of the rest and every other element 0, and with two or more zeros every
gradient is 0, as in torch. norm: x / norm, 0 where the norm is 0 (torch.linalg.vector_norm's rule).
sum_abs: sign(x) (0 at 0). segment_reduce and reduce_by_key: sum, sum_exact, mean, sum_squares,
sum_abs, norm, min, max, max_abs, each element's from its segment's or bin's result; prod and the
bitwise ops have none (NotImplementedError when one is needed), argmin/argmax are indices.
"""
from __future__ import annotations

import torch

from . import _torch_ops as ops


def _setup_reduce(ctx, inputs, output):
    x, axis, keepdims = inputs[0], inputs[1], inputs[2]
    ctx.axes = ops.reduced_axes(x.dim(), axis)
    ctx.keepdims = keepdims
    ctx.shape, ctx.dtype = x.shape, x.dtype
    ctx.save_for_backward(x, output)


def _setup_sum(ctx, inputs, output):
    x, axis, keepdims = inputs[0], inputs[1], inputs[2]
    ctx.axes = ops.reduced_axes(x.dim(), axis)
    ctx.keepdims = keepdims
    ctx.shape, ctx.dtype = x.shape, x.dtype  # sum's gradient needs neither x nor the result


def _restore(ctx, r):
    """r (of the result's shape) with the reduced axes back as size 1, so it broadcasts against x."""
    if not ctx.keepdims:
        for a in ctx.axes:
            r = r.unsqueeze(a)
    return r


def _grads(gx):
    return gx, None, None, None


def _sum_backward(ctx, g):
    return _grads(_restore(ctx, g).expand(ctx.shape).to(ctx.dtype)) + (None,)  # sum has exact=


def _sum_squares_backward(ctx, g):
    x, _ = ctx.saved_tensors
    g = _restore(ctx, g)
    return _grads((2 * x.to(g.dtype) * g).to(ctx.dtype))


def _sum_abs_backward(ctx, g):
    x, _ = ctx.saved_tensors
    g = _restore(ctx, g)
    return _grads((x.sign().to(g.dtype) * g).to(ctx.dtype))


def _norm_backward(ctx, g):
    x, r = ctx.saved_tensors
    r, g = _restore(ctx, r), _restore(ctx, g)
    scale = (g / r).masked_fill(r == 0, 0)
    return _grads((x.to(scale.dtype) * scale).to(ctx.dtype))


def _spread(x, r, g, axes):
    """g spread evenly over the elements of x equal to r (NaN elements where r is NaN)."""
    hit = (x == r) | (x.isnan() & r.isnan())
    if not axes:  # axis=(): each element is its own extreme (sum(dim=()) would reduce every axis)
        return g * hit
    return (g / hit.sum(dim=axes, keepdim=True)) * hit


def _extreme_backward(ctx, g):
    x, r = ctx.saved_tensors
    return _grads(_spread(x, _restore(ctx, r), _restore(ctx, g), ctx.axes).to(ctx.dtype))


def _max_abs_backward(ctx, g):
    x, r = ctx.saved_tensors
    spread = _spread(x.abs(), _restore(ctx, r), _restore(ctx, g), ctx.axes)
    return _grads((x.sign() * spread).to(ctx.dtype))


def _others_product(x, axes):
    """Each element's product of the other elements of its reduced group (exclusive products from
    both ends along the reduced axes, flattened in order), defined with zeros."""
    kept = [d for d in range(x.dim()) if d not in axes]
    perm = kept + list(axes)
    moved = x.permute(perm)
    flat = moved.reshape(moved.shape[:len(kept)] + (-1,))
    if flat.shape[-1] == 0:
        return torch.zeros_like(x)
    one = torch.ones_like(flat[..., :1])
    before = torch.cat([one, flat[..., :-1]], -1).cumprod(-1)
    after = torch.cat([flat[..., 1:], one], -1).flip(-1).cumprod(-1).flip(-1)
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    return (before * after).reshape(moved.shape).permute(inverse)


def _prod_backward(ctx, g):
    x, _ = ctx.saved_tensors
    g = _restore(ctx, g)
    return _grads((_others_product(x.to(g.dtype), ctx.axes) * g).to(ctx.dtype))


def _setup_dot(ctx, inputs, output):
    x, y, axis, keepdims = inputs[:4]
    ctx.axes = ops.reduced_axes(x.dim(), axis)
    ctx.keepdims = keepdims
    ctx.save_for_backward(x, y)


def _dot_backward(ctx, g):
    x, y = ctx.saved_tensors
    g = _restore(ctx, g)
    gx = (g * y.to(g.dtype)).to(x.dtype) if ctx.needs_input_grad[0] else None
    gy = (g * x.to(g.dtype)).to(y.dtype) if ctx.needs_input_grad[1] else None
    return gx, gy, None, None, None, None


# ---- segments and keys: each element's gradient from its segment's or bin's ----

_RAGGED_GRADS = frozenset(("sum", "sum_exact", "mean", "sum_squares", "sum_abs", "norm", "min", "max", "max_abs"))


def _check_ragged(op, what):
    if op not in _RAGGED_GRADS and op not in ("argmin", "argmax"):
        raise NotImplementedError(f"hipreduce: {what}'s {op!r} has no gradient (those of "
                                  f"{', '.join(sorted(_RAGGED_GRADS))} have)")


def _setup_segments(ctx, inputs, output):
    x, offsets, op = inputs[0], inputs[1], inputs[2]
    _check_ragged(op, "segment_reduce")
    ctx.op = op
    ctx.save_for_backward(x, offsets, output)


def _segment_of(offsets, n, device):
    """(segment index of each of the n elements, clamped into range; whether it lies in a segment;
    each segment's length). Offsets are taken as the library reads them (clamped into [0, n]) and must
    be non-decreasing (host offsets are checked; GPU offsets are not read back)."""
    ends = offsets.to(device=device, dtype=torch.int64).clamp(0, n)
    position = torch.arange(n, device=device)
    index = torch.searchsorted(ends, position, right=True) - 1
    inside = (position >= ends[0]) & (position < ends[-1])
    return index.clamp(0, max(ends.shape[0] - 2, 0)), inside, ends[1:] - ends[:-1]


def _gathered(op, x, r, g, index, inside, lengths, tally):
    """The gradient of x for results r (and incoming g) of op over groups of x's rows: index is each
    row's group (clamped into range), inside whether it has one, lengths each group's row count (for
    mean), tally(mask) each group's count of the rows in an int32 mask of x's shape (for the ties of
    min/max)."""
    if x.dim() > 1:
        inside = inside[:, None]
    if op == "mean":
        n = lengths.to(g.dtype)
        g = g / (n if g.dim() == 1 else n[:, None])
    if op == "norm":
        g = (g / r).masked_fill(r == 0, 0)
    if op in ("min", "max", "max_abs"):
        v = x.abs() if op == "max_abs" else x
        extreme = r[index]
        hit = ((v == extreme) | (v.isnan() & extreme.isnan())) & inside
        gx = torch.where(hit, (g / tally(hit.to(torch.int32)))[index], 0)  # 0 off the hits, even at a count of 0
        return (x.sign() * gx if op == "max_abs" else gx).to(x.dtype)
    gx = g[index]
    if op == "sum_squares":
        gx = 2 * x.to(gx.dtype) * gx
    elif op == "sum_abs":
        gx = x.sign().to(gx.dtype) * gx
    elif op == "norm":
        gx = x.to(gx.dtype) * gx
    return torch.where(inside, gx, 0).to(x.dtype)


def _segments_backward(ctx, g):
    x, offsets, r = ctx.saved_tensors
    if ctx.op in ("argmin", "argmax"):
        return None, None, None, None
    index, inside, lengths = _segment_of(offsets, x.shape[0], x.device)
    offsets = offsets.to(x.device)
    gx = _gathered(ctx.op, x, r, g, index, inside, lengths,
                   lambda mask: ops.segment_reduce(mask, offsets, "sum", None))
    return gx, None, None, None


def _setup_by_key(ctx, inputs, output):
    values, keys, num_bins, op = inputs[:4]
    _check_ragged(op, "reduce_by_key")
    ctx.op, ctx.num_bins = op, num_bins
    ctx.save_for_backward(values, keys, output[0], output[1])


def _by_key_backward(ctx, g, _g_counts):
    values, keys, r, counts = ctx.saved_tensors
    if ctx.op in ("argmin", "argmax"):
        return None, None, None, None, None
    num_bins = ctx.num_bins
    inside = (keys >= 0) & (keys < num_bins)  # rows of other keys: skipped by a GPU, no gradient
    index = keys.to(torch.int64).clamp(0, max(num_bins - 1, 0))
    gx = _gathered(ctx.op, values, r, g, index, inside, counts,
                   lambda mask: ops.reduce_by_key(mask, keys, num_bins, "sum", None)[0])
    return gx, None, None, None, None


def register():
    for op, backward in ((ops.prod, _prod_backward), (ops.min, _extreme_backward),
                         (ops.max, _extreme_backward), (ops.sum_abs, _sum_abs_backward),
                         (ops.sum_squares, _sum_squares_backward), (ops.max_abs, _max_abs_backward),
                         (ops.norm, _norm_backward)):
        op.register_autograd(backward, setup_context=_setup_reduce)
    ops.sum.register_autograd(_sum_backward, setup_context=_setup_sum)
    ops.dot.register_autograd(_dot_backward, setup_context=_setup_dot)
    ops.segment_reduce.register_autograd(_segments_backward, setup_context=_setup_segments)
    ops.reduce_by_key.register_autograd(_by_key_backward, setup_context=_setup_by_key)


register()
