"""The array frameworks: how to read an input's dtype, device, memory and strides, allocate results of
the same framework on the same device, and find the framework's current stream.

numpy is the only import-time dependency; torch and cupy are looked up in sys.modules (an array of a
framework that was never imported cannot exist). Anything else is taken through numpy.asarray (the
buffer protocol, __array__ or DLPack on the CPU).
"""
from __future__ import annotations

import sys

import numpy as np

from . import _core
from . import _dtypes as dt

CPU = -1  # the device value of host memory (the cpu device)


# An adapter per framework. On the call path (_calls.run and the public functions): prepare(x) gives
# the input as it lies, its dtype code and device in one call; size/ndim/shape; empty() allocates a
# result like the input; stream(device), tensor(x, code) (an input with its strides) and memory(a,
# code) (a C-contiguous result) are what _core takes. Each is a few attribute reads: a call on a
# small GPU array costs what these cost (bench/python_overhead.py). contiguous() and permuted_copy()
# copy, where a call needs it (segments, the rows of reduce_by_key, a layout without a descriptor).

class NumpyShape:
    """shape/size/ndim as numpy's API spells them (numpy and cupy arrays alike)."""

    @staticmethod
    def shape(a):
        return a.shape

    @staticmethod
    def size(a):
        return a.size

    @staticmethod
    def ndim(a):
        return a.ndim


class NumpyArrays(NumpyShape):
    defaults = dt.DEFAULTS[False]  # numpy's default result dtypes, [op][code]

    @staticmethod
    def prepare(x, differentiable=True):
        # differentiable: whether the result would carry a gradient in the framework (torch's check).
        # Any layout is reduced where it lies; a byte-swapped array is converted to the native order
        # (a conversion of its values, which the library cannot read).
        d = x.dtype
        if not d.isnative:
            x = NumpyArrays.contiguous(x)
            d = x.dtype
        return x, dt.code_of_numpy(d), CPU

    @staticmethod
    def contiguous(x):
        # numpy's own rule for "C-contiguous" (size-1 and empty dimensions are ignored); a byte-swapped
        # array is copied to the native order, as a strided one is to a contiguous one. astype, not
        # ascontiguousarray, which would make a 0-d array 1-d.
        if x.flags.c_contiguous and x.dtype.isnative:
            return x
        return x.astype(x.dtype.newbyteorder("="), order="C")

    @staticmethod
    def overlaps(out, a):
        """Whether out may share memory with a (bounds only: exact for C-contiguous arrays)."""
        return np.may_share_memory(out, a)

    @staticmethod
    def copy_into(out, a):
        np.copyto(out, a)

    @staticmethod
    def code(x):
        return dt.code_of_numpy(x.dtype)

    @staticmethod
    def device(x):
        return CPU

    @staticmethod
    def memory(x, code):
        # The array itself: _core reads it through the buffer protocol (checked, no copy). bfloat16
        # (ml_dtypes) has no buffer format, so it goes as its uint16 bits (a view of any layout).
        return x.view(np.uint16) if code == dt.BF16 else x

    # An input of any layout: _core reads its shape and byte strides from the buffer.
    tensor = memory

    @staticmethod
    def permuted_copy(x, axes, shape):
        return np.ascontiguousarray(x.transpose(axes)).reshape(shape)

    @staticmethod
    def stream(device):
        return 0

    @staticmethod
    def empty(shape, code, like):
        d = dt.NUMPY[code] if code != dt.BF16 else dt.numpy_bfloat16()
        if d is None:
            raise TypeError("hipreduce: a bfloat16 numpy result needs ml_dtypes (pip install ml_dtypes)")
        return np.empty(shape, d)

    @staticmethod
    def describe(a):
        """(shape, dtype code, device, C-contiguous and writable) of a result array passed in."""
        return a.shape, dt.code_of_numpy(a.dtype), CPU, a.flags.c_contiguous and a.flags.writeable

    @staticmethod
    def is_array(a):
        return isinstance(a, np.ndarray)

    @staticmethod
    def scalar(a):
        return a[()]  # a numpy scalar, as np.sum(x) gives

    @staticmethod
    def all_nan_slices(values, indices):
        """nanargmin/nanargmax: a slice of NaNs only (its value NaN) is numpy's ValueError."""
        if (values != values).any():
            raise ValueError("hipreduce: All-NaN slice encountered (numpy.nanargmin's rule)")

    @staticmethod
    def offsets(offsets, device, n):
        return host_offsets(offsets, n)


