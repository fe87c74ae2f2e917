"""The cpu device against numpy on numpy's own reduction shapes, in one process.

    PYTHONPATH=BUILD/python python3 bench/cpu_vs_numpy.py [--csv OUT.csv] [--reps 7]
        [--threads 1,0] [--ops sum,mean,...] [--dtypes f32,...] [--shapes full,rows,...] [--size small|large|both]

The shapes of numpy's benchmarks/bench_reduce.py (the 100 x 100 squares over axis 0 and 1, 1-d
arrays of 20000 and 200000 elements for min/max and argmin/argmax), the same layouts at sizes
where the read dominates (a full reduction of 2^22 elements; rows, axis=-1, and columns, axis=0,
of 10000 x 1000; a middle axis, axis=1 of 100 x 1000 x 100), every dtype numpy and the library
share (f32, f64, i32, i64, i8, u8, f16), and the ops sum, prod, min, max, argmin, argmax and mean
(floats). numpy and hipreduce (numpy results, the cpu device) run the same call on the same array,
interleaved: each rep times a batch of calls of each (a batch lasts about 2 ms), --reps reps; the
table gives the median time of a call, the ratio numpy / hipreduce (above 1: hipreduce is faster),
and the spread of that ratio over the reps (min-max). --threads: the cpu device's threads (0: every
core), one table each. mean has no function in the package: it runs the library's MEAN op through
the package's plan call. Results are compared (values; indices exactly) so a timing is of a right
answer; prod's inputs lie near 1 so that it neither overflows nor underflows.
"""
import argparse
import csv
import os
import statistics
import sys
import time

import numpy as np

import hipreduce
from hipreduce import _calls as _c
from hipreduce import _core
from hipreduce._arrays import framework_of

DTYPES = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64, "i8": np.int8,
          "u8": np.uint8, "f16": np.float16}
OPS = ("sum", "prod", "min", "max", "argmin", "argmax", "mean")
MEAN = 16

# (name, kind, shape, axis, ops it applies to or None for all): numpy's own shapes first.
SMALL = [("full_20k", "full", (20000,), None, ("sum", "prod", "min", "max", "mean")),
         ("full_200k", "full", (200000,), None, ("argmin", "argmax")),
         ("rows_100", "rows", (100, 100), 1, None),
         ("cols_100", "columns", (100, 100), 0, None)]
LARGE = [("full_4M", "full", (1 << 22,), None, None),
         ("rows_10kx1k", "rows", (10000, 1000), -1, None),
         ("cols_10kx1k", "columns", (10000, 1000), 0, None),
         ("mid_100x1kx100", "middle", (100, 1000, 100), 1, None)]


def mean_call(x, axis):
    """The library's MEAN op of x over axis (a plan run, numpy results): the package's _reduce
    with op 16, whose result dtype is the input's."""
    fw, x = framework_of(x)
    x, code, device = fw.prepare(x)
    mask, shape = _c.axes(fw, x, axis, False, MEAN)
    res = fw.empty(shape, code, x)
    _c.run(fw, device, MEAN, code, code, x, None, mask, res, None)
    return fw.scalar(res) if axis is None else res


def ours(op, x, axis):
    if op == "mean":
        return mean_call(x, axis)
    return getattr(hipreduce, op)(x, axis=axis)


def theirs(op, x, axis):
    return getattr(np, op)(x, axis=axis)


def data(shape, dtype, op, rng):
    n = int(np.prod(shape))
    if op == "prod":
        if np.issubdtype(dtype, np.integer):
            return rng.integers(0, 2, size=n).astype(dtype).reshape(shape) * 0 + 1
        return rng.uniform(0.999, 1.001, size=n).astype(dtype).reshape(shape)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -100), min(info.max, 100), size=n, endpoint=True).astype(dtype).reshape(shape)
    return rng.standard_normal(n).astype(dtype).reshape(shape)


