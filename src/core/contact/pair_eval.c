/* pair_eval.c — one contact pair: its geometry (weights, normal, gap) and its normal force at the current state. */
/* SPDX-License-Identifier: MIT */
#include "pair_eval.h"

#include <math.h>

#include "geometry.h"
#include "soft.h"

/* d = the point at s on edge x0 x1 less the point at t on edge x2 x3 (an edge pair's closest points) */
static void edge_gap(const double *x0, const double *x1, const double *x2, const double *x3, double s, double t,
                     double d[3])
{
    for (int c = 0; c < 3; c++) d[c] = (x0[c] + s * (x1[c] - x0[c])) - (x2[c] + t * (x3[c] - x2[c]));
}

/* +1 or -1: the side pair pa of pr started the step on (the particle, or edge a b, along the triangle's normal or
 * the edges' cross product u x v), from the places at the step's start (q0); the normal of a pair whose two sides
 * meet exactly. */
static float pair_side(const hk_pairs *pr, const hk_pair *pa)
{
    const double *x[4];
    for (int c = 0; c < 4; c++) x[c] = pr->q0 + 3 * (int64_t)pa->p[c];
    double u[3], v[3], n[3], d[3];
    if (pa->kind == HK_PAIR_PP) return hk_particle_side(pr, pa); /* two particles (particle_force.c) */
    if (pa->kind == HK_PAIR_VT) {
        g_sub(x[2], x[1], u), g_sub(x[3], x[1], v), g_cross(u, v, n), g_sub(x[0], x[1], d);
    } else {
        double s, t;
        g_closest_segments(x[0], x[1], x[2], x[3], &s, &t);
        g_sub(x[1], x[0], u), g_sub(x[3], x[2], v), g_cross(u, v, n);
        edge_gap(x[0], x[1], x[2], x[3], s, t, d);
    }
    return g_dot(n, d) < 0 ? -1.0f : 1.0f;
}

/* The geometry of pair pa at places x (4 points): its weights alpha, the unit normal n from the other side's
 * nearest point to the alpha = 1 side's (where the two meet, the triangle's normal or the edges' cross product,
 * turned to the side the pair started the step on) and the distance between those points [m]: the pairs keep
 * apart by their force (hk_pair_evaluate turns one found through back to its side) and by the swept test, so a pair
 * never changes side (the statistics' crossings count any that would). With `inside`, an edge pair whose nearest points
 * are not inside both edges stops at its weights and gives INFINITY: it has no contact of its own. */
double hk_pair_geometry(const hk_pairs *pr, const hk_pair *pa, const double x[4][3], double a[4], double n[3],
                        int inside)
{
    double d[3], u[3], v[3], plane[3];
    if (pa->kind == HK_PAIR_PP) { /* two spheres: along the line of their centres */
        a[0] = 1, a[1] = -1, a[2] = a[3] = 0;
        g_sub(x[0], x[1], d);
        const double dist = g_norm(d);
        if (dist > 0) {
            for (int c = 0; c < 3; c++) n[c] = d[c] / dist;
            return dist;
        }
        const float side = pair_side(pr, pa); /* centres that meet exactly: apart along z, as they started */
        n[0] = n[1] = 0, n[2] = side;
        return 0;
    }
    if (pa->kind == HK_PAIR_VT) {
        double q[3], w[3];
        g_closest_on_triangle_w(x[0], x[1], x[2], x[3], q, w);
        a[0] = 1, a[1] = -w[0], a[2] = -w[1], a[3] = -w[2];
        g_sub(x[0], q, d);
        g_sub(x[2], x[1], u), g_sub(x[3], x[1], v);
    } else {
        double s, t;
        g_closest_segments(x[0], x[1], x[2], x[3], &s, &t);
        a[0] = 1 - s, a[1] = s, a[2] = -(1 - t), a[3] = -t;
        if (inside && !(s > 0 && s < 1 && t > 0 && t < 1)) return INFINITY; /* an end is nearest: no edge contact */
        edge_gap(x[0], x[1], x[2], x[3], s, t, d);
        g_sub(x[1], x[0], u), g_sub(x[3], x[2], v);
    }
    const double dist = g_norm(d);
    if (dist > 0) {
        for (int c = 0; c < 3; c++) n[c] = d[c] / dist;
        return dist;
    }
    g_cross(u, v, plane);
    g_normalise(plane);
    const float side = pair_side(pr, pa); /* rare: found only when needed */
    for (int c = 0; c < 3; c++) n[c] = side * plane[c];
    return 0;
}

