"""Exact sums on the cpu device: sum(exact=True), dot(exact=True), segment_reduce(op="sum_exact").

The reference is the exact real sum (fractions.Fraction) rounded once, to nearest even, into the
result's format by round_exact below; for float64 also Python's math.fsum, which is exactly rounded
there. Plus the rules for NaN, infinities, overflow and signed zeros, and the C API's bits.
"""
import math
from fractions import Fraction

import numpy as np
import pytest

import capi
import hipreduce as hr
from data import BF16, FLOATS, INTS, bits

# (precision in bits, least normal exponent, largest exponent) of each result format.
FORMATS = {"float16": (11, -14, 15), "bfloat16": (8, -126, 127), "float32": (24, -126, 127),
           "float64": (53, -1022, 1023)}
RESULTS = {"float16": ["float16", "float32", "float64"], "bfloat16": ["bfloat16", "float32", "float64"],
           "float32": ["float32", "float64"], "float64": ["float64"]}


def round_exact(q, fmt):
    """The Fraction q rounded to nearest even into fmt, as a Python float (every value of these
    formats is a float64); +-inf past the largest finite value. Zero is +0.0."""
    p, emin, emax = FORMATS[fmt]
    if q == 0:
        return 0.0
    a = abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()  # 2**e <= a < 2**(e + 1), after the fix
    if Fraction(2) ** e > a:
        e -= 1
    quantum = Fraction(2) ** (max(e, emin) - (p - 1))  # subnormals share the least normal's quantum
    m = a / quantum
    n = m.numerator // m.denominator
    rest = m - n
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2 == 1):
        n += 1
    value = n * quantum
    sign = -1.0 if q < 0 else 1.0
    if value >= Fraction(2) ** (emax + 1):
        return sign * math.inf
    return sign * float(value)


def dtype_of(name):
    return BF16 if name == "bfloat16" else np.dtype(name)


def exact_of(values):
    """The exact sum of finite float values, as a Fraction."""
    return sum((Fraction(float(v)) for v in np.asarray(values).astype(np.float64).reshape(-1)), Fraction(0))


