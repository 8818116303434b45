#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_json.py — the JSON hooke writes, read as its users' tools read it (Python's standard library only).

Usage: check_json.py test HOOKE [HOOKE_BENCH]
       check_json.py compare BASELINE.json CONTENDER.json

test: every file is read strictly (UTF-8, no duplicate keys, no NaN or
Infinity, no control characters in strings) and
- file names with a quote, a backslash, a tab, non-ASCII and a byte that is
  not UTF-8 round-trip through `hooke stability --out x.json` and
  `hooke bench --json/--gbench-json` (the byte as U+FFFD);
- `hooke bench --gbench-json` has Google Benchmark's shape: every field an
  entry of HOOKE_BENCH (given when bench/ was built) has, of the same JSON
  type, and the same hooke_* context; HOOKE_BENCH's entries carry no key
  twice and time values of at least 1 in their unit;
- two `hooke bench` runs compare as tools/compare.py compares them.
compare: prints what compare.py computes for two Google Benchmark JSON
files: per entry of the same name (and time unit) real_time before and after
and the relative changes of real_time and cpu_time, (new - old) / |old|; then
the geometric mean of real_time new/old over the repetitions.
Exit status 0 when all holds.
"""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENE = os.path.join(ROOT, "scenes", "oscillator.scene")
# Google Benchmark's fields of a benchmark entry (run_type "iteration"), not counters
GBENCH_FIELDS = ("name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
                 "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit")
# the hooke_* context both benchmark programs write (bench/shim.cpp, hooke bench --gbench-json)
BUILD_CONTEXT = ("hooke_version", "hooke_precision", "hooke_kernels", "hooke_build_type", "hooke_compiler",
                 "hooke_c_flags", "hooke_omp_max_threads")
SECONDS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
# what an entry needs to be compared (compare.py's is_potentially_comparable_benchmark)
TIMES = ("time_unit", "real_time", "cpu_time")


def fail(msg):
    print("check_json: FAIL: " + msg)
    sys.exit(1)


def strict_load(path):
    """The file as JSON, refusing what a lenient reader lets through."""
    def no_duplicates(pairs):
        keys = [k for k, _ in pairs]
        dup = sorted({k for k in keys if keys.count(k) > 1})
        if dup:
            raise ValueError("%s: key(s) %s twice in one object" % (path, ", ".join(dup)))
        return dict(pairs)

    def no_constant(word):
        raise ValueError("%s: %s is not JSON" % (path, word))

    with open(path, "rb") as f:
        text = f.read().decode("utf-8")  # strict: invalid UTF-8 raises
    return json.loads(text, strict=True, object_pairs_hook=no_duplicates, parse_constant=no_constant)


def run(cmd, env=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=dict(os.environ, OMP_WAIT_POLICY="passive", **(env or {})))
    if p.returncode != 0:
        fail("%r exited %d:\n%s%s" % (cmd, p.returncode, p.stdout.decode(errors="replace"),
                                      p.stderr.decode(errors="replace")))
    return p


def expect(what, got, want):
    if got != want:
        fail("%s: got %r, want %r" % (what, got, want))


# ---- compare.py's arithmetic ------------------------------------------------

def change(old, new):
    """compare.py's calculate_change."""
    if old == 0 and new == 0:
        return 0.0
    if old == 0:
        return float(new - old) / (float(old + new) / 2)
    return float(new - old) / abs(old)


def compare(a, b):
    """Per name in both (in a's order; both sides' entries with the time unit of a's first), pair by pair:
    (name, real_time change, cpu_time change, old real_time, new real_time, time unit); then the geometric
    mean of new/old real_time in seconds over the entries that are not aggregates."""
    def order(doc):
        return sorted(doc["benchmarks"], key=lambda e: (e.get("family_index", -1), e.get("per_family_instance_index", -1),
                                                         e.get("run_type") == "aggregate", e.get("repetition_index", -1)))
    ea, eb = order(a), order(b)
    names = []
    for e in ea:
        if e["name"] not in names:
            names.append(e["name"])
    rows, ratios = [], []
    for name in names:
        # the time unit of the first entry of the name that has times; then both sides' entries of that unit
        unit = next((e["time_unit"] for e in ea if e["name"] == name and all(k in e for k in TIMES)), None)
        lhs = [e for e in ea if e["name"] == name and e.get("time_unit") == unit]
        rhs = [e for e in eb if e["name"] == name and e.get("time_unit") == unit]
        for x, y in zip(lhs, rhs):
            rows.append((name, change(x["real_time"], y["real_time"]), change(x["cpu_time"], y["cpu_time"]),
                         x["real_time"], y["real_time"], unit))
            if x.get("run_type") != "aggregate":
                ratios.append((y["real_time"] * SECONDS[unit]) / (x["real_time"] * SECONDS[unit]))
    geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else float("nan")
    return rows, geomean


