/* spheres_walls.h — sphere obstacles and room walls: projection with a collision energy loss. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_SPHERES_WALLS_H
#define HOOKE_SPHERES_WALLS_H

#include "obstacle_push.h"
#include "world.h"

/* Every free particle inside sphere s (at its place of this substep: step.c moves it) or outside the walls pushed
 * back to the surface over a substep dt; the normal velocity (relative to a moving sphere) is reflected and scaled
 * by (1 - loss). Where prev is not NULL (position Verlet's previous positions), prev = x - v dt keeps the implied
 * velocity consistent. The CPU's passes of the step's obstacles (world/exec.h); the particles moved. */
int64_t hk_sphere_pass(hk_world *w, const hk_sphere_def *s, double dt, hk_real *const prev[3]);
int64_t hk_walls_pass(hk_world *w, double dt, hk_real *const prev[3]);

#endif
