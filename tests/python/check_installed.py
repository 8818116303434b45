# check_installed.py — an installed package hooke: found where it was installed, the program's version, its state.
# SPDX-License-Identifier: MIT
"""usage: python3 tests/python/check_installed.py SITE HOOKE SCENE STEPS

Run by tests/consumer/check.sh with the interpreter the package was built
for, in an environment that reaches nothing of the build tree (no
LD_LIBRARY_PATH; PYTHONPATH, where set, names only the install's
site-packages): `import hooke` must load the package and its module _hooke
from SITE; `hooke.__version__` must be what `HOOKE --version` prints; and
SCENE stepped STEPS times from Python must reach the state hash that
`HOOKE run SCENE --steps STEPS` prints (the same bits for any thread count);
hooke.scene_path gives the installed copy of SCENE (a shipped scene),
py.typed and __init__.pyi are installed beside the module, and the tools
run the program installed in the package (hooke.integrators()).
"""
import re
import subprocess
import sys
from pathlib import Path


def main(site, program, scene, steps):
    import hooke

    site = Path(site).resolve()
    for name, module in ("hooke", hooke), ("hooke._hooke", hooke._hooke):
        where = Path(module.__file__).resolve()
        if site not in where.parents:
            sys.exit(f"check_installed.py: {name} was imported from {where}, not from {site}")

    version = subprocess.run([program, "--version"], check=True, capture_output=True, text=True).stdout.split()
    if hooke.__version__ not in version:
        sys.exit(f"check_installed.py: hooke.__version__ is {hooke.__version__!r}, `hooke --version` prints {version}")

    out = subprocess.run([program, "run", scene, "--steps", str(steps), "--quiet"],
                         check=True, capture_output=True, text=True).stdout
    want = re.search(r"state_hash=(0x[0-9a-f]+)", out)
    if not want:
        sys.exit(f"check_installed.py: `hooke run` printed no state_hash: {out!r}")
    world = hooke.World.from_scene(scene)
    world.step(steps)
    got = f"0x{world.state_hash:016x}"
    if got != want.group(1):
        sys.exit(f"check_installed.py: {scene} after {steps} steps: state_hash={got} from Python, "
                 f"{want.group(1)} from `hooke run`")
    # the package's own scenes and type information: the same scene, and the stub beside the module
    packaged = Path(hooke.scene_path(Path(scene).stem))
    if site not in packaged.resolve().parents or packaged.read_text() != Path(scene).read_text():
        sys.exit(f"check_installed.py: hooke.scene_path gives {packaged}, not the installed copy of {scene}")
    for typed in ("py.typed", "__init__.pyi"):
        if not (Path(hooke.__file__).parent / typed).is_file():
            sys.exit(f"check_installed.py: the installed package has no {typed}")
    # the program the tools run, installed in the package: the tables it prints
    names = [i["name"] for i in hooke.integrators()]
    if "semi_implicit_euler" not in names:
        sys.exit(f"check_installed.py: hooke.integrators() gave {names}")
    print(f"hooke {hooke.__version__} from {Path(hooke.__file__).parent}: {steps} steps of {Path(scene).name}, "
          f"state_hash={got} as `hooke run`; its scenes, types and program installed ({len(names)} integrators)")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__.splitlines()[0])
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))
