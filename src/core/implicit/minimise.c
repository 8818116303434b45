/* minimise.c — an implicit substep as the minimisation of its incremental potential: backward Euler's and BDF2's. */
/* SPDX-License-Identifier: MIT */
#include "minimise.h"

#include <float.h>
#include <math.h>

#include "cg.h"
#include "direct.h"
#include "forces.h"
#include "implicit.h"
#include "part.h"
#include "response.h"
#include "strain.h"

/*
 * The step x = xb + hb v, with the end velocity v the unknown, solves
 *   g(v) = M (v - vb) - hb f(xb + hb v, v) = 0
 * (backward Euler: xb, vb the start state and hb = h; BDF2:
 * hk_bdf2_substep). g is the gradient of the incremental potential
 *   E(v) = 1/2 |v - vb|_M^2 + U(xb + hb v) + W(v)
 * with U the springs' elastic energy and W the work the other forces do
 * against the motion (gravity, damping, contact, drag, pressure):
 * dW = -hb f_other . dv. The minimiser is the step. Each Newton iteration
 * solves (M - hb df/dv - hb^2 df/dx) dv = -g(v) on the clamped, positive
 * definite matrix (system.h), by CG or directly (direct.h), so dv is a
 * descent direction of E,
 * then searches the line v + a dv back from a = 1 until E has fallen by at
 * least a small part of what its slope promised (Armijo):
 *   E(a) - E(0) <= c a g . dv.
 * U is summed exactly (engine/strain.h, the springs' energy and its slope
 * along dv); W by the trapezoidal rule on the other forces' work along the
 * line, which is exact for constant forces (gravity) and for forces linear
 * along it. A step therefore never raises the springs' energy and the
 * kinetic energy together above what the other forces' work put in:
 * it cannot gain energy the way the linearised step (one Newton iteration
 * from the start, no search) can where springs turn and stretch far within
 * a substep. What it still can: the work of the other forces is estimated,
 * and the terms the matrix does not take (ground, walls, spheres,
 * pressure, wind) act on the state as they do in any explicit step; and a
 * minimisation stopped at its iteration bound ends where it stopped
 * (counted: hk_solver_stats.newton_unconverged).
 * Newton stops once the energy a further step would release, b . A^-1 b
 * (the direct solve's exact figure; under CG the preconditioner's estimate
 * b . B b, which weighs each particle's residual force by its own block of
 * mass and stiffness), is at most newton_tolerance^2 of the first step's
 * (or of gravity's in the substep, hk_cg_weights, where that is larger),
 * or at the default tolerance at most E's rounding; or once that figure
 * rises, or stops halving near E's rounding, or E falls nowhere along the
 * step (the precision's floor: only rounding is left); or after
 * HK_NEWTON_BOUND iterations, counted. Each Newton step's solve needs to
 * be no more exact than that: under cg_stop newton (inexact Newton) it
 * stops once its error's energy is at most cg_tolerance^2 of the step's
 * own (dv . b) or a tenth of the energy where Newton stops, whichever is
 * larger (cg.h), and Newton's own rule decides where the minimisation ends.
 */

#define ARMIJO 1e-4        /* the part of the promised fall the search asks for */
#define SEARCH_CUTS 30     /* cuts of a at most, each to between a tenth and a half: 2^-30 of a step is nothing */
#define ROUNDING_ULPS 4    /* E's rounding: this many epsilons of its terms' scale */
#define STALL_ROUNDINGS 16 /* the Newton rule's floor: a figure within this many of E's rounding */

/* What the per-particle passes read. */
typedef struct min_pass {
    hk_particles *p;
    hk_implicit *im;
    hk_real hb, a;
    int base; /* the vector of xb (HK_SYS_X0 or HK_SYS_XB); vb's follows it */
} min_pass;

