#!/usr/bin/env python3
# ab.py — times two builds back to back (A B A B ...) and writes the per-round throughput ratios B/A as JSON.
# SPDX-License-Identifier: MIT
"""Usage: python3 bench/ab.py BUILD_A BUILD_B [--rounds N] [--case NAME ...] [--out FILE.json]

Each round runs every case three times on each build, alternating (A B A B
A B in even rounds, B A B A B A in odd ones), and records the best
throughput of B over the best of A: above 1 means B is faster. The best of
three drops the runs that a busy neighbour on the machine slowed down. The cases, on one thread but run512x2:
  run512    hooke run scenes/cloth_512.scene --steps 1500 --threads 1 (1 / wall time)
  run512x2  the same on 2 threads
  jelly26   hooke_bench jelly26_force/avx512/n:64 (spring updates per second)
  cloth256  hooke_bench cloth_force/avx512/n:256 (spring updates per second)
  stiff48   hooke run scenes/cloth_512_stiff.scene --steps 48 --threads 1 (1 / wall time; implicit)
  stiff48x2 the same on 2 threads
  jacobian  hooke_bench jacobian_cloth/avx512/n:128 (spring products per second)
--case runs only the named cases. Prints the median and range of each case's ratios; --out writes them, with
the commands, for `bench/report.py --ab FILE`.
"""
import datetime
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = dict(os.environ, OMP_NUM_THREADS="1")


def run(scene, steps, threads="1"):
    def measure(build):
        cmd = [os.path.join(build, "hooke"), "run", os.path.join(ROOT, scene), "--steps", steps, "--threads", threads,
               "--quiet"]
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=ENV)
        return 1.0 / (time.perf_counter() - t)
    return measure


def bench(case):
    def measure(build):
        cmd = [os.path.join(build, "hooke_bench"), "--benchmark_filter=^" + case + "/threads:1/",
               "--benchmark_min_time=0.5", "--benchmark_format=json"]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=ENV).stdout
        return json.loads(out)["benchmarks"][0]["items_per_second"]
    return measure


CASES = (  # name, what it runs, how it is measured
    ("run512", "hooke run scenes/cloth_512.scene --steps 1500 --threads 1", run("scenes/cloth_512.scene", "1500")),
    ("run512x2", "hooke run scenes/cloth_512.scene --steps 1500 --threads 2",
     run("scenes/cloth_512.scene", "1500", "2")),
    ("jelly26", "hooke_bench jelly26_force/avx512/n:64/threads:1", bench("jelly26_force/avx512/n:64")),
    ("cloth256", "hooke_bench cloth_force/avx512/n:256/threads:1", bench("cloth_force/avx512/n:256")),
    ("stiff48", "hooke run scenes/cloth_512_stiff.scene --steps 48 --threads 1",
     run("scenes/cloth_512_stiff.scene", "48")),
    ("stiff48x2", "hooke run scenes/cloth_512_stiff.scene --steps 48 --threads 2",
     run("scenes/cloth_512_stiff.scene", "48", "2")),
    ("jacobian", "hooke_bench jacobian_cloth/avx512/n:128/threads:1", bench("jacobian_cloth/avx512/n:128")),
)


def main():
    args, rounds, out, builds, only = sys.argv[1:], 12, None, [], []
    while args:
        a = args.pop(0)
        if a == "--rounds":
            rounds = int(args.pop(0))
        elif a == "--out":
            out = args.pop(0)
        elif a == "--case":
            only.append(args.pop(0))
        elif a.startswith("-"):
            sys.exit(__doc__)
        else:
            builds.append(os.path.abspath(a))
    if len(builds) != 2 or rounds < 1:
        sys.exit(__doc__)
    A, B = builds
    cases = [c for c in CASES if not only or c[0] in only]
    if not cases:
        sys.exit("ab.py: no case named %s (cases: %s)" % (", ".join(only), ", ".join(c[0] for c in CASES)))
    ratios = {name: [] for name, _, _ in cases}
    for r in range(rounds):
        for name, _, f in cases:
            a = b = 0
            for _ in range(3):
                if r % 2 == 0:
                    a = max(a, f(A))
                    b = max(b, f(B))
                else:
                    b = max(b, f(B))
                    a = max(a, f(A))
            ratios[name].append(b / a)
    result = {"date": datetime.date.today().isoformat(), "a": builds[0], "b": builds[1], "rounds": rounds,
              "command": "python3 bench/ab.py " + " ".join(sys.argv[1:]), "cases": []}
    for name, what, _ in cases:
        v = ratios[name]
        result["cases"].append({"name": name, "what": what, "median": statistics.median(v), "min": min(v),
                                "max": max(v), "ratios": v})
        print("%-9s B/A median %.4f (min %.4f, max %.4f, %d rounds)" % (name, statistics.median(v), min(v), max(v),
                                                                      rounds))
    if out:
        with open(out, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
