#!/usr/bin/env bash
# examples.sh — runs every example the README and docs/ show, and checks (or updates) the output they show.
# SPDX-License-Identifier: MIT
#
# usage: bash docs/examples.sh check|update [HOOKE [--mpi]]  (HOOKE: the program, default build/hooke)
#        bash docs/examples.sh images [HOOKE]                (check, and draw docs/img/ with the commands shown)
#
# An example is a code block (fenced, or indented by four spaces) that
# follows a line `<!-- example -->` in README.md or docs/*.md. In it, a line
# `$ COMMAND` is a command as a user types it (`hooke ...`, run from the
# repository's root: the scenes are found as scenes/NAME), and the lines
# after it, up to the next `$ ` line or the end of the block, are output it
# prints (stdout and stderr, in the order a terminal shows them); a line
# `...` stands for printed lines left out
# (any number of them). `check` runs every command in a scratch folder and
# fails when the shown lines are not the printed ones, in order, with a
# `...` wherever printed lines are left out (before the first shown line,
# between two, after the last), or when a command shown without output does
# not exit with status 0. A shown line that ends in ` ...` stands for a
# printed line that begins with the text before it: a list the program
# prints from one of its tables (integrators, body kinds) is shown up to
# where it may grow, and the docs need no edit when a row is added. Numbers
# that depend on the machine are not compared: the values named in
# machine_keys below, as `NAME=VALUE` or as JSON's `"NAME": VALUE` (wall_s=, output_s=,
# every rate *_per_s=, threads=, Google Benchmark's times), and the thread
# count of the run's first line. Everything else is: a run gives the same
# bits on every kernel path and thread count (docs/determinism.md), so its
# state_hash= and its counts (particles=, steps=, cg_iterations=, ...) are
# the same everywhere. A block whose other numbers depend on the machine
# too (a table of timings) is marked `<!-- example: machine: WHY -->`, WHY
# saying what varies (a marker without it is an error); in it every number
# outside a `NAME=VALUE` pair is left out of the comparison, and the pairs
# are compared as everywhere. `update` rewrites each shown
# line with the line printed now that has its shape (the same text with the
# numbers left out), so changed figures are brought up to date; a line
# whose shape is gone is reported and left for a person to rewrite.
#
# The scratch folder has scenes/, docs/ and tests/ of the repository, build/
# (the folder of HOOKE, the README's ./build/hooke) and is the commands' HOME,
# so `cmake --install build --prefix ~/.local` installs into it. What the
# commands leave at its top must be covered by the repository's .gitignore
# (out/, build*/): following the docs leaves `git status` clean. Blank
# printed lines are not compared (a block shows none). A block
# marked `<!-- example: install -->` uses the installed library: it runs when
# HOOKE comes from a build without sanitizers (a program linked against a
# sanitizer build of libhooke would need the sanitizer's runtime and flags);
# `check` says how many commands it left out, and why.
#
# A block marked `<!-- example: mpi -->` runs over MPI ranks: its commands
# type `mpirun ... build-mpi/hooke ...` (build-mpi: the folder of HOOKE).
# They run only with `--mpi` after HOOKE, given the program of an MPI build
# (`cmake --preset mpi`; the MPI build's CTest `examples_mpi` does so), and
# then only they run; without it `check` says how many it left out.
#
# A picture in docs/img is drawn by the block that follows its marker
# `<!-- example: picture FILE docs/img/NAME -->`: `check` fails when the
# block's commands leave no FILE (PNG, SVG or PDF by its extension, checked
# by its first bytes) in the scratch folder, or when docs/img/NAME is not
# what they drew (a PNG: the same size, and no more than 0.1 % of its
# pixels differing by more than 8 in a channel, which text drawn by
# another FreeType or font version may; else the same bytes), and `images`
# copies FILE to docs/img/NAME.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-check}
hooke=${2:-$root/build/hooke}
mpi=${3:-}
case $mode in check | update | images) ;; *)
    sed -n '2,5p' "$0" >&2
    exit 1
    ;;
esac
case $mpi in "" | --mpi) ;; *)
    sed -n '2,5p' "$0" >&2
    exit 1
    ;;
