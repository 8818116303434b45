/* update.h — the explicit updates: Euler, semi-implicit Euler and jelly (fused), Verlet, velocity Verlet, RK4. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_UPDATE_H
#define HOOKE_UPDATE_H

#include "hd.h"
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

/* The updates of the schemes with more than one evaluation or a history
 * (core/step/integrators.c runs them over the particles after the force
 * pass; the device backend, core/device, per particle the same way): one
 * coordinate of one particle, q its displacement, v its velocity, f its
 * force, im its inverse mass (0: pinned or driven, left alone). Each is
 * written in the order of operations it is computed in. */

/* Position Verlet's first substep (no history): prev = q; q += a h2 (the
 * book's start) or q += v h + 0.5 a h2; v += a h, with a = f im. */
static inline HK_HD void hk_verlet_first(hk_real im, hk_real f, hk_real *q, hk_real *v, hk_real *prev, hk_real h,
                                         hk_real h2, int book_start)
{
    *prev = *q;
    if (im == 0) return;
    const hk_real a = f * im;
    *q += book_start ? a * h2 : *v * h + (hk_real)0.5 * a * h2;
    *v += a * h;
}

/* Position Verlet after the first: q' = 2 q - prev + a h2, v = (q' - prev) inv2h + a h, prev = q (inv2h = 1 / (2 h)).
 */
static inline HK_HD void hk_verlet_next(hk_real im, hk_real f, hk_real *q, hk_real *v, hk_real *prev, hk_real h,
                                        hk_real h2, hk_real inv2h)
{
    const hk_real xn = *q;
    if (im == 0) {
        *prev = xn;
        return;
    }
    const hk_real a = f * im;
    const hk_real xnew = 2 * xn - *prev + a * h2;
    *v = (xnew - *prev) * inv2h + a * h;
    *prev = xn;
    *q = xnew;
}

/* Half a velocity Verlet kick, v += (f im) hh, and with drift then q += v h (for the three coordinates of a free
 * particle: the caller skips im = 0). */
static inline HK_HD void hk_kick(hk_real im, const hk_real f[3], hk_real *const q[3], hk_real *const v[3], hk_real hh,
                                 int drift, hk_real h)
{
    for (int c = 0; c < 3; c++) *v[c] += f[c] * im * hh;
    if (!drift) return;
    for (int c = 0; c < 3; c++) *q[c] += *v[c] * h;
}

/* One classic RK4 stage of one coordinate: k = (v, f im) at the stage's state, the weighted sums sx, sv (stage 0
 * starts them), then the next stage's state from the start state x0, v0 (stages 0-2: advanced by ah) or the
 * substep's end (stage 3: h / 6 of the sums). */
static inline HK_HD void hk_rk4_stage(hk_real im, hk_real f, hk_real *q, hk_real *v, hk_real x0, hk_real v0,
                                      hk_real *sx, hk_real *sv, int stage, hk_real wt, hk_real ah, hk_real h)
{
    if (im == 0) return;
    const hk_real kx = *v, kv = f * im;
    if (stage == 0) {
        *sx = kx;
        *sv = kv;
    } else {
        *sx += wt * kx;
        *sv += wt * kv;
    }
    if (stage < 3) {
        *q = x0 + ah * kx;
        *v = v0 + ah * kv;
    } else {
        *q = x0 + h / 6 * *sx;
        *v = v0 + h / 6 * *sv;
    }
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
static inline __attribute__((always_inline)) HK_HD void update_lanes(const hk_update *u, hk_w im, hk_w fx, hk_w fy,
                                                                     hk_w fz, hk_real *x, hk_real *y, hk_real *z,
                                                                     hk_real *vx, hk_real *vy, hk_real *vz, int n)
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
