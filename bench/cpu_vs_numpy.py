#!/usr/bin/env python3
"""The cpu device against numpy's sum and a plain streaming read, on this machine, in one run.

For f32 and f64 sums at each size it prints (GB/s = n * element size / median time):
  numpy      numpy.sum on arrays rotated over copies the way hipreduce-bench rotates its inputs
  1 thread   hipreduce-bench --device=cpu --threads=1, and its ratio to numpy
  N threads  hipreduce-bench --device=cpu with every core (--threads=0), and its share of the
             all-core read
  read 1T    hipreduce-bench's own per-row ceiling: a 64-bit word sum of the same buffers, 1 thread
  read NT    a plain streaming read by every core at once: libc memchr over disjoint slices of a
             512 MiB buffer from one Python thread per core (ctypes releases the GIL), timed from
             the first start to the last finish; once per run
  before     optional (--baseline-bench): the same 1-thread figure from a hipreduce-bench built
             at an earlier commit, for "no slower than before"

Usage:  python3 bench/cpu_vs_numpy.py [--bench build/bench/hipreduce-bench] [--baseline-bench PATH]
                                      [--sizes 2^10,2^14,2^20,2^26] [--reps 30] [--op sum_exact]
Needs numpy (pip install numpy). The header says the machine, the commit, the command and the
load average before and after: on a shared machine other work changes the figures.
"""
import argparse
import ctypes
import ctypes.util
import csv
import io
import os
import platform
import statistics
import subprocess
import sys
import threading
import time

import numpy as np

ROTATION_BYTES = 256 << 20  # as hipreduce-bench: copies that together exceed the last-level cache
MAX_COPIES = 64


def parse_size(text):
    text = text.strip()
    return 1 << int(text[2:]) if text.startswith("2^") else int(float(text))


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def run_bench(bench, threads, sizes, reps, op="sum"):
    """{(dtype, n): (gbps, ceiling_gbps)} from hipreduce-bench's CSV (threads None: no --threads, for
    a bench from before that option, whose cpu device had one thread)."""
    cmd = [bench, "--device=cpu", f"--ops={op}", "--dtypes=f32,f64", "--sizes=" + ",".join(str(n) for n in sizes),
           f"--reps={reps}", "--format=csv"] + ([f"--threads={threads}"] if threads is not None else [])
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    rows = csv.DictReader(io.StringIO("".join(l for l in out.splitlines(True) if not l.startswith("#"))))
    return {(r["dtype"], int(r["n"])): (float(r["gbps"]), float(r["ceiling_gbps"])) for r in rows}


def numpy_gbps(dtype, n, reps):
    itemsize = np.dtype(dtype).itemsize
    copies = max(2, min(MAX_COPIES, -(-ROTATION_BYTES // (n * itemsize))))
    rng = np.random.default_rng(1234)
    arrays = [(0.5 + rng.random(n)).astype(dtype) for _ in range(copies)]
    for a in arrays[:2]:
        a.sum()
    times = []
    for i in range(max(reps, copies)):
        a = arrays[i % copies]
        t0 = time.perf_counter()
        a.sum()
        times.append(time.perf_counter() - t0)
    return n * itemsize / statistics.median(times) / 1e9


def all_core_read_gbps(threads, total=512 << 20, rounds=7):
    """Every thread memchr's its own slice of one buffer; GB/s of the whole, best of rounds."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    libc.memchr.restype = ctypes.c_void_p
    libc.memchr.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t]
    buf = np.ones(total, np.uint8)  # written, so every page is real memory; memchr(0) reads it all
    base = buf.ctypes.data
    part = total // threads
    best = 0.0
    for _ in range(rounds):
        barrier = threading.Barrier(threads)
        spans = [None] * threads

        def work(k):
            barrier.wait()
            t0 = time.perf_counter()
            libc.memchr(base + k * part, 0, part)
            spans[k] = (t0, time.perf_counter())

        pool = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
        elapsed = max(s[1] for s in spans) - min(s[0] for s in spans)
        best = max(best, part * threads / elapsed / 1e9)
    return best


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench", default=os.path.join(here, "..", "build", "bench", "hipreduce-bench"))
    ap.add_argument("--baseline-bench", help="hipreduce-bench of an earlier commit (adds a 'before' column)")
    ap.add_argument("--sizes", default="2^10,2^14,2^16,2^20,2^22,2^26")
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--op", default="sum", help="the library's op against numpy's sum (sum_exact: the exact sum)")
    args = ap.parse_args()
    sizes = [parse_size(s) for s in args.sizes.split(",")]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    commit = subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "?"
    dirty = subprocess.run(["git", "-C", here, "status", "--porcelain", "--", "../src", "../bench"],
                           capture_output=True, text=True).stdout.strip()
    load_before = os.getloadavg()

    one = run_bench(args.bench, 1, sizes, args.reps, args.op)
    every = run_bench(args.bench, 0, sizes, args.reps, args.op)
    before = run_bench(args.baseline_bench, None, sizes, args.reps) if args.baseline_bench else None
    read_all = all_core_read_gbps(cores)
    numpy_rows = {(d, n): numpy_gbps(np.float32 if d == "f32" else np.float64, n, args.reps)
                  for d in ("f32", "f64") for n in sizes}
    load_after = os.getloadavg()

    print(f"machine: {cpu_model()}, {cores} cores; numpy {np.__version__}; python {platform.python_version()}")
    print(f"commit: {commit}{' (+ uncommitted changes in src/ or bench/)' if dirty else ''}")
    print("command: " + " ".join([os.path.basename(sys.executable)] + sys.argv))
    print(f"load average: {load_before[0]:.2f} before, {load_after[0]:.2f} after")
    print(f"read NT (all {cores} cores, memchr): {read_all:.1f} GB/s")
    head = f"{'dtype':5} {'n':>10} {'numpy':>7} {'1 thread':>8} {'x numpy':>7} {f'{cores} thr':>7} " \
           f"{'% rdNT':>6} {'read 1T':>7}" + (f" {'before':>7}" if before else "")
    print(head)
    for d in ("f32", "f64"):
        for n in sizes:
            g1, ceil1 = one[(d, n)]
            gn, _ = every[(d, n)]
            npg = numpy_rows[(d, n)]
            line = f"{d:5} {n:>10} {npg:7.1f} {g1:8.1f} {g1 / npg:7.2f} {gn:7.1f} {100 * gn / read_all:6.0f} {ceil1:7.1f}"
            if before:
                line += f" {before[(d, n)][0]:7.1f}"
            print(line)
    print("GB/s = n * element size / median time; hipreduce-bench rows and numpy rotate their inputs over "
          "copies of 256 MiB in all")


if __name__ == "__main__":
    main()
