#!/usr/bin/env python3
"""Times torch's (and CuPy's) reductions as anchors for hipreduce-bench's typed calls, on GPU 0.

  python3 bench/torch_anchors.py --cases sum:f16:f32,argmax:f32,dot:f32 --sizes 2^20,2^28 \\
      [--reps 50] [--warmup 5] [--ceiling GBPS] [--output FILE]
  python3 bench/torch_anchors.py --batch FILE

--batch runs each line of FILE (this script's options, shell-quoted; blank and '#' lines skipped)
in this one process, one after another; a line that fails is reported on stderr and the next one
runs (exit status 1 when any failed). It saves importing torch and starting CUDA per line.

A case is op:in[:out] with hipreduce-bench's names (out defaults to in; argmin/argmax: the value's
dtype is in). Each case runs every torch formulation listed for it below (the one-kernel calls a
careful torch user reaches for, and the two-pass spelling where people write it), interleaved call
by call like hipreduce-bench: CUDA events around each call, --warmup untimed rounds, the median of
--reps, inputs rotated over copies that together exceed 4x L2 (at least two). Inputs: floats
uniform in [0.5, 1.5) (f16/bf16 rounded from f32), integers random over their range, as the bench.
Each result on the first copy is checked against a float64 (exact for integers) reference:
status "differs" when it is off. A formulation torch refuses for a dtype is left out (stderr).
Where cupy imports, its functions of the same calls run beside torch's on the same memory
(cupy.from_dlpack of each input, no copy; cupy's current stream set to torch's): cupy.sum (dtype=),
cupy.amin/amax, cupy.argmin/argmax, cupy.dot; a dtype cupy lacks (bfloat16) is left out.

Prints hipreduce-bench's CSV (bench/report_tables.py reads both): algorithm is
the formulation ("torch.sum"), gbps counts the input bytes read (dot: both inputs), the vendor
columns stay empty, ceiling_gbps is --ceiling (the bench's read ceiling from the same run) or,
without it, the bench's streaming-read kernel over 1 GiB run through cupy (empty without cupy).
"""
import argparse
import math
import re
import shlex
import statistics
import sys

import torch

DEVICE = "cuda"

DTYPES = {"i8": torch.int8, "u8": torch.uint8, "i16": torch.int16, "u16": torch.uint16, "i32": torch.int32,
          "u32": torch.uint32, "i64": torch.int64, "u64": torch.uint64, "f16": torch.float16,
          "bf16": torch.bfloat16, "f32": torch.float32, "f64": torch.float64}
INF = float("inf")


def variants(op, din, dout):
    """[(name, fn(x, y) -> result tensor(s), how the result reads as a number)] for one case."""
    o = DTYPES[dout]
    cast = None if dout == din else o  # torch's dtype= argument: None keeps the input's
    same = dout == din
    scalar = lambda r: r.item()
    squared = lambda r: r.item() ** 2
    index = lambda r: r.item()
    pair_index = lambda r: r.indices.item()
    table = {
        "sum": [("torch.sum", lambda x, y: torch.sum(x, dtype=o), scalar)],
        "min": [("torch.amin", lambda x, y: torch.amin(x), scalar)],
        "max": [("torch.amax", lambda x, y: torch.amax(x), scalar)],
        "sum_abs": [("torch.vector_norm(ord=1)", lambda x, y: torch.linalg.vector_norm(x, 1, dtype=cast), scalar),
                    ("torch.abs.sum", lambda x, y: torch.sum(torch.abs(x), dtype=o), scalar)],
        "sum_squares": [("torch.vector_norm^2", lambda x, y: torch.linalg.vector_norm(x, 2, dtype=cast), squared),
                        ("torch.square.sum", lambda x, y: torch.sum(x * x, dtype=o), scalar)]
        + ([("torch.dot(x-x)", lambda x, y: torch.dot(x, x), scalar)] if same else []),
        "max_abs": [("torch.vector_norm(ord=inf)", lambda x, y: torch.linalg.vector_norm(x, INF), scalar),
                    ("torch.abs.amax", lambda x, y: torch.amax(torch.abs(x)), scalar)] if same else [],
        "nrm2": [("torch.vector_norm", lambda x, y: torch.linalg.vector_norm(x, dtype=cast), scalar)],
        "argmin": [("torch.argmin", lambda x, y: torch.argmin(x), index),
                   ("torch.min(dim=0)", lambda x, y: torch.min(x, dim=0), pair_index)],
        "argmax": [("torch.argmax", lambda x, y: torch.argmax(x), index),
                   ("torch.max(dim=0)", lambda x, y: torch.max(x, dim=0), pair_index)],
        "dot": [("torch.dot", lambda x, y: torch.dot(x, y), scalar)] if same else [],
    }
    if op not in table:
        sys.exit(f"torch_anchors.py: no torch formulation for op '{op}'")
    return table[op]