/* v = vk + a dv (a = 0: vk, dv unread), x = xb + hb v for free particles (HK_SYS_VK: vk). */
static void move_span(void *ctx, int g0, int g1)
{
    const min_pass *s = ctx;
    hk_particles *p = s->p;
    hk_real *x[3] = {p->qx, p->qy, p->qz}, *v[3] = {p->vx, p->vy, p->vz};
    for (int c = 0; c < 3; c++) {
        const hk_real *dv = s->im->v[HK_SYS_DV][c], *xb = s->im->v[s->base][c], *vk = s->im->v[HK_SYS_VK][c];
        hk_real *xc = x[c], *vc = v[c];
        for (int g = g0; g < g1; g++) {
            if (p->inv_mass[g] == 0) continue;
            vc[g] = s->a != 0 ? vk[g] + s->a * dv[g] : vk[g];
            xc[g] = xb[g] + s->hb * vc[g];
        }
    }
}

static void move_to(hk_world *w, hk_implicit *im, hk_real hb, int base, hk_real a)
{
    min_pass s = {&w->p, im, hb, a, base};
    hk_team_spans(w, move_span, &s);
}

/* vk = v (the line's start) */
static void keep_span(void *ctx, int g0, int g1)
{
    const min_pass *s = ctx;
    const hk_particles *p = s->p;
    const hk_real *v[3] = {p->vx, p->vy, p->vz};
    for (int c = 0; c < 3; c++)
        for (int g = g0; g < g1; g++) s->im->v[HK_SYS_VK][c][g] = v[c][g];
}

/* E's parts on the line at the current state, and their slopes d/da along dv. */
typedef struct line_point {
    double kinetic; /* 1/2 |v - vb|_M^2 [J] */
    double elastic; /* U [J] */
    double slope;   /* dE/da = g . dv [J] */
    double other;   /* d W / da = -hb f_other . dv [J] */
    double rounding;
} line_point;

/* per block: 1/2 m |v - vb|^2, m (v - vb) . dv, f . dv, m |v - vb| (|v| + |vb|) over free particles */
static void line_blocks(void *ctx, int64_t i0, int64_t i1)
{
    const min_pass *s = ctx;
    const hk_particles *p = s->p;
    const hk_implicit *im = s->im;
    const int nb = im->block_count;
    const hk_real *v[3] = {p->vx, p->vy, p->vz}, *f[3] = {p->fx, p->fy, p->fz};
    hk_real *const *vb = im->v[s->base + 1], *const *dv = im->v[HK_SYS_DV];
    for (int64_t i = i0; i < i1; i++) {
        const int k = im->own[i], g1 = im->block[2 * k + 1];
        double kin = 0, in = 0, fd = 0, rnd = 0;
        for (int g = im->block[2 * k]; g < g1; g++) {
            if (p->inv_mass[g] == 0) continue;
            double dd = 0, mv = 0, mb = 0, m = p->mass[g];
            for (int c = 0; c < 3; c++) {
                const double d = (double)v[c][g] - (double)vb[c][g];
                dd += d * d;
                in += m * d * (double)dv[c][g];
                fd += (double)f[c][g] * (double)dv[c][g];
                mv += (double)v[c][g] * v[c][g];
                mb += (double)vb[c][g] * vb[c][g];
            }
            kin += 0.5 * m * dd;
            rnd += m * sqrt(dd) * (sqrt(mv) + sqrt(mb));
        }
        im->partial[k] = kin;
        im->partial[nb + k] = in;
        im->partial[2 * nb + k] = fd;
        im->partial[3 * nb + k] = rnd;
    }
}

/* E's parts at the current state (forces in p->f) along dv. */
static line_point line_at(hk_world *w, hk_implicit *im, hk_real hb, int base)
{
    min_pass s = {&w->p, im, hb, 0, base};
    hk_team_for(w, hk_system_team(w), im->own_count, line_blocks, &s);
    double sum[4];
    hk_system_reduce(w, im, im->partial, 4, 0, sum);
    const hk_spring_scan u = hk_springs_scan_along(w, im->v[HK_SYS_DV]);
    const double springs = (double)hb * u.slope; /* dU/da = hb dU/dx . dv */
    line_point l;
    l.kinetic = sum[0];
    l.elastic = u.energy;
    l.slope = sum[1] - (double)hb * sum[2]; /* g . dv = M (v - vb) . dv - hb f . dv */
    l.other = l.slope - sum[1] - springs;   /* -hb f . dv - dU/da: the others' work slope */
    l.rounding = (sum[3] + u.rounding) * (sizeof(hk_real) == 4 ? FLT_EPSILON : DBL_EPSILON) * ROUNDING_ULPS;
    return l;
}

