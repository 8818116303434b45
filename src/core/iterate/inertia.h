/* inertia.h — what the iterated solvers share: the other forces, the inertial prediction, the velocity after. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_INERTIA_H
#define HOOKE_INERTIA_H

#include "world.h"

/* Whether w is shared out over ranks, where an iterating substep is refused: 1 with w->step_failed set (the message
 * naming the integrator `name`: constraints.h HK_SWEEPS_NOT_OVER_RANKS), else 0. */
int hk_iterate_refused(hk_world *w, const char *name);
/* The substep's start: prev (w's 3 scratch arrays) = q; f = every force but the springs' at the current state (the
 * per-particle forces with the contact force, on the world's kernel path, then the surfaces'); then over the free
 * particles v += h f / m, q += h v (the inertial prediction q_pred; the others keep their state). */
void hk_iterate_begin(hk_world *w, hk_real h, hk_real *prev[3]);
/* The substep's end: over the free particles v = (q - prev) / h, formed as v += (q - q_pred) / h with q_pred =
 * prev + h v as hk_iterate_begin formed it (the velocity the other forces gave stays whole where a displacement h v
 * is below the rounding of q: a slow particle far from its rest place, in float, whose speed q - prev would lose);
 * `updates` spring evaluations counted; the forces in f stale. */
void hk_iterate_end(hk_world *w, hk_real h, hk_real *const prev[3], int64_t updates);

#endif
