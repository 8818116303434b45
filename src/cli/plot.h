/* plot.h — the pieces of hooke's line charts, drawn with cairo: frame, ticks, curves, limit lines, legend. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PLOT_H
#define HOOKE_PLOT_H

#include "canvas.h"
#include "plot_axis.h"

/* Frame, grid, ticks with labels on the y axis, and ytitle (what the axis
 * shows, with its unit) above the area's left; x tick labels and xtitle
 * under the area only when xtitle is not NULL. */
void hk_plot_frame(hk_canvas *c, const hk_plot_axes *ax, const char *ytitle, const char *xtitle);
/* The width the y tick labels of an axis over [lo, hi] need left of the area, in pixels. */
double hk_plot_ylabel_width(hk_canvas *c, double lo, double hi, int logscale);
/* The shape of a curve's markers. */
typedef enum hk_plot_marker {
    HK_MARK_NONE,
    HK_MARK_DOT,
    HK_MARK_SQUARE,
    HK_MARK_TRIANGLE,
    HK_MARK_DIAMOND,
    HK_MARK_DOWN /* a triangle standing on its tip */
} hk_plot_marker;
/* The i-th marker shape of a series of curves: dot, square, triangle, diamond, down (cycles), the cycle moved on
 * by one at each turn of hk_plot_colour's palette, so that curve i and curve i + 10 differ in shape. */
hk_plot_marker hk_plot_marker_of(int i);
/* Polyline through the points that can show (a gap at each one that cannot), clipped to the area;
 * markers: a dot at each point. hk_plot_curve_styled(..., 2, HK_MARK_DOT or NONE, 3). */
void hk_plot_curve(hk_canvas *c, const hk_plot_axes *ax, const double *x, const double *y, int n, hk_rgb colour,
                   int markers);
/* One curve in colour, as hk_plot_curve draws one, with markers of the given shape (HK_MARK_NONE: none) and size
 * (pixels from the centre to the corners) at its points inside the area. */
void hk_plot_curve_marked(hk_canvas *c, const hk_plot_axes *ax, const double *x, const double *y, int n, hk_rgb colour,
                          hk_plot_marker marker, double size);
/* nc curves y[k] over the same n points x, each as hk_plot_curve draws one, in colours[k] with markers[k] at its
 * points, drawn in order; where curves lie on each other, each still shows: a segment that curves share (within
 * 1.5 pixels at both ends) is dashed, one 6-pixel dash of each in turn along it, and at a point they share the
 * earlier ones' markers are larger (1.5 pixels more for each curve drawn after), so that each rims the next.
 * 0, or -1 when out of memory. */
int hk_plot_curves(hk_canvas *c, const hk_plot_axes *ax, int nc, const double *x, const double *const *y, int n,
                   const hk_rgb *colours, const hk_plot_marker *markers);
/* Where limit lines go (hk_plot_limits), in pixels: a line's column, its triangle's centre, and its dashes' turn
 * among the lines that share its place (turns of them): the line's k-th dash is (turn + k * turns) * 10 pixels down
 * from the top of the area. */
typedef struct hk_plot_mark {
    double x, tip; /* NAN: the limit is not drawn (outside the axis, not finite) */
    int turn, turns;
} hk_plot_mark;
#define HK_PLOT_MAX_MARKS 32
/* The marks of n limits at data x[i] (at most HK_PLOT_MAX_MARKS): each line on the whole pixel column of its x;
 * lines within 4 pixels of each other (a run of them, each near the one before) take turns, so that each shows
 * one dash in turn and none covers another's; the triangles stand in one row at the top, each over its line, and
 * where they would overlap (less than 10 pixels apart) side by side, 10 pixels apart, centred on their lines. */
void hk_plot_limit_marks(const hk_plot_axes *ax, int n, const double *x, hk_plot_mark *m);
/* Draws them: dashed vertical lines across the area, each with a triangle at its top, both in colours[i]. */
void hk_plot_limits(hk_canvas *c, const hk_plot_axes *ax, int n, const double *x, const hk_rgb *colours);
/* Data as hk_plot_curve draws it: n points (x[i], y[i]). */
typedef struct hk_plot_series {
    const double *x, *y;
    int n;
} hk_plot_series;
/* Legend box, a line and a name per entry, where it covers none of data (ns series: their points and the
 * lines between them, measured in pixels): a corner of the area (top right first), else a place along its
 * edges; where every place covers some, the one covering least. */
void hk_plot_legend(hk_canvas *c, const hk_plot_axes *ax, int n, const char *const *names, const hk_rgb *colours,
                    const hk_plot_series *data, int ns);
/* The same box with its top-left corner at (x0, y0) pixels (outside the area, where the caller made room); markers,
 * when not NULL, the shape of each entry's markers, drawn on its line. */
void hk_plot_legend_at(hk_canvas *c, double x0, double y0, int n, const char *const *names, const hk_rgb *colours,
                       const hk_plot_marker *markers);
/* The colours of hk_plot_colour's palette, which cycles. */
#define HK_PLOT_COLOURS 10
/* The i-th colour of the series palette (cycles). */
hk_rgb hk_plot_colour(int i);
/* The picture kind of a plot's file name (.png, .svg, .pdf); -1 with the message printed for the flag otherwise. */
int hk_plot_kind(const char *flag, const char *path);

#endif
