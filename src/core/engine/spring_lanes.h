/* spring_lanes.h — the spring force on W lanes: the engine's one home of the formula, for every ISA (simd.h). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_SPRING_LANES_H
#define HOOKE_SPRING_LANES_H

/* Included by a kernel translation unit after simd.h. The force on end a of
 * a spring (the opposite acts on end b), from d = x_a - x_b and
 * dv = v_a - v_b, with u = d / r:
 *   along:    F = -(k (r - L0) + c (dv . u)) u
 *   relative: F = -k (r - L0) u - c dv
 * written without forming u, in this order of operations:
 *   r2 = fma(dz, dz, fma(dy, dy, dx dx)), r = sqrt(r2),
 *   along:    q = 1 / r, g = fma(-(c (dv . d)), q, k (L0 - r)) q,  F = g d
 *   relative: g = fma(k, L0 / r, -k),                            F = fma(g, d, -(c dv))
 * (fma(a, b, c) = a b + c rounded once; dv . d = fma(dvz, dz, fma(dvy, dy,
 * dvx dx))). The strain enters as L0 - r, exact wherever r is within a
 * factor 2 of L0, or as L0 / r, exactly 1 at r = L0: a spring at rest (r =
 * L0, its rest length computed by these same operations) gives exactly 0. The reference path
 * (reference.c) performs the same operations in the same order, so a
 * spring's force has the same bits on every path. e = r - L0 decides slack
 * springs under a behaviour. Lanes with r = 0, lanes not live (no spring,
 * broken) and slack ones give F = 0. */
static inline HK_HD void spring_lanes(hk_w dx, hk_w dy, hk_w dz, hk_w dvx, hk_w dvy, hk_w dvz, hk_w L0, hk_w k, hk_w c,
                                      hk_wm live, hk_damping_model model, hk_behaviour behaviour, hk_w *fx, hk_w *fy,
                                      hk_w *fz)
{
    const hk_w zero = w_set1(0);
    hk_w r2 = w_fmadd(dz, dz, w_fmadd(dy, dy, w_mul(dx, dx)));
    live = wm_and(live, w_neq(r2, zero));
    hk_w r = w_sqrt(r2);
    if (behaviour == HK_SPRING_TENSION_ONLY) live = wm_and(live, w_gt(w_sub(r, L0), zero));
    if (behaviour == HK_SPRING_COMPRESSION_ONLY) live = wm_and(live, w_lt(w_sub(r, L0), zero));
    if (model == HK_DAMP_ALONG) {
        hk_w inv_r = w_div(w_set1(1), r);
        hk_w dot = w_fmadd(dvz, dz, w_fmadd(dvy, dy, w_mul(dvx, dx)));
        hk_w g = w_mul(w_fnmadd(w_mul(c, dot), inv_r, w_mul(k, w_sub(L0, r))), inv_r);
        *fx = w_keep(live, w_mul(g, dx));
        *fy = w_keep(live, w_mul(g, dy));
        *fz = w_keep(live, w_mul(g, dz));
    } else {
        hk_w g = w_fmsub(k, w_div(L0, r), k);
        *fx = w_keep(live, w_fmsub(g, dx, w_mul(c, dvx)));
        *fy = w_keep(live, w_fmsub(g, dy, w_mul(c, dvy)));
        *fz = w_keep(live, w_fmsub(g, dz, w_mul(c, dvz)));
    }
}

#endif
