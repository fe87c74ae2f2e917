"""Reductions of ragged parts of an array: CSR segments (segment_reduce) and unsorted keys
(reduce_by_key)."""
from __future__ import annotations

import operator
from typing import Any

import numpy as np

from . import _calls as _c
from . import _core
from . import _dtypes as dt
from ._arrays import CPU, NUMPY


def segment_reduce(x: Any, offsets: Any, op: str = "sum", dtype: Any = None, out: Any = None) -> Any:
    """Reduces ragged segments of a 1-d array: result s reduces x[offsets[s]:offsets[s+1]] (CSR).

    op: 'sum', 'prod', 'min', 'max', 'sum_abs', 'sum_squares', 'max_abs', 'norm', 'and', 'or',
    'xor', 'argmin', 'argmax' (int64 indices from the segment's start) or 'sum_exact' (each
    segment's exact sum rounded once, as sum(exact=True); floats only).
    offsets: num_segments + 1 non-decreasing integers (numpy, or the input's framework). An empty
    segment gives the identity (0 for sums, 1 for prod, +inf or the dtype's maximum for min, -inf or
    its minimum for max; index -1 for argmin/argmax). dtype: the result dtype (defaults as the
    function of the same name). Each segment has exactly the bits of that function over the segment
    alone, on every device.

    Host offsets are checked (ValueError when one is negative, decreasing or past len(x)) and, for a
    GPU input, copied to the GPU. Offsets already in GPU memory are not read back (that would
    synchronise): they are clamped into [0, len(x)], and a decreasing offset gives an empty segment.
    """
    if not isinstance(op, str) or op not in dt.OPS:
        raise ValueError(f"hipreduce: unknown op {op!r} (one of {', '.join(dt.OPS)})")
    code_op = dt.OPS[op]
    fw, x, code, device = _c.prepare(x, differentiable=code_op not in dt.ARG_OPS)
    _c.check_exact(code_op, code)
    shape = tuple(fw.shape(x))
    if len(shape) != 1:
        raise ValueError(f"hipreduce: segment_reduce takes a 1-d array, not shape {shape}")
    n = shape[0]
    x = fw.contiguous(x)  # CSR segments have no stride
    off = fw.offsets(offsets, device, n)
    num_segments = off.shape[0] - 1
    stream = fw.stream(device)
    off_memory = off if device == CPU else fw.memory(off, dt.U64)
    if code_op in dt.ARG_OPS:
        if dtype is not None:
            raise TypeError("hipreduce: argmin/argmax give int64 indices (no dtype=)")
        if out is None:
            indices = fw.empty((num_segments,), dt.I64, x)
        else:
            _c.checked_out(fw, out, (num_segments,), dt.I64, device)
            indices = _c.out_target(fw, out, (num_segments,), dt.I64, x, off)
        values = fw.empty((num_segments,), code, x)
        _core.argreduce_segments(device, stream, code_op, code, fw.memory(x, code), n, num_segments, off_memory,
                                 fw.memory(values, code), fw.memory(indices, dt.I64))
        if out is not None and indices is not out:
            fw.copy_into(out, indices)
            indices = out
        return indices
    if out is None:
        out_code = fw.defaults[code_op][code] if dtype is None else dt.code_of(dtype)
        res = fw.empty((num_segments,), out_code, x)
    else:
        out_code = _c.checked_out(fw, out, (num_segments,), _c.code_of(dtype), device)
        res = _c.out_target(fw, out, (num_segments,), out_code, x, off)
    _core.reduce_segments(device, stream, code_op, code, fw.memory(x, code), n, num_segments, off_memory,
                          out_code, fw.memory(res, out_code))
    if out is not None and res is not out:
        fw.copy_into(out, res)
        return out
    return res



