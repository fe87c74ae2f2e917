"""What every function of the package shares: the input's framework, the checks of axes and out=, and
the one path of the reductions over axes (run), a plan of the library built from the input's own
shape and strides.
"""
from __future__ import annotations

import math
import operator

from . import _core
from . import _dtypes as dt
from ._arrays import BY_TYPE, framework_of, is_torch

OP_NAMES = {v: k for k, v in dt.OPS.items()}
OP_NAMES[dt.OPS_DOT], OP_NAMES[dt.OPS_DOT_EXACT], OP_NAMES[dt.OPS_DOTC] = "dot", "dot_exact", "dotc"
OP_NAMES.update({v: k for k, v in dt.STATS.items()})
OP_NAMES.update({v: k for k, v in dt.NANARG.items()})


def prepare(x, differentiable=True):
    """(framework, x, its dtype code, its device); x as it lies (strided views included), converted
    only where its values need it (a byte-swapped numpy array). differentiable: the result would carry
    a gradient in the framework (a torch tensor that autograd tracks is then refused)."""
    fw = BY_TYPE.get(type(x))
    if fw is None:
        fw, x = framework_of(x)
    x, code, device = fw.prepare(x, differentiable)
    return fw, x, code, device


def check_exact(op, code):
    if op == dt.OPS["sum_exact"] and code in dt.COMPLEX:
        return  # each component's exact sum
    if op in dt.EXACT_OPS and code not in dt.FLOATS:
        raise TypeError(f"hipreduce: exact=True sums float inputs only, not {dt.NAMES[code]} (an integer sum is "
                        "exact modulo 2**bits already)")


def code_of(dtype):
    return None if dtype is None else dt.code_of(dtype)


def torch_aliases(x, axis, keepdims, dim, keepdim):
    """axis and keepdims from torch's spellings dim= and keepdim= (torch tensors only)."""
    if not is_torch(x):
        raise TypeError("hipreduce: dim= and keepdim= are torch's spellings, for torch tensors (use axis= and "
                        "keepdims=)")
    if dim is not None:
        if axis is not None:
            raise TypeError("hipreduce: axis= and dim= name the same argument: pass one")
        axis = dim
    if keepdim is not None:
        if keepdims:
            raise TypeError("hipreduce: keepdims= and keepdim= name the same argument: pass one")
        keepdims = bool(keepdim)
    return axis, keepdims


def normalize_axis(axis, ndim):
    try:
        a = operator.index(axis)
    except TypeError:
        raise TypeError(f"hipreduce: axis must be None, an int or a tuple of ints, not {axis!r}") from None
    if not -ndim <= a < ndim:
        raise ValueError(f"hipreduce: axis {a} is out of bounds for an array of dimension {ndim}")
    return a % ndim


def axes(fw, x, axis, keepdims, op):
    """(the reduced axes as a bit mask, -1 for all; the result's shape) of reducing axis of x: None
    (every axis), an int or a tuple of ints (any axes, in any order; a repeated one is a ValueError, as
    in numpy; () reduces nothing: each result is op over one element). keepdims keeps the reduced axes
    as 1. An op without an identity (min, max, argmin, argmax) over no element is a ValueError."""
    if axis is None:
        if op in dt.NO_IDENTITY and fw.size(x) == 0:
            raise ValueError(f"hipreduce: {OP_NAMES[op]} of an empty array (no identity, as in numpy)")
        return -1, (1,) * fw.ndim(x) if keepdims else ()
    shape = tuple(fw.shape(x))
    ndim = len(shape)
    if isinstance(axis, (tuple, list)):
        mask = 0
        for a in axis:
            bit = 1 << normalize_axis(a, ndim)
            if mask & bit:
                raise ValueError("hipreduce: duplicate value in 'axis'")
            mask |= bit
    else:
        mask = 1 << normalize_axis(axis, ndim)
    if op in dt.NO_IDENTITY and any(shape[a] == 0 for a in range(ndim) if mask >> a & 1):
        raise ValueError(f"hipreduce: {OP_NAMES[op]} of an empty axis (no identity, as in numpy)")
    if keepdims:
        return mask, tuple(1 if mask >> a & 1 else shape[a] for a in range(ndim))
    return mask, tuple(shape[a] for a in range(ndim) if not mask >> a & 1)


def checked_out(fw, out, shape, code, device):
    """out's dtype code, once out is checked: an array of the input's framework on its device, of the
    result's shape, of dtype code (None: any the library allows, out's dtype is then the result's, as
    in numpy), C-contiguous and writable."""
    if not fw.is_array(out):
        raise TypeError(f"hipreduce: out must be an array of the input's framework, not {type(out).__name__}")
    out_shape, out_code, out_device, writable = fw.describe(out)
    if out_device != device:
        raise ValueError("hipreduce: out is on another device than the input")
    if tuple(out_shape) != tuple(shape):
        raise ValueError(f"hipreduce: out has shape {tuple(out_shape)}, the result has {tuple(shape)}")
    if code is not None and out_code != code:
        raise TypeError(f"hipreduce: out has dtype {dt.NAMES[out_code]}, the result is {dt.NAMES[code]}")
    if not writable:
        raise ValueError("hipreduce: out must be C-contiguous and writable")
    return out_code


def out_target(fw, out, shape, code, x, *inputs):
    """What the library writes for out: out itself, or, where out may share memory with an input, a
    new array of out's shape and dtype, copied into out after the call (numpy's rule: the result is
    that of an out apart from the inputs)."""
    for a in (x,) + inputs:
        if fw.overlaps(out, a):
            return fw.empty(shape, code, x)
    return out


def run(fw, device, op, code, out_code, x, y, mask, values, indices, values2=None, correction=0.0):
    """op over the axes of x in mask (-1: all; y: dot's second input) into values (and int64 indices
    for argmin/argmax, the means of var_mean/std_mean into values2; correction: var's and std's), one
    plan run on x as it lies. Where the library's descriptor cannot describe the layout (more than 8
    dimensions, strides that are not whole elements) the reduced axes are moved last in a contiguous
    copy, [kept, reduced], whose results have the same bits."""
    vals = fw.memory(values, code if op in dt.ARG_OPS else out_code)
    idx = None if indices is None else fw.memory(indices, dt.I64)
    vals2 = None if values2 is None else fw.memory(values2, out_code)
    stream = fw.stream(device)
    if _core.reduce_plan(device, stream, op, code, out_code, fw.tensor(x, code),
                         None if y is None else fw.tensor(y, code), mask, vals, idx, vals2, correction):
        return
    x = _grouped(fw, x, mask)
    y = None if y is None else _grouped(fw, y, mask)
    if not _core.reduce_plan(device, stream, op, code, out_code, fw.tensor(x, code),
                             None if y is None else fw.tensor(y, code), 2, vals, idx, vals2, correction):
        raise RuntimeError("hipreduce: a contiguous [kept, reduced] copy has no descriptor")  # cannot happen


def _grouped(fw, a, mask):
    """a's C-contiguous copy of shape [kept, reduced]: its kept axes, then its reduced ones."""
    shape = tuple(fw.shape(a))
    reduced = [i for i in range(len(shape)) if mask < 0 or mask >> i & 1]
    kept = [i for i in range(len(shape)) if not (mask < 0 or mask >> i & 1)]
    k, r = math.prod(shape[i] for i in kept), math.prod(shape[i] for i in reduced)
    return fw.permuted_copy(a, kept + reduced, (k, r))