def host_offsets(offsets, n):
    """CSR offsets as a C-contiguous uint64 numpy array, checked: non-negative, at most n (the input's
    length); decreasing offsets are the library's INVALID_OFFSETS (ValueError)."""
    o = np.asarray(offsets)
    if o.ndim != 1 or o.shape[0] < 1:
        raise ValueError("hipreduce: offsets must be a 1-d array of num_segments + 1 values")
    if o.dtype.kind not in "iu":
        raise TypeError(f"hipreduce: offsets must be integers, not {o.dtype}")
    if o.dtype.kind == "i" and o.size and o.min() < 0:
        raise ValueError("hipreduce: offsets must not be negative")
    if o.size and int(o[-1]) > n:
        raise ValueError(f"hipreduce: offsets[-1] = {int(o[-1])} is past the input's {n} elements")
    return np.ascontiguousarray(o, dtype=np.uint64)


def raise_requires_grad(what):
    """The plain functions record no gradients: a tensor that autograd tracks is refused rather than
    detached. hipreduce.torch has the same reductions as torch operators with backward formulas."""
    raise NotImplementedError(f"hipreduce: {what} requires grad, and the plain functions record no gradients: "
                              "use hipreduce.torch (import hipreduce.torch; hipreduce.torch.sum(x), ...: "
                              "torch operators with gradients), or pass x.detach() for a result outside "
                              "the autograd graph, or call under torch.no_grad()")


def _span(a):
    """(first byte, bytes) of the memory a torch tensor, cupy or numpy array of any strides lies in: from
    its lowest element to the end of its highest."""
    data_ptr = getattr(a, "data_ptr", None)
    if isinstance(a, np.ndarray):  # host memory: offsets given as a list, say
        if a.flags.c_contiguous:
            return a.__array_interface__["data"][0], a.nbytes
        size = a.itemsize
        ptr, steps = a.__array_interface__["data"][0], a.strides
    elif data_ptr is not None:  # torch: strides in elements
        if a.is_contiguous():  # the common case, in two reads
            return data_ptr(), a.nbytes
        size = a.element_size()
        ptr, steps = data_ptr(), [s * size for s in a.stride()]
    else:  # cupy: in bytes
        if a.flags.c_contiguous:
            return a.data.ptr, a.nbytes
        size = a.itemsize
        ptr, steps = a.data.ptr, a.strides
    shape = tuple(a.shape)
    if 0 in shape:
        return ptr, 0
    low = sum((e - 1) * s for e, s in zip(shape, steps) if s < 0)
    high = sum((e - 1) * s for e, s in zip(shape, steps) if s > 0)
    return ptr + low, high - low + size


def spans_overlap(a, b):
    """Whether two torch tensors (or two cupy arrays) may share a byte: the ranges their elements lie
    in meet (bounds only, as numpy.may_share_memory; exact for C-contiguous arrays)."""
    pa, na = _span(a)
    pb, nb = _span(b)
    return na > 0 and nb > 0 and pa < pb + nb and pb < pa + na


