#!/usr/bin/env bash
# Runs the gpu suites under compute-sanitizer's four tools (NVIDIA GPUs, cuda backend):
#   test/sanitize.sh BUILD_DIR [LOG_DIR]
# memcheck (out-of-bounds / misaligned accesses), racecheck (shared-memory hazards),
# synccheck (barrier misuse) and initcheck (reads of device memory nothing wrote).
# HIPREDUCE_SANITIZE_QUICK=1 is passed to the tests so they run a smaller matrix.
set -uo pipefail
build=${1:?usage: test/sanitize.sh BUILD_DIR [LOG_DIR]}
logs=${2:-$build/sanitize}
mkdir -p "$logs"
status=0
for exe in "$build"/test/hipreduce_test_gpu "$build"/test/hipreduce_test_gpu_algorithms; do
    [ -x "$exe" ] || continue
    for tool in memcheck racecheck synccheck initcheck; do
        log="$logs/$(basename "$exe").$tool.log"
        HIPREDUCE_SANITIZE_QUICK=1 compute-sanitizer --tool "$tool" --error-exitcode 99 "$exe" >"$log" 2>&1
        rc=$?
        summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -n 1)
        echo "$(basename "$exe") $tool: exit $rc ${summary:-}"
        [ "$rc" -eq 0 ] || status=1
    done
done
exit $status
