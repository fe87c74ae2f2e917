"""The statistics on numpy arrays: mean, nansum, nanmean, count_nonzero, all, any, logsumexp, nanmin and
nanmax with the bits of the C API's own hipreduce_reduce over each result's elements (capi.py); the
relations the header states bit for bit (mean is the sum's accumulator over n, nansum the sum with NaNs
as 0, std the rounded root of var, var_mean's var is var's, a 16-bit result the rounding of the float32
one); exact agreement with numpy for counts, all/any, nanmin/nanmax and the mean of integers; the
header's error bounds for var, std, var_mean, std_mean (exact rational references) and logsumexp
(50-digit references); the dtype rules, out= and the errors. test_stats_args.py: layouts, arguments."""
import decimal
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest

import capi
import hipreduce as hr
from data import BF16, CASES, FLOATS, INTS, bits, random_array

SIMPLE = ["mean", "nansum", "nanmean", "logsumexp", "nanmin", "nanmax"]
COUNTS = ["count_nonzero", "all", "any"]
MOMENTS = ["var", "std", "var_mean", "std_mean"]


def with_nans(x, seed, share=0.1):
    """x with about `share` of its elements NaN (floats), and some -0.0 and +0.0."""
    x = x.copy()
    if x.dtype.kind == "f" or x.dtype == BF16:
        rng = np.random.default_rng(seed)
        x[rng.random(x.shape) < share] = np.nan
        x[rng.random(x.shape) < 0.05] = -0.0
        x[rng.random(x.shape) < 0.05] = 0.0
    return x


def extent(shape, axis):
    return math.prod(shape) if axis is None else math.prod(shape[a] for a in np.atleast_1d(axis))


def acc_of(dtype):
    return np.float64 if dtype == np.float64 else np.float32


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and bits(a) == bits(b)


@pytest.mark.parametrize("op, dtype", [(op, d) for op in SIMPLE for d in FLOATS] +
                         [(op, d) for op in COUNTS for d in FLOATS + INTS[:2]], ids=str)
def test_simple_statistics_have_the_c_calls_bits(op, dtype):
    """Every shape and axis set of data.CASES: each result is hipreduce_reduce over its elements alone."""
    fn = getattr(hr, op)
    checked = 0
    for shape, axes in CASES:
        x = with_nans(random_array(shape, dtype, seed=len(shape) + 7), seed=sum(shape))
        for axis in axes:
            where = f"{op} {dtype} {shape} axis={axis}"
            if op in ("nanmin", "nanmax") and extent(shape, axis) == 0:
                with pytest.raises(ValueError, match="no identity"):
                    fn(x, axis)
                continue
            got = fn(x, axis)
            rdt = {"count_nonzero": np.dtype(np.int64), "all": np.dtype(bool), "any": np.dtype(bool)}.get(op, dtype)
            assert np.asarray(got).dtype == rdt, where
            assert np.shape(got) == np.sum(np.empty(shape), axis=axis).shape, where
            if axis is None:
                assert isinstance(got, np.generic), where
            kept = fn(x, axis, keepdims=True)
            assert kept.shape == np.sum(np.empty(shape), axis=axis, keepdims=True).shape, where
            assert bits(kept) == bits(got), where
            c = capi.reduce(op, x, axis, np.uint8 if rdt == bool else rdt)
            assert bits(c) == bits(np.asarray(got).view(np.uint8) if rdt == bool else got), where
            checked += 1
    assert checked > 30


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_mean_nansum_nanmean_are_the_sums_over_counts(dtype):
    """mean: the sum's accumulator divided by n once; nansum: the sum with every NaN taken as +0.0;
    nanmean: nansum's accumulator over the non-NaN count; a 16-bit result the rounding of that."""
    acc = acc_of(dtype)
    x = with_nans(random_array((6, 50, 9), dtype, seed=3), seed=4, share=0.2)
    x[2, :, 3] = np.nan  # all-NaN slices over axis 1
    clean = np.where(np.isnan(x), dtype.type(0), x)
    for axis in (None, 1, (0, 2), (2, 0, 1), ()):
        n = acc(extent(x.shape, axis))
        wide = {} if dtype in (np.float32, np.float64) else {"dtype": acc}
        assert same_bits(hr.mean(clean, axis), (hr.sum(clean, axis, **wide) / n).astype(dtype)), axis
        assert same_bits(hr.nansum(x, axis), hr.sum(clean, axis)), axis
        count = np.sum(~np.isnan(x), axis=axis).astype(acc)
        with np.errstate(invalid="ignore"):
            want = (hr.sum(clean, axis, **wide) / count).astype(dtype)
        want = np.where(np.isnan(want), np.asarray(np.nan, dtype), want)  # the canonical NaN, not x86's 0/0
        assert same_bits(hr.nanmean(x, axis), want), axis
        if dtype in (np.float32, np.float16):  # a wider result: the sum's wider accumulator
            assert same_bits(hr.mean(clean, axis, dtype=np.float64), hr.sum(clean, axis, dtype=np.float64) / float(n))
        ref = np.mean(clean.astype(np.float64), axis=axis)
        assert np.allclose(hr.mean(clean, axis).astype(np.float64), ref, rtol=4e-3 if acc != dtype else 1e-5,
                           atol=1e-2 if acc != dtype else 1e-5)
    nan_mean = hr.nanmean(x, 1)
    assert np.isnan(nan_mean[2, 3]) and hr.nansum(x, 1)[2, 3] == 0 and not np.signbit(hr.nansum(x, 1)[2, 3])


