/* vbd.h — vertex block descent: a substep as per-particle Newton steps on backward Euler's energy, colour by colour. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_VBD_H
#define HOOKE_VBD_H

#include "world.h"

/* Iterations (sweeps over the particles) per substep where the integrator's setting is 0. */
#define HK_VBD_ITERATIONS 10

/* One substep h of vbd (vbd.c): the other forces taken at the substep's start, then w->integrator.iterations
 * sweeps over the particles colour by colour (iterate/vertices.h). On a failure w->step_failed is set and the
 * state is the substep's start. */
void hk_vbd_substep(hk_world *w, hk_real h);

#endif
