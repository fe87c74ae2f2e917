"""hipreduce: reproducible reductions over numpy, cupy and torch arrays, on the GPU and the CPU.

Every function reduces with libhipreduce's default algorithm, whose order is fixed by element index:
the result has the same bits on every GPU (NVIDIA or AMD, any warp width) and on the CPU device, run
after run; a row (a reduction over the last axis, or a segment) has exactly the bits of the same
function over that row alone. Integer results are exact modulo 2**bits of the result dtype; float16
and bfloat16 accumulate in float32 and round once; min/max give the canonical NaN for any NaN and
order -0.0 below +0.0; argmin/argmax give the first index of the extreme (of the first NaN if any).

Arrays stay where they are: a numpy array (or anything numpy.asarray reads) is reduced by the CPU
device and gives numpy results (a numpy scalar for axis=None); a torch tensor gives a torch tensor
(0-d for axis=None) and a cupy array a cupy array, on the input's device. On a GPU the result is
written in device memory, ordered on the framework's current stream (cupy's current stream,
torch.cuda.current_stream()); nothing waits for the GPU unless the caller reads the value. Each
thread's next call on that GPU from another stream orders its stream after that one (an event, no
host wait): cupy streams are kept alive for that, torch never frees its own; a stream wrapped with
ExternalStream must exist until then (destroying it earlier is undefined in CUDA/HIP). A
C-contiguous input is never copied; any other layout is first copied to a C-contiguous one (as
numpy.ascontiguousarray / Tensor.contiguous()). An out= that shares memory with an input gets the
result of an out apart from it (numpy's rule: computed into a new array, then copied into out).

Errors: TypeError for a dtype the library does not reduce or a result dtype it does not allow for
the operator, ValueError for a bad axis, shape, out or offsets, NotImplementedError (a RuntimeError)
for valid arguments the device cannot run (exact sums on a GPU where the library has no kernels for
them) and for a torch tensor that autograd tracks (requires_grad in grad mode: the package computes
no gradients yet; pass x.detach()), RuntimeError for a failure at run time; each carries the
library's message.
"""
from __future__ import annotations

import math
import operator
from typing import Any, Optional, Protocol, Sequence, Union

from . import _core
from . import _dtypes as dt
from ._arrays import BY_TYPE, CPU, framework_of

__all__ = ["sum", "prod", "min", "max", "argmin", "argmax", "sum_abs", "sum_squares", "max_abs",
           "norm", "dot", "segment_reduce", "backend", "device_count", "set_cpu_threads", "__version__"]

_v = _core.version()
__version__ = f"{_v // 10000}.{_v // 100 % 100}.{_v % 100}"

Axis = Union[None, int, Sequence[int]]


class Reduction(Protocol):
    """The signature of sum, prod, min, max, sum_abs, sum_squares, max_abs and norm."""

    def __call__(self, x: Any, axis: Axis = None, dtype: Any = None, keepdims: bool = False,
                 out: Any = None) -> Any: ...


class ArgReduction(Protocol):
    """The signature of argmin and argmax."""

    def __call__(self, x: Any, axis: Optional[int] = None, keepdims: bool = False, out: Any = None,
                 return_value: bool = False) -> Any: ...


def backend() -> str:
    """The GPU backend libhipreduce was built with: 'cuda', 'amd' or 'cpu' (cpu: host arrays only)."""
    return _core.backend()


def device_count() -> int:
    """Number of GPUs the library's runtime sees (0 on the cpu backend or without a GPU)."""
    return _core.device_count()


def set_cpu_threads(threads: int) -> None:
    """Threads the calling thread's reductions of host arrays may use (0, the default: every core the
    process may run on; 1: the calling thread only). The result's bits do not depend on it."""
    _core.set_cpu_threads(operator.index(threads))


def _layout(fw, x, axis, keepdims):
    """(outer, extent, inner, result shape) of reducing axis (None: all) of x; the result keeps the
    reduced axes as 1 with keepdims. A tuple of axes must be adjacent (one axis of a reshaped view)."""
    if axis is None:  # the common case first: no shape tuple needed
        return 1, fw.size(x), 1, (1,) * fw.ndim(x) if keepdims else ()
    shape = fw.shape(x)
    ndim = len(shape)
    if isinstance(axis, (tuple, list)):
        axes = sorted(_normalize_axis(a, ndim) for a in axis)
        if not axes:
            raise ValueError("hipreduce: axis=() reduces nothing")
        if len(set(axes)) != len(axes):
            raise ValueError("hipreduce: repeated axis in axis")
        if axes != list(range(axes[0], axes[-1] + 1)):
            raise ValueError(f"hipreduce: axes {tuple(axis)} are not adjacent (reduce one at a time)")
        lo, hi = axes[0], axes[-1] + 1
    else:
        lo = _normalize_axis(axis, ndim)
        hi = lo + 1
    outer, extent, inner = math.prod(shape[:lo]), math.prod(shape[lo:hi]), math.prod(shape[hi:])
    kept = (1,) * (hi - lo) if keepdims else ()
    return outer, extent, inner, tuple(shape[:lo]) + kept + tuple(shape[hi:])


