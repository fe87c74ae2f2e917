#!/bin/sh
# Register spills of the amd build's kernels (the default path must not spill on gfx90a and
# gfx1030). Recompiles instance files of a configured amd build (Ninja) for the device only,
# with clang's kernel-resource-usage remarks, and lists every kernel that spills VGPRs, with its
# VGPR count, spill count, scratch bytes per lane and occupancy (waves per SIMD). Scratch without
# spills is a private array (a per-lane stack of levels), not a spill. Exit 1 when any spills.
#   test/amd_spills.sh BUILD_DIR [host/tree_f32.cpp ...]     (default: every host/tree_*.cpp)
# Takes 1-2 minutes per file and target on 2 cores.
set -eu
build=$1; shift
src=$(cd "$(dirname "$0")/.." && pwd)
files=${*:-$(cd "$src" && ls host/tree_*.cpp)}
spilled=0
for f in $files; do
    cmd=$(ninja -C "$build" -t commands hipreduce | grep -F -- "-c $src/$f" | head -n 1)
    [ -n "$cmd" ] || { echo "amd_spills: no compile command for $f in $build" >&2; exit 2; }
    cmd=$(printf '%s' "$cmd" | sed -e 's/ -o [^ ]*/ -o \/dev\/null/' -e 's/ -MD -MT [^ ]* -MF [^ ]*//')
    for arch in $(printf '%s' "$cmd" | grep -o -- '--offload-arch=[^ ]*' | cut -d= -f2); do
        one=$(printf '%s' "$cmd" | sed -e 's/ --offload-arch=[^ ]*//g')
        out=$(sh -c "$one --offload-arch=$arch --cuda-device-only -Rpass-analysis=kernel-resource-usage" 2>&1 |
            sed -n 's/.*remark: *//p' | awk -v where="$f $arch" '
                /^Function Name:/ { name = $3 }
                /^VGPRs:/ { vgpr = $2 }
                /^ScratchSize/ { scratch = $3 }
                /^Occupancy/ { occ = $3 }
                /^VGPRs Spill:/ { if ($3 > 0) printf "%s %s vgpr %s spill %s scratch %s occ %s\n", where, name, vgpr, $3, scratch, occ }')
        if [ -n "$out" ]; then printf '%s\n' "$out"; spilled=1; fi
    done
done
[ $spilled -eq 0 ] && echo "amd_spills: no kernel spills in $files"
exit $spilled
