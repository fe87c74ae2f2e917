"""Reductions by unsorted key: hipreduce.reduce_by_key against torch's index_add_, atomic (torch's
default: the float sums' order, and so their bits, vary run to run) and under
torch.use_deterministic_algorithms(True) (torch's deterministic index_add_), in one process.

    PYTHONPATH=BUILD/python python3 bench/by_key_anchors.py [--csv OUT.csv] [--reps 5] [--scale S]
    PYTHONPATH=BUILD/python python3 bench/by_key_anchors.py --smoke      (the CPU, sizes / 2^12, 1 rep)

The cases of bench/by_key_bench.c: f32 values 2^26 into 2^10, 2^16 and 2^20 bins with uniform and
Zipf keys (weights 1/(k+1): a few hot bins), [2^20][128] rows into 2^17 bins (an embedding's
gradient), and a bincount of 2^28 int32 keys into 256 bins with f32 weights (torch.bincount as
the atomic anchor: torch refuses its weighted bincount on CUDA in deterministic mode). --scale S
divides every length by 2^S. Ours runs with out= (results on torch's stream). On CUDA both are
timed with CUDA events over batches of calls (tensor_bench.timed: median of --reps batches, the
low-high range of ours), on the CPU with the host clock. GB/s counts the values and keys read.
"read" is the library's full sum of a contiguous f32 array of the same bytes. Each case writes
two rows (one per anchor) in the columns of bench/stats_bench.py's CSV (report_tables.py's table).
"""
import argparse
import statistics
import time

import torch

import hipreduce as hr
from stats_bench import report  # the CSV of stats.csv's columns, and the table on stdout

CASES = [  # name, rows, row, bins, zipf, bincount
    ("2^26 -> 2^10 uniform", 26, 1, 1 << 10, False, False), ("2^26 -> 2^10 zipf", 26, 1, 1 << 10, True, False),
    ("2^26 -> 2^16 uniform", 26, 1, 1 << 16, False, False), ("2^26 -> 2^16 zipf", 26, 1, 1 << 16, True, False),
    ("2^26 -> 2^20 uniform", 26, 1, 1 << 20, False, False), ("2^26 -> 2^20 zipf", 26, 1, 1 << 20, True, False),
    ("[2^20][128] -> 2^17", 20, 128, 1 << 17, False, False), ("bincount 2^28 -> 256 weighted", 28, 1, 256, False, True),
]


def timer(device):
    """timed(fn, batch, reps) -> (median, low, high) seconds a call: CUDA events, or the host clock."""
    if device == "cuda":
        from tensor_bench import timed  # noqa: PLC0415 (needs CUDA only where it runs)
        return timed

    def host_timed(fn, batch, reps):
        fn(0)
        times = []
        for _ in range(reps):
            start = time.perf_counter()
            for i in range(batch):
                fn(i)
            times.append((time.perf_counter() - start) / batch)
        return statistics.median(times), min(times), max(times)
    return host_timed


def keys_of(n, bins, zipf, device, seed):
    g = torch.Generator(device=device).manual_seed(seed)
    if not zipf:
        return torch.randint(0, bins, (n,), generator=g, device=device, dtype=torch.int32)
    cdf = torch.cumsum(1.0 / torch.arange(1, bins + 1, device=device, dtype=torch.float64), 0)
    u = torch.rand(n, generator=g, device=device, dtype=torch.float64) * cdf[-1]
    return torch.searchsorted(cdf, u).clamp_(max=bins - 1).to(torch.int32)


def deterministic(fn):
    """fn under torch.use_deterministic_algorithms(True), the mode restored after."""
    def call(i):
        was = torch.are_deterministic_algorithms_enabled()
        torch.use_deterministic_algorithms(True)
        try:
            return fn(i)
        finally:
            torch.use_deterministic_algorithms(was)
    return call


def run_case(case, device, scale, reps, batch, timed):
    name, log_n, row, bins, zipf, bincount = case
    name += f" (/2^{scale})" if scale else ""
    n = max(1, (1 << log_n) >> scale)
    bins = max(1, bins >> scale) if not bincount else bins
    shape = (n, row) if row > 1 else (n,)
    xs = [torch.randn(shape, device=device) for _ in range(2)]
    ks = [keys_of(n, bins, zipf, device, s) for s in range(2)]
    out = torch.empty((bins, row) if row > 1 else (bins,), device=device)
    ours = timed(lambda i: hr.reduce_by_key(xs[i % 2], ks[i % 2], bins, "sum", out=out), batch, reps)
    first = hr.reduce_by_key(xs[0], ks[0], bins, "sum")
    assert torch.equal(first, hr.reduce_by_key(xs[0], ks[0], bins, "sum")), f"{name}: two runs differ"
    index_add = lambda i: torch.zeros_like(out).index_add_(0, ks[i % 2], xs[i % 2])  # noqa: E731
    anchors = [("torch.bincount (atomic)" if bincount else "torch index_add_ (atomic)",
                (lambda i: torch.bincount(ks[i % 2], xs[i % 2], minlength=bins)) if bincount else index_add),
               ("torch index_add_ (deterministic)", deterministic(index_add))]
    nbytes = xs[0].numel() * xs[0].element_size() + ks[0].numel() * ks[0].element_size()
    flat = [torch.randn(nbytes // 4, device=device) for _ in range(2)]
    read = timed(lambda i: hr.sum(flat[i % 2]), batch, reps)
    gbs = lambda t: nbytes / t / 1e9  # noqa: E731
    rows = []
    for anchor_name, anchor in anchors:
        try:
            theirs = timed(anchor, batch, reps)
        except RuntimeError as e:  # a call torch refuses (on this device or in this mode)
            print(f"{name}: {anchor_name}: {e}")
            continue
        rows.append((name, anchor_name, gbs(ours[0]), gbs(ours[2]), gbs(ours[1]), gbs(theirs[0]), gbs(read[0]),
                     theirs[0] / ours[0], read[0] / ours[0]))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--csv")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--scale", type=int, default=0, help="divide every length (and bins but bincount's) by 2^S")
    ap.add_argument("--device", default="cuda", choices=("cuda", "cpu"))
    ap.add_argument("--smoke", action="store_true", help="the CPU, --scale 12, one rep of one call")
    args = ap.parse_args()
    if args.smoke:
        args.device, args.scale, args.reps = "cpu", max(args.scale, 12), 1
    batch = 1 if args.device == "cpu" else 10
    timed = timer(args.device)
    rows = []
    for case in CASES:
        rows += run_case(case, args.device, args.scale, args.reps, batch, timed)
        if args.device == "cuda":
            torch.cuda.empty_cache()
    report(rows, args.csv, 0 if args.device == "cuda" and not args.scale else 3)

if __name__ == "__main__":
    main()
