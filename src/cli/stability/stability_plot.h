/* stability_plot.h — the stability profiler's picture: energy drift against dt, and error against cost. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_STABILITY_PLOT_H
#define HOOKE_STABILITY_PLOT_H

#include "reference.h"

/* --iterations values at most, and so the profiles of one sweep at most. */
#define HK_STABILITY_ITERATIONS_MAX 8
#define HK_STABILITY_PROFILES (HK_INTEGRATOR_COUNT + HK_STABILITY_ITERATIONS_MAX)

/* One integrator's profile over the sweep's dt values. */
typedef struct hk_stability_profile {
    int kind;              /* hk_integrator_kind */
    int iterations;        /* an iterated integrator's sweeps a substep (--iterations; 0: its default) [1] */
    int style;             /* its colour and marker in the picture (plot.h hk_plot_colour, hk_plot_marker_of) */
    double limit;          /* largest stable dt [s]; 0: below dt_min; INFINITY: above dt_max */
    double *drift, *error; /* per dt: relative energy drift per simulated second [1/s], largest error [m] */
    int *stable;           /* per dt: 1 when the run stayed stable */
    /* per dt, over the first T seconds of the run: its distance from the converged reference (reference.h: RMS over
     * the free particles, the largest at the end of each quarter; NAN without a reference, INFINITY once unstable)
     * [m] and the largest r / L0 of its springs [1]; over the whole run, its cost: the CPU time of its thread in its
     * steps per simulated second [s/s] and CG iterations per step (0 for an explicit integrator) [1] */
    double *ref_error, *max_stretch, *cpu, *cg;
} hk_stability_profile;

/* The profile's name in tables and legends: its integrator's, with ":N" for N sweeps a substep ("xpbd:10"), by its
 * alias where the name would be longer than HK_STABILITY_LABEL_MAX, the tables' column ("local_global:100"). out (n
 * bytes) is returned. */
#define HK_STABILITY_LABEL_MAX 19
const char *hk_stability_label(const hk_stability_profile *P, char *out, size_t n);

/* The picture of nk profiles at the points dt values dts[] into path (.png, .svg or .pdf), two panels. Above:
 * |drift| against dt, log-log, a curve with markers per integrator (stable runs only), each limit a dashed line in
 * the integrator's colour (limits at one place take turns, plot.h hk_plot_limits), and a legend right of the plot
 * with omega*dt at each limit. Each integrator's markers have a shape of their own (plot.h hk_plot_marker_of), shown
 * in the legend, and curves of equal drift all show (plot.h hk_plot_curves: dashes in turn, larger markers under
 * smaller). Below, where there is a reference (ref not NULL, its dt > 0): the error against it against the CPU time
 * per simulated second, log-log, a curve per integrator through its stable runs in the same colours and markers, the
 * reference's own error a grey line (a note in their place where the reference did not finish). 0, or -1 with errno
 * set. */
int hk_stability_plot(const char *path, const char *scene, double omega, const double *dts, int points,
                      const hk_stability_profile *pr, int nk, const hk_reference *ref);

#endif
