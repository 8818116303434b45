#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check.sh — hooke as its users get it: installs a build into a temporary prefix, then builds and runs
# tests/consumer/consumer.c against the installed tree with find_package(hooke) (shared and static) and with
# pkg-config and plain gcc (shared and static), checks that libhooke.so exports exactly the functions the
# installed hooke.h marks HK_API, and runs docs/hooke_ctypes.py. Where BUILD has the Python module
# (-DHOOKE_PYTHON=ON), imports the installed package hooke from a clean environment and steps a scene to the
# program's state (tests/python/check_installed.py). With --subproject, also builds the consumer in a parent
# project that adds hooke's source tree with add_subdirectory; with --pip, also builds and installs the package
# with pip (`pip install --no-build-isolation src/python`, offline) into a venv and checks it the same way.
#
# usage: bash tests/consumer/check.sh BUILD [--subproject] [--pip]   (BUILD: a configured and built hooke, not a sanitizer build)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] && [ -f "$1/CMakeCache.txt" ] || {
    grep -m1 '^# usage:' "$0" >&2
    exit 1
}
build=$(cd "$1" && pwd)
shift
subproject='' pip=''
for arg; do
    case $arg in
    --subproject) subproject=1 ;;
    --pip) pip=1 ;;
    *)
        grep -m1 '^# usage:' "$0" >&2
        exit 1
        ;;
    esac
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
fail() {
    echo "check.sh: $*" >&2
    exit 1
}

cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" || {
    cat "$tmp/install.log" >&2
    fail "cmake --install failed"
}
pcfile=$(find "$prefix" -name hooke.pc)
[ -n "$pcfile" ] || fail "no hooke.pc under $prefix"
export PKG_CONFIG_PATH=$(dirname "$pcfile")
libdir=$(pkg-config --variable=libdir hooke)
scene=$prefix/share/hooke/scenes/oscillator.scene
[ -f "$scene" ] || fail "the scenes are not installed ($scene)"

# the state the installed program reaches: every consumer must reach the same
want=$("$prefix/bin/hooke" run "$scene" --quiet | sed -n 's/.*state_hash=\(0x[0-9a-f]*\).*/\1/p')
[ -n "$want" ] || fail "the installed hooke printed no state_hash"

# runs a consumer (name, command...): it must agree with the closed form (its own check), print the
# program's state hash and write a whole VTK frame
run_consumer() {
    local name=$1
    shift
    local dir=$tmp/frames-$name
    "$@" "$scene" "$dir" >"$tmp/$name.out" 2>&1 || {
        cat "$tmp/$name.out" >&2
        fail "$name failed"
    }
    grep -q "^state_hash=$want\$" "$tmp/$name.out" || {
        cat "$tmp/$name.out" >&2
        fail "$name: state hash differs from 'hooke run' ($want)"
    }
    local frame
    frame=$(ls "$dir"/frame_* 2>/dev/null | head -n 1 || true)
    [ -n "$frame" ] || fail "$name wrote no frame into $dir"
    head -c 5 "$frame" | grep -q '<?xml' || fail "$name: $frame is not a VTK XML file"
    grep -q '</VTKFile>' "$frame" || fail "$name: $frame is not whole"
    echo "check.sh: $name: $(head -n 1 "$tmp/$name.out")"
}

# no sanitizer or other flags of the build's own: a user's compiler as it comes
unset CFLAGS LDFLAGS

echo "check.sh: find_package(hooke) from $prefix"
cmake -S "$root/tests/consumer" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >"$tmp/cmake.log" 2>&1 || {
    cat "$tmp/cmake.log" >&2
    fail "find_package(hooke) failed"
}
cmake --build "$tmp/cmake" >>"$tmp/cmake.log" 2>&1 || {
    cat "$tmp/cmake.log" >&2
    fail "the find_package consumer did not build"
}
run_consumer cmake-shared "$tmp/cmake/consumer"
run_consumer cmake-static "$tmp/cmake/consumer_static"
# the task hook (hooke.h hk_task_hook): the consumer's own pthread pool of 3 runs the world's parallel passes
# instead of OpenMP's threads, and the state is the same
"$tmp/cmake/consumer" "$scene" "$tmp/frames-pool" 3 >"$tmp/pool.out" 2>&1 || {
    cat "$tmp/pool.out" >&2
    fail "the consumer on its own thread pool failed"
}
grep -q "^state_hash=$want\$" "$tmp/pool.out" || fail "on its own thread pool: state hash differs from 'hooke run' ($want)"
grep -q "^the passes ran on the host's pool of 3 threads: [1-9]" "$tmp/pool.out" ||
    fail "the consumer's pool ran no pass: $(cat "$tmp/pool.out")"
echo "check.sh: cmake-shared on its own pool: $(grep '^the passes ran' "$tmp/pool.out")"
readelf -d "$tmp/cmake/consumer" | grep -q 'NEEDED.*libhooke\.so' || fail "consumer does not load libhooke.so"
! readelf -d "$tmp/cmake/consumer_static" | grep -q 'libhooke' || fail "consumer_static needs libhooke.so"

