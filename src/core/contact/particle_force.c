/* particle_force.c — the particle model's contact forces: passes over arrays of its sphere pairs and particles. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "friction.h"
#include "geometry.h"
#include "pairs.h"
#include "soft.h"
#include "team.h"

/*
 * Every pair of the particle model is two particles a < b with weights
 * (1, -1) (pairs.h, HK_PAIR_PP), so its force needs no corners, boxes or
 * nearest points: the pairs' forces are passes over arrays of the pairs
 * and their particles.
 *   1. per particle of the pairs (inv): its place now, and whether it is
 *      past its step's bound;
 *   2. per pair, in one loop without branches (scalar: the baseline
 *      x86-64 build has no gather to bring the pairs' particles into
 *      lanes): its two places, their distance, the normal and the contact law
 *      (soft.h: a spring across the contact distance, damped by the
 *      damping ratio with the pair's mass), and whether it touches; the
 *      rare pair whose particle is past its bound (it acts only
 *      if its bounds let it, hk_pairs_in_step) or whose centres meet (the
 *      normal along z, to the side it started on) is taken again alone;
 *   3. per particle, its touching pairs (friction shares its spring among
 *      them); per touching pair, its friction (viscous, pair_anchor.c) and
 *      force, and for a solve its blocks;
 *   4. per particle, its pairs' forces in pair order, added to its own.
 * Each particle's pairs, in pair order, are listed once when the step's
 * pairs are chosen (hk_pairs.selected), not at each evaluation. What each
 * pass computes for a pair or a particle is what pair_force.c's passes
 * compute, the same operations in the same order: the same bits, and the
 * same for any team (each particle sums in pair order).
 */

struct hk_particle_lists {
    int64_t selected; /* the pairs' choice these lists follow (hk_pairs.selected); -1: none yet */
    int64_t cap_pair, cap_inv, cap_slot;
    int32_t *ia, *ib;      /* per pair: its two particles */
    int32_t *ja, *jb;      /* per pair: their places in inv */
    int32_t *start, *slot; /* per particle of inv: its slots start[j] .. start[j + 1], 2 pair + (0 or 1), pair order */
    double *x[3];          /* per particle of inv: its place now [m] */
    uint8_t *past;         /* per particle of inv: 1 where it is past its step's bound */
    int32_t *count;        /* per particle of inv: its touching pairs */
    uint8_t *on;           /* per pair: 1 where it touches and acts; 2 (pass 2): to be taken again alone */
    double *n[3], *vr[3];  /* per pair: its unit normal, its relative velocity [m/s] */
    double *fn, *m;        /* per pair: its normal force [N], its mass [kg] */
    double *tf;            /* per pair (3 each): its force on a [N] */
    int32_t *q;            /* per touching pair: its place among the touching pairs */
    int64_t *task;         /* per task: its touching pairs, then its particles' touching slots */
    int64_t cap_task;
};

void hk_particle_lists_free(struct hk_particle_lists *pl)
{
    if (!pl) return;
    free(pl->ia), free(pl->ib), free(pl->ja), free(pl->jb), free(pl->start), free(pl->slot);
    for (int c = 0; c < 3; c++) free(pl->x[c]), free(pl->n[c]), free(pl->vr[c]);
    free(pl->past), free(pl->count), free(pl->on), free(pl->fn), free(pl->m), free(pl->tf), free(pl->q);
    free(pl->task);
    free(pl);
}

