/* tether_term.h — a test-only per-particle force (a spring to a fixed point) added through the descriptor alone. */
/* SPDX-License-Identifier: MIT */
/*
 * Compiled into a test copy of the core (HOOKE_EXTRA_TERMS, src/CMakeLists.txt
 * hooke_core_tether): f = -k (x - c) on every particle, with potential
 * energy k |x - c|^2 / 2. It has no field of hk_world_def (its constants are
 * below), reads all three coordinates of the position, and is written
 * exactly as a new force would be, in this one file: tests/test_external_term.c
 * checks that stats, the energy total and every kernel path see it.
 */
#ifndef HOOKE_TETHER_TERM_H
#define HOOKE_TETHER_TERM_H

#define HK_EXTRA_TERMS(X) X(tether)

#define TETHER_K 2.0      /* k [N/m] */
#define TETHER_C_X 1000.0 /* the fixed point c [m], world frame: far from the origin, */
#define TETHER_C_Y 3.0    /* so that bodies' frames matter */
#define TETHER_C_Z (-250.0)

typedef struct hk_term_tether {
    hk_real k;    /* [N/m] */
    hk_real c[3]; /* c [m], in the frame of the body at hand (tether_frame) */
} hk_term_tether;
#define HK_FIELDS_tether(F)
static inline void tether_init(hk_term_tether *t, const hk_world_def *d)
{
    (void)d;
    t->k = (hk_real)TETHER_K;
    t->c[0] = (hk_real)TETHER_C_X;
    t->c[1] = (hk_real)TETHER_C_Y;
    t->c[2] = (hk_real)TETHER_C_Z;
}
static inline void tether_frame(hk_term_tether *t, const hk_world_def *d, const double o[3])
{
    (void)d;
    t->c[0] = (hk_real)(TETHER_C_X - o[0]);
    t->c[1] = (hk_real)(TETHER_C_Y - o[1]);
    t->c[2] = (hk_real)(TETHER_C_Z - o[2]);
}
static inline unsigned tether_reads(const hk_world_def *d) { return (void)d, HK_READ_X | HK_READ_Y | HK_READ_Z; }
static inline HK_HD double tether_energy(const hk_world_def *d, double m, const double x[3])
{
    (void)d, (void)m;
    const double r[3] = {x[0] - TETHER_C_X, x[1] - TETHER_C_Y, x[2] - TETHER_C_Z};
    return 0.5 * TETHER_K * (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
}
static inline double tether_stiffness(const hk_world_def *d) { return (void)d, TETHER_K; }
static inline const char *tether_source(const hk_world_def *d) { return (void)d, NULL; }
static inline int tether_closed_form(const hk_world_def *d) { return (void)d, 0; }
#endif

#if defined(HK_W) && !defined(HOOKE_TETHER_TERM_LANES)
#define HOOKE_TETHER_TERM_LANES
static inline void tether_lanes(const hk_term_tether *t, hk_w m, const hk_w x[3], const hk_w v[3], hk_w f[3])
{
    (void)m, (void)v;
    const hk_w k = w_set1(t->k);
    for (int c = 0; c < 3; c++) f[c] = w_sub(f[c], w_mul(k, w_sub(x[c], w_set1(t->c[c]))));
}
#endif
