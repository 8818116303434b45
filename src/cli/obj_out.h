/* obj_out.h — Wavefront OBJ frames for Blender: surfaces as faces, ropes and other spring bodies as lines. */
#ifndef HOOKE_OBJ_OUT_H
#define HOOKE_OBJ_OUT_H

#include "hooke/hooke.h"
#include "geometry.h"

/* Every particle as a vertex "v x y z" (1-based, in particle order); then per
 * body an object "o body<B>_<kind>" with its surface triangles as "f" lines,
 * or, for bodies without a surface, its unbroken springs as "l" lines.
 * Returns 0 or -1 (errno set). */
int hk_obj_write_frame(const char *path, const hk_world *w, const hk_geometry *m);

#endif
