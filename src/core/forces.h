/* forces.h — evaluation of all forces at the world's current positions and velocities. */
#ifndef HOOKE_FORCES_H
#define HOOKE_FORCES_H

#include "world.h"

/* f = gravity + air drag + ground + springs, at the current x and v. */
void hk_forces_compute(hk_world *w);
/* Moves every driven anchor by its velocity over dt, keeping it at or above
 * the ground, and writes its position and velocity into the particle arrays. */
void hk_anchors_advance(hk_world *w, double dt);

#endif
