/* integrators.h — the integrator table: one row per scheme, with its facts and its substep. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_INTEGRATORS_H
#define HOOKE_INTEGRATORS_H

#include "exec.h"
#include "update.h"
#include "world.h"

/* An integrator advances the world's particle state by one substep h, with
 * hk_forces_compute / hk_forces_update (forces.h) for F(x, v) as often as it
 * needs. Every scheme leaves particles with inverse mass 0 (pinned, driven
 * anchors) where they are. A scheme that evaluates forces once and then
 * updates each particle from its own force alone names that update
 * (engine/update.h), which the engine fuses into the force pass. */
typedef struct hk_integrator_ops {
    hk_integrator_info info; /* the public facts (hooke.h) */
    hk_update_kind update;   /* the fused update of a one-evaluation explicit scheme, else HK_UPDATE_NONE */
    int scratch_arrays;      /* arrays of capacity entries it needs in w->scratch */
    int history_arrays;      /* arrays it keeps from substep to substep (world.h px, py, pz, then dqx, dqy, dqz) */
    void (*substep)(hk_world *w, const hk_exec *ex, hk_real h); /* told in ex's passes (world/exec.h) */
} hk_integrator_ops;

const hk_integrator_ops *hk_integrator_ops_of(hk_integrator_kind kind);

/* The history arrays kind keeps (0, 3 or 6; 0 for a kind out of range). */
int hk_integrator_history_arrays(hk_integrator_kind kind);
/* w's history arrays as its integrator keeps them, in the order px, py, pz, dqx, dqy, dqz, into a (NULL past
 * their count, and where w has not made them); their count. */
int hk_world_history(const hk_world *w, hk_real *a[6]);
/* Makes the history arrays w's integrator keeps where w has fewer (hk_world_alloc_history: w->history unset); 0,
 * or -1 (out of memory). */
int hk_world_make_history(hk_world *w);

/* The CPU engine's passes of a step (exec_cpu.c; world/exec.h). */
extern const hk_exec hk_cpu_exec;

/* Advances the world one step (integrators.c's substep, between anchors and
 * contacts, for every substep) with ex's passes: the story of a step, told once (step.c); hk_world_step (hooke.h)
 * runs it with the CPU's or the device's. */
void hk_step_told(hk_world *w, const hk_exec *ex);

#endif
