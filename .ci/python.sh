#!/usr/bin/env bash
# CI for the Python package, run from anywhere in a clone. Written for a fresh Debian 12
# machine with python3, CMake >= 3.21 and a C/C++ compiler, no GPU:
#   setup  Debian's python3-venv (python3 -m venv needs its ensurepip) and python3-dev (Python.h) when
#          missing; a fresh venv with the test dependencies from PyPI (numpy, pytest, ml_dtypes, and torch:
#          PyPI's wheel is the CUDA build, which runs on the CPU without a GPU; about 85 s, 5.4 GB, so the
#          torch operators, their gradients and torch.compile are tested on the cpu device)
#   build  `pip install .` with the cpu backend (pip fetches the build dependencies, scikit-build-core
#          and nanobind, into its isolated build environment; a GPU compiler on the machine is ignored)
#   test   pytest over python/tests against the installed package (the GPU cases report skipped)
#   ctest  the CTest route of the README's test command: a plain cpu build whose configure finds the
#          venv's Python (HIPREDUCE_PYTHON=AUTO) builds the extension and registers `python`, which
#          must pass, and no python_gpu (a cpu build has no GPU suite); `ctest -L python` runs it
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
start=$SECONDS

packages=()
python3 -c 'import ensurepip' 2>/dev/null || packages+=(python3-venv)
python3 -c 'import os, sys, sysconfig
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' || packages+=(python3-dev)
if [ ${#packages[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${packages[@]}"
fi

venv=$(mktemp -d /tmp/hipreduce-python-ci.XXXXXX)
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check numpy pytest ml_dtypes nanobind torch
"$venv/bin/python" -c 'import torch; print("CI: torch", torch.__version__)'
rm -rf build-python
HIPREDUCE_BACKEND=cpu "$venv/bin/python" -m pip install --disable-pip-version-check ./
echo "CI: the package installed in $((SECONDS - start)) s"

# From the tests' folder, so that `import hipreduce` finds the installed package, not python/hipreduce.
cd python/tests
HIPREDUCE_REQUIRE_BF16=1 HIPREDUCE_REQUIRE_TORCH=1 "$venv/bin/python" -m pytest -q -p no:cacheprovider -rs .
cd ../..
echo "CI: pip install and pytest took $((SECONDS - start)) s"

ctest_start=$SECONDS
build=$(mktemp -d /tmp/hipreduce-python-ctest.XXXXXX)
trap 'rm -rf "$venv" "$build"' EXIT
cmake -S . -B "$build" -DHIPREDUCE_BACKEND=cpu -DPython_EXECUTABLE="$venv/bin/python" | tee "$build/configure.log"
grep -q "Python package and its tests (ctest -L python)" "$build/configure.log" || {
    echo "CI: configure did not register the Python suites (HIPREDUCE_PYTHON=AUTO)" >&2
    exit 1
}
cmake --build "$build" -j2 --target _core _core_stub
ctest --test-dir "$build" -L python --output-on-failure --no-tests=error
echo "CI: the CTest route took $((SECONDS - ctest_start)) s"
printf '\n======== python CI passed in %d s ========\n' $((SECONDS - start))
