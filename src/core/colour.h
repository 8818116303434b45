/* colour.h — greedy edge colouring of list spring families, and locality reordering of particles. */
#ifndef HOOKE_COLOUR_H
#define HOOKE_COLOUR_H

#include "world.h"

/* Most colours before springs go to the serial overflow colour. */
#define HK_MAX_COLOURS 128

/* Particles per band of the banded list-spring sweep (lists.h): the
 * packed records of two bands (48 bytes a particle) fit in L2. */
#define HK_BAND 4096

/* Colours list family f greedily (each spring takes the lowest colour free
 * at both ends), then physically reorders its springs (with their rest
 * lengths and broken flags) colour by colour, each colour sorted by its
 * lower endpoint for locality: first the springs whose ends lie in one band
 * of HK_BAND particles or two neighbouring ones (near), then the others
 * (far), with a table of where each band's near springs start in each
 * colour. Springs that find none of the
 * HK_MAX_COLOURS colours go to a last, serial overflow colour.
 * Returns 0 or -1 (out of memory). Idempotent. */
int hk_colour_family(hk_family *f, int particle_count);

/* Largest number of springs of f meeting at one particle (the degree Delta). */
int hk_family_max_degree(const hk_family *f, int particle_count);

/* Renumbers the particles of list body `body` in reverse Cuthill-McKee order
 * of its spring graph (breadth first from a low-degree particle, reversed),
 * so that springs join nearby indices; remaps its families and drops their
 * colouring. If order is non-NULL, order[new_local] = old_local (count
 * entries). Lattice bodies are left alone (their order is already optimal).
 * Returns 0 or -1. */
int hk_world_reorder_body(hk_world *w, int body, int *order);

#endif
