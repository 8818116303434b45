/* minimise.h — an implicit substep as the minimisation of its incremental potential (Newton, line search). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_MINIMISE_H
#define HOOKE_MINIMISE_H

#include "system.h"

/* newton_tolerance's default (hooke.h hk_integrator_def; its square under cg_stop newton) [1] ... */
#define HK_NEWTON_TOLERANCE 1e-2
/* ... or after this many iterations (counted in hk_solver_stats.newton_unconverged) [1]. */
#define HK_NEWTON_BOUND 30

/* The end velocity v of the substep x = xb + hb v with xb, vb in the
 * vectors base and base + 1 of im (minimise.c: backward Euler's
 * HK_SYS_X0, V0, the start state; BDF2's HK_SYS_XB, VB), found from the state in the particle arrays
 * (free particles' v; fixed ones keep theirs), which it leaves at the
 * minimiser, forces in p->f. 0, 1 if a CG solve broke down, -1 if a force evaluation failed
 * (hk_world_error says why); the particles are then in between. On a
 * breakdown *iterations is the broken solve's CG iterations. */
int hk_minimise(hk_world *w, hk_implicit *im, hk_real hb, int base, int *iterations);

/* One substep h of backward Euler: hk_minimise from the start state, or
 * linearised (implicit.h) where newton_iterations is set. */
void hk_implicit_euler_substep(hk_world *w, hk_real h);
/* One substep h of BDF2, minimised (backward Euler's at a run's first; minimise.c). */
void hk_bdf2_substep(hk_world *w, hk_real h);

#endif
