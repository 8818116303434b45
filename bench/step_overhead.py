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
which times the same N calls of hk_world_step in C on the same scene; the
two in turn, C first in even rounds and Python first in odd ones. Both
print the state hash they reach, which must agree (the same world, stepped
as far). Prints every round's ns per call of each and their ratio, then
the median of each and the median ratio (target: <= 2).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def c_round(program, scene, calls):
    out = subprocess.run([program, scene, str(calls)], check=True, capture_output=True, text=True).stdout
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
        if r % 2 == 0:
            c, c_hash = c_round(program, a.scene, a.calls)
            py, py_hash = python_round(hooke, a.scene, a.calls)
        else:
            py, py_hash = python_round(hooke, a.scene, a.calls)
            c, c_hash = c_round(program, a.scene, a.calls)
        if py_hash != c_hash:
            sys.exit(f"step_overhead.py: round {r}: Python reached state_hash={py_hash}, C {c_hash}")
        rows.append((c, py, py / c))
        print(f"round {r}: C {c:.1f} ns/call, Python {py:.1f} ns/call, ratio {py / c:.3f}", flush=True)
    c_med, py_med = statistics.median(x[0] for x in rows), statistics.median(x[1] for x in rows)
    ratios = [x[2] for x in rows]
    print(f"median over {a.rounds} rounds of {a.calls} calls: C {c_med:.1f} ns/call, Python {py_med:.1f} ns/call, "
          f"ratio {statistics.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f}; target <= 2), "
          f"state_hash={c_hash}")


if __name__ == "__main__":
    main()
