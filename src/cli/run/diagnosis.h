/* diagnosis.h — what a blow-up report says: the energy bound of closed worlds, and the hint that names the cause. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_DIAGNOSIS_H
#define HOOKE_DIAGNOSIS_H

#include <stdint.h>
#include <stdio.h>

#include "hooke/hooke.h"

/* A world's total energy (kinetic + gravitational + spring) may swing but
 * not grow without bound unless something feeds it. A run counts the
 * energy as run away once it exceeds its start by HK_ENERGY_GROWTH times
 * the starting scale, plus what float rounding explains: a stable
 * symplectic scheme at omega*dt = 1.99 swings by less (from rest, by
 * 1 / (1 - omega dt / 2), 50 at omega*dt = 1.96).
 *
 * The rounding: every substep rounds each particle's position and velocity
 * (a few times, over an integrator's stages), each by at most u (the unit
 * roundoff of hk_real: 6e-8 in float) of its value, which moves gravity's
 * energy by at most u m |g| |q| and the kinetic energy by u m |v|^2. In a
 * body that falls, both are of the work gravity has done, W = |G - G0|:
 * m |g| |q| sums to W and m v^2 to 2 W. So after N substeps rounding
 * explains up to HK_ENERGY_ROUNDING u N W (4 roundings of 3 u W each; a
 * cloth falling freely for 100 s drifts by 0.7 u N W). W is the energy in
 * motion that rounding acts on; a runaway's own energy is not in it (an
 * integrator that adds energy to springs moves no mass down), so a runaway
 * is caught where it always was. */
#define HK_ENERGY_GROWTH 100.0
#define HK_ENERGY_ROUNDING 12.0

typedef struct hk_energy_guard {
    int active;       /* 0: the world has an energy source (source says which); no bound */
    double e0;        /* total energy at the run's start (step 0, also after a restart) [J] */
    double scale;     /* the starting scale: the largest of |E0|, the sum of its terms' magnitudes, and the
                       * energy of every spring stretched by 1 % of its rest length [J] */
    double g0;        /* gravity's energy at the start [J] */
    double moved;     /* the energy in motion: the largest work gravity has done, |G - G0|, seen so far [J] */
    char source[160]; /* what feeds the world energy, when not active */
} hk_energy_guard;

/* The bound of w at its current state: active unless the world has wind,
 * pressure bodies, driven anchors that move, or moving spheres. */
void hk_energy_guard_init(hk_energy_guard *g, const hk_world *w);
/* The drift rounding explains after `substeps` substeps from the start [J]. */
double hk_energy_rounding(const hk_energy_guard *g, int64_t substeps);
/* Takes the statistics s of the state after `substeps` substeps from the
 * start (the work gravity has done into moved); 1 when the energy is past
 * the bound: s->total - e0 > HK_ENERGY_GROWTH * scale + hk_energy_rounding. */
int hk_energy_runaway(hk_energy_guard *g, const hk_stats *s, int64_t substeps);

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
 * takes explicitly or the solver. With b NULL it reports an energy runaway
 * at energy energy_e after `substeps` substeps from the start. */
void hk_report_blowup(FILE *out, const hk_world *w, const hk_blowup *b, const hk_energy_guard *g, double energy_e,
                      int64_t substeps, const char *scene, double stretch_limit);

/* How often a run checks for a blow-up (hk_world_check_stats and the
 * energy bound), in steps: on steps s with s % cadence == 0, by the
 * problem's size alone (diagnosis.c says why): 1 up to 4096 particles +
 * springs, then 2, 4, ... up to 256; 1 with contact between bodies. `hooke
 * run` and the Python module's World.step check on it. */
int64_t hk_check_cadence(const hk_world *w);
/* The same rule for w as part of a larger job of `items` particles +
 * springs (a batch of worlds, checked as one world holding them all). */
int64_t hk_check_cadence_of(const hk_world *w, int64_t items);

/* A state no run can start from, the scene's error: 1 when hk_world_check
 * finds a blow-up in w as built, with "SCENE:LINE: error: body B starts
 * past the stretch limit: ..." or "... starts with a CAUSE at particle P
 * (value V)" in err, LINE the scene line that opens the body (body_line,
 * per body; NULL: 1); else 0. hooke run and the Python module's World
 * refuse such a scene. */
int hk_start_refused(const hk_world *w, double stretch_limit, const int *body_line, const char *scene, char *err,
                     size_t errlen);

#endif
