#!/usr/bin/env python3
# applied_forces.py — the cost of setting every particle's applied force from numpy before each step, cloth_512.
# SPDX-License-Identifier: MIT
"""Usage: PYTHONPATH=build/python python3 bench/applied_forces.py THREADS

Steps scenes/cloth_512.scene 100 times on THREADS threads: plainly; with World.set_applied_forces of an (N, 3)
float64 array before each step (checked and converted); writing that (N, 3) float64 array into the view of
World.applied_force_arrays() before each step (numpy converts it; no checks); and writing one column of forces, in
the view's own dtype, into the view before each step (a force along x that changes every step). Alternating, 5
rounds; prints the medians and their ratios to the plain steps."""
import statistics
import sys
import time

import numpy as np

import hooke

threads = int(sys.argv[1])
MODES = ("plain", "set_applied_forces", "view, (N, 3) float64 written", "view, one column written")
res = {m: [] for m in MODES}
for rnd in range(5):
    for mode in MODES:
        w = hooke.World.from_scene(hooke.scene_path("cloth_512"), threads=threads)
        n = len(w.masses)
        f = np.zeros((n, 3))
        f[:, 0] = 1e-4
        view = w.applied_force_arrays() if mode in MODES[2:] else None
        col = np.full(n, 1e-4, dtype=view.dtype) if view is not None else None
        w.step(5)
        t = time.perf_counter()
        for s in range(100):
            if mode == MODES[1]:
                w.set_applied_forces(f)
            elif mode == MODES[2]:
                view[:] = f
            elif mode == MODES[3]:
                view[:, 0] = col
            w.step()
        res[mode].append(time.perf_counter() - t)
        del view, col, w
base = statistics.median(res[MODES[0]])
print("threads %d: plain %.4f s" % (threads, base))
for mode in MODES[1:]:
    r = [y / x for x, y in zip(res[MODES[0]], res[mode])]
    print("  %s: %.4f s, ratio %.3f (min..max of the rounds %.3f..%.3f)"
          % (mode, statistics.median(res[mode]), statistics.median(res[mode]) / base, min(r), max(r)))
