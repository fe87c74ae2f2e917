"""The package's reductions as torch operators in the namespace ``hipreduce`` (torch.ops.hipreduce.*).

Each operator is a torch.library.custom_op whose implementation calls the package's public function
with an out= tensor that torch allocated on the input's device (so under CUDA-graph capture the result
comes from the graph's memory pool, and the call runs on torch's current stream); its fake (meta)
function gives the result's shape, dtype and device from the same rules, without running anything;
_torch_grad registers the backward formulas. Imported by hipreduce.torch, never by the package itself
(the package does not import torch).
"""
from __future__ import annotations

import functools
import math
from typing import List, Optional

import numpy as np
import torch

from . import _core
from . import _dtypes as dt
from . import argmax as _argmax, argmin as _argmin, dot as _dot, max as _max, max_abs as _max_abs
from . import min as _min, norm as _norm, prod as _prod, segment_reduce as _segment_reduce
from . import sum as _sum, sum_abs as _sum_abs, sum_squares as _sum_squares
from ._arrays import CPU

DOT = _dot  # the package's functions, hipreduce.torch's direct path
SEGMENT_REDUCE = _segment_reduce
# The reductions with the package's signature (x, axis, dtype, keepdims, out).
REDUCTIONS = {"sum": _sum, "prod": _prod, "min": _min, "max": _max, "sum_abs": _sum_abs,
              "sum_squares": _sum_squares, "max_abs": _max_abs, "norm": _norm}
ARG_REDUCTIONS = {"argmin": _argmin, "argmax": _argmax}
# segment_reduce's ops: the package's, and "mean" (the segment's sum divided by its length, computed
# here: 0/0 = NaN for an empty segment, as torch.segment_reduce).
SEGMENT_OPS = tuple(dt.OPS) + ("mean",)
_DEVICES = ("cpu", "cuda", "meta")  # meta: tensors without data, for the fake functions only


def _code(x):
    """x's dtype code; TypeError (the package's message) for a dtype or device the package refuses."""
    code = dt.torch_tables()[0].get(x.dtype)
    if code is None:
        raise TypeError(f"hipreduce: tensors of dtype {x.dtype} are not supported (supported: {', '.join(dt.NAMES)})")
    if x.device.type not in _DEVICES:
        raise TypeError(f"hipreduce: tensors on {x.device} are not supported (cpu or cuda)")
    return code


def _dtype_code(dtype):
    code = dt.torch_tables()[0].get(dtype)
    if code is None:
        raise TypeError(f"hipreduce: dtype {dtype} is not supported (supported: {', '.join(dt.NAMES)})")
    return code


@functools.lru_cache(maxsize=None)
def _refusal(kind, op, code, out_code):
    """The library's TypeError message for (op, input dtype, result dtype), or None where it allows the
    triple: a call over zero elements on the cpu device, which checks the triple and reads nothing. So the
    fake functions refuse exactly what the library refuses, by the library's own rule."""
    buf = np.zeros(16, np.uint8)
    try:
        if kind == "dot":
            _core.dot(CPU, 0, op, code, buf, buf, 0, out_code, buf)
        else:
            _core.reduce_axis(CPU, 0, op, code, buf, 1, 0, 1, out_code, buf)
    except TypeError as e:
        return str(e)
    return None


def result_dtype(kind, op, code, dtype):
    """The result dtype of op (a code) on an input of code: dtype, else torch's default; TypeError where
    the library refuses it, as the call would."""
    if op in dt.EXACT_OPS and code not in dt.FLOATS:
        raise TypeError(f"hipreduce: exact=True sums float inputs only, not {dt.NAMES[code]} (an integer sum is "
                        "exact modulo 2**bits already)")
    out_code = dt.DEFAULTS[True][op][code] if dtype is None else _dtype_code(dtype)
    why = _refusal(kind, op, code, out_code)
    if why is not None:
        raise TypeError(why)
    d = dt.torch_tables()[1][out_code]
    if d is None:
        raise TypeError(f"hipreduce: this torch has no {dt.NAMES[out_code]} dtype")
    return d


def reduced_axes(ndim, axis):
    """The sorted axes that axis (None: all) names, under the package's rules (ValueError otherwise)."""
    if axis is None:
        return tuple(range(ndim))
    axes = []
    for a in axis:
        if not -ndim <= a < ndim:
            raise ValueError(f"hipreduce: axis {a} is out of bounds for an array of dimension {ndim}")
        axes.append(a % ndim)
    axes.sort()
    if not axes:
        raise ValueError("hipreduce: axis=() reduces nothing")
    if len(set(axes)) != len(axes):
        raise ValueError("hipreduce: repeated axis in axis")
    if axes != list(range(axes[0], axes[-1] + 1)):
        raise ValueError(f"hipreduce: axes {tuple(axis)} are not adjacent (reduce one at a time)")
    return tuple(axes)


