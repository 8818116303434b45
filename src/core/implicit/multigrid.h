/* multigrid.h — aggregation multigrid preconditioner of the implicit system on lattice bodies. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_MULTIGRID_H
#define HOOKE_MULTIGRID_H

#include "system.h"

/*
 * Each lattice body of at least HK_MG_MIN_NODES nodes gets a hierarchy of
 * coarse lattices: a node of level l + 1 is the aggregate of the (up to)
 * 2 x 2 x 2 nodes of level l below it, and the prolongation P copies an
 * aggregate's value to its members (fixed particles belong to none). The
 * coarse matrices are Galerkin products P^T A P, which for a sum of springs
 * is again a sum of "springs" between neighbouring aggregates: every level
 * stores per node its 3x3 diagonal block and one coupling block per
 * neighbour offset in {-1, 0, 1}^3 (half of them, the other half by
 * symmetry). Levels stop at HK_MG_COARSEST nodes, solved exactly (Cholesky
 * within the matrix's band).
 * The cycle smooths with damped block Jacobi before and after each coarse
 * correction, and finds the correction of every coarse level above the
 * coarsest by one or two conjugate-gradient steps preconditioned by the
 * cycle below (a K-cycle): the preconditioner is positive definite but
 * depends on its input through those steps, so the solve is flexible CG
 * (cg.c). All sums run in a fixed order per node and per row:
 * bit-identical on any thread count.
 */
#define HK_MG_MIN_NODES 1024
#define HK_MG_COARSEST 64

/* The hierarchy for the world's lattice bodies (NULL when none qualifies,
 * or out of memory: then the solver keeps block Jacobi). */
hk_mg *hk_mg_create(const hk_world *w);
void hk_mg_free(hk_mg *mg);
/* The coarse matrices of a new system, built from the blocks that
 * hk_system_blocks assembles with scales sK, sD: pass these hooks to it
 * (mg not NULL). */
hk_block_hooks hk_mg_hooks(hk_mg *mg, hk_real sK, hk_real sD);
/* What building the coarse levels relies on (checked there in checking
 * builds): every coupling between a node and a neighbour outside its
 * level's lattice is zero. 0, or -1 with the first that is not in why. */
int hk_mg_check_levels(const hk_mg *mg, char *why, size_t len);
/* The damping omega of the block-Jacobi smoother. */
hk_real hk_mg_omega(void);
/* z = B r with B the multigrid preconditioner, given z = omega inv r (the
 * damped block-Jacobi step, hk_system_precondition) on entry; tmp is a
 * work vector. Returns r . z and sets *zq = z . q (flexible CG's
 * direction), summed as hk_system_dot sums. */
double hk_mg_precondition(hk_world *w, hk_implicit *im, hk_real sK, hk_real sD, hk_real *const tmp[3], double *zq);

#endif
