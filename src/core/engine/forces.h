/* forces.h — evaluating F(x, v), by the engine or the reference path (chosen once per world), and driven anchors. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_FORCES_H
#define HOOKE_FORCES_H

#include "update.h"
#include "world.h"

/* f = the per-particle forces (external.h) + springs + surface forces at
 * the current x and v. HK_OK, or the status of a failed step (out of
 * memory for the engine's state: w->step_failed, hk_world_error says why),
 * after which f is not to be used. */
int hk_forces_compute(hk_world *w);
/* hk_forces_compute, then the update `kind` over a substep h of every free
 * particle from its force (the engine fuses the two; on a failure no
 * particle is updated). HK_OK or the failed step's status. */
int hk_forces_update(hk_world *w, hk_update_kind kind, hk_real h);
/* Moves every driven anchor by its velocity over dt, keeping it at or above
 * the ground, and writes its position and velocity into the particle arrays. */
void hk_anchors_advance(hk_world *w, double dt);

#endif