NUMPY_NAMES = {"i8": "int8", "u8": "uint8", "i16": "int16", "u16": "uint16", "i32": "int32", "u32": "uint32",
               "i64": "int64", "u64": "uint64", "f16": "float16", "f32": "float32", "f64": "float64"}


def cupy_module():
    """cupy, on torch's current stream, or None where it does not import."""
    try:
        import cupy
    except ImportError:
        return None
    cupy_stream(cupy).use()
    return cupy


def cupy_stream(cupy):
    """torch's current stream as cupy's: the legacy default stream (0) is cupy's null stream."""
    ptr = torch.cuda.current_stream().cuda_stream
    return cupy.cuda.ExternalStream(ptr) if ptr else cupy.cuda.Stream.null


def release(cupy):
    """Gives the freed memory of torch's and cupy's caching allocators back between cases."""
    torch.cuda.empty_cache()
    if cupy is not None:
        cupy.get_default_memory_pool().free_all_blocks()


def cupy_variants(cupy, op, din, dout):
    """cupy's formulations of one case: [(name, fn(cx, cy), how the result reads as a number)]."""
    if cupy is None or din not in NUMPY_NAMES or dout not in NUMPY_NAMES:
        return []
    o = NUMPY_NAMES[dout]
    scalar = lambda r: r.item()
    table = {
        "sum": [("cupy.sum", lambda x, y: cupy.sum(x, dtype=o), scalar)],
        "min": [("cupy.amin", lambda x, y: cupy.amin(x), scalar)],
        "max": [("cupy.amax", lambda x, y: cupy.amax(x), scalar)],
        "argmin": [("cupy.argmin", lambda x, y: cupy.argmin(x), scalar)],
        "argmax": [("cupy.argmax", lambda x, y: cupy.argmax(x), scalar)],
        "dot": [("cupy.dot", lambda x, y: cupy.dot(x, y), scalar)] if din == dout else [],
    }
    return table.get(op, [])


def reference(op, x, y):
    """The exact (integers) or float64 result on one input; argmin/argmax: the extreme value."""
    wide = x.long() if not x.is_floating_point() else x.double()
    if op == "sum":
        return wide.sum().item()
    if op in ("min", "argmin"):
        return wide.min().item()
    if op in ("max", "argmax"):
        return wide.max().item()
    if op == "sum_abs":
        return wide.abs().sum().item()
    if op == "sum_squares":
        return (wide * wide).sum().item()
    if op == "max_abs":
        return wide.abs().max().item()
    if op == "nrm2":
        return math.sqrt((wide * wide).sum().item())
    if op == "dot":
        return (wide * (y.long() if not y.is_floating_point() else y.double())).sum().item()
    raise ValueError(op)


def wrapped(value, dtype):
    """An exact integer as a result of dtype holds it: modulo 2^bits, in the dtype's range."""
    bits = 8 * torch.empty(0, dtype=DTYPES[dtype]).element_size()
    value %= 1 << bits
    return value - (1 << bits) if dtype.startswith("i") and value >= 1 << (bits - 1) else value


def agrees(op, dout, got, ref, x):
    if op in ("argmin", "argmax"):  # the index must hold the extreme value
        return x[got].item() == ref
    if dout not in ("f16", "bf16", "f32", "f64"):
        return got == wrapped(ref, dout)
    tol = {"f16": 1e-2, "bf16": 1e-2, "f32": 1e-4, "f64": 1e-9}[dout]
    return abs(got - ref) <= tol * abs(ref) or got == ref


