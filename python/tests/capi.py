"""The C API called directly through ctypes on the cpu device: the tests' reference for the bits.

It loads the libhipreduce that hipreduce._core is linked with (dlopen by soname returns the library
already loaded with the package) and calls it with shapes computed here, independently of the
package's own outer/extent/inner code.
"""
import ctypes
import math

import numpy as np

import hipreduce
from hipreduce import _dtypes as dt

_major, _minor = (int(v) for v in hipreduce.__version__.split(".")[:2])
_lib = ctypes.CDLL(f"libhipreduce.so.{_major}.{_minor}" if _major == 0 else f"libhipreduce.so.{_major}")

_u64 = ctypes.c_uint64
_p = ctypes.c_void_p
_lib.hipreduce_create.argtypes = [ctypes.POINTER(_p), ctypes.c_int, ctypes.c_int]
_lib.hipreduce_reduce.argtypes = [_p, ctypes.c_int, ctypes.c_int, _p, _u64, ctypes.c_int, _p, ctypes.c_int]
_lib.hipreduce_argreduce.argtypes = [_p, ctypes.c_int, ctypes.c_int, _p, _u64, _p, _p, ctypes.c_int]
_lib.hipreduce_reduce_axis.argtypes = [_p, ctypes.c_int, ctypes.c_int, _p, _u64, _u64, _u64, ctypes.c_int, _p,
                                       ctypes.c_int]
_lib.hipreduce_argreduce_axis.argtypes = [_p, ctypes.c_int, ctypes.c_int, _p, _u64, _u64, _u64, _p, _p,
                                          ctypes.c_int]
_lib.hipreduce_dot.argtypes = [_p, ctypes.c_int, _p, _p, _u64, ctypes.c_int, _p, ctypes.c_int]
_lib.hipreduce_reduce_segments.argtypes = [_p, ctypes.c_int, ctypes.c_int, _p, _u64, _p, ctypes.c_int, _p,
                                           ctypes.c_int]
_lib.hipreduce_argreduce_segments.argtypes = [_p, ctypes.c_int, ctypes.c_int, _p, _u64, _p, _p, _p,
                                              ctypes.c_int]
_lib.hipreduce_status_string.restype = ctypes.c_char_p

_handle = _p()
if _lib.hipreduce_create(ctypes.byref(_handle), 0, 0) != 0:
    raise RuntimeError("capi: hipreduce_create(cpu) failed")


def _ptr(a):
    return a.ctypes.data_as(_p) if a.size else _p(a.ctypes.data or 8)


def _check(status, what):
    if status != 0:
        raise RuntimeError(f"capi {what}: {_lib.hipreduce_status_string(status).decode()}")


def _bits(a):
    a = np.ascontiguousarray(a)
    return a.view(np.uint16) if a.dtype.itemsize == 2 and a.dtype.kind not in "iu" else a


def split(shape, axis):
    """(outer, extent, inner) of reducing axis of shape (None: everything)."""
    if axis is None:
        return 1, math.prod(shape), 1
    axis %= len(shape)
    return math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1:])


def rows(x, axis):
    """x's elements as [kept, reduced] rows, C-contiguous: each result's elements in the row-major order
    of the reduced axes (None: all; an int or a tuple), the rows in the row-major order of the kept
    axes; the order the package's reductions follow, computed here with numpy alone."""
    x = np.asarray(x)
    reduced = tuple(range(x.ndim)) if axis is None else tuple(sorted(a % x.ndim for a in np.atleast_1d(axis)))
    kept = tuple(a for a in range(x.ndim) if a not in reduced)
    k = math.prod(x.shape[a] for a in kept)
    r = math.prod(x.shape[a] for a in reduced)
    return np.ascontiguousarray(x.transpose(kept + reduced)).reshape(k, r)


def reduce(op, x, axis, out_dtype):
    """op over axis (None, an int or a tuple) of x, results in the row-major order of the kept axes as
    a numpy array of out_dtype: each result through hipreduce_reduce over its own elements (rows()). op: a
    name of dt.OPS or of the statistics hipreduce_reduce runs (mean, nansum, ...: dt.STATS)."""
    op_code = dt.OPS[op] if op in dt.OPS else dt.STATS[op]
    r = rows(x, axis)
    code = dt.code_of(r.dtype)
    out_code = dt.code_of(out_dtype)
    res = np.empty(r.shape[0], out_dtype)
    rb = _bits(res)
    for o in range(r.shape[0]):
        row = _bits(r[o])
        _check(_lib.hipreduce_reduce(_handle, op_code, code, _ptr(row), r.shape[1], out_code, _ptr(rb[o:o + 1]), 0),
               "reduce")
    return res


def argreduce(op, x, axis):
    x = np.ascontiguousarray(x)
    outer, extent, inner = split(x.shape, axis)
    code = dt.code_of(x.dtype)
    values = np.empty(outer * inner, x.dtype)
    indices = np.empty(outer * inner, np.int64)
    flat = _bits(x).reshape(-1)
    _check(_lib.hipreduce_argreduce_axis(_handle, dt.OPS[op], code, _ptr(flat), outer, extent, inner,
                                         _ptr(_bits(values)), _ptr(indices), 0), "argreduce_axis")
    return values, indices


def dot(x, y, out_dtype):
    res = np.empty(1, out_dtype)
    code = dt.code_of(x.dtype)
    _check(_lib.hipreduce_dot(_handle, code, _ptr(_bits(np.ascontiguousarray(x))),
                              _ptr(_bits(np.ascontiguousarray(y))), x.size, dt.code_of(np.dtype(out_dtype)),
                              _ptr(_bits(res)), 0), "dot")
    return res


def segments(op, x, offsets, out_dtype=None):
    off = np.ascontiguousarray(offsets, dtype=np.uint64)
    ns = off.size - 1
    code = dt.code_of(x.dtype)
    xb = _bits(np.ascontiguousarray(x))
    if dt.OPS[op] in dt.ARG_OPS:
        values = np.empty(ns, x.dtype)
        indices = np.empty(ns, np.int64)
        _check(_lib.hipreduce_argreduce_segments(_handle, dt.OPS[op], code, _ptr(xb), ns, _ptr(off),
                                                 _ptr(_bits(values)), _ptr(indices), 0), "argreduce_segments")
        return indices
    res = np.empty(ns, out_dtype)
    _check(_lib.hipreduce_reduce_segments(_handle, dt.OPS[op], code, _ptr(xb), ns, _ptr(off),
                                          dt.code_of(np.dtype(out_dtype)), _ptr(_bits(res)), 0), "reduce_segments")
    return res
