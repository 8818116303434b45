# python_drive.py — a sideways force applied to a hanging mass tilts its spring to atan(F / (m g)).
# SPDX-License-Identifier: MIT
"""A 0.2 kg mass hangs 1 m below a pinned particle on a stiff, damped spring; air drag settles it. A horizontal force
F = m g / 2 applied to the mass (World.set_applied_forces, every force evaluation) tilts the spring to
atan(F / (m g)) = 26.565 degrees, and the spring stretches by m g sqrt(1 + 1/4) / k; cleared, it hangs straight again.
Then the pinned particle is driven (World.set_targets, a target a step) at u = 0.5 m/s along x, the mass moving with
it, on a spring damped on the relative velocity: in the driver's frame nothing changes, so the mass stays m g / k
below the rest length, moving at u (a driver the spring saw at rest would drag it back by c u)."""
import math

import numpy as np

import hooke

m, g, k = 0.2, 9.81, 2000.0
w = hooke.World(gravity=(0, -g, 0), air_drag=0.5)
w.add_spring(a=(0, 0, 0), b=(0, -1, 0), mass_b=m, pin_a=1, springs={"k": k, "damping": 1.0, "rest_length": 1.0})
w.set_integrator("semi_implicit_euler", dt=1e-3)
f = np.zeros((2, 3))
f[1, 0] = m * g / 2
w.set_applied_forces(f)
w.step(8000)
d = w.positions[1] - w.positions[0]
print("angle %.3f deg (closed form %.3f), stretch %.5f m (closed form %.5f)"
      % (math.degrees(math.atan2(d[0], -d[1])), math.degrees(math.atan(0.5)), math.hypot(d[0], d[1]) - 1,
         m * g * math.sqrt(1.25) / k))
w.clear_applied_forces()
w.step(8000)
d = w.positions[1] - w.positions[0]
print("cleared: angle %.2f deg" % abs(math.degrees(math.atan2(d[0], -d[1]))))

u, dt = 0.5, 1e-3
w = hooke.World(gravity=(0, -g, 0))
w.add_spring(a=(0, 0, 0), b=(0, -1 - m * g / k, 0), mass_b=m, pin_a=1,
             springs={"k": k, "damping": 1.0, "damping_model": "relative", "rest_length": 1.0})
w.set_integrator("semi_implicit_euler", dt=dt)
w.set_velocities([[0, 0, 0], [u, 0, 0]])
for s in range(1, 2001):
    w.set_targets([0], [[u * s * dt, 0, 0]])
    w.step()
d = w.positions[1] - w.positions[0]
print("driven at %.1f m/s for 2 s: the mass %.5f m below the driver (closed form %.5f), moving at %.4f m/s"
      % (u, -d[1], 1 + m * g / k, w.velocities[1, 0]))
