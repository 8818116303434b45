#!/usr/bin/env python3
# busy.py — hooke run on 1 and 2 threads while another process keeps a core busy: the ratio of their wall times.
# SPDX-License-Identifier: MIT
"""Usage: python3 bench/busy.py BUILD [BUILD_B] [--rounds N] [--load LIST] [--case NAME ...] [--out FILE.json]

Times `hooke run SCENE --steps S --threads T --quiet` (its summary line's
wall_s: the steps, not the scene's building) for T = 1 and 2 under each
load of LIST (default none,pinned,free), measured as users run hooke: the
scheduling priorities of hooke and of the load left as they are.
  none    nothing else started: the machine's own other work only
  pinned  a busy loop (python3 spinning) started in a session of its own
          (setsid, as another terminal's program runs), pinned to the last
          processor of this process's mask, the one hooke's thread 1 is
          bound to
  free    the same busy loop, left to the scheduler
The machine's own other work comes on top of each: the load average at
the start and the end of the run is printed and kept in --out.
HOOKE_FULL_TEAM and OMP_NUM_THREADS are left out of the runs' environment.
The cases:
  cloth512   scenes/cloth_512.scene --steps 300 (262 144 particles, explicit)
  stiff128   scenes/cloth_512_stiff.scene at 128 x 128 nodes (written to a
             temporary folder: the same cloth, springs and solver settings),
             --steps 40 (implicit Euler, CG with the multigrid)
  fold       scenes/cloth_fold.scene --steps 100 (1728 particles, self
             collision; hooke picks 1 thread for it by default)
Each round runs, per load and case, T = 1 and 2 on every build, in an
order that turns every round (A1 A2 B1 B2, then B2 B1 A2 A1, ...). The
ratio of a round is wall(2 threads) / wall(1 thread) of the same build
(at most 1.1: the target under load); with two builds also B / A at each T
(below 1: B is faster). Prints the median and range of each ratio and
each build's median wall times; --out writes every time and ratio as JSON.
"""
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOADS = ("none", "pinned", "free")


def stiff128(folder):
    """cloth_512_stiff.scene with its cloth at 128 x 128 nodes, written into folder."""
    with open(os.path.join(ROOT, "scenes", "cloth_512_stiff.scene")) as f:
        text = f.read()
    for key in ("nx", "ny"):
        old = "  %s 512\n" % key
        if old not in text:
            sys.exit("busy.py: scenes/cloth_512_stiff.scene has no line '%s'" % old.strip())
        text = text.replace(old, "  %s 128\n" % key)
    path = os.path.join(folder, "cloth_128_stiff.scene")
    with open(path, "w") as f:
        f.write(text)
    return path


def cases(folder):
    return (("cloth512", os.path.join(ROOT, "scenes", "cloth_512.scene"), 300),
            ("stiff128", stiff128(folder), 40),
            ("fold", os.path.join(ROOT, "scenes", "cloth_fold.scene"), 100))


def wall(build, scene, steps, threads):
    """The run's wall time of its steps (the summary line's wall_s: the scene's building left out)."""
    cmd = [os.path.join(build, "hooke"), "run", scene, "--steps", str(steps), "--threads", str(threads), "--quiet"]
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "HOOKE_FULL_TEAM")}
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    return float(out.split(" wall_s=")[1].split()[0])


def start_load(load):
    if load == "none":
        return None
    # its own session and process group, as a program started from another terminal
    p = subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
    if load == "pinned":
        os.sched_setaffinity(p.pid, {max(os.sched_getaffinity(0))})
    time.sleep(0.2)  # spinning before the runs start
    return p


def stop_load(p):
    if p:
        p.kill()
        p.wait()


def summary(v):
    return {"median": statistics.median(v), "min": min(v), "max": max(v), "values": v}


def main():
    args, rounds, loads, only, out, builds = sys.argv[1:], 10, list(LOADS), [], None, []
    while args:
        a = args.pop(0)
        if a == "--rounds":
            rounds = int(args.pop(0))
        elif a == "--load":
            loads = args.pop(0).split(",")
        elif a == "--case":
            only.append(args.pop(0))
        elif a == "--out":
            out = args.pop(0)
        elif a.startswith("-"):
            sys.exit(__doc__)
        else:
            builds.append(os.path.abspath(a))
    if not 1 <= len(builds) <= 2 or rounds < 1 or any(x not in LOADS for x in loads):
        sys.exit(__doc__)
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        todo = [c for c in cases(folder) if not only or c[0] in only]
        if not todo:
            sys.exit("busy.py: no case named %s" % ", ".join(only))
        runs = [(b, t) for b in range(len(builds)) for t in (1, 2)]
        times = {(l, c[0], b, t): [] for l in loads for c in todo for b, t in runs}
        for r in range(rounds):
            for load in loads:
                p = start_load(load)
                try:
                    for name, scene, steps in todo:
                        for b, t in (runs if r % 2 == 0 else runs[::-1]):
                            times[(load, name, b, t)].append(wall(builds[b], scene, steps, t))
                finally:
                    stop_load(p)
    load_end = os.getloadavg()
    print("load average (1, 5, 15 min): %.2f %.2f %.2f at the start, %.2f %.2f %.2f at the end" %
          (load_start + load_end), flush=True)
    result = {"date": datetime.date.today().isoformat(), "builds": builds, "rounds": rounds,
              "load_average_start": load_start, "load_average_end": load_end,
              "command": "python3 bench/busy.py " + " ".join(sys.argv[1:]), "rows": []}
    for load in loads:
        for name, _, steps in todo:
            row = {"load": load, "case": name, "steps": steps}
            for b in range(len(builds)):
                t1, t2 = times[(load, name, b, 1)], times[(load, name, b, 2)]
                row["build%d" % b] = {"wall1_s": summary(t1), "wall2_s": summary(t2),
                                      "ratio_2_over_1": summary([y / x for x, y in zip(t1, t2)])}
            if len(builds) == 2:
                for t in (1, 2):
                    a, b = times[(load, name, 0, t)], times[(load, name, 1, t)]
                    row["b_over_a_%d" % t] = summary([y / x for x, y in zip(a, b)])
            result["rows"].append(row)
            line = "%-6s %-8s" % (load, name)
            for b in range(len(builds)):
                q = row["build%d" % b]
                line += "  %s: 1 thread %.3f s, 2 threads %.3f s, 2/1 %.3f (%.3f-%.3f)" % (
                    "AB"[b], q["wall1_s"]["median"], q["wall2_s"]["median"], q["ratio_2_over_1"]["median"],
                    q["ratio_2_over_1"]["min"], q["ratio_2_over_1"]["max"])
            if len(builds) == 2:
                for t in (1, 2):
                    q = row["b_over_a_%d" % t]
                    line += "  B/A@%d %.3f (%.3f-%.3f)" % (t, q["median"], q["min"], q["max"])
            print(line, flush=True)
    if out:
        with open(out, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
