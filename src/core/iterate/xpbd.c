/* xpbd.c — extended position-based dynamics: springs as compliant distance constraints, swept colour by colour. */
/* SPDX-License-Identifier: MIT */
#include "xpbd.h"

#include "constraints.h"
#include "inertia.h"
#include "part.h"
#include "spring_vec.h"

/*
 * A substep h (Macklin, Mueller and Chentanez 2016; with small steps, Macklin et al. 2019):
 *   v += h M^-1 f_other,  x_prev = x,  x += h v        the other forces at the substep's start
 *   iterations times, colour by colour, each spring (ends a, b; inverse masses w_a, w_b, W = w_a + w_b) moves its
 *   ends by a step du on u, the force it has applied so far times h^2 (0 at the substep's start):
 *     x_a += w_a du,  x_b -= w_b du,  u += du
 *   v = (x - x_prev) / h   (inertia.h: the prediction and the velocity)
 * so that at every moment M (x - x_pred) = sum over springs of +-u. A spring's own equation is
 *   g(u) = u - h^2 f_a(x, (x - x_prev) / h) = 0,
 * f_a its force on a: elastic -k (r - L0) n (r, n the length and direction of x_a - x_b) and damping, along the
 * spring -c (n . v_ab) n or of the relative velocity -c v_ab (v_ab = v_a - v_b), both at the substep's end. du is
 * one Newton step on g from the u it has, the other springs held: g's Jacobian in u is
 *   J = I + W (k h^2 (n n^T + max(0, 1 - L0 / r) (I - n n^T)) + c h (n n^T or I)),
 * the spring's block of backward Euler's clamped system (implicit/system.h), a I + b n n^T, whose inverse is
 * (I - n n^T) / a + n n^T / (a + b). Where the force lies along the spring (damping along it) that step solves
 * the spring's equation exactly, and from u = 0 (the first sweep) it is the paper's update with the compliance
 * 1/k and the damping c: lambda = (k h^2 (L0 - r) - c h n . dx_ab) / (1 + (k h^2 + c h) W), du = lambda n.
 * (Past the first sweep the paper adds each increment of lambda along its own iteration's n; this steps the whole
 * of u, so the fixed point is exact where springs turn.) At a fixed point every g is 0:
 *   M (x - x_pred) = h^2 sum over springs of f(x, (x - x_prev) / h),
 * the backward Euler step of the springs with the other forces taken explicitly: the sweeps converge to
 * implicit_euler's substep as the iterations grow, as Gauss-Seidel converges: slowly where masses or stiffnesses
 * differ by orders of magnitude. k h^2 and c h enter as factors, so a spring of k = 0 (a damper) needs no division
 * by k. A tension-only spring acts only while r > L0, a compression-only one while r < L0 (as their forces do
 * everywhere): otherwise its step takes all of its u back. The springs of one colour share no particle
 * (constraints.h), so each colour's projections are independent of each other and of the threads that run them;
 * the colours run in order, the serial colour last on one thread. Pinned and driven particles (inverse mass 0) do
 * not move: a spring to one moves the other end alone.
 */

/* What the sweeps read. */
typedef struct sweep_pass {
    hk_particles *p;
    const hk_family *fams;
    hk_constraints *c;
    const hk_real *prev[3];
    int iterations;
} sweep_pass;

/* Colours of fewer springs than this run on one task of the team (the others wait at the colour's end). */
#define SPLIT_MIN 2048

/* The steps of springs [i0, i1), all of family fi (the comment at the top); fresh: the substep's first sweep (no
 * u to read), keep: a sweep follows (u kept). */
