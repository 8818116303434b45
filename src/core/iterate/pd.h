/* pd.h — projective dynamics: a substep as local projections of the springs and global solves on a constant matrix. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PD_H
#define HOOKE_PD_H

#include "world.h"

/* Local/global iterations per substep where the integrator's setting is 0. */
#define HK_PD_ITERATIONS 10
/* A global solve stops once its residual is this part of the one it started from (float's and double's), or after
 * HK_PD_CG_MAX iterations. */
#define HK_PD_CG_TOLERANCE (sizeof(hk_real) == 4 ? 1e-5 : 1e-8)
#define HK_PD_CG_MAX 1000

/* One substep h of projective dynamics (pd.c): the other forces taken at the substep's start, then
 * w->integrator.iterations local/global iterations. On a failure w->step_failed is set and the state is the
 * substep's start. */
void hk_pd_substep(hk_world *w, hk_real h);

#endif
