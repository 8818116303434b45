/* pd.c — projective dynamics of mass-spring systems (Liu et al. 2013): local projections, global solves. */
/* SPDX-License-Identifier: MIT */
#include "pd.h"

#include <math.h>
#include <stdlib.h>

#include "constraints.h"
#include "inertia.h"
#include "part.h"
#include "spring_vec.h"
#include "vertices.h"

/*
 * A substep h minimises backward Euler's incremental potential, each spring's elastic energy written as
 *   k/2 (r - L0)^2 = min over |p| = L0 of k/2 |d - p|^2       (d = x_a - x_b, r = |d|),
 * so that with the p fixed the potential is quadratic in x:
 *   E(x, p) = sum_i m_i / (2 h^2) |x_i - y_i|^2 + sum_s k_s / 2 |d_s - p_s|^2 + C_s / 2 |d_s - d_s^prev|^2,
 * y the inertial prediction (the other forces taken at the substep's start, inertia.h), C = c / h the damping of a
 * spring over the substep (its force -c (v_a - v_b), v = (x - x_prev) / h). Each iteration alternates
 *   local:  p_s = L0 d_s / r_s                    (each spring's nearest point of its rest length's sphere)
 *   global: A x = M / h^2 y + sum_s (k_s p_s + C_s d_s^prev + g_s) over its ends (+ at a, - at b),
 *           A = M / h^2 + sum_s (k_s + C_s) (e_a - e_b) (e_a - e_b)^T,
 * A the same for every iteration and every substep of one h: the spring Laplacian, the same in x, y and z. A
 * spring damped along itself (damping_model along) takes its damping c (n . v_ab) n as the isotropic c v_ab of A
 * less the part across it, g_s = C_s (rel - (n . rel) n) (rel = d - d^prev, n from the local step's d), lagged by
 * one iteration, and so is all of a slack spring's damping (its force is 0). Each step of the alternation lowers E
 * (local: the nearest p; global: the exact minimiser in x); at a fixed point p_s = L0 n_s and the global equation is
 * backward Euler's for the springs with the other forces explicit: the iterations converge to implicit_euler's substep
 * (slowly: the paper's caveat, the local/global alternation converges at first order). A slack tension-only or
 * compression-only spring and a broken one project to p = d (no force); pinned and driven particles stay where they are
 * (their rows of A are taken out, their positions moved to the right-hand side). The global solve is conjugate
 * gradients on A, preconditioned by its diagonal, for the change of x from the iterate before (its residual formed as
 * the forces, residual_span), stopped once its residual is HK_PD_CG_TOLERANCE of the one it started from; its products
 * are per particle in the order of its springs (vertices.h) and its dot products summed in fixed blocks of
 * particles, so the bits do not depend on the team.
 */

#define BLOCK 1024 /* particles per partial sum of a dot product */

/* The arrays of one substep (3 per vector, over the world's particles). */
typedef struct pd_work {
    hk_real *r[3], *z[3], *s[3], *as[3], *diag;
    double *partial; /* per block */
    hk_real *slab;
} pd_work;

/* What the per-particle passes read. */
typedef struct pd_pass {
    hk_particles *p;
    const hk_family *fams;
    const hk_vertex_graph *g;
    const hk_real *prev[3];
    pd_work *wk;
    hk_real h, inv_h2;
    double alpha, beta; /* the CG step's */
    int dot;            /* which dot product a block pass sums: 0 r.z, 1 s.As, 2 r.r */
} pd_pass;

/* Spring e of particle i: its family, its sign (+1 at a), its vector x_i - x_j and length (0: no vector). */
static inline __attribute__((always_inline)) hk_real spring_at(const pd_pass *s, int i, int e, const hk_family **f,
                                                               hk_real d[3])
{
    const hk_vertex_graph *g = s->g;
    *f = &s->fams[g->fam[e]];
    const int j = g->other[e], b = g->is_b[e];
    hk_spring_delta(*f, s->p, g->slot[e], b ? j : i, b ? i : j, d);
    if (b)
        for (int k = 0; k < 3; k++) d[k] = -d[k];
    return hk_spring_length(d[0], d[1], d[2]);
}

/* diag = m / h^2 + sum (k + C) over the particle's springs (unbroken); fixed particles 1. */
static void diag_span(void *ctx, int g0, int g1)
{
    const pd_pass *s = ctx;
    const hk_particles *p = s->p;
    const hk_vertex_graph *g = s->g;
    for (int i = g0; i < g1; i++) {
        if (p->inv_mass[i] == 0) {
            s->wk->diag[i] = 1;
            continue;
        }
        hk_real a = p->mass[i] * s->inv_h2;
        for (int e = g->start[i]; e < g->start[i + 1]; e++) {
            const hk_family *f = &s->fams[g->fam[e]];
            if (!(f->broken && f->broken[g->slot[e]])) a += f->k + f->c / s->h;
        }
        s->wk->diag[i] = a;
    }
}

