/* response.c — colliders against particles: the step's candidates, the contact force and its blocks, the safety net. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "response.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

void hk_contact_free(hk_world *w)
{
    struct hk_contact *ct = w->contact;
    if (!ct) return;
    for (int i = 0; i < ct->ncol; i++) hk_collider_free(&ct->col[i]);
    free(ct->col);
    free(ct->slab);
    free(ct->cand);
    free(ct->x0);
    free(ct->rec);
    free(ct->active);
    free(ct->gap);
    hk_pairs_free(ct->pairs);
    free(ct);
    w->contact = NULL;
}

struct hk_contact *hk_contact_get(hk_world *w)
{
    if (!w->contact) {
        w->contact = calloc(1, sizeof *w->contact);
        if (!w->contact) {
            hk_fail_memory(w, "out of memory for the contact state");
            return NULL;
        }
        w->contact->checked_families = -1;
    }
    return w->contact;
}

/* ---- the world's colliders ---------------------------------------------------- */

int hk_world_add_collider(hk_world *w, const hk_collider_def *def)
{
    if (!def) return hk_fail(w, "collider: no definition given");
    struct hk_contact *ct = hk_contact_get(w);
    if (!ct) return hk_failed(w);
    if (ct->ncol == ct->capcol) {
        const int cap = ct->capcol ? 2 * ct->capcol : 4;
        hk_collider *col = realloc(ct->col, (size_t)cap * sizeof *col);
        if (!col) return hk_fail_memory(w, "out of memory for a collider");
        ct->col = col;
        ct->capcol = cap;
    }
    char why[512];
    const int rc = hk_collider_init(&ct->col[ct->ncol], def, why, sizeof why);
    if (rc == HK_ERR_MEMORY) return hk_fail_memory(w, "%s", why);
    if (rc != HK_OK) return hk_fail(w, "%s", why);
    ct->ncol++;
    ct->checked_families = -1;
    if (hk_colliders_check(w) >= 0) { /* thicker than a spring of the bodies so far: taken back */
        hk_collider_free(&ct->col[--ct->ncol]);
        return hk_failed(w);
    }
    ct->thickest = fmax(ct->thickest, def->thickness);
    return ct->ncol - 1;
}

int hk_world_collider_count(const hk_world *w) { return w && w->contact ? w->contact->ncol : 0; }

int hk_world_collider(const hk_world *w, int i, hk_collider_def *out)
{
    if (!w || !out || i < 0 || i >= hk_world_collider_count(w)) return HK_ERR_INVALID;
    *out = w->contact->col[i].def;
    return HK_OK;
}

int hk_colliders(const hk_world *w, const hk_collider **out)
{
    *out = w->contact ? w->contact->col : NULL;
    return hk_world_collider_count(w);
}

double hk_smallest_rest_length(const hk_world *w)
{
    double best = INFINITY;
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        if (f->count == 0) continue;
        if (f->kind == HK_FAMILY_LIST && f->rest_list)
            for (int64_t s = 0; s < f->count; s++) best = fmin(best, (double)f->rest_list[s]);
        else
            best = fmin(best, (double)f->rest);
    }
    return best;
}

int hk_colliders_check(hk_world *w)
{
    struct hk_contact *ct = w->contact;
    if (!ct || ct->checked_families == w->family_count) return -1;
    const double rest = hk_smallest_rest_length(w);
    const double most =
        ct->pairs && ct->pairs->def.model == HK_CONTACT_PARTICLES ? hk_particle_radius_limit(w, rest) : 0;
    if (ct->pairs && ct->pairs->def.model == HK_CONTACT_PARTICLES && (hk_real)ct->pairs->def.radius > (hk_real)most) {
        hk_fail(w,
                "contact: radius %g m is larger than the smallest spring rest length times the bodies' stencil reach, "
                "%g m (a particle would meet its own body's particles next to its neighbours at rest): give a radius "
                "of at most %g m",
                ct->pairs->def.radius, most, most);
        return ct->ncol;
    }
    if (ct->pairs && ct->pairs->def.model == HK_CONTACT_TRIANGLES &&
        (hk_real)ct->pairs->def.thickness > (hk_real)rest) {
        hk_fail(w,
                "contact: thickness %g m is larger than the smallest spring rest length %g m (a particle would meet "
                "its own body's triangles through its neighbours): give a thickness of at most %g m",
                ct->pairs->def.thickness, rest, rest);
        return ct->ncol; /* past the colliders: the contact between bodies */
    }
    for (int i = 0; i < ct->ncol; i++) /* in the springs' precision: a thickness of exactly the spacing is fine */
        if ((hk_real)ct->col[i].def.thickness > (hk_real)rest) {
            hk_fail(w,
                    "collider %d: thickness %g m is larger than the smallest spring rest length %g m (a particle "
                    "would meet the collider through its neighbours): give a thickness of at most %g m",
                    i, ct->col[i].def.thickness, rest, rest);
            return i;
        }
    ct->checked_families = w->family_count;
    return -1;
}

