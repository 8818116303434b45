#!/usr/bin/env python3
# contact.py — measures the colliders' targets and costs, and writes the section "Contact" of docs/benchmarks.md.
# SPDX-License-Identifier: MIT
"""Usage: python3 bench/contact.py [BUILD_DIR] [--ab AB.json] [--mpi MPI_BUILD] [--settle] [--self] [--quick]
                             [--out FILE] [--from CONTACT.json]

Runs, at 1 and 2 threads (`hooke run ... --threads N --stats FILE --every 1
--quiet`, the statistics of every step):
  plate   scenes/cloth_plate.scene: a 512 x 512 cloth dropped from 10 m onto
          a plate 1 mm thick at dt = 1/240 s (implicit Euler): the largest
          `crossings` over every step must be 0 and the smallest `min_gap`
          at least 0 (every node outside the plate at every step);
  drape   scenes/cloth_drape.scene: a 256 x 256 cloth on a table, a ball
          and the floor (implicit Euler at 1/240 s, 3 simulated s): crossings
          0 and min_gap >= thickness / 4 at every step, the same state hash
          on 1 and 2 threads (and, without statistics, on 3, 4 and 7), and
          the kinetic energy at the end against its peak;
  box     scenes/cloth_box.scene (semi-implicit Euler, 17 substeps a
          step) against the same scene without its colliders: what the
          contact costs an explicit step where most of the cloth touches;
  fold    scenes/cloth_fold.scene (self collision, 2 s) and
          scenes/jelly_pile.scene (contact between bodies, 3 s): the
          largest `crossings` 0 and the smallest `min_gap` at every step;
  self    BUILD_DIR/hooke_fold (bench/fold.c): a 512 x 512 cloth folded in
          half on the floor, semi-implicit Euler at its 2e-5 s step and
          implicit Euler at 1/240 s, with and without self collision: what
          a step costs, against the targets (at most 2x and 1.5x), and
          what the contact's phases took of it (broad, forces, safety net).
--mpi adds (with --from: to the saved figures) the drape over 1, 2, 3 and 4 ranks
of MPI_BUILD/hooke (`cmake --preset mpi`), one thread each (`mpirun
--oversubscribe -np N ... --threads 1 --stats FILE --every 1`): the same
state hash and the same statistics of every step as one process.
--settle adds (with --from: to the saved figures) the drape run on to 40 simulated
s on 2 threads (`--time 40`, the statistics of every step; about half an
hour): when its kinetic energy comes to stay below 1e-6 of its peak, and
crossings and min_gap over the whole run.
--self with --from measures the self-collision rows again (in place of the saved
ones, with their own date and commit), after a change to the pairs alone; without
--from the whole measurement has them already.
--ab adds the back-to-back comparison (bench/ab.py) of a build without
colliders against this one on scenes without colliders: what a world
without colliders pays (nothing, within the noise). Saves the figures in
BUILD_DIR/contact.json (--from renders a saved file) and puts the section
into docs/benchmarks.md (or --out) in place of the one there; the rest of
the report stays as it was measured. --quick runs a few steps of each.
"""
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import splice  # noqa: E402  (the report's one way of replacing a section)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAD = "## Contact"
THICKNESS = {"plate": 0.002, "drape": 0.004, "box": 0.008}  # the scenes' collider thickness [m]


def stats_rows(path):
    with open(path) as f:
        lines = f.read().split("\n")
    names = lines[0].split(",")
    return [dict(zip(names, (float(x) for x in ln.split(",")))) for ln in lines[1:] if ln]


