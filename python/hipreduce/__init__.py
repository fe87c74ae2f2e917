"""hipreduce: reproducible reductions over numpy, cupy and torch arrays, on the GPU and the CPU.

Every function reduces with libhipreduce's default algorithm, whose order is fixed by element index:
the result has the same bits on every GPU (NVIDIA or AMD, any warp width) and on the CPU device, run
after run. Each result has exactly the bits of the same function over its own elements alone, taken
in the row-major order of the reduced axes (a contiguous copy of them): so the bits do not depend on
the array's layout (a transposed, strided, broadcast or channels-last view gives those of its
contiguous copy), nor on the kept axes. Integer results are exact modulo 2**bits of the result dtype;
float16 and bfloat16 accumulate in float32 and round once; min/max give the canonical NaN for any NaN
and order -0.0 below +0.0; argmin/argmax give the first index of the extreme (of the first NaN if
any).

Arrays stay where they are: a numpy array (or anything numpy.asarray reads) is reduced by the CPU
device and gives numpy results (a numpy scalar for axis=None); a torch tensor gives a torch tensor
(0-d for axis=None) and a cupy array a cupy array, on the input's device. On a GPU the result is
written in device memory, ordered on the framework's current stream (cupy's current stream,
torch.cuda.current_stream()); nothing waits for the GPU unless the caller reads the value. Each
thread's next call on that GPU from another stream orders its stream after that one (an event, no
host wait): cupy streams are kept alive for that, torch never frees its own; a stream wrapped with
ExternalStream must exist until then (destroying it earlier is undefined in CUDA/HIP). An input of
any layout is reduced where it lies, through its strides (negative and zero ones included), without
a copy; the copies left: a byte-swapped numpy array is converted to the native order, an array of
more than 8 dimensions (the library's most), or with strides that are not whole elements, is reduced
from a contiguous copy, and segment_reduce and reduce_by_key copy a non-contiguous input. An out=
that shares memory with an input gets the result of an out apart from it (numpy's rule: computed
into a new array, then copied into out).

Statistics (hipreduce.h's block of that name), each one pass of the library over any axes, its bits:
mean, nansum, nanmean, var, std, var_mean, std_mean, logsumexp, nanmin and nanmax give the input's
float dtype (dtype= another where the library allows it). An integer or bool input to mean, nanmean,
var, std, var_mean, std_mean or logsumexp, which the library takes in floats only, is reduced from a
float64 copy: numpy's result dtype, for every framework (torch.mean refuses integer tensors; exact for
integers up to 2**53); nansum, nanmin and nanmax of integers, which hold no NaN, are sum, min and max
(numpy's rule). count_nonzero gives int64, all and any bool (the library's bytes 0 and 1), over any
dtype, bool included. var and std divide by max(n - correction, 0): correction= (the array API's),
ddof= (numpy's) or unbiased= (torch's); the default is each framework's own, 0 for numpy and cupy
arrays, 1 for torch tensors. var_mean and std_mean return (var or std, mean) from one pass and take
out=(a, b). No element: mean, nanmean, var and std give NaN, nansum 0, logsumexp -inf, all True;
nanmin and nanmax raise ValueError (as numpy); an all-NaN slice gives NaN (numpy's warnings are not
issued). aminmax returns (min, max) from one pass (torch.aminmax), every dtype into itself, each with
the bits of min and max alone, and takes out=(a, b); an empty axis is a ValueError. nanargmin and
nanargmax are argmin and argmax with NaNs skipped (one pass; integers: argmin's and argmax's result); a
slice of NaNs only is numpy's ValueError for numpy arrays and index -1 for torch and cupy arrays.

Errors: TypeError for a dtype the library does not reduce or a result dtype it does not allow for
the operator, ValueError for a bad axis, shape, out, offsets or keys, NotImplementedError (a
RuntimeError) for valid arguments the device cannot run (exact sums on a GPU where the library has
no kernels for them) and for a torch tensor that autograd tracks (requires_grad in grad mode: these
functions compute no gradients; hipreduce.torch's operators do, or pass x.detach()), RuntimeError for a failure at run time; each
carries the library's message.
"""
from __future__ import annotations

