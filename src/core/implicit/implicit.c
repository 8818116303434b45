/* implicit.c — one implicit substep: forces, the linearised system, its CG solve, Newton updates, statistics. */
/* SPDX-License-Identifier: MIT */
#include "implicit.h"

#include <math.h>
#include <string.h>

#include "cg.h"
#include "forces.h"
#include "multigrid.h"
#include "part.h"
#include "response.h"
#include "system.h"

/*
 * The scheme, for theta = 1 (backward Euler) and theta = 1/2 (trapezoidal
 * rule, Newmark's average acceleration), with the end velocity v as the
 * unknown:
 *   x = x0 + h ((1 - theta) v0 + theta v)
 *   g(v) = M (v - v0) - h ((1 - theta) f0 + theta f(x, v)) = 0
 * The first iteration linearises f about (x0, v0) (Baraff and Witkin):
 *   (M - h theta df/dv - (h theta)^2 df/dx) dv = h f0 + h^2 theta df/dx v0
 * and each further Newton iteration (newton_iterations > 1) solves the same
 * matrix at the new state for the correction:
 *   (M - h theta df/dv - (h theta)^2 df/dx) dv = -g(v)
 * stopping early once -g(v) meets the solve's stopping rule (cg.h: each
 * particle's residual force against what moves it, or |g(v)| against the
 * first right-hand side). The springs' elastic and damping forces enter the matrix
 * (system.h, engine/jacobian_lanes.h), and so do the colliders' contact
 * springs, damping and friction (contact/response.h), with the colliders'
 * motion over the substep: the first linearisation's force is taken with
 * the colliders where they are at the substep's end, f0 + h R (R: the
 * rate their motion changes the force at, response.h), which adds
 * h^2 theta R to its right-hand side, and each further iteration
 * evaluates f with the colliders there; gravity, air drag,
 * wind, the ground, pressure, walls and spheres are evaluated in f but not
 * differentiated.
 * Fixed particles (inverse mass 0: pins, driven anchors, already moved to
 * the end of the substep by step.c) keep their state; their velocity does
 * not enter the right-hand side.
 */

/* The per-particle loops are passes over this rank's particles (part.h
 * hk_team_spans: the world's team above HK_PARALLEL_MIN particles); each
 * iteration touches one particle, so the bits do not depend on the team. */

void hk_implicit_save(hk_world *w, hk_implicit *im)
{
    const hk_particles *p = &w->p;
    const size_t bytes = (size_t)p->count * sizeof(hk_real);
    const hk_real *x[3] = {p->qx, p->qy, p->qz}, *v[3] = {p->vx, p->vy, p->vz}, *f[3] = {p->fx, p->fy, p->fz};
    for (int c = 0; c < 3; c++) {
        memcpy(im->v[HK_SYS_X0][c], x[c], bytes);
        memcpy(im->v[HK_SYS_V0][c], v[c], bytes);
        memcpy(im->v[HK_SYS_F0][c], f[c], bytes);
    }
}

void hk_implicit_restore(hk_world *w, hk_implicit *im)
{
    hk_particles *p = &w->p;
    const size_t bytes = (size_t)p->count * sizeof(hk_real);
    hk_real *x[3] = {p->qx, p->qy, p->qz}, *v[3] = {p->vx, p->vy, p->vz};
    for (int c = 0; c < 3; c++) {
        memcpy(x[c], im->v[HK_SYS_X0][c], bytes);
        memcpy(v[c], im->v[HK_SYS_V0][c], bytes);
    }
}

/* What the per-particle passes of a substep read. */
typedef struct sub_pass {
    hk_particles *p;
    hk_implicit *im;
    hk_real h, theta;
    hk_real *hist[3]; /* w->px, py, pz */
    int v0;           /* the vector of the start velocities (newton_rhs_span) */
} sub_pass;

/* v0 of free particles into HK_SYS_Z (0 for fixed ones). */
static void free_v0_span(void *ctx, int g0, int g1)
{
    const sub_pass *s = ctx;
    for (int c = 0; c < 3; c++) {
        const hk_real *v0 = s->im->v[HK_SYS_V0][c];
        hk_real *vmc = s->im->v[HK_SYS_Z][c];
        for (int g = g0; g < g1; g++) vmc[g] = s->p->inv_mass[g] != 0 ? v0[g] : 0;
    }
}

/* b = h f0 - L(v0) (HK_SYS_P holds L(v0)); 0 for fixed particles. */
static void first_rhs_span(void *ctx, int g0, int g1)
{
    const sub_pass *s = ctx;
    const hk_real h = s->h;
    for (int c = 0; c < 3; c++) {
        const hk_real *f0 = s->im->v[HK_SYS_F0][c], *lvc = s->im->v[HK_SYS_P][c];
        hk_real *b = s->im->v[HK_SYS_B][c];
        for (int g = g0; g < g1; g++) b[g] = s->p->inv_mass[g] != 0 ? h * f0[g] - lvc[g] : 0;
    }
}

