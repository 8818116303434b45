/* level_pass.h — the multigrid's coarse-level passes over W lanes: residual and block-Jacobi step (one ISA). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_LEVEL_PASS_H
#define HOOKE_LEVEL_PASS_H

/* Included by kernels_isa.h after simd.h. Each lane is one node; every sum
 * is added in the order the scalar path adds it (no fused multiply-add):
 * the same bits on every ISA. */

/* The entries (xx, xy, xz, yy, yz, zz) of row c of a symmetric 3x3 block. */
static const int lvl_row[3][3] = {{0, 1, 2}, {1, 3, 4}, {2, 4, 5}};

/* r = b - D x for the n (<= W) nodes from I. */
static inline __attribute__((always_inline)) void lvl_diag_lanes(const hk_level_view *L, int64_t I, int n)
{
    hk_w x[3], d[6];
    for (int c = 0; c < 3; c++) x[c] = w_load_lanes(L->x[c] + I, n);
    for (int e = 0; e < 6; e++) d[e] = w_load_lanes(L->d[e] + I, n);
    for (int c = 0; c < 3; c++) {
        const int *e = lvl_row[c];
        const hk_w dx = w_add(w_add(w_mul(d[e[0]], x[0]), w_mul(d[e[1]], x[1])), w_mul(d[e[2]], x[2]));
        w_store_lanes(L->r[c] + I, w_sub(w_load_lanes(L->b[c] + I, n), dx), n);
    }
}

/* r += c(I) x(I + s) + c(I - s) x(I - s) for coupling o (offset s) of the
 * n (<= W) nodes from I: the guards around every array are zero. */
static inline __attribute__((always_inline)) void lvl_coupling_lanes(const hk_level_view *L, int o, int64_t I, int n)
{
    const int64_t s = L->loff[o];
    hk_w p[3], m[3], c[6], cm[6];
    for (int q = 0; q < 3; q++) {
        p[q] = w_load_lanes(L->x[q] + I + s, n);
        m[q] = w_load_lanes(L->x[q] + I - s, n);
    }
    for (int e = 0; e < 6; e++) {
        c[e] = w_load_lanes(L->c[o][e] + I, n);
        cm[e] = w_load_lanes(L->c[o][e] + I - s, n);
    }
    for (int q = 0; q < 3; q++) {
        const int *e = lvl_row[q];
        hk_w t = w_add(w_mul(c[e[0]], p[0]), w_mul(c[e[1]], p[1]));
        t = w_add(t, w_mul(c[e[2]], p[2]));
        t = w_add(t, w_mul(cm[e[0]], m[0]));
        t = w_add(t, w_mul(cm[e[1]], m[1]));
        t = w_add(t, w_mul(cm[e[2]], m[2]));
        w_store_lanes(L->r[q] + I, w_add(w_load_lanes(L->r[q] + I, n), t), n);
    }
}

/* r = b - A x over nodes [a, e): the diagonal, then each coupling in
 * offset order, one pass each. */
static void HK_SUFFIX(level_residual)(const hk_level_view *L, int64_t a, int64_t e)
{
    int64_t I = a;
    for (; I + HK_W <= e; I += HK_W) lvl_diag_lanes(L, I, HK_W);
    if (I < e) lvl_diag_lanes(L, I, (int)(e - I));
    for (int o = 0; o < L->noff; o++) {
        for (I = a; I + HK_W <= e; I += HK_W) lvl_coupling_lanes(L, o, I, HK_W);
        if (I < e) lvl_coupling_lanes(L, o, I, (int)(e - I));
    }
}

/* x = (first ? 0 : x) + omega dinv v, v = first ? b : r, for the n nodes from I. */
static inline __attribute__((always_inline)) void lvl_smooth_lanes(const hk_level_view *L, hk_w om, int first,
                                                                   int64_t I, int n)
{
    hk_real *const *v = first ? L->b : L->r;
    hk_w u[3], iv[6];
    for (int c = 0; c < 3; c++) u[c] = w_load_lanes(v[c] + I, n);
    for (int e = 0; e < 6; e++) iv[e] = w_load_lanes(L->dinv[e] + I, n);
    for (int c = 0; c < 3; c++) {
        const int *e = lvl_row[c];
        const hk_w z = w_mul(om, w_add(w_add(w_mul(iv[e[0]], u[0]), w_mul(iv[e[1]], u[1])), w_mul(iv[e[2]], u[2])));
        const hk_w x0 = first ? w_set1(0) : w_load_lanes(L->x[c] + I, n);
        w_store_lanes(L->x[c] + I, w_add(x0, z), n);
    }
}

static void HK_SUFFIX(level_smooth)(const hk_level_view *L, hk_real omega, int first, int64_t a, int64_t e)
{
    const hk_w om = w_set1(omega);
    int64_t I = a;
    for (; I + HK_W <= e; I += HK_W) lvl_smooth_lanes(L, om, first, I, HK_W);
    if (I < e) lvl_smooth_lanes(L, om, first, I, (int)(e - I));
}

#endif
