# build.py — hooke.World built in code: each call's keyword arguments written as the scene format's keys and added.
# SPDX-License-Identifier: MIT
"""Worlds built in code.

    w = hooke.World(gravity=(0, -9.81, 0))
    cloth = w.add_cloth(nx=64, ny=32, spacing=0.1, mass=0.1, pins="edge",
                        springs={"structural": {"k": 1e3}, "shear": {"k": 1e3}})
    w.set_integrator("xpbd", dt=1 / 60, dt_max=1 / 600, iterations=10)
    w.step(60)

Every add_KIND method takes the keys of the scene format's `body KIND` section (docs/scene-format.md) as keyword
arguments, with the same defaults, the same checks and the same SI units; `springs` takes the section's `springs`
lines as a dict {family: {"k": ..., "damping": ..., ...}} (a kind with one family takes the inner dict alone), and
`pin` a list of the body's particle indices. The keys, the families and what each method takes come from the
library's tables (hooke.scene_keys(), hooke.body_kinds()): the methods are made from them, so a key the format
gains is an argument here. A world built so steps as the scene that says the same does, to the bit. A value the
format refuses raises ValueError naming the call, the argument and what was expected, before anything is added.
"""
import inspect
import operator
import os
import re

from . import _hooke

# The unit of every key of the format's tables ("" where it has none): the docstrings' column, checked against the
# format's own tables by tests/python/test_build.py.
UNITS = {
    "gravity": "m/s^2", "air_drag": "N*s/m", "threads": "", "wind": "m/s", "wind_model": "", "wind_drag": "N*s/m",
    "model": "", "height": "m", "repulsion": "N/m", "friction": "", "absorption": "N*s/m", "stiffness": "N/m",
    "min": "m", "max": "m", "loss": "", "center": "m", "radius": "m", "velocity": "m/s", "shape": "", "file": "",
    "offset": "m", "rotation": "rad", "size": "m", "length": "m", "angular_velocity": "rad/s", "thickness": "m",
    "damping_ratio": "", "bodies": "", "self": "", "max_pairs": "", "count": "", "mass": "kg", "spacing": "m",
    "origin": "m", "direction": "", "topology": "", "anchor": "", "anchor_velocity": "m/s", "pin": "", "nx": "",
    "ny": "", "nz": "", "u": "", "v": "", "pins": "", "neighbours": "", "diagonals": "", "a": "m", "b": "m",
    "velocity_b": "m/s", "mass_a": "kg", "mass_b": "kg", "pin_a": "", "pivot": "m", "angle": "rad", "k": "N/m",
    "damping": "N*s/m", "level": "", "extra_rings": "", "nrt": "J", "pump_rate": "", "damping_model": "",
    "behaviour": "", "break_ratio": "", "rest_length": "m", "strain_limit": "", "compress_limit": "",
    "strain_sweeps": "", "tethers": "", "tether_stretch": "", "gravity_schedule": "s, m/s^2", "areal_density": "kg/m^2",
    "stretch": "N/m", "shear": "N/m", "bend": "N*m", "preset": "",
}
UNITS_IN = {("ground", "friction"): "N*s/m", ("body ring", "nrt"): "J/m"}  # keys whose unit differs in a section


def unit(section, key):
    """The unit of `key` in `section` ("world", "body cloth", ...)."""
    return UNITS_IN.get((section, key), UNITS.get(key, ""))

# the scene format's tables: {section: [key]} ("body KIND", "springs": a springs line's), {body kind: [family]}
_KEYS, _BODIES = _hooke.scene_tables()
_SPRING_KEYS = _KEYS["springs"]

_WORD = re.compile(r"[^\s#]+$")  # a word of the format: no space, no comment


def _number(value):
    """A number as the format reads it: an integer as it is, a real to its last bit (repr)."""
    if isinstance(value, bool):
        return "1" if value else "0"
    try:
        return str(operator.index(value))
    except TypeError:
        pass
    try:
        return repr(float(value))
    except (TypeError, ValueError):
        raise TypeError(f"expected a number, got {type(value).__name__} {value!r}") from None


