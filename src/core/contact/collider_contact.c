/* collider_contact.c — the colliders' contact with particles: broad phase, force and blocks, swept safety net. */
/* SPDX-License-Identifier: MIT */
#include "collider_contact.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "friction.h"
#include "geometry.h"
#include "pairs.h"
#include "part.h"
#include "soft.h"
#include "team.h"

/* Loops over candidates or particles run on the world's team from 4096
 * of them (hk_pairs_team); each iteration is one particle's, so the bits
 * do not depend on the team. */

/* A particle put back by the safety net lands at least this fraction of
 * the thickness outside the surface it crossed (landing_gap). */
#define HK_CONTACT_LAND 0.01
int hk_colliders_room(hk_world *w, struct hk_contact *ct)
{
    if (ct->slab && ct->cap == w->p.capacity) return 0;
    hk_real *const old = ct->slab, *const was[4] = {ct->anchor[0], ct->anchor[1], ct->anchor[2], ct->anchor[3]};
    const int kept = old ? (ct->cap < w->p.capacity ? ct->cap : w->p.capacity) : 0;
    size_t stride, offset;
    ct->slab = hk_alloc_slab(11, (size_t)(w->p.capacity ? w->p.capacity : 1), 0, w, &stride, &offset);
    ct->cap = ct->slab ? w->p.capacity : 0;
    ct->ncand = ct->nactive = 0;
    ct->any_force = 0;
    if (!ct->slab) {
        free(old);
        for (int c = 0; c < 4; c++) ct->anchor[c] = NULL;
        return hk_fail_memory(w, "out of memory for the contact state (%d particles)", w->p.count);
    }
    hk_real *a = ct->slab + offset;
    for (int c = 0; c < 3; c++) ct->f[c] = a + (size_t)c * stride, ct->q0[c] = a + (size_t)(3 + c) * stride;
    ct->slack = a + 6 * stride;
    for (int c = 0; c < 4; c++) { /* the anchors of the particles there were; the new ones hold none */
        ct->anchor[c] = a + (size_t)(7 + c) * stride;
        if (kept) memcpy(ct->anchor[c], was[c], (size_t)kept * sizeof *ct->anchor[c]);
    }
    for (int i = kept; i < ct->cap; i++) ct->anchor[3][i] = -1;
    free(old);
    return 0;
}

/* Room for n candidates. */
static int ensure_candidates(hk_world *w, struct hk_contact *ct, int n)
{
    if (n <= ct->capcand) return 0;
    const int cap = n > 2 * ct->capcand ? n : 2 * ct->capcand;
    /* realloc: the candidates of a distributed run's earlier spans are kept */
    int *cand = realloc(ct->cand, (size_t)cap * sizeof *cand);
    if (cand) ct->cand = cand;
    double *x0 = realloc(ct->x0, 3 * (size_t)cap * sizeof *x0);
    if (x0) ct->x0 = x0;
    hk_contact_rec *rec = realloc(ct->rec, (size_t)cap * sizeof *rec);
    if (rec) ct->rec = rec;
    int *active = realloc(ct->active, (size_t)cap * sizeof *active);
    if (active) ct->active = active;
    double *gap = realloc(ct->gap, (size_t)cap * sizeof *gap);
    if (gap) ct->gap = gap;
    if (!cand || !x0 || !rec || !active || !gap) return hk_fail_memory(w, "out of memory for %d contact candidates", n);
    ct->capcand = cap;
    return 0;
}

/* The world position of particle i (its body found from the hint b). */
static const hk_body *position(const hk_world *w, int i, int *b, double x[3])
{
    while (i >= w->bodies[*b].first + w->bodies[*b].count) (*b)++;
    const hk_body *bd = &w->bodies[*b];
    hk_particle_position(w, bd, i, x);
    return bd;
}

/* The calling thread's share [*k0, *k0 + *n) of the step's candidates; the
 * body of its first (the hint of position()). */
static int candidate_share(const hk_team *tm, const hk_world *w, const struct hk_contact *ct, int *k0, int *n)
{
    hk_team_range(tm, 0, ct->ncand, k0, n);
    return *n ? hk_body_of(w, ct->cand[*k0]) : 0;
}