class TorchArrays:
    defaults = dt.DEFAULTS[True]  # torch's default result dtypes (every integer sum into int64)

    def __init__(self, torch):
        self.torch = torch
        self.codes, self.dtypes = dt.torch_tables()
        # The raw current stream without building a torch.cuda.Stream object (what triton uses);
        # the public torch.cuda.current_stream otherwise. A pointer is enough: torch never destroys
        # its pooled streams (only a torch.cuda.ExternalStream's owner can; see _core's handle_for).
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        self._raw_stream = raw if raw is not None else (
            lambda device: torch.cuda.current_stream(device).cuda_stream)
        # _core's fast path of whole-tensor reductions (and its 0-d results, new_scalar) for torch.Tensor.
        _core.register_tensor_type(torch.Tensor, self.codes, self.dtypes, torch.empty_like, self._raw_stream,
                                   dt.DEFAULTS[True])

    def prepare(self, x, differentiable=True):
        if differentiable and x.requires_grad and self.torch.is_grad_enabled():
            raise_requires_grad("the input")
        code = self.codes.get(x.dtype)
        if code is None:
            code = self.code(x)  # raises
        if x.is_cuda:  # also ROCm builds of torch; get_device() is the ordinal, without a torch.device
            return x, code, x.get_device()
        if x.is_cpu:  # without building x.device (1 us)
            return x, code, CPU
        return x, code, self.device(x)  # raises

    def code(self, x):
        code = self.codes.get(x.dtype)
        if code is None:
            raise TypeError(f"hipreduce: tensors of dtype {x.dtype} are not supported "
                            f"(supported: {', '.join(dt.NAMES)})")
        return code

    @staticmethod
    def device(x):
        d = x.device
        if d.type == "cpu":
            return CPU
        if d.type == "cuda":
            return d.index if d.index is not None else 0
        raise TypeError(f"hipreduce: tensors on {d} are not supported (cpu or cuda)")

    @staticmethod
    def memory(x, code):
        # (pointer, device, bytes) for _core, which checks them against the call. get_device(): the
        # CUDA ordinal, -1 for a CPU tensor. Only C-contiguous tensors come here (results checked or
        # allocated, contiguous() inputs), so their bytes start at the pointer.
        return x.data_ptr(), x.get_device(), x.nbytes

    @staticmethod
    def tensor(x, code):
        # An input of any layout: (pointer of element (0, .., 0), device, shape, strides in
        # elements); data_ptr() includes the storage offset. torch has no negative strides.
        return x.data_ptr(), x.get_device(), x.shape, x.stride()

    @staticmethod
    def contiguous(x):
        return x.contiguous()

    @staticmethod
    def permuted_copy(x, axes, shape):
        return x.permute(axes).contiguous().reshape(shape)

    def stream(self, device):
        return 0 if device == CPU else self._raw_stream(device)

    def empty(self, shape, code, like):
        # On like's device. A 0-d result (axis=None) is _core.new_scalar's: empty_like of a 0-d
        # template of the dtype and device, 1.6 us on the H200's host against 2.3 for new_empty and
        # 2.7 for torch.empty(device=...) (bench/python_overhead.py). like.get_device() is -1 on the
        # CPU; None: like is a subclass (nn.Parameter), or torch lacks the dtype (new_empty raises).
        if not shape:
            r = _core.new_scalar(like, code, like.get_device())
            if r is not None:
                return r
        return like.new_empty(shape, dtype=self._dtype(code))

    def _dtype(self, code):
        d = self.dtypes[code]
        if d is None:
            raise TypeError(f"hipreduce: this torch has no {dt.NAMES[code]} dtype")
        return d

    def describe(self, a):
        if a.requires_grad and self.torch.is_grad_enabled():
            raise_requires_grad("out")
        return a.shape, self.code(a), a.get_device() if a.is_cuda else self.device(a), a.is_contiguous()

    @staticmethod
    def overlaps(out, a):
        return spans_overlap(out, a)

    @staticmethod
    def copy_into(out, a):
        out.copy_(a)  # on the current stream, as the call that wrote a

    def is_array(self, a):
        return isinstance(a, self.torch.Tensor)

    @staticmethod
    def shape(a):
        return tuple(a.shape)

    @staticmethod
    def size(a):
        return a.numel()

    @staticmethod
    def ndim(a):
        return a.dim()

    @staticmethod
    def scalar(a):
        return a  # a 0-d tensor, as torch.sum(x) gives

    @staticmethod
    def all_nan_slices(values, indices):
        """nanargmin/nanargmax: index -1 for a slice of NaNs only (cupy's rule; no wait for the GPU)."""
        indices.masked_fill_(values != values, -1)

    def offsets(self, offsets, device, n):
        torch = self.torch
        if device == CPU or not isinstance(offsets, torch.Tensor) or offsets.device.type == "cpu":
            o = host_offsets(offsets.numpy() if isinstance(offsets, torch.Tensor) else offsets, n)
            if device == CPU:
                return o
            # The library reads the offsets as uint64; non-negative int64 has the same bits.
            return torch.from_numpy(o.view(np.int64)).to(f"cuda:{device}", non_blocking=False)
        return device_offsets_torch(torch, offsets, device, n)


