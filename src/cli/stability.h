/* stability.h — the stability profiler (`hooke stability`) and the omega_max estimate behind blow-up hints. */
#ifndef HOOKE_STABILITY_H
#define HOOKE_STABILITY_H

#include "hooke/hooke.h"

/* Upper bound on the highest angular frequency of the linearised spring
 * network [rad/s]: Gershgorin on the mass-weighted stiffness matrix,
 * max_i sum_j k_ij (1/m_i + 1/sqrt(m_i m_j)) (exact for a fixed-end oscillator,
 * sqrt(k/m), and a long chain, 2 sqrt(k/m)), the ground spring included. */
double hk_omega_max(const hk_world *w);

/* The integrator's stability limit on the undamped oscillator as text:
 * "2", "2.83", "none" (it gains energy at every dt) or "any" (stable at
 * every dt); written into buf (16 bytes are enough), which is returned. */
const char *hk_stability_limit_text(const hk_integrator_info *in, char *buf, size_t len);

/* `hooke stability SCENE ...`; returns an exit status. */
int hk_cmd_stability(int argc, char **argv);

#endif
