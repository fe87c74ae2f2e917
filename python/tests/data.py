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

# Shapes and the axes reduced over them: 0-d, empty, one element, rows, columns, middle axes.
CASES = [((), [None]), ((0,), [None, 0]), ((1,), [None, 0, -1]), ((7,), [None, 0]),
         ((1000,), [None, 0]), ((3, 0, 4), [None, 0, 1, 2]), ((2, 1, 5), [None, 0, 1, 2, -1]),
         ((4, 33, 7), [None, 0, 1, 2, -2, (0, 1), (1, 2)]), ((5, 300), [None, 0, 1])]


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
