/* stretch_colours.c — the frames' stretch colour map (five stops, green at rest, the run's range) and its bar. */
/* SPDX-License-Identifier: MIT */
#include "stretch_colours.h"

#include <math.h>
#include <stdio.h>

const hk_rgb hk_frame_ink = {40, 40, 40};

/* The stretch colour map: five stops, the first at the range's low end, the middle one (green) at rest (r/L0 = 1),
 * the last at its high end, the others half way; linear in RGB between them. The colour bar shows the stops equally
 * spaced, each labelled with its value. */
static const hk_rgb stretch_stops[5] = {{45, 75, 200}, {40, 165, 210}, {70, 175, 90}, {240, 190, 40}, {210, 40, 35}};
#define STOPS 5

/* The value at stop k of the view's map. */
static double stop_value(const hk_view *v, int k)
{
    return k <= 2 ? v->stretch_lo + (1 - v->stretch_lo) * k / 2.0 : 1 + (v->stretch_hi - 1) * (k - 2) / 2.0;
}

hk_rgb hk_render_stretch_colour(const hk_view *v, double stretch)
{
    double t = stretch <= 1 ? 0.5 * (stretch - v->stretch_lo) / (1 - v->stretch_lo)
                            : 0.5 + 0.5 * (stretch - 1) / (v->stretch_hi - 1);
    if (!isfinite(t) || t > 1) t = 1;
    if (t < 0) t = 0;
    const double u = t * (STOPS - 1);
    const int k = u >= STOPS - 1 ? STOPS - 2 : (int)u;
    const double f = u - k;
    const hk_rgb a = stretch_stops[k], b = stretch_stops[k + 1];
    return (hk_rgb){(uint8_t)lround(a.r + f * (b.r - a.r)), (uint8_t)lround(a.g + f * (b.g - a.g)),
                    (uint8_t)lround(a.b + f * (b.b - a.b))};
}

/* The stretch colour bar right of the viewport: the map's stops equally spaced, each labelled with its value (the
 * ends are the run's range), values beyond the ends shown by arrows in the end colours. */
void hk_stretch_bar(hk_canvas *c, const double vp[4], const hk_view *v)
{
    cairo_t *cr = c->cr;
    const double x0 = vp[2] + 16, bw = 14, top = vp[1] + 58, bottom = c->h - 58;
    cairo_pattern_t *pat = cairo_pattern_create_linear(0, bottom, 0, top);
    for (int k = 0; k < STOPS; k++) {
        const hk_rgb col = stretch_stops[k];
        cairo_pattern_add_color_stop_rgb(pat, k / (double)(STOPS - 1), col.r / 255.0, col.g / 255.0, col.b / 255.0);
    }
    /* the bar with an arrow at each end: values beyond take the end colours */
    const double a = 9;
    cairo_move_to(cr, x0, top);
    cairo_line_to(cr, x0 + 0.5 * bw, top - a);
    cairo_line_to(cr, x0 + bw, top);
    cairo_line_to(cr, x0 + bw, bottom);
    cairo_line_to(cr, x0 + 0.5 * bw, bottom + a);
    cairo_line_to(cr, x0, bottom);
    cairo_close_path(cr);
    cairo_set_source(cr, pat);
    cairo_fill_preserve(cr);
    cairo_pattern_destroy(pat);
    hk_canvas_colour(c, hk_frame_ink, 1);
    cairo_set_line_width(cr, 0.8);
    cairo_stroke(cr);
    for (int k = 0; k < STOPS; k++) {
        const double y = floor(bottom + (top - bottom) * k / (STOPS - 1)) + 0.5;
        char text[32];
        snprintf(text, sizeof text, "%.6g", stop_value(v, k));
        cairo_move_to(cr, x0 + bw, y);
        cairo_line_to(cr, x0 + bw + 4, y);
        cairo_stroke(cr);
        hk_canvas_text(c, x0 + bw + 7, y, 0, 0.5, HK_TEXT_TICK, hk_frame_ink, text);
    }
    const double cx = x0 + 0.5 * bw + 12, lh = hk_canvas_text_height(c, HK_TEXT_CAPTION);
    hk_canvas_text(c, cx, top - a - 6 - lh, 0.5, 1, HK_TEXT_CAPTION, hk_frame_ink, "stretch");
    hk_canvas_text(c, cx, top - a - 6, 0.5, 1, HK_TEXT_CAPTION, hk_frame_ink, "r/L\u2080");
}
