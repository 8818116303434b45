/* xpbd.c — extended position-based dynamics: springs as compliant distance constraints, swept colour by colour. */
/* SPDX-License-Identifier: MIT */
#include "xpbd.h"

#include "constraints.h"
#include "inertia.h"
#include "kernels.h"
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
 * not move: a spring to one moves the other end alone. The operations, in their order, are those of
 * engine/xpbd_lanes.h, which steps a lattice colour's rows on the kernel paths; project_one below steps list springs
 * on every path, and lattice springs too on the reference path.
 */

/* What the sweeps read. */
typedef struct sweep_pass {
    hk_particles *p;
    const hk_family *fams;
    hk_constraints *c;
    const hk_kernels *k; /* the world's path; NULL: the reference path */
    const hk_real *prev[3];
    int iterations;
} sweep_pass;

/* The step of one spring of family fi (the comment at the top, in engine/xpbd_lanes.h's order of operations): slot
 * its slot, a, b its global ends, ui its place in the u arrays; fresh: the substep's first sweep (no u to read),
 * keep: a sweep follows (u kept). */
static inline __attribute__((always_inline)) void project_one(const sweep_pass *s, int fi, int64_t slot, int64_t a,
                                                              int64_t b, int64_t ui, int fresh, int keep)
{
    hk_constraints *c = s->c;
    hk_particles *p = s->p;
    const hk_family *f = &s->fams[fi];
    const hk_real K = c->coef[3 * fi], Dn = c->coef[3 * fi + 1], Dv = c->coef[3 * fi + 2];
    hk_real *const q[3] = {p->qx, p->qy, p->qz};
    hk_real u[3] = {0, 0, 0}, d[3], nv[3], rel[3], g[3], du[3];
    if (!fresh)
        for (int k = 0; k < 3; k++) u[k] = c->u[k][ui];
    hk_spring_delta(f, p, slot, a, b, d);
    const hk_real r = hk_spring_length(d[0], d[1], d[2]);
    const hk_real wa = p->inv_mass[a], wb = p->inv_mass[b], W = wa + wb;
    if ((f->broken && f->broken[slot]) || W == 0 || r == 0) {
        if (keep)
            for (int k = 0; k < 3; k++) c->u[k][ui] = u[k];
        return;
    }
    const hk_real inv_r = 1 / r, L0 = f->rest_list ? f->rest_list[slot] : f->rest;
    for (int k = 0; k < 3; k++) {
        nv[k] = d[k] * inv_r;
        rel[k] = (q[k][a] - s->prev[k][a]) - (q[k][b] - s->prev[k][b]);
    }
    const hk_real along = (nv[0] * rel[0] + nv[1] * rel[1]) + nv[2] * rel[2];
    const hk_real pull = K * (r - L0) + Dn * along; /* h^2 times the force along -n */
    for (int k = 0; k < 3; k++) g[k] = (u[k] + pull * nv[k]) + Dv * rel[k];
    const hk_real gn = (g[0] * nv[0] + g[1] * nv[1]) + g[2] * nv[2];
    const hk_real bend = r > L0 ? 1 - L0 * inv_r : 0;
    const hk_real ia = 1 / (1 + W * (K * bend + Dv)), iab = 1 / (1 + W * ((K + Dn) + Dv));
    const hk_behaviour bh = f->params.behaviour;
    const int slack = (bh == HK_SPRING_TENSION_ONLY && !(r > L0)) || (bh == HK_SPRING_COMPRESSION_ONLY && !(r < L0));
    for (int k = 0; k < 3; k++) {
        const hk_real t = gn * nv[k];
        du[k] = slack ? 0 - u[k] : (t - g[k]) * ia - t * iab; /* slack: no force */
        q[k][a] += wa * du[k];
        q[k][b] -= wb * du[k];
        if (keep) c->u[k][ui] = u[k] + du[k];
    }
}

/* The list springs [i0, i1) of colour k, run by run. */
static inline __attribute__((always_inline)) void list_range(const sweep_pass *s, int k, int64_t i0, int64_t i1,
                                                             int fresh, int keep)
{
    const hk_constraints *c = s->c;
    for (int r = c->colour_run[k]; r < c->colour_run[k + 1]; r++) {
        const int64_t a = c->run_start[r] > i0 ? c->run_start[r] : i0;
        const int64_t e = c->run_start[r + 1] < i1 ? c->run_start[r + 1] : i1;
        const int fi = c->run_fam[r];
        for (int64_t i = a; i < e; i++) project_one(s, fi, c->slot[i], c->a[i], c->b[i], c->u_list + i, fresh, keep);
    }
}

/* Springs [t0, t1) of row r of lattice colour lc on the scalar step: spring t the source i0 + t of the row, or
 * along i its t-th pick. */
static void row_one(const sweep_pass *s, const hk_lattice_colour *lc, int r, int t0, int t1, int fresh, int keep)
{
    const hk_family *f = &s->fams[lc->fam];
    for (int t = t0; t < t1; t++) {
        const int64_t slot = lc->row_node[r] + (lc->axis == 0 ? lc->pick[t] : f->i0 + t), a = f->base + slot;
        project_one(s, lc->fam, slot, a, a + f->offset, s->c->u_base[lc->fam] + slot, fresh, keep);
    }
}