def _seq(value):
    return isinstance(value, (list, tuple)) or (hasattr(value, "__len__") and hasattr(value, "__iter__"))


def _value(value):
    """The words of one key's value: a name, a number, or a sequence of numbers (a vector, pins) or of sequences of
    numbers (gravity_schedule's keyframes, (time, gx, gy, gz) each)."""
    if isinstance(value, str):
        if not _WORD.match(value):
            raise ValueError(f"expected one word (no space or '#': the scene format's names and file names), "
                             f"got {value!r}")
        return value
    if _seq(value):
        return " ".join(" ".join(_number(u) for u in v) if _seq(v) else _number(v) for v in value)
    return _number(value)


class _Text:
    """Scene text, line by line, with the argument each line says."""

    def __init__(self, call):
        self.call, self.lines, self.said = call, [], []

    def line(self, text, argument):
        self.lines.append(text)
        self.said.append(argument)

    def key(self, name, value, argument=None):
        try:
            words = _value(value)
        except (TypeError, ValueError) as e:
            raise type(e)(f"{self.call}: argument '{argument or name}': {e}") from None
        self.line(f"  {name} {words}", argument or name)

    def springs(self, families, given):
        """`springs FAMILY KEY VALUE ...` lines from {family: {key: value}} (or the one family's dict alone)."""
        if not isinstance(given, dict):
            raise TypeError(f"{self.call}: argument 'springs': expected a dict of families, got "
                            f"{type(given).__name__}")
        if given and all(k in _SPRING_KEYS for k in given):
            if len(families) != 1:
                raise TypeError(f"{self.call}: argument 'springs': expected {{family: {{key: value}}}} for its "
                                f"families ({', '.join(families)}), got the keys of one family")
            given = {families[0]: given}
        for family, params in given.items():
            if not isinstance(params, dict):
                raise TypeError(f"{self.call}: argument 'springs': family {family!r}: expected a dict of keys "
                                f"({', '.join(_SPRING_KEYS)}), got {type(params).__name__}")
            words = [f"springs {_value(str(family))}"]
            for key, value in params.items():
                try:
                    words.append(f"{_value(str(key))} {_value(value)}")
                except (TypeError, ValueError) as e:
                    raise type(e)(f"{self.call}: argument 'springs': family {family!r}, key {key!r}: {e}") from None
            self.line("  " + " ".join(words), "springs")

    def text(self):
        return "\n".join(self.lines) + "\n"

    def refused(self, error):
        """The format's message about line L as the call's: ValueError naming the argument L says."""
        message = str(error)
        m = re.match(r"[^\n]*?:(\d+):\d+: error: (.*)", message, re.S)
        if not m:
            m2 = re.match(r"[^\n]*?: error: (.*)", message, re.S)
            return ValueError(f"{self.call}: {m2.group(1) if m2 else message}")
        line, what = int(m.group(1)), m.group(2)
        missing = re.search(r"is missing required key '(\w+)'", what)
        if missing:
            return ValueError(f"{self.call}: argument '{missing.group(1)}' is required")
        said = self.said[line - 1] if 0 < line <= len(self.said) else None
        return ValueError(f"{self.call}: argument '{said}': {what}" if said else f"{self.call}: {what}")


def _section(world, call, head, keys, given, families=()):
    """Adds one section of `head` from the arguments given (None: not given, the format's default)."""
    t = _Text(call)
    t.line(head, None)
    for name in keys:
        if name in given and given[name] is not None:
            t.key(name, given[name])
    if families and given.get("springs") is not None:
        t.springs(list(families), given["springs"])
    t.line("end", None)
    try:
        return world._add(t.text(), call)
    except _hooke.SceneError as e:
        raise t.refused(e) from None


