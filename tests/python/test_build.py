# test_build.py — worlds built in code: every shipped scene rebuilt by the builders steps to the scene's own bits.
# SPDX-License-Identifier: MIT
import inspect
import os
import re

import numpy as np
import pytest

import hooke
from conftest import ROOT, SCENES

def _word(w):
    """A scene word as Python would give it: an int, a float or a name."""
    if re.fullmatch(r"[+-]?\d+", w):
        return int(w)
    try:
        return float(w)
    except ValueError:
        return w


def _values(words):
    vals = [_word(w) for w in words]
    return vals[0] if len(vals) == 1 else tuple(vals)


def _sections(path):
    """The scene's sections: [(head words, [(key, words)])], comments and blank lines dropped."""
    out, cur = [], None
    for raw in open(path, encoding="utf-8"):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        if cur is None:
            cur = (words, [])
        elif words == ["end"]:
            out.append(cur)
            cur = None
        else:
            cur[1].append((words[0], words[1:]))
    return out


def _springs(lines):
    """{family: {key: value}} of a section's springs lines."""
    fams = {}
    for key, words in lines:
        if key == "springs":
            fams[words[0]] = {words[i]: _word(words[i + 1]) for i in range(1, len(words), 2)}
    return fams


def build(path):
    """The scene at path, built by World(...) and its add_* methods: the calls a user would write."""
    folder = os.path.dirname(path)
    secs = _sections(path)
    settings = {}
    for head, lines in secs:
        if head[0] == "world":
            settings.update({k: _values(v) for k, v in lines})
        elif head[0] in ("ground", "walls"):
            settings[head[0]] = {k: _values(v) for k, v in lines}
    settings.pop("threads", None)
    w = hooke.World(**settings)
    for head, lines in secs:
        keys = {k: _values(v) for k, v in lines if k not in ("springs", "point", "spring")}
        if "file" in keys:
            keys["file"] = os.path.join(folder, keys["file"])
        if "pin" in keys and not isinstance(keys["pin"], tuple):
            keys["pin"] = [keys["pin"]]
        fams = _springs(lines)
        if head[0] == "body" and head[1] == "points":
            pts = [[float(x) for x in v] for k, v in lines if k == "point"]
            pos = np.array([p[:3] for p in pts])
            mass = np.array([p[3] for p in pts])
            vel = np.array([p[4:7] if len(p) > 4 else [0.0, 0.0, 0.0] for p in pts])
            pairs, names, rest = [], [], []
            for k, v in lines:
                if k != "spring":
                    continue
                pairs.append([int(v[0]), int(v[1])])
                rest_at = v.index("rest_length") if "rest_length" in v else len(v)
                names.append(v[2] if rest_at > 2 else None)
                rest.append(float(v[rest_at + 1]) if rest_at < len(v) else 0.0)
            w.add_points(pos, mass, vel if any(len(p) > 4 for p in pts) else None,
                         pairs=np.array(pairs, dtype=np.int64).reshape(-1, 2) if pairs else None,
                         families=names if pairs else None, rest_lengths=rest if pairs else None,
                         springs=fams or None, pin=keys.get("pin"))
        elif head[0] == "body":
            getattr(w, f"add_{head[1]}")(**keys, **({"springs": fams} if fams else {}))
        elif head[0] == "sphere":
            w.add_sphere(**keys)
        elif head[0] == "collider":
            w.add_collider(**keys)
        elif head[0] == "contact":
            w.set_contact(**keys)
    return w


def _scenes():
    return sorted(f for f in os.listdir(SCENES) if f.endswith(".scene"))


