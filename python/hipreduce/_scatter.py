"""torch's, numpy's and TensorFlow's names of reductions by key: index_add, scatter_reduce, bincount and
unsorted_segment_reduce, thin wrappers over reduce_by_key (its bits, its checks and errors).

make(reduce_by_key, plain) builds the four over one reduce_by_key: the package's function (plain: a
torch tensor that autograd tracks is refused, as by every plain function) or hipreduce.torch's
operator, whose backward gives the gradients (a gather of the output gradient along the keys) while
torch records the few element-wise steps around it (the add onto index_add's out, a mean's division).
The arithmetic around the call is element-wise and fixed, so the results are reproducible too: a bin
with rows gets reduce_by_key's bits for them, followed by at most one multiply (alpha), one add (out)
or one division (mean) per element.
"""
from __future__ import annotations

import math
import operator
import sys
from typing import Any, Callable

import numpy as np

from . import _dtypes as dt
from ._arrays import framework_of, is_torch, raise_requires_grad
from ._calls import normalize_axis

# scatter_reduce's names (torch's) of the library's ops; mean is computed here from the sum and count.
SCATTER_OPS = {"sum": "sum", "prod": "prod", "mean": "mean", "amax": "max", "amin": "min"}
_KINDS = {dt.F16: "half", dt.BF16: "half", dt.F32: "float", dt.F64: "float", dt.I32: "key", dt.I64: "key"}


# ---- element-wise steps on numpy, cupy and torch arrays alike ----

def _array(a):
    """a as an array of its framework (anything else through numpy.asarray); a torch tensor as it is
    (so that torch.compile traces hipreduce.torch's calls through here)."""
    return a if is_torch(a) else framework_of(a)[1]


def _xp(a):
    """The array module of a: numpy, cupy or torch."""
    return sys.modules[type(a).__module__.split(".")[0]] if not isinstance(a, np.ndarray) else np


def _dtype(a, name):
    """The dtype called name in a's framework."""
    return getattr(sys.modules["torch"], name) if is_torch(a) else np.dtype(name)


def _kind(dtype):
    """'half' (float16, bfloat16), 'float' (float32, float64), 'key' (int32, int64, what reduce_by_key
    takes as keys), 'int' (the other integers), 'bool' or None (another dtype). torch dtypes by their
    attributes, which torch.compile traces (the package's code tables are dicts it cannot guard on)."""
    if type(dtype).__module__ == "torch":
        torch = sys.modules["torch"]
        if dtype in (torch.float16, torch.bfloat16):
            return "half"
        if dtype in (torch.float32, torch.float64):
            return "float"
        if dtype in (torch.int32, torch.int64):
            return "key"
        if dtype == torch.bool:
            return "bool"
        return None if dtype.is_floating_point or dtype.is_complex else "int"
    if str(dtype) == "bool":
        return "bool"
    code = dt.code_of(dtype)
    return _KINDS.get(code, "int" if code in dt.SIGNED | dt.UNSIGNED else None)


def _cast(a, dtype):
    return a.to(dtype) if is_torch(a) else a.astype(dtype, copy=False)


def _permute(a, order):
    return a.permute(order) if is_torch(a) else a.transpose(order)


def _contiguous(a):
    return a.contiguous() if is_torch(a) else _xp(a).ascontiguousarray(a)


def _reject_tracked(a, what):
    if is_torch(a) and a.requires_grad and sys.modules["torch"].is_grad_enabled():
        raise_requires_grad(what)


def _rows(x, what):
    """x [n, ...] as reduce_by_key's values: [n] or [n, d] (d the product of the other extents)."""
    if x.ndim == 0:
        raise ValueError(f"hipreduce: {what} takes an array of rows [n, ...], not a 0-d one")
    if x.ndim <= 2:
        return x
    return x.reshape(x.shape[0], math.prod(x.shape[1:]))


def _nonempty(counts, ndim):
    """counts > 0 shaped to broadcast against results of ndim dimensions along the first."""
    return (counts > 0).reshape((counts.shape[0],) + (1,) * (ndim - 1))


def _accumulator(a, dtype):
    """The dtype a mean or index_add accumulates in: float32 for a 16-bit float dtype, else dtype."""
    return _dtype(a, "float32") if _kind(dtype) == "half" else dtype


