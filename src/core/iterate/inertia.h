/* inertia.h — what the iterated solvers share: the other forces, the inertial prediction, the velocity after. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_INERTIA_H
#define HOOKE_INERTIA_H

#include "world.h"

/* f = every force but the springs' at the current state: the per-particle forces with the contact force (the
 * engine's formula on the world's kernel path), then the surfaces' (pressure, wind). */
void hk_iterate_other_forces(hk_world *w);
/* Over the free particles: v += h f / m, prev = q, q += h v (the inertial prediction, q_pred); the others keep
 * their state (prev = q for all). prev: 3 arrays of the world's capacity. */
void hk_iterate_predict(hk_world *w, hk_real h, hk_real *const prev[3]);
/* Over the free particles: v = (q - prev) / h, formed as v += (q - q_pred) / h with q_pred = prev + h v as
 * hk_iterate_predict formed it: the velocity the other forces gave stays whole where a displacement h v is below
 * the rounding of q (a slow particle far from its rest place, in float), as it would be lost from q - prev. */
void hk_iterate_velocity(hk_world *w, hk_real h, hk_real *const prev[3]);
/* The 3 scratch arrays of w (the table's scratch column) as prev. */
void hk_iterate_prev(const hk_world *w, hk_real *prev[3]);

#endif
