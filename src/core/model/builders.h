/* builders.h — body builders share these helpers; the builders themselves are in hooke.h. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_BUILDERS_H
#define HOOKE_BUILDERS_H

#include "world.h"

/* Normalises v; returns 0 if v has zero (or non-finite) length. */
int hk_normalise(hk_vec3 *v);
/* Checks a particle mass against its bound (bounds.c); on error writes "WHAT: mass must be ..." into w and
 * returns -1. */
int hk_check_mass(hk_world *w, const char *what, double m);
/* Checks the spring parameters; on error writes the message into w and returns -1. */
int hk_check_spring_params(hk_world *w, const char *what, const hk_spring_params *s);

/* The two triangles of cloth cell (i, j) of a lattice nx nodes wide, as
 * local node indices: the cell is split along its diagonal from (i + 1, j)
 * to (i, j + 1) into (i, j), (i + 1, j), (i, j + 1) and (i + 1, j),
 * (i + 1, j + 1), (i, j + 1), both counter-clockwise seen from the side
 * u x v points to. The one triangulation of a cloth: its wind faces
 * (builders.c) and the bodies' surfaces (faces.c: the frames, contact). */
static inline void hk_cloth_cell_tris(int nx, int i, int j, int out[6])
{
    const int p00 = i + j * nx, p10 = p00 + 1, p01 = p00 + nx, p11 = p01 + 1;
    out[0] = p00, out[1] = p10, out[2] = p01;
    out[3] = p10, out[4] = p11, out[5] = p01;
}

/* Builds the held nodes of deferred lattice body `body` (world.h hk_lattice_recipe) once they have their storage:
 * the bits a body built at once has there. */
void hk_lattice_fill(hk_world *w, int body);

/* Drops the last body (added from family first_family on) after a failure; returns -1. */
int hk_undo_body(hk_world *w, int body, int first_family);

#endif