esac
[[ $hooke = /* ]] || hooke=$(cd "$(dirname "$hooke")" && pwd)/$(basename "$hooke")
if [ ! -x "$hooke" ]; then
    echo "examples.sh: $hooke is not a program: build hooke first (cmake --preset release && cmake --build --preset release)" >&2
    exit 1
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for d in scenes docs tests; do ln -s "$root/$d" "$scratch/$d"; done
mkdir -p "$scratch/out" # the examples write under out/, as the guide asks a user to (`mkdir -p out`, ignored by git)
mkdir -p "$scratch/bin"
work=$scratch/.examples # this script's own files (a dot folder: HOME's, like ~/.local, not the repository's)
mkdir -p "$work"
ln -s "$hooke" "$scratch/bin/hooke"
build=$(dirname "$hooke")
ln -s "$build" "$scratch/build" # the README's ./build/hooke, and the build `cmake --install build` installs
ln -s "$build" "$scratch/build-mpi" # the MPI build's program, in the blocks marked mpi (run with --mpi)
# a build the install examples can use: a CMake build of hooke without sanitizers
sanitizer=$(sed -n 's/^HOOKE_SANITIZE:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
case ${sanitizer:-OFF} in OFF | off | 0 | FALSE | false | NO | no) no_install="" ;; *) no_install="HOOKE_SANITIZE=$sanitizer" ;; esac
[ -f "$build/cmake_install.cmake" ] || no_install="$build is not a CMake build of hooke"
skipped=0 skipped_mpi=0

# The names whose values depend on the machine (the one list of them): times (wall_s, output_s, Google Benchmark's real_time
# and cpu_time), every rate (*_per_s, items_per_second, ns_per_spring_update), memory (*rss*_bytes), the scheduler's run
# delay (run_delay*), and threads (it follows the cores, OMP_NUM_THREADS and the problem's size, and so does the "N
# thread(s)" of a run's first line).
machine_keys='wall_s|output_s|[a-z_]*_per_s|[a-z_]*rss[a-z_]*_bytes|run_delay[a-z_]*|threads|real_time|cpu_time|items_per_second|ns_per_spring_update'
mask_machine() {
    sed -E "s/(^|[^a-z_])($machine_keys)=[^ ]*/\1\2=*/g; s/\"($machine_keys)\": [^,]*/\"\1\": */g;
        s/, [0-9]+ threads? \(/, * thread(s) (/; s/, [0-9]+ threads?\$/, * thread(s)/"
}
# Every number, for the shape of a line.
mask_numbers() { sed -E 's/0x[0-9a-f]+/0x#/g; s/[-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?/#/g'; }
# Every number outside NAME=VALUE pairs, for blocks marked machine (after mask_machine: the pairs it leaves are the
# run's state_hash and counts).
mask_prose_numbers() {
    awk 'function mask(s) { gsub(/0x[0-9a-f]+/, "0x#", s); gsub(/[-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?/, "#", s); return s }
        { out = ""; s = $0
          while (match(s, /(^|[ (])[a-z][a-z0-9_]*=[^ ]*/)) { out = out mask(substr(s, 1, RSTART - 1)) substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH) }
          print out mask(s) }'
}
mask_machine_block() { mask_machine | mask_prose_numbers; }

# stdbuf preloads a library, which AddressSanitizer (a sanitizer build of hooke) must allow.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

# Runs one command from the scratch folder, its output (merged, line-buffered) into $2; sets status.
run_one() {
    status=0
    # (stdin: nothing; mpirun, for one, reads it, and it is the list of blocks being read)
    (cd "$scratch" && HOME="$scratch" PATH="$scratch/bin:$PATH" stdbuf -oL -eL bash -c "$1" >"$2" 2>&1 </dev/null) || status=$?
}

# The blocks of a file as lines "LINE<TAB>KIND<TAB>TEXT": KIND block (TEXT 1
# when the block is marked machine, 2 install, 3 mpi, else 0; then " FILE docs/img/NAME" for a
# picture's block) at each block's start, then cmd
# and out for its lines (LINE: the line number; indentation or fences
# removed); KIND bad for a marker this script does not know (TEXT: the marker).
scan() {
    awk '
        function flush() { inblock = 0; fenced = 0; marked = 0 }
        /^<!-- example: picture [^ ]+ [^ ]+ -->/ { marked = 1; machine = 0; picture = " " $4 " " $5; next }
        /^<!-- example: machine: [^ ].* -->/ { marked = 1; machine = 1; picture = ""; next }
        /^<!-- example(: (install|mpi))? -->/ { marked = 1; machine = ($0 ~ /example: install/) ? 2 : ($0 ~ /example: mpi/) ? 3 : 0; picture = ""; next }
        /^<!--[[:space:]]*example/ { flush(); print NR "\tbad\t" $0; next }
        marked && !inblock && /^[[:space:]]*$/ { next }
        marked && !inblock && /^```/ { inblock = 1; fenced = 1; print NR "\tblock\t" machine picture; next }
        marked && !inblock && /^    / { inblock = 1; fenced = 0; print NR "\tblock\t" machine picture }
        marked && !inblock { flush(); next }
        inblock && fenced && /^```/ { flush(); next }
        inblock && !fenced && !/^    / && !/^[[:space:]]*$/ { flush(); next }
        inblock {
            line = $0
            if (!fenced) sub(/^    /, "", line)
            if (line ~ /^[[:space:]]*$/) next
            if (line ~ /^\$ /) print NR "\tcmd\t" substr(line, 3)
            else print NR "\tout\t" line
        }
    ' "$root/$1"
}

files=$(cd "$root" && ls README.md docs/*.md)
failures=0
examples=0
drawn=""
# Whether PNG files $1 and $2 show the same picture: the same size, and at most 0.1 % of the pixels differing by
# more than 8 in a channel (text drawn by another FreeType or font version); other files: the same bytes.
same_picture() {
    cmp -s "$1" "$2" && return 0
    case $1 in *.png) ;; *) return 1 ;; esac
    python3 - "$1" "$2" <<'PY'
import struct, sys, zlib

def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(1)
    at, idat = 8, b""
    while at < len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        at += 12 + n
        if kind == b"IHDR":
            w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    if depth != 8 or interlace or colour not in (2, 6):
        sys.exit(1)
    bpp = 3 if colour == 2 else 4
    raw, stride, out, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.append(bytes(line))
        prev = line
    return w, h, bpp, out

w1, h1, b1, p1 = pixels(sys.argv[1])
w2, h2, b2, p2 = pixels(sys.argv[2])
if (w1, h1) != (w2, h2):
    sys.exit(1)
differ = sum(1 for y in range(h1) for x in range(w1)
             if max(abs(p1[y][x * b1 + c] - p2[y][x * b2 + c]) for c in range(3)) > 8)
sys.exit(0 if differ <= w1 * h1 // 1000 else 1)
PY
}

# After a picture's block: FILE must be there, a PNG, SVG or PDF by its first bytes, and show what docs/img/NAME
# shows (check); images copies it to docs/img.
finish_picture() { # file, "FILE docs/img/NAME"
    local file=$1 src=${2%% *} dst=${2#* } want got
    [ -n "$mpi" ] && return # --mpi runs the mpi blocks alone
    case $src in
    *.png) want="89 50 4e 47" ;;
    *.svg) want="3c 3f 78 6d" ;;
    *.pdf) want="25 50 44 46" ;;
    *) want="?" ;;
    esac
    got=$({ head -c 4 "$scratch/$src" 2>/dev/null || true; } | od -An -tx1 | tr -s ' ' | sed 's/^ //; s/ $//')
    if [ "$got" != "$want" ]; then
        failures=$((failures + 1))
        echo "examples.sh: $file: the commands of the picture $dst did not draw $src" >&2
    elif [ "$mode" = images ]; then
        cp "$scratch/$src" "$root/$dst"
        drawn="$drawn $dst"
    elif ! same_picture "$scratch/$src" "$root/$dst"; then
        failures=$((failures + 1))
        echo "examples.sh: $file: $dst is not what its commands draw now ($src): look at the new one, then" \
            "bash docs/examples.sh images" >&2
    fi
}

declare -A new_text # "FILE:LINE" -> replacement (update)

declare -A passed # commands shown without output that exited 0: shown again, they are not run again

check_command() { # file, cmd line, command, machine, shown lines (file)
    local file=$1 at=$2 cmd=$3 machine=$4 shown=$5
    local out=$work/out.$$ want=$work/want.$$ got=$work/got.$$
    if [ "$machine" = 3 ] && [ -z "$mpi" ]; then
        skipped_mpi=$((skipped_mpi + 1))
        return
    fi
    [ "$machine" != 3 ] && [ -n "$mpi" ] && return # --mpi: the mpi blocks alone
    if [ "$machine" = 2 ] && [ -n "$no_install" ]; then
        skipped=$((skipped + 1))
        return
    fi
    examples=$((examples + 1))
    [ ! -s "$shown" ] && [ -n "${passed[$cmd]:-}" ] && return
    run_one "$cmd" "$out"
    [ ! -s "$shown" ] && [ "$status" -eq 0 ] && passed[$cmd]=1
    local m=mask_machine
    [ "$machine" = 1 ] && m=mask_machine_block
    cut -f2- "$shown" | $m >"$want"
    $m <"$out" | { grep -v '^[[:space:]]*$' || true; } >"$got" # blank lines are not shown (nor compared)
    # the shown lines are the printed ones, in order, with `...` where printed lines are left out: "K missing"
    # (shown line K is not printed after the one before it), "K unmarked" (printed, but after lines left out
    # with no `...` before it), "end" (lines after the last shown one, with no `...`)
    local wrong
    wrong=$(awk 'function same(g, w) { return w ~ / [.][.][.]$/ ? substr(g, 1, length(w) - 4) == substr(w, 1, length(w) - 4) : g == w }
        NR == FNR { got[++n] = $0; next } { want[++m] = $0 }
        END {
            i = 0; gap = 0
            for (k = 1; k <= m; k++) {
                if (want[k] == "...") { gap = 1; continue }
                j = i; while (j < n && !same(got[j + 1], want[k])) j++
                if (j >= n) { print k " missing"; exit }
                if (j > i && !gap) { print k " unmarked"; exit }
                i = j + 1; gap = 0
            }
            if (m > 0 && i < n && !gap) print "end"
        }' "$got" "$want")
    if [ ! -s "$shown" ] && [ "$status" -ne 0 ]; then
        failures=$((failures + 1))
        echo "examples.sh: $file:$at: \$ $cmd" >&2
        echo "  is shown without output but exits with status $status; it prints:" >&2
        sed 's/^/    /' "$out" >&2
    elif [ -n "$wrong" ]; then
        failures=$((failures + 1))
        local k=${wrong%% *} lineno shown_line
        [ "$k" = end ] && k=$(wc -l <"$shown")
        lineno=$(sed -n "${k}p" "$shown" | cut -f1)
        shown_line=$(sed -n "${k}p" "$shown" | cut -f2-)
        echo "examples.sh: $file:$lineno: the output of" >&2
        echo "    \$ $cmd" >&2
        case $wrong in
        *missing) echo "  does not print (in this order) the line" >&2 ;;
        *unmarked) echo "  prints lines before the line below that the block leaves out without a '...' line:" >&2 ;;
        end) echo "  prints lines after the block's last line, which the block leaves out without a '...' line:" >&2 ;;
        esac
        echo "    $shown_line" >&2
        echo "  it prints:" >&2
        sed 's/^/    /' "$out" >&2
    fi
    if [ "$mode" = update ]; then
        # each shown line by the printed line of its shape, in order
        local shapes_got=$work/sg.$$
        mask_numbers <"$out" | mask_machine >"$shapes_got"
        local i=0 lineno text shape k=0
        local -a got_lines shape_lines
        mapfile -t got_lines <"$out"
        mapfile -t shape_lines <"$shapes_got"
        while IFS=$'\t' read -r lineno text; do
            [ "$text" = ... ] && continue
            [[ $text == *" ..." ]] && continue # a line shown up to where its list may grow: kept as written
            shape=$(printf '%s\n' "$text" | mask_numbers | mask_machine)
            while [ $k -lt ${#shape_lines[@]} ] && [ "${shape_lines[$k]}" != "$shape" ]; do k=$((k + 1)); done
            if [ $k -lt ${#shape_lines[@]} ]; then
                # a line that matches but for the machine's numbers stays as it is
                if [ "$(printf '%s\n' "$text" | $m)" != "$(printf '%s\n' "${got_lines[$k]}" | $m)" ]; then
                    new_text["$file:$lineno"]=${got_lines[$k]}
                fi
                k=$((k + 1))
            else
                echo "examples.sh: $file:$lineno: no printed line has the shape of '$text': rewrite it by hand" >&2
            fi
        done <"$shown"
    fi
}

for f in $files; do
    blocks=$work/blocks.tsv
    scan "$f" >"$blocks"
    [ -s "$blocks" ] || continue
    cmd="" cmd_at=0 machine=0 block_machine=0 picture=""
    shown=$work/shown.tsv
    : >"$shown"
    while IFS=$'\t' read -r lineno kind text; do
        if [ "$kind" = block ] || [ "$kind" = cmd ]; then
            [ -n "$cmd" ] && check_command "$f" "$cmd_at" "$cmd" "$machine" "$shown"
            cmd="" && : >"$shown"
        fi
        case $kind in
        block)
            [ -n "$picture" ] && finish_picture "$f" "$picture"
            block_machine=${text%% *} picture=""
            [ "$text" != "$block_machine" ] && picture=${text#* }
            ;;
        cmd) cmd=$text cmd_at=$lineno machine=$block_machine ;;
        out) [ -n "$cmd" ] && printf '%s\t%s\n' "$lineno" "$text" >>"$shown" ;;
        bad)
            failures=$((failures + 1))
            echo "examples.sh: $f:$lineno: '$text' is not a marker this script knows: <!-- example -->, or" \
                "<!-- example: KIND --> with KIND install, mpi, picture FILE docs/img/NAME, or machine: WHY (what" \
                "in the block's output depends on the machine, beyond the values of $machine_keys)" >&2
            ;;
        esac
    done <"$blocks"
    [ -n "$cmd" ] && check_command "$f" "$cmd_at" "$cmd" "$machine" "$shown"
    [ -n "$picture" ] && finish_picture "$f" "$picture"
done

if [ "$mode" = update ]; then
    reps=$work/replacements.tsv
    : >"$reps"
    for k in "${!new_text[@]}"; do printf '%s\t%s\t%s\n' "${k%%:*}" "${k##*:}" "${new_text[$k]}" >>"$reps"; done
    for f in $files; do
        grep -q "^$f"$'\t' "$reps" || continue
        awk -v F="$f" -v R="$reps" 'BEGIN { FS = "\t"; while ((getline l < R) > 0) { split(l, a, "\t"); if (a[1] == F) rep[a[2]] = a[3] } FS = " " }
            (FNR in rep) { match($0, /^ */); print substr($0, 1, RLENGTH) rep[FNR]; next } { print }' \
            "$root/$f" >"$work/updated"
        [ -s "$work/updated" ] && ! cmp -s "$work/updated" "$root/$f" && cp "$work/updated" "$root/$f"
    done
fi
# What the commands left at the top of the scratch folder (the repository's root for a user): each must be a path
# the repository's .gitignore covers (out/, build*/), so that following the docs leaves `git status` clean.
# (Dot files are HOME's: the folder is the commands' HOME too.)
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    for entry in "$scratch"/*; do
        name=${entry##*/}
        case $name in scenes | docs | tests | bin | build | build-mpi) continue ;; esac
        [ -d "$entry" ] && name=$name/
        if ! git -C "$root" check-ignore -q --no-index "$name"; then
            failures=$((failures + 1))
            echo "examples.sh: the examples leave $name in the repository's root, which .gitignore does not cover:" \
                "write it under out/" >&2
        fi
    done
else
    echo "examples.sh: $root is not a git work tree: what the examples write is not checked against .gitignore"
fi
echo "examples.sh: $examples commands run, $failures with output that differs from what the docs show"
[ "$skipped" -eq 0 ] || echo "examples.sh: $skipped commands of install examples not run: $no_install"
[ "$skipped_mpi" -eq 0 ] ||
    echo "examples.sh: $skipped_mpi commands of MPI examples not run: they need an MPI build (examples.sh check build-mpi/hooke --mpi; its CTest examples_mpi)"
[ "$mode" = images ] && echo "examples.sh: drew$drawn"
[ "$failures" -eq 0 ]
