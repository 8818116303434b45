/* external.h — the per-particle external forces (gravity, air drag, ground): their parameters and their one formula. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_EXTERNAL_H
#define HOOKE_EXTERNAL_H

#include "hooke/hooke.h"

/* The world's external-force parameters in the kernels' precision. */
typedef struct hk_external {
    hk_real g[3];     /* gravity [m/s^2] */
    hk_real air_drag; /* c_air in f = -c_air v [N*s/m] */
    hk_ground_model ground;
    hk_real ground_h;    /* plane y = ground_h [m], in the frame of the body at hand (hk_external_frame) */
    hk_real ground_krep; /* REPULSION: k_rep [N/m] */
    hk_real ground_fric; /* REPULSION: c_fric [N*s/m] */
    hk_real ground_abs;  /* REPULSION: c_abs [N*s/m] */
    hk_real ground_k;    /* SPRING: k_coll [N/m] */
    /* per-particle contact force [N] by global index (contact/response.h),
     * added to the external force; NULL (all three): no particle touches */
    const hk_real *contact[3];
} hk_external;

static inline void hk_external_init(hk_external *e, const hk_world_def *d)
{
    e->g[0] = (hk_real)d->gravity.x;
    e->g[1] = (hk_real)d->gravity.y;
    e->g[2] = (hk_real)d->gravity.z;
    e->air_drag = (hk_real)d->air_drag;
    e->ground = d->ground.model;
    e->ground_h = (hk_real)d->ground.height;
    e->ground_krep = (hk_real)d->ground.repulsion;
    e->ground_fric = (hk_real)d->ground.friction;
    e->ground_abs = (hk_real)d->ground.absorption;
    e->ground_k = (hk_real)d->ground.stiffness;
    e->contact[0] = e->contact[1] = e->contact[2] = NULL;
}

/* e for the particles of a body with origin height origin_y [m]: their
 * heights are y = r_y + q_y above it, so the plane is at h - origin_y. */
static inline void hk_external_frame(hk_external *e, const hk_world_def *d, double origin_y)
{
    e->ground_h = (hk_real)(d->ground.height - origin_y);
}

#endif

/* The formula, in a kernel translation unit (after simd.h). */
#if defined(HK_W) && !defined(HOOKE_EXTERNAL_LANES)
#define HOOKE_EXTERNAL_LANES
/* The external force on W particles of mass m at height y (above their
 * body's origin: r_y + q_y) with velocity v:
 *   f = m g - c_air v, and below the ground plane y < h
 *   REPULSION (rope tutorial): f -= c_fric v_t; f_y -= c_abs v_y while
 *             v_y < 0; f_y += k_rep (h - y)
 *   SPRING (soft-body book):   f_y -= k_coll (y - h)
 * in this order of operations. */
static inline void external_lanes(const hk_external *e, hk_w m, hk_w y, hk_w vx, hk_w vy, hk_w vz, hk_w *fx, hk_w *fy,
                                  hk_w *fz)
{
    const hk_w c = w_set1(e->air_drag);
    hk_w gx = w_sub(w_mul(m, w_set1(e->g[0])), w_mul(c, vx));
    hk_w gy = w_sub(w_mul(m, w_set1(e->g[1])), w_mul(c, vy));
    hk_w gz = w_sub(w_mul(m, w_set1(e->g[2])), w_mul(c, vz));
    if (e->ground != HK_GROUND_NONE) {
        const hk_w h = w_set1(e->ground_h), zero = w_set1(0);
        const hk_wm below = w_lt(y, h);
        if (e->ground == HK_GROUND_REPULSION) {
            const hk_w cf = w_set1(e->ground_fric);
            gx = w_select(below, gx, w_sub(gx, w_mul(cf, vx)));
            gz = w_select(below, gz, w_sub(gz, w_mul(cf, vz)));
            gy = w_select(wm_and(below, w_lt(vy, zero)), gy, w_sub(gy, w_mul(w_set1(e->ground_abs), vy)));
            gy = w_select(below, gy, w_add(gy, w_mul(w_set1(e->ground_krep), w_sub(h, y))));
        } else {
            gy = w_select(below, gy, w_sub(gy, w_mul(w_set1(e->ground_k), w_sub(y, h))));
        }
    }
    *fx = gx;
    *fy = gy;
    *fz = gz;
}

/* f += the contact force c (hk_external.contact, NULL: none) of the W
 * particles from global index g (the first n lanes): after external_lanes,
 * before the springs. The passes call it with NULL or the arrays chosen
 * once per pass (contact_of), so that a world without contacts runs the
 * loops it ran before they existed. */
static inline __attribute__((always_inline)) void contact_lanes(const hk_real *const *c, int64_t g, int n, hk_w *fx,
                                                                hk_w *fy, hk_w *fz)
{
    if (!c) return;
    *fx = w_add(*fx, w_load_lanes(c[0] + g, n));
    *fy = w_add(*fy, w_load_lanes(c[1] + g, n));
    *fz = w_add(*fz, w_load_lanes(c[2] + g, n));
}
static inline const hk_real *const *contact_of(const hk_external *e) { return e->contact[0] ? e->contact : NULL; }
#endif