/* ---- step 1: the broad phase ---------------------------------------------- */

/* The largest distance (in any one coordinate) by which x lies outside the
 * boxes: how far it may move, in its largest coordinate, before it could
 * enter one (negative inside one). */
static double box_gap(const double *lo, const double *hi, int n, const double x[3])
{
    double gap = INFINITY;
    for (int c = 0; c < n; c++) {
        double g = -INFINITY;
        for (int k = 0; k < 3; k++) g = g_max(g, g_max(lo[3 * c + k] - x[k], x[k] - hi[3 * c + k]));
        gap = g_min(gap, g);
    }
    return gap;
}

/* Whether a particle at box_gap `gap` [m] moving at speed v [m/s] is a candidate of a step of dt [s] under gravity g
 * [m/s^2]: it may reach a collider's box within the step (twice what it may move, for the substeps' safety net).
 * The one verdict of the broad phase, recorded in its slack (-1): written as "not surely out of reach", so that a
 * NaN or inf (a blown-up state, found by the next check) makes a candidate, never a particle both left out of the
 * count and taken by the fill. */
static inline int broad_candidate(double gap, double v, double dt, double g)
{
    return !(gap > 2 * (v * dt + g * dt * dt));
}

/* What the tasks of the broad phase share: one span [s0, s0 + sn) of particles. */
typedef struct begin_pass {
    hk_world *w;
    struct hk_contact *ct;
    const double *lo, *hi, dt, g;
    int *count, s0, sn, total, failed;
} begin_pass;

static void begin_task(const hk_team *tm, void *ctx)
{
    begin_pass *bp = ctx;
    hk_world *w = bp->w;
    struct hk_contact *ct = bp->ct;
    const hk_particles *p = &w->p;
    const double dt = bp->dt, g = bp->g;
    const int t = tm->t, T = tm->T;
    int *count = bp->count;
    int g0, n, b = 0, mine = 0;
    hk_team_range(tm, bp->s0, bp->sn, &g0, &n);
    if (n) b = hk_body_of(w, g0);
    for (int i = g0; i < g0 + n; i++) {
        double x[3];
        position(w, i, &b, x);
        ct->q0[0][i] = p->qx[i], ct->q0[1][i] = p->qy[i], ct->q0[2][i] = p->qz[i];
        if (p->inv_mass[i] == 0) { /* pinned or driven: never moved by a contact */
            ct->slack[i] = (hk_real)INFINITY;
            ct->anchor[3][i] = -1;
            continue;
        }
        const double v = sqrt((double)p->vx[i] * p->vx[i] + (double)p->vy[i] * p->vy[i] + (double)p->vz[i] * p->vz[i]);
        const double gap = box_gap(bp->lo, bp->hi, ct->ncol, x);
        if (broad_candidate(gap, v, dt, g)) {
            ct->slack[i] = -1;
            mine++;
        } else { /* rounded down, so that the check at the step's end errs on the safe side (gap > 0 here) */
            ct->slack[i] = (hk_real)(gap * (1 - 1e-6));
            HK_ASSERT(ct->slack[i] >= 0);
            ct->anchor[3][i] = -1; /* touches nothing this step: its friction lets go */
        }
    }
    count[t + 1] = mine;
    hk_team_barrier(tm);
    if (t == 0) {
        count[0] = bp->total;
        for (int k = 1; k <= T; k++) count[k] += count[k - 1];
        if (ensure_candidates(w, ct, count[T]) != 0) bp->failed = 1;
    }
    hk_team_barrier(tm);
    if (!bp->failed)
        for (int i = g0, at = count[t]; i < g0 + n; i++)
            if (ct->slack[i] < 0) { /* the record of broad_candidate's verdict: exactly the ones counted */
                HK_ASSERT(at < count[t + 1]);
                ct->cand[at++] = i;
            }
    if (t == 0) bp->total = count[T];
}