def _doc(what, section, keys, families):
    lines = [f"Adds {what} (docs/scene-format.md, its keys; None: the format's default). Returns its body index.",
             ""]
    for name in keys:
        u = unit(section, name)
        lines.append(f"    {name}" + (f" [{u}]" if u else ""))
    if families:
        lines.append(f"    springs: {{family: {{{', '.join(_SPRING_KEYS)}}}}}, families {', '.join(families)}")
    return "\n".join(lines)


def _adder(kind, keys, families):
    """World.add_KIND: the keys of `body KIND` as keyword arguments, `springs` for its families."""
    call = f"add_{kind}"

    def add(world, /, **given):
        unknown = [k for k in given if k not in keys and not (families and k == "springs")]
        if unknown:
            raise TypeError(f"{call}() got an unexpected keyword argument '{unknown[0]}' (expected: "
                            f"{', '.join(list(keys) + (['springs'] if families else []))})")
        return _section(world, call, f"body {kind}", keys, given, families) - 1

    params = [inspect.Parameter("world", inspect.Parameter.POSITIONAL_ONLY)]
    params += [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=None) for k in keys]
    if families:
        params.append(inspect.Parameter("springs", inspect.Parameter.KEYWORD_ONLY, default=None))
    add.__signature__ = inspect.Signature(params)
    add.__name__ = add.__qualname__ = call
    add.__doc__ = _doc(f"a body {kind}", f"body {kind}", keys, families)
    return add


def _item_adder(word, keys, call, what):
    """World.add_sphere / add_collider: an item that is not a body (returns None)."""

    def add(world, /, **given):
        unknown = [k for k in given if k not in keys]
        if unknown:
            raise TypeError(f"{call}() got an unexpected keyword argument '{unknown[0]}' (expected: "
                            f"{', '.join(keys)})")
        _section(world, call, word, keys, given)

    add.__signature__ = inspect.Signature([inspect.Parameter("world", inspect.Parameter.POSITIONAL_ONLY)] + [
        inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=None) for k in keys])
    add.__name__ = add.__qualname__ = call
    add.__doc__ = _doc(what, word, keys, ()).replace(" Returns its body index.", "")
    return add


def world_text(given):
    """The settings sections of World(...): world keys, and ground, walls and contact as dicts of their keys."""
    keys = _KEYS
    t = _Text("World")
    t.line("world", None)
    for name in keys["world"]:
        if given.get(name) is not None:
            t.key(name, given[name])
    t.line("end", None)
    for section in ("ground", "walls", "contact"):
        part = given.get(section)
        if part is None:
            continue
        if not isinstance(part, dict):
            raise TypeError(f"World: argument '{section}': expected a dict of its keys "
                            f"({', '.join(keys[section])}), got {type(part).__name__}")
        t.line(section, section)
        for name, value in part.items():
            t.key(str(name), value, section)
        t.line("end", section)
    return t


def install(cls):
    """Gives cls (hooke.World) its add_KIND methods, add_sphere, add_collider and set_contact, from the tables."""
    keys, bodies = _KEYS, _BODIES
    for kind, families in bodies.items():
        if kind == "points":
            continue  # add_points takes arrays (World.add_points)
        setattr(cls, f"add_{kind}", _adder(kind, keys[f"body {kind}"], families))
    setattr(cls, "add_sphere", _item_adder("sphere", keys["sphere"], "add_sphere", "a sphere obstacle"))
    setattr(cls, "add_collider", _item_adder("collider", keys["collider"], "add_collider", "a collider"))

    def set_contact(world, /, **given):
        unknown = [k for k in given if k not in keys["contact"]]
        if unknown:
            raise TypeError(f"set_contact() got an unexpected keyword argument '{unknown[0]}' (expected: "
                            f"{', '.join(keys['contact'])})")
        _section(world, "set_contact", "contact", keys["contact"], given)

    set_contact.__signature__ = inspect.Signature(
        [inspect.Parameter("world", inspect.Parameter.POSITIONAL_ONLY)] +
        [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=None) for k in keys["contact"]])
    set_contact.__doc__ = _doc("contact between bodies and within them", "contact", keys["contact"], ()).replace(
        "Adds", "Sets").replace(" Returns its body index.", "")
    cls.set_contact = set_contact


