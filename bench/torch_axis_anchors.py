#!/usr/bin/env python3
"""Times torch's axis and segment reductions as anchors for hipreduce-bench --shape, on GPU 0.

  python3 bench/torch_axis_anchors.py --shape rows --dims 4194304x16,16x4194304 \\
      --cases sum:f32,argmax:f32,sum:f16:f32 [--seed 1] [--reps 100] [--warmup 5] [--ceiling GBPS] \\
      [--output FILE]

--shape and --dims mean what they mean to hipreduce-bench: rows (an R x C matrix, each row
reduced: dim=1), cols (the same matrix, each column reduced: dim=0), ragged (S segments of lengths
0..M drawn from --seed by --lengths (uniform, powerlaw, giants, empty, fixed) with hipreduce-bench's
own formulas, so both time the same segments). A case is op:in[:out] (sum, argmax, argmin; out defaults to in). Formulations:
  rows/cols sum: torch.sum(dim=1 / dim=0, dtype=out);
  rows/cols argmax/argmin: torch.argmax(dim) and torch.max(dim) / torch.min(dim) (values and
    indices, as the library writes them);
  ragged sum: torch.segment_reduce(x, "sum", lengths=..., unsafe=True) and the same with offsets=
    (int64 on the device; unsafe: no host-side check of the lengths, no synchronisation).
Timed like hipreduce-bench and bench/torch_anchors.py (whose timing and inputs this reuses): CUDA
events around each call, --warmup untimed rounds, the median of --reps, calls interleaved, inputs
rotated over copies that together exceed 4x L2 (at least two). Each result on the first copy is
checked against a float64 (exact for integers) reference: sums to a relative 1e-4 (f16/bf16 out:
1e-2), argmax/argmin by the value at the index; status "differs" when off.

Prints hipreduce-bench's CSV with its shape column (rows:RxC, cols:RxC, ragged:Sx0..M:seedK):
gbps counts the input bytes only (not the lengths or offsets), the vendor columns stay empty.
"""
import argparse
import re
import sys

import torch

from torch_anchors import DTYPES, make_input, measure_ceiling, parse_size, time_interleaved

MASK64 = (1 << 64) - 1


def s64(c):
    """An unsigned 64-bit constant as the int64 with the same bits."""
    c &= MASK64
    return c - (1 << 64) if c >= 1 << 63 else c


def shr(x, k):
    """Logical right shift of int64 values (>> is arithmetic on signed integers)."""
    return (x >> k) & ((1 << (64 - k)) - 1)


def mix64(x):
    """splitmix64 on int64 tensors (or numpy int64 arrays), wrapping as uint64 does."""
    x = x + s64(0x9e3779b97f4a7c15)
    x = (x ^ shr(x, 30)) * s64(0xbf58476d1ce4e5b9)
    x = (x ^ shr(x, 27)) * s64(0x94d049bb133111eb)
    return x ^ shr(x, 31)


LENGTHS = ("uniform", "powerlaw", "giants", "empty", "fixed")
POWERLAW_EXPONENT = 1.2


def length_kind(text):
    """--lengths: a name of LENGTHS, or powerlawK with an integer scale K in 1..2^20 (bench_shapes.c)."""
    m = re.fullmatch(r"powerlaw([1-9][0-9]*)", text)
    if text in LENGTHS or (m and int(m[1]) <= 1 << 20):
        return "powerlaw" if text == "powerlaw1" else text  # the bench's label for scale 1
    raise argparse.ArgumentTypeError(f"'{text}': expected {', '.join(LENGTHS)} or powerlawK (K in 1..{1 << 20})")


