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
from .batch import Batch  # many worlds stepped together (batch.py)

__all__ = ["World", "Batch", "Error", "SceneError", "BlowUp", "__version__", "precision", "scene_path"]


def scene_path(name):
    """The path of a shipped scene (its name, with or without .scene: "rope"), from the package's own copy of
    scenes/ (with the meshes they load), so that a scene runs from any folder: World.from_scene(scene_path("rope")).
    FileNotFoundError, listing the shipped ones, for a name that is none of them."""
    import os

    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenes")
    file = name if str(name).endswith(".scene") else f"{name}.scene"
    path = os.path.join(folder, file)
    if os.path.basename(file) != file or not os.path.isfile(path):
        shipped = sorted(f[:-6] for f in os.listdir(folder) if f.endswith(".scene")) if os.path.isdir(folder) else []
        raise FileNotFoundError(f"scene_path: no shipped scene {name!r} (shipped: {', '.join(shipped) or 'none'})")
    return path

# the Python-side tools (tools.py): stability(), bench(), integrators(), body_kinds(), scene_keys()
try:
    from .tools import body_kinds, bench, integrators, scene_keys, stability
except ModuleNotFoundError as e:  # a tree without tools.py; any other import error is raised
    if e.name != __name__ + ".tools":
        raise
else:
    __all__ += ["stability", "bench", "integrators", "body_kinds", "scene_keys"]