int hk_colliders_begin(hk_world *w, struct hk_contact *ct)
{
    const int nc = ct->ncol;
    double *lo = malloc(6 * (size_t)nc * sizeof *lo), *hi = lo + 3 * (size_t)nc;
    const int team = hk_world_team(w);
    int *count = malloc(((size_t)team + 1) * sizeof *count);
    if (!lo || !count) {
        free(lo);
        free(count);
        return hk_fail_memory(w, "out of memory for the contact broad phase");
    }
    for (int c = 0; c < nc; c++)
        hk_collider_world_box(&ct->col[c], ct->t0, ct->t0 + ct->dt, ct->col[c].def.thickness, lo + 3 * c, hi + 3 * c);
    const double g = sqrt(w->def.gravity.x * w->def.gravity.x + w->def.gravity.y * w->def.gravity.y +
                          w->def.gravity.z * w->def.gravity.z);
    begin_pass bp = {w, ct, lo, hi, ct->dt, g, count, 0, 0, 0, 0};
    int all[2];
    const int *span, spans = hk_world_spans(w, all, &span);
    for (int s = 0; s < spans && !bp.failed; s++) {
        bp.s0 = span[2 * s], bp.sn = span[2 * s + 1] - bp.s0;
        hk_team_run(w, hk_pairs_team(w, bp.sn), begin_task, &bp);
    }
    free(lo);
    free(count);
    if (bp.failed) return -1;
    ct->ncand = bp.total;
    return 0;
}

/* ---- step 3 and 4: the safety net ------------------------------------------- */

/* Where the layer's spring, had it acted, would have stopped a particle of
 * mass m [kg] meeting the collider at normal speed vn [m/s] (< 0: into
 * it): its distance from the surface at the undamped spring's turning
 * point, thickness + vn sqrt(m / k) (the kinetic energy of the normal
 * motion, m vn^2 / 2, stored in the spring), and at least the fraction
 * HK_CONTACT_LAND of the thickness out [m]. */
static double landing_gap(const hk_collider_def *d, double m, double vn)
{
    const double depth = hk_soft_stop_depth(d->stiffness, m, vn);
    return d->thickness - fmin(depth, (1 - HK_CONTACT_LAND) * d->thickness);
}

/* Puts a particle of mass m [kg], which moved from x0 to x1 (world, [m])
 * over [t0, t1] and now moves at v, back outside every collider it
 * entered or is inside of (poses P0, P1). gap0 is its distance from the
 * colliders at t0 (a lower bound; at least a collider's thickness: it
 * started outside that one's layer, and no contact force acted on it):
 * then it lands where the layer's spring would have stopped it
 * (landing_gap), and is put there too if it only came into the layer,
 * deeper than that; else it lands a hundredth of the thickness out.
 * Returns 1 if it moved it, with the new place in x1 and velocity in v. */
static int put_back(const struct hk_contact *ct, const hk_pose *P0, const hk_pose *P1, double m, double gap0,
                    const double x0[3], double x1[3], double v[3])
{
    int moved = 0;
    for (int c = 0; c < ct->ncol; c++) {
        const hk_collider *col = &ct->col[c];
        const double th = col->def.thickness;
        double p0[3], p1[3], n[3], q[3], target[3], phi = 0, nw[3], vs[3], vr[3];
        hk_pose_to_local(&P0[c], x0, p0);
        hk_pose_to_local(&P1[c], x1, p1);
        const double s = hk_collider_enters(col, p0, p1, n);
        if (s < 0 && !(hk_collider_nearest(col, p1, th, q, n, &phi) && (phi < 0 || gap0 >= th))) continue;
        /* the normal speed into the collider where the particle is now */
        g_rot(P1[c].R, n, nw);
        hk_pose_velocity(&P1[c], x1, vs);
        g_sub(v, vs, vr);
        const double vn0 = g_dot(vr, nw);
        if (s < 0 && phi >= 0 && !(vn0 < 0)) continue; /* in the layer, on its way out */
        /* met unseen (from outside the layer): where the spring would have stopped it; else pushed through a
         * layer that acted: just outside */
        const double land = vn0 < 0 && gap0 >= th ? landing_gap(&col->def, m, vn0) : HK_CONTACT_LAND * th;
        if (s >= 0) { /* onto the plane of the surface it entered through, land outside */
            double h[3], hp[3];
            for (int k = 0; k < 3; k++) h[k] = p0[k] + s * (p1[k] - p0[k]);
            double back = land;
            for (int k = 0; k < 3; k++) back += (h[k] - p1[k]) * n[k];
            for (int k = 0; k < 3; k++) target[k] = p1[k] + back * n[k], hp[k] = h[k] + land * n[k];
            double n2[3];
            if (hk_collider_enters(col, hp, target, n2) >= 0) memcpy(target, hp, sizeof hp); /* a concave corner */
        } else if (phi < land) { /* inside, or in the layer deeper than its spring would have let it come */
            for (int k = 0; k < 3; k++) target[k] = p1[k] + (land - phi) * n[k];
        } else {
            continue;
        }
        hk_pose_to_world(&P1[c], target, x1);
        hk_pose_velocity(&P1[c], x1, vs);
        g_sub(v, vs, vr);
        const double vn = g_dot(vr, nw);
        if (vn < 0) { /* the normal velocity into the collider goes; friction takes tangential velocity with it */
            double vt[3];
            for (int k = 0; k < 3; k++) vt[k] = vr[k] - vn * nw[k];
            const double st = g_norm(vt), mu = col->def.friction;
            const double cut = st > 0 ? fmin(1, mu * -vn / st) : 0;
            for (int k = 0; k < 3; k++) v[k] -= vn * nw[k] + cut * vt[k];
        }
        moved = 1;
    }
    return moved;
}

