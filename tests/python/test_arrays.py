# test_arrays.py — the World's arrays: read-only views that see each step, copies where the state is a sum.
# SPDX-License-Identifier: MIT
import numpy as np
import pytest

import hooke


def test_views_see_the_steps(scene_path):
    w = hooke.World.from_scene(scene_path("rope.scene"))
    v = w.velocities
    f = w.forces
    assert v.shape == (80, 3) and v.base.world is w and not v.flags.writeable
    before = v.copy()
    w.step()  # the first step: the arrays stay where they were
    assert not np.array_equal(v, before)  # the same array object, new values
    np.testing.assert_array_equal(v, w.velocities)
    assert v.ctypes.data == w.velocities.ctypes.data and f.ctypes.data == w.forces.ctypes.data
    w.set_integrator("rk4")  # a new integrator's state does not move the particles' block
    w.step(3)
    np.testing.assert_array_equal(v, w.velocities)
    with pytest.raises(ValueError):
        v[0, 0] = 1.0


def test_view_outlives_its_name(scene_path):
    w = hooke.World.from_scene(scene_path("rope.scene"))
    m = w.masses
    del w  # the view keeps the World (its base) alive
    assert m.base is not None
    np.testing.assert_allclose(m, 0.05, rtol=1e-6)


def test_masses_and_inverse_masses(scene_path):
    w = hooke.World.from_scene(scene_path("rope.scene"))
    inv = w.inverse_masses
    assert inv[0] == 0  # the driven anchor
    np.testing.assert_allclose(inv[1:], 1 / 0.05, rtol=1e-6)


def test_positions_are_world_coordinates(scene_path):
    w = hooke.World.from_scene(scene_path("rope.scene"))
    x = w.positions
    assert x.dtype == np.float64 and x.shape == (80, 3)
    np.testing.assert_allclose(x[:, 0], 0.05 * np.arange(80), atol=1e-6)  # along +x from the origin
    x[5] = 123  # a copy: the world is unchanged
    assert w.positions[5, 0] == pytest.approx(0.25)


def test_positions_of_cloth_512_from_views(scene_path):
    """cloth_512's places without a copy: its rest positions and displacements are read-only views (base: the World)
    that see each step, and each body's origin + rest position + displacement is `positions`, bit for bit."""
    w = hooke.World.from_scene(scene_path("cloth_512.scene"))
    r, q = w.rest_positions, w.displacements
    assert r.shape == q.shape == (512 * 512, 3)
    assert r.base.world is w and q.base.world is w and not q.flags.writeable and not r.flags.writeable
    before = q.copy()
    w.step()
    assert not np.array_equal(q, before)  # the same array object, the new state
    assert (q.ctypes.data, r.ctypes.data) == (w.displacements.ctypes.data, w.rest_positions.ctypes.data)
    assert_positions_are_the_sum(w)
    with pytest.raises(ValueError):
        q[0, 0] = 1.0


def assert_positions_are_the_sum(w):
    r, q, x = w.rest_positions, w.displacements, w.positions
    for b in w.bodies:
        s = slice(b["first"], b["first"] + b["count"])
        summed = np.asarray(b["origin"]) + (r[s].astype(np.float64) + q[s].astype(np.float64))
        np.testing.assert_array_equal(x[s], summed)


def test_positions_are_origin_rest_and_displacement(scene_path):
    # four bodies, each with its own origin away from zero
    w = hooke.World.from_scene(scene_path("jelly_pile.scene"))
    assert len(w.bodies) == 4 and all(any(c != 0 for c in b["origin"]) for b in w.bodies)
    w.step(30)
    assert_positions_are_the_sum(w)


def test_writes_go_through_the_setters(scene_path):
    w = hooke.World.from_scene(scene_path("rope.scene"))
    x = w.positions + np.array([0.0, 2.0, 0.0])
    w.set_positions(x)
    np.testing.assert_allclose(w.positions, x, atol=1e-6)
    v = np.zeros((80, 3))
    v[:, 2] = 1.5
    w.set_velocities(v)
    np.testing.assert_array_equal(w.velocities, v.astype(w.velocities.dtype))
    with pytest.raises(ValueError):
        w.set_velocities(np.zeros((79, 3)))
    bad = v.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError):
        w.set_velocities(bad)
    np.testing.assert_array_equal(w.velocities[:, 2], 1.5)  # a refused array leaves the world as it was


