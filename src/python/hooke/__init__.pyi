# __init__.pyi — the package hooke's types: World, Batch, exceptions and functions, for type checkers and editors.
# SPDX-License-Identifier: MIT
from os import PathLike
from typing import Any, Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

__version__: str
precision: str

Vec3 = Sequence[float]
Springs = dict[str, dict[str, Any]] | dict[str, Any]

class Error(Exception):
    status: int
    result: dict[str, Any] | None

class SceneError(Error):
    file: str | None
    line: int | None
    column: int | None
    message: str

class BlowUp(Error):
    step: int
    time: float
    particle: int | None
    body: int | None
    family: int | None
    spring: int | None
    cause: str
    value: float
    hint: str

class World:
    def __new__(
        cls,
        *,
        gravity: Vec3 | None = ...,
        air_drag: float | None = ...,
        wind: Vec3 | None = ...,
        wind_model: str | None = ...,
        wind_drag: float | None = ...,
        strain_sweeps: int | None = ...,
        gravity_schedule: Sequence[Sequence[float]] | Sequence[float] | None = ...,
        ground: dict[str, Any] | None = ...,
        walls: dict[str, Any] | None = ...,
        contact: dict[str, Any] | None = ...,
        threads: int = ...,
    ) -> World: ...
    @classmethod
    def from_scene(cls, path: str | bytes | PathLike[str], threads: int = ...) -> World: ...
    @classmethod
    def from_string(cls, text: str, name: str = ..., threads: int = ...) -> World: ...
    def step(self, n: int = ...) -> None: ...
    def run(
        self, steps: int | None = ..., time: float | None = ..., every: int | None = ...,
        callback: Callable[[World], Any] | None = ...,
    ) -> int: ...
    def stats(self) -> dict[str, Any]: ...
    def set_integrator(
        self, name: str, *, dt: float = ..., dt_max: float = ..., jelly_dt_a: float = ..., jelly_dt_v: float = ...,
        jelly_alpha: float = ..., cg_tolerance: float = ..., cg_max_iterations: int = ..., newton_iterations: int = ...,
        newton_tolerance: float = ..., iterations: int = ..., chebyshev_rho: float = ..., cg_stop: str = ...,
        cg_preconditioner: str = ...,
    ) -> None: ...
    def set_positions(self, xyz: ArrayLike, /) -> None: ...
    def set_velocities(self, v: ArrayLike, /) -> None: ...
    def set_masses(self, m: ArrayLike, /) -> None: ...
    def set_applied_forces(self, f: ArrayLike, /) -> None: ...
    def clear_applied_forces(self) -> None: ...
    def applied_force_arrays(self) -> NDArray[np.floating]: ...
    def set_targets(self, particles: ArrayLike, positions: ArrayLike, /) -> None: ...
    def clear_targets(self, particles: ArrayLike | None = ...) -> None: ...
    def write_frame(self, dir: str, formats: str = ...) -> None: ...
    def render(self, width: int = ..., height: int = ...) -> NDArray[np.uint8]: ...
    def write_frames(
        self, dir: str | PathLike[str], formats: str = ..., every: int | None = ..., steps: int | None = ...,
        time: float | None = ...,
    ) -> int: ...
    def save_checkpoint(self, path: str, /) -> None: ...
    def restore_checkpoint(self, path: str, /) -> None: ...
    def save_state(self) -> bytes: ...
    def restore_state(self, state: bytes, /) -> None: ...
    def add_springs(
        self, body: int, pairs: ArrayLike, *, name: str = ..., k: float, damping: float = ...,
        damping_model: str = ..., behaviour: str = ..., break_ratio: float | None = ..., rest_length: float = ...,
        rest_lengths: ArrayLike | None = ..., strain_limit: float = ..., compress_limit: float = ...,
    ) -> int: ...
    def pin(self, body: int, index: int) -> None: ...
    def set_strain_limits(self, family: int, strain_limit: float = ..., compress_limit: float = ...) -> None: ...
    def unpin(self, body: int, index: int) -> None: ...
    def add_points(
        self, positions: ArrayLike, masses: ArrayLike | float, velocities: ArrayLike | None = ..., *,
        pairs: ArrayLike | None = ..., families: Sequence[str | None] | str | None = ...,
        rest_lengths: ArrayLike | None = ..., springs: Springs | None = ..., pin: Sequence[int] | None = ...,
    ) -> int: ...
    def add_rope(
        self,
        /,
        *,
        count: int | None = ...,
        mass: float | None = ...,
        spacing: float | None = ...,
        origin: Vec3 | None = ...,
        direction: Vec3 | None = ...,
        topology: str | None = ...,
        anchor: int | None = ...,
        anchor_velocity: Vec3 | None = ...,
        pin: Sequence[int] | None = ...,
        tethers: str | None = ...,
        tether_stretch: float | None = ...,
        springs: Springs | None = ...,
    ) -> int: ...
    def add_cloth(
        self,
        /,
        *,
        nx: int | None = ...,
        ny: int | None = ...,
        spacing: float | None = ...,
        origin: Vec3 | None = ...,
        u: Vec3 | None = ...,
        v: Vec3 | None = ...,
        mass: float | None = ...,
        radius: float | None = ...,
        pins: str | None = ...,
        pin: Sequence[int] | None = ...,
        tethers: str | None = ...,
        tether_stretch: float | None = ...,
        areal_density: float | None = ...,
        stretch: float | None = ...,
        shear: float | None = ...,
        bend: float | None = ...,
        preset: str | None = ...,
        springs: Springs | None = ...,
    ) -> int: ...
    def add_jelly(
        self,
        /,
        *,
        nx: int | None = ...,
        ny: int | None = ...,
        nz: int | None = ...,
        spacing: float | None = ...,
        origin: Vec3 | None = ...,
        mass: float | None = ...,
        neighbours: str | None = ...,
        pin: Sequence[int] | None = ...,
        springs: Springs | None = ...,
    ) -> int: ...
    def add_quad(
        self,
        /,
        *,
        size: Vec3 | None = ...,
        origin: Vec3 | None = ...,
        u: Vec3 | None = ...,
        v: Vec3 | None = ...,
        mass: float | None = ...,
        diagonals: int | None = ...,
        pin: Sequence[int] | None = ...,
        springs: Springs | None = ...,
    ) -> int: ...
    def add_spring(
        self,
        /,
        *,
        a: Vec3 | None = ...,
        b: Vec3 | None = ...,
        velocity_b: Vec3 | None = ...,
        mass_a: float | None = ...,
        mass_b: float | None = ...,
        pin_a: int | None = ...,
        springs: Springs | None = ...,
    ) -> int: ...
    def add_pendulum(
        self,
        /,
        *,
        pivot: Vec3 | None = ...,
        length: float | None = ...,
        angle: float | None = ...,
        mass: float | None = ...,
        k: float | None = ...,
        damping: float | None = ...,
    ) -> int: ...
    def add_mesh(
        self,
        /,
        *,
        file: str | None = ...,
        offset: Vec3 | None = ...,
        mass: float | None = ...,
        velocity: Vec3 | None = ...,
        extra_rings: int | None = ...,
        nrt: float | None = ...,
        pump_rate: float | None = ...,
        pin: Sequence[int] | None = ...,
        springs: Springs | None = ...,
    ) -> int: ...
    def add_icosphere(
        self,
        /,
        *,
        radius: float | None = ...,
        level: int | None = ...,
        center: Vec3 | None = ...,
        mass: float | None = ...,
        velocity: Vec3 | None = ...,
        extra_rings: int | None = ...,
        nrt: float | None = ...,
        pump_rate: float | None = ...,
        pin: Sequence[int] | None = ...,
        springs: Springs | None = ...,
    ) -> int: ...
    def add_ring(
        self,
        /,
        *,
        count: int | None = ...,
        radius: float | None = ...,
        center: Vec3 | None = ...,
        mass: float | None = ...,
        nrt: float | None = ...,
        pump_rate: float | None = ...,
        pin: Sequence[int] | None = ...,
        springs: Springs | None = ...,
    ) -> int: ...
    def add_sphere(
        self,
        /,
        *,
        center: Vec3 | None = ...,
        radius: float | None = ...,
        velocity: Vec3 | None = ...,
        loss: float | None = ...,
    ) -> None: ...
    def add_collider(
        self,
        /,
        *,
        shape: str | None = ...,
        file: str | None = ...,
        offset: Vec3 | None = ...,
        rotation: Vec3 | None = ...,
        size: Vec3 | None = ...,
        radius: float | None = ...,
        length: float | None = ...,
        velocity: Vec3 | None = ...,
        angular_velocity: Vec3 | None = ...,
        thickness: float | None = ...,
        stiffness: float | None = ...,
        damping_ratio: float | None = ...,
        friction: float | None = ...,
    ) -> None: ...
    def set_contact(
        world,
        /,
        *,
        bodies: str | None = ...,
        self: str | None = ...,
        model: str | None = ...,
        thickness: float | None = ...,
        radius: float | None = ...,
        stiffness: float | None = ...,
        damping_ratio: float | None = ...,
        friction: float | None = ...,
        max_pairs: int | None = ...,
    ) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def time(self) -> float: ...
    @property
    def step_count(self) -> int: ...
    @property
    def state_hash(self) -> int: ...
    @property
    def threads(self) -> int: ...
    @threads.setter
    def threads(self, n: int) -> None: ...
    @property
    def run_settings(self) -> dict[str, Any]: ...
    @property
    def run_plan(self) -> dict[str, Any]: ...
    @property
    def integrator(self) -> dict[str, Any]: ...
    @property
    def bodies(self) -> list[dict[str, Any]]: ...
    @property
    def families(self) -> list[dict[str, Any]]: ...
    @property
    def positions(self) -> NDArray[np.float64]: ...
    @property
    def velocities(self) -> NDArray[np.floating]: ...
    @property
    def forces(self) -> NDArray[np.floating]: ...
    @property
    def applied_forces(self) -> NDArray[np.float64]: ...
    @property
    def displacements(self) -> NDArray[np.floating]: ...
    @property
    def rest_positions(self) -> NDArray[np.floating]: ...
    @property
    def targets(self) -> tuple[NDArray[np.int64], NDArray[np.float64]]: ...
    @property
    def masses(self) -> NDArray[np.floating]: ...
    @property
    def inverse_masses(self) -> NDArray[np.floating]: ...
    @property
    def rest_lengths(self) -> NDArray[np.float64]: ...
    @property
    def spring_lengths(self) -> NDArray[np.float64]: ...
    @property
    def stretch(self) -> NDArray[np.float64]: ...
    @property
    def broken(self) -> NDArray[np.bool_]: ...
    @property
    def springs(self) -> NDArray[np.int64]: ...
    @property
    def faces(self) -> NDArray[np.int64]: ...
    @property
    def face_bodies(self) -> NDArray[np.int64]: ...

