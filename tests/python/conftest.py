# conftest.py — what the Python module's tests share: the built program, the shipped scenes, hooke run's state hash.
# SPDX-License-Identifier: MIT
import os
import re
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCENES = os.environ.get("HOOKE_SCENES", os.path.join(ROOT, "scenes"))
HOOKE_BIN = os.environ.get("HOOKE_BIN", os.path.join(ROOT, "build", "hooke"))


def run_program(*args, check_rc=None):
    """Runs the built program; (returncode, stdout, stderr)."""
    p = subprocess.run([HOOKE_BIN, *args], capture_output=True, text=True, timeout=120)
    if check_rc is not None:
        assert p.returncode == check_rc, p.stderr
    return p.returncode, p.stdout, p.stderr


def program_hash(scene, steps):
    """The state_hash `hooke run SCENE --steps N` prints."""
    _, out, err = run_program("run", scene, "--steps", str(steps), "--quiet", check_rc=0)
    m = re.search(r"state_hash=0x([0-9a-f]{16})", out)
    assert m, out + err
    return int(m.group(1), 16)


@pytest.fixture
def scene_path():
    return lambda name: os.path.join(SCENES, name)
