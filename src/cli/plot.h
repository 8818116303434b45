/* plot.h — line charts on the raster canvas (axes, ticks, curves, legend), and `hooke plot`. */
#ifndef HOOKE_PLOT_H
#define HOOKE_PLOT_H

#include "raster.h"

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
 * that around its middle (a constant column shows as a flat line), and an
 * all-zero one is -1..1. Log: a non-positive or non-finite limit is dropped
 * (the other one alone: the decade it lies in; neither: 1..10). */
void hk_plot_scale_set(hk_plot_scale *s, double lo, double hi, int logscale);
/* Sets the area and both axes (hk_plot_scale_set). */
void hk_plot_axes_set(hk_plot_axes *ax, int left, int top, int right, int bottom, double xlo, double xhi, int xlog,
                      double ylo, double yhi, int ylog);

#define HK_PLOT_MAX_TICKS 32
#define HK_PLOT_LABEL 24
/* The axis's ticks: positions in axis units and their labels, at most max;
 * returns the count. Linear labels are the exact decimal value of each tick,
 * in %g's choice of notation ("0.25", "-1.5e-300", "2e308"); log labels "1",
 * "10", "1e-3", ... The labels of one axis are distinct and increasing, and
 * never nan or inf. */
int hk_plot_ticks(const hk_plot_scale *s, double *at, char (*label)[HK_PLOT_LABEL], int max);
/* Pixel coordinates of a data point (NAN when it cannot show: non-finite, or <= 0 on a log axis). */
double hk_plot_px(const hk_plot_axes *ax, double x);
double hk_plot_py(const hk_plot_axes *ax, double y);
/* Frame, grid, ticks with labels on the y axis; x tick labels and xlabel
 * under the area only when xlabel is not NULL; title above the area's left. */
void hk_plot_frame(hk_image *im, const hk_plot_axes *ax, const char *title, const char *xlabel);
/* Polyline through the points that can show (a gap at each one that cannot), clipped to the area;
 * markers: a 5x5 square at each point. */
void hk_plot_curve(hk_image *im, const hk_plot_axes *ax, const double *x, const double *y, int n, hk_rgb c,
                   int markers);
/* Dashed vertical line at data x across the area, and a small triangle at the top, `slot` rows down. */
void hk_plot_vline(hk_image *im, const hk_plot_axes *ax, double x, hk_rgb c, int slot);
/* Legend box in the area's top-right corner: a colour swatch and a name per entry. */
void hk_plot_legend(hk_image *im, const hk_plot_axes *ax, int n, const char *const *names, const hk_rgb *colours);
/* The i-th colour of the series palette (cycles). */
hk_rgb hk_plot_colour(int i);

/* `hooke plot STATS.csv [--out FILE.png] [--width W --height H]`; returns an exit status. */
int hk_cmd_plot(int argc, char **argv);

#endif
