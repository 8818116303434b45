/* xpbd_lanes.h — xpbd's step of one spring on W lanes, over springs whose ends lie in contiguous arrays (one ISA). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_XPBD_LANES_H
#define HOOKE_XPBD_LANES_H

/* Included by kernels_isa.h after simd.h. The step and its derivation are at the top of iterate/xpbd.c, whose
 * project_one (the reference path's, and every path's for list springs) performs the same operations in the same
 * order, so a spring's step has the same bits on every path:
 *   d = (q_a - q_b) - D,  r = sqrt(fma(dz, dz, fma(dy, dy, dx dx))),  live: unbroken, w_a + w_b != 0, r != 0
 *   n = d (1 / r),  rel = (q_a - p_a) - (q_b - p_b),  along = (n_x rel_x + n_y rel_y) + n_z rel_z
 *   pull = K (r - L0) + Dn along,  g = (u + pull n) + Dv rel,  gn = (g_x n_x + g_y n_y) + g_z n_z
 *   ia = 1 / (1 + W (K (r > L0 ? 1 - L0 (1 / r) : 0) + Dv)),  iab = 1 / (1 + W ((K + Dn) + Dv))
 *   du = (gn n - g) ia - (gn n) iab;  a slack spring (its behaviour): du = 0 - u
 *   q_a += w_a du,  q_b -= w_b du,  u += du   (live lanes; the others keep q and u, u = 0 on a fresh sweep)
 * (every product and sum rounded on its own but the length's fused multiply-adds). */

/* The step on W lanes: qa, qb and u (0 on a fresh sweep) replaced by their values after it, from the ends' prev pa, pb
 * and inverse masses wa, wb; unbroken: lanes whose spring is not broken. */
static inline __attribute__((always_inline)) void xpbd_lanes(const hk_xpbd_span *s, hk_w qa[3], hk_w qb[3],
                                                             const hk_w pa[3], const hk_w pb[3], hk_w wa, hk_w wb,
                                                             hk_w u[3], hk_wm unbroken)
{
    const hk_w zero = w_set1(0), one = w_set1(1), K = w_set1(s->K), Dn = w_set1(s->Dn), Dv = w_set1(s->Dv),
               L0 = w_set1(s->L0);
    hk_w d[3], rel[3], nv[3], g[3], du[3];
    for (int c = 0; c < 3; c++) {
        d[c] = w_sub(w_sub(qa[c], qb[c]), w_set1(s->D[c]));
        rel[c] = w_sub(w_sub(qa[c], pa[c]), w_sub(qb[c], pb[c]));
    }
    const hk_w W = w_add(wa, wb);
    const hk_w r = w_sqrt(w_fmadd(d[2], d[2], w_fmadd(d[1], d[1], w_mul(d[0], d[0]))));
    const hk_wm live = wm_and(unbroken, wm_and(w_neq(W, zero), w_neq(r, zero)));
    const hk_w inv_r = w_div(one, r);
    for (int c = 0; c < 3; c++) nv[c] = w_mul(d[c], inv_r);
    const hk_w along = w_add(w_add(w_mul(nv[0], rel[0]), w_mul(nv[1], rel[1])), w_mul(nv[2], rel[2]));
    const hk_w pull = w_add(w_mul(K, w_sub(r, L0)), w_mul(Dn, along));
    for (int c = 0; c < 3; c++) g[c] = w_add(w_add(u[c], w_mul(pull, nv[c])), w_mul(Dv, rel[c]));
    const hk_w gn = w_add(w_add(w_mul(g[0], nv[0]), w_mul(g[1], nv[1])), w_mul(g[2], nv[2]));
    const hk_w bend = w_keep(w_gt(r, L0), w_sub(one, w_mul(L0, inv_r)));
    const hk_w ia = w_div(one, w_add(one, w_mul(W, w_add(w_mul(K, bend), Dv))));
    const hk_w iab = w_div(one, w_add(one, w_mul(W, w_add(w_add(K, Dn), Dv))));
    for (int c = 0; c < 3; c++) {
        const hk_w t = w_mul(gn, nv[c]);
        du[c] = w_sub(w_mul(w_sub(t, g[c]), ia), w_mul(t, iab));
    }
    if (s->behaviour == HK_SPRING_TENSION_ONLY || s->behaviour == HK_SPRING_COMPRESSION_ONLY) {
        /* acting while r > L0 (tension only) or r < L0 (compression only); slack otherwise */
        const hk_wm acts = s->behaviour == HK_SPRING_TENSION_ONLY ? w_gt(r, L0) : w_lt(r, L0);
        for (int c = 0; c < 3; c++) du[c] = w_select(acts, w_sub(zero, u[c]), du[c]);
    }
    for (int c = 0; c < 3; c++) {
        qa[c] = w_select(live, qa[c], w_add(qa[c], w_mul(wa, du[c])));
        qb[c] = w_select(live, qb[c], w_sub(qb[c], w_mul(wb, du[c])));
        u[c] = w_select(live, u[c], w_add(u[c], du[c]));
    }
}

