#!/usr/bin/env python3
# many_bodies.py — times N small quad bodies against one points body of the same particles and springs.
# SPDX-License-Identifier: MIT
"""Usage: python3 bench/many_bodies.py [BUILD_DIR] [--quads N] [--steps S] [--rounds R] [--dir DIR] [--out FILE.json]

Writes two scenes into DIR (default: a temporary folder): N `quad` bodies
(size 0.1 m, 0.2 m apart on a grid 448 wide, mass 0.01 kg, springs k 100
N/m damping 0.01 N s/m, gravity, no ground) and one `points` body that
lists the same 4 N corners and the same 6 springs per quad, in the same
order. Then runs `hooke run SCENE --dt 1e-3 --steps S --threads T --quiet`
on each, alternating (quads, then points), R rounds on 1 and on 2 threads,
and reads wall_s (the stepping loop; reading the scene and planning are
not in it) and the state hashes. Prints and (--out) writes the per-round
ratio quads / points: the goal is that many small bodies step within 2x of
one body of the same size. Defaults: N 200000, S 100, R 5.
"""
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WIDTH = 448  # quads per grid row
SPRINGS = ((0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2))  # a quad's springs, as the builder makes them
HEAD = "world\n gravity 0 -9.81 0\nend\n"
SPRING_LINE = " springs main k 100 damping 0.01\n"


def origins(n):
    for q in range(n):
        yield 0.2 * (q % WIDTH), 0.2 * (q // WIDTH)


def write_scenes(folder, n):
    quads, points = os.path.join(folder, "quads.scene"), os.path.join(folder, "points.scene")
    with open(quads, "w") as f:
        f.write(HEAD)
        for x, z in origins(n):
            f.write("body quad\n size 0.1\n origin %.10g 0.5 %.10g\n u 1 0 0\n v 0 0 1\n mass 0.01\n%send\n" %
                    (x, z, SPRING_LINE))
    with open(points, "w") as f:
        f.write(HEAD + "body points\n")
        for x, z in origins(n):
            for dx, dz in ((0, 0), (0.1, 0), (0, 0.1), (0.1, 0.1)):
                f.write(" point %.10g 0.5 %.10g 0.01\n" % (x + dx, z + dz))
        for q in range(n):
            for a, b in SPRINGS:
                f.write(" spring %d %d\n" % (4 * q + a, 4 * q + b))
        f.write(SPRING_LINE + "end\n")
    return quads, points


def run(hooke, scene, steps, threads):
    out = subprocess.run([hooke, "run", scene, "--dt", "1e-3", "--steps", str(steps), "--threads", str(threads),
                          "--quiet"], check=True, capture_output=True, text=True).stdout
    wall = float(re.search(r"wall_s=([0-9.e+-]+)", out).group(1))
    return wall, re.search(r"state_hash=(0x[0-9a-f]+)", out).group(1)


def main():
    args, build, n, steps, rounds, folder, out = sys.argv[1:], "build", 200000, 100, 5, None, None
    while args:
        a = args.pop(0)
        if a in ("--quads", "--steps", "--rounds", "--dir", "--out") and not args:
            sys.exit(__doc__)
        if a == "--quads":
            n = int(args.pop(0))
        elif a == "--steps":
            steps = int(args.pop(0))
        elif a == "--rounds":
            rounds = int(args.pop(0))
        elif a == "--dir":
            folder = args.pop(0)
        elif a == "--out":
            out = args.pop(0)
        elif a.startswith("-"):
            sys.exit(__doc__)
        else:
            build = a
    hooke = os.path.join(build if os.path.isabs(build) else os.path.join(ROOT, build), "hooke")
    tmp = None
    if not folder:
        tmp = tempfile.TemporaryDirectory()
        folder = tmp.name
    os.makedirs(folder, exist_ok=True)
    quads, points = write_scenes(folder, n)
    result = {"command": "python3 bench/many_bodies.py " + " ".join(sys.argv[1:]),
              "date": datetime.date.today().isoformat(), "quads": n, "particles": 4 * n, "springs": 6 * n,
              "steps": steps, "threads": []}
    for threads in (1, 2):
        rows = []
        for r in range(rounds):
            wq, hq = run(hooke, quads, steps, threads)
            wp, hp = run(hooke, points, steps, threads)
            rows.append({"quads_s": wq, "points_s": wp, "ratio": wq / wp, "quads_hash": hq, "points_hash": hp})
            print("threads %d round %d: %d quads %.6f s, one body %.6f s, ratio %.3f" %
                  (threads, r + 1, n, wq, wp, wq / wp))
        ratios = [x["ratio"] for x in rows]
        result["threads"].append({"threads": threads, "rounds": rows, "median": statistics.median(ratios),
                                  "min": min(ratios), "max": max(ratios)})
        print("threads %d: ratio median %.3f (min %.3f, max %.3f)" %
              (threads, statistics.median(ratios), min(ratios), max(ratios)))
    if out:
        with open(out, "w") as f:
            json.dump(result, f, indent=1)
    if tmp:
        tmp.cleanup()


if __name__ == "__main__":
    main()