@pytest.mark.parametrize("name", _scenes())
def test_built_in_code_steps_as_its_scene(name):
    """Every shipped scene (every body kind, spheres, colliders, contact) rebuilt by the builders: the same particles,
    springs and bodies, and after 10 steps the same state hash as the scene's world."""
    path = os.path.join(SCENES, name)
    ref = hooke.World.from_scene(path)
    w = build(path)
    assert hooke.World is type(w) and isinstance(ref, hooke.World)
    assert [b["kind"] for b in w.bodies] == [b["kind"] for b in ref.bodies]
    assert (w.positions.shape, len(w.rest_lengths)) == (ref.positions.shape, len(ref.rest_lengths))
    assert w.state_hash == ref.state_hash
    settings = {k: v for k, v in ref.integrator.items() if k not in ("name", "substeps")}
    w.set_integrator(ref.integrator["name"], **settings)
    assert w.integrator == ref.integrator
    ref.step(10)
    w.step(10)
    assert w.state_hash == ref.state_hash


def test_builders_take_the_format_keys():
    """Each add_KIND takes exactly the keys of `body KIND` (and springs where it has families), from the tables;
    every key of every table has its unit in the docstrings' column, as the format's tables give it."""
    keys, bodies = hooke._hooke.scene_tables()
    for kind, families in bodies.items():
        if kind == "points":
            continue
        params = list(inspect.signature(getattr(hooke.World, f"add_{kind}")).parameters)[1:]
        assert params == keys[f"body {kind}"] + (["springs"] if families else []), kind
    assert list(inspect.signature(hooke.World.add_collider).parameters)[1:] == keys["collider"]
    assert list(inspect.signature(hooke.World.set_contact).parameters)[1:] == keys["contact"]
    from hooke.build import unit

    doc = open(os.path.join(ROOT, "docs", "scene-format.md"), encoding="utf-8").read()
    row = re.compile(r"^\| (`\w+`(?:, `\w+`)*) \| [^|]+ \| ([^|]*) \|", re.M)

    def units_of(text):
        """{key: unit} of the tables in text (a row may name several keys), as the docstrings write units."""
        out = {}
        for m in row.finditer(text):
            got = m.group(2).strip().replace("·", "*").replace("²", "^2")
            for k in re.findall(r"`(\w+)`", m.group(1)):
                out[k] = "" if got in ("—", "1") else got
        return out

    tables = {part.split("\n", 1)[0].strip().replace("`", ""): units_of(part)
              for part in re.split(r"^### ", doc, flags=re.M)[1:]}
    tables["springs"] = units_of(doc.split("## 3.", 1)[1].split("## 4.", 1)[0])
    for section, names in keys.items():
        if section in ("run", "body points"):  # run: set_integrator's; points: add_points takes arrays
            continue
        for k in names:
            assert k in tables[section], (section, k)
            assert unit(section, k) == tables[section][k], (section, k, unit(section, k), tables[section][k])


