/* cg.h — the preconditioned conjugate-gradient solve of the implicit system, deterministic for any thread count. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_CG_H
#define HOOKE_CG_H

#include "system.h"

/* The solve's settings where the integrator leaves them 0 (hooke.h hk_integrator_def). */
#define HK_CG_TOLERANCE_DEFAULT 1e-5
#define HK_CG_NEWTON_TOLERANCE_DEFAULT 0.1 /* the newton rule's */
#define HK_CG_MAX_ITERATIONS_DEFAULT 1000

typedef enum hk_cg_status {
    HK_CG_CONVERGED = 0,  /* the residual met the stopping rule */
    HK_CG_MAX_ITERATIONS, /* stopped at the iteration limit: dv is the last iterate */
    HK_CG_BREAKDOWN,      /* a non-finite value or p . A p <= 0: dv is not to be used */
} hk_cg_status;

typedef struct hk_cg_result {
    hk_cg_status status;
    int iterations;  /* products with the system matrix [1] */
    double residual; /* at the end, in the rule's measure (0 when b = 0) [1]: force: max_i |r_i| stop_i;
                        relative: |r| / |b|; energy: sqrt(r . z / max(dv . b, stop_energy)); newton: sqrt(r . z /
                        max(dv . b, stop_newton / tolerance^2)) */
} hk_cg_result;

/* The tolerance of the integrator's rule: its cg_tolerance, else the rule's default. */
static inline double hk_cg_tolerance(const hk_integrator_def *d)
{
    if (d->cg_tolerance > 0) return d->cg_tolerance;
    return d->cg_stop == HK_CG_STOP_NEWTON ? HK_CG_NEWTON_TOLERANCE_DEFAULT : HK_CG_TOLERANCE_DEFAULT;
}

/* What rule measures against in a substep of length h. force: im->stop =
 * the weights for the right-hand side HK_SYS_B, stop_i = 1 / (h F_i) with
 * F_i = max(m_i a, |b_i| / h) the force that moves particle i in the
 * substep, where a = max(|g|, the mean over free particles of |b_j| / (h
 * m_j)) keeps a particle at rest in a world without gravity from asking
 * for an exact zero; h F_i at least the residual the solve counts as 0
 * (cg.c HK_CG_WEIGHT_MAX: where F_i = 0, without gravity and with b = 0,
 * which dv = 0 solves); 0 on fixed particles. energy: im->stop_energy = sum_i
 * m_i (|g| h)^2 over free particles [J], twice the kinetic energy gravity
 * gives them in the substep. relative: nothing. */
void hk_cg_weights(hk_world *w, hk_implicit *im, hk_real h, hk_cg_stop rule);

/* Whether a residual (HK_SYS_B's form, N s) meets rule at tolerance, the
 * relative rule against the first right-hand side's norm b0; always 0 for
 * the energy rule, which needs the preconditioner and dv: the test at the
 * start of a solve from dv = 0 is then the check, against gravity's
 * energy (0 iterations when it is met). */
int hk_cg_small(hk_world *w, hk_implicit *im, hk_cg_stop rule, double tolerance, double b0, hk_real *const v[3]);

/* b . B b for the vector HK_SYS_B, B the preconditioner hk_system_blocks
 * made (the multigrid's cycle where there is one): its estimate of
 * b . A^-1 b, the energy a linear solve of A dv = b would release [J]. */
double hk_cg_decrement(hk_world *w, hk_implicit *im, hk_real sK, hk_real sD);

/* Solves (M + sum S) dv = b for the vectors HK_SYS_DV and HK_SYS_B of im,
 * from dv = 0, or from the dv it holds when warm is set (0 on fixed
 * particles), with the preconditioner hk_system_blocks made (S = sK K +
 * sD D, system.h), until the residual r = b - A dv meets rule at
 * tolerance (force: max_i |r_i| stop_i <= tolerance, weights from
 * hk_cg_weights; relative: |r| <= tolerance |b|; energy: r . z <=
 * tolerance^2 max(dv . b, im->stop_energy), z = B r the preconditioned
 * residual, which estimates r . A^-1 r = e . A e, the energy of the error
 * e = dv - A^-1 b, and dv . b = dv . A dv + dv . r that of dv: the error's
 * energy at most tolerance^2 of the velocity change's, or of gravity's in
 * the substep where that is larger; newton: r . z <= max(tolerance^2 dv .
 * b, im->stop_newton), the floor the minimisation sets below its own
 * Newton rule). A zero b (|b|^2 below what the solve
 * counts as 0) is solved by dv = 0 at 0 iterations, from any guess; a
 * breakdown is a non-finite residual or product, never a large measure. Fixed particles are
 * filtered out: their entries of b must be 0 and stay 0 in dv. Every
 * reduction is summed in fixed blocks (system.h), so dv has the same bits
 * on any thread count. */
hk_cg_result hk_cg_solve(hk_world *w, hk_implicit *im, hk_real sK, hk_real sD, hk_cg_stop rule, double tolerance,
                         int max_iterations, int warm);

#endif
