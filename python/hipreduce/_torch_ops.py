"""The package's reductions as torch operators in the namespace ``hipreduce`` (torch.ops.hipreduce.*).

Each operator is a torch.library.custom_op whose implementation is the package's public function:
it runs on torch's current stream and allocates its results through torch's allocator on the input's
device (Tensor.new_empty, torch.empty_like), so under CUDA-graph capture they come from the graph's
memory pool. An out= that torch allocated would do the same at a cost: the package's checks of an
out= (its shape, dtype, device, overlap with the inputs) took 2-12 us a call more on a 2-core host
(3.4 against 1.4 us for a whole sum, 12-19 against 6 along an axis, 13 against 4 for dot). Its fake
(meta) function gives the result's shape, dtype and device by the package's rules without running
anything; the tests compare both over every case. _torch_grad registers the backward formulas.
Imported by hipreduce.torch, never by the package itself (the package does not import torch).
"""
from __future__ import annotations

import functools
import math
from typing import Dict, List, Optional, Tuple

import numpy as np
import torch

from . import _core
from . import _dtypes as dt
from . import argmax as _argmax, argmin as _argmin, dot as _dot, max as _max, max_abs as _max_abs
from . import min as _min, nanargmax as _nanargmax, nanargmin as _nanargmin, norm as _norm, prod as _prod
from . import reduce_by_key as _reduce_by_key
from . import segment_reduce as _segment_reduce
from . import sum as _sum, sum_abs as _sum_abs, sum_squares as _sum_squares
from ._arrays import CPU

SUM, DOT = _sum, _dot  # the package's functions, hipreduce.torch's direct path
SEGMENT_REDUCE = _segment_reduce
REDUCE_BY_KEY = _reduce_by_key
# The reductions with the package's signature (x, axis, dtype, keepdims, out).
REDUCTIONS = {"sum": _sum, "prod": _prod, "min": _min, "max": _max, "sum_abs": _sum_abs,
              "sum_squares": _sum_squares, "max_abs": _max_abs, "norm": _norm}
ARG_REDUCTIONS = {"argmin": _argmin, "argmax": _argmax, "nanargmin": _nanargmin, "nanargmax": _nanargmax}
# segment_reduce's and reduce_by_key's ops: the package's, and "mean" (the sum over the number of
# elements, computed here: 0/0 = NaN for an empty segment or bin, as torch.segment_reduce).
SEGMENT_OPS = tuple(dt.OPS) + ("mean",)
_SIZES = (1, 1, 2, 2, 4, 4, 8, 8, 2, 2, 4, 8)  # bytes of each dtype code
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
    triple: a plan over zero elements on the cpu device, which checks the triple and reads nothing. So the
    fake functions refuse exactly what the library refuses, by the library's own rule."""
    x = np.zeros(0, np.dtype(f"u{_SIZES[code]}"))
    two = op in dt.TWO_RESULTS  # the second results (means, maxima)
    try:
        _core.reduce_plan(CPU, 0, op, code, out_code, x, x if kind == "dot" else None, -1,
                          np.zeros(8, np.uint8), None, np.zeros(8, np.uint8) if two else None)
    except TypeError as e:
        return str(e)
    return None


def result_dtype(kind, op, code, dtype):
    """The result dtype of op (a code) on an input of code: dtype, else torch's default; TypeError where
    the library refuses it, as the call would."""
    d = _RESULT_DTYPES.get((kind, op, code, dtype))
    if d is None:
        d = _RESULT_DTYPES[kind, op, code, dtype] = _result_dtype(kind, op, code, dtype)
    return d


_RESULT_DTYPES: Dict[tuple, torch.dtype] = {}  # (kind, op, code, dtype) -> result dtype the library allows


def _result_dtype(kind, op, code, dtype):
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
    """The sorted axes that axis (None: all) names, under the package's rules: any axes, in any order,
    a repeated one a ValueError; [] reduces none (each result is the op over one element)."""
    if axis is None:
        return tuple(range(ndim))
    axes = set()
    for a in axis:
        if not -ndim <= a < ndim:
            raise ValueError(f"hipreduce: axis {a} is out of bounds for an array of dimension {ndim}")
        if a % ndim in axes:
            raise ValueError("hipreduce: duplicate value in 'axis'")
        axes.add(a % ndim)
    return tuple(sorted(axes))


def reduced_shape(shape, axes, keepdims):
    return [1 if d in axes else s for d, s in enumerate(shape) if keepdims or d not in axes]


