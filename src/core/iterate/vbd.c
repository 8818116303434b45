/* vbd.c — vertex block descent (Chen et al. 2024): each particle's 3x3 Newton step on the substep's energy, by colour.
 */
/* SPDX-License-Identifier: MIT */
#include "vbd.h"

#include <stdlib.h>

#include "constraints.h"
#include "inertia.h"
#include "part.h"
#include "spring_vec.h"
#include "vertices.h"

/*
 * A substep h minimises backward Euler's incremental potential over the positions,
 *   E(x) = sum_i m_i / (2 h^2) |x_i - y_i|^2 + sum over springs of U(x) + D(x),
 * y = x + h v + h^2 M^-1 f_other the inertial prediction (the other forces taken at the substep's start, inertia.h),
 * U a spring's elastic energy k (r - L0)^2 / 2 and D its damping's dissipation, whose gradient is the damping force
 * at the velocity (x - x_prev) / h: along the spring -c (n . v_ab) n, or of the relative velocity -c v_ab. Starting
 * from y, each sweep visits the particles colour by colour, and each free particle i takes one Newton step on E in
 * its own position, the others held:
 *   f_i = -m_i / h^2 (x_i - y_i) + sum over its springs of their force on i,
 *   H_i = m_i / h^2 I + sum over its springs of k (n n^T + max(0, 1 - L0 / r) (I - n n^T)) + (c / h) (n n^T or I),
 *   x_i += H_i^-1 f_i.
 * Each spring's block is backward Euler's clamped one (implicit/system.h): the part of the elastic Hessian across
 * the spring, k (1 - L0 / r), is dropped where the spring is compressed (r < L0), where it is negative. That is
 * the guard against an indefinite block: H_i is then m_i / h^2 I plus positive semidefinite terms, so it is
 * positive definite and solved by its Cholesky factor; no step is skipped. At a fixed point of the sweeps every
 * f_i is 0: the substep is backward Euler's (with the other forces explicit), as implicit_euler's minimisation
 * takes it, and the sweeps converge to it as a block Gauss-Seidel iteration converges (slowly where stiffnesses
 * differ by orders of magnitude: each spring's stiffness enters the blocks of its two ends only). Tension-only and
 * compression-only springs act only while stretched or compressed, broken ones not at all, as their forces do;
 * pinned and driven particles do not move. The particles of one colour share no spring (vertices.h), so each
 * colour's steps are independent of each other and of the threads that run them; the colours run in order, the
 * serial colour last on one task. The paper's initial guess from the step before's acceleration is left out: the
 * sweeps start at y.
 *
 * The paper's acceleration (chebyshev_rho = rho > 0; Wang 2015's Chebyshev semi-iteration): after sweep n, with
 * xbar its result, x(n - 2) the iterate two sweeps before (x(0) = y) and
 *   omega_1 = 1,  omega_2 = 2 / (2 - rho^2),  omega_n = 4 / (4 - rho^2 omega_(n-1)),
 * every free particle goes to x(n) = omega_n (xbar - x(n - 2)) + x(n - 2). rho is the factor the sweeps are assumed
 * to shrink their error by (their spectral radius); where they do not shrink it steadily so (stiffness and mass
 * ratios, a nonlinear step) the extrapolation overshoots and can run away, which is why it is off unless asked for
 * (docs/user-guide.md, "Particles as blocks: vbd", has what it does on the stress scenes). A fixed point of the sweeps
 * is one of the extrapolation, so the accelerated sweeps converge, where they do, to the same backward Euler step. The
 * extrapolation is per particle: its bits do not depend on the team.
 */

/* What the sweeps read. */
typedef struct vbd_pass {
    hk_particles *p;
    const hk_family *fams;
    const hk_vertex_graph *g;
    const hk_real *prev[3];
    hk_real h, inv_h2;
    int iterations;
    double rho;      /* chebyshev_rho; 0: no acceleration */
    hk_real *old[6]; /* with rho: x(n - 1) (x, y, z), then x(n - 2) */
} vbd_pass;

/* Colours of fewer particles than this run on one task of the team (the others wait at the colour's end). */
#define SPLIT_MIN 1024