def test_integer_inputs():
    """mean, nanmean, var, std, var_mean, std_mean, logsumexp of integers (and bool): a float64 copy
    (numpy's result dtype), exact bits for the mean where the sum is exact; nansum, nanmin, nanmax: the
    plain ops (their dtypes); count_nonzero, all, any: every integer as it is."""
    for dtype in INTS:
        x = random_array((5, 40), dtype, seed=5)
        if dtype.itemsize == 8:  # sums exact in float64: below 2**53
            x = (x >> np.array(24, dtype)).astype(dtype)
        for axis in (None, 0, 1, (0, 1)):
            got = hr.mean(x, axis)
            assert np.asarray(got).dtype == np.float64 and same_bits(got, np.mean(x, axis=axis)), (dtype, axis)
            assert same_bits(hr.nanmean(x, axis), hr.nanmean(x.astype(np.float64), axis))
            assert same_bits(hr.mean(x, axis, dtype=np.float32), hr.mean(x.astype(np.float32), axis))
            for op in ("var", "std", "logsumexp"):
                assert same_bits(getattr(hr, op)(x, axis), getattr(hr, op)(x.astype(np.float64), axis)), (op, dtype)
            for a, b in zip(hr.var_mean(x, axis, ddof=1), hr.var_mean(x.astype(np.float64), axis, ddof=1)):
                assert same_bits(a, b)
            assert same_bits(hr.nansum(x, axis), hr.sum(x, axis)), (dtype, axis)
            assert same_bits(hr.nanmin(x, axis), np.min(x, axis=axis))
            assert same_bits(hr.nanmax(x, axis), np.max(x, axis=axis))
            assert same_bits(hr.count_nonzero(x, axis), np.asarray(np.count_nonzero(x, axis=axis), np.int64))
            assert same_bits(hr.all(x, axis), np.all(x, axis=axis)) and same_bits(hr.any(x, axis), np.any(x, axis=axis))
    i = np.arange(12, dtype=np.int32)
    with pytest.raises(TypeError, match="mean does not apply to i32 input"):
        hr.mean(i, dtype=np.int64)  # the library's rule, its message
    with pytest.raises(TypeError, match="result dtype f64 not allowed"):
        hr.nansum(i, dtype=np.float64)  # sum's rule
    b = np.array([[True, False, True], [False, False, False], [True, True, True]])
    for axis in (None, 0, 1):
        assert same_bits(hr.mean(b, axis), np.mean(b, axis=axis))
        assert same_bits(hr.count_nonzero(b, axis), np.asarray(np.count_nonzero(b, axis=axis), np.int64))
        assert same_bits(hr.all(b, axis), np.all(b, axis=axis)) and same_bits(hr.any(b, axis), np.any(b, axis=axis))
        assert same_bits(hr.all(b.T, axis), np.all(b.T, axis=axis))  # strided
    for op in ("nansum", "nanmin", "nanmax"):  # as sum, min and max: no bool
        with pytest.raises(TypeError, match="bool"):
            getattr(hr, op)(b)


