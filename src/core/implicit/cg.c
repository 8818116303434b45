/* cg.c — preconditioned conjugate gradients on the implicit system, with fixed-order reductions. */
/* SPDX-License-Identifier: MIT */
#include "cg.h"

#include <math.h>
#include <string.h>

#include "multigrid.h"
#include "part.h"

/* |r|^2 below this counts as 0 (r in N s): a residual of 1e-30 N s (float)
 * or 1e-125 N s (double) is physically nothing, and smaller vectors reach
 * the bottom of the precision: in float the velocities of a world come to
 * rest under backward Euler end at the smallest subnormal (1.4e-45 m/s),
 * where B r rounds to 0 and p . A p to 0, and in double the squares
 * underflow, where p . A p could round to 0 too; either would look like a
 * breakdown. */
#define HK_CG_NEGLIGIBLE (sizeof(hk_real) == 4 ? 1e-60 : 1e-250)

/* The force rule's largest weight 1 / (h F_i) [1/(N s)]: h F_i is taken no
 * smaller than the residual the solve counts as 0, sqrt(HK_CG_NEGLIGIBLE)
 * N s. Where F_i = 0 (no gravity and a zero right-hand side: nothing moves
 * any particle, and dv = 0 solves the system) a residual then meets the
 * rule only where it is nothing. Its square, 1e60 (float) or 1e250
 * (double), is finite, so the measure (|r_i| stop_i)^2 of any residual
 * whose square is finite is a number; a measure past the largest double
 * is a residual far above the rule, not a breakdown (hk_cg_solve). */
#define HK_CG_WEIGHT_MAX (sizeof(hk_real) == 4 ? 1e30 : 1e125)

/* A per-particle pass of the solve (part.h hk_team_spans). */
typedef struct cg_pass {
    hk_real *const *a, *const *b, *const *out;
    hk_real beta;
} cg_pass;

/* out = a + beta out */
static void direction_span(void *ctx, int g0, int g1)
{
    const cg_pass *q = ctx;
    for (int c = 0; c < 3; c++) {
        hk_real *pc = q->out[c];
        const hk_real *zc = q->a[c];
        for (int g = g0; g < g1; g++) pc[g] = zc[g] + q->beta * pc[g];
    }
}

/* p = z + beta p (this rank's particles) */
static void update_direction(hk_world *w, hk_real *const p[3], hk_real *const z[3], hk_real beta)
{
    cg_pass q = {z, NULL, p, beta};
    hk_team_spans(w, direction_span, &q);
}

/* out = b - out */
static void residual_span(void *ctx, int g0, int g1)
{
    const cg_pass *q = ctx;
    for (int c = 0; c < 3; c++)
        for (int g = g0; g < g1; g++) q->out[c][g] = q->b[c][g] - q->out[c][g];
}

/* z = B r, the preconditioned residual: block Jacobi, then the multigrid
 * cycle where there is one; returns r . z and sets *rr = r . r, *zq = z . q
 * (the multigrid's; NAN under block Jacobi alone) and, where worst is
 * given, *worst = max (|r_i| stop_i)^2 (free particles), where dvb is,
 * *dvb = dv . b. With alpha, the CG update comes first (system.h). */
static double precondition(hk_world *w, hk_implicit *im, hk_real sK, hk_real sD, const hk_real *alpha, double *rr,
                           double *zq, double *worst, double *dvb)
{
    const double rz = hk_system_precondition(w, im, alpha, im->mg ? hk_mg_omega() : 1, rr, worst, dvb);
    *zq = NAN;
    if (!im->mg) return rz;
    return hk_mg_precondition(w, im, sK, sD, im->v[HK_SYS_T], zq);
}

/* The force rule's weights: the sums per block (weights_blocks), then each
 * particle's weight (weights_span); the energy rule's floor from the free
 * particles' mass (free_mass_blocks). */
typedef struct weights_pass {
    const hk_particles *p;
    hk_implicit *im;
    hk_real *const *b;
    hk_real h;
    double a, big;
} weights_pass;

