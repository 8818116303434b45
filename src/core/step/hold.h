/* hold.h — a distributed world's storage: what each rank holds once the world is cut. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_HOLD_H
#define HOOKE_HOLD_H

#include "world.h"

/* Lays out w's storage for its shares (w->part, just cut: dist/part.h): this rank's arrays hold its whole bodies
 * and its split bodies' windows (a slab and the halo rows beside it, hk_part_held), in body order; the particles
 * of a body built at once are copied into place, a deferred lattice's held rows built from its recipe
 * (builders.h hk_lattice_fill); the bodies this rank does not hold keep their description and lose their
 * springs' lists and faces here. Everything made for the storage before (the engine's plans, the solver, the
 * integrator's history, the colourings) is made again. 0, or -1 with hk_world_error set (out of memory: the world
 * cannot be stepped then). */
int hk_world_hold(hk_world *w);

#endif
