/* integrators.h — the time-integrator interface: one table entry per scheme. */
#ifndef HOOKE_INTEGRATORS_H
#define HOOKE_INTEGRATORS_H

#include "world.h"

/* An integrator advances the world's particle state by one substep h, using
 * hk_forces_compute for F(x, v) as often as it needs. Every scheme leaves
 * particles with inverse mass 0 (pinned, driven anchors) where they are.
 * An implicit scheme joins by adding an entry: it may keep its own scratch
 * (as RK4 does) and evaluate spring Jacobian products from the families. */
typedef struct hk_integrator_ops {
    hk_integrator_kind kind;
    const char *name;
    const char *alias;  /* second accepted spelling, or NULL */
    int needs_history;  /* keeps previous positions (position Verlet) */
    int scratch_arrays; /* arrays of capacity entries it needs in w->scratch */
    void (*substep)(hk_world *w, hk_real h);
} hk_integrator_ops;

const hk_integrator_ops *hk_integrator_ops_of(hk_integrator_kind kind);

#endif
