"""The statistics on the GPU: hipreduce's one-pass var_mean, logsumexp, nansum, nanmean, aminmax,
nanargmin, nanargmax, mean, all, any and count_nonzero against torch's own, in one process.

    PYTHONPATH=BUILD/python python3 bench/stats_bench.py [--csv OUT.csv] [--reps 5]

Each case runs the package's function with out= (results in device memory, on torch's stream) and
torch's formulation of the same statistic, both timed with CUDA events over a batch of calls (median
of --reps batches; the low-high range of ours), inputs rotated between two copies past the L2. GB/s
counts the input's bytes, read once. "read" is the library's full sum of a contiguous f32 array of
the same bytes (its proxy for the read ceiling, as bench/tensor_bench.py's). The anchor column names
torch's formulation; where torch needs two calls (nanmean as nansum / count, min and max; nanargmin,
which torch lacks, as argmin of nan_to_num) that is the anchor. Needs torch with CUDA.
"""
import argparse

import torch

import hipreduce as hr
from tensor_bench import timed  # the same batches of CUDA-event-timed calls


def inputs(shape, dtype, nan=False, boolean=False):
    """Two copies of a random tensor (a tenth NaN for the nan-aware ops; bool: a few zeros)."""
    out = []
    for _ in range(2):
        if boolean:
            x = torch.rand(shape, device="cuda") > 1e-6
        else:
            x = torch.randn(shape, device="cuda", dtype=torch.float32)
            if nan:
                x[torch.rand(shape, device="cuda") < 0.1] = float("nan")
            x = x.to(dtype)
        out.append(x)
    return out