def print_comparison(a, b):
    """One line per compared entry (single spaces between fields, so the lines keep their shape), then the mean."""
    rows, geomean = compare(a, b)
    for name, t, c, old, new, unit in rows:
        print("%s  real_time %.0f -> %.0f %s (%+.4f)  cpu_time (%+.4f)" % (name, old, new, unit, t, c))
    print("geometric mean of real_time new/old over the repetitions: %.4f (%+.4f)" % (geomean, geomean - 1))
    return rows


# ---- the checks -------------------------------------------------------------

def check_names(hooke, tmp):
    """Odd file names: the scene field of each JSON output is the name, exactly."""
    names = ['we"ird\\dir-\u00e9', "tab\there", "\u96ea-\U0001d11e", b"not-utf8-\xff"]
    for name in names:
        d = os.path.join(os.fsencode(tmp), name if isinstance(name, bytes) else os.fsencode(name))
        os.mkdir(d)
        scene = os.path.join(d, b"oscillator.scene")
        shutil.copy(SCENE, scene)
        # what the JSON must say: the bytes as UTF-8, each byte that is not UTF-8 as U+FFFD
        want = scene.decode("utf-8", errors="replace")
        out = os.path.join(d, b"prof.json")
        run([hooke, "stability", scene, "--integrators", "verlet", "--time", "0.2", "--dt-min", "0.01",
             "--dt-max", "0.1", "--points", "2", "--threads", "1", "--quiet", "--out", out])
        doc = strict_load(out)
        expect("stability --out: scene", doc["scene"], want)
        expect("stability --out: integrators", [i["name"] for i in doc["integrators"]], ["verlet"])
        js, gb = os.path.join(d, b"bench.json"), os.path.join(d, b"gbench.json")
        run([hooke, "bench", scene, "--threads", "1", "--repeat", "2", "--steps", "3", "--warmup", "1",
             b"--json=" + js, b"--gbench-json=" + gb])
        doc = strict_load(js)
        expect("bench --json: scene", doc["scene"], want)
        expect("bench --json: problem", doc["problem"], want)
        doc = strict_load(gb)
        expect("bench --gbench-json: hooke_problem", doc["context"]["hooke_problem"], want)
        expect("bench --gbench-json: first name", doc["benchmarks"][0]["name"], want + "/strong/threads:1")
    print("check_json: %d odd file names round-trip through stability --out, bench --json and --gbench-json"
          % len(names))


# Google Benchmark's fields that are whole numbers (it writes the times as numbers with a fraction or exponent)
GBENCH_INTEGERS = ("family_index", "per_family_instance_index", "repetitions", "repetition_index", "threads",
                   "iterations")


def json_type(k, v):
    """The JSON type of v, "integer" for the fields Google Benchmark writes as whole numbers."""
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "integer" if k in GBENCH_INTEGERS and isinstance(v, int) else "number"
    return type(v).__name__


def check_entries(doc, what):
    """Google Benchmark's fields in every entry, with their types; counters are numbers."""
    if set(doc) != {"context", "benchmarks"}:
        fail("%s: top-level keys %s" % (what, sorted(doc)))
    for e in doc["benchmarks"]:
        agg = e.get("run_type") == "aggregate"
        for k in GBENCH_FIELDS:
            if k not in e and not (agg and k == "repetition_index"):
                fail("%s: %s has no %s" % (what, e.get("name"), k))
        if e["time_unit"] not in SECONDS:
            fail("%s: %s: time_unit %r" % (what, e["name"], e["time_unit"]))
        if not (isinstance(e["real_time"], (int, float)) and e["real_time"] >= 1):
            fail("%s: %s: real_time %r is below 1 %s (compare.py prints it as 0)" % (what, e["name"], e["real_time"],
                                                                                   e["time_unit"]))
        for k, v in e.items():
            if k not in GBENCH_FIELDS and k not in ("aggregate_name", "aggregate_unit") and json_type(k, v) != "number":
                fail("%s: %s: counter %s is %r, not a number" % (what, e["name"], k, v))