def make(reduce_by_key: Callable[..., Any], plain: bool):
    """index_add, scatter_reduce, bincount and unsorted_segment_reduce over reduce_by_key."""

    def mean(rows, keys, num_bins, dtype):
        """(each bin's sum / its count in dtype, counts): the sum rounded once in the accumulator (float32
        for 16-bit dtypes), one division, one rounding into dtype; an empty bin gives 0/1 = 0."""
        if _kind(dtype) not in ("half", "float"):
            raise TypeError(f"hipreduce: the mean takes float results, not {dtype} (cast the input first)")
        acc = _accumulator(rows, dtype)
        sums, counts = reduce_by_key(rows, keys, num_bins, "sum", dtype=acc, counts=True)
        divisor = _cast(counts.clamp(min=1) if is_torch(counts) else _xp(counts).maximum(counts, 1), acc)
        return _cast(sums / (divisor if sums.ndim == 1 else divisor[:, None]), dtype), counts

    def index_add(out: Any, index: Any, src: Any, dim: int = 0, alpha: Any = 1) -> Any:
        out, src = _array(out), _array(src)
        if plain:
            _reject_tracked(out, "out")
        if out.ndim == 0:
            raise ValueError("hipreduce: index_add adds into an array of at least one dimension, not a 0-d one")
        dim = normalize_axis(dim, out.ndim)
        if src.ndim != out.ndim or any(src.shape[a] != out.shape[a] for a in range(out.ndim) if a != dim):
            raise ValueError(f"hipreduce: index_add of src {tuple(src.shape)} into out {tuple(out.shape)} along "
                             f"dim {dim}: the extents other than dim's must match")
        if src.dtype != out.dtype:
            raise TypeError(f"hipreduce: index_add of src {src.dtype} into out {out.dtype} (one dtype; cast one)")
        if _kind(out.dtype) in ("int", "key") and not isinstance(alpha, (int, np.integer)):
            raise TypeError(f"hipreduce: index_add into integers takes an integer alpha, not {alpha!r}")
        order = [dim] + [a for a in range(out.ndim) if a != dim]
        moved, rest = _permute(out, order), tuple(out.shape[a] for a in order[1:])
        if math.prod(rest) == 0:
            return out.clone() if is_torch(out) else out.copy()  # nothing to add: a copy, as torch's
        acc = _accumulator(out, out.dtype)
        rows = _permute(src, order).reshape(src.shape[dim], math.prod(rest))
        sums, counts = reduce_by_key(rows, index, out.shape[dim], "sum", dtype=acc, counts=True)
        sums = sums.reshape(moved.shape)
        if not (alpha == 1 and type(alpha) is int):
            sums = sums * alpha
        added = _cast(_cast(moved, acc) + sums, out.dtype)
        result = _xp(out).where(_nonempty(counts, out.ndim), added, moved)  # untouched bins keep their bits
        return _contiguous(_permute(result, [order.index(a) for a in range(out.ndim)]))

    def scatter_reduce(src: Any, index: Any, num_bins: int, reduce: str = "sum") -> Any:
        if reduce not in SCATTER_OPS:
            raise ValueError(f"hipreduce: unknown reduce {reduce!r} (one of {', '.join(SCATTER_OPS)})")
        src = _array(src)
        rows = _rows(src, "scatter_reduce")
        if reduce == "mean":
            result, counts = mean(rows, index, num_bins, src.dtype)
        else:
            result, counts = reduce_by_key(rows, index, num_bins, SCATTER_OPS[reduce], dtype=src.dtype,
                                           counts=True)
        result = _xp(result).where(_nonempty(counts, result.ndim), result, 0)  # include_self=False, self 0
        return result.reshape((result.shape[0],) + tuple(src.shape[1:]))

    def bincount(x: Any, weights: Any = None, minlength: int = 0) -> Any:
        x = _array(x)
        if x.ndim != 1:
            raise ValueError(f"hipreduce: bincount takes a 1-d array of keys, not shape {tuple(x.shape)}")
        minlength = operator.index(minlength)
        if minlength < 0:
            raise ValueError(f"hipreduce: minlength = {minlength} is negative")
        if _kind(x.dtype) == "bool":
            x = _cast(x, _dtype(x, "int64"))
        if _kind(x.dtype) not in ("int", "key"):
            raise TypeError(f"hipreduce: bincount takes integer keys, not {x.dtype}")
        num_bins = minlength
        if x.shape[0]:
            from ._stats import aminmax  # noqa: PLC0415 (a cycle: _stats imports the package)
            lo, hi = (int(v) for v in aminmax(x.detach() if is_torch(x) else x))
            if lo < 0:
                raise ValueError(f"hipreduce: bincount of a negative key ({lo})")
            if hi >= 2**63 - 1:
                raise ValueError(f"hipreduce: bincount of key {hi}: more bins than int64 counts")
            num_bins = max(num_bins, hi + 1)
        keys = x if _kind(x.dtype) == "key" else _cast(x, _dtype(x, "int64"))
        if weights is None:
            return reduce_by_key(keys, keys, num_bins, "max", counts=True)[1]
        weights = _array(weights)
        if tuple(weights.shape) != tuple(x.shape):
            raise ValueError(f"hipreduce: weights of shape {tuple(weights.shape)} for keys {tuple(x.shape)}")
        keep = is_torch(weights) and _kind(weights.dtype) == "float"  # torch's rule; numpy's: float64
        target = weights.dtype if keep else _dtype(weights, "float64")
        if _kind(weights.dtype) not in ("half", "float"):
            weights = _cast(weights, target)
        return reduce_by_key(weights, keys, num_bins, "sum", dtype=target)

    def unsorted_segment_reduce(x: Any, segment_ids: Any, num_segments: int, op: str = "sum",
                                dtype: Any = None) -> Any:
        x = _array(x)
        rows = _rows(x, "unsorted_segment_reduce")
        if op == "mean":
            result = mean(rows, segment_ids, num_segments, x.dtype if dtype is None else dtype)[0]
        else:
            result = reduce_by_key(rows, segment_ids, num_segments, op, dtype=dtype)
        return result.reshape((result.shape[0],) + tuple(x.shape[1:]))

    index_add.__doc__ = INDEX_ADD_DOC
    scatter_reduce.__doc__ = SCATTER_REDUCE_DOC
    bincount.__doc__ = BINCOUNT_DOC
    unsorted_segment_reduce.__doc__ = SEGMENT_DOC
    return index_add, scatter_reduce, bincount, unsorted_segment_reduce


