/* render.h — pictures of a frame drawn with cairo: a camera that frames the bodies, surfaces and springs coloured by
 * stretch, the ground and the spheres, a colour bar and a caption. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_RENDER_H
#define HOOKE_RENDER_H

#include "canvas.h"
#include "geometry.h"
#include "hooke/hooke.h"

/* The part of a width x height frame that shows the scene, in pixels:
 * x0..x1, y0..y1. Above it the caption, right of it the colour bar. */
void hk_render_viewport(int width, int height, double vp[4]);

/* The colour of spring stretch r / L0: blue (compressed to
 * HK_RENDER_STRETCH_MIN or less), green (at rest), amber, red (stretched to
 * HK_RENDER_STRETCH_MAX or more); non-finite: red. */
#define HK_RENDER_STRETCH_MIN 0.8
#define HK_RENDER_STRETCH_MAX 1.2
hk_rgb hk_render_stretch_colour(double stretch);

/* Draws the frame (width x height pixels) and writes it as PNG. The camera
 * is fitted to the frame's own state: orthographic, looking down 30 degrees
 * from the front right at the box around what is drawn (the particles of
 * surface triangles, every particle of the other bodies), the spheres and,
 * when the ground is near (within twice the box's size below it), the
 * ground under them. Its extent and centre are rounded up to steps
 * (extents an eighth of an octave apart, centres on a grid of a sixteenth
 * of the extent), so the view holds still while the bodies move a little, and
 * everything drawn stays in the viewport. Surfaces take the mean stretch of
 * their corners' springs, springs of bodies without a surface their own;
 * everything is drawn back to front, over the ground and its shadows. The
 * same state gives the same bytes. 0, or -1 with errno set. */
int hk_render_png(const char *path, const hk_world *w, const hk_geometry *g, int width, int height);

#endif
