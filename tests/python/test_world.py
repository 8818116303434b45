# test_world.py — a World built from every shipped scene steps to hooke run's state hash; its facts match the scene.
# SPDX-License-Identifier: MIT
import glob
import os
import re

import pytest

import hooke
from conftest import ROOT, SCENES, program_hash

SHIPPED = sorted(glob.glob(os.path.join(SCENES, "*.scene")))
STEPS = 3


def test_scenes_are_shipped():
    assert len(SHIPPED) >= 20


@pytest.mark.parametrize("scene", SHIPPED, ids=os.path.basename)
def test_state_hash_equals_hooke_run(scene):
    w = hooke.World.from_scene(scene)
    start = w.state_hash
    w.step(STEPS)
    assert w.step_count == STEPS
    assert w.state_hash != start
    assert w.state_hash == program_hash(scene, STEPS)


def test_step_one_at_a_time_equals_step_n(scene_path):
    a = hooke.World.from_scene(scene_path("rope.scene"))
    b = hooke.World.from_scene(scene_path("rope.scene"))
    for _ in range(7):
        a.step()
    b.step(7)
    assert a.state_hash == b.state_hash
    assert a.time == pytest.approx(7 / 60, rel=1e-12)


def test_run_follows_the_plan_and_calls_back(scene_path):
    w = hooke.World.from_scene(scene_path("rope.scene"))
    plan = w.run_plan
    assert plan == {"steps": 300, "every": 3, "stretch_limit": 10.0, "every_given": False}
    seen = []
    taken = w.run(steps=12, every=5, callback=lambda world: seen.append(world.step_count))
    assert taken == 12 and seen == [5, 10]
    assert w.state_hash == program_hash(scene_path("rope.scene"), 12)
    assert w.run(steps=12) == 0  # the end is a step counted from 0, as hooke run --steps


def test_from_string_equals_from_scene(scene_path):
    path = scene_path("pendulum.scene")
    with open(path) as f:
        text = f.read()
    a = hooke.World.from_string(text, name=path)
    b = hooke.World.from_scene(path)
    a.step(5)
    b.step(5)
    assert a.state_hash == b.state_hash


def test_facts(scene_path):
    w = hooke.World.from_scene(scene_path("rope.scene"))
    assert hooke.__version__ == program_version()
    assert hooke.precision in ("float", "double")
    assert w.bodies == [{"kind": "rope", "first": 0, "count": 80, "shape": (80, 1, 1), "springs": 79,
                        "origin": (0.0, 0.0, 0.0)}]
    fam = w.families
    assert [f["name"] for f in fam] == ["chain"] and fam[0]["springs"] == 79 and fam[0]["k"] == 10000
    assert w.integrator["name"] == "semi_implicit_euler" and w.integrator["substeps"] == 9
    assert w.run_settings["time"] == 5
    s = w.stats()
    assert s["total"] == pytest.approx(s["kinetic"] + s["gravity"] + s["spring"])
    w.set_integrator("rk4", dt=0.001)
    assert w.integrator["name"] == "rk4" and w.integrator["dt"] == 0.001
    with pytest.raises(ValueError):
        w.set_integrator("no_such_integrator")
    # every setting by name, each into its own field (an int read as a double would spill into the next)
    w.set_integrator("implicit_euler", dt=0.002, dt_max=0.001, cg_tolerance=1e-6, cg_max_iterations=77,
                     newton_iterations=3)
    got = w.integrator
    assert (got["dt"], got["dt_max"], got["cg_tolerance"], got["cg_max_iterations"], got["newton_iterations"]) == \
        (0.002, 0.001, 1e-6, 77, 3)
    w.set_integrator("bdf2", newton_iterations=0, newton_tolerance=1e-4)
    assert w.integrator["newton_tolerance"] == 1e-4 and w.integrator["cg_max_iterations"] == 77
    assert (w.integrator["cg_stop"], w.integrator["cg_preconditioner"]) == ("force", "multigrid")
    w.set_integrator("implicit_euler", newton_iterations=0, cg_stop="newton", cg_preconditioner="block_jacobi")
    assert (w.integrator["cg_stop"], w.integrator["cg_preconditioner"]) == ("newton", "block_jacobi")
    with pytest.raises(ValueError, match="argument 'cg_stop': expected one of force, relative, energy, newton, got 'nope'"):
        w.set_integrator("implicit_euler", cg_stop="nope")
    with pytest.raises(ValueError, match="cg_stop newton is the minimising integrators'"):
        w.set_integrator("trapezoidal", cg_stop="newton")
    w.set_integrator("trapezoidal")  # the newton rule is the minimisation's: the default for a step without one
    assert (w.integrator["cg_stop"], w.integrator["cg_preconditioner"]) == ("force", "block_jacobi")
    w.set_integrator("xpbd", iterations=4)
    assert w.integrator["name"] == "xpbd" and w.integrator["iterations"] == 4
    w.step()
    w.set_integrator("rk4")  # iterations is xpbd's: dropped for an integrator that does not sweep
    assert w.integrator["iterations"] == 0
    with pytest.raises(ValueError, match="iterations is the iterated"):
        w.set_integrator("rk4", iterations=3)
    w.set_integrator("vbd", iterations=4, chebyshev_rho=0.9)
    assert w.integrator["chebyshev_rho"] == 0.9
    w.step()
    w.set_integrator("xpbd")  # the acceleration is vbd's: dropped for an integrator that has none
    assert w.integrator["chebyshev_rho"] == 0
    with pytest.raises(ValueError, match=r"chebyshev_rho is the accelerated integrators' \(vbd\)"):
        w.set_integrator("xpbd", chebyshev_rho=0.5)
    with pytest.raises(ValueError, match=r"chebyshev_rho must be in \(0, 1\)"):
        w.set_integrator("vbd", chebyshev_rho=1.0)