import operator
from typing import Any, Optional, Protocol, Sequence, Union

from . import _calls as _c
from . import _core
from . import _dtypes as dt
from ._arrays import BY_TYPE, framework_of
from ._keyed import reduce_by_key, segment_reduce
from ._scatter import make as _make_scatter
from ._stats import all, any, count_nonzero, logsumexp, mean, nanmax, nanmean, nanmin, nansum  # noqa: A004
from ._stats import aminmax, std, std_mean, var, var_mean

__all__ = ["sum", "prod", "min", "max", "argmin", "argmax", "sum_abs", "sum_squares", "max_abs",
           "norm", "dot", "vdot", "segment_reduce", "reduce_by_key", "index_add", "scatter_reduce", "bincount",
           "unsorted_segment_reduce", "mean", "nansum", "nanmean", "count_nonzero",
           "all", "any", "var", "std", "var_mean", "std_mean", "logsumexp", "nanmin", "nanmax", "nanargmin",
           "nanargmax", "aminmax", "backend",
           "device_count", "set_cpu_threads", "__version__"]

_v = _core.version()
__version__ = f"{_v // 10000}.{_v // 100 % 100}.{_v % 100}"

Axis = Union[None, int, Sequence[int]]

# torch's, numpy's and TensorFlow's names of reductions by key (_scatter): wrappers of reduce_by_key.
index_add, scatter_reduce, bincount, unsorted_segment_reduce = _make_scatter(reduce_by_key, plain=True)


class Reduction(Protocol):
    """The signature of sum, prod, min, max, sum_abs, sum_squares, max_abs and norm."""

    def __call__(self, x: Any, axis: Axis = None, dtype: Any = None, keepdims: bool = False,
                 out: Any = None, *, dim: Axis = None, keepdim: Optional[bool] = None) -> Any: ...


class ArgReduction(Protocol):
    """The signature of argmin and argmax."""

    def __call__(self, x: Any, axis: Optional[int] = None, keepdims: bool = False, out: Any = None,
                 return_value: bool = False, *, dim: Optional[int] = None,
                 keepdim: Optional[bool] = None) -> Any: ...


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


# A whole-tensor reduction of a C-contiguous torch tensor (axis=None, no dtype=, no keepdims) first
# tries _core.reduce_whole, which reads the tensor and calls the library in one native call (None: not
# its case). Otherwise _reduce below, the one path of every other call (_calls.run: a plan over the
# input's strides): for a small GPU array its cost is the package's overhead over the C call
# (bench/python_overhead.py), so it reads each attribute once and allocates only the result.
_reduce_whole = _core.reduce_whole


def _reduce(op, x, axis, dtype, keepdims, out):
    fw = BY_TYPE.get(type(x))  # _calls.prepare, inlined: each call costs 50-100 ns
    if fw is None:
        fw, x = framework_of(x)
    x, code, device = fw.prepare(x)
    if op in dt.EXACT_OPS:
        _c.check_exact(op, code)
    if axis is None and not keepdims and op not in dt.NO_IDENTITY:  # _calls.axes' common case
        mask, shape = -1, ()
    else:
        mask, shape = _c.axes(fw, x, axis, keepdims, op)
    if out is None:  # the result dtype: dtype=, else out's, else the framework's default
        out_code = fw.defaults[op][code] if dtype is None else dt.code_of(dtype)
        res = fw.empty(shape, out_code, x)
    else:
        out_code = _c.checked_out(fw, out, shape, _c.code_of(dtype), device)
        res = _c.out_target(fw, out, shape, out_code, x)
    # _calls.run's first step, inlined (a frame less on the path of small calls).
    if not _core.reduce_plan(device, fw.stream(device), op, code, out_code, fw.tensor(x, code), None, mask,
                             fw.memory(res, out_code), None):
        _c.run(fw, device, op, code, out_code, x, None, mask, res, None)
    if out is not None:
        if res is not out:
            fw.copy_into(out, res)
        return out
    return fw.scalar(res) if not keepdims and axis is None else res


