#!/usr/bin/env python3
"""Per-call cost of the Python package on GPU arrays, and GB/s at large sizes against torch and cupy.

Per call (host time of `calls` calls in a loop, then one synchronisation; `rounds` rounds, the
columns taking turns round by round; median and the spread min-max over the rounds), for a torch CUDA
tensor of 1 and 2**10 float32 elements:
  hipreduce.sum(t)        the public function (allocates its 0-d result, as torch.sum does)
  hipreduce.sum(t, out=)  into a preallocated result
  C loop                  hipreduce_reduce called from C in a loop (_core._reduce_loop), with a
                          preallocated result: the C API's own cost, the floor
  torch.sum(t)            torch's own
and the same for a cupy array (hipreduce.sum, cupy.sum). The package's overhead is the first minus
the C loop. --breakdown also times the pieces of the call path one by one (the framework's attribute
reads, its allocation and the alternatives to it, the current-stream query, the binding, the fast
path _core.reduce_whole that hipreduce.sum(t) takes) to show where that overhead goes.

Large sizes (CUDA events, median of 20 after warm-up, and the spread): sum of 2**20 and 2**28 float32, argmax
per row of 4096 x 65536 float32, segment sum of ragged segments of 0..511 elements, against torch
(and cupy where installed). Usage: python bench/python_overhead.py [--device N] [--breakdown]
[--csv FILE] (the per-call table as CSV too, for bench/report.sh).

--cpu: the cpu device instead (no GPU needed; torch optional): per-call host time of the package on
numpy arrays (and torch CPU tensors where torch is installed) of 1 and 2**10 float32 elements, whole
and along axes, contiguous and as strided views (x[::2], x.T, a broadcast), against the C loop and
numpy's (torch's) own call.
"""
import argparse
import csv
import statistics
import time
import timeit

import numpy as np

try:
    import torch
except ImportError:  # --cpu runs without torch
    torch = None

import hipreduce as hr
from hipreduce import _core

F32 = 10  # hipreduce_dtype code of float32


def one_round_us(fn, calls, sync):
    """Per-call host time (us) of calls x fn(), with a synchronisation before and one inside the timing."""
    sync()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    sync()
    return (time.perf_counter() - t0) / calls * 1e6


def interleaved_us(variants, calls, rounds, sync):
    """{name: [per-call us of each round]}: the variants take turns round by round, so that a drift
    of the host's speed reaches each of them alike. A variant (fn, True) is called once a round with
    the call count (its loop runs in C)."""
    samples = {name: [] for name in variants}
    for _ in range(rounds):
        for name, (fn, in_c) in variants.items():
            if in_c:
                sync()
                t0 = time.perf_counter()
                fn(calls)
                sync()
                samples[name].append((time.perf_counter() - t0) / calls * 1e6)
            else:
                samples[name].append(one_round_us(fn, calls, sync))
    return samples


def cell(samples):
    return f"{statistics.median(samples):.2f} ({min(samples):.2f}-{max(samples):.2f})"