def test_refusals_name_the_call_and_argument():
    """A value the format refuses: ValueError naming the call and the argument, and nothing added."""
    w = hooke.World(gravity=(0, -9.81, 0))
    cases = [
        (lambda: w.add_cloth(nx=1, ny=8, spacing=0.1, mass=0.1, springs={"structural": {"k": 1e3}}),
         r"add_cloth: argument 'nx': expected an integer in \[2, \d+\] for 'nx', got '1'"),
        (lambda: w.add_rope(count=5, mass=0.1, spacing=-1.0),
         r"add_rope: argument 'spacing': expected a positive number"),
        (lambda: w.add_rope(count=5, mass=0.1, spacing=1, springs={"chain": {"k": 10, "damping_model": "x"}}),
         r"add_rope: argument 'springs': expected along or relative for 'damping_model'"),
        (lambda: w.add_rope(count=5, mass=0.1, spacing=1, origin=(1, 2)),
         r"add_rope: argument 'origin': expected 3 numbers"),
        (lambda: w.add_rope(count=5, mass=0.1, spacing=1, pin=[7]),
         r"add_rope: argument 'pin': expected a particle index in \[0, 4\]"),
        (lambda: w.add_sphere(center=(0, 0, 0)), r"add_sphere: argument 'radius' is required"),
        (lambda: w.add_points([[0, 0, 0], [1, 0, 0]], 1.0, pairs=[[0, 2]]),
         r"add_points: argument 'pairs\[0\]': expected a particle index in \[0, 1\]"),
        (lambda: w.add_points([[0, 0, 0], [0, 0, 0]], 1.0, pairs=[[0, 0]]),
         r"add_points: argument 'pairs\[0\]'"),
        (lambda: w.add_points([[0, 0, 0]], [1.0, 2.0]), r"add_points: argument 'masses': expected shape \(1,\)"),
        (lambda: hooke.World(ground={"model": "sand"}), r"World: argument 'ground': expected"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError, match=message):
            call()
    with pytest.raises(TypeError, match=r"add_rope\(\) got an unexpected keyword argument 'colour'"):
        w.add_rope(count=5, mass=0.1, spacing=1, colour=3)
    with pytest.raises(TypeError, match=r"World: argument 'gravity': expected a number"):
        hooke.World(gravity=(0, "x", 0))
    assert w.bodies == [] and w.positions.shape == (0, 3)


def test_pin_and_steps_after_adding():
    """pin holds a particle where it is; a body added after steps joins the world, which steps on."""
    w = hooke.World(gravity=(0, -9.81, 0))
    rope = w.add_rope(count=10, mass=0.1, spacing=0.1, springs={"chain": {"k": 500.0}})
    w.pin(rope, 0)
    w.set_integrator("semi_implicit_euler", dt=1e-3)
    before = w.positions[0].copy()
    w.step(50)
    assert np.array_equal(w.positions[0], before) and w.positions[9, 1] < before[1]
    cloth = w.add_cloth(nx=4, ny=4, spacing=0.1, mass=0.01, springs={"structural": {"k": 100.0}})
    assert (rope, cloth) == (0, 1) and w.positions.shape == (26, 3)
    w.step(10)
    with pytest.raises(ValueError, match="pin: particle 10 out of range 0..9 of body 0"):
        w.pin(0, 10)
    with pytest.raises(ValueError, match="pin: no body 5"):
        w.pin(5, 0)
    w.unpin(rope, 0)  # free again, at rest where it was held: it falls with the rest
    assert w.inverse_masses[0] == np.float32(10.0) and np.all(w.velocities[0] == 0)
    w.step(20)
    assert w.positions[0, 1] < before[1]
    with pytest.raises(ValueError, match="unpin: particle 10 out of range 0..9 of body 0"):
        w.unpin(0, 10)


def test_no_body_added_while_a_view_lives():
    """A body added makes the particle block again: while a view of it lives, add_* refuses (RuntimeError, nothing
    added); once the views are gone it adds, and a new view shows the new particles."""
    import gc

    w = hooke.World()
    w.add_rope(count=4, mass=0.1, spacing=0.1)
    v, m = w.velocities, w.masses
    with pytest.raises(RuntimeError, match="add_rope: 2 views of this world's particle arrays"):
        w.add_rope(count=4, mass=0.1, spacing=0.1)
    keep = np.array(m)
    del v, m
    gc.collect()
    w.add_rope(count=3, mass=0.2, spacing=0.1)
    assert w.masses.shape == (7,) and np.array_equal(w.masses[:4], keep) and np.all(w.masses[4:] == np.float32(0.2))


def test_shipped_scenes_in_the_package():
    """hooke.scene_path gives the package's copy of every shipped scene (the same text as scenes/), which loads from
    any folder (a mesh scene finds its mesh beside it); an unknown name is FileNotFoundError listing them."""
    names = sorted(f[:-6] for f in os.listdir(SCENES) if f.endswith(".scene"))
    for n in names:
        p = hooke.scene_path(n)
        assert p == hooke.scene_path(n + ".scene")
        assert open(p, encoding="utf-8").read() == open(os.path.join(SCENES, n + ".scene"), encoding="utf-8").read()
    here = os.getcwd()
    try:
        os.chdir("/")
        w = hooke.World.from_scene(hooke.scene_path("torus_asc"))
        assert w.positions.shape[0] > 0
    finally:
        os.chdir(here)
    with pytest.raises(FileNotFoundError, match=r"no shipped scene 'ropes' \(shipped: billow, bungee, "):
        hooke.scene_path("ropes")
    with pytest.raises(FileNotFoundError):
        hooke.scene_path("../scenes/rope")


def test_the_stub_says_what_the_module_has():
    """hooke/__init__.pyi (with py.typed beside it) names every public method and property of World and Batch with the
    parameters the module's own signatures have, and the package's functions."""
    import ast

    folder = os.path.dirname(hooke.__file__)
    assert os.path.isfile(os.path.join(folder, "py.typed"))
    tree = ast.parse(open(os.path.join(folder, "__init__.pyi"), encoding="utf-8").read())
    for cls in (hooke.World, hooke.Batch):
        node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls.__name__)
        stub = {}
        for f in node.body:  # a property with a setter is two defs of one name
            if isinstance(f, ast.FunctionDef):
                stub.setdefault(f.name, f)
        public = [n for n in dir(cls) if not n.startswith("_")]
        assert sorted(public) == sorted(n for n in stub if not n.startswith("_")), set(public) ^ set(stub)
        for n in public:
            member = inspect.getattr_static(cls, n)
            if isinstance(member, property) or type(member).__name__ == "getset_descriptor":
                assert any(getattr(d, "id", None) == "property" for d in stub[n].decorator_list), n
                continue
            have = [p for p in inspect.signature(getattr(cls, n)).parameters]
            args = stub[n].args
            said = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
            if said and said[0] in ("self", "cls", "world"):
                said = said[1:]
            if have and have[0] in ("self", "world", "cls"):
                have = have[1:]
            assert said == have, (cls.__name__, n, said, have)
    functions = {f.name for f in tree.body if isinstance(f, ast.FunctionDef)}
    assert functions == {n for n in hooke.__all__ if callable(getattr(hooke, n)) and n not in ("World", "Batch")} - {
        "Error", "SceneError", "BlowUp"}


