# test_targets.py — World.set_targets: driven particles end each step at their targets; release; refusals.
# SPDX-License-Identifier: MIT
import numpy as np
import pytest

import hooke


def hanging(u):
    """A 0.2 kg mass 1 m (and its sag) below a pinned particle on a spring damped on the relative velocity."""
    w = hooke.World(gravity=(0, -9.81, 0))
    w.add_spring(a=(0, 0, 0), b=(0, -1 - 0.2 * 9.81 / 2000, 0), mass_b=0.2, pin_a=1,
                 springs={"k": 2000, "damping": 1.0, "damping_model": "relative", "rest_length": 1.0})
    w.set_integrator("semi_implicit_euler", dt=1e-3)
    w.set_velocities([[0, 0, 0], u])
    return w


@pytest.mark.parametrize("integrator", ["semi_implicit_euler", "velocity_verlet", "rk4", "implicit_euler", "xpbd"])
def test_each_step_ends_at_its_target(integrator):
    """The driven particle ends every step at its target with the velocity of the step's line; the driver moving at
    u with the mass moving with it, the mass stays below it (the springs see the driver's velocity)."""
    u = np.array([0.5, 0.2, -0.3])
    w = hanging(u)
    assert w.positions[1][1] < 0
    w.set_integrator(integrator, dt=1e-3)
    before = w.positions[0].copy()
    for s in range(1, 301):
        t = u * s * 1e-3
        w.set_targets(np.array([0], dtype=np.int32), t[None, :])
        w.step()
        assert np.abs(w.positions[0] - t).max() < 1e-6
        assert np.abs(w.velocities[0] - (t - before) / 1e-3).max() < 1e-3
        before = t
    if integrator != "xpbd":  # xpbd's few iterations leave this stiff spring 3 mm longer: its own softness
        d = w.positions[1] - w.positions[0]
        assert abs(-d[1] - (1 + 0.2 * 9.81 / 2000)) < 1e-3
        assert np.abs(w.velocities[1] - u).max() < 1e-2
    idx, pos = w.targets
    assert list(idx) == [0] and np.array_equal(pos[0], u * 300 * 1e-3)


def test_hold_release_and_order():
    w = hooke.World(gravity=(0, 0, 0))
    w.add_points([[0, 0, 0], [1, 0, 0], [2, 0, 0]], 0.5, pin=[0])
    w.set_integrator("semi_implicit_euler", dt=1e-3)
    w.set_targets([2, np.int64(0)], [[2, 0.001, 0], [0, 0, 0.002]])
    assert list(w.targets[0]) == [2, 0]
    assert list(w.inverse_masses) == [0, 2, 0] and list(w.masses) == [0.5, 0.5, 0.5]
    w.step()
    assert w.velocities[2][1] == pytest.approx(1.0, rel=1e-4)
    w.step(5)  # held there, at rest
    assert list(w.velocities[2]) == [0, 0, 0] and w.positions[2][1] == pytest.approx(0.001, rel=1e-5)
    w.set_targets([2], [[2, 0.002, 0]])
    w.step()
    w.clear_targets([2])  # free, with the velocity it was driven at
    assert w.inverse_masses[2] == 2 and w.velocities[2][1] == pytest.approx(1.0, rel=1e-4)
    w.clear_targets()  # particle 0 was pinned: pinned again, at rest
    assert w.inverse_masses[0] == 0 and list(w.velocities[0]) == [0, 0, 0]
    assert len(w.targets[0]) == 0
    w.clear_targets([])  # an empty list releases none


def test_refused_before_anything_is_set():
    w = hooke.World(gravity=(0, 0, 0))
    w.add_points([[0, 0, 0], [1, 0, 0], [2, 0, 0]], 0.5)
    w.set_targets([1], [[1, 1, 0]])
    cases = [(([0, 3], [[0, 0, 0], [1, 1, 1]]), IndexError, r"set_targets: particles\[1\] = 3: no such particle"),
             (([-1], [[0, 0, 0]]), IndexError, r"particles\[0\] = -1"),
             (([0, 0], [[0, 0, 0], [0, 0, 0]]), ValueError, "set_targets: particle 0 is listed twice"),
             (([0, 2], [[0, 0, 0], [np.inf, 0, 0]]), ValueError, "set_targets: target of particle 2 is not finite"),
             (([0, 2], [[0, 0, 0]]), ValueError, r"positions must have shape \(2, 3\)"),
             (([0.5], [[0, 0, 0]]), TypeError, "set_targets: particles must be integers"),
             ((["x"], [[0, 0, 0]]), TypeError, "particles must be integers")]
    for args, error, message in cases:
        with pytest.raises(error, match=message):
            w.set_targets(*args)
        assert list(w.targets[0]) == [1] and list(w.inverse_masses) == [2, 0, 2]
    with pytest.raises(ValueError, match="clear_targets: particle 0 has no target"):
        w.clear_targets([1, 0])
    assert list(w.targets[0]) == [1]


def test_targets_in_a_batch_end_on_the_bits_alone():
    def make():
        w = hanging([0.5, 0, 0])
        return w
    b = hooke.Batch([make() for _ in range(3)], threads=2)
    alone = make()
    for s in range(1, 51):
        t = [[0.5 * s * 1e-3, 0, 0]]
        for w in list(b) + [alone]:
            w.set_targets([0], t)
        b.step()
        alone.step()
    assert list(b.state_hashes) == [alone.state_hash] * 3
