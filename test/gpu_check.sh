#!/usr/bin/env bash
# One call on an NVIDIA box: configure + build the cuda backend, run the whole ctest
# (gpu and large included), the demo, then optionally compute-sanitizer and the performance
# report (bench/report.sh: docs/PERFORMANCE.md's tables).
#   test/gpu_check.sh OUT_DIR
# Env: SANITIZE=1 runs test/sanitize.sh; BENCH=1 runs the report; TESTS=0 skips
# ctest; LABELS=regex limits ctest; BUILD_DIR picks the build folder.
set -uo pipefail
out=${1:?usage: test/gpu_check.sh OUT_DIR}
mkdir -p "$out"
build=${BUILD_DIR:-/tmp/hipreduce-gpu-build}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/device.txt"
git rev-parse --short HEAD 2>/dev/null | tee -a "$out/device.txt"
start=$SECONDS
cmake -S . -B "$build" -G Ninja -DHIPREDUCE_BACKEND=cuda -DCMAKE_CUDA_ARCHITECTURES=90 >"$out/build.log" 2>&1 &&
  cmake --build "$build" -j16 >>"$out/build.log" 2>&1 || { tail -n 40 "$out/build.log"; exit 1; }
echo "build: $((SECONDS - start)) s"
rc=0
if [ "${TESTS:-1}" = 1 ]; then
start=$SECONDS
ctest --test-dir "$build" --output-on-failure ${LABELS:+-L "$LABELS"} >"$out/ctest.log" 2>&1
rc=$?
grep -E "tests passed|tests failed|Passed|Failed|Skipped|\*\*\*" "$out/ctest.log" | tail -n 30
echo "ctest: exit $rc, $((SECONDS - start)) s"
"$build/bench/hipreduce-demo" | tee "$out/demo.log"
fi
if [ "${SANITIZE:-0}" = 1 ]; then
  test/sanitize.sh "$build" "$build/sanitize" | tee "$out/sanitize.txt"
  sanitize_rc=${PIPESTATUS[0]}
  echo "sanitize: exit $sanitize_rc"
  [ "$sanitize_rc" -eq 0 ] || rc=1
fi
if [ "${BENCH:-0}" = 1 ]; then
  start=$SECONDS
  bash bench/report.sh "$build" || rc=1
  echo "report: $((SECONDS - start)) s"
fi
exit $rc
