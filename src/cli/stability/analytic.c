/* analytic.c — the oscillator's and the pendulum's closed-form motions (the pendulum by Jacobi's sn). */
/* SPDX-License-Identifier: MIT */
#include "analytic.h"

#include "external.h"

#include <math.h>
#include <string.h>

/* Arithmetic-geometric mean. */
static double agm(double a, double b)
{
    for (int i = 0; i < 64 && fabs(a - b) > 1e-16 * a; i++) {
        const double m = 0.5 * (a + b);
        b = sqrt(a * b);
        a = m;
    }
    return a;
}

/* Jacobi sn(u | m), 0 <= m < 1, by the descending AGM (Abramowitz & Stegun 16.4.3). */
static double jacobi_sn(double u, double m)
{
    double a[32], c[32], b = sqrt(1 - m);
    a[0] = 1;
    c[0] = sqrt(m);
    int n = 0;
    while (n < 31 && fabs(c[n]) > 1e-16) {
        a[n + 1] = 0.5 * (a[n] + b);
        c[n + 1] = 0.5 * (a[n] - b);
        b = sqrt(a[n] * b);
        n++;
    }
    double phi = ldexp(a[n] * u, n);
    for (int i = n; i > 0; i--) phi = 0.5 * (phi + asin(c[i] / a[i] * sin(phi)));
    return sin(phi);
}

/* The single pinned-end spring with a free bob, no damping, walls, spheres or per-particle force the closed forms
 * leave out (external.h: ground, drag); a, b the pinned and free particle. */
static int pinned_pair(const hk_world *w, const char *kind, int *pa, int *pb)
{
    if (w->body_count != 1 || w->family_count != 1 || strcmp(w->bodies[0].kind, kind) != 0) return 0;
    const hk_family *f = &w->families[0];
    const hk_particles *p = &w->p;
    if (f->kind != HK_FAMILY_LIST || f->count != 1 || f->params.damping != 0 ||
        f->params.behaviour != HK_SPRING_NORMAL || !hk_external_closed_form(&w->def) || w->def.has_walls ||
        w->sphere_count)
        return 0;
    int a = f->a[0], b = f->b[0];
    if (p->inv_mass[a] != 0) {
        const int t = a;
        a = b;
        b = t;
    }
    if (p->inv_mass[a] != 0 || p->inv_mass[b] == 0) return 0;
    *pa = a;
    *pb = b;
    return 1;
}

hk_analytic hk_analytic_find(const hk_world *w)
{
    hk_analytic o = {0};
    const hk_particles *p = &w->p;
    int a, b;
    const double g[3] = {w->def.gravity.x, w->def.gravity.y, w->def.gravity.z};
    const double gn = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    const int pair = pinned_pair(w, "pair", &a, &b), pend = !pair && pinned_pair(w, "pendulum", &a, &b);
    if (!(pair && gn == 0) && !(pend && gn > 0)) return o;
    const hk_family *f = &w->families[0];
    const hk_vec3 xa = hk_world_position(w, a), xb = hk_world_position(w, b);
    const double d[3] = {xb.x - xa.x, xb.y - xa.y, xb.z - xa.z};
    const double r = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(r > 0)) return o;
    o.bob = b;
    o.anchor[0] = xa.x, o.anchor[1] = xa.y, o.anchor[2] = xa.z;
    o.L0 = f->rest_list ? (double)f->rest_list[0] : (double)f->rest;
    if (pair) {
        o.kind = HK_ANALYTIC_OSCILLATOR;
        for (int c = 0; c < 3; c++) o.axis[c] = d[c] / r;
        o.d0 = r - o.L0;
        o.v0 = p->vx[b] * o.axis[0] + p->vy[b] * o.axis[1] + p->vz[b] * o.axis[2];
        o.omega = sqrt(f->params.k * p->inv_mass[b]);
        return o;
    }
    /* pendulum released from rest at theta0 (0 < theta0 < pi) from the downward vertical */
    if (p->vx[b] != 0 || p->vy[b] != 0 || p->vz[b] != 0) return o;
    double down = 0, side2 = 0;
    for (int c = 0; c < 3; c++) down += d[c] * (o.axis[c] = g[c] / gn);
    for (int c = 0; c < 3; c++) {
        o.side[c] = d[c] - down * o.axis[c];
        side2 += o.side[c] * o.side[c];
    }
    if (!(side2 > 1e-24 * r * r)) return o;
    for (int c = 0; c < 3; c++) o.side[c] /= sqrt(side2);
    o.theta0 = atan2(sqrt(side2), down);
    o.m = sin(0.5 * o.theta0) * sin(0.5 * o.theta0);
    /* the rod is a stiff spring: its static stretch m g / k lengthens the pendulum */
    o.L = o.L0 + gn / (f->params.k * p->inv_mass[b]);
    o.omega0 = sqrt(gn / o.L);
    o.K = 3.14159265358979323846 / (2 * agm(1, sqrt(1 - o.m)));
    o.period = 4 * o.K / o.omega0;
    o.kind = HK_ANALYTIC_PENDULUM;
    return o;
}

double hk_analytic_error(const hk_analytic *o, const hk_world *w, double t)
{
    double want[3];
    if (o->kind == HK_ANALYTIC_OSCILLATOR) {
        const double ext = o->L0 + o->d0 * cos(o->omega * t) + o->v0 / o->omega * sin(o->omega * t);
        for (int c = 0; c < 3; c++) want[c] = o->anchor[c] + ext * o->axis[c];
    } else {
        /* exact: sin(theta / 2) = sin(theta0 / 2) sn(K - omega0 t | m), m = sin^2(theta0 / 2) */
        const double th = 2 * asin(sqrt(o->m) * jacobi_sn(o->K - o->omega0 * t, o->m));
        for (int c = 0; c < 3; c++) want[c] = o->anchor[c] + o->L * (sin(th) * o->side[c] + cos(th) * o->axis[c]);
    }
    const hk_vec3 b = hk_world_position(w, o->bob);
    const double x[3] = {b.x, b.y, b.z};
    double e2 = 0;
    for (int c = 0; c < 3; c++) e2 += (x[c] - want[c]) * (x[c] - want[c]);
    return sqrt(e2);
}
