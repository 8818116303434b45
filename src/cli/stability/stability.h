/* stability.h — the stability profiler (`hooke stability`). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_STABILITY_H
#define HOOKE_STABILITY_H

#include "hooke/hooke.h"

/* The phases of a profile, in the order they run after the reference. */
enum { HK_STABILITY_SWEEP, HK_STABILITY_BISECTING, HK_STABILITY_REFERENCE };

/* The progress line of `hooke stability` on a terminal as it shows in room columns, into buf (200 bytes are
 * enough): "stability: reference implicit_euler dt 1.00e-04 (0 of 2 runs, then the sweep)" for the converged
 * reference, "stability: rk4 dt 1.20e-03 (7 of 60 runs, then bisections), ETA 2 min" in the sweep,
 * "stability: bisecting rk4 dt 2.83e-01 (3 of 22 runs), ETA 40 s" in the bisections; no ", ETA ..." while
 * eta_s is NAN (no run done yet). Where it is too wide, fields go whole (progress.h): ", then ...",
 * then "stability:", the dt, the runs and the ETA in turn; "" when not even the integrator's name fits. */
void hk_stability_progress_text(char *buf, size_t len, int room, int phase, const char *integrator, double dt, int done,
                                int total, double eta_s);

/* `hooke stability SCENE ...`; returns an exit status. */
int hk_cmd_stability(int argc, char **argv);

#endif
