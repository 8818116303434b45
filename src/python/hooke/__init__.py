# hooke — the hooke mass-spring solver from Python: worlds built from scene files, stepped, read and checkpointed.
# SPDX-License-Identifier: MIT
"""The hooke mass-spring solver (libhooke) from Python.

    import hooke
    w = hooke.World.from_scene("scenes/rope.scene")
    w.step(100)
    print(w.state_hash, w.stats()["total"])

World.step() and World.run() release the GIL while they step (a call of tiny work keeps it); Ctrl-C stops
them at the next whole step (KeyboardInterrupt). A blow-up raises
hooke.BlowUp, a bad scene hooke.SceneError (both hooke.Error).
"""
from ._hooke import BlowUp, Error, SceneError, World, __version__, precision
from . import _hooke

__all__ = ["World", "Error", "SceneError", "BlowUp", "__version__", "precision"]

# the Python-side tools (tools.py): stability(), bench(), integrators(), body_kinds(), scene_keys()
try:
    from .tools import body_kinds, bench, integrators, scene_keys, stability
except ModuleNotFoundError as e:  # a tree without tools.py; any other import error is raised
    if e.name != __name__ + ".tools":
        raise
else:
    __all__ += ["stability", "bench", "integrators", "body_kinds", "scene_keys"]