/* Writes a moved particle's place and velocity back (and the position-Verlet
 * history, prev = q - v h, when kept). */
static void write_back(hk_world *w, const hk_body *bd, int i, const double x[3], const double v[3],
                       hk_real *const prev[3])
{
    hk_particles *p = &w->p;
    hk_particle_place(w, bd, i, x);
    p->vx[i] = (hk_real)v[0], p->vy[i] = (hk_real)v[1], p->vz[i] = (hk_real)v[2];
    if (prev[0]) {
        const hk_real h = (hk_real)w->h, *q[3] = {p->qx, p->qy, p->qz}, *vel[3] = {p->vx, p->vy, p->vz};
        for (int c = 0; c < 3; c++) prev[c][i] = q[c][i] - vel[c][i] * h;
    }
}

/* The colliders' poses at t into P (ct->ncol of them). */
static void poses(const struct hk_contact *ct, double t, hk_pose *P)
{
    for (int c = 0; c < ct->ncol; c++) hk_collider_pose(&ct->col[c], t, &P[c]);
}

/* What the tasks of a pass over the candidates share. */
typedef struct cand_pass {
    hk_world *w;
    struct hk_contact *ct;
    const hk_pose *P;     /* the colliders' poses (the safety net: at t0 then t1) */
    hk_real *const *prev; /* the safety net's previous places */
    double h;             /* the substep [s] (the force) */
    int first;            /* the force: the substep's first evaluation */
    _Atomic int moved;    /* the safety net: particles put back */
} cand_pass;

/* The candidates' places at the substep's start. */
static void start_task(const hk_team *tm, void *ctx)
{
    const cand_pass *cp = ctx;
    int k0, n, b = candidate_share(tm, cp->w, cp->ct, &k0, &n);
    for (int k = k0; k < k0 + n; k++) position(cp->w, cp->ct->cand[k], &b, cp->ct->x0 + 3 * (size_t)k);
}

void hk_colliders_substep_begin(hk_world *w, struct hk_contact *ct)
{
    if (ct->ncand == 0) return;
    ct->gap_fresh = 0; /* until this substep's first force evaluation */
    ct->drift = 0;
    for (int c = 0; c < ct->ncol; c++) { /* the frame's motion, and its turn at the farthest point near the shape */
        const hk_collider_def *d = &ct->col[c].def;
        const hk_vec3 v = d->velocity, wv = d->angular_velocity;
        const double speed = sqrt(v.x * v.x + v.y * v.y + v.z * v.z) +
                             sqrt(wv.x * wv.x + wv.y * wv.y + wv.z * wv.z) * (ct->col[c].reach + d->thickness);
        ct->drift = fmax(ct->drift, speed * w->h);
    }
    cand_pass cp = {w, ct, NULL, NULL, 0, 0, 0};
    hk_team_run(w, hk_pairs_team(w, ct->ncand), start_task, &cp);
}

