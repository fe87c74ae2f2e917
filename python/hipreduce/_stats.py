"""The statistics of hipreduce.h's block of that name: mean, nansum, nanmean, count_nonzero, all, any,
var, std, var_mean, std_mean, logsumexp, nanmin, nanmax and aminmax, each over any axes in one plan run of the
library, so every value is the library's bits (nothing is computed here). resolve() holds the dtype
rules (which inputs are converted to a float first, which run the plain op); hipreduce.torch's fake
functions take them from here too. The package docstring states the choices.
"""
from __future__ import annotations

import numbers
import sys
from typing import Any, Optional, Protocol, Sequence, Union

import numpy as np

from . import _calls as _c
from . import _core
from . import _dtypes as dt
from ._arrays import BY_TYPE, framework_of, is_torch

Axis = Union[None, int, Sequence[int]]

(MEAN, NANSUM, NANMEAN, COUNT_NONZERO, ALL, ANY, VAR, STD, VAR_MEAN, STD_MEAN, LOGSUMEXP, NANMIN, NANMAX,
 AMINMAX) = (dt.STATS[n] for n in ("mean", "nansum", "nanmean", "count_nonzero", "all", "any", "var", "std",
                                   "var_mean", "std_mean", "logsumexp", "nanmin", "nanmax", "aminmax"))
COUNTS = frozenset((COUNT_NONZERO, ALL, ANY))  # every dtype (bool read as uint8's 0 and 1), no gradient
# Float inputs only in the library: an integer or bool input is reduced from a float copy (float64, or dtype=).
CONVERTED = frozenset((MEAN, NANMEAN, VAR, STD, VAR_MEAN, STD_MEAN, LOGSUMEXP))
CORRECTED = frozenset((VAR, STD, VAR_MEAN, STD_MEAN))
TWO_RESULTS = dt.TWO_RESULTS  # var_mean, std_mean (and the mean), aminmax (min and max)
# An integer holds no NaN: nansum, nanmin and nanmax of integers are sum, min and max (numpy's rule).
PLAIN = {NANSUM: dt.OPS["sum"], NANMIN: dt.OPS["min"], NANMAX: dt.OPS["max"]}
# The ops of hipreduce_reduce itself, which the whole-tensor path (_core.reduce_whole) runs.
_WHOLE = frozenset((MEAN, NANSUM, NANMEAN, COUNT_NONZERO, LOGSUMEXP, NANMIN, NANMAX))
_reduce_whole = _core.reduce_whole


def resolve(op, code, want, defaults):
    """(the op the library runs, the code the input is converted to first or -1, the result code) of
    statistic op on an input of code. want: the result code asked for (dtype=, or out='s dtype) or
    None; defaults: the framework's default results [op][code] (those of sum, min, max)."""
    if op == AMINMAX:  # every dtype into itself
        return op, -1, code if want is None else want
    if code in dt.COMPLEX and op not in COUNTS:  # not the sum's or min's results: numpy's are other
        name = next(k for k, v in dt.STATS.items() if v == op)
        raise TypeError(f"hipreduce: {name} of {dt.NAMES[code]} is not supported (the statistics take real "
                        "inputs; complex ones take sum, prod, dot, vdot, sum_squares and norm)")
    if op in COUNTS:
        return op, -1, dt.I64 if op == COUNT_NONZERO else dt.U8
    if code in dt.FLOATS:
        return op, -1, code if want is None else want
    if op in PLAIN:
        plain = PLAIN[op]
        return plain, -1, defaults[plain][code] if want is None else want
    to = dt.F64 if want is None else want
    return op, (to if to in dt.FLOATS else -1), to  # an integer result: the library's refusal


def correction_of(correction, ddof, unbiased, torch_tensor):
    """var's and std's correction from correction= (the array API's), ddof= (numpy's) or unbiased=
    (torch's, for torch tensors): one of them; none gives the framework's default, 1 for torch tensors
    (torch.var) and 0 otherwise (numpy.var)."""
    given = [n for n, v in (("correction", correction), ("ddof", ddof), ("unbiased", unbiased)) if v is not None]
    if len(given) > 1:
        raise TypeError(f"hipreduce: {' and '.join(given)} name the same argument: pass one")
    if unbiased is not None:
        if not torch_tensor:
            raise TypeError("hipreduce: unbiased= is torch's spelling, for torch tensors (use correction= or ddof=)")
        return 1.0 if unbiased else 0.0
    c = correction if correction is not None else ddof
    if c is None:
        return 1.0 if torch_tensor else 0.0
    if not isinstance(c, bool) and isinstance(c, (int, float, numbers.Real)):  # numpy's scalars too
        return float(c)
    raise TypeError(f"hipreduce: the correction must be a real number, not {c!r}")


