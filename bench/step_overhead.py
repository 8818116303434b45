#!/usr/bin/env python3
# step_overhead.py — what world.step() costs from Python against hk_world_step in a C loop, on a 10-particle rope.
# SPDX-License-Identifier: MIT
"""usage: python3 bench/step_overhead.py BUILD [--calls N] [--rounds R] [--scene FILE]

BUILD: a build with -DHOOKE_PYTHON=ON (the release preset): its package
BUILD/python/hooke and its program BUILD/hooke_step_overhead (bench/step_overhead.c).
Run it with the interpreter the module was built for (Debian's /usr/bin/python3).

Each of R rounds (default 10) times N calls (default 100000) of
`world.step()` on a fresh World of SCENE (default bench/step_overhead.scene,
one thread), written as a user writes it, and runs hooke_step_overhead,
which times the same N calls of hk_world_step in C on the same scene, once
bare (the target's base) and once with --check (the blow-up checks that
World.step and `hooke run` make); the three in turn, C first in even rounds
and Python first in odd ones. All print the state hash they reach, which
must agree (the same world, stepped as far). Prints every round's ns per
call of each and the ratios Python / C and Python / C with the checks, then
the medians (target: Python / C <= 2).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def c_round(program, scene, calls, *checks):
    out = subprocess.run([program, scene, str(calls), *checks], check=True, capture_output=True, text=True).stdout
    m = re.fullmatch(r"calls=(\d+) ns_per_call=([0-9.]+) state_hash=(0x[0-9a-f]+)\n", out)
    if not m:
        sys.exit(f"step_overhead.py: {program} printed {out!r}")
    return float(m.group(2)), m.group(3)


def python_round(hooke, scene, calls):
    world = hooke.World.from_scene(scene, threads=1)
    t0 = time.perf_counter_ns()
    for _ in range(calls):
        world.step()
    ns = (time.perf_counter_ns() - t0) / calls
    return ns, f"0x{world.state_hash:016x}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("--calls", type=int, default=100000)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--scene", default=os.path.join(ROOT, "bench", "step_overhead.scene"))
    a = ap.parse_args()
    sys.path.insert(0, os.path.join(os.path.abspath(a.build), "python"))
    import hooke

    program = os.path.join(a.build, "hooke_step_overhead")
    rows = []
    for r in range(a.rounds):
        runs = [("C", lambda: c_round(program, a.scene, a.calls)),
                ("C --check", lambda: c_round(program, a.scene, a.calls, "--check")),
                ("Python", lambda: python_round(hooke, a.scene, a.calls))]
        got = {}
        for name, run in runs if r % 2 == 0 else runs[::-1]:
            got[name] = run()
        if len({h for _, h in got.values()}) != 1:
            sys.exit(f"step_overhead.py: round {r}: the state hashes differ: {got}")
        c, cc, py = (got[n][0] for n in ("C", "C --check", "Python"))
        rows.append((c, cc, py, py / c, py / cc))
        print(f"round {r}: C {c:.1f} ns/call, C --check {cc:.1f}, Python {py:.1f}; "
              f"Python / C {py / c:.3f}, Python / C --check {py / cc:.3f}", flush=True)
    med = [statistics.median(x[k] for x in rows) for k in range(5)]
    ratios = [x[3] for x in rows]
    print(f"median over {a.rounds} rounds of {a.calls} calls: C {med[0]:.1f} ns/call, C --check {med[1]:.1f}, "
          f"Python {med[2]:.1f}; Python / C {med[3]:.3f} (min {min(ratios):.3f}, max {max(ratios):.3f}; target <= 2), "
          f"Python / C --check {med[4]:.3f}; state_hash={got['C'][1]}")

if __name__ == "__main__":
    main()
