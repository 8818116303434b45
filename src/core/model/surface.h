/* surface.h — surface bodies' faces: deterministic parallel volume, pressure and wind face forces, pumping. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_SURFACE_H
#define HOOKE_SURFACE_H

#include "team.h"
#include "world.h"

/*
 * Face forces without conflicts (docs/pressure.md). Three passes, each a
 * work-shared loop whose iterations write disjoint data:
 *   1. volume: fixed blocks of HK_FACE_BLOCK faces, each summed in double
 *      into block[b]; then one thread adds the blocks in block order and
 *      sets P = pump nRT / V;
 *   2. faces: each face writes its corner force (pressure, triangle wind)
 *      and its area-weighted normal into face_f, face_n;
 *   3. vertices: each vertex gathers its incident faces in ascending face
 *      order (CSR) and adds the sum (and its vertex wind) to f.
 * Every sum has one fixed order, so f and V are the same bits for any number
 * of threads, and the reference and engine paths run this same code.
 */

/* Adds a surface to body: nfaces faces of dim body-local corners each
 * (dim 3: triangles counter-clockwise from outside; dim 2: ring edges in the
 * x-y plane, interior on the left). closed = 1 allows pressure (pr may be
 * NULL: none). Returns 0 or -1 (message in w). */
int hk_surface_add(hk_world *w, int body, int dim, int closed, int nfaces, const int *face_local,
                   const hk_pressure_def *pr);
void hk_surface_free(hk_surface *s);
/* 1 if s has forces to apply (pressure, or wind in the world). */
int hk_surface_active(const hk_world *w, const hk_surface *s);
/* Adds s's pressure and wind forces to f. Every task of a team calls it
 * (team.h; &hk_team_one: the calling thread alone). Two barriers (after
 * the volume blocks, after the faces); the last pass gives each task its
 * share of the body's particles (hk_team_range) and ends without one, so a
 * per-particle pass over the same shares may follow. */
void hk_surface_forces(const hk_team *tm, hk_world *w, hk_surface *s);
/* Every active surface's forces, serially (the reference path). */
void hk_surfaces_forces(hk_world *w);
/* Advances every surface's pump by its rate, up to 1 (once per substep);
 * returns 1 if some pump changed. */
int hk_surfaces_pump(hk_world *w);

#endif