def reduce_by_key(values: Any, keys: Any, num_bins: int, op: str = "sum", dtype: Any = None, out: Any = None,
                  counts: bool = False) -> Any:
    """Reduces the rows of values by unsorted keys: result[b] is op over the values[i] with keys[i] == b,
    taken in input order (torch's index_add / scatter_reduce, TensorFlow's unsorted_segment_sum).

    values: [n] or [n, d] (each key selects a row of d features), of any dtype the op takes; a
    non-contiguous one is copied to contiguous rows first. keys: [n] int32 or int64, in any order, any
    repetition (for numpy values any array-like; else an array of the values' framework and device).
    num_bins: the result's length. Result: [num_bins] or [num_bins, d], of dtype= or the op's default
    (as the function of the same name); out: an array of that shape and dtype (it may share memory
    with the inputs). op: 'sum', 'prod', 'min', 'max', 'sum_abs', 'sum_squares', 'max_abs', 'norm',
    'and', 'or', 'xor', 'sum_exact' (floats; the exact sum rounded once) or 'argmin'/'argmax' (int64
    row indices i of the first extreme in input order). counts=True returns (result, counts), counts
    the int64 [num_bins] number of rows of each bin (for means).

    Each bin has the bits of the same function over its values alone in input order (sum_exact's not
    even depending on their order), on every device and thread count, run after run. A bin without a
    row gets the identity (0 for sums, 1 for prod, +inf or the dtype's maximum for min, -inf or its
    minimum for max; index -1 for argmin/argmax), as an empty segment of segment_reduce. A key
    outside [0, num_bins): ValueError on the cpu device, naming it, before anything is written; a GPU
    reads the keys in its kernels only, so there such rows are skipped (neither reduced nor counted).
    """
    if not isinstance(op, str) or op not in dt.OPS:
        raise ValueError(f"hipreduce: unknown op {op!r} (one of {', '.join(dt.OPS)})")
    code_op = dt.OPS[op]
    arg = code_op in dt.ARG_OPS
    fw, values, code, device = _c.prepare(values, differentiable=not arg)
    _c.check_exact(code_op, code)
    shape = tuple(fw.shape(values))
    if len(shape) not in (1, 2):
        raise ValueError(f"hipreduce: reduce_by_key takes values [n] or [n, d], not shape {shape}")
    n, row = shape[0], shape[1] if len(shape) == 2 else 1
    if row == 0:
        raise ValueError(f"hipreduce: values of shape {shape} have no feature to reduce")
    num_bins = operator.index(num_bins)
    if num_bins < 0:
        raise ValueError(f"hipreduce: num_bins = {num_bins} is negative")
    keys, key_code = _keys(fw, keys, device, n)
    values = fw.contiguous(values)
    res_shape = (num_bins,) + shape[1:]
    if arg:
        if dtype is not None:
            raise TypeError("hipreduce: argmin/argmax give int64 indices (no dtype=)")
        out_code = dt.I64
        result = fw.empty(res_shape, code, values)  # the extremes, which the call writes beside
    else:
        out_code = fw.defaults[code_op][code] if dtype is None else dt.code_of(dtype)
    if out is None:
        target = fw.empty(res_shape, out_code, values)
    else:
        out_code = _c.checked_out(fw, out, res_shape, dt.I64 if arg else _c.code_of(dtype), device)
        target = _c.out_target(fw, out, res_shape, out_code, values, keys)
    if not arg:
        result = target
    tally = fw.empty((num_bins,), dt.I64, values) if counts else None
    _core.reduce_by_key(device, fw.stream(device), code_op, code, code if arg else out_code,
                        fw.memory(values, code), n, row, fw.memory(keys, key_code), key_code, num_bins,
                        fw.memory(result, code if arg else out_code),
                        fw.memory(target, dt.I64) if arg else None,
                        None if tally is None else fw.memory(tally, dt.I64))
    if out is not None and target is not out:
        fw.copy_into(out, target)
        target = out
    return (target, tally) if counts else target


def _keys(fw, keys, device, n):
    """keys as a C-contiguous int32/int64 array of the values' framework on their device, and its code."""
    if not fw.is_array(keys):
        if fw is not NUMPY:
            raise TypeError(f"hipreduce: keys must be an array of the values' framework, not {type(keys).__name__}")
        keys = np.asarray(keys)
    keys = fw.contiguous(keys)  # numpy: also to the native byte order
    shape, code, keys_device, _ = fw.describe(keys)
    if code not in (dt.I32, dt.I64):
        raise TypeError(f"hipreduce: keys must be int32 or int64, not {dt.NAMES[code]}")
    if keys_device != device:
        raise ValueError("hipreduce: keys are on another device than the values")
    if tuple(shape) != (n,):
        raise ValueError(f"hipreduce: keys of shape {tuple(shape)} for {n} rows of values (keys must be [{n}])")
    return keys, code
