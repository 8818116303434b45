/* system_vec.c — the solve's vector passes in fixed blocks: preconditioning, dot products, maxima, reduction. */
/* SPDX-License-Identifier: MIT */
#include "system.h"

#include "part.h"
#include "team.h"

/* (|r_i| stop_i)^2 for a free particle i of |r_i|^2 = sq (the force rule's measure, cg.h). */
static inline double stop_measure(double sq, hk_real stop) { return sq * ((double)stop * stop); }

void hk_system_reduce(const hk_world *w, const hk_implicit *im, double *part, int nsum, int nmax, double *out)
{
    const int nb = im->block_count, n = nsum + nmax;
    if (w->part) { /* the blocks of other ranks: -0, then each rank's own (part.h) */
        for (int k = 0, i = 0; k < nb; k++) {
            if (i < im->own_count && im->own[i] == k) {
                i++;
                continue;
            }
            for (int a = 0; a < n; a++) part[a * nb + k] = -0.0;
        }
        hk_part_share_doubles(w, part, (int64_t)n * nb);
    }
    for (int a = 0; a < n; a++) {
        const double *pa = part + (size_t)a * nb;
        double s = 0;
        if (a < nsum)
            for (int k = 0; k < nb; k++) s += pa[k];
        else
            for (int k = 0; k < nb; k++) s = pa[k] > s ? pa[k] : s;
        out[a] = s;
    }
}

/* The blocks of hk_system_precondition: their CG update, z = inv r and
 * their partial sums. */
typedef struct precondition_pass {
    const hk_world *w;
    hk_implicit *im;
    const hk_real *alpha, *stop;
    hk_real *const *b; /* or NULL: dv . b is not summed */
    hk_real scale;
} precondition_pass;

static void precondition_blocks(void *ctx, int64_t i0, int64_t i1)
{
    const precondition_pass *pp = ctx;
    hk_implicit *im = pp->im;
    hk_real *const *iv = im->inv, *const *r = im->v[HK_SYS_R], *const *z = im->v[HK_SYS_Z];
    hk_real *const *dv = im->v[HK_SYS_DV], *const *p = im->v[HK_SYS_P], *const *q = im->v[HK_SYS_Q];
    const hk_real *alpha = pp->alpha, *stop = pp->stop, scale = pp->scale;
    const int nb = im->block_count;
    double *part = im->partial; /* r . z, r . r and the largest (|r_i| stop_i)^2 or dv . b per block */
    for (int64_t i = i0; i < i1; i++) {
        const int b = im->own[i], g0 = im->block[2 * b], g1 = im->block[2 * b + 1];
        if (alpha) /* the CG update of the block first: dv += alpha p, r -= alpha q */
            for (int c = 0; c < 3; c++)
                for (int g = g0; g < g1; g++) {
                    dv[c][g] += *alpha * p[c][g];
                    r[c][g] -= *alpha * q[c][g];
                }
        double s = 0, qq = 0, most = 0;
        for (int g = g0; g < g1; g++) {
            const hk_real x = r[0][g], y = r[1][g], zz = r[2][g];
            hk_real zx = iv[0][g] * x + iv[1][g] * y + iv[2][g] * zz;
            hk_real zy = iv[1][g] * x + iv[3][g] * y + iv[4][g] * zz;
            hk_real zz2 = iv[2][g] * x + iv[4][g] * y + iv[5][g] * zz;
            if (scale != 1) {
                zx *= scale;
                zy *= scale;
                zz2 *= scale;
            }
            z[0][g] = zx;
            z[1][g] = zy;
            z[2][g] = zz2;
            s += (double)x * zx + (double)y * zy + (double)zz * zz2;
            if (pp->w->p.inv_mass[g] != 0) {
                const double sq = (double)x * x + (double)y * y + (double)zz * zz;
                qq += sq;
                if (stop) {
                    const double e = stop_measure(sq, stop[g]);
                    most = e > most ? e : most;
                }
            }
        }
        if (pp->b)
            for (int c = 0; c < 3; c++)
                for (int g = g0; g < g1; g++) most += (double)dv[c][g] * pp->b[c][g];
        part[b] = s;
        part[nb + b] = qq;
        part[2 * nb + b] = most;
    }
}

double hk_system_precondition(hk_world *w, hk_implicit *im, const hk_real *alpha, hk_real scale, double *rr,
                              double *worst, double *dvb)
{
    precondition_pass pp = {w, im, alpha, worst ? im->stop : NULL, dvb ? im->v[HK_SYS_B] : NULL, scale};
    hk_team_for(w, hk_system_team(w), im->own_count, precondition_blocks, &pp);
    double out[3];
    hk_system_reduce(w, im, im->partial, dvb ? 3 : 2, worst ? 1 : 0, out);
    *rr = out[1];
    if (worst) *worst = out[2];
    if (dvb) *dvb = out[2];
    return out[0];
}

/* The blocks of a dot product (worst = 0) or a weighted maximum (worst = 1). */
typedef struct block_pass_ctx {
    const hk_world *w;
    hk_implicit *im;
    hk_real *const *a, *const *b;
    int worst;
} block_pass_ctx;

static void dot_blocks(void *ctx, int64_t i0, int64_t i1)
{
    const block_pass_ctx *bp = ctx;
    const hk_implicit *im = bp->im;
    hk_real *const *a = bp->a, *const *b = bp->b;
    for (int64_t i = i0; i < i1; i++) {
        const int k = im->own[i], g1 = im->block[2 * k + 1];
        double s = 0;
        if (bp->worst)
            for (int g = im->block[2 * k]; g < g1; g++) {
                const double sq = (double)a[0][g] * a[0][g] + (double)a[1][g] * a[1][g] + (double)a[2][g] * a[2][g];
                const double e = bp->w->p.inv_mass[g] != 0 ? stop_measure(sq, im->stop[g]) : 0;
                s = e > s ? e : s;
            }
        else
            for (int g = im->block[2 * k]; g < g1; g++)
                s += (double)a[0][g] * b[0][g] + (double)a[1][g] * b[1][g] + (double)a[2][g] * b[2][g];
        im->partial[k] = s;
    }
}

/* The dot products (worst = 0) and the weighted maxima (worst = 1) of
 * hk_system_dot and hk_system_worst. */
static double block_pass(hk_world *w, hk_implicit *im, hk_real *const a[3], hk_real *const b[3], int worst)
{
    block_pass_ctx bp = {w, im, a, b, worst};
    hk_team_for(w, hk_system_team(w), im->own_count, dot_blocks, &bp);
    double out;
    hk_system_reduce(w, im, im->partial, !worst, worst, &out);
    return out;
}

double hk_system_dot(hk_world *w, hk_implicit *im, hk_real *const a[3], hk_real *const b[3])
{
    return block_pass(w, im, a, b, 0);
}

double hk_system_worst(hk_world *w, hk_implicit *im, hk_real *const a[3]) { return block_pass(w, im, a, a, 1); }
