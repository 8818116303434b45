/* geometry.h — the contact geometry's formulas in double: rotations, closest points, segments entering shapes. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_CONTACT_GEOMETRY_H
#define HOOKE_CONTACT_GEOMETRY_H

#include <math.h>
#include <stddef.h>

/* The one home of every formula the colliders' queries use: closest points
 * on a triangle, a box and a capsule, where a segment first enters each of
 * them, and the rotations that place a collider. All in double, in the
 * collider's own frame unless said otherwise. */

/* min and max of numbers that are not NaN (fmin and fmax are library calls) */
static inline double g_min(double a, double b) { return a < b ? a : b; }
static inline double g_max(double a, double b) { return a > b ? a : b; }

static inline double g_dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static inline void g_sub(const double a[3], const double b[3], double out[3])
{
    out[0] = a[0] - b[0];
    out[1] = a[1] - b[1];
    out[2] = a[2] - b[2];
}
static inline void g_cross(const double a[3], const double b[3], double out[3])
{
    const double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}
/* Adds s (u u^T) to the symmetric block b (xx, xy, xz, yy, yz, zz). */
static inline void g_add_outer(double b[6], double s, const double u[3])
{
    b[0] += s * u[0] * u[0], b[1] += s * u[0] * u[1], b[2] += s * u[0] * u[2];
    b[3] += s * u[1] * u[1], b[4] += s * u[1] * u[2], b[5] += s * u[2] * u[2];
}
static inline double g_norm(const double a[3]) { return sqrt(g_dot(a, a)); }
/* |a - b|^2 */
static inline double g_dist2(const double a[3], const double b[3])
{
    const double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return g_dot(d, d);
}
/* a / |a|; 0 (a unchanged) when |a| is 0 */
static inline double g_normalise(double a[3])
{
    const double n = g_norm(a);
    if (n > 0)
        for (int c = 0; c < 3; c++) a[c] /= n;
    return n;
}

/* out = R v and out = R^T v for a row-major 3x3 matrix R */
static inline void g_rot(const double R[3][3], const double v[3], double out[3])
{
    const double x = R[0][0] * v[0] + R[0][1] * v[1] + R[0][2] * v[2];
    const double y = R[1][0] * v[0] + R[1][1] * v[1] + R[1][2] * v[2];
    const double z = R[2][0] * v[0] + R[2][1] * v[1] + R[2][2] * v[2];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}
static inline void g_rot_t(const double R[3][3], const double v[3], double out[3])
{
    const double x = R[0][0] * v[0] + R[1][0] * v[1] + R[2][0] * v[2];
    const double y = R[0][1] * v[0] + R[1][1] * v[1] + R[2][1] * v[2];
    const double z = R[0][2] * v[0] + R[1][2] * v[1] + R[2][2] * v[2];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}
static inline void g_matmul(const double A[3][3], const double B[3][3], double out[3][3])
{
    double t[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) t[i][j] = A[i][0] * B[0][j] + A[i][1] * B[1][j] + A[i][2] * B[2][j];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) out[i][j] = t[i][j];
}

/* The rotation by angle |r| about the unit axis r / |r| (Rodrigues); the
 * identity for r = 0. */
static inline void g_axis_angle(const double r[3], double R[3][3])
{
    double k[3] = {r[0], r[1], r[2]};
    const double a = g_normalise(k), c = cos(a), s = sin(a), t = 1 - c;
    R[0][0] = c + t * k[0] * k[0];
    R[0][1] = t * k[0] * k[1] - s * k[2];
    R[0][2] = t * k[0] * k[2] + s * k[1];
    R[1][0] = t * k[1] * k[0] + s * k[2];
    R[1][1] = c + t * k[1] * k[1];
    R[1][2] = t * k[1] * k[2] - s * k[0];
    R[2][0] = t * k[2] * k[0] - s * k[1];
    R[2][1] = t * k[2] * k[1] + s * k[0];
    R[2][2] = c + t * k[2] * k[2];
}