def per_call_table(dev, calls, rounds, cupy, csv_rows):
    sync = torch.cuda.synchronize
    print(f"per-call host time, us: median (min-max) of {rounds} rounds of {calls} calls, the columns "
          "taking turns; overhead = hipreduce.sum - C loop (medians)")
    print(f"{'array':<6} {'n':>5} {'hipreduce.sum':>20} {'sum(out=)':>20} {'C loop':>20} "
          f"{'overhead':>9} {'out= over':>9} {'framework sum':>20}")
    for n in (1, 1 << 10):
        t = torch.ones(n, device=dev)
        out = torch.empty((), device=dev)
        stream = torch.cuda.current_stream(dev).cuda_stream
        x_mem, out_mem = (t.data_ptr(), dev.index, t.nbytes), (out.data_ptr(), dev.index, out.nbytes)
        variants = {
            "torch hr": (lambda: hr.sum(t), False),
            "torch out": (lambda: hr.sum(t, out=out), False),
            "C loop": (lambda k: _core._reduce_loop(dev.index, stream, 0, F32, x_mem, n, F32, out_mem, k), True),
            "torch sum": (lambda: torch.sum(t), False),
        }
        if cupy is not None:
            c = cupy.ones(n, dtype=cupy.float32)
            cout = cupy.empty((), dtype=cupy.float32)
            variants.update({
                "cupy hr": (lambda: hr.sum(c), False),
                "cupy out": (lambda: hr.sum(c, out=cout), False),
                "cupy sum": (lambda: cupy.sum(c), False),
            })
        for fn, in_c in variants.values():  # warm-up: workspaces, allocator pools, templates
            fn(100) if in_c else [fn() for _ in range(100)]
        got = interleaved_us(variants, calls, rounds, sync)
        floor = statistics.median(got["C loop"])
        for fw in ("torch", "cupy") if cupy is not None else ("torch",):
            med = {k: statistics.median(got[fw + " " + k]) for k in ("hr", "out", "sum")}
            csv_rows.append({"framework": fw, "n": n, "hipreduce_us": f"{med['hr']:.2f}", "out_us": f"{med['out']:.2f}",
                             "c_loop_us": f"{floor:.2f}", "overhead_us": f"{med['hr'] - floor:.2f}",
                             "out_overhead_us": f"{med['out'] - floor:.2f}", "framework_us": f"{med['sum']:.2f}"})
            print(f"{fw:<6} {n:>5} {cell(got[fw + ' hr']):>20} {cell(got[fw + ' out']):>20} {cell(got['C loop']):>20} "
                  f"{statistics.median(got[fw + ' hr']) - floor:>9.2f} "
                  f"{statistics.median(got[fw + ' out']) - floor:>9.2f} {cell(got[fw + ' sum']):>20}")


def breakdown(dev, cupy):
    """Host time of each piece of the call path, timeit-style (median of 5 rounds), no GPU work except
    where the piece launches some (marked)."""
    from hipreduce import _arrays
    t = torch.ones(1, device=dev)
    out = torch.empty((), device=dev)
    fw, _ = _arrays.framework_of(t)
    stream = fw.stream(dev.index)
    x_mem, x_tensor, out_mem = fw.memory(t, F32), fw.tensor(t, F32), fw.memory(out, F32)
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    def frame(x, axis=None, dtype=None, keepdims=False, out=None, exact=False):
        """hipreduce.sum's Python frame and its test for the fast path, with nothing inside."""
        if axis is None and dtype is None and not keepdims:
            return None
        return None

    env = dict(t=t, out=out, fw=fw, torch=torch, dev=dev, stream=stream, x_mem=x_mem, x_tensor=x_tensor,
               out_mem=out_mem, core=_core, raw=raw, f32=torch.float32, hr=hr, cupy=cupy, frame=frame,
               empty=torch.empty, empty_strided=torch.empty_strided, empty_like=torch.empty_like)
    pieces = [
        "t.dtype", "t.is_cuda", "t.get_device()", "t.device", "t.is_contiguous()", "t.contiguous()",
        "t.numel()", "t.shape", "t.dim()", "t.data_ptr()", "t.nbytes",
        "raw(0)", "torch.cuda.current_stream(dev)",
        "t.is_cpu", "frame(t)",
        # The result's allocation, and what else would give a new 0-d tensor with its own storage.
        "t.new_empty((), dtype=f32)", "torch.empty((), dtype=f32, device=dev)",
        "torch.empty((), dtype=f32, device=0)", "empty_strided((), (), dtype=f32, device=dev)",
        "torch.empty_like(out)", "empty_like(out)", "out.new_empty(())",
        "torch.ops.aten.empty_like.default(out)", "core.new_scalar(t, 10, 0)", "core.new_scalar(t, 10, 0).data_ptr()",
        "fw.prepare(t)", "fw.empty((), 10, t)", "fw.memory(t, 10)", "fw.tensor(t, 10)", "fw.stream(0)",
        "core.reduce_plan(0, stream, 0, 10, 10, x_tensor, None, -1, out_mem, None)  # launches",
        "core.reduce_whole(0, t, -1, out)  # launches", "core.reduce_whole(0, t, -1, None)  # launches",
        "core.reduce_whole(0, t, -1, empty_like(out))  # launches",
        "hr.sum(t)  # launches", "hr.sum(t, out=out)  # launches", "hr.sum(t, axis=0)  # launches",
        "torch.sum(t)  # launches",
        "torch.sum(t, 0, out=out)  # launches",
    ]
    if cupy is not None:
        env["c"] = cupy.ones(1, dtype=cupy.float32)
        pieces += ["c.flags.c_contiguous", "c.dtype", "c.device.id", "c.data.ptr", "c.nbytes",
                   "cupy.cuda.runtime.getDevice()", "cupy.cuda.get_current_stream()",
                   "cupy.empty((), cupy.float32)", "hr.sum(c)  # launches", "cupy.sum(c)  # launches"]
    print("\nbreakdown, us per call (median of 5 rounds)")
    for stmt in pieces:
        number = 2000 if "launches" in stmt else 20000
        samples = []
        try:
            for _ in range(5):
                torch.cuda.synchronize()
                samples.append(timeit.timeit(stmt.split("  #")[0], globals=env, number=number) / number * 1e6)
        except Exception as e:  # noqa: BLE001 (a piece this torch lacks: say so, time the rest)
            print(f"  {stmt:<72} {type(e).__name__}: {str(e).splitlines()[0][:60]}")
            continue
        torch.cuda.synchronize()
        print(f"  {stmt:<72} {statistics.median(samples):7.3f} ({min(samples):.3f}-{max(samples):.3f})")