@pytest.mark.parametrize("dtype", FLOATS + INTS, ids=str)
def test_counts_as_numpy(dtype):
    for shape, axes in CASES:
        x = with_nans(random_array(shape, dtype, seed=9), seed=10, share=0.1)
        if x.size:
            x.reshape(-1)[:: 3] = 0  # zeros (and -0.0 above) count as zero
        for axis in axes:
            where = (dtype, shape, axis)
            want = np.asarray(np.count_nonzero(x, axis=axis), np.int64)
            assert same_bits(hr.count_nonzero(x, axis), want), where
            assert same_bits(hr.all(x, axis), np.all(x, axis=axis)), where
            assert same_bits(hr.any(x, axis), np.any(x, axis=axis)), where
    empty_all, empty_any = hr.all(np.zeros(0)), hr.any(np.zeros(0))
    assert type(empty_all) is np.bool_ and empty_all and type(empty_any) is np.bool_ and not empty_any
    assert hr.count_nonzero(np.array([np.nan, -0.0, 0.0, 1e-300])) == 2


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_nanmin_nanmax(dtype):
    x = with_nans(random_array((7, 30, 5), dtype, seed=11), seed=12, share=0.3)
    x[1, :, 2] = np.nan  # an all-NaN slice: NaN (numpy warns)
    for axis in (None, 0, 1, 2, (0, 2), ()):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            lo, hi = np.nanmin(x, axis=axis), np.nanmax(x, axis=axis)
        got_lo, got_hi = hr.nanmin(x, axis), hr.nanmax(x, axis)
        for got, want in ((got_lo, lo), (got_hi, hi)):
            assert np.asarray(got).dtype == dtype
            g, w = np.asarray(got, np.float64), np.asarray(want, np.float64)
            assert np.array_equal(g, w, equal_nan=True), axis
    canonical = {np.dtype(np.float16): 0x7E00, np.dtype(np.float32): 0x7FC00000,
                 np.dtype(np.float64): 0x7FF8000000000000}.get(dtype, 0x7FC0)
    assert int(np.asarray(hr.nanmin(x, 1))[1, 2:3].view(f"u{dtype.itemsize}")[0]) == canonical
    zeros = np.array([0.0, -0.0, np.nan, 0.0], dtype)  # -0.0 orders below +0.0
    assert np.signbit(hr.nanmin(zeros)) and not np.signbit(hr.nanmax(zeros))
    with pytest.raises(ValueError, match="nanmax of an empty array"):
        hr.nanmax(np.zeros((0, 3), dtype))