# Cflags: hooke.h needs its own include folder and nothing else (no cairo, glib or freetype paths)
pc_cflags=$(pkg-config --cflags hooke | xargs)
[ "$pc_cflags" = "-I$(pkg-config --variable=includedir hooke)" ] || fail "pkg-config --cflags hooke gives '$pc_cflags', want only hooke's include folder"
echo "check.sh: pkg-config $(pkg-config --modversion hooke): gcc consumer.c \$(pkg-config --cflags --libs hooke)"
cflags="-std=c17 -O2 -Wall -Wextra -Werror -pthread" # -pthread: consumer.c's own thread pool
# shellcheck disable=SC2046 # pkg-config's flags are words
gcc $cflags "$root/tests/consumer/consumer.c" -o "$tmp/pc-shared" $(pkg-config --cflags --libs hooke) -lm
run_consumer pkg-config-shared env LD_LIBRARY_PATH="$libdir" "$tmp/pc-shared"
# a static link: the archive by name, and what pkg-config --static adds for it
# shellcheck disable=SC2046
gcc $cflags "$root/tests/consumer/consumer.c" -o "$tmp/pc-static" $(pkg-config --cflags hooke) \
    $(pkg-config --static --libs hooke | sed 's/-lhooke\b/-l:libhooke.a/') -lm
! readelf -d "$tmp/pc-static" | grep -q 'libhooke' || fail "pc-static needs libhooke.so"
run_consumer pkg-config-static "$tmp/pc-static"

# the header's precision must be the library's: a mismatch stops the build, never runs with mismatched types
precision=$(sed -n 's/^#define HOOKE_DOUBLE_BUILD \([01]\)$/\1/p' "$prefix/include/hooke/config.h")
[ -n "$precision" ] || fail "hooke/config.h has no HOOKE_DOUBLE_BUILD"
if [ "$precision" = 0 ]; then
    # shellcheck disable=SC2046
    if gcc $cflags -DHOOKE_DOUBLE -c "$root/tests/consumer/consumer.c" -o "$tmp/mixed.o" $(pkg-config --cflags hooke) \
        2>"$tmp/mixed.log"; then
        fail "consumer.c built with -DHOOKE_DOUBLE against a float hooke"
    fi
    grep -q 'HOOKE_DOUBLE is defined, but this hooke was built in float' "$tmp/mixed.log" ||
        fail "-DHOOKE_DOUBLE against a float hooke: $(cat "$tmp/mixed.log")"
fi
# a header of the other precision (its config.h first on the include path) does not link
other=$((1 - precision))
mkdir -p "$tmp/other/hooke"
sed "s/^#define HOOKE_DOUBLE_BUILD [01]\$/#define HOOKE_DOUBLE_BUILD $other/" "$prefix/include/hooke/config.h" \
    >"$tmp/other/hooke/config.h"
# shellcheck disable=SC2046
if gcc $cflags -I"$tmp/other" "$root/tests/consumer/consumer.c" -o "$tmp/mixed" $(pkg-config --cflags --libs hooke) \
    -lm 2>"$tmp/mixed.log"; then
    fail "a consumer with a header of the other precision linked against libhooke.so"
fi
missing=$([ "$other" = 1 ] && echo hk_library_is_double || echo hk_library_is_float)
grep -q "undefined reference to \`$missing'" "$tmp/mixed.log" || fail "mixed precision: $(cat "$tmp/mixed.log")"
echo "check.sh: a header of the other precision is refused (compile: #error; link: no $missing)"

# the shared library exports exactly the functions hooke.h (with the parts it includes) marks HK_API, and the
# symbol of its precision
headers=("$prefix"/include/hooke/*.h)
for part in $(sed -n 's|^#include "hooke/\([a-z_]*\.h\)".*|\1|p' "$prefix/include/hooke/hooke.h"); do
    [ -f "$prefix/include/hooke/$part" ] || fail "hooke.h includes hooke/$part, which is not installed"
done
unmarked=$(grep -nE '^[a-z][a-z0-9_ ]*[ *]hk_[a-z0-9_]+\(' "${headers[@]}" | grep -v ':[0-9]*:typedef' || true)
[ -z "$unmarked" ] || fail "functions of hooke.h without HK_API: $unmarked"
grep -hoE '^HK_API [^(]*[ *]hk_[a-z0-9_]+\(' "${headers[@]}" | grep -oE 'hk_[a-z0-9_]+\($' | tr -d '(' | sort >"$tmp/api"
nm -D --defined-only "$libdir/libhooke.so" | awk '{ print $3 }' | sort >"$tmp/exported.all"
own=$([ "$precision" = 1 ] && echo hk_library_is_double || echo hk_library_is_float)
grep -qx "$own" "$tmp/exported.all" || fail "libhooke.so does not export $own"
grep -vx "$own" "$tmp/exported.all" >"$tmp/exported"
if ! cmp -s "$tmp/api" "$tmp/exported"; then
    diff "$tmp/api" "$tmp/exported" >&2 || true
    fail "libhooke.so exports (>) other than the HK_API functions of hooke.h (<)"
fi
echo "check.sh: libhooke.so exports the $(wc -l <"$tmp/api") functions of hooke.h, $own and nothing else"

# Python through ctypes: the example of the docs, against the program's hash of the rope scene
if command -v python3 >/dev/null; then
    rope=$prefix/share/hooke/scenes/rope.scene
    want_rope=$("$prefix/bin/hooke" run "$rope" --steps 300 --quiet | sed -n 's/.*state_hash=\(0x[0-9a-f]*\).*/\1/p')
    got=$(LD_LIBRARY_PATH="$libdir" python3 "$root/docs/hooke_ctypes.py" "$rope" 300)
    case $got in "state_hash=$want_rope total_energy="*" J") ;; *) fail "hooke_ctypes.py printed '$got', expected state_hash=$want_rope" ;; esac
    echo "check.sh: python3 docs/hooke_ctypes.py: $got"