def _empty_check(name, shape, axes):
    if axes and math.prod(shape[a] for a in axes) == 0:
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
        return fn(x, _axis_arg(axis), dtype, keepdims)

    def fake(x, axis=None, keepdims=False, dtype=None):
        shape, rdtype = _meta_reduce(name, x, axis, keepdims, dtype)
        return x.new_empty(shape, dtype=rdtype)

    impl.__name__ = impl.__qualname__ = name
    op = torch.library.custom_op(f"hipreduce::{name}", impl, mutates_args=(), schema=_REDUCE_SCHEMA)
    op.register_fake(fake)
    return op


def _sum_impl(x: torch.Tensor, axis: Optional[List[int]] = None, keepdims: bool = False,
              dtype: Optional[torch.dtype] = None, exact: bool = False) -> torch.Tensor:
    return _sum(x, _axis_arg(axis), dtype, keepdims, exact=exact)


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


# ---- argmin, argmax, nanargmin, nanargmax: int64 indices (flat for axis=None), no gradient ----

def _meta_arg(name, x, axis, keepdims):
    _code(x)
    axes = reduced_axes(x.dim(), None if axis is None else (axis,))
    _empty_check(name, x.shape, axes)
    return reduced_shape(x.shape, axes, keepdims)


def _define_arg_reduction(name):
    fn = ARG_REDUCTIONS[name]

    def impl(x: torch.Tensor, axis: Optional[int] = None, keepdims: bool = False) -> torch.Tensor:
        return fn(x, axis, keepdims)

    def fake(x, axis=None, keepdims=False):
        return x.new_empty(_meta_arg(name, x, axis, keepdims), dtype=torch.int64)

    impl.__name__ = impl.__qualname__ = name
    op = torch.library.custom_op(f"hipreduce::{name}", impl, mutates_args=(),
                                 schema="(Tensor x, int? axis=None, bool keepdims=False) -> Tensor")
    op.register_fake(fake)
    return op


argmin = _define_arg_reduction("argmin")
argmax = _define_arg_reduction("argmax")
nanargmin = _define_arg_reduction("nanargmin")
nanargmax = _define_arg_reduction("nanargmax")


# ---- dot ----

def _meta_dot(x, y, axis, keepdims, dtype, exact):
    """(result shape, result dtype) of dot."""
    code = _code(x)
    if _code(y) != code:
        raise TypeError(f"hipreduce: dot of {dt.NAMES[code]} and {dt.NAMES[_code(y)]} (cast one first)")
    if x.device != y.device:
        raise ValueError("hipreduce: dot of arrays on two devices")
    if tuple(x.shape) != tuple(y.shape):
        raise ValueError(f"hipreduce: dot of shapes {tuple(x.shape)} and {tuple(y.shape)}")
    shape = reduced_shape(x.shape, reduced_axes(x.dim(), axis), keepdims)
    return shape, result_dtype("dot", dt.OPS_DOT_EXACT if exact else dt.OPS_DOT, code, dtype)


def _dot_impl(x: torch.Tensor, y: torch.Tensor, axis: Optional[List[int]] = None, keepdims: bool = False,
              dtype: Optional[torch.dtype] = None, exact: bool = False) -> torch.Tensor:
    return _dot(x, y, dtype, exact=exact, axis=_axis_arg(axis), keepdims=keepdims)


_dot_impl.__name__ = _dot_impl.__qualname__ = "dot"
dot = torch.library.custom_op(
    "hipreduce::dot", _dot_impl, mutates_args=(),
    schema="(Tensor x, Tensor y, int[]? axis=None, bool keepdims=False, ScalarType? dtype=None, "
           "bool exact=False) -> Tensor")


@dot.register_fake
def _dot_fake(x, y, axis=None, keepdims=False, dtype=None, exact=False):
    shape, rdtype = _meta_dot(x, y, axis, keepdims, dtype, exact)
    return x.new_empty(shape, dtype=rdtype)


# ---- segment_reduce, reduce_by_key ----

def _ragged_dtype(code, op, dtype):
    """The result dtype of segment_reduce's or reduce_by_key's op on an input of code."""
    if op not in SEGMENT_OPS:
        raise ValueError(f"hipreduce: unknown op {op!r} (one of {', '.join(SEGMENT_OPS)})")
    if op in ("argmin", "argmax"):
        if dtype is not None:
            raise TypeError("hipreduce: argmin/argmax give int64 indices (no dtype=)")
        return torch.int64
    if op == "mean":
        if code not in dt.FLOATS:
            raise TypeError(f"hipreduce: the mean takes float inputs, not {dt.NAMES[code]}")
        return result_dtype("reduce", dt.OPS["sum"], code, dtype)
    return result_dtype("reduce", dt.OPS[op], code, dtype)


