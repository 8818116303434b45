/* diagnosis.h — what a blow-up report says: the energy bound of closed worlds, and the hint that names the cause. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_DIAGNOSIS_H
#define HOOKE_DIAGNOSIS_H

#include <stdint.h>
#include <stdio.h>

#include "hooke/hooke.h"

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
