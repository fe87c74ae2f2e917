"""hipreduce's reductions for torch code that trains or compiles: ``import hipreduce.torch as hrt``.

Each function is a torch operator of the namespace ``hipreduce`` (``torch.ops.hipreduce.sum`` ...):
autograd records it with a backward formula, torch.compile(fullgraph=True) traces it without a graph
break through its fake (meta) function, and under CUDA-graph capture it allocates its results through
torch and runs on torch's current stream. The values are those of the package's function of the same
name, bit for bit (the operator calls it with an out= that torch allocated).

Gradients (hipreduce._torch_grad has the formulas): sum (also exact=True), prod (zeros as torch: the
product of the others), min, max and max_abs (spread evenly over ties, as torch.amax), sum_abs
(sign), sum_squares (2x), norm (x / norm, 0 at a zero norm), dot (y*g, x*g), and for segment_reduce
and reduce_by_key the ops sum, sum_exact, mean, sum_squares, sum_abs, norm, min, max and max_abs.
argmin/argmax (nanargmin/nanargmax) indices and counts carry none; prod and the bitwise ops of segments and keys raise
NotImplementedError when a gradient is needed. The statistics (hipreduce._torch_stats_grad has the
formulas): mean (g / n), nansum and nanmean (0 at NaN elements), var and std with their correction,
var_mean and std_mean (both outputs), logsumexp (the softmax), nanmin and nanmax (max's rule: ties
share), aminmax (min's and max's rules, both outputs); count_nonzero, all and any have none. var, std, var_mean and std_mean take correction= (or
ddof=, or unbiased=) with torch's default 1.

Eager calls that need neither autograd nor tracing (a plain torch.Tensor that autograd does not
track, outside torch.compile and any dispatch mode) call the package's function directly: torch's
dispatcher costs several microseconds a call (docs/PYTHON.md has the figures). Signatures follow the
package's, with torch's dim=/keepdim= accepted for axis=/keepdims=, and no out= (an operator returns
new tensors). segment_reduce and reduce_by_key have one more op, "mean" (the sum over the number of
elements; NaN where that is 0, as torch.segment_reduce). index_add, scatter_reduce, bincount and
unsorted_segment_reduce (hipreduce._scatter) run on reduce_by_key's operator and take its gradients.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import torch

from . import _torch_grad, _torch_stats_grad  # noqa: F401 (register the backward formulas)
from . import _torch_ops as _ops
from . import _torch_stats as _stats_ops
from ._scatter import make as _make_scatter
from ._stats import correction_of as _correction_of

__all__ = ["sum", "prod", "min", "max", "argmin", "argmax", "sum_abs", "sum_squares", "max_abs",
           "norm", "dot", "segment_reduce", "reduce_by_key", "index_add", "scatter_reduce", "bincount",
           "unsorted_segment_reduce", "mean", "nansum", "nanmean", "count_nonzero",
           "all", "any", "var", "std", "var_mean", "std_mean", "logsumexp", "nanmin", "nanmax", "nanargmin",
           "nanargmax", "aminmax"]

Axis = Union[None, int, Sequence[int]]
_Tensor = torch.Tensor
_is_grad_enabled = torch.is_grad_enabled
_is_compiling = torch.compiler.is_compiling
_dispatch_modes = torch._C._len_torch_dispatch_stack


def _direct(x) -> bool:
    """Whether an eager call can skip the dispatcher: a plain tensor (not a FakeTensor or another
    subclass) that autograd does not track, outside torch.compile's tracing and any dispatch mode
    (FakeTensorMode, a profiler's or a test's mode sees the operator)."""
    return (type(x) is _Tensor and not (x.requires_grad and _is_grad_enabled()) and not _is_compiling()
            and not _dispatch_modes())


def _axes(axis):
    if axis is None:
        return None
    if isinstance(axis, (tuple, list)):
        return list(axis)
    return [axis]


def _aliases(axis, keepdims, dim, keepdim):
    """axis and keepdims from torch's spellings dim= and keepdim=."""
    if dim is not None:
        if axis is not None:
            raise TypeError("hipreduce: axis= and dim= name the same argument: pass one")
        axis = dim
    if keepdim is not None:
        if keepdims:
            raise TypeError("hipreduce: keepdims= and keepdim= name the same argument: pass one")
        keepdims = keepdim
    return axis, keepdims


