/* friction.h — the colliders' friction: static friction held by an anchor per particle, Coulomb's limit, the blocks. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_FRICTION_H
#define HOOKE_FRICTION_H

#include <math.h>

#include "collider.h"
#include "geometry.h"

/*
 * Static friction. A particle touching a collider with friction holds an
 * anchor on it, a point in the collider's frame (so it moves with a moving
 * collider), placed where the particle was when it first touched. The
 * tangential part d of its offset from the anchor pulls it back with a
 * spring that restores it within about a substep h, k_t = m / (2 h^2),
 * damped by c_t = m / h (omega_t h = 0.71, damping ratio 0.71: stable
 * under every integrator, explicit ones included, and stiff against any
 * load the friction can carry as h shrinks):
 *     f_t = -k_t d - c_t v_t,  at most friction f_n
 * (sliding: along the same direction, at that size). A steady sideways
 * load F below friction f_n holds the particle F / k_t from its anchor, at
 * rest. At each substep's first force evaluation the anchor is dragged to
 * within friction f_n / k_t of the particle, and let go where the particle
 * no longer touches it. A particle holds one anchor, on the first collider
 * (in order) that it touches with friction; any other it meets at the same
 * time holds it with the viscous friction min(friction f_n, (m / h) |v_t|)
 * against its slip. The anchors are state (response.h,
 * hk_contact_anchors): checkpoints keep them and a distributed run gathers
 * them.
 */

/* One particle's contact with one collider at one force evaluation. */
typedef struct hk_friction_contact {
    double mu;    /* the collider's friction coefficient [1], > 0 */
    double fn;    /* the normal force [N], > 0 */
    double m, h;  /* the particle's mass [kg] and the substep [s] */
    double n[3];  /* the surface's outward unit normal (world) */
    double vt[3]; /* the slip: the tangential part of the velocity relative to the surface [m/s] */
    double x[3];  /* the particle's place (world) [m] */
    double p[3];  /* the same in the collider's frame [m] */
} hk_friction_contact;

/* The anchor's spring k_t = m / (2 h^2) [N/m] and damper c_t = m / h [N s/m] of a contact of mass m [kg] at the
 * substep h [s]. */
static inline void hk_friction_spring(double m, double h, double *kt, double *ct)
{
    *kt = 0.5 * m / (h * h);
    *ct = m / h;
}

/* Whether the anchor's spring kt [N/m] on the tangential offset d [m] pulls harder than Coulomb's limit [N]
 * (sliding); then *s, the fraction of d the anchor, dragged along it, leaves: the spring pulls at the limit. The
 * substep's first evaluation drags a collider's anchor and a pair's alike. */
static inline int hk_friction_drag(double kt, double limit, const double d[3], double *s)
{
    const double off2 = g_dot(d, d);
    if (!(off2 * kt * kt > limit * limit)) return 0;
    *s = limit / kt / sqrt(off2);
    return 1;
}

/* The viscous friction of a contact without an anchor: -min(mu fn, (m / h)
 * |vt|) vt / |vt| (mu: the coefficient, fn the normal force [N], m the
 * contact's mass [kg], h the substep [s], n the unit normal, vt the slip
 * [m/s]) added to f, and its damping block (c (I - n n^T), sliding
 * without the slip's own direction) to D: a collider a particle meets
 * beside the one holding its anchor, and every contact between bodies. D NULL: the force alone. */
void hk_friction_viscous(double mu, double fn, double m, double h, const double n[3], const double vt[3], double f[3],
                         double D[6]);

/* The anchor's spring k_t on the tangential offset d [m] and its damper c_t on fc's slip, at most Coulomb's limit
 * fc->mu fc->fn (sliding: the same direction at that size), added to f, K and D (fc: mu, fn, n and vt; K and D
 * NULL: the force alone). */
void hk_friction_anchored(const hk_friction_contact *fc, double kt, double ct, const double d[3], double f[3],
                          double K[6], double D[6]);

/* Adds collider c's friction on particle i (its pose P) to the force f and
 * its stiffness K = -df/dx and damping D = -df/dv blocks (xx, xy, xz, yy,
 * yz, zz). anchor: the four per-particle arrays of hk_contact_anchors (x,
 * y, z in the collider's frame, collider index or -1). first: the
 * substep's first evaluation, which places or drags the anchor; *held: the
 * collider whose anchor holds the particle in this evaluation, -1 until
 * the first with friction that it touches (the caller lets the anchor go
 * where it stays -1 after a first evaluation). */
void hk_friction_add(hk_real *const anchor[4], int i, int c, const hk_pose *P, int first, int *held,
                     const hk_friction_contact *fc, double f[3], double K[6], double D[6]);

#endif
