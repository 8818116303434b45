/* soft.h — the soft contact law, one home for colliders and pairs: the layer's spring and its normal damper. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_CONTACT_SOFT_H
#define HOOKE_CONTACT_SOFT_H

#include <math.h>

/*
 * A contact within its layer (thickness th, gap phi < th) pushes along its
 * normal with a spring across the layer and a damper on the normal motion:
 *     f_n = k (th - phi) - c v_n,   c = 2 zeta sqrt(k m),
 * k the stiffness [N/m], zeta the damping ratio [1], m the contact's mass
 * [kg] (a particle's, or a pair's effective mass), v_n the normal velocity
 * [m/s] (< 0: closing). It acts only while f_n > 0: a contact that moves
 * away faster than the spring pushes is not pulled back. Its blocks are
 * K = k n n^T and D = c n n^T. Plain double arithmetic without branches,
 * so that it vectorises inside `#pragma omp simd` loops; the order of the
 * operations is the law's bits (the build keeps a * b + c unfused).
 */

/* The law's parameters at one contact. */
typedef struct hk_soft {
    double k; /* the spring's stiffness [N/m] */
    double c; /* the normal damping coefficient [N s/m] */
} hk_soft;

/* The law's parameters from the stiffness k [N/m], the damping ratio zeta [1] of the normal motion (1: critical)
 * and the contact's mass m [kg]. */
static inline hk_soft hk_soft_make(double k, double zeta, double m)
{
    const hk_soft s = {k, 2 * zeta * sqrt(k * m)};
    return s;
}

/* The normal force [N] at depth th - phi [m] into the layer and normal velocity vn [m/s]; it acts where > 0. */
static inline double hk_soft_force(hk_soft s, double depth, double vn) { return s.k * depth - s.c * vn; }

/* How deep [m] the law's undamped spring stops a contact of mass m [kg] meeting it at normal speed vn [m/s] (< 0:
 * closing): its kinetic energy m vn^2 / 2 stored in the spring, -vn sqrt(m / k); 0 for no mass. */
static inline double hk_soft_stop_depth(double k, double m, double vn) { return m > 0 ? -vn * sqrt(m / k) : 0; }

#endif
