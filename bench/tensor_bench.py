"""Strided tensors and any set of axes on the GPU: hipreduce's plans against torch in one process.

    python3 bench/tensor_bench.py LIBHIPREDUCE.so [--csv OUT.csv] [--reps 7]

Each case is a view of an f32 tensor that torch reduces with .sum(dims); hipreduce runs the plan of
the same view (its strides, no copy by the caller) with device results on torch's stream. Both
are timed with CUDA events over a batch of calls (median of --reps batches, inputs rotated past
the L2). GB/s counts the bytes of the elements the view holds, read once. "read" is hipreduce's
full sum of a contiguous f32 array of the same bytes, the library's own proxy for the read
ceiling (it runs at 94-97% of a same-size device read). The plan's bits are checked against the
simple call on the contiguous copy. Needs torch with CUDA.
"""
import argparse
import ctypes as C
import statistics
import sys

import torch

MAX_RANK = 8
F32, SUM, LOGICAL, TENSOR, DEVICE = 10, 0, 0, 0, 1


class Desc(C.Structure):
    _fields_ = [("op", C.c_int), ("in_dtype", C.c_int), ("out_dtype", C.c_int), ("layout", C.c_int),
                ("order", C.c_int), ("rank", C.c_int), ("extents", C.c_uint64 * MAX_RANK),
                ("x_strides", C.c_int64 * MAX_RANK), ("y_strides", C.c_int64 * MAX_RANK),
                ("num_axes", C.c_int), ("axes", C.c_int * MAX_RANK), ("num_segments", C.c_uint64),
                ("length", C.c_uint64), ("num_bins", C.c_uint64), ("row", C.c_uint64),
                ("key_dtype", C.c_int), ("correction", C.c_double), ("reserved", C.c_uint64 * 5)]


class Operands(C.Structure):
    _fields_ = [("x", C.c_void_p), ("y", C.c_void_p), ("offsets", C.c_void_p), ("values", C.c_void_p),
                ("indices", C.c_void_p), ("keys", C.c_void_p), ("counts", C.c_void_p),
                ("values2", C.c_void_p), ("reserved", C.c_void_p * 1)]


def load(path):
    lib = C.CDLL(path)
    lib.hipreduce_create.argtypes = [C.POINTER(C.c_void_p), C.c_int, C.c_int]
    lib.hipreduce_set_stream.argtypes = [C.c_void_p, C.c_void_p]
    lib.hipreduce_plan_create.argtypes = [C.c_void_p, C.POINTER(Desc), C.POINTER(C.c_void_p)]
    lib.hipreduce_plan_run.argtypes = [C.c_void_p, C.c_void_p, C.POINTER(Operands), C.c_int]
    lib.hipreduce_plan_destroy.argtypes = [C.c_void_p]
    lib.hipreduce_reduce.argtypes = [C.c_void_p, C.c_int, C.c_int, C.c_void_p, C.c_uint64, C.c_int, C.c_void_p, C.c_int]
    lib.hipreduce_last_error_message.argtypes = [C.c_void_p]
    lib.hipreduce_last_error_message.restype = C.c_char_p
    return lib


def check(lib, h, st, what):
    if st != 0:
        sys.exit(f"{what}: status {st}: {lib.hipreduce_last_error_message(h).decode()}")


def plan_of(lib, h, view, dims):
    d = Desc(op=SUM, in_dtype=F32, out_dtype=F32, layout=TENSOR, order=LOGICAL, rank=view.dim())
    for a, (e, s) in enumerate(zip(view.shape, view.stride())):
        d.extents[a], d.x_strides[a] = e, s
    d.num_axes = len(dims)
    for i, a in enumerate(dims):
        d.axes[i] = a
    plan = C.c_void_p()
    check(lib, h, lib.hipreduce_plan_create(h, C.byref(d), C.byref(plan)), "plan_create")
    return plan


def timed(fn, batch, reps):
    """Median seconds per call over reps batches of `batch` calls."""
    fn(0)
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for i in range(batch):
            fn(i)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3 / batch)
    return statistics.median(times), min(times), max(times)


