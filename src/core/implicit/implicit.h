/* implicit.h — the implicit integrators' substeps: backward Euler and the trapezoidal rule, Newton on a CG solve. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_IMPLICIT_H
#define HOOKE_IMPLICIT_H

#include "system.h"

/* One substep h of backward Euler (theta = 1) or of the trapezoidal rule
 * (theta = 1/2); see implicit.c. */
void hk_implicit_euler_substep(hk_world *w, hk_real h);
void hk_trapezoidal_substep(hk_world *w, hk_real h);

/* The solver's state for w (hk_implicit_get) with the preconditioner the
 * integrator asks for: the multigrid is made again when the state's arrays
 * were, or the choice changed. NULL with hk_world_error set. */
hk_implicit *hk_implicit_solver(hk_world *w);
/* hk_system_blocks with the state's multigrid, if any, built from the same blocks. */
void hk_implicit_blocks(hk_world *w, hk_implicit *im, hk_real sK, hk_real sD);
/* Frees the solver's state and its multigrid (w->implicit = NULL). */
void hk_implicit_release(hk_world *w);

#endif
