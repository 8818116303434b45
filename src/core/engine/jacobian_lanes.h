/* jacobian_lanes.h — a spring's stiffness block on W lanes: the one home of the implicit solver's Jacobian formula. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_JACOBIAN_LANES_H
#define HOOKE_JACOBIAN_LANES_H

/* Included by a kernel translation unit after simd.h.
 *
 * For a spring between a and b with d = x_a - x_b, r = |d|, u = d / r, the
 * force on a is F = -k (r - L0) u - (damping). Its derivatives are
 *   dF/dx_a = -K,  K = k (L0/r) u u^T + k (1 - L0/r) I       (stiffness)
 *   dF/dv_a = -D,  D = c u u^T (along) or c I (relative)      (damping)
 * and the opposite for b. The implicit integrators need the symmetric block
 *   S = sK K + sD D = alpha I + beta u u^T,
 *   alpha = sK kg + sD c_rel,  beta = sK kr + sD c_along,
 *   kr = k min(1, L0 / r),  kg = k - kr,
 * where the geometric-stiffness part kg = k (1 - L0/r) is clamped at 0 for a
 * compressed spring (r < L0): without the clamp K is indefinite there and the
 * conjugate-gradient solve could break down; with it S is positive
 * semidefinite for every spring, so the system matrix M + sum S stays
 * symmetric positive definite. The dependence of the along-damping force on
 * x through u is left out (it is not symmetric). Dead lanes (no spring,
 * broken, zero length, slack under the spring's behaviour: exactly those
 * whose force is zero) give S = 0. */
typedef struct hk_stiffness {
    hk_w ux, uy, uz, alpha, beta;
} hk_stiffness;

static inline __attribute__((always_inline)) hk_stiffness stiffness_lanes(hk_w dx, hk_w dy, hk_w dz, hk_w L0, hk_w k,
                                                                          hk_w c_rel, hk_w c_along, hk_w sK, hk_w sD,
                                                                          hk_wm live, hk_behaviour behaviour)
{
    const hk_w zero = w_set1(0), one = w_set1(1);
    hk_w r2 = w_fmadd(dz, dz, w_fmadd(dy, dy, w_mul(dx, dx)));
    live = wm_and(live, w_neq(r2, zero));
    hk_w r = w_sqrt(w_select(live, one, r2)); /* dead lanes: r = 1, no 0/0 */
    hk_w e = w_sub(r, L0);
    if (behaviour == HK_SPRING_TENSION_ONLY) live = wm_and(live, w_gt(e, zero));
    if (behaviour == HK_SPRING_COMPRESSION_ONLY) live = wm_and(live, w_lt(e, zero));
    hk_w q = w_div(one, r);
    hk_w lr = w_mul(L0, q);
    hk_w kr = w_mul(k, w_select(w_gt(lr, one), lr, one)); /* k min(1, L0/r) */
    hk_w kg = w_sub(k, kr);
    hk_stiffness s;
    s.ux = w_keep(live, w_mul(dx, q));
    s.uy = w_keep(live, w_mul(dy, q));
    s.uz = w_keep(live, w_mul(dz, q));
    s.alpha = w_keep(live, w_fmadd(sK, kg, w_mul(sD, c_rel)));
    s.beta = w_keep(live, w_fmadd(sK, kr, w_mul(sD, c_along)));
    return s;
}

/* t = S e for e = y_a - y_b: alpha e + beta (u . e) u, the product the
 * conjugate-gradient solve applies (added to a, subtracted from b). */
static inline __attribute__((always_inline)) void stiffness_apply(const hk_stiffness *s, hk_w ex, hk_w ey, hk_w ez,
                                                                  hk_w *tx, hk_w *ty, hk_w *tz)
{
    hk_w bd = w_mul(s->beta, w_fmadd(s->uz, ez, w_fmadd(s->uy, ey, w_mul(s->ux, ex))));
    *tx = w_fmadd(s->alpha, ex, w_mul(bd, s->ux));
    *ty = w_fmadd(s->alpha, ey, w_mul(bd, s->uy));
    *tz = w_fmadd(s->alpha, ez, w_mul(bd, s->uz));
}

/* The six entries of S (xx, xy, xz, yy, yz, zz): the spring's part of the
 * 3x3 diagonal blocks of both its ends (the block-Jacobi preconditioner). */
static inline __attribute__((always_inline)) void stiffness_block(const hk_stiffness *s, hk_w out[6])
{
    hk_w bx = w_mul(s->beta, s->ux), by = w_mul(s->beta, s->uy), bz = w_mul(s->beta, s->uz);
    out[0] = w_fmadd(bx, s->ux, s->alpha);
    out[1] = w_mul(bx, s->uy);
    out[2] = w_mul(bx, s->uz);
    out[3] = w_fmadd(by, s->uy, s->alpha);
    out[4] = w_mul(by, s->uz);
    out[5] = w_fmadd(bz, s->uz, s->alpha);
}

#endif