/* The swept test of the task's share of the candidates; those put back counted in moved. */
static void substep_end_task(const hk_team *tm, void *ctx)
{
    cand_pass *cp = ctx;
    hk_world *w = cp->w;
    const struct hk_contact *ct = cp->ct;
    const hk_particles *p = &w->p;
    const hk_pose *P = cp->P;
    int moved = 0, k0, n, b = candidate_share(tm, w, ct, &k0, &n);
    for (int k = k0; k < k0 + n; k++) {
        const int i = ct->cand[k];
        double x1[3], v[3] = {p->vx[i], p->vy[i], p->vz[i]};
        const hk_body *bd = position(w, i, &b, x1);
        const double *x0 = ct->x0 + 3 * (size_t)k;
        /* closer to no collider than it moved (with the colliders' own motion), less half the thickest layer: it
         * neither entered one nor came more than half a layer into one it started outside of */
        const double gap0 = ct->gap_fresh ? ct->gap[k] : 0;
        if (ct->gap_fresh) {
            const double d[3] = {x1[0] - x0[0], x1[1] - x0[1], x1[2] - x0[2]};
            if (g_norm(d) + ct->drift < gap0 - 0.5 * ct->thickest) continue;
        }
        if (!put_back(ct, P, P + ct->ncol, p->mass[i], gap0, x0, x1, v)) continue;
        write_back(w, bd, i, x1, v, cp->prev);
        moved++;
    }
    atomic_fetch_add(&cp->moved, moved); /* a count: the same in any order */
}

int hk_colliders_substep_end(hk_world *w, struct hk_contact *ct, double t0, double t1, hk_real *px, hk_real *py,
                             hk_real *pz)
{
    if (ct->ncand == 0) return 0;
    hk_pose *P = malloc(2 * (size_t)ct->ncol * sizeof *P);
    if (!P) {
        w->step_failed = hk_fail_memory(w, "out of memory for the contact safety net");
        return 0;
    }
    poses(ct, t0, P);
    poses(ct, t1, P + ct->ncol);
    hk_real *const prev[3] = {px, py, pz};
    cand_pass cp = {w, ct, P, prev, 0, 0, 0};
    hk_team_run(w, hk_pairs_team(w, ct->ncand), substep_end_task, &cp);
    const int moved = atomic_load(&cp.moved);
    free(P);
    ct->caught += moved;
    return moved;
}

/* What the tasks of the check at the step's end share: one span [s0, s0 + sn) of particles. */
typedef struct end_pass {
    cand_pass c;
    int s0, sn;
    _Atomic int rechecked;
} end_pass;

/* The task's share of the span: each particle that moved past its slack swept over the step. */
static void end_step_task(const hk_team *tm, void *ctx)
{
    end_pass *ep = ctx;
    hk_world *w = ep->c.w;
    const struct hk_contact *ct = ep->c.ct;
    const hk_particles *p = &w->p;
    const hk_pose *P = ep->c.P;
    int g0, n, b = 0, moved = 0, rechecked = 0;
    hk_team_range(tm, ep->s0, ep->sn, &g0, &n);
    if (n) b = hk_body_of(w, g0);
    for (int i = g0; i < g0 + n; i++) {
        const hk_real slack = ct->slack[i];
        if (!(slack >= 0)) continue; /* a candidate: the substeps' safety net saw it */
        const double d = g_max(g_max(fabs((double)p->qx[i] - ct->q0[0][i]), fabs((double)p->qy[i] - ct->q0[1][i])),
                               fabs((double)p->qz[i] - ct->q0[2][i]));
        if (d < slack) continue;
        rechecked++;
        double x0[3], x1[3], v[3] = {p->vx[i], p->vy[i], p->vz[i]};
        const hk_body *bd = position(w, i, &b, x1);
        /* the place at the step's start as hk_particle_position forms it: origin + (r + q0) */
        x0[0] = bd->origin[0] + ((double)p->rx[i] + (double)ct->q0[0][i]);
        x0[1] = bd->origin[1] + ((double)p->ry[i] + (double)ct->q0[1][i]);
        x0[2] = bd->origin[2] + ((double)p->rz[i] + (double)ct->q0[2][i]);
        /* no candidate: it started outside every collider's layer */
        if (!put_back(ct, P, P + ct->ncol, p->mass[i], INFINITY, x0, x1, v)) continue;
        write_back(w, bd, i, x1, v, ep->c.prev);
        moved++;
    }
    atomic_fetch_add(&ep->c.moved, moved); /* counts: the same in any order */
    atomic_fetch_add(&ep->rechecked, rechecked);
}