def check_gbench(hooke, hooke_bench, tmp):
    files = []
    for run_no in (1, 2):
        path = os.path.join(tmp, "run%d.json" % run_no)
        run([hooke, "bench", "--builtin", "cloth", "--size", "24", "--threads", "1,2", "--repeat", "3", "--steps",
             "20", "--warmup", "1", "--gbench-json", path])
        doc = strict_load(path)
        check_entries(doc, "hooke bench --gbench-json")
        files.append(doc)
    a = files[0]
    names = [e["name"] for e in a["benchmarks"]]
    expect("entry names", names, ["cloth/n:24/strong/threads:1"] * 3 + ["cloth/n:24/strong/threads:1_median"]
           + ["cloth/n:24/strong/threads:2"] * 3 + ["cloth/n:24/strong/threads:2_median"])
    for e in a["benchmarks"]:
        expect(e["name"] + ": omp_threads", e["omp_threads"], int(e["run_name"].rsplit(":", 1)[1]))
        expect(e["name"] + ": iterations", e["iterations"], 20)
        expect(e["name"] + ": threads", e["threads"], 1)
        # items_per_second is the spring updates of a step over its time
        ips = e["spring_updates_per_step"] / (e["real_time"] * SECONDS[e["time_unit"]])
        if abs(e["items_per_second"] - ips) > 1e-6 * ips:
            fail("%s: items_per_second %r, real_time says %r" % (e["name"], e["items_per_second"], ips))
    for k in BUILD_CONTEXT + ("date", "num_cpus", "caches", "hooke_cpu_isa", "hooke_mask", "hooke_omp_env",
                              "hooke_problem", "hooke_verification"):
        if k not in a["context"]:
            fail("hooke bench --gbench-json: context has no %s" % k)
    expect("hooke_verification", a["context"]["hooke_verification"], "VALID")
    rows = print_comparison(files[0], files[1])
    expect("compared entries", len(rows), len(a["benchmarks"]))
    if not all(math.isfinite(t) and math.isfinite(c) for _, t, c, _, _, _ in rows):
        fail("a relative difference is not finite")
    # the other way round, each against itself: every change 0
    if any(t != 0 or c != 0 for _, t, c, _, _, _ in compare(a, a)[0]):
        fail("a run compared with itself changed")

    if not hooke_bench:
        print("check_json: bench/ not built (HOOKE_BENCH=OFF): hooke_bench's JSON not compared")
        return
    p = run([hooke_bench, "--benchmark_filter=^cloth_force/reference/n:48/", "--benchmark_min_time=0.001",
             "--benchmark_format=json"])
    path = os.path.join(tmp, "hooke_bench.json")
    with open(path, "wb") as f:
        f.write(p.stdout)
    g = strict_load(path)  # a key twice (the old "threads" counter) fails here
    check_entries(g, "hooke_bench")
    for e in g["benchmarks"]:
        expect(e["name"] + ": omp_threads", e["omp_threads"], float(e["name"].split("/threads:")[1].split("/")[0]))
        for k in GBENCH_FIELDS:
            expect("%s: JSON type of %s in hooke bench's entries" % (e["name"], k),
                   json_type(k, a["benchmarks"][0][k]), json_type(k, e[k]))
    for k in BUILD_CONTEXT:
        if k not in g["context"]:
            fail("hooke_bench: context has no %s" % k)
        if k != "hooke_omp_max_threads":
            expect("context " + k + " (hooke_bench against hooke bench)", g["context"][k], a["context"][k])
    print("check_json: hooke_bench's entries and context match hooke bench --gbench-json's")
    # an unknown kernel path is refused, naming the valid ones
    p = subprocess.run([hooke_bench, "--benchmark_list_tests"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=dict(os.environ, HOOKE_KERNELS="avx1024"))
    if p.returncode == 0 or b"HOOKE_KERNELS=avx1024: expected reference, scalar, avx2 or avx512" not in p.stderr:
        fail("hooke_bench with HOOKE_KERNELS=avx1024: exit %d, stderr %r" % (p.returncode, p.stderr))


def main(argv):
    if len(argv) == 4 and argv[1] == "compare":
        print_comparison(strict_load(argv[2]), strict_load(argv[3]))
        return 0
    if len(argv) not in (3, 4) or argv[1] != "test":
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 1
    hooke, hooke_bench = argv[2], argv[3] if len(argv) == 4 else None
    with tempfile.TemporaryDirectory() as tmp:
        check_names(hooke, tmp)
        check_gbench(hooke, hooke_bench, tmp)
    print("check_json: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
