/* external.h — the per-particle forces (gravity, air drag, ground): one descriptor each, its formula and its facts. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_EXTERNAL_H
#define HOOKE_EXTERNAL_H

#include <stddef.h>

#include "bounds.h"
#include "hd.h"
#include "hooke/hooke.h"

/*
 * A per-particle force is one term of HK_EXTERNAL_TERMS, and everything
 * hooke knows about it is written here, next to its formula. A term NAME
 * holds, in this order:
 *   hk_term_NAME              its parameters in the kernels' precision
 *   HK_FIELDS_NAME(F)         its fields of hk_world_def and what each accepts,
 *                             F(name, member, rule, a, b): rows of the
 *                             definition's check (world_def.c, bounds.h hk_field)
 *   NAME_init(t, d)           the parameters from the world's definition d
 *   NAME_frame(t, d, o)       ... for the particles of a body with origin o [m]
 *                             (positions are in their body's frame: world.h)
 *   NAME_reads(d)             the coordinates of the position it reads
 *                             (HK_READ_X | HK_READ_Y | HK_READ_Z), 0 for none
 *   NAME_energy(d, m, x)      its potential energy for a particle of mass m at
 *                             world position x [J], 0 if it has none; summed
 *                             into hk_stats (total; gravity's alone also into
 *                             gravity), so the run's energy guard counts it
 *   NAME_stiffness(d)         its stiffness on one particle [N/m], which the
 *                             blow-up hint's omega_max adds (core/step/diagnosis.c)
 *   NAME_source(d)            what it is called when it feeds a world energy
 *                             that no potential accounts for (the energy guard
 *                             is then off and the report names it), else NULL
 *   NAME_closed_form(d)       1 if the closed-form checks (cli/stability/
 *                             analytic.c: the oscillator, the pendulum) still
 *                             hold with it as d sets it
 *   NAME_lanes(t, m, x, v, f) its force on W particles (kernel translation
 *                             units: below), added to f in table order; the
 *                             first term writes f
 * The kernels inline every term (external_lanes), so a term costs what its
 * formula costs; its scalar facts are read once per step or per report.
 */
#define HK_EXTERNAL_TERMS(X) X(gravity) X(air_drag) X(ground) HK_EXTRA_TERMS(X)

enum { HK_READ_X = 1, HK_READ_Y = 2, HK_READ_Z = 4 };

/* ------------------------------------------------------------------------ */
/* gravity: f = m g                                                          */

typedef struct hk_term_gravity {
    hk_real g[3]; /* [m/s^2] */
} hk_term_gravity;
#define HK_FIELDS_gravity(F) F("gravity", gravity, HK_RULE_VEC, 0, 0)
static inline void gravity_init(hk_term_gravity *t, const hk_world_def *d)
{
    t->g[0] = (hk_real)d->gravity.x;
    t->g[1] = (hk_real)d->gravity.y;
    t->g[2] = (hk_real)d->gravity.z;
}
static inline void gravity_frame(hk_term_gravity *t, const hk_world_def *d, const double o[3])
{
    (void)t, (void)d, (void)o;
}
static inline unsigned gravity_reads(const hk_world_def *d) { return (void)d, 0; }
static inline HK_HD double gravity_energy(const hk_world_def *d, double m, const double x[3])
{
    return -(m * (d->gravity.x * x[0] + d->gravity.y * x[1] + d->gravity.z * x[2]));
}
static inline double gravity_stiffness(const hk_world_def *d) { return (void)d, 0; }
static inline const char *gravity_source(const hk_world_def *d) { return (void)d, (const char *)NULL; }
/* the closed forms take gravity in (the pendulum needs it, the oscillator checks that it is 0) */
static inline int gravity_closed_form(const hk_world_def *d) { return (void)d, 1; }

/* ------------------------------------------------------------------------ */
/* air drag: f = -c_air v (dissipates: no potential)                         */

