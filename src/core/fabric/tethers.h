/* tethers.h — long-range tethers: each free particle of a body kept within its rest distance of its nearest pin. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_TETHERS_H
#define HOOKE_TETHERS_H

#include "moves.h"

/* Why strain limits (strain_limit.h) and tethers are refused over ranks. */
#define HK_STRAIN_NOT_OVER_RANKS                                                                                       \
    "strain limits (springs ... strain_limit, compress_limit) and tethers do not run over MPI ranks (a sweep carries " \
    "each spring's correction on to the next within the sweep, across a rank's boundary too, and a tether reaches "    \
    "across the body): run it in one process"

/* A world's tethers: what each body asked for (hk_world_set_tethers), and the tethers made from it. */
typedef struct hk_tethers {
    int bodies;           /* entries of kind and stretch */
    hk_tether_kind *kind; /* per body */
    double *stretch;      /* per body [1] */
    int on;               /* bodies with tethers */
    int made;             /* the list below was made for the world's current bodies and pins */
    int64_t count;        /* tethers */
    int *particle, *pin;  /* tether t keeps particle[t] within length[t] of pin[t] (global storage indices) */
    hk_real *length;      /* [m] */
} hk_tethers;

/* Whether w has a body with tethers. */
static inline int hk_tethers_on(const hk_world *w) { return w->tethers && w->tethers->on > 0; }
/* The tethers made again at the next projection (bodies, families or pins changed). */
static inline void hk_tethers_stale(hk_world *w)
{
    if (w->tethers) w->tethers->made = 0;
}
/* After a substep: every tether longer than its length brought back to it, its particle moved toward its pin
 * (moves.h: the velocity and the history with it); the projections counted into w->strain.tethered. 0, or -1 (out of
 * memory, or a body with tethers left without a held particle: w's error says which; w->step_failed set). */
int hk_tethers_project(hk_world *w, const hk_moves *mv);
/* Frees w's tethers (the world's end). */
void hk_tethers_free(hk_world *w);

#endif
