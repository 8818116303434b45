# test_checkpoint.py — checkpoints from Python and from hooke run restart each other to the uninterrupted hash.
# SPDX-License-Identifier: MIT
import os
import re
import stat

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


def test_save_checkpoint_to_a_device(scene_path, tmp_path):
    # a character device at the path is written through, never renamed over (outfile.h's rule): /dev/null's
    # numbers in the test's folder, so the real one is never at stake
    node = tmp_path / "null"
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("mknod needs root")
    w = hooke.World.from_scene(scene_path("rope.scene"))
    w.step(3)
    w.save_checkpoint(str(node))
    assert stat.S_ISCHR(os.lstat(node).st_mode)
    assert not (tmp_path / "null.tmp").exists()
    frames = tmp_path / "frames"
    frames.mkdir()
    frame = frames / "frame_000003.vtp"
    os.mknod(frame, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    w.write_frame(str(frames), "vtk")
    assert stat.S_ISCHR(os.lstat(frame).st_mode)