def _meta_segments(x, offsets, op, dtype):
    """(number of segments, result dtype) of segment_reduce."""
    code = _code(x)
    rdtype = _ragged_dtype(code, op, dtype)
    if x.dim() != 1:
        raise ValueError(f"hipreduce: segment_reduce takes a 1-d array, not shape {tuple(x.shape)}")
    if offsets.dim() != 1 or offsets.shape[0] < 1:
        raise ValueError("hipreduce: offsets must be a 1-d array of num_segments + 1 values")
    if offsets.dtype.is_floating_point or offsets.dtype.is_complex or offsets.dtype == torch.bool:
        raise TypeError(f"hipreduce: offsets must be integers, not {offsets.dtype}")
    return offsets.shape[0] - 1, rdtype


def segment_values(x: torch.Tensor, offsets: torch.Tensor, op: str = "sum",
                   dtype: Optional[torch.dtype] = None) -> torch.Tensor:
    """The operator's implementation (hipreduce.torch's eager calls of "mean" take it directly)."""
    if op != "mean":
        return _segment_reduce(x, offsets, op, dtype)
    _, rdtype = _meta_segments(x, offsets, op, dtype)
    acc = torch.float32 if rdtype in (torch.float16, torch.bfloat16) else rdtype  # 16-bit means round once
    sums = _segment_reduce(x, offsets, "sum", dtype=acc)
    ends = offsets.to(device=x.device, dtype=torch.int64).clamp(0, x.shape[0])  # as the library reads them
    return (sums / (ends[1:] - ends[:-1]).clamp_(min=0).to(acc)).to(rdtype)


segment_reduce = torch.library.custom_op("hipreduce::segment_reduce", segment_values, mutates_args=())


@segment_reduce.register_fake
def _segment_reduce_fake(x, offsets, op="sum", dtype=None):
    segments, rdtype = _meta_segments(x, offsets, op, dtype)
    return x.new_empty((segments,), dtype=rdtype)


def _meta_by_key(values, keys, num_bins, op, dtype):
    """(result shape, result dtype) of reduce_by_key."""
    code = _code(values)
    rdtype = _ragged_dtype(code, op, dtype)
    shape = tuple(values.shape)
    if len(shape) not in (1, 2):
        raise ValueError(f"hipreduce: reduce_by_key takes values [n] or [n, d], not shape {shape}")
    if len(shape) == 2 and shape[1] == 0:
        raise ValueError(f"hipreduce: values of shape {shape} have no feature to reduce")
    if num_bins < 0:
        raise ValueError(f"hipreduce: num_bins = {num_bins} is negative")
    if keys.dtype not in (torch.int32, torch.int64):
        raise TypeError(f"hipreduce: keys must be int32 or int64, not {keys.dtype}")
    if keys.device != values.device:
        raise ValueError("hipreduce: keys are on another device than the values")
    if tuple(keys.shape) != shape[:1]:
        raise ValueError(f"hipreduce: keys of shape {tuple(keys.shape)} for {shape[0]} rows of values "
                         f"(keys must be [{shape[0]}])")
    return (num_bins,) + shape[1:], rdtype


def by_key_values(values: torch.Tensor, keys: torch.Tensor, num_bins: int, op: str = "sum",
                  dtype: Optional[torch.dtype] = None) -> Tuple[torch.Tensor, torch.Tensor]:
    """The operator's implementation: (result, counts) (hipreduce.torch's eager "mean" takes it directly)."""
    if op != "mean":
        return _reduce_by_key(values, keys, num_bins, op, dtype, counts=True)
    _, rdtype = _meta_by_key(values, keys, num_bins, op, dtype)
    acc = torch.float32 if rdtype in (torch.float16, torch.bfloat16) else rdtype  # 16-bit means round once
    sums, counts = _reduce_by_key(values, keys, num_bins, "sum", dtype=acc, counts=True)
    n = counts.to(acc)
    return (sums / (n if values.dim() == 1 else n[:, None])).to(rdtype), counts


reduce_by_key = torch.library.custom_op(
    "hipreduce::reduce_by_key", by_key_values, mutates_args=(),
    schema='(Tensor values, Tensor keys, int num_bins, str op="sum", ScalarType? dtype=None) -> (Tensor, Tensor)')


@reduce_by_key.register_fake
def _reduce_by_key_fake(values, keys, num_bins, op="sum", dtype=None):
    shape, rdtype = _meta_by_key(values, keys, num_bins, op, dtype)
    return values.new_empty(shape, dtype=rdtype), values.new_empty((num_bins,), dtype=torch.int64)
