/* pieces.h — the colliders in a picture: their triangles that face the camera as flat faces drawn whole, and pieces
 * of them where something drawn over the same pixels lies behind their plane. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PIECES_H
#define HOOKE_PIECES_H

#include <stdint.h>

#include "geometry.h"
#include "hooke/hooke.h"

/* A thing a frame draws besides the colliders, and what it covers on the screen. */
typedef enum hk_cover_kind { HK_COVER_TRI, HK_COVER_LINE, HK_COVER_POINT, HK_COVER_SPHERE } hk_cover_kind;
typedef struct hk_cover {
    int32_t kind;  /* hk_cover_kind */
    int32_t index; /* the geometry's triangle or line, a particle, or the world's sphere */
    double box[4]; /* x0, y0, x1, y1 [px]: a box around what it covers on the screen */
} hk_cover;

/* The colliders as a frame draws them. Their triangles that face the camera (each collider is closed, its
 * triangles turned counter-clockwise seen from outside) make faces, runs of one collider's triangles in one plane,
 * each drawn whole as one path (no seams inside it) behind what lies in front of its plane. Where something drawn
 * over the same pixels lies behind the plane (at least partly), or another collider is drawn there, a triangle
 * is drawn again over its face: whole and over them, when all it shares pixels with lies behind its plane; else
 * in pieces drawn at their own depths, so that drawing back to front orders them there, halved at the middle of
 * the longest edge while it meets such a pixel and that edge is above `size` [m], at most 12 times (the pieces
 * that meet none are left out). A body resting on a collider's face is wholly in front of its plane and costs
 * nothing. The pixels are looked at in square cells of 8. */
typedef struct hk_collider_faces {
    unsigned char *front; /* per collider triangle: it faces the camera */
    int64_t *face_of;     /* per collider triangle: its face, or -1 */
    int64_t *face;        /* face f: the front ones of triangles face[f] .. face[f + 1] - 1 */
    double *normal;       /* per face: its outward unit normal */
    int64_t faces;
    double *piece;       /* 9 per piece [m] */
    int64_t *from;       /* per piece: its collider triangle */
    unsigned char *over; /* per piece: 1 if it is the whole triangle, in front of all it shares pixels with */
    int64_t pieces;
} hk_collider_faces;

/* The faces and pieces of g's colliders for an orthographic camera looking along dir on a width x height picture:
 * screen holds 3 numbers per collider vertex of g (x, y [px], anything; a point's place on the screen is affine in
 * its place in the world, so a piece's corners are found by halving), cover the n other things drawn. 0, or -1
 * when out of memory (cf then empty). */
int hk_collider_faces_make(hk_collider_faces *cf, const hk_world *w, const hk_geometry *g, const double *screen,
                           const double dir[3], const hk_cover *cover, int64_t n, int width, int height, double size);
void hk_collider_faces_free(hk_collider_faces *cf);

#endif
