/* plot.c — the pieces of hooke's line charts, drawn with cairo: frame, ticks, curves, limit lines, legend. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "plot.h"

#include "check.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

/* ---- chart pieces -------------------------------------------------------- */

static const hk_rgb ink = {25, 25, 25}, grid_grey = {228, 228, 228}, frame_grey = {110, 110, 110},
                    white = {255, 255, 255};

hk_rgb hk_plot_colour(int i)
{
    static const hk_rgb palette[HK_PLOT_COLOURS] = {
        {31, 119, 180}, {214, 39, 40},  {44, 160, 44}, {0, 0, 0},       {148, 103, 189},
        {255, 127, 14}, {23, 190, 207}, {140, 86, 75}, {227, 119, 194}, {127, 127, 127},
    };
    const int n = HK_PLOT_COLOURS;
    return palette[((i % n) + n) % n];
}

int hk_plot_kind(const char *flag, const char *path)
{
    const int kind = hk_canvas_kind_of(path);
    if (kind < 0)
        fprintf(stderr, "hooke: error: %s expects a file name ending in .png, .svg or .pdf, got '%s'\n", flag, path);
    return kind;
}

/* A 1-pixel line from (x0, y0) to (x1, y1) on whole pixels (crisp in PNG): coordinates rounded to pixel centres. */
static void hairline(hk_canvas *c, double x0, double y0, double x1, double y1, hk_rgb colour)
{
    cairo_t *cr = c->cr;
    cairo_move_to(cr, floor(x0) + 0.5, floor(y0) + 0.5);
    cairo_line_to(cr, floor(x1) + 0.5, floor(y1) + 0.5);
    hk_canvas_colour(c, colour, 1);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
}

double hk_plot_ylabel_width(hk_canvas *c, double lo, double hi, int logscale)
{
    hk_plot_scale s;
    hk_plot_scale_set(&s, lo, hi, logscale);
    double at[HK_PLOT_MAX_TICKS], w = 0;
    char label[HK_PLOT_MAX_TICKS][HK_PLOT_LABEL], text[HK_PLOT_TEXT];
    const int n = hk_plot_ticks(&s, at, label, HK_PLOT_MAX_TICKS);
    for (int i = 0; i < n; i++) {
        hk_plot_tick_text(&s, at[i], label[i], text);
        w = fmax(w, hk_canvas_text_width(c, HK_TEXT_TICK, text));
    }
    return w;
}

/* Minor ticks of a log axis: at 2..9 times each decade, as positions along [p0, p1]; calls back with each. */
static void log_minor(hk_canvas *c, const hk_plot_scale *s, double p0, double p1, int vertical, double at_px)
{
    for (double d = s->min; d < s->max; d++)
        for (int m = 2; m <= 9; m++) {
            const double p = hk_plot_scale_pos(s, d + log10(m), p0, p1);
            if (vertical)
                hairline(c, at_px - 2, p, at_px, p, frame_grey);
            else
                hairline(c, p, at_px, p, at_px + 2, frame_grey);
        }
}

void hk_plot_frame(hk_canvas *c, const hk_plot_axes *ax, const char *ytitle, const char *xtitle)
{
    double at[HK_PLOT_MAX_TICKS];
    char label[HK_PLOT_MAX_TICKS][HK_PLOT_LABEL], text[HK_PLOT_TEXT];
    const double L = ax->left, R = ax->right, T = ax->top, B = ax->bottom;
    const hk_plot_scale *xs = &ax->x, *ys = &ax->y;
    /* y: grid, ticks, labels right-aligned left of the area */
    int n = hk_plot_ticks(ys, at, label, HK_PLOT_MAX_TICKS);
    for (int i = 0; i < n; i++) {
        const double y = hk_plot_scale_pos(ys, at[i], B, T);
        hairline(c, L, y, R, y, grid_grey);
        hairline(c, L - 4, y, L, y, frame_grey);
        hk_plot_tick_text(ys, at[i], label[i], text);
        hk_canvas_text(c, L - 7, floor(y) + 0.5, 1, 0.5, HK_TEXT_TICK, ink, text);
    }
    if (ys->log) log_minor(c, ys, B, T, 1, L);
    /* x: grid and ticks always, labels only under the bottom panel */
    n = hk_plot_ticks(xs, at, label, HK_PLOT_MAX_TICKS);
    for (int i = 0; i < n; i++) {
        const double x = hk_plot_scale_pos(xs, at[i], L, R);
        hairline(c, x, T, x, B, grid_grey);
        hairline(c, x, B, x, B + 4, frame_grey);
        if (xtitle) {
            hk_plot_tick_text(xs, at[i], label[i], text);
            hk_canvas_text(c, floor(x) + 0.5, B + 6, 0.5, 0, HK_TEXT_TICK, ink, text);
        }
    }
    if (xs->log) log_minor(c, xs, L, R, 0, B);
    if (xtitle)
        hk_canvas_text(c, 0.5 * (L + R), B + 6 + hk_canvas_text_height(c, HK_TEXT_TICK) + 2, 0.5, 0, HK_TEXT_AXIS_TITLE,
                       ink, xtitle);
    if (ytitle) hk_canvas_text(c, L, T - 3, 0, 1, HK_TEXT_AXIS_TITLE, ink, ytitle);
    /* the frame */
    cairo_rectangle(c->cr, floor(L) + 0.5, floor(T) + 0.5, floor(R) - floor(L), floor(B) - floor(T));
    hk_canvas_colour(c, frame_grey, 1);
    cairo_set_line_width(c->cr, 1);
    cairo_stroke(c->cr);
}

