/* strain_limit.h — springs kept within their strain limits: a projection after each substep, colour by colour. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_STRAIN_LIMIT_H
#define HOOKE_STRAIN_LIMIT_H

#include "tethers.h" /* HK_STRAIN_NOT_OVER_RANKS */
#include "world.h"

/* The step's figures start (hk_world_strain_stats): called before its first substep. */
void hk_strain_step_begin(hk_world *w);
/* After a substep h: every spring of a family with a limit moved back within it, the springs' colours
 * (iterate/constraints.h) swept in order, each colour's springs on the team, until a sweep moves nothing or
 * w->def.strain_sweeps sweeps; a spring past its limit moves its ends along it, in proportion to their inverse
 * masses, to just inside the limit, and their velocities by the same moves over h (none on the first projection
 * after the limits, bodies, families or pins changed). dv, dq, prev
 * (NULL, or NULL entries: none): the implicit integrators' history of the substep's velocity change and
 * displacement, and position Verlet's previous positions, which take the same changes. 1 when any particle moved, else
 * 0; a failure (memory, ranks, pins that hold a spring past its limit) sets w->step_failed. */
int hk_strain_project(hk_world *w, hk_real h, hk_real *const dv[3], hk_real *const dq[3], hk_real *const prev[3]);
/* 0, or -1 with why: a spring of family fi (with a limit) whose two ends are both held (pinned, driven) past its
 * limit, which no projection can bring back. */
int hk_strain_pins_check(const hk_world *w, int fi, char *why, size_t len);

#endif