def hard_data(dtype, n, seed):
    """Values over the dtype's exponent range with cancellations: the data an ordered float sum gets
    wrong (large pairs that cancel, small values between them, subnormals)."""
    rng = np.random.default_rng(seed)
    p, emin, emax = FORMATS["bfloat16" if dtype == BF16 else dtype.name]
    exps = rng.integers(emin - p + 2, emax - n.bit_length() - 2, size=n)  # the sum stays finite
    v = np.ldexp(rng.uniform(1.0, 2.0, size=n), exps) * rng.choice([-1.0, 1.0], size=n)
    big = rng.integers(0, n, size=n // 4)
    v[big[: len(big) // 2]] = -v[big[len(big) // 2: 2 * (len(big) // 2)]]  # cancelling pairs
    return v.astype(dtype)


def float_names():
    return [d.name if d != BF16 else "bfloat16" for d in FLOATS]


@pytest.mark.parametrize("name", float_names())
def test_sum_exact_is_the_exactly_rounded_sum(name):
    dtype = dtype_of(name)
    for seed, n in ((1, 1), (2, 7), (3, 1000), (4, 70001)):
        x = hard_data(dtype, n, seed)
        q = exact_of(x)
        for out in RESULTS[name]:
            r = hr.sum(x, exact=True, dtype=dtype_of(out))
            assert r.dtype == dtype_of(out)
            assert bits(np.asarray(r)) == bits(np.asarray(round_exact(q, out), dtype_of(out))), (name, out, n)
        assert hr.sum(x, exact=True).dtype == dtype  # the default result dtype: sum's
        assert bits(np.asarray(hr.sum(x[::-1], exact=True))) == bits(np.asarray(hr.sum(x, exact=True)))


def test_sum_exact_f64_against_fsum():
    rng = np.random.default_rng(7)
    cases = [rng.standard_normal(100003) * 1e10,
             np.array([1e100, 1.0, -1e100, 1e-100]),
             np.array([2.0 ** 53, 1.0, 1.0]),           # two ties that an ordered sum rounds away
             np.array([0.1] * 10 + [-1.0]),
             hard_data(np.dtype(np.float64), 20000, 8)]
    for x in cases:
        assert bits(np.asarray(hr.sum(x, exact=True))) == bits(np.asarray(math.fsum(x))), x[:4]
    x = np.array([1e308, 1e308, -1e308])  # no overflow in between (fsum raises there)
    assert hr.sum(x, exact=True) == 1e308


def test_sum_exact_axes_and_segments():
    x = hard_data(np.dtype(np.float32), 37 * 211, 9).reshape(37, 211)
    for axis in (0, 1):
        r = hr.sum(x, axis=axis, exact=True, dtype=np.float64)
        lines = x.T if axis == 0 else x
        assert [float(v) for v in r] == [round_exact(exact_of(line), "float64") for line in lines]
        assert bits(r) == bits(capi.reduce("sum_exact", x, axis, np.float64))
    keep = hr.sum(x, axis=1, exact=True, keepdims=True)
    assert keep.shape == (37, 1) and bits(keep) == bits(hr.sum(x, axis=1, exact=True))
    flat = x.reshape(-1)
    offsets = np.array([0, 0, 5, 5, 1000, 4321, flat.size])
    r = hr.segment_reduce(flat, offsets, "sum_exact")
    assert r.dtype == np.float32
    expect = [round_exact(exact_of(flat[a:b]), "float32") for a, b in zip(offsets[:-1], offsets[1:])]
    assert bits(r) == bits(np.array(expect, np.float32))
    assert bits(r) == bits(capi.segments("sum_exact", flat, offsets, np.float32))
    out = np.empty((), np.float32)
    assert hr.sum(flat, exact=True, out=out) is out and out == np.float32(round_exact(exact_of(flat), "float32"))


@pytest.mark.parametrize("name", float_names())
def test_sum_exact_special_values(name):
    dtype = dtype_of(name)
    inf, nan = np.inf, np.nan

    def s(values, **kw):
        return np.asarray(hr.sum(np.array(values, np.float64).astype(dtype), exact=True, **kw)).astype(np.float64)

    assert np.isnan(s([1.0, nan, 2.0])) and np.isnan(s([inf, -inf])) and np.isnan(s([inf, 1.0, -inf, 3.0]))
    assert s([inf, 1.0, 2.0]) == inf and s([-inf, 5.0]) == -inf
    big = float(np.finfo(dtype).max) if dtype != BF16 else float(BF16.type(3.3895313892515355e38))
    assert s([big, big]) == inf and s([-big, -big]) == -inf  # the rounding overflows
    assert s([big, big, -big]) == big  # nothing overflows on the way
    if name != "float64":
        assert s([big, big], dtype=np.float64) == 2 * big
    for values, negative in (([-0.0, -0.0], True), ([-0.0], True), ([-0.0, 0.0], False), ([1.0, -1.0], False),
                             ([-1.0, 1.0], False), ([], False)):
        r = s(values)
        assert r == 0 and math.copysign(1.0, r) == (-1.0 if negative else 1.0), values


@pytest.mark.parametrize("name", float_names())
def test_dot_exact(name):
    dtype = dtype_of(name)
    x, y = hard_data(dtype, 5001, 10), hard_data(dtype, 5001, 11)
    # Products that round away in any ordinary dot: the exact value is their sum.
    q = sum((Fraction(float(a)) * Fraction(float(b)) for a, b in zip(x.astype(np.float64), y.astype(np.float64))),
            Fraction(0))
    for out in RESULTS[name]:
        r = hr.dot(x, y, exact=True, dtype=dtype_of(out))
        assert bits(np.asarray(r)) == bits(np.asarray(round_exact(q, out), dtype_of(out))), (name, out)
    assert bits(np.asarray(hr.dot(x[::-1], y[::-1], exact=True))) == bits(np.asarray(hr.dot(x, y, exact=True)))

    def d(a, b):
        return float(hr.dot(np.array(a, np.float64).astype(dtype), np.array(b, np.float64).astype(dtype), exact=True))

    assert math.isnan(d([np.inf, 1.0], [0.0, 1.0])) and math.isnan(d([np.nan], [1.0]))
    assert d([np.inf, 1.0], [-2.0, 1.0]) == -np.inf
    assert math.copysign(1.0, d([-0.0], [1.0])) == -1.0 and math.copysign(1.0, d([-0.0, 0.0], [1.0, 1.0])) == 1.0


def test_exact_refuses_integers():
    for dtype in INTS:
        x = np.ones(4, dtype)
        with pytest.raises(TypeError, match="float inputs only"):
            hr.sum(x, exact=True)
        with pytest.raises(TypeError, match="float inputs only"):
            hr.dot(x, x, exact=True)
        with pytest.raises(TypeError, match="float inputs only"):
            hr.segment_reduce(x, [0, 4], "sum_exact")
    with pytest.raises(TypeError):  # a result dtype exact sums do not allow: the library's check
        hr.sum(np.ones(4, np.float32), exact=True, dtype=np.int64)
    with pytest.raises(TypeError):
        hr.sum(np.ones(4, np.float64), exact=True, dtype=np.float32)
