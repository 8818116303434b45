#!/usr/bin/env bash
# examples.sh — runs every example the README and docs/ show, and checks (or updates) the output they show.
# SPDX-License-Identifier: MIT
#
# usage: bash docs/examples.sh check|update [HOOKE]      (HOOKE: the program, default build/hooke)
#        bash docs/examples.sh images [HOOKE]            (check, and draw docs/img/ with the commands shown)
#
# An example is a code block (fenced, or indented by four spaces) that
# follows a line `<!-- example -->` in README.md or docs/*.md. In it, a line
# `$ COMMAND` is a command as a user types it (`hooke ...`, run from the
# repository's root: the scenes are found as scenes/NAME), and the lines
# after it, up to the next `$ ` line or the end of the block, are output it
# prints (stdout and stderr, in the order a terminal shows them); a line
# `# ...` is a comment. `check` runs every command in a scratch folder and
# fails when a shown line is not among the lines printed, in order (a block
# may leave lines out), or when a command shown without output does not
# exit with status 0. A shown line that ends in ` ...` stands for a printed
# line that begins with the text before it: a list the program prints from
# one of its tables (integrators, body kinds) is shown up to where it may
# grow, and the docs need no edit when a row is added. Numbers
# that depend on the machine are not compared: the values of wall_s=,
# spring_updates_per_s= and threads=, and in a block marked
# `<!-- example: machine -->` every number. `update` rewrites each shown
# line with the line printed now that has its shape (the same text with the
# numbers left out), so changed figures are brought up to date; a line
# whose shape is gone is reported and left for a person to rewrite.
#
# The scratch folder has scenes/, docs/ and tests/ of the repository, build/
# (the folder of HOOKE, the README's ./build/hooke) and is the commands' HOME,
# so `cmake --install build --prefix ~/.local` installs into it. A block
# marked `<!-- example: install -->` uses the installed library: it runs when
# HOOKE comes from a build without sanitizers (a program linked against a
# sanitizer build of libhooke would need the sanitizer's runtime and flags);
# `check` says how many commands it left out, and why.
#
# A picture in docs/img is drawn by the block that follows its marker
# `<!-- example: picture FILE docs/img/NAME -->`: `check` fails when the
# block's commands leave no FILE (PNG, SVG or PDF by its extension, checked
# by its first bytes) in the scratch folder, and `images` copies FILE to
# docs/img/NAME.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-check}
hooke=${2:-$root/build/hooke}
case $mode in check | update | images) ;; *)
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
ln -s "$hooke" "$scratch/bin/hooke"
build=$(dirname "$hooke")
ln -s "$build" "$scratch/build" # the README's ./build/hooke, and the build `cmake --install build` installs
# a build the install examples can use: a CMake build of hooke without sanitizers
sanitizer=$(sed -n 's/^HOOKE_SANITIZE:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
case ${sanitizer:-OFF} in OFF | off | 0 | FALSE | false | NO | no) no_install="" ;; *) no_install="HOOKE_SANITIZE=$sanitizer" ;; esac
[ -f "$build/cmake_install.cmake" ] || no_install="$build is not a CMake build of hooke"
skipped=0

# Machine numbers: key=value pairs whose value depends on the machine.
mask_machine() { sed -E 's/(wall_s|spring_updates_per_s|threads)=[^ ]*/\1=*/g'; }
# Every number, for the shape of a line and for blocks marked machine.
mask_numbers() { sed -E 's/0x[0-9a-f]+/0x#/g; s/[-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?/#/g'; }

# stdbuf preloads a library, which AddressSanitizer (a sanitizer build of hooke) must allow.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

# Runs one command from the scratch folder, its output (merged, line-buffered) into $2; sets status.
run_one() {
    status=0
    (cd "$scratch" && HOME="$scratch" PATH="$scratch/bin:$PATH" stdbuf -oL -eL bash -c "$1" >"$2" 2>&1) || status=$?
}