/* The rotation about x by e[0], then about y by e[1], then about z by e[2]
 * (fixed axes): R = Rz Ry Rx. */
static inline void g_euler_xyz(const double e[3], double R[3][3])
{
    const double rx[3] = {e[0], 0, 0}, ry[3] = {0, e[1], 0}, rz[3] = {0, 0, e[2]};
    double X[3][3], Y[3][3], Z[3][3];
    g_axis_angle(rx, X);
    g_axis_angle(ry, Y);
    g_axis_angle(rz, Z);
    g_matmul(Y, X, Y);
    g_matmul(Z, Y, R);
}

/* Where the closest point of a triangle lies: its face, one of its edges
 * (the edge from corner e to corner e + 1 mod 3) or one of its corners. */
enum { G_FACE = 0, G_EDGE0 = 1, G_VERT0 = 4 }; /* G_EDGE0 + e, G_VERT0 + v */

/* The point q of triangle (a, b, c) closest to p, and its region
 * (Ericson, Real-Time Collision Detection, 5.1.5); w (unless NULL) gets q's
 * barycentric weights, q = w0 a + w1 b + w2 c. */
static inline int g_closest_on_triangle_w(const double p[3], const double a[3], const double b[3], const double c[3],
                                          double q[3], double w[3]);
static inline int g_closest_on_triangle(const double p[3], const double a[3], const double b[3], const double c[3],
                                        double q[3])
{
    return g_closest_on_triangle_w(p, a, b, c, q, NULL);
}
static inline void g_weights(double w[3], double w0, double w1, double w2)
{
    if (w) w[0] = w0, w[1] = w1, w[2] = w2;
}
static inline int g_closest_on_triangle_w(const double p[3], const double a[3], const double b[3], const double c[3],
                                          double q[3], double w[3])
{
    double ab[3], ac[3], ap[3], bp[3], cp[3];
    g_sub(b, a, ab);
    g_sub(c, a, ac);
    g_sub(p, a, ap);
    const double d1 = g_dot(ab, ap), d2 = g_dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) {
        for (int k = 0; k < 3; k++) q[k] = a[k];
        g_weights(w, 1, 0, 0);
        return G_VERT0 + 0;
    }
    g_sub(p, b, bp);
    const double d3 = g_dot(ab, bp), d4 = g_dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) {
        for (int k = 0; k < 3; k++) q[k] = b[k];
        g_weights(w, 0, 1, 0);
        return G_VERT0 + 1;
    }
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        const double v = d1 / (d1 - d3);
        for (int k = 0; k < 3; k++) q[k] = a[k] + v * ab[k];
        g_weights(w, 1 - v, v, 0);
        return G_EDGE0 + 0;
    }
    g_sub(p, c, cp);
    const double d5 = g_dot(ab, cp), d6 = g_dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) {
        for (int k = 0; k < 3; k++) q[k] = c[k];
        g_weights(w, 0, 0, 1);
        return G_VERT0 + 2;
    }
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        const double t = d2 / (d2 - d6);
        for (int k = 0; k < 3; k++) q[k] = a[k] + t * ac[k];
        g_weights(w, 1 - t, 0, t);
        return G_EDGE0 + 2;
    }
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
        const double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        for (int k = 0; k < 3; k++) q[k] = b[k] + t * (c[k] - b[k]);
        g_weights(w, 0, 1 - t, t);
        return G_EDGE0 + 1;
    }
    const double den = 1 / (va + vb + vc), v = vb * den, t = vc * den;
    for (int k = 0; k < 3; k++) q[k] = a[k] + ab[k] * v + ac[k] * t;
    g_weights(w, 1 - v - t, v, t);
    return G_FACE;
}

/* The closest points of segments p0 p1 and q0 q1: p0 + s (p1 - p0) and
 * q0 + t (q1 - q0), s and t in [0, 1] (Ericson 5.1.9; a degenerate segment
 * is its point). Returns the squared distance. */