def _argreduce(op, x, axis, keepdims, out, return_value):
    fw, x, code, device = _c.prepare(x, differentiable=return_value)  # indices carry no gradient
    if isinstance(axis, (tuple, list)):  # numpy's rule for its arg functions
        raise TypeError("hipreduce: argmin/argmax take one axis or None (a flat index), not a tuple")
    nan_aware = op in _NANARG_PLAIN
    if nan_aware and code not in dt.FLOATS:  # an integer holds no NaN: argmin's and argmax's
        op, nan_aware = _NANARG_PLAIN[op], False
    mask, shape = _c.axes(fw, x, axis, keepdims, op)
    if out is None:
        indices = fw.empty(shape, dt.I64, x)
    else:
        _c.checked_out(fw, out, shape, dt.I64, device)
        indices = _c.out_target(fw, out, shape, dt.I64, x)
    values = fw.empty(shape, code, x)
    _c.run(fw, device, op, code, code, x, None, mask, values, indices)
    if nan_aware:
        fw.all_nan_slices(values, indices)
    if out is not None and indices is not out:
        fw.copy_into(out, indices)
        indices = out
    if out is None and not keepdims and axis is None:
        indices, values = fw.scalar(indices), fw.scalar(values)
    return (values, indices) if return_value else indices


_REDUCE_DOC = """{summary}

    x: a numpy array (or array-like), torch tensor or cupy array of int8..uint64, float16, bfloat16
    (torch, or numpy with ml_dtypes), float32 or float64, of any layout (reduced where it lies).
    axis: None (every element), an int (negative counts from the end) or a tuple of any axes (a
    repeated one is a ValueError, as in numpy; () reduces nothing: op of each element alone).
    dtype: the result dtype; default {default}. The library allows {allowed}; any other is a TypeError.
    keepdims: keep the reduced axes as size 1.
    out: an array of the input's framework and device, C-contiguous, of the result's shape and dtype
    (without dtype=, out's dtype is the result dtype); it may share memory with x (the result is then
    computed apart and copied into out).
    dim, keepdim: torch's names of axis and keepdims, for torch tensors.

    Each result has the bits of the function over its elements alone (a contiguous copy of them, in
    the row-major order of the reduced axes), the same on every GPU and on the CPU, whatever the
    layout; see the package docstring. {extra}
    """


def _reduction(op_name: str, summary: str, default: str, allowed: str, extra: str = "") -> Reduction:
    op = dt.OPS[op_name]

    def reduction(x: Any, axis: Axis = None, dtype: Any = None, keepdims: bool = False, out: Any = None, *,
                  dim: Axis = None, keepdim: Optional[bool] = None) -> Any:
        if dim is not None or keepdim is not None:
            axis, keepdims = _c.torch_aliases(x, axis, keepdims, dim, keepdim)
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
        exact: bool = False, *, dim: Axis = None, keepdim: Optional[bool] = None) -> Any:
    op = _SUM_EXACT if exact else _SUM
    if dim is not None or keepdim is not None:
        axis, keepdims = _c.torch_aliases(x, axis, keepdims, dim, keepdim)
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


_NANARG_PLAIN = {dt.NANARG["nanargmin"]: dt.OPS["argmin"], dt.NANARG["nanargmax"]: dt.OPS["argmax"]}


def _arg_reduction(op_name: str, extreme: str, nan_rule: str = "Any NaN gives the first NaN's index") -> ArgReduction:
    op = dt.OPS[op_name] if op_name in dt.OPS else dt.NANARG[op_name]

    def arg_reduction(x: Any, axis: Optional[int] = None, keepdims: bool = False, out: Any = None,
                      return_value: bool = False, *, dim: Optional[int] = None,
                      keepdim: Optional[bool] = None) -> Any:
        if dim is not None or keepdim is not None:
            axis, keepdims = _c.torch_aliases(x, axis, keepdims, dim, keepdim)
        return _argreduce(op, x, axis, keepdims, out, return_value)

    arg_reduction.__name__ = arg_reduction.__qualname__ = op_name
    arg_reduction.__doc__ = f"""Index of the first {extreme} (numpy.{op_name}): int64, along axis or of the
    flattened array (axis=None: the row-major index, whatever the layout).

    axis: None or one int (a tuple is a TypeError, as in numpy). {nan_rule};
    -0.0 is below +0.0. An empty axis is a ValueError (as in numpy). out: an int64 array for the
    indices. return_value=True returns (values, indices): the {extreme} in the input's dtype with its
    index, from the same pass. dim, keepdim: torch's names of axis and keepdims, for torch tensors.
    Same bits on every device.
    """
    return arg_reduction