/* Forces at the current state (the colliders at the substep's end), then b = -g (implicit.h). HK_OK or the engine's
 * failure. */
static int residual(hk_world *w, hk_implicit *im, hk_real hb, int base)
{
    if (hk_forces_compute(w) != HK_OK) return -1;
    hk_implicit_residual(w, im, hb, 1, base + 1);
    return HK_OK;
}

/* The end of a minimised substep from the start state saved in im (hk_implicit_save) about the base in the vectors
 * base, base + 1: the state kept and the velocity change into the history, or on a failure the start restored
 * (a breakdown reported). 1 if the substep was taken. */
static int minimised_substep(hk_world *w, hk_implicit *im, hk_real hb, int base)
{
    int iterations = 0;
    const int r = hk_minimise(w, im, hb, base, &iterations);
    if (r != 0) {
        hk_implicit_restore(w, im);
        if (r > 0) hk_implicit_broke_down(w, im, iterations);
        return 0;
    }
    hk_implicit_keep(w, im);
    w->forces_valid = 0;
    return 1;
}

/* Backward Euler: linearised with newton_iterations, else minimised from the start state. */
void hk_implicit_euler_substep(hk_world *w, hk_real h)
{
    if (w->integrator.newton_iterations > 0) {
        hk_linearised_substep(w, h, 1);
        return;
    }
    hk_implicit *im = hk_implicit_begin(w);
    if (!im) return;
    hk_implicit_save(w, im);
    minimised_substep(w, im, h, HK_SYS_X0);
}

/* What a BDF2 substep's per-particle passes read: the history (px.., dqx..: the substep before's velocity change and
 * displacement). */
typedef struct bdf2_pass {
    hk_particles *p;
    hk_implicit *im;
    hk_real *hist[6];
} bdf2_pass;

/* xb = x + dq / 3, vb = v + dv / 3: (4 x - x_prev) / 3 and (4 v - v_prev) / 3 (HK_SYS_XB, HK_SYS_VB). */
static void bdf2_base_span(void *ctx, int g0, int g1)
{
    const bdf2_pass *s = ctx;
    const hk_particles *p = s->p;
    const hk_real *x[3] = {p->qx, p->qy, p->qz}, *v[3] = {p->vx, p->vy, p->vz};
    for (int c = 0; c < 3; c++) {
        const hk_real *dv = s->hist[c], *dq = s->hist[3 + c];
        hk_real *xb = s->im->v[HK_SYS_XB][c], *vb = s->im->v[HK_SYS_VB][c];
        for (int g = g0; g < g1; g++) {
            xb[g] = x[c][g] + dq[g] / 3;
            vb[g] = v[c][g] + dv[g] / 3;
        }
    }
}

/* The substep's displacement x - x0 into dq (the velocity change: hk_implicit_keep). */
static void bdf2_keep_span(void *ctx, int g0, int g1)
{
    const bdf2_pass *s = ctx;
    const hk_particles *p = s->p;
    const hk_real *x[3] = {p->qx, p->qy, p->qz};
    for (int c = 0; c < 3; c++) {
        const hk_real *x0 = s->im->v[HK_SYS_X0][c];
        hk_real *dq = s->hist[3 + c];
        for (int g = g0; g < g1; g++) dq[g] = x[c][g] - x0[g];
    }
}

