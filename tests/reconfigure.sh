#!/usr/bin/env bash
# reconfigure.sh — one build folder configured for float, then again for double (as pip's reused build folder is,
# CMAKE_ARGS=-DHOOKE_DOUBLE=ON after a float build): the second configure must succeed, and so must a third back to
# float. On a machine with nvcc the first enables CUDA and caches its compiler, which the double configure must not
# take as CUDA being on (the device's CUDA driver is built only in a float build).
# SPDX-License-Identifier: MIT
# usage: bash tests/reconfigure.sh SOURCE_DIR
set -euo pipefail
src=$(cd "$1" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
light=(-DHOOKE_TESTS=OFF -DHOOKE_BENCH=OFF -DHOOKE_PYTHON=OFF -DHOOKE_INSTALL=OFF -DCMAKE_BUILD_TYPE=Release)
for precision in OFF ON OFF; do
    if ! cmake -S "$src" -B "$dir" "${light[@]}" -DHOOKE_DOUBLE=$precision >"$dir.log" 2>&1; then
        cat "$dir.log" >&2
        echo "reconfigure.sh: the configure with HOOKE_DOUBLE=$precision after the one before failed (above)" >&2
        rm -f "$dir.log"
        exit 1
    fi
    grep 'hooke: device: .*CUDA' "$dir.log" | sed "s/^/HOOKE_DOUBLE=$precision: /"
done
rm -f "$dir.log"
echo "reconfigure.sh: float, double and float again configure in one folder"