/* The steps of springs [0, n) of s (kernel_table.h hk_xpbd_span). */
static void HK_SUFFIX(xpbd_span)(const hk_xpbd_span *s, int64_t n, int fresh, int keep)
{
    for (int64_t i = 0; i < n; i += HK_W) {
        const int m = n - i < HK_W ? (int)(n - i) : HK_W;
        hk_w qa[3], qb[3], pa[3], pb[3], u[3];
        for (int c = 0; c < 3; c++) {
            qa[c] = w_load_lanes(s->qa[c] + i, m);
            qb[c] = w_load_lanes(s->qb[c] + i, m);
            pa[c] = w_load_lanes(s->pa[c] + i, m);
            pb[c] = w_load_lanes(s->pb[c] + i, m);
            u[c] = fresh ? w_set1(0) : w_load_lanes(s->u[c] + i, m);
        }
        hk_wm unbroken = wm_all();
        if (s->broken) {
            uint8_t b[16] = {0};
            memcpy(b, s->broken + i, (size_t)m);
            unbroken = wm_unbroken(b);
        }
        xpbd_lanes(s, qa, qb, pa, pb, w_load_lanes(s->wa + i, m), w_load_lanes(s->wb + i, m), u, unbroken);
        for (int c = 0; c < 3; c++) {
            w_store_lanes(s->qa[c] + i, qa[c], m);
            w_store_lanes(s->qb[c] + i, qb[c], m);
            if (keep) w_store_lanes(s->u[c] + i, u[c], m);
        }
    }
}

#ifdef HK_HAS_SPLIT
/* The steps of `blocks` blocks of 2W entries from s's a arrays on (its b arrays unused): in each, the entries of the
 * even runs of d (1 or 2) are the sources of W springs and the entry d past each its target (simd.h w_split). */
static void HK_SUFFIX(xpbd_pairs)(const hk_xpbd_span *s, int d, int64_t blocks, int fresh, int keep)
{
    for (int64_t i = 0; i < 2 * HK_W * blocks; i += 2 * HK_W) {
        hk_w qa[3], qb[3], pa[3], pb[3], u[3], other[3], wa, wb; /* other: the u of the other colour's springs */
        for (int c = 0; c < 3; c++) {
            w_split(s->qa[c] + i, d, &qa[c], &qb[c]);
            w_split(s->pa[c] + i, d, &pa[c], &pb[c]);
            u[c] = other[c] = w_set1(0);
            if (!fresh || keep) w_split(s->u[c] + i, d, &u[c], &other[c]);
            if (fresh) u[c] = w_set1(0);
        }
        w_split(s->wa + i, d, &wa, &wb);
        hk_wm unbroken = wm_all();
        if (s->broken) { /* the flags as reals, split as the entries are */
            hk_real flag[2 * HK_W];
            hk_w fa, fb;
            for (int e = 0; e < 2 * HK_W; e++) flag[e] = s->broken[i + e];
            w_split(flag, d, &fa, &fb);
            unbroken = w_neq(fa, w_set1(1));
        }
        xpbd_lanes(s, qa, qb, pa, pb, wa, wb, u, unbroken);
        for (int c = 0; c < 3; c++) {
            w_merge(s->qa[c] + i, d, qa[c], qb[c]);
            if (keep) w_merge(s->u[c] + i, d, u[c], other[c]);
        }
    }
}
#define HK_XPBD_PAIRS HK_SUFFIX(xpbd_pairs)
#else
#define HK_XPBD_PAIRS NULL
#endif

#endif
