# batch.py — hooke.Batch: many worlds stepped together on hooke's threads, read and driven as stacked arrays.
# SPDX-License-Identifier: MIT
"""hooke.Batch: N worlds stepped together, a world per thread at a time.

    b = hooke.Batch.from_scene(hooke.scene_path("flag"), 64, threads=2)
    b.save_state()                      # every world's state, kept for reset()
    b.step(100)                         # 100 steps of each world
    x = b.positions                     # (64, n, 3): every world has n particles

Each world steps on one thread (its own threads setting becomes 1) and ends
on the same bits as the same world stepped alone by World.step. A batch is
checked for blow-ups as one world holding all of its worlds would be (the
check reads the state, so the bits do not depend on it): a world that blows
up stops there, its exception (hooke.BlowUp, as World.step raises it) is
kept in errors[i], and the others go on.
"""
import operator

import numpy as np

from . import _hooke
from .build import World

__all__ = ["Batch"]


class Batch:
    """N hooke.World objects stepped together on `threads` threads (0: hooke's default for all their springs).

    Batch(worlds, threads=0): the worlds of a list (each once; shapes may differ). Batch.from_scene(path, n) and
    Batch.from_string(text, n) make n copies of one scene; give each copy its own parameters through its World
    (batch[i].set_integrator(...), set_masses, set_applied_forces, ...) or build the list yourself.
    """

    def __init__(self, worlds, threads=0):
        worlds = tuple(worlds)
        if not worlds:
            raise ValueError("Batch: worlds must hold at least one hooke.World")
        seen = set()
        for i, w in enumerate(worlds):
            if not isinstance(w, World):
                raise TypeError(f"Batch: worlds[{i}] is {type(w).__name__}, not a hooke.World")
            if id(w) in seen:
                raise ValueError(f"Batch: worlds[{i}] is in the batch twice (each world steps once a step)")
            seen.add(id(w))
        threads = operator.index(threads)
        if not 0 <= threads <= 4096:
            raise ValueError(f"Batch: threads must be 0 (hooke's default) to 4096 (got {threads})")
        for w in worlds:
            w.threads = 1
        self._worlds = worlds
        self._threads = threads
        self._errors = [None] * len(worlds)
        self._saved = None

    @classmethod
    def from_scene(cls, path, n, threads=0):
        """n copies of a scene file's world (each read as World.from_scene reads it)."""
        return cls([World.from_scene(path, threads=1) for _ in range(_count(n))], threads)

    @classmethod
    def from_string(cls, text, n, name="<scene>", threads=0):
        """n copies of the world of scene text (as World.from_string)."""
        return cls([World.from_string(text, name=name, threads=1) for _ in range(_count(n))], threads)

    def __len__(self):
        return len(self._worlds)

    def __getitem__(self, i):
        return self._worlds[i]

    def __iter__(self):
        return iter(self._worlds)

    @property
    def worlds(self):
        """the worlds, in order (a tuple)"""
        return self._worlds

    @property
    def threads(self):
        """threads the batch steps on [1]"""
        return _hooke._batch_threads(self._worlds, self._threads)

    @property
    def errors(self):
        """per world: None, or the exception that stopped it (hooke.BlowUp, hooke.Error) until reset() (a list)"""
        return list(self._errors)

    @property
    def running(self):
        """(N,) bool: the worlds that step (no error)"""
        return np.array([e is None for e in self._errors], dtype=bool)

    def step(self, n=1):
        """n steps of every world without an error. Returns the indices of the worlds that stopped in this call (their
        exceptions in errors); Ctrl-C stops every world at the same whole step (KeyboardInterrupt)."""
        n = operator.index(n)
        if n < 0:
            raise ValueError(f"step: n must be >= 0 (got {n})")
        live = [i for i, e in enumerate(self._errors) if e is None]
        if not live or n == 0:
            return []
        stopped = _hooke._step_batch(tuple(self._worlds[i] for i in live), n, self.threads)
        for k, e in stopped:
            self._errors[live[k]] = e
        return [live[k] for k, _ in stopped]

    def save_state(self):
        """Keeps every world's state now (World.save_state) for reset()."""
        self._saved = [w.save_state() for w in self._worlds]

    def reset(self, i=None):
        """World i (an int, a sequence of them, or None: every world) back to the state save_state() kept, its
        error cleared."""
        if self._saved is None:
            raise RuntimeError("reset: no saved state (call save_state() first)")
        which = range(len(self._worlds)) if i is None else [i] if _is_index(i) else list(i)
        which = [_index(k, len(self._worlds), "reset") for k in which]
        for k in which:
            self._worlds[k].restore_state(self._saved[k])
            self._errors[k] = None

    def _particles(self, name, use):
        """The particle count every world holds, for Batch.NAME; ValueError where they differ (`use`: what to do)."""
        counts = {len(w.masses) for w in self._worlds}
        if len(counts) != 1:
            raise ValueError(f"Batch.{name}: the worlds hold different particle counts ({sorted(counts)}): stacked "
                             f"arrays need worlds of one shape; {use} batch[i].{name} instead")
        return counts.pop()

    def _stacked(self, name):
        self._particles(name, "read")
        return np.stack([getattr(w, name) for w in self._worlds])

    @property
    def positions(self):
        """(N, n, 3) float64 positions [m] of every world (a copy); ValueError where the worlds' shapes differ"""
        return self._stacked("positions")

    @property
    def velocities(self):
        """(N, n, 3) velocities [m/s] of every world (a copy)"""
        return self._stacked("velocities")

    @property
    def applied_forces(self):
        """(N, n, 3) float64 applied forces [N] of every world (a copy)"""
        return self._stacked("applied_forces")

    @property
    def state_hashes(self):
        """(N,) uint64 state_hash of every world"""
        return np.array([w.state_hash for w in self._worlds], dtype=np.uint64)

    @property
    def step_counts(self):
        """(N,) int64 steps each world has taken"""
        return np.array([w.step_count for w in self._worlds], dtype=np.int64)

    def set_applied_forces(self, f):
        """Every world's applied forces [N] from an (N, n, 3) array, each world's from f[i] (World.set_applied_forces);
        the whole array is checked before any world is written."""
        self._set_stacked("set_applied_forces", f)

    def set_positions(self, xyz):
        """Every world's positions [m] from an (N, n, 3) array (World.set_positions), checked whole first."""
        self._set_stacked("set_positions", xyz)

    def set_velocities(self, v):
        """Every world's velocities [m/s] from an (N, n, 3) array (World.set_velocities), checked whole first."""
        self._set_stacked("set_velocities", v)

    def _set_stacked(self, name, a):
        n = self._particles(name, "call")
        try:
            arr = np.asarray(a, dtype=np.float64)
        except (TypeError, ValueError) as e:
            raise TypeError(f"Batch.{name}: expected an (N, n, 3) array of numbers: {e}") from None
        want = (len(self._worlds), n, 3)
        if arr.shape != want:
            raise ValueError(f"Batch.{name}: expected shape {want} (worlds, particles, 3), got {arr.shape}")
        bad = ~np.isfinite(arr)
        if bad.any():
            i, p, c = (int(x) for x in np.argwhere(bad)[0])
            raise ValueError(f"Batch.{name}: value [{i}, {p}, {c}] is {arr[i, p, c]}, not finite")
        for w, row in zip(self._worlds, arr):
            getattr(w, name)(row)

    def __repr__(self):
        return f"<hooke.Batch of {len(self._worlds)} worlds on {self.threads} threads>"


def _count(n):
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"Batch: n must be >= 1 (got {n})")
    return n


def _is_index(i):
    try:
        operator.index(i)
    except TypeError:
        return False
    return True


def _index(k, n, name):
    k = operator.index(k)
    if not -n <= k < n:
        raise IndexError(f"{name}: world {k} out of range (the batch holds {n})")
    return k % n
