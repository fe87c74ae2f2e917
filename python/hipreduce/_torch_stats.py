"""The statistics as torch operators of the namespace ``hipreduce`` (torch.ops.hipreduce.mean, ...), as
_torch_ops does for the reductions: each a torch.library.custom_op whose implementation is the package's
function (its results allocated through torch, on torch's current stream), with a fake (meta) function
that gives the result's shape and dtype by the package's rules (_stats.resolve) and refuses what the
library refuses (_torch_ops._refusal, the library's own rule and message). _torch_stats_grad registers
the backward formulas. Imported by hipreduce.torch only.
"""
from __future__ import annotations

from typing import List, Optional

import torch

from . import _dtypes as dt
from . import _stats as st
from . import _torch_ops as ops

# The package's functions by name: hipreduce.torch's direct path, and the operators' implementations.
FUNCTIONS = {name: getattr(st, name) for name in dt.STATS}
FLOAT_STATS = ("mean", "nansum", "nanmean", "logsumexp", "nanmin", "nanmax")
COUNT_STATS = ("count_nonzero", "all", "any")
MOMENTS = ("var", "std", "var_mean", "std_mean")

_COUNT_SCHEMA = "(Tensor x, int[]? axis=None, bool keepdims=False) -> Tensor"
_AMINMAX_SCHEMA = "(Tensor x, int[]? axis=None, bool keepdims=False) -> (Tensor, Tensor)"
# correction is a float: torch.var's default 1 is hipreduce.torch's (the wrappers pass it always).
_MOMENT_SCHEMA = "(Tensor x, int[]? axis=None, bool keepdims=False, ScalarType? dtype=None, float correction=1) -> "


def meta(name, x, axis, keepdims, dtype=None):
    """(result shape, result dtype) of statistic name on x, or the exception the call raises: the
    package's checks in its order (dtype, axes, an empty nanmin/nanmax), then the library's refusal of
    the (op, input, result) triple that would run."""
    op = dt.STATS[name]
    if x.dtype == torch.bool and (op in st.COUNTS or op in st.CONVERTED):
        code = dt.U8  # read as its bytes 0 and 1
        ops._code(x.view(torch.uint8))  # the device's check
    else:
        code = ops._code(x)
    axes = ops.reduced_axes(x.dim(), axis)
    if op in dt.NO_IDENTITY:
        ops._empty_check(name, x.shape, axes)
    want = None if dtype is None else ops._dtype_code(dtype)
    run_op, to, out_code = st.resolve(op, code, want, dt.DEFAULTS[True])
    why = ops._refusal("reduce", run_op, to if to >= 0 else code, out_code)
    if why is not None:
        raise TypeError(why)
    shape = ops.reduced_shape(x.shape, axes, keepdims)
    if op in (st.ALL, st.ANY):
        return shape, torch.bool
    rdtype = dt.torch_tables()[1][out_code]
    if rdtype is None:
        raise TypeError(f"hipreduce: this torch has no {dt.NAMES[out_code]} dtype")
    return shape, rdtype


def _define_float(name):
    fn = FUNCTIONS[name]

    def impl(x: torch.Tensor, axis: Optional[List[int]] = None, keepdims: bool = False,
             dtype: Optional[torch.dtype] = None) -> torch.Tensor:
        return fn(x, ops._axis_arg(axis), dtype, keepdims)

    def fake(x, axis=None, keepdims=False, dtype=None):
        shape, rdtype = meta(name, x, axis, keepdims, dtype)
        return x.new_empty(shape, dtype=rdtype)

    impl.__name__ = impl.__qualname__ = name
    op = torch.library.custom_op(f"hipreduce::{name}", impl, mutates_args=(), schema=ops._REDUCE_SCHEMA)
    op.register_fake(fake)
    return op


def _define_count(name):
    fn = FUNCTIONS[name]

    def impl(x: torch.Tensor, axis: Optional[List[int]] = None, keepdims: bool = False) -> torch.Tensor:
        return fn(x, ops._axis_arg(axis), keepdims)

    def fake(x, axis=None, keepdims=False):
        shape, rdtype = meta(name, x, axis, keepdims)
        return x.new_empty(shape, dtype=rdtype)

    impl.__name__ = impl.__qualname__ = name
    op = torch.library.custom_op(f"hipreduce::{name}", impl, mutates_args=(), schema=_COUNT_SCHEMA)
    op.register_fake(fake)
    return op


def _define_moment(name):
    fn = FUNCTIONS[name]
    two = dt.STATS[name] in st.TWO_RESULTS

    def impl(x: torch.Tensor, axis: Optional[List[int]] = None, keepdims: bool = False,
             dtype: Optional[torch.dtype] = None, correction: float = 1.0):
        return fn(x, ops._axis_arg(axis), dtype, keepdims, correction=correction)

    def fake(x, axis=None, keepdims=False, dtype=None, correction=1.0):
        shape, rdtype = meta(name, x, axis, keepdims, dtype)
        if two:
            return x.new_empty(shape, dtype=rdtype), x.new_empty(shape, dtype=rdtype)
        return x.new_empty(shape, dtype=rdtype)

    impl.__name__ = impl.__qualname__ = name
    schema = _MOMENT_SCHEMA + ("(Tensor, Tensor)" if two else "Tensor")
    op = torch.library.custom_op(f"hipreduce::{name}", impl, mutates_args=(), schema=schema)
    op.register_fake(fake)
    return op


def _define_aminmax():
    fn = FUNCTIONS["aminmax"]

    def impl(x: torch.Tensor, axis: Optional[List[int]] = None, keepdims: bool = False):
        return fn(x, ops._axis_arg(axis), keepdims)

    def fake(x, axis=None, keepdims=False):
        shape, rdtype = meta("aminmax", x, axis, keepdims)
        return x.new_empty(shape, dtype=rdtype), x.new_empty(shape, dtype=rdtype)

    impl.__name__ = impl.__qualname__ = "aminmax"
    op = torch.library.custom_op("hipreduce::aminmax", impl, mutates_args=(), schema=_AMINMAX_SCHEMA)
    op.register_fake(fake)
    return op


mean, nansum, nanmean, logsumexp, nanmin, nanmax = (_define_float(name) for name in FLOAT_STATS)
count_nonzero, all, any = (_define_count(name) for name in COUNT_STATS)  # noqa: A001
var, std, var_mean, std_mean = (_define_moment(name) for name in MOMENTS)
aminmax = _define_aminmax()
OPERATORS = {name: globals()[name] for name in dt.STATS}
