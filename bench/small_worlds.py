#!/usr/bin/env python3
# small_worlds.py — two builds' `hooke run` on the shipped scenes of 4 000 to 10 000 particles and springs, alternating.
# SPDX-License-Identifier: MIT
"""Usage: python3 bench/small_worlds.py HOOKE_A HOOKE_B [--rounds N] [--steps S]

For each thread count (1, 2) and scene (flag, cloth_corners, jelly26, tearing_cloth): `hooke run SCENE --quiet
--threads T --steps S` (3000) with each program in turn, the order alternating round by round, N rounds (10).
Prints the median wall time of each and the median (min, max) of the rounds' ratios A / B (above 1: B faster), and
the state hash, which must be the same for both."""
import argparse
import os
import re
import statistics
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENES = ("flag", "cloth_corners", "jelly26", "tearing_cloth")


def run(exe, scene, threads, steps):
    out = subprocess.run([exe, "run", os.path.join(ROOT, "scenes", scene + ".scene"), "--quiet", "--threads",
                          str(threads), "--steps", str(steps)], capture_output=True, text=True, check=True).stdout
    return float(re.search(r"wall_s=([0-9.]+)", out).group(1)), re.search(r"state_hash=(0x[0-9a-f]+)", out).group(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--steps", type=int, default=3000)
    args = ap.parse_args()
    for threads in (1, 2):
        for scene in SCENES:
            ta, tb, hashes = [], [], set()
            for r in range(args.rounds):
                for exe, times in ((args.a, ta), (args.b, tb)) if r % 2 == 0 else ((args.b, tb), (args.a, ta)):
                    t, h = run(exe, scene, threads, args.steps)
                    times.append(t)
                    hashes.add(h)
            ratios = [a / b for a, b in zip(ta, tb)]
            print(f"threads {threads} {scene:14s} A {statistics.median(ta) * 1e3:8.2f} ms  B "
                  f"{statistics.median(tb) * 1e3:8.2f} ms  A/B {statistics.median(ratios):.3f} ({min(ratios):.3f}.."
                  f"{max(ratios):.3f})  state_hash {' '.join(sorted(hashes))}", flush=True)


if __name__ == "__main__":
    main()
