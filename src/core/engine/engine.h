/* engine.h — the parallel SIMD engine: a force pass or a fused substep over every body in one parallel region. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_ENGINE_H
#define HOOKE_ENGINE_H

#include "kernels.h"
#include "lists.h"
#include "sweep.h"
#include "world.h"

/*
 * hk_engine_run opens one parallel region (the world's team) and takes the
 * bodies in order, every thread together:
 *   - a lattice body alone (rope, cloth, jelly without lists or surface
 *     forces): its sweep (sweep.h), with the update fused into the finish
 *     of each row;
 *   - any other body: f = external forces (in its sweep, or a pass over its
 *     particles, or while packing its records), then its list springs
 *     (lists.h), then its surface forces (surface.h: three work-shared
 *     passes whose every sum has one fixed order), then the update over its
 *     particles.
 * Each step is split over the threads so that the bits do not depend on
 * their number (sweep.h, lists.h). No atomics, no reductions.
 */

/* Applies the update u (HK_UPDATE_NONE: none) after f = F(x, v) over every
 * body, with kernel table k. Failures (out of memory) are recorded on w. */
void hk_engine_run(hk_world *w, const hk_kernels *k, const hk_update *u);
/* Colours the list families and allocates what the engine needs for the
 * world's team; 0 or -1 (hk_world_error). */
int hk_engine_prepare(hk_world *w);
/* Frees the engine state of a world (NULL: nothing). */
void hk_engine_free(hk_engine *e);
/* Every list spring of w once, as families: each body's list families, in
 * body and then family order, with a group of small alike bodies' merged
 * into one per family (engine.c): the same order for each particle's terms
 * as its own families give. The array stays valid until a body or family is
 * added. Returns the count (prepares the engine), or -1 (hk_world_error). */
int hk_engine_lists(hk_world *w, const hk_family *const **out);
/* The packed records of w's list bodies, or NULL (benchmark probes). */
const hk_packed *hk_engine_packed(const hk_world *w);

/* The units of the engine's pass, for the shares of a distributed run
 * (dist/part.h): bodies [first, end); by_body: a run of solo bodies, each
 * computed whole by one thread, so its bodies may go to different ranks;
 * slabs: one lattice body alone on the team (no lists, no surface forces),
 * which may be split into slabs of rows. Any other unit is computed whole.
 * Returns the count with *out allocated (free it), or -1 (hk_world_error). */
typedef struct hk_unit_view {
    int first, end;
    int by_body, slabs;
    int kind; /* engine.c's kind of unit (a distributed world's engine keeps it: dist/part.h hk_part_unit) */
} hk_unit_view;
int hk_engine_units(hk_world *w, hk_unit_view **out);
/* The plan of body b, after hk_engine_prepare (valid until a body or family
 * is added). */
const hk_sweep_plan *hk_engine_plan(const hk_world *w, int body);
/* Reads w->part (the shares of a distributed run, or none) into the plans:
 * which rows of a split body this rank sweeps, which solo bodies it takes,
 * the work space a split sweep needs. 0 or -1 (hk_world_error). */
int hk_engine_apply_part(hk_world *w);

#endif
