"""hipreduce's reductions for torch code that trains or compiles: ``import hipreduce.torch as hrt``.

Each function is a torch operator of the namespace ``hipreduce`` (``torch.ops.hipreduce.sum`` ...):
autograd records it and its backward is registered (sum, prod, min, max, sum_abs, sum_squares,
max_abs, norm, dot, segment_reduce's sum/sum_exact/mean/sum_squares/sum_abs/norm/min/max/max_abs),
torch.compile(fullgraph=True) traces it without a graph break through its fake (meta) function, and
under CUDA-graph capture it allocates its result through torch and runs on torch's current stream.
The forward values are those of the package's function of the same name, bit for bit (the operator
calls it); backward formulas and their tie rules: hipreduce._torch_grad.

Eager calls that need neither (no tensor that autograd tracks, not under torch.compile, a plain
torch.Tensor) take the package's function directly, which skips torch's dispatcher (about 20 us a
call on this project's 2-core CI machine; docs/PYTHON.md has the figures).

Signatures follow the package's (axis, dtype, keepdims; segment_reduce's op names plus "mean"), with
no out= (a torch operator returns new tensors). axis: None, an int or a sequence of ints.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import torch

from . import _torch_grad  # noqa: F401 (registers the backward formulas)
from . import _torch_ops as _ops

__all__ = ["sum", "prod", "min", "max", "argmin", "argmax", "sum_abs", "sum_squares", "max_abs",
           "norm", "dot", "segment_reduce"]

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


def _reduction(name):
    op = getattr(_ops, name)
    fn = _ops.REDUCTIONS[name]

    def reduction(x: torch.Tensor, axis: Axis = None, dtype: Optional[torch.dtype] = None,
                  keepdims: bool = False) -> torch.Tensor:
        if _direct(x):
            return fn(x, axis, dtype, keepdims)
        return op(x, _axes(axis), keepdims, dtype)

    reduction.__name__ = reduction.__qualname__ = name
    reduction.__doc__ = (f"hipreduce.{name} as a torch operator (torch.ops.hipreduce.{name}): "
                         f"differentiable, compilable. See hipreduce.{name} for the values and dtypes.")
    return reduction


def sum(x: torch.Tensor, axis: Axis = None, dtype: Optional[torch.dtype] = None, keepdims: bool = False,
        exact: bool = False) -> torch.Tensor:
    """hipreduce.sum as a torch operator (torch.ops.hipreduce.sum): differentiable (its gradient is
    the incoming gradient broadcast back, also with exact=True; twice differentiable), compilable."""
    if _direct(x):
        return _ops.REDUCTIONS["sum"](x, axis, dtype, keepdims, exact=exact)
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

    def arg_reduction(x: torch.Tensor, axis: Optional[int] = None, keepdims: bool = False) -> torch.Tensor:
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


def dot(x: torch.Tensor, y: torch.Tensor, dtype: Optional[torch.dtype] = None, exact: bool = False) -> torch.Tensor:
    """hipreduce.dot as a torch operator (torch.ops.hipreduce.dot): gradients y*g and x*g, compilable."""
    if _direct(x) and _direct(y):
        return _ops.DOT(x, y, dtype, exact=exact)
    return _ops.dot(x, y, dtype, exact)


def segment_reduce(x: torch.Tensor, offsets: Any, op: str = "sum",
                   dtype: Optional[torch.dtype] = None) -> torch.Tensor:
    """hipreduce.segment_reduce as a torch operator (torch.ops.hipreduce.segment_reduce), with one more
    op, "mean" (each segment's sum over its length; NaN for an empty segment, as torch.segment_reduce).
    offsets: a tensor of num_segments + 1 integers (another sequence is made one on the CPU); for CUDA
    graphs, on x's GPU (host offsets are copied to the GPU, which waits for the host). Gradients: see
    the module docstring."""
    if not isinstance(offsets, _Tensor):
        offsets = torch.as_tensor(offsets)
    if _direct(x):
        return _ops.segment_values(x, offsets, op, dtype) if op == "mean" else _ops.SEGMENT_REDUCE(x, offsets, op, dtype)
    return _ops.segment_reduce(x, offsets, op, dtype)
