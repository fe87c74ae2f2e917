"""Test data: seeded random arrays of every dtype, and numpy references with their error bounds."""
import os

import numpy as np

# bfloat16 numpy arrays come from ml_dtypes. CI requires it (HIPREDUCE_REQUIRE_BF16=1); elsewhere its
# absence drops the numpy bfloat16 cases and test_numpy.py reports them skipped.
try:
    import ml_dtypes
    BF16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:
    if os.environ.get("HIPREDUCE_REQUIRE_BF16") == "1":
        raise
    BF16 = None
INTS = [np.dtype(n) for n in ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")]
FLOATS = [np.dtype("float16")] + ([BF16] if BF16 is not None else []) + [np.dtype("float32"), np.dtype("float64")]
DTYPES = INTS + FLOATS

# Shapes and the axes reduced over them: 0-d, empty, one element, rows, columns, middle axes, axes
# apart, none ((): each result one element).
CASES = [((), [None, ()]), ((0,), [None, 0]), ((1,), [None, 0, -1]), ((7,), [None, 0]),
         ((1000,), [None, 0]), ((3, 0, 4), [None, 0, 1, 2, (0, 2)]), ((2, 1, 5), [None, 0, 1, 2, -1, (0, 2)]),
         ((4, 33, 7), [None, 0, 1, 2, -2, (0, 1), (1, 2), (0, 2), (2, -3), ()]), ((5, 300), [None, 0, 1])]


def random_array(shape, dtype, seed=0, op=None):
    """Random values of dtype; for prod, magnitudes near 1 (floats) or small (integers), so that
    products neither overflow nor vanish too fast."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        if op == "prod":
            lo, hi = (-3, 4) if dtype.kind == "i" else (0, 4)
        else:
            lo, hi = int(info.min), int(info.max)
        return rng.integers(lo, hi, size=shape, dtype=dtype, endpoint=False)
    if op == "prod":
        v = rng.uniform(0.7, 1.4, size=n) * rng.choice([-1.0, 1.0], size=n)
    else:
        v = rng.standard_normal(n) * 10.0
    return v.astype(dtype).reshape(shape)


def bits(a):
    """The bytes of a's values (C order), for bit-equality across devices."""
    a = np.ascontiguousarray(a)
    return a.view(f"u{a.dtype.itemsize}").tobytes() if a.dtype.itemsize > 0 else b""


def as_f64(x):
    return np.asarray(x).astype(np.float64)


def expected_dtype(op, dtype):
    if op in ("sum", "prod", "sum_abs", "sum_squares"):
        if dtype.kind == "i":
            return np.dtype("int64")
        if dtype.kind == "u":
            return np.dtype("uint64")
        return dtype
    if op == "max_abs" and dtype.kind == "i":
        return np.dtype(f"uint{dtype.itemsize * 8}")
    if op == "norm":
        return np.dtype("float64") if dtype == np.float64 else np.dtype("float32")
    return dtype


def numpy_reference(op, x, axis, rdt):
    """numpy's value of op (exact for integers in rdt's wrap-around arithmetic, float64 for floats)."""
    if x.dtype.kind in "iu":
        wide = x.astype(np.int64 if x.dtype.kind == "i" else np.uint64)
        f = {"sum": lambda: wide.sum(axis=axis, dtype=rdt),
             "prod": lambda: wide.prod(axis=axis, dtype=rdt),
             "min": lambda: x.min(axis=axis), "max": lambda: x.max(axis=axis),
             "sum_abs": lambda: np.abs(wide).sum(axis=axis, dtype=rdt),
             "sum_squares": lambda: (wide * wide).sum(axis=axis, dtype=rdt),
             "max_abs": lambda: np.abs(wide).max(axis=axis, initial=0).astype(rdt)}[op]
        return np.asarray(f())
    w = as_f64(x)
    f = {"sum": lambda: w.sum(axis=axis), "prod": lambda: w.prod(axis=axis),
         "min": lambda: w.min(axis=axis), "max": lambda: w.max(axis=axis),
         "sum_abs": lambda: np.abs(w).sum(axis=axis), "sum_squares": lambda: (w * w).sum(axis=axis),
         "max_abs": lambda: np.abs(w).max(axis=axis, initial=0.0),
         "norm": lambda: np.sqrt((w * w).sum(axis=axis))}[op]
    return np.asarray(f())


def float_bound(op, x, axis, rdt):
    """|result - exact| bound of the default order: every partial rounded in the accumulation dtype
    (float32 for 16-bit floats) at most extent times, then one rounding into rdt."""
    acc = np.float64 if x.dtype == np.float64 or op == "norm" else np.float32
    w = np.abs(as_f64(x))
    n = x.size if axis is None else np.prod([x.shape[a] for a in np.atleast_1d(axis)])
    if op == "prod":
        mag = np.exp(np.log(np.maximum(w, 1e-300)).sum(axis=axis))
    elif op in ("sum_squares", "norm"):
        mag = (w * w).sum(axis=axis)
    else:
        mag = w.sum(axis=axis)
    err = (n + 2) * np.finfo(acc).eps * mag
    if op == "norm":
        err = np.sqrt(err) + np.finfo(acc).eps * np.sqrt(mag)
    out_eps = float(np.finfo(np.float32).eps * 2 ** 16) if rdt == BF16 else np.finfo(rdt).eps
    return err + out_eps * numpy_reference(op, x, axis, rdt).__abs__() * 1.01 + 1e-300