/* Liang-Barsky: clips the segment to the rectangle; 0 when nothing is left, else t0 and t1 of what is. */
static int clip(const double p0[2], const double p1[2], double L, double T, double R, double B, double t[2])
{
    t[0] = 0;
    t[1] = 1;
    const double dx = p1[0] - p0[0], dy = p1[1] - p0[1];
    const double p[4] = {-dx, dx, -dy, dy}, q[4] = {p0[0] - L, R - p0[0], p0[1] - T, B - p0[1]};
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0) return 0;
            continue;
        }
        const double r = q[i] / p[i];
        if (p[i] < 0) {
            if (r > t[1]) return 0;
            if (r > t[0]) t[0] = r;
        } else {
            if (r < t[0]) return 0;
            if (r < t[1]) t[1] = r;
        }
    }
    return 1;
}

/* Curves within this many pixels of each other at both ends of a segment share it; the length of their dashes
 * there. */
#define SHARED_PX 1.5
#define SHARED_DASH 6.0

/* A marker of the shape at (x, y), r pixels from its centre to its corners, into the current path. */
static void marker_path(cairo_t *cr, hk_plot_marker shape, double x, double y, double r)
{
    cairo_new_sub_path(cr);
    switch (shape) {
    case HK_MARK_NONE: return;
    case HK_MARK_DOT: cairo_arc(cr, x, y, r, 0, 2 * PI); return;
    case HK_MARK_SQUARE: cairo_rectangle(cr, x - 0.8 * r, y - 0.8 * r, 1.6 * r, 1.6 * r); return;
    case HK_MARK_TRIANGLE:
    case HK_MARK_DOWN: {
        const double s = shape == HK_MARK_TRIANGLE ? 1 : -1;
        cairo_move_to(cr, x, y - s * r);
        cairo_line_to(cr, x + 0.87 * r, y + s * 0.5 * r);
        cairo_line_to(cr, x - 0.87 * r, y + s * 0.5 * r);
        break;
    }
    case HK_MARK_DIAMOND:
        cairo_move_to(cr, x, y - r);
        cairo_line_to(cr, x + r, y);
        cairo_line_to(cr, x, y + r);
        cairo_line_to(cr, x - r, y);
        break;
    }
    cairo_close_path(cr);
}

hk_plot_marker hk_plot_marker_of(int i)
{
    const int turn = i >= 0 ? i / HK_PLOT_COLOURS : 0;
    return (hk_plot_marker)(HK_MARK_DOT + (((i + turn) % 5) + 5) % 5);
}

/* Curve y (n points at x) in colour, width pixels wide; seg: NULL, or per segment (point i to i + 1) its turn and
 * turns among the curves that share it (dashed in turns where turns > 1); marker: the shape at each point inside
 * the area, size[i] pixels from its centre to its corners (NULL: 3). */