int hk_colliders_end_step(hk_world *w, struct hk_contact *ct, hk_real *px, hk_real *py, hk_real *pz)
{
    if (ct->ncol == 0 || !ct->slab) return 0;
    hk_pose *P = malloc(2 * (size_t)ct->ncol * sizeof *P);
    if (!P) {
        w->step_failed = hk_fail_memory(w, "out of memory for the contact safety net");
        return 0;
    }
    poses(ct, ct->t0, P);
    poses(ct, ct->t0 + ct->dt, P + ct->ncol);
    hk_real *const prev[3] = {px, py, pz};
    end_pass ep = {{w, ct, P, prev, 0, 0, 0}, 0, 0, 0};
    int all[2];
    const int *span, spans = hk_world_spans(w, all, &span);
    for (int s = 0; s < spans; s++) {
        ep.s0 = span[2 * s], ep.sn = span[2 * s + 1] - ep.s0;
        hk_team_run(w, hk_pairs_team(w, ep.sn), end_step_task, &ep);
    }
    const int moved = atomic_load(&ep.c.moved), rechecked = atomic_load(&ep.rechecked);
    free(P);
    ct->caught += moved;
    ct->rechecked += rechecked;
    return moved;
}

/* ---- step 2: the force ------------------------------------------------------- */

/* The force of every collider on particle i of mass m at x with velocity v
 * (hooke.h: hk_collider_def), each collider where it is at the evaluation's
 * time (poses P), summed in collider order, and its blocks and the rate R
 * of its moving colliders; returns 1 if any collider touches it. h: the
 * substep [s]; first: the substep's first evaluation, which drags, places
 * and releases the particle's friction anchor (hk_contact_anchors). *gap
 * becomes at most its smallest distance from a collider (a lower bound:
 * the thickness where none is nearer than that). */
static int particle_force(struct hk_contact *ct, const hk_pose *P, int i, int first, double m, double h,
                          const double x[3], const double v[3], double f[3], double K[6], double D[6], double R[3],
                          double *gap)
{
    int touched = 0, held = -1; /* the collider whose anchor holds it at the substep's start */
    for (int c = 0; c < ct->ncol; c++) {
        const hk_collider *col = &ct->col[c];
        const hk_collider_def *d = &col->def;
        double p[3], q[3], n[3], phi;
        hk_pose_to_local(&P[c], x, p);
        if (!hk_collider_nearest(col, p, d->thickness, q, n, &phi)) phi = d->thickness; /* at least that far */
        *gap = g_min(*gap, phi);
        if (!(phi < d->thickness)) continue;
        double nw[3], qw[3], vs[3], vr[3];
        g_rot(P[c].R, n, nw);
        hk_pose_to_world(&P[c], q, qw);
        hk_pose_velocity(&P[c], qw, vs);
        g_sub(v, vs, vr);
        const double vn = g_dot(vr, nw);
        const hk_soft law = hk_soft_make(d->stiffness, d->damping_ratio, m);
        const double fn = hk_soft_force(law, d->thickness - phi, vn);
        if (!(fn > 0)) continue; /* moving away faster than the spring pushes: no pull */
        touched = 1;
        const int moves = hk_pose_moves(&P[c]); /* its blocks apart for its rate; a still one's rate is 0 */
        double Kc[6] = {0}, Dc[6] = {0}, *Kt = moves ? Kc : K, *Dt = moves ? Dc : D;
        for (int k = 0; k < 3; k++) f[k] += fn * nw[k];
        g_add_outer(Kt, law.k, nw);
        g_add_outer(Dt, law.c, nw);
        if (d->friction > 0) {
            hk_friction_contact fc = {d->friction,       fn, m, h, {nw[0], nw[1], nw[2]}, {0}, {x[0], x[1], x[2]},
                                      {p[0], p[1], p[2]}};
            for (int k = 0; k < 3; k++) fc.vt[k] = vr[k] - vn * nw[k];
            hk_friction_add(ct->anchor, i, c, &P[c], first, &held, &fc, f, Kt, Dt);
        }
        if (moves) hk_pose_add_blocks(&P[c], x, Kc, Dc, K, D, R);
    }
    if (first && held < 0) ct->anchor[3][i] = -1; /* touches no collider with friction: lets go */
    return touched;
}