/* The per-particle arrays for the world's particle capacity (zero forces). */
static int ensure_particles(hk_world *w, struct hk_contact *ct)
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

int hk_contact_anchors(const hk_world *w, hk_real *out[4])
{
    const struct hk_contact *ct = w->contact;
    for (int c = 0; c < 4; c++) out[c] = NULL;
    if (!ct || ct->ncol == 0 || !ct->slab || ct->cap < w->p.count) return 0;
    for (int c = 0; c < 4; c++) out[c] = ct->anchor[c];
    return 1;
}

int hk_contact_keep_anchors(hk_world *w)
{
    struct hk_contact *ct = w->contact;
    return ct && ct->ncol > 0 ? ensure_particles(w, ct) : 0;
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
        if (gap <= 2 * (v * dt + g * dt * dt)) {
            ct->slack[i] = -1;
            mine++;
        } else { /* rounded down, so that the check at the step's end errs on the safe side */
            ct->slack[i] = (hk_real)(gap * (1 - 1e-6));
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
            if (ct->slack[i] < 0) ct->cand[at++] = i;
    if (t == 0) bp->total = count[T];
}

static int colliders_begin(hk_world *w, struct hk_contact *ct)
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

static void colliders_substep_begin(hk_world *w, struct hk_contact *ct)
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

static int colliders_substep_end(hk_world *w, struct hk_contact *ct, double t0, double t1, hk_real *px, hk_real *py,
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

static int colliders_end_step(hk_world *w, struct hk_contact *ct, hk_real *px, hk_real *py, hk_real *pz)
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

static void colliders_forces(hk_world *w, struct hk_contact *ct)
{
    if (ct->ncand == 0) return;
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

void hk_contact_force_arrays(const hk_world *w, const hk_real *out[3])
{
    const struct hk_contact *ct = w->contact;
    const int on = ct && ct->any_force;
    for (int c = 0; c < 3; c++) out[c] = on ? ct->f[c] : NULL;
}

hk_contact_survey hk_contact_counts(const hk_world *w, int32_t *count)
{
    const struct hk_contact *ct = w->contact;
    hk_contact_survey out = {0, NAN, 0};
    if (count)
        for (int i = 0; i < w->p.count; i++) count[i] = 0;
    if (!ct) return out;
    double gap = INFINITY;
    const hk_pairs *pr = hk_pairs_of(w);
    if (pr) { /* the pairs of the last step's candidates that touch now */
        hk_pairs_survey(w, pr, count, &out.contacts, &gap);
        out.inside = pr->left;
    }
    hk_pose P[64], *pose = ct->ncol <= 64 ? P : malloc((size_t)ct->ncol * sizeof *pose);
    if (!pose) return out;
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
            gap = g_min(gap, phi);
        }
        if (count) count[i] += n;
        out.contacts += n;
        out.inside += in;
    }
    if (pose != P) free(pose);
    out.min_gap = gap < INFINITY ? gap : NAN;
    return out;
}

/* ---- the phases, colliders and pairs ----------------------------------------------------------------------- */

/* The wall clock [s], for the phases' costs. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

hk_contact_profile hk_contact_profile_of(const hk_world *w)
{
    const hk_contact_profile none = {0};
    return w->contact ? w->contact->prof : none;
}

static int begin_step(hk_world *w, struct hk_contact *ct)
{
    if (hk_colliders_check(w) >= 0 || ensure_particles(w, ct) != 0) return -1;
    for (int k = 0; k < ct->ncand; k++) /* the last step's forces */
        for (int c = 0; c < 3; c++) ct->f[c][ct->cand[k]] = 0;
    hk_pairs *pr = hk_pairs_of(w);
    for (int j = 0; pr && j < pr->ninv; j++)
        for (int c = 0; c < 3; c++) ct->f[c][pr->inv[j]] = 0;
    ct->ncand = ct->nactive = 0;
    ct->any_force = ct->in_system = ct->pairs_touch = 0;
    ct->t0 = ct->t_sub = ct->t_eval = w->time;
    ct->dt = w->integrator.dt;
    if (ct->ncol > 0 && colliders_begin(w, ct) != 0) return -1;
    return pr ? hk_pairs_begin_step(w, pr) : 0;
}