class Batch:
    def __init__(self, worlds: Sequence[World], threads: int = ...) -> None: ...
    @classmethod
    def from_scene(cls, path: str | bytes | PathLike[str], n: int, threads: int = ...) -> Batch: ...
    @classmethod
    def from_string(cls, text: str, n: int, name: str = ..., threads: int = ...) -> Batch: ...
    def __len__(self) -> int: ...
    def __getitem__(self, i: int) -> World: ...
    def step(self, n: int = ...) -> list[int]: ...
    def save_state(self) -> None: ...
    def reset(self, i: int | Sequence[int] | None = ...) -> None: ...
    def set_applied_forces(self, f: ArrayLike) -> None: ...
    def set_positions(self, xyz: ArrayLike) -> None: ...
    def set_velocities(self, v: ArrayLike) -> None: ...
    @property
    def worlds(self) -> tuple[World, ...]: ...
    @property
    def threads(self) -> int: ...
    @property
    def errors(self) -> list[Error | None]: ...
    @property
    def running(self) -> NDArray[np.bool_]: ...
    @property
    def positions(self) -> NDArray[np.float64]: ...
    @property
    def velocities(self) -> NDArray[np.floating]: ...
    @property
    def applied_forces(self) -> NDArray[np.float64]: ...
    @property
    def state_hashes(self) -> NDArray[np.uint64]: ...
    @property
    def step_counts(self) -> NDArray[np.int64]: ...

def scene_path(name: str) -> str: ...
def stability(scene: str, **options: Any) -> dict[str, Any]: ...
def bench(scene: str | None = ..., **options: Any) -> dict[str, Any]: ...
def integrators() -> list[dict[str, Any]]: ...
def body_kinds() -> dict[str, list[str]]: ...
def scene_keys() -> dict[str, list[str]]: ...