static void weights_blocks(void *ctx, int64_t i0, int64_t i1)
{
    const weights_pass *q = ctx;
    const hk_particles *p = q->p;
    const hk_implicit *im = q->im;
    hk_real *const *b = q->b;
    const int nb = im->block_count;
    double *part = im->partial; /* per block: the sum of |b_j| / m_j and the free particles */
    for (int64_t i = i0; i < i1; i++) {
        const int k = im->own[i], g1 = im->block[2 * k + 1];
        double s = 0, n = 0;
        for (int g = im->block[2 * k]; g < g1; g++)
            if (p->inv_mass[g] != 0) {
                s += sqrt((double)b[0][g] * b[0][g] + (double)b[1][g] * b[1][g] + (double)b[2][g] * b[2][g]) *
                     p->inv_mass[g];
                n++;
            }
        part[k] = s;
        part[nb + k] = n;
    }
}

static void weights_span(void *ctx, int g0, int g1)
{
    const weights_pass *q = ctx;
    const hk_particles *p = q->p;
    hk_real *const *b = q->b;
    const hk_real h = q->h;
    const double a = q->a, big = q->big;
    for (int i = g0; i < g1; i++) {
        const double bq = sqrt((double)b[0][i] * b[0][i] + (double)b[1][i] * b[1][i] + (double)b[2][i] * b[2][i]);
        const double ma = h * p->mass[i] * a, f = ma > bq ? ma : bq; /* h F_i [N s] */
        q->im->stop[i] = p->inv_mass[i] == 0 ? 0 : f > 1 / big ? (hk_real)(1 / f) : (hk_real)big;
    }
}

/* per block: the mass of its free particles */
static void free_mass_blocks(void *ctx, int64_t i0, int64_t i1)
{
    const weights_pass *q = ctx;
    const hk_particles *p = q->p;
    const hk_implicit *im = q->im;
    for (int64_t i = i0; i < i1; i++) {
        const int k = im->own[i], g1 = im->block[2 * k + 1];
        double s = 0;
        for (int g = im->block[2 * k]; g < g1; g++)
            if (p->inv_mass[g] != 0) s += p->mass[g];
        im->partial[k] = s;
    }
}

void hk_cg_weights(hk_world *w, hk_implicit *im, hk_real h, hk_cg_stop rule)
{
    if (rule == HK_CG_STOP_ENERGY) {
        weights_pass q = {&w->p, im, NULL, h, 0, 0};
        hk_team_for(w, hk_team_of(w, w->p.count), im->own_count, free_mass_blocks, &q);
        double mass;
        hk_system_reduce(w, im, im->partial, 1, 0, &mass);
        const hk_vec3 g = w->def.gravity;
        im->stop_energy = mass * (g.x * g.x + g.y * g.y + g.z * g.z) * (double)h * h;
        return;
    }
    weights_pass q = {&w->p, im, im->v[HK_SYS_B], h, 0, HK_CG_WEIGHT_MAX};
    hk_team_for(w, hk_team_of(w, w->p.count), im->own_count, weights_blocks, &q);
    double sums[2];
    hk_system_reduce(w, im, im->partial, 2, 0, sums);
    const double g = sqrt(w->def.gravity.x * w->def.gravity.x + w->def.gravity.y * w->def.gravity.y +
                          w->def.gravity.z * w->def.gravity.z);
    const double mean = sums[1] > 0 ? sums[0] / sums[1] / h : 0; /* m/s^2 */
    q.a = g > mean ? g : mean;
    hk_team_spans(w, weights_span, &q);
}

int hk_cg_small(hk_world *w, hk_implicit *im, hk_cg_stop rule, double tolerance, double b0, hk_real *const v[3])
{
    if (rule == HK_CG_STOP_FORCE) return sqrt(hk_system_worst(w, im, v)) <= tolerance;
    if (rule == HK_CG_STOP_ENERGY || rule == HK_CG_STOP_NEWTON) return 0; /* needs B v: the solve's first test */
    return sqrt(hk_system_dot(w, im, v, v)) <= tolerance * b0;
}

double hk_cg_decrement(hk_world *w, hk_implicit *im, hk_real sK, hk_real sD)
{
    const size_t bytes = (size_t)w->p.count * sizeof(hk_real);
    for (int c = 0; c < 3; c++) memcpy(im->v[HK_SYS_R][c], im->v[HK_SYS_B][c], bytes);
    double rr, zq;
    return precondition(w, im, sK, sD, NULL, &rr, &zq, NULL, NULL);
}