static inline __attribute__((always_inline)) void project_run(const sweep_pass *s, int fi, int64_t i0, int64_t i1,
                                                              int fresh, int keep)
{
    hk_constraints *c = s->c;
    hk_particles *p = s->p;
    const hk_family *f = &s->fams[fi];
    const hk_real K = c->coef[3 * fi], Dn = c->coef[3 * fi + 1], Dv = c->coef[3 * fi + 2];
    const hk_behaviour bh = f->params.behaviour;
    const uint8_t *broken = f->broken;
    const hk_real *rest = f->rest_list;
    const hk_real L = f->rest;
    hk_real *const q[3] = {p->qx, p->qy, p->qz};
    const hk_real *const *prev = s->prev;
    for (int64_t i = i0; i < i1; i++) {
        const int64_t slot = c->slot[i];
        if (broken && broken[slot]) continue;
        const int a = c->a[i], b = c->b[i];
        const hk_real wa = p->inv_mass[a], wb = p->inv_mass[b], W = wa + wb;
        if (W == 0) continue;
        hk_real u[3] = {0, 0, 0}, d[3], du[3];
        if (!fresh)
            for (int k = 0; k < 3; k++) u[k] = c->u[k][i];
        hk_spring_delta(f, p, slot, a, b, d);
        const hk_real r = hk_spring_length(d[0], d[1], d[2]);
        if (r == 0) continue;
        const hk_real inv_r = 1 / r, L0 = rest ? rest[slot] : L;
        if ((bh == HK_SPRING_TENSION_ONLY && !(r > L0)) || (bh == HK_SPRING_COMPRESSION_ONLY && !(r < L0))) {
            for (int k = 0; k < 3; k++) du[k] = -u[k]; /* slack: no force */
        } else {
            hk_real n[3], rel[3], along = 0;
            for (int k = 0; k < 3; k++) {
                n[k] = d[k] * inv_r;
                rel[k] = (q[k][a] - prev[k][a]) - (q[k][b] - prev[k][b]);
                along += n[k] * rel[k];
            }
            const hk_real pull = K * (r - L0) + Dn * along; /* h^2 times the force along -n */
            hk_real g[3], gn = 0;
            for (int k = 0; k < 3; k++) {
                g[k] = u[k] + pull * n[k] + Dv * rel[k];
                gn += g[k] * n[k];
            }
            const hk_real bend = r > L0 ? 1 - L0 * inv_r : 0;
            const hk_real ia = 1 / (1 + W * (K * bend + Dv)), iab = 1 / (1 + W * (K + Dn + Dv));
            for (int k = 0; k < 3; k++) du[k] = -(g[k] - gn * n[k]) * ia - gn * n[k] * iab;
        }
        for (int k = 0; k < 3; k++) {
            q[k][a] += wa * du[k];
            q[k][b] -= wb * du[k];
            if (keep) c->u[k][i] = u[k] + du[k];
        }
    }
}

/* The springs [i0, i1) of colour k, run by run. */
static inline __attribute__((always_inline)) void project_range(const sweep_pass *s, int k, int64_t i0, int64_t i1,
                                                                int fresh, int keep)
{
    const hk_constraints *c = s->c;
    for (int r = c->colour_run[k]; r < c->colour_run[k + 1]; r++) {
        const int64_t a = c->run_start[r] > i0 ? c->run_start[r] : i0;
        const int64_t e = c->run_start[r + 1] < i1 ? c->run_start[r + 1] : i1;
        if (a < e) project_run(s, c->run_fam[r], a, e, fresh, keep);
    }
}

/* Every sweep of the substep on one task of the team: each colour split over the team (or on task 0: a small
 * colour, the serial one), a barrier after each. */
HK_FMA_CLONES static void sweep_task(const hk_team *tm, void *ctx)
{
    const sweep_pass *s = ctx;
    const hk_constraints *c = s->c;
    for (int it = 0; it < s->iterations; it++) {
        const int fresh = it == 0, keep = it + 1 < s->iterations;
        for (int k = 0; k < c->colours; k++) {
            const int64_t first = c->colour_start[k], n = c->colour_start[k + 1] - first;
            if ((c->serial && k == c->colours - 1) || n < SPLIT_MIN || tm->T == 1) {
                if (tm->t == 0) project_range(s, k, first, first + n, fresh, keep);
            } else {
                project_range(s, k, first + n * tm->t / tm->T, first + n * (tm->t + 1) / tm->T, fresh, keep);
            }
            hk_team_barrier(tm);
        }
    }
}

void hk_xpbd_substep(hk_world *w, hk_real h)
{
    if (hk_iterate_refused(w, "xpbd")) return;
    hk_constraints *c = hk_constraints_of(w);
    if (!c) {
        w->step_failed = hk_failed(w);
        return;
    }
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        const int along = f->params.damping_model == HK_DAMP_ALONG;
        c->coef[3 * fi] = f->k * h * h;
        c->coef[3 * fi + 1] = along ? f->c * h : 0;
        c->coef[3 * fi + 2] = along ? 0 : f->c * h;
    }
    hk_real *prev[3];
    hk_iterate_begin(w, h, prev);
    const int iterations = w->integrator.iterations > 0 ? w->integrator.iterations : HK_XPBD_ITERATIONS;
    sweep_pass ss = {&w->p, w->families, c, {prev[0], prev[1], prev[2]}, iterations};
    hk_team_run(w, hk_team_size(w, c->count, HK_PARALLEL_MIN), sweep_task, &ss);
    hk_iterate_end(w, h, prev, c->count * iterations);
}
