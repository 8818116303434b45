/* stability_report.h — the stability profile as a table (stdout), CSV and JSON. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_STABILITY_REPORT_H
#define HOOKE_STABILITY_REPORT_H

#include <stdio.h>

#include "analytic.h"
#include "reference.h"
#include "stability_plot.h"

/* What a finished sweep found, and how it was run. */
typedef struct hk_stability_result {
    const char *scene;
    double omega;             /* omega_max [rad/s] */
    const hk_analytic *exact; /* the closed form, kind HK_ANALYTIC_NONE without one */
    const double *dts;        /* [points] the sweep's dt [s] */
    int points, threads;
    double time;                    /* simulated seconds a run is measured over [s] */
    int factor;                     /* the reference's dt is dts[0] / factor (0: no reference) */
    const hk_reference *ref;        /* the converged reference */
    const hk_stability_profile *pr; /* [nk] per integrator */
    int nk;
} hk_stability_result;

/* The table: the sweep and the reference, the limits, the drift, then the error against the reference, the
 * largest stretch and the cost at each dt; every table line within 80 columns. */
void hk_stability_print(FILE *f, const hk_stability_result *r);
/* The numbers into f as JSON (json 1) or CSV. 0, or -1 on a writer misuse. */
int hk_stability_write(FILE *f, const hk_stability_result *r, int json);

#endif
