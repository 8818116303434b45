/* pair_impact.c — the pairs' safety net: continuous tests over a substep, inelastic impulses, held particles. */
/* SPDX-License-Identifier: MIT */
#include "pairs.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "ccd.h"
#include "geometry.h"
#include "team.h"

/*
 * After a substep every particle of a pair moved from x0 to x1, at the
 * substep's mean velocity u = (x1 - x0) / h. Each pair is swept over its
 * motion (ccd.h); the pairs that meet get, one after the other in pair
 * order, the inelastic impulse that leaves them apart by a tenth of the
 * thickness along the normal they meet at (turned to the side they
 * started the substep on), with Coulomb friction (Bridson, Fedkiw and
 * Anderson 2002), and the test runs again, up to HK_IMPACT_PASSES times.
 * Pairs that still meet then have their particles held where the substep
 * started, each zone of pairs that meet (joined through shared particles)
 * moving on at its held particles' common, mass-weighted, velocity, until
 * no pair meets: the places at the start met nothing, so this ends. The changes to u go into the velocities and
 * the places x1 = x0 + h u. The passes over the pairs are shared out over
 * the team (each pair's test reads only its own particles); the impulses
 * run serially, in pair order: the same bits for any team.
 */
#define HK_IMPACT_PASSES 8
#define HK_IMPACT_APART 0.1 /* of the thickness */

/* Pair k's corners at the start and at the end of the substep, by the current velocities. */
static void ends(const hk_pairs *pr, const int32_t *at, int64_t k, double h, double v0[4][3], double v1[4][3])
{
    for (int c = 0; c < 4; c++) {
        const int j = at[4 * k + c];
        for (int d = 0; d < 3; d++) {
            v0[c][d] = pr->x0[3 * (int64_t)j + d];
            v1[c][d] = v0[c][d] + h * pr->u[3 * (int64_t)j + d];
        }
    }
}

/* Whether the boxes of the two sides' paths over the substep (the first `split` corners of pair k, the others;
 * each corner's path's box from path, as ends gives its ends) lie more than eps apart along an axis, an axis at a
 * time (most pairs are apart along the first). */
static inline int paths_apart(const hk_pairs *pr, const int32_t *at, int64_t k, int split, double eps)
{
    const double *b[4];
    for (int c = 0; c < 4; c++) b[c] = pr->path + 6 * (int64_t)at[4 * k + c];
    for (int d = 0; d < 3; d++) {
        double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
        for (int c = 0; c < 4; c++) {
            const int sd = c >= split;
            lo[sd] = g_min(lo[sd], b[c][d]);
            hi[sd] = g_max(hi[sd], b[c][3 + d]);
        }
        if (lo[0] > hi[1] + eps || lo[1] > hi[0] + eps) return 1;
    }
    return 0;
}

/* The time pair k meets within the substep, or -1: the boxes of the two sides' paths first (most pairs are
 * apart by more than they moved), then the continuous test. */
static double meets(const hk_pairs *pr, const int32_t *at, int64_t k, double h, double eps)
{
    const int split = pr->pair[k].kind == HK_PAIR_VT ? 1 : 2; /* the first side's corners */
    if (split == 1 ? paths_apart(pr, at, k, 1, eps) : paths_apart(pr, at, k, 2, eps)) return -1;
    double v0[4][3], v1[4][3];
    ends(pr, at, k, h, v0, v1);
    for (int c = 0; c < 4; c++) { /* a particle past its step's bound: only a pair its bounds let meet (pairs.h) */
        const int i = pr->inv[at[4 * k + c]];
        if (hk_pairs_past(pr, i, v0[c]) || hk_pairs_past(pr, i, v1[c])) {
            if (!hk_pairs_in_step(pr, k)) return -1;
            break;
        }
    }
    /* The two sides' planes at the start (a triangle's; the parallel planes of two edges) further apart than the
     * sides moved: each side keeps within its largest corner's motion of its plane, so they cannot meet. */
    double u[3], v[3], n[3], d[3], moved[2] = {0, 0};
    g_sub(v0[split], v0[0], d);
    if (split == 1)
        g_sub(v0[2], v0[1], u), g_sub(v0[3], v0[1], v), g_sub(v0[0], v0[1], d);
    else
        g_sub(v0[1], v0[0], u), g_sub(v0[3], v0[2], v);
    g_cross(u, v, n);
    const double nn = g_norm(n);
    for (int c = 0; c < 4; c++) {
        double m[3];
        g_sub(v1[c], v0[c], m);
        moved[c >= split] = g_max(moved[c >= split], g_norm(m));
    }
    if (nn > 0 && fabs(g_dot(n, d)) > nn * (moved[0] + moved[1] + eps)) return -1;
    return pr->pair[k].kind == HK_PAIR_VT ? hk_ccd_point_triangle(v0, v1, eps) : hk_ccd_edge_edge(v0, v1, eps);
}

