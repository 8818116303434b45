#!/usr/bin/env python3
# wide.py — strong and weak scaling on a many-core machine, and the section "Many cores" of docs/benchmarks.md.
# SPDX-License-Identifier: MIT
"""Usage: python3 bench/wide.py run BIN_DIR RESULTS_DIR [--runs R] [--threads LIST]
       python3 bench/wide.py render RESULTS_DIR [--out FILE]

run: `hooke bench` on the builtin cloth 512^2 and 2048^2 and jelly 64^3,
strong and weak scaling (--threads, default 1,2,4,8,16), the implicit
scenes/cloth_512_stiff.scene, and hooke_bench's triad at the same thread
counts (the memory bandwidth each thread count can draw on). The strong
problems run R times (default 3: a shared many-core machine is noisy), the
others once. Each `hooke bench --json` file lands in RESULTS_DIR with the
command that made it. BIN_DIR holds hooke and hooke_bench (a build folder);
where it also holds ld-linux-x86-64.so.2, the programs run through it with
BIN_DIR as their library path, so a folder of the binaries and the shared
libraries `ldd` names runs on a machine that has none of them installed.

render: the section "Many cores" of FILE (default docs/benchmarks.md) from
RESULTS_DIR: every run's table, the efficiency at the largest thread count
against the targets (strong >= 0.8 on the 2048^2 cloth and >= 0.7 on cloth
512^2 and jelly 64^3, weak >= 0.85), and the bandwidth the large cloth's
step draws against the triad's.
"""
import glob
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from contact import commit_of  # noqa: E402
from report import rate, splice  # noqa: E402  (the report's units and its one way of replacing a section)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAD = "## Many cores"
STIFF = os.path.join(ROOT, "scenes", "cloth_512_stiff.scene")
# name, hooke bench arguments, strong (run R times), target efficiency at the largest thread count
PROBLEMS = (
    ("cloth512_strong", ["--builtin", "cloth", "--repeat", "10"], True, 0.7),
    ("jelly64_strong", ["--builtin", "jelly", "--repeat", "10"], True, 0.7),
    ("cloth2048_strong", ["--builtin", "cloth", "--size", "2048", "--repeat", "5"], True, 0.8),
    ("cloth512_weak", ["--builtin", "cloth", "--weak", "--repeat", "10"], False, 0.85),
    ("jelly64_weak", ["--builtin", "jelly", "--weak", "--repeat", "10"], False, 0.85),
    ("cloth2048_weak", ["--builtin", "cloth", "--size", "2048", "--weak", "--repeat", "5"], False, 0.85),
    ("stiff_strong", [STIFF, "--repeat", "3", "--steps", "4", "--warmup", "1"], False, None),
)
# The least a fused explicit step moves per particle: q and v read and written, the inverse mass read [bytes].
STEP_BYTES = 52


def program(bindir, name):
    loader = os.path.join(bindir, "ld-linux-x86-64.so.2")
    exe = os.path.join(bindir, name)
    return [loader, "--library-path", bindir, exe] if os.path.exists(loader) else [exe]


def measure(bindir, out, runs, threads):
    os.makedirs(out, exist_ok=True)
    for name, args, strong, _ in PROBLEMS:
        for r in range(1, (runs if strong else 1) + 1):
            path = os.path.join(out, "%s_r%d.json" % (name, r))
            cmd = ["bench"] + args + ["--threads", threads]
            shown = "hooke " + " ".join(a.replace(ROOT + os.sep, "") for a in cmd)
            print("==", shown, flush=True)
            p = subprocess.run(program(bindir, "hooke") + cmd + ["--json", path])
            with open(path) as f:
                d = json.load(f)
            d["command"], d["rc"], d["commit"] = shown, p.returncode, commit_of() or "unknown"
            with open(path, "w") as f:
                json.dump(d, f, indent=1)
    sel = "|".join(threads.split(","))
    cmd = ["--benchmark_filter=triad/best/n:64/threads:(%s)/" % sel, "--benchmark_repetitions=3",
           "--benchmark_out=" + os.path.join(out, "triad.json"), "--benchmark_out_format=json"]
    print("== hooke_bench", " ".join(cmd), flush=True)
    subprocess.run(program(bindir, "hooke_bench") + cmd, check=True)


def load(out):
    runs = {}
    for path in sorted(glob.glob(os.path.join(out, "*_r*.json"))):
        name = os.path.basename(path).rsplit("_r", 1)[0]
        with open(path) as f:
            runs.setdefault(name, []).append(json.load(f))
    with open(os.path.join(out, "triad.json")) as f:
        tr = json.load(f)
    triad = {int(b["omp_threads"]): b["bytes_per_second"] for b in tr["benchmarks"]
             if b.get("aggregate_name") == "median"}
    return runs, triad


def table(d, w):
    implicit = any(x.get("cg_iterations_per_step", 0) > 0 for x in d["results"])
    w("| threads | particles | median ms/step | min | max | FOM | ns/update | efficiency | state_hash |" +
      (" CG iterations/step |" if implicit else ""))
    w("| --- | --- | --- | --- | --- | --- | --- | --- | --- |" + (" --- |" if implicit else ""))
    for x in d["results"]:
        w("| %d | %d | %.3f | %.3f | %.3f | %s | %.4f | %.3f | `%s` |%s" %
          (x["threads"], x["particles"], 1e3 * x["time_per_step_median_s"], 1e3 * x["time_per_step_min_s"],
           1e3 * x["time_per_step_max_s"], rate(x["fom_spring_updates_per_s"]), x["ns_per_spring_update"],
           x["efficiency"], x["state_hash"], " %.1f |" % x["cg_iterations_per_step"] if implicit else ""))
    w("")