def _reduction(name, op=None, fn=None):
    """The function of operator op (default: _torch_ops' reduction name) and direct path fn."""
    op = getattr(_ops, name) if op is None else op
    fn = _ops.REDUCTIONS[name] if fn is None else fn

    def reduction(x: torch.Tensor, axis: Axis = None, dtype: Optional[torch.dtype] = None, keepdims: bool = False,
                  *, dim: Axis = None, keepdim: Optional[bool] = None) -> torch.Tensor:
        if dim is not None or keepdim is not None:
            axis, keepdims = _aliases(axis, keepdims, dim, keepdim)
        if _direct(x):
            return fn(x, axis, dtype, keepdims)
        return op(x, _axes(axis), keepdims, dtype)

    reduction.__name__ = reduction.__qualname__ = name
    reduction.__doc__ = (f"hipreduce.{name} as a torch operator (torch.ops.hipreduce.{name}): differentiable, "
                         f"compilable. See hipreduce.{name} for the values, dtypes and axes.")
    return reduction


def sum(x: torch.Tensor, axis: Axis = None, dtype: Optional[torch.dtype] = None, keepdims: bool = False,
        exact: bool = False, *, dim: Axis = None, keepdim: Optional[bool] = None) -> torch.Tensor:
    """hipreduce.sum as a torch operator (torch.ops.hipreduce.sum): its gradient is the incoming one
    broadcast back (also with exact=True; twice differentiable), compilable."""
    if dim is not None or keepdim is not None:
        axis, keepdims = _aliases(axis, keepdims, dim, keepdim)
    if _direct(x):
        return _ops.SUM(x, axis, dtype, keepdims, exact=exact)
    return _ops.sum(x, _axes(axis), keepdims, dtype, exact)


prod = _reduction("prod")
min = _reduction("min")
max = _reduction("max")
sum_abs = _reduction("sum_abs")
sum_squares = _reduction("sum_squares")
max_abs = _reduction("max_abs")
norm = _reduction("norm")


def _arg_reduction(name):
    op = getattr(_ops, name)
    fn = _ops.ARG_REDUCTIONS[name]

    def arg_reduction(x: torch.Tensor, axis: Optional[int] = None, keepdims: bool = False, *,
                      dim: Optional[int] = None, keepdim: Optional[bool] = None) -> torch.Tensor:
        if dim is not None or keepdim is not None:
            axis, keepdims = _aliases(axis, keepdims, dim, keepdim)
        # Indices carry no gradient: a tensor that autograd tracks may take the direct path.
        if type(x) is _Tensor and not _is_compiling() and not _dispatch_modes():
            return fn(x, axis, keepdims)
        return op(x, axis, keepdims)

    arg_reduction.__name__ = arg_reduction.__qualname__ = name
    arg_reduction.__doc__ = (f"hipreduce.{name} as a torch operator (torch.ops.hipreduce.{name}): int64 "
                             "indices (no gradient), compilable.")
    return arg_reduction


argmin = _arg_reduction("argmin")
argmax = _arg_reduction("argmax")
nanargmin = _arg_reduction("nanargmin")  # an all-NaN slice: index -1 (the package's rule for torch tensors)
nanargmax = _arg_reduction("nanargmax")


def dot(x: torch.Tensor, y: torch.Tensor, dtype: Optional[torch.dtype] = None, exact: bool = False,
        axis: Axis = None, keepdims: bool = False, *, dim: Axis = None,
        keepdim: Optional[bool] = None) -> torch.Tensor:
    """hipreduce.dot as a torch operator (torch.ops.hipreduce.dot): gradients y*g and x*g, compilable."""
    if dim is not None or keepdim is not None:
        axis, keepdims = _aliases(axis, keepdims, dim, keepdim)
    if _direct(x) and _direct(y):
        return _ops.DOT(x, y, dtype, exact=exact, axis=axis, keepdims=keepdims)
    return _ops.dot(x, y, _axes(axis), keepdims, dtype, exact)


def segment_reduce(x: torch.Tensor, offsets: Any, op: str = "sum",
                   dtype: Optional[torch.dtype] = None) -> torch.Tensor:
    """hipreduce.segment_reduce as a torch operator (torch.ops.hipreduce.segment_reduce), with "mean".
    offsets: a tensor of num_segments + 1 integers (another sequence becomes a CPU tensor); for CUDA
    graphs, on x's GPU (host offsets are copied to the GPU, which waits for the host). Gradients need
    non-decreasing offsets (host offsets are checked; GPU offsets are not read back)."""
    if not isinstance(offsets, _Tensor):
        offsets = torch.as_tensor(offsets)
    if _direct(x):
        if op == "mean":
            return _ops.segment_values(x, offsets, op, dtype)
        return _ops.SEGMENT_REDUCE(x, offsets, op, dtype)
    return _ops.segment_reduce(x, offsets, op, dtype)