def gpu_ms(fn, reps=20):
    for _ in range(3):
        fn()
    times = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    return times


def large_sizes(dev, cupy):
    print("\nlarge sizes: GPU time (CUDA events), ms: median (min-max) of 20, GB/s of input read at the median")
    x = torch.randn(1 << 28, device=dev)
    mid = torch.randn(1 << 20, device=dev)
    rows = torch.randn(4096, 65536, device=dev)
    rng = np.random.default_rng(0)
    lengths = rng.integers(0, 512, size=(1 << 27) // 256)
    offsets = torch.tensor(np.concatenate([[0], np.cumsum(lengths)]), device=dev)
    seg_x = torch.randn(int(offsets[-1]), device=dev)
    cx = cupy.from_dlpack(x) if cupy else None
    cmid = cupy.from_dlpack(mid) if cupy else None
    cr = cupy.from_dlpack(rows) if cupy else None
    cases = [
        ("sum 2^20 f32", mid.numel() * 4, lambda: hr.sum(mid), lambda: torch.sum(mid),
         (lambda: cupy.sum(cmid)) if cupy else None),
        ("sum 2^28 f32", x.numel() * 4, lambda: hr.sum(x), lambda: torch.sum(x),
         (lambda: cupy.sum(cx)) if cupy else None),
        ("argmax rows 4096x65536", rows.numel() * 4, lambda: hr.argmax(rows, axis=1),
         lambda: torch.argmax(rows, dim=1), (lambda: cupy.argmax(cr, axis=1)) if cupy else None),
        ("segment sum 0..511", seg_x.numel() * 4, lambda: hr.segment_reduce(seg_x, offsets, "sum"),
         lambda: torch.segment_reduce(seg_x, "sum", offsets=offsets), None),
    ]
    print(f"{'case':<24} {'hipreduce':>28} {'torch':>28} {'cupy':>28}")
    for name, nbytes, f_hr, f_torch, f_cupy in cases:
        cells = []
        for f in (f_hr, f_torch, f_cupy):
            if f is None:
                cells.append("-")
                continue
            ms = gpu_ms(f)
            med = statistics.median(ms)
            cells.append(f"{med:.3f} ({min(ms):.3f}-{max(ms):.3f}) {nbytes / med / 1e6:.0f}")
        print(f"{name:<24} {cells[0]:>28} {cells[1]:>28} {cells[2]:>28}")


def cpu_table(calls, rounds):
    """Per-call host time of calls on the cpu device: each case's hipreduce call against the
    framework's own, the C loop (hipreduce_reduce of the whole array from C) as the floor."""
    def nosync():
        pass

    print(f"cpu device, per-call host time, us: median (min-max) of {rounds} rounds of {calls} calls, "
          "the columns taking turns")
    print(f"{'case':<34} {'hipreduce':>20} {'framework':>20} {'C loop':>20}")
    for n in (1, 1 << 10):
        a = np.ones(n, np.float32)
        m = np.ones((32, n // 32 or 1), np.float32)
        w = np.ones(2 * n, np.float32)
        b = np.broadcast_to(np.float32(1), (4, n))
        out0 = np.empty((), np.float32)
        cases = {
            f"numpy sum, n={n}": (lambda: hr.sum(a), lambda: np.sum(a)),
            f"numpy sum out=, n={n}": (lambda: hr.sum(a, out=out0), lambda: np.sum(a, out=out0)),
            f"numpy sum x[::2], n={n}": (lambda: hr.sum(w[::2]), lambda: np.sum(w[::2])),
            "numpy sum rows [32, n/32] axis=1": (lambda: hr.sum(m, axis=1), lambda: np.sum(m, axis=1)),
            "numpy sum cols [32, n/32] axis=0": (lambda: hr.sum(m, axis=0), lambda: np.sum(m, axis=0)),
            f"numpy sum x.T axis=1, n={n}": (lambda: hr.sum(m.T, axis=1), lambda: np.sum(m.T, axis=1)),
            "numpy sum broadcast [4, n] axis=1": (lambda: hr.sum(b, axis=1), lambda: np.sum(b, axis=1)),
            f"numpy argmax, n={n}": (lambda: hr.argmax(a), lambda: np.argmax(a)),
        }
        if torch is not None:
            t = torch.ones(n)
            tm = torch.ones(32, n // 32 or 1)
            cases.update({
                f"torch sum, n={n}": (lambda: hr.sum(t), lambda: torch.sum(t)),
                "torch sum axis=1 [32, n/32]": (lambda: hr.sum(tm, axis=1), lambda: torch.sum(tm, 1)),
                "torch sum x.T axis=1 [n/32, 32]": (lambda: hr.sum(tm.T, axis=1), lambda: torch.sum(tm.T, 1)),
            })
        res = np.empty(1, np.float32)
        floor = (lambda k: _core._reduce_loop(-1, 0, 0, F32, a, n, F32, res, k), True)
        variants = {"C loop": floor}
        for name, (f_hr, f_fw) in cases.items():
            variants[name + " hr"] = (f_hr, False)
            variants[name + " fw"] = (f_fw, False)
        for fn, in_c in variants.values():
            fn(100) if in_c else [fn() for _ in range(100)]
        got = interleaved_us(variants, calls, rounds, nosync)
        for name in cases:
            print(f"{name:<34} {cell(got[name + ' hr']):>20} {cell(got[name + ' fw']):>20} "
                  f"{cell(got['C loop']):>20}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", type=int, default=0)
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--breakdown", action="store_true", help="also time each piece of the call path")
    ap.add_argument("--no-large", action="store_true", help="skip the large sizes")
    ap.add_argument("--csv", help="also write the per-call table to this CSV file")
    ap.add_argument("--cpu", action="store_true", help="time the cpu device on host arrays instead")
    args = ap.parse_args()
    if args.cpu:
        print(f"hipreduce {hr.__version__} ({hr.backend()}), numpy {np.__version__}, "
              f"torch {torch.__version__ if torch is not None else '-'}")
        cpu_table(args.calls, args.rounds)
        return
    dev = torch.device("cuda", args.device)
    torch.cuda.set_device(dev)
    try:
        import cupy
    except ImportError:
        cupy = None
    print(f"hipreduce {hr.__version__} ({hr.backend()}), torch {torch.__version__}, "
          f"cupy {cupy.__version__ if cupy else '-'}, {torch.cuda.get_device_name(dev)}")
    csv_rows = []
    per_call_table(dev, args.calls, args.rounds, cupy, csv_rows)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, list(csv_rows[0]))
            w.writeheader()
            w.writerows(csv_rows)
    if args.breakdown:
        breakdown(dev, cupy)
    if not args.no_large:
        large_sizes(dev, cupy)


if __name__ == "__main__":
    main()