static void curve(hk_canvas *c, const hk_plot_axes *ax, const double *x, const double *y, int n, hk_rgb colour,
                  double width, const int (*seg)[2], hk_plot_marker marker, const double *size)
{
    cairo_t *cr = c->cr;
    cairo_save(cr);
    /* the line may reach its width past the area, never further: far points are clipped here first, so
     * cairo's fixed-point coordinates never see them */
    const double L = ax->left - width, T = ax->top - width, R = ax->right + width, B = ax->bottom + width;
    cairo_rectangle(cr, L, T, R - L, B - T);
    cairo_clip(cr);
    cairo_set_line_width(cr, width);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    double prev[2] = {NAN, NAN};
    int open = 0; /* the path's current point is prev */
    for (int i = 0; i < n; i++) {
        const double cur[2] = {hk_plot_px(ax, x[i]), hk_plot_py(ax, y[i])};
        double t[2];
        const int turns = seg && i > 0 ? seg[i - 1][1] : 1;
        if (isfinite(cur[0]) && isfinite(cur[1]) && isfinite(prev[0]) && isfinite(prev[1]) &&
            clip(prev, cur, L, T, R, B, t)) {
            const double dx = cur[0] - prev[0], dy = cur[1] - prev[1];
            if (turns > 1) { /* a shared segment: one dash of each curve in turn, this one's at its turn */
                hk_canvas_colour(c, colour, 1);
                cairo_stroke(cr);
                const double dash[2] = {SHARED_DASH, SHARED_DASH * (turns - 1)};
                cairo_set_dash(cr, dash, 2, SHARED_DASH * (turns - seg[i - 1][0]));
                cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
                cairo_move_to(cr, prev[0] + t[0] * dx, prev[1] + t[0] * dy);
                cairo_line_to(cr, prev[0] + t[1] * dx, prev[1] + t[1] * dy);
                cairo_stroke(cr);
                cairo_set_dash(cr, NULL, 0, 0);
                cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
                open = 0;
            } else {
                if (!open || t[0] > 0) cairo_move_to(cr, prev[0] + t[0] * dx, prev[1] + t[0] * dy);
                cairo_line_to(cr, prev[0] + t[1] * dx, prev[1] + t[1] * dy);
                open = t[1] == 1;
            }
        } else {
            open = 0;
        }
        prev[0] = cur[0];
        prev[1] = cur[1];
    }
    hk_canvas_colour(c, colour, 1);
    cairo_stroke(cr);
    if (marker != HK_MARK_NONE)
        for (int i = 0; i < n; i++) {
            const double px = hk_plot_px(ax, x[i]), py = hk_plot_py(ax, y[i]);
            if (px >= ax->left && px <= ax->right && py >= ax->top && py <= ax->bottom)
                marker_path(cr, marker, px, py, size ? size[i] : 3);
        }
    cairo_fill(cr);
    cairo_restore(cr);
}

void hk_plot_curve(hk_canvas *c, const hk_plot_axes *ax, const double *x, const double *y, int n, hk_rgb colour,
                   int markers)
{
    curve(c, ax, x, y, n, colour, 2, NULL, markers ? HK_MARK_DOT : HK_MARK_NONE, NULL);
}

void hk_plot_curve_marked(hk_canvas *c, const hk_plot_axes *ax, const double *x, const double *y, int n, hk_rgb colour,
                          hk_plot_marker marker, double size)
{
    double *sizes = malloc((size_t)(n > 0 ? n : 1) * sizeof *sizes);
    for (int i = 0; sizes && i < n; i++) sizes[i] = size;
    curve(c, ax, x, y, n, colour, 2, NULL, marker, sizes); /* out of memory: the usual 3 pixels */
    free(sizes);
}

/* 1 if curves a and b show point i within SHARED_PX of each other (both can show). */
static int same_place(const hk_plot_axes *ax, const double *a, const double *b, int i)
{
    const double p = hk_plot_py(ax, a[i]), q = hk_plot_py(ax, b[i]);
    return isfinite(p) && isfinite(q) && fabs(p - q) <= SHARED_PX;
}

int hk_plot_curves(hk_canvas *c, const hk_plot_axes *ax, int nc, const double *x, const double *const *y, int n,
                   const hk_rgb *colours, const hk_plot_marker *markers)
{
    int(*seg)[2] = malloc((size_t)(n > 0 ? n : 1) * sizeof *seg);
    double *size = malloc((size_t)(n > 0 ? n : 1) * sizeof *size);
    if (!seg || !size) {
        free(seg);
        free(size);
        return -1;
    }
    for (int k = 0; k < nc; k++) {
        for (int i = 0; i < n; i++) {
            int turn = 0, turns = 0, before = 0, all = 0; /* segment i; point i */
            for (int j = 0; j < nc; j++) {
                const int pt = same_place(ax, y[k], y[j], i);
                const int sg = i + 1 < n && pt && same_place(ax, y[k], y[j], i + 1);
                turn += sg && j < k;
                turns += sg;
                before += pt && j < k;
                all += pt;
            }
            seg[i][0] = turn;
            seg[i][1] = turns;
            size[i] = 3 + 1.5 * (all > 0 ? all - 1 - before : 0);
        }
        curve(c, ax, x, y[k], n, colours[k], 2, (const int(*)[2])seg, markers[k], size);
    }
    free(seg);
    free(size);
    return 0;
}

