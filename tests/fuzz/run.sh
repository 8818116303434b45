#!/usr/bin/env bash
# Builds the seed corpora from the shipped files and runs every libFuzzer harness (tests/fuzz/README.md).
#   bash tests/fuzz/run.sh [LIBFUZZER OPTION ...]     e.g. -runs=100000, or -max_total_time=3600 -jobs=2
# Needs the fuzz build (cmake --preset fuzz && cmake --build --preset fuzz). HOOKE_FUZZ_ONLY=NAME runs one
# harness (scene, mesh_asc, mesh_obj, checkpoint, checkpoint_step, checkpoint_pieces, stats); HOOKE_FUZZ_JOBS=N
# runs N harnesses at a time (default: the number of cores). Exits non-zero when a harness finds a crash, a leak, a
# hang or a broken promise; the input that did it is saved in build-fuzz/fuzz/artifacts/, with the harness's log.
# SPDX-License-Identifier: MIT
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${HOOKE_FUZZ_BUILD:-$root/build-fuzz}
bin=$build/fuzz
[ -x "$bin/fuzz_scene" ] || { echo "run.sh: no harnesses in $bin: cmake --preset fuzz && cmake --build --preset fuzz" >&2; exit 1; }
# the harnesses to run
names=()
for name in scene checkpoint checkpoint_step checkpoint_pieces mesh_obj mesh_asc stats; do
  [ -z "${HOOKE_FUZZ_ONLY:-}" ] || [ "$HOOKE_FUZZ_ONLY" = "$name" ] && names+=("$name")
done
[ "${#names[@]}" -gt 0 ] || { echo "run.sh: HOOKE_FUZZ_ONLY=$HOOKE_FUZZ_ONLY: expected scene, checkpoint, checkpoint_step, checkpoint_pieces, mesh_obj, mesh_asc or stats" >&2; exit 1; }
seeds=$bin/seeds
rm -rf "$seeds"
mkdir -p "$seeds"/{scene,mesh_asc,mesh_obj,checkpoint,checkpoint_step,checkpoint_pieces,stats} "$bin/corpus" "$bin/artifacts"

# seeds: the shipped scenes and meshes, and what the program writes (checkpoints, stats, OBJ frames)
cp "$root"/scenes/*.scene "$root"/tests/fuzz/checkpoint.scene "$root"/tests/fuzz/checkpoint_pairs.scene \
  "$root"/tests/fuzz/colliders.scene "$root"/tests/fuzz/fabric.scene "$seeds/scene/"
cp "$root"/scenes/*.asc "$seeds/mesh_asc/"
cp "$root"/scenes/*.obj "$seeds/mesh_obj/"
ck=$root/tests/fuzz/checkpoint.scene
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for integ in verlet semi_implicit_euler rk4 implicit_euler bdf2 xpbd projective_dynamics; do
  "$build/hooke" run "$ck" --quiet --integrator "$integ" --steps 4 --checkpoint "$seeds/checkpoint/$integ.ck" \
    --checkpoint-every 4 --stats "$seeds/stats/$integ.csv" >/dev/null
  "$build/hooke" run "$root/tests/fuzz/checkpoint_pairs.scene" --quiet --integrator "$integ" --steps 4 \
    --checkpoint "$seeds/checkpoint/pairs_$integ.ck" --checkpoint-every 4 >/dev/null
done
cp "$seeds"/checkpoint/* "$seeds/checkpoint_step/"
# checkpoints over 2 and 3 ranks (an index and its pieces as one input), written by the harness itself
HOOKE_FUZZ_PIECES_SEEDS="$seeds/checkpoint_pieces" "$bin/fuzz_checkpoint_pieces" >/dev/null
for s in torus_asc pressure_ball; do
  "$build/hooke" run "$root/scenes/$s.scene" --quiet --steps 1 --out "$tmp/$s" --format obj >/dev/null
  cp "$tmp/$s/frame_000001.obj" "$seeds/mesh_obj/$s.obj"
done
"$build/hooke" run "$ck" --quiet --steps 1 --out "$tmp/ck" --format obj >/dev/null
cp "$tmp/ck/frame_000001.obj" "$seeds/mesh_obj/checkpoint_scene.obj"

export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# one harness: its log in artifacts/NAME.log, its exit status returned
fuzz_one() {
  local name=$1
  shift
  mkdir -p "$bin/corpus/$name"
  (cd "$bin" && exec ./"fuzz_$name" -artifact_prefix="artifacts/${name}-" -timeout=20 -rss_limit_mb=2048 \
    -print_final_stats=1 "$@" "corpus/$name" "seeds/$name") >"$bin/artifacts/$name.log" 2>&1
}

# HOOKE_FUZZ_JOBS (default: the number of cores) at a time
jobs=${HOOKE_FUZZ_JOBS:-$(nproc)}
start=$SECONDS
declare -A pid_of
failed=0
for name in "${names[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  echo "== fuzz_$name $* (started at $((SECONDS - start)) s)"
  fuzz_one "$name" "$@" &
  pid_of[$name]=$!
done
for name in "${names[@]}"; do
  rc=0
  wait "${pid_of[$name]}" || rc=$?
  log=$bin/artifacts/$name.log
  if [ "$rc" -eq 0 ]; then
    echo "== fuzz_$name: $(grep -E '^(Done|stat::peak_rss_mb)' "$log" | tr -s ' \n' ' ')"
  else
    echo "== fuzz_$name FAILED (exit $rc): the end of $log:"
    tail -n 60 "$log"
    failed=1
  fi
done
echo "== fuzzing finished in $((SECONDS - start)) s"
exit "$failed"
