/* direct.h — the implicit system of a small, banded world solved directly (band Cholesky) instead of by CG. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_DIRECT_H
#define HOOKE_DIRECT_H

#include "cg.h"

/* A world is solved directly where its springs join particles at most this many indices apart ... */
#define HK_DIRECT_MAX_BAND 8
/* ... and the factorisation's multiply-adds, 3n (3 band + 3)^2, are at most this many (about a millisecond) */
#define HK_DIRECT_MAX_FLOPS 4e6

/* Whether w's system is solved directly (one process of a program that does not run worlds over ranks:
 * w->cg_only 0; no contact between particles, a narrow band of springs, small enough), with the band's half-width
 * in particles in *half. */
int hk_direct_fits(const hk_world *w, int *half);

/* dv = A^-1 b exactly (to rounding) for the vectors HK_SYS_DV and HK_SYS_B of im, A = M + sum S with S = sK K + sD D
 * (system.h), by 3 (2 half + 1) products with A that give its band and a band Cholesky factorisation in double;
 * *energy = b . A^-1 b [J]. 0 iterations; HK_CG_BREAKDOWN where A is not positive definite or no memory is left
 * (the caller solves by CG). The vectors HK_SYS_P and HK_SYS_Q are its work. */
hk_cg_result hk_direct_solve(hk_world *w, hk_implicit *im, hk_real sK, hk_real sD, int half, double *energy);

#endif