else
    fail "python3 is missing (bash .ci/deps python installs it)"
fi

# Python: the package hooke where `cmake --install` put it, imported with nothing of the build tree in reach
# (PYTHONPATH: the prefix's site-packages only; no LD_LIBRARY_PATH: _hooke carries libhooke inside)
cache_value() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
check_python() { # name, interpreter, site folder, the environment's other words
    local name=$1 python=$2 site=$3
    shift 3
    local so
    so=$(ls "$site"/hooke/_hooke*.so 2>/dev/null | head -n 1 || true)
    [ -n "$so" ] && [ -f "$site/hooke/__init__.py" ] || fail "$name: no package hooke (_hooke*.so, __init__.py) in $site"
    ! readelf -d "$so" | grep -q 'NEEDED.*libhooke' || fail "$name: $so needs libhooke.so"
    ! readelf -d "$so" | grep -qE 'R(UN)?PATH' || fail "$name: $so carries a search path: $(readelf -d "$so" | grep -E 'R(UN)?PATH')"
    (cd "$tmp" && env -i PATH=/usr/bin:/bin HOME="$tmp" "$@" "$python" "$root/tests/python/check_installed.py" \
        "$site" "$prefix/bin/hooke" "$prefix/share/hooke/scenes/rope.scene" 300) >"$tmp/$name.out" 2>&1 || {
        cat "$tmp/$name.out" >&2
        fail "$name: the installed package failed"
    }
    echo "check.sh: $name: $(tail -n 1 "$tmp/$name.out")"
}
if [ "$(cache_value HOOKE_PYTHON)" = ON ]; then
    python=$(cache_value HOOKE_PYTHON_EXECUTABLE)
    site=$(cache_value HOOKE_PYTHON_SITE)
    [ -n "$python" ] && [ -n "$site" ] || fail "$build has HOOKE_PYTHON=ON but no HOOKE_PYTHON_EXECUTABLE or HOOKE_PYTHON_SITE"
    case $site in /*) ;; *) site=$prefix/$site ;; esac
    check_python python-cmake-install "$python" "$site" PYTHONPATH="$site"
elif [ -n "$pip" ]; then
    fail "--pip needs a build with -DHOOKE_PYTHON=ON (the release preset): its interpreter builds the package"
else
    echo "check.sh: $build has no Python module (HOOKE_PYTHON=OFF): the package hooke is not checked"
fi

if [ -n "$pip" ]; then
    # pip in a venv that sees the system's numpy, from a copy of the checkout (pip builds in the source tree),
    # offline: --no-index, and the build backend (scikit-build) from the system
    started=$SECONDS
    mkdir "$tmp/src"
    if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        (cd "$root" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar -cf - --) | tar -C "$tmp/src" -xf -
    else
        tar -C "$root" --exclude='./build*' --exclude=./.git --exclude=./out --exclude=./src/python/_skbuild -cf - . |
            tar -C "$tmp/src" -xf -
    fi
    "$python" -m venv --system-site-packages "$tmp/venv" || fail "$python -m venv failed (Debian: python3-venv)"
    CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) "$tmp/venv/bin/python" -m pip install --no-index --no-build-isolation \
        "$tmp/src/src/python" >"$tmp/pip.log" 2>&1 || {
        tail -n 40 "$tmp/pip.log" >&2
        fail "pip install --no-build-isolation src/python failed"
    }
    venv_site=$("$tmp/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("platlib"))')
    check_python python-pip-venv "$tmp/venv/bin/python" "$venv_site"
    echo "check.sh: pip install --no-build-isolation src/python into a venv: $((SECONDS - started)) s"
fi

if [ -n "$subproject" ]; then
    echo "check.sh: add_subdirectory(hooke) in a parent project"
    cmake -S "$root/tests/subproject" -B "$tmp/sub" -DHOOKE_SOURCE_DIR="$root" >"$tmp/sub.log" 2>&1 || {
        cat "$tmp/sub.log" >&2
        fail "configuring the parent project failed"
    }
    cmake --build "$tmp/sub" -j"$(nproc)" >>"$tmp/sub.log" 2>&1 || {
        tail -n 30 "$tmp/sub.log" >&2
        fail "the parent project did not build"
    }
    run_consumer subproject "$tmp/sub/consumer"
fi
echo "check.sh: every consumer agrees with hooke run ($want) and the closed form"
