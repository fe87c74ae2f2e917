"""cupy arrays: the adapter of _arrays (its methods' roles are described there), imported once a cupy
array is seen."""
from __future__ import annotations

import contextlib

from . import _dtypes as dt
from ._arrays import NumpyShape, host_offsets, spans_overlap


class CupyArrays(NumpyShape):
    defaults = dt.DEFAULTS[False]

    def __init__(self, cupy):
        self.cupy = cupy
        self._get_device = cupy.cuda.runtime.getDevice
        self._current_stream = cupy.cuda.get_current_stream

    @staticmethod
    def prepare(x, differentiable=True):
        return x, dt.code_of_numpy(x.dtype), x.device.id

    @staticmethod
    def code(x):
        return dt.code_of_numpy(x.dtype)

    @staticmethod
    def device(x):
        return x.device.id

    @staticmethod
    def memory(x, code):
        # (pointer, device, bytes), as TorchArrays.memory; only C-contiguous arrays come here.
        return x.data.ptr, x.device.id, x.nbytes

    @staticmethod
    def tensor(x, code):
        # (pointer of element (0, .., 0), device, shape, strides in elements), as TorchArrays.tensor;
        # None where a byte stride is not a whole number of elements (run() then copies).
        size = x.itemsize
        if any(s % size for s in x.strides):
            return None
        return x.data.ptr, x.device.id, x.shape, tuple(s // size for s in x.strides)

    def contiguous(self, x):
        return x if x.flags.c_contiguous else self.cupy.ascontiguousarray(x)

    def permuted_copy(self, x, axes, shape):
        with self._on(x.device.id):
            return self.cupy.ascontiguousarray(x.transpose(axes)).reshape(shape)

    def _on(self, device):
        """cupy allocates and names streams for its current device: the array's device, made current
        for the duration when it is not."""
        return contextlib.nullcontext() if self._get_device() == device else self.cupy.cuda.Device(device)

    def stream(self, device):
        # The Stream object, not its pointer: _core holds it while the thread's handle uses its stream
        # (cupy destroys a stream when its object is collected).
        if self._get_device() == device:
            return self._current_stream()
        with self.cupy.cuda.Device(device):
            return self._current_stream()

    def empty(self, shape, code, like):
        d = dt.NUMPY[code]
        if d is None:
            raise TypeError("hipreduce: cupy has no bfloat16 dtype")
        device = like.device.id
        if self._get_device() == device:
            return self.cupy.empty(shape, d)
        with self.cupy.cuda.Device(device):
            return self.cupy.empty(shape, d)

    @staticmethod
    def describe(a):
        return a.shape, dt.code_of_numpy(a.dtype), a.device.id, a.flags.c_contiguous

    @staticmethod
    def overlaps(out, a):
        return spans_overlap(out, a)

    def copy_into(self, out, a):
        with self._on(out.device.id):
            self.cupy.copyto(out, a)  # on the device's current stream, as the call that wrote a

    def is_array(self, a):
        return isinstance(a, self.cupy.ndarray)

    @staticmethod
    def scalar(a):
        return a  # a 0-d cupy array, as cupy.sum(x) gives

    def all_nan_slices(self, values, indices):
        """nanargmin/nanargmax: index -1 for a slice of NaNs only (cupy.nanargmin's rule)."""
        with self._on(values.device.id):
            self.cupy.putmask(indices, values != values, -1)

    def offsets(self, offsets, device, n):
        cupy = self.cupy
        if not isinstance(offsets, cupy.ndarray):
            o = host_offsets(offsets, n)
            with self._on(device):
                return cupy.asarray(o)
        if offsets.ndim != 1 or offsets.shape[0] < 1:
            raise ValueError("hipreduce: offsets must be a 1-d array of num_segments + 1 values")
        if offsets.dtype.kind not in "iu":
            raise TypeError(f"hipreduce: offsets must be integers, not {offsets.dtype}")
        if offsets.device.id != device:
            raise ValueError(f"hipreduce: offsets are on GPU {offsets.device.id}, the input on GPU {device}")
        with self._on(device):
            # Clamped, not read back (see device_offsets_torch).
            return cupy.clip(offsets.astype(cupy.int64), 0, n).astype(cupy.uint64)