/* The 3x3 symmetric positive definite system H x = f (H as xx, yy, zz, xy, xz, yz) by its Cholesky factor. */
static inline __attribute__((always_inline)) void solve3(const hk_real H[6], const hk_real f[3], hk_real x[3])
{
    const hk_real l00 = (hk_real)sqrt(H[0]);
    const hk_real l10 = H[3] / l00, l20 = H[4] / l00;
    const hk_real l11 = (hk_real)sqrt(H[1] - l10 * l10);
    const hk_real l21 = (H[5] - l20 * l10) / l11;
    const hk_real l22 = (hk_real)sqrt(H[2] - l20 * l20 - l21 * l21);
    const hk_real z0 = f[0] / l00, z1 = (f[1] - l10 * z0) / l11, z2 = (f[2] - l20 * z0 - l21 * z1) / l22;
    x[2] = z2 / l22;
    x[1] = (z1 - l21 * x[2]) / l11;
    x[0] = (z0 - l10 * x[1] - l20 * x[2]) / l00;
}

/* Particle i's Newton step (the comment at the top). */
static inline __attribute__((always_inline)) void step_particle(const vbd_pass *s, int i)
{
    hk_particles *p = s->p;
    if (p->inv_mass[i] == 0) return;
    const hk_vertex_graph *g = s->g;
    hk_real *const q[3] = {p->qx, p->qy, p->qz};
    const hk_real *const v[3] = {p->vx, p->vy, p->vz};
    const hk_real mh = p->mass[i] * s->inv_h2, inv_h = s->h * s->inv_h2;
    hk_real f[3], H[6] = {mh, mh, mh, 0, 0, 0};
    for (int k = 0; k < 3; k++) f[k] = -mh * (q[k][i] - (s->prev[k][i] + s->h * v[k][i]));
    for (int e = g->start[i]; e < g->start[i + 1]; e++) {
        const hk_family *fam = &s->fams[g->fam[e]];
        const int64_t slot = g->slot[e];
        if (fam->broken && fam->broken[slot]) continue;
        const int j = g->other[e], b = g->is_b[e];
        hk_real d[3];
        hk_spring_delta(fam, p, slot, b ? j : i, b ? i : j, d);
        if (b)
            for (int k = 0; k < 3; k++) d[k] = -d[k]; /* x_i - x_j */
        const hk_real r = hk_spring_length(d[0], d[1], d[2]);
        if (r == 0) continue;
        const hk_real L0 = fam->rest_list ? fam->rest_list[slot] : fam->rest;
        const hk_behaviour bh = fam->params.behaviour;
        if ((bh == HK_SPRING_TENSION_ONLY && !(r > L0)) || (bh == HK_SPRING_COMPRESSION_ONLY && !(r < L0))) continue;
        const hk_real inv_r = 1 / r, K = fam->k, C = fam->c * inv_h;
        const int along = fam->params.damping_model == HK_DAMP_ALONG;
        hk_real n[3], rel[3], slide = 0;
        for (int k = 0; k < 3; k++) {
            n[k] = d[k] * inv_r;
            rel[k] = (q[k][i] - s->prev[k][i]) - (q[k][j] - s->prev[k][j]);
            slide += n[k] * rel[k];
        }
        const hk_real pull = K * (r - L0) + (along ? C * slide : 0); /* the force along -n */
        const hk_real bend = r > L0 ? K * (1 - L0 * inv_r) : 0;      /* across the spring, clamped */
        const hk_real iso = bend + (along ? 0 : C), nn = K - bend + (along ? C : 0);
        for (int k = 0; k < 3; k++) f[k] -= pull * n[k] + (along ? 0 : C * rel[k]);
        H[0] += iso + nn * n[0] * n[0];
        H[1] += iso + nn * n[1] * n[1];
        H[2] += iso + nn * n[2] * n[2];
        H[3] += nn * n[0] * n[1];
        H[4] += nn * n[0] * n[2];
        H[5] += nn * n[1] * n[2];
    }
    hk_real dx[3];
    solve3(H, f, dx);
    for (int k = 0; k < 3; k++) q[k][i] += dx[k];
}

