#!/usr/bin/env python3
"""Per-call cost of the Python package on a torch CUDA tensor (issue 20's speed lines), and GB/s at
large sizes against torch and cupy.

Per call (host time, 20000 calls in a loop, then one synchronisation; median of 7 rounds):
  hipreduce.sum(t)          the public function
  _core.reduce_axis(...)    the binding alone with preallocated result and raw pointers: the C call
                            plus nanobind's argument conversion (about 0.1 us), i.e. the C API floor
  torch.sum(t)              torch's own
for t of 1 and 2**10 float32 elements. The overhead over the C call is the first minus the second.
Large sizes (CUDA events, median of 20 after warm-up): sum of 2**28 float32, argmax per row of
4096 x 65536 float32, segment sum of ragged segments of 0..511 elements, against torch (and cupy where
installed). Usage: python bench/python_overhead.py [--device N]
"""
import argparse
import statistics
import time

import numpy as np
import torch

import hipreduce as hr
from hipreduce import _core


def per_call_us(fn, calls=20000, rounds=7):
    out = []
    for _ in range(rounds):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
        out.append((time.perf_counter() - t0) / calls * 1e6)
    return statistics.median(out)


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
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", type=int, default=0)
    args = ap.parse_args()
    dev = torch.device("cuda", args.device)
    torch.cuda.set_device(dev)
    print(f"hipreduce {hr.__version__} ({hr.backend()}), torch {torch.__version__}, "
          f"{torch.cuda.get_device_name(dev)}")
    print("per-call host time, us (median of 7 rounds of 20000 calls)")
    print(f"{'n':>6} {'hipreduce.sum':>14} {'_core (C floor)':>16} {'overhead':>9} {'torch.sum':>10}")
    for n in (1, 1 << 10):
        t = torch.ones(n, device=dev)
        out = torch.empty((), device=dev)
        stream = torch.cuda.current_stream(dev).cuda_stream
        ptr, optr = t.data_ptr(), out.data_ptr()
        hr_us = per_call_us(lambda: hr.sum(t))
        core_us = per_call_us(lambda: _core.reduce_axis(args.device, stream, 0, 10, ptr, 1, n, 1, 10, optr))
        torch_us = per_call_us(lambda: torch.sum(t))
        print(f"{n:>6} {hr_us:>14.2f} {core_us:>16.2f} {hr_us - core_us:>9.2f} {torch_us:>10.2f}")

    try:
        import cupy
    except ImportError:
        cupy = None
    print("\nlarge sizes: GPU time (CUDA events), ms and GB/s of input read")
    x = torch.randn(1 << 28, device=dev)
    rows = torch.randn(4096, 65536, device=dev)
    rng = np.random.default_rng(0)
    lengths = rng.integers(0, 512, size=(1 << 27) // 256)
    offsets = torch.tensor(np.concatenate([[0], np.cumsum(lengths)]), device=dev)
    seg_x = torch.randn(int(offsets[-1]), device=dev)
    cases = [
        ("sum 2^28 f32", x.numel() * 4, lambda: hr.sum(x), lambda: torch.sum(x),
         (lambda cx: lambda: cupy.sum(cx))(cupy.from_dlpack(x)) if cupy else None),
        ("argmax rows 4096x65536", rows.numel() * 4, lambda: hr.argmax(rows, axis=1),
         lambda: torch.argmax(rows, dim=1),
         (lambda cr: lambda: cupy.argmax(cr, axis=1))(cupy.from_dlpack(rows)) if cupy else None),
        ("segment sum 0..511", seg_x.numel() * 4, lambda: hr.segment_reduce(seg_x, offsets, "sum"),
         lambda: torch.segment_reduce(seg_x, "sum", offsets=offsets), None),
    ]
    print(f"{'case':<24} {'hipreduce':>16} {'torch':>16} {'cupy':>16}")
    for name, nbytes, f_hr, f_torch, f_cupy in cases:
        cells = []
        for f in (f_hr, f_torch, f_cupy):
            if f is None:
                cells.append("-")
                continue
            ms = gpu_ms(f)
            cells.append(f"{ms:.3f} {nbytes / ms / 1e6:.0f}")
        print(f"{name:<24} {cells[0]:>16} {cells[1]:>16} {cells[2]:>16}")


if __name__ == "__main__":
    main()
