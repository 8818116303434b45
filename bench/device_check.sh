#!/usr/bin/env bash
# device_check.sh — every GPU check and measurement the device backend needs, prepared here, run in one lent call.
# SPDX-License-Identifier: MIT
#
# usage: bash bench/device_check.sh prepare [BUILD]   on the build machine (default BUILD: build): fills devbundle/
#        bash bench/device_check.sh run OUTDIR        on the GPU machine, from the repository's root
#        bash bench/device_check.sh render OUTDIR     back here: OUTDIR/summary.md as docs/benchmarks.md's "GPU"
#
# prepare (no GPU needed) builds what the GPU machine cannot (it has nvcc but no gcc offload compiler, and none of
# hooke's libraries) into devbundle/, a folder .gitignore ignores: hooke, test_device_gpu and the two driver
# modules from BUILD (a release build: `cmake --preset release && cmake --build --preset release`, with
# gcc-12-offload-nvptx and nvcc found), the shared libraries `ldd` lists for them (not glibc's: the GPU machine's
# own, newer, runs them), libgomp-plugin-nvptx.so.1 (libgomp loads it at run time: ldd does not list it), the
# measuring peers of shared/anchors/gpu beside the checkout (or $HOOKE_ANCHORS) built as their README says plus the offload peer
# built through hooke's own PTX assembler (every float operation .rn), and bench/gpu_triad.cu.
#
# run (docs/performance-notes.md, "The lent machine's GPU", says what each part decides) writes under OUTDIR:
#   log.txt     everything each command printed, with the time each part took
#   summary.md  the figures as docs/benchmarks.md's section "GPU" (render puts it there)
#   json.tgz    hooke bench's --json and --gbench-json files
# and prints summary.md last. Parts, in order (the targets first; 2026-11-30 on an H200 with 16 cores they took about
# 6, 80, 40, 120, 205 and 20 s, the OpenMP driver's 1000 steps of the small scenes most of part 5):
#   1. the machine: nvidia-smi, hooke info (the drivers find the GPU), the CUDA module's SASS FFMA count per kernel
#   2. hooke bench --device gpu on cloth 512^2 and 2048^2 and jelly 128^3 through each driver (the CPU's hash checked),
#      the CPU's 2048^2 on every core, the CUDA peer at 512 and 2048, the plain jelly gather (bench/jelly_cuda.cu) at
#      128^3, the device's triad
#   3. a vtk frame every 100 steps of cloth 2048^2 on the GPU: wall_s against the same run's without frames; a
#      statistics row every 10 steps (each reduced on the GPU): wall_s against the same, the rows against the CPU's
#   4. test_device_gpu: every scene/integrator row of the tests through each GPU driver against the CPU, bit for bit
#   5. the state hashes of every shipped scene the device runs over 1000 steps: CPU, cuda, openmp (refusals listed)
#   6. the route, on the peers' small kernel: bits (position_hash against the host run) and speed (spring updates/s)
#      of CUDA with and without contraction and OpenMP offload as gcc writes it and through hooke's assembler
# Each command's bound is cut to what is left of the run's budget (HOOKE_DEVICE_CHECK_S, default 480 s).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bundle=$root/devbundle