/* Pixels between the centres of two triangles side by side (each 8 wide), and within which two lines take turns. */
#define MARK_STEP 10
#define MARK_NEAR 4
/* A dash of a limit line and the room one line's dash and gap take before the next line's dash, in pixels. */
#define DASH 6
#define DASH_TURN 10

void hk_plot_limit_marks(const hk_plot_axes *ax, int n, const double *x, hk_plot_mark *m)
{
    int order[HK_PLOT_MAX_MARKS], k = 0;
    HK_ASSERT(n <= HK_PLOT_MAX_MARKS);
    for (int i = 0; i < n; i++) {
        const double px = hk_plot_px(ax, x[i]);
        m[i] = (hk_plot_mark){NAN, NAN, 0, 1};
        if (!isfinite(px) || px < ax->left || px > ax->right) continue;
        m[i].x = floor(px) + 0.5;
        int j = k++; /* insertion by pixel column, then by index: a stable order */
        while (j > 0 && m[order[j - 1]].x > m[i].x) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    /* the lines' turns: runs of lines each within MARK_NEAR pixels of the one before */
    for (int a = 0, b; a < k; a = b) {
        for (b = a + 1; b < k && m[order[b]].x - m[order[b - 1]].x <= MARK_NEAR;) b++;
        for (int j = a; j < b; j++) {
            m[order[j]].turn = j - a;
            m[order[j]].turns = b - a;
        }
    }
    /* the triangles: clusters of neighbours MARK_STEP apart, each centred on its lines' mean, merged while two
     * would overlap */
    int first[HK_PLOT_MAX_MARKS], count[HK_PLOT_MAX_MARKS], nc = 0;
    double sum[HK_PLOT_MAX_MARKS];
    for (int j = 0; j < k; j++) {
        first[nc] = j;
        count[nc] = 1;
        sum[nc] = m[order[j]].x;
        nc++;
        while (nc > 1) {
            const int p = nc - 2, q = nc - 1;
            const double right_p = sum[p] / count[p] + 0.5 * (count[p] - 1) * MARK_STEP,
                         left_q = sum[q] / count[q] - 0.5 * (count[q] - 1) * MARK_STEP;
            if (left_q - right_p >= MARK_STEP) break;
            count[p] += count[q];
            sum[p] += sum[q];
            nc--;
        }
    }
    for (int c = 0; c < nc; c++)
        for (int j = 0; j < count[c]; j++)
            m[order[first[c] + j]].tip = sum[c] / count[c] + (j - 0.5 * (count[c] - 1)) * MARK_STEP;
}

void hk_plot_limits(hk_canvas *c, const hk_plot_axes *ax, int n, const double *x, const hk_rgb *colours)
{
    hk_plot_mark m[HK_PLOT_MAX_MARKS];
    hk_plot_limit_marks(ax, n, x, m);
    cairo_t *cr = c->cr;
    for (int i = 0; i < n; i++) {
        if (isnan(m[i].x)) continue;
        /* one dash of DASH pixels every turns * DASH_TURN, this line's turn * DASH_TURN down from the top */
        const double period = (double)m[i].turns * DASH_TURN, dash[2] = {DASH, period - DASH};
        cairo_save(cr);
        cairo_set_dash(cr, dash, 2, fmod(period - (double)m[i].turn * DASH_TURN, period));
        cairo_move_to(cr, m[i].x, ax->top);
        cairo_line_to(cr, m[i].x, ax->bottom);
        hk_canvas_colour(c, colours[i], 1);
        cairo_set_line_width(cr, 1);
        cairo_stroke(cr);
        const double ty = ax->top + 2;
        cairo_move_to(cr, m[i].tip - 4, ty);
        cairo_line_to(cr, m[i].tip + 4, ty);
        cairo_line_to(cr, m[i].tip, ty + 6);
        cairo_close_path(cr);
        cairo_fill(cr);
        cairo_restore(cr);
    }
}

/* How much of the series a box [x0, x1] x [y0, y1] (pixels) covers: the drawn points inside it, and along each
 * segment between two drawn points one sample per 2 pixels. */
static double covered(const hk_plot_axes *ax, const hk_plot_series *data, int ns, double x0, double y0, double x1,
                      double y1)
{
    double hits = 0;
    for (int k = 0; k < ns; k++) {
        double px = NAN, py = NAN;
        for (int i = 0; i < data[k].n; i++) {
            const double qx = hk_plot_px(ax, data[k].x[i]), qy = hk_plot_py(ax, data[k].y[i]);
            if (!isfinite(qx) || !isfinite(qy)) {
                px = py = NAN;
                continue;
            }
            const double len = isfinite(px) ? hypot(qx - px, qy - py) : 0;
            const int samples = len > 2 ? (int)fmin(ceil(len / 2), 4096) : 1;
            for (int j = 1; j <= samples; j++) {
                const double t = (double)j / samples;
                const double sx = isfinite(px) ? px + t * (qx - px) : qx, sy = isfinite(py) ? py + t * (qy - py) : qy;
                hits += sx >= x0 && sx <= x1 && sy >= y0 && sy <= y1;
            }
            px = qx;
            py = qy;
        }
    }
    return hits;
}

/* The legend box of n entries: its width and height, and the height of a row, in pixels. */
static void legend_box(hk_canvas *c, int n, const char *const *names, double *bw, double *bh, double *row)
{
    double wmax = 0;
    for (int i = 0; i < n; i++) wmax = fmax(wmax, hk_canvas_text_width(c, HK_TEXT_LEGEND, names[i]));
    *row = ceil(hk_canvas_text_height(c, HK_TEXT_LEGEND)) + 2;
    *bw = ceil(wmax) + 36;
    *bh = *row * n + 8;
}

void hk_plot_legend(hk_canvas *c, const hk_plot_axes *ax, int n, const char *const *names, const hk_rgb *colours,
                    const hk_plot_series *data, int ns)
{
    if (n <= 0) return;
    double bw, bh, row;
    legend_box(c, n, names, &bw, &bh, &row);
    /* where it covers the least of the data (a margin of 3 pixels around the box): the four corners first (top
     * right, top left, bottom right, bottom left), then down the right and the left edge and along the top and the
     * bottom in steps of 4 pixels (curves that hug the top and the bottom of a panel leave its middle empty); the
     * first place that covers nothing, else the one that covers least */
    const double xr = ax->right - 8 - bw, xl = ax->left + 8, yt = ax->top + 8, yb = ax->bottom - 8 - bh;
    double x0 = xr, y0 = yt, best = INFINITY;
    const int down = yb > yt ? (int)((yb - yt) / 4) : 0, across = xr > xl ? (int)((xr - xl) / 4) : 0;
    for (int k = 0; k < 4 + 2 * down + 2 * across && best > 0; k++) {
        double cx, cy;
        if (k < 4) {
            cx = k % 2 ? xl : xr;
            cy = k < 2 ? yt : yb;
        } else if (k < 4 + 2 * down) {
            cx = (k - 4) % 2 ? xl : xr;
            cy = yt + 4 * ((k - 4) / 2);
        } else {
            cx = xr - 4 * ((k - 4 - 2 * down) / 2);
            cy = (k - 4 - 2 * down) % 2 ? yb : yt;
        }
        const double hits = covered(ax, data, ns, cx - 3, cy - 3, cx + bw + 3, cy + bh + 3);
        if (hits < best) {
            best = hits;
            x0 = cx;
            y0 = cy;
        }
    }
    hk_plot_legend_at(c, x0, y0, n, names, colours, NULL);
}

void hk_plot_legend_at(hk_canvas *c, double x0, double y0, int n, const char *const *names, const hk_rgb *colours,
                       const hk_plot_marker *markers)
{
    if (n <= 0) return;
    double bw, bh, row;
    legend_box(c, n, names, &bw, &bh, &row);
    cairo_t *cr = c->cr;
    cairo_rectangle(cr, x0 + 0.5, y0 + 0.5, bw, bh);
    hk_canvas_colour(c, white, 0.92);
    cairo_fill_preserve(cr);
    hk_canvas_colour(c, (hk_rgb){200, 200, 200}, 1);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
    for (int i = 0; i < n; i++) {
        const double y = y0 + 4 + row * i + 0.5 * row;
        cairo_move_to(cr, x0 + 8, floor(y) + 0.5);
        cairo_line_to(cr, x0 + 26, floor(y) + 0.5);
        hk_canvas_colour(c, colours[i], 1);
        cairo_set_line_width(cr, 2.5);
        cairo_stroke(cr);
        if (markers && markers[i] != HK_MARK_NONE) {
            marker_path(cr, markers[i], x0 + 17, floor(y) + 0.5, 4);
            cairo_fill(cr);
        }
        hk_canvas_text(c, x0 + 31, y, 0, 0.5, HK_TEXT_LEGEND, ink, names[i]);
    }
}