typedef struct hk_term_air_drag {
    hk_real c; /* c_air [N*s/m] */
} hk_term_air_drag;
#define HK_FIELDS_air_drag(F) F("air_drag", air_drag, HK_RULE_BOUND_OR_0, HK_BOUND_DAMPING, 0)
static inline void air_drag_init(hk_term_air_drag *t, const hk_world_def *d) { t->c = (hk_real)d->air_drag; }
static inline void air_drag_frame(hk_term_air_drag *t, const hk_world_def *d, const double o[3])
{
    (void)t, (void)d, (void)o;
}
static inline unsigned air_drag_reads(const hk_world_def *d) { return (void)d, 0; }
static inline HK_HD double air_drag_energy(const hk_world_def *d, double m, const double x[3])
{
    return (void)d, (void)m, (void)x, 0;
}
static inline double air_drag_stiffness(const hk_world_def *d) { return (void)d, 0; }
static inline const char *air_drag_source(const hk_world_def *d) { return (void)d, (const char *)NULL; }
static inline int air_drag_closed_form(const hk_world_def *d) { return d->air_drag == 0; }

/* ------------------------------------------------------------------------ */
/* ground: below the plane y < h, REPULSION (rope tutorial) f -= c_fric v_t, */
/* f_y -= c_abs v_y while v_y < 0, f_y += k_rep (h - y); SPRING (soft-body   */
/* book) f_y -= k_coll (y - h). A contact: like walls and spheres, its       */
/* energy is not counted.                                                    */

typedef struct hk_term_ground {
    hk_ground_model model;
    hk_real h;    /* plane y = h [m], in the frame of the body at hand (ground_frame) */
    hk_real krep; /* REPULSION: k_rep [N/m] */
    hk_real fric; /* REPULSION: c_fric [N*s/m] */
    hk_real abs;  /* REPULSION: c_abs [N*s/m] */
    hk_real k;    /* SPRING: k_coll [N/m] */
} hk_term_ground;
#define HK_FIELDS_ground(F)                                                                                            \
    F("ground.model", ground.model, HK_RULE_INT, 0, HK_GROUND_MODEL_COUNT - 1)                                         \
    F("ground.height", ground.height, HK_RULE_FINITE, 0, 0)                                                            \
    F("ground.repulsion", ground.repulsion, HK_RULE_BOUND_OR_0, HK_BOUND_STIFFNESS, 0)                                 \
    F("ground.friction", ground.friction, HK_RULE_BOUND_OR_0, HK_BOUND_DAMPING, 0)                                     \
    F("ground.absorption", ground.absorption, HK_RULE_BOUND_OR_0, HK_BOUND_DAMPING, 0)                                 \
    F("ground.stiffness", ground.stiffness, HK_RULE_BOUND_OR_0, HK_BOUND_STIFFNESS, 0)
static inline void ground_init(hk_term_ground *t, const hk_world_def *d)
{
    t->model = d->ground.model;
    t->h = (hk_real)d->ground.height;
    t->krep = (hk_real)d->ground.repulsion;
    t->fric = (hk_real)d->ground.friction;
    t->abs = (hk_real)d->ground.absorption;
    t->k = (hk_real)d->ground.stiffness;
}
/* the particles' heights are y = r_y + q_y above their body's origin, so the plane is at h - o_y */
static inline void ground_frame(hk_term_ground *t, const hk_world_def *d, const double o[3])
{
    t->h = (hk_real)(d->ground.height - o[1]);
}
static inline unsigned ground_reads(const hk_world_def *d) { return d->ground.model != HK_GROUND_NONE ? HK_READ_Y : 0; }
static inline HK_HD double ground_energy(const hk_world_def *d, double m, const double x[3])
{
    return (void)d, (void)m, (void)x, 0;
}
static inline double ground_stiffness(const hk_world_def *d)
{
    return d->ground.model == HK_GROUND_REPULSION ? d->ground.repulsion
           : d->ground.model == HK_GROUND_SPRING  ? d->ground.stiffness
                                                  : 0;
}
static inline const char *ground_source(const hk_world_def *d) { return (void)d, (const char *)NULL; }
static inline int ground_closed_form(const hk_world_def *d) { return d->ground.model == HK_GROUND_NONE; }

/* ------------------------------------------------------------------------ */
/* A build may append terms of its own: HOOKE_EXTRA_TERMS names a header,    */
/* included here and again with the formulas below, that defines             */
/* HK_EXTRA_TERMS(X) and each term's parts as above (tests/tether_term.h,    */
/* compiled into a test copy of the core for tests/test_external_term.c).    */