def cases():
    """(name, shape, dtype, kind, axes, ours(x, outs), anchor name, anchor(x))."""
    f32, bf16 = torch.float32, torch.bfloat16
    rows = [((65536, 1024), f32), ((65536, 1024), bf16), ((4096, 4096), f32), ((4096, 4096), bf16)]
    vocab = [((4096, 32000), f32), ((4096, 32000), bf16), ((1024, 128256), f32), ((1024, 128256), bf16)]
    bn = (64, 256, 56, 56)
    c = [("var_mean f32 2^28", (1 << 28,), f32, "", None, "var_mean", "torch.var_mean",
          lambda x: torch.var_mean(x, correction=1))]
    for shape, dt in rows:
        c.append((f"var_mean rows {list(shape)} {str(dt)[6:]}", shape, dt, "", (1,), "var_mean", "torch.var_mean",
                  lambda x: torch.var_mean(x, dim=1, correction=1)))
    c.append((f"var_mean {list(bn)} over (0,2,3)", bn, f32, "", (0, 2, 3), "var_mean", "torch.var_mean",
              lambda x: torch.var_mean(x, dim=(0, 2, 3), correction=1)))
    for shape, dt in vocab:
        c.append((f"logsumexp rows {list(shape)} {str(dt)[6:]}", shape, dt, "", (1,), "logsumexp",
                  "torch.logsumexp", lambda x: torch.logsumexp(x, dim=1)))
    c += [("nansum f32 2^28", (1 << 28,), f32, "nan", None, "nansum", "torch.nansum", torch.nansum),
          ("nansum rows [4096, 4096] f32", (4096, 4096), f32, "nan", (1,), "nansum", "torch.nansum",
           lambda x: torch.nansum(x, dim=1)),
          ("nanmean f32 2^28", (1 << 28,), f32, "nan", None, "nanmean", "torch.nanmean", torch.nanmean),
          ("nanmean rows [4096, 4096] f32", (4096, 4096), f32, "nan", (1,), "nanmean", "torch.nanmean",
           lambda x: torch.nanmean(x, dim=1)),
          ("aminmax f32 2^28", (1 << 28,), f32, "", None, "aminmax", "torch.aminmax", torch.aminmax),
          ("aminmax f32 2^28 (torch.min + torch.max)", (1 << 28,), f32, "", None, "aminmax", "min + max",
           lambda x: (torch.min(x), torch.max(x))),
          ("nanargmin f32 2^28", (1 << 28,), f32, "nan", None, "nanargmin", "argmin(nan_to_num(inf))",
           lambda x: torch.argmin(torch.nan_to_num(x, nan=float("inf")))),
          ("nanargmax rows [4096, 32000] f32", (4096, 32000), f32, "nan", 1, "nanargmax", "argmax(nan_to_num(-inf))",
           lambda x: torch.argmax(torch.nan_to_num(x, nan=float("-inf")), dim=1)),
          (f"mean {list(bn)} over (0,2,3)", bn, f32, "", (0, 2, 3), "mean", "torch.mean",
           lambda x: torch.mean(x, dim=(0, 2, 3))),
          ("all bool 2^30", (1 << 30,), torch.bool, "bool", None, "all", "torch.all", torch.all),
          ("any bool 2^30", (1 << 30,), torch.bool, "bool", None, "any", "torch.any", torch.any),
          ("count_nonzero bool 2^30", (1 << 30,), torch.bool, "bool", None, "count_nonzero",
           "torch.count_nonzero", torch.count_nonzero)]
    return c


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--csv")
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    rows = []
    for name, shape, dt, kind, axes, op, anchor_name, anchor in cases():
        xs = inputs(shape, dt, nan=kind == "nan", boolean=kind == "bool")
        fn = getattr(hr, op)
        kw = {"correction": 1} if op == "var_mean" else {}
        try:
            first = fn(xs[0], axis=axes, **kw)
            outs = tuple(t.clone() for t in first) if isinstance(first, tuple) else first.clone()
            ours = timed(lambda i: fn(xs[i % 2], axis=axes, out=outs, **kw), 10, args.reps)
            theirs = timed(lambda i: anchor(xs[i % 2]), 10, args.reps)
        except (RuntimeError, TypeError, ValueError) as e:
            print(f"{name}: {type(e).__name__}: {e}")
            continue
        nbytes = xs[0].numel() * xs[0].element_size()
        flat = [torch.randn(nbytes // 4, device="cuda") for _ in range(2)]
        read = timed(lambda i: hr.sum(flat[i % 2]), 10, args.reps)
        gbs = lambda t: nbytes / t / 1e9
        rows.append((name, anchor_name, gbs(ours[0]), gbs(ours[2]), gbs(ours[1]), gbs(theirs[0]), gbs(read[0]),
                     theirs[0] / ours[0], read[0] / ours[0]))
        del xs, flat, outs, first
        torch.cuda.empty_cache()
    report(rows, args.csv)


def report(rows, csv_path, digits=0):
    """rows of (case, anchor, ours GB/s, low, high, anchor GB/s, read GB/s, x anchor, fraction of the
    read) into csv_path (the columns report_tables.py renders; None: none) and a table on stdout.
    digits: decimals of the GB/s (small sizes on the CPU need some)."""
    header = "case,anchor,hipreduce_GBs,hipreduce_GBs_low,hipreduce_GBs_high,torch_GBs,read_GBs,x_torch,frac_read"
    g = f".{digits}f"
    lines = [header] + [f"\"{r[0]}\",{r[1]},{r[2]:{g}},{r[3]:{g}},{r[4]:{g}},{r[5]:{g}},{r[6]:{g}},{r[7]:.2f},"
                        f"{r[8]:.3f}" for r in rows]
    if csv_path:
        open(csv_path, "w").write("\n".join(lines) + "\n")
    width = max([44] + [len(r[0]) for r in rows])
    print(f"{'case':{width}s} {'ours GB/s':>18s} {'anchor':>32s} {'GB/s':>6s} {'read':>6s} {'x anchor':>8s} "
          f"{'of read':>7s}")
    for r in rows:
        print(f"{r[0]:{width}s} {r[2]:6{g}} ({r[3]:{g}}-{r[4]:{g}}) {r[1]:>32s} {r[5]:6{g}} {r[6]:6{g}} {r[7]:8.2f} "
              f"{r[8]:7.1%}")


if __name__ == "__main__":
    main()
