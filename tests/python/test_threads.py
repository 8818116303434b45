# test_threads.py — worlds step side by side in Python threads; one world used by two threads at once is refused.
# SPDX-License-Identifier: MIT
import threading
import time

import pytest

import hooke

STEPS = 40


def alone(path):
    w = hooke.World.from_scene(path)
    w.step(STEPS)
    return w.state_hash


def test_two_worlds_in_two_threads(scene_path):
    paths = [scene_path("jelly52.scene"), scene_path("cloth_stiff.scene")]
    worlds = [hooke.World.from_scene(p) for p in paths]
    go = threading.Barrier(2)
    errors = []

    def work(w):
        try:
            go.wait()
            for _ in range(4):
                w.step(STEPS // 4)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(w,)) for w in worlds]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert [w.state_hash for w in worlds] == [alone(p) for p in paths]
    assert worlds[0].state_hash != worlds[1].state_hash


def test_one_world_two_threads_is_refused(scene_path):
    w = hooke.World.from_scene(scene_path("rope.scene"))
    started = threading.Event()
    done = []

    def long_steps():
        started.set()
        w.step(50000)  # about a second
        done.append(True)

    t = threading.Thread(target=long_steps)
    t.start()
    started.wait()
    refused = None
    while t.is_alive() and refused is None:
        try:
            w.stats()
        except RuntimeError as e:
            refused = e
        time.sleep(0.001)
    t.join()
    assert done == [True]
    assert refused is not None and "world in use" in str(refused)
    with pytest.raises(RuntimeError):
        raise refused
    w.step()  # free again once the other thread is done
    assert w.step_count == 50001