def program_version():
    from conftest import run_program

    _, out, _ = run_program("--version", check_rc=0)
    return out.split()[1]


def test_the_package_carries_the_program(scene_path):
    """hooke/bin/hooke, the program the tools run, is the program built from the same sources: its version and its
    state hash of a scene are the build's."""
    import os
    import subprocess

    program = os.path.join(os.path.dirname(hooke.__file__), "bin", "hooke")
    assert os.access(program, os.X_OK)
    out = subprocess.run([program, "--version"], capture_output=True, text=True, check=True).stdout
    assert out.split()[1] == hooke.__version__
    out = subprocess.run([program, "run", scene_path("rope.scene"), "--steps", "20", "--quiet"], capture_output=True,
                         text=True, check=True).stdout
    assert "state_hash=0x%016x" % program_hash(scene_path("rope.scene"), 20) in out


def test_every_method_has_a_signature():
    """inspect.signature reads each method's text signature (the first lines of its docstring)."""
    import inspect

    methods = [getattr(hooke.World, n) for n in dir(hooke.World) if not n.startswith("_")]
    methods = [m for m in methods if callable(m)] + [hooke._hooke._step_batch, hooke._hooke.scene_tables]
    assert len(methods) >= 12
    for m in methods:
        sig = inspect.signature(m)
        if not inspect.isfunction(m):  # a text signature's first parameter (set_contact has a key named self)
            assert "self" not in list(sig.parameters)[1:], m
    assert str(inspect.signature(hooke.World.step)) == "(self, /, n=1)"
    assert str(inspect.signature(hooke.World.from_string)) == "(text, name='<scene>', threads=0)"


def test_the_guide_lists_every_method():
    """docs/python.md's API table (its first column) names every public method and property of World and Batch, and the table
    or the list of errors under it every name the package exports: a method without a row fails here."""
    doc = open(os.path.join(ROOT, "docs", "python.md"), encoding="utf-8").read()
    table = doc.split("## The API in brief", 1)[1].split("\n## ", 1)[0]
    firsts = [line.split(" | ")[0] for line in table.splitlines() if line.startswith("| `")]
    firsts += [line.split(":")[0] for line in table.splitlines() if line.startswith("- `")]
    named = set()
    for cell in firsts:
        for code in re.findall(r"`([^`]+)`", cell):
            m = re.match(r"(?:world\.|batch\.|hooke\.World\.|hooke\.Batch\.|hooke\.)?(\w+)", code)
            named.add(m.group(1))
    for cls in (hooke.World, hooke.Batch):
        public = [n for n in dir(cls) if not n.startswith("_")]
        assert [n for n in public if n not in named] == [], cls
    assert [n for n in hooke.__all__ if n not in named] == []