prepare() {
    local build=${1:-build}
    local anchors=${HOOKE_ANCHORS:-}
    for a in "$root/../shared/anchors/gpu" "$root/../../shared/anchors/gpu"; do
        [ -n "$anchors" ] || [ ! -d "$a" ] || anchors=$a
    done
    for f in hooke tests/test_device_gpu libhooke_device_cuda.so libhooke_device_openmp.so; do
        [ -f "$build/$f" ] || { echo "device_check: $build/$f is missing (a release build with both drivers)" >&2; exit 1; }
    done
    [ -d "$anchors" ] || { echo "device_check: no shared/anchors/gpu beside the checkout (set HOOKE_ANCHORS)" >&2; exit 1; }
    rm -rf "$bundle" && mkdir -p "$bundle/ptx"
    cp "$build/hooke" "$build/tests/test_device_gpu" "$build/libhooke_device_cuda.so" "$build/libhooke_device_openmp.so" \
       "$bundle/"
    # the libraries the binaries need, less glibc's
    for bin in "$bundle"/hooke "$bundle"/test_device_gpu "$bundle"/*.so; do
        ldd "$bin" | awk '/=> \// {print $3}'
    done | sort -u | grep -vE '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' | while read -r lib; do
        cp -L "$lib" "$bundle/"
    done
    plugin=$(ldconfig -p | awk '/libgomp-plugin-nvptx.so.1 / {print $NF; exit}')
    [ -n "$plugin" ] || { echo "device_check: libgomp-plugin-nvptx.so.1 not found (apt-get install libgomp-plugin-nvptx1)" >&2; exit 1; }
    cp -L "$plugin" "$bundle/"
    # the peers, as their README builds them; the offload peer once more through hooke's assembler without .ftz
    # (the peers do not flush subnormals: .rn alone)
    nvcc -O3 -arch=sm_90 -o "$bundle/cloth_cuda" "$anchors/cloth_cuda.cu"
    nvcc -O3 -arch=sm_90 -fmad=false -o "$bundle/cloth_cuda_nofma" "$anchors/cloth_cuda.cu"
    local off="-misa=sm_80 -lm -ffp-contract=off -fno-math-errno"
    gcc -O3 -fopenmp -ffp-contract=off -fno-math-errno -foffload=nvptx-none -foffload-options=nvptx-none="$off" \
        -o "$bundle/cloth_offload" "$anchors/cloth_offload.c" -lm 2>&1 | grep -v 'DT_TEXTREL\|__offload_vars_end' || true
    mkdir -p "$bundle/as_rn"
    sed -e 's/\.ftz//g' -e "s|$(realpath "$build")/device_ptx/openmp|$bundle/ptx|g" "$build/device_as/as" \
        > "$bundle/as_rn/as"
    chmod +x "$bundle/as_rn/as"
    gcc -O3 -fopenmp -ffp-contract=off -fno-math-errno -foffload=nvptx-none \
        -foffload-options=nvptx-none="$off -B$bundle/as_rn/" -o "$bundle/cloth_offload_rn" "$anchors/cloth_offload.c" -lm \
        2>&1 | grep -v 'DT_TEXTREL\|__offload_vars_end' || true
    nvcc -O3 -arch=sm_90 -o "$bundle/gpu_triad" bench/gpu_triad.cu
    nvcc -O3 -arch=sm_90 -o "$bundle/jelly_cuda" bench/jelly_cuda.cu
    # the node kernel's PTX a spring term against the peer's (the count a GPU run then tests)
    python3 bench/ptx_count.py "$build" --peer "$anchors/cloth_cuda.cu" > "$bundle/ptx_count.txt"
    git log -1 --format='%H %s' > "$bundle/commit.txt"
    "$bundle/hooke" --version >> "$bundle/commit.txt" 2>&1 || true
    du -sh "$bundle"
    echo "device_check: devbundle/ is ready; on the GPU machine: bash bench/device_check.sh run \$OUT (carry devbundle)"
}

# ---- on the GPU machine ----------------------------------------------------------------------------------------------

out=""
log() { echo "$@" | tee -a "$out/log.txt"; }
# a part: its name, then the command's output into the log, with its time
part() {
    local name=$1
    shift
    log "== $name (at $((SECONDS - start)) s)"
    "$@" >>"$out/log.txt" 2>&1
    local rc=$?
    [ $rc -eq 0 ] || log "   (exit status $rc)"
    return $rc
}
field() { grep -o "\"$1\": *[^,}]*" | head -1 | sed 's/.*: *//; s/"//g'; } # a JSON line's field
kv() { grep -o "$1=[^ ]*" | head -1 | cut -d= -f2; }                         # a summary line's NAME=VALUE
# a command's bound: WANT seconds, or what is left of the run's budget (HOOKE_DEVICE_CHECK_S, default 480 s) if less,
# so that a lent machine's one call ends with its output however a part hangs
bound() {
    local left=$((${HOOKE_DEVICE_CHECK_S:-480} - (SECONDS - start)))
    [ "$left" -ge 1 ] || left=1
    echo $(($1 < left ? $1 : left))
}

run() {
    out=$(realpath -m "$1")
    mkdir -p "$out/json"
    : >"$out/log.txt"
    start=$SECONDS
    [ -x "$bundle/hooke" ] || { echo "device_check: no devbundle/ (bash bench/device_check.sh prepare, then carry it)"; exit 1; }
    # the bundle's libraries for the bundle's programs only (nvidia-smi and cuobjdump keep the machine's own)
    export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}
    H=(env "LD_LIBRARY_PATH=$bundle" "$bundle/hooke")
    # test_device_gpu reads the scenes where it was built
    built=$(grep -ao '/[[:alnum:]_./+-]*/scenes' "$bundle/test_device_gpu" | head -1 || true)
    if [ -n "$built" ] && [ ! -e "$built" ]; then mkdir -p "$(dirname "$built")" && ln -s "$root/scenes" "$built"; fi
    S=$out/summary.md
    {
        echo "## GPU"
        echo
        echo "Measured $(date -u +%Y-%m-%d) by \`bash bench/device_check.sh run OUTDIR\` (prepared by \`prepare\` at commit" \
             "$(head -1 "$bundle/commit.txt" | cut -c1-7), rendered by \`render OUTDIR\`; docs/performance-notes.md, \"The lent" \
             "machine's GPU\", says what each table decides)."
    } >"$S"

    if [ -f "$bundle/ptx_count.txt" ]; then
        { echo; echo "PTX a spring term (bench/ptx_count.py at prepare):"; echo; sed 's/^/    /' "$bundle/ptx_count.txt"; } >>"$S"
    fi

    # 1. the machine
    part "nvidia-smi" timeout $(bound 30) nvidia-smi
    part "the bundle's libraries" env "LD_LIBRARY_PATH=$bundle" ldd "$bundle/hooke" "$bundle/libhooke_device_cuda.so" \
        "$bundle/libhooke_device_openmp.so"
    part "hooke info" timeout $(bound 60) "${H[@]}" info
    gpu=$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | head -1)
    printf '\nThe machine: %s; %s CPUs.\n' "$gpu" "$(nproc)" >>"$S"
    if command -v cuobjdump >/dev/null; then
        part "SASS of the CUDA driver: fused multiply-adds (FFMA) per kernel" bash -c \
            "cuobjdump -sass $bundle/libhooke_device_cuda.so | awk '/Function :/ {f=\$3} /FFMA/ {n[f]++} END {for (k in n) print k, n[k]}'"
    fi

    # 2. the figures of merit
    log "== the figures of merit (at $((SECONDS - start)) s)"
    {
        echo
        echo "### Figures of merit (hooke bench, median of 3 repetitions; VALID: the CPU's hash)"
        echo
        echo "| problem | where | ms a step | G spring updates/s | verified |"
        echo "| --- | --- | --- | --- | --- |"
    } >>"$S"
    bench_row() { # label, json, then hooke bench's arguments
        local label=$1 json=$2
        shift 2
        local text
        # line-buffered, so a row killed at its bound keeps what it printed (a pipe is otherwise block-buffered)
        text=$(timeout $(bound 240) stdbuf -oL -eL "${H[@]}" bench "$@" --json "$out/json/$json.json" \
            --gbench-json "$out/json/$json.gbench.json" 2>&1)
        local rc=$?
        echo "$text" >>"$out/log.txt"
        local fom ms valid
        fom=$(echo "$text" | awk '/^FOM / {print $2}')
        valid=$(echo "$text" | awk '/^FOM / {print $NF}')
        [ $rc -ne 124 ] || { echo "   ($label, $json: stopped at its bound)" >>"$out/log.txt"; valid="timed out"; }
        ms=$(grep -o '"time_per_step_median_s": *[0-9.e+-]*' "$out/json/$json.json" 2>/dev/null | head -1 | sed 's/.*: *//')
        echo "| $label | $json | $(awk -v t="${ms:-0}" 'BEGIN {printf "%.4f", t * 1e3}') | $(awk -v r="${fom:-0}" 'BEGIN {printf "%.2f", r / 1e9}') | ${valid:-none} |" >>"$S"
    }
    for n in 512 2048; do
        steps=$([ $n = 512 ] && echo 2000 || echo 300)
        for drv in cuda openmp; do
            HOOKE_DEVICE_DRIVER=$drv bench_row "cloth $n^2" "gpu_${drv}_cloth$n" --builtin cloth --size $n --device gpu \
                --repeat 3 --steps $steps
        done
    done
    for drv in cuda openmp; do
        HOOKE_DEVICE_DRIVER=$drv bench_row "jelly 128^3" "gpu_${drv}_jelly128" --builtin jelly --size 128 --device gpu \
            --repeat 3 --steps 300
    done
    bench_row "cloth 2048^2" "cpu_cloth2048_${OMP_NUM_THREADS}threads" --builtin cloth --size 2048 \
        --threads "$OMP_NUM_THREADS" --repeat 3 --steps 100
    local peer2048=0
    for n in 512 2048; do
        p=$(LD_LIBRARY_PATH=$bundle timeout $(bound 60) "$bundle/cloth_cuda" $n 2000 2>>"$out/log.txt")
        log "peer cloth_cuda $n: $p"
        [ $n = 2048 ] && peer2048=$(echo "$p" | field spring_updates_per_s)
        echo "| cloth $n^2 | peer cloth_cuda | $(echo "$p" | field wall_s | awk '{printf "%.4f", $1 / 2000 * 1e3}') | $(echo "$p" | field spring_updates_per_s | awk '{printf "%.2f", $1 / 1e9}') | |" >>"$S"
    done
    # the jelly's target: 0.8 of a plain CUDA gather of the same jelly (bench/jelly_cuda.cu) in this run
    p=$(LD_LIBRARY_PATH=$bundle timeout $(bound 120) "$bundle/jelly_cuda" 128 300 2>>"$out/log.txt")
    log "peer jelly_cuda 128: $p"
    jpeer=$(echo "$p" | field spring_updates_per_s)
    echo "| jelly 128^3 | peer jelly_cuda | $(echo "$p" | field wall_s | awk '{printf "%.4f", $1 / 300 * 1e3}') | $(awk -v r="${jpeer:-0}" 'BEGIN {printf "%.2f", r / 1e9}') | |" >>"$S"
    t=$(LD_LIBRARY_PATH=$bundle timeout $(bound 60) "$bundle/gpu_triad" 1024 20 2>>"$out/log.txt")
    log "triad: $t"
    echo >>"$S"
    tri=$(echo "$t" | field best_GB_per_s)
    echo "- the device's triad (3 x 1 GiB, best of 20): ${tri:-none} GB/s" >>"$S"
    for drv in cuda openmp; do
        j=$out/json/gpu_${drv}_jelly128.json
        ms=$(grep -o '"time_per_step_median_s": *[0-9.e+-]*' "$j" 2>/dev/null | head -1 | sed 's/.*: *//')
        np=$(grep -o '"particles": *[0-9]*' "$j" 2>/dev/null | head -1 | sed 's/.*: *//')
        g=$(grep -o '"fom_spring_updates_per_s": *[0-9.e+-]*' "$j" 2>/dev/null | head -1 | sed 's/.*: *//')
        echo "- jelly 128^3 ($drv): $(awk -v g="${g:-0}" -v p="${jpeer:-0}" 'BEGIN {if (p > 0) printf "%.3f", g / p; else print "none"}') of the plain gather's spring updates a second (target >= 0.8); $(awk -v t="${ms:-0}" -v n="${np:-0}" -v b="${tri:-0}" 'BEGIN {if (t > 0 && b > 0) printf "%.3f", 52 * n / t / 1e9 / b; else print "none"}') of the triad at 52 bytes a particle" >>"$S"
    done

    # the cloth's targets: 0.8 of the peer, 10 times the CPU's every core (hooke bench's FOM: the median)
    fom_of() { grep -o '"fom_spring_updates_per_s": *[0-9.e+-]*' "$out/json/$1.json" 2>/dev/null | head -1 | sed 's/.*: *//'; }
    cpu=$(fom_of "cpu_cloth2048_${OMP_NUM_THREADS}threads")
    {
        echo
        echo "### The cloth's targets at 2048^2"
        echo
        echo "| driver | against the CUDA peer (target >= 0.8) | against the CPU on $OMP_NUM_THREADS threads (target >= 10) |"
        echo "| --- | --- | --- |"
        for drv in cuda openmp; do
            g=$(fom_of "gpu_${drv}_cloth2048")
            awk -v d="$drv" -v g="${g:-0}" -v p="${peer2048:-0}" -v c="${cpu:-0}" \
                'BEGIN {printf "| %s | %s | %s |\n", d, (p > 0 ? sprintf("%.3f", g / p) : "none"), (c > 0 ? sprintf("%.1f", g / c) : "none")}'
        done
    } >>"$S"

    # 3. frames: a vtk frame every 100 steps of cloth 2048^2
    log "== frames (at $((SECONDS - start)) s)"
    echo >>"$S"
    sed -e 's/^  nx 512/  nx 2048/' -e 's/^  ny 512/  ny 2048/' scenes/cloth_512.scene >"$out/cloth_2048.scene"
    for drv in cuda openmp; do
        bare=$(HOOKE_DEVICE_DRIVER=$drv timeout $(bound 120) "${H[@]}" run "$out/cloth_2048.scene" --steps 300 \
               --device gpu --quiet 2>>"$out/log.txt")
        line=$(HOOKE_DEVICE_DRIVER=$drv timeout $(bound 240) "${H[@]}" run "$out/cloth_2048.scene" --steps 300 --every 100 \
               --out "$out/frames_$drv" --device gpu --quiet 2>>"$out/log.txt")
        log "no frames $drv: $bare"
        log "frames $drv: $line"
        w0=$(echo "$bare" | kv wall_s) h0=$(echo "$bare" | kv state_hash)
        w1=$(echo "$line" | kv wall_s) h1=$(echo "$line" | kv state_hash)
        echo "- cloth 2048^2, 300 steps ($drv): wall_s $w1 with a vtk frame every 100 steps (output_s $(echo "$line" | kv output_s)), $w0 without: $(awk -v a="${w1:-0}" -v b="${w0:-0}" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "none"}')x (target <= 1.1); the same state_hash: $([ -n "$h0" ] && [ "$h0" = "$h1" ] && echo yes || echo NO)" >>"$S"
        rm -rf "$out/frames_$drv"
        # the statistics every 10 steps: each row's sums reduced on the device (core/device/dev_sums.c), the state
        # left there; against the CPU's rows of the same run, byte for byte
        line=$(HOOKE_DEVICE_DRIVER=$drv timeout $(bound 240) "${H[@]}" run "$out/cloth_2048.scene" --steps 300 --every 10 \
               --stats "$out/stats_$drv.csv" --device gpu --quiet 2>>"$out/log.txt")
        log "stats $drv: $line"
        w2=$(echo "$line" | kv wall_s) h2=$(echo "$line" | kv state_hash)
        echo "- cloth 2048^2, 300 steps ($drv): wall_s $w2 with a statistics row every 10 steps, $w0 without: $(awk -v a="${w2:-0}" -v b="${w0:-0}" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "none"}')x; the same state_hash: $([ -n "$h0" ] && [ "$h0" = "$h2" ] && echo yes || echo NO)" >>"$S"
    done
    timeout $(bound 600) "${H[@]}" run "$out/cloth_2048.scene" --steps 300 --every 10 --stats "$out/stats_cpu.csv" \
        --quiet >/dev/null 2>>"$out/log.txt"
    for drv in cuda openmp; do
        echo "- the statistics rows of $drv against the CPU's: $(cmp -s "$out/stats_$drv.csv" "$out/stats_cpu.csv" && echo "the same bytes" || echo DIFFER)" >>"$S"
        rm -f "$out/stats_$drv.csv"
    done
    rm -f "$out/cloth_2048.scene" "$out/stats_cpu.csv"
    # 4. every test row through each GPU driver
    part "test_device_gpu: the tests' rows through each GPU driver against the CPU" timeout $(bound 300) \
        env "LD_LIBRARY_PATH=$bundle" "$bundle/test_device_gpu"
    local trc=$?
    {
        echo
        echo "test_device_gpu (every scene/integrator row of tests/hk_test_device.h, each GPU driver, bit for bit): " \
             "$([ $trc -eq 0 ] && echo passed || { [ $trc -eq 77 ] && echo "skipped: no GPU found"; } || echo "FAILED (exit $trc)")"
    } >>"$S"

    # 5. the shipped scenes' hashes over 1000 steps
    log "== the state hashes of the shipped scenes (at $((SECONDS - start)) s)"
    {
        echo
        echo "### State hashes over 1000 steps"
        echo
        echo "| scene | CPU ($OMP_NUM_THREADS threads) | cuda | openmp | equal |"
        echo "| --- | --- | --- | --- | --- |"
    } >>"$S"
    # every shipped scene the device runs (a refused one is listed with the refusal's reason)
    for path in scenes/*.scene; do
        scene=$(basename "$path" .scene)
        probe=$(HOOKE_DEVICE_DRIVER=host timeout $(bound 60) "${H[@]}" run "$path" --steps 1 --quiet --device gpu 2>&1 >/dev/null)
        if echo "$probe" | grep -q "the device does not run"; then
            echo "| $scene | refused: $(echo "$probe" | sed 's/.*the device does not run //' | cut -c1-80) | | | |" >>"$S"
            continue
        fi
        local row="| $scene" hashes=()
        for where in cpu cuda openmp; do
            if [ "$where" = cpu ]; then
                line=$(timeout $(bound 120) "${H[@]}" run "scenes/$scene.scene" --steps 1000 --quiet 2>>"$out/log.txt")
            else
                line=$(HOOKE_DEVICE_DRIVER=$where timeout $(bound 120) "${H[@]}" run "scenes/$scene.scene" --steps 1000 --quiet \
                       --device gpu 2>>"$out/log.txt")
            fi
            log "$where: $line"
            h=$(echo "$line" | kv state_hash)
            hashes+=("${h:-none}")
            row="$row | ${h:-none} ($(echo "$line" | kv wall_s) s)"
        done
        eq=$([ "${hashes[0]}" = "${hashes[1]}" ] && [ "${hashes[0]}" = "${hashes[2]}" ] && echo yes || echo NO)
        echo "$row | $eq |" >>"$S"
    done

    # 6. the route on the peers' kernel: bits and speed
    log "== the route (at $((SECONDS - start)) s)"
    {
        echo
        echo "### The route: the peers' cloth step, 512^2 x 200 steps for the bits, 2048^2 x 2000 (CUDA) or 500 (offload) for the speed"
        echo
        echo "| toolchain | position_hash (512^2, 200 steps) | the host's? | G spring updates/s (2048^2) |"
        echo "| --- | --- | --- | --- |"
    } >>"$S"
    host=$(OMP_TARGET_OFFLOAD=DISABLED LD_LIBRARY_PATH=$bundle timeout $(bound 120) "$bundle/cloth_offload" 512 200 \
           2>>"$out/log.txt")
    log "host: $host"
    hh=$(echo "$host" | field position_hash)
    for peer in cloth_cuda cloth_cuda_nofma cloth_offload cloth_offload_rn; do
        bits=$(LD_LIBRARY_PATH=$bundle timeout $(bound 60) "$bundle/$peer" 512 200 2>>"$out/log.txt")
        # gcc 12's offload runs a loop's element on one lane of a warp: 500 steps keep its run within a minute
        steps=$(case $peer in cloth_cuda*) echo 2000 ;; *) echo 500 ;; esac)
        speed=$(LD_LIBRARY_PATH=$bundle timeout $(bound 120) "$bundle/$peer" 2048 "$steps" 2>>"$out/log.txt")
        log "$peer: $bits"
        log "$peer: $speed"
        ph=$(echo "$bits" | field position_hash)
        rate=$(echo "$speed" | field spring_updates_per_s)
        echo "| $peer | $ph | $([ "$ph" = "$hh" ] && echo yes || echo NO) | $(awk -v r="$rate" 'BEGIN {printf "%.1f", r / 1e9}') |" >>"$S"
    done
    echo "| host (OMP_TARGET_OFFLOAD=DISABLED) | $hh | | |" >>"$S"

    (cd "$out" && tar czf json.tgz json && rm -rf json)
    log "== done in $((SECONDS - start)) s"
    cat "$S"
}

# OUTDIR/summary.md into docs/benchmarks.md as its section "GPU" (bench/report.py's splice; report.py keeps it)
render() {
    python3 - "$1/summary.md" "$root/docs/benchmarks.md" <<'PY'
import sys
sys.path.insert(0, "bench")
from report import splice
section = open(sys.argv[1]).read().rstrip("\n").split("\n") + [""]
report = open(sys.argv[2]).read()
open(sys.argv[2], "w").write(splice(report, "## GPU", section))
print("wrote the section GPU of", sys.argv[2])
PY
}

case "${1:-}" in
prepare) shift; prepare "$@" ;;
render) [ $# -eq 2 ] || { echo "usage: bash bench/device_check.sh render OUTDIR" >&2; exit 2; }; render "$2" ;;
run) [ $# -eq 2 ] || { echo "usage: bash bench/device_check.sh run OUTDIR" >&2; exit 2; }; run "$2" ;;
*) sed -n '3,5p' "$0" >&2; exit 2 ;;
esac