def _as_uint8(a):
    """a bool array or tensor as uint8 (the same bytes, strides and memory); any other a itself."""
    d = a.dtype
    if isinstance(d, np.dtype):  # numpy and cupy
        return a.view(np.uint8) if d.kind == "b" else a
    torch = sys.modules["torch"]
    return a.view(torch.uint8) if d == torch.bool else a


def _as_bool(a):
    """all's and any's uint8 result (0 or 1) as the framework's bool."""
    if isinstance(a.dtype, np.dtype):
        return a.view(np.bool_)
    return a.view(sys.modules["torch"].bool)


def _outs(fw, op, out):
    """out as a tuple of the arrays the library writes (bool ones as uint8): two for var_mean and
    std_mean, which take out=(var or std, mean), and aminmax, out=(min, max)."""
    if op in TWO_RESULTS:
        if not isinstance(out, tuple) or len(out) != 2:
            what = "min and the max" if op == AMINMAX else f"{_c.OP_NAMES[op][:3]} and the mean"
            raise TypeError(f"hipreduce: {_c.OP_NAMES[op]}'s out is a tuple of two arrays (the {what})")
        if fw.is_array(out[0]) and fw.is_array(out[1]) and fw.overlaps(*out):
            raise ValueError("hipreduce: out's two arrays share memory")
        return out
    return (_as_uint8(out) if op in (ALL, ANY) and fw.is_array(out) else out,)


def statistic(op, x, axis, dtype, keepdims, out, correction=0.0):
    """Statistic op of x over axis (the package's rules), into new arrays or out; correction: var's."""
    fw = BY_TYPE.get(type(x))
    if fw is None:
        fw, x = framework_of(x)
    if op in COUNTS or op in CONVERTED:
        x = _as_uint8(x)
    x, code, device = fw.prepare(x, op not in COUNTS)  # counts carry no gradient
    mask, shape = _c.axes(fw, x, axis, keepdims, op)
    if op in COUNTS:
        want = dt.I64 if op == COUNT_NONZERO else dt.U8
    elif op == AMINMAX:
        want = code  # the input's dtype, the only one the library allows (out's too)
    else:
        want = None if dtype is None else dt.code_of(dtype)
    outs = ()
    if out is not None:
        outs = _outs(fw, op, out)
        want = _c.checked_out(fw, outs[0], shape, want, device)
        if len(outs) == 2:
            _c.checked_out(fw, outs[1], shape, want, device)
    run_op, to, out_code = resolve(op, code, want, fw.defaults)
    if to >= 0:  # a float copy of an integer input: numpy's own cast
        converted = fw.empty(tuple(fw.shape(x)), to, x)
        fw.copy_into(converted, x)
        x, code = converted, to
    count = 2 if op in TWO_RESULTS else 1
    if outs:
        res = [_c.out_target(fw, o, shape, out_code, x) for o in outs]
    else:
        res = [fw.empty(shape, out_code, x) for _ in range(count)]
    _c.run(fw, device, run_op, code, out_code, x, None, mask, res[0], None, res[1] if count == 2 else None,
           correction)
    if outs:
        for o, r in zip(outs, res):
            if r is not o:
                fw.copy_into(o, r)
        return out
    if op in (ALL, ANY):
        res = [_as_bool(r) for r in res]
    if axis is None and not keepdims:
        res = [fw.scalar(r) for r in res]
    return tuple(res) if count == 2 else res[0]


class Statistic(Protocol):
    """The signature of mean, nansum, nanmean, logsumexp, nanmin and nanmax."""

    def __call__(self, x: Any, axis: Axis = None, dtype: Any = None, keepdims: bool = False,
                 out: Any = None, *, dim: Axis = None, keepdim: Optional[bool] = None) -> Any: ...


class Count(Protocol):
    """The signature of count_nonzero, all and any."""

    def __call__(self, x: Any, axis: Axis = None, keepdims: bool = False, out: Any = None, *,
                 dim: Axis = None, keepdim: Optional[bool] = None) -> Any: ...


class Moment(Protocol):
    """The signature of var, std, var_mean and std_mean."""

    def __call__(self, x: Any, axis: Axis = None, dtype: Any = None, keepdims: bool = False,
                 out: Any = None, *, correction: Optional[float] = None, ddof: Optional[float] = None,
                 unbiased: Optional[bool] = None, dim: Axis = None, keepdim: Optional[bool] = None) -> Any: ...


