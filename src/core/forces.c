/* forces.c — gravity, air drag, the two ground models, springs, surface (pressure, wind) forces, and driven anchors. */
#include "forces.h"

#include "engine.h"
#include "springs.h"
#include "surface.h"

/* Body forces: f = m g - c_air v. */
static void body_forces(hk_world *w)
{
    hk_particles *p = &w->p;
    const hk_real gx = w->g[0], gy = w->g[1], gz = w->g[2];
    const hk_real c = (hk_real)w->def.air_drag;
    const int n = p->count;
    for (int i = 0; i < n; i++) {
        p->fx[i] = p->mass[i] * gx - c * p->vx[i];
        p->fy[i] = p->mass[i] * gy - c * p->vy[i];
        p->fz[i] = p->mass[i] * gz - c * p->vz[i];
    }
}

/* Ground plane y = h. REPULSION (rope tutorial): below the plane, k_rep (h - y)
 * upward, sliding friction -c_fric v_t, absorption -c_abs v_y while v_y < 0.
 * SPRING (soft-body book): -k_coll (y - h) while y < h. */
static void ground_forces(hk_world *w)
{
    const hk_ground *g = &w->def.ground;
    if (g->model == HK_GROUND_NONE) return;
    hk_particles *p = &w->p;
    const hk_real h = (hk_real)g->height;
    const int n = p->count;
    if (g->model == HK_GROUND_REPULSION) {
        const hk_real krep = (hk_real)g->repulsion, cf = (hk_real)g->friction, ca = (hk_real)g->absorption;
        for (int i = 0; i < n; i++) {
            if (!(p->y[i] < h)) continue;
            p->fx[i] -= cf * p->vx[i];
            p->fz[i] -= cf * p->vz[i];
            if (p->vy[i] < 0) p->fy[i] -= ca * p->vy[i];
            p->fy[i] += krep * (h - p->y[i]);
        }
    } else {
        const hk_real k = (hk_real)g->stiffness;
        for (int i = 0; i < n; i++)
            if (p->y[i] < h) p->fy[i] -= k * (p->y[i] - h);
    }
}

void hk_forces_compute(hk_world *w)
{
    const hk_kernels *k = hk_kernels_active();
    if (k) {
        hk_engine_forces(w, k);
        return;
    }
    body_forces(w);
    ground_forces(w);
    hk_springs_forces(w);
    hk_surfaces_forces(w); /* pressure and wind, after every spring */
    w->spring_updates += hk_world_spring_count(w);
}

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
        w->p.x[i] = (hk_real)body->anchor_pos[0];
        w->p.y[i] = (hk_real)body->anchor_pos[1];
        w->p.z[i] = (hk_real)body->anchor_pos[2];
        w->p.vx[i] = (hk_real)body->anchor_vel[0];
        w->p.vy[i] = (hk_real)body->anchor_vel[1];
        w->p.vz[i] = (hk_real)body->anchor_vel[2];
    }
}
