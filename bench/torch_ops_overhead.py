#!/usr/bin/env python3
"""Per-call host time of hipreduce's torch operators (hipreduce.torch) against the package's plain
functions and torch's own reductions, on CPU tensors (or a GPU's with --device N).

Columns, each the median over `rounds` rounds of `calls` calls (the rounds of all columns interleaved,
so that a busy machine slows them alike), with the spread min-max:
  torch            torch's own reduction (torch.sum, torch.linalg.vector_norm, torch.dot, ...)
  hipreduce        the package's function (hipreduce.sum ...)
  hrt direct       hipreduce.torch.sum on a tensor that needs no gradient, outside torch.compile: the
                   package's function behind hipreduce.torch's check
  op               torch.ops.hipreduce.sum called directly: torch's dispatcher, the operator's result
                   allocation (torch.empty) and the package's function with out=
  op + autograd    hipreduce.torch.sum on a tensor with requires_grad (forward only: the dispatcher's
                   autograd kernel, setup_context and the graph node)
Cases: a whole-tensor sum of 1 and 2**10 float32 elements, a sum along axis 1 of [32, 32], a norm,
a dot and a segment sum of 8 segments over 2**10 elements.
Usage: python bench/torch_ops_overhead.py [--device N] [--calls 2000] [--rounds 15] [--csv OUT.csv]
(--csv: one row per case and column, the performance report's torch_ops.csv.)
"""
import argparse
import statistics
import time

import torch

import hipreduce as hr
import hipreduce.torch as hrt


def per_call_us(fn, calls, sync):
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    sync()
    return (time.perf_counter() - t0) / calls * 1e6


def cases(device):
    x1 = torch.ones(1, device=device)
    xk = torch.rand(1 << 10, device=device)
    x2 = torch.rand(32, 32, device=device)
    y = torch.rand(1 << 10, device=device)
    off = torch.linspace(0, 1 << 10, 9, device=device).to(torch.int64)
    ops = torch.ops.hipreduce
    for name, x in (("sum, 1 element", x1), ("sum, 2^10 elements", xk)):
        g = x.clone().requires_grad_()
        yield name, {"torch": lambda x=x: torch.sum(x), "hipreduce": lambda x=x: hr.sum(x),
                     "hrt direct": lambda x=x: hrt.sum(x), "op": lambda x=x: ops.sum(x),
                     "op + autograd": lambda g=g: hrt.sum(g)}
    g2 = x2.clone().requires_grad_()
    yield "sum, axis=1 of [32, 32]", {
        "torch": lambda: torch.sum(x2, 1), "hipreduce": lambda: hr.sum(x2, 1),
        "hrt direct": lambda: hrt.sum(x2, 1), "op": lambda: ops.sum(x2, [1]),
        "op + autograd": lambda: hrt.sum(g2, 1)}
    gk = xk.clone().requires_grad_()
    yield "norm, 2^10 elements", {
        "torch": lambda: torch.linalg.vector_norm(xk), "hipreduce": lambda: hr.norm(xk),
        "hrt direct": lambda: hrt.norm(xk), "op": lambda: ops.norm(xk),
        "op + autograd": lambda: hrt.norm(gk)}
    yield "dot, 2^10 elements", {
        "torch": lambda: torch.dot(xk, y), "hipreduce": lambda: hr.dot(xk, y),
        "hrt direct": lambda: hrt.dot(xk, y), "op": lambda: ops.dot(xk, y),
        "op + autograd": lambda: hrt.dot(gk, y)}
    lengths = off[1:] - off[:-1]
    yield "segment sum, 8 of 2^10", {
        "torch": lambda: torch.segment_reduce(xk, "sum", lengths=lengths),
        "hipreduce": lambda: hr.segment_reduce(xk, off), "hrt direct": lambda: hrt.segment_reduce(xk, off),
        "op": lambda: ops.segment_reduce(xk, off), "op + autograd": lambda: hrt.segment_reduce(gk, off)}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", type=int, default=None, help="a CUDA/ROCm GPU's index (default: the CPU)")
    p.add_argument("--calls", type=int, default=2000)
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--csv", help="also write case,column,us,us_low,us_high rows here")
    a = p.parse_args()
    rows = []
    device = "cpu" if a.device is None else f"cuda:{a.device}"
    sync = (lambda: None) if a.device is None else torch.cuda.synchronize
    print(f"torch {torch.__version__}, hipreduce {hr.__version__} ({hr.backend()}), {device}; "
          f"us per call, median of {a.rounds} rounds of {a.calls} calls [min-max]")
    for name, fns in cases(device):
        for fn in fns.values():  # warm-up: first calls, handles, workspaces
            per_call_us(fn, 50, sync)
        times = {k: [] for k in fns}
        for _ in range(a.rounds):
            for k, fn in fns.items():
                times[k].append(per_call_us(fn, a.calls, sync))
        cells = [f"{k} {statistics.median(v):6.2f} [{min(v):.2f}-{max(v):.2f}]" for k, v in times.items()]
        print(f"{name:26s}" + " | ".join(cells))
        rows += [(name, k, statistics.median(v), min(v), max(v)) for k, v in times.items()]
    if a.csv:
        with open(a.csv, "w") as f:
            f.write("case,column,us,us_low,us_high\n")
            f.writelines(f'"{c}",{k},{m:.2f},{lo:.2f},{hi:.2f}\n' for c, k, m, lo, hi in rows)


if __name__ == "__main__":
    main()