/* What the tasks of the swept test share. bounds: the force evaluations' bounds lb hold for these pairs (at the
 * places xr), so that a pair whose bound less both sides' farthest motion from xr over the substep leaves them
 * more than 2 eps apart is left out: it cannot meet (pair_force.c, pair_far's argument). big: the largest
 * coordinate, for the roundings' margin. */
typedef struct sweep_pass {
    const hk_pairs *pr;
    const int32_t *at;
    double h, eps, *hit;
    int bounds;
    double big;
    _Atomic int64_t found;
} sweep_pass;

/* Particles [a, e) of the pairs: the boxes of their paths (path), from their ends as ends gives them, and where the
 * bounds hold the farthest each comes from xr (pm: at an end, the path being straight). */
static void path_range(void *ctx, int64_t a, int64_t e)
{
    sweep_pass *sp = ctx;
    const hk_pairs *pr = sp->pr;
    for (int64_t j = a; j < e; j++) {
        double r0 = 0, r1 = 0;
        for (int d = 0; d < 3; d++) {
            const double x0 = pr->x0[3 * j + d], x1 = x0 + sp->h * pr->u[3 * j + d];
            pr->path[6 * j + d] = g_min(x0, x1), pr->path[6 * j + 3 + d] = g_max(x0, x1);
            if (sp->bounds) {
                const double xr = pr->xr[3 * j + d];
                r0 += (x0 - xr) * (x0 - xr), r1 += (x1 - xr) * (x1 - xr);
            }
        }
        if (sp->bounds) pr->pm[j] = sqrt(g_max(r0, r1));
    }
}

/* Whether pair k is kept apart over the substep by its bound (sweep_pass). */
static inline int kept_apart(const sweep_pass *sp, int64_t k)
{
    const double m = hk_pair_corners_max(sp->pr->pm, sp->at + 4 * k);
    return sp->pr->lb[k] > (2 * m + 2 * sp->eps) * (1 + 1e-9) + 1e-12 * sp->big;
}

static void sweep_range(void *ctx, int64_t a, int64_t e)
{
    sweep_pass *sp = ctx;
    int64_t found = 0;
    for (int64_t k = a; k < e; k++) {
        sp->hit[k] = sp->bounds && kept_apart(sp, k) ? -1 : meets(sp->pr, sp->at, k, sp->h, sp->eps);
        found += sp->hit[k] >= 0;
    }
    atomic_fetch_add(&sp->found, found); /* a count: the same in any order */
}

/* Tests every pair; marks those that meet in hit[], returns their count. */
static int64_t sweep(const hk_world *w, const hk_pairs *pr, const int32_t *at, double h, double eps, double *hit)
{
    double big = 0;
    for (int64_t j = 0; pr->lb_set && j < 3 * (int64_t)pr->ninv; j++) big = g_max(big, fabs(pr->x0[j]));
    sweep_pass sp = {pr, at, h, eps, hit, pr->lb_set, big, 0};
    hk_team_for(w, hk_pairs_team(w, pr->ninv), pr->ninv, path_range, &sp);
    hk_team_for(w, hk_pairs_team(w, pr->npair), pr->npair, sweep_range, &sp);
    return atomic_load(&sp.found);
}

/* The impulse on pair k, which meets at time s of the substep: its relative velocity along the normal there
 * raised to leave it HK_IMPACT_APART of the thickness apart, friction against its tangential velocity. */