/* The rows [r0, r1) of lattice colour lc. */
static void lattice_rows(const sweep_pass *s, const hk_lattice_colour *lc, int r0, int r1, int fresh, int keep)
{
    const hk_constraints *c = s->c;
    const hk_particles *p = s->p;
    const int fi = lc->fam;
    const hk_family *f = &s->fams[fi];
    const int64_t ub = c->u_base[fi], off = f->offset;
    const int along_i = lc->axis == 0, d = f->di;
    const int W = s->k ? s->k->width : 1;
    /* along i in blocks of 2 W entries: d = 1 or 2 forward, W a multiple of d */
    const int pairs = along_i && s->k && s->k->xpbd_pairs && (d == 1 || d == 2) && W % d == 0;
    if (!s->k || (along_i && !pairs)) { /* the reference path, or no kernel for this colour */
        for (int r = r0; r < r1; r++) row_one(s, lc, r, 0, along_i ? lc->picks : f->i1 - f->i0, fresh, keep);
        return;
    }
    hk_xpbd_span sp = {.L0 = f->rest,
                       .K = c->coef[3 * fi],
                       .Dn = c->coef[3 * fi + 1],
                       .Dv = c->coef[3 * fi + 2],
                       .behaviour = f->params.behaviour};
    for (int k = 0; k < 3; k++) sp.D[k] = f->rest_vec[k];
    hk_real *const q[3] = {p->qx, p->qy, p->qz};
    /* along i: the first source at a block's start, the whole blocks from it, the picks before and after them */
    int s0 = f->i0, blocks = 0, lead = 0, tail = 0;
    if (pairs) {
        s0 += ((lc->parity * d - f->i0) % (2 * d) + 2 * d) % (2 * d);
        blocks = f->i1 - s0 + d > 0 ? (f->i1 - s0 + d) / (2 * W) : 0;
        while (lead < lc->picks && lc->pick[lead] < s0) lead++;
        tail = lead;
        while (tail < lc->picks && lc->pick[tail] < s0 + 2 * W * blocks) tail++;
    }
    for (int r = r0; r < r1; r++) {
        const int64_t slot0 = lc->row_node[r] + (along_i ? s0 : f->i0), a0 = f->base + slot0;
        for (int k = 0; k < 3; k++) {
            sp.qa[k] = q[k] + a0;
            sp.qb[k] = q[k] + a0 + off;
            sp.pa[k] = s->prev[k] + a0;
            sp.pb[k] = s->prev[k] + a0 + off;
            sp.u[k] = c->u[0] ? c->u[k] + ub + slot0 : NULL;
        }
        sp.wa = p->inv_mass + a0;
        sp.wb = p->inv_mass + a0 + off;
        sp.broken = f->broken ? f->broken + slot0 : NULL;
        if (!along_i) { /* the row's springs in place */
            s->k->xpbd_span(&sp, f->i1 - f->i0, fresh, keep);
            continue;
        }
        row_one(s, lc, r, 0, lead, fresh, keep);
        s->k->xpbd_pairs(&sp, d, blocks, fresh, keep);
        row_one(s, lc, r, tail, lc->picks, fresh, keep);
    }
}

/* Every sweep of the substep on one task of the team: each colour, the lattice ones first, split over the team (or
 * on task 0: a small colour, the serial one), a barrier after each. */
HK_FMA_CLONES static void sweep_task(const hk_team *tm, void *ctx)
{
    const sweep_pass *s = ctx;
    const hk_constraints *c = s->c;
    for (int it = 0; it < s->iterations; it++) {
        const int fresh = it == 0, keep = it + 1 < s->iterations;
        for (int k = 0; k < c->lattice_colours; k++) {
            const hk_lattice_colour *lc = &c->lc[k];
            const hk_family *f = &s->fams[lc->fam];
            int64_t a, b;
            hk_colour_share(tm, lc->rows, (int64_t)lc->rows * (lc->axis == 0 ? lc->picks : f->i1 - f->i0), 0, &a, &b);
            if (a < b) lattice_rows(s, lc, (int)a, (int)b, fresh, keep);
            hk_team_barrier(tm);
        }
        for (int k = 0; k < c->colours; k++) {
            const int64_t first = c->colour_start[k], n = c->colour_start[k + 1] - first;
            int64_t a, b;
            hk_colour_share(tm, n, n, c->serial && k == c->colours - 1, &a, &b);
            if (a < b) list_range(s, k, first + a, first + b, fresh, keep);
            hk_team_barrier(tm);
        }
    }
}

void hk_xpbd_substep(hk_world *w, hk_real h)
{
    if (hk_iterate_refused(w, "xpbd")) return;
    hk_constraints *c = hk_constraints_of(w);
    const int iterations = w->integrator.iterations > 0 ? w->integrator.iterations : HK_XPBD_ITERATIONS;
    const int team = c ? hk_team_size(w, c->count, HK_PARALLEL_MIN) : 1;
    if (!c || (iterations > 1 && hk_constraints_u(w, c) != 0)) {
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
    sweep_pass ss = {&w->p, w->families, c, w->kernels, {prev[0], prev[1], prev[2]}, iterations};
    hk_team_run(w, team, sweep_task, &ss);
    hk_iterate_end(w, h, prev, c->count * iterations);
}