#ifdef HOOKE_EXTRA_TERMS
#include HOOKE_EXTRA_TERMS
#else
#define HK_EXTRA_TERMS(X)
#endif

/* ------------------------------------------------------------------------ */
/* The terms together                                                        */

/* The world's per-particle forces in the kernels' precision, one member per term. */
typedef struct hk_external {
#define HK_TERM_MEMBER(name) hk_term_##name name;
    HK_EXTERNAL_TERMS(HK_TERM_MEMBER)
#undef HK_TERM_MEMBER
    unsigned reads; /* the coordinates some term reads (HK_READ_*): the others are not loaded */
    /* per-particle contact force [N] by global index (contact/response.h),
     * added after the terms; NULL (all three): no particle touches */
    const hk_real *contact[3];
} hk_external;

/* Which term: HK_TERM_gravity, ... (in table order), and how many. */
enum {
#define HK_TERM_INDEX(name) HK_TERM_##name,
    HK_EXTERNAL_TERMS(HK_TERM_INDEX)
#undef HK_TERM_INDEX
        HK_EXTERNAL_TERM_COUNT
};

static inline void hk_external_init(hk_external *e, const hk_world_def *d)
{
    e->reads = 0;
#define HK_TERM_INIT(name)                                                                                             \
    name##_init(&e->name, d);                                                                                          \
    e->reads |= name##_reads(d);
    HK_EXTERNAL_TERMS(HK_TERM_INIT)
#undef HK_TERM_INIT
    e->contact[0] = e->contact[1] = e->contact[2] = NULL;
}

/* e for the particles of a body with origin o [m] (hk_body.origin). */
static inline void hk_external_frame(hk_external *e, const hk_world_def *d, const double o[3])
{
#define HK_TERM_FRAME(name) name##_frame(&e->name, d, o);
    HK_EXTERNAL_TERMS(HK_TERM_FRAME)
#undef HK_TERM_FRAME
}

/* Whether bodies with origins a and b see the same forces (one frame for both): they differ at most in
 * coordinates no term reads. */
static inline int hk_external_same_frame(const hk_world_def *d, const double a[3], const double b[3])
{
    hk_external e;
    hk_external_init(&e, d);
    return (!(e.reads & HK_READ_X) || a[0] == b[0]) && (!(e.reads & HK_READ_Y) || a[1] == b[1]) &&
           (!(e.reads & HK_READ_Z) || a[2] == b[2]);
}

/* The potential energy of every term for a particle of mass m at world position x [J], into
 * energy[HK_EXTERNAL_TERM_COUNT] (added). */
static inline HK_HD void hk_external_energy(const hk_world_def *d, double m, const double x[3], double *energy)
{
#define HK_TERM_ENERGY(name) energy[HK_TERM_##name] += name##_energy(d, m, x);
    HK_EXTERNAL_TERMS(HK_TERM_ENERGY)
#undef HK_TERM_ENERGY
}

/* The terms' stiffness on one particle [N/m] (omega_max). */
static inline double hk_external_stiffness(const hk_world_def *d)
{
    double k = 0;
#define HK_TERM_STIFFNESS(name) k += name##_stiffness(d);
    HK_EXTERNAL_TERMS(HK_TERM_STIFFNESS)
#undef HK_TERM_STIFFNESS
    return k;
}

/* The first term that feeds d's world energy no potential accounts for, or NULL. */
static inline const char *hk_external_source(const hk_world_def *d)
{
    const char *s = NULL;
#define HK_TERM_SOURCE(name)                                                                                           \
    if (!s) s = name##_source(d);
    HK_EXTERNAL_TERMS(HK_TERM_SOURCE)
#undef HK_TERM_SOURCE
    return s;
}

/* 1 if every term, as d sets it, leaves the closed-form checks valid. */
static inline int hk_external_closed_form(const hk_world_def *d)
{
    int ok = 1;
#define HK_TERM_CLOSED(name) ok &= name##_closed_form(d);
    HK_EXTERNAL_TERMS(HK_TERM_CLOSED)
#undef HK_TERM_CLOSED
    return ok;
}

#endif

/* The formulas, in a kernel translation unit (after simd.h). */
#if defined(HK_W) && !defined(HOOKE_EXTERNAL_LANES)
#define HOOKE_EXTERNAL_LANES