def _world_new(cls, **given):
    keys = _KEYS
    allowed = [k for k in keys["world"] if k != "threads"] + ["ground", "walls", "contact", "threads"]
    unknown = [k for k in given if k not in allowed]
    if unknown:
        raise TypeError(f"World() got an unexpected keyword argument '{unknown[0]}' (expected: {', '.join(allowed)})")
    threads = given.pop("threads", None) or 0
    t = world_text(given)
    try:
        return _hooke.World.__new__(cls, t.text(), "World", operator.index(threads))
    except _hooke.SceneError as e:
        raise t.refused(e) from None


def _rows(name, value, n, width, numbers=float):
    """value as n rows of `width` numbers (width 0: n numbers; a single number for all)."""
    import numpy as np

    a = np.asarray(value, dtype=float if numbers is float else np.int64) if value is not None else None
    if a is None:
        return None
    if width == 0 and a.ndim == 0:
        a = np.full(n, a)
    want = (n, width) if width else (n,)
    if a.shape != want:
        raise ValueError(f"add_points: argument '{name}': expected shape {want}, got {a.shape}")
    return a


def add_points(self, positions, masses, velocities=None, *, pairs=None, families=None, rest_lengths=None,
               springs=None, pin=None):
    """Adds a body of points: positions (N, 3) [m], masses (N,) or one for all [kg], velocities (N, 3) [m/s] or None;
    springs between them: pairs (S, 2) of the body's particle indices, families (S,) names or one name for all
    (default "main"), rest_lengths (S,) [m] (0 or None: each spring's initial length), springs {family: {k, damping,
    damping_model, behaviour, break_ratio, rest_length}} (one dict alone for "main"); pin a list of indices. The
    scene format's `body points` (docs/scene-format.md). Returns its body index."""
    import numpy as np

    pos = np.asarray(positions, dtype=float)
    if pos.ndim != 2 or pos.shape[1] != 3:
        raise ValueError(f"add_points: argument 'positions': expected shape (N, 3), got {pos.shape}")
    n = pos.shape[0]
    mass = _rows("masses", masses, n, 0)
    vel = _rows("velocities", velocities, n, 3)
    t = _Text("add_points")
    t.line("body points", None)
    for i in range(n):
        words = " ".join(_number(v) for v in pos[i]) + " " + _number(mass[i])
        if vel is not None:
            words += " " + " ".join(_number(v) for v in vel[i])
        t.line(f"  point {words}", f"positions/masses/velocities[{i}]")
    if pairs is not None:
        ab = np.asarray(pairs)
        if ab.ndim != 2 or ab.shape[1] != 2 or not np.issubdtype(ab.dtype, np.integer):
            raise ValueError(f"add_points: argument 'pairs': expected integers of shape (S, 2), got {ab.dtype} "
                             f"{ab.shape}")
        s = ab.shape[0]
        names = [families] * s if families is None or isinstance(families, str) else list(families)
        if len(names) != s:
            raise ValueError(f"add_points: argument 'families': expected {s} names, got {len(names)}")
        rest = _rows("rest_lengths", rest_lengths, s, 0)
        for k in range(s):
            words = f"{int(ab[k, 0])} {int(ab[k, 1])}"
            if names[k] is not None:
                words += " " + _value(str(names[k]))
            if rest is not None and rest[k] != 0:
                words += " rest_length " + _number(rest[k])
            t.line(f"  spring {words}", f"pairs[{k}]")
    elif families is not None or rest_lengths is not None:
        raise ValueError("add_points: arguments 'families' and 'rest_lengths' need 'pairs'")
    if springs is not None:
        t.springs(["main"], springs)
    if pin is not None:
        t.key("pin", pin)
    t.line("end", None)
    try:
        return self._add(t.text(), "add_points") - 1
    except _hooke.SceneError as e:
        raise t.refused(e) from None


