#!/usr/bin/env python3
# batch.py — 512 small cloths three ways: one world holding them, a hooke.Batch of 512 worlds, a Python loop of worlds.
# SPDX-License-Identifier: MIT
"""Usage: PYTHONPATH=build/python python3 bench/batch.py [--rounds R] [--steps S] [--copies N] [--threads 1,2]

N copies (512) of a 30 x 30 cloth with cloth_512's parameters (1 cm apart, 2e-5 kg a node, k 6000 N/m and damping
0.02 N*s/m on structural, shear and bend springs, air drag 2e-6 N*s/m, semi-implicit Euler, dt 2e-5 s, the two
corners of an edge pinned), S steps (500: 0.01 s), on each thread count:
  world      one World holding the N cloths as bodies (scene text of N bodies), on T threads
  batch      hooke.Batch of N single-cloth worlds on T threads
  loop       a Python loop: each step, world.step() of each of N single-cloth worlds on T threads each
  loop2      (T > 1) T Python threads, each stepping its share of the N worlds (on 1 thread each) the same way
Each is built fresh each round, the cases alternating; prints the median spring updates per second of each and the
batch's ratios to the world and to the faster loop, and writes them as JSON with --out."""
import argparse
import json
import statistics
import threading
import time

import hooke

HEAD = "world\n  gravity 0 -9.81 0\n  air_drag 2e-6\nend\n"
RUN = "run\n  integrator semi_implicit_euler\n  dt 2e-5\n  steps 500\nend\n"


def cloth(i):
    """Cloth i of the set, 0.4 m from the one before (30 x 30 nodes 1 cm apart: 0.29 m square)."""
    return (f"body cloth\n  nx 30\n  ny 30\n  spacing 0.01\n  origin {0.4 * i:g} 0 0\n  u 1 0 0\n  v 0 0 1\n"
            "  mass 2e-5\n  pins two_corners\n"
            "  springs structural k 6000 damping 0.02 damping_model relative\n"
            "  springs shear k 6000 damping 0.02 damping_model relative\n"
            "  springs bend k 6000 damping 0.02 damping_model relative\nend\n")


def timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def case(name, copies, steps, threads):
    """Seconds of `steps` steps of the case, and the springs it steps."""
    if name == "world":
        w = hooke.World.from_string(HEAD + "".join(cloth(i) for i in range(copies)) + RUN, threads=threads)
        return timed(lambda: w.step(steps)), len(w.rest_lengths)
    one = HEAD + cloth(0) + RUN
    if name == "batch":
        b = hooke.Batch.from_string(one, copies, threads=threads)
        return timed(lambda: b.step(steps)), sum(len(w.rest_lengths) for w in b)
    ws = [hooke.World.from_string(one, threads=threads if name == "loop" else 1) for _ in range(copies)]
    springs = sum(len(w.rest_lengths) for w in ws)

    def loop(part):
        for _ in range(steps):
            for w in part:
                w.step()

    if name == "loop":
        return timed(lambda: loop(ws)), springs
    shares = [ws[k::threads] for k in range(threads)]

    def together():
        ts = [threading.Thread(target=loop, args=(s,)) for s in shares]
        for t in ts:
            t.start()
        for t in ts:
            t.join()

    return timed(together), springs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--steps", type=int, default=500)
    ap.add_argument("--copies", type=int, default=512)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--out")
    a = ap.parse_args()
    result = {"copies": a.copies, "steps": a.steps, "rounds": a.rounds, "threads": {}}
    for threads in (int(t) for t in a.threads.split(",")):
        names = ["world", "batch", "loop"] + (["loop2"] if threads > 1 else [])
        rate = {n: [] for n in names}
        for r in range(a.rounds):
            for n in names if r % 2 == 0 else names[::-1]:
                s, springs = case(n, a.copies, a.steps, threads)
                rate[n].append(springs * a.steps / s)
        med = {n: statistics.median(v) for n, v in rate.items()}
        loop = max(med[n] for n in names if n.startswith("loop"))
        row = {"median_spring_updates_per_s": med, "all": rate, "batch_over_world": med["batch"] / med["world"],
               "batch_over_loop": med["batch"] / loop}
        result["threads"][threads] = row
        print(f"threads {threads}: " + ", ".join(f"{n} {v:.4g}/s" for n, v in med.items()) +
              f"; batch/world {row['batch_over_world']:.3f}, batch/loop {row['batch_over_loop']:.2f}", flush=True)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