static inline HK_HD void gravity_lanes(const hk_term_gravity *t, hk_w m, const hk_w x[3], const hk_w v[3], hk_w f[3])
{
    (void)x, (void)v;
    for (int c = 0; c < 3; c++) f[c] = w_mul(m, w_set1(t->g[c]));
}

static inline HK_HD void air_drag_lanes(const hk_term_air_drag *t, hk_w m, const hk_w x[3], const hk_w v[3], hk_w f[3])
{
    (void)m, (void)x;
    const hk_w c = w_set1(t->c);
    for (int k = 0; k < 3; k++) f[k] = w_sub(f[k], w_mul(c, v[k]));
}

static inline HK_HD void ground_lanes(const hk_term_ground *t, hk_w m, const hk_w x[3], const hk_w v[3], hk_w f[3])
{
    (void)m;
    if (t->model == HK_GROUND_NONE) return;
    const hk_w h = w_set1(t->h), zero = w_set1(0), y = x[1];
    const hk_wm below = w_lt(y, h);
    if (t->model == HK_GROUND_REPULSION) {
        const hk_w cf = w_set1(t->fric);
        f[0] = w_select(below, f[0], w_sub(f[0], w_mul(cf, v[0])));
        f[2] = w_select(below, f[2], w_sub(f[2], w_mul(cf, v[2])));
        f[1] = w_select(wm_and(below, w_lt(v[1], zero)), f[1], w_sub(f[1], w_mul(w_set1(t->abs), v[1])));
        f[1] = w_select(below, f[1], w_add(f[1], w_mul(w_set1(t->krep), w_sub(h, y))));
    } else {
        f[1] = w_select(below, f[1], w_sub(f[1], w_mul(w_set1(t->k), w_sub(y, h))));
    }
}

#ifdef HOOKE_EXTRA_TERMS
#include HOOKE_EXTRA_TERMS
#endif

/* The per-particle forces on W particles of mass m at position (x, y, z)
 * in their body's frame (r + q; hk_external_frame) with velocity v: the
 * terms in table order. */
static inline __attribute__((always_inline)) HK_HD void external_lanes(const hk_external *e, hk_w m, hk_w x, hk_w y,
                                                                       hk_w z, hk_w vx, hk_w vy, hk_w vz, hk_w *fx,
                                                                       hk_w *fy, hk_w *fz)
{
    const hk_w pos[3] = {x, y, z}, vel[3] = {vx, vy, vz};
    hk_w f[3];
#define HK_TERM_LANES(name) name##_lanes(&e->name, m, pos, vel, f);
    HK_EXTERNAL_TERMS(HK_TERM_LANES)
#undef HK_TERM_LANES
    *fx = f[0];
    *fy = f[1];
    *fz = f[2];
}

/* The position external_lanes gets for n particles: r + q of each
 * coordinate a term reads (e->reads), 0 for the others, which are not
 * loaded. */
static inline __attribute__((always_inline)) HK_HD void external_position(const hk_external *e,
                                                                          const hk_real *const r[3],
                                                                          const hk_real *const q[3], int n, hk_w *x,
                                                                          hk_w *y, hk_w *z)
{
    hk_w *const out[3] = {x, y, z};
    for (int c = 0; c < 3; c++)
        *out[c] = e->reads & (1u << c) ? w_add(w_load_lanes(r[c], n), w_load_lanes(q[c], n)) : w_set1(0);
}

/* f += the contact force c (hk_external.contact, NULL: none) of the W
 * particles from global index g (the first n lanes): after external_lanes,
 * before the springs. The passes call it with NULL or the arrays chosen
 * once per pass (contact_of), so that a world without contacts runs the
 * loops it ran before they existed. */
static inline __attribute__((always_inline)) HK_HD void contact_lanes(const hk_real *const *c, int64_t g, int n,
                                                                      hk_w *fx, hk_w *fy, hk_w *fz)
{
    if (!c) return;
    *fx = w_add(*fx, w_load_lanes(c[0] + g, n));
    *fy = w_add(*fy, w_load_lanes(c[1] + g, n));
    *fz = w_add(*fz, w_load_lanes(c[2] + g, n));
}
static inline HK_HD const hk_real *const *contact_of(const hk_external *e) { return e->contact[0] ? e->contact : NULL; }
#endif
