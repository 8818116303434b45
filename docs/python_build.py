# python_build.py — a world built in code: the hanging cloth of scenes/cloth_hanging_xpbd.scene, its stiffness swept.
# usage: PYTHONPATH=build/python python3 docs/python_build.py   (from the repository root)
# SPDX-License-Identifier: MIT
import hooke


def hanging_cloth(k):
    """The Newton engine's hanging cloth (64 x 32 nodes 0.1 m apart, 0.1 kg each, an edge pinned) of stiffness k."""
    w = hooke.World(gravity=(0, -9.81, 0))
    w.add_cloth(nx=64, ny=32, spacing=0.1, origin=(0, 0, 0), u=(1, 0, 0), v=(0, 0, 1), mass=0.1, pins="edge",
                springs={"structural": {"k": k}, "shear": {"k": k}, "bend": {"k": k}})
    w.set_integrator("xpbd", dt=1 / 60, dt_max=1 / 600, iterations=10)
    return w


# the code says what the scene says: the same bits after 60 frames
scene = hooke.World.from_scene("scenes/cloth_hanging_xpbd.scene")
code = hanging_cloth(1e3)
scene.step(60)
code.step(60)
print(f"scene and code: state hash {scene.state_hash:#018x} and {code.state_hash:#018x}")
assert scene.state_hash == code.state_hash

# the sweep the scene text could only do by rewriting it: the largest stretch after 1 s at each stiffness
for k in (1e2, 1e3, 1e4):
    w = hanging_cloth(k)
    w.step(60)
    print(f"k = {k:7.0f} N/m: largest r/L0 {w.stats()['max_stretch']:.4f}")

# a value the format refuses names the call and the argument
try:
    hanging_cloth(1e3).add_rope(count=1, mass=0.1, spacing=0.1)
except ValueError as e:
    print(e)