def chain(dtype, n):
    """The longest merge chain L of the header's bounds (the default order: levels x (64 / the input's
    element bytes + 8), a level per tile of 256 x 4 x 16 / element bytes elements)."""
    size = np.dtype(dtype).itemsize
    block, levels = 256 * 4 * (16 // size), 1
    while n > block:
        n = -(-n // block)
        levels += 1
    return levels * (64 // size + 8)


def units(in_dtype, out_dtype):
    """(u of the accumulator, u of the result dtype)."""
    u = 2.0 ** -53 if in_dtype == np.float64 else 2.0 ** -24
    uo = {np.dtype(np.float16): 2.0 ** -11, np.dtype(np.float32): 2.0 ** -24, np.dtype(np.float64): 2.0 ** -53}
    return u, uo.get(np.dtype(out_dtype), 2.0 ** -8)


def check_moments(op, row, correction, got, got2=None):
    """The header's bound for var/std (and var_mean/std_mean's mean) of one row against the exact
    rational values; the special values exactly."""
    vals = [float(v) for v in row.astype(np.float64)]
    n = len(vals)
    if n == 0 or any(math.isnan(v) or math.isinf(v) for v in vals):
        assert math.isnan(got)
        return
    exact = [Fraction(v) for v in vals]
    mu = sum(exact) / n
    big_m = sum((v - mu) ** 2 for v in exact) / n
    u, uo = units(row.dtype, np.asarray(got).dtype)
    length = chain(row.dtype, n)
    tiny = length * (2.0 ** -1022 if u == 2.0 ** -53 else 2.0 ** -126)
    sigma = math.sqrt(big_m)
    bm = 2 * length * u * (float(big_m) + math.sqrt(length) * abs(float(mu)) * sigma) + tiny
    dof = n - correction
    g = float(got)
    if dof <= 0:
        assert (math.isnan(g) if big_m == 0 else g == math.inf), (op, g)
    else:
        var = big_m * Fraction(n) / Fraction(dof)
        bv = float(n / dof) * bm + 4 * u * float(var) + uo * float(var)
        if op.startswith("std"):
            s = math.sqrt(var)
            err, bound = abs(g - s) * (g + s), bv + 2 * (uo + u) * s * (g + s)
        else:
            err, bound = float(abs(Fraction(g) - var)), bv
        assert g >= 0 and err <= bound, (op, g, float(var), err, bound)
    if got2 is not None:
        em = float(abs(Fraction(float(got2)) - mu))
        assert em <= 2 * length * u * (abs(float(mu)) + sigma) + uo * abs(float(mu)) + tiny, (op, float(got2), mu)


def moment_data(dtype):
    """Rows that stress the moments: plain, a huge offset (1e20 in float32, past which a sum of squares
    overflows), cancellation (a large mean and small spread), subnormals, constants, few elements."""
    rng = np.random.default_rng(13)
    big = 1e20 if dtype in (np.float32, np.float64) else 1e3
    digits = {np.dtype(np.float16): 11, np.dtype(np.float32): 24, np.dtype(np.float64): 53}.get(np.dtype(dtype), 8)
    spacing = 2.0 ** (math.floor(math.log2(big)) - digits + 1)  # the dtype's, near big
    rows = [rng.standard_normal(3000) * 10, big + rng.integers(-40, 40, 700) * spacing,
            4096 + rng.standard_normal(500) * 1e-2, np.full(20, 3.25), [1.5], [2.0, 3.0]]
    if dtype == np.float64:
        rows.append(rng.standard_normal(300) * 1e-310)
    return [np.asarray(r, np.float64).astype(dtype) for r in rows]


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_moments_within_the_bound(dtype):
    for row in moment_data(dtype):
        for correction in (0, 1, 2.5):
            v, s = hr.var(row, correction=correction), hr.std(row, correction=correction)
            vm, sm = hr.var_mean(row, correction=correction), hr.std_mean(row, correction=correction)
            check_moments("var", row, correction, v)
            check_moments("std", row, correction, s)
            check_moments("var_mean", row, correction, *vm)
            check_moments("std_mean", row, correction, *sm)
            assert same_bits(vm[0], v) and same_bits(sm[0], s) and same_bits(vm[1], sm[1])
            if dtype in (np.float32, np.float64):  # std: the correctly rounded root of var
                assert same_bits(np.sqrt(v), s)
            else:  # a 16-bit result: the rounding of the float32 one
                assert same_bits(hr.var(row, dtype=np.float32, correction=correction).astype(dtype), v)
                assert same_bits(hr.std(row, dtype=np.float32, correction=correction).astype(dtype), s)
    x = random_array((4, 33, 7), dtype, seed=14)
    for axis in (0, (0, 2), -1):
        got = hr.var_mean(x, axis, ddof=1)
        rows = capi.rows(x, axis)
        for r, g, g2 in zip(rows, got[0].reshape(-1), got[1].reshape(-1)):
            check_moments("var_mean", r, 1, g, g2)
        ref = np.var(x.astype(np.float64), axis=axis, ddof=1)
        assert np.allclose(got[0].astype(np.float64), ref, rtol=1e-2 if dtype.itemsize == 2 else 1e-5)


def test_moments_special_values():
    nan, inf = np.nan, np.inf
    x = np.array([[1.0, nan, 2.0], [1.0, inf, 2.0], [inf, inf, 1.0], [-inf, inf, 0.0], [5.0, 5.0, 5.0]])
    v, m = hr.var_mean(x, 1)
    assert np.isnan(v[:4]).all() and v[4] == 0
    assert np.isnan(m[0]) and m[1] == inf and m[2] == inf and np.isnan(m[3]) and m[4] == 5.0
    assert np.isnan(hr.var(np.zeros(0))) and np.isnan(hr.std_mean(np.zeros((0, 2)), 0)[1]).all()
    assert hr.var(np.array([1.0, 2.0]), correction=2) == inf  # a divisor of 0
    assert np.isnan(hr.var(np.array([3.0, 3.0]), correction=2))  # ... NaN where every element is equal
    assert np.isnan(hr.var(np.array([3.0]), ddof=1))
    assert np.isclose(hr.var(np.array([1.0, 2.0, 4.0]), correction=-1), np.var([1.0, 2.0, 4.0], ddof=-1), rtol=1e-15)
    assert same_bits(hr.var(x[4], ddof=1), hr.var(x[4], correction=1.0))


def logsumexp_reference(row):
    """log(sum(exp(row))) to 50 digits (decimal's exp and ln are correctly rounded)."""
    with decimal.localcontext() as ctx:
        ctx.prec = 50
        vals = [decimal.Decimal(float(v)) for v in row.astype(np.float64)]
        top = max(vals)
        return float(top + sum((v - top).exp() for v in vals).ln())


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_logsumexp_within_the_bound(dtype):
    rng = np.random.default_rng(15)
    big = 60000.0 if dtype == np.float16 else 1e30
    rows = [rng.standard_normal(2000) * 10, rng.standard_normal(100) * 3 + big, np.array([0.5]),
            rng.standard_normal(40) * 1e-3, np.concatenate([[-np.inf] * 5, rng.standard_normal(5)])]
    x = random_array((3, 40, 5), dtype, seed=16)
    got = hr.logsumexp(x, (0, 2))
    rows += list(capi.rows(x, (0, 2)).astype(np.float64))
    gots = [None] * (len(rows) - got.size) + list(got)
    for row, g in zip(rows, gots):
        row = np.asarray(row, np.float64).astype(dtype)
        if g is None:
            g = hr.logsumexp(row)
        want = logsumexp_reference(row)
        u, uo = units(dtype, dtype)
        bound = (4 * chain(dtype, row.size) + 8 + 3 * math.log(row.size)) * u + (u + uo) * abs(want)
        assert abs(float(g) - want) <= bound, (dtype, float(g), want, bound)
    nan, inf = np.nan, np.inf
    special = np.array([[-inf, -inf, -inf], [1.0, inf, -inf], [nan, inf, 1.0], [0.0, -inf, -inf]], dtype)
    got = hr.logsumexp(special, 1).astype(np.float64)
    assert got[0] == -inf and got[1] == inf and np.isnan(got[2]) and got[3] == 0.0
    assert hr.logsumexp(np.zeros(0, dtype)) == -inf
