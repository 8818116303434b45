/* mg_krylov.c — the K-cycle: a coarse level's correction as one or two flexible CG steps over its cycle. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "mg_level.h"

/*
 * The coarse correction of level C for its right-hand side b is found by
 * conjugate gradients on C, preconditioned by the cycle below (B_C):
 *   c1 = B_C b, rho1 = c1 . A c1, t = (c1 . b) / rho1, rest = b - t A c1;
 *   where |rest| <= MG_KRYLOV_ENOUGH |b|: x = t c1; otherwise
 *   c2 = B_C rest, gamma = c2 . A c1, beta = c2 . A c2, alpha2 = c2 . rest,
 *   rho2 = beta - gamma^2 / rho1,
 *   x = (t - gamma alpha2 / (rho1 rho2)) c1 + (alpha2 / rho2) c2.
 * A c is b - r after the residual r = b - A c, so each step costs one
 * residual of C beside its cycle. The sums are kept per row of C and added
 * in row order: the same bits for any team.
 */

/* A pass over rows of level C (hk_team_for counts rows from 0). */
typedef struct krylov_pass {
    mg_level *C;
    double t, u, v; /* the coefficients of the pass that writes */
} krylov_pass;

/* Per row: c1 . b, c1 . r, b . b, b . r, r . r. */
static void first_sums(void *ctx, int64_t a, int64_t e)
{
    const krylov_pass *kp = ctx;
    const mg_level *C = kp->C;
    for (int64_t row = a; row < e; row++) {
        double s[MG_KRYLOV_SUMS] = {0, 0, 0, 0, 0};
        for (int c = 0; c < 3; c++) {
            const hk_real *x = C->x[c] + row * C->sy, *b = C->b[c] + row * C->sy, *r = C->r[c] + row * C->sy;
            for (int64_t i = 0; i < C->sy; i++) {
                s[0] += (double)x[i] * b[i];
                s[1] += (double)x[i] * r[i];
                s[2] += (double)b[i] * b[i];
                s[3] += (double)b[i] * r[i];
                s[4] += (double)r[i] * r[i];
            }
        }
        for (int q = 0; q < MG_KRYLOV_SUMS; q++) C->dots[row * MG_KRYLOV_SUMS + q] = s[q];
    }
}

/* Per row: c2 . A c1, c2 . b, c2 . r. */
static void second_sums(void *ctx, int64_t a, int64_t e)
{
    const krylov_pass *kp = ctx;
    const mg_level *C = kp->C;
    for (int64_t row = a; row < e; row++) {
        double s[3] = {0, 0, 0};
        for (int c = 0; c < 3; c++) {
            const hk_real *x = C->x[c] + row * C->sy, *k2 = C->k2[c] + row * C->sy;
            const hk_real *b = C->b[c] + row * C->sy, *r = C->r[c] + row * C->sy;
            for (int64_t i = 0; i < C->sy; i++) {
                s[0] += (double)x[i] * k2[i];
                s[1] += (double)x[i] * b[i];
                s[2] += (double)x[i] * r[i];
            }
        }
        for (int q = 0; q < 3; q++) C->dots[row * MG_KRYLOV_SUMS + q] = s[q];
    }
}

/* The sums of n per-row values over all rows, in row order. */
static void add_rows(const mg_level *C, int n, double *out)
{
    const int64_t rows = (int64_t)C->n[1] * C->n[2];
    for (int q = 0; q < n; q++) out[q] = 0;
    for (int64_t row = 0; row < rows; row++)
        for (int q = 0; q < n; q++) out[q] += C->dots[row * MG_KRYLOV_SUMS + q];
}

static void run_rows(const hk_world *w, mg_level *C, hk_range_fn fn, krylov_pass *kp)
{
    hk_team_for(w, level_team(w, C), (int64_t)C->n[1] * C->n[2], fn, kp);
}

/* x = t x (u unused) */
static void scale_x(void *ctx, int64_t a, int64_t e)
{
    const krylov_pass *kp = ctx;
    const mg_level *C = kp->C;
    const hk_real t = (hk_real)kp->t;
    for (int c = 0; c < 3; c++)
        for (int64_t i = a * C->sy; i < e * C->sy; i++) C->x[c][i] *= t;
}

/* k1 = x, k2 = b - r (A c1), b = b - t k2 */
static void keep_first(void *ctx, int64_t a, int64_t e)
{
    const krylov_pass *kp = ctx;
    const mg_level *C = kp->C;
    const hk_real t = (hk_real)kp->t;
    for (int c = 0; c < 3; c++) {
        hk_real *restrict x = C->x[c], *restrict b = C->b[c], *restrict r = C->r[c];
        hk_real *restrict k1 = C->k1[c], *restrict k2 = C->k2[c];
        for (int64_t i = a * C->sy; i < e * C->sy; i++) {
            k1[i] = x[i];
            k2[i] = b[i] - r[i];
            b[i] -= t * k2[i];
        }
    }
}

/* x = u k1 + v x */
static void combine(void *ctx, int64_t a, int64_t e)
{
    const krylov_pass *kp = ctx;
    const mg_level *C = kp->C;
    const hk_real u = (hk_real)kp->u, v = (hk_real)kp->v;
    for (int c = 0; c < 3; c++) {
        hk_real *restrict x = C->x[c];
        const hk_real *restrict k1 = C->k1[c];
        for (int64_t i = a * C->sy; i < e * C->sy; i++) x[i] = u * k1[i] + v * x[i];
    }
}

int hk_mg_krylov_first(const hk_world *w, mg_level *C, mg_krylov *k)
{
    krylov_pass kp = {C, 0, 0, 0};
    run_rows(w, C, first_sums, &kp);
    double s[MG_KRYLOV_SUMS];
    add_rows(C, MG_KRYLOV_SUMS, s);
    const double alpha1 = s[0], rho1 = s[0] - s[1];
    k->rho1 = rho1;
    k->t = 1;
    if (!(rho1 > 0) || !isfinite(rho1)) return 0; /* b = 0, or no curvature in float: the cycle's x */
    const double t = alpha1 / rho1, ct = 1 - t;
    const double rest = ct * ct * s[2] + 2 * t * ct * s[3] + t * t * s[4];
    k->t = t;
    kp.t = t;
    if (rest <= MG_KRYLOV_ENOUGH * MG_KRYLOV_ENOUGH * s[2]) {
        run_rows(w, C, scale_x, &kp);
        return 0;
    }
    run_rows(w, C, keep_first, &kp);
    return 1;
}

void hk_mg_krylov_second(const hk_world *w, mg_level *C, const mg_krylov *k)
{
    krylov_pass kp = {C, 0, 0, 0};
    run_rows(w, C, second_sums, &kp);
    double s[3];
    add_rows(C, 3, s);
    const double gamma = s[0], alpha2 = s[1], beta = s[1] - s[2];
    const double rho2 = beta - gamma * gamma / k->rho1;
    if (rho2 > 0 && isfinite(rho2)) {
        kp.u = k->t - gamma * alpha2 / (k->rho1 * rho2);
        kp.v = alpha2 / rho2;
    } else { /* the second direction adds nothing it can trust: the first step alone */
        kp.u = k->t;
        kp.v = 0;
    }
    run_rows(w, C, combine, &kp);
}