def test_write_frames_as_hooke_run_writes_them(tmp_path):
    """world.write_frames writes the series `hooke run --out` writes, byte for byte: the frames at step 0, on the
    grid of `every` and at the last step, in each format, and the .pvd index; a format it does not know is a
    ValueError, a folder it cannot make an OSError."""
    from conftest import run_program

    scene = os.path.join(SCENES, "rope.scene")
    run_program("run", scene, "--steps", "250", "--every", "40", "--out", str(tmp_path / "a"), "--format", "vtk,obj",
                "--quiet", check_rc=0)
    w = hooke.World.from_scene(scene)
    assert w.write_frames(tmp_path / "b", "vtk,obj", every=40, steps=250) == 250
    names = sorted(os.listdir(tmp_path / "a"))
    assert names == sorted(os.listdir(tmp_path / "b")) and "frames.pvd" in names and "frame_000250.vtp" in names
    for n in names:
        assert (tmp_path / "a" / n).read_bytes() == (tmp_path / "b" / n).read_bytes(), n
    with pytest.raises(ValueError, match="frame formats 'gif'"):
        hooke.World.from_scene(scene).write_frames(tmp_path / "c", "gif", steps=10)
    (tmp_path / "file").write_text("")
    with pytest.raises(OSError):
        hooke.World.from_scene(scene).write_frames(tmp_path / "file" / "d", steps=10)