_AXES_DOC = """axis: None (every element), an int or a tuple of any axes (() reduces nothing); keepdims keeps
    the reduced axes as size 1; dim, keepdim: torch's names of axis and keepdims, for torch tensors.
    x: a numpy array (or array-like), torch tensor or cupy array of any layout, reduced where it lies."""

_FLOAT_DOC = """{summary}

    {axes}
    dtype: the result dtype; default the input's float dtype (float16/bfloat16 accumulate in float32
    and round once). The library allows {allowed}; any other is a TypeError. {ints}
    out: an array of the input's framework and device, C-contiguous, of the result's shape (without
    dtype=, out's dtype is the result dtype).

    {semantics} One pass; the same bits on every GPU and the CPU, whatever the layout.
    """
_SUM_FLOATS = ("float16/bfloat16 into themselves, float32 or float64, float32 into float32 or float64, float64 "
               "into float64")
_STAT_FLOATS = "float16/bfloat16 into themselves or float32, float32 into float32, float64 into float64"
_CONVERTED = ("An integer or bool input is reduced from a float64 copy (numpy's result dtype; exact for "
              "integers up to 2**53; dtype= names another float to convert to).")


def _float_statistic(name: str, summary: str, allowed: str, ints: str, semantics: str) -> Statistic:
    op = dt.STATS[name]

    def reduction(x: Any, axis: Axis = None, dtype: Any = None, keepdims: bool = False, out: Any = None, *,
                  dim: Axis = None, keepdim: Optional[bool] = None) -> Any:
        if dim is not None or keepdim is not None:
            axis, keepdims = _c.torch_aliases(x, axis, keepdims, dim, keepdim)
        if axis is None and dtype is None and not keepdims and out is None:
            r = _reduce_whole(op, x, -1, None)
            if r is not None:
                return r
        return statistic(op, x, axis, dtype, keepdims, out)

    reduction.__name__ = reduction.__qualname__ = name
    reduction.__doc__ = _FLOAT_DOC.format(summary=summary, axes=_AXES_DOC, allowed=allowed, ints=ints,
                                          semantics=semantics)
    return reduction


mean = _float_statistic(
    "mean", "Arithmetic mean (numpy.mean, torch.mean).", _SUM_FLOATS, _CONVERTED,
    "The sum's accumulator (the sum's order and bits before its rounding) divided by the element count "
    "once, rounded once: correctly rounded where that sum is exact (integers below 2**53). No element: NaN.")
nansum = _float_statistic(
    "nansum", "Sum with every NaN taken as 0 (numpy.nansum, torch.nansum).", _STAT_FLOATS,
    "Integers hold no NaN: their nansum is sum's (its result dtypes).",
    "The sum's order; 0.0 where every element is NaN or there is none.")
nanmean = _float_statistic(
    "nanmean", "Mean of the elements that are not NaN (numpy.nanmean, torch.nanmean).", _STAT_FLOATS, _CONVERTED,
    "nansum's accumulator divided once by the count of non-NaN elements; NaN where there is none (numpy "
    "warns there; this raises nothing).")
logsumexp = _float_statistic(
    "logsumexp", "log(sum(exp(x))) without overflow (scipy.special.logsumexp, torch.logsumexp).",
    _STAT_FLOATS, _CONVERTED,
    "A running maximum and rescaled sum merged in the library's fixed tree, with its own exp and log: any "
    "NaN gives NaN, else any +inf +inf, else all -inf (or no element) -inf; finite data within hipreduce.h's "
    "stated bound.")
nanmin = _float_statistic(
    "nanmin", "Minimum of the elements that are not NaN (numpy.nanmin); an empty axis is a ValueError.",
    _STAT_FLOATS, "Integers hold no NaN: their nanmin is min's.",
    "-0.0 is below +0.0; NaN (the canonical one) only where every element is NaN (numpy warns there).")
nanmax = _float_statistic(
    "nanmax", "Maximum of the elements that are not NaN (numpy.nanmax); an empty axis is a ValueError.",
    _STAT_FLOATS, "Integers hold no NaN: their nanmax is max's.",
    "-0.0 is below +0.0; NaN (the canonical one) only where every element is NaN (numpy warns there).")


def _count_statistic(name: str, summary: str, result: str) -> Count:
    op = dt.STATS[name]

    def reduction(x: Any, axis: Axis = None, keepdims: bool = False, out: Any = None, *, dim: Axis = None,
                  keepdim: Optional[bool] = None) -> Any:
        if dim is not None or keepdim is not None:
            axis, keepdims = _c.torch_aliases(x, axis, keepdims, dim, keepdim)
        if op == COUNT_NONZERO and axis is None and not keepdims and out is None:
            r = _reduce_whole(op, x, -1, None)
            if r is not None:
                return r
        return statistic(op, x, axis, None, keepdims, out)

    reduction.__name__ = reduction.__qualname__ = name
    reduction.__doc__ = f"""{summary}

    {_AXES_DOC}
    Every dtype, bool included (read as its bytes 0 and 1). A value is nonzero when it compares != 0: a
    NaN is, -0.0 is not. The result: {result}; a torch tensor that autograd tracks is accepted (the
    result carries no gradient). Exact, the same on every device.
    """
    return reduction


