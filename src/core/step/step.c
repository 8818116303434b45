/* step.c — one step of a world, told once: its substeps, each an integrator substep between anchors and contacts. */
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

/* The spheres, each moved to its place of this substep (its velocity over dt), then every particle against it, then
 * the walls: ex's passes (world/exec.h); the particles moved (count 0: as the passes say). */
static int64_t obstacles(hk_world *w, const hk_exec *ex, hk_real *const prev[3], int count)
{
    int64_t moved = 0;
    const double dt = w->h;
    for (int s = 0; s < w->sphere_count; s++) {
        hk_sphere_def *sd = &w->spheres[s];
        sd->center.x += sd->velocity.x * dt;
        sd->center.y += sd->velocity.y * dt;
        sd->center.z += sd->velocity.z * dt;
        moved += ex->obstacle(w, sd, dt, prev, count);
    }
    if (w->def.has_walls) moved += ex->obstacle(w, NULL, dt, prev, count);
    return moved;
}

void hk_step_told(hk_world *w, const hk_exec *ex)
{
    const hk_integrator_ops *ops = hk_integrator_ops_of(w->integrator.kind);
    if (w->step_failed) return; /* a failed substep stops the world until the integrator is set again */
    if (ex->begin(w) != 0) return;
    const hk_real h = (hk_real)w->h;
    const struct hk_world_facts *facts = hk_world_facts(w);
    const int anchors = facts->anchors > 0, breakable = facts->breakable > 0;
    const int obstacles_on = w->sphere_count > 0 || w->def.has_walls;
    /* the passes' counts of what breaking and the obstacles changed, where a count costs nothing or velocity Verlet
     * needs it (to know whether its forces hold); else what they may have changed is taken as changed */
    const int counts = !ex->counts_wait || w->integrator.kind == HK_VELOCITY_VERLET;
    /* colliders and contact between bodies: the step's candidates (contact/response.h) */
    const int colliders = hk_contact_on(w);
    if (colliders && hk_contact_begin_step(w) != 0) {
        w->step_failed = hk_failed(w);
        return;
    }
    /* contacts shift position Verlet's previous positions with the particle (an implicit integrator's history is
     * the changes over its substep: left alone, which shifts the state before with the particle as well) */
    hk_real *const prev = ops->info.keeps_history && !ops->info.implicit ? w->px : NULL;
    hk_real *const prev3[3] = {prev, w->py, w->pz};
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
            if (ex->anchors) ex->anchors(w);
            w->forces_valid = 0;
        }
        if (driven) {
            hk_targets_substep(w, s, w->substeps);
            w->forces_valid = 0;
        }
        const double t0 = w->time + s * w->h;
        hk_gravity_follow(w, t0);
        if (colliders) hk_contact_substep_begin(w, t0);
        ops->substep(w, ex, h);
        if (w->step_failed) return; /* the state is that substep's start (hk_world_check reports it) */
        int changed = colliders && hk_contact_substep_end(w, t0, t0 + w->h, prev, w->py, w->pz) > 0;
        if (hk_surfaces_pump(w)) w->forces_valid = 0; /* the pressure target moved */
        if (breakable) {
            hk_part_exchange(w); /* a distributed run: the rows a slab's springs reach, as they are now */
            if (ex->break_springs(w, counts) > 0 || !counts) changed = 1;
        }
        if (obstacles_on && (obstacles(w, ex, prev ? prev3 : NULL, counts) > 0 || !counts)) changed = 1;
        /* the strain limits and tethers last: what the substep ends with is within them (contacts that moved a
         * particle were taken first, so the limits have the last word over the stretch; docs/user-guide.md,
         * "Fabric that does not stretch", says where they fight a collider) */
        if (limited) {
            if (project_limits(w, ops, h, hist, prev)) changed = 1;
            if (w->step_failed) return;
            if (changed) w->forces_valid = 0;
        }
        /* changed on any rank: every rank evaluates the forces again (asked only where something can change) */
        if ((breakable || obstacles_on || colliders) && hk_part_any(w, changed)) w->forces_valid = 0;
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
    if (ex->end) ex->end(w);
}

static void step_held(void *w) { hk_step_told(w, &hk_cpu_exec); }

hk_status hk_world_step(hk_world *w)
{
    /* the solver's floating-point mode (fpmode.h); on a device (core/device) its passes, else the world's threads
     * held for the whole step (team.h) */
    int on_device = 0;
    const hk_exec *ex = NULL;
    HK_FP_SCOPE on_device = hk_device_step(w, &ex);
    if (on_device && ex)
        HK_FP_SCOPE hk_step_told(w, ex);
    else if (!on_device)
        HK_FP_SCOPE hk_world_hold_team(w, step_held, w);
    return (hk_status)w->step_failed;
}
