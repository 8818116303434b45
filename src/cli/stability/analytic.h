/* analytic.h — the closed-form motions that `hooke stability` measures its runs against: oscillator and pendulum. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_ANALYTIC_H
#define HOOKE_ANALYTIC_H

#include "world.h"

/* The scenes with an analytic answer: the oscillator and the pendulum. */
enum { HK_ANALYTIC_NONE, HK_ANALYTIC_OSCILLATOR, HK_ANALYTIC_PENDULUM };

typedef struct hk_analytic {
    int kind;                  /* HK_ANALYTIC_... */
    int bob;                   /* particle index of the moving mass */
    double anchor[3], axis[3]; /* the pinned particle [m]; the spring axis, or down along gravity [1] */
    /* oscillator: extension along axis L0 + d0 cos(omega t) + v0 / omega sin(omega t) */
    double L0, d0, v0, omega;
    /* pendulum: bob at anchor + L (sin(theta) side + cos(theta) axis), axis along gravity */
    double side[3], L, theta0, omega0, m, K, period;
} hk_analytic;

/* The closed form of w's scene, read from its state at the start: a
 * "pair" body (one spring, one end pinned) without gravity is a harmonic
 * oscillator along the spring; a "pendulum" body under gravity, released
 * from rest, the exact pendulum (the rod's static stretch m g / k counted
 * in its length). Neither (kind HK_ANALYTIC_NONE) for any other scene, or
 * with ground, drag, damping, walls or spheres. */
hk_analytic hk_analytic_find(const hk_world *w);
/* Distance [m] of the bob at time t [s] from the closed form. */
double hk_analytic_error(const hk_analytic *o, const hk_world *w, double t);

#endif
