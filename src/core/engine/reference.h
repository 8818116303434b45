/* reference.h — the reference path's spring forces (the oracle of the engine's kernels). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_REFERENCE_H
#define HOOKE_REFERENCE_H

#include "springs.h"

/* The spring force on endpoint a of a spring of f with rest length L0 (the
 * opposite acts on b), for d = x_a - x_b and dv = v_a - v_b. Returns 0 (and
 * leaves out untouched) if the spring is slack under its behaviour or has
 * zero length. */
int hk_spring_force(const hk_family *f, hk_real L0, hk_real dx, hk_real dy, hk_real dz, hk_real dvx, hk_real dvy,
                    hk_real dvz, hk_real out[3]);
/* Adds every family's spring forces into p->f, family by family and spring
 * by spring in storage order, on the calling thread. */
void hk_reference_springs(hk_world *w);

#endif
