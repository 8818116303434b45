/* diagnosis.h — what a blow-up report says: the energy bound of closed worlds, and the hint that names the cause. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_DIAGNOSIS_H
#define HOOKE_DIAGNOSIS_H

#include <stdio.h>

#include "hooke/hooke.h"

/* A world's total energy (kinetic + gravitational + spring) may swing but
 * not grow without bound unless something feeds it. A run (and the
 * stability profiler) counts the energy as run away once it exceeds its
 * start by HK_ENERGY_GROWTH times the starting scale: a stable symplectic
 * scheme at omega*dt = 1.99 swings by less (from rest, by 1 / (1 - omega
 * dt / 2), 50 at omega*dt = 1.96). */
#define HK_ENERGY_GROWTH 100.0

typedef struct hk_energy_guard {
    int active;       /* 0: the world has an energy source (source says which); no bound */
    double e0;        /* total energy at the start [J] */
    double scale;     /* the starting scale: the largest of |E0|, the sum of its terms' magnitudes, and the
                       * energy of every spring stretched by 1 % of its rest length [J] */
    char source[160]; /* what feeds the world energy, when not active */
} hk_energy_guard;

/* The bound of w at its current state: active unless the world has wind,
 * pressure bodies, driven anchors that move, or moving spheres. */
void hk_energy_guard_init(hk_energy_guard *g, const hk_world *w);
/* 1 when energy e [J] is past the bound (growth over e0 > HK_ENERGY_GROWTH * scale). */
int hk_energy_runaway(const hk_energy_guard *g, double e);

/* Upper bound on the highest angular frequency of the linearised spring
 * network [rad/s]: Gershgorin on the mass-weighted stiffness matrix,
 * max_i sum_j k_ij (1/m_i + 1/sqrt(m_i m_j)) (exact for a fixed-end oscillator,
 * sqrt(k/m), and a long chain, 2 sqrt(k/m)), the ground spring included. */
double hk_omega_max(const hk_world *w);

/* The integrator's stability limit on the undamped oscillator as text:
 * "2", "2.83", "none" (it gains energy at every dt) or "any" (stable at
 * every dt on it, a linear spring: the implicit ones, which a nonlinear
 * scene can still fail at large omega*dt); written into buf (16 bytes are
 * enough), which is returned. */
const char *hk_stability_limit_text(const hk_integrator_info *in, char *buf, size_t len);

/* Before a run: under an explicit integrator with a finite stability
 * limit, a warning on `out` when omega_max * dt (hk_omega_max, the
 * collider and contact springs included) is past the limit: "hooke:
 * warning: SCENE: omega*dt = ... above INTEGRATOR's stability limit ...".
 * The bound is an upper one, so the run may still hold; 1 if it warned. */
int hk_warn_unstable(FILE *out, const hk_world *w, const char *scene);

/* How a run ended in a blow-up, and why: the report on `out`, then the
 * hint that names the likely cause with its numbers: for an explicit
 * integrator, omega*dt near or past its stability limit ("lower dt") or,
 * far below it, a spring overstretched by the load or the initial state
 * ("check masses and stiffnesses"); for an implicit one, the terms it
 * takes explicitly or the solver. energy_e > 0 reports an energy runaway
 * (b is NULL then). */
void hk_report_blowup(FILE *out, const hk_world *w, const hk_blowup *b, const hk_energy_guard *g, double energy_e,
                      const char *scene, double stretch_limit);

#endif