int hk_contact_begin_step(hk_world *w)
{
    struct hk_contact *ct = w->contact;
    if (!ct || (ct->ncol == 0 && !ct->pairs)) return 0;
    const double t = now();
    const int r = begin_step(w, ct);
    ct->prof.broad += now() - t;
    ct->prof.steps++;
    return r;
}

void hk_contact_substep_begin(hk_world *w, double t)
{
    struct hk_contact *ct = w->contact;
    if (!ct) return;
    ct->t_sub = ct->t_eval = t;
    colliders_substep_begin(w, ct);
    if (hk_pairs_of(w)) hk_pairs_substep_begin(w, hk_pairs_of(w));
}

int hk_contact_substep_end(hk_world *w, double t0, double t1, hk_real *px, hk_real *py, hk_real *pz)
{
    struct hk_contact *ct = w->contact;
    if (!ct) return 0;
    hk_real *const prev[3] = {px, py, pz};
    const double t = now();
    /* bodies apart first; then the colliders, which nothing moves */
    const int moved = hk_pairs_of(w) ? hk_pairs_substep_end(w, hk_pairs_of(w), t1 - t0, prev) : 0;
    const int r = moved + colliders_substep_end(w, ct, t0, t1, px, py, pz);
    ct->prof.safety += now() - t;
    return r;
}

int hk_contact_end_step(hk_world *w, hk_real *px, hk_real *py, hk_real *pz)
{
    struct hk_contact *ct = w->contact;
    if (!ct) return 0;
    hk_real *const prev[3] = {px, py, pz};
    hk_pairs *pr = hk_pairs_of(w);
    const double t = now(); /* the search again for what outran the candidates, and its sweep: broad */
    const int moved = pr && hk_pairs_end_step(w, pr) ? hk_pairs_substep_end(w, pr, pr->dt, prev) : 0;
    const int r = moved + colliders_end_step(w, ct, px, py, pz);
    ct->prof.broad += now() - t;
    return r;
}

void hk_contact_at(hk_world *w, double s)
{
    if (w->contact) w->contact->t_eval = w->contact->t_sub + s;
}

void hk_contact_forces(hk_world *w)
{
    struct hk_contact *ct = w->contact;
    if (!ct) return;
    const double t = now();
    hk_pairs *pr = hk_pairs_of(w);
    for (int j = 0; pr && j < pr->ninv; j++) /* the pairs add to what the colliders (or nothing) put there */
        for (int c = 0; c < 3; c++) ct->f[c][pr->inv[j]] = 0;
    colliders_forces(w, ct);
    if (pr && pr->npair > 0) {
        hk_pairs_forces(w, pr, w->h, ct->f);
        ct->pairs_touch = hk_pairs_touching(pr);
    } else if (pr)
        pr->non = 0;
    if (pr) /* a substep's first evaluation: the anchors its touching pairs placed are the ones held */
        hk_pairs_anchors_commit(w, pr, hk_pairs_team(w, pr->non));
    ct->in_system = ct->nactive > 0 || ct->pairs_touch;
    ct->any_force = ct->in_system;
    ct->prof.forces += now() - t;
}

hk_pairs *hk_pairs_of(const hk_world *w)
{
    if (!w->contact || !w->contact->pairs) return NULL;
    return w->part && w->part->rank != 0 ? NULL : w->contact->pairs; /* rank 0 computes the bodies that take part */
}
