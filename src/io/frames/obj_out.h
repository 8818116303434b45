/* obj_out.h — Wavefront OBJ files for Blender: surfaces as faces (cloth with UVs), spring bodies as edges. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_OBJ_OUT_H
#define HOOKE_OBJ_OUT_H

#include <stdint.h>
#include <stdio.h>

#include "geometry.h"
#include "hooke/hooke.h"

typedef enum hk_obj_layout {
    HK_OBJ_PER_BODY,  /* an object "o body<B>_<kind>" per body (the obj frame format) */
    HK_OBJ_ONE_OBJECT /* one object "o hooke" that uses every vertex (the mesh of a point cache) */
} hk_obj_layout;

/* Every particle as a vertex "v x y z" (1-based, in particle order); then
 * for every cloth body one "vt u v" per node in its local order (node
 * (i, j): u = i/(nx-1), v = j/(ny-1)); then the bodies: a body with a
 * surface as its triangles "f" (a cloth's as "f a/ta b/tb c/tc", each
 * corner with its node's vt), any other body as one "l a b" per unbroken
 * spring (each pair once). Edges have two vertices each: Blender 3.4's
 * importer reads only the first two of an "l" line.
 * HK_OBJ_ONE_OBJECT also gives every vertex that no face or edge uses an
 * edge (Blender's importer drops vertices that nothing uses, and a point
 * cache needs them all, in order): one of its unbroken springs (a jelly's
 * interior nodes), or for a particle on no spring an edge to the particle
 * before it (after it, for particle 0). 0, or -1 with errno set. */
int hk_obj_write(FILE *f, const hk_world *w, const hk_geometry *m, hk_obj_layout layout);

/* For every cloth body one "vt u v" per node in its local order (node
 * (i, j): u = i/(nx-1), v = j/(ny-1)); vt[b] is body b's first vt
 * (0-based), or -1 for a body that is no cloth (vt: body_count slots). */
void hk_obj_write_uvs(FILE *f, const hk_world *w, int64_t *vt);

/* The colliders' surfaces at the frame's time (g's), one object each,
 * "o collider<C>_<shape>" (C from 0, in the scene's order; shape mesh, box
 * or capsule, cut into HK_GEOMETRY_AROUND sides), its vertices "v" after
 * the `vertices` already in the file and its triangles "f", turned
 * counter-clockwise seen from outside. 0, or -1 (errno set). */
int hk_obj_write_colliders(FILE *f, const hk_world *w, const hk_geometry *g, int64_t vertices);

/* hk_obj_write into path, written whole (outfile.c). 0, or -1 (errno set). */
int hk_obj_write_file(const char *path, const hk_world *w, const hk_geometry *m, hk_obj_layout layout);

#endif
