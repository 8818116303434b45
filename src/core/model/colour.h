/* colour.h — greedy edge colouring of list spring families, and locality reordering of particles. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_COLOUR_H
#define HOOKE_COLOUR_H

#include "world.h"

/* Most colours before springs go to the serial overflow colour. */
#define HK_MAX_COLOURS 128

/* Particles per band of the banded list-spring sweep (lists.h): the
 * packed records of two bands (48 bytes a particle) fit in L2. */
#define HK_BAND 4096

/* Colours list family f, whose springs join particles of [first, first +
 * n) (its body's), greedily (each spring takes the lowest colour free
 * at both ends), then physically reorders its springs (with their rest
 * lengths and broken flags) colour by colour, each colour sorted by its
 * lower endpoint for locality: first the springs whose ends lie in one band
 * of HK_BAND particles or two neighbouring ones (near), then the others
 * (far), with a table of where each band's near springs start in each
 * colour. Springs that find none of the
 * HK_MAX_COLOURS colours go to a last, serial overflow colour.
 * Returns 0 or -1 (out of memory). Idempotent. */
int hk_colour_family(hk_family *f, int first, int n);

/* One family out of the coloured list families members[0 .. m) of
 * consecutive bodies, whose particles are [first, first + n): their springs
 * concatenated, each keeping its colour (an overflow spring goes to the
 * merged overflow colour), sorted and tabled as hk_colour_family does. Each
 * particle then gets its terms in the order its own family gives them, so
 * a sweep of out has the bits of one of each member (engine.c's groups).
 * out takes the first member's parameters. The members must have the same
 * parameters, rest lengths for all or none, no broken flags and no rest
 * vectors. 0, or -1 (out of memory or members that do not fit). */
int hk_colour_merge(hk_family *out, const hk_family *const *members, int m, int first, int n);

/* Whether list family f, of particles [first, first + n), is coloured as
 * the banded sweep relies on it (lists.h; check.h HK_VALIDATE): no particle
 * twice in a regular colour, every end within the particles, each colour's
 * near springs (ends within one band and the next) before its far ones and
 * listed under the band of their lower end. 0 (also for a family not
 * coloured), or -1 with the broken rule in why. */
int hk_colour_check(const hk_family *f, int first, int n, char *why, size_t len);

/* Largest number of springs of f meeting at one particle (the degree Delta). */
int hk_family_max_degree(const hk_family *f, int first, int count);

/* Renumbers the particles of list body `body` in reverse Cuthill-McKee order
 * of its spring graph (breadth first from a low-degree particle, reversed),
 * so that springs join nearby indices; remaps its families and drops their
 * colouring. If order is non-NULL, order[new_local] = old_local (count
 * entries). Lattice bodies are left alone (their order is already optimal).
 * Returns 0 or -1. */
int hk_world_reorder_body(hk_world *w, int body, int *order);

#endif