def test_add_springs_to_a_body_built_before():
    """add_springs on a body of points is the scene's `spring` lines of the same family: the same state hash after
    50 steps; a pair out of the body, a spring joining a particle to itself, a name the format does not have and a
    stiffness out of bounds: ValueError, nothing added."""
    text = """world
  gravity 0 -9.81 0
end
body points
  point 0 0 0 0.1
  point 0.1 0 0 0.1
  point 0.2 0 0 0.1
  point 0.3 0.05 0 0.2
  spring 0 1 main rest_length 0.1
  spring 1 2 main rest_length 0.12
  spring 2 3
  springs main k 500 damping 0.1 damping_model relative
  pin 0
end
"""
    ref = hooke.World.from_string(text)
    w = hooke.World(gravity=(0, -9.81, 0))
    body = w.add_points([[0, 0, 0], [0.1, 0, 0], [0.2, 0, 0], [0.3, 0.05, 0]], [0.1, 0.1, 0.1, 0.2], pin=[0])
    assert w.add_springs(body, np.array([[0, 1], [1, 2], [2, 3]]), k=500, damping=0.1, damping_model="relative",
                         rest_lengths=[0.1, 0.12, 0]) == 0
    assert w.families[0]["springs"] == 3 and np.allclose(w.rest_lengths, ref.rest_lengths)
    for world in (ref, w):
        world.set_integrator("semi_implicit_euler", dt=1e-4)
        world.step(50)
    assert w.state_hash == ref.state_hash
    for call, message in [
        (lambda: w.add_springs(body, [[0, 9]], k=5), r"add_springs: springs: spring 0 joins 0 and 9, outside 0..3"),
        (lambda: w.add_springs(body, [[1, 1]], k=5), r"add_springs: spring 0 joins particle 1 to itself"),
        (lambda: w.add_springs(body, [[0, 1]], k=5, behaviour="elastic"),
         r"add_springs: argument 'behaviour': expected one of normal, tension_only, compression_only, breakable"),
        (lambda: w.add_springs(body, [[0, 1]], k=-5), r"k must be 0 or in \[1e-12, 1e12\] N/m \(got -5\)"),
        (lambda: w.add_springs(body, [[0, 1, 2]], k=5), r"argument 'pairs': expected integers of shape \(S, 2\)"),
    ]:
        with pytest.raises(ValueError, match=message):
            call()
    assert len(w.families) == 1


def test_set_masses():
    """set_masses: a free particle's inverse mass becomes 1 / m and the spring's first semi-implicit Euler step
    accelerates it by -k (r - L0) / m (r - L0 = 0.1 m, k = 100 N/m, m = 4 kg: v = -h 2.5 m/s^2); a pinned one stays
    held with its new mass; a refused value (the first named) writes nothing."""
    w = hooke.World(gravity=(0, 0, 0))
    w.add_spring(a=(0, 0, 0), b=(1.1, 0, 0), mass_b=1.0, pin_a=1, springs={"k": 100.0, "rest_length": 1.0})
    w.set_integrator("semi_implicit_euler", dt=1e-3)
    w.set_masses([2.0, 4.0])
    assert list(w.masses) == [2.0, 4.0] and list(w.inverse_masses) == [0.0, 0.25]
    w.step()
    assert w.velocities[1, 0] == pytest.approx(-1e-3 * 100 * 0.1 / 4.0, rel=1e-5)
    before = np.array(w.masses)
    for bad, message in [([2.0, 0.0], "set_masses: particle 1: mass must be"),
                         ([float("nan"), 1.0], "set_masses: particle 0: mass must be"),
                         ([1.0, 1e13], "set_masses: particle 1: mass must be")]:
        with pytest.raises(ValueError, match=message):
            w.set_masses(bad)
        assert np.array_equal(w.masses, before)
    with pytest.raises(ValueError, match=r"set_masses: expected an array of shape \(2,\), got \(3,\)"):
        w.set_masses([1.0, 1.0, 1.0])
    w.unpin(0, 0)
    assert list(w.inverse_masses) == [0.5, 0.25]


