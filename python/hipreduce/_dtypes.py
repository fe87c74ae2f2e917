"""Dtype codes (the C API's hipreduce_dtype values), operator codes and the default result dtypes.

Which (op, input, result) triples are allowed is the library's rule, checked by the library; this file
only names the codes and picks the defaults that numpy and torch would pick.
"""
from __future__ import annotations

import sys

import numpy as np

# hipreduce_dtype values, by name.
I8, U8, I16, U16, I32, U32, I64, U64, F16, BF16, F32, F64, C64, C128 = range(14)
NAMES = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
         "float16", "bfloat16", "float32", "float64", "complex64", "complex128")
SIGNED = frozenset((I8, I16, I32, I64))
UNSIGNED = frozenset((U8, U16, U32, U64))
FLOATS = frozenset((F16, BF16, F32, F64))
COMPLEX = frozenset((C64, C128))  # numpy arrays only (torch tensors of complex dtypes are refused)

# hipreduce_op values.
OPS = {"sum": 0, "prod": 1, "min": 2, "max": 3, "and": 4, "or": 5, "xor": 6, "sum_abs": 7,
       "sum_squares": 8, "max_abs": 9, "norm": 10, "argmin": 11, "argmax": 12, "sum_exact": 14}
OPS_DOT = 13  # hipreduce_dot_op's operators (not reduce ops: no string names)
OPS_DOT_EXACT = 15
OPS_DOTC = 30  # the sum of conj(x)*y (complex inputs: vdot)
# The statistics (hipreduce.h's block "Statistics"): functions of their own (_stats), not op names of
# segment_reduce or reduce_by_key. var, std, var_mean, std_mean and aminmax run as plans only.
STATS = {"mean": 16, "nansum": 17, "nanmean": 18, "count_nonzero": 19, "all": 20, "any": 21, "var": 22,
         "std": 23, "var_mean": 24, "std_mean": 25, "logsumexp": 26, "nanmin": 27, "nanmax": 28, "aminmax": 29}
# argmin and argmax with NaNs skipped: functions of their own (floats; an integer has no NaN).
NANARG = {"nanargmin": 31, "nanargmax": 32}
LAST_OP = 32
# The plan ops that write a second result (hipreduce_operands' values2): var_mean's and std_mean's
# means, aminmax's maxima.
TWO_RESULTS = frozenset((STATS["var_mean"], STATS["std_mean"], STATS["aminmax"]))
PLAN_ONLY = frozenset(STATS[n] for n in ("var", "std", "var_mean", "std_mean", "aminmax"))
# The exact sums (float inputs only): the exact real sum, rounded once to the result dtype.
EXACT_OPS = frozenset((OPS["sum_exact"], OPS_DOT_EXACT))
ARG_OPS = frozenset((OPS["argmin"], OPS["argmax"], NANARG["nanargmin"], NANARG["nanargmax"]))
SUM_LIKE = frozenset((OPS["sum"], OPS["prod"], OPS["sum_abs"], OPS["sum_squares"]))
# min/max/argmin/argmax (and nanmin/nanmax, aminmax) have no identity in numpy: an empty reduction
# raises ValueError there, and here.
NO_IDENTITY = frozenset((OPS["min"], OPS["max"], OPS["argmin"], OPS["argmax"], STATS["nanmin"], STATS["nanmax"],
                         STATS["aminmax"], NANARG["nanargmin"], NANARG["nanargmax"]))
# The statistics whose result is the input's float dtype by default.
_FLOAT_STATS = frozenset(STATS[n] for n in ("mean", "nansum", "nanmean", "var", "std", "var_mean", "std_mean",
                                            "logsumexp", "nanmin", "nanmax"))
_UNSIGNED_OF = {I8: U8, I16: U16, I32: U32, I64: U64}

# numpy dtypes by code; bfloat16 is ml_dtypes' (filled in when ml_dtypes is loaded).
NUMPY = [np.dtype(n) for n in NAMES[:9]] + [None] + [np.dtype(n) for n in NAMES[10:]]
_from_numpy = {d: c for c, d in enumerate(NUMPY) if d is not None}


def numpy_bfloat16():
    """ml_dtypes.bfloat16 as a numpy dtype, or None when ml_dtypes is not importable."""
    if NUMPY[BF16] is None:
        try:
            import ml_dtypes  # noqa: PLC0415 (optional, only for bfloat16)
        except ImportError:
            return None
        NUMPY[BF16] = np.dtype(ml_dtypes.bfloat16)
        _from_numpy[NUMPY[BF16]] = BF16
    return NUMPY[BF16]