static void impulse(const hk_world *w, hk_pairs *pr, const int32_t *at, int64_t k, double s, double h)
{
    const hk_pair *pa = &pr->pair[k];
    const hk_real *im = w->p.inv_mass;
    double v0[4][3], v1[4][3], x[4][3], a[4], n[3], u[3], v[3];
    ends(pr, at, k, h, v0, v1);
    for (int c = 0; c < 4; c++)
        for (int d = 0; d < 3; d++) x[c][d] = v0[c][d] + s * (v1[c][d] - v0[c][d]);
    if (pa->kind == HK_PAIR_VT) { /* the weights and normal where they meet */
        double q[3], wt[3];
        g_closest_on_triangle_w(x[0], x[1], x[2], x[3], q, wt);
        a[0] = 1, a[1] = -wt[0], a[2] = -wt[1], a[3] = -wt[2];
        g_sub(x[2], x[1], u), g_sub(x[3], x[1], v);
    } else {
        double ss, tt;
        g_closest_segments(x[0], x[1], x[2], x[3], &ss, &tt);
        a[0] = 1 - ss, a[1] = ss, a[2] = -(1 - tt), a[3] = -tt;
        g_sub(x[1], x[0], u), g_sub(x[3], x[2], v);
    }
    g_cross(u, v, n);
    if (!(g_normalise(n) > 0)) return; /* a degenerate triangle or parallel edges: the next pass or the hold */
    double vr[3] = {0, 0, 0}, gap0 = 0, inv = 0;
    for (int c = 0; c < 4; c++) {
        const int j = at[4 * k + c];
        for (int d = 0; d < 3; d++) vr[d] += a[c] * pr->u[3 * (int64_t)j + d], gap0 += a[c] * v0[c][d] * n[d];
        inv += a[c] * a[c] * im[pa->p[c]];
    }
    if (!(inv > 0)) return;
    if (gap0 < 0) { /* the normal towards the side the pair was on at the substep's start (it met nothing then) */
        gap0 = -gap0;
        for (int d = 0; d < 3; d++) n[d] = -n[d];
    }
    const double vn = g_dot(vr, n), want = (HK_IMPACT_APART * pr->th - gap0) / h;
    if (vn >= want) return;
    const double J = (want - vn) / inv;
    double vt[3];
    for (int d = 0; d < 3; d++) vt[d] = vr[d] - vn * n[d];
    const double st = g_norm(vt), Jt = st > 0 ? g_min(st / inv, pr->def.friction * J) : 0;
    for (int c = 0; c < 4; c++) {
        const int j = at[4 * k + c];
        const double g = a[c] * im[pa->p[c]];
        for (int d = 0; d < 3; d++) pr->u[3 * (int64_t)j + d] += g * (J * n[d] - (st > 0 ? Jt * vt[d] / st : 0));
    }
}

/* The root of j's zone (union-find over the particles of the pairs, by their places in inv). */
static int zone_of(int *parent, int j)
{
    while (parent[j] != j) j = parent[j] = parent[parent[j]];
    return j;
}

/* Holds the free particles of the pairs that still meet where the substep started (no motion in it), joining
 * each pair's particles into one zone (union-find); returns how many it held now. */
static int hold(const hk_world *w, hk_pairs *pr, const int32_t *at, const double *hit, char *held, int *parent)
{
    int n = 0;
    for (int64_t k = 0; k < pr->npair; k++) {
        if (!(hit[k] >= 0)) continue;
        for (int c = 0; c < 4; c++) {
            const int j = at[4 * k + c], r0 = zone_of(parent, at[4 * k]), r = zone_of(parent, j);
            if (r != r0) parent[r > r0 ? r : r0] = r > r0 ? r0 : r; /* the lower place roots the zone */
            if (held[j] || w->p.inv_mass[pr->pair[k].p[c]] == 0) continue;
            held[j] = 1;
            n++;
            for (int d = 0; d < 3; d++) pr->u[3 * (int64_t)j + d] = 0;
        }
    }
    return n;
}

