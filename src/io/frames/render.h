/* render.h — pictures of a frame drawn with cairo: the run's camera, surfaces and springs coloured by stretch in the
 * run's range, the ground and the spheres, a colour bar and a caption. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_RENDER_H
#define HOOKE_RENDER_H

#include "canvas.h"
#include "geometry.h"
#include "hooke/hooke.h"
#include "stretch_colours.h"
#include "view.h"

/* The part of a width x height frame that shows the scene, in pixels:
 * x0..x1, y0..y1. Above it the caption, right of it the colour bar. */
void hk_render_viewport(int width, int height, double vp[4]);

/* Fits view (view.h: its camera box and the narrowest colour range) to the
 * frame: hk_view_fit over the particles the frame draws, where they can go
 * (reach 1) or where they are (reach 0). 0, or -1 when out of memory. */
int hk_render_fit(hk_view *view, const hk_world *w, const hk_geometry *g, int reach);

/* Draws the frame (width x height pixels) and writes it as PNG. The camera
 * is the run's: orthographic, looking down 30 degrees from the front right
 * at the view's box, with the ground's stage (a 1-2-5 grid under the box)
 * when the ground is near (within twice the box's size below it), all of it
 * in the viewport; so with the run's view the camera, the grid and the stage
 * stay the same for every frame, and a falling body is seen to fall. A view
 * that is not fixed is first widened where a drawn particle has left it
 * (hk_view_follow). The view's
 * colour range is first widened to what the frame shows (hk_view_widen);
 * view NULL: a view fitted to this frame alone. Surfaces take the mean
 * stretch of their corners' springs, springs of bodies without a surface
 * their own; everything is drawn back to front (but a closed body's far-side
 * triangles, facing.h), over the ground and its
 * shadows; the colour bar is labelled with the range. The same state and
 * view give the same bytes. stats, when not NULL, gets what was drawn. 0, or -1 with errno set. */
typedef struct hk_render_stats {
    int64_t items;           /* things drawn back to front */
    int64_t collider_faces;  /* the colliders' faces that face the camera, each drawn whole */
    int64_t collider_pieces; /* their pieces drawn over them where something else shares their pixels */
} hk_render_stats;
int hk_render_png(const char *path, const hk_world *w, const hk_geometry *g, hk_view *view, int width, int height,
                  hk_render_stats *stats);
/* The same picture into rgb (width * height * 3 bytes: R, G, B, row by row from the top) instead of a file. 0, or
 * -1 with errno set (out of memory). */
int hk_render_rgb(uint8_t *rgb, const hk_world *w, const hk_geometry *g, hk_view *view, int width, int height);

#endif
