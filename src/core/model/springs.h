/* springs.h — spring families: lattice stencils and index lists, built on a body. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_SPRINGS_H
#define HOOKE_SPRINGS_H

#include "spring_vec.h"
#include "world.h"

/* Adds a lattice (stencil) family to a lattice body: node (i,j,k) joins node
 * (i+di, j+dj, k+dk) wherever both exist. Its rest vector D is the rest
 * offset di A + dj B + dk C of the body's lattice, and the rest length |D|
 * unless params->rest_length > 0. */
hk_family *hk_add_lattice_family(hk_world *w, int body, const char *name, const hk_spring_params *params, int di,
                                 int dj, int dk);

/* Narrows lattice family f (as added, on a body held whole) to the source nodes with i in [i0, i1) and j in [j0, j1)
 * within its box: a cloth's interior and edge rows of one stencil, at different k (fabric.h). */
void hk_lattice_family_narrow(hk_family *f, int i0, int i1, int j0, int j1);

/* Adds a list family joining global particles a[s] - b[s] of one body; a
 * spring's rest length is rest[s] where rest (may be NULL) gives one > 0,
 * else params->rest_length where > 0, else its initial length (as the
 * kernels compute it). The values are the caller's to check (builders.c).
 * Returns 0 or -1. */
int hk_add_list_family(hk_world *w, int body, const char *name, const hk_spring_params *params, int64_t count,
                       const int *a, const int *b, const double *rest);

#endif