/* The residual of the global equation at the current iterate, r = b - A x (its local step, its lagged damping),
 * formed as the forces themselves: -m / h^2 (x - y) - sum_s k_s (1 - L0 / r_s) d_s + C_s (d_s - d_s^prev) - g_s
 * on each particle, so that no large terms cancel (k p against k x, in float); fixed rows 0. */
static void residual_span(void *ctx, int g0, int g1)
{
    const pd_pass *s = ctx;
    const hk_particles *p = s->p;
    const hk_vertex_graph *g = s->g;
    const hk_real *const q[3] = {p->qx, p->qy, p->qz}, *const v[3] = {p->vx, p->vy, p->vz};
    const hk_real inv_h = s->h * s->inv_h2;
    for (int i = g0; i < g1; i++) {
        if (p->inv_mass[i] == 0) {
            for (int k = 0; k < 3; k++) s->wk->r[k][i] = 0;
            continue;
        }
        const hk_real mh = p->mass[i] * s->inv_h2;
        hk_real r3[3];
        for (int k = 0; k < 3; k++) r3[k] = -mh * (q[k][i] - (s->prev[k][i] + s->h * v[k][i]));
        for (int e = g->start[i]; e < g->start[i + 1]; e++) {
            const hk_family *f;
            hk_real d[3];
            const hk_real r = spring_at(s, i, e, &f, d); /* d = x_i - x_j */
            const int64_t slot = g->slot[e];
            if (f->broken && f->broken[slot]) continue;
            const int j = g->other[e];
            const hk_real K = f->k, C = f->c * inv_h;
            const hk_real L0 = f->rest_list ? f->rest_list[slot] : f->rest;
            const hk_behaviour bh = f->params.behaviour;
            const int slack = r == 0 || (bh == HK_SPRING_TENSION_ONLY && !(r > L0)) ||
                              (bh == HK_SPRING_COMPRESSION_ONLY && !(r < L0));
            const hk_real stretch = slack ? 0 : 1 - L0 / r; /* d - p = stretch d */
            hk_real rel[3], along = 0;
            for (int k = 0; k < 3; k++) {
                rel[k] = (q[k][i] - s->prev[k][i]) - (q[k][j] - s->prev[k][j]);
                along += rel[k] * d[k];
            }
            /* the damping A does not hold, lagged: along the spring, the part across it; a slack spring, all of it */
            const int damp_along = f->params.damping_model == HK_DAMP_ALONG && !slack;
            const hk_real an = damp_along ? along / (r * r) : 0; /* (n . rel) / r */
            for (int k = 0; k < 3; k++) {
                const hk_real across = slack ? C * rel[k] : damp_along ? C * (rel[k] - an * d[k]) : 0;
                r3[k] -= K * stretch * d[k] + C * rel[k] - across;
            }
        }
        for (int k = 0; k < 3; k++) s->wk->r[k][i] = r3[k];
    }
}

/* out = A x over [g0, g1) (x and out 3 arrays each). */
static inline __attribute__((always_inline)) void apply_span(const pd_pass *s, hk_real *const x[3],
                                                             hk_real *const out[3], int g0, int g1)
{
    const hk_particles *p = s->p;
    const hk_vertex_graph *g = s->g;
    const hk_real inv_h = s->h * s->inv_h2;
    for (int i = g0; i < g1; i++) {
        hk_real y[3];
        for (int k = 0; k < 3; k++) y[k] = s->wk->diag[i] * x[k][i];
        if (p->inv_mass[i] != 0)
            for (int e = g->start[i]; e < g->start[i + 1]; e++) {
                const hk_family *f = &s->fams[g->fam[e]];
                const int j = g->other[e];
                if ((f->broken && f->broken[g->slot[e]]) || p->inv_mass[j] == 0) continue;
                const hk_real w = f->k + f->c * inv_h;
                for (int k = 0; k < 3; k++) y[k] -= w * x[k][j];
            }
        for (int k = 0; k < 3; k++) out[k][i] = y[k];
    }
}

/* z = r / diag, s = z */
static void start_span(void *ctx, int g0, int g1)
{
    const pd_pass *s = ctx;
    pd_work *wk = s->wk;
    for (int k = 0; k < 3; k++)
        for (int i = g0; i < g1; i++) {
            wk->z[k][i] = wk->r[k][i] / wk->diag[i];
            wk->s[k][i] = wk->z[k][i];
        }
}

static void apply_dir_span(void *ctx, int g0, int g1)
{
    const pd_pass *s = ctx;
    apply_span(s, s->wk->s, s->wk->as, g0, g1);
}

