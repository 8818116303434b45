/* render.h — headless pictures of a frame: orthographic camera fitted to the scene, shaded surfaces, springs coloured
 * by stretch. */
#ifndef HOOKE_RENDER_H
#define HOOKE_RENDER_H

#include "hooke/hooke.h"
#include "geometry.h"

typedef struct hk_render_camera {
    double centre[3];               /* looked-at point [m] */
    double right[3], up[3], dir[3]; /* orthonormal; dir points into the picture */
    double half_extent;             /* half the visible height [m] */
} hk_render_camera;

/* Looks at the particles' bounding box from above-front-right, with a margin. */
void hk_render_camera_fit(const hk_world *w, hk_render_camera *cam);
/* Draws the frame (w x h pixels) and writes it as PNG; 0 or -1 (errno set). */
int hk_render_png(const char *path, const hk_world *w, const hk_geometry *m, const hk_render_camera *cam, int width,
                  int height);

#endif