/* Room for np pairs and ninv particles; 0 or -1. */
static int lists_room(struct hk_particle_lists *pl, int64_t np, int64_t ninv)
{
    if (np + 1 > pl->cap_pair) {
        const int64_t cap = np + np / 2 + 16;
        int32_t **i32[] = {&pl->ia, &pl->ib, &pl->ja, &pl->jb, &pl->q};
        double **f64[] = {&pl->n[0], &pl->n[1], &pl->n[2], &pl->vr[0], &pl->vr[1], &pl->vr[2], &pl->fn, &pl->m};
        for (size_t k = 0; k < sizeof i32 / sizeof *i32; k++) {
            int32_t *p = realloc(*i32[k], (size_t)cap * sizeof *p);
            if (!p) return -1;
            *i32[k] = p;
        }
        for (size_t k = 0; k < sizeof f64 / sizeof *f64; k++) {
            double *p = realloc(*f64[k], (size_t)cap * sizeof *p);
            if (!p) return -1;
            *f64[k] = p;
        }
        uint8_t *on = realloc(pl->on, (size_t)cap);
        double *tf = realloc(pl->tf, 3 * (size_t)cap * sizeof *tf);
        if (on) pl->on = on;
        if (tf) pl->tf = tf;
        if (!on || !tf) return -1;
        pl->cap_pair = cap;
    }
    if (ninv + 2 > pl->cap_inv) {
        const int64_t cap = ninv + ninv / 2 + 16;
        int32_t *s = realloc(pl->start, (size_t)cap * sizeof *s);
        if (s) pl->start = s;
        int32_t *cn = realloc(pl->count, (size_t)cap * sizeof *cn);
        if (cn) pl->count = cn;
        uint8_t *pa = realloc(pl->past, (size_t)cap);
        if (pa) pl->past = pa;
        if (!s || !cn || !pa) return -1;
        for (int c = 0; c < 3; c++) {
            double *x = realloc(pl->x[c], (size_t)cap * sizeof *x);
            if (!x) return -1;
            pl->x[c] = x;
        }
        pl->cap_inv = cap;
    }
    if (2 * np + 1 > pl->cap_slot) {
        const int64_t cap = 2 * np + np + 16;
        int32_t *s = realloc(pl->slot, (size_t)cap * sizeof *s);
        if (!s) return -1;
        pl->slot = s, pl->cap_slot = cap;
    }
    return 0;
}

/* The pairs' particles and places, and each particle's slots in pair order, for the pairs chosen now. */
static void lists_make(const hk_pairs *pr, struct hk_particle_lists *pl)
{
    const int64_t np = pr->npair;
    const int ninv = pr->ninv;
    for (int64_t k = 0; k < np; k++) {
        pl->ia[k] = pr->pair[k].p[0], pl->ib[k] = pr->pair[k].p[1];
        pl->ja[k] = pr->at[4 * k], pl->jb[k] = pr->at[4 * k + 1];
    }
    memset(pl->start, 0, (size_t)(ninv + 1) * sizeof *pl->start);
    for (int64_t k = 0; k < np; k++) pl->start[pl->ja[k] + 1]++, pl->start[pl->jb[k] + 1]++;
    for (int j = 0; j < ninv; j++) pl->start[j + 1] += pl->start[j];
    int32_t *next = pl->count; /* scratch: each particle's next slot */
    memcpy(next, pl->start, (size_t)ninv * sizeof *next);
    for (int64_t k = 0; k < np; k++) {
        pl->slot[next[pl->ja[k]]++] = (int32_t)(2 * k);
        pl->slot[next[pl->jb[k]]++] = (int32_t)(2 * k + 1);
    }
    pl->selected = pr->selected;
}

float hk_particle_side(const hk_pairs *pr, const hk_pair *pa)
{
    const double n[3] = {0, 0, 1}, *x0 = pr->q0 + 3 * (int64_t)pa->p[0], *x1 = pr->q0 + 3 * (int64_t)pa->p[1];
    double d[3];
    g_sub(x0, x1, d);
    if (d[2] == 0) return d[1] < 0 || (d[1] == 0 && d[0] < 0) ? -1.0f : 1.0f;
    return g_dot(n, d) < 0 ? -1.0f : 1.0f;
}

/* The soft contact law (soft.h) of a pair at distance gap [m] along unit normal n, velocities va, vb [m/s] and
 * inverse masses ia, ib [1/kg] of its two particles, with its effective mass (pair_force.c's evaluate, the same
 * operations): its relative velocity vr, mass *m and normal force, returned; it touches where gap < th, the masses
 * are not both held and the force is > 0. */
static inline double sphere_law(const hk_contact_def *d, double th, double gap, const double n[3], const double va[3],
                                const double vb[3], double ia, double ib, double vr[3], double *m)
{
    for (int c = 0; c < 3; c++) vr[c] = (0.0 + va[c]) - vb[c]; /* sum alpha_i v_i, alpha (1, -1), from 0 */
    const double inv = (0.0 + ia) + ib;
    *m = 1 / inv;
    const double vn = g_dot(vr, n);
    return hk_soft_force(hk_soft_make(d->stiffness, d->damping_ratio, *m), th - gap, vn);
}

/* What the tasks of the passes share. */
typedef struct force_pass {
    hk_world *w;
    hk_pairs *pr;
    struct hk_particle_lists *pl;
    double h;
    hk_real *const *f;
} force_pass;