def code_of_numpy(dtype) -> int:
    """The code of a numpy dtype; TypeError for a dtype the library does not reduce."""
    code = _from_numpy.get(dtype)
    if code is None:
        if dtype.name == "bfloat16" and numpy_bfloat16() == dtype:
            return BF16
        raise TypeError(f"hipreduce: arrays of dtype {dtype} are not supported "
                        f"(supported: {', '.join(NAMES)})")
    return code


_torch_codes = None  # torch dtype -> code, built on the first torch array
_torch_dtypes = None


def torch_tables():
    global _torch_codes, _torch_dtypes
    if _torch_codes is None:
        torch = sys.modules["torch"]
        names = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                 "float16", "bfloat16", "float32", "float64")
        # torch.uint16/32/64 exist from torch 2.3 on.
        _torch_dtypes = [getattr(torch, n, None) for n in names] + [None, None]  # no complex tensors
        _torch_codes = {d: c for c, d in enumerate(_torch_dtypes) if d is not None}
    return _torch_codes, _torch_dtypes


def code_of(dtype) -> int:
    """The code of a dtype argument: a numpy dtype-like, a torch dtype, or 'bfloat16'."""
    if isinstance(dtype, np.dtype):
        return code_of_numpy(dtype)
    if type(dtype).__module__ == "torch":
        code = torch_tables()[0].get(dtype)
        if code is None:
            raise TypeError(f"hipreduce: dtype {dtype} is not supported (supported: {', '.join(NAMES)})")
        return code
    if dtype == "bfloat16" or dtype == "bf16":
        return BF16
    try:
        d = np.dtype(dtype)
    except TypeError as e:
        raise TypeError(f"hipreduce: {dtype!r} is not a dtype") from e
    return code_of_numpy(d)


def default_result(op: int, code: int, torch_rules: bool) -> int:
    """The result dtype numpy (or torch, for torch arrays) would give op on code's input.

    Sum-likes (and dot): integers of fewer than 64 bits into int64 (numpy: unsigned into uint64;
    torch: every integer into int64), floats keep their dtype (float16/bfloat16 accumulate in
    float32 and round once), complex keep theirs, but sum_squares (of |z|^2) is real: float32 for
    complex64, float64 for complex128. max_abs: floats keep theirs, integers the unsigned of their
    width (|-128| is 128 as uint8). norm: float32 for 16- and 32-bit floats and complex64, float64
    for float64 and complex128 (and for integers, which the library rejects).
    min/max/argmin/argmax (nanargmin/nanargmax): the input's dtype. Exact sums: the input's dtype for floats (sum_exact:
    and complex), -1 (none: the library takes floats only) for integers.
    The statistics (the table of _core.reduce_whole, the whole-tensor path: -1 where it does not
    apply): the input's dtype for floats, -1 for integers (_stats converts them or runs the plain
    op); count_nonzero int64; -1 for all and any (bool results) and for the plan-only ops (var, std,
    var_mean, std_mean, aminmax).
    """
    if op in EXACT_OPS:
        return code if code in FLOATS or (code in COMPLEX and op == OPS["sum_exact"]) else -1
    if STATS["mean"] <= op <= STATS["aminmax"]:
        if op == STATS["count_nonzero"]:
            return I64
        if op in PLAN_ONLY:
            return -1
        return code if op in _FLOAT_STATS and code in FLOATS else -1
    if op == OPS["sum_squares"] and code in COMPLEX:  # of |z|^2: real, as numpy's abs(z)**2
        return F32 if code == C64 else F64
    if op in SUM_LIKE or op in (OPS_DOT, OPS_DOTC):
        if code in SIGNED:
            return I64
        if code in UNSIGNED:
            return U64 if code == U64 or not torch_rules else I64
        return code
    if op == OPS["max_abs"]:
        return _UNSIGNED_OF.get(code, code)
    if op == OPS["norm"]:
        return F32 if code in (F16, BF16, F32, C64) else F64
    return code


# default_result for every op and input code, one table per rule set ([False]: numpy's, [True]:
# torch's), indexed [op][code]: two list lookups on the call path.
DEFAULTS = tuple(tuple(tuple(default_result(op, code, rules) for code in range(len(NAMES)))
                       for op in range(LAST_OP + 1)) for rules in (False, True))