def _normalize_axis(axis, ndim):
    try:
        a = operator.index(axis)
    except TypeError:
        raise TypeError(f"hipreduce: axis must be None, an int or a tuple of ints, not {axis!r}") from None
    if not -ndim <= a < ndim:
        raise ValueError(f"hipreduce: axis {a} is out of bounds for an array of dimension {ndim}")
    return a % ndim


def _checked_out(fw, out, shape, code, device):
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


def _out_target(fw, out, shape, code, x, *inputs):
    """What the library writes for out: out itself, or, where out may share memory with an input, a
    new array of out's shape and dtype, copied into out after the call (numpy's rule: the result is
    that of an out apart from the inputs)."""
    for a in (x,) + inputs:
        if fw.overlaps(out, a):
            return fw.empty(shape, code, x)
    return out


def _code_of(dtype):
    return None if dtype is None else dt.code_of(dtype)


def _prepare(x, differentiable=True):
    """(framework, x made C-contiguous, its dtype code, its device). differentiable: the result would
    carry a gradient in the framework (a torch tensor that autograd tracks is then refused)."""
    fw = BY_TYPE.get(type(x))
    if fw is None:
        fw, x = framework_of(x)
    x, code, device = fw.prepare(x, differentiable)
    return fw, x, code, device


def _check_exact(op, code):
    if op in dt.EXACT_OPS and code not in dt.FLOATS:
        raise TypeError(f"hipreduce: exact=True sums float inputs only, not {dt.NAMES[code]} (an integer sum is "
                        "exact modulo 2**bits already)")


# A whole-tensor reduction of a torch tensor (axis=None, no dtype=, no keepdims) first tries
# _core.reduce_whole, which reads the tensor and calls the library in one native call (None: not its
# case). Otherwise _reduce below, which runs on every other call: for a small GPU array its cost is
# the package's overhead over the C call (bench/python_overhead.py), so it reads each attribute once
# and allocates only the result.
_reduce_whole = _core.reduce_whole


def _reduce(op, x, axis, dtype, keepdims, out):
    fw = BY_TYPE.get(type(x))  # _prepare and _layout's first case, inlined: each call costs 50-100 ns
    if fw is None:
        fw, x = framework_of(x)
    x, code, device = fw.prepare(x)
    _check_exact(op, code)
    if axis is None and not keepdims:
        outer, extent, inner, shape = 1, fw.size(x), 1, ()
    else:
        outer, extent, inner, shape = _layout(fw, x, axis, keepdims)
    if extent == 0 and op in dt.NO_IDENTITY:
        raise ValueError(f"hipreduce: {_OP_NAMES[op]} of an empty axis (no identity, as in numpy)")
    if out is None:  # the result dtype: dtype=, else out's, else the framework's default
        out_code = fw.defaults[op][code] if dtype is None else dt.code_of(dtype)
        res = fw.empty(shape, out_code, x)
    else:
        out_code = _checked_out(fw, out, shape, _code_of(dtype), device)
        res = _out_target(fw, out, shape, out_code, x)
    _core.reduce_axis(device, fw.stream(device), op, code, fw.memory(x, code), outer, extent, inner,
                      out_code, fw.memory(res, out_code))
    if out is not None:
        if res is not out:
            fw.copy_into(out, res)
        return out
    return fw.scalar(res) if not keepdims and axis is None else res


def _argreduce(op, x, axis, keepdims, out, return_value):
    fw, x, code, device = _prepare(x, differentiable=return_value)  # indices carry no gradient
    if isinstance(axis, (tuple, list)):
        raise TypeError("hipreduce: argmin/argmax take one axis or None (a flat index), not a tuple")
    outer, extent, inner, shape = _layout(fw, x, axis, keepdims)
    if extent == 0:
        raise ValueError(f"hipreduce: {_OP_NAMES[op]} of an empty axis (no identity, as in numpy)")
    if out is None:
        indices = fw.empty(shape, dt.I64, x)
    else:
        _checked_out(fw, out, shape, dt.I64, device)
        indices = _out_target(fw, out, shape, dt.I64, x)
    values = fw.empty(shape, code, x)
    _core.argreduce_axis(device, fw.stream(device), op, code, fw.memory(x, code), outer, extent, inner,
                         fw.memory(values, code), fw.memory(indices, dt.I64))
    if out is not None and indices is not out:
        fw.copy_into(out, indices)
        indices = out
    if out is None and not keepdims and axis is None:
        indices, values = fw.scalar(indices), fw.scalar(values)
    return (values, indices) if return_value else indices


