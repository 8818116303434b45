/* applied.h — forces a host applies to single particles: kept per particle, added in every force evaluation. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_APPLIED_H
#define HOOKE_APPLIED_H

#include "world.h"

/*
 * A world's applied forces (hooke.h hk_world_set_applied_forces) are three arrays
 * of the particle storage's capacity, x, y and z [N] in world coordinates
 * (a force does not depend on a body's frame), zero for a particle given
 * none, and absent (NULL) until the first is set; applied_on says whether
 * the passes add them (clearing zeroes them and keeps the memory, so that
 * arrays handed out to write in place stay valid). The passes add them to
 * the external force with the contact forces (contact/response.h
 * hk_particle_force_arrays), in every force evaluation of every integrator
 * and kernel path. They are the host's input, not the state: checkpoints
 * and the state hash leave them out.
 */

/* The arrays grown to the particle storage's capacity (new particles none): 0, or -1 (hk_fail_memory). */
int hk_applied_room(hk_world *w);
/* The same for the arrays where the passes get them summed with the contact forces (applied_sum, contact/response.c;
 * their values are written there before each use). */
int hk_applied_sum_room(hk_world *w);
/* Frees both (the world has none after). */
void hk_applied_free(hk_world *w);

#endif