/* The first right-hand side, b = h f0 - (1/theta) L(v0) with L the springs'
 * stiffness part scaled by (h theta)^2, i.e. b = h f0 + h^2 theta df/dx v0;
 * 0 for fixed particles. */
static void first_rhs(hk_world *w, hk_implicit *im, hk_real h, hk_real theta)
{
    sub_pass s = {&w->p, im, h, theta, {NULL, NULL, NULL}, HK_SYS_V0};
    hk_team_spans(w, free_v0_span, &s);
    hk_system_apply(w, im, h * h * theta, 0, 0, im->v[HK_SYS_Z], im->v[HK_SYS_P]);
    hk_team_spans(w, first_rhs_span, &s);
    hk_contact_motion_rhs(w, h * h * theta, im->v[HK_SYS_B]); /* the colliders where they are at the end */
}

static void newton_rhs_span(void *ctx, int g0, int g1)
{
    const sub_pass *s = ctx;
    const hk_particles *p = s->p;
    const hk_real h = s->h, theta = s->theta;
    const hk_real *v[3] = {p->vx, p->vy, p->vz}, *f[3] = {p->fx, p->fy, p->fz};
    for (int c = 0; c < 3; c++) {
        const hk_real *v0 = s->im->v[s->v0][c], *f0 = s->im->v[HK_SYS_F0][c], *vc = v[c], *fc = f[c];
        hk_real *b = s->im->v[HK_SYS_B][c];
        if (theta == 1) /* backward Euler: f0 not read (its factor 1 - theta is 0) */
            for (int g = g0; g < g1; g++) b[g] = p->inv_mass[g] != 0 ? h * fc[g] - p->mass[g] * (vc[g] - v0[g]) : 0;
        else
            for (int g = g0; g < g1; g++)
                b[g] =
                    p->inv_mass[g] != 0 ? h * ((1 - theta) * f0[g] + theta * fc[g]) - p->mass[g] * (vc[g] - v0[g]) : 0;
    }
}

void hk_implicit_residual(hk_world *w, hk_implicit *im, hk_real h, hk_real theta, int v0)
{
    sub_pass s = {&w->p, im, h, theta, {NULL, NULL, NULL}, v0};
    hk_team_spans(w, newton_rhs_span, &s);
}

static void take_update_span(void *ctx, int g0, int g1)
{
    const sub_pass *s = ctx;
    hk_particles *p = s->p;
    const hk_real h = s->h, theta = s->theta;
    hk_real *x[3] = {p->qx, p->qy, p->qz}, *v[3] = {p->vx, p->vy, p->vz};
    for (int c = 0; c < 3; c++) {
        const hk_real *dv = s->im->v[HK_SYS_DV][c], *x0 = s->im->v[HK_SYS_X0][c], *v0 = s->im->v[HK_SYS_V0][c];
        hk_real *xc = x[c], *vc = v[c];
        for (int g = g0; g < g1; g++) {
            if (p->inv_mass[g] == 0) continue;
            vc[g] += dv[g];
            xc[g] = x0[g] + h * ((1 - theta) * v0[g] + theta * vc[g]);
        }
    }
}

/* v += dv, x = x0 + h ((1 - theta) v0 + theta v) for free particles. */
static void take_update(hk_world *w, hk_implicit *im, hk_real h, hk_real theta)
{
    sub_pass s = {&w->p, im, h, theta, {NULL, NULL, NULL}, HK_SYS_V0};
    hk_team_spans(w, take_update_span, &s);
}

static void guess_span(void *ctx, int g0, int g1)
{
    const sub_pass *s = ctx;
    for (int c = 0; c < 3; c++) {
        const hk_real *hc = s->hist[c];
        hk_real *dv = s->im->v[HK_SYS_DV][c];
        for (int g = g0; g < g1; g++) dv[g] = s->p->inv_mass[g] != 0 ? hc[g] : 0;
    }
}

void hk_implicit_guess(hk_world *w, hk_implicit *im)
{
    sub_pass s = {&w->p, im, 0, 0, {w->px, w->py, w->pz}, HK_SYS_V0};
    hk_team_spans(w, guess_span, &s);
}

static void history_span(void *ctx, int g0, int g1)
{
    const sub_pass *s = ctx;
    const hk_real *v[3] = {s->p->vx, s->p->vy, s->p->vz};
    for (int c = 0; c < 3; c++) {
        const hk_real *v0 = s->im->v[HK_SYS_V0][c], *vc = v[c];
        hk_real *hc = s->hist[c];
        for (int g = g0; g < g1; g++) hc[g] = vc[g] - v0[g];
    }
}

void hk_implicit_keep(hk_world *w, hk_implicit *im)
{
    sub_pass s = {&w->p, im, 0, 0, {w->px, w->py, w->pz}, HK_SYS_V0};
    hk_team_spans(w, history_span, &s);
    w->history = 1;
}

