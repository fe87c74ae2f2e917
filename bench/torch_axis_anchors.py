#!/usr/bin/env python3
"""Times torch's (and CuPy's) axis and segment reductions as anchors for hipreduce-bench --shape.

  python3 bench/torch_axis_anchors.py --shape rows --dims 4194304x16,16x4194304 \\
      --cases sum:f32,argmax:f32,sum:f16:f32 [--seed 1] [--lengths KIND] [--step N] [--hipreduce] \\
      [--reps 100] [--warmup 5] [--ceiling GBPS] [--output FILE]
  python3 bench/torch_axis_anchors.py --batch FILE   (as bench/torch_anchors.py --batch)

--shape, --dims and --step mean what they mean to hipreduce-bench: rows (an R x C matrix, each row
reduced: dim=1), cols (the same matrix, each column reduced: dim=0), with --step N > 1 the view
x[::N, ::N] of an (N R) x (N C) array (the non-contiguous inputs of torch's operator benchmark);
ragged (S segments of lengths up to M drawn from --seed by --lengths (uniform 0..M, powerlaw,
giants, empty, fixed, nonempty 1..M) with hipreduce-bench's own formulas, so both time the same
segments). A case is op:in[:out] (sum, sum_squares, argmax, argmin; out defaults to in).
Formulations, on GPU 0, on the same memory:
  rows/cols sum: torch.sum(dim, dtype=out); cupy.sum(axis, dtype=out);
  rows/cols sum_squares: torch.linalg.vector_norm(dim, dtype=out) (squared to compare) and
    RMSNorm's eager statistic x.to(out).pow(2).mean(dim, keepdim=True) (times the length);
  rows/cols argmax/argmin: torch.argmax(dim) and torch.max(dim) / torch.min(dim) (values and
    indices, as the library writes them); cupy.argmax/argmin(axis);
  ragged sum: torch.segment_reduce(x, "sum", lengths=..., unsafe=True) and the same with offsets=
    (int64 on the device; unsafe: no host-side check of the lengths, no synchronisation);
    cupy.add.reduceat(x, starts) where no segment is empty (reduceat gives x[start] for one);
  --hipreduce, where the package imports: hipreduce.sum / sum_squares / argmax / argmin (axis=)
    and hipreduce.segment_reduce from Python, the call a torch user makes (its host cost
    included, as torch's is).
cupy runs where it imports (cupy.from_dlpack views, cupy's current stream set to torch's); a
dtype it lacks (bfloat16) leaves it out. Timed like hipreduce-bench and bench/torch_anchors.py
(whose timing and inputs this reuses): CUDA events around each call, --warmup untimed rounds, the
median of --reps, calls interleaved, inputs rotated over copies that together exceed 4x L2 (at
least two). Each result on the first copy is checked against a float64 (exact for integers)
reference: sums to a relative 1e-4 (f16/bf16 out: 1e-2), argmax/argmin by the value at the index;
status "differs" when off.

Prints hipreduce-bench's CSV with its shape column (rows:RxC[:stepN], cols:RxC[:stepN],
ragged:Sx0..M:seedK): gbps counts the elements reduced only (not the lengths or offsets, nor the
gaps of a strided view), the vendor columns stay empty.
"""
import argparse
import re
import sys

import torch

import torch_anchors as ta
from torch_anchors import DTYPES, NUMPY_NAMES, cupy_module, make_input, measure_ceiling, parse_size, release, \
    run_batch, time_interleaved

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


LENGTHS = ("uniform", "powerlaw", "giants", "empty", "fixed", "nonempty")
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
    if kind == "nonempty":
        return 1 + h % max_len
    return h % (max_len + 1)


def parse_dims(text, shape):
    out = []
    for entry in text.split(","):
        terms = entry.split("x")
        if len(terms) != 2:
            sys.exit(f"torch_axis_anchors.py: --dims entry '{entry}': RxC (rows, cols) or SxM (ragged)")
        out.append(tuple(parse_size(t) for t in terms))
    return out


def label(shape, dims, seed, lengths="uniform", step=1):
    a, b = dims
    if shape != "ragged":
        return f"{shape}:{a}x{b}" + (f":step{step}" if step > 1 else "")
    return f"ragged:{a}x{'0' if lengths == 'uniform' else lengths}..{b}:seed{seed}"