argmin = _arg_reduction("argmin", "minimum")
argmax = _arg_reduction("argmax", "maximum")
_NAN_RULE = ("NaNs are skipped (integers, which hold none: argmin's and argmax's result); a slice of NaNs only is "
             "a ValueError for numpy arrays (numpy's rule) and index -1 for torch and cupy arrays (cupy's, without a "
             "wait for the GPU), with value NaN")
nanargmin = _arg_reduction("nanargmin", "minimum", _NAN_RULE)
nanargmax = _arg_reduction("nanargmax", "maximum", _NAN_RULE)


def dot(x: Any, y: Any, dtype: Any = None, out: Any = None, exact: bool = False, axis: Axis = None,
        keepdims: bool = False) -> Any:
    """Sum of x*y (numpy.vdot of real arrays, numpy.dot of complex vectors: no conjugation; or along
    axes): x and y of one dtype and shape, each of any layout.

    axis: None (every element: one result), an int or a tuple of any axes, as in sum; keepdims keeps
    them as size 1. The default result dtype is sum's (int64 for small signed integers, not the input
    dtype that numpy.dot wraps around in); each product is rounded once in the result dtype's
    arithmetic (float16/bfloat16 in float32, where it is exact), never fused with the add. Each result
    has the bits of dot over its pairs alone (in the row-major order of the reduced axes), the same on
    every device. out: an array of the result's shape and dtype (0-d for axis=None).

    exact=True (floats only): the exact sum of the exact products x[i]*y[i], rounded once into the
    result dtype, under sum(exact=True)'s rules; a product of a NaN, or of an infinity and a zero,
    is NaN, of an infinity and a nonzero number an infinity of the product's sign, and a zero
    product has the sign of x*y. Its bits depend only on the pairs (x[i], y[i]), not their order.
    NotImplementedError where the device cannot run it (see sum).
    """
    return _dot(dt.OPS_DOT_EXACT if exact else dt.OPS_DOT, x, y, dtype, out, axis, keepdims)


def vdot(x: Any, y: Any, dtype: Any = None, out: Any = None, axis: Axis = None, keepdims: bool = False) -> Any:
    """Sum of conj(x)*y (numpy.vdot; BLAS cdotc/zdotc): dot with x conjugated, for complex64 and
    complex128 (real inputs: dot's sum of x*y). The result keeps the input's complex dtype (complex64
    may go into complex128); each product (ac + bd) + (ad - bc)i of x = a + bi, y = c + di is rounded
    as the library's complex rules say (hipreduce.h's block "Complex"), never fused with the add.
    axis, keepdims, out: as in dot. Same bits on every device.
    """
    return _dot(dt.OPS_DOTC, x, y, dtype, out, axis, keepdims)


def _dot(op, x, y, dtype, out, axis, keepdims):
    fw, x, code, device = _c.prepare(x)
    if op == dt.OPS_DOTC and code not in dt.COMPLEX:
        op = dt.OPS_DOT  # a real conj(x) is x
    _c.check_exact(op, code)
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
    mask, shape = _c.axes(fw, x, axis, keepdims, op)
    if out is None:
        out_code = fw.defaults[op][code] if dtype is None else dt.code_of(dtype)
        res = fw.empty(shape, out_code, x)
    else:
        out_code = _c.checked_out(fw, out, shape, _c.code_of(dtype), device)
        res = _c.out_target(fw, out, shape, out_code, x, y)
    _c.run(fw, device, op, code, out_code, x, y, mask, res, None)
    if out is None:
        return fw.scalar(res) if axis is None and not keepdims else res
    if res is not out:
        fw.copy_into(out, res)
    return out