def run_scene(hooke, scene, threads, quick, extra=(), stats=True, rows_out=None):
    """One run of scene: with stats, the statistics of every step too (each row appended to rows_out, if given)."""
    with tempfile.TemporaryDirectory() as tmp:
        csv = os.path.join(tmp, "stats.csv")
        cmd = [hooke, "run", os.path.join(ROOT, scene), "--threads", str(threads)] + \
            (["--stats", csv, "--every", "1"] if stats else []) + \
            ["--quiet"] + list(extra) + (["--steps", "12"] if quick else [])
        p = subprocess.run(cmd, capture_output=True, text=True)
        f = dict(re.findall(r"(\w+)=(\S+)", p.stdout))
        rows = stats_rows(csv) if os.path.exists(csv) else []
    if rows_out is not None:
        rows_out.extend(rows)
    shown = " ".join(["build/hooke"] + cmd[1:]).replace(os.path.join(ROOT, ""), "").replace(csv, "FILE.csv")
    res = {"command": shown, "threads": threads, "rc": p.returncode, "wall_s": float(f.get("wall_s", "nan")),
           "steps": int(f.get("steps_run", "0")), "hash": f.get("state_hash", ""), "cg_per_step": f.get("cg_per_step")}
    if rows:
        gaps = [r["min_gap"] for r in rows if "min_gap" in r and r["min_gap"] == r["min_gap"]]
        res.update(crossings=max(r.get("crossings", 0) for r in rows), min_gap=min(gaps) if gaps else None,
                   max_stretch=max(r["max_stretch"] for r in rows), kinetic_peak=max(r["kinetic"] for r in rows),
                   kinetic_end=rows[-1]["kinetic"], contacts_end=rows[-1].get("contacts"))
    return res


def without_colliders(scene, folder):
    """The scene with its collider sections left out, written into folder."""
    with open(os.path.join(ROOT, scene)) as f:
        text = f.read()
    kept = re.sub(r"(?ms)^collider\b.*?^end\s*$\n?", "", text)
    path = os.path.join(folder, os.path.basename(scene))
    with open(path, "w") as f:
        f.write(kept)
    return path


def commit_of():
    """The commit measured, as git describes it."""
    return subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()


def cpu_of(hooke):
    """The CPU as `hooke info` names it, and the kernel path in use."""
    out = subprocess.run([hooke, "info"], capture_output=True, text=True).stdout
    cpu = re.search(r"^cpu: (.*)$", out, re.M)
    path = re.search(r"kernel path in use: (\w+)", out)
    return "%s (%s)" % (cpu.group(1) if cpu else "unknown CPU", path.group(1) if path else "unknown path")


def measure(build, quick):
    hooke = os.path.join(build, "hooke")
    m = {"date": datetime.date.today().isoformat(), "quick": quick,
         "cpu": cpu_of(hooke),
         "commit": commit_of(), "runs": {}}
    for name, scene in (("plate", "scenes/cloth_plate.scene"), ("drape", "scenes/cloth_drape.scene"),
                        ("box", "scenes/cloth_box.scene")):
        m["runs"][name] = [run_scene(hooke, scene, t, quick) for t in (1, 2)]
    m["runs"]["drape_threads"] = [run_scene(hooke, "scenes/cloth_drape.scene", t, quick, stats=False)
                                  for t in (3, 4, 7)]  # the state hash alone: the same bits on more threads
    with tempfile.TemporaryDirectory() as tmp:  # the box scene without its colliders: best of 3 per thread count
        bare = without_colliders("scenes/cloth_box.scene", tmp)
        m["runs"]["box_bare"] = []
        for t in (1, 2):
            best = None
            for _ in range(3):
                r = run_scene(hooke, bare, t, quick)
                best = r if best is None or r["wall_s"] < best["wall_s"] else best
            best["command"] = best["command"].replace(tmp + "/", "(cloth_box.scene without its colliders) ")
            m["runs"]["box_bare"].append(best)
    for name, scene in (("cloth_fold", "scenes/cloth_fold.scene"), ("jelly_pile", "scenes/jelly_pile.scene")):
        m["runs"][name] = [run_scene(hooke, scene, 1, quick)]
    m["runs"]["self"] = measure_self(build, quick)
    return m