def variants(shape, op, din, dout, cupy, hr, seg):
    """[(name, library, fn(x, seg) -> result, kind)]: library 'torch', 'cupy' (x is cupy's view) or
    'hipreduce'; kind 'sum', 'norm' (a norm: squared), 'mean' (times the length), 'index' (an index
    tensor) or 'pair' (values and indices)."""
    o = DTYPES[dout]
    npo = NUMPY_NAMES.get(dout)
    out = []
    if shape == "ragged":
        if op != "sum":
            return []
        out += [("torch.segment_reduce(lengths)", "torch",
                 lambda x, seg: torch.segment_reduce(x, "sum", lengths=seg["lengths"], unsafe=True), "sum"),
                ("torch.segment_reduce(offsets)", "torch",
                 lambda x, seg: torch.segment_reduce(x, "sum", offsets=seg["offsets"], unsafe=True), "sum")]
        if cupy is not None and seg["all_nonempty"]:
            out.append(("cupy.add.reduceat", "cupy", lambda x, seg: cupy.add.reduceat(x, seg["cupy_starts"], dtype=npo),
                        "sum"))
        if hr is not None:
            out.append(("hipreduce.segment_reduce", "hipreduce",
                        lambda x, seg: hr.segment_reduce(x, seg["offsets"], "sum", dtype=o), "sum"))
        return out
    dim = 1 if shape == "rows" else 0
    if op == "sum":
        out.append((f"torch.sum(dim={dim})", "torch", lambda x, seg: torch.sum(x, dim=dim, dtype=o), "sum"))
        if cupy is not None:
            out.append((f"cupy.sum(axis={dim})", "cupy", lambda x, seg: cupy.sum(x, axis=dim, dtype=npo), "sum"))
        if hr is not None:
            out.append((f"hipreduce.sum(axis={dim})", "hipreduce", lambda x, seg: hr.sum(x, axis=dim, dtype=o), "sum"))
    elif op == "sum_squares":
        out += [(f"torch.vector_norm(dim={dim})", "torch",
                 lambda x, seg: torch.linalg.vector_norm(x, 2, dim=dim, dtype=o), "norm"),
                (f"torch.to.pow(2).mean(dim={dim})", "torch",
                 lambda x, seg: x.to(o).pow(2).mean(dim, keepdim=True), "mean")]
        if hr is not None:
            out.append((f"hipreduce.sum_squares(axis={dim})", "hipreduce",
                        lambda x, seg: hr.sum_squares(x, axis=dim, dtype=o), "sum"))
    elif op in ("argmax", "argmin"):
        pick = torch.argmax if op == "argmax" else torch.argmin
        both = torch.max if op == "argmax" else torch.min
        out += [(f"torch.{op}(dim={dim})", "torch", lambda x, seg: pick(x, dim=dim), "index"),
                (f"torch.{both.__name__}(dim={dim})", "torch", lambda x, seg: both(x, dim=dim), "pair")]
        if cupy is not None:
            cpick = cupy.argmax if op == "argmax" else cupy.argmin
            out.append((f"cupy.{op}(axis={dim})", "cupy", lambda x, seg: cpick(x, axis=dim), "index"))
        if hr is not None:
            hpick = hr.argmax if op == "argmax" else hr.argmin
            out.append((f"hipreduce.{op}(axis={dim})", "hipreduce", lambda x, seg: hpick(x, axis=dim), "index"))
    else:
        sys.exit(f"torch_axis_anchors.py: no formulation for op '{op}' (sum, sum_squares, argmax, argmin)")
    return out


def reference(shape, op, x, seg):
    """float64 sums (int64 for integers), or the extreme values, per result."""
    if op == "sum_squares" and x.dtype in (torch.float16, torch.bfloat16):
        square = x.float()  # exact squares in float32 (11-bit significands at most): no float64 copy
        return square.mul_(square).sum(dim=1 if shape == "rows" else 0, dtype=torch.float64)
    wide = x.double() if x.is_floating_point() else x.long()
    if shape == "ragged":
        return torch.segment_reduce(wide.double(), "sum", lengths=seg["lengths"])
    dim = 1 if shape == "rows" else 0
    if op == "sum":
        return wide.sum(dim=dim)
    if op == "sum_squares":
        return (wide * wide).sum(dim=dim)
    return wide.amax(dim=dim) if op == "argmax" else wide.amin(dim=dim)


