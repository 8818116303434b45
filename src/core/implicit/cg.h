/* cg.h — the preconditioned conjugate-gradient solve of the implicit system, deterministic for any thread count. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_CG_H
#define HOOKE_CG_H

#include "system.h"

typedef enum hk_cg_status {
    HK_CG_CONVERGED = 0,  /* |r| <= tolerance |b| */
    HK_CG_MAX_ITERATIONS, /* stopped at the iteration limit: dv is the last iterate */
    HK_CG_BREAKDOWN,      /* a non-finite value or p . A p <= 0: dv is not to be used */
} hk_cg_status;

typedef struct hk_cg_result {
    hk_cg_status status;
    int iterations;  /* products with the system matrix [1] */
    double residual; /* |r| / |b| at the end (0 when b = 0) [1] */
} hk_cg_result;

/* Solves (M + sum S) dv = b for the vectors HK_SYS_DV and HK_SYS_B of im,
 * from dv = 0, or from the dv it holds when warm is set (0 on fixed
 * particles), with the preconditioner hk_system_blocks made (S = sK K +
 * sD D, system.h). Fixed particles are filtered out: their
 * entries of b must be 0 and stay 0 in dv. Every reduction is summed in
 * fixed blocks (system.h), so dv has the same bits on any thread count. */
hk_cg_result hk_cg_solve(hk_world *w, hk_implicit *im, hk_real sK, hk_real sD, double tolerance, int max_iterations,
                         int warm);

#endif