INDEX_ADD_DOC = """out + the rows of src summed by index along dim (torch's Tensor.index_add), as a new array.

    out: [..., m, ...] (m along dim); src: out's dtype and extents but along dim, where it has len(index)
    slices; index: [len(index)] int32/int64 keys in [0, m), in any order, with any repetition. Each
    slice of out at k gets S_k, the sum of the src slices with index == k in input order (reduce_by_key's
    bits; float16/bfloat16 summed in float32), times alpha (one multiply of the sum; an integer alpha
    for integer arrays), added with one add per element and rounded once into out's dtype (16-bit: the
    add in float32). A k that no index names keeps out's bits (its -0.0 too). Integers wrap modulo
    2**bits as torch's. The gradient (hipreduce.torch.index_add): out's passes through, src's is the
    output gradient gathered along index (times alpha)."""

SCATTER_REDUCE_DOC = """Each bin's reduction of the rows of src with index == bin (torch's scatter_reduce along dim 0).

    src: [n] or [n, ...]; index: [n] int32/int64 keys in [0, num_bins); reduce: 'sum', 'prod', 'mean',
    'amax' or 'amin'. Result: [num_bins, ...] of src's dtype: torch's
    zeros(num_bins, ...).scatter_reduce(0, index, src, reduce, include_self=False), so a bin reduces its
    own rows only and a bin without rows is 0. 'mean' (floats only): the sum (float32 for 16-bit
    inputs) over the count, one division. A bin with rows has reduce_by_key's bits (mean: its sum's,
    then the division)."""

BINCOUNT_DOC = """Count of each non-negative integer in x, or the sum of its weights (numpy's bincount).

    x: a 1-d integer or bool array; num_bins = max(max(x) + 1, minlength). A negative key is a
    ValueError. Without weights: int64 counts. weights: x's shape; the sum of each key's weights in input
    order (reduce_by_key's bits) as float64 (numpy's rule; torch tensors keep float32 and float64
    weights' dtype, as torch.bincount). Finding max(x) reads x once more, and a GPU array's maximum is
    read back (a synchronisation, as in numpy's and torch's bincount)."""

SEGMENT_DOC = """Each segment's reduction of the rows of x with segment_ids == segment (TensorFlow's
    unsorted_segment_sum/prod/min/max/mean).

    x: [n] or [n, ...]; segment_ids: [n] int32/int64 in [0, num_segments) (TensorFlow drops negative
    ids: filter those rows first); op: any op of reduce_by_key, or 'mean' (floats; the sum over the
    count, 0 for an empty segment as TensorFlow's). dtype: the result dtype, as reduce_by_key's
    (TensorFlow keeps x's: pass dtype=x.dtype for integer sums). An empty segment gets reduce_by_key's
    identity. Result: [num_segments, ...]."""