def as_torch(result):
    """A result as torch tensors: cupy's through DLPack (no copy), a (values, indices) pair kept."""
    if isinstance(result, torch.Tensor) or hasattr(result, "indices"):
        return result
    return torch.from_dlpack(result)


def agrees(shape, op, dout, got, kind, ref, x):
    got = as_torch(got)
    if kind in ("index", "pair"):
        index = got if kind == "index" else got.indices
        dim = 1 if shape == "rows" else 0
        picked = torch.gather(x, dim, index.long().unsqueeze(dim)).squeeze(dim)
        return bool(torch.equal(picked.double() if x.is_floating_point() else picked.long(),
                                ref.double() if x.is_floating_point() else ref))
    got = got.reshape(ref.shape)
    if kind == "norm":
        got = got.double() ** 2
    elif kind == "mean":
        got = got.double() * x.shape[1 if shape == "rows" else 0]
    if dout not in ("f16", "bf16", "f32", "f64"):
        return bool(torch.equal(got.long(), ref.long()))
    tol = {"f16": 1e-2, "bf16": 1e-2, "f32": 1e-4, "f64": 1e-9}[dout]
    got, ref = got.double(), ref.double()
    return bool(((got - ref).abs() <= tol * ref.abs()).all() or torch.equal(got, ref))


def hipreduce_module():
    try:
        import hipreduce
    except ImportError as e:
        print(f"torch_axis_anchors.py: --hipreduce: the package does not import ({e})", file=sys.stderr)
        return None
    return hipreduce


