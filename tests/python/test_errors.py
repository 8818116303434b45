# test_errors.py — hooke.SceneError and hooke.BlowUp carry what the program reports.
# SPDX-License-Identifier: MIT
import re

import pytest

import hooke
from conftest import run_program

BAD = [  # (scene text, line, column, start of the message)
    ("bogus\n", 1, 1, "expected a section"),
    ("body rope\n  count 10\n  mass abc\nend\n", 3, 8, "expected a number for 'mass', got 'abc'"),
    ("world\n  gravity 0 -9.81 0\nbody rope\n", 3, 1, "expected 'end' to close world"),
]


@pytest.mark.parametrize("text,line,column,message", BAD)
def test_scene_error_position(tmp_path, text, line, column, message):
    path = tmp_path / "bad.scene"
    path.write_text(text)
    with pytest.raises(hooke.SceneError) as e:
        hooke.World.from_scene(str(path))
    assert (e.value.file, e.value.line, e.value.column) == (str(path), line, column)
    assert e.value.message.startswith(message)
    _, _, err = run_program("run", str(path), check_rc=1)
    assert str(e.value) == err.strip()  # exactly the program's message
    assert isinstance(e.value, hooke.Error)
    with pytest.raises(hooke.SceneError) as s:
        hooke.World.from_string(text, name="mine.scene")
    assert str(s.value).startswith("mine.scene:%d:%d: error: " % (line, column))


def test_missing_file_is_oserror(tmp_path):
    with pytest.raises(FileNotFoundError):
        hooke.World.from_scene(str(tmp_path / "none.scene"))
    with pytest.raises(FileNotFoundError):
        hooke.World.from_scene(path=tmp_path / "none.scene")


def test_a_state_no_run_can_start_from(tmp_path):
    path = str(tmp_path / "stretched.scene")
    with open(path, "w") as f:
        f.write("world\n gravity 0 -9.81 0\nend\n\n"
                "body spring\n a 0 0 0\n b 8.33 0 0\n mass_b 1\n springs main k 100 rest_length 0.1\nend\n"
                "run\n dt 0.001\n steps 10\nend\n")
    with pytest.raises(hooke.SceneError) as e:
        hooke.World.from_scene(path)
    _, _, err = run_program("run", path, check_rc=1)
    assert str(e.value) == err.strip()
    assert (e.value.file, e.value.line, e.value.column) == (path, 5, None)
    assert "starts past the stretch limit" in e.value.message


OVERLOAD = ("world\n gravity 0 -9.81 0\n air_drag 0.02\nend\n"
            "body rope\n count 80\n mass 20\n spacing 0.05\n direction 1 0 0\n anchor 1\n"
            " springs chain k 10000 damping 0.2 damping_model relative rest_length 0.05\nend\n"
            "run\n dt 0.0166666666666667\n dt_max 0.002\n time 5\nend\n")
# an explicit Euler spring far past its stability limit, with no stretch limit to stop it first: its state goes
# non-finite at a particle (the wind turns the energy bound off: a world it feeds has none)
NONFINITE = ("world\n gravity 0 0 0\n wind_model vertex\n wind 1 0 0\nend\n"
             "body spring\n a 0 0 0\n b 1.1 0 0\n mass_a 1\n mass_b 1\n pin_a 1\n springs main k 1e6 rest_length 1\n"
             "end\nrun\n integrator euler\n dt 0.01\n steps 2000\n stretch_limit 1e38\nend\n")


def program_report(path):
    rc, out, err = run_program("run", path, "--quiet")
    assert rc == 2, err
    lines = [l for l in err.splitlines() if l.startswith("hooke: error: ") or l.startswith("hooke: hint: ")]
    step = int(re.search(r"blew up at step (\d+)", err).group(1))
    return step, "\n".join(lines)


@pytest.mark.parametrize("text,cause", [(OVERLOAD, "runaway stretch"), (NONFINITE, "non-finite")])
def test_blowup_as_the_program_reports_it(tmp_path, text, cause):
    path = str(tmp_path / "blows.scene")
    with open(path, "w") as f:
        f.write(text)
    step, report = program_report(path)
    w = hooke.World.from_scene(path)
    with pytest.raises(hooke.BlowUp) as e:
        w.run()
    b = e.value
    assert b.step == step and w.step_count == step
    assert b.cause.startswith(cause)
    assert str(b) == report  # the program's report and hint, word for word
    assert b.hint and "hooke: hint: " + b.hint in report
    if cause == "runaway stretch":
        assert (b.particle, b.body, b.family, b.spring) == (None, 0, 0, 0) and b.value > 10
    else:
        m = re.search(r"at particle (\d+) of body (\d+)", report)
        assert (b.particle, b.body) == (int(m.group(1)), int(m.group(2))) == (1, 0)
    assert isinstance(b, hooke.Error)
    # step() finds it at the same step
    w2 = hooke.World.from_scene(path)
    with pytest.raises(hooke.BlowUp) as e2:
        w2.step(step + 10)
    assert e2.value.step == step


def test_from_string_refuses_a_nul_byte():
    """As the file reader refuses one, at its line and column (the text after it is not dropped)."""
    text = "world\n  gravity 0 -9.81 0\nend\nbody rope\n  count 10\x00\nend\n"
    with pytest.raises(hooke.SceneError) as e:
        hooke.World.from_string(text, name="nul.scene")
    assert str(e.value) == "nul.scene:5:11: error: expected text, got a NUL byte (is this a binary file?)"


def test_step_takes_numpy_integers(scene_path):
    np = pytest.importorskip("numpy")
    a = hooke.World.from_scene(scene_path("rope.scene"))
    b = hooke.World.from_scene(scene_path("rope.scene"))
    a.step(np.int64(3))
    b.step(3)
    assert a.step_count == 3 and a.state_hash == b.state_hash
    a.step(n=np.uint8(2))
    assert a.step_count == 5
    with pytest.raises(TypeError):
        a.step(np.float64(2))


def test_a_folder_that_cannot_be_made_is_oserror(scene_path, tmp_path):
    w = hooke.World.from_scene(scene_path("rope.scene"))
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    with pytest.raises(OSError, match="a part of the path is a file, not a folder"):
        w.write_frame(str(a_file / "frames"))
    with pytest.raises(ValueError, match="frame formats 'gif'"):
        w.write_frame(str(tmp_path / "frames"), "gif")


def test_bad_arguments():
    w = hooke.World.from_string(NONFINITE)
    with pytest.raises(ValueError):
        w.step(-1)
    with pytest.raises(TypeError):
        w.step("3")
    with pytest.raises(ValueError):
        w.run(steps=1, time=1.0)
    with pytest.raises(TypeError):
        w.run(steps=5, callback=3)