def reduced_shape(shape, axes, keepdims):
    return [1 if d in axes else s for d, s in enumerate(shape) if keepdims or d not in axes]


def _empty_check(name, shape, axes):
    if math.prod(shape[a] for a in axes) == 0:
        raise ValueError(f"hipreduce: {name} of an empty axis (no identity, as in numpy)")


def _axis_arg(axis):
    return None if axis is None else tuple(axis)


# ---- the reductions: sum (with exact), prod, min, max, sum_abs, sum_squares, max_abs, norm ----

# Axes are int[], not the SymInt[] that custom_op would infer from List[int]: they pick the result's
# shape, so torch.compile specializes on them instead of passing symbols to the fake functions.
_REDUCE_SCHEMA = "(Tensor x, int[]? axis=None, bool keepdims=False, ScalarType? dtype=None) -> Tensor"

def _meta_reduce(name, x, axis, keepdims, dtype, exact=False):
    """(result shape, result dtype) of reduction name on x."""
    code = _code(x)
    op = dt.OPS["sum_exact" if exact else name]
    axes = reduced_axes(x.dim(), axis)
    if op in dt.NO_IDENTITY:
        _empty_check(name, x.shape, axes)
    return reduced_shape(x.shape, axes, keepdims), result_dtype("reduce", op, code, dtype)


def _define_reduction(name):
    fn = REDUCTIONS[name]

    def impl(x: torch.Tensor, axis: Optional[List[int]] = None, keepdims: bool = False,
             dtype: Optional[torch.dtype] = None) -> torch.Tensor:
        shape, rdtype = _meta_reduce(name, x, axis, keepdims, dtype)
        out = torch.empty(shape, dtype=rdtype, device=x.device)
        fn(x, _axis_arg(axis), None, keepdims, out=out)
        return out

    def fake(x, axis=None, keepdims=False, dtype=None):
        shape, rdtype = _meta_reduce(name, x, axis, keepdims, dtype)
        return x.new_empty(shape, dtype=rdtype)

    impl.__name__ = impl.__qualname__ = name
    op = torch.library.custom_op(f"hipreduce::{name}", impl, mutates_args=(), schema=_REDUCE_SCHEMA)
    op.register_fake(fake)
    return op


def _sum_impl(x: torch.Tensor, axis: Optional[List[int]] = None, keepdims: bool = False,
              dtype: Optional[torch.dtype] = None, exact: bool = False) -> torch.Tensor:
    shape, rdtype = _meta_reduce("sum", x, axis, keepdims, dtype, exact)
    out = torch.empty(shape, dtype=rdtype, device=x.device)
    _sum(x, _axis_arg(axis), None, keepdims, out=out, exact=exact)
    return out


_sum_impl.__name__ = _sum_impl.__qualname__ = "sum"
sum = torch.library.custom_op("hipreduce::sum", _sum_impl, mutates_args=(),  # noqa: A001
                              schema=_REDUCE_SCHEMA.replace(") ->", ", bool exact=False) ->"))


@sum.register_fake
def _sum_fake(x, axis=None, keepdims=False, dtype=None, exact=False):
    shape, rdtype = _meta_reduce("sum", x, axis, keepdims, dtype, exact)
    return x.new_empty(shape, dtype=rdtype)


prod = _define_reduction("prod")
min = _define_reduction("min")  # noqa: A001
max = _define_reduction("max")  # noqa: A001
sum_abs = _define_reduction("sum_abs")
sum_squares = _define_reduction("sum_squares")
max_abs = _define_reduction("max_abs")
norm = _define_reduction("norm")


# ---- argmin, argmax: int64 indices (flat for axis=None), no gradient ----

def _meta_arg(name, x, axis, keepdims):
    _code(x)
    axes = reduced_axes(x.dim(), None if axis is None else (axis,))
    _empty_check(name, x.shape, axes)
    return reduced_shape(x.shape, axes, keepdims)


