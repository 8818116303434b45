/* facing.h — which way the triangles of a body's closed surface face: each turned outward, for back-face culling. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_FACING_H
#define HOOKE_FACING_H

#include "geometry.h"

/* For each surface triangle t of g (its corners a, b, c), out[t] = +1 when (b - a) x (c - a) points out of its
 * body, -1 when it points in, 0 when that cannot be told: where a body's triangles do not make a closed surface
 * (every edge shared by exactly two of them, turned consistently: a cloth, a jelly with a face missing), or where a
 * connected piece of one encloses no volume. Outward is where the piece's signed volume is positive, at the
 * frame's positions. A triangle whose outward normal points away from the camera lies behind its own body's
 * surface, and drawing it changes no pixel that its body's front triangles do not cover. 0, or -1 when out of
 * memory. */
int hk_facing_outward(const hk_geometry *g, signed char *out);

#endif