/* Each of the task's share of the candidates: its force, its blocks and (the substep's first) its gap. */
static void forces_task(const hk_team *tm, void *ctx)
{
    const cand_pass *cp = ctx;
    const hk_world *w = cp->w;
    struct hk_contact *ct = cp->ct;
    const hk_particles *p = &w->p;
    int k0, n, b = candidate_share(tm, w, ct, &k0, &n);
    for (int k = k0; k < k0 + n; k++) {
        const int i = ct->cand[k];
        double x[3], f[3] = {0, 0, 0}, K[6] = {0}, D[6] = {0}, R[3] = {0, 0, 0}, gap = INFINITY;
        const double v[3] = {p->vx[i], p->vy[i], p->vz[i]};
        position(w, i, &b, x);
        particle_force(ct, cp->P, i, cp->first, p->mass[i], cp->h, x, v, f, K, D, R, &gap);
        if (cp->first) ct->gap[k] = gap;
        for (int c = 0; c < 3; c++) ct->f[c][i] = (hk_real)f[c], ct->rec[k].R[c] = (hk_real)R[c];
        for (int e = 0; e < 6; e++) ct->rec[k].K[e] = (hk_real)K[e], ct->rec[k].D[e] = (hk_real)D[e];
    }
}

void hk_colliders_forces(hk_world *w, struct hk_contact *ct)
{
    if (ct->ncand == 0) return;
    for (int k = 0; HK_CHECKS && k < ct->ncand; k++) /* the candidates: ascending particles of the world */
        HK_ASSERT(ct->cand[k] >= 0 && ct->cand[k] < w->p.count && (k == 0 || ct->cand[k - 1] < ct->cand[k]));
    hk_pose P[64], *pose = ct->ncol <= 64 ? P : malloc((size_t)ct->ncol * sizeof *pose);
    if (!pose) {
        w->step_failed = hk_fail_memory(w, "out of memory for the contact forces");
        return;
    }
    poses(ct, ct->t_eval, pose);
    /* the substep's first evaluation is at its start (every integrator's is): the gaps of the safety net */
    cand_pass cp = {w, ct, pose, NULL, w->h, !ct->gap_fresh, 0};
    ct->gap_fresh = 1;
    hk_team_run(w, hk_pairs_team(w, ct->ncand), forces_task, &cp);
    if (pose != P) free(pose);
    ct->nactive = 0;
    for (int k = 0; k < ct->ncand; k++) {
        const hk_contact_rec *r = &ct->rec[k];
        if (r->K[0] != 0 || r->K[3] != 0 || r->K[5] != 0) ct->active[ct->nactive++] = k;
    }
}

int hk_colliders_survey(const hk_world *w, const struct hk_contact *ct, int32_t *count, hk_contact_survey *out,
                        double *gap)
{
    hk_pose P[64], *pose = ct->ncol <= 64 ? P : malloc((size_t)ct->ncol * sizeof *pose);
    if (!pose) return -1;
    poses(ct, w->time, pose);
    for (int i = 0, b = 0; i < w->p.count && ct->ncol > 0; i++) { /* serially, in index order */
        double x[3];
        position(w, i, &b, x);
        int n = 0, in = 0;
        for (int c = 0; c < ct->ncol; c++) {
            double p[3], q[3], nrm[3], phi;
            const double th = ct->col[c].def.thickness;
            hk_pose_to_local(&pose[c], x, p);
            if (!hk_collider_nearest(&ct->col[c], p, th, q, nrm, &phi) || !(phi < th)) continue;
            n++;
            in |= phi < 0;
            *gap = g_min(*gap, phi);
        }
        if (count) count[i] += n;
        out->contacts += n;
        out->inside += in;
    }
    if (pose != P) free(pose);
    return 0;
}
