/* update.h — the explicit one-evaluation updates (Euler, semi-implicit Euler, jelly): parameters and one formula. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_UPDATE_H
#define HOOKE_UPDATE_H

#include "hooke/hooke.h"

/* What is done with a particle's total force once it is known. */
typedef enum hk_update_kind {
    HK_UPDATE_NONE = 0,      /* keep the force in f only */
    HK_UPDATE_EULER,         /* explicit Euler: x += v h; v += f/m h */
    HK_UPDATE_SEMI_IMPLICIT, /* semi-implicit Euler: v += f/m h; x += v h */
    HK_UPDATE_JELLY,         /* the jelly scheme: v += dt_a f/m; x += dt_v v; v *= alpha */
} hk_update_kind;

typedef struct hk_update {
    hk_update_kind kind;
    hk_real h;                 /* substep [s] */
    hk_real dt_a, dt_v, alpha; /* jelly scheme: [s], [s], [1] */
} hk_update;

/* The update of `kind` over a substep h under integrator setting d (the
 * jelly steps default to h). */
static inline hk_update hk_update_make(hk_update_kind kind, hk_real h, const hk_integrator_def *d)
{
    hk_update u;
    u.kind = kind;
    u.h = h;
    u.dt_a = d->jelly_dt_a > 0 ? (hk_real)d->jelly_dt_a : h;
    u.dt_v = d->jelly_dt_v > 0 ? (hk_real)d->jelly_dt_v : h;
    u.alpha = (hk_real)d->jelly_alpha;
    return u;
}

#endif

/* The formula, in a kernel translation unit (after simd.h). */
#if defined(HK_W) && !defined(HOOKE_UPDATE_LANES)
#define HOOKE_UPDATE_LANES
/* Updates the first n (<= W) particles at x .. vz from their total force f
 * and inverse mass im; a particle with im = 0 (pinned, driven) keeps its
 * state. Per coordinate, in this order of operations:
 *   EULER:         x' = x + v h;        v' = v + (f im) h
 *   SEMI_IMPLICIT: v' = v + (f im) h;   x' = x + v' h
 *   JELLY:         v* = v + (dt_a f) im; x' = x + dt_v v*; v' = v* alpha */
static inline __attribute__((always_inline)) void update_lanes(const hk_update *u, hk_w im, hk_w fx, hk_w fy, hk_w fz,
                                                               hk_real *x, hk_real *y, hk_real *z, hk_real *vx,
                                                               hk_real *vy, hk_real *vz, int n)
{
    const hk_wm free = w_neq(im, w_set1(0));
    const hk_w h = w_set1(u->h);
    hk_w px = w_load_lanes(x, n), py = w_load_lanes(y, n), pz = w_load_lanes(z, n);
    hk_w ux = w_load_lanes(vx, n), uy = w_load_lanes(vy, n), uz = w_load_lanes(vz, n);
    hk_w nx, ny, nz, nux, nuy, nuz;
    if (u->kind == HK_UPDATE_EULER) {
        nx = w_add(px, w_mul(ux, h));
        ny = w_add(py, w_mul(uy, h));
        nz = w_add(pz, w_mul(uz, h));
        nux = w_add(ux, w_mul(w_mul(fx, im), h));
        nuy = w_add(uy, w_mul(w_mul(fy, im), h));
        nuz = w_add(uz, w_mul(w_mul(fz, im), h));
    } else if (u->kind == HK_UPDATE_SEMI_IMPLICIT) {
        nux = w_add(ux, w_mul(w_mul(fx, im), h));
        nuy = w_add(uy, w_mul(w_mul(fy, im), h));
        nuz = w_add(uz, w_mul(w_mul(fz, im), h));
        nx = w_add(px, w_mul(nux, h));
        ny = w_add(py, w_mul(nuy, h));
        nz = w_add(pz, w_mul(nuz, h));
    } else {
        const hk_w dta = w_set1(u->dt_a), dtv = w_set1(u->dt_v), alpha = w_set1(u->alpha);
        nux = w_add(ux, w_mul(w_mul(dta, fx), im));
        nuy = w_add(uy, w_mul(w_mul(dta, fy), im));
        nuz = w_add(uz, w_mul(w_mul(dta, fz), im));
        nx = w_add(px, w_mul(dtv, nux));
        ny = w_add(py, w_mul(dtv, nuy));
        nz = w_add(pz, w_mul(dtv, nuz));
        nux = w_mul(nux, alpha);
        nuy = w_mul(nuy, alpha);
        nuz = w_mul(nuz, alpha);
    }
    w_store_lanes(x, w_select(free, px, nx), n);
    w_store_lanes(y, w_select(free, py, ny), n);
    w_store_lanes(z, w_select(free, pz, nz), n);
    w_store_lanes(vx, w_select(free, ux, nux), n);
    w_store_lanes(vy, w_select(free, uy, nuy), n);
    w_store_lanes(vz, w_select(free, uz, nuz), n);
}
#endif
