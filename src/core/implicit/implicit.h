/* implicit.h — the implicit integrators' substeps: backward Euler and the trapezoidal rule, Newton on a CG solve. */
#ifndef HOOKE_IMPLICIT_H
#define HOOKE_IMPLICIT_H

#include "world.h"

/* One substep h of backward Euler (theta = 1) or of the trapezoidal rule
 * (theta = 1/2); see implicit.c. */
void hk_implicit_euler_substep(hk_world *w, hk_real h);
void hk_trapezoidal_substep(hk_world *w, hk_real h);

#endif
