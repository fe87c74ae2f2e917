#!/usr/bin/env bash
# CI for the Python package (issue 20), run from anywhere in a clone. Written for a fresh Debian 12
# machine with python3, CMake >= 3.21 and a C/C++ compiler, no GPU:
#   setup  Debian's python3-venv (python3 -m venv needs its ensurepip) and python3-dev (Python.h) when
#          missing; a fresh venv with the test dependencies from PyPI (numpy, pytest, ml_dtypes)
#   build  `pip install .` with the cpu backend (pip fetches the build dependencies, scikit-build-core
#          and nanobind, into its isolated build environment; a GPU compiler on the machine is ignored)
#   test   pytest over python/tests against the installed package (the GPU cases report skipped)
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
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check numpy pytest ml_dtypes
rm -rf build-python
HIPREDUCE_BACKEND=cpu "$venv/bin/python" -m pip install --disable-pip-version-check ./
echo "CI: the package installed in $((SECONDS - start)) s"

# From the tests' folder, so that `import hipreduce` finds the installed package, not python/hipreduce.
cd python/tests
HIPREDUCE_REQUIRE_BF16=1 "$venv/bin/python" -m pytest -q -p no:cacheprovider -rs .
printf '\n======== python CI passed in %d s ========\n' $((SECONDS - start))