_OP_NAMES = {v: k for k, v in dt.OPS.items()}

_REDUCE_DOC = """{summary}

    x: a numpy array (or array-like), torch tensor or cupy array of int8..uint64, float16, bfloat16
    (torch, or numpy with ml_dtypes), float32 or float64.
    axis: None (every element), an int (negative counts from the end) or a tuple of adjacent axes.
    dtype: the result dtype; default {default}. The library allows {allowed}; any other is a TypeError.
    keepdims: keep the reduced axes as size 1.
    out: an array of the input's framework and device, C-contiguous, of the result's shape and dtype
    (without dtype=, out's dtype is the result dtype); it may share memory with x (the result is then
    computed apart and copied into out).

    The result has the same bits on every GPU and on the CPU (the library's default order); see the
    package docstring. {extra}
    """


def _reduction(op_name: str, summary: str, default: str, allowed: str, extra: str = "") -> Reduction:
    op = dt.OPS[op_name]

    def reduction(x: Any, axis: Axis = None, dtype: Any = None, keepdims: bool = False, out: Any = None) -> Any:
        if axis is None and dtype is None and not keepdims:
            r = _reduce_whole(op, x, -1, out)
            if r is not None:
                return r
        return _reduce(op, x, axis, dtype, keepdims, out)

    reduction.__name__ = reduction.__qualname__ = op_name
    reduction.__doc__ = _REDUCE_DOC.format(summary=summary, default=default, allowed=allowed, extra=extra)
    return reduction


_SUM_DEFAULT = ("int64 for signed integers (and, for torch tensors, every integer but uint64), "
                "uint64 for unsigned ones, the input's dtype for floats (float16/bfloat16 "
                "accumulate in float32)")
_SUM_ALLOWED = ("an integer into the same or a wider integer of its signedness or int64/uint64; "
                "float16/bfloat16 into themselves, float32 or float64; float32 into float32 or "
                "float64; float64 into float64")

_SUM, _SUM_EXACT = dt.OPS["sum"], dt.OPS["sum_exact"]

_EXACT_DOC = """exact: False (the default) sums in the library's fixed order: the same bits everywhere, with
    the rounding error of a float sum in that order. True gives the exact sum: the real sum of the
    elements, with no rounding, overflow or lost digits on the way, rounded once (to nearest even)
    into the result dtype; so its bits depend only on the values, not on their order, the axis,
    the device or the thread count. Floats only (TypeError for integers, whose sums are exact
    already); the result dtype as without exact. Any NaN, or +inf with -inf, gives NaN; else an
    infinity gives itself; a rounding past the largest finite value gives an infinity; an exact
    zero is +0.0, or -0.0 when every element is -0.0 (and there is at least one). Where the device
    cannot run it (a GPU handle set to a study algorithm; GPUs before libhipreduce 0.2.2)
    NotImplementedError carrying the library's message."""


def sum(x: Any, axis: Axis = None, dtype: Any = None, keepdims: bool = False, out: Any = None,
        exact: bool = False) -> Any:
    op = _SUM_EXACT if exact else _SUM
    if axis is None and dtype is None and not keepdims:
        r = _reduce_whole(op, x, -1, out)
        if r is not None:
            return r
    return _reduce(op, x, axis, dtype, keepdims, out)


sum.__doc__ = _REDUCE_DOC.format(summary="Sum of the elements (numpy.sum).", default=_SUM_DEFAULT,
                                 allowed=_SUM_ALLOWED, extra=_EXACT_DOC)
prod = _reduction("prod", "Product of the elements (numpy.prod).", _SUM_DEFAULT, _SUM_ALLOWED)
sum_abs = _reduction("sum_abs", "Sum of |x| (BLAS asum, numpy.abs(x).sum() without the temporary).",
                     _SUM_DEFAULT, _SUM_ALLOWED)
sum_squares = _reduction("sum_squares", "Sum of x*x (without the temporary).", _SUM_DEFAULT, _SUM_ALLOWED)
min = _reduction("min", "Minimum (numpy.min); an empty axis is a ValueError, as in numpy.",
                 "the input's dtype", "the input's dtype only",
                 "Any NaN gives the canonical quiet NaN; -0.0 is below +0.0.")
max = _reduction("max", "Maximum (numpy.max); an empty axis is a ValueError, as in numpy.",
                 "the input's dtype", "the input's dtype only",
                 "Any NaN gives the canonical quiet NaN; -0.0 is below +0.0.")
