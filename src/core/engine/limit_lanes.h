/* limit_lanes.h — the longest and shortest of a run of springs on W lanes, for the strain limits' sweeps (one ISA). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_LIMIT_LANES_H
#define HOOKE_LIMIT_LANES_H

/* Included by kernels_isa.h after simd.h. Each spring's square length is formed as every kernel forms it, d =
 * (q_a - q_b) - D, r^2 = fma(dz, dz, fma(dy, dy, dx dx)), so that its square root is the r the scalar path of
 * fabric/strain_limit.c compares with the limits. */

/* r^2 of the W springs from entry i on. */
static inline __attribute__((always_inline)) hk_w length2_lanes(hk_real *const qa[3], hk_real *const qb[3],
                                                                const hk_w D[3], int64_t i)
{
    const hk_w dx = w_sub(w_sub(w_loadu(qa[0] + i), w_loadu(qb[0] + i)), D[0]);
    const hk_w dy = w_sub(w_sub(w_loadu(qa[1] + i), w_loadu(qb[1] + i)), D[1]);
    const hk_w dz = w_sub(w_sub(w_loadu(qa[2] + i), w_loadu(qb[2] + i)), D[2]);
    return w_fmadd(dz, dz, w_fmadd(dy, dy, w_mul(dx, dx)));
}

/* The largest and smallest r^2 of springs [0, n) of a run whose ends are entry s of qa and of qb, rest vector D
 * (kernel_table.h length2_range); n > 0. Four vectors a round, each with its own largest and smallest so far (a
 * round's compares do not wait for the round before's); the springs past the last whole vector in one more vector
 * that ends at n (springs measured twice change neither figure). */
static void HK_SUFFIX(length2_range)(hk_real *const qa[3], hk_real *const qb[3], const hk_real D[3], int64_t n,
                                     hk_real *most, hk_real *least)
{
    if (n < HK_W) { /* too short for one vector */
        hk_length2_range_scalar(qa, qb, D, n, most, least);
        return;
    }
    const int64_t rounds = n / (4 * HK_W) * (4 * HK_W);
    const hk_w Dv[3] = {w_set1(D[0]), w_set1(D[1]), w_set1(D[2])};
    hk_w vmx[4], vmn[4];
    for (int u = 0; u < 4; u++) {
        vmx[u] = w_set1(0);
        vmn[u] = w_set1(INFINITY);
    }
    for (int64_t i = 0; i < rounds; i += 4 * HK_W)
        for (int u = 0; u < 4; u++) {
            const hk_w r2 = length2_lanes(qa, qb, Dv, i + u * HK_W);
            vmx[u] = w_select(w_gt(r2, vmx[u]), vmx[u], r2);
            vmn[u] = w_select(w_lt(r2, vmn[u]), vmn[u], r2);
        }
    for (int64_t i = rounds; i < n; i += HK_W) {
        const hk_w r2 = length2_lanes(qa, qb, Dv, i + HK_W <= n ? i : n - HK_W);
        vmx[0] = w_select(w_gt(r2, vmx[0]), vmx[0], r2);
        vmn[0] = w_select(w_lt(r2, vmn[0]), vmn[0], r2);
    }
    for (int u = 1; u < 4; u++) {
        vmx[0] = w_select(w_gt(vmx[u], vmx[0]), vmx[0], vmx[u]);
        vmn[0] = w_select(w_lt(vmn[u], vmn[0]), vmn[0], vmn[u]);
    }
    hk_real a[HK_W], b[HK_W], mx = 0, mn = INFINITY;
    w_store_lanes(a, vmx[0], HK_W);
    w_store_lanes(b, vmn[0], HK_W);
    for (int l = 0; l < HK_W; l++) {
        mx = a[l] > mx ? a[l] : mx;
        mn = b[l] < mn ? b[l] : mn;
    }
    *most = mx;
    *least = mn;
}

#endif
