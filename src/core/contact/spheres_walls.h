/* spheres_walls.h — sphere obstacles and room walls: projection with a collision energy loss. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_SPHERES_WALLS_H
#define HOOKE_SPHERES_WALLS_H

#include "obstacle_push.h"
#include "world.h"

/* Moves spheres by their velocity over dt, then pushes every free particle
 * that is inside a sphere or outside the walls back to the surface; the normal
 * velocity (relative to a moving sphere) is reflected and scaled by (1 - loss).
 * If px is non-NULL (position Verlet), prev = x - v dt keeps the implied
 * velocity consistent. Returns the number of particles moved. */
int hk_contacts_apply(hk_world *w, double dt, hk_real *px, hk_real *py, hk_real *pz);

#endif
