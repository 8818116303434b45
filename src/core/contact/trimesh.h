/* trimesh.h — a collider's closed triangle mesh in its own frame: a bounding-volume tree, nearest points, entries. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_TRIMESH_H
#define HOOKE_TRIMESH_H

#include "hooke/hooke.h"

/* A closed, outward-oriented triangle mesh that does not move in its own
 * frame, with what its queries need: each face's unit normal, the pseudo-
 * normals of its edges (the sum of the two faces' normals) and of its
 * vertices (the faces' normals weighted by their angles there), which give
 * the sign of a point's distance wherever its closest point lies (Baerentzen
 * and Aanaes 2005), and a tree of boxes over the faces (median splits,
 * at most HK_TRIMESH_LEAF faces a leaf). */
#define HK_TRIMESH_LEAF 4

typedef struct hk_trimesh_node {
    double lo[3], hi[3];
    int first,
        count; /* a leaf: faces order[first .. first + count); an inner node: count 0, children first, first + 1 */
} hk_trimesh_node;

typedef struct hk_trimesh {
    int nv, nt;
    double *v;  /* 3 per vertex [m] */
    int *t;     /* 3 per face */
    double *fn; /* the unit normal of each face */
    double *en; /* the pseudo-normal of edge e of face f at 3 (3 f + e) (edge e: corner e to corner e + 1) */
    double *vn; /* the pseudo-normal of each vertex */
    int *order; /* the faces in leaf order */
    hk_trimesh_node *node;
    int nodes, depth; /* depth: the longest path from the root (the queries' stack) */
    double lo[3], hi[3];
} hk_trimesh;

/* Builds m from a mesh that passed hk_mesh_validate, its vertices moved by
 * offset [m]; 0, or -1 when out of memory. */
int hk_trimesh_build(hk_trimesh *m, const hk_mesh *mesh, const double offset[3]);
void hk_trimesh_free(hk_trimesh *m);

/* The point q of the surface closest to p among those within `radius` of
 * it: 1 with q, the outward unit normal n at q (from q towards p outside,
 * away from p inside; the pseudo-normal when p lies on the surface) and the
 * signed distance *phi (< 0 inside); 0 when no surface point lies within
 * radius. */
int hk_trimesh_nearest(const hk_trimesh *m, const double p[3], double radius, double q[3], double n[3], double *phi);
/* Where the segment p0 + s (p1 - p0) first enters the solid through a face
 * (s in [0, 1], with the face's outward normal in n), or -1. */
double hk_trimesh_enters(const hk_trimesh *m, const double p0[3], const double p1[3], double n[3]);

#endif
