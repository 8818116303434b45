/* plot_axis.h — the axes of hooke's plots: ranges widened to 1-2-5 ticks (or decades), tick labels, pixel mapping. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PLOT_AXIS_H
#define HOOKE_PLOT_AXIS_H

#include <stddef.h>

/* One axis: the range it shows, in axis units, and its ticks.
 * Linear: axis units are the data times 2^-exp2, exp2 chosen so that the
 * largest magnitude of the range lies in [0.5, 1): sums and differences
 * cannot overflow for any finite data (-DBL_MAX..DBL_MAX), and subnormal data
 * scale up to normal numbers. Ticks every mult * 10^pow10 in data units
 * (mult 1, 2 or 5; step in axis units), tick k at k * step for k = k0..k1,
 * and min = k0 * step, max = k1 * step.
 * Log: axis units are decades (log10 of the data), exp2 = pow10 = 0, step 1;
 * ticks at decades k0..k1, every mult-th, min = k0, max = k1. */
typedef struct hk_plot_scale {
    int log, exp2, pow10, mult;
    double min, max, step;
    long long k0, k1;
} hk_plot_scale;

/* A plot area in pixels and the axes it shows. */
typedef struct hk_plot_axes {
    int left, top, right, bottom;
    hk_plot_scale x, y;
} hk_plot_axes;

/* An axis covering [lo, hi], widened to whole tick steps (linear) or whole
 * decades (log). Linear: non-finite limits are replaced by the other one (both:
 * 0); a range narrower than a millionth of the largest magnitude is widened to
 * that around its middle (a constant column shows as a flat line, on an
 * axis of its sign), and an all-zero one is 0..1 (a count that stays 0 gets
 * no negative ticks). Log: a non-positive or non-finite limit is dropped
 * (the other one alone: the decade it lies in; neither: 1..10). */
void hk_plot_scale_set(hk_plot_scale *s, double lo, double hi, int logscale);
/* Sets the area and both axes (hk_plot_scale_set). */
void hk_plot_axes_set(hk_plot_axes *ax, int left, int top, int right, int bottom, double xlo, double xhi, int xlog,
                      double ylo, double yhi, int ylog);

#define HK_PLOT_MAX_TICKS 32
#define HK_PLOT_LABEL 24
/* The axis's ticks: positions in axis units and their labels, at most max;
 * returns the count. Linear labels are the exact decimal value of each tick,
 * with the fewest digits that write it, in %g's choice of notation ("0.25",
 * "-1.5e-300", "2e308"); log labels "1", "10", "1e-3", ... The labels of
 * one axis are distinct and increasing, and never nan or inf. */
int hk_plot_ticks(const hk_plot_scale *s, double *at, char (*label)[HK_PLOT_LABEL], int max);

#define HK_PLOT_TEXT 64
/* How a tick label (hk_plot_ticks: its position at and label) is printed:
 * a minus sign (U+2212) for '-', and an exponent as a power of ten,
 * "1.5e-300" as "1.5×10⁻³⁰⁰"; on a log axis every decade as a power,
 * "10⁻³", "10⁰", "10²". UTF-8 into out (HK_PLOT_TEXT bytes). */
void hk_plot_tick_text(const hk_plot_scale *s, double at, const char *label, char out[HK_PLOT_TEXT]);

/* Pixel coordinates of a data point (NAN when it cannot show: non-finite, or <= 0 on a log axis). */
double hk_plot_px(const hk_plot_axes *ax, double x);
double hk_plot_py(const hk_plot_axes *ax, double y);
/* Pixel coordinate of a position in axis units (a tick's at) along [p0, p1]. */
double hk_plot_scale_pos(const hk_plot_scale *s, double at, double p0, double p1);

#endif
