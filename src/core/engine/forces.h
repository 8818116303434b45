/* forces.h — evaluating F(x, v), by the engine or the reference path (chosen once per world), and driven anchors. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_FORCES_H
#define HOOKE_FORCES_H

#include "update.h"
#include "world.h"

/* f = gravity + air drag + ground + colliders' contact + springs + surface
 * forces at the current x and v. */
void hk_forces_compute(hk_world *w);
/* hk_forces_compute, then the update `kind` over a substep h of every free
 * particle from its force (the engine fuses the two). */
void hk_forces_update(hk_world *w, hk_update_kind kind, hk_real h);
/* Moves every driven anchor by its velocity over dt, keeping it at or above
 * the ground, and writes its position and velocity into the particle arrays. */
void hk_anchors_advance(hk_world *w, double dt);

#endif