static inline double g_closest_segments(const double p0[3], const double p1[3], const double q0[3], const double q1[3],
                                        double *s, double *t)
{
    double d1[3], d2[3], r[3];
    g_sub(p1, p0, d1);
    g_sub(q1, q0, d2);
    g_sub(p0, q0, r);
    const double a = g_dot(d1, d1), e = g_dot(d2, d2), f = g_dot(d2, r), tiny = 1e-300;
    double ss, tt;
    if (a <= tiny && e <= tiny) {
        ss = tt = 0;
    } else if (a <= tiny) {
        ss = 0;
        tt = g_min(1, g_max(0, f / e));
    } else {
        const double c = g_dot(d1, r);
        if (e <= tiny) {
            tt = 0;
            ss = g_min(1, g_max(0, -c / a));
        } else {
            const double b = g_dot(d1, d2), den = a * e - b * b;
            ss = den > 0 ? g_min(1, g_max(0, (b * f - c * e) / den)) : 0;
            tt = (b * ss + f) / e;
            if (tt < 0) {
                tt = 0;
                ss = g_min(1, g_max(0, -c / a));
            } else if (tt > 1) {
                tt = 1;
                ss = g_min(1, g_max(0, (b - c) / a));
            }
        }
    }
    *s = ss;
    *t = tt;
    double dd = 0;
    for (int k = 0; k < 3; k++) {
        const double x = (p0[k] + ss * d1[k]) - (q0[k] + tt * d2[k]);
        dd += x * x;
    }
    return dd;
}

/* Where the segment p0 + s (p1 - p0), s in [0, 1], meets triangle (a, b,
 * c) from its front (the side its counter-clockwise normal points to):
 * s, or -1 when it does not (Moeller and Trumbore). The barycentric test
 * admits a rim of `rim` (relative) so that a segment through a shared edge
 * or corner meets at least one of the triangles around it. */
static inline double g_segment_enters_triangle(const double p0[3], const double p1[3], const double a[3],
                                               const double b[3], const double c[3], double rim)
{
    double d[3], e1[3], e2[3], h[3], sv[3], qv[3];
    g_sub(p1, p0, d);
    g_sub(b, a, e1);
    g_sub(c, a, e2);
    g_cross(d, e2, h);
    const double det = g_dot(e1, h); /* = -d . (e1 x e2): > 0 when d runs against the normal */
    if (!(det > 0)) return -1;
    g_sub(p0, a, sv);
    const double u = g_dot(sv, h);
    if (u < -rim * det || u > (1 + rim) * det) return -1;
    g_cross(sv, e1, qv);
    const double v = g_dot(d, qv);
    if (v < -rim * det || u + v > (1 + rim) * det) return -1;
    const double s = g_dot(e2, qv) / det;
    return s >= 0 && s <= 1 ? s : -1;
}

/* A box of half extents e about the origin: the signed distance of p (< 0
 * inside), the closest point of its surface q and the outward normal n
 * there (the face's normal inside, the direction from q to p outside). */
static inline double g_box_distance(const double e[3], const double p[3], double q[3], double n[3])
{
    double out = 0;
    int inside = 1;
    for (int k = 0; k < 3; k++) {
        q[k] = p[k] < -e[k] ? -e[k] : p[k] > e[k] ? e[k] : p[k];
        const double dk = p[k] - q[k];
        n[k] = dk;
        out += dk * dk;
        if (dk != 0) inside = 0;
    }
    if (!inside) {
        const double d = sqrt(out);
        for (int k = 0; k < 3; k++) n[k] /= d;
        return d;
    }
    int a = 0; /* inside: the face nearest to p */
    double best = e[0] - fabs(p[0]);
    for (int k = 1; k < 3; k++)
        if (e[k] - fabs(p[k]) < best) best = e[k] - fabs(p[k]), a = k;
    for (int k = 0; k < 3; k++) n[k] = 0;
    n[a] = p[a] < 0 ? -1 : 1;
    q[a] = n[a] * e[a];
    return -best;
}

