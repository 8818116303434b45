/* stability_plot.c — the stability profiler's picture: energy drift against dt, a curve and a limit per integrator. */
/* SPDX-License-Identifier: MIT */
#include "stability_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hooke/hooke.h"
#include "plot.h"

/* pixels right of the plot for its legend (its longest entry, "implicit_euler: stable at every dt swept": some 260) */
#define LEGEND_COLUMN 300

int hk_stability_plot(const char *path, const char *scene, double omega, const double *dts, int points,
                      const hk_stability_profile *pr, int nk)
{
    const int W = 900 + LEGEND_COLUMN, H = 600;
    const hk_rgb white = {255, 255, 255}, ink = {25, 25, 25};
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < nk; k++)
        for (int i = 0; i < points; i++) {
            const double v = fabs(pr[k].drift[i]);
            if (pr[k].stable[i] && isfinite(v) && v > 0) {
                lo = fmin(lo, v);
                hi = fmax(hi, v);
            }
        }
    double *y = malloc((size_t)(nk > 0 ? nk : 1) * (size_t)points * sizeof *y);
    if (!y) return -1;
    hk_canvas cv;
    if (hk_canvas_open(&cv, path, (hk_canvas_kind)hk_canvas_kind_of(path), W, H, white) != 0) {
        free(y);
        return -1;
    }
    const int left = (int)fmax(60, ceil(hk_plot_ylabel_width(&cv, lo, hi, 1)) + 14);
    hk_plot_axes ax;
    hk_plot_axes_set(&ax, left, 76, W - LEGEND_COLUMN - 24, H - 48, dts[0], dts[points - 1], 1, lo, hi, 1);
    const char *base = strrchr(scene, '/');
    char title[256];
    snprintf(title, sizeof title, "Stability: %s", base ? base + 1 : scene);
    hk_canvas_text(&cv, ax.left, 8, 0, 0, HK_TEXT_TITLE, ink, title);
    snprintf(title, sizeof title,
             "\u03c9_max = %.4g rad/s. Dashed: the largest stable dt of each integrator (limits at one dt alternate "
             "their dashes). Unstable runs are not drawn.",
             omega);
    hk_canvas_text(&cv, ax.left, 32, 0, 0, HK_TEXT_SUBTITLE, ink, title);
    hk_plot_frame(&cv, &ax, "|Energy drift| / E\u2080 per simulated second (1/s)", "Time step dt (s)");
    const char *names[HK_INTEGRATOR_COUNT];
    char labels[HK_INTEGRATOR_COUNT][96];
    hk_rgb colours[HK_INTEGRATOR_COUNT];
    hk_plot_marker markers[HK_INTEGRATOR_COUNT];
    double limits[HK_INTEGRATOR_COUNT];
    const double *ys[HK_INTEGRATOR_COUNT];
    for (int k = 0; k < nk; k++) {
        const hk_stability_profile *P = &pr[k];
        colours[k] = hk_plot_colour(P->kind);
        markers[k] = hk_plot_marker_of(P->kind);
        for (int i = 0; i < points; i++) y[(size_t)k * points + i] = P->stable[i] ? fabs(P->drift[i]) : NAN;
        ys[k] = y + (size_t)k * points;
        const char *name = hk_integrator_name((hk_integrator_kind)P->kind);
        limits[k] = P->limit > 0 && isfinite(P->limit) ? P->limit : NAN;
        if (!isnan(limits[k]))
            snprintf(labels[k], sizeof labels[k], "%s: limit \u03c9\u00b7dt = %.3f", name, omega * P->limit);
        else if (P->limit == 0)
            snprintf(labels[k], sizeof labels[k], "%s: unstable at every dt swept", name);
        else
            snprintf(labels[k], sizeof labels[k], "%s: stable at every dt swept", name);
        names[k] = labels[k];
    }
    /* curves of equal drift (semi-implicit Euler's and jelly's) lie on each other: plot.h hk_plot_curves shows
     * each */
    const int rc = hk_plot_curves(&cv, &ax, nk, dts, ys, points, colours, markers);
    /* the limits over the curves, each in its colour: those at one place take turns */
    hk_plot_limits(&cv, &ax, nk, limits, colours);
    /* the legend right of the area, in a column of its own: curves and limit lines reach every corner */
    hk_plot_legend_at(&cv, ax.right + 16, ax.top, nk, names, colours, markers);
    free(y);
    const int closed = hk_canvas_close(&cv, rc == 0);
    return rc != 0 ? -1 : closed;
}