def _define_arg_reduction(name):
    fn = ARG_REDUCTIONS[name]

    def impl(x: torch.Tensor, axis: Optional[int] = None, keepdims: bool = False) -> torch.Tensor:
        out = torch.empty(_meta_arg(name, x, axis, keepdims), dtype=torch.int64, device=x.device)
        fn(x, axis, keepdims, out=out)
        return out

    def fake(x, axis=None, keepdims=False):
        return x.new_empty(_meta_arg(name, x, axis, keepdims), dtype=torch.int64)

    impl.__name__ = impl.__qualname__ = name
    op = torch.library.custom_op(f"hipreduce::{name}", impl, mutates_args=(),
                                 schema="(Tensor x, int? axis=None, bool keepdims=False) -> Tensor")
    op.register_fake(fake)
    return op


argmin = _define_arg_reduction("argmin")
argmax = _define_arg_reduction("argmax")


# ---- dot ----

def _meta_dot(x, y, dtype, exact):
    code = _code(x)
    if _code(y) != code:
        raise TypeError(f"hipreduce: dot of {dt.NAMES[code]} and {dt.NAMES[_code(y)]} (cast one first)")
    if x.device != y.device:
        raise ValueError("hipreduce: dot of arrays on two devices")
    if tuple(x.shape) != tuple(y.shape):
        raise ValueError(f"hipreduce: dot of shapes {tuple(x.shape)} and {tuple(y.shape)}")
    return result_dtype("dot", dt.OPS_DOT_EXACT if exact else dt.OPS_DOT, code, dtype)


@torch.library.custom_op("hipreduce::dot", mutates_args=())
def dot(x: torch.Tensor, y: torch.Tensor, dtype: Optional[torch.dtype] = None, exact: bool = False) -> torch.Tensor:
    out = torch.empty((), dtype=_meta_dot(x, y, dtype, exact), device=x.device)
    _dot(x, y, None, out=out, exact=exact)
    return out


@dot.register_fake
def _dot_fake(x, y, dtype=None, exact=False):
    return x.new_empty((), dtype=_meta_dot(x, y, dtype, exact))


# ---- segment_reduce ----

def _meta_segments(x, offsets, op, dtype):
    """(number of segments, result dtype) of segment_reduce."""
    code = _code(x)
    if op not in SEGMENT_OPS:
        raise ValueError(f"hipreduce: unknown op {op!r} (one of {', '.join(SEGMENT_OPS)})")
    if x.dim() != 1:
        raise ValueError(f"hipreduce: segment_reduce takes a 1-d array, not shape {tuple(x.shape)}")
    if offsets.dim() != 1 or offsets.shape[0] < 1:
        raise ValueError("hipreduce: offsets must be a 1-d array of num_segments + 1 values")
    if offsets.dtype.is_floating_point or offsets.dtype.is_complex or offsets.dtype == torch.bool:
        raise TypeError(f"hipreduce: offsets must be integers, not {offsets.dtype}")
    segments = offsets.shape[0] - 1
    if op in ("argmin", "argmax"):
        if dtype is not None:
            raise TypeError("hipreduce: argmin/argmax give int64 indices (no dtype=)")
        return segments, torch.int64
    if op == "mean":
        if code not in dt.FLOATS:
            raise TypeError(f"hipreduce: the mean of segments takes float inputs, not {dt.NAMES[code]}")
        return segments, result_dtype("reduce", dt.OPS["sum"], code, dtype)
    return segments, result_dtype("reduce", dt.OPS[op], code, dtype)


def _segment_mean(x, offsets, out):
    """Each segment's sum (float32 for 16-bit results, so they round once) over its length."""
    acc = torch.float32 if out.dtype in (torch.float16, torch.bfloat16) else out.dtype
    sums = _segment_reduce(x, offsets, "sum", dtype=acc)
    n = x.shape[0]
    ends = offsets.to(device=x.device, dtype=torch.int64).clamp(0, n)  # as the library reads them
    lengths = (ends[1:] - ends[:-1]).clamp_(min=0)
    out.copy_(sums / lengths.to(acc))


def segment_values(x: torch.Tensor, offsets: torch.Tensor, op: str = "sum",
                   dtype: Optional[torch.dtype] = None) -> torch.Tensor:
    """The operator's implementation (hipreduce.torch's eager calls of "mean" take it directly)."""
    segments, rdtype = _meta_segments(x, offsets, op, dtype)
    out = torch.empty((segments,), dtype=rdtype, device=x.device)
    if op == "mean":
        _segment_mean(x, offsets, out)
    else:
        _segment_reduce(x, offsets, op, out=out)
    return out


segment_reduce = torch.library.custom_op("hipreduce::segment_reduce", segment_values, mutates_args=())


@segment_reduce.register_fake
def _segment_reduce_fake(x, offsets, op="sum", dtype=None):
    segments, rdtype = _meta_segments(x, offsets, op, dtype)
    return x.new_empty((segments,), dtype=rdtype)