def test_a_refused_array_writes_nothing(scene_path):
    """Every value is checked before any is written: a velocity beyond the build's precision at particle 40 (finite
    in double) leaves particles 0 to 39 as they were, and the state hash with them."""
    w = hooke.World.from_scene(scene_path("rope.scene"))
    w.step(3)
    before, hash_before = np.array(w.velocities), w.state_hash
    v = np.full((80, 3), 2.0)
    v[40, 0] = 1e39 if hooke.precision == "float" else np.inf  # float: finite, beyond the build's precision
    with pytest.raises(ValueError, match="particle 40"):
        w.set_velocities(v)
    np.testing.assert_array_equal(w.velocities, before)
    assert w.state_hash == hash_before
    x = np.array(w.positions)
    x[40, 1] = np.nan
    with pytest.raises(ValueError, match="set_positions: position of particle 40 is not finite"):
        w.set_positions(x)
    assert w.state_hash == hash_before


def test_spring_lengths(scene_path):
    w = hooke.World.from_scene(scene_path("rope.scene"))
    rest, length, stretch = w.rest_lengths, w.spring_lengths, w.stretch
    assert rest.shape == (79,) and np.all(rest == pytest.approx(0.05))
    np.testing.assert_allclose(length, 0.05, rtol=1e-6)  # starts at rest
    w.step(30)
    x = w.positions
    # the chain's springs join neighbours: their lengths are the distances between them
    np.testing.assert_allclose(w.spring_lengths, np.linalg.norm(np.diff(x, axis=0), axis=1), rtol=1e-5)
    np.testing.assert_allclose(w.stretch, w.spring_lengths / w.rest_lengths)
    assert w.stretch.max() == pytest.approx(w.stats()["max_stretch"])
    assert not w.broken.any()


def test_lattice_families_spring_lengths(scene_path):
    w = hooke.World.from_scene(scene_path("jelly26.scene"))
    fams = w.families
    assert sum(f["springs"] for f in fams) == len(w.rest_lengths)
    for f in fams:  # each family's slice: one rest length, its own
        part = w.rest_lengths[f["first_spring"]:f["first_spring"] + f["springs"]]
        assert np.ptp(part) == pytest.approx(0, abs=1e-7)
    np.testing.assert_allclose(w.stretch, 1, rtol=1e-6)  # a lattice at rest


def test_energy_put_in_by_hand_is_no_blowup(scene_path):
    # the energy bound starts again from a state written through the setters, as a run's starts from its first state
    # (the oscillator starts with 0.5 J; 200 J of motion is past 100 times that, but a swing of 2 m on a 1 m spring
    # is no runaway stretch)
    w = hooke.World.from_scene(scene_path("oscillator.scene"))
    v = np.zeros((2, 3))
    v[1, 1] = 20.0
    w.set_velocities(v)
    w.run(steps=200)
    assert w.step_count == 200 and 1.5 < w.stretch.max() < 10


def test_views_stay_across_a_restore(scene_path, tmp_path):
    w = hooke.World.from_scene(scene_path("rope.scene"))
    v = w.velocities
    ck = str(tmp_path / "a.ck")
    w.step(4)
    w.save_checkpoint(ck)
    w.step(4)
    w.restore_checkpoint(ck)
    assert v.ctypes.data == w.velocities.ctypes.data
    np.testing.assert_array_equal(v, w.velocities)


@pytest.mark.parametrize("scene", ["rope_implicit.scene", "cloth_box.scene", "jelly_pile.scene", "pressure_ball.scene"])
def test_views_stay_where_they_are(scene_path, scene):
    # an implicit solver's, the contacts' and the pressure's state are made at the first step: not the particles'
    w = hooke.World.from_scene(scene_path(scene))
    v, m = w.velocities, w.masses
    w.step(2)
    assert (v.ctypes.data, m.ctypes.data) == (w.velocities.ctypes.data, w.masses.ctypes.data)
    np.testing.assert_array_equal(v, w.velocities)