def write_frames(self, dir, formats="vtk", every=None, steps=None, time=None):
    """Runs the world as `hooke run --out DIR --format FORMATS` does and writes its frames: at the step it starts
    from where that is on the grid of `every` steps, on every step of the grid, and at the last step, in each format
    (frame_<step>.<ext>, the .pvd index of the VTK series at the end). steps, time, every: as run() takes them (the
    scene's where not given). Returns the steps taken. OSError where dir cannot be written, ValueError for a format
    it does not know."""
    self._series(os.fspath(dir), formats)
    try:
        grid = self._run_plan(steps, time, every)["every"]
        if self.step_count % grid == 0:
            self._series_write()
        taken = self.run(steps=steps, time=time, every=every, callback=lambda w: w._series_write())
        if self.step_count % grid != 0:
            self._series_write()
        return taken
    finally:
        self._series_close()


def add_springs(self, body, pairs, *, name="main", k, damping=0.0, damping_model="along", behaviour="normal",
                break_ratio=None, rest_length=0.0, rest_lengths=None, strain_limit=0.0, compress_limit=0.0):
    """Adds a family of springs `name` to body `body`: pairs (S, 2) of the body's particle indices; k [N/m], damping
    [N*s/m], damping_model, behaviour, break_ratio, rest_length [m], strain_limit and compress_limit (0: none) as a
    `springs` line of the scene format takes them (docs/scene-format.md); rest_lengths (S,) [m] gives each spring its own (0: the family's rest_length, or the
    spring's length now where that is 0). Returns the family's index. ValueError for a pair out of the body, a
    spring of zero length, a value out of its bounds, before anything is added."""
    import numpy as np

    ab = np.asarray(pairs)
    if ab.ndim != 2 or ab.shape[1] != 2 or not (np.issubdtype(ab.dtype, np.integer) or ab.size == 0):
        raise ValueError(f"add_springs: argument 'pairs': expected integers of shape (S, 2), got {ab.dtype} "
                         f"{ab.shape}")
    if ab.size and (ab.min() < -2**31 or ab.max() >= 2**31):
        raise ValueError("add_springs: argument 'pairs': an index beyond the body's")
    a = np.ascontiguousarray(ab[:, 0], dtype=np.int32)
    b = np.ascontiguousarray(ab[:, 1], dtype=np.int32)
    rest = None
    if rest_lengths is not None:
        rest = np.ascontiguousarray(rest_lengths, dtype=np.float64)
        if rest.shape != (ab.shape[0],):
            raise ValueError(f"add_springs: argument 'rest_lengths': expected shape ({ab.shape[0]},), got {rest.shape}")
    return self._add_springs(operator.index(body), str(name), a.tobytes(), b.tobytes(), rest, float(k),
                             float(damping), str(damping_model), str(behaviour),
                             None if break_ratio is None else float(break_ratio), float(rest_length),
                             float(strain_limit), float(compress_limit))


class World(_hooke.World):
    __doc__ = """A hooke world: particles and springs, built in code (World(...), then its add_* methods) or from a
scene (World.from_scene, World.from_string). World(...) takes the scene format's `world` keys (gravity [m/s^2],
air_drag [N*s/m], wind [m/s], wind_model, wind_drag [N*s/m], strain_sweeps, gravity_schedule: keyframes (time [s], gx,
gy, gz [m/s^2])) and its ground, walls and contact sections as dicts of
their keys; threads: 0 for hooke's default. One Python thread at a time uses a world; different worlds step in
different threads at once."""
    __slots__ = ()
    __new__ = _world_new
    add_points = add_points
    add_springs = add_springs
    write_frames = write_frames


def _signature_of_new():
    keys = _KEYS
    params = [inspect.Parameter("cls", inspect.Parameter.POSITIONAL_ONLY)]
    params += [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=None) for k in keys["world"]
               if k != "threads"]
    params += [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=None) for k in ("ground", "walls",
                                                                                           "contact")]
    params.append(inspect.Parameter("threads", inspect.Parameter.KEYWORD_ONLY, default=0))
    return inspect.Signature(params)


_world_new.__signature__ = _signature_of_new()
install(World)