def measure_self(build, quick):
    """The rows of what self collision costs a step (hooke_fold with and without it)."""
    rows = []
    fold = os.path.join(build, "hooke_fold")
    n = "128" if quick else "512"
    for integ, steps, warm in (("semi_implicit_euler", "20", "3"), ("implicit_euler", "3", "1")):
        for t in (1, 2):
            for contact in ("0", "1"):
                cmd = [fold, "--n", n, "--threads", str(t), "--integrator", integ, "--steps", steps, "--warmup", warm,
                       "--contact", contact]
                p = subprocess.run(cmd, capture_output=True, text=True)
                f = dict(re.findall(r"(\w+)=(\S+)", p.stdout))
                f.update(rc=p.returncode, command=" ".join(["build/hooke_fold"] + cmd[1:]))
                rows.append(f)
    return rows


def render_pairs(m, w):
    """The rows of contact between bodies: the shipped scenes' guarantees, then the cost of self collision."""
    w("Contact between bodies and within one (the `contact` section): the shipped scenes over their whole length, "
      "one thread, the statistics of every step:")
    w("")
    w("| scene | steps | wall s | largest crossings | smallest min_gap | met (crossings 0, min_gap > 0) |")
    w("| --- | --- | --- | --- | --- | --- |")
    for name in ("cloth_fold", "jelly_pile"):
        for r in m["runs"].get(name, []):
            ok = r["rc"] == 0 and r.get("crossings") == 0 and (r.get("min_gap") or 0) > 0
            w("| %s | %d | %.1f | %s | %s | %s |" % (name, r["steps"], r["wall_s"], r.get("crossings", "-"),
                                                 "%.3g m" % r["min_gap"] if r.get("min_gap") is not None else "-",
                                                 "yes" if ok else "**no**"))
    w("")
    rows = m["runs"].get("self", [])
    if not rows:
        return
    at = m.get("self_at")  # measured on their own (--self), later than the rest
    w("What self collision costs a step: `build/hooke_fold` (bench/fold.c), a %s x %s cloth folded in half on the "
      "floor, its upper layer resting on the lower one (mean of the timed steps after the warm-up; `pairs`: the "
      "step's pairs, `touching`: those within the thickness, `searches`: broad phases in the timed steps)%s:" %
      (rows[0].get("n", "?"), rows[0].get("n", "?"),
       "; these rows measured %s at commit %s by `python3 bench/contact.py --from FILE --self` on a 2-core %s" %
       (at["date"], at["commit"], at.get("cpu", "machine")) if at else ""))
    w("")
    w("| integrator | threads | ms per step without | ms per step with | ratio | target | met | pairs | touching "
      "| searches | with: broad / forces / safety net ms |")
    w("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for i in range(0, len(rows) - 1, 2):
        a, b = rows[i], rows[i + 1]
        try:
            ta, tb = float(a["ms_per_step"]), float(b["ms_per_step"])
        except (KeyError, ValueError):
            w("| %s | %s | failed (rc %s, %s) | | | | | | | | |" % (a.get("integrator"), a.get("threads"), b.get("rc"),
                                                                     b.get("command")))
            continue
        target = 1.5 if b["integrator"] == "implicit_euler" else 2.0
        phases = " / ".join(b.get(k, "-") for k in ("broad_ms", "forces_ms", "safety_ms"))
        w("| %s | %s | %.3g | %.3g | %.1f | %.1f | %s | %s | %s | %s | %s |" %
          (b["integrator"], b["threads"], ta, tb, tb / ta, target, "yes" if tb / ta <= target else "**no**",
           b.get("pairs"), b.get("touching"), b.get("searches"), phases))
    w("")
    w("Commands: %s." % "; ".join("`%s`" % r["command"] for r in rows[:2]))
    w("")


def measure_ranks(mpi_build, quick):
    """cloth_drape over 1 to 4 ranks, one thread each: its state hash and whether the statistics of every step are
    those of one rank."""
    hooke = os.path.join(mpi_build, "hooke")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    res = {"date": datetime.date.today().isoformat(), "runs": [], "commit": commit_of()}
    first = None
    with tempfile.TemporaryDirectory() as tmp:
        for n in (1, 2, 3, 4):
            csv = os.path.join(tmp, "stats.csv")
            cmd = ["mpirun", "--oversubscribe", "-np", str(n), hooke, "run",
                   os.path.join(ROOT, "scenes/cloth_drape.scene"), "--threads", "1", "--stats", csv, "--every", "1",
                   "--quiet"] + (["--steps", "12"] if quick else [])
            p = subprocess.run(cmd, capture_output=True, text=True, env=env)
            f = dict(re.findall(r"(\w+)=(\S+)", p.stdout))
            rows = open(csv).read() if os.path.exists(csv) else None
            first = rows if first is None else first
            shown = " ".join(cmd).replace(hooke, "build-mpi/hooke").replace(os.path.join(ROOT, ""), "")
            res["runs"].append({"ranks": n, "rc": p.returncode, "wall_s": float(f.get("wall_s", "nan")),
                                "steps": int(f.get("steps_run", "0")), "hash": f.get("state_hash", ""),
                                "same_stats": rows is not None and rows == first,
                                "command": shown.replace(csv, "FILE.csv")})
    return res


SETTLE_TIME = 40  # [s] the drape's long run
SETTLE_RATIO = 1e-6  # the kinetic energy at rest against its peak


def measure_settle(build, quick):
    """cloth_drape run on to SETTLE_TIME: the kinetic energy against its peak, and from when it stays below
    SETTLE_RATIO of it."""
    rows = []
    res = run_scene(os.path.join(build, "hooke"), "scenes/cloth_drape.scene", 2, False,
                    ["--time", "0.2" if quick else str(SETTLE_TIME)], rows_out=rows)
    res.update(date=datetime.date.today().isoformat(), commit=commit_of())
    if rows:
        peak = res["kinetic_peak"]
        above = [r["time"] for r in rows if r["kinetic"] >= SETTLE_RATIO * peak]
        res.update(settled=above[-1] if above and above[-1] < rows[-1]["time"] else None,
                   tail_max=max(r["kinetic"] for r in rows if r["time"] > rows[-1]["time"] - 5),
                   gravity=[(t, next(r["gravity"] for r in rows if r["time"] >= t)) for t in (3, 10, 20, 30)
                            if rows[-1]["time"] >= t] + [(rows[-1]["time"], rows[-1]["gravity"])])
    return res


def render_settle(r, w):
    ok = r["rc"] == 0 and r.get("settled") is not None and r.get("crossings") == 0
    peak = r.get("kinetic_peak", float("nan"))
    when = ("stays below %g of its peak %.3g J from %.4g s on" % (SETTLE_RATIO, peak, r["settled"])
            if r.get("settled") is not None else
            "does not come to stay below %g of its peak %.3g J within the run" % (SETTLE_RATIO, peak))
    w("cloth_drape run on to %g s (%s at commit %s, one run on 2 threads, %.0f s, %s CG iterations per step, "
      "state hash `%s`): its kinetic energy %s (at the end %.3g J, %.2g of the peak; the largest in the last 5 s "
      "%.3g J): %s. Crossings %d and the smallest min_gap %s over the whole run. Gravity's energy %s "
      "(docs/user-guide.md, \"Choosing thickness and stiffness\", on the drape's slow settling)." %
      (r["steps"] * 1.0 / 240, r["date"], r["commit"], r["wall_s"], r["cg_per_step"], r["hash"], when,
       r.get("kinetic_end", float("nan")), r.get("kinetic_end", float("nan")) / peak,
       r.get("tail_max", float("nan")), "yes" if ok else "**no**", r.get("crossings", -1),
       "%.3g m" % r["min_gap"] if r.get("min_gap") is not None else "-",
       ", ".join("%.4f J at %g s" % (g, t) for t, g in r.get("gravity", []))))
    w("")
    w("`%s`" % r["command"])
    w("")


def render_ranks(r, w):
    runs = r["runs"]
    same = all(x["rc"] == 0 and x["hash"] == runs[0]["hash"] and x["same_stats"] for x in runs) and runs[0]["hash"]
    w("cloth_drape over ranks (the MPI build, one thread a rank, %s at commit %s): the same state hash and the same "
      "statistics at every step on %s ranks: %s." % (r["date"], r["commit"], ", ".join(str(x["ranks"]) for x in runs),
                                                     "yes" if same else "**no**"))
    w("")
    w("| ranks | steps | wall s | state hash | statistics of every step as on 1 rank |")
    w("| --- | --- | --- | --- | --- |")
    for x in runs:
        w("| %d | %d | %.1f | `%s` | %s |" % (x["ranks"], x["steps"], x["wall_s"], x["hash"],
                                           "yes" if x["same_stats"] else "**no**"))
    w("")
    w("`%s` (N = 1 to 4; the machine has 2 cores, so 3 and 4 ranks share them)" %
      runs[0]["command"].replace("-np 1", "-np N"))
    w("")


def render(m, ab):
    L = []
    w = L.append
    w(HEAD)
    w("")
    w("Measured %s at commit %s by `python3 bench/contact.py`%s. Each run writes the statistics of every step "
      "(`--stats FILE --every 1`): `crossings` is the particles inside a collider after the step, `min_gap` the "
      "smallest distance of a particle in contact from its collider's surface (docs/user-guide.md, \"Contact\"); "
      "the wall times are of one run each, on a 2-core %s (`hooke info`)." %
      (m["date"], m["commit"], " (--quick: a few steps)" if m["quick"] else "", m.get("cpu", "machine")))
    w("")
    w("| scene | threads | steps | wall s | s per step | CG iterations/step | largest crossings | smallest min_gap "
      "| goal | met | state hash |")
    w("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, what in (("plate", "512^2 cloth from 10 m onto a 1 mm plate, 1/240 s"),
                       ("drape", "cloth_drape: 256^2 cloth, table, ball, floor, 1/240 s")):
        for r in m["runs"][name]:
            th = THICKNESS[name]
            floor = 0 if name == "plate" else th / 4
            ok = r["rc"] == 0 and r.get("crossings") == 0 and r.get("min_gap") is not None and r["min_gap"] >= floor
            w("| %s | %d | %d | %.1f | %.3f | %s | %s | %s | crossings 0, min_gap >= %s m | %s | `%s` |" %
              (what, r["threads"], r["steps"], r["wall_s"], r["wall_s"] / max(r["steps"], 1), r["cg_per_step"] or "-",
               "%d" % r["crossings"] if "crossings" in r else "-",
               "%.3g m" % r["min_gap"] if r.get("min_gap") is not None else "-", "%g" % floor,
               "yes" if ok else "**no**", r["hash"]))
    d = m["runs"]["drape"]
    dt = d + m["runs"].get("drape_threads", [])
    w("")
    w("cloth_drape: the same state hash on %s threads: %s. Kinetic energy at the end %.3g J against its peak "
      "%.3g J (%.2g of it); largest stretch %.4f." %
      (", ".join(str(r["threads"]) for r in dt),
       "yes" if all(r["hash"] == d[0]["hash"] for r in dt) and d[0]["hash"] else "**no**",
       d[0].get("kinetic_end", float("nan")),
       d[0].get("kinetic_peak", float("nan")),
       d[0].get("kinetic_end", float("nan")) / d[0].get("kinetic_peak", float("nan")) if d[0].get("kinetic_peak")
       else float("nan"), d[0].get("max_stretch", float("nan"))))
    w("")
    if m.get("ranks"):
        render_ranks(m["ranks"], w)
    if m.get("settle"):
        render_settle(m["settle"], w)
    w("What colliders cost an explicit step where most of the cloth touches them: `scenes/cloth_box.scene` (2304 "
      "particles, 17 substeps of semi-implicit Euler a step) against the same scene without its colliders "
      "(best of 3 each):")
    w("")
    w("| threads | with colliders, s per step | without, s per step | ratio |")
    w("| --- | --- | --- | --- |")
    for a, b in zip(m["runs"]["box"], m["runs"]["box_bare"]):
        pa, pb = a["wall_s"] / max(a["steps"], 1), b["wall_s"] / max(b["steps"], 1)
        w("| %d | %.3g | %.3g | %.2f |" % (a["threads"], pa, pb, pa / pb))
    w("")
    render_pairs(m, w)
    if ab:
        w("A world without colliders steps as before: bench/ab.py, %d alternating rounds of the build before the "
          "colliders (A) against this one (B), throughput B/A (above 1: B faster):" % ab.get("rounds", 0))
        w("")
        w("| case | what | median B/A | range |")
        w("| --- | --- | --- | --- |")
        for c in ab["cases"]:
            w("| %s | `%s` | %.4f | %.4f .. %.4f |" % (c["name"], c["what"], c["median"], c["min"], c["max"]))
        w("")
        w("(`%s`, %s)" % (ab["command"].replace(ab["a"], "BASE").replace(ab["b"], "build"), ab["date"]))
        w("")
    w("Commands:")
    w("")
    for name in ("plate", "drape", "box", "box_bare"):
        for r in m["runs"][name][:1]:
            w("- `%s` (and `--threads 2`)" % r["command"].replace("--threads 1", "--threads N"))
    w("")
    return L


def main():
    args, build, out, src, quick, ab, mpi, settle = sys.argv[1:], "build", None, None, False, None, None, False
    self_rows = False
    while args:
        a = args.pop(0)
        if a in ("--ab", "--out", "--from", "--mpi") and not args:
            sys.exit(__doc__)
        if a == "--ab":
            ab = args.pop(0)
        elif a == "--out":
            out = args.pop(0)
        elif a == "--from":
            src = args.pop(0)
        elif a == "--mpi":
            mpi = args.pop(0)
        elif a == "--quick":
            quick = True
        elif a == "--settle":
            settle = True
        elif a == "--self":
            self_rows = True
        elif a.startswith("-"):
            sys.exit(__doc__)
        else:
            build = a
    bdir = os.path.join(ROOT, build) if not os.path.isabs(build) else build
    if src:
        with open(src) as f:
            m = json.load(f)
    else:
        m = measure(bdir, quick)
    if settle:
        m["settle"] = measure_settle(bdir, quick)
    if self_rows and src:  # a whole measurement has them already
        m["runs"]["self"] = measure_self(bdir, quick)
        m["self_at"] = {"date": datetime.date.today().isoformat(), "commit": commit_of(),
                        "cpu": cpu_of(os.path.join(bdir, "hooke"))}
    if mpi:
        m["ranks"] = measure_ranks(os.path.join(ROOT, mpi) if not os.path.isabs(mpi) else mpi, quick)
    abm = None
    if ab:
        with open(ab) as f:
            abm = json.load(f)
        m["ab"] = abm
    elif "ab" in m:
        abm = m["ab"]
    with open(os.path.join(bdir, "contact.json"), "w") as f:
        json.dump(m, f, indent=1)
    out = out or os.path.join(ROOT, "docs", "benchmarks.md")
    with open(out) as f:
        report = f.read()
    with open(out, "w") as f:
        f.write(splice(report, HEAD, render(m, abm)))
    print("wrote the section", HEAD[3:], "of", out)


if __name__ == "__main__":
    main()
