#!/usr/bin/env bash
# Runs the gpu suites under compute-sanitizer's four tools (NVIDIA GPUs, cuda backend):
#   test/sanitize.sh BUILD_DIR [LOG_DIR]
# memcheck (out-of-bounds / misaligned accesses), racecheck (shared-memory hazards),
# synccheck (barrier misuse) and initcheck (reads of device memory nothing wrote).
# The suites run a smaller matrix under the sanitizer: HIPREDUCE_SANITIZE_QUICK=1 for
# hipreduce_test_gpu, the `sanitize` argument for hipreduce_test_gpu_algorithms.
set -uo pipefail
build=${1:?usage: test/sanitize.sh BUILD_DIR [LOG_DIR]}
logs=${2:-$build/sanitize}
mkdir -p "$logs"
status=0
for exe in "$build"/test/hipreduce_test_gpu "$build"/test/hipreduce_test_gpu_algorithms; do
    [ -x "$exe" ] || continue
    args=()
    [ "$(basename "$exe")" = hipreduce_test_gpu_algorithms ] && args=(sanitize)
    for tool in memcheck racecheck synccheck initcheck; do
        log="$logs/$(basename "$exe").$tool.log"
        HIPREDUCE_SANITIZE_QUICK=1 compute-sanitizer --tool "$tool" --error-exitcode 99 "$exe" "${args[@]}" >"$log" 2>&1
        rc=$?
        summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -n 1)
        echo "$(basename "$exe") $tool: exit $rc ${summary:-}"
        [ "$rc" -eq 0 ] || status=1
    done
done
exit $status
