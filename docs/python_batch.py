# python_batch.py — a stiffness sweep as one hooke.Batch: a world per stiffness, stepped together, one blowing up.
# usage: PYTHONPATH=build/python python3 docs/python_batch.py   (from the repository root)
# SPDX-License-Identifier: MIT
import hooke

KS = (1e2, 3e2, 1e3, 1e5)  # [N/m]; the last is past semi-implicit Euler's limit at dt = 1 ms


def hanging_cloth(k):
    """A 16 x 16 cloth 5 cm apart, 10 g a node, hung by its edge, springs of stiffness k, dt = 1 ms."""
    w = hooke.World(gravity=(0, -9.81, 0))
    w.add_cloth(nx=16, ny=16, spacing=0.05, origin=(0, 0, 0), u=(1, 0, 0), v=(0, 0, 1), mass=0.01, pins="edge",
                springs={"structural": {"k": k, "damping": 0.01}, "shear": {"k": k, "damping": 0.01}})
    w.set_integrator("semi_implicit_euler", dt=1e-3)
    return w


batch = hooke.Batch([hanging_cloth(k) for k in KS], threads=2)
batch.save_state()
stopped = batch.step(1000)  # 1 s of each world; a blow-up stops its own world only
print(f"stopped: {stopped}")
for k, w, e in zip(KS, batch, batch.errors):
    if e is None:
        print(f"k = {k:7.0f} N/m: largest r/L0 {w.stats()['max_stretch']:.4f}")
    else:
        print(f"k = {k:7.0f} N/m: {type(e).__name__} at step {e.step}: {e.cause}")

# each world of the batch is the same world stepped alone, to the bit
alone = hanging_cloth(KS[2])
alone.step(1000)
print(f"k = 1000 N/m alone: the same bits: {alone.state_hash == batch[2].state_hash}")

# every world back to its start, the stiff one on 10 substeps a step (dt_max 0.1 ms), and 1 s again
batch.reset()
batch[3].set_integrator("semi_implicit_euler", dt=1e-3, dt_max=1e-4)
print(f"stopped: {batch.step(1000)}; k = {KS[3]:.0f} N/m: largest r/L0 {batch[3].stats()['max_stretch']:.4f}")
