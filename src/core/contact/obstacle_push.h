/* obstacle_push.h — one free particle against the room walls or a sphere: the one home of that per-particle step. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_OBSTACLE_PUSH_H
#define HOOKE_OBSTACLE_PUSH_H

#include <math.h>

#include "frame.h"
#include "hd.h"
#include "hooke/hooke.h"

/* The contact of one free particle of a body with origin o, at r + q in its
 * frame with velocity v: with the walls [lo, hi] (each coordinate outside
 * put on the wall it crossed, its velocity into the wall reversed and
 * scaled by keep = 1 - loss), or with a sphere at centre c of radius R
 * moving at velocity cv (put on its surface along the line from the centre,
 * straight up from the exact centre, the normal velocity relative to the
 * sphere reflected as (1 + e) of it, e = 1 - loss), in world coordinates
 * in double. q gets the new place rounded once; prev, when not NULL
 * (position Verlet), becomes q - v dt. 1 if the particle was moved, else 0.
 * The one home of the obstacles' per-particle step: hk_contacts_apply and
 * the device backend (core/device) call it for every free particle. */
static inline HK_HD int hk_walls_push(const double o[3], const hk_real r[3], hk_real *const q[3], hk_real *const v[3],
                                      const double lo[3], const double hi[3], hk_real keep, hk_real dt,
                                      hk_real *const prev[3])
{
    double x[3];
    for (int c = 0; c < 3; c++) x[c] = hk_frame_world(o[c], r[c], *q[c]);
    int hit = 0;
    for (int c = 0; c < 3; c++) {
        if (x[c] < lo[c]) {
            x[c] = lo[c];
            if (*v[c] < 0) *v[c] = -keep * *v[c];
            hit = 1;
        } else if (x[c] > hi[c]) {
            x[c] = hi[c];
            if (*v[c] > 0) *v[c] = -keep * *v[c];
            hit = 1;
        }
    }
    if (!hit) return 0;
    for (int c = 0; c < 3; c++) *q[c] = (hk_real)hk_frame_disp(x[c], o[c], r[c]);
    if (prev)
        for (int c = 0; c < 3; c++) *prev[c] = *q[c] - *v[c] * dt;
    return 1;
}

static inline HK_HD int hk_sphere_push(const double o[3], const hk_real r[3], hk_real *const q[3], hk_real *const v[3],
                                       const double c[3], const double cv[3], double R, double e, hk_real dt,
                                       hk_real *const prev[3])
{
    double x[3];
    for (int k = 0; k < 3; k++) x[k] = hk_frame_world(o[k], r[k], *q[k]);
    const double dx = x[0] - c[0], dy = x[1] - c[1], dz = x[2] - c[2];
    const double r2 = dx * dx + dy * dy + dz * dz;
    if (!(r2 < R * R)) return 0;
    const double len = sqrt(r2);
    double nx = 0, ny = 1, nz = 0; /* a particle at the exact centre leaves upward */
    if (len > 0) {
        nx = dx / len;
        ny = dy / len;
        nz = dz / len;
    }
    const double on[3] = {c[0] + R * nx, c[1] + R * ny, c[2] + R * nz};
    for (int k = 0; k < 3; k++) *q[k] = (hk_real)hk_frame_disp(on[k], o[k], r[k]);
    /* reflect the normal part of the velocity relative to the sphere */
    const double vn = (*v[0] - cv[0]) * nx + (*v[1] - cv[1]) * ny + (*v[2] - cv[2]) * nz;
    if (vn < 0) {
        const double j = (1.0 + e) * vn;
        *v[0] = (hk_real)(*v[0] - j * nx);
        *v[1] = (hk_real)(*v[1] - j * ny);
        *v[2] = (hk_real)(*v[2] - j * nz);
    }
    if (prev)
        for (int k = 0; k < 3; k++) *prev[k] = *q[k] - *v[k] * dt;
    return 1;
}

#endif
