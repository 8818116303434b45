/* faces.h — the triangles of a body's surface: what frames show and what other bodies collide with. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_FACES_H
#define HOOKE_FACES_H

#include <stdint.h>

#include "world.h"

/* A body's surface: a mesh or icosphere body's closed triangle mesh
 * (surface.c), a cloth's two triangles per grid cell (hk_cloth_cell_tris;
 * left out where one of the triangle's lattice edges is broken), a
 * jelly's triangulated lattice box faces; ropes, rings, pairs, quads and
 * point bodies have none. */
int hk_body_has_faces(const hk_world *w, int b);
/* The most triangles body b's surface can have (0 without one). */
int64_t hk_body_face_capacity(const hk_world *w, int b);
/* Body b's triangles, 3 global particle indices each, into tri (room for
 * hk_body_face_capacity); returns their count. */
int64_t hk_body_faces(const hk_world *w, int b, int32_t *tri);
/* The same for the triangles whose first corner is body-local node l0 .. l1 - 1 (a cloth's cells of the rows
 * [l0, l1) begin in; a mesh's all of them when [l0, l1) is the whole body, else none), in the same order: the
 * faces of a distributed world's share (their corners held there: the rows of a slab and its halo). */
int64_t hk_body_faces_from(const hk_world *w, int b, int64_t l0, int64_t l1, int32_t *tri);

#endif