/* The acceleration over particles [a, e) after sweep n (1, 2, ...; the comment at the top) with its omega: x(n) from
 * the sweep's result, x(n - 1) and x(n - 2) (old); then old holds x(n) and x(n - 1). n = 0: old = x(0) = q. */
static void extrapolate(const vbd_pass *s, int n, hk_real omega, int a, int e)
{
    const hk_particles *p = s->p;
    hk_real *const q[3] = {p->qx, p->qy, p->qz};
    for (int i = a; i < e; i++) {
        if (p->inv_mass[i] == 0) continue;
        for (int k = 0; k < 3; k++) {
            hk_real *const x1 = s->old[k], *const x2 = s->old[3 + k];
            const hk_real x = n < 2 ? q[k][i] : omega * (q[k][i] - x2[i]) + x2[i];
            if (n > 0) x2[i] = x1[i];
            x1[i] = x;
            q[k][i] = x;
        }
    }
}

/* Every sweep of the substep on one task of the team: each colour split over the team (or on task 0: a small
 * colour, the serial one), a barrier after each; with the acceleration, its pass over the particles after each
 * sweep but the last. */
HK_FMA_CLONES static void sweep_task(const hk_team *tm, void *ctx)
{
    const vbd_pass *s = ctx;
    const hk_vertex_graph *g = s->g;
    const int n = s->p->count, a = (int)((int64_t)n * tm->t / tm->T), e = (int)((int64_t)n * (tm->t + 1) / tm->T);
    const double rho2 = s->rho * s->rho;
    double omega = 1;
    if (s->old[0]) {
        extrapolate(s, 0, 1, a, e);
        hk_team_barrier(tm);
    }
    for (int it = 0; it < s->iterations; it++) {
        for (int k = 0; k < g->colours; k++) {
            const int first = g->colour_start[k], m = g->colour_start[k + 1] - first;
            int c0 = first, c1 = first + m;
            if ((g->serial && k == g->colours - 1) || m < SPLIT_MIN || tm->T == 1) {
                if (tm->t != 0) c1 = c0;
            } else {
                c0 = first + (int)((int64_t)m * tm->t / tm->T);
                c1 = first + (int)((int64_t)m * (tm->t + 1) / tm->T);
            }
            for (int at = c0; at < c1; at++) step_particle(s, g->order[at]);
            hk_team_barrier(tm);
        }
        if (s->old[0] && it + 1 < s->iterations) {
            omega = it == 0 ? 1 : it == 1 ? 2 / (2 - rho2) : 4 / (4 - rho2 * omega);
            extrapolate(s, it + 1, (hk_real)omega, a, e);
            hk_team_barrier(tm);
        }
    }
}

void hk_vbd_substep(hk_world *w, hk_real h)
{
    if (hk_iterate_refused(w, "vbd")) return;
    const hk_vertex_graph *g = hk_vertex_graph_of(w);
    if (!g) {
        w->step_failed = hk_failed(w);
        return;
    }
    const int iterations = w->integrator.iterations > 0 ? w->integrator.iterations : HK_VBD_ITERATIONS;
    const double rho = w->integrator.chebyshev_rho;
    hk_real *slab = NULL;
    if (rho > 0 && iterations > 1) {
        slab = malloc(6 * (size_t)(w->p.count > 0 ? w->p.count : 1) * sizeof *slab);
        if (!slab) {
            w->step_failed = hk_fail_memory(w, "out of memory for the accelerated sweeps of %d particles", w->p.count);
            return;
        }
    }
    hk_real *prev[3];
    hk_iterate_begin(w, h, prev);
    vbd_pass s = {&w->p, w->families, g, {prev[0], prev[1], prev[2]}, h, 1 / (h * h), iterations, rho, {NULL}};
    for (int k = 0; slab && k < 6; k++) s.old[k] = slab + (size_t)k * (size_t)w->p.count;
    hk_team_run(w, hk_team_size(w, w->p.count, HK_PARALLEL_MIN), sweep_task, &s);
    free(slab);
    hk_iterate_end(w, h, prev, 2 * hk_world_facts(w)->springs * iterations);
}