/* q += alpha s, r -= alpha As, z = r / diag */
static void step_span(void *ctx, int g0, int g1)
{
    const pd_pass *s = ctx;
    pd_work *wk = s->wk;
    hk_real *const q[3] = {s->p->qx, s->p->qy, s->p->qz};
    const hk_real a = (hk_real)s->alpha;
    for (int k = 0; k < 3; k++)
        for (int i = g0; i < g1; i++) {
            q[k][i] += a * wk->s[k][i];
            wk->r[k][i] -= a * wk->as[k][i];
            wk->z[k][i] = wk->r[k][i] / wk->diag[i];
        }
}

/* s = z + beta s */
static void direction_span(void *ctx, int g0, int g1)
{
    const pd_pass *s = ctx;
    pd_work *wk = s->wk;
    const hk_real bt = (hk_real)s->beta;
    for (int k = 0; k < 3; k++)
        for (int i = g0; i < g1; i++) wk->s[k][i] = wk->z[k][i] + bt * wk->s[k][i];
}

/* partial[block] = the block's sum of the dot product s->dot, in particle order */
static void dot_blocks(void *ctx, int64_t b0, int64_t b1)
{
    const pd_pass *s = ctx;
    const pd_work *wk = s->wk;
    const int n = s->p->count;
    hk_real *const *x = s->dot == 1 ? wk->s : wk->r;
    hk_real *const *y = s->dot == 0 ? wk->z : s->dot == 1 ? wk->as : wk->r;
    for (int64_t blk = b0; blk < b1; blk++) {
        const int i1 = (int)((blk + 1) * BLOCK < n ? (blk + 1) * BLOCK : n);
        double sum = 0;
        for (int i = (int)(blk * BLOCK); i < i1; i++) {
            if (s->p->inv_mass[i] == 0) continue;
            for (int k = 0; k < 3; k++) sum += (double)x[k][i] * (double)y[k][i];
        }
        wk->partial[blk] = sum;
    }
}

static double dot(hk_world *w, pd_pass *s, int which)
{
    const int64_t blocks = (s->p->count + BLOCK - 1) / BLOCK;
    s->dot = which;
    hk_team_for(w, hk_team_size(w, s->p->count, HK_PARALLEL_MIN), blocks, dot_blocks, s);
    double sum = 0;
    for (int64_t blk = 0; blk < blocks; blk++) sum += s->wk->partial[blk];
    return sum;
}

/* The global solve from the current q; its CG iterations. */
static int solve(hk_world *w, pd_pass *s)
{
    hk_team_spans(w, residual_span, s);
    hk_team_spans(w, start_span, s);
    const double tol = HK_PD_CG_TOLERANCE * HK_PD_CG_TOLERANCE * dot(w, s, 2);
    double rz = dot(w, s, 0);
    int it = 0;
    for (; it < HK_PD_CG_MAX && dot(w, s, 2) > tol; it++) {
        hk_team_spans(w, apply_dir_span, s);
        const double sas = dot(w, s, 1);
        if (!(sas > 0)) break; /* nothing left to step (A is positive definite) */
        s->alpha = rz / sas;
        hk_team_spans(w, step_span, s);
        const double rz_new = dot(w, s, 0);
        s->beta = rz_new / rz;
        rz = rz_new;
        hk_team_spans(w, direction_span, s);
    }
    return it;
}

void hk_pd_substep(hk_world *w, hk_real h)
{
    if (hk_iterate_refused(w, "projective_dynamics")) return;
    const hk_vertex_graph *g = hk_vertex_graph_of(w);
    if (!g) {
        w->step_failed = hk_failed(w);
        return;
    }
    const size_t n = (size_t)(w->p.count > 0 ? w->p.count : 1), blocks = n / BLOCK + 1;
    pd_work wk = {0};
    wk.slab = malloc(13 * n * sizeof *wk.slab);
    wk.partial = malloc(blocks * sizeof *wk.partial);
    if (!wk.slab || !wk.partial) {
        free(wk.slab);
        free(wk.partial);
        w->step_failed = hk_fail_memory(w, "out of memory for the global solve of %d particles", w->p.count);
        return;
    }
    for (int k = 0; k < 3; k++) {
        wk.r[k] = wk.slab + (0 + k) * n;
        wk.z[k] = wk.slab + (3 + k) * n;
        wk.s[k] = wk.slab + (6 + k) * n;
        wk.as[k] = wk.slab + (9 + k) * n;
    }
    wk.diag = wk.slab + 12 * n;
    hk_real *prev[3];
    hk_iterate_begin(w, h, prev);
    pd_pass s = {&w->p, w->families, g, {prev[0], prev[1], prev[2]}, &wk, h, 1 / (h * h), 0, 0, 0};
    hk_team_spans(w, diag_span, &s);
    const int iterations = w->integrator.iterations > 0 ? w->integrator.iterations : HK_PD_ITERATIONS;
    for (int it = 0; it < iterations; it++) solve(w, &s);
    free(wk.slab);
    free(wk.partial);
    hk_iterate_end(w, h, prev, 2 * hk_world_facts(w)->springs * iterations);
}
