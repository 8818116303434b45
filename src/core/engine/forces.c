/* forces.c — F(x, v) by the engine or by the reference path (chosen once, when the world is created), and anchors. */
/* SPDX-License-Identifier: MIT */
#include "forces.h"

#include "engine.h"
#include "fpmode.h"
#include "reference.h"
#include "response.h"
#include "surface.h"

static void forces_update(hk_world *w, hk_update_kind kind, hk_real h)
{
    const hk_update u = hk_update_make(kind, h, &w->integrator);
    if (w->contact) hk_contact_forces(w); /* the colliders' force on their candidates, which the pass adds */
    if (w->kernels) {                     /* the engine, with the kernels of the world's path */
        hk_engine_run(w, w->kernels, &u);
        return;
    }
    /* the reference path, on this thread: the oracle's springs
     * (reference.c); external forces and the update by their one formula
     * (engine/external.h, engine/update.h) in the scalar instantiation */
    hk_external ext;
    hk_external_init(&ext, &w->def);
    hk_particle_force_arrays(w, ext.contact);
    for (int b = 0; b < w->body_count; b++) {
        hk_external_frame(&ext, &w->def, w->bodies[b].origin);
        hk_kernels_scalar.external_forces(&ext, &w->p, w->bodies[b].first, w->bodies[b].count);
    }
    hk_reference_springs(w);
    hk_surfaces_forces(w); /* pressure and wind, after every spring */
    w->spring_updates += hk_world_facts(w)->springs;
    if (kind != HK_UPDATE_NONE) hk_kernels_scalar.integrate(&u, &w->p, 0, w->p.count);
}

int hk_forces_update(hk_world *w, hk_update_kind kind, hk_real h)
{
    HK_FP_SCOPE forces_update(w, kind, h); /* the solver's floating-point mode (fpmode.h) */
    return w->step_failed;                 /* the engine's failure (engine.c), else 0 */
}

int hk_forces_compute(hk_world *w) { return hk_forces_update(w, HK_UPDATE_NONE, 0); }

void hk_anchors_advance(hk_world *w, double dt)
{
    for (int b = 0; b < w->body_count; b++) {
        hk_body *body = &w->bodies[b];
        if (!body->anchor) continue;
        for (int c = 0; c < 3; c++) body->anchor_pos[c] += body->anchor_vel[c] * dt;
        if (w->def.ground.model != HK_GROUND_NONE && body->anchor_pos[1] < w->def.ground.height) {
            body->anchor_pos[1] = w->def.ground.height;
            body->anchor_vel[1] = 0;
        }
        int i = body->first;
        hk_particle_place(w, body, i, body->anchor_pos);
        w->p.vx[i] = (hk_real)body->anchor_vel[0];
        w->p.vy[i] = (hk_real)body->anchor_vel[1];
        w->p.vz[i] = (hk_real)body->anchor_vel[2];
    }
}