/* The damping coefficient of a pair's normal motion [N s/m]: critical times the damping ratio with the pair's mass
 * m; none for an edge pair (pairs.h). */
double hk_pair_normal_damping(const hk_contact_def *d, int ee, double m)
{
    return ee ? 0 : hk_soft_make(d->stiffness, d->damping_ratio, m).c;
}

/* The squared distance of two sides' boxes (lo, hi: each side's corners' least and largest coordinates [m]) along
 * their shortest line [m^2]: every point of a side lies in its box, so no two points (the pair's nearest ones
 * included) come nearer. */
static double box_gap2(const double lo[2][3], const double hi[2][3])
{
    double s2 = 0;
    for (int e = 0; e < 3; e++) {
        const double s = g_max(lo[0][e] - hi[1][e], lo[1][e] - hi[0][e]);
        if (s > 0) s2 += s * s;
    }
    return s2;
}

/* Whether two sides' boxes are further apart than the thickness th along their shortest line (box_gap2), not only
 * along an axis. The nearest points pair_geometry computes lie in the boxes but for a few roundings of the
 * coordinates, which the margin (1e-9 of th, 1e-12 of the largest coordinate) covers many times: a pair this
 * leaves out has a gap of at least th there too, so which pairs act, and their bits, are as without it. A cloth
 * resting on a cloth has most of its pairs within th along every axis, and apart only along a diagonal: this
 * spares them the nearest points. */
static int boxes_apart(const double lo[2][3], const double hi[2][3], double s2, double th)
{
    if (!(s2 > th * th)) return 0;
    double big = 0;
    for (int s = 0; s < 2; s++)
        for (int e = 0; e < 3; e++) big = g_max(big, g_max(fabs(lo[s][e]), fabs(hi[s][e])));
    const double lim = th * (1 + 1e-9) + 1e-12 * big;
    return s2 > lim * lim;
}

/* How clearly offset d lies along plane normal pl: (pl . d)^2 / (|pl|^2 |d|^2), the squared cosine, or 0 where
 * pl or d has no length. */
static double along2(const double pl[3], const double d[3])
{
    const double pd = g_dot(pl, d), l = g_dot(pl, pl) * g_dot(d, d);
    return l > 0 ? pd * pd / l : 0;
}

/* Pair pa's plane normal at places x (the triangle's, or the two edges' cross product) into pl, and the offset of
 * its nearest points into d; 0 where the pair has no side to speak of (two particles; two edges within 5.7 degrees
 * of parallel). */
static int side_geometry(const hk_pair *pa, const double *x[4], double pl[3], double d[3])
{
    double u[3], v[3];
    if (pa->kind == HK_PAIR_VT) {
        double q[3];
        g_closest_on_triangle(x[0], x[1], x[2], x[3], q);
        g_sub(x[0], q, d), g_sub(x[2], x[1], u), g_sub(x[3], x[1], v);
    } else if (pa->kind == HK_PAIR_EE) {
        double s, t;
        g_closest_segments(x[0], x[1], x[2], x[3], &s, &t);
        edge_gap(x[0], x[1], x[2], x[3], s, t, d);
        g_sub(x[1], x[0], u), g_sub(x[3], x[2], v);
    } else
        return 0;
    g_cross(u, v, pl);
    return pa->kind == HK_PAIR_VT || g_dot(pl, pl) > 0.01 * g_dot(u, u) * g_dot(v, v);
}

/* Whether pair pa at places x, its sides within the thickness along unit normal n (hk_pair_geometry's: two edges'
 * nearest points inside both), has gone through: its offset along the plane's normal now (within 1.8 degrees of a
 * triangle's normal: the particle over the triangle, not beside it; within 60 degrees of two edges' cross
 * product), clearly to one side at the step's start (its offset within 45 degrees of the normal then), and
 * the two sides not the same. An implicit solve's iterate can carry a pair through in one step (a sheet falling
 * 7.5 mm a step onto another through a 4 mm layer); without the sign its force would push the pair on through. */
static int crossed(const hk_pairs *pr, const hk_pair *pa, const double x[4][3], const double n[3])
{
    const double *now[4] = {x[0], x[1], x[2], x[3]}, *then[4];
    double pl[3], d[3];
    if (!side_geometry(pa, now, pl, d)) return 0;
    const double c = g_dot(pl, n);
    if (c == 0 || !(c * c >= (pa->kind == HK_PAIR_VT ? 0.999 : 0.25) * g_dot(pl, pl))) return 0;
    for (int k = 0; k < 4; k++) then[k] = pr->q0 + 3 * (int64_t)pa->p[k];
    if (!side_geometry(pa, then, pl, d) || !(along2(pl, d) >= 0.5)) return 0;
    return (c < 0) != (g_dot(pl, d) < 0);
}

