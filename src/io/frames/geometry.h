/* geometry.h — what a frame shows: unbroken springs as lines (with stretch) and body surface triangles. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_GEOMETRY_H
#define HOOKE_GEOMETRY_H

#include <stdint.h>

#include "hooke/hooke.h"

typedef struct hk_geometry {
    double *pos;   /* every particle's position, x y z [m] (hk_world_positions) */
    int64_t lines; /* unbroken springs */
    int32_t *line; /* 2 global particle indices per line */
    int32_t *line_body;
    double *stretch; /* r / L0 per line [1] */
    int64_t tris;    /* surface triangles */
    int32_t *tri;    /* 3 global particle indices per triangle */
    int32_t *tri_body;
    /* the colliders' surfaces at the frame's time (a box, a capsule cut into
     * HK_GEOMETRY_AROUND sides, a mesh), in world coordinates */
    int64_t cverts, ctris;
    double *cpos;           /* 3 per vertex [m] */
    int32_t *ctri;          /* 3 vertex indices (into cpos) per triangle */
    int32_t *ctri_collider; /* the collider of each triangle */
    int32_t *contacts;      /* per particle: the colliders within whose thickness it lies (NULL: no collider) */
} hk_geometry;
#define HK_GEOMETRY_AROUND 32

/* Surfaces: a mesh or icosphere body shows its closed triangle mesh, a cloth
 * two triangles per grid cell (left out where one of the cell's structural
 * springs is broken), a jelly the triangulated faces of its lattice box;
 * ropes, rings, pairs, quads and point bodies show lines only. Colliders
 * show their surfaces, and each particle the number of colliders it
 * touches.
 * Returns 0, or -1 when out of memory (*m then empty). */
int hk_geometry_build(const hk_world *w, hk_geometry *m);
void hk_geometry_free(hk_geometry *m);
/* The colliders' part alone (their surfaces and each held particle's contacts): a distributed world's frame, whose
 * bodies each rank writes as its piece (vtk_piece.h). 0, or -1 when out of memory. */
int hk_geometry_colliders(const hk_world *w, hk_geometry *m);
/* 1 if body b has surface triangles. */
int hk_geometry_body_has_surface(const hk_world *w, int b);

#endif
