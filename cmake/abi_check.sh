#!/bin/sh
# The ABI check (CI, and by hand before a release): compares the exported ABI of a libhipreduce.so
# built with debug info (its DWARF is what libabigail reads) against the baseline kept in the
# repository, cmake/abi/libhipreduce.abi, and fails when the ABI changed incompatibly while the
# soname stayed the same (0.x: an incompatible change must bump the minor version, which is the
# soname, and be listed in CHANGELOG.md). A bumped soname must come with a new baseline.
#   cmake/abi_check.sh BUILD_DIR            check (BUILD_DIR: a build with -g, e.g. RelWithDebInfo)
#   cmake/abi_check.sh BUILD_DIR --update   write the baseline from BUILD_DIR's library
# Needs abidw/abidiff (Debian: abigail-tools).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$1
baseline="$here/abi/libhipreduce.abi"
lib=$(ls "$build"/libhipreduce.so.*.*.* 2>/dev/null | head -n 1)
[ -n "$lib" ] || { echo "abi_check: no libhipreduce.so.X.Y.Z in $build" >&2; exit 2; }
headers="--headers-dir $here/../include/hipreduce --headers-dir $build/include/hipreduce"
soname=$(objdump -p "$lib" | awk '/SONAME/ {print $2}')
if [ "${2:-}" = "--update" ]; then
    # --no-corpus-path: the baseline must not name this machine's build folder.
    abidw $headers --no-corpus-path --drop-private-types --out-file "$baseline" "$lib"
    echo "abi_check: wrote $baseline for $soname"
    exit 0
fi
base_soname=$(sed -n "s/.*soname='\([^']*\)'.*/\1/p" "$baseline" | head -n 1)
if [ "$soname" != "$base_soname" ]; then
    echo "abi_check: the library's soname is $soname, the baseline's $base_soname: a new minor version"
    echo "abi_check: needs a new baseline (cmake/abi_check.sh BUILD_DIR --update) and a CHANGELOG.md entry"
    exit 1
fi
set +e
abidiff --headers-dir2 "$here/../include/hipreduce" --headers-dir2 "$build/include/hipreduce" \
    --drop-private-types --no-added-syms "$baseline" "$lib" > "$build/abidiff.txt" 2>&1
rc=$?
set -e
cat "$build/abidiff.txt"
# abidiff's exit status is a bit field: 1 error, 2 usage, 4 ABI change, 8 incompatible ABI change.
# Added functions are not reported (--no-added-syms), so any change left is to what the baseline
# exports: a function's parameters or return type, a type's layout, an enumerator's value, a
# removed function. libabigail counts some of those as compatible (an added parameter sets only
# bit 4), but a program built against the old header would pass the wrong arguments: every one of
# them needs a new minor version.
if [ $((rc & 3)) -ne 0 ]; then
    echo "abi_check: abidiff failed (exit $rc)" >&2
    exit 2
fi
if [ $((rc & 12)) -ne 0 ]; then
    echo "abi_check: FAILED: the exported ABI changed (above) and the soname is still $soname."
    echo "abi_check: bump the minor version (CMakeLists.txt project VERSION), list the change in CHANGELOG.md,"
    echo "abi_check: and write the new baseline (cmake/abi_check.sh BUILD_DIR --update)."
    exit 1
fi
echo "abi_check: every function and type of $soname's baseline is unchanged: passed"
echo "abi_check: (functions added since the baseline are allowed; --update records them)"
