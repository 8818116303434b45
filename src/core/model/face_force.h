/* face_force.h — a face's normal and corner force, a vertex's sum of them and its wind: the one home of each. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_FACE_FORCE_H
#define HOOKE_FACE_FORCE_H

#include <math.h>

#include "hd.h"
#include "hooke/hooke.h"

/* The formulas of surface.c's face and vertex passes (surface.h), in
 * double, for the CPU's passes and the device backend's (core/device)
 * alike. */

/* The area-weighted normal n of a face (|n| = its area; a ring edge's, dim
 * 2: its length, in the x-y plane) from its corners' places p[corner] in
 * the body's frame. */
static inline HK_HD void hk_face_normal(int dim, const double p[3][3], double n[3])
{
    if (dim == 2) {
        n[0] = p[1][1] - p[0][1];
        n[1] = -(p[1][0] - p[0][0]);
        n[2] = 0;
        return;
    }
    const double ux = p[1][0] - p[0][0], uy = p[1][1] - p[0][1], uz = p[1][2] - p[0][2];
    const double vx = p[2][0] - p[0][0], vy = p[2][1] - p[0][1], vz = p[2][2] - p[0][2];
    n[0] = 0.5 * (uy * vz - uz * vy);
    n[1] = 0.5 * (uz * vx - ux * vz);
    n[2] = 0.5 * (ux * vy - uy * vx);
}

/* The force ff a face puts on each of its dim corners: the pressure P n /
 * dim, and with the triangle wind c_w (N . W) N, N the unit normal, W = w -
 * the mean of the corners' velocities vel[corner]. */
static inline HK_HD void hk_face_force(int dim, double P, int wind, const double wv[3], double cw, const double n[3],
                                       const hk_real vel[3][3], double ff[3])
{
    for (int k = 0; k < 3; k++) ff[k] = P * n[k] / dim;
    if (wind != HK_WIND_TRIANGLE) return;
    const double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(len > 0)) return;
    double W[3];
    for (int k = 0; k < 3; k++) {
        double vm = 0;
        for (int q = 0; q < dim; q++) vm += vel[q][k];
        W[k] = wv[k] - vm / dim;
    }
    const double d = (n[0] * W[0] + n[1] * W[1] + n[2] * W[2]) / (len * len);
    for (int k = 0; k < 3; k++) ff[k] += cw * d * n[k];
}

/* Vertex v's sums of its faces' corner forces F and normals N, its faces
 * in ascending order (the CSR incidence vf_start, vf_face; face f's values
 * at face_f[3 f], face_n[3 f]). */
static inline HK_HD void hk_vertex_faces(const int *vf_start, const int *vf_face, const double *face_f,
                                         const double *face_n, int v, double F[3], double N[3])
{
    for (int k = 0; k < 3; k++) F[k] = N[k] = 0;
    for (int e = vf_start[v]; e < vf_start[v + 1]; e++) {
        const int f = vf_face[e];
        for (int k = 0; k < 3; k++) {
            F[k] += face_f[3 * (size_t)f + k];
            N[k] += face_n[3 * (size_t)f + k];
        }
    }
}

/* The vertex wind added to F: c_w ((w - v) . n) n, n = N / |N| the unit area-weighted vertex normal. */
static inline HK_HD void hk_vertex_wind(const double wv[3], double cw, const hk_real v[3], const double N[3],
                                        double F[3])
{
    const double len = sqrt(N[0] * N[0] + N[1] * N[1] + N[2] * N[2]);
    if (!(len > 0)) return;
    const double rel[3] = {wv[0] - v[0], wv[1] - v[1], wv[2] - v[2]};
    const double d = (rel[0] * N[0] + rel[1] * N[1] + rel[2] * N[2]) / (len * len);
    for (int k = 0; k < 3; k++) F[k] += cw * d * N[k];
}

/* Gauss-divergence and signed-tetrahedron volume terms of one triangle (p1,
 * p2, p3 counter-clockwise from outside), in double. */
static inline HK_HD double hk_face_volume(hk_volume_method method, const double p1[3], const double p2[3],
                                          const double p3[3])
{
    if (method == HK_VOLUME_TETRA) /* p1 . (p2 x p3) / 6 */
        return (p1[0] * (p2[1] * p3[2] - p2[2] * p3[1]) + p1[1] * (p2[2] * p3[0] - p2[0] * p3[2]) +
                p1[2] * (p2[0] * p3[1] - p2[1] * p3[0])) /
               6.0;
    /* x_mean n_x A with n A = N / 2, N = (p2 - p1) x (p3 - p1) */
    const double nx = (p2[1] - p1[1]) * (p3[2] - p1[2]) - (p2[2] - p1[2]) * (p3[1] - p1[1]);
    return (p1[0] + p2[0] + p3[0]) / 3.0 * nx * 0.5;
}

/* A face's term of its surface's enclosed volume (dim 2: an edge's term of the enclosed area, x_mean n_x l with n
 * l = (dy, -dx), the interior on the left), from its corners' places p[corner] in the body's frame. */
static inline HK_HD double hk_face_volume_term(int dim, hk_volume_method method, const double p[3][3])
{
    if (dim == 2) return 0.5 * (p[0][0] + p[1][0]) * (p[1][1] - p[0][1]);
    return hk_face_volume(method, p[0], p[1], p[2]);
}

#endif
