# test_interrupt.py — Ctrl-C during World.run: KeyboardInterrupt at a whole step, the world usable and exact after.
# SPDX-License-Identifier: MIT
import os
import signal
import subprocess
import sys
import time

import hooke

CHILD = r"""
import sys, hooke
w = hooke.World.from_scene(sys.argv[1])
w.step()
print("running", flush=True)
try:
    w.run(steps=10**9)
    print("finished", flush=True)
except KeyboardInterrupt:
    n = w.step_count
    w.step(5)
    print("interrupted", n, w.state_hash, flush=True)
"""


def test_sigint_stops_run_at_a_whole_step(scene_path):
    scene = scene_path("rope.scene")
    env = dict(os.environ)
    p = subprocess.Popen([sys.executable, "-c", CHILD, scene], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env)
    try:
        assert p.stdout.readline().strip() == "running"
        time.sleep(0.5)  # well inside run()'s steps
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
        waited = time.monotonic() - sent
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, err
    word, n, h = out.split()
    assert word == "interrupted", out + err
    n, h = int(n), int(h)
    assert n > 1 and waited < 30
    # the interrupted world stepped on is the world stepped without interruption
    w = hooke.World.from_scene(scene)
    w.step(n + 5)
    assert h == w.state_hash
