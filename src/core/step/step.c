/* step.c — one step of a world: its substeps, each an integrator substep between anchors and contacts. */
/* SPDX-License-Identifier: MIT */
#include "integrators.h"

#include "device.h"
#include "spheres_walls.h"
#include "fpmode.h"
#include "forces.h"
#include "gravity_schedule.h"
#include "part.h"
#include "response.h"
#include "strain.h"
#include "strain_limit.h"
#include "tethers.h"
#include "surface.h"
#include "targets.h"

/* The strain limits and tethers' projection after substep h (fabric/strain_limit.h), the integrator's history
 * hist (an implicit integrator's changes over its substep, dv then dq) and position Verlet's previous positions
 * prev (or NULL) taking its changes; 1 when it moved a particle. */
static int project_limits(hk_world *w, const hk_integrator_ops *ops, hk_real h, hk_real *const hist[6],
                          hk_real *const prev)
{
    return hk_strain_project(w, h, ops->info.implicit ? hist : NULL, hist + 3, prev ? hist : NULL);
}

/* Allocates what the integrator keeps between steps; 0 or -1 (out of memory). */
static int ensure_scratch(hk_world *w, const hk_integrator_ops *ops)
{
    size_t cap = (size_t)(w->p.capacity ? w->p.capacity : 1);
    if (hk_world_make_history(w) != 0) return -1;
    if (ops->scratch_arrays && !w->scratch) {
        size_t offset; /* 0 from slot 0 */
        w->scratch = hk_alloc_slab(ops->scratch_arrays, cap, 0, w, &w->scratch_stride, &offset);
        if (!w->scratch) return -1;
    }
    return 0;
}

static void step(hk_world *w)
{
    const hk_integrator_ops *ops = hk_integrator_ops_of(w->integrator.kind);
    if (w->step_failed) return; /* a failed substep stops the world until the integrator is set again */
    if (ensure_scratch(w, ops) != 0) {
        w->step_failed = hk_fail_memory(w, "out of memory for integrator state");
        return;
    }
    const hk_real h = (hk_real)w->h;
    const struct hk_world_facts *facts = hk_world_facts(w);
    const int anchors = facts->anchors > 0, breakable = facts->breakable > 0;
    /* colliders and contact between bodies: the step's candidates (contact/response.h) */
    const int colliders = hk_contact_on(w);
    if (colliders && hk_contact_begin_step(w) != 0) {
        w->step_failed = hk_failed(w);
        return;
    }
    /* contacts shift position Verlet's previous positions with the particle (an implicit integrator's history is
     * the changes over its substep: left alone, which shifts the state before with the particle as well) */
    hk_real *const prev = ops->info.keeps_history && !ops->info.implicit ? w->px : NULL;
    const int driven = w->targets && w->targets->count > 0; /* kinematic targets (targets.h) */
    if (driven) hk_targets_begin(w);
    /* strain limits and tethers (fabric/strain_limit.h): the integrator's history (an implicit integrator's changes
     * over its substep, position Verlet's previous positions) takes the projection's changes too */
    const int limited = facts->limited > 0 || hk_tethers_on(w);
    hk_real *hist[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    if (limited) {
        hk_strain_step_begin(w);
        if (ops->info.implicit || prev) hk_world_history(w, hist);
    }
    for (int s = 0; s < w->substeps; s++) {
        if (anchors) {
            hk_anchors_advance(w, w->h);
            w->forces_valid = 0;
        }
        if (driven) {
            hk_targets_substep(w, s, w->substeps);
            w->forces_valid = 0;
        }
        const double t0 = w->time + s * w->h;
        hk_gravity_follow(w, t0);
        if (colliders) hk_contact_substep_begin(w, t0);
        ops->substep(w, h);
        if (w->step_failed) return; /* the state is that substep's start (hk_world_check reports it) */
        int changed = colliders && hk_contact_substep_end(w, t0, t0 + w->h, prev, w->py, w->pz) > 0;
        if (hk_surfaces_pump(w)) w->forces_valid = 0; /* the pressure target moved */
        if (breakable) {
            hk_part_exchange(w); /* a distributed run: the rows a slab's springs reach, as they are now */
            if (hk_springs_break(w) > 0) changed = 1;
        }
        if (hk_contacts_apply(w, w->h, prev, w->py, w->pz) > 0) changed = 1;
        /* the strain limits and tethers last: what the substep ends with is within them (contacts that moved a
         * particle were taken first, so the limits have the last word over the stretch; docs/user-guide.md,
         * "Fabric that does not stretch", says where they fight a collider) */
        if (limited) {
            if (project_limits(w, ops, h, hist, prev)) changed = 1;
            if (w->step_failed) return;
            if (changed) w->forces_valid = 0;
        }
        /* changed on any rank: every rank evaluates the forces again (asked only where something can change) */
        if ((breakable || w->sphere_count > 0 || w->def.has_walls || colliders) && hk_part_any(w, changed))
            w->forces_valid = 0;
    }
    /* a particle that outran the broad phase's slack is swept over the whole step */
    if (colliders && hk_part_any(w, hk_contact_end_step(w, prev, w->py, w->pz) > 0)) {
        w->forces_valid = 0;
        /* what the sweep moved is taken back within the limits: they keep the last word over the stretch */
        if (limited) project_limits(w, ops, h, hist, prev);
        if (w->step_failed) return;
    }
    if (driven) hk_targets_end(w);
    w->steps++;
    w->time += w->integrator.dt;
}

static void step_held(void *w) { step(w); }

hk_status hk_world_step(hk_world *w)
{
    /* the solver's floating-point mode (fpmode.h); on a device (core/device) its passes, else the world's threads
     * held for the whole step (team.h) */
    int on_device = 0;
    HK_FP_SCOPE on_device = hk_device_step(w);
    if (!on_device) HK_FP_SCOPE hk_world_hold_team(w, step_held, w);
    return (hk_status)w->step_failed;
}
