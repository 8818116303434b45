/* ccd.c — continuous tests: the roots of the coplanarity cubic, then a proximity test at each, in time order. */
/* SPDX-License-Identifier: MIT */
#include "ccd.h"

#include <math.h>

#include "geometry.h"

/* Bisections of a bracket: 2^-60 of the interval, below any double's resolution of t in [0, 1]. */
#define HK_CCD_BISECT 60

/* The corners at time t. */
static void at_time(const double v0[4][3], const double v1[4][3], double t, double out[4][3])
{
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 3; k++) out[i][k] = v0[i][k] + t * (v1[i][k] - v0[i][k]);
}

/* f(t) = (A(t) x B(t)) . C(t) with A, B, C linear in t, as c[0] + c[1] t + c[2] t^2 + c[3] t^3. */
static void cubic(const double A0[3], const double dA[3], const double B0[3], const double dB[3], const double C0[3],
                  const double dC[3], double c[4])
{
    double a0b0[3], a0db[3], dab0[3], dadb[3];
    g_cross(A0, B0, a0b0);
    g_cross(A0, dB, a0db);
    g_cross(dA, B0, dab0);
    g_cross(dA, dB, dadb);
    double mid[3];
    for (int k = 0; k < 3; k++) mid[k] = a0db[k] + dab0[k];
    c[0] = g_dot(a0b0, C0);
    c[1] = g_dot(a0b0, dC) + g_dot(mid, C0);
    c[2] = g_dot(mid, dC) + g_dot(dadb, C0);
    c[3] = g_dot(dadb, dC);
}

static double eval(const double c[4], double t) { return ((c[3] * t + c[2]) * t + c[1]) * t + c[0]; }

/* The roots of the cubic in [0, 1], ascending (at most 3): the interval is
 * cut at the roots of the derivative, and a bracket whose ends differ in
 * sign (or end at a zero) is bisected. Returns their count. */
static int roots(const double c[4], double out[3])
{
    double cut[4] = {0, 1, 1, 1};
    int nc = 1;
    /* f'(t) = 3 c3 t^2 + 2 c2 t + c1 */
    const double qa = 3 * c[3], qb = 2 * c[2], qc = c[1];
    if (qa != 0) {
        const double disc = qb * qb - 4 * qa * qc;
        if (disc > 0) {
            const double s = sqrt(disc), q = -0.5 * (qb + (qb >= 0 ? s : -s));
            double r1 = q / qa, r2 = q != 0 ? qc / q : r1;
            if (r1 > r2) {
                const double t = r1;
                r1 = r2;
                r2 = t;
            }
            if (r1 > 0 && r1 < 1) cut[nc++] = r1;
            if (r2 > 0 && r2 < 1 && r2 != r1) cut[nc++] = r2;
        }
    } else if (qb != 0) {
        const double r = -qc / qb;
        if (r > 0 && r < 1) cut[nc++] = r;
    }
    cut[nc++] = 1;
    int n = 0;
    for (int i = 0; i + 1 < nc; i++) {
        double lo = cut[i], hi = cut[i + 1], flo = eval(c, lo), fhi = eval(c, hi);
        if (flo == 0) {
            if (n == 0 || out[n - 1] != lo) out[n++] = lo;
            continue;
        }
        if (fhi == 0 || (flo < 0) == (fhi < 0)) continue; /* a zero at hi is the next bracket's */
        for (int it = 0; it < HK_CCD_BISECT; it++) {
            const double mid = 0.5 * (lo + hi), fm = eval(c, mid);
            if ((fm < 0) == (flo < 0)) {
                lo = mid;
                flo = fm;
            } else {
                hi = mid;
            }
        }
        out[n++] = hi;
    }
    if (nc > 0 && eval(c, 1) == 0 && (n == 0 || out[n - 1] != 1)) out[n++] = 1;
    return n < 3 ? n : 3;
}

/* The coplanarity cubic of the four moving points, f = (x1 - x0) x (x2 - x0) . (x3 - x0) with x3 the
 * point (point-triangle) or (x1 - x0) x (x3 - x2) . (x2 - x0) (edges). */
static void coplanar(const double v0[4][3], const double v1[4][3], int edges, double c[4])
{
    double d[4][3];
    for (int i = 0; i < 4; i++) g_sub(v1[i], v0[i], d[i]);
    double A0[3], dA[3], B0[3], dB[3], C0[3], dC[3];
    if (!edges) { /* p a b c: A = b - a, B = c - a, C = p - a */
        g_sub(v0[2], v0[1], A0), g_sub(d[2], d[1], dA);
        g_sub(v0[3], v0[1], B0), g_sub(d[3], d[1], dB);
        g_sub(v0[0], v0[1], C0), g_sub(d[0], d[1], dC);
    } else { /* a b c d: A = b - a, B = d - c, C = c - a */
        g_sub(v0[1], v0[0], A0), g_sub(d[1], d[0], dA);
        g_sub(v0[3], v0[2], B0), g_sub(d[3], d[2], dB);
        g_sub(v0[2], v0[0], C0), g_sub(d[2], d[0], dC);
    }
    cubic(A0, dA, B0, dB, C0, dC, c);
}

/* The squared distance of the configuration x at a coplanarity root: point to triangle, or edge to edge. */
static double gap2(const double x[4][3], int edges)
{
    if (!edges) {
        double q[3], d[3];
        g_closest_on_triangle(x[0], x[1], x[2], x[3], q);
        g_sub(x[0], q, d);
        return g_dot(d, d);
    }
    double s, t;
    return g_closest_segments(x[0], x[1], x[2], x[3], &s, &t);
}

static double first_meeting(const double v0[4][3], const double v1[4][3], double eps, int edges)
{
    double c[4], r[3];
    coplanar(v0, v1, edges, c);
    const int n = roots(c, r);
    for (int i = 0; i < n; i++) {
        double x[4][3];
        at_time(v0, v1, r[i], x);
        if (gap2(x, edges) <= eps * eps) return r[i];
    }
    return -1;
}

double hk_ccd_point_triangle(const double v0[4][3], const double v1[4][3], double eps)
{
    return first_meeting(v0, v1, eps, 0);
}

double hk_ccd_edge_edge(const double v0[4][3], const double v1[4][3], double eps)
{
    return first_meeting(v0, v1, eps, 1);
}
