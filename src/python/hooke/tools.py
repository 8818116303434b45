# tools.py — the program's commands from Python: hooke stability and hooke bench as dicts, and the library's tables.
# SPDX-License-Identifier: MIT
"""hooke.stability() and hooke.bench() run `hooke stability` and `hooke bench`
(the program the package carries in its bin/ folder, built from the same
sources) and return the dict their JSON file holds; hooke.integrators(),
hooke.body_kinds() and hooke.scene_keys() return the tables `hooke info
--list` prints.

A keyword option is the command's option of the same name with "_" for "-"
(dt_min=1e-3 is --dt-min 1e-3): the names, and which of them are switches,
come from the command's own option table (the one its --help prints), so an
option the program gains is an option here with no edit. True gives a switch,
False or None leaves an option out, a list or tuple is joined with commas
(integrators=["rk4", "verlet"], threads=[1, 2]). A name the command does not
have is a TypeError; a value it refuses, or any other failure, raises
hooke.Error with the program's message (str(e)) and its exit status
(e.status).

The program runs as a child process: its table is not printed (the dict
holds its numbers) and its error message becomes the exception's. Calls
from several Python threads run at once; Ctrl-C stops the program and
raises KeyboardInterrupt.
"""
import functools
import json
import os
import re
import subprocess
import sys
import tempfile

from ._hooke import Error

__all__ = ["stability", "bench", "integrators", "body_kinds", "scene_keys"]

_PROGRAM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "hooke")


def _command(args):
    """(exit status, stdout, stderr) of the package's program `hooke ARGS...`."""
    if not os.access(_PROGRAM, os.X_OK):
        raise Error(f"hooke: the program {_PROGRAM} is missing (the package is incomplete: install it again)")
    for stream in (sys.stdout, sys.stderr):  # what Python holds goes out first
        if stream is not None:
            stream.flush()
    r = subprocess.run([_PROGRAM, *(str(a) for a in args)], capture_output=True, stdin=subprocess.DEVNULL)
    return r.returncode, r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace")


def _failed(command, status, message):
    """hooke.Error with the program's message and its exit status."""
    e = Error(message.strip() or f"hooke {command} failed with exit status {status}")
    e.status = status
    return e


@functools.lru_cache(maxsize=None)
def _options(command):
    """{name: whether it takes a value} of a command's options, from the table its --help prints."""
    status, out, err = _command([command, "--help"])
    if status != 0:
        raise _failed(command, status, err)
    # hk_opt_print's rows: "  --NAME VALUE   help" (VALUE only for an option that takes one); "  -h, --help" last
    return {m.group(1): m.group(2) is not None for m in re.finditer(r"^  --([a-z0-9-]+)( [A-Z]\S*)?", out, re.M)}


def _flags(command, options, own):
    """The command line of keyword options, against the command's table; `own`: the options the caller sets."""
    table = _options(command)
    args = []
    for key, value in options.items():
        name = key.replace("_", "-")
        if name not in table or name in own:
            known = ", ".join(n.replace("-", "_") for n in table if n not in own)
            raise TypeError(f"{command}() got an unexpected keyword argument '{key}' (hooke {command}'s: {known})")
        if value is None or value is False:
            continue
        if not table[name]:
            if value is not True:
                raise TypeError(f"{command}(): {key} is a switch: True or False, not {value!r}")
            args.append(f"--{name}")
            continue
        if value is True:
            raise TypeError(f"{command}(): {key} takes a value, not True")
        if isinstance(value, (list, tuple)):
            value = ",".join(str(v) for v in value)
        elif isinstance(value, os.PathLike):
            value = os.fspath(value)
        args.append(f"--{name}={value}")
    return args


def stability(scene, **options):
    """The stability profile of SCENE, as `hooke stability SCENE --out FILE.json` writes it: {"scene", "omega_max"
    [rad/s], "analytic", "reference": the converged reference (None with reference=0) {"integrator", "dt" [s],
    "dt_min_over", "cg_stop", "cg_tolerance", "newton_iterations", "failed" (None, or why it did not finish),
    "size_m" [m], "own_error_m" [m], "own_error_rel", "max_stretch", "cpu_s_per_sim_s" [s/s], "cg_per_step"},
    "integrators": [{"name", "stable_dt_max" [s] (None: none found in the sweep, or above it), "sweep": [{"dt" [s],
    "stable", "energy_drift_per_s" [1/s], "max_error" [m], "ref_error_m" [m] (RMS distance of the free particles
    from the reference, the largest at the end of each quarter of the first `time` seconds), "ref_error_rel" (over
    the bodies' size), "max_stretch" (the largest r / L0 then), "cpu_s_per_sim_s" [s/s] (the run's CPU time per
    simulated second), "cg_per_step" (CG iterations per step; 0 for an explicit integrator)}]}]}; numbers an
    unstable run leaves undefined are None. Options as the command's: integrators, dt_min, dt_max [s], points,
    time [s], reference, threads, plot (a file), quiet."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "stability.json")
        args = ["stability", *_flags("stability", options, {"out"}), "--quiet", f"--out={path}", "--", scene]
        status, _, err = _command(args)
        if status != 0:
            raise _failed("stability", status, err)
        with open(path, encoding="utf-8") as f:
            return json.load(f)


def bench(scene=None, **options):
    """The figure of merit, as `hooke bench [SCENE] --json FILE` writes it (the machine, the build, per thread count
    the times [ms per step] and spring updates per second, "verification"). Options as the command's: builtin, size,
    threads (a count or a list), sweep, strong, weak, repeat, steps, warmup, gbench_json, ranks. A run that fails its
    verification (INVALID, exit status 2) raises hooke.Error with the verification's lines; its dict is e.result."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "bench.json")
        args = ["bench", *_flags("bench", options, {"json"}), f"--json={path}"]
        if scene is not None:
            args += ["--", scene]
        status, out, err = _command(args)
        result = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                result = json.load(f)
        if status != 0:
            verification = "\n".join(line for line in out.splitlines() if line.startswith(("verify", "INVALID")))
            e = _failed("bench", status, "\n".join(s for s in (err.strip(), verification) if s))
            e.result = result
            raise e
        return result


def _listing(what):
    """The rows `hooke info --list WHAT` prints, each split into words."""
    status, out, err = _command(["info", f"--list={what}"])
    if status != 0:
        raise _failed("info", status, err)
    return [line.split() for line in out.splitlines() if line.strip()]


def integrators():
    """The integrators in the library's table order: [{"name", "alias" (a second accepted name, or None)}]; a name
    or alias is what World.set_integrator, a scene's `integrator` key and stability(integrators=...) take."""
    return [{"name": row[0], "alias": row[1] if len(row) > 1 else None} for row in _listing("integrators")]


def body_kinds():
    """{kind: [spring family, ...]}: the scene format's body kinds, in the table's order, with the families a
    `springs` line in the body names (docs/scene-format.md)."""
    return {row[0]: row[1:] for row in _listing("bodies")}


def scene_keys():
    """{section: [key, ...]}: every key of the scene format by section (world, run, ground, walls, contact,
    springs, "body KIND", ...), in the format's tables' order."""
    keys = {}
    for row in _listing("keys"):
        keys.setdefault(" ".join(row[:-1]), []).append(row[-1])
    return keys
