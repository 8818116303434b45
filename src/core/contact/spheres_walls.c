/* spheres_walls.c — sphere obstacles (static or moving) and axis-aligned room walls. */
/* SPDX-License-Identifier: MIT */
#include "spheres_walls.h"

#include <math.h>
#include <stdatomic.h>

#include "part.h"

/* Contacts are worked out in world coordinates, in double: a particle's
 * place is its body's origin + (r + q) (hk_particle_position), and a particle
 * moved by a contact gets q back from its new place (hk_particle_place). */

/* Each particle's contact is its own: the particles this process computes
 * are shared out over the world's team (part.h hk_team_spans: each task its
 * pieces, each piece's body found once, in the solver's floating-point
 * mode), and the count of moved particles summed (integers: any order). */

/* The contact pass of one obstacle (walls, or sphere s) and its count. */
typedef struct contact_pass {
    hk_world *w;
    double dt;
    hk_real *px, *py, *pz; /* position Verlet's previous positions, or NULL */
    hk_sphere_def sd;      /* a sphere at its place of this substep */
    atomic_int moved;
} contact_pass;

static void walls_piece(void *ctx, int g0, int g1)
{
    contact_pass *cp = ctx;
    hk_world *w = cp->w;
    hk_particles *p = &w->p;
    const double lo[3] = {w->def.walls_min.x, w->def.walls_min.y, w->def.walls_min.z};
    const double hi[3] = {w->def.walls_max.x, w->def.walls_max.y, w->def.walls_max.z};
    const hk_real keep = (hk_real)(1.0 - w->def.walls_loss), dt = (hk_real)cp->dt;
    int moved = 0;
    for (int i = g0, b = hk_body_of(w, g0); i < g1; i++) {
        while (i >= w->bodies[b].first + w->bodies[b].count) b++;
        if (p->inv_mass[i] == 0) continue;
        const hk_real r[3] = {p->rx[i], p->ry[i], p->rz[i]};
        hk_real *const q[3] = {&p->qx[i], &p->qy[i], &p->qz[i]}, *const v[3] = {&p->vx[i], &p->vy[i], &p->vz[i]};
        hk_real *const prev[3] = {cp->px ? cp->px + i : NULL, cp->py ? cp->py + i : NULL, cp->pz ? cp->pz + i : NULL};
        moved += hk_walls_push(w->bodies[b].origin, r, q, v, lo, hi, keep, dt, cp->px ? prev : NULL);
    }
    atomic_fetch_add_explicit(&cp->moved, moved, memory_order_relaxed);
}

int64_t hk_walls_pass(hk_world *w, double dt, hk_real *const prev[3])
{
    contact_pass cp = {
        .w = w, .dt = dt, .px = prev ? prev[0] : NULL, .py = prev ? prev[1] : NULL, .pz = prev ? prev[2] : NULL};
    atomic_init(&cp.moved, 0);
    hk_team_spans(w, walls_piece, &cp);
    return atomic_load(&cp.moved);
}

static void sphere_piece(void *ctx, int g0, int g1)
{
    contact_pass *cp = ctx;
    hk_world *w = cp->w;
    hk_particles *p = &w->p;
    const hk_sphere_def sd = cp->sd;
    const double c[3] = {sd.center.x, sd.center.y, sd.center.z}, cv[3] = {sd.velocity.x, sd.velocity.y, sd.velocity.z};
    const double R = sd.radius, e = 1.0 - sd.loss;
    const hk_real dt = (hk_real)cp->dt;
    int moved = 0;
    for (int i = g0, b = hk_body_of(w, g0); i < g1; i++) {
        while (i >= w->bodies[b].first + w->bodies[b].count) b++;
        if (p->inv_mass[i] == 0) continue;
        const hk_real r[3] = {p->rx[i], p->ry[i], p->rz[i]};
        hk_real *const q[3] = {&p->qx[i], &p->qy[i], &p->qz[i]}, *const v[3] = {&p->vx[i], &p->vy[i], &p->vz[i]};
        hk_real *const prev[3] = {cp->px ? cp->px + i : NULL, cp->py ? cp->py + i : NULL, cp->pz ? cp->pz + i : NULL};
        moved += hk_sphere_push(w->bodies[b].origin, r, q, v, c, cv, R, e, dt, cp->px ? prev : NULL);
    }
    atomic_fetch_add_explicit(&cp->moved, moved, memory_order_relaxed);
}

int64_t hk_sphere_pass(hk_world *w, const hk_sphere_def *s, double dt, hk_real *const prev[3])
{
    contact_pass cp = {.w = w,
                       .dt = dt,
                       .px = prev ? prev[0] : NULL,
                       .py = prev ? prev[1] : NULL,
                       .pz = prev ? prev[2] : NULL,
                       .sd = *s};
    atomic_init(&cp.moved, 0);
    hk_team_spans(w, sphere_piece, &cp);
    return atomic_load(&cp.moved);
}