def cases():
    """(name, make(): list of views, dims): every view is a strided view of a fresh f32 tensor."""
    def nchw():
        return torch.randn(64, 256, 56, 56, device="cuda")
    def nhwc():
        return torch.randn(64, 56, 56, 256, device="cuda").permute(0, 3, 1, 2)
    def square():
        return torch.randn(8192, 8192, device="cuda")
    return [
        ("[64,256,56,56] over (0,2,3), NCHW", nchw, (0, 2, 3)),
        ("[64,256,56,56] over (0,2,3), channels-last", nhwc, (0, 2, 3)),
        ("8192x8192 x.T.sum(1)", lambda: square().t(), (1,)),
        ("8192x8192 column sums x.sum(0)", square, (0,)),
        ("8192x8192 row sums x.sum(1)", square, (1,)),
        ("16384x8192 x[:, ::2].sum(1)", lambda: torch.randn(16384, 8192, device="cuda")[:, ::2], (1,)),
        ("[32,4096,4096] over (0,2)", lambda: torch.randn(32, 4096, 4096, device="cuda"), (0, 2)),
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lib")
    ap.add_argument("--csv")
    ap.add_argument("--reps", type=int, default=7)
    args = ap.parse_args()
    lib = load(args.lib)
    h = C.c_void_p()
    check(lib, h, lib.hipreduce_create(C.byref(h), 1, 0), "create")
    check(lib, h, lib.hipreduce_set_stream(h, C.c_void_p(torch.cuda.current_stream().cuda_stream)), "set_stream")
    rows = []
    for name, make, dims in cases():
        views = [make() for _ in range(2)]  # two inputs, rotated: each several times the L2
        v0 = views[0]
        elems = v0.numel()
        out = torch.empty(v0.sum(dims).shape, device="cuda")
        plan = plan_of(lib, h, v0, dims)
        ops = [Operands(x=v.data_ptr(), values=out.data_ptr()) for v in views]
        run = lambda i: lib.hipreduce_plan_run(h, plan, C.byref(ops[i % 2]), DEVICE)
        check(lib, h, run(0), "plan_run")
        # Bits: the plan's results against the simple call on each row of the contiguous copy.
        kept = [a for a in range(v0.dim()) if a not in dims]
        copy = v0.permute(*kept, *dims).contiguous().reshape(out.numel(), -1)
        want = torch.empty(out.numel(), device="cuda")
        for r in range(0, out.numel(), max(1, out.numel() // 16)):
            check(lib, h, lib.hipreduce_reduce(h, SUM, F32, copy[r].data_ptr(), copy.shape[1], F32,
                                               want[r:].data_ptr(), DEVICE), "reduce")
            torch.cuda.synchronize()
            assert torch.equal(want[r].view(torch.int32), out.reshape(-1)[r].view(torch.int32)), (name, r)
        del copy
        ours = timed(run, 10, args.reps)
        theirs = timed(lambda i: torch.sum(views[i % 2], dims), 10, args.reps)
        flat = [torch.randn(elems, device="cuda") for _ in range(2)]
        res = torch.empty(1, device="cuda")
        read = timed(lambda i: lib.hipreduce_reduce(h, SUM, F32, flat[i % 2].data_ptr(), elems, F32,
                                                    res.data_ptr(), DEVICE), 10, args.reps)
        gbs = lambda t: elems * 4 / t / 1e9
        rows.append((name, gbs(ours[0]), gbs(ours[2]), gbs(ours[1]), gbs(theirs[0]), gbs(read[0]),
                     ours[0] and theirs[0] / ours[0], read[0] / ours[0]))
        lib.hipreduce_plan_destroy(plan)
        del views, flat, out
        torch.cuda.empty_cache()
    header = "case,hipreduce_GBs,hipreduce_GBs_low,hipreduce_GBs_high,torch_GBs,read_GBs,x_torch,frac_read"
    lines = [header] + [f"\"{r[0]}\",{r[1]:.0f},{r[2]:.0f},{r[3]:.0f},{r[4]:.0f},{r[5]:.0f},{r[6]:.2f},{r[7]:.3f}"
                        for r in rows]
    if args.csv:
        open(args.csv, "w").write("\n".join(lines) + "\n")
    print(f"{'case':44s} {'ours GB/s':>18s} {'torch':>7s} {'read':>7s} {'x torch':>8s} {'of read':>8s}")
    for r in rows:
        print(f"{r[0]:44s} {r[1]:6.0f} ({r[2]:.0f}-{r[3]:.0f}) {r[4]:7.0f} {r[5]:7.0f} {r[6]:8.2f} {r[7]:8.1%}")


if __name__ == "__main__":
    main()
