# test_checkpoint.py — checkpoints from Python and from hooke run restart each other to the uninterrupted hash.
# SPDX-License-Identifier: MIT
import re

import pytest

import hooke
from conftest import program_hash, run_program


def test_round_trip(scene_path, tmp_path):
    path = scene_path("cloth_corners.scene")
    ck = str(tmp_path / "w.ck")
    a = hooke.World.from_scene(path)
    a.step(10)
    a.save_checkpoint(ck)
    a.step(10)
    b = hooke.World.from_scene(path)
    b.restore_checkpoint(ck)
    assert b.step_count == 10
    b.step(10)
    assert b.state_hash == a.state_hash == program_hash(path, 20)


def test_program_and_module_read_each_other(scene_path, tmp_path):
    path = scene_path("rope.scene")
    ck = str(tmp_path / "p.ck")
    run_program("run", path, "--steps", "12", "--checkpoint", ck, "--checkpoint-on-exit", "--quiet", check_rc=0)
    w = hooke.World.from_scene(path)
    w.restore_checkpoint(ck)
    w.run(steps=30)
    assert w.step_count == 30 and w.state_hash == program_hash(path, 30)
    mine = str(tmp_path / "m.ck")
    w2 = hooke.World.from_scene(path)
    w2.step(7)
    w2.save_checkpoint(mine)
    _, out, _ = run_program("run", path, "--restart", mine, "--steps", "30", "--quiet", check_rc=0)
    assert int(re.search(r"state_hash=0x([0-9a-f]+)", out).group(1), 16) == w.state_hash


def test_refusals(scene_path, tmp_path):
    ck = str(tmp_path / "r.ck")
    w = hooke.World.from_scene(scene_path("rope.scene"))
    w.save_checkpoint(ck)
    other = hooke.World.from_scene(scene_path("pendulum.scene"))
    with pytest.raises(hooke.Error):
        other.restore_checkpoint(ck)  # another scene's checkpoint
    with pytest.raises(FileNotFoundError):
        w.restore_checkpoint(str(tmp_path / "none.ck"))
    with pytest.raises(OSError):
        w.save_checkpoint(str(tmp_path / "no" / "such" / "dir.ck"))