count_nonzero = _count_statistic("count_nonzero", "Number of nonzero elements (numpy.count_nonzero).",
                                 "int64 (out: an int64 array); 0 for no element")
all = _count_statistic("all", "Whether every element is nonzero (numpy.all, torch.all).",  # noqa: A001
                       "bool (out: a bool or uint8 array); True for no element")
any = _count_statistic("any", "Whether some element is nonzero (numpy.any, torch.any).",  # noqa: A001
                       "bool (out: a bool or uint8 array); False for no element")


def _moment(name: str, summary: str, result: str) -> Moment:
    op = dt.STATS[name]

    def reduction(x: Any, axis: Axis = None, dtype: Any = None, keepdims: bool = False, out: Any = None, *,
                  correction: Optional[float] = None, ddof: Optional[float] = None, unbiased: Optional[bool] = None,
                  dim: Axis = None, keepdim: Optional[bool] = None) -> Any:
        if dim is not None or keepdim is not None:
            axis, keepdims = _c.torch_aliases(x, axis, keepdims, dim, keepdim)
        return statistic(op, x, axis, dtype, keepdims, out, correction_of(correction, ddof, unbiased, is_torch(x)))

    reduction.__name__ = reduction.__qualname__ = name
    reduction.__doc__ = f"""{summary}

    {_AXES_DOC}
    correction: the divisor is max(n - correction, 0) for n elements; also spelled ddof= (numpy's) or,
    for torch tensors, unbiased= (torch's: True is 1, False 0); pass one. Default: the framework's, 0
    for numpy and cupy arrays (numpy.var), 1 for torch tensors (torch.var).
    dtype: the result dtype; default the input's float dtype (float16/bfloat16 accumulate in float32
    and round once). The library allows {_STAT_FLOATS}; any other is a TypeError. {_CONVERTED}
    out: {result}

    One pass (Chan's merges of count, mean and mean squared deviation in the library's fixed tree): no
    sum of squares is formed, so data whose variance is finite gets it (float32 data near 1e20
    included) and it is never negative; within hipreduce.h's stated bound. A divisor of 0 gives +inf
    (NaN where every element is equal); no element, a NaN or an infinity gives NaN. The same bits on
    every GPU and the CPU, whatever the layout.
    """
    return reduction


_ONE_OUT = "an array of the input's framework and device, C-contiguous, of the result's shape and dtype."
_TWO_OUT = ("a tuple of two such arrays (C-contiguous, the result's shape, one dtype), for the first result and "
            "the mean. The mean is the pass's merged mean (not mean()'s bits: another order of operations): "
            "NaN for no element or a NaN; with infinities and no NaN, the infinity where they have one sign.")
var = _moment("var", "Variance (numpy.var, torch.var).", _ONE_OUT)
std = _moment("std", "Standard deviation, the correctly rounded square root of var (numpy.std, torch.std).",
              _ONE_OUT)
var_mean = _moment("var_mean", "(variance, mean) from one pass (torch.var_mean).", _TWO_OUT)
std_mean = _moment("std_mean", "(standard deviation, mean) from one pass (torch.std_mean).", _TWO_OUT)


def aminmax(x: Any, axis: Axis = None, keepdims: bool = False, out: Any = None, *, dim: Axis = None,
            keepdim: Optional[bool] = None) -> Any:
    if dim is not None or keepdim is not None:
        axis, keepdims = _c.torch_aliases(x, axis, keepdims, dim, keepdim)
    return statistic(AMINMAX, x, axis, None, keepdims, out)


aminmax.__doc__ = f"""(minimum, maximum) from one pass (torch.aminmax; numpy.min and numpy.max together).

    {_AXES_DOC}
    Every dtype the package reduces (int8..uint64, float16, bfloat16, float32, float64; bool is a
    TypeError, as for min), each result in the input's dtype. out: a tuple of two arrays (the min
    and the max) of the input's framework, device and dtype, C-contiguous, of the result's shape.
    An empty axis is a ValueError (no identity, as min and max).

    Each result has the bits of min and of max alone: any NaN gives the canonical quiet NaN in both,
    -0.0 is below +0.0. The same bits on every GPU and the CPU, whatever the layout.
    """