def same(a, b, op, x, axis):
    """a (ours) against b (numpy's): exact for integers, min/max and the indices; floats against
    the float64 reduction of x (numpy's float16 sums round every partial to float16)."""
    a, b = np.asarray(a), np.asarray(b)
    if op in ("argmin", "argmax", "min", "max") or a.dtype.kind in "iu":
        return a.shape == b.shape and np.array_equal(a.astype(np.float64), b.astype(np.float64), equal_nan=True)
    ref = getattr(np, op)(x.astype(np.float64), axis=axis)
    tol = 2e-2 if a.dtype == np.float16 else 1e-3
    return a.shape == b.shape and np.allclose(a.astype(np.float64), ref, rtol=tol, atol=tol)


def batch_time(fn, calls):
    t = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - t) / calls


def time_pair(f_ours, f_theirs, reps):
    one = min(batch_time(f_ours, 1), batch_time(f_theirs, 1))
    calls = max(1, min(2000, int(2e-3 / max(one, 1e-7))))
    t_ours, t_theirs = [], []
    for _ in range(reps):
        t_ours.append(batch_time(f_ours, calls))
        t_theirs.append(batch_time(f_theirs, calls))
    ratios = [b / a for a, b in zip(t_ours, t_theirs)]
    return statistics.median(t_ours), statistics.median(t_theirs), min(ratios), max(ratios)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--csv", default="cpu_vs_numpy.csv")
    p.add_argument("--reps", type=int, default=7)
    p.add_argument("--threads", default="1,0")
    p.add_argument("--ops", default=",".join(OPS))
    p.add_argument("--dtypes", default=",".join(DTYPES))
    p.add_argument("--shapes", default="full,rows,columns,middle")
    p.add_argument("--size", choices=("small", "large", "both"), default="both")
    a = p.parse_args()
    cases = (SMALL if a.size != "large" else []) + (LARGE if a.size != "small" else [])
    kinds = set(a.shapes.split(","))
    ops = a.ops.split(",")
    rng = np.random.default_rng(7)
    rows = []
    print(f"numpy {np.__version__}, hipreduce {hipreduce.__version__}, {os.cpu_count()} cpus")
    for threads in (int(t) for t in a.threads.split(",")):
        hipreduce.set_cpu_threads(threads)
        label = "all" if threads == 0 else str(threads)
        print(f"\nthreads {label}\n{'case':<16}{'op':<8}{'dtype':<6}{'ours ms':>10}{'numpy ms':>10}{'ratio':>7}  spread")
        for name, kind, shape, axis, only in cases:
            if kind not in kinds:
                continue
            for op in ops:
                if only is not None and op not in only:
                    continue
                for dname in a.dtypes.split(","):
                    dtype = DTYPES[dname]
                    if op == "mean" and not np.issubdtype(dtype, np.floating):
                        continue
                    x = data(shape, dtype, op, rng)
                    ax = axis
                    if not same(ours(op, x, ax), theirs(op, x, ax), op, x, ax):
                        print(f"{name:<16}{op:<8}{dname:<6} results differ", file=sys.stderr)
                        rows.append([label, name, op, dname, "", "", "", "", "", "differ"])
                        continue
                    mo, mn, lo, hi = time_pair(lambda: ours(op, x, ax), lambda: theirs(op, x, ax), a.reps)
                    print(f"{name:<16}{op:<8}{dname:<6}{mo * 1e3:>10.4f}{mn * 1e3:>10.4f}{mn / mo:>7.2f}  {lo:.2f}-{hi:.2f}")
                    rows.append([label, name, op, dname, f"{mo * 1e3:.5f}", f"{mn * 1e3:.5f}", f"{mn / mo:.3f}",
                                 f"{lo:.3f}", f"{hi:.3f}", ""])
                    sys.stdout.flush()
    with open(a.csv, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["threads", "case", "op", "dtype", "ours_ms", "numpy_ms", "ratio", "ratio_min", "ratio_max", "note"])
        w.writerows(rows)
    print(f"\nwrote {a.csv}")


if __name__ == "__main__":
    main()