def ragged_lengths(kind, seed, index, max_len):
    """Segment lengths as hipreduce-bench draws them (bench_shapes.c: ragged_length, the kind its
    HIPREDUCE_BENCH_LENGTHS names): index is an int64 arange of the segment numbers."""
    h = shr(mix64(s64(seed) ^ (index * s64(0xd1b54a32d192ed03))), 11)
    segments = index.numel()
    if kind.startswith("powerlaw"):  # float64 pow on the host, as the C library's pow computes it there
        import numpy as np
        scale = float(kind[len("powerlaw"):] or 1)
        u = (h.cpu().numpy().astype(np.float64) + 1.0) * 2.0 ** -53
        x = np.floor(scale * np.power(u, -1.0 / POWERLAW_EXPONENT))
        out = np.where(x >= max_len + 1, max_len, np.minimum(x, max_len + 1) - 1).astype(np.int64)
        return torch.from_numpy(out).to(index.device)
    if kind == "giants":
        every = max(1, segments // 8)
        return torch.where(index % every == every // 2, torch.full_like(h, max_len), h % 8)
    if kind == "empty":
        return torch.zeros_like(h)
    if kind == "fixed":
        return torch.full_like(h, max_len)
    return h % (max_len + 1)


def parse_dims(text, shape):
    out = []
    for entry in text.split(","):
        terms = entry.split("x")
        if len(terms) != 2:
            sys.exit(f"torch_axis_anchors.py: --dims entry '{entry}': RxC (rows, cols) or SxM (ragged)")
        out.append(tuple(parse_size(t) for t in terms))
    return out


def label(shape, dims, seed, lengths="uniform"):
    a, b = dims
    if shape != "ragged":
        return f"{shape}:{a}x{b}"
    return f"ragged:{a}x{'0' if lengths == 'uniform' else lengths}..{b}:seed{seed}"


def variants(shape, op, din, dout):
    """[(name, fn(x) -> result, kind)] with kind 'sum', 'index' (an index tensor) or 'pair'."""
    o = DTYPES[dout]
    if shape == "ragged":
        if op != "sum":
            return []
        return [("torch.segment_reduce(lengths)",
                 lambda x, seg: torch.segment_reduce(x, "sum", lengths=seg["lengths"], unsafe=True), "sum"),
                ("torch.segment_reduce(offsets)",
                 lambda x, seg: torch.segment_reduce(x, "sum", offsets=seg["offsets"], unsafe=True), "sum")]
    dim = 1 if shape == "rows" else 0
    if op == "sum":
        return [(f"torch.sum(dim={dim})", lambda x, seg: torch.sum(x, dim=dim, dtype=o), "sum")]
    if op in ("argmax", "argmin"):
        pick = torch.argmax if op == "argmax" else torch.argmin
        both = torch.max if op == "argmax" else torch.min
        return [(f"torch.{op}(dim={dim})", lambda x, seg: pick(x, dim=dim), "index"),
                (f"torch.{both.__name__}(dim={dim})", lambda x, seg: both(x, dim=dim), "pair")]
    sys.exit(f"torch_axis_anchors.py: no formulation for op '{op}' (sum, argmax, argmin)")


def reference(shape, op, x, seg):
    """float64 sums (int64 for integers), or the extreme values, per result."""
    wide = x.double() if x.is_floating_point() else x.long()
    if shape == "ragged":
        return torch.segment_reduce(wide.double(), "sum", lengths=seg["lengths"])
    dim = 1 if shape == "rows" else 0
    if op == "sum":
        return wide.sum(dim=dim)
    return wide.amax(dim=dim) if op == "argmax" else wide.amin(dim=dim)


def agrees(shape, op, dout, got, kind, ref, x):
    if kind in ("index", "pair"):
        index = got if kind == "index" else got.indices
        dim = 1 if shape == "rows" else 0
        picked = torch.gather(x, dim, index.unsqueeze(dim)).squeeze(dim)
        return bool(torch.equal(picked.double() if x.is_floating_point() else picked.long(),
                                ref.double() if x.is_floating_point() else ref))
    if dout not in ("f16", "bf16", "f32", "f64"):
        return bool(torch.equal(got.long(), ref.long()))
    tol = {"f16": 1e-2, "bf16": 1e-2, "f32": 1e-4, "f64": 1e-9}[dout]
    got, ref = got.double(), ref.double()
    return bool(((got - ref).abs() <= tol * ref.abs()).all() or torch.equal(got, ref))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shape", required=True, choices=("rows", "cols", "ragged"))
    p.add_argument("--dims", required=True, help="RxC (rows, cols) or SxM (ragged), comma-separated")
    p.add_argument("--cases", default="sum:f32", help="op:in[:out], comma-separated")
    p.add_argument("--seed", type=int, default=1, help="ragged: the lengths' seed (hipreduce-bench --seed)")
    p.add_argument("--lengths", default="uniform", type=length_kind,
                   help="ragged: the length distribution, " + ", ".join(LENGTHS) +
                   " or powerlawK (scale K >= 1; hipreduce-bench's HIPREDUCE_BENCH_LENGTHS)")
    p.add_argument("--reps", type=int, default=100)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--ceiling", type=float, default=0.0, help="read ceiling in GB/s (default: measure it)")
    p.add_argument("--output", help="CSV file (default: standard output)")
    a = p.parse_args()
    cases = []
    for spec in a.cases.split(","):
        parts = spec.split(":")
        if len(parts) not in (2, 3) or any(d not in DTYPES for d in parts[1:]):
            sys.exit(f"torch_axis_anchors.py: bad case '{spec}' (op:in[:out] with dtypes {' '.join(DTYPES)})")
        cases.append((parts[0], parts[1], parts[2] if len(parts) == 3 else parts[1]))
    dims_list = parse_dims(a.dims, a.shape)
    props = torch.cuda.get_device_properties(0)
    ceiling = a.ceiling or measure_ceiling(a.reps, a.warmup)
    out = open(a.output, "w") if a.output else sys.stdout
    head = f"read ceiling {ceiling:.1f} GB/s" if ceiling else "read ceiling none"
    print(f"# device: {props.name}; {head}; vendor: none; anchors: torch {torch.__version__}", file=out)
    print("algorithm,op,dtype,n,ms,gbps,pct_ceiling,vendor_ms,ratio,ceiling_gbps,out_dtype,status,shape", file=out)
    l2 = getattr(props, "L2_cache_size", 0) or 64 << 20
    for dims in dims_list:
        seg = {}
        if a.shape == "ragged":
            lengths = ragged_lengths(a.lengths, a.seed, torch.arange(dims[0], dtype=torch.int64, device="cuda"), dims[1])
            seg = {"lengths": lengths,
                   "offsets": torch.cat([torch.zeros(1, dtype=torch.int64, device="cuda"), lengths.cumsum(0)])}
            n = int(seg["offsets"][-1].item())
            view = (n,)
        else:
            n = dims[0] * dims[1]
            view = dims
        for op, din, dout in cases:
            elem = torch.empty(0, dtype=DTYPES[din]).element_size()
            per_call = max(1, n * elem)
            buffers = min(64, max(2, -(-4 * l2 // per_call)))
            xs = [make_input(din, n, 1234 + b).view(view) for b in range(buffers)]
            ref = reference(a.shape, op, xs[0], seg)
            runnable = []
            for name, fn, kind in variants(a.shape, op, din, dout):
                try:
                    ok = agrees(a.shape, op, dout, fn(xs[0], seg), kind, ref, xs[0])
                except (RuntimeError, TypeError, NotImplementedError) as e:
                    print(f"torch_axis_anchors.py: {name} {op} {din}->{dout}: left out ({str(e).splitlines()[0]})",
                          file=sys.stderr)
                    continue
                if not ok:
                    print(f"torch_axis_anchors.py: {name} {op} {din}->{dout} {label(a.shape, dims, a.seed, a.lengths)}: "
                          "differs from the float64 reference", file=sys.stderr)
                runnable.append((name, fn, "ok" if ok else "differs"))
            print(f"torch_axis_anchors.py: {op} {din}->{dout} {label(a.shape, dims, a.seed, a.lengths)}: "
                  f"{len(runnable)} formulation(s)", file=sys.stderr)
            fns = [lambda b, fn=fn: fn(xs[b], seg) for _, fn, _ in runnable]
            ms = time_interleaved(fns, buffers, a.reps, a.warmup) if fns else []
            for (name, _, status), t in zip(runnable, ms):
                gbps = n * elem / t / 1e6
                pct = f"{100 * gbps / ceiling:.1f}" if ceiling else ""
                cell = f"{ceiling:.1f}" if ceiling else ""
                print(f"{name},{op},{din},{n},{t:.6f},{gbps:.1f},{pct},,,{cell},{dout},{status},"
                      f"{label(a.shape, dims, a.seed, a.lengths)}", file=out)
            out.flush()
            xs = ref = fns = None  # free the inputs before the next case's
            torch.cuda.empty_cache()
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
