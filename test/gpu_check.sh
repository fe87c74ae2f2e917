#!/usr/bin/env bash
# One call on an NVIDIA box: configure + build the cuda backend, run the whole ctest
# (gpu and large included), the demo, optionally compute-sanitizer and a bench sweep.
#   test/gpu_check.sh OUT_DIR [bench args...]
# Env: SANITIZE=1 runs test/sanitize.sh; BENCH=0 skips the bench; LABELS=regex limits ctest.
set -uo pipefail
out=${1:?usage: test/gpu_check.sh OUT_DIR [bench args...]}
shift
mkdir -p "$out"
build=${BUILD_DIR:-/tmp/hipreduce-gpu-build}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/device.txt"
git rev-parse --short HEAD 2>/dev/null | tee -a "$out/device.txt"
start=$SECONDS
cmake -S . -B "$build" -G Ninja -DHIPREDUCE_BACKEND=cuda -DCMAKE_CUDA_ARCHITECTURES=90 >"$out/configure.log" 2>&1 &&
  cmake --build "$build" -j16 >"$out/build.log" 2>&1 || { tail -n 40 "$out/build.log"; exit 1; }
echo "build: $((SECONDS - start)) s"
start=$SECONDS
ctest --test-dir "$build" --output-on-failure ${LABELS:+-L "$LABELS"} >"$out/ctest.log" 2>&1
rc=$?
grep -E "tests passed|tests failed|Passed|Failed|Skipped|\*\*\*" "$out/ctest.log" | tail -n 30
echo "ctest: exit $rc, $((SECONDS - start)) s"
"$build/bench/hipreduce-demo" | tee "$out/demo.log"
if [ "${SANITIZE:-0}" = 1 ]; then
  test/sanitize.sh "$build" "$out/sanitize" | tee "$out/sanitize.txt"
fi
if [ "${BENCH:-1}" = 1 ]; then
  "$build/bench/hipreduce-bench" --format=csv --output="$out/bench.csv" "$@" 2>/dev/null
  column -s, -t < "$out/bench.csv" | cut -c1-150
fi
exit $rc
