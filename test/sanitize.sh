#!/usr/bin/env bash
# Runs the gpu suites under compute-sanitizer's four tools (NVIDIA GPUs, cuda backend):
#   test/sanitize.sh BUILD_DIR [LOG_DIR]
# memcheck (out-of-bounds / misaligned accesses), racecheck (shared-memory hazards),
# synccheck (barrier misuse) and initcheck (reads of device memory nothing wrote).
# The suites run a smaller matrix under the sanitizer: HIPREDUCE_SANITIZE_QUICK=1 for
# hipreduce_test_gpu, the `sanitize` argument for hipreduce_test_gpu_algorithms, sizes up to
# 4097 (HIPREDUCE_TYPED_MAX_N) for hipreduce_test_typed's GPU run, the emulator's profile for
# hipreduce_test_segments' GPU run (rows, ragged segments, every length distribution through the
# three balanced launches, columns; no giant segment), its smoke profile under racecheck (every
# fourth triple; racecheck is the slowest tool), the emulator's profiles for hipreduce_test_exact's
# GPU run (sum_exact, dot_exact), and the emulator's profiles for the GPU runs of
# hipreduce_test_tensor (plans over strided tensors: the tiles and columns kernels),
# hipreduce_test_stats (the statistics), hipreduce_test_by_key (reductions by key) and
# hipreduce_test_nanarg (nanargmin, nanargmax), their smoke profiles under racecheck. TOOLS picks the tools; SUITES=regex the suites (e.g. 'segments|exact').
set -uo pipefail
build=${1:?usage: test/sanitize.sh BUILD_DIR [LOG_DIR]}
logs=${2:-$build/sanitize}
mkdir -p "$logs"
status=0
for exe in "$build"/test/hipreduce_test_gpu "$build"/test/hipreduce_test_gpu_algorithms "$build"/test/hipreduce_test_typed \
    "$build"/test/hipreduce_test_segments "$build"/test/hipreduce_test_exact "$build"/test/hipreduce_test_tensor \
    "$build"/test/hipreduce_test_stats "$build"/test/hipreduce_test_by_key "$build"/test/hipreduce_test_nanarg; do
    [ -x "$exe" ] || continue
    [[ "$(basename "$exe")" =~ ${SUITES:-.} ]] || continue
    args=()
    [ "$(basename "$exe")" = hipreduce_test_gpu_algorithms ] && args=(sanitize)
    [ "$(basename "$exe")" = hipreduce_test_typed ] && args=(gpu)
    case "$(basename "$exe")" in
    hipreduce_test_segments | hipreduce_test_exact | hipreduce_test_tensor | hipreduce_test_stats | hipreduce_test_by_key | \
        hipreduce_test_nanarg)
        args=(gpu) ;;
    esac
    for tool in ${TOOLS:-memcheck racecheck synccheck initcheck}; do
        log="$logs/$(basename "$exe").$tool.log"
        profile=
        [ "${args[0]:-}" = gpu ] && [ "$(basename "$exe")" != hipreduce_test_typed ] && profile=emu
        [ "$profile" = emu ] && [ "$tool" = racecheck ] && profile=emu-smoke
        start=$SECONDS
        env ${profile:+HIPREDUCE_TEST_PROFILE=$profile} HIPREDUCE_SANITIZE_QUICK=1 HIPREDUCE_TYPED_MAX_N=4097 \
            compute-sanitizer --tool "$tool" --error-exitcode 99 "$exe" "${args[@]}" >"$log" 2>&1
        rc=$?
        summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -n 1)
        echo "$(basename "$exe") $tool: exit $rc, $((SECONDS - start)) s ${summary:-}"
        [ "$rc" -eq 0 ] || status=1
    done
done
exit $status