def reduce_by_key(values: torch.Tensor, keys: torch.Tensor, num_bins: int, op: str = "sum",
                  dtype: Optional[torch.dtype] = None, counts: bool = False) -> Any:
    """hipreduce.reduce_by_key as a torch operator (torch.ops.hipreduce.reduce_by_key, which returns
    (result, counts)), with "mean"; counts=True returns both. keys: an int32/int64 tensor on the values'
    device. A key outside [0, num_bins) gets no gradient (the GPU skips such rows; the cpu device
    refuses them)."""
    if _direct(values):
        if op == "mean":
            r, c = _ops.by_key_values(values, keys, num_bins, op, dtype)
            return (r, c) if counts else r
        return _ops.REDUCE_BY_KEY(values, keys, num_bins, op, dtype, counts=counts)
    r, c = _ops.reduce_by_key(values, keys, num_bins, op, dtype)
    return (r, c) if counts else r


# torch's, numpy's and TensorFlow's names (hipreduce._scatter) over the operator above: the gradients
# of its backward (src's of index_add: the output gradient gathered along index) and of torch's own
# element-wise steps around it.
index_add, scatter_reduce, bincount, unsorted_segment_reduce = _make_scatter(reduce_by_key, plain=False)


# ---- the statistics (hipreduce._stats; operators in _torch_stats, gradients in _torch_stats_grad) ----

mean, nansum, nanmean, logsumexp, nanmin, nanmax = (
    _reduction(name, _stats_ops.OPERATORS[name], _stats_ops.FUNCTIONS[name]) for name in _stats_ops.FLOAT_STATS)


def _count(name):
    op, fn = _stats_ops.OPERATORS[name], _stats_ops.FUNCTIONS[name]

    def count(x: torch.Tensor, axis: Axis = None, keepdims: bool = False, *, dim: Axis = None,
              keepdim: Optional[bool] = None) -> torch.Tensor:
        if dim is not None or keepdim is not None:
            axis, keepdims = _aliases(axis, keepdims, dim, keepdim)
        # No gradient: a tensor that autograd tracks may take the direct path.
        if type(x) is _Tensor and not _is_compiling() and not _dispatch_modes():
            return fn(x, axis, keepdims)
        return op(x, _axes(axis), keepdims)

    count.__name__ = count.__qualname__ = name
    count.__doc__ = (f"hipreduce.{name} as a torch operator (torch.ops.hipreduce.{name}): "
                     f"{'int64' if name == 'count_nonzero' else 'bool'} results (no gradient), compilable.")
    return count


count_nonzero, all, any = (_count(name) for name in _stats_ops.COUNT_STATS)  # noqa: A001


def _moment(name):
    op, fn = _stats_ops.OPERATORS[name], _stats_ops.FUNCTIONS[name]

    def moment(x: torch.Tensor, axis: Axis = None, dtype: Optional[torch.dtype] = None, keepdims: bool = False, *,
               correction: Optional[float] = None, ddof: Optional[float] = None, unbiased: Optional[bool] = None,
               dim: Axis = None, keepdim: Optional[bool] = None) -> Any:
        if dim is not None or keepdim is not None:
            axis, keepdims = _aliases(axis, keepdims, dim, keepdim)
        c = _correction_of(correction, ddof, unbiased, True)
        if _direct(x):
            return fn(x, axis, dtype, keepdims, correction=c)
        return op(x, _axes(axis), keepdims, dtype, c)

    moment.__name__ = moment.__qualname__ = name
    moment.__doc__ = (f"hipreduce.{name} as a torch operator (torch.ops.hipreduce.{name}): differentiable, "
                      "compilable. correction= (or ddof=, or unbiased=) defaults to 1, as torch's; see "
                      f"hipreduce.{name} for the values, dtypes and axes.")
    return moment


var, std, var_mean, std_mean = (_moment(name) for name in _stats_ops.MOMENTS)


def aminmax(x: torch.Tensor, axis: Axis = None, keepdims: bool = False, *, dim: Axis = None,
            keepdim: Optional[bool] = None) -> Any:
    """hipreduce.aminmax as a torch operator (torch.ops.hipreduce.aminmax): (min, max), differentiable
    (each output's gradient spread evenly over its ties, as min's and max's), compilable. See
    hipreduce.aminmax for the values, dtypes and axes."""
    if dim is not None or keepdim is not None:
        axis, keepdims = _aliases(axis, keepdims, dim, keepdim)
    if _direct(x):
        return _stats_ops.FUNCTIONS["aminmax"](x, axis, keepdims)
    return _stats_ops.aminmax(x, _axes(axis), keepdims)