/* Pass 1: the places of particles [a, a + n) of inv now, and whether each is past its step's bound. */
static void places(const hk_world *w, const hk_pairs *pr, struct hk_particle_lists *pl, int a, int n)
{
    const hk_particles *p = &w->p;
    const int32_t *restrict inv = pr->inv;
    double *restrict X = pl->x[0], *restrict Y = pl->x[1], *restrict Z = pl->x[2];
    uint8_t *restrict past = pl->past;
    for (int j = a; j < a + n;) { /* body by body: inv ascends, and so do the bodies' ranges */
        const hk_body *b = &w->bodies[hk_body_of(w, inv[j])];
        const double o[3] = {b->origin[0], b->origin[1], b->origin[2]};
        const int end = b->first + b->count;
        for (; j < a + n && inv[j] < end; j++) {
            const int i = inv[j]; /* hk_particle_position, and hk_pairs_past */
            const double x[3] = {o[0] + hk_local_x(p, i), o[1] + hk_local_y(p, i), o[2] + hk_local_z(p, i)};
            X[j] = x[0], Y[j] = x[1], Z[j] = x[2];
            past[j] = (uint8_t)hk_pairs_past(pr, i, x);
        }
    }
}

/* Pair k taken alone, as pair_force.c's evaluate takes it: one whose particle is past its step's bound, or whose
 * centres meet. */
static void pair_alone(const hk_world *w, const hk_pairs *pr, struct hk_particle_lists *pl, int64_t k)
{
    const hk_particles *p = &w->p;
    const int32_t a = pl->ja[k], b = pl->jb[k], i = pl->ia[k], j = pl->ib[k];
    pl->on[k] = 0;
    if ((pl->past[a] | pl->past[b]) && !hk_pairs_in_step(pr, k)) return;
    const double d[3] = {pl->x[0][a] - pl->x[0][b], pl->x[1][a] - pl->x[1][b], pl->x[2][a] - pl->x[2][b]};
    const double gap = g_norm(d);
    double n[3];
    if (gap > 0)
        for (int c = 0; c < 3; c++) n[c] = d[c] / gap;
    else
        n[0] = n[1] = 0, n[2] = hk_particle_side(pr, &pr->pair[k]); /* apart along z, as they started */
    if (!(gap < pr->th)) return;
    const double va[3] = {p->vx[i], p->vy[i], p->vz[i]}, vb[3] = {p->vx[j], p->vy[j], p->vz[j]};
    double vr[3], m;
    const double fn = sphere_law(&pr->def, pr->th, gap, n, va, vb, p->inv_mass[i], p->inv_mass[j], vr, &m);
    if (!((double)p->inv_mass[i] + p->inv_mass[j] > 0) || !(fn > 0)) return;
    for (int c = 0; c < 3; c++) pl->n[c][k] = n[c], pl->vr[c][k] = vr[c];
    pl->fn[k] = fn, pl->m[k] = m, pl->on[k] = 1;
}

/* Pass 2: pairs [k0, k1), then those to be taken alone; returns how many touch. */
static int64_t pairs_law(const hk_world *w, const hk_pairs *pr, struct hk_particle_lists *pl, int64_t k0, int64_t k1)
{
    const hk_particles *p = &w->p;
    const hk_contact_def *d = &pr->def;
    const double th = pr->th;
    const int32_t *ja = pl->ja, *jb = pl->jb, *ia = pl->ia, *ib = pl->ib;
    const double *X = pl->x[0], *Y = pl->x[1], *Z = pl->x[2];
    double *nx = pl->n[0], *ny = pl->n[1], *nz = pl->n[2], *wx = pl->vr[0], *wy = pl->vr[1], *wz = pl->vr[2];
    double *fnk = pl->fn, *mk = pl->m;
    uint8_t *on = pl->on;
    const uint8_t *past = pl->past;
    for (int64_t k = k0; k < k1; k++) {
        const int32_t a = ja[k], b = jb[k], i = ia[k], j = ib[k];
        const double xa = X[a], ya = Y[a], za = Z[a], xb = X[b], yb = Y[b], zb = Z[b];
        /* the two points' boxes no further apart than the contact distance */
        const int near =
            (xa <= xb + th) & (xb <= xa + th) & (ya <= yb + th) & (yb <= ya + th) & (za <= zb + th) & (zb <= za + th);
        const double dd[3] = {xa - xb, ya - yb, za - zb};
        const double gap = g_norm(dd);
        const double n[3] = {dd[0] / gap, dd[1] / gap, dd[2] / gap};
        const double va[3] = {p->vx[i], p->vy[i], p->vz[i]}, vb[3] = {p->vx[j], p->vy[j], p->vz[j]};
        const double ima = p->inv_mass[i], imb = p->inv_mass[j];
        double vr[3], m;
        const double fn = sphere_law(d, th, gap, n, va, vb, ima, imb, vr, &m);
        const int alone = near & ((past[a] | past[b]) | (gap == 0));
        const int acts = near & (gap < th) & ((0.0 + ima) + imb > 0) & (fn > 0);
        on[k] = (uint8_t)(acts | alone << 1);
        nx[k] = n[0], ny[k] = n[1], nz[k] = n[2], wx[k] = vr[0], wy[k] = vr[1], wz[k] = vr[2];
        fnk[k] = fn, mk[k] = m;
    }
    int64_t touching = 0;
    for (int64_t k = k0; k < k1; k++) {
        if (on[k] >= 2) pair_alone(w, pr, pl, k);
        touching += on[k];
    }
    return touching;
}