def parse_size(text):
    """hipreduce-bench's forms: 1048576, 2^20, 1e9, each optionally followed by +D or -D."""
    m = re.fullmatch(r"(2\^(\d+)|(\d+)e(\d+)|(\d+))([+-]\d+)?", text)
    if not m:
        sys.exit(f"torch_anchors.py: bad size '{text}'")
    n = 2 ** int(m[2]) if m[2] else int(m[3]) * 10 ** int(m[4]) if m[3] else int(m[5])
    return n + (int(m[6]) if m[6] else 0)


def make_input(dtype, n, seed):
    g = torch.Generator(device=DEVICE).manual_seed(seed)
    t = DTYPES[dtype]
    if t.is_floating_point:
        base = torch.float64 if t == torch.float64 else torch.float32
        return (torch.rand(n, dtype=base, device=DEVICE, generator=g) + 0.5).to(t)
    info = torch.iinfo(t)
    wide = torch.randint(max(info.min, -2**63), min(info.max, 2**63 - 1), (n,), dtype=torch.int64,
                         device=DEVICE, generator=g)
    return wide.to(t)


def time_interleaved(fns, buffers, reps, warmup):
    """Median ms of each fns[k](buffer) with events, calls interleaved, rotating the first."""
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    nxt = 0
    for _ in range(warmup):
        for fn in fns:
            fn(nxt % buffers)
            nxt += 1
    ms = [[] for _ in fns]
    for i in range(reps):
        for j in range(len(fns)):
            c = (i + j) % len(fns)
            start.record()
            fns[c](nxt % buffers)
            stop.record()
            stop.synchronize()
            ms[c].append(start.elapsed_time(stop))
            nxt += 1
    return [statistics.median(m) for m in ms]


STREAM_READ = r"""
extern "C" __global__ void stream_read(const uint4* p, unsigned long long words, unsigned* sink)
{
    uint4 acc = make_uint4(0, 0, 0, 0);
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < words; i += stride) {
        const uint4 a = p[i];
        acc.x ^= a.x; acc.y ^= a.y; acc.z ^= a.z; acc.w ^= a.w;
    }
    if ((acc.x & acc.y & acc.z & acc.w) == 0xdeadbeefu) *sink = acc.x;
}
"""


