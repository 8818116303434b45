#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_ptx.py — the device drivers' PTX keeps the CPU's arithmetic: every float operation correctly rounded.

usage: python3 tests/check_ptx.py BUILD_DIR [--require openmp,cuda]

Reads the PTX each GPU driver of the device backend became in BUILD_DIR/device_ptx (device.cmake: the OpenMP
driver's as gcc's offload assembler wrote it through device_as.sh, the CUDA driver's as nvcc writes it with the
module's flags) and checks, instruction by instruction, what docs/determinism.md ("On a GPU") promises:

- every add, sub and mul on f32 or f64 carries .rn (written without it, PTX lets the driver's compiler fuse a multiply
  and an add into one rounding); every fma is fma.rn (the engine's own fused multiply-adds, hk_fma: the CPU rounds
  them once too); div, sqrt and rcp are .rn (correctly rounded, never .approx or .full); no mad, no rsqrt, no
  ex2, lg2, sin, cos or tanh (approximations); a conversion to f32 from f64 rounds .rn;
- every single-precision operation that can meet a subnormal (arithmetic, comparisons, min, max and conversions
  between f32 and f64) carries .ftz, the CPU solver's flush to zero (core/world/fpmode.h);
- the contraction probe (dev_pass.h hkd_contract_probe, q * 1.25 + 0.3125) is a mul and an add in each driver, no
  fma: the build's -ffp-contract=off (nvcc: -fmad=false) reached the device's compiler.

A driver this build has must have its PTX. Exit 0 when every file passes, 1 with each offending line, 77 (CTest's
skip) when the build has neither driver, saying why.
"""
import os
import re
import sys

FLOAT_OP = re.compile(r"^\s*(?:@!?%\w+\s+)?([a-z][a-z0-9]*(?:\.[a-z0-9]+)*)\s")
ARITH = {"add", "sub", "mul", "fma", "div", "sqrt", "rcp"}
FORBIDDEN = {"mad", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh", "madc"}
# the probe's constants as PTX writes them: 1.25f and 0.3125f
PROBE_MUL = "0f3FA00000"
PROBE_ADD = "0f3EA00000"


def check_line(op, text):
    """The rule op (e.g. 'mul.rn.ftz.f32') breaks, or None."""
    parts = op.split(".")
    base, mods = parts[0], parts[1:]
    types = [m for m in mods if re.fullmatch(r"[fsub]\d+", m)]
    floats = [t for t in types if t.startswith("f")]
    if not floats:
        return None
    if base in FORBIDDEN or "approx" in mods or "full" in mods:
        return "an approximate operation (%s): the CPU rounds correctly" % op
    f32 = types and types[0] == "f32"
    if base in ARITH:
        if "rn" not in mods:
            return "%s without .rn: the driver's compiler may fuse it into a multiply-add" % op
        if f32 and "ftz" not in mods:
            return "%s without .ftz: the CPU flushes subnormals (fpmode.h)" % op
        return None
    if base == "cvt":
        dst, src = (types + [None, None])[:2]
        if dst == "f32" and src == "f64" and not ("rn" in mods and "ftz" in mods):
            return "%s: a conversion to f32 must round .rn and flush .ftz" % op
        if dst == "f64" and src == "f32" and "ftz" not in mods:
            return "%s: a conversion from f32 must flush .ftz (the CPU reads subnormals as zero)" % op
        return None
    if base in ("setp", "min", "max") and f32 and "ftz" not in mods:
        return "%s without .ftz: the CPU reads subnormals as zero" % op
    return None


def check_file(path):
    """(problems, float operations seen, probe found as mul + add)"""
    problems, seen = [], 0
    lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    probe_mul = probe_add = probe_fma = False
    for n, line in enumerate(lines, 1):
        code = line.split("//")[0]
        m = FLOAT_OP.match(code)
        if not m:
            continue
        op = m.group(1)
        why = check_line(op, code)
        if re.search(r"\.f(32|64)\b", op):
            seen += 1
        if why:
            problems.append("%s:%d: %s: %s" % (path, n, why, line.strip()))
        base = op.split(".")[0]
        low = code.lower()
        if PROBE_MUL.lower() in low and base == "mul":
            probe_mul = True
        if PROBE_ADD.lower() in low and base == "add":
            probe_add = True
        if PROBE_MUL.lower() in low and base == "fma":
            probe_fma = True
    return problems, seen, probe_mul and probe_add and not probe_fma


def main():
    if len(sys.argv) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    build = sys.argv[1]
    require = []
    if len(sys.argv) > 3 and sys.argv[2] == "--require":
        require = [r for r in sys.argv[3].split(",") if r]
    root = os.path.join(build, "device_ptx")
    drivers = {}
    for driver in ("openmp", "cuda"):
        d = os.path.join(root, driver)
        files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".ptx")) if os.path.isdir(d) else []
        if files:
            drivers[driver] = files
    failed = False
    for driver in require:
        if driver not in drivers:
            print("check_ptx: this build has the %s driver but no PTX of it in %s" % (driver, root))
            failed = True
    if not drivers:
        print("check_ptx: skipped: this build has no GPU driver (device.cmake: gcc without its nvptx offload compiler, "
              "no nvcc)")
        return 1 if failed else 77
    for driver, files in sorted(drivers.items()):
        seen, probes = 0, 0
        for f in files:
            problems, n, probe = check_file(f)
            seen += n
            probes += probe
            for p in problems:
                print(p)
                failed = True
        if probes == 0:
            print("check_ptx: %s: no contraction probe as a mul and an add (q * 1.25 + 0.3125, dev_pass.h): fused, "
                  "or gone" % driver)
            failed = True
        if seen == 0:
            print("check_ptx: %s: no float operation at all in %s" % (driver, ", ".join(files)))
            failed = True
        print("check_ptx: %s: %d float operations in %d file(s)%s" % (driver, seen, len(files),
                                                                      "" if failed else ", every one as the CPU rounds"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