def parse(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shape", choices=("rows", "cols", "ragged"), help="required without --batch")
    p.add_argument("--dims", help="RxC (rows, cols) or SxM (ragged), comma-separated; required without --batch")
    p.add_argument("--cases", default="sum:f32", help="op:in[:out], comma-separated")
    p.add_argument("--seed", type=int, default=1, help="ragged: the lengths' seed (hipreduce-bench --seed)")
    p.add_argument("--lengths", default="uniform", type=length_kind,
                   help="ragged: the length distribution, " + ", ".join(LENGTHS) +
                   " or powerlawK (scale K >= 1; hipreduce-bench's HIPREDUCE_BENCH_LENGTHS)")
    p.add_argument("--step", type=int, default=1, help="rows, cols: the view x[::N, ::N] of an (N R) x (N C) array")
    p.add_argument("--hipreduce", action="store_true", help="also time the hipreduce package's calls from Python")
    p.add_argument("--reps", type=int, default=100)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--ceiling", type=float, default=0.0, help="read ceiling in GB/s (default: measure it)")
    p.add_argument("--output", help="CSV file (default: standard output)")
    p.add_argument("--batch", help="a file of command lines to run in this process, one a line")
    a = p.parse_args(argv)
    if not a.batch and not (a.shape and a.dims):
        p.error("--shape and --dims are required (or --batch)")
    if a.step < 1 or (a.step > 1 and a.shape == "ragged"):
        p.error("--step: a positive integer, for rows and cols")
    return a


def segments_of(a, dims):
    """The ragged shape's lengths, offsets and total elements, drawn as hipreduce-bench draws them."""
    lengths = ragged_lengths(a.lengths, a.seed, torch.arange(dims[0], dtype=torch.int64, device=ta.DEVICE), dims[1])
    offsets = torch.cat([torch.zeros(1, dtype=torch.int64, device=ta.DEVICE), lengths.cumsum(0)])
    seg = {"lengths": lengths, "offsets": offsets, "all_nonempty": bool((lengths > 0).all().item())}
    return seg, int(offsets[-1].item())


def run(a):
    cases = []
    for spec in a.cases.split(","):
        parts = spec.split(":")
        if len(parts) not in (2, 3) or any(d not in DTYPES for d in parts[1:]):
            sys.exit(f"torch_axis_anchors.py: bad case '{spec}' (op:in[:out] with dtypes {' '.join(DTYPES)})")
        cases.append((parts[0], parts[1], parts[2] if len(parts) == 3 else parts[1]))
    dims_list = parse_dims(a.dims, a.shape)
    props = torch.cuda.get_device_properties(0)
    ceiling = a.ceiling or measure_ceiling(a.reps, a.warmup)
    cupy = cupy_module()
    hr = hipreduce_module() if a.hipreduce else None
    out = open(a.output, "w") if a.output else sys.stdout
    head = f"read ceiling {ceiling:.1f} GB/s" if ceiling else "read ceiling none"
    libs = f"torch {torch.__version__}" + (f", cupy {cupy.__version__}" if cupy else "") + \
        (f", hipreduce {hr.__version__} (Python)" if hr else "")
    print(f"# device: {props.name}; {head}; vendor: none; anchors: {libs}", file=out)
    print("algorithm,op,dtype,n,ms,gbps,pct_ceiling,vendor_ms,ratio,ceiling_gbps,out_dtype,status,shape", file=out)
    l2 = getattr(props, "L2_cache_size", 0) or 64 << 20
    for dims in dims_list:
        seg, step = {}, a.step
        if a.shape == "ragged":
            seg, n = segments_of(a, dims)
            if cupy is not None and seg["all_nonempty"]:
                seg["cupy_starts"] = cupy.from_dlpack(seg["offsets"][:-1])
        else:
            n = dims[0] * dims[1]
        where = label(a.shape, dims, a.seed, a.lengths, step)
        for op, din, dout in cases:
            elem = torch.empty(0, dtype=DTYPES[din]).element_size()
            per_call = max(1, n * elem)
            buffers = min(64, max(2, -(-4 * l2 // per_call)))
            if a.shape == "ragged":
                xs = [make_input(din, n, 1234 + b) for b in range(buffers)]
            else:  # every step-th row and column of a larger array (step 1: the matrix itself)
                big = (dims[0] * step, dims[1] * step)
                xs = [make_input(din, big[0] * big[1], 1234 + b).view(big)[::step, ::step] for b in range(buffers)]
            inputs = {"torch": xs, "hipreduce": xs}
            ref = reference(a.shape, op, xs[0], seg)
            runnable = []
            for name, lib, fn, kind in variants(a.shape, op, din, dout, cupy, hr, seg):
                try:
                    if lib not in inputs:  # cupy's views of the same memory
                        inputs[lib] = [cupy.from_dlpack(x) for x in xs]
                    ok = agrees(a.shape, op, dout, fn(inputs[lib][0], seg), kind, ref, xs[0])
                except Exception as e:  # a formulation the library refuses for these dtypes or strides
                    print(f"torch_axis_anchors.py: {name} {op} {din}->{dout}: left out ({str(e).splitlines()[0]})",
                          file=sys.stderr)
                    continue
                if not ok:
                    print(f"torch_axis_anchors.py: {name} {op} {din}->{dout} {where}: differs from the float64 "
                          "reference", file=sys.stderr)
                runnable.append((name, lib, fn, "ok" if ok else "differs"))
            print(f"torch_axis_anchors.py: {op} {din}->{dout} {where}: {len(runnable)} formulation(s)", file=sys.stderr)
            fns = [lambda b, fn=fn, lib=lib: fn(inputs[lib][b], seg) for _, lib, fn, _ in runnable]
            ms = time_interleaved(fns, buffers, a.reps, a.warmup) if fns else []
            for (name, _, _, status), t in zip(runnable, ms):
                gbps = n * elem / t / 1e6
                pct = f"{100 * gbps / ceiling:.1f}" if ceiling else ""
                cell = f"{ceiling:.1f}" if ceiling else ""
                print(f"{name},{op},{din},{n},{t:.6f},{gbps:.1f},{pct},,,{cell},{dout},{status},{where}", file=out)
            out.flush()
            xs = ref = fns = inputs = None  # free the inputs before the next case's
            release(cupy)
    if out is not sys.stdout:
        out.close()


def main():
    a = parse(sys.argv[1:])
    if a.batch:
        sys.exit(run_batch(a.batch, parse, run, "torch_axis_anchors.py"))
    run(a)


if __name__ == "__main__":
    main()