def test_topology_as_arrays():
    """world.springs: the ends of every spring in the order of the per-spring arrays (their distance is
    spring_lengths); world.faces and face_bodies: a cloth's two triangles per cell, an icosphere's 20 * 4^level
    (outward), a rope none."""
    w = hooke.World(gravity=(0, 0, 0))
    w.add_cloth(nx=6, ny=4, spacing=0.1, mass=0.01, springs={"structural": {"k": 100}, "bend": {"k": 10}})
    w.add_icosphere(radius=0.5, level=1, center=(3, 0, 0), mass=0.01, springs={"edges": {"k": 100}})
    w.add_rope(count=5, mass=0.1, spacing=0.1, origin=(0, 2, 0))
    w.step(3)
    ab, pos = w.springs, w.positions
    assert ab.shape == (len(w.rest_lengths), 2) and ab.dtype == np.int64
    r = np.linalg.norm(pos[ab[:, 0]] - pos[ab[:, 1]], axis=1)
    assert np.allclose(r, w.spring_lengths, rtol=1e-5, atol=1e-7)
    families = w.families
    first_rope = sum(f["springs"] for f in families if f["body"] < 2)
    assert np.array_equal(ab[first_rope:], [[24 + 42 + i, 24 + 42 + i + 1] for i in range(4)])
    f, fb = w.faces, w.face_bodies
    assert f.shape == (2 * 5 * 3 + 80, 3) and fb.shape == (110,)
    assert np.array_equal(fb, [0] * 30 + [1] * 80)
    assert f[:30].max() < 24 and f[30:].min() >= 24 and f[30:].max() < 24 + 42
    tri = pos[f[30:]]
    normal = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    assert np.all(np.einsum("ij,ij->i", normal, tri.mean(axis=1) - [3, 0, 0]) > 0)


def _png_pixels(path):
    """(H, W, 3) uint8 of an 8-bit RGB PNG (the frames' kind), its filters undone."""
    import struct
    import zlib

    data, at, idat = open(path, "rb").read(), 8, b""
    while at < len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        at += 12 + n
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert (depth, colour) == (8, 2)
        elif kind == b"IDAT":
            idat += body
    raw, stride = zlib.decompress(idat), 3 * width
    out, prev = np.zeros((height, stride), np.uint8), np.zeros(stride, np.int64)
    for y in range(height):
        f = raw[y * (stride + 1)]
        row = np.frombuffer(raw, np.uint8, stride, y * (stride + 1) + 1).astype(np.int64)
        if f == 0:
            cur = row
        elif f == 1:
            cur = np.cumsum(row.reshape(width, 3), axis=0).reshape(-1) % 256
        elif f == 2:
            cur = (row + prev) % 256
        else:
            cur = np.zeros(stride, np.int64)
            for x in range(stride):
                a = cur[x - 3] if x >= 3 else 0
                c = prev[x - 3] if x >= 3 else 0
                if f == 3:
                    cur[x] = (row[x] + (a + prev[x]) // 2) % 256
                else:
                    p = a + prev[x] - c
                    pa, pb, pc = abs(p - a), abs(p - prev[x]), abs(p - c)
                    cur[x] = (row[x] + (a if pa <= pb and pa <= pc else prev[x] if pb <= pc else c)) % 256
        out[y], prev = cur, cur
    return out.reshape(height, width, 3)


def test_render_is_the_png_frame(tmp_path):
    """world.render() is the picture write_frame(dir, "png") draws, pixel for pixel, as a (480, 640, 3) uint8 image;
    another size draws the same scene; a size out of range is a ValueError."""
    w = hooke.World.from_scene(hooke.scene_path("cloth_corners"))
    w.step(60)
    img = w.render()
    assert img.shape == (480, 640, 3) and img.dtype == np.uint8
    w.write_frame(tmp_path, "png")
    assert np.array_equal(img, _png_pixels(tmp_path / "frame_000060.png"))
    small = w.render(width=320, height=240)
    assert small.shape == (240, 320, 3) and len(np.unique(small.reshape(-1, 3), axis=0)) > 10
    with pytest.raises(ValueError, match="render: width and height must be 16 to 8192 pixels"):
        w.render(width=8)
