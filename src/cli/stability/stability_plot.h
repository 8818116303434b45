/* stability_plot.h — the stability profiler's picture: energy drift against dt, a curve and a limit per integrator. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_STABILITY_PLOT_H
#define HOOKE_STABILITY_PLOT_H

/* One integrator's profile over the sweep's dt values. */
typedef struct hk_stability_profile {
    int kind;              /* hk_integrator_kind */
    double limit;          /* largest stable dt [s]; 0: below dt_min; INFINITY: above dt_max */
    double *drift, *error; /* per dt: relative energy drift per simulated second [1/s], largest error [m] */
    int *stable;           /* per dt: 1 when the run stayed stable */
} hk_stability_profile;

/* The picture of nk profiles at the points dt values dts[] into path (.png, .svg or .pdf): |drift| against dt,
 * log-log, a curve with markers per integrator (stable runs only), each limit a dashed line in the integrator's
 * colour (limits at one place take turns, plot.h hk_plot_limits), and a legend right of the plot with omega*dt at
 * each limit. Each integrator's markers have a shape of their own (plot.h hk_plot_marker_of), shown in the legend,
 * and curves of equal drift all show (plot.h hk_plot_curves: dashes in turn, larger markers under smaller). 0, or -1
 * with errno set. */
int hk_stability_plot(const char *path, const char *scene, double omega, const double *dts, int points,
                      const hk_stability_profile *pr, int nk);

#endif
