"""Every function x dtype x shape/axis on the cpu device with numpy arrays: the bits of the C API's own
cpu-device call (capi.py, shapes computed there) and agreement with numpy (integers exactly, floats
within the bound of the default order: n * eps * sum|x| of the accumulation dtype plus the final
rounding; min/max/argmin/argmax exactly)."""
import numpy as np
import pytest

import capi
import hipreduce as hr
from data import BF16, CASES, DTYPES, FLOATS, as_f64, expected_dtype, float_bound, numpy_reference, random_array

REDUCTIONS = ["sum", "prod", "min", "max", "sum_abs", "sum_squares", "max_abs", "norm"]


def bits(a):
    a = np.asarray(a)
    return a.view(f"u{a.dtype.itemsize}") if a.dtype.kind not in "iu" else a


@pytest.mark.parametrize("op", REDUCTIONS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_reduction(op, dtype):
    fn = getattr(hr, op)
    for shape, axes in CASES:
        x = random_array(shape, dtype, seed=len(shape) * 31 + sum(shape), op=op)
        for axis in axes:
            rdt = expected_dtype(op, dtype)
            where = f"{op} {dtype} {shape} axis={axis}"
            extent = x.size if axis is None else int(np.prod([shape[a] for a in np.atleast_1d(axis)]))
            if op in ("min", "max") and extent == 0:
                with pytest.raises(ValueError):
                    fn(x, axis=axis)
                continue
            if op == "norm" and dtype.kind in "iu":
                with pytest.raises(TypeError):
                    fn(x, axis=axis)
                continue
            got = fn(x, axis=axis)
            assert np.asarray(got).dtype == rdt, where
            ref_shape = np.sum(np.empty(shape), axis=axis).shape
            assert np.shape(got) == ref_shape, where
            if axis is None:
                assert isinstance(got, np.generic), where  # a numpy scalar, as np.sum gives
            kept = fn(x, axis=axis, keepdims=True)
            assert kept.shape == np.sum(np.empty(shape), axis=axis, keepdims=True).shape, where
            assert bits(kept).tobytes() == bits(got).tobytes(), where
            # The C API's own bits: each result hipreduce_reduce over its elements alone.
            c = capi.reduce(op, x, axis, rdt)
            assert bits(c).tobytes() == bits(np.ascontiguousarray(got)).tobytes(), where
            # numpy.
            ref = numpy_reference(op, x, axis, rdt)
            if dtype.kind in "iu":
                assert np.array_equal(np.asarray(got), ref.astype(rdt)), where
            elif op in ("min", "max", "max_abs"):
                assert np.array_equal(as_f64(got), ref), where
            else:
                bound = float_bound(op, x, axis, rdt)
                # A result past the dtype's range is inf (float16 sums of squares overflow at 65504).
                over = np.isinf(as_f64(got))
                top = float(np.finfo(np.float32).max if rdt == BF16 else np.finfo(rdt).max)
                assert np.all((np.abs(ref) + bound)[over] >= top), where
                err = np.where(over, 0.0, np.abs(as_f64(got) - ref))
                assert np.all(err <= bound), (where, err.max())


@pytest.mark.parametrize("op", ["argmin", "argmax"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_argreduce(op, dtype):
    fn = getattr(hr, op)
    for shape, axes in CASES:
        # Few distinct values: ties, whose first index must win.
        # (+ 0.0: no -0.0, which orders below +0.0 here and ties with it in numpy.)
        x = (random_array(shape, dtype, seed=3).astype(np.float64).round(-1).clip(-100, 100) + 0.0).astype(dtype) \
            if dtype.kind == "f" or dtype == BF16 else (random_array(shape, dtype, seed=3) % 5).astype(dtype)
        for axis in axes:
            if isinstance(axis, tuple):
                with pytest.raises(TypeError):
                    fn(x, axis=axis)
                continue
            where = f"{op} {dtype} {shape} axis={axis}"
            extent = x.size if axis is None else shape[axis]
            if extent == 0:
                with pytest.raises(ValueError):
                    fn(x, axis=axis)
                with pytest.raises(ValueError):
                    getattr(np, op)(x, axis=axis)
                continue
            got = fn(x, axis=axis)
            ref = getattr(np, op)(x.astype(np.float64) if x.dtype == BF16 else x, axis=axis)
            assert np.asarray(got).dtype == np.int64, where
            assert np.array_equal(got, ref), where
            values, indices = fn(x, axis=axis, return_value=True)
            assert np.array_equal(indices, got), where
            cv, ci = capi.argreduce(op, x, axis)
            assert np.array_equal(np.ravel(indices), ci), where
            assert bits(np.ravel(values)).tobytes() == bits(cv).tobytes(), where
            kept = fn(x, axis=axis, keepdims=True)
            assert kept.shape == getattr(np, op)(x.astype(np.float64), axis=axis, keepdims=True).shape, where


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_dot(dtype):
    for shape in [(), (0,), (1,), (1000,), (3, 0, 4), (4, 33, 7)]:
        x = random_array(shape, dtype, seed=1)
        y = random_array(shape, dtype, seed=2)
        rdt = expected_dtype("sum", dtype)
        got = hr.dot(x, y)
        assert isinstance(got, np.generic) and got.dtype == rdt
        assert bits(np.asarray(got)).tobytes() == bits(capi.dot(x, y, rdt)).tobytes()
        if dtype.kind in "iu":
            wide = np.int64 if rdt.kind == "i" else np.uint64
            assert got == np.sum(x.astype(wide) * y.astype(wide), dtype=rdt)
        else:
            ref = np.sum(as_f64(x) * as_f64(y))
            acc_eps = np.finfo(np.float64 if dtype == np.float64 else np.float32).eps
            out_eps = float(np.finfo(np.float32).eps * 2 ** 16) if rdt == BF16 else np.finfo(rdt).eps
            bound = (x.size + 2) * acc_eps * np.sum(np.abs(as_f64(x) * as_f64(y))) + out_eps * abs(ref) * 1.01
            assert abs(float(got) - ref) <= bound + 1e-300


SEGMENT_OPS = ["sum", "prod", "min", "max", "sum_abs", "sum_squares", "max_abs", "norm", "argmin", "argmax"]


@pytest.mark.parametrize("op", SEGMENT_OPS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_segment_reduce(op, dtype):
    if op == "norm" and dtype.kind in "iu":
        return  # a TypeError, as test_errors checks
    x = random_array((500,), dtype, seed=5, op=op)
    rng = np.random.default_rng(7)
    cuts = np.sort(rng.integers(0, 501, size=40))
    offsets = np.concatenate([[0], cuts, cuts[:5], [500]]).astype(np.int64)  # repeated cuts: empty segments
    offsets.sort()
    got = hr.segment_reduce(x, offsets, op)
    assert got.shape == (offsets.size - 1,)
    if op in ("argmin", "argmax"):
        assert np.array_equal(got, capi.segments(op, x, offsets))
    else:
        assert bits(got).tobytes() == bits(capi.segments(op, x, offsets, got.dtype)).tobytes()
    # Each segment has the bits of the function over the segment alone; an empty one the identity.
    for s in range(offsets.size - 1):
        seg = x[offsets[s]:offsets[s + 1]]
        if seg.size == 0:
            identity = {"sum": 0, "sum_abs": 0, "sum_squares": 0, "max_abs": 0, "norm": 0, "prod": 1,
                        "argmin": -1, "argmax": -1}
            if op in identity:
                assert got[s] == identity[op], (op, s)
            elif dtype.kind in "iu":
                info = np.iinfo(dtype)
                assert got[s] == (info.max if op == "min" else info.min)
            else:
                assert as_f64(got[s]) == (np.inf if op == "min" else -np.inf)
            continue
        alone = getattr(hr, op)(seg)
        assert bits(np.asarray(alone)).tobytes() == bits(got[s:s + 1]).tobytes(), (op, s)


def test_segment_offsets_kinds():
    x = np.arange(10, dtype=np.float32)
    for offsets in ([0, 4, 10], np.array([0, 4, 10], np.int32), np.array([0, 4, 10], np.uint64), (0, 4, 10)):
        assert np.array_equal(hr.segment_reduce(x, offsets), [6.0, 39.0])
    assert hr.segment_reduce(x, [0]).shape == (0,)  # no segments
    assert np.array_equal(hr.segment_reduce(np.zeros(0, np.int8), [0, 0]), [0])


def test_dtype_argument():
    x = np.arange(1, 101, dtype=np.int8)
    assert hr.sum(x, dtype=np.int16) == 5050 and hr.sum(x, dtype=np.int16).dtype == np.int16
    assert hr.sum(x, dtype="int8").dtype == np.int8  # wraps, as the library's contract says
    assert hr.sum(x, dtype="int8") == np.int8(np.sum(x, dtype=np.int8))
    f = np.ones(1000, np.float16)
    assert hr.sum(f).dtype == np.float16 and hr.sum(f) == 1000  # f32 accumulation: numpy's f16 gives 1000 too
    assert hr.sum(f, dtype=np.float64).dtype == np.float64
    assert hr.norm(np.array([3, 4], np.float32), dtype=np.float64) == 5.0


def test_bfloat16_numpy():
    if BF16 is None:
        pytest.skip("ml_dtypes is not installed: the numpy bfloat16 cases did not run")
    b = np.ones(300, BF16)
    assert hr.sum(b).dtype == BF16 and float(hr.sum(b)) == 300.0  # bf16 accumulation would stop at 256
    assert hr.sum(b, dtype="bfloat16").dtype == BF16
    assert hr.sum(b, dtype=np.float32) == 300.0


def test_out_argument():
    x = random_array((6, 5), np.dtype(np.float32), seed=9)
    out = np.empty(5, np.float32)
    r = hr.sum(x, axis=0, out=out)
    assert r is out and np.array_equal(out, hr.sum(x, axis=0))
    out64 = np.empty(5, np.float64)
    hr.sum(x, axis=0, out=out64)  # out's dtype is the result dtype
    assert np.array_equal(out64, hr.sum(x, axis=0, dtype=np.float64))
    kept = np.empty((6, 1), np.float32)
    assert hr.max(x, axis=1, keepdims=True, out=kept) is kept
    idx = np.empty(6, np.int64)
    assert hr.argmax(x, axis=1, out=idx) is idx and np.array_equal(idx, np.argmax(x, axis=1))
    zero_d = np.empty((), np.float32)
    assert hr.sum(x, out=zero_d) is zero_d and zero_d == hr.sum(x)


def test_nan_and_signed_zero_rules():
    for dtype in FLOATS:
        x = np.array([1.0, np.nan, 5.0, -np.nan, 2.0], dtype)
        assert np.isnan(as_f64(hr.max(x))) and np.isnan(as_f64(hr.min(x))) and np.isnan(as_f64(hr.max_abs(x)))
        canonical = {2: 0x7E00 if dtype == np.float16 else 0x7FC0, 4: 0x7FC00000, 8: 0x7FF8000000000000}
        assert int(bits(np.asarray(hr.max(x)))) == canonical[dtype.itemsize], dtype
        assert int(bits(np.asarray(hr.min(-x)))) == canonical[dtype.itemsize], dtype
        assert hr.argmax(x) == 1 == np.argmax(x.astype(np.float64)) and hr.argmin(x) == 1
        z = np.array([0.0, -0.0, 0.0], dtype)
        assert np.signbit(as_f64(hr.min(z))) and not np.signbit(as_f64(hr.max(z)))
        assert hr.argmin(z) == 1 and hr.argmax(z) == 0


def test_integer_wraparound_and_exactness():
    x = np.full(1000, 100, np.int8)
    assert hr.sum(x) == 100000 and hr.sum(x, dtype=np.int8) == np.int8(-96)
    big = np.full(3, np.iinfo(np.int64).max, np.int64)
    assert hr.sum(big) == np.sum(big)  # both wrap modulo 2**64
    assert hr.max_abs(np.array([-128, 5], np.int8)) == 128


def test_no_copy_of_any_layout():
    # numpy reports its data allocations to tracemalloc: reducing a 32 MiB array, or strided,
    # transposed, reversed or broadcast views of it, allocates no more than the results.
    import tracemalloc
    x = np.ones(8 << 20, np.float32)  # 32 MiB
    m = x.reshape(2048, -1)
    views = [(x, None), (m, 1), (x[::2], None), (m.T, 0), (m.T, 1), (m[::-3, 1::2], (1, 0)), (x[::-1], 0),
             (np.broadcast_to(m[:1], (4096, m.shape[1])), 0)]
    tracemalloc.start()
    try:
        for view, axis in views:
            hr.sum(view, axis=axis)
            hr.argmax(view, axis=None if isinstance(axis, tuple) else axis)
        no_copy_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        np.ascontiguousarray(x[::2])  # a copy (this shows the probe sees copies)
        copy_peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert no_copy_peak < (1 << 20), no_copy_peak
    assert copy_peak >= x.nbytes // 2, copy_peak


def test_non_contiguous_inputs_match_copies():
    x = random_array((8, 9, 10), np.dtype(np.float32), seed=11)
    for view in (x[::2], x.transpose(2, 0, 1), x[:, 1:, ::3], np.asfortranarray(x)):
        for axis in (None, 0, 1, 2):
            a = hr.sum(view, axis=axis)
            b = hr.sum(np.ascontiguousarray(view), axis=axis)
            assert bits(np.asarray(a)).tobytes() == bits(np.asarray(b)).tobytes()
    assert hr.sum([1, 2, 3]) == 6 and hr.sum([[1.5], [2.5]], axis=0) == [4.0]  # array-likes via numpy


def test_read_only_input():
    x = np.arange(10, dtype=np.int32)
    x.flags.writeable = False
    assert hr.sum(x) == 45


def test_other_numpy_layouts_and_subclasses():
    x = random_array((50, 7), np.dtype(np.float64), seed=12)
    swapped = x.astype(">f8")  # byte-swapped: copied to the native order
    assert bits(np.asarray(hr.sum(swapped, axis=0))).tobytes() == bits(hr.sum(x, axis=0)).tobytes()
    class Sub(np.ndarray):
        pass

    assert hr.argmax(x.view(Sub)) == np.argmax(x)  # a subclass: its plain array, no copy
    with pytest.raises(TypeError, match="masked"):
        hr.sum(np.ma.masked_array(x, mask=x > 0))


def test_cpu_dlpack_producer():
    class Producer:  # only DLPack, no buffer protocol or __array__
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, **kwargs):
            return self.a.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    assert np.array_equal(hr.sum(Producer(x), axis=0), [12, 15, 18, 21])

    class OnGpu(Producer):
        def __dlpack_device__(self):
            return (2, 0)  # kDLCUDA

    with pytest.raises(TypeError, match="from_dlpack"):
        hr.sum(OnGpu(x))