/* Pass 3 for touching pair k, the q-th: its friction and force (its normal force first), and for a solve its
 * blocks, packed. */
static void pair_force(const force_pass *fp, int64_t k, int64_t q)
{
    const hk_world *w = fp->w;
    hk_pairs *pr = fp->pr;
    const struct hk_particle_lists *pl = fp->pl;
    const hk_particles *p = &w->p;
    const hk_contact_def *d = &pr->def;
    const double n[3] = {pl->n[0][k], pl->n[1][k], pl->n[2][k]}, fn = pl->fn[k];
    const int blocks = w->solves;
    double f[3], K[6] = {0}, D[6] = {0};
    for (int c = 0; c < 3; c++) f[c] = fn * n[c];
    if (blocks) {
        g_add_outer(K, d->stiffness, n);
        g_add_outer(D, hk_soft_make(d->stiffness, d->damping_ratio, pl->m[k]).c, n);
    }
    if (pr->first) pr->anch_next[q].cand = -1; /* two particles hold no anchor (pair_anchor.c) */
    if (d->friction > 0) {                     /* viscous, its spring shared among its particles' touching pairs */
        const int32_t ca = pl->count[pl->ja[k]], cb = pl->count[pl->jb[k]];
        int most = 1;
        if (p->inv_mass[pl->ia[k]] > 0 && ca > most) most = ca;
        if (p->inv_mass[pl->ib[k]] > 0 && cb > most) most = cb;
        const double vr[3] = {pl->vr[0][k], pl->vr[1][k], pl->vr[2][k]}, m = pl->m[k] / most, vn = g_dot(vr, n);
        const double vt[3] = {vr[0] - vn * n[0], vr[1] - vn * n[1], vr[2] - vn * n[2]};
        hk_friction_viscous(d->friction, fn, m, fp->h, n, vt, f, blocks ? D : NULL);
    }
    for (int c = 0; c < 3; c++) pl->tf[3 * k + c] = f[c];
    if (!blocks) return;
    hk_pair_touch *t = &pr->touch[q];
    for (int c = 0; c < 4; c++) t->p[c] = pr->pair[k].p[c], t->a[c] = c == 0 ? 1 : c == 1 ? -1 : 0;
    for (int e = 0; e < 6; e++) pr->kd[q].K[e] = (hk_real)K[e], pr->kd[q].D[e] = (hk_real)D[e];
}

/* Pass 3: the touching pairs of particles [a, a + n) of inv, and (*slots) how many in all. */
static void touching_counts(struct hk_particle_lists *pl, int a, int n, int64_t *slots)
{
    const int32_t *restrict start = pl->start, *restrict slot = pl->slot;
    const uint8_t *restrict on = pl->on;
    int32_t *restrict count = pl->count;
    int64_t all = 0;
    for (int j = a; j < a + n; j++) {
        int32_t c = 0;
        for (int32_t e = start[j]; e < start[j + 1]; e++) c += on[slot[e] >> 1];
        count[j] = c, all += c;
    }
    *slots = all;
}

/* Pass 4: each of particles [a, a + n) of inv its touching pairs' forces in pair order, weights 1 and -1, added
 * to its own in f. */
static void sums(const struct hk_particle_lists *pl, const int32_t *inv, hk_real *const f[3], int a, int n)
{
    const int32_t *restrict start = pl->start, *restrict slot = pl->slot;
    const uint8_t *restrict on = pl->on;
    const double *restrict tf = pl->tf;
    hk_real *restrict fx = f[0], *restrict fy = f[1], *restrict fz = f[2];
    for (int j = a; j < a + n; j++) {
        double s0 = 0, s1 = 0, s2 = 0;
        for (int32_t e = start[j]; e < start[j + 1]; e++) {
            const int32_t k = slot[e] >> 1;
            if (!on[k]) continue;
            const double al = slot[e] & 1 ? -1.0 : 1.0, *t = tf + 3 * (int64_t)k;
            s0 += al * t[0], s1 += al * t[1], s2 += al * t[2];
        }
        const int i = inv[j];
        fx[i] = (hk_real)((double)fx[i] + s0), fy[i] = (hk_real)((double)fy[i] + s1);
        fz[i] = (hk_real)((double)fz[i] + s2);
    }
}

