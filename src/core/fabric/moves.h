/* moves.h — a particle moved by a projection: its position, its velocity and the integrator's history together. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_MOVES_H
#define HOOKE_MOVES_H

#include "world.h"

/* What a projection's move of a particle changes (fabric/strain_limit.c says why): its displacement q by the move m,
 * its velocity v by m / h (nothing on the first projection of limits just set: `fresh`), and the integrator's
 * history in step: an implicit integrator's velocity change (dv) as v, bdf2's displacement (dq) as q, position
 * Verlet's previous positions (prev) by m less h times v's change, so that its velocity (q - prev) / h changes as v
 * does. NULL arrays: none kept. */
typedef struct hk_moves {
    hk_particles *p;
    hk_real h, over_h; /* the substep [s]; 1 / h, or 0 when fresh [1/s] */
    hk_real *dv[3], *dq[3], *prev[3];
} hk_moves;

/* Particle i moved by sign * m (sign +1 or -1, m [m]). */
static inline __attribute__((always_inline)) void hk_move(const hk_moves *s, int64_t i, const hk_real m[3],
                                                          hk_real sign)
{
    hk_particles *p = s->p;
    hk_real *const q[3] = {p->qx, p->qy, p->qz}, *const v[3] = {p->vx, p->vy, p->vz};
    for (int k = 0; k < 3; k++) {
        const hk_real mk = sign * m[k], uk = mk * s->over_h;
        q[k][i] += mk;
        v[k][i] += uk;
        if (s->dv[k]) s->dv[k][i] += uk;
        if (s->dq[k]) s->dq[k][i] += mk;
        if (s->prev[k]) s->prev[k][i] += mk - uk * s->h;
    }
}

#endif