/* BDF2 on (x, v), with the substep before's state x_, v_:
 *   x = (4 x0 - x_) / 3 + 2/3 h v,   M (v - (4 v0 - v_) / 3) = 2/3 h f(x, v)
 * the minimisation above with xb, vb those thirds and hb = 2/3 h. The first substep of a run (no history: a
 * world's first, or after its integrator, particles or storage were set again) is backward Euler's, which
 * starts the recursion at second order. The history is the substep's changes (as backward Euler's velocity
 * change, the next first guess); contacts that move a particle after the substep leave them as they are, so
 * the state before is moved with the particle (as position Verlet's is). */
void hk_bdf2_substep(hk_world *w, hk_real h)
{
    hk_implicit *im = hk_implicit_begin(w);
    if (!im) return;
    hk_implicit_save(w, im);
    bdf2_pass s = {&w->p, im, {w->px, w->py, w->pz, w->dqx, w->dqy, w->dqz}};
    const int second = w->history;
    if (second) hk_team_spans(w, bdf2_base_span, &s);
    if (minimised_substep(w, im, second ? (hk_real)(2.0 / 3.0) * h : h, second ? HK_SYS_XB : HK_SYS_X0))
        hk_team_spans(w, bdf2_keep_span, &s);
}

/* What the Newton rule reads from one iteration to the next [J]: the first step's energy (dv . b), the figure of
 * the iteration before (0: none yet), and the rounding of E at the iterate. */
typedef struct newton_track {
    double first, last, rounding;
} newton_track;

/* The default newton_tolerance: under cg_stop newton each Newton step is solved inexactly, so that the last one
 * falls short of exact Newton's quadratic step; its default stops where that step would have landed (the square of
 * the exact solves' default). */
static double newton_default(const hk_integrator_def *d)
{
    return d->cg_stop == HK_CG_STOP_NEWTON ? HK_NEWTON_TOLERANCE * HK_NEWTON_TOLERANCE : HK_NEWTON_TOLERANCE;
}

/* The minimisation's newton_tolerance, else its default. */
static double newton_tolerance(const hk_integrator_def *d)
{
    return d->newton_tolerance > 0 ? d->newton_tolerance : newton_default(d);
}

/* The Newton rule: whether the energy the next step would release, left (J), is within the tolerance of the first
 * step's (or of gravity's in the substep, where that is larger: a world at rest asks for no exact zero), or, at the
 * default tolerance, within the rounding of E at the iterate (no line search can tell that fall from E's rounding;
 * a tighter tolerance shrinks this floor by its square, so newton_tolerance 1e-6 asks for the figure itself), or
 * has stopped falling: it rose (the matrix no longer models the forces well enough to make progress: contacts that
 * come and go), or a step did not halve it where it is within STALL_ROUNDINGS of E's rounding (float's rounding of
 * the forces of stiff springs sets a floor under it). A figure that falls slowly far above that floor is progress:
 * Newton on the clamped matrix of springs in compression (system.h) can converge slowly, and stopping there
 * leaves springs stretched. */
static int converged(const hk_world *w, const hk_implicit *im, double left, newton_track *t)
{
    const double tol = newton_tolerance(&w->integrator);
    const int rose = t->last > 0 && left > t->last;
    const int floor = t->last > 0 && left > 0.5 * t->last && left <= STALL_ROUNDINGS * t->rounding;
    t->last = left;
    const double seen = t->rounding * (tol / HK_NEWTON_TOLERANCE) * (tol / HK_NEWTON_TOLERANCE);
    return left <= tol * tol * fmax(t->first, im->stop_energy) || left <= seen || rose || floor;
}

/* One Newton step's direction into HK_SYS_DV: a direct solve where the world is small and banded (direct.h), else
 * CG from the guess at the first. *done: the residual already meets the Newton rule (no step). */