def render(runs, triad):
    L = []
    w = L.append
    first = next(iter(runs.values()))[0]
    m = first["machine"]
    top = max(x["threads"] for x in first["results"])
    w(HEAD)
    w("")
    one = [[x["time_per_step_median_s"] for d in ds for x in d["results"] if x["threads"] == 1]
           for ds in runs.values()]
    spread = max(max(t) / min(t) - 1 for t in one if len(t) > 1) if any(len(t) > 1 for t in one) else None
    valid = all(d["verification"] == "VALID" and d["rc"] == 0 for ds in runs.values() for d in ds)
    same = all(x["hash_ok"] for ds in runs.values() for d in ds for x in d["results"])
    w("Measured %s at commit %s on a lent machine: %s, %d core(s), %d PU(s), %d NUMA node(s), caches %s; hooke %s (%s), "
      "build %s, %s, kernel path %s. Produced by `python3 bench/wide.py run BIN_DIR RESULTS_DIR` and rendered by "
      "`python3 bench/wide.py render RESULTS_DIR`.%s" %
      (first["date"][:10], first.get("commit", "unknown"), m["cpu"], m["cores"], m["pus"], m["numa_nodes"],
       ", ".join("%s %d KiB x%d" % (c["name"], c["size_bytes"] // 1024, c["count"]) for c in m["caches"]),
       first["hooke"], first["real"], first["build"]["type"], first["build"]["compiler"], first["kernels"],
       " The 1-thread median of one problem moved by up to %.0f %% between its runs." % (100 * spread)
       if spread is not None else ""))
    w("")
    w("Efficiency at %d threads (each run against its own 1-thread time; %s, %s):" %
      (top, "every run VALID" if valid else "**some run INVALID or failed: see its table**",
       "every hash equal to its 1-thread hash" if same else "**some hash differs from its 1-thread hash**"))
    w("")
    w("| problem | scaling | runs | efficiency at %d threads | median | target | met |" % top)
    w("| --- | --- | --- | --- | --- | --- | --- |")
    for name, _, _, goal in PROBLEMS:
        if name not in runs or goal is None:
            continue
        effs = [next(x["efficiency"] for x in d["results"] if x["threads"] == top) for d in runs[name]]
        med = statistics.median(effs)
        d = runs[name][0]
        w("| %s | %s | %d | %s | %.3f | >= %.2f | %s |" %
          (d["problem"], d["scaling"], len(effs), ", ".join("%.3f" % e for e in effs), med, goal,
           "yes" if med >= goal else "**no**"))
    w("")
    w("The triad `a = b + s c` over 3 x 256 MiB (`hooke_bench --benchmark_filter='triad/best/n:64/threads:(...)/' "
      "--benchmark_repetitions=3`, the median), the bandwidth each thread count can draw on:")
    w("")
    w("| threads | " + " | ".join(str(t) for t in sorted(triad)) + " |")
    w("| --- |" + " --- |" * len(triad))
    w("| GB/s | " + " | ".join("%.1f" % (triad[t] / 1e9) for t in sorted(triad)) + " |")
    w("| against 1 thread | " + " | ".join("%.2f" % (triad[t] / triad[min(triad)]) for t in sorted(triad)) + " |")
    w("")
    w("The least a fused explicit step moves is %d bytes per particle (q and v read and written, the inverse mass "
      "read). What the 2048^2 cloth's step draws at that count, against the triad at the same thread count:" %
      STEP_BYTES)
    w("")
    w("| run | threads | particles | median ms/step | GB/s at %d B/particle | triad GB/s | share |" % STEP_BYTES)
    w("| --- | --- | --- | --- | --- | --- | --- |")
    for name in ("cloth2048_strong", "cloth2048_weak"):
        for i, d in enumerate(runs.get(name, [])):
            for x in d["results"]:
                if x["threads"] not in (1, top) or x["threads"] not in triad:
                    continue
                bw = STEP_BYTES * x["particles"] / x["time_per_step_median_s"]
                w("| %s, run %d | %d | %d | %.3f | %.1f | %.1f | %.2f |" %
                  (d["scaling"], i + 1, x["threads"], x["particles"], 1e3 * x["time_per_step_median_s"], bw / 1e9,
                   triad[x["threads"]] / 1e9, bw / triad[x["threads"]]))
    w("")
    for name, _, _, _ in PROBLEMS:
        for i, d in enumerate(runs.get(name, [])):
            w("`%s` (run %d): %s, %s scaling, %d warm-up steps, %d x %d timed steps; verification **%s** (exit %d)." %
              (d["command"], i + 1, d["problem"].replace(ROOT + os.sep, ""), d["scaling"], d["warmup_steps"], d["repeat"],
               d["steps_per_repeat"], d["verification"], d["rc"]))
            w("")
            table(d, w)
    return L


def main():
    args = sys.argv[1:]
    if len(args) >= 3 and args[0] == "run":
        runs, threads = 3, "1,2,4,8,16"
        rest = args[3:]
        while rest:
            a = rest.pop(0)
            if a == "--runs":
                runs = int(rest.pop(0))
            elif a == "--threads":
                threads = rest.pop(0)
            else:
                sys.exit(__doc__)
        measure(os.path.abspath(args[1]), os.path.abspath(args[2]), runs, threads)
    elif len(args) in (2, 4) and args[0] == "render":
        out = os.path.join(ROOT, "docs", "benchmarks.md")
        if len(args) == 4:
            if args[2] != "--out":
                sys.exit(__doc__)
            out = args[3]
        with open(out) as f:
            report = f.read()
        with open(out, "w") as f:
            f.write(splice(report, HEAD, render(*load(args[1]))))
        print("wrote the section", HEAD[3:], "of", out)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
