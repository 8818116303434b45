# test_batch.py — hooke.Batch: worlds stepped together end on the bits of each alone; blow-ups, resets, bad input.
# SPDX-License-Identifier: MIT
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import hooke
from test_errors import NONFINITE


def alone(make, steps):
    w = make()
    w.step(steps)
    return w.state_hash


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_copies_end_on_the_bits_of_one_world_alone(scene_path, threads):
    path = scene_path("flag.scene")
    b = hooke.Batch.from_scene(path, 5, threads=threads)
    assert len(b) == 5 and b.threads == threads and all(w.threads == 1 for w in b)
    assert b.step(120) == []
    h = alone(lambda: hooke.World.from_scene(path), 120)
    assert list(b.state_hashes) == [h] * 5
    assert list(b.step_counts) == [120] * 5
    # a second call goes on from there, in stretches of any length
    b.step(1)
    b.step(29)
    assert list(b.state_hashes) == [alone(lambda: hooke.World.from_scene(path), 150)] * 5


def test_a_list_of_different_worlds(scene_path):
    names = ["rope.scene", "flag.scene", "jelly26.scene", "pressure_ball.scene", "tearing_cloth.scene"]
    b = hooke.Batch([hooke.World.from_scene(scene_path(n)) for n in names], threads=2)
    b.step(60)
    for n, w in zip(names, b):
        assert w.state_hash == alone(lambda: hooke.World.from_scene(scene_path(n)), 60), n
    with pytest.raises(ValueError, match=r"Batch.positions: the worlds hold different particle counts"):
        b.positions
    before = [w.applied_forces.copy() for w in b]
    with pytest.raises(ValueError, match=r"Batch.set_applied_forces: the worlds hold different particle counts"):
        b.set_applied_forces(np.zeros((5, 10, 3)))
    assert all((w.applied_forces == f).all() for w, f in zip(b, before))


def test_per_copy_parameters_and_stacked_arrays(scene_path):
    """Copies with their own integrator settings and forces: each as the same world alone; stacked arrays."""
    path = scene_path("flag.scene")
    b = hooke.Batch.from_scene(path, 3, threads=2)
    dts = [1e-4, 2e-4, 5e-5]
    for w, dt in zip(b, dts):
        w.set_integrator("semi_implicit_euler", dt=dt)
    n = len(b[0].masses)
    f = np.zeros((3, n, 3))
    f[1, 10] = (0.0, 0.0, 0.5)
    f[2, :, 1] = 0.001
    b.set_applied_forces(f)
    real = np.float64 if hooke.precision == "double" else np.float32
    assert (b.applied_forces == f.astype(real)).all()  # held in the world's precision
    b.step(80)
    for i, dt in enumerate(dts):
        w = hooke.World.from_scene(path)
        w.set_integrator("semi_implicit_euler", dt=dt)
        w.set_applied_forces(f[i])
        w.step(80)
        assert b[i].state_hash == w.state_hash, i
        assert (b.positions[i] == w.positions).all()
        assert (b.velocities[i] == w.velocities).all()
    assert b.positions.shape == b.velocities.shape == (3, n, 3)


def test_a_blowup_stops_its_world_only(tmp_path, scene_path):
    path = str(tmp_path / "blows.scene")
    with open(path, "w") as f:
        f.write(NONFINITE)
    lone = hooke.World.from_scene(path)
    with pytest.raises(hooke.BlowUp) as e:
        lone.step(3000)
    rope = scene_path("rope.scene")
    b = hooke.Batch([hooke.World.from_scene(rope), hooke.World.from_scene(path), hooke.World.from_scene(rope)],
                    threads=2)
    assert b.step(400) == [1]
    err = b.errors[1]
    assert isinstance(err, hooke.BlowUp) and b.errors[0] is None and b.errors[2] is None
    assert (err.step, err.cause, str(err)) == (e.value.step, e.value.cause, str(e.value))
    assert list(b.running) == [True, False, True]
    assert b[1].step_count == e.value.step
    assert b.step(100) == []  # a stopped world stays where it stopped; the others go on
    assert list(b.step_counts) == [500, e.value.step, 500]
    assert b[0].state_hash == b[2].state_hash == alone(lambda: hooke.World.from_scene(rope), 500)


def test_reset_from_the_saved_state(scene_path):
    path = scene_path("flag.scene")
    b = hooke.Batch.from_scene(path, 4)
    b.step(30)
    b.save_state()
    b.step(50)
    h80 = list(b.state_hashes)
    b.reset(2)
    assert list(b.step_counts) == [80, 80, 30, 80]
    b.reset([0, -1])
    assert list(b.step_counts) == [30, 80, 30, 30]
    b.reset()
    b.step(50)
    assert list(b.state_hashes) == h80