# The blocks of a file as lines "LINE<TAB>KIND<TAB>TEXT": KIND block (TEXT 1
# when the block is marked machine, 2 install, else 0; then " FILE docs/img/NAME" for a
# picture's block) at each block's start, then cmd
# and out for its lines (LINE: the line number; indentation or fences
# removed).
scan() {
    awk '
        function flush() { inblock = 0; fenced = 0; marked = 0 }
        /^<!-- example: picture [^ ]+ [^ ]+ -->/ { marked = 1; machine = 0; picture = " " $4 " " $5; next }
        /^<!-- example(: [a-z]+)? -->/ { marked = 1; machine = ($0 ~ /example: machine/) ? 1 : ($0 ~ /example: install/) ? 2 : 0; picture = ""; next }
        marked && !inblock && /^[[:space:]]*$/ { next }
        marked && !inblock && /^```/ { inblock = 1; fenced = 1; print NR "\tblock\t" machine picture; next }
        marked && !inblock && /^    / { inblock = 1; fenced = 0; print NR "\tblock\t" machine picture }
        marked && !inblock { flush(); next }
        inblock && fenced && /^```/ { flush(); next }
        inblock && !fenced && !/^    / && !/^[[:space:]]*$/ { flush(); next }
        inblock {
            line = $0
            if (!fenced) sub(/^    /, "", line)
            if (line ~ /^[[:space:]]*$/ || line ~ /^# /) next
            if (line ~ /^\$ /) print NR "\tcmd\t" substr(line, 3)
            else print NR "\tout\t" line
        }
    ' "$root/$1"
}

files=$(cd "$root" && ls README.md docs/*.md)
failures=0
examples=0
drawn=""
# After a picture's block: FILE must be there, a PNG, SVG or PDF by its first bytes; images copies it to docs/img.
finish_picture() { # file, "FILE docs/img/NAME"
    local file=$1 src=${2%% *} dst=${2#* } want got
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
    fi
}

declare -A new_text # "FILE:LINE" -> replacement (update)

declare -A passed # commands shown without output that exited 0: shown again, they are not run again

check_command() { # file, cmd line, command, machine, shown lines (file)
    local file=$1 at=$2 cmd=$3 machine=$4 shown=$5
    local out=$scratch/out.$$ want=$scratch/want.$$ got=$scratch/got.$$
    if [ "$machine" = 2 ] && [ -n "$no_install" ]; then
        skipped=$((skipped + 1))
        return
    fi
    examples=$((examples + 1))
    [ ! -s "$shown" ] && [ -n "${passed[$cmd]:-}" ] && return
    run_one "$cmd" "$out"
    [ ! -s "$shown" ] && [ "$status" -eq 0 ] && passed[$cmd]=1
    local m=mask_machine
    [ "$machine" = 1 ] && m=mask_numbers
    cut -f2- "$shown" | $m >"$want"
    $m <"$out" >"$got"
    # shown lines, in order, among the printed ones
    local missing
    missing=$(awk 'function same(g, w) { return w ~ / [.][.][.]$/ ? substr(g, 1, length(w) - 4) == substr(w, 1, length(w) - 4) : g == w }
        NR == FNR { got[++n] = $0; next } { while (i < n && !same(got[++i], $0)) {} if (!same(got[i], $0)) { print FNR; exit } }' \
        "$got" "$want")
    if [ ! -s "$shown" ] && [ "$status" -ne 0 ]; then
        failures=$((failures + 1))
        echo "examples.sh: $file:$at: \$ $cmd" >&2
        echo "  is shown without output but exits with status $status; it prints:" >&2
        sed 's/^/    /' "$out" >&2
    elif [ -n "$missing" ]; then
        failures=$((failures + 1))
        local shown_line
        shown_line=$(sed -n "${missing}p" "$shown" | cut -f2-)
        echo "examples.sh: $file:$(sed -n "${missing}p" "$shown" | cut -f1): the output of" >&2
        echo "    \$ $cmd" >&2
        echo "  does not print (in this order) the line" >&2
        echo "    $shown_line" >&2
        echo "  it prints:" >&2
        sed 's/^/    /' "$out" >&2
    fi
    if [ "$mode" = update ]; then
        # each shown line by the printed line of its shape, in order
        local shapes_got=$scratch/sg.$$
        mask_numbers <"$out" | mask_machine >"$shapes_got"
        local i=0 lineno text shape k=0
        local -a got_lines shape_lines
        mapfile -t got_lines <"$out"
        mapfile -t shape_lines <"$shapes_got"
        while IFS=$'\t' read -r lineno text; do
            [[ $text == *" ..." ]] && continue # a line shown up to where its list may grow: kept as written
            shape=$(printf '%s\n' "$text" | mask_numbers | mask_machine)
            while [ $k -lt ${#shape_lines[@]} ] && [ "${shape_lines[$k]}" != "$shape" ]; do k=$((k + 1)); done
            if [ $k -lt ${#shape_lines[@]} ]; then
                # a line that matches but for the machine's numbers stays as it is
                if [ "$(printf '%s\n' "$text" | mask_machine)" != "$(printf '%s\n' "${got_lines[$k]}" | mask_machine)" ]; then
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
    blocks=$scratch/blocks.tsv
    scan "$f" >"$blocks"
    [ -s "$blocks" ] || continue
    cmd="" cmd_at=0 machine=0 block_machine=0 picture=""
    shown=$scratch/shown.tsv
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
        esac
    done <"$blocks"
    [ -n "$cmd" ] && check_command "$f" "$cmd_at" "$cmd" "$machine" "$shown"
    [ -n "$picture" ] && finish_picture "$f" "$picture"
done

if [ "$mode" = update ]; then
    reps=$scratch/replacements.tsv
    : >"$reps"
    for k in "${!new_text[@]}"; do printf '%s\t%s\t%s\n' "${k%%:*}" "${k##*:}" "${new_text[$k]}" >>"$reps"; done
    for f in $files; do
        grep -q "^$f"$'\t' "$reps" || continue
        awk -v F="$f" -v R="$reps" 'BEGIN { FS = "\t"; while ((getline l < R) > 0) { split(l, a, "\t"); if (a[1] == F) rep[a[2]] = a[3] } FS = " " }
            (FNR in rep) { match($0, /^ */); print substr($0, 1, RLENGTH) rep[FNR]; next } { print }' \
            "$root/$f" >"$scratch/updated"
        [ -s "$scratch/updated" ] && ! cmp -s "$scratch/updated" "$root/$f" && cp "$scratch/updated" "$root/$f"
    done
fi
echo "examples.sh: $examples commands run, $failures with output that differs from what the docs show"
[ "$skipped" -eq 0 ] || echo "examples.sh: $skipped commands of install examples not run: $no_install"
[ "$mode" = images ] && echo "examples.sh: drew$drawn"
[ "$failures" -eq 0 ]