def test_applied_forces():
    """set_applied_forces: a free particle of 0.5 kg under F alone moves by semi-implicit Euler's closed form
    x_n = x_0 + h^2 F / m n (n + 1) / 2; the pinned one ignores its own; applied_forces reads them back; a refused
    array (the first refused particle named) writes nothing; clear_applied_forces leaves the particle coasting."""
    w = hooke.World(gravity=(0, 0, 0))
    w.add_points([[0, 0, 0], [1, 0, 0]], 0.5, pin=[0])
    w.set_integrator("semi_implicit_euler", dt=1e-3)
    f = np.array([[5.0, 0, 0], [0.5, -1.0, 0.25]])
    w.set_applied_forces(f)
    assert np.array_equal(w.applied_forces, f)
    n = 100
    w.step(n)
    moved = 1e-6 * f[1] / 0.5 * n * (n + 1) / 2
    assert w.positions[1] == pytest.approx(np.array([1.0, 0, 0]) + moved, rel=1e-5, abs=1e-7)
    assert list(w.positions[0]) == [0.0, 0.0, 0.0]
    for bad, message in [([[0, 0, 0], [float("inf"), 0, 0]], "set_applied_forces: force of particle 1 is not finite"),
                         ([[0, 0, 0], [1e39, 0, 0]] if w.forces.dtype == np.float32 else [[float("nan"), 0, 0], [0, 0, 0]],
                          "set_applied_forces: force .*of particle [01]")]:
        with pytest.raises(ValueError, match=message):
            w.set_applied_forces(bad)
        assert np.array_equal(w.applied_forces, f)
    with pytest.raises(ValueError, match=r"set_applied_forces: expected an array of shape \(2, 3\), got \(1, 3\)"):
        w.set_applied_forces([[0, 0, 0]])
    w.clear_applied_forces()
    assert not w.applied_forces.any()
    v = np.array(w.velocities[1])
    w.step(3)
    assert np.array_equal(w.velocities[1], v)


def test_applied_force_arrays_written_in_place():
    """applied_force_arrays(): a writable (N, 3) view of the world's own arrays; what is written into it is applied
    (the same closed form as set_applied_forces), set_applied_forces shows in it, clear_applied_forces zeroes it and
    stops applying it until asked for again; bodies cannot be added while it lives."""
    w = hooke.World(gravity=(0, 0, 0))
    w.add_points([[0, 0, 0], [1, 0, 0]], 0.5)
    w.set_integrator("semi_implicit_euler", dt=1e-3)
    view = w.applied_force_arrays()
    assert view.shape == (2, 3) and view.flags.writeable and not view.any()
    view[1] = [0.5, -1.0, 0.25]
    assert np.array_equal(w.applied_forces[1], [0.5, -1.0, 0.25])
    n = 50
    w.step(n)
    moved = 1e-6 * np.array([0.5, -1.0, 0.25]) / 0.5 * n * (n + 1) / 2
    assert w.positions[1] == pytest.approx(np.array([1.0, 0, 0]) + moved, rel=1e-5, abs=1e-7)
    w.set_applied_forces([[1.0, 2.0, 3.0], [0, 0, 0]])
    assert list(view[0]) == [1.0, 2.0, 3.0]
    w.clear_applied_forces()
    assert not view.any() and not w.applied_forces.any()
    view[1] = [5.0, 0, 0]  # not applied after clearing, until asked for again
    assert not w.applied_forces.any()
    with pytest.raises(RuntimeError, match="view of this world's particle arrays"):
        w.add_points([[2, 0, 0]], 0.5)
    del view
    w.add_points([[2, 0, 0]], 0.5)
    assert w.applied_force_arrays().shape == (3, 3)


def test_checkpoints_of_worlds_built_in_code(tmp_path):
    """A world built by the same calls restores another's checkpoint and steps on to its bits; one whose add_springs
    said another stiffness is refused as a different scene (the digest takes in every call)."""
    def make(k):
        w = hooke.World(gravity=(0, -9.81, 0))
        body = w.add_points([[0, 0, 0], [0.1, 0, 0], [0.2, 0, 0]], 0.1, pin=[0])
        w.add_springs(body, [[0, 1], [1, 2]], k=k)
        return w

    a = make(500.0)
    a.step(20)
    a.save_checkpoint(str(tmp_path / "x.ck"))
    a.step(10)
    b = make(500.0)
    b.restore_checkpoint(str(tmp_path / "x.ck"))
    b.step(10)
    assert b.state_hash == a.state_hash
    with pytest.raises(hooke.Error, match="checkpoint was written for a different scene"):
        make(600.0).restore_checkpoint(str(tmp_path / "x.ck"))
