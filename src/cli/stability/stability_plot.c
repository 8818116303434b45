/* stability_plot.c — the stability profiler's picture: energy drift against dt, and error against cost. */
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
/* each panel's height: its titles, its area and its x axis' labels */
#define PANEL 600
/* the area within a panel: from its top, and its bottom from the panel's bottom */
#define AREA_TOP 76
#define AREA_BOTTOM 48

/* The range of the positive finite values of v[i] where use[i] (NULL: every i), into lo and hi (kept when none). */
static void widen(const double *v, const int *use, int n, double *lo, double *hi)
{
    for (int i = 0; i < n; i++)
        if ((!use || use[i]) && isfinite(v[i]) && v[i] > 0) {
            *lo = fmin(*lo, v[i]);
            *hi = fmax(*hi, v[i]);
        }
}

/* The lower panel: error against cost, from the panel's top y0; left is the area's left edge; ref is planned. */
static void cost_panel(hk_canvas *cv, int y0, int left, int W, const hk_stability_profile *pr, int nk, int points,
                       const hk_reference *ref, const hk_rgb *colours, const hk_plot_marker *markers)
{
    const hk_rgb ink = {25, 25, 25}, grey = {150, 150, 150};
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (int k = 0; k < nk; k++) {
        widen(pr[k].cpu, pr[k].stable, points, &xlo, &xhi);
        widen(pr[k].ref_error, pr[k].stable, points, &ylo, &yhi);
    }
    const int floor_shown = ref->ok && isfinite(ref->own_error) && ref->own_error > 0;
    if (floor_shown) widen(&ref->own_error, NULL, 1, &ylo, &yhi);
    hk_plot_axes ax;
    hk_plot_axes_set(&ax, left, y0 + AREA_TOP, W - LEGEND_COLUMN - 24, y0 + PANEL - AREA_BOTTOM, xlo, xhi, 1, ylo, yhi,
                     1);
    char text[320];
    hk_canvas_text(cv, ax.left, y0 + 8, 0, 0, HK_TEXT_TITLE, ink, "Error against cost");
    if (ref->ok)
        snprintf(text, sizeof text,
                 "Each integrator's stable runs, a marker per dt. The reference: implicit Euler at dt = %.3g s; grey: "
                 "its own error, below which errors are not resolved.",
                 ref->dt);
    else
        snprintf(text, sizeof text, "Each integrator's stable runs, a marker per dt.");
    hk_canvas_text(cv, ax.left, y0 + 32, 0, 0, HK_TEXT_SUBTITLE, ink, text);
    hk_plot_frame(cv, &ax, "RMS distance from the converged reference (m)",
                  "CPU time per simulated second (s/s): the run's thread, in its steps");
    if (!(ylo <= yhi)) { /* no error to draw: say why in the area */
        if (!ref->ok)
            snprintf(text, sizeof text, "The reference did not finish: no error to draw.");
        else
            snprintf(text, sizeof text, "No stable run with an error to draw.");
        hk_canvas_text(cv, 0.5 * (ax.left + ax.right), 0.5 * (ax.top + ax.bottom), 0.5, 0.5, HK_TEXT_NOTE, ink, text);
    }
    const char *names[HK_STABILITY_PROFILES + 1];
    char tags[HK_STABILITY_PROFILES][32];
    hk_rgb cols[HK_STABILITY_PROFILES + 1];
    hk_plot_marker marks[HK_STABILITY_PROFILES + 1];
    double *x = malloc((size_t)(points > 0 ? points : 1) * 2 * sizeof *x);
    if (x) {
        double *y = x + points;
        if (floor_shown) { /* the reference's own error across the area, under the curves */
            const double span[2] = {pow(10, ax.x.min), pow(10, ax.x.max)}, at[2] = {ref->own_error, ref->own_error};
            hk_plot_curve_marked(cv, &ax, span, at, 2, grey, HK_MARK_NONE, 0);
        }
        for (int k = 0; k < nk; k++) { /* a curve through the stable runs, in the order of dt */
            int n = 0;
            for (int i = 0; i < points; i++)
                if (pr[k].stable[i]) {
                    x[n] = pr[k].cpu[i];
                    y[n++] = pr[k].ref_error[i];
                }
            hk_plot_curve_marked(cv, &ax, x, y, n, colours[k], markers[k], 4.5);
        }
        free(x);
    }
    int n = 0;
    for (int k = 0; k < nk; k++) {
        names[n] = hk_stability_label(&pr[k], tags[k], sizeof tags[k]);
        cols[n] = colours[k];
        marks[n++] = markers[k];
    }
    if (floor_shown) {
        names[n] = "the reference's own error";
        cols[n] = grey;
        marks[n++] = HK_MARK_NONE;
    }
    hk_plot_legend_at(cv, ax.right + 16, ax.top, n, names, cols, marks);
}

const char *hk_stability_label(const hk_stability_profile *P, char *out, size_t n)
{
    const hk_integrator_info *in = hk_integrator_info_of((hk_integrator_kind)P->kind);
    if (P->iterations <= 0) {
        snprintf(out, n, "%s", in->name);
        return out;
    }
    snprintf(out, n, "%s:%d", in->name, P->iterations);
    if (strlen(out) > HK_STABILITY_LABEL_MAX && in->alias) snprintf(out, n, "%s:%d", in->alias, P->iterations);
    return out;
}

int hk_stability_plot(const char *path, const char *scene, double omega, const double *dts, int points,
                      const hk_stability_profile *pr, int nk, const hk_reference *ref)
{
    const int costs = ref && ref->dt > 0; /* the cost's panel: where there is a reference to measure errors by */
    const int W = 900 + LEGEND_COLUMN, H = (1 + costs) * PANEL;
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
    /* both panels' areas start at one left edge, wide enough for either's tick labels */
    double elo = INFINITY, ehi = -INFINITY;
    for (int k = 0; k < nk; k++) widen(pr[k].ref_error, pr[k].stable, points, &elo, &ehi);
    if (ref && ref->ok) widen(&ref->own_error, NULL, 1, &elo, &ehi);
    const double label = fmax(hk_plot_ylabel_width(&cv, lo, hi, 1), costs ? hk_plot_ylabel_width(&cv, elo, ehi, 1) : 0);
    const int left = (int)fmax(60, ceil(label) + 14);
    hk_plot_axes ax;
    hk_plot_axes_set(&ax, left, AREA_TOP, W - LEGEND_COLUMN - 24, PANEL - AREA_BOTTOM, dts[0], dts[points - 1], 1, lo,
                     hi, 1);
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
    const char *names[HK_STABILITY_PROFILES];
    char labels[HK_STABILITY_PROFILES][96], tags[HK_STABILITY_PROFILES][32];
    hk_rgb colours[HK_STABILITY_PROFILES];
    hk_plot_marker markers[HK_STABILITY_PROFILES];
    double limits[HK_STABILITY_PROFILES];
    const double *ys[HK_STABILITY_PROFILES];
    for (int k = 0; k < nk; k++) {
        const hk_stability_profile *P = &pr[k];
        colours[k] = hk_plot_colour(P->style);
        markers[k] = hk_plot_marker_of(P->style);
        for (int i = 0; i < points; i++) y[(size_t)k * points + i] = P->stable[i] ? fabs(P->drift[i]) : NAN;
        ys[k] = y + (size_t)k * points;
        const char *name = hk_stability_label(P, tags[k], sizeof tags[k]);
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
    if (costs) cost_panel(&cv, PANEL, left, W, pr, nk, points, ref, colours, markers);
    const int closed = hk_canvas_close(&cv, rc == 0);
    return rc != 0 ? -1 : closed;
}
