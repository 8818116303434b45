# hooke — the hooke mass-spring solver from Python: worlds built from scene files or in code, stepped, read, saved.
# SPDX-License-Identifier: MIT
"""The hooke mass-spring solver (libhooke) from Python.

    import hooke
    w = hooke.World.from_scene("scenes/rope.scene")
    w.step(100)
    print(w.state_hash, w.stats()["total"])

    w = hooke.World(gravity=(0, -9.81, 0))      # or in code, the scene format's keys as arguments
    w.add_rope(count=20, mass=0.1, spacing=0.05, springs={"chain": {"k": 500}}, pin=[0])
    w.step(100)

World.step() and World.run() release the GIL while they step (a call of tiny work keeps it); Ctrl-C stops
them at the next whole step (KeyboardInterrupt). A blow-up raises
hooke.BlowUp, a bad scene hooke.SceneError (both hooke.Error).
"""
from ._hooke import BlowUp, Error, SceneError, __version__, precision
from . import _hooke
from .build import World  # the module's World, with its builders (build.py)

__all__ = ["World", "Error", "SceneError", "BlowUp", "__version__", "precision"]

# the Python-side tools (tools.py): stability(), bench(), integrators(), body_kinds(), scene_keys()
try:
    from .tools import body_kinds, bench, integrators, scene_keys, stability
except ModuleNotFoundError as e:  # a tree without tools.py; any other import error is raised
    if e.name != __name__ + ".tools":
        raise
else:
    __all__ += ["stability", "bench", "integrators", "body_kinds", "scene_keys"]
