#!/usr/bin/env python3
# applied_forces.py — the cost of setting every particle's applied force from numpy before each step, cloth_512.
# SPDX-License-Identifier: MIT
"""Usage: PYTHONPATH=build/python python3 bench/applied_forces.py THREADS

Steps scenes/cloth_512.scene 100 times on THREADS threads, plainly and with World.set_applied_forces of an (N, 3)
float64 array before each step, alternating, 5 rounds; prints the medians and their ratio."""
import statistics
import sys
import time

import numpy as np

import hooke

threads = int(sys.argv[1])
res = []
for rnd in range(5):
    for mode in (0, 1):
        w = hooke.World.from_scene(hooke.scene_path("cloth_512"), threads=threads)
        n = len(w.masses)
        f = np.zeros((n, 3))
        f[:, 0] = 1e-4
        w.step(5)
        t = time.perf_counter()
        for s in range(100):
            if mode:
                w.set_applied_forces(f)
            w.step()
        res.append((mode, time.perf_counter() - t))
a = [t for m, t in res if m == 0]
b = [t for m, t in res if m == 1]
print("threads %d: plain %.4f s, with set_applied_forces %.4f s, ratio %.3f (min..max of the rounds %.3f..%.3f)"
      % (threads, statistics.median(a), statistics.median(b), statistics.median(b) / statistics.median(a),
         min(y / x for x, y in zip(a, b)), max(y / x for x, y in zip(a, b))))