hk_implicit *hk_implicit_solver(hk_world *w)
{
    hk_implicit *im = hk_implicit_get(w);
    if (im && (im->mg_stale || im->preconditioner != w->integrator.preconditioner)) {
        hk_mg_free(im->mg);
        im->mg = NULL;
        im->mg_stale = 0;
        im->preconditioner = w->integrator.preconditioner;
        if (im->preconditioner == HK_PRECONDITIONER_MULTIGRID) im->mg = hk_mg_create(w);
    }
    return im;
}

void hk_implicit_blocks(hk_world *w, hk_implicit *im, hk_real sK, hk_real sD)
{
    const hk_block_hooks mg = im->mg ? hk_mg_hooks(im->mg, sK, sD) : (hk_block_hooks){0};
    hk_system_blocks(w, im, sK, sD, im->mg ? &mg : NULL);
}

void hk_implicit_release(hk_world *w)
{
    if (!w->implicit) return;
    hk_mg_free(w->implicit->mg);
    hk_implicit_free(w->implicit);
    w->implicit = NULL;
}

void hk_implicit_count(hk_implicit *im, hk_cg_result res)
{
    hk_solver_stats *st = &im->stats;
    st->solves++;
    st->newton_iterations++;
    st->cg_iterations += res.iterations;
    st->cg_total += res.iterations;
    if (!(res.residual <= st->cg_residual)) st->cg_residual = res.residual;
    if (res.status == HK_CG_MAX_ITERATIONS) st->unconverged++;
}

void hk_implicit_broke_down(hk_world *w, hk_implicit *im, int iterations)
{
    w->step_failed = HK_ERR_DIVERGED;
    hk_fail(w,
            "the implicit solve broke down at step %lld (CG met a non-finite value or a direction without "
            "positive curvature after %d iterations); the state is the step's start: try a smaller dt",
            (long long)w->steps, iterations);
    im->stats.diverged = 1;
}

hk_implicit *hk_implicit_begin(hk_world *w)
{
    hk_implicit *im = hk_implicit_solver(w);
    if (!im) {
        w->step_failed = HK_ERR_MEMORY; /* hk_implicit_solver said why */
        return NULL;
    }
    hk_solver_stats *st = &im->stats;
    if (st->step != w->steps) { /* the first substep of a step: its figures start at 0 */
        st->step = w->steps;
        st->cg_iterations = 0;
        st->cg_residual = 0;
        st->newton_iterations = 0;
        st->newton_stopped = 0;
    }
    return im;
}

void hk_linearised_substep(hk_world *w, hk_real h, hk_real theta)
{
    hk_implicit *im = hk_implicit_begin(w);
    if (!im) return;
    const hk_integrator_def *d = &w->integrator;
    const hk_cg_stop rule = d->cg_stop;
    const double tol = hk_cg_tolerance(d);
    const int max_it = d->cg_max_iterations > 0 ? d->cg_max_iterations : HK_CG_MAX_ITERATIONS_DEFAULT;
    const int newton = d->newton_iterations > 0 ? d->newton_iterations : 1;
    const hk_real ht = h * theta, sK = ht * ht, sD = ht;

    if (hk_forces_compute(w) != HK_OK) return; /* the engine's failure: the substep's start stays */
    hk_implicit_save(w, im);
    first_rhs(w, im, h, theta);
    if (rule != HK_CG_STOP_RELATIVE) hk_cg_weights(w, im, h, rule);
    double g0 = 0;
    for (int it = 0; it < newton; it++) {
        if (it > 0) {
            hk_contact_at(w, w->h); /* f(x, v) at the substep's end: the colliders there */
            if (hk_forces_compute(w) != HK_OK) {
                hk_implicit_restore(w, im);
                return;
            }
            hk_implicit_residual(w, im, h, theta, HK_SYS_V0);
            if (hk_cg_small(w, im, rule, tol, g0, im->v[HK_SYS_B])) break;
        } else if (rule == HK_CG_STOP_RELATIVE) {
            g0 = sqrt(hk_system_dot(w, im, im->v[HK_SYS_B], im->v[HK_SYS_B]));
        }
        hk_implicit_blocks(w, im, sK, sD);
        const int warm = it == 0 && w->history;
        if (warm) hk_implicit_guess(w, im);
        const hk_cg_result res = hk_cg_solve(w, im, sK, sD, rule, tol, max_it, warm);
        hk_implicit_count(im, res);
        if (res.status == HK_CG_BREAKDOWN) {
            hk_implicit_restore(w, im);
            hk_implicit_broke_down(w, im, res.iterations);
            return;
        }
        take_update(w, im, h, theta);
        if (it > 0 && res.iterations == 0) break; /* the energy rule's check: met before a Newton solve (cg.h) */
    }
    hk_implicit_keep(w, im);
    w->forces_valid = 0;
}

void hk_trapezoidal_substep(hk_world *w, hk_real h) { hk_linearised_substep(w, h, (hk_real)0.5); }
