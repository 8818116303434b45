/* plot.h — line charts on the raster canvas (axes, ticks, curves, legend), and `hooke plot`. */
#ifndef HOOKE_PLOT_H
#define HOOKE_PLOT_H

#include "raster.h"

/* A plot area in pixels and the data range it shows. On a log axis the
 * range is in decades (log10 of the data) and only positive values show. */
typedef struct hk_plot_axes {
    int left, top, right, bottom;
    double xmin, xmax, ymin, ymax;
    int xlog, ylog;
} hk_plot_axes;

/* Sets the area and a range covering [lo, hi] on each axis (non-finite or,
 * on a log axis, non-positive limits are replaced by a default), widened to
 * whole tick steps (linear) or whole decades (log). */
void hk_plot_axes_set(hk_plot_axes *ax, int left, int top, int right, int bottom, double xlo, double xhi, int xlog,
                      double ylo, double yhi, int ylog);
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