/* For a solve: the touching pairs' corners of particles [a, a + n) of inv (hk_pairs.on_start, on_slot, slot_a),
 * from `at`, the first of the task's; the last task ends the list. */
static void solve_lists(const struct hk_particle_lists *pl, hk_pairs *pr, int a, int n, int64_t at, int last)
{
    for (int j = a; j < a + n; j++) {
        pr->on_start[j] = (int32_t)at;
        for (int32_t e = pl->start[j]; e < pl->start[j + 1]; e++) {
            const int32_t k = pl->slot[e] >> 1, c = pl->slot[e] & 1;
            if (!pl->on[k]) continue;
            pr->on_slot[at] = 4 * pl->q[k] + c, pr->slot_a[at] = c ? -1.0 : 1.0;
            at++;
        }
    }
    if (last) pr->on_start[pr->ninv] = (int32_t)at;
}

static void force_task(const hk_team *tm, void *ctx)
{
    const force_pass *fp = ctx;
    hk_pairs *pr = fp->pr;
    struct hk_particle_lists *pl = fp->pl;
    const int ninv = pr->ninv, T = tm->T;
    const int64_t np = pr->npair;
    int a, n;
    hk_team_range(tm, 0, ninv, &a, &n);
    places(fp->w, pr, pl, a, n);
    hk_team_barrier(tm);
    const int64_t k0 = np * tm->t / T, k1 = np * (tm->t + 1) / T;
    pl->task[tm->t] = pairs_law(fp->w, pr, pl, k0, k1);
    hk_team_barrier(tm);
    touching_counts(pl, a, n, &pl->task[T + tm->t]);
    hk_team_barrier(tm);
    int64_t q = 0, at = 0; /* the places of this task's first touching pair and first touching slot */
    for (int t = 0; t < tm->t; t++) q += pl->task[t], at += pl->task[T + t];
    for (int64_t k = k0; k < k1; k++)
        if (pl->on[k]) pl->q[k] = (int32_t)q, pair_force(fp, k, q++);
    if (tm->t == T - 1) pr->non = q;
    hk_team_barrier(tm);
    sums(pl, pr->inv, fp->f, a, n);
    if (fp->w->solves) solve_lists(pl, pr, a, n, at, tm->t == T - 1);
}

void hk_particle_forces(hk_world *w, hk_pairs *pr, double h, hk_real *const f[3])
{
    const int64_t np = pr->npair;
    const int team = hk_pairs_team(w, np > pr->ninv ? np : pr->ninv);
    struct hk_particle_lists *pl = pr->pl;
    if (!pl && (pl = pr->pl = calloc(1, sizeof *pl)) != NULL) pl->selected = -1;
    pr->non = 0;
    pr->b_set = 0; /* the touching pairs change: their B is set again by the next solve */
    HK_ASSERT(np <= 0x1fffffff);
    if (!pl || lists_room(pl, np, pr->ninv) != 0 ||
        hk_pairs_room(&pl->task, &pl->cap_task, 2 * (int64_t)team, sizeof *pl->task) != 0 ||
        hk_pairs_anchors_room(pr, np) != 0 ||
        (w->solves && (hk_pairs_room(&pr->touch, &pr->cap_touch, np + 1, sizeof *pr->touch) != 0 ||
                       hk_pairs_room(&pr->kd, &pr->cap_kd, np + 1, sizeof *pr->kd) != 0 ||
                       hk_pairs_room(&pr->on_slot, &pr->cap_on_slot, 2 * np + 1, sizeof *pr->on_slot) != 0 ||
                       hk_pairs_room(&pr->slot_a, &pr->cap_slot_a, 2 * np + 1, sizeof *pr->slot_a) != 0 ||
                       hk_pairs_room(&pr->tf, &pr->cap_tf, 3 * np + 1, sizeof *pr->tf) != 0))) {
        w->step_failed = hk_fail_memory(w, "out of memory for the touching contact pairs");
        return;
    }
    if (pl->selected != pr->selected) lists_make(pr, pl);
    force_pass fp = {w, pr, pl, h, f};
    hk_team_run(w, team, force_task, &fp);
}