/* Where the segment p0 + s (p1 - p0) first enters the box of half extents
 * e (slabs): s in [0, 1] and the outward normal of the face it enters
 * through, or -1 (it starts inside, or misses). */
static inline double g_segment_enters_box(const double e[3], const double p0[3], const double p1[3], double n[3])
{
    double t0 = -INFINITY, t1 = INFINITY;
    int axis = -1;
    for (int k = 0; k < 3; k++) {
        const double d = p1[k] - p0[k];
        if (d == 0) {
            if (p0[k] < -e[k] || p0[k] > e[k]) return -1;
            continue;
        }
        double a = (-e[k] - p0[k]) / d, b = (e[k] - p0[k]) / d;
        if (a > b) {
            const double t = a;
            a = b;
            b = t;
        }
        if (a > t0) t0 = a, axis = k;
        if (b < t1) t1 = b;
    }
    if (axis < 0 || t0 > t1 || t0 < 0 || t0 > 1) return -1;
    for (int k = 0; k < 3; k++) n[k] = 0;
    n[axis] = p1[axis] - p0[axis] > 0 ? -1 : 1;
    return t0;
}

/* The segment from (0, -l/2, 0) to (0, l/2, 0): its point closest to p. */
static inline void g_capsule_axis_point(double l, const double p[3], double a[3])
{
    const double h = 0.5 * l;
    a[0] = a[2] = 0;
    a[1] = p[1] < -h ? -h : p[1] > h ? h : p[1];
}

/* A capsule of radius r around that segment: the signed distance of p, the
 * closest surface point q and the outward normal n (+x on the axis itself). */
static inline double g_capsule_distance(double r, double l, const double p[3], double q[3], double n[3])
{
    double a[3];
    g_capsule_axis_point(l, p, a);
    g_sub(p, a, n);
    const double d = g_normalise(n);
    if (!(d > 0)) n[0] = 1, n[1] = n[2] = 0;
    for (int k = 0; k < 3; k++) q[k] = a[k] + r * n[k];
    return d - r;
}

/* The smallest s >= 0 with |o + s d - c| = r entering the sphere, or -1. */
static inline double g_ray_enters_sphere(const double o[3], const double d[3], const double c[3], double r)
{
    double m[3];
    g_sub(o, c, m);
    const double a = g_dot(d, d), b = g_dot(m, d), cc = g_dot(m, m) - r * r;
    if (!(a > 0) || cc < 0 || b > 0) return -1; /* starts inside, or moves away */
    const double disc = b * b - a * cc;
    return disc < 0 ? -1 : (-b - sqrt(disc)) / a;
}

/* Where the segment p0 + s (p1 - p0) first enters the capsule (r, l): s
 * in [0, 1], or -1 (it starts inside, or misses). */
static inline double g_segment_enters_capsule(double r, double l, const double p0[3], const double p1[3])
{
    double d[3], q[3], n[3];
    g_sub(p1, p0, d);
    if (g_capsule_distance(r, l, p0, q, n) < 0) return -1;
    double best = -1;
    /* the cylinder's side: (x, z) of the point on the circle of radius r */
    const double a = d[0] * d[0] + d[2] * d[2], b = p0[0] * d[0] + p0[2] * d[2];
    const double c = p0[0] * p0[0] + p0[2] * p0[2] - r * r;
    if (a > 0 && c >= 0 && b < 0 && b * b - a * c >= 0) {
        const double s = (-b - sqrt(b * b - a * c)) / a, y = p0[1] + s * d[1];
        if (y >= -0.5 * l && y <= 0.5 * l) best = s;
    }
    for (int e = -1; e <= 1; e += 2) { /* the end spheres, beyond the ends of the axis */
        const double c0[3] = {0, 0.5 * l * e, 0};
        const double s = g_ray_enters_sphere(p0, d, c0, r);
        if (s >= 0 && (best < 0 || s < best)) best = s;
    }
    return best >= 0 && best <= 1 ? best : -1;
}

#endif
