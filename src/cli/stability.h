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

/* The progress line of `hooke stability` on a terminal, into buf (160 bytes are enough):
 * "stability: rk4 dt 1.20e-03 (7 of 60 runs, then bisections), ETA 2 min" in the sweep,
 * "stability: bisecting rk4 dt 2.83e-01 (3 of 22 runs), ETA 40 s" in the bisections;
 * no ", ETA ..." while eta_s is NAN (no run done yet). */
void hk_stability_progress_text(char *buf, size_t len, int bisecting, const char *integrator, double dt, int done,
                                int total, double eta_s);

/* `hooke stability SCENE ...`; returns an exit status. */
int hk_cmd_stability(int argc, char **argv);

#endif