def device_offsets_torch(torch, offsets, device, n):
    """Offsets already on the GPU are not read back (that would synchronise): clamped into [0, n] so
    that nothing outside the input is read; a decreasing offset gives an empty segment there."""
    if offsets.ndim != 1 or offsets.shape[0] < 1:
        raise ValueError("hipreduce: offsets must be a 1-d array of num_segments + 1 values")
    if offsets.dtype not in (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8):
        raise TypeError(f"hipreduce: offsets must be a signed integer tensor, not {offsets.dtype}")
    if offsets.device.index not in (None, device):
        raise ValueError(f"hipreduce: offsets are on {offsets.device}, the input on cuda:{device}")
    return offsets.to(torch.int64).clamp(0, n).contiguous()


NUMPY = NumpyArrays()
_torch = None
_cupy = None
# The adapter of each exact array type seen so far (np.ndarray, torch.Tensor, cupy.ndarray): one
# dict lookup per call. Subclasses and other array-likes go through framework_of every time.
BY_TYPE = {np.ndarray: NUMPY}


def is_torch(x):
    """Whether x is a torch tensor (without importing torch)."""
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(x, torch.Tensor)


def framework_of(x):
    """The framework of x, and x itself or, for another array-like, x as a numpy array."""
    fw = BY_TYPE.get(type(x))
    if fw is not None:
        return fw, x
    if isinstance(x, np.ndarray):
        if isinstance(x, np.ma.MaskedArray):  # np.asarray would drop the mask and reduce masked values
            raise TypeError("hipreduce: masked arrays are not supported (reduce x.filled(value) or x.compressed())")
        return NUMPY, np.asarray(x)  # np.matrix, np.memmap, ...: the plain array, no copy
    global _torch, _cupy
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(x, torch.Tensor):
        if _torch is None:
            _torch = TorchArrays(torch)
            BY_TYPE[torch.Tensor] = _torch
        return _torch, x
    cupy = sys.modules.get("cupy")
    if cupy is not None and isinstance(x, cupy.ndarray):
        if _cupy is None:
            from ._cupy_arrays import CupyArrays  # noqa: PLC0415 (only once a cupy array is seen)
            _cupy = CupyArrays(cupy)
            BY_TYPE[cupy.ndarray] = _cupy
        return _cupy, x
    dlpack_device = getattr(x, "__dlpack_device__", None)
    if dlpack_device is not None:
        if dlpack_device()[0] != 1:  # 1: kDLCPU
            raise TypeError(f"hipreduce: GPU arrays of type {type(x).__name__} are not supported: pass a "
                            "torch tensor or cupy array (torch.from_dlpack(x) / cupy.from_dlpack(x), no copy)")
        try:
            return NUMPY, np.from_dlpack(x)  # a CPU DLPack producer (jax, ...), without a copy
        except (AttributeError, BufferError, TypeError, RuntimeError):
            pass  # a dtype DLPack cannot carry (bfloat16 in older numpy): numpy.asarray below
    try:
        return NUMPY, np.asarray(x)
    except Exception as e:  # noqa: BLE001 (numpy raises several kinds)
        raise TypeError(f"hipreduce: cannot read {type(x).__name__} as an array: {e}") from e