static hk_cg_result direction(hk_world *w, hk_implicit *im, hk_real hb, int it, newton_track *t, int *done)
{
    const hk_integrator_def *d = &w->integrator;
    const hk_cg_stop rule = d->cg_stop;
    const double tol = hk_cg_tolerance(d), ntol = newton_tolerance(d);
    const int max_it = d->cg_max_iterations > 0 ? d->cg_max_iterations : HK_CG_MAX_ITERATIONS_DEFAULT;
    const hk_real sK = hb * hb, sD = hb;
    int half;
    *done = 0;
    hk_implicit_blocks(w, im, sK, sD); /* the products' spring factors at this state, and the preconditioner */
    if (hk_direct_fits(w, &half)) {
        double left = 0;
        const hk_cg_result res = hk_direct_solve(w, im, sK, sD, half, &left);
        if (res.status == HK_CG_CONVERGED) {
            *done = it > 0 && converged(w, im, left, t);
            return res;
        }
    }
    if (it > 0 && converged(w, im, hk_cg_decrement(w, im, sK, sD), t)) {
        *done = 1;
        return (hk_cg_result){HK_CG_CONVERGED, 0, 0};
    }
    const int warm = it == 0 && w->history;
    if (warm) hk_implicit_guess(w, im);
    im->stop_newton = 0.1 * ntol * ntol * fmax(t->first, im->stop_energy); /* a tenth of where converged() stops */
    return hk_cg_solve(w, im, sK, sD, rule, tol, max_it, warm);
}

int hk_minimise(hk_world *w, hk_implicit *im, hk_real hb, int base, int *iterations)
{
    hk_solver_stats *st = &im->stats;
    min_pass s = {&w->p, im, hb, 0, base};
    hk_contact_at(w, w->h); /* every evaluation at the substep's end: the colliders there */
    hk_team_spans(w, keep_span, &s);
    move_to(w, im, hb, base, 0); /* the first iterate: x = xb + hb v */
    if (residual(w, im, hb, base) != HK_OK) return -1;
    if (w->integrator.cg_stop == HK_CG_STOP_FORCE) hk_cg_weights(w, im, hb, HK_CG_STOP_FORCE);
    hk_cg_weights(w, im, hb, HK_CG_STOP_ENERGY); /* the energy floor of the Newton rule (and of the CG's) */
    newton_track t = {0, 0, 0};
    for (int it = 0;; it++) {
        int done;
        const hk_cg_result res = direction(w, im, hb, it, &t, &done);
        if (done) break;
        if (it == HK_NEWTON_BOUND) {
            st->newton_unconverged++;
            st->newton_stopped++;
            break;
        }
        hk_implicit_count(im, res);
        if (res.status == HK_CG_BREAKDOWN) {
            *iterations = res.iterations;
            return 1;
        }
        hk_team_spans(w, keep_span, &s);
        const line_point l0 = line_at(w, im, hb, base);
        if (it == 0) t.first = -l0.slope;
        const double e0 = l0.kinetic + l0.elastic;
        hk_real a = 1;
        int cut = 0;
        for (;; cut++) {
            move_to(w, im, hb, base, a);
            if (residual(w, im, hb, base) != HK_OK) return -1;
            const line_point la = line_at(w, im, hb, base);
            /* E(a) - E(0): kinetic and elastic exactly, the others' work by the trapezoidal rule */
            const double fall = la.kinetic + la.elastic - e0 + 0.5 * (double)a * (l0.other + la.other);
            t.rounding = la.rounding;
            if (!(l0.slope < 0)) break; /* not a descent direction (a warm CG start): the step as solved */
            if (fall <= ARMIJO * (double)a * l0.slope + l0.rounding + la.rounding) break;
            if (cut == SEARCH_CUTS) break; /* E falls nowhere along dv: its rounding is all that is left */
            /* the minimum of the quadratic through E(0), its slope and E(a), kept within [a / 10, a / 2] */
            const double q = -l0.slope * (double)a * a / (2 * (fall - l0.slope * (double)a));
            a = (hk_real)(q < 0.1 * a ? 0.1 * a : q > 0.5 * a ? 0.5 * a : q);
        }
        st->line_cuts += cut;
        if (cut == SEARCH_CUTS) break; /* converged as far as the precision can tell */
    }
    return 0;
}