int hk_pairs_substep_end(hk_world *w, hk_pairs *pr, double h, hk_real *const prev[3])
{
    if (pr->npair == 0 || pr->def.model == HK_CONTACT_PARTICLES) return 0; /* the particle model has no swept test */
    hk_particles *p = &w->p;
    const int32_t *at = pr->at;
    if (hk_pairs_room(&pr->hit, &pr->cap_hit, pr->npair + 1, sizeof *pr->hit) != 0 ||
        hk_pairs_room(&pr->u_start, &pr->cap_u_start, 3 * (int64_t)pr->ninv + 1, sizeof *pr->u_start) != 0 ||
        hk_pairs_room(&pr->held, &pr->cap_held, pr->ninv + 1, sizeof *pr->held) != 0 ||
        hk_pairs_room(&pr->parent, &pr->cap_parent, pr->ninv + 1, sizeof *pr->parent) != 0 ||
        hk_pairs_room(&pr->zone, &pr->cap_zone, 4 * (int64_t)pr->ninv + 4, sizeof *pr->zone) != 0 ||
        hk_pairs_room(&pr->path, &pr->cap_path, 6 * (int64_t)pr->ninv + 1, sizeof *pr->path) != 0 ||
        hk_pairs_room(&pr->pm, &pr->cap_pm, (int64_t)pr->ninv + 1, sizeof *pr->pm) != 0) {
        w->step_failed = hk_fail_memory(w, "out of memory for the contact pairs' safety net");
        return 0;
    }
    double *hit = pr->hit, *u0 = pr->u_start, *zone = pr->zone; /* zone: per zone root, momentum and mass */
    char *held = pr->held;
    int *parent = pr->parent;
    memset(held, 0, (size_t)pr->ninv);
    /* the pairs' particles' mean motion since the pairs were chosen (qa), at the substep's start and at its end,
     * then the farthest any moved beyond it */
    double s0[3] = {0, 0, 0}, s1[3] = {0, 0, 0}, far = 0;
    for (int j = 0, b = 0; j < pr->ninv; j++) { /* the substep's mean velocity */
        double x1[3];
        const int i = pr->inv[j];
        const double *qs = pr->qa + 3 * (int64_t)i, *x0 = pr->x0 + 3 * (int64_t)j;
        while (i >= w->bodies[b].first + w->bodies[b].count) b++; /* its body: inv ascends, the bodies' ranges too */
        hk_particle_position(w, &w->bodies[b], i, x1);
        for (int d = 0; d < 3; d++) {
            u0[3 * j + d] = pr->u[3 * j + d] = (x1[d] - x0[d]) / h;
            s0[d] += x0[d] - qs[d], s1[d] += x1[d] - qs[d];
        }
    }
    for (int d = 0; pr->ninv > 0 && d < 3; d++) s0[d] /= pr->ninv, s1[d] /= pr->ninv;
    for (int j = 0; j < pr->ninv; j++) {
        const double *qs = pr->qa + 3 * (int64_t)pr->inv[j], *x0 = pr->x0 + 3 * (int64_t)j;
        double a[3], b[3];
        for (int d = 0; d < 3; d++) a[d] = x0[d] - qs[d] - s0[d], b[d] = x0[d] + h * u0[3 * j + d] - qs[d] - s1[d];
        far = g_max(far, g_max(g_dot(a, a), g_dot(b, b)));
    }
    far = sqrt(far);
    const double eps = 1e-3 * pr->th;
    /* Every pair's two sides were at least d0_min apart when they were chosen (qa), and every point of a side stays
     * within far of its place then moved by the mean motion (which leaves the distances as they are) over the
     * substep (its corners, and that mean, move on straight lines): where that leaves them more than 2 eps apart, no
     * pair can meet, and the sweep, which would find nothing, is left out. */
    const int apart = pr->d0_min > 2 * far * (1 + 1e-9) + 2 * eps;
    if (!apart) { /* the zones, read only for the particles held (none where the sweep is left out) */
        memset(zone, 0, 4 * (size_t)pr->ninv * sizeof *zone);
        for (int j = 0; j < pr->ninv; j++) parent[j] = j;
    }
    int64_t met = 0;
    for (int pass = 0; !apart && pass < HK_IMPACT_PASSES && (met = sweep(w, pr, at, h, eps, hit)) > 0; pass++)
        for (int64_t k = 0; k < pr->npair; k++)
            if (hit[k] >= 0) {
                impulse(w, pr, at, k, hit[k], h);
                pr->caught++;
            }
    int held_n = 0;
    while (met > 0 && (met = sweep(w, pr, at, h, eps, hit)) > 0) {
        const int n = hold(w, pr, at, hit, held, parent);
        held_n += n;
        if (n == 0) break; /* every particle of the pairs that meet is held or pinned: what is left, is left */
    }
    pr->left = met;
    pr->frozen += held_n;
    for (int j = 0; j < pr->ninv; j++) /* each zone's common velocity: the momentum of its held particles kept */
        if (held[j]) {
            const int i = pr->inv[j];
            double *z = zone + 4 * zone_of(parent, j);
            z[0] += p->mass[i] * p->vx[i], z[1] += p->mass[i] * p->vy[i], z[2] += p->mass[i] * p->vz[i];
            z[3] += p->mass[i];
        }
    int moved = 0;
    for (int j = 0; j < pr->ninv; j++) { /* the changes into the places and velocities */
        const int i = pr->inv[j];
        double du[3], x[3];
        int changed = held[j];
        for (int d = 0; d < 3; d++) du[d] = pr->u[3 * j + d] - u0[3 * j + d], changed |= du[d] != 0;
        if (!changed) continue;
        for (int d = 0; d < 3; d++) x[d] = pr->x0[3 * j + d] + h * pr->u[3 * j + d];
        hk_particle_place(w, &w->bodies[hk_body_of(w, i)], i, x);
        const double *z = zone + 4 * zone_of(parent, j);
        const double v[3] = {held[j] ? z[0] / z[3] : p->vx[i] + du[0], held[j] ? z[1] / z[3] : p->vy[i] + du[1],
                             held[j] ? z[2] / z[3] : p->vz[i] + du[2]};
        p->vx[i] = (hk_real)v[0], p->vy[i] = (hk_real)v[1], p->vz[i] = (hk_real)v[2];
        if (prev[0]) {
            const hk_real hh = (hk_real)h;
            prev[0][i] = p->qx[i] - p->vx[i] * hh, prev[1][i] = p->qy[i] - p->vy[i] * hh;
            prev[2][i] = p->qz[i] - p->vz[i] * hh;
        }
        moved++;
    }
    return moved;
}