def measure_ceiling(reps, warmup):
    """The bench's plain read of 1 GiB (one 16-byte word per thread step), through cupy."""
    try:
        import cupy
    except ImportError:
        return 0.0
    kernel = cupy.RawKernel(STREAM_READ, "stream_read")
    nbytes = 1 << 30
    buf = torch.randint(0, 2**31 - 1, (nbytes // 4,), dtype=torch.int32, device=DEVICE)
    sink = torch.zeros(1, dtype=torch.int32, device=DEVICE)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    stream = cupy_stream(cupy)

    def run(_):
        kernel((sms * 8,), (256,), (buf.data_ptr(), cupy.uint64(nbytes // 16), sink.data_ptr()), stream=stream)

    ms = time_interleaved([run], 1, reps, warmup)[0]
    return nbytes / ms / 1e6


def parse(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cases", help="op:in[:out], comma-separated (required without --batch)")
    p.add_argument("--sizes", default="2^20,2^28", help="elements (dot: of each input), comma-separated")
    p.add_argument("--reps", type=int, default=50)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--ceiling", type=float, default=0.0, help="read ceiling in GB/s (default: measure it)")
    p.add_argument("--output", help="CSV file (default: standard output)")
    p.add_argument("--batch", help="a file of command lines to run in this process, one a line")
    a = p.parse_args(argv)
    if not a.batch and not a.cases:
        p.error("--cases is required (or --batch)")
    return a


def run(a):
    cases = []
    for spec in a.cases.split(","):
        parts = spec.split(":")
        if len(parts) not in (2, 3) or any(d not in DTYPES for d in parts[1:]):
            sys.exit(f"torch_anchors.py: bad case '{spec}' (op:in[:out] with dtypes {' '.join(DTYPES)})")
        cases.append((parts[0], parts[1], parts[2] if len(parts) == 3 else parts[1]))
    sizes = [parse_size(s) for s in a.sizes.split(",")]
    props = torch.cuda.get_device_properties(0)
    ceiling = a.ceiling or measure_ceiling(a.reps, a.warmup)
    cupy = cupy_module()
    out = open(a.output, "w") if a.output else sys.stdout
    head = f"read ceiling {ceiling:.1f} GB/s" if ceiling else "read ceiling none"
    libs = f"torch {torch.__version__}" + (f", cupy {cupy.__version__}" if cupy else "")
    print(f"# device: {props.name}; {head}; vendor: none; anchors: {libs}", file=out)
    print("algorithm,op,dtype,n,ms,gbps,pct_ceiling,vendor_ms,ratio,ceiling_gbps,out_dtype,status", file=out)
    for op, din, dout in cases:
        for n in sizes:
            elem = torch.empty(0, dtype=DTYPES[din]).element_size()
            per_call = n * elem * (2 if op == "dot" else 1)
            l2 = getattr(props, "L2_cache_size", 0) or 64 << 20
            buffers = min(64, max(2, -(-4 * l2 // per_call)))
            xs = [make_input(din, n, 1234 + b) for b in range(buffers)]
            ys = [make_input(din, n, 5678 + b) for b in range(buffers)] if op == "dot" else xs
            inputs = {"torch": (xs, ys)}
            ref = reference(op, xs[0], ys[0])
            runnable = []
            formulations = [(v, "torch") for v in variants(op, din, dout)] + \
                [(v, "cupy") for v in cupy_variants(cupy, op, din, dout)]
            for (name, fn, read), lib in formulations:
                try:
                    if lib not in inputs:  # cupy's views of the same memory
                        inputs[lib] = ([cupy.from_dlpack(x) for x in xs], [cupy.from_dlpack(y) for y in ys])
                    cx, cy = inputs[lib]
                    got = read(fn(cx[0], cy[0]))
                except Exception as e:  # a formulation the library refuses for these dtypes
                    print(f"torch_anchors.py: {name} {op} {din}->{dout}: left out ({str(e).splitlines()[0]})",
                          file=sys.stderr)
                    continue
                ok = agrees(op, dout, got, ref, xs[0])
                if not ok:
                    print(f"torch_anchors.py: {name} {op} {din}->{dout} n={n}: {got}, reference {ref}", file=sys.stderr)
                runnable.append((name, fn, lib, "ok" if ok else "differs"))
            print(f"torch_anchors.py: {op} {din}->{dout} n={n}: {len(runnable)} formulation(s)", file=sys.stderr)
            fns = [lambda b, fn=fn, lib=lib: fn(inputs[lib][0][b], inputs[lib][1][b]) for _, fn, lib, _ in runnable]
            ms = time_interleaved(fns, buffers, a.reps, a.warmup) if fns else []
            for (name, _, _, status), t in zip(runnable, ms):
                gbps = per_call / t / 1e6
                pct = f"{100 * gbps / ceiling:.1f}" if ceiling else ""
                cell = f"{ceiling:.1f}" if ceiling else ""
                print(f"{name},{op},{din},{n},{t:.6f},{gbps:.1f},{pct},,,{cell},{dout},{status}", file=out)
            out.flush()
            xs = ys = fns = inputs = None  # free the inputs before the next case's
            release(cupy)
    if out is not sys.stdout:
        out.close()


def run_batch(path, parse_line, run_line, name):
    """Runs each command line of the file at path in this process; 0, or 1 when a line failed."""
    failed = 0
    for number, line in enumerate(open(path), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            run_line(parse_line(shlex.split(line)))
        except SystemExit as e:  # argparse and sys.exit: the line's own message is printed already
            if e.code not in (0, None):
                failed = 1
                print(f"{name}: --batch line {number} failed: {e.code if isinstance(e.code, str) else 'usage'}",
                      file=sys.stderr)
        except Exception as e:  # a failure of one line (out of memory, a refused call) ends only that line
            failed = 1
            first = str(e).splitlines()[0] if str(e) else ""
            print(f"{name}: --batch line {number} failed: {type(e).__name__}: {first}", file=sys.stderr)
        torch.cuda.empty_cache()
    return failed


def main():
    a = parse(sys.argv[1:])
    if a.batch:
        sys.exit(run_batch(a.batch, parse, run, "torch_anchors.py"))
    run(a)


if __name__ == "__main__":
    main()
