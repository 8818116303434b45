/* xpbd.h — extended position-based dynamics: a substep of springs as compliant distance constraints. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_XPBD_H
#define HOOKE_XPBD_H

#include "world.h"

/* Iterations per substep where the integrator's setting is 0. */
#define HK_XPBD_ITERATIONS 1

/* One substep h of xpbd (xpbd.c): the other forces taken at the substep's start, then w->integrator.iterations
 * sweeps over the springs' constraints colour by colour (iterate/constraints.h). On a failure w->step_failed is set
 * and the state is the substep's start. */
void hk_xpbd_substep(hk_world *w, hk_real h);
#endif