hk_cg_result hk_cg_solve(hk_world *w, hk_implicit *im, hk_real sK, hk_real sD, hk_cg_stop rule, double tolerance,
                         int max_iterations, int warm)
{
    hk_real *const *b = im->v[HK_SYS_B], *const *dv = im->v[HK_SYS_DV], *const *r = im->v[HK_SYS_R];
    hk_real *const *z = im->v[HK_SYS_Z], *const *p = im->v[HK_SYS_P], *const *q = im->v[HK_SYS_Q];
    const size_t bytes = (size_t)w->p.count * sizeof(hk_real);
    const int force = rule == HK_CG_STOP_FORCE, newton = rule == HK_CG_STOP_NEWTON;
    const int energy = rule == HK_CG_STOP_ENERGY || newton; /* both weigh r . z against dv . b */
    const double floor = newton ? im->stop_newton : tolerance * tolerance * im->stop_energy;
    hk_cg_result res = {HK_CG_CONVERGED, 0, 0};
    if (warm) { /* r = b - A dv */
        hk_system_apply(w, im, sK, sD, 1, dv, r);
        cg_pass q = {NULL, b, r, 0};
        hk_team_spans(w, residual_span, &q);
    } else {
        for (int c = 0; c < 3; c++) {
            memset(dv[c], 0, bytes);
            memcpy(r[c], b[c], bytes);
        }
    }
    double rr, zq, worst = 0, dvb = 0; /* dvb: dv . b, the energy of dv (dv . A dv + dv . r) [J] */
    double rz = precondition(w, im, sK, sD, NULL, &rr, &zq, force ? &worst : NULL, energy ? &dvb : NULL);
    const double bnorm = warm ? sqrt(hk_system_dot(w, im, b, b)) : sqrt(rr);
    if (bnorm * bnorm < HK_CG_NEGLIGIBLE) { /* b = 0: dv = 0 solves it, whatever the guess's residual measures */
        for (int c = 0; c < 3; c++) memset(dv[c], 0, bytes);
        return res;
    }
    if (!isfinite(rz) || !isfinite(bnorm) || !isfinite(rr) || isnan(worst) || !isfinite(dvb)) {
        res.status = HK_CG_BREAKDOWN;
        res.residual = NAN;
        return res;
    }
    for (int c = 0; c < 3; c++) memcpy(p[c], z[c], bytes);
    while ((force    ? worst > tolerance * tolerance
            : energy ? rz > fmax(tolerance * tolerance * dvb, floor)
                     : sqrt(rr) > tolerance * bnorm) &&
           rr >= HK_CG_NEGLIGIBLE) {
        if (res.iterations >= max_iterations) {
            res.status = HK_CG_MAX_ITERATIONS;
            break;
        }
        hk_system_apply(w, im, sK, sD, 1, p, q);
        res.iterations++;
        const double pq = hk_system_dot(w, im, p, q);
        if (!(pq > 0) || !isfinite(pq)) {
            res.status = HK_CG_BREAKDOWN;
            res.residual = NAN;
            return res;
        }
        const hk_real alpha = (hk_real)(rz / pq);
        const double rz_next =
            precondition(w, im, sK, sD, &alpha, &rr, &zq, force ? &worst : NULL, energy ? &dvb : NULL);
        if (!isfinite(rz_next) || !isfinite(rr) || isnan(worst) || !isfinite(dvb) || (im->mg && !isfinite(zq))) {
            res.status = HK_CG_BREAKDOWN;
            res.residual = NAN;
            return res;
        }
        /* the new direction A-orthogonal to the last: flexible CG (z . A p / p . A p), which the multigrid's
         * Krylov steps need; for a fixed preconditioner it is rz_next / rz */
        update_direction(w, p, z, (hk_real)(im->mg ? -zq / pq : rz_next / rz));
        rz = rz_next;
    }
    const double ref = newton ? fmax(dvb, floor / (tolerance * tolerance)) : fmax(dvb, im->stop_energy);
    res.residual = force ? sqrt(worst) : energy ? (ref > 0 ? sqrt(rz / ref) : 0) : sqrt(rr) / bnorm;
    return res;
}
