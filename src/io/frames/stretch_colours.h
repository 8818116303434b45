/* stretch_colours.h — the frames' stretch colour map (five stops, green at rest, the run's range) and its bar. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_STRETCH_COLOURS_H
#define HOOKE_STRETCH_COLOURS_H

#include "canvas.h"
#include "view.h"

/* The frames' ink: text, ticks and outlines. */
extern const hk_rgb hk_frame_ink;

/* The colour of spring stretch r / L0 in the view's range: blue at
 * stretch_lo or below (compressed), green at rest (1), amber, red at
 * stretch_hi or above (stretched); linear between five stops, the middle
 * one at 1; non-finite: red. */
hk_rgb hk_render_stretch_colour(const hk_view *v, double stretch);

/* The colour bar right of the viewport vp (render.h hk_render_viewport): the map's stops equally spaced, each
 * labelled with its value in the view's range, arrows at the ends for values beyond. */
void hk_stretch_bar(hk_canvas *c, const double vp[4], const hk_view *v);

#endif
