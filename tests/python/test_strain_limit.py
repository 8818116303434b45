# SPDX-License-Identifier: MIT
"""Strain limits from Python: a springs dict's strain_limit and add_springs' keep every spring within it, and stats
says what the projection found and left."""
import numpy as np
import pytest

import hooke


def test_a_cloth_keeps_its_limit():
    w = hooke.World(gravity=(0, -9.81, 0))
    soft = {"k": 2.0, "damping": 0.002, "strain_limit": 0.05}
    w.add_cloth(nx=4, ny=24, spacing=0.02, u=(1, 0, 0), v=(0, -1, 0), mass=1e-3, pins="edge",
                springs={"structural": soft, "shear": soft, "bend": soft})
    w.set_integrator("semi_implicit_euler", dt=2e-3)
    assert all(f["strain_limit"] == 0.05 for f in w.families)
    found = 0.0
    for _ in range(100):
        w.step(1)
        ratio = w.stretch  # r / L0 of every spring
        s = w.stats()
        assert ratio.max() <= 1.05
        assert s["strain_after"] == pytest.approx(ratio.max(), rel=1e-6)
        assert s["strain_unconverged"] == 0
        found = max(found, s["strain_before"])
    assert found > 1.05


def test_add_springs_takes_the_limits():
    w = hooke.World(gravity=(0, 0, 0))
    body = w.add_points(np.array([[0, 0, 0], [1, 0, 0]], float), 1.0, np.array([[-1, 0, 0], [1, 0, 0]], float))
    w.add_springs(body, [[0, 1]], k=0.0, strain_limit=0.1, compress_limit=0.5)
    assert w.families[0]["compress_limit"] == 0.5
    w.step(20)
    assert w.spring_lengths[0] <= 1.1
    with pytest.raises(ValueError, match="strain_limit must be 0"):
        w.add_springs(body, [[0, 1]], name="bad", k=1.0, strain_limit=-1.0)


def test_limits_set_on_a_loaded_world():
    """A rope hanging with every spring past the limit to be set: its tethers bring the long path in, the sweeps (the
    rope one chain, solved at once) the rest, within a few steps (docs/user-guide.md, "Fabric that does not
    stretch")."""
    w = hooke.World.from_string("body rope\n count 20\n mass 0.001\n spacing 0.02\n pin 0\n tethers geodesic\n"
                                " tether_stretch 0.01\n springs chain k 400\nend\n"
                                "run\n integrator semi_implicit_euler\n dt 1e-3\nend\n")
    w.step(300)
    s = w.stats()
    assert w.stretch.max() > 1.015 and np.isnan(s["strain_after"]) and s["tethered"] > 0
    w.set_strain_limits(0, strain_limit=0.01)
    w.step(1)
    assert w.stats()["strain_before"] > 1.015
    w.step(3)
    assert w.stretch.max() <= 1.01 and w.stats()["strain_unconverged"] == 0
    w.set_strain_limits(0)  # none again: the next step measures no spring
    w.step(1)
    assert np.isnan(w.stats()["strain_after"])
    with pytest.raises(ValueError, match="no family 3"):
        w.set_strain_limits(3, strain_limit=0.1)


def test_tethers_from_a_builder():
    w = hooke.World(gravity=(0, -9.81, 0))
    soft = {"k": 1.0, "damping": 0.01}
    body = w.add_cloth(nx=8, ny=8, spacing=0.02, u=(1, 0, 0), v=(0, -1, 0), mass=1e-3, pins="two_corners",
                       tethers="euclidean", springs={"structural": soft, "shear": soft})
    w.set_integrator("implicit_euler", dt=0.01)
    w.step(100)
    x = w.positions
    far = np.linalg.norm(x[63] - x[7])  # the corner below pin 7, 7 rows down
    assert far <= 0.14 * (1 + 1e-5) and w.stats()["tethered"] > 0
    with pytest.raises(ValueError, match="no pinned or driven particle"):
        w.add_rope(count=3, mass=0.01, spacing=0.1, tethers="geodesic", springs={"chain": {"k": 1.0}})
