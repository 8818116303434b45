/* implicit.h — the implicit integrators' substeps: backward Euler and the trapezoidal rule, Newton on a CG solve. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_IMPLICIT_H
#define HOOKE_IMPLICIT_H

#include "cg.h"
#include "system.h"

/* One substep h of backward Euler (theta = 1) or of the trapezoidal rule
 * (theta = 1/2) linearised at its start, with newton_iterations further
 * Newton iterations; see implicit.c. */
void hk_linearised_substep(hk_world *w, hk_real h, hk_real theta);
void hk_trapezoidal_substep(hk_world *w, hk_real h);

/* The pieces of a substep, the linearised's and the minimisation's
 * (minimise.h): the solver's state with its per-step figures reset at a
 * step's first (NULL, w->step_failed set, without memory); (x, v, f) of
 * every particle into the vectors HK_SYS_X0, V0, F0 and back (x, v: after a
 * failed substep); the velocity change into the history (the next
 * substep's first guess); the failure after a solve broke down. */
hk_implicit *hk_implicit_begin(hk_world *w);
void hk_implicit_save(hk_world *w, hk_implicit *im);
void hk_implicit_restore(hk_world *w, hk_implicit *im);
void hk_implicit_keep(hk_world *w, hk_implicit *im);
void hk_implicit_broke_down(hk_world *w, hk_implicit *im, int iterations);

/* The solver's state for w (hk_implicit_get) with the preconditioner the
 * integrator asks for: the multigrid is made again when the state's arrays
 * were, or the choice changed. NULL with hk_world_error set. */
hk_implicit *hk_implicit_solver(hk_world *w);
/* hk_system_blocks with the state's multigrid, if any, built from the same blocks. */
void hk_implicit_blocks(hk_world *w, hk_implicit *im, hk_real sK, hk_real sD);
/* The Newton right-hand side -g(v) = h ((1 - theta) f0 + theta f) - M (v - v0) into HK_SYS_B at the current
 * state (f in p->f, v0 and f0 in the vectors v0 (HK_SYS_V0, or a minimisation's HK_SYS_VB) and HK_SYS_F0; f0
 * unread where theta = 1), 0 on fixed particles. */
void hk_implicit_residual(hk_world *w, hk_implicit *im, hk_real h, hk_real theta, int v0);
/* The first solve's guess: the velocity change of the substep before
 * (w->px, py, pz while w->history is set) into HK_SYS_DV: in smooth motion
 * it is close, and CG stops a few iterations earlier. 0 on fixed particles. */
void hk_implicit_guess(hk_world *w, hk_implicit *im);
/* A linear solve's figures into im->stats. */
void hk_implicit_count(hk_implicit *im, hk_cg_result res);
/* Frees the solver's state and its multigrid (w->implicit = NULL). */
void hk_implicit_release(hk_world *w);

#endif
