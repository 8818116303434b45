# test_tools.py — hooke.stability(), hooke.bench() and the tables against what the program writes and prints.
# SPDX-License-Identifier: MIT
import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import HOOKE_BIN, SCENES

import hooke

SCENES = Path(SCENES)


def program(*args):
    """(exit status, stdout, stderr) of the program `hooke ARGS...`."""
    r = subprocess.run([HOOKE_BIN, *map(str, args)], capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout, r.stderr


def program_json(tmp_path, *args, flag):
    """What the program writes to a JSON file with `flag FILE` after ARGS."""
    path = tmp_path / "program.json"
    status, _, err = program(*args, flag, path)
    assert status == 0, err
    return json.loads(path.read_text())


def without_cpu_times(profile):
    """The profile less its CPU times (the machine's, different at every run), each checked to be a number."""
    rows = [profile["reference"]] + [row for p in profile["integrators"] for row in p["sweep"]]
    for row in rows:
        assert isinstance(row.pop("cpu_s_per_sim_s"), float)
    return profile


def test_stability_is_the_programs_json(tmp_path):
    scene = SCENES / "oscillator.scene"
    options = dict(integrators="semi_implicit_euler,rk4,euler", dt_min=2e-3, dt_max=0.4, points=4, time=1)
    args = ["stability", scene, "--integrators", options["integrators"], "--dt-min", "2e-3", "--dt-max", "0.4",
            "--points", "4", "--time", "1", "--quiet"]
    got = hooke.stability(scene, **options)
    assert without_cpu_times(got) == without_cpu_times(program_json(tmp_path, *args, flag="--out"))
    # the numbers are the sweep asked for: 3 integrators x 4 dt, euler unstable at omega*dt 4 (drift None, as null)
    assert [p["name"] for p in got["integrators"]] == ["semi_implicit_euler", "rk4", "euler"]
    assert [row["dt"] for row in got["integrators"][0]["sweep"]] == pytest.approx([2e-3, 0.0117, 0.0684, 0.4],
                                                                                  rel=2e-3)
    euler = got["integrators"][2]["sweep"][-1]
    assert euler["stable"] is False and euler["energy_drift_per_s"] is None and euler["ref_error_m"] is None


def test_stability_returns_error_and_cost():
    """The error against the converged reference, the largest stretch and the cost of each run, and the reference."""
    got = hooke.stability(SCENES / "oscillator.scene", integrators=["rk4", "implicit_euler"], dt_min=1e-3,
                          dt_max=0.1, points=3, time=0.5)
    ref = got["reference"]
    assert ref["integrator"] == "implicit_euler" and ref["failed"] is None
    assert ref["dt"] == pytest.approx(1e-4) and ref["dt_min_over"] == 10 and ref["newton_iterations"] >= 1
    assert ref["size_m"] == pytest.approx(1.1)  # the pinned end to the mass, 0.1 m past the spring's 1 m
    assert 0 <= ref["own_error_m"] < 0.01 * 0.1  # a small part of the 0.1 m amplitude
    assert ref["own_error_rel"] == pytest.approx(ref["own_error_m"] / ref["size_m"])
    for p in got["integrators"]:
        for row in p["sweep"]:
            assert row["stable"] and row["ref_error_m"] >= 0
            assert row["ref_error_rel"] == pytest.approx(row["ref_error_m"] / ref["size_m"])
            assert row["max_stretch"] == pytest.approx(1.1, rel=1e-6)  # released at rest 0.1 m past L0 = 1 m
            assert row["cpu_s_per_sim_s"] >= 0
            # implicit Euler solves this two-particle system directly (no CG iterations), rk4 solves nothing
            assert row["cg_per_step"] == 0
    # backward Euler damps the swing: further from the reference at every larger dt
    errors = [row["ref_error_m"] for row in got["integrators"][1]["sweep"]]
    assert errors == sorted(errors) and errors[-1] > 10 * ref["own_error_m"]
    assert hooke.stability(SCENES / "oscillator.scene", integrators="rk4", points=2, time=0.5,
                           reference=0)["reference"] is None


def test_stability_options_from_the_table():
    scene = SCENES / "pendulum.scene"
    # a list joined with commas, a switch as True, the default omitted as None
    got = hooke.stability(scene, integrators=["rk4", "verlet"], points=2, dt_min=1e-3, dt_max=2e-3, time=0.5,
                          threads=1, quiet=True, plot=None)
    assert [p["name"] for p in got["integrators"]] == ["rk4", "verlet"]
    assert got["analytic"] == "pendulum"
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'dt_mn'.*dt_min"):
        hooke.stability(scene, dt_mn=1e-3)
    with pytest.raises(TypeError, match="'out'"):  # the function writes --out itself and returns its numbers
        hooke.stability(scene, out="x.json")
    with pytest.raises(TypeError, match="quiet is a switch"):
        hooke.stability(scene, quiet=2)


@pytest.mark.parametrize("options, flags", [
    (dict(points=1), ["--points", "1"]),
    (dict(dt_min=0.1, dt_max=0.01), ["--dt-min", "0.1", "--dt-max", "0.01"]),
    (dict(integrators="rk4,leapfrog"), ["--integrators", "rk4,leapfrog"]),
])
def test_stability_refusal_is_the_programs_message(options, flags):
    scene = SCENES / "oscillator.scene"
    status, _, err = program("stability", scene, *flags, "--quiet")
    assert status == 1 and err.startswith("hooke: error: ")
    with pytest.raises(hooke.Error) as e:
        hooke.stability(scene, **options)
    assert str(e.value) == err.strip() and e.value.status == status


def test_stability_missing_scene():
    missing = SCENES / "no_such.scene"
    status, _, err = program("stability", missing, "--quiet")
    with pytest.raises(hooke.Error) as e:
        hooke.stability(missing)
    assert str(e.value) == err.strip() and e.value.status == status == 1
    assert "no_such.scene" in str(e.value)


def test_stability_prints_nothing(capfd):
    """The program's table and its error messages go into the result and the exception, not onto the host's stdout
    and stderr; what the host prints before and after is where it was."""
    print("before")
    hooke.stability(SCENES / "oscillator.scene", integrators="rk4", points=2, time=0.2)
    with pytest.raises(hooke.Error):
        hooke.stability(SCENES / "oscillator.scene", points=0)
    print("after")
    out, err = capfd.readouterr()
    assert out == "before\nafter\n" and err == ""


def test_stability_from_threads(capfd):
    """Calls from several threads at once run one after another, each with its own result, and leave stdout where
    it was."""
    scene = SCENES / "oscillator.scene"
    runs = [dict(integrators="rk4", points=2, time=t) for t in (0.5, 1, 1.5, 2)]
    want = [hooke.stability(scene, **kw) for kw in runs]
    got = [None] * len(runs)

    def profile(i):
        got[i] = hooke.stability(scene, **runs[i])

    threads = [threading.Thread(target=profile, args=(i,)) for i in range(len(runs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("after")
    assert [without_cpu_times(p) for p in got] == [without_cpu_times(p) for p in want]
    assert capfd.readouterr().out == "after\n"


CHILD = """
import sys
import hooke
scene = sys.argv[1]
hooke.stability(scene, integrators="rk4", points=2, time=0.01, reference=0)  # the option table read, not timed
print("ready", flush=True)
try:  # about a second of runs; no reference (reference=0), whose implicit runs would take this scene a minute
    hooke.stability(scene, integrators="rk4", points=2, dt_min=1e-4, dt_max=2e-4, time=0.3, threads=1, reference=0)
    print("finished")
except KeyboardInterrupt:
    print("interrupted")
"""


def test_stability_ctrl_c():
    """SIGINT during a command: KeyboardInterrupt once it returns, with stdout back on the host's."""
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(SCENES / "jelly26.scene")], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "ready\n"
    time.sleep(0.2)  # into the profile (about a second of runs)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=300)
    assert (out, err, child.returncode) == ("interrupted\n", "", 0)


def test_bench_is_the_programs_json(tmp_path):
    options = dict(builtin="cloth", size=12, threads=[1, 2], repeat=1, steps=20, warmup=1)
    got = hooke.bench(**options)
    want = program_json(tmp_path, "bench", "--builtin", "cloth", "--size", "12", "--threads", "1,2", "--repeat", "1",
                        "--steps", "20", "--warmup", "1", flag="--json")
    assert got.keys() == want.keys()
    assert got["verification"] == want["verification"] == "VALID"
    for key in ("problem", "scaling", "repeat", "steps_per_repeat", "warmup_steps"):
        assert got[key] == want[key]
    # the same problem, the same steps: the same final states, whatever the thread count (times differ)
    assert [(r["threads"], r["particles"], r["springs"], r["state_hash"]) for r in got["results"]] == \
           [(r["threads"], r["particles"], r["springs"], r["state_hash"]) for r in want["results"]]
    assert [r["threads"] for r in got["results"]] == [1, 2]


def test_bench_scene_and_refusal():
    got = hooke.bench(SCENES / "rope.scene", threads=1, repeat=1, steps=5, warmup=1)
    assert got["scene"] == str(SCENES / "rope.scene") and got["results"][0]["springs"] == 79
    status, _, err = program("bench", SCENES / "rope.scene", "--builtin", "cloth")
    with pytest.raises(hooke.Error) as e:
        hooke.bench(SCENES / "rope.scene", builtin="cloth")
    assert str(e.value) == err.strip() and e.value.status == status == 1


def listing(what):
    status, out, _ = program("info", "--list", what)
    assert status == 0
    return [line.split() for line in out.splitlines() if line.strip()]


def test_integrators_are_the_programs():
    rows = listing("integrators")
    got = hooke.integrators()
    assert [(i["name"], i["alias"]) for i in got] == [(r[0], r[1] if len(r) > 1 else None) for r in rows]
    names = {n for i in got for n in (i["name"], i["alias"]) if n}
    assert names == {w for r in rows for w in r}
    assert {"semi_implicit_euler", "rk4", "velocity_verlet", "implicit_euler", "backward_euler"} <= names
    # every name is one stability takes, in its order
    profile = hooke.stability(SCENES / "oscillator.scene", integrators=[i["name"] for i in got], points=2, time=0.1)
    assert [p["name"] for p in profile["integrators"]] == [i["name"] for i in got]


def test_body_kinds_are_the_programs():
    got = hooke.body_kinds()
    assert got == {r[0]: r[1:] for r in listing("bodies")}
    assert got["cloth"] == ["structural", "shear", "bend", "radius"] and got["pendulum"] == []


def test_scene_keys_cover_the_shipped_scenes():
    keys = hooke.scene_keys()
    rows = listing("keys")
    assert sum(map(len, keys.values())) == len(rows)
    assert {(s, k) for s, ks in keys.items() for k in ks} == {(" ".join(r[:-1]), r[-1]) for r in rows}
    assert {"integrator", "dt", "steps"} <= set(keys["run"]) and "mass_a" in keys["body spring"]
    # every key a shipped scene writes inside a section is a key of that section
    for scene in SCENES.glob("*.scene"):
        section = None
        for line in scene.read_text().splitlines():
            words = line.split("#")[0].split()
            if not words:
                continue
            if words[0] == "end":
                section = None
            elif section is None:
                section = " ".join(words[:2]) if words[0] == "body" else words[0]
            elif words[0] != "springs":
                assert words[0] in keys[section], f"{scene.name}: '{words[0]}' in {section}"