int hk_pair_crossed(const hk_pairs *pr, int64_t k, const double n[3])
{
    double x[4][3];
    const int nc = hk_pair_corners(&pr->pair[k]);
    for (int c = 0; c < nc; c++)
        for (int e = 0; e < 3; e++) x[c][e] = pr->xs[3 * (int64_t)pr->at[4 * k + c] + e];
    return crossed(pr, &pr->pair[k], x, n);
}

/* Pair k's normal force at the current state into *ev (hooke.h hk_contact_def: the colliders' spring and damping
 * with the pair's effective mass 1 / sum alpha_i^2 / m_i; its friction comes with the touching lists,
 * pair_anchor.c); returns 1 where it touches and acts (else *ev holds at most its weights and gap). */
int hk_pair_evaluate(const hk_world *w, const hk_pairs *pr, int64_t k, hk_pair_eval *ev, double far)
{
    if (far < INFINITY && pr->lb[k] > far) return 0; /* kept apart: far from the other side (FAR_SLACK) */
    const hk_pair *pa = &pr->pair[k];
    const hk_particles *p = &w->p;
    const hk_contact_def *d = &pr->def;
    double x[4][3], n[3], vr[3] = {0, 0, 0}, inv = 0;
    const int split = pa->kind == HK_PAIR_EE ? 2 : 1, nc = hk_pair_corners(pa); /* the first side's corners */
    double lo[2][3] = {{INFINITY, INFINITY, INFINITY}, {INFINITY, INFINITY, INFINITY}};
    double hi[2][3] = {{-INFINITY, -INFINITY, -INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
    for (int c = 0; c < nc; c++) {
        const double *xs = pr->xs + 3 * (int64_t)pr->at[4 * k + c];
        for (int e = 0; e < 3; e++) {
            x[c][e] = xs[e];
            lo[c >= split][e] = g_min(lo[c >= split][e], xs[e]);
            hi[c >= split][e] = g_max(hi[c >= split][e], xs[e]);
        }
    }
    const double s2 = pa->kind == HK_PAIR_PP ? 0 : box_gap2(lo, hi); /* (a particle pair's box distance is its gap) */
    if (!(far < INFINITY)) pr->lb[k] = sqrt(s2); /* every pair's bound, set before anything leaves it out */
    for (int e = 0; e < 3; e++)                  /* the two sides' boxes further apart than the thickness: no contact */
        if (lo[0][e] > hi[1][e] + pr->th || lo[1][e] > hi[0][e] + pr->th) return 0;
    if (pa->kind != HK_PAIR_PP && boxes_apart(lo, hi, s2, pr->th)) return 0;
    const int32_t *at = pr->at + 4 * k; /* a particle past its bound: the pair acts only if its bounds let it */
    if ((pr->past[at[0]] | pr->past[at[1]] | pr->past[at[2]] | pr->past[at[3]]) && !hk_pairs_in_step(pr, k)) return 0;
    const double gap = ev->gap = hk_pair_geometry(pr, pa, x, ev->a, n, 1);
    if (!(far < INFINITY) &&
        pa->kind != HK_PAIR_PP) /* the bound: its sides' distance (an edge pair's, inside or not) */
        pr->lb[k] = g_max(pr->lb[k], gap < INFINITY ? gap : hk_pair_geometry(pr, pa, x, ev->a, n, 0));
    if (!(gap < pr->th)) return 0;
    const int ee = pa->kind == HK_PAIR_EE;
    if (crossed(pr, pa, x, n)) { /* through: pushed back, the layer's spring at the gap -d */
        for (int c = 0; c < 3; c++) n[c] = -n[c];
        ev->gap = -gap;
    }
    for (int c = 0; c < nc; c++) {
        const int i = pa->p[c];
        vr[0] += ev->a[c] * p->vx[i], vr[1] += ev->a[c] * p->vy[i], vr[2] += ev->a[c] * p->vz[i];
        inv += ev->a[c] * ev->a[c] * p->inv_mass[i];
    }
    if (!(inv > 0)) return 0; /* every particle held: nothing to move */
    const double m = 1 / inv, vn = g_dot(vr, n);
    const double fn = hk_soft_force((hk_soft){d->stiffness, hk_pair_normal_damping(d, ee, m)}, pr->th - ev->gap, vn);
    if (!(fn > 0)) return 0;
    for (int c = 0; c < 3; c++) ev->n[c] = n[c], ev->vr[c] = vr[c];
    ev->fn = fn, ev->m = m;
    return 1;
}
