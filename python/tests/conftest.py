"""The suites import their shared modules (capi.py, data.py) from this folder. bfloat16 numpy arrays need
ml_dtypes: CI sets HIPREDUCE_REQUIRE_BF16=1, so that its absence fails the run there (data.py). The torch
suites skip where torch does not import; CI sets HIPREDUCE_REQUIRE_TORCH=1, so that it fails instead."""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

if os.environ.get("HIPREDUCE_REQUIRE_TORCH") == "1":
    import torch  # noqa: F401  (an ImportError here fails the run)


def gpu_frameworks():
    """The GPU frameworks (torch, cupy) that have a GPU, where libhipreduce sees one too."""
    import hipreduce as hr  # noqa: PLC0415 (after sys.path is set)
    if hr.backend() == "cpu" or hr.device_count() < 1:
        return []
    found = []
    try:
        import torch  # noqa: PLC0415
        if torch.cuda.is_available():
            found.append("torch")
    except ImportError:
        pass
    try:
        import cupy  # noqa: PLC0415
        if cupy.cuda.runtime.getDeviceCount() > 0:
            found.append("cupy")
    except Exception:  # noqa: BLE001 (cupy without a driver raises several kinds)
        pass
    return found


def pytest_sessionstart(session):
    # CTest's python_gpu sets HIPREDUCE_NO_GPU_EXIT=77: without a usable GPU the run exits 77, which
    # CTest reports as skipped (as the C GPU tests), instead of passing with every case skipped.
    code = os.environ.get("HIPREDUCE_NO_GPU_EXIT")
    if code and os.environ.get("HIPREDUCE_REQUIRE_GPU") != "1" and not gpu_frameworks():
        pytest.exit("no GPU that both libhipreduce and torch or cupy can use", returncode=int(code))
