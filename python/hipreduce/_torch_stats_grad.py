"""Backward formulas of the statistics' torch operators (_torch_stats), registered with
torch.library.register_autograd as _torch_grad does for the reductions: torch operators only (so
differentiable again and traceable), evaluated in the result's dtype, returned in the input's.

mean: g / n. nansum: g, 0 at the NaN elements; nanmean: g over the slice's count of non-NaN elements,
0 at the NaN elements (torch.nansum's and torch.nanmean's). var: g * 2 (x - mean) / max(n - correction,
0), the mean the library's (the operator hipreduce::mean, so that a compiled graph keeps eager's bits);
std: var's with g / (2 std), 0 where std is 0 (torch's rule); var_mean and std_mean: the sum of both
outputs' gradients. logsumexp: g * exp(x - result), the softmax (torch's formula: NaN where the result
is an infinity, as there). nanmin, nanmax: min's and max's rule (_torch_grad): spread evenly over the
elements equal to the extreme, never to a NaN unless the whole slice is NaN. aminmax: min's rule for the
minima's gradient plus max's for the maxima's (an element that is both, in a slice of equal elements,
gets both shares). count_nonzero, all and any
have integer and bool results: no gradient.
"""
from __future__ import annotations

import math

import torch

from . import _torch_grad as tg
from . import _torch_ops as ops
from . import _torch_stats as stats


def _setup_shape(ctx, inputs, output):
    """The reduced axes, keepdims, x's shape and dtype, the element count of a slice and the correction
    (moments: inputs (x, axis, keepdims, dtype, correction))."""
    x, axis, keepdims = inputs[0], inputs[1], inputs[2]
    ctx.axes = ops.reduced_axes(x.dim(), axis)
    ctx.keepdims = keepdims
    ctx.shape, ctx.dtype = x.shape, x.dtype
    ctx.n = math.prod(x.shape[a] for a in ctx.axes)
    ctx.correction = inputs[4] if len(inputs) > 4 else 1.0


def _setup_x(ctx, inputs, output):
    _setup_shape(ctx, inputs, output)
    ctx.save_for_backward(inputs[0])


def _setup_x_result(ctx, inputs, output):
    """x and the first result (the extreme, logsumexp's value, std)."""
    _setup_shape(ctx, inputs, output)
    ctx.save_for_backward(inputs[0], output[0] if isinstance(output, tuple) else output)


def _mean_part(ctx, g):
    return (tg._restore(ctx, g) / ctx.n).expand(ctx.shape)


def _mean_backward(ctx, g):
    return tg._grads(_mean_part(ctx, g).to(ctx.dtype))


def _nansum_backward(ctx, g):
    x, = ctx.saved_tensors
    return tg._grads(torch.where(x.isnan(), 0, tg._restore(ctx, g)).to(ctx.dtype))


def _nanmean_backward(ctx, g):
    x, = ctx.saved_tensors
    kept = ~x.isnan()
    # each slice's count (an exact integer); axis=() reduces nothing (sum(dim=()) would reduce everything)
    count = kept.sum(dim=ctx.axes, keepdim=True) if ctx.axes else kept.long()
    return tg._grads(torch.where(kept, tg._restore(ctx, g) / count, 0).to(ctx.dtype))


def _logsumexp_backward(ctx, g):
    x, r = ctx.saved_tensors
    g, r = tg._restore(ctx, g), tg._restore(ctx, r)
    return tg._grads((g * (x.to(g.dtype) - r).exp()).to(ctx.dtype))


def _var_part(ctx, x, gv):
    """The gradient of x for the incoming gradient gv of var (restored to broadcast against x)."""
    xg = x.to(gv.dtype)
    mu = stats.mean(xg, list(ctx.axes), True, None)
    return gv * 2 * (xg - mu) / max(ctx.n - ctx.correction, 0)


def _std_part(ctx, x, s, gs):
    s = tg._restore(ctx, s)
    return _var_part(ctx, x, (tg._restore(ctx, gs) / (2 * s)).masked_fill(s == 0, 0))


def _moment_grads(gx, ctx):
    return gx.to(ctx.dtype), None, None, None, None


def _var_backward(ctx, g):
    x, = ctx.saved_tensors
    return _moment_grads(_var_part(ctx, x, tg._restore(ctx, g)), ctx)


def _std_backward(ctx, g):
    x, s = ctx.saved_tensors
    return _moment_grads(_std_part(ctx, x, s, g), ctx)


def _var_mean_backward(ctx, g, g_mean):
    x, = ctx.saved_tensors
    parts = [] if g is None else [_var_part(ctx, x, tg._restore(ctx, g))]
    parts += [] if g_mean is None else [_mean_part(ctx, g_mean)]
    return _moment_grads(_total(parts, x), ctx)


def _std_mean_backward(ctx, g, g_mean):
    x, s = ctx.saved_tensors
    parts = [] if g is None else [_std_part(ctx, x, s, g)]
    parts += [] if g_mean is None else [_mean_part(ctx, g_mean)]
    return _moment_grads(_total(parts, x), ctx)


def _setup_aminmax(ctx, inputs, output):
    _setup_shape(ctx, inputs, output)
    ctx.save_for_backward(inputs[0], output[0], output[1])


def _aminmax_backward(ctx, g_min, g_max):
    x, lo, hi = ctx.saved_tensors
    parts = [tg._spread(x, tg._restore(ctx, r), tg._restore(ctx, g), ctx.axes)
             for r, g in ((lo, g_min), (hi, g_max)) if g is not None]
    return _total(parts, x).to(ctx.dtype), None, None


def _total(parts, x):
    if not parts:
        return x.new_zeros(x.shape)
    return parts[0] + parts[1] if len(parts) == 2 else parts[0].expand(x.shape)


def register():
    stats.mean.register_autograd(_mean_backward, setup_context=_setup_shape)
    stats.nansum.register_autograd(_nansum_backward, setup_context=_setup_x)
    stats.nanmean.register_autograd(_nanmean_backward, setup_context=_setup_x)
    stats.logsumexp.register_autograd(_logsumexp_backward, setup_context=_setup_x_result)
    stats.nanmin.register_autograd(tg._extreme_backward, setup_context=_setup_x_result)
    stats.nanmax.register_autograd(tg._extreme_backward, setup_context=_setup_x_result)
    stats.var.register_autograd(_var_backward, setup_context=_setup_x)
    stats.std.register_autograd(_std_backward, setup_context=_setup_x_result)
    stats.var_mean.register_autograd(_var_mean_backward, setup_context=_setup_x)
    stats.std_mean.register_autograd(_std_mean_backward, setup_context=_setup_x_result)
    stats.aminmax.register_autograd(_aminmax_backward, setup_context=_setup_aminmax)


register()