max_abs = _reduction("max_abs", "Maximum of |x| (BLAS amax's value; 0 for an empty axis).",
                     "the input's dtype for floats, the unsigned integer of the same width for integers "
                     "(|-128| is 128 as uint8)", "only the default")
norm = _reduction("norm", "Euclidean norm, sqrt(sum of x*x) (BLAS nrm2, numpy.linalg.norm of a vector), "
                  "without overflow or underflow in between.",
                  "float32 for float16, bfloat16 and float32, float64 for float64",
                  "float32 or float64 for float inputs (integers are a TypeError)")


def _arg_reduction(op_name: str, extreme: str) -> ArgReduction:
    op = dt.OPS[op_name]

    def arg_reduction(x: Any, axis: Optional[int] = None, keepdims: bool = False, out: Any = None,
                      return_value: bool = False) -> Any:
        return _argreduce(op, x, axis, keepdims, out, return_value)

    arg_reduction.__name__ = arg_reduction.__qualname__ = op_name
    arg_reduction.__doc__ = f"""Index of the first {extreme} (numpy.{op_name}): int64, along axis or of the
    flattened array (axis=None).

    Any NaN gives the first NaN's index; -0.0 is below +0.0. An empty axis is a ValueError (as in
    numpy). out: an int64 array for the indices. return_value=True returns (values, indices): the
    {extreme} in the input's dtype with its index, from the same pass. Same bits on every device.
    """
    return arg_reduction


argmin = _arg_reduction("argmin", "minimum")
argmax = _arg_reduction("argmax", "maximum")


def dot(x: Any, y: Any, dtype: Any = None, out: Any = None, exact: bool = False) -> Any:
    """Sum of x*y over every element (numpy.vdot of real arrays): x and y of one dtype and shape.

    The default result dtype is sum's (int64 for small signed integers, not the input dtype that
    numpy.dot wraps around in); each product is rounded once in the result dtype's arithmetic
    (float16/bfloat16 in float32, where it is exact), never fused with the add. Same bits on every
    device. out: a 0-d array of the result dtype.

    exact=True (floats only): the exact sum of the exact products x[i]*y[i], rounded once into the
    result dtype, under sum(exact=True)'s rules; a product of a NaN, or of an infinity and a zero,
    is NaN, of an infinity and a nonzero number an infinity of the product's sign, and a zero
    product has the sign of x*y. Its bits depend only on the pairs (x[i], y[i]), not their order.
    NotImplementedError where the device cannot run it (see sum).
    """
    op = dt.OPS_DOT_EXACT if exact else dt.OPS_DOT
    fw, x, code, device = _prepare(x)
    _check_exact(op, code)
    fw_y, y = framework_of(y)
    if fw_y is not fw:
        raise TypeError("hipreduce: dot of arrays of two frameworks")
    y, code_y, device_y = fw.prepare(y)
    if code_y != code:
        raise TypeError(f"hipreduce: dot of {dt.NAMES[code]} and {dt.NAMES[code_y]} (cast one first)")
    if device_y != device:
        raise ValueError("hipreduce: dot of arrays on two devices")
    if tuple(fw.shape(x)) != tuple(fw.shape(y)):
        raise ValueError(f"hipreduce: dot of shapes {tuple(fw.shape(x))} and {tuple(fw.shape(y))}")
    n = fw.size(x)
    if out is None:
        out_code = fw.defaults[op][code] if dtype is None else dt.code_of(dtype)
        res = fw.empty((), out_code, x)
    else:
        out_code = _checked_out(fw, out, (), _code_of(dtype), device)
        res = _out_target(fw, out, (), out_code, x, y)
    _core.dot(device, fw.stream(device), op, code, fw.memory(x, code), fw.memory(y, code), n, out_code,
              fw.memory(res, out_code))
    if out is None:
        return fw.scalar(res)
    if res is not out:
        fw.copy_into(out, res)
    return out


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
    fw, x, code, device = _prepare(x, differentiable=code_op not in dt.ARG_OPS)
    _check_exact(code_op, code)
    shape = tuple(fw.shape(x))
    if len(shape) != 1:
        raise ValueError(f"hipreduce: segment_reduce takes a 1-d array, not shape {shape}")
    n = shape[0]
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
            _checked_out(fw, out, (num_segments,), dt.I64, device)
            indices = _out_target(fw, out, (num_segments,), dt.I64, x, off)
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
        out_code = _checked_out(fw, out, (num_segments,), _code_of(dtype), device)
        res = _out_target(fw, out, (num_segments,), out_code, x, off)
    _core.reduce_segments(device, stream, code_op, code, fw.memory(x, code), n, num_segments, off_memory,
                          out_code, fw.memory(res, out_code))
    if out is not None and res is not out:
        fw.copy_into(out, res)
        return out
    return res