def test_world_state_in_memory(scene_path):
    w = hooke.World.from_scene(scene_path("cloth_box.scene"))
    w.step(40)
    s = w.save_state()
    assert isinstance(s, bytes)
    w.step(40)
    h = w.state_hash
    w.restore_state(s)
    assert w.step_count == 40
    w.step(40)
    assert w.state_hash == h
    other = hooke.World.from_scene(scene_path("cloth_box.scene"))
    other.restore_state(s)  # a world built the same way takes it
    other.step(40)
    assert other.state_hash == h
    with pytest.raises(hooke.Error, match="restore_state: checkpoint"):
        hooke.World.from_scene(scene_path("rope.scene")).restore_state(s)
    with pytest.raises(hooke.Error, match="restore_state: checkpoint"):
        w.restore_state(s[:-1])
    bad = bytearray(s)
    bad[len(bad) // 2] ^= 1
    with pytest.raises(hooke.Error, match="restore_state: checkpoint"):
        w.restore_state(bytes(bad))
    assert w.step_count == 80 and w.state_hash == h  # refused before the world was touched
    with pytest.raises(TypeError, match="state must be bytes"):
        w.restore_state("state")


def test_threads_setter(scene_path):
    w = hooke.World.from_scene(scene_path("flag.scene"))
    w.threads = 2
    assert w.threads == 2
    w.threads = np.int64(1)
    assert w.threads == 1
    with pytest.raises(ValueError, match="threads must be 0"):
        w.threads = -1
    with pytest.raises(TypeError, match="threads must be an int"):
        w.threads = 1.5
    w.step(10)
    w.threads = 2
    w.step(10)
    assert w.state_hash == alone(lambda: hooke.World.from_scene(scene_path("flag.scene")), 20)


def test_bad_input(scene_path):
    w = hooke.World.from_scene(scene_path("rope.scene"))
    with pytest.raises(ValueError, match="at least one"):
        hooke.Batch([])
    with pytest.raises(ValueError, match=r"worlds\[1\] is in the batch twice"):
        hooke.Batch([w, w])
    with pytest.raises(TypeError, match=r"worlds\[1\] is int, not a hooke.World"):
        hooke.Batch([w, 3])
    with pytest.raises(ValueError, match="threads must be 0"):
        hooke.Batch([w], threads=-1)
    with pytest.raises(ValueError, match="n must be >= 1"):
        hooke.Batch.from_scene(scene_path("rope.scene"), 0)
    b = hooke.Batch.from_scene(scene_path("rope.scene"), 3)
    with pytest.raises(ValueError, match="n must be >= 0"):
        b.step(-1)
    b.step(np.int64(3))
    assert list(b.step_counts) == [3, 3, 3]
    with pytest.raises(RuntimeError, match="no saved state"):
        b.reset(0)
    b.save_state()
    with pytest.raises(IndexError, match="world 3 out of range"):
        b.reset([0, 3])
    n = len(b[0].masses)
    for bad, what in [(np.zeros((3, n)), "expected shape"), (np.zeros((2, n, 3)), "expected shape"),
                      ([[["x"] * 3] * n] * 3, "expected an"), ]:
        with pytest.raises((ValueError, TypeError), match=what):
            b.set_applied_forces(bad)
    f = np.zeros((3, n, 3))
    f[2, 5, 1] = np.nan
    with pytest.raises(ValueError, match=r"value \[2, 5, 1\] is nan, not finite"):
        b.set_applied_forces(f)
    assert all((x.applied_forces == 0).all() for x in b)
    # a world whose threads were set to more after it joined is refused, the others untouched
    b[1].threads = 2
    with pytest.raises(ValueError, match=r"worlds\[1\] runs on 2 threads"):
        b.step(1)
    assert list(b.step_counts) == [3, 3, 3]
    b[1].threads = 1
    b.step(1)
    assert list(b.step_counts) == [4, 4, 4]


CHILD = r"""
import sys, hooke
b = hooke.Batch.from_scene(sys.argv[1], 4, threads=2)
b.step()
print("running", flush=True)
try:
    b.step(10**9)
    print("finished", flush=True)
except KeyboardInterrupt:
    n = list(b.step_counts)
    print("interrupted", *n, *b.state_hashes, flush=True)
"""


def test_sigint_stops_every_world_at_one_whole_step(scene_path):
    scene = scene_path("rope.scene")
    p = subprocess.Popen([sys.executable, "-c", CHILD, scene], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=dict(os.environ))
    try:
        assert p.stdout.readline().strip() == "running"
        time.sleep(0.5)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, err
    word, *rest = out.split()
    assert word == "interrupted", out + err
    counts, hashes = [int(x) for x in rest[:4]], [int(x) for x in rest[4:]]
    assert len(set(counts)) == 1 and counts[0] > 1
    assert hashes == [alone(lambda: hooke.World.from_scene(scene), counts[0])] * 4
