# python_dt_sweep.py — the energy drift of two integrators over a sweep of dt, in Python and by hooke stability.
# usage: python3 docs/python_dt_sweep.py [POINTS [PLOT.png]]   (from the repository root; exit status 1 if they differ)
# SPDX-License-Identifier: MIT
import math
import sys

import hooke

scene = "scenes/oscillator.scene"  # 1 kg on a 100 N/m spring: omega = 10 rad/s
names = ["semi_implicit_euler", "rk4"]
points = int(sys.argv[1]) if len(sys.argv) > 1 else 12
dt_min, dt_max, T = 1e-3, 0.1, 5.0  # [s]: omega*dt from 0.01 to 1; the drift over the first 5 s of each run

# dt evenly spaced in log dt, the last one exactly dt_max: the program's sweep
dts = [dt_min * (dt_max / dt_min) ** (i / (points - 1)) for i in range(points)]
dts[-1] = dt_max


def drift(name, dt):
    """hooke stability's energy drift [1/s]: (E(t) - E(0)) / scale / t after the first ceil(T / dt) steps, scale the
    larger of |E(0)| and KE + SE + |GPE| at the start; None once the run is unstable (in at least 2000 steps, the
    energy 100 scales off)."""
    world = hooke.World.from_scene(scene)
    world.set_integrator(name, dt=dt, dt_max=0)  # dt_max 0: no substeps
    start = world.stats()  # [J]
    e0 = start["total"]
    scale = max(abs(e0), start["kinetic"] + start["spring"] + abs(start["gravity"])) or 1.0
    window = math.ceil(T / dt)  # steps in the first T seconds
    try:
        for step in range(1, max(window, 2000) + 1):
            world.step()
            energy = world.stats()["total"]
            if step == window:
                e_window, t_window = energy, world.time
            if not abs(energy - e0) <= 100 * scale:  # (also when energy is nan)
                return None
    except hooke.BlowUp:  # non-finite, or a spring past the run's stretch limit (stricter than hooke stability)
        return None
    return (e_window - e0) / scale / t_window


ours = {name: [drift(name, dt) for dt in dts] for name in names}
profile = hooke.stability(scene, integrators=names, dt_min=dt_min, dt_max=dt_max, points=points, time=T)
sweeps = {p["name"]: p["sweep"] for p in profile["integrators"]}  # a dict a dt (dt, energy_drift_per_s)
theirs = {n: [row["energy_drift_per_s"] for row in sweeps[n]] for n in names}


def same(a, b):  # b as the program's JSON holds a number: 9 significant digits, None (null) where unstable
    return a is None and b is None or a is not None and b is not None and float(f"{a:.9g}") == b


def shown(d):  # a drift as the table shows it
    return "unstable" if d is None else f"{d:+.8e}"


print(f"relative energy drift per simulated second [1/s] on {scene}, over the first {T:g} s of each run")
print(f"{'integrator':20} {'dt [s]':>10} {'Python':>16} {'hooke stability':>16}")
for n in names:
    for dt, a, b in zip(dts, ours[n], theirs[n]):
        print(f"{n:20} {dt:10.4g} {shown(a):>16} {shown(b):>16}")
differ = [(n, dt) for n in names for dt, a, row in zip(dts, ours[n], sweeps[n])
          if not (same(dt, row["dt"]) and same(a, row["energy_drift_per_s"]))]
print("Python and hooke stability agree" if not differ else f"they differ at {differ}")

if len(sys.argv) > 2:
    import matplotlib

    matplotlib.use("Agg")  # a file, no window
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=100)
    for n, colour in zip(names, ["tab:red", "tab:blue"]):
        rows = [(dt, d) for dt, d in zip(dts, ours[n]) if d is not None]  # the stable runs
        ax.loglog([dt for dt, d in rows], [abs(d) for dt, d in rows], "-", color=colour, label=n)
        for falls in (False, True):  # filled where the energy grows, hollow where it falls
            dots = [(dt, abs(d)) for dt, d in rows if (d < 0) == falls]
            if dots:
                ax.plot(*zip(*dots), "o", color=colour, markersize=8, markerfacecolor="white" if falls else colour)
    theory = [dt for dt in dts if dt >= 0.004]  # rk4 on an oscillator: the energy falls by (omega dt)^6 / 72 a step
    ax.loglog(theory, [(10 * dt) ** 6 / 72 / dt for dt in theory], "--", color="grey", zorder=0,
              label="rk4 in theory: (omega dt)^6 / 72 / dt")
    program = [(dt, abs(d)) for n in names for dt, d in zip(dts, theirs[n]) if d is not None]
    ax.plot(*zip(*program), "x", color="black", markersize=5, label="hooke stability (its JSON)")
    ax.set_xlabel("dt [s]   (omega*dt = 10 dt on this scene)")
    ax.set_ylabel("|relative energy drift| per second [1/s]")
    ax.set_title(f"{scene} ({hooke.precision} build): energy drift over the first {T:g} s")
    ax.text(0.98, 0.03, "filled: the energy grows, hollow: it falls", transform=ax.transAxes, ha="right")
    ax.grid(True, which="major", alpha=0.4)
    ax.legend()
    fig.tight_layout()
    fig.savefig(sys.argv[2])
    print(f"wrote {sys.argv[2]}")
sys.exit(1 if differ else 0)
